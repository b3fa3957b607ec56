//! The pieces' move counts kept from one count to the next: a piece whose count read no cell that has changed since keeps its number (sibling positions differ in a few cells).

use crate::ir::PlayerId;
use crate::raymask::{Bits, Occupancy};
use crate::rules::Piece;

/// Per cell of the side counted last: the piece there, its number of moves and the cells that
/// count read ([`crate::raymask::MaskTables::count_seen`]). Valid on the cells of `valid`, for
/// the occupancy `occ` (all, enemy, land, join) of the count that left them: a count that does
/// not refresh a cell drops it, so a count kept across several positions is still that of the
/// occupancy it is compared with.
#[derive(Clone, Debug)]
pub(crate) struct PieceCounts {
    side: PlayerId,
    occ: [u128; 4],
    valid: [u64; 2],
    pieces: [Piece; 128],
    counts: [u32; 128],
    seen: [u128; 128],
}

impl PieceCounts {
    /// Nothing kept.
    pub(crate) fn new() -> Box<PieceCounts> {
        Box::new(PieceCounts {
            side: PlayerId(0),
            occ: [0; 4],
            valid: [0; 2],
            pieces: [Piece::EMPTY; 128],
            counts: [0; 128],
            seen: [0; 128],
        })
    }

    /// The cells whose occupancy differs from the last count's: every cell when that count was
    /// another side's. (A piece's count is a function of its slot, fixed by the piece and its
    /// cell, and of the occupancy alone.)
    #[inline(always)]
    pub(crate) fn changed<B: Bits>(&self, side: PlayerId, occ: &Occupancy<B>) -> B {
        if self.side != side {
            return !B::ZERO;
        }
        let [all, enemy, land, join] = self.occ.map(B::of);
        (all ^ occ.all) | (enemy ^ occ.enemy) | (land ^ occ.land) | (join ^ occ.join)
    }

    /// The count kept for `piece` on cell `c` (below 128), if none of the cells it read has
    /// `changed`.
    #[inline(always)]
    pub(crate) fn kept<B: Bits>(&self, c: usize, piece: Piece, changed: B) -> Option<u64> {
        self.kept_seen(c, piece, changed).map(|(n, _)| n)
    }

    /// [`PieceCounts::kept`] and the cells that count read (none kept past the first 128
    /// cells: on a board with locations between cells the masks may hold those alone).
    #[inline(always)]
    pub(crate) fn kept_seen<B: Bits>(&self, c: usize, piece: Piece, changed: B) -> Option<(u64, B)> {
        if c >= 128 {
            return None;
        }
        let seen = B::of(self.seen[c]);
        let fresh = self.valid[c >> 6] >> (c & 63) & 1 != 0 && self.pieces[c] == piece && seen & changed == B::ZERO;
        fresh.then(|| (u64::from(self.counts[c]), seen))
    }

    /// Keeps the count `n` of `piece` on cell `c`, which read the cells `seen`, and marks it
    /// `valid` for the count going on (nothing past the first 128 cells).
    #[inline(always)]
    pub(crate) fn keep<B: Bits>(&mut self, c: usize, piece: Piece, n: u64, seen: B, valid: &mut [u64; 2]) {
        if c >= 128 {
            return;
        }
        Self::mark(valid, c);
        self.pieces[c] = piece;
        self.counts[c] = n.min(u64::from(u32::MAX)) as u32;
        self.seen[c] = seen.wide();
    }

    /// Marks cell `c`'s kept count (found unchanged) `valid` for the count going on.
    #[inline(always)]
    pub(crate) fn mark(valid: &mut [u64; 2], c: usize) {
        if c < 128 {
            valid[c >> 6] |= 1 << (c & 63);
        }
    }

    /// The cells the kept counts of the pieces on `own` read, when each of them is kept from
    /// the last count, which was `side`'s under the occupancy `all` and `enemy` (on boards
    /// whose pieces land on every empty cell: `land` and `join` follow); `None` otherwise.
    pub(crate) fn reads_of(&self, side: PlayerId, all: u128, enemy: u128, own: u128) -> Option<u128> {
        let valid = u128::from(self.valid[0]) | u128::from(self.valid[1]) << 64;
        if self.side != side || self.occ[0] != all || self.occ[1] != enemy || own & !valid != 0 {
            return None;
        }
        let (mut reads, mut rest) = (0, own);
        while rest != 0 {
            reads |= self.seen[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        Some(reads)
    }

    /// Ends a count of `side` under `occ`: the cells of `valid` (refreshed or found unchanged)
    /// hold its pieces' counts, the others are dropped.
    #[inline(always)]
    pub(crate) fn close<B: Bits>(&mut self, side: PlayerId, occ: &Occupancy<B>, valid: [u64; 2]) {
        self.side = side;
        self.occ = [occ.all.wide(), occ.enemy.wide(), occ.land.wide(), occ.join.wide()];
        self.valid = valid;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn occ(all: u128) -> Occupancy<u128> {
        Occupancy { all, enemy: 0, land: !all, join: 0 }
    }

    #[test]
    fn a_count_is_kept_while_the_cells_it_read_stay() {
        let (piece, side) = (Piece(3), PlayerId(0));
        let mut k = PieceCounts::new();
        let mut valid = [0; 2];
        k.keep(5, piece, 7, 0b1110_0000u128, &mut valid);
        k.close(side, &occ(1 << 5), valid);
        // A cell the count did not read changes: kept.
        let changed = k.changed(side, &occ(1 << 5 | 1 << 20));
        assert_eq!(k.kept(5, piece, changed), Some(7));
        // Another piece on the cell, a read cell changed, the other side: not kept.
        assert_eq!(k.kept(5, Piece(4), changed), None);
        assert_eq!(k.kept(5, piece, k.changed(side, &occ(1 << 5 | 1 << 6))), None);
        assert_eq!(k.kept(5, piece, k.changed(PlayerId(1), &occ(1 << 5))), None);
        // A count that did not refresh the cell drops it.
        k.close(side, &occ(1 << 5), [0; 2]);
        assert_eq!(k.kept(5, piece, k.changed(side, &occ(1 << 5))), None);
    }

    #[test]
    fn nothing_is_kept_past_the_first_128_cells() {
        let (piece, side) = (Piece(3), PlayerId(0));
        let mut k = PieceCounts::new();
        let mut valid = [0; 2];
        k.keep(5, piece, 7, 0u128, &mut valid);
        k.keep(133, piece, 9, 0u128, &mut valid);
        PieceCounts::mark(&mut valid, 133);
        k.close(side, &occ(0), valid);
        assert_eq!(valid, [1 << 5, 0]);
        assert_eq!(k.kept(133, piece, 0u128), None);
        assert_eq!(k.kept(5, piece, 0u128), Some(7));
    }
}
