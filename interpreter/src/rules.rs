//! Compiles a variant's IR into flat tables: move rays per piece and cell, reverse attack probes, zone masks, hash keys.

use crate::bitset::CellSet;
use crate::graph::Graph;
use crate::ir::{
    ActionKind, CellId, Condition, DirId, Geometry, MoveMode, Occupancy, PhaseId, PieceTypeId, PlayerId, TurnAction,
    Variant, ZoneId,
};

/// A piece on the board: owner and type packed into one small code; 0 is an empty cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Piece(pub u16);

impl Piece {
    /// No piece.
    pub const EMPTY: Piece = Piece(0);
    /// A location with no square: nothing may stand there, sliders stop before it.
    pub const HOLE: Piece = Piece(u16::MAX);
    /// In a move's `take`: every enemy piece on the target (a `capture-all` cell).
    pub const ALL: Piece = Piece(u16::MAX - 1);

    /// Whether the cell holds nothing (and has a square).
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// The shape of a compiled move entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    /// Walk the ray through empty cells (a leap is a ray of one cell).
    Slide,
    /// Walk the ray to the first occupied cell, then continue past it.
    Hop,
}

/// One compiled ray of a move rule from one cell.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// Start of the ray in `Rules::ray_cells`.
    pub start: u32,
    /// Number of cells on the ray.
    pub len: u16,
    /// Slide or hop.
    pub kind: EntryKind,
    /// Move, capture or both.
    pub mode: MoveMode,
    /// Index of the rule in the piece type's `moves`.
    pub rule: u8,
    /// The (player-mapped) direction, for en-passant passage.
    pub dir: DirId,
    /// Whether the ray is a leap (no passage).
    pub leap: bool,
    /// Whether the rule has conditions checked during play.
    pub dynamic: bool,
    /// The rule marks the cells it passes as capturable en passant.
    pub marks_ep: bool,
    /// The rule may capture en passant.
    pub captures_ep: bool,
    /// For a hop: how many cells past the screen it may go (0: no limit).
    pub hop_max: u8,
}

/// A reverse attack probe: a ray from the attacked cell with, per distance, the piece types
/// that attack from there.
#[derive(Clone, Copy, Debug)]
pub struct Probe {
    /// Start in `Rules::probe_cells` / `Rules::probe_masks`.
    pub start: u32,
    /// Length of the ray.
    pub len: u16,
}

/// The compiled, immutable rules of a variant, shared by every position of it.
#[derive(Debug)]
pub struct Rules {
    /// The variant these rules were compiled from.
    pub variant: Variant,
    /// The board graph.
    pub graph: Graph,
    pub(crate) players: usize,
    pub(crate) types: usize,
    pub(crate) cells: usize,
    pub(crate) entries: Vec<Entry>,
    /// Per (player, type, cell): range into `entries`.
    pub(crate) entry_index: Vec<u32>,
    /// Per (player, type, cell): the entries' reachable cells may overlap, so dedupe moves.
    pub(crate) entry_dedup: Vec<bool>,
    pub(crate) ray_cells: Vec<CellId>,
    /// Per (attacking player, cell): range into `probes`.
    pub(crate) probe_index: Vec<u32>,
    pub(crate) probes: Vec<Probe>,
    pub(crate) probe_cells: Vec<CellId>,
    pub(crate) probe_masks: Vec<u32>,
    /// Attacks need the general (slow) test: hops, or capture powers with conditions.
    pub(crate) slow_attacks: bool,
    /// Per (zone, player): membership.
    pub(crate) zone_sets: Vec<CellSet>,
    pub(crate) royal_mask: u32,
    /// Zobrist keys: per (cell, piece code).
    pub(crate) z_piece: Vec<u64>,
    pub(crate) z_side: Vec<u64>,
    pub(crate) z_castle: Vec<u64>,
    pub(crate) z_ep: Vec<u64>,
    pub(crate) z_phase: Vec<u64>,
    /// Castling: per cell, the rights lost when a move starts or ends there.
    pub(crate) castle_keep: Vec<u32>,
    /// Per piece code: owner and type (lookups instead of divisions in the hot loops).
    owner_of: Vec<u8>,
    type_of: Vec<u8>,
    /// Per piece code: the piece is royal.
    pub(crate) royal_code: Vec<bool>,
    /// Per piece code: moving it resets the move clock.
    pub(crate) resets_clock_code: Vec<bool>,
    /// Per piece type: it has a promotion rule.
    pub(crate) promotes: Vec<bool>,
    /// Some cells hold stacks (a zone has occupancy rules): the stack-aware paths are used.
    pub(crate) stacking: bool,
    /// Per cell: 0 for a plain cell, else 1 + index into `occupancies`.
    pub(crate) occ_kind: Vec<u8>,
    /// Occupancy rules of each zone that has them: base rules and phase overrides.
    pub(crate) occupancies: Vec<(Occupancy, Vec<(PhaseId, Occupancy)>)>,
    /// Piece types that keep apart, with, per cell, the cells within their distance.
    pub(crate) apart: Vec<(PieceTypeId, Vec<CellSet>)>,
    /// Every keep-apart type is royal (so only royal moves can bring them together).
    pub(crate) apart_all_royal: bool,
    /// Cells that are `lone-inert` in some phase.
    pub(crate) inert_cells: CellSet,
    /// Phases that change some cell's occupancy rules.
    pub(crate) occupancy_phases: u32,
    /// Those phases begin only on a change of the piece count (so only captures start them).
    pub(crate) occupancy_phases_on_capture: bool,
    /// Some locations stand between cells (a piece there covers several): the covering paths
    /// are used.
    pub(crate) covering: bool,
    /// Per cell: it is a location between cells.
    pub(crate) between_cell: Vec<bool>,
    /// Squares are game objects, or a turn has several actions: moves go through the
    /// square-aware paths (actions of a turn, square moves and placements, owners, reserves).
    pub(crate) square_play: bool,
    /// Squares are owned by players.
    pub(crate) owned_squares: bool,
    /// Squares pieces leave may be removed (so a piece leaving a cell can block a line there).
    pub(crate) vacates: bool,
    /// How empty squares move, and how squares carrying a piece move.
    pub(crate) square_moves: RayTable,
    pub(crate) square_carries: RayTable,
    /// The action slots of a turn.
    pub(crate) slots: Vec<TurnAction>,
    /// Zobrist keys of square play: owner per (cell, player), reserve per (player, count up to
    /// 64), untouchable and touched squares per cell, action slot.
    pub(crate) z_owner: Vec<u64>,
    pub(crate) z_reserve: Vec<u64>,
    pub(crate) z_frozen: Vec<u64>,
    pub(crate) z_touched: Vec<u64>,
    pub(crate) z_slot: Vec<u64>,
    /// Move programs, drops, hands, attributes, goals or a turn order: moves go through the
    /// program paths.
    pub(crate) program: Option<Box<crate::program::ProgramRules>>,
}

/// Rays per (player, cell) for the moves of squares: each ray is walked through locations
/// without a square, every one of them a target.
#[derive(Debug, Default)]
pub(crate) struct RayTable {
    /// Per (player, cell): range into `rays`.
    index: Vec<u32>,
    /// (start, len) into `cells`.
    rays: Vec<(u32, u16)>,
    cells: Vec<CellId>,
}

impl RayTable {
    fn build(variant: &Variant, graph: &Graph, geometries: &[Geometry]) -> RayTable {
        let mut t = RayTable { index: vec![0], ..RayTable::default() };
        for p in &variant.players {
            let map = &p.direction_map;
            for c in 0..graph.cell_count() {
                let cell = CellId(c as u16);
                let mut rays: Vec<Vec<CellId>> = Vec::new();
                for g in geometries {
                    match g {
                        Geometry::Slide { dirs, max } => {
                            let max = max.map(|m| m as usize).unwrap_or(usize::MAX);
                            for d in dirs {
                                rays.extend(graph.rays(cell, map[d.0 as usize], max, false));
                            }
                        }
                        Geometry::Leap { paths } => {
                            for path in paths {
                                let mapped: Vec<DirId> = path.iter().map(|d| map[d.0 as usize]).collect();
                                rays.extend(graph.follow(cell, &mapped, false).into_iter().map(|t| vec![t]));
                            }
                        }
                        Geometry::Hop { .. } => {}
                    }
                }
                let mut seen = Vec::new();
                for ray in rays {
                    if ray.len() == 1 && seen.contains(&ray[0]) {
                        continue;
                    }
                    if ray.len() == 1 {
                        seen.push(ray[0]);
                    }
                    t.rays.push((t.cells.len() as u32, ray.len() as u16));
                    t.cells.extend(ray);
                }
                t.index.push(t.rays.len() as u32);
            }
        }
        t
    }

    /// The rays from a cell for a player.
    #[inline]
    pub(crate) fn rays(&self, cells: usize, player: PlayerId, cell: CellId) -> impl Iterator<Item = &[CellId]> + '_ {
        let i = player.0 as usize * cells + cell.0 as usize;
        self.rays[self.index[i] as usize..self.index[i + 1] as usize]
            .iter()
            .map(|&(s, n)| &self.cells[s as usize..s as usize + n as usize])
    }
}

/// [`splitmix`] for the other modules that make hash keys.
pub(crate) fn splitmix_pub(state: &mut u64) -> u64 {
    splitmix(state)
}

/// Deterministic 64-bit generator for hash keys (splitmix64).
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rules {
    /// Compiles the IR. The IR is assumed checked by the lowering (ids in range).
    pub fn new(variant: Variant) -> Rules {
        let graph = Graph::new(&variant.board);
        let players = variant.players.len();
        let types = variant.pieces.len();
        let cells = variant.board.cells.len();

        let mut zone_sets = Vec::new();
        for zone in &variant.zones {
            for p in 0..players {
                let mut set = CellSet::new(cells);
                for c in zone.cells.get(p).into_iter().flatten() {
                    set.insert(*c);
                }
                zone_sets.push(set);
            }
        }
        let in_zone = |z: ZoneId, p: usize, c: CellId| zone_sets[z.0 as usize * players + p].contains(c);

        // The location between two neighbouring cells: the one covering both with the fewest
        // covered cells (a1.5 between a1 and a2, not ab1.5).
        let mut between: std::collections::HashMap<(CellId, CellId), CellId> = std::collections::HashMap::new();
        let mut is_between = vec![false; cells];
        for (i, cell) in variant.board.cells.iter().enumerate() {
            if cell.covers.is_empty() {
                continue;
            }
            is_between[i] = true;
            for &a in &cell.covers {
                for &b in &cell.covers {
                    let narrower = |m: &CellId| variant.board.cells[m.0 as usize].covers.len() > cell.covers.len();
                    if a != b && between.get(&(a, b)).is_none_or(narrower) {
                        between.insert((a, b), CellId(i as u16));
                    }
                }
            }
        }
        let covering = is_between.iter().any(|b| *b);

        let mut entries = Vec::new();
        let mut entry_index = vec![0u32];
        let mut entry_dedup = Vec::new();
        let mut ray_cells = Vec::new();
        for p in 0..players {
            let map = &variant.players[p].direction_map;
            for piece in &variant.pieces {
                for c in 0..cells {
                    let cell = CellId(c as u16);
                    for (ri, rule) in piece.moves.iter().enumerate() {
                        let from_ok = rule.conditions.iter().all(|cond| match cond {
                            Condition::FromZone(z) => in_zone(*z, p, cell),
                            Condition::Not(inner) => match &**inner {
                                Condition::FromZone(z) => !in_zone(*z, p, cell),
                                _ => true,
                            },
                            _ => true,
                        });
                        if !from_ok {
                            continue;
                        }
                        let dynamic = rule.conditions.iter().any(|c| !is_static(c));
                        let hop_max = match &rule.geometry {
                            Geometry::Hop { max: Some(m), .. } => *m,
                            _ => 0,
                        };
                        let mut push = |ray: Vec<CellId>, kind, dir: DirId, leap: bool| {
                            entries.push(Entry {
                                start: ray_cells.len() as u32,
                                len: ray.len() as u16,
                                kind,
                                mode: rule.mode,
                                rule: ri as u8,
                                dir,
                                leap,
                                dynamic,
                                marks_ep: rule.marks_en_passant,
                                captures_ep: rule.captures_en_passant,
                                hop_max,
                            });
                            ray_cells.extend(ray);
                        };
                        match &rule.geometry {
                            Geometry::Slide { dirs, max } if rule.stop_between => {
                                // The ray with the between locations interleaved: before each
                                // cell, and after the last one reachable when the next exists.
                                let max = max.map(|m| m as usize).unwrap_or(usize::MAX);
                                for d in dirs {
                                    let d = map[d.0 as usize];
                                    for ray in graph.rays(cell, d, max.saturating_add(1), false) {
                                        let mut with = Vec::new();
                                        let mut prev = cell;
                                        for (i, &t) in ray.iter().enumerate() {
                                            with.extend(between.get(&(prev, t)));
                                            if i == max {
                                                break;
                                            }
                                            with.push(t);
                                            prev = t;
                                        }
                                        push(with, EntryKind::Slide, d, false);
                                    }
                                }
                            }
                            Geometry::Slide { dirs, max } => {
                                let max = max.map(|m| m as usize).unwrap_or(usize::MAX);
                                for d in dirs {
                                    let d = map[d.0 as usize];
                                    for ray in graph.rays(cell, d, max, false) {
                                        push(ray, EntryKind::Slide, d, false);
                                    }
                                }
                            }
                            Geometry::Hop { dirs, .. } => {
                                for d in dirs {
                                    let d = map[d.0 as usize];
                                    for ray in graph.rays(cell, d, usize::MAX, false) {
                                        push(ray, EntryKind::Hop, d, false);
                                    }
                                }
                            }
                            Geometry::Leap { paths } => {
                                let mut seen = Vec::new();
                                for path in paths {
                                    let mapped: Vec<DirId> = path.iter().map(|d| map[d.0 as usize]).collect();
                                    for t in graph.follow(cell, &mapped, false) {
                                        if !seen.contains(&t) {
                                            seen.push(t);
                                            push(vec![t], EntryKind::Slide, mapped[0], true);
                                        }
                                    }
                                }
                            }
                        }
                    }
                    // Two rays (or two rules) that can reach one cell may produce one move twice.
                    let first = *entry_index.last().unwrap() as usize;
                    prune_subsumed(&mut entries, first, &ray_cells);
                    let mut dedup = false;
                    let mut total = CellSet::new(cells);
                    let mut count = 0;
                    for e in &entries[first..] {
                        for i in 0..e.len {
                            let t = ray_cells[e.start as usize + i as usize];
                            count += 1;
                            total.insert(t);
                        }
                    }
                    if total.len() != count {
                        dedup = true;
                    }
                    entry_dedup.push(dedup);
                    entry_index.push(entries.len() as u32);
                }
            }
        }

        // Reverse attack probes. For each attacker and each target cell, rays back along every
        // capture direction, tagged per distance with the types that attack from there.
        let mut slow_attacks = false;
        let mut probe_index = vec![0u32];
        let mut probes = Vec::new();
        let mut probe_cells = Vec::new();
        let mut probe_masks = Vec::new();
        for p in 0..players {
            let map = &variant.players[p].direction_map;
            for c in 0..cells {
                let cell = CellId(c as u16);
                // (ray cells, masks) keyed by ray so types sharing a direction share a probe.
                let mut rays: Vec<(Vec<CellId>, Vec<u32>)> = Vec::new();
                let mut add = |ray: Vec<CellId>, reach: usize, bit: u32, from_zone: &[ZoneId]| {
                    let idx = match rays.iter().position(|(r, _)| *r == ray) {
                        Some(i) => i,
                        None => {
                            let n = ray.len();
                            rays.push((ray, vec![0; n]));
                            rays.len() - 1
                        }
                    };
                    let (r, masks) = &mut rays[idx];
                    for (i, m) in masks.iter_mut().enumerate().take(reach) {
                        if from_zone.iter().all(|z| in_zone(*z, p, r[i])) {
                            *m |= bit;
                        }
                    }
                };
                for (t, piece) in variant.pieces.iter().enumerate() {
                    let bit = 1u32 << t;
                    for rule in &piece.moves {
                        if rule.mode == MoveMode::MoveOnly {
                            continue;
                        }
                        let mut zones = Vec::new();
                        for cond in &rule.conditions {
                            match cond {
                                Condition::FromZone(z) => zones.push(*z),
                                _ => slow_attacks = true,
                            }
                        }
                        match &rule.geometry {
                            Geometry::Slide { dirs, max } => {
                                let max = max.map(|m| m as usize).unwrap_or(usize::MAX);
                                for d in dirs {
                                    let d = map[d.0 as usize];
                                    for ray in graph.rays(cell, d, max, true) {
                                        let reach = ray.len().min(max);
                                        add(ray, reach, bit, &zones);
                                    }
                                }
                            }
                            Geometry::Leap { paths } => {
                                for path in paths {
                                    let mapped: Vec<DirId> = path.iter().map(|d| map[d.0 as usize]).collect();
                                    for x in graph.follow(cell, &mapped, true) {
                                        add(vec![x], 1, bit, &zones);
                                    }
                                }
                            }
                            Geometry::Hop { .. } => slow_attacks = true,
                        }
                    }
                }
                for (ray, masks) in rays {
                    // Trim trailing cells from which nothing attacks.
                    let keep = masks.iter().rposition(|m| *m != 0).map(|i| i + 1).unwrap_or(0);
                    if keep == 0 {
                        continue;
                    }
                    probes.push(Probe { start: probe_cells.len() as u32, len: keep as u16 });
                    probe_cells.extend_from_slice(&ray[..keep]);
                    probe_masks.extend_from_slice(&masks[..keep]);
                }
                probe_index.push(probes.len() as u32);
            }
        }

        let mut royal_mask = 0;
        for (t, piece) in variant.pieces.iter().enumerate() {
            if piece.royal {
                royal_mask |= 1 << t;
            }
        }

        let mut seed = 0x5641_5249_4100_0001u64;
        let codes = players * types + 1;
        let z_piece = (0..cells * codes).map(|_| splitmix(&mut seed)).collect();
        let z_side = (0..players).map(|_| splitmix(&mut seed)).collect();
        let z_castle = (0..variant.castlings.len()).map(|_| splitmix(&mut seed)).collect();
        let z_ep = (0..cells).map(|_| splitmix(&mut seed)).collect();
        let z_phase = (0..variant.phases.len()).map(|_| splitmix(&mut seed)).collect();

        let z_owner = (0..cells * players).map(|_| splitmix(&mut seed)).collect();
        let z_reserve = (0..players * 65).map(|_| splitmix(&mut seed)).collect();
        let z_frozen = (0..cells).map(|_| splitmix(&mut seed)).collect();
        let z_touched = (0..cells).map(|_| splitmix(&mut seed)).collect();
        let z_slot = (0..8).map(|_| splitmix(&mut seed)).collect();
        let slots = variant.turn.actions.clone();
        let square_play = variant.squares.is_some()
            || slots.len() > 1
            || slots.iter().any(|s| s.optional || s.kinds.iter().any(|k| *k != ActionKind::MovePiece));
        let (square_moves, square_carries, owned_squares, vacates) = match &variant.squares {
            Some(sq) => (
                RayTable::build(&variant, &graph, &sq.moves),
                RayTable::build(&variant, &graph, &sq.carries),
                sq.owned,
                sq.vacate.is_some(),
            ),
            None => (RayTable::default(), RayTable::default(), false, false),
        };

        let mut castle_keep = vec![u32::MAX; cells];
        for (i, c) in variant.castlings.iter().enumerate() {
            castle_keep[c.king_from.0 as usize] &= !(1 << i);
            castle_keep[c.partner_from.0 as usize] &= !(1 << i);
        }

        let mut owner_of = vec![0u8; codes];
        let mut type_of = vec![0u8; codes];
        let mut royal_code = vec![false; codes];
        let mut resets_clock_code = vec![false; codes];
        for code in 1..codes {
            owner_of[code] = ((code - 1) % players) as u8;
            type_of[code] = ((code - 1) / players) as u8;
            royal_code[code] = variant.pieces[type_of[code] as usize].royal;
            resets_clock_code[code] = variant.pieces[type_of[code] as usize].resets_move_clock;
        }

        let promotes = variant.pieces.iter().map(|p| p.promotion.is_some()).collect();

        let mut occ_kind = vec![0u8; cells];
        let mut occupancies = Vec::new();
        for zone in &variant.zones {
            if let Some(base) = zone.occupancy {
                occupancies.push((base, zone.phase_occupancy.clone()));
                for c in zone.cells.iter().flatten() {
                    occ_kind[c.0 as usize] = occupancies.len() as u8;
                }
            }
        }
        let stacking = !occupancies.is_empty();
        let mut inert_cells = CellSet::new(cells);
        for (c, &k) in occ_kind.iter().enumerate() {
            if k != 0 {
                let (base, by_phase) = &occupancies[k as usize - 1];
                if base.lone_inert || by_phase.iter().any(|(_, o)| o.lone_inert) {
                    inert_cells.insert(CellId(c as u16));
                }
            }
        }

        let mut apart = Vec::new();
        for (t, piece) in variant.pieces.iter().enumerate() {
            if let Some(d) = piece.keep_apart {
                let near: Vec<CellSet> = (0..cells).map(|c| graph.within(CellId(c as u16), d as usize)).collect();
                apart.push((PieceTypeId(t as u8), near));
            }
        }
        let apart_all_royal = apart.iter().all(|(t, _)| variant.pieces[t.0 as usize].royal);
        let mut occupancy_phases = 0u32;
        for (_, by_phase) in &occupancies {
            for (p, _) in by_phase {
                occupancy_phases |= 1 << p.0;
            }
        }
        let occupancy_phases_on_capture = (0..variant.phases.len())
            .filter(|i| occupancy_phases & (1 << i) != 0)
            .all(|i| counts_only(&variant.phases[i].when, &variant, 0));
        let program = crate::program::ProgramRules::needed(&variant)
            .then(|| Box::new(crate::program::ProgramRules::build(&variant, &mut seed)));
        Rules {
            program,
            square_play,
            owned_squares,
            vacates,
            square_moves,
            square_carries,
            slots,
            z_owner,
            z_reserve,
            z_frozen,
            z_touched,
            z_slot,
            covering,
            between_cell: is_between,
            occupancy_phases,
            occupancy_phases_on_capture,
            apart_all_royal,
            inert_cells,
            stacking,
            occ_kind,
            occupancies,
            apart,
            promotes,
            owner_of,
            type_of,
            royal_code,
            resets_clock_code,
            variant,
            graph,
            players,
            types,
            cells,
            entries,
            entry_index,
            entry_dedup,
            ray_cells,
            probe_index,
            probes,
            probe_cells,
            probe_masks,
            slow_attacks,
            zone_sets,
            royal_mask,
            z_piece,
            z_side,
            z_castle,
            z_ep,
            z_phase,
            castle_keep,
        }
    }

    /// The piece code of a player's piece type.
    #[inline]
    pub fn piece(&self, player: PlayerId, ty: PieceTypeId) -> Piece {
        Piece(1 + ty.0 as u16 * self.players as u16 + player.0 as u16)
    }

    /// The owner of a (non-empty) piece code.
    #[inline]
    pub fn owner(&self, piece: Piece) -> PlayerId {
        PlayerId(self.owner_of[piece.0 as usize])
    }

    /// The type of a (non-empty) piece code.
    #[inline]
    pub fn type_of(&self, piece: Piece) -> PieceTypeId {
        PieceTypeId(self.type_of[piece.0 as usize])
    }

    /// Whether `cell` is in `zone` for `player`.
    #[inline]
    pub fn in_zone(&self, zone: ZoneId, player: PlayerId, cell: CellId) -> bool {
        self.zone_sets[zone.0 as usize * self.players + player.0 as usize].contains(cell)
    }

    /// Number of players.
    pub fn player_count(&self) -> usize {
        self.players
    }

    /// Number of cells.
    pub fn cell_count(&self) -> usize {
        self.cells
    }

    /// The name of a cell.
    pub fn cell_name(&self, cell: CellId) -> &str {
        &self.variant.board.cells[cell.0 as usize].name
    }

    /// Looks up a cell by name.
    pub fn cell_by_name(&self, name: &str) -> Option<CellId> {
        self.variant.board.cells.iter().position(|c| c.name == name).map(|i| CellId(i as u16))
    }

    /// The notation letter of a piece: uppercase for player 0, lowercase otherwise.
    pub fn piece_letter(&self, piece: Piece) -> char {
        let t = &self.variant.pieces[self.type_of(piece).0 as usize];
        if self.owner(piece).0 == 0 {
            t.letter.to_ascii_uppercase()
        } else {
            t.letter.to_ascii_lowercase()
        }
    }

    /// Looks up a piece code by its position-string letter.
    pub fn piece_by_letter(&self, ch: char) -> Option<Piece> {
        let player = if ch.is_ascii_uppercase() { 0 } else { 1 };
        if player >= self.players {
            return None;
        }
        let t = self.variant.pieces.iter().position(|p| p.letter.eq_ignore_ascii_case(&ch))?;
        Some(self.piece(PlayerId(player as u8), PieceTypeId(t as u8)))
    }

    /// The occupancy rules of a cell while the given phases are on.
    #[inline]
    pub fn occupancy(&self, cell: CellId, phases: u32) -> Occupancy {
        let k = self.occ_kind[cell.0 as usize];
        if k == 0 {
            return Occupancy::default();
        }
        let (base, by_phase) = &self.occupancies[k as usize - 1];
        let mut o = *base;
        for (p, x) in by_phase {
            if phases & (1 << p.0) != 0 {
                o = *x;
            }
        }
        o
    }

    /// The most pieces a cell may ever hold, in any phase (`None`: no limit).
    pub fn most_pieces(&self, cell: CellId) -> Option<u8> {
        let k = self.occ_kind[cell.0 as usize];
        if k == 0 {
            return Some(1);
        }
        let (base, by_phase) = &self.occupancies[k as usize - 1];
        let mut most = base.capacity;
        for (_, o) in by_phase {
            most = match (most, o.capacity) {
                (Some(a), Some(b)) => Some(a.max(b)),
                _ => None,
            };
        }
        most
    }

    /// Whether the cell keeps a stack (its zone has occupancy rules).
    #[inline]
    pub fn is_stack_cell(&self, cell: CellId) -> bool {
        self.occ_kind[cell.0 as usize] != 0
    }

    /// The cells a location between cells covers (empty for an ordinary cell).
    #[inline]
    pub fn covers(&self, cell: CellId) -> &[CellId] {
        &self.variant.board.cells[cell.0 as usize].covers
    }

    /// Whether the location stands between cells (a piece there covers several).
    #[inline]
    pub fn is_between(&self, cell: CellId) -> bool {
        self.covering && self.between_cell[cell.0 as usize]
    }

    /// Whether any location of the variant stands between cells.
    pub fn has_between(&self) -> bool {
        self.covering
    }

    /// Whether squares are game objects here, or turns have several actions.
    pub fn has_square_play(&self) -> bool {
        self.square_play
    }

    /// Whether any cell of the variant may hold several pieces.
    pub fn has_stacks(&self) -> bool {
        self.stacking
    }

    /// The hash key of the `k`-th piece of one code on a cell (k = 0 for the first).
    /// The hash key of a player's reserve size (none for an unlimited supply).
    #[inline]
    pub(crate) fn zreserve(&self, player: PlayerId, n: u32) -> u64 {
        if n == u32::MAX {
            return 0;
        }
        self.z_reserve[player.0 as usize * 65 + n.min(64) as usize]
    }

    /// The hash key of a location without a square.
    #[inline]
    pub(crate) fn zhole(&self, cell: CellId) -> u64 {
        self.z_piece[cell.0 as usize * (self.players * self.types + 1)]
    }

    /// The hash key of a square's owner.
    #[inline]
    pub(crate) fn zowner(&self, cell: CellId, owner: u8) -> u64 {
        if owner == 0 {
            return 0;
        }
        self.z_owner[cell.0 as usize * self.players + owner as usize - 1]
    }

    #[inline]
    pub(crate) fn zkey(&self, cell: CellId, piece: Piece, k: usize) -> u64 {
        let codes = self.players * self.types + 1;
        let base = self.z_piece[cell.0 as usize * codes + piece.0 as usize];
        if k == 0 {
            return base;
        }
        let mut s = base ^ (k as u64).wrapping_mul(0xA24B_AED4_963E_E407);
        splitmix(&mut s)
    }

    #[inline]
    pub(crate) fn entries_for(&self, player: PlayerId, ty: PieceTypeId, cell: CellId) -> (usize, usize, bool) {
        let i = (player.0 as usize * self.types + ty.0 as usize) * self.cells + cell.0 as usize;
        (self.entry_index[i] as usize, self.entry_index[i + 1] as usize, self.entry_dedup[i])
    }
}

/// Drops entries whose every move another entry of the same cell already generates (a pawn's
/// single step beside its double step), so that generation needs no deduplication there.
fn prune_subsumed(entries: &mut Vec<Entry>, first: usize, ray_cells: &[CellId]) {
    let cells = |e: &Entry| &ray_cells[e.start as usize..e.start as usize + e.len as usize];
    let mut i = first;
    while i < entries.len() {
        let a = entries[i];
        let covered = (first..entries.len()).any(|j| {
            let b = &entries[j];
            j != i
                && b.kind == EntryKind::Slide
                && a.kind == EntryKind::Slide
                && a.mode == b.mode
                && !a.dynamic
                && !b.dynamic
                && a.captures_ep == b.captures_ep
                && (a.len == 1 || a.marks_ep == b.marks_ep)
                && !(a.marks_ep && a.len > 1)
                && b.len >= a.len
                && cells(b).starts_with(cells(&a))
                && (b.len > a.len || j < i)
        });
        if covered {
            entries.remove(i);
        } else {
            i += 1;
        }
    }
}

/// Whether a phase condition can only change when the number of pieces does.
fn counts_only(c: &Condition, variant: &Variant, depth: usize) -> bool {
    match c {
        Condition::PieceCount(..) => true,
        Condition::Not(inner) => counts_only(inner, variant, depth),
        // Phases may name each other in a cycle: give up (say "no") past any sensible depth.
        Condition::InPhase(p) => depth < 32 && counts_only(&variant.phases[p.0 as usize].when, variant, depth + 1),
        _ => false,
    }
}

/// Whether a condition can be decided when the tables are built (from the start cell alone).
fn is_static(c: &Condition) -> bool {
    match c {
        Condition::FromZone(_) => true,
        Condition::Not(inner) => matches!(**inner, Condition::FromZone(_)),
        _ => false,
    }
}
