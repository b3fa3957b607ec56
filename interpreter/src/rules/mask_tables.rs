//! The ray masks derived from the compiled rules: the tables `MaskTables` holds (built once the rules are), and the queries that read a piece's type or the board's size from `Rules`.
//!
//! The masks' types and the queries that need no `Rules` live in `masks.rs`, which `Rules`
//! holds; what reads a whole `Rules` is here, above it.

use crate::ir::{CellId, MoveMode, PlayerId};
use crate::rules::masks::{Bits, EntryRay, MaskTables, Occupancy, Passage, RayMask, Slot, Stops};
use crate::rules::{Piece, Rules};
use crate::tables::{Entry, EntryKind, NO_PROMOTION};

/// One slot's rays while its entries are read: where its rays start in `MaskTables::rays`,
/// its plain rays per direction (up, down), and its stops between cells (those covering
/// nothing else, and the others with the cells they cover).
#[derive(Default)]
struct SlotRays {
    start: usize,
    plain: [Vec<u128>; 2],
    stops: Stops,
    tested: Vec<(CellId, u128)>,
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
        let n = r.players * r.types * r.cells;
        t.fits = vec![false; n];
        t.passages.push(Passage::default());
        let mut slots = vec![Slot::default(); n];
        t.ep_reach = vec![0; n];
        let mut capture_reach = vec![0u128; if r.between.on { n } else { 0 }];
        t.entry_rays = vec![EntryRay::default(); r.tables.entries.len()];
        t.probes = probe_masks(r);
        for (i, slot) in slots.iter_mut().enumerate() {
            t.fill_slot(r, i, slot, &mut capture_reach);
        }
        t.ep_sources = ep_sources(r, &t.ep_reach);
        t.slots = by_code(r, &slots);
        t.capture_reach = by_code(r, &capture_reach);
        t
    }

    /// The masks of slot `i` (per player, type and cell): its entries' rays as leaps, plain
    /// rays or other rays, until one does not fit (then the slot's moves are walked).
    fn fill_slot(&mut self, r: &Rules, i: usize, slot: &mut Slot, capture_reach: &mut [u128]) {
        let (a, b) = (r.tables.entry_index[i] as usize, r.tables.entry_index[i + 1] as usize);
        let mut rays = SlotRays { start: self.rays.len(), ..SlotRays::default() };
        let mut fits = held(r, CellId((i % r.cells) as u16));
        if fits {
            for k in a..b {
                if !self.add_entry(r, i, k, slot, &mut rays, capture_reach) {
                    fits = false;
                    break;
                }
            }
        }
        self.finish_slot(r, i, fits, slot, rays);
    }

    /// Adds entry `k` of slot `i` to the masks; false where it does not fit them.
    fn add_entry(
        &mut self,
        r: &Rules,
        i: usize,
        k: usize,
        slot: &mut Slot,
        rays: &mut SlotRays,
        capture_reach: &mut [u128],
    ) -> bool {
        let e = &r.tables.entries[k];
        let player = PlayerId((i / (r.types * r.cells)) as u8);
        let from = CellId((i % r.cells) as u16);
        let full = &r.tables.ray_cells[e.start as usize..e.start as usize + e.len as usize];
        // A slide that may stop between cells: its cells, and per cell the stop before it.
        let stopping = r.between.on && full.iter().any(|c| r.is_between(*c));
        let (ray_cells, stops) = if stopping {
            match stops_of(r, e, from, full, |c| held(r, c)) {
                Some(found) => found,
                None => return false,
            }
        } else {
            (Vec::new(), Vec::new())
        };
        let ray = if stopping { &ray_cells[..] } else { full };
        if !ray.iter().all(|c| held(r, *c)) {
            return false;
        }
        let (lame, ray) = lame_path(e, ray);
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
            return false;
        }
        let cells = ray.iter().fold(0u128, |m, c| m | 1 << c.0);
        self.entry_rays[k] = EntryRay { cells, lame, up, first: ray[0] };
        if e.captures_ep {
            self.ep_reach[i] |= cells;
        }
        let quiet = e.mode != MoveMode::CaptureOnly;
        let captures = e.mode != MoveMode::MoveOnly;
        if captures && r.between.on {
            capture_reach[i] |= cells;
        }
        let (promo, promo_moves, forced) = promotion_masks(r, e, player, from, ray);
        let kind = if quiet && captures {
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
                    Some(0) => rays.stops.free |= 1 << c.0,
                    Some(need) => rays.tested.push((*c, *need)),
                    None => {}
                }
            }
        }
        if ray.len() == 1 && promo == 0 && lame == 0 && !stopping {
            slot.leaps[kind] |= cells;
        } else if kind == 0 && promo == 0 && lame == 0 && rays.plain[usize::from(!up)].len() < u8::MAX as usize {
            rays.plain[usize::from(!up)].push(cells);
        } else if stopping {
            // Stops are read with the plain rays alone (moving or capturing).
            return false;
        } else {
            self.rays.push(RayMask { cells, lame, up, quiet, captures, promo, promo_moves, forced });
        }
        true
    }

    /// Closes slot `i` once its entries are read: a slot that does not fit keeps nothing; one
    /// that does gets its stops, its rays' places, and whether its moves are made whole.
    fn finish_slot(&mut self, r: &Rules, i: usize, mut fits: bool, slot: &mut Slot, rays: SlotRays) {
        let SlotRays { start, mut plain, stops: mut slot_stops, mut tested } = rays;
        // A slot holds at most 255 other rays: a piece with more has its moves walked.
        if !fits || self.rays.len() - start > u8::MAX as usize {
            fits = false;
            self.rays.truncate(start);
            slot.leaps = [0; 3];
            plain = Default::default();
        }
        if fits && (slot_stops.free != 0 || !tested.is_empty()) {
            tested.sort_by_key(|(c, _)| c.0);
            slot_stops.needs = self.stop_needs.len() as u32;
            for (c, need) in tested {
                slot_stops.tested |= 1 << c.0;
                self.stop_needs.push(need);
            }
            self.stops.push(slot_stops);
            slot.stops = self.stops.len() as u32;
        }
        slot.rays = start as u32;
        slot.ray_count = (self.rays.len() - start) as u8;
        slot.plain = self.plain.len() as u32;
        for (w, rays) in plain.iter().enumerate() {
            slot.plain_counts[w] = rays.len() as u8;
            self.plain.extend(rays);
        }
        slot.shape = u8::from(slot.plain_counts != [0, 0]) | u8::from(slot.ray_count != 0) << 1;
        self.fits[i] = fits;
        let ty = (i / r.cells) % r.types;
        slot.counted = fits && !r.tables.entry_dedup[i] && !r.programmed_types[ty];
        if fits && !r.programmed_types[ty] && slot.stops == 0 {
            let (a, b) = (r.tables.entry_index[i] as usize, r.tables.entry_index[i + 1] as usize);
            let rays = &self.rays[start..start + slot.ray_count as usize];
            if let Some((move_type, passage)) = whole_moves(&r.tables.entries[a..b], &self.entry_rays[a..b], rays) {
                slot.whole = true;
                slot.move_type = move_type;
                if let Some(p) = passage {
                    self.passages.push(p);
                    slot.passage = (self.passages.len() - 1) as u16;
                    // Past that many, the moves are made entry by entry.
                    slot.whole = slot.passage != u16::MAX;
                }
            }
        }
    }

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
}

/// A cell a mask can hold, and not a location between cells (where stops have their own
/// rules).
fn held(r: &Rules, c: CellId) -> bool {
    c.0 < 128 && !r.is_between(c)
}

/// Per reverse probe: its cells as a mask (every cell where a probe leaves the masks' cells,
/// so that it is never skipped).
fn probe_masks(r: &Rules) -> Vec<u128> {
    r.tables
        .probes
        .iter()
        .map(|p| {
            let s = p.start as usize;
            let cells = &r.tables.probe_cells[s..s + p.len as usize];
            if cells.iter().all(|c| c.0 < 128) {
                cells.iter().fold(0u128, |m, c| m | 1 << c.0)
            } else {
                !0
            }
        })
        .collect()
}

/// Per (player, cell): the cells from which the player's pieces may capture en passant there
/// (from `ep_reach`, per player, type and cell).
fn ep_sources(r: &Rules, ep_reach: &[u128]) -> Vec<u128> {
    let mut sources = vec![0; r.players * r.cells];
    for (i, reach) in ep_reach.iter().enumerate() {
        let (player, from) = (i / (r.types * r.cells), i % r.cells);
        let mut reach = if from < 128 { *reach } else { 0 };
        while reach != 0 {
            let to = reach.trailing_zeros() as usize;
            reach &= reach - 1;
            sources[player * r.cells + to] |= 1 << from;
        }
    }
    sources
}

/// A lame leap's cells that must be empty, as a mask, and its target alone (its last cell);
/// any other entry's ray as it is.
fn lame_path<'a>(e: &Entry, ray: &'a [CellId]) -> (u128, &'a [CellId]) {
    match (e.kind, ray.split_last()) {
        (EntryKind::Lame, Some((last, path))) => {
            let lame = path
                .iter()
                .enumerate()
                .filter(|(k, _)| e.need_empty & (1 << k) != 0)
                .fold(0u128, |m, (_, c)| m | 1 << c.0);
            (lame, std::slice::from_ref(last))
        }
        _ => (0, ray),
    }
}

/// An entry's promotion on its ray from `from`: the cells where it may promote, the moves a
/// promotion there makes, and the cells where it must.
fn promotion_masks(r: &Rules, e: &Entry, player: PlayerId, from: CellId, ray: &[CellId]) -> (u128, u8, u128) {
    if e.promo == NO_PROMOTION {
        return (0, 1, 0);
    }
    let p = &r.tables.promotions[e.promo as usize];
    let promo = ray.iter().filter(|c| r.promotes(p, player, from, **c)).fold(0u128, |m, c| m | 1 << c.0);
    let promo_moves = u8::from(!p.mandatory) + p.choices.len() as u8;
    let forced = ray
        .iter()
        .filter(|c| promo & 1 << c.0 != 0 && !p.mandatory && r.must_promote(p, player, **c))
        .fold(0u128, |m, c| m | 1 << c.0);
    (promo, promo_moves, forced)
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
