//! Perft's last two plies where square placements end the turn: the placements after the first are counted by moving its square (logged, then taken back) instead of making and unmaking each.

use std::sync::Arc;

use crate::ir::{ActionKind, CellId, Untouchable};
use crate::position::{Move, MoveKind, Position, State};
use crate::rules::Piece;
use crate::rules::Rules;

impl Position {
    /// The number of legal actions after each legal action here (perft at depth 2, `moves`
    /// and `buf` scratch space), or `None` where placements are not known to differ in their
    /// cell alone. Two placements that end the turn make positions differing in the placed
    /// square, its owner and the hash: after the first is made, each other one's position is
    /// that one with the square moved there and back (unlogged: the log cost a tenth).
    pub(crate) fn count_after_placements(&mut self, moves: &mut Vec<Move>, buf: &mut Vec<Move>) -> Option<u64> {
        if !self.placements_alike() {
            return None;
        }
        self.legal_moves(moves);
        let rules = Arc::clone(&self.rules);
        let r = &*rules;
        let castling = self.st.castling;
        // A placement onto a location without a square that loses no castling right.
        let alike = |cells: &[Piece], mv: &Move| {
            mv.kind == MoveKind::PlaceSquare
                && cells[mv.to.0 as usize] == Piece::HOLE
                && r.castle_keep[mv.from.0 as usize] & r.castle_keep[mv.to.0 as usize] & castling == castling
        };
        // The placements alike to the end, the other actions made one by one.
        let mut k = moves.len();
        let mut i = 0;
        while i < k {
            if alike(&self.st.cells, &moves[i]) {
                k -= 1;
                moves.swap(i, k);
            } else {
                i += 1;
            }
        }
        let mut n = 0;
        for &mv in &moves[..k] {
            self.make(mv);
            n += self.count_legal(buf);
            self.unmake();
        }
        let Some((&first, others)) = moves[k..].split_first() else { return Some(n) };
        let me = self.st.side.0 + 1;
        let was = self.st.owner.get(first.to.0 as usize).copied().unwrap_or(0);
        self.make(first);
        // What the next player's royal memo read (check, pins) lies on its royals' lines: the
        // positions of two placements off those lines share it, under their own hashes.
        let lines = self.royal_lines();
        let off = |c: CellId| c.0 < 128 && lines.is_some_and(|m| m >> c.0 & 1 == 0);
        n += self.count_legal(buf);
        let mut shared = off(first.to).then_some(self.st.hash);
        for &mv in others {
            let (at, to) = (first.to.0 as usize, mv.to.0 as usize);
            let before = self.st.owner.get(to).copied().unwrap_or(0);
            self.st.move_placed_square(r, first.to, mv.to, was, me);
            debug_assert_eq!(self.st.hash, self.st.compute_hash(r), "the hash of the placement on {:?}", mv.to);
            let apart = off(mv.to);
            if let (true, Some(from)) = (apart, shared) {
                self.carry_royal_memo(from);
            }
            n += self.count_legal(buf);
            if apart {
                shared = Some(self.st.hash);
            }
            self.st.move_placed_square(r, mv.to, first.to, before, me);
            debug_assert!(self.st.cells[at] == Piece::EMPTY && self.st.cells[to] == Piece::HOLE);
        }
        self.unmake();
        Some(n)
    }

    /// The cells the side to move's royal memo reads (`count.rs`): its royals' cells and the
    /// cells of every enemy probe from them, where attacks are the probes' alone and the board
    /// holds single pieces on at most 128 cells; `None` otherwise.
    fn royal_lines(&self) -> Option<u128> {
        let r = &*self.rules;
        if !r.probes_only || r.count.program_attacks || r.program.is_some() || r.stacking || r.covering || r.cells > 128
        {
            return None;
        }
        let side = self.st.side;
        let mut lines = 0u128;
        for royal in self.st.royals[side.0 as usize].iter() {
            lines |= 1 << royal.0;
            for p in (0..r.players as u8).filter(|p| !r.allied(crate::ir::PlayerId(*p), side)) {
                let i = p as usize * r.cells + royal.0 as usize;
                for probe in &r.probes[r.probe_index[i] as usize..r.probe_index[i + 1] as usize] {
                    let s = probe.start as usize;
                    lines = r.probe_cells[s..s + probe.len as usize].iter().fold(lines, |m, c| m | 1 << c.0);
                }
            }
        }
        Some(lines)
    }

    /// Whether every placement due now ends the turn and changes nothing but its location, its
    /// owner and the reserve: no program or phase, no explosion, no test before moves, no
    /// count of checks or moves, no player put out, no turn order, placements left touchable,
    /// and the first slot from this one that holds placements is the turn's last.
    fn placements_alike(&self) -> bool {
        let r = &*self.rules;
        let squares = r.variant.squares.as_ref();
        let s = self.st.slot as usize;
        r.square_play
            && !self.walk_only
            && squares.is_some_and(|q| q.untouchable != Untouchable::Touched)
            && self.st.partial.is_none()
            && r.program.is_none()
            && r.variant.phases.is_empty()
            && r.explosions.is_none()
            && r.before_tests.is_empty()
            && !r.counting
            && !r.counts_checks
            && !r.eliminating()
            && r.variant.turn_order.is_none()
            && !self.st.choosing(r)
            && (s..r.slots.len()).find(|&i| r.slots[i].kinds.contains(&ActionKind::PlaceSquare))
                == Some(r.slots.len() - 1)
    }
}

impl State {
    /// Moves the square just placed on `from` to `to` (a location without one), keeping the
    /// hash: `from` goes back to no square and to `left` as its owner, `to` is owned by `owner`
    /// where squares have owners.
    fn move_placed_square(&mut self, r: &Rules, from: CellId, to: CellId, left: u8, owner: u8) {
        self.cells[from.0 as usize] = Piece::HOLE;
        self.no_square.insert(from);
        self.cells[to.0 as usize] = Piece::EMPTY;
        self.no_square.remove(to);
        self.hash ^= r.zhole(from) ^ r.zhole(to);
        if r.owned_squares {
            let placed = self.owner[from.0 as usize];
            self.hash ^= r.zowner(from, placed) ^ r.zowner(from, left);
            self.owner[from.0 as usize] = left;
            self.hash ^= r.zowner(to, self.owner[to.0 as usize]) ^ r.zowner(to, owner);
            self.owner[to.0 as usize] = owner;
        }
    }
}
