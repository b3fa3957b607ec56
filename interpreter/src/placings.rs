//! Perft's last two plies where square placements end the turn: the placements after the first are counted by moving its square there and back instead of making and unmaking each, sharing the next player's royal memo or whole count where it read neither placement's cell.

use std::sync::Arc;

use crate::ir::{ActionKind, CellId, PlayerId};
use crate::position::{Move, MoveKind, Position, State};
use crate::raymask::Bits;
use crate::rules::{Piece, Rules};

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
        let outside = |m: u128, c: CellId| c.0 < 128 && m >> c.0 & 1 == 0;
        let lines = self.royal_lines();
        let off = |c: CellId| lines.is_some_and(|m| outside(m, c));
        let counted = self.count_legal(buf);
        n += counted;
        // Where the count read no cell of two placements, their positions have the same count
        // (the end of the game still judged in each): `same` holds a placement, the cells its
        // count read (not its own) and that count. The first placement made is often on a
        // cell read: the next one off those cells is tried once as the base.
        let reads = self.count_reads(r, counted, buf);
        let mut same = reads.filter(|m| outside(*m, first.to)).map(|m| (first.to, m, counted));
        let mut try_base = reads.is_some() && same.is_none();
        let mut shared = off(first.to).then_some(self.st.hash);
        for &mv in others {
            let (at, to) = (first.to.0 as usize, mv.to.0 as usize);
            let before = self.st.owner.get(to).copied().unwrap_or(0);
            self.st.move_placed_square(r, first.to, mv.to, was, me);
            debug_assert_eq!(self.st.hash, self.st.compute_hash(r), "the hash of the placement on {:?}", mv.to);
            if let Some((_, _, base)) = same.filter(|(_, m, _)| outside(*m, mv.to)) {
                let ended = self.decided_before_moves().is_some() || self.drawn_by_rule().is_some();
                let c = if ended { 0 } else { base };
                debug_assert_eq!(c, self.count_legal(buf), "the count after the placement on {:?}", mv.to);
                n += c;
                self.st.move_placed_square(r, mv.to, first.to, before, me);
                continue;
            }
            let apart = off(mv.to);
            if let (true, Some(from)) = (apart, shared) {
                self.carry_royal_memo(from);
            }
            let c = self.count_legal(buf);
            n += c;
            if apart {
                shared = Some(self.st.hash);
            }
            if try_base && reads.is_some_and(|m| outside(m, mv.to)) {
                try_base = false;
                same = self.count_reads(r, c, buf).filter(|m| outside(*m, mv.to)).map(|m| (mv.to, m, c));
            }
            self.st.move_placed_square(r, mv.to, first.to, before, me);
            debug_assert!(self.st.cells[at] == Piece::EMPTY && self.st.cells[to] == Piece::HOLE);
        }
        self.unmake();
        Some(n)
    }

    /// The cells the count of the side to move read, `counted` its legal actions (by rays, not
    /// in check, every piece but the royal kept in [`crate::piececounts::PieceCounts`], the
    /// first action due a piece move that cannot be left out, no en passant): the pieces' read
    /// cells, the royal's lines, every cell the royal may reach and the lines to it, the
    /// castlings' cells and the lines to those that must be safe. `None` where unknown.
    fn count_reads(&mut self, r: &Rules, counted: u64, buf: &mut Vec<Move>) -> Option<u128> {
        let side = self.st.side;
        let slot = &r.slots[self.st.slot as usize];
        if counted == 0
            || self.st.ep.is_some()
            || slot.optional
            || slot.kinds != [ActionKind::MovePiece]
            || r.count.masks.fits.is_empty()
            || self.decided_before_moves().is_some()
            || self.drawn_by_rule().is_some()
        {
            return None;
        }
        // The piece moves alone were counted (more than none: no later action was reached),
        // leaving every piece's count kept for this position.
        if self.count_piece_moves(buf) != counted {
            return None;
        }
        let (royal, ..) = self.counted_royal()?;
        let occ = self.st.occupancy::<u128>(side);
        let own = u128::from_words(self.st.occupied[side.0 as usize].words()) & !(1 << royal.0);
        let mut reads = self.piece_counts.reads_of(side, occ.all, occ.enemy, own)? | self.royal_lines()?;
        let masks = &r.count.masks;
        let king = masks.slot(self.st.cells[royal.0 as usize], royal, r.cells);
        if !king.counted {
            return None;
        }
        // Its targets, each tried with the royal lifted: the probes from it up to the first
        // piece or location without a square.
        let (_, seen) = masks.count_seen::<u128, false>(king, occ);
        reads |= seen;
        let mut targets = masks.targets(king, occ);
        while targets != 0 {
            let t = CellId(targets.trailing_zeros() as u16);
            targets &= targets - 1;
            reads |= self.walked_lines(side, t, 1, Some(royal))?;
        }
        for (i, c) in r.variant.castlings.iter().enumerate() {
            if self.st.castling & (1 << i) == 0 || c.player != side {
                continue;
            }
            // A castling whose cells are not all empty is refused on its mask alone.
            let empty = r.castle_empty[i];
            if empty != 0 && occ.all & empty != 0 {
                reads |= empty;
                continue;
            }
            let cells = [c.king_from, c.partner_from, c.king_to, c.partner_to];
            for x in cells.iter().chain(&c.must_be_empty).chain(&c.must_be_safe) {
                if x.0 >= 128 {
                    return None;
                }
                reads |= 1 << x.0;
            }
            for &x in c.must_be_safe.iter().chain([&c.king_to]) {
                reads |= self.walked_lines(side, x, u32::MAX, None)?;
            }
        }
        Some(reads)
    }

    /// The cells of every probe of `side`'s enemies from `cell` up to and including its
    /// `blockers`-th location holding a piece or no square (`lifted` passed as empty; every
    /// cell for `u32::MAX`), on the first 128 cells: what a walk of the probes reads.
    fn walked_lines(&self, side: PlayerId, cell: CellId, blockers: u32, lifted: Option<CellId>) -> Option<u128> {
        let r = &*self.rules;
        let mut lines = 0u128;
        for p in (0..r.players as u8).filter(|p| !r.allied(PlayerId(*p), side)) {
            let i = p as usize * r.cells + cell.0 as usize;
            for probe in &r.probes[r.probe_index[i] as usize..r.probe_index[i + 1] as usize] {
                let s = probe.start as usize;
                let mut met = 0;
                for &c in &r.probe_cells[s..s + probe.len as usize] {
                    if c.0 >= 128 {
                        return None;
                    }
                    lines |= 1 << c.0;
                    if !self.st.cells[c.0 as usize].is_empty() && Some(c) != lifted {
                        met += 1;
                        if met == blockers {
                            break;
                        }
                    }
                }
            }
        }
        Some(lines)
    }

    /// The cells the side to move's royal memo reads (`royal.rs`): its royals' cells and the
    /// cells of every enemy probe from them, where the paths allow placements to share the
    /// count (`Path::SharedCount`); `None` otherwise.
    fn royal_lines(&self) -> Option<u128> {
        let r = &*self.rules;
        if !r.paths.allows(crate::paths::Path::SharedCount) {
            return None;
        }
        let side = self.st.side;
        let mut lines = 0u128;
        for royal in self.st.royals[side.0 as usize].iter() {
            // Check and pins: each probe up to its second occupied location.
            lines |= 1 << royal.0 | self.walked_lines(side, royal, 2, None)?;
        }
        Some(lines)
    }

    /// Whether every placement due now ends the turn and changes nothing but its location, its
    /// owner and the reserve: no program or phase, no explosion, no test before moves, no
    /// count of checks or moves, no player put out, no turn order, placements left touchable,
    /// and the first slot from this one that holds placements is the turn's last.
    fn placements_alike(&self) -> bool {
        let r = &*self.rules;
        let s = self.st.slot as usize;
        r.paths.allows(crate::paths::Path::Placements)
            && !self.walk_only
            && self.st.partial.is_none()
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
