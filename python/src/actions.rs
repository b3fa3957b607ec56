//! The fixed action encoding and the observation planes of the PettingZoo environment: every move of a game maps to one index below a size that depends only on the game.

use std::sync::Arc;

use varia_interpreter::{Move, MoveKind, Position, Rules};

/// Actions are numbered `((from * cells) + to) * slots + slot`: a piece move from `from` to
/// `to` (castling as the king's move) has slot 0, or 1 + the type it promotes to or gates in;
/// a drop of type t on `to` is (to, to, 1 + t); square actions and the end of a turn have the
/// slots after the piece types. Moves that would share an index (a capture choosing its victim
/// on a crowded cell) take the next free slot of their (from, to) block, in the order of their
/// long notation.
#[derive(Clone, Debug)]
pub struct Encoding {
    cells: usize,
    types: usize,
    players: usize,
    slots: usize,
}

/// Slots after the piece types: square move, square carried with its piece, square placed,
/// end of turn, a choice before the game.
const EXTRA_SLOTS: usize = 5;

impl Encoding {
    pub fn new(rules: &Arc<Rules>) -> Encoding {
        let types = rules.variant.pieces.len();
        Encoding { cells: rules.cell_count(), types, players: rules.player_count(), slots: 1 + types + EXTRA_SLOTS }
    }

    /// The number of actions.
    pub fn size(&self) -> usize {
        self.cells * self.cells * self.slots
    }

    /// A move's (from, to, slot) before collisions are resolved.
    fn base(&self, pos: &Position, mv: Move) -> (usize, usize, usize) {
        let r = pos.rules();
        let t = self.types;
        let (from, to) = (mv.from.0 as usize, mv.to.0 as usize);
        match mv.kind {
            MoveKind::Drop => (to, to, 1 + r.type_of(mv.piece).0 as usize),
            MoveKind::MoveSquare => (from, to, 1 + t),
            MoveKind::CarrySquare => (from, to, 2 + t),
            MoveKind::PlaceSquare => (to, to, 3 + t),
            MoveKind::EndTurn => (0, 0, 4 + t),
            MoveKind::Choose => (mv.seq as usize % self.cells, mv.extra as usize % self.cells, 5 + t),
            MoveKind::Castle => {
                let c = &r.castling(mv.extra);
                let slot = pos.gate_of(mv).map_or(0, |(_, g)| 1 + g.0 as usize);
                (c.king_from.0 as usize, c.king_to.0 as usize, slot)
            }
            _ => {
                let slot = match (mv.promotion(), pos.gate_of(mv)) {
                    (Some(p), _) => 1 + p.0 as usize,
                    (None, Some((_, g))) => 1 + g.0 as usize,
                    (None, None) => 0,
                };
                (from, to, slot)
            }
        }
    }

    /// The legal moves of a position with their action indices, all different.
    pub fn table(&self, pos: &mut Position) -> Vec<(usize, Move)> {
        let mut legal = Vec::new();
        pos.legal_moves(&mut legal);
        let mut keyed: Vec<((usize, usize, usize), Move)> = legal.iter().map(|&m| (self.base(pos, m), m)).collect();
        keyed.sort_by_key(|(k, _)| *k);
        let shared = keyed.windows(2).any(|w| w[0].0 == w[1].0);
        if shared {
            // Within a shared index, the order of long notation decides who probes on.
            keyed.sort_by_cached_key(|(k, m)| (*k, pos.long_notation(*m)));
        }
        let mut used = std::collections::HashSet::new();
        let mut out = Vec::with_capacity(keyed.len());
        for ((from, to, slot), mv) in keyed {
            let block = (from * self.cells + to) * self.slots;
            let free = (0..self.slots).map(|i| block + (slot + i) % self.slots).find(|a| !used.contains(a));
            if let Some(a) = free {
                used.insert(a);
                out.push((a, mv));
            }
        }
        out
    }

    /// The observation's shape: a row per cell and one for the hands and the turn; a column
    /// per (player, piece type), then the square's presence, then its owner per player.
    pub fn observation_shape(&self) -> (usize, usize) {
        (self.cells + 1, self.players * self.types + 1 + self.players)
    }

    /// The observation of a position, row by row (see [`Encoding::observation_shape`]): the
    /// pieces on each cell counted by (owner, type), 1 where the cell has a square (every cell
    /// in games without square play) and 1 in the column of the square's owner; the last row
    /// holds the pieces in hand, the index of the action within the turn, and 1 in the column
    /// of the player to move.
    pub fn observation(&self, pos: &Position) -> Vec<f32> {
        let (rows, cols) = self.observation_shape();
        let r = pos.rules();
        let pt = self.players * self.types;
        let mut out = vec![0f32; rows * cols];
        for c in 0..self.cells {
            let cell = varia_interpreter::ir::CellId(c as u16);
            let row = &mut out[c * cols..(c + 1) * cols];
            for &p in pos.pieces_at(cell) {
                row[r.owner(p).0 as usize * self.types + r.type_of(p).0 as usize] += 1.0;
            }
            if pos.has_square(cell) {
                row[pt] = 1.0;
            }
            if let Some(o) = pos.square_owner(cell) {
                row[pt + 1 + o.0 as usize] = 1.0;
            }
        }
        let last = &mut out[self.cells * cols..];
        for p in 0..self.players {
            for (t, n) in pos.hand(varia_interpreter::ir::PlayerId(p as u8)) {
                last[p * self.types + t.0 as usize] = n as f32;
            }
        }
        last[pt] = pos.action_index() as f32;
        last[pt + 1 + pos.side_to_move().0 as usize] = 1.0;
        out
    }
}
