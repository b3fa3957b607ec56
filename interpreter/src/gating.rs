//! Gating: a piece's move from a cell the mover holds a gating right for may put a piece from the mover's hand on the cell it leaves (Seirawan chess).
//!
//! Gating rights are bits of the castling rights' word, after the castlings'. In position
//! strings (and a setup's `castling` line) a castling right also stands for the gates on its
//! king's and partner's cells, as Fairy-Stockfish writes Seirawan chess (`K`: castling and the
//! gates on e1 and h1; `H` alone once the king has moved): for the gates whose cells are all
//! among those two, so that no move ends such a gate and leaves the castling. A gated move is
//! legal exactly when the same move without the gate is (the gated piece may not be what blocks
//! a check, the official ruling Fairy-Stockfish follows), so the generator adds the gated forms
//! of each move and legality tests the move without them.

use crate::castling::CastleRules;
use crate::ir::{CellId, PieceTypeId, PlayerId, Variant};
use crate::position::{Move, MoveKind, State};
use crate::rules::Rules;

/// `Move::gate`'s flag: on a castling, the piece goes on the partner's cell, not the king's.
pub(crate) const GATE_ON_PARTNER: u8 = 0x80;

/// The compiled gating rights.
#[derive(Debug, Default)]
pub(crate) struct GateRules {
    /// Per rights bit: its player and letter (castlings first, in declaration order).
    pub(crate) letters: Vec<(PlayerId, char)>,
    /// Per (player, cell): the rights bits that gate the cell.
    cells: Vec<u32>,
    /// Per castling: the gate bits a castling right also stands for in position strings.
    implied: Vec<u32>,
    /// The bits of castlings whose start cells come from the position (written by the
    /// position string, which knows where the pieces stand).
    derived: u32,
}

impl GateRules {
    /// The rights of a variant's castlings and gates.
    pub(crate) fn new(v: &Variant, castles: &CastleRules, cells: usize) -> GateRules {
        let fixed = &castles.list[..castles.fixed];
        let mut letters: Vec<(PlayerId, char)> = fixed.iter().map(|c| (c.player, c.right)).collect();
        let mut derived = 0u32;
        for (p, _, l) in &castles.letters {
            if letters.len() < 32 {
                derived |= 1 << letters.len();
            }
            letters.push((*p, *l));
        }
        let mut by_cell = vec![0u32; v.players.len() * cells];
        for g in &v.gates {
            let bit = match letters.iter().position(|(p, l)| *p == g.player && *l == g.right) {
                Some(i) => i,
                None => {
                    letters.push((g.player, g.right));
                    letters.len() - 1
                }
            };
            if bit >= 32 {
                continue;
            }
            for c in &g.cells {
                by_cell[g.player.0 as usize * cells + c.0 as usize] |= 1 << bit;
            }
        }
        let implied = fixed
            .iter()
            .map(|c| {
                let mut bits = 0;
                for (i, (p, l)) in letters.iter().enumerate().skip(fixed.len()).take(32) {
                    // Only a gate that no move can end without ending the castling too: one
                    // whose cells are all the king's or the partner's. A gate on another cell
                    // as well may be lost while the castling is held, and the castling's letter
                    // could not then say so.
                    let cells: Vec<CellId> = v
                        .gates
                        .iter()
                        .filter(|g| g.player == *p && g.right == *l)
                        .flat_map(|g| g.cells.clone())
                        .collect();
                    let within = cells.iter().all(|cell| *cell == c.king_from || *cell == c.partner_from);
                    if *p == c.player && !cells.is_empty() && within {
                        bits |= 1 << i;
                    }
                }
                bits
            })
            .collect();
        GateRules { letters, cells: by_cell, implied, derived }
    }

    /// The bits a right's letter stands for in a position string: a castling's with the gates
    /// on its cells, or a gate's own.
    pub(crate) fn read_letter(&self, letter: char) -> Option<u32> {
        let bit = self.bit(letter)?;
        Some((1 << bit) | self.implied.get(bit).copied().unwrap_or(0))
    }

    /// The rights held, as a position string writes them: each player's castlings, then the
    /// gates no held castling stands for.
    pub(crate) fn text(&self, players: usize, held: u32, derived: &dyn Fn(u8) -> String) -> String {
        let covered: u32 =
            self.implied.iter().enumerate().filter(|(i, _)| held & (1 << i) != 0).fold(0, |m, (_, b)| m | b);
        let mut out = String::new();
        for p in 0..players as u8 {
            for (i, (owner, letter)) in self.letters.iter().enumerate().take(32) {
                let derived = self.derived & (1 << i) != 0;
                if owner.0 == p
                    && held & (1 << i) != 0
                    && !derived
                    && (i < self.implied.len() || covered & (1 << i) == 0)
                {
                    out.push(*letter);
                }
            }
            out.push_str(&derived(p));
        }
        out
    }

    /// The rights bit of a letter, if the variant has that right.
    pub(crate) fn bit(&self, letter: char) -> Option<usize> {
        self.letters.iter().position(|(_, l)| *l == letter).filter(|i| *i < 32)
    }

    /// The rights that gate a cell for a player.
    #[inline]
    fn gating(&self, r: &Rules, player: PlayerId, cell: CellId) -> u32 {
        self.cells.get(player.0 as usize * r.cells + cell.0 as usize).copied().unwrap_or(0)
    }
}

/// The bits that touching each cell takes away: a castling's king and partner cells end it; a
/// gate ends once a piece leaves or lands on one of its cells.
pub(crate) fn rights_kept(v: &Variant, castles: &CastleRules, gates: &GateRules, cells: usize) -> Vec<u32> {
    let mut keep = vec![u32::MAX; cells];
    for (i, c) in castles.list[..castles.fixed].iter().enumerate() {
        keep[c.king_from.0 as usize] &= !(1 << i);
        keep[c.partner_from.0 as usize] &= !(1 << i);
    }
    // A derived right is lost with its partner's cell (the king's, by `CastleRules::king_loss`).
    for (i, (_, cell, _)) in castles.letters.iter().enumerate() {
        if castles.first_bit + i < 32 {
            keep[cell.0 as usize] &= !(1 << (castles.first_bit + i));
        }
    }
    for g in &v.gates {
        if let Some(bit) = gates.bit(g.right).filter(|b| *b >= castles.fixed) {
            for c in &g.cells {
                keep[c.0 as usize] &= !(1 << bit);
            }
        }
    }
    keep
}

impl State {
    /// Appends, for each piece move from `start` on that leaves a gated cell of the mover's,
    /// one move per type in the mover's hand placing it there (on a castling, on the king's
    /// cell or the partner's). A cell the move's pieces land on or cover is not left.
    pub(crate) fn add_gated(&self, r: &Rules, side: PlayerId, start: usize, out: &mut Vec<Move>) {
        let rights = self.castling;
        if rights == 0 || r.gates.letters.is_empty() {
            return;
        }
        let hand = &self.hand[side.0 as usize * r.types..(side.0 as usize + 1) * r.types];
        if hand.iter().all(|n| *n == 0) {
            return;
        }
        let end = out.len();
        for i in start..end {
            let mv = out[i];
            let (cells, lands): (&[(CellId, u8)], &[CellId]) = match mv.kind {
                MoveKind::Castle => {
                    let c = &r.castles.list[mv.extra as usize];
                    (&[(c.king_from, 0), (c.partner_from, GATE_ON_PARTNER)], &[c.king_to, c.partner_to])
                }
                MoveKind::Normal | MoveKind::Passage | MoveKind::EnPassant => (&[(mv.from, 0)], &[mv.to]),
                _ => continue,
            };
            for &(cell, flag) in cells {
                if r.gates.gating(r, side, cell) & rights == 0 {
                    continue;
                }
                // A cell the move's pieces land on, or still cover from between cells, is not
                // left: nothing is gated there.
                if lands.iter().any(|&to| overlap(r, to, cell)) {
                    continue;
                }
                for (t, n) in hand.iter().enumerate() {
                    if *n > 0 {
                        out.push(Move { gate: (t as u8 + 1) | flag, ..mv });
                    }
                }
            }
        }
    }

    /// After a gated move: the piece from hand on the cell left behind.
    pub(crate) fn place_gated(&mut self, r: &Rules, mv: Move) {
        let Some((cell, ty)) = gate_of(r, mv) else { return };
        let side = self.side;
        let i = side.0 as usize * r.types + ty.0 as usize;
        self.hand_logged(r, i, self.hand[i].saturating_sub(1));
        let attrs = r.attr_defaults[ty.0 as usize];
        self.put_logged(r, cell, r.piece(side, ty), attrs);
    }
}

/// Whether pieces on the locations `a` and `b` would share a cell: the same location, or one
/// between cells covering the other or a cell the other covers.
fn overlap(r: &Rules, a: CellId, b: CellId) -> bool {
    let on = |x: CellId| -> &[CellId] {
        if r.is_between(x) {
            r.covers(x)
        } else {
            &[]
        }
    };
    a == b || on(a).contains(&b) || on(b).contains(&a) || on(a).iter().any(|c| on(b).contains(c))
}

/// The cell and type of a move's gate, if it gates.
pub(crate) fn gate_of(r: &Rules, mv: Move) -> Option<(CellId, PieceTypeId)> {
    if mv.gate == 0 {
        return None;
    }
    let ty = PieceTypeId((mv.gate & !GATE_ON_PARTNER) - 1);
    let cell = match mv.kind {
        MoveKind::Castle => {
            let c = &r.castles.list[mv.extra as usize];
            if mv.gate & GATE_ON_PARTNER != 0 {
                c.partner_from
            } else {
                c.king_from
            }
        }
        _ => mv.from,
    };
    Some((cell, ty))
}
