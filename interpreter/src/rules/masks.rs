//! Ray masks: the compiled rays of boards of up to 128 cells as bit sets, so that a ray's first blocker is one bit scan where the ray runs in cell order.
//!
//! A grid numbers its cells row by row, so each straight ray visits cells in increasing or in
//! decreasing order: the first occupied cell along it is then the lowest (or highest) set bit
//! of the ray's mask and the board's occupancy. Rays that do not run in cell order (irregular
//! graphs, branching links) leave their piece to the ray walk.

use std::ops::{BitAnd, BitOr, BitXor, Not};

use crate::ir::{CellId, MoveMode, PlayerId};
use crate::rules::{Piece, Rules};
use crate::tables::{Entry, EntryKind, NO_PROMOTION};

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
    /// The masks of a board of at most 128 cells (empty tables otherwise). On a board with
    /// locations between cells (of any size), the masks of the pieces on a cell among the
    /// first 128 whose rays hold only such cells; every other slot does not fit.
    pub(crate) fn new(r: &Rules) -> MaskTables {
        let mut t = MaskTables::default();
        if r.cells > 128 && !r.between.on {
            return t;
        }
        // A cell a mask can hold, and not a location between cells (where stops have their
        // own rules).
        let held = |c: CellId| c.0 < 128 && !r.is_between(c);
        let n = r.players * r.types * r.cells;
        t.fits = vec![false; n];
        t.passages.push(Passage::default());
        let mut slots = vec![Slot::default(); n];
        t.ep_reach = vec![0; n];
        let mut capture_reach = vec![0u128; if r.between.on { n } else { 0 }];
        t.entry_rays = vec![EntryRay::default(); r.tables.entries.len()];
        t.probes = r
            .tables
            .probes
            .iter()
            .map(|p| {
                let s = p.start as usize;
                let cells = &r.tables.probe_cells[s..s + p.len as usize];
                // A probe past the masks' cells is never skipped.
                if cells.iter().all(|c| c.0 < 128) {
                    cells.iter().fold(0u128, |m, c| m | 1 << c.0)
                } else {
                    !0
                }
            })
            .collect();
        for (i, slot) in slots.iter_mut().enumerate() {
            let player = PlayerId((i / (r.types * r.cells)) as u8);
            let (a, b) = (r.tables.entry_index[i] as usize, r.tables.entry_index[i + 1] as usize);
            let start = t.rays.len();
            // Per direction (up, down): the plain rays.
            let mut plain: [Vec<u128>; 2] = Default::default();
            let mut fits = held(CellId((i % r.cells) as u16));
            // The stops between cells: those covering nothing else, and the others with theirs.
            let mut slot_stops = Stops::default();
            let mut tested: Vec<(CellId, u128)> = Vec::new();
            for (k, e) in r.tables.entries[a..b].iter().enumerate() {
                let full = &r.tables.ray_cells[e.start as usize..e.start as usize + e.len as usize];
                // A slide that may stop between cells: its cells, and per cell the stop before it.
                let stopping = r.between.on && full.iter().any(|c| r.is_between(*c));
                let (ray_cells, stops) = if stopping {
                    match stops_of(r, e, CellId((i % r.cells) as u16), full, held) {
                        Some(found) => found,
                        None => {
                            fits = false;
                            break;
                        }
                    }
                } else {
                    (Vec::new(), Vec::new())
                };
                let ray = if stopping { &ray_cells[..] } else { full };
                if !fits || !ray.iter().all(|c| held(*c)) {
                    fits = false;
                    break;
                }
                let (lame, ray) = match (e.kind, ray.split_last()) {
                    // A lame leap: its last cell is the target, the ones on the way that must
                    // be empty block it.
                    (EntryKind::Lame, Some((last, path))) => {
                        let lame = path
                            .iter()
                            .enumerate()
                            .filter(|(k, _)| e.need_empty & (1 << k) != 0)
                            .fold(0u128, |m, (_, c)| m | 1 << c.0);
                        (lame, std::slice::from_ref(last))
                    }
                    _ => (0, ray),
                };
                let up = ray.windows(2).all(|w| w[0].0 < w[1].0);
                let down = ray.windows(2).all(|w| w[0].0 > w[1].0);
                let kind_fits = matches!(e.kind, EntryKind::Slide | EntryKind::Lame);
                // A `captured-only` or `setup-only` promotion's choices depend on the position,
                // and one that crowns the piece or takes its crown makes a royal to test:
                // walked instead.
                let fixed_choices = e.promo == NO_PROMOTION || {
                    let p = &r.tables.promotions[e.promo as usize];
                    !p.captured_only && !p.setup_only && !r.crowns_or_uncrowns((i / r.cells) % r.types, e.promo)
                };
                if !kind_fits || e.dynamic || !(up || down) || ray.is_empty() || !fixed_choices {
                    fits = false;
                    break;
                }
                let cells = ray.iter().fold(0u128, |m, c| m | 1 << c.0);
                t.entry_rays[a + k] = EntryRay { cells, lame, up, first: ray[0] };
                if e.captures_ep {
                    t.ep_reach[i] |= cells;
                }
                let quiet = e.mode != MoveMode::CaptureOnly;
                let captures = e.mode != MoveMode::MoveOnly;
                if captures && r.between.on {
                    capture_reach[i] |= cells;
                }
                let (mut promo, mut promo_moves, mut forced) = (0, 1, 0);
                if e.promo != NO_PROMOTION {
                    let p = &r.tables.promotions[e.promo as usize];
                    let from = CellId((i % r.cells) as u16);
                    promo = ray.iter().filter(|c| r.promotes(p, player, from, **c)).fold(0u128, |m, c| m | 1 << c.0);
                    promo_moves = u8::from(!p.mandatory) + p.choices.len() as u8;
                    forced = ray
                        .iter()
                        .filter(|c| promo & 1 << c.0 != 0 && !p.mandatory && r.must_promote(p, player, **c))
                        .fold(0u128, |m, c| m | 1 << c.0);
                }
                let k = if quiet && captures {
                    0
                } else if quiet {
                    1
                } else {
                    2
                };
                if stopping {
                    // Kept only if it is read with the plain rays (below).
                    for (c, need) in ray.iter().zip(&stops) {
                        match need {
                            Some(0) => slot_stops.free |= 1 << c.0,
                            Some(need) => tested.push((*c, *need)),
                            None => {}
                        }
                    }
                }
                if ray.len() == 1 && promo == 0 && lame == 0 && !stopping {
                    slot.leaps[k] |= cells;
                } else if k == 0 && promo == 0 && lame == 0 && plain[usize::from(!up)].len() < u8::MAX as usize {
                    plain[usize::from(!up)].push(cells);
                } else if stopping {
                    // Stops are read with the plain rays alone (moving or capturing).
                    fits = false;
                    break;
                } else {
                    t.rays.push(RayMask { cells, lame, up, quiet, captures, promo, promo_moves, forced });
                }
            }
            // A slot holds at most 255 other rays: a piece with more has its moves walked.
            if !fits || t.rays.len() - start > u8::MAX as usize {
                fits = false;
                t.rays.truncate(start);
                slot.leaps = [0; 3];
                plain = Default::default();
            }
            if fits && (slot_stops.free != 0 || !tested.is_empty()) {
                tested.sort_by_key(|(c, _)| c.0);
                slot_stops.needs = t.stop_needs.len() as u32;
                for (c, need) in tested {
                    slot_stops.tested |= 1 << c.0;
                    t.stop_needs.push(need);
                }
                t.stops.push(slot_stops);
                slot.stops = t.stops.len() as u32;
            }
            slot.rays = start as u32;
            slot.ray_count = (t.rays.len() - start) as u8;
            slot.plain = t.plain.len() as u32;
            for (w, rays) in plain.iter().enumerate() {
                slot.plain_counts[w] = rays.len() as u8;
                t.plain.extend(rays);
            }
            slot.shape = u8::from(slot.plain_counts != [0, 0]) | u8::from(slot.ray_count != 0) << 1;
            t.fits[i] = fits;
            let ty = (i / r.cells) % r.types;
            slot.counted = fits && !r.tables.entry_dedup[i] && !r.programmed_types[ty];
            if fits && !r.programmed_types[ty] && slot.stops == 0 {
                let rays = &t.rays[start..start + slot.ray_count as usize];
                if let Some((move_type, passage)) = whole_moves(&r.tables.entries[a..b], &t.entry_rays[a..b], rays) {
                    slot.whole = true;
                    slot.move_type = move_type;
                    if let Some(p) = passage {
                        t.passages.push(p);
                        slot.passage = (t.passages.len() - 1) as u16;
                        // Past that many, the moves are made entry by entry.
                        slot.whole = slot.passage != u16::MAX;
                    }
                }
            }
        }
        t.ep_sources = vec![0; r.players * r.cells];
        for (i, reach) in t.ep_reach.iter().enumerate() {
            let (player, from) = (i / (r.types * r.cells), i % r.cells);
            let mut reach = if from < 128 { *reach } else { 0 };
            while reach != 0 {
                let to = reach.trailing_zeros() as usize;
                reach &= reach - 1;
                t.ep_sources[player * r.cells + to] |= 1 << from;
            }
        }
        t.slots = by_code(r, &slots);
        t.capture_reach = by_code(r, &capture_reach);
        t
    }

    /// The slot of `piece` on `from` (`cells`: the board's cell count).
    #[inline(always)]
    pub(crate) fn slot(&self, piece: Piece, from: CellId, cells: usize) -> &Slot {
        &self.slots[piece.0 as usize * cells + from.0 as usize]
    }
}

/// Whether the moves of a slot that fits (its entries, their rays, its other rays as masks) may
/// be made from its targets, one per target in cell order, and with which move type and
/// passage: where every entry has one move type, none promotes, and at most one marks what it
/// passes, reaching no cell past its first that another entry reaches (one move per target:
/// two entries reaching one cell make the same move, which the walk makes once).
fn whole_moves(entries: &[Entry], entry_rays: &[EntryRay], rays: &[RayMask]) -> Option<(u8, Option<Passage>)> {
    let move_type = entries.first()?.move_type;
    if rays.iter().any(|ray| ray.promo != 0) || entries.iter().any(|e| e.move_type != move_type) {
        return None;
    }
    let mut passage: Option<Passage> = None;
    let mut others = 0u128;
    for (e, ray) in entries.iter().zip(entry_rays) {
        if e.marks_ep && !e.leap {
            if passage.is_some() {
                return None;
            }
            let past = ray.cells & !(1u128 << ray.first.0);
            passage = Some(Passage { cells: past, dir: e.dir.0 as u16 });
            others |= ray.cells & !past;
        } else {
            others |= ray.cells;
        }
    }
    match passage {
        Some(p) if p.cells & others != 0 => None,
        _ => Some((move_type, passage)),
    }
}

/// A slide's ray that may stop between cells, from `from`: its cells, and per cell the other
/// cells the stop just before it covers (`None` without one); `None` where the masks cannot
/// hold it (a stop not followed by a cell, two stops in a row, a promotion or lame path, a
/// stop only capturing, a covered cell past the masks').
#[allow(clippy::type_complexity)]
fn stops_of(
    r: &Rules,
    e: &crate::tables::Entry,
    from: CellId,
    full: &[CellId],
    held: impl Fn(CellId) -> bool,
) -> Option<(Vec<CellId>, Vec<Option<u128>>)> {
    if e.kind != EntryKind::Slide || e.promo != NO_PROMOTION || e.mode == MoveMode::CaptureOnly || e.dynamic {
        return None;
    }
    let (mut cells, mut stops) = (Vec::new(), Vec::new());
    let mut prev = from;
    let mut pending: Option<CellId> = None;
    for &c in full {
        if r.is_between(c) {
            if pending.is_some() {
                return None;
            }
            pending = Some(c);
            continue;
        }
        if !held(c) {
            return None;
        }
        let need = match pending.take() {
            Some(b) => {
                let mut need = 0u128;
                for &k in r.covered_cells(b) {
                    if k == prev || k == c {
                        continue;
                    }
                    if !held(k) {
                        return None;
                    }
                    need |= 1 << k.0;
                }
                Some(need)
            }
            None => None,
        };
        cells.push(c);
        stops.push(need);
        prev = c;
    }
    // A stop the ray ends on (no cell after it) is walked.
    pending.is_none().then_some((cells, stops))
}

/// A table per (player, type, cell) reordered by piece code (`1 + type * players + player`;
/// code 0 is no piece), which the board holds: no lookup of the type before the entry. Empty
/// for an empty table.
fn by_code<T: Copy + Default>(r: &Rules, table: &[T]) -> Vec<T> {
    if table.is_empty() {
        return Vec::new();
    }
    let codes = r.players * r.types + 1;
    let mut out = vec![T::default(); codes * r.cells];
    for code in 1..codes {
        let (player, ty) = ((code - 1) % r.players, (code - 1) / r.players);
        let i = (player * r.types + ty) * r.cells;
        out[code * r.cells..(code + 1) * r.cells].copy_from_slice(&table[i..i + r.cells]);
    }
    out
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
    /// The cells where `piece` on `from` may capture en passant (none for a type that never
    /// does).
    #[inline(always)]
    pub(crate) fn ep_reach_of(&self, r: &Rules, side: PlayerId, piece: Piece, from: CellId) -> u128 {
        let t = r.type_of(piece).0 as usize;
        if !r.count.ep_type[t] {
            return 0;
        }
        self.ep_reach[(side.0 as usize * r.types + t) * r.cells + from.0 as usize]
    }

    /// The cells from which a piece of `side` may capture en passant on one of `passed`: a
    /// superset of those where [`MaskTables::ep_reach_of`] meets them.
    #[inline]
    pub(crate) fn ep_sources_of(&self, r: &Rules, side: PlayerId, mut passed: u128) -> u128 {
        let mut from = 0;
        while passed != 0 {
            let to = passed.trailing_zeros() as usize;
            passed &= passed - 1;
            from |= self.ep_sources.get(side.0 as usize * r.cells + to).copied().unwrap_or(0);
        }
        from
    }

    /// Whether `piece` on `from` may capture on one of `cells` (with `capture_reach`).
    #[inline(always)]
    pub(crate) fn captures_on<B: Bits>(
        &self,
        r: &Rules,
        piece: Piece,
        from: CellId,
        occ: Occupancy<B>,
        cells: B,
    ) -> bool {
        let k = piece.0 as usize * r.cells + from.0 as usize;
        B::of(self.capture_reach[k]) & cells != B::ZERO && self.targets(&self.slots[k], occ) & cells != B::ZERO
    }

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
