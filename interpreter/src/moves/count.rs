//! Counting moves without materialising them where the compiled rules make a count by rays sound: the legal moves of the last perft ply, and the pseudo-legal moves the evaluation's mobility term weighs.
//!
//! The count applies when a position's legality rests on the pin shortcut alone: one royal
//! piece, attacks read from the reverse probes (and no enemy program or drop able to reach
//! the royal's cell from where the enemy pieces stand), moves that change only their two
//! cells as attacks see them (no turn orders or move priorities; a square that vanishes
//! behind a piece only blocks more). Locations without a square block rays as pieces do. In
//! square play the square actions are counted apart (`squares.rs`); on stacks the cells'
//! occupancy rules are read into the masks (`stackcount.rs`); with locations between cells
//! the masks hold the pieces whose rays stay on cells or stop between them (`cover_masks`,
//! the cells a piece standing between cells covers blocking; a stop between cells counted
//! where its ray reaches the cell after it empty and the location's other cells are empty),
//! the other rays are walked and a location whose cells are all empty is one more target.
//! A piece that is not the royal, not pinned and
//! moves by plain slides and leaps without conditions or programs then has exactly as many
//! legal moves as its rays have reachable cells (promotion choices counted out). Its captures
//! en passant and of a piece standing between cells open lines elsewhere: they are pushed and
//! tested. Every other piece's moves, the castlings, the drops and all moves in check are
//! generated and tested as usual.

use crate::ir::{CellId, MoveMode, PlayerId};
use crate::movegen::dedup_from;
use crate::paths::Path;
use crate::position::{Move, MoveKind, Position, State};
use crate::royal_memo::Pins;
use crate::rules::masks::{Bits, Occupancy};
use crate::rules::programs::Only;
use crate::rules::{Piece, Rules};
use crate::tables::{Entry, Probe, NO_PROMOTION};

/// Runs a function body compiled for the processor's population count instruction when it
/// has one (the portable bit count was a seventh of chess perft's time): written as
/// `with_popcnt!(|arg: Type, ...| -> Ret { body })` and called with those arguments at once.
/// The body should call `#[inline(always)]` functions, so that they are built with it.
macro_rules! with_popcnt {
    (|$($a:ident: $t:ty),*| -> $ret:ty $body:block) => {{
        // The arguments are the call site's variables, as many as it reads.
        #[allow(dead_code, clippy::too_many_arguments)]
        #[inline(always)]
        fn plain($($a: $t),*) -> $ret $body
        #[cfg(target_arch = "x86_64")]
        #[allow(unsafe_code)]
        {
            #[allow(clippy::too_many_arguments)]
            #[target_feature(enable = "popcnt")]
            fn fast($($a: $t),*) -> $ret $body
            if std::is_x86_feature_detected!("popcnt") {
                // SAFETY: the processor has just been found to have the instruction this enables.
                unsafe { fast($($a),*) }
            } else {
                plain($($a),*)
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            plain($($a),*)
        }
    }};
}

impl State {
    /// One walk of the reverse probes from the royal's cell: `None` when an enemy attacks it,
    /// else the pieces pinned to it (as [`State::pinned`] finds them on a board of single
    /// pieces).
    /// `enemies`: with ray masks, the cells of the other players' pieces (a probe without one
    /// neither checks nor pins).
    pub(crate) fn pins_unless_check(
        &self,
        r: &Rules,
        royal: CellId,
        side: PlayerId,
        enemies: Option<u128>,
    ) -> Option<Pins> {
        let mut pins = Pins::NONE;
        for p in (0..r.players as u8).filter(|p| r.threatens(PlayerId(*p), side)) {
            let i = p as usize * r.cells + royal.0 as usize;
            let (a, b) = (r.tables.probe_index[i] as usize, r.tables.probe_index[i + 1] as usize);
            let probes = &r.tables.probes[a..b];
            match enemies {
                Some(e) => {
                    for (probe, _) in probes.iter().zip(&r.count.masks.probes[a..b]).filter(|(_, m)| *m & e != 0) {
                        self.pin_walk(r, probe, p, side, &mut pins)?;
                    }
                }
                None => {
                    for probe in probes {
                        self.pin_walk(r, probe, p, side, &mut pins)?;
                    }
                }
            }
        }
        Some(pins)
    }

    /// One probe of [`State::pins_unless_check`]: `None` when player `p` checks along it, else
    /// the piece of `side`'s it pins recorded.
    #[inline(always)]
    fn pin_walk(&self, r: &Rules, probe: &Probe, p: u8, side: PlayerId, pins: &mut Pins) -> Option<()> {
        let s = probe.start as usize;
        let mut shield: Option<CellId> = None;
        for (k, &c) in r.tables.probe_cells[s..s + probe.len as usize].iter().enumerate() {
            let q = self.cells[c.0 as usize];
            if q.is_empty() {
                continue;
            }
            if q == Piece::HOLE {
                break;
            }
            let owner = r.owner(q);
            if shield.is_none() && owner == side {
                shield = Some(c);
                continue;
            }
            if owner.0 == p && r.probe_has(s + k, r.type_of(q)) {
                match shield {
                    None => return None,
                    Some(c) => pins.add(c),
                }
            }
            break;
        }
        Some(())
    }

    /// Whether a player other than `side` attacks `cell`, by the probe walk (attacks read from
    /// the probes alone), skipping probes without a cell of `enemies`.
    pub(crate) fn attacked_through(&self, r: &Rules, cell: CellId, side: PlayerId, enemies: u128) -> bool {
        for p in (0..r.players as u8).filter(|p| r.threatens(PlayerId(*p), side)) {
            let i = p as usize * r.cells + cell.0 as usize;
            let (a, b) = (r.tables.probe_index[i] as usize, r.tables.probe_index[i + 1] as usize);
            for (j, probe) in r.tables.probes[a..b].iter().enumerate() {
                if r.count.masks.probes.get(a + j).is_some_and(|m| m & enemies == 0) {
                    continue;
                }
                if self.probe_hit(r, probe, PlayerId(p)).is_some() {
                    return true;
                }
            }
        }
        false
    }

    /// How many moves a move to `to` by the entry makes: one, or one per promotion choice
    /// (and one without, unless promotion is mandatory) in the promotion zone.
    #[inline(always)]
    fn promotions_at(&self, r: &Rules, e: &Entry, side: PlayerId, from: CellId, to: CellId) -> u64 {
        if e.promo == NO_PROMOTION {
            return 1;
        }
        self.promotion_choices_at(r, e, side, from, to)
    }

    /// [`State::promotions_at`] for an entry that may promote.
    fn promotion_choices_at(&self, r: &Rules, e: &Entry, side: PlayerId, from: CellId, to: CellId) -> u64 {
        let p = &r.tables.promotions[e.promo as usize];
        if !r.promotes(p, side, from, to) {
            return 1;
        }
        let offered = p.choices.iter().filter(|t| self.offered(r, p, side, **t, to)).count();
        u64::from(!r.must_promote(p, side, to)) + offered as u64
    }

    /// The moves of a piece on a cell counted along its rays: every empty cell up to the first
    /// occupied one, and that one if an enemy stands there. On a board with locations between
    /// cells, also each location on the way whose cells are all empty (the piece covering
    /// them only blocks more); a capture of a piece standing between cells clears cells off
    /// lines, so it is pushed on `buf` to be tested.
    #[inline]
    fn count_rays(&self, r: &Rules, side: PlayerId, from: CellId, a: usize, b: usize, buf: &mut Vec<Move>) -> u64 {
        let mut n = 0;
        let piece = self.cells[from.0 as usize];
        for e in &r.tables.entries[a..b] {
            let ray = &r.tables.ray_cells[e.start as usize..e.start as usize + e.len as usize];
            let quiet = e.mode != MoveMode::CaptureOnly;
            let captures = e.mode != MoveMode::MoveOnly;
            for &to in ray {
                if r.between.on && r.between.cells[to.0 as usize] {
                    if quiet && self.covers_free(r, to, from) {
                        n += self.promotions_at(r, e, side, from, to);
                    }
                    continue;
                }
                let q = self.cells[to.0 as usize];
                if q.is_empty() {
                    if quiet {
                        n += self.promotions_at(r, e, side, from, to);
                    } else if e.captures_ep && self.rights.ep.is_some() {
                        // It uncovers a line through the victim's cell: tested, not counted.
                        self.push_en_passant(r, e, side, from, to, piece, buf);
                    }
                    continue;
                }
                if captures && q != Piece::HOLE && !r.allied(r.owner(q), side) {
                    if r.between.on && self.standing_at(to) != to {
                        let mv = Move::by_power(from, to, piece, e.move_type, MoveKind::Normal, 0, q);
                        self.push(r, e.promo, mv, buf);
                    } else {
                        n += self.promotions_at(r, e, side, from, to);
                    }
                }
                break;
            }
        }
        n
    }
}

impl State {
    /// Pushes on `buf` the capture en passant onto `to` by the entry, if the passed cells hold
    /// it and an enemy piece stands on the victim's cell (as [`State::piece_moves`] makes it).
    #[cold]
    #[allow(clippy::too_many_arguments)]
    fn push_en_passant(
        &self,
        r: &Rules,
        e: &Entry,
        side: PlayerId,
        from: CellId,
        to: CellId,
        piece: Piece,
        buf: &mut Vec<Move>,
    ) {
        let Some(ep) = self.rights.ep else { return };
        let victim = self.cells[ep.victim.0 as usize];
        if ep.passed().contains(&to) && !victim.is_empty() && victim != Piece::HOLE && !r.allied(r.owner(victim), side)
        {
            let mv = Move::by_power(from, to, piece, e.move_type, MoveKind::EnPassant, ep.victim.0, victim);
            self.push(r, e.promo, mv, buf);
        }
    }

    /// The moves of a piece standing between cells (on a board of at most 256 locations, of a
    /// type whose moves are one per target), counted along the rays of every cell it covers:
    /// each target once, the cells it covers itself seen as empty. A capture of a piece that
    /// also stands between cells is pushed on `buf` to be tested (once).
    fn count_between(&self, r: &Rules, side: PlayerId, from: CellId, piece: Piece, buf: &mut Vec<Move>) -> u64 {
        let ty = r.type_of(piece);
        let mut pushed = 0;
        let mut met = [0u64; 4];
        let mut meet = |to: CellId| {
            let t = to.0 as usize;
            let new = met[t >> 6] & 1 << (t & 63) == 0;
            met[t >> 6] |= 1 << (t & 63);
            new
        };
        for &origin in r.covers(from) {
            let i = (side.0 as usize * r.types + ty.0 as usize) * r.cells + origin.0 as usize;
            for e in &r.tables.entries[r.tables.entry_index[i] as usize..r.tables.entry_index[i + 1] as usize] {
                let ray = &r.tables.ray_cells[e.start as usize..e.start as usize + e.len as usize];
                let quiet = e.mode != MoveMode::CaptureOnly;
                let captures = e.mode != MoveMode::MoveOnly;
                for &to in ray {
                    if r.between.cells[to.0 as usize] {
                        if quiet && to != from && self.covers_free(r, to, from) {
                            meet(to);
                        }
                        continue;
                    }
                    let q = if self.anchor[to.0 as usize] == from { Piece::EMPTY } else { self.cells[to.0 as usize] };
                    if q.is_empty() {
                        if quiet {
                            meet(to);
                        }
                        continue;
                    }
                    if captures && q != Piece::HOLE && !r.allied(r.owner(q), side) {
                        let between = self.standing_at(to) != to;
                        if meet(to) && between {
                            buf.push(Move::by_power(from, to, piece, e.move_type, MoveKind::Normal, 0, q));
                            pushed += 1;
                        }
                    }
                    break;
                }
            }
        }
        // The captures pushed are tested, not counted.
        met.iter().map(|w| w.count_ones() as u64).sum::<u64>() - pushed
    }

    /// [`State::occupancy`] on a board with locations between cells: the cells a piece standing
    /// between cells covers block as pieces do, and an enemy's may be captured; with the cells
    /// the enemy's such pieces cover.
    #[inline(always)]
    fn covered_occupancy<B: Bits>(&self, r: &Rules, side: PlayerId) -> (Occupancy<B>, B) {
        let occ = self.occupancy::<B>(side);
        let (mut covered, mut enemy_covered) = (0u128, 0u128);
        for p in 0..r.players {
            let m = self.covered_by(r, PlayerId(p as u8));
            covered |= m;
            if p != side.0 as usize {
                enemy_covered |= m;
            }
        }
        let all = occ.all | B::of(covered);
        let enemy_covered = B::of(enemy_covered);
        (Occupancy { all, enemy: occ.enemy | enemy_covered, land: !all, join: B::ZERO }, enemy_covered)
    }

    /// The cells among the first 128 that `by`'s pieces standing between cells cover.
    #[inline]
    fn covered_by(&self, r: &Rules, by: PlayerId) -> u128 {
        let mut covered = 0;
        for (wi, (&w, &b)) in self.occupied[by.0 as usize].words().iter().zip(&r.count.between_words).enumerate() {
            let mut w = w & b;
            while w != 0 {
                let at = CellId((wi as u32 * 64 + w.trailing_zeros()) as u16);
                w &= w - 1;
                covered |= r.covered_cells(at).iter().filter(|c| c.0 < 128).fold(0u128, |m, c| m | 1 << c.0);
            }
        }
        covered
    }

    /// The probe masks to skip probes by, and the cells among the first 128 where a piece of
    /// `by` stands or that one covers (with locations between cells, the masks the count alone
    /// reads; see [`crate::attack`]'s `probes_holding`).
    #[inline(always)]
    pub(crate) fn held_by<'r>(&self, r: &'r Rules, by: PlayerId) -> (&'r [u128], u128) {
        let theirs = u128::from_words(self.occupied[by.0 as usize].words());
        if r.between.on {
            (&r.count.cover_masks.probes, theirs | self.covered_by(r, by))
        } else {
            (&r.count.masks.probes, theirs)
        }
    }

    /// The board as `side`'s ray masks see it: every piece and every location without a square
    /// block (such a location is never a target), the other players' pieces may be captured.
    #[inline(always)]
    pub(crate) fn occupancy<B: Bits>(&self, side: PlayerId) -> Occupancy<B> {
        let own = B::from_words(self.occupied[side.0 as usize].words());
        let mut pieces = B::ZERO;
        for set in &self.occupied {
            pieces = pieces | B::from_words(set.words());
        }
        let all = pieces | B::from_words(self.no_square.words());
        Occupancy { all, enemy: pieces & !own, land: !all, join: B::ZERO }
    }

    /// The cells an en passant capture may be made on now, as a mask (none without one).
    #[inline(always)]
    pub(crate) fn ep_passed_cells(&self) -> u128 {
        self.rights.ep.map_or(0, |e| e.passed().iter().fold(0, |m, c| m | 1u128 << (c.0 & 127)))
    }

    /// How many pseudo-legal moves `side` has, the number [`State::pseudo_moves`] makes: read
    /// from the ray masks for the pieces they hold, generated for the rest (pieces with
    /// programs or en passant, castlings, drops, and every piece where the count does not
    /// apply). The evaluation's mobility term asks this for both players at every leaf.
    pub(crate) fn pseudo_move_count(&self, r: &Rules, side: PlayerId, buf: &mut Vec<Move>) -> u64 {
        buf.clear();
        let counts = r.count.applies || r.paths.allows(Path::PseudoCount);
        if !counts || r.count.masks.fits.is_empty() || self.partial.is_some() {
            self.pseudo_moves(r, side, buf);
            return buf.len() as u64;
        }
        let st = self;
        let n = with_popcnt!(|st: &State, r: &Rules, side: PlayerId, buf: &mut Vec<Move>| -> u64 {
            if r.cells <= 64 {
                st.pseudo_count_by_masks::<u64>(r, side, buf)
            } else {
                st.pseudo_count_by_masks::<u128>(r, side, buf)
            }
        });
        self.castling_moves(r, side, buf);
        if let Some(pr) = r.program.as_deref() {
            self.drop_moves(r, pr, side, Only::ANY, buf);
        }
        n + buf.len() as u64
    }

    /// [`State::pseudo_move_count`]'s pieces: counted where the masks hold all of a piece's
    /// moves, else pushed on `buf`.
    #[inline(always)]
    fn pseudo_count_by_masks<B: Bits>(&self, r: &Rules, side: PlayerId, buf: &mut Vec<Move>) -> u64 {
        let masks = &r.count.masks;
        let occ = self.occupancy::<B>(side);
        let passed = self.ep_passed_cells();
        let mut n = 0;
        for from in self.occupied[side.0 as usize].iter() {
            let piece = self.cells[from.0 as usize];
            let slot = masks.slot(piece, from, r.cells);
            let ep = self.rights.ep.is_some() && masks.ep_reach_of(r, side, piece, from) & passed != 0;
            if slot.counted && !ep {
                n += masks.count::<B, false>(slot, occ);
                continue;
            }
            let t = r.type_of(piece).0 as usize;
            let i = (side.0 as usize * r.types + t) * r.cells + from.0 as usize;
            if !ep && r.programmed_types[t] && masks.fits[i] && !r.tables.entry_dedup[i] {
                // The programs' moves are listed, the tables' counted unless a program makes a
                // plain move (which might be one of theirs): then they are listed after, each
                // move once (the count does not ask in which order).
                let first = buf.len();
                self.program_moves(r, side, from, piece, Only::ANY, buf);
                if buf[first..].iter().any(|m| m.kind == MoveKind::Normal) {
                    self.piece_moves::<false, false>(r, side, from, from, piece, Only::ANY, buf);
                    dedup_from(r, buf, first);
                } else {
                    n += masks.count::<B, false>(slot, occ);
                }
                continue;
            }
            self.single_piece_moves(r, side, from, buf);
        }
        n
    }
}

impl State {
    /// Counts the moves of `side`'s pieces where that is sound and pushes the others' pseudo-legal
    /// moves on `buf`; returns the count and the royal's targets when its moves were read from
    /// the masks (each still to be tried). `MASKS`: the board's rays are read from bit sets.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn count_pieces<B: Bits, const MASKS: bool, const COVER: bool>(
        &self,
        r: &Rules,
        side: PlayerId,
        royal: CellId,
        pins: &Pins,
        buf: &mut Vec<Move>,
    ) -> (u64, u128) {
        let masks = if COVER { &r.count.cover_masks } else { &r.count.masks };
        let (occ, enemy_covered) = if COVER {
            self.covered_occupancy::<B>(r, side)
        } else if MASKS {
            (self.occupancy::<B>(side), B::ZERO)
        } else {
            (Occupancy { all: B::ZERO, enemy: B::ZERO, land: B::ZERO, join: B::ZERO }, B::ZERO)
        };
        // A capture of a piece standing between cells uncovers its other cells: the capturer's
        // moves are walked and that capture tested.
        let between_enemies = COVER && enemy_covered != B::ZERO;
        let ep = self.rights.ep.is_some();
        // Where a piece could capture en passant: its moves are generated (and tried).
        let passed = self.ep_passed_cells();
        let pinned = if pins.overflow {
            !0u128
        } else {
            pins.cells[..pins.len as usize].iter().fold(0u128, |m, c| m | 1 << (c.0 & 127))
        };
        let mut n = 0;
        let mut royal_targets = 0u128;
        for (wi, &word) in self.occupied[side.0 as usize].words().iter().enumerate() {
            let mut w = word;
            // This word's share of the pins and the royal (with masks the board has at most
            // two words), tested with one-word operations.
            let stop = if MASKS {
                let royal_bit = u64::from(royal.0 >> 6 == wi as u16) << (royal.0 & 63);
                (pinned.checked_shr(wi as u32 * 64).unwrap_or(0) as u64) | royal_bit
            } else {
                0
            };
            while w != 0 {
                let bit = w & w.wrapping_neg();
                let from = CellId((wi as u32 * 64 + w.trailing_zeros()) as u16);
                w &= w - 1;
                let piece = self.cells[from.0 as usize];
                if MASKS && stop & bit == 0 {
                    let near_ep = ep && masks.ep_reach_of(r, side, piece, from) & passed != 0;
                    // The common case in one cache line: a piece the masks count whole.
                    let slot = masks.slot(piece, from, r.cells);
                    if slot.counted
                        && !near_ep
                        && !(between_enemies && masks.captures_on(r, piece, from, occ, enemy_covered))
                    {
                        n += masks.count::<B, COVER>(slot, occ);
                        continue;
                    }
                }
                let ty = r.type_of(piece);
                let i = (side.0 as usize * r.types + ty.0 as usize) * r.cells + from.0 as usize;
                let t = ty.0 as usize;
                let pinned_here = pinned & (1 << (from.0 & 127)) != 0;
                if (COVER || !MASKS) && r.is_between(from) {
                    // A piece between cells moves from each cell it covers.
                    if !pinned_here && r.count.one_per_target[t] && r.cells <= 256 {
                        n += self.count_between(r, side, from, piece, buf);
                    } else {
                        self.single_piece_moves(r, side, from, buf);
                    }
                    continue;
                }
                // En passant is pushed to be tested by the ray walk, not by the masks.
                let general = r.tables.entry_dedup[i] || pinned_here;
                let walked = MASKS
                    && ((ep && r.count.ep_type[t] && masks.ep_reach[i] & passed != 0)
                        || (between_enemies && masks.captures_on(r, piece, from, occ, enemy_covered)));
                if !general && MASKS && masks.fits[i] && !walked {
                    let slot = masks.slot(piece, from, r.cells);
                    if from != royal {
                        if r.programmed_types[t] {
                            // The programs' moves are tried one by one; the tables' moves are
                            // counted unless a program makes a plain move (which might be one of
                            // theirs, counted once).
                            let first = buf.len();
                            self.program_moves(r, side, from, piece, Only::ANY, buf);
                            if buf[first..].iter().any(|m| m.kind == MoveKind::Normal) {
                                buf.truncate(first);
                                self.single_piece_moves(r, side, from, buf);
                                continue;
                            }
                        }
                        n += masks.count::<B, COVER>(slot, occ);
                        continue;
                    }
                    if r.programmed_types[t] {
                        self.single_piece_moves(r, side, from, buf);
                        continue;
                    }
                    // Where the royal's square may vanish behind it, its moves are tried one
                    // by one (a trial that finds one illegal makes it in full).
                    if r.paths.allows(Path::RoyalTargets) && !masks.promotes(slot) && !masks.stops_between(slot) {
                        royal_targets = masks.targets(slot, occ).wide();
                        continue;
                    }
                } else if !general && from != royal && r.count.plain_type[t] && !r.programmed_types[t] {
                    n += self.count_rays(
                        r,
                        side,
                        from,
                        r.tables.entry_index[i] as usize,
                        r.tables.entry_index[i + 1] as usize,
                        buf,
                    );
                    continue;
                }
                self.single_piece_moves(r, side, from, buf);
            }
        }
        (n, royal_targets)
    }
}

impl Position {
    /// The number of legal moves by counting rays where that is sound (see the module doc),
    /// or `None` when this position needs the general count (in check, no single royal,
    /// partway through a move).
    #[inline]
    pub(crate) fn count_by_rays(&mut self, buf: &mut Vec<Move>) -> Option<u64> {
        if !self.royal_memo().counted {
            return None;
        }
        let (royal, enemies) = (self.royal_memo.royal, self.royal_memo.enemies);
        // The pins read where they were learnt (a copy made at once stalled as the memo's).
        let pins = &self.royal_memo.pins;
        let r = &*self.rules;
        let st = &mut self.st;
        let side = st.side;
        let masks = enemies.is_some();
        let cover = r.between.on && !r.count.cover_masks.fits.is_empty();
        buf.clear();
        let (mut n, targets) = if r.count.stacked || masks || cover {
            let captures_tested = r.count.stacked && st.stacked_count_now(r)?;
            with_popcnt!(|st: &State,
                          r: &Rules,
                          side: PlayerId,
                          royal: CellId,
                          pins: &Pins,
                          captures_tested: bool,
                          buf: &mut Vec<Move>|
             -> (u64, u128) {
                match (r.count.stacked, r.cells <= 64, r.between.on) {
                    (true, true, _) => st.count_stacked::<u64>(r, side, royal, pins, captures_tested, buf),
                    (true, false, _) => st.count_stacked::<u128>(r, side, royal, pins, captures_tested, buf),
                    (false, _, true) => st.count_pieces::<u128, true, true>(r, side, royal, pins, buf),
                    (false, true, false) => st.count_pieces::<u64, true, false>(r, side, royal, pins, buf),
                    (false, false, false) => st.count_pieces::<u128, true, false>(r, side, royal, pins, buf),
                }
            })
        } else {
            st.count_pieces::<u64, false, false>(r, side, royal, pins, buf)
        };
        if targets != 0 {
            // The royal tried on each target in the cell array, as the light legality test does.
            let king = st.cells[royal.0 as usize];
            // On stacks, a target off the cells that may hold one is tried by the threats' bit
            // sets, those cells' pieces unsure (the royal stays apart and capturable there; the
            // count sends a royal that could land on such a cell to generation anyway).
            let off_stacks = r.count.stacked && r.count.threats.for_stacks();
            let enemies = if off_stacks { st.enemy_cells(r, side) } else { enemies.unwrap_or(!0) };
            let lifted = st.occupancy::<u128>(side).all & !(1 << (royal.0 & 127));
            let unsure = r.count.threats.unsure(lifted);
            st.cells[royal.0 as usize] = Piece::EMPTY;
            let mut t = targets;
            while t != 0 {
                let to = CellId(t.trailing_zeros() as u16);
                t &= t - 1;
                let i = to.0 as usize;
                let q = st.cells[i];
                st.cells[i] = king;
                // On stacks, the walk reads the cell array first: the royal's cell empty there
                // is passed, the target's stack holds one piece or none. With locations between
                // cells, every probe is walked (the masks do not hold the covered cells).
                let attacked = if off_stacks && !r.count.threats.stackable(to) {
                    st.threatened(r, to, lifted, enemies, unsure)
                        .unwrap_or_else(|| st.attacked_by_any_enemy(r, to, side))
                } else if r.count.stacked || r.between.on {
                    st.attacked_by_any_enemy(r, to, side)
                } else {
                    st.royal_attacked_on(r, to, side, enemies, lifted)
                };
                n += u64::from(!attacked);
                st.cells[i] = q;
            }
            st.cells[royal.0 as usize] = king;
        }
        st.castling_moves(r, side, buf);
        if let Some(pr) = r.program.as_deref() {
            st.drop_moves(r, pr, side, Only::ANY, buf);
        }
        let safe = Some((royal, self.royal_memo.pins));
        for &mv in buf.iter() {
            if self.legal_fast(mv, &safe) {
                n += 1;
            }
        }
        Some(n)
    }
}
