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

use crate::ir::{CellId, PieceTypeId, PlayerId};
use crate::position::{Move, MoveKind, Position, State};
use crate::rules::gates::GATE_ON_PARTNER;
use crate::rules::Rules;

impl State {
    /// Appends, for each piece move from `start` on that leaves a gated cell of the mover's,
    /// one move per type in the mover's hand placing it there (on a castling, on the king's
    /// cell or the partner's). A cell the move's pieces land on or cover is not left.
    pub(crate) fn add_gated(&self, r: &Rules, side: PlayerId, start: usize, out: &mut Vec<Move>) {
        let rights = self.rights.castling;
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
                let held = r.gates.gating(side, cell) & rights;
                if held == 0 {
                    continue;
                }
                // A cell the move's pieces land on, or still cover from between cells, is not
                // left: nothing is gated there.
                if lands.iter().any(|&to| overlap(r, to, cell)) {
                    continue;
                }
                for (t, n) in hand.iter().enumerate() {
                    if *n > 0 && r.gates.places(held, PieceTypeId(t as u8)) {
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
        let attrs = r.pieces.attr_defaults[ty.0 as usize];
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

impl Position {
    /// Where a gated move puts a piece from hand, and its type.
    pub fn gate_of(&self, mv: Move) -> Option<(CellId, PieceTypeId)> {
        gate_of(&self.rules, mv)
    }
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
