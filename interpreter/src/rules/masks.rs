//! Ray masks: the compiled rays of boards of up to 128 cells as bit sets, so that a ray's first blocker is one bit scan where the ray runs in cell order.
//!
//! A grid numbers its cells row by row, so each straight ray visits cells in increasing or in
//! decreasing order: the first occupied cell along it is then the lowest (or highest) set bit
//! of the ray's mask and the board's occupancy. Rays that do not run in cell order (irregular
//! graphs, branching links) leave their piece to the ray walk.

use std::ops::{BitAnd, BitOr, BitXor, Not};

use crate::ir::CellId;
use crate::rules::piece::Piece;

/// A set of cells in one machine word (or two): `u64` for boards of up to 64 cells, `u128`
/// up to 128.
pub(crate) trait Bits:
    Copy + Eq + BitAnd<Output = Self> + BitOr<Output = Self> + BitXor<Output = Self> + Not<Output = Self>
{
    const ZERO: Self;
    /// The set from a 128-cell mask (cells past the word's width are never on the board).
    fn of(mask: u128) -> Self;
    /// The set from a [`crate::bitset::CellSet`]'s words.
    fn from_words(words: &[u64]) -> Self;
    fn ones(self) -> u32;
    /// The set as a 128-cell mask.
    fn wide(self) -> u128;
    /// Cells up to and including the lowest cell of a non-empty set.
    fn through_lowest(self) -> Self;
    /// Cells from the highest cell of a non-empty set up.
    fn highest_and_above(self) -> Self;
    /// [`Bits::through_lowest`], every cell for the empty set (no branch).
    fn through_lowest_or_all(self) -> Self;
    /// The lowest and the highest cell of a non-empty set.
    fn lowest(self) -> u32;
    fn highest(self) -> u32;
    /// The set without cell `i`.
    fn without(self, i: u32) -> Self;
    /// The set of cell `i` alone.
    fn cell(i: u32) -> Self;
    /// Whether cell `i` is in the set.
    fn has(self, i: u32) -> bool;
    /// [`Bits::highest_and_above`], every cell for the empty set (no branch).
    fn highest_and_above_or_all(self) -> Self;
}

/// The set operations on a word of `$top + 1` bits; `$from` reads the word from a
/// [`crate::bitset::CellSet`]'s words `$w`.
macro_rules! impl_bits {
    ($t:ty, $top:expr, |$w:ident| $from:expr) => {
        impl Bits for $t {
            const ZERO: $t = 0;
            #[inline(always)]
            fn of(mask: u128) -> $t {
                mask as $t
            }
            #[inline(always)]
            fn from_words($w: &[u64]) -> $t {
                $from
            }
            #[inline(always)]
            fn ones(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn wide(self) -> u128 {
                self as u128
            }
            #[inline(always)]
            fn through_lowest(self) -> $t {
                self ^ (self - 1)
            }
            #[inline(always)]
            fn highest_and_above(self) -> $t {
                <$t>::MAX << ($top - self.leading_zeros())
            }
            #[inline(always)]
            fn through_lowest_or_all(self) -> $t {
                self ^ self.wrapping_sub(1)
            }
            #[inline(always)]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn highest(self) -> u32 {
                $top - self.leading_zeros()
            }
            #[inline(always)]
            fn without(self, i: u32) -> $t {
                self & !(1 << i)
            }
            #[inline(always)]
            fn cell(i: u32) -> $t {
                1 << i
            }
            #[inline(always)]
            fn has(self, i: u32) -> bool {
                self >> i & 1 != 0
            }
            #[inline(always)]
            fn highest_and_above_or_all(self) -> $t {
                // The lowest cell added changes no highest cell, and makes the empty set's
                // answer all.
                <$t>::MAX << ($top - (self | 1).leading_zeros())
            }
        }
    };
}

impl_bits!(u64, 63, |words| words[0]);
impl_bits!(u128, 127, |words| words[0] as u128 | (words.get(1).copied().unwrap_or(0) as u128) << 64);

/// One ray of several cells (or a single cell that may promote, or a lame leap) as a mask.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RayMask {
    pub(crate) cells: u128,
    /// A lame leap to the single cell of `cells`: the cells on the way that must be empty.
    pub(crate) lame: u128,
    /// The ray runs toward higher cells.
    pub(crate) up: bool,
    pub(crate) quiet: bool,
    pub(crate) captures: bool,
    /// The ray's cells in its promotion zone, and how many moves a move there makes.
    pub(crate) promo: u128,
    pub(crate) promo_moves: u8,
    /// The cells of `promo` where an optional promotion is compulsory (one move fewer there).
    pub(crate) forced: u128,
}

/// The locations between cells a slot's plain rays may stop on, each just before one of the
/// rays' cells (the location covers that cell, the one before it and perhaps others): a stop
/// is a move where the ray reaches that cell empty and the other cells the location covers
/// are empty too.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Stops {
    /// The cells after a stop that covers nothing else.
    pub(crate) free: u128,
    /// The cells after a stop that covers others, and where those others start in
    /// [`MaskTables::stop_needs`] (one per cell of `tested`, in cell order).
    pub(crate) tested: u128,
    pub(crate) needs: u32,
}

/// One entry's ray as masks: its target cells, the cells a lame leap needs empty, whether the
/// ray runs toward higher cells, and its first target (a move past it marks a passage).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct EntryRay {
    pub(crate) cells: u128,
    pub(crate) lame: u128,
    pub(crate) up: bool,
    pub(crate) first: CellId,
}

/// What the count reads of one piece on one cell, together, so that a piece costs one cache
/// line (the tables apart were a chain of misses: a fifth of chess perft's time).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Slot {
    /// One-cell targets moving or capturing, only moving, only capturing.
    pub(crate) leaps: [u128; 3],
    /// Start in [`MaskTables::rays`] and count of the other rays (promoting, lame).
    pub(crate) rays: u32,
    pub(crate) ray_count: u8,
    /// Start in [`MaskTables::plain`] of the plain rays (several cells, moving or capturing, no
    /// promotion, not lame), and how many run toward higher cells, then toward lower ones. Read
    /// without a branch per ray (they were most of chess perft's count; only-moving rays read
    /// this way too made it slower).
    pub(crate) plain: u32,
    pub(crate) plain_counts: [u8; 2],
    /// Which of those the slot has: bit 0 plain rays, bit 1 other rays (one branch chooses
    /// how its targets are read, not one per kind of ray).
    pub(crate) shape: u8,
    /// The masks hold all of its moves (`fits`), no two entries make the same move and the
    /// piece has no program: counted from the masks unless pinned, royal or near en passant.
    pub(crate) counted: bool,
    /// On a board with locations between cells, where the plain rays may stop between them:
    /// 1 + the index of their [`Stops`] (0 for none).
    pub(crate) stops: u32,
    /// The moves may be made from the slot's targets, in cell order (see [`whole_moves`]).
    pub(crate) whole: bool,
    /// Then: their move type, and 1 + the index of their [`Passage`] (0 for none).
    pub(crate) move_type: u8,
    pub(crate) passage: u16,
}

/// The cells a piece reaches past the first cell of a ray marking what it passes as capturable
/// en passant, and that ray's direction: its moves there are passages.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Passage {
    pub(crate) cells: u128,
    pub(crate) dir: u16,
}

/// The rays of every (player, piece type, cell) whose entries all fit: one-cell leaps without
/// promotion merged into three masks, the rest as [`RayMask`]s.
#[derive(Debug, Default)]
pub(crate) struct MaskTables {
    /// Per (player, type, cell): the entries are plain slides and leaps whose rays run in cell
    /// order, so the masks below hold all of its moves.
    pub(crate) fits: Vec<bool>,
    /// Per (piece code, cell), as [`MaskTables::slot`] finds it: the leaps and rays.
    pub(crate) slots: Vec<Slot>,
    /// Per (player, type, cell): the cells of the rays that may capture en passant.
    pub(crate) ep_reach: Vec<u128>,
    /// Per (player, cell): the cells from which some piece of the player may capture en
    /// passant there (read once per position, so the pieces far from a chance are passed over
    /// without a look at their type).
    pub(crate) ep_sources: Vec<u128>,
    /// On a board with locations between cells, per (piece code, cell) as `slots`: the cells
    /// of the rays that may capture (a capture there may take a piece standing between cells).
    pub(crate) capture_reach: Vec<u128>,
    pub(crate) rays: Vec<RayMask>,
    /// The stops between cells of the slots whose rays have some (see [`Slot::stops`]).
    pub(crate) stops: Vec<Stops>,
    pub(crate) stop_needs: Vec<u128>,
    /// The cells of the slots' plain rays (see [`Slot::plain`]).
    pub(crate) plain: Vec<u128>,
    /// Per entry of the compiled rules (as `Rules::entries`), where its slot fits: its ray as
    /// masks, for making its moves in the order the ray walk makes them.
    pub(crate) entry_rays: Vec<EntryRay>,
    /// Per reverse probe (as `Rules::probes`): its cells.
    pub(crate) probes: Vec<u128>,
    /// The passages of the slots whose moves are made from their targets, after one that
    /// passes nothing (read by the slots without a passage, so no branch tells them apart).
    pub(crate) passages: Vec<Passage>,
}

impl MaskTables {
    /// The slot of `piece` on `from` (`cells`: the board's cell count).
    #[inline(always)]
    pub(crate) fn slot(&self, piece: Piece, from: CellId, cells: usize) -> &Slot {
        &self.slots[piece.0 as usize * cells + from.0 as usize]
    }
}

/// The board's occupancy as seen by one player, for counting targets: the cells that end a
/// ray (`all`), those a moving power lands on with one move (`land`: the empty cells), those a
/// capturing power makes one move on (`enemy`), and those an only-moving power makes one move
/// on though they end the ray (`join`: on boards of stacks, a crowd or enemy piece joined).
#[derive(Clone, Copy)]
pub(crate) struct Occupancy<B> {
    pub(crate) all: B,
    pub(crate) enemy: B,
    pub(crate) land: B,
    pub(crate) join: B,
}

impl MaskTables {
    /// Whether a move of the slot's piece may promote (only its other rays can).
    #[inline(always)]
    pub(crate) fn promotes(&self, slot: &Slot) -> bool {
        self.rays_of(slot).iter().any(|ray| ray.promo != 0)
    }

    /// The rays of a slot.
    #[inline(always)]
    pub(crate) fn rays_of(&self, slot: &Slot) -> &[RayMask] {
        &self.rays[slot.rays as usize..slot.rays as usize + slot.ray_count as usize]
    }

    /// The targets of the piece of a slot: cells it moves to quietly or captures on (every
    /// move's target once; promotion choices are counted by [`MaskTables::count`]).
    #[inline(always)]
    pub(crate) fn targets<B: Bits>(&self, slot: &Slot, occ: Occupancy<B>) -> B {
        let [both, quiet, capture] = slot.leaps.map(B::of);
        let leaps =
            |reach: B| (reach & (occ.land | occ.enemy)) | (quiet & (occ.land | occ.join)) | (capture & occ.enemy);
        let rays = || self.rays_of(slot).iter().fold(B::ZERO, |t, ray| t | ray_targets(ray, occ));
        let plain = || {
            let [up, down] = slot.plain_counts.map(usize::from);
            self.plain_reach(slot.plain as usize, up, down, occ)
        };
        match slot.shape {
            0 => leaps(both),
            1 => leaps(both | plain()),
            2 => leaps(both) | rays(),
            _ => leaps(both | plain()) | rays(),
        }
    }

    /// [`MaskTables::targets`] among the cells of `within`, reading only the rays that pass
    /// through them (a ray's targets lie on its cells): the evaluation's royal zones.
    #[inline(always)]
    pub(crate) fn targets_within<B: Bits>(&self, slot: &Slot, occ: Occupancy<B>, within: B) -> B {
        let [both, quiet, capture] = slot.leaps.map(B::of);
        let open = occ.land | occ.enemy;
        let mut t = (both & open) | (quiet & (occ.land | occ.join)) | (capture & occ.enemy);
        if slot.shape & 2 != 0 {
            for ray in self.rays_of(slot).iter().filter(|ray| B::of(ray.cells) & within != B::ZERO) {
                t = t | ray_targets(ray, occ);
            }
        }
        if slot.shape & 1 != 0 {
            let [up, down] = slot.plain_counts.map(usize::from);
            let at = slot.plain as usize;
            for (i, &cells) in self.plain[at..at + up + down].iter().enumerate() {
                let cells = B::of(cells);
                if cells & within == B::ZERO {
                    continue;
                }
                let blockers = cells & occ.all;
                let reach = if i < up { blockers.through_lowest_or_all() } else { blockers.highest_and_above_or_all() };
                t = t | (cells & reach & open);
            }
        }
        t & within
    }

    /// The targets of a slot's one-cell leaps and plain rays.
    #[inline(always)]
    pub(crate) fn plain_targets<B: Bits>(&self, slot: &Slot, occ: Occupancy<B>) -> B {
        let [both, quiet, capture] = slot.leaps.map(B::of);
        let [up, down] = slot.plain_counts.map(usize::from);
        let reach = both | self.plain_reach(slot.plain as usize, up, down, occ);
        (reach & (occ.land | occ.enemy)) | (quiet & (occ.land | occ.join)) | (capture & occ.enemy)
    }

    /// The cells the plain rays from `at` reach (`up` rays running up, then `down` down), up
    /// to and including each one's first occupied cell.
    #[inline(always)]
    fn plain_reach<B: Bits>(&self, at: usize, up: usize, down: usize, occ: Occupancy<B>) -> B {
        let mut reach = B::ZERO;
        for &cells in &self.plain[at..at + up] {
            let cells = B::of(cells);
            reach = reach | (cells & (cells & occ.all).through_lowest_or_all());
        }
        for &cells in &self.plain[at + up..at + up + down] {
            let cells = B::of(cells);
            reach = reach | (cells & (cells & occ.all).highest_and_above_or_all());
        }
        reach
    }

    /// The number of moves of the piece of a slot (its rays do not overlap: one bit count for
    /// all of them).
    #[inline(always)]
    pub(crate) fn count<B: Bits, const STOPS: bool>(&self, slot: &Slot, occ: Occupancy<B>) -> u64 {
        let mut t = self.plain_targets(slot, occ);
        // Promotion choices: each move into the zone counts `promo_moves` times instead of once.
        let (mut extra, mut once) = (0, 0);
        for ray in self.rays_of(slot) {
            let r = ray_targets(ray, occ);
            t = t | r;
            if ray.promo != 0 {
                let p = (r & B::of(ray.promo)).ones() as u64;
                extra += p * ray.promo_moves as u64;
                once += p + (r & B::of(ray.forced)).ones() as u64;
            }
        }
        // Only boards with locations between cells have stops (`STOPS`: read them).
        if STOPS && slot.stops != 0 {
            extra += self.stops_reached(slot, t & occ.land, occ.all);
        }
        t.ones() as u64 + extra - once
    }

    /// How many stops between cells a slot's rays make (see [`Stops`]), `empty` the empty
    /// cells they reach.
    #[inline(always)]
    fn stops_reached<B: Bits>(&self, slot: &Slot, empty: B, all: B) -> u64 {
        let stops = &self.stops[slot.stops as usize - 1];
        let mut n = (empty & B::of(stops.free)).ones() as u64;
        let tested = B::of(stops.tested);
        let mut m = empty & tested;
        while m != B::ZERO {
            let c = m.lowest();
            m = m.without(c);
            // The cell's place among the tested ones: how many come before it.
            let place = (tested & B::of((1u128 << c) - 1)).ones() as usize;
            n += u64::from(B::of(self.stop_needs[stops.needs as usize + place]) & all == B::ZERO);
        }
        n
    }

    /// Whether the slot's piece may stop between cells (its targets do not tell those moves).
    pub(crate) fn stops_between(&self, slot: &Slot) -> bool {
        slot.stops != 0
    }
}

/// The cells a ray reaches: up to its first occupied cell, which it captures if an enemy's.
#[inline(always)]
fn ray_targets<B: Bits>(ray: &RayMask, occ: Occupancy<B>) -> B {
    if B::of(ray.lame) & occ.all != B::ZERO {
        return B::ZERO;
    }
    let cells = B::of(ray.cells);
    let blockers = cells & occ.all;
    let reach = if blockers == B::ZERO {
        cells
    } else if ray.up {
        cells & blockers.through_lowest()
    } else {
        cells & blockers.highest_and_above()
    };
    let mut t = B::ZERO;
    if ray.quiet {
        t = t | (reach & occ.land);
        if !ray.captures {
            t = t | (reach & occ.join);
        }
    }
    if ray.captures {
        t = t | (reach & occ.enemy);
    }
    t
}
