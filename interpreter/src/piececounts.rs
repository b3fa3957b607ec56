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
        let c = c & 127;
        let fresh = self.valid[c >> 6] >> (c & 63) & 1 != 0
            && self.pieces[c] == piece
            && B::of(self.seen[c]) & changed == B::ZERO;
        fresh.then(|| u64::from(self.counts[c]))
    }

    /// Keeps the count `n` of `piece` on cell `c` (below 128), which read the cells `seen`.
    #[inline(always)]
    pub(crate) fn keep<B: Bits>(&mut self, c: usize, piece: Piece, n: u64, seen: B) {
        let c = c & 127;
        self.pieces[c] = piece;
        self.counts[c] = n.min(u64::from(u32::MAX)) as u32;
        self.seen[c] = seen.wide();
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
