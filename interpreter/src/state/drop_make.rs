//! The plain make of a plain drop: one piece from the hand onto an empty cell, recorded in the undo record alone.
//!
//! It does what the general make does for such a drop (the hand, the piece, the clock, en
//! passant, castling rights lost or gained, the turn, phases) without logging each change:
//! unmaking lifts the piece and gives it back to the hand, the rest comes from the record.

use crate::position::{Move, MoveKind, State};
use crate::rules::programs::PLAIN_DROP;
use crate::rules::Rules;

impl Move {
    /// A drop whose program places the one piece on an empty cell and does nothing else.
    #[inline]
    pub(crate) fn is_plain_drop(&self) -> bool {
        self.kind == MoveKind::Drop
            && self.seq == PLAIN_DROP
            && self.take.is_empty()
            && self.gate == 0
            && self.wall == 0
    }
}

impl State {
    /// The hand count a plain drop of `mv` takes its piece from, if it comes from the hand.
    #[inline]
    fn hand_of_drop(&self, r: &Rules, mv: Move) -> Option<usize> {
        let pr = r.program.as_deref()?;
        let t = r.type_of(mv.piece).0 as usize;
        pr.from_hand[t].then(|| r.owner(mv.piece).0 as usize * r.types + t)
    }

    /// Makes a plain drop ([`Move::is_plain_drop`]) as the general make would; `false`, with
    /// nothing done, where its piece should come from an empty hand (the general make then
    /// places it without taking from the hand).
    pub(crate) fn make_plain_drop(&mut self, r: &Rules, mv: Move) -> bool {
        let hand = self.hand_of_drop(r, mv);
        if hand.is_some_and(|i| self.hand[i] == 0) {
            return false;
        }
        self.history.push(self.undo_record(mv, mv.piece));
        self.hashes.push(self.hash);
        // A drop adds material for good: it resets the clock, as a capture does.
        self.clocks.halfmove = 0;
        self.clear_en_passant(r);
        if let Some(i) = hand {
            self.set_hand(r, i, self.hand[i] - 1);
        }
        self.put_on(r, mv.to, mv.piece);
        self.piece_count += 1;
        self.drop_castling(r, r.castle_keep[mv.to.0 as usize]);
        if r.castles.gained_by_drop() {
            self.gain_castling(r, mv);
        }
        self.next_player(r);
        if !r.variant.phases.is_empty() {
            self.update_phases(r);
        }
        true
    }

    /// Takes back [`State::make_plain_drop`]'s board and hand (the rest is the undo record's).
    pub(crate) fn unmake_plain_drop(&mut self, r: &Rules, mv: Move) {
        self.take_off(r, mv.to);
        if let Some(i) = self.hand_of_drop(r, mv) {
            self.hand[i] += 1;
        }
    }
}
