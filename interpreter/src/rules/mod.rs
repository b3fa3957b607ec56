//! The compiled, immutable rules of a variant: what `Rules::new` derives from the IR, feature by feature, and the look-ups the engine makes in its hot loops.

pub(crate) mod castles;
pub(crate) mod counting;
pub(crate) mod explosions;
pub(crate) mod gates;
pub(crate) mod keys;
pub(crate) mod masks;
pub mod paths;
pub(crate) mod players;
pub(crate) mod programs;
pub(crate) mod slow_reach;
pub(crate) mod squares;
pub(crate) mod stacks;
pub(crate) mod symbols;
pub(crate) mod threats;

use std::collections::HashMap;

use crate::bitset::CellSet;
use crate::graph::Graph;
use crate::ir::{CellId, Condition, Occupancy, PhaseId, PieceTypeId, PlayerId, Variant, ZoneId};
use crate::rules::programs::ProgramRules;
use crate::tables::{BoardFacts, MoveTables};
use squares::SquarePlay;
use stacks::{Between, Stacks};

pub use crate::tables::EntryKind;

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
    /// The move tables (rays per player, type and cell) and the reverse probes of attacks, from
    /// declarative powers and recognised programs.
    pub(crate) tables: MoveTables,
    /// Some piece type is slow (see `slow_types`).
    pub(crate) slow_attacks: bool,
    /// Per (zone, player): membership.
    pub(crate) zone_sets: Vec<CellSet>,
    /// Some piece type is royal.
    pub(crate) has_royal: bool,
    /// The hash keys of everything a position holds but programs' fields.
    pub(crate) keys: keys::Keys,
    /// Castling: per cell, the rights lost when a move starts or ends there.
    pub(crate) castle_keep: Vec<u32>,
    /// The castlings played: the fixed ones, then those derived from start cells taken from
    /// the position (`Move::extra` of a castling indexes these).
    pub(crate) castles: crate::rules::castles::CastleRules,
    /// Per piece code and per piece type: what the hot loops look up of a piece.
    pub(crate) pieces: Pieces,
    /// Who plays: teams, players with turns.
    pub(crate) sides: players::Sides,
    /// Piece types that keep apart, with, per cell, the cells within their distance.
    pub(crate) apart: Vec<(PieceTypeId, Vec<CellSet>)>,
    /// Cells that hold stacks, with their occupancy rules.
    pub(crate) stacks: Stacks,
    /// Locations between cells, and the cells each covers.
    pub(crate) between: Between,
    /// Squares as game objects and turns of several actions.
    pub(crate) squares: SquarePlay,
    /// Programs that are not atoms, drops, attributes, hands, goals, a turn order or
    /// priorities.
    pub(crate) program: Option<Box<ProgramRules>>,
    /// Per piece type: it has programs that are not atoms.
    pub(crate) programmed_types: Vec<bool>,
    /// The fast paths these rules allow (`paths.rs`).
    pub(crate) paths: crate::paths::Paths,
    /// Captures that explode, if any type's do (then every make takes the general path and
    /// legality is tested by making the move).
    pub(crate) explosions: Option<crate::rules::explosions::Explosions>,
    /// The castling and gating rights (bits of `State::castling`) and the cells gates serve.
    pub(crate) gates: crate::rules::gates::GateRules,
    /// Whether and how the last perft ply is counted by ray walks (`count.rs`).
    pub(crate) count: counting::CountRules,
    /// Per (attacking player, cell): the slow pieces' entries whose rays hold the cell (none
    /// where stacks, covering pieces or the index's size rule it out).
    pub(crate) slow_reach: Option<slow_reach::SlowReach>,
    /// What the end rules read of a position beyond its moves: checks, counts, `before` tests.
    pub(crate) ends: Ends,
    /// Some piece type goes to the capturer's hand when captured (`captured-to-hand`).
    pub(crate) captures_to_hand: bool,
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

/// Zone membership per (zone, player).
fn zone_sets(v: &Variant) -> Vec<CellSet> {
    let cells = v.board.cells.len();
    let mut out = Vec::new();
    for zone in &v.zones {
        for p in 0..v.players.len() {
            let mut set = CellSet::new(cells);
            for c in zone.cells.get(p).into_iter().flatten() {
                set.insert(*c);
            }
            out.push(set);
        }
    }
    out
}

/// The location between two neighbouring cells: the one covering both with the fewest covered
/// cells (a1.5 between a1 and a2, not ab1.5); and which cells are such locations.
fn between_locations(v: &Variant) -> (HashMap<(CellId, CellId), CellId>, Vec<bool>) {
    let mut between: HashMap<(CellId, CellId), CellId> = HashMap::new();
    let mut is_between = vec![false; v.board.cells.len()];
    for (i, cell) in v.board.cells.iter().enumerate() {
        if cell.covers.is_empty() {
            continue;
        }
        is_between[i] = true;
        for &a in &cell.covers {
            for &b in &cell.covers {
                let narrower = |m: &CellId| v.board.cells[m.0 as usize].covers.len() > cell.covers.len();
                if a != b && between.get(&(a, b)).is_none_or(narrower) {
                    between.insert((a, b), CellId(i as u16));
                }
            }
        }
    }
    (between, is_between)
}

impl Rules {
    /// Compiles the IR, with every fast path its features allow. The IR is assumed checked by
    /// the lowering (ids in range).
    pub fn new(variant: Variant) -> Rules {
        Rules::compile(variant, false, &[])
    }

    /// [`Rules::new`] with some fast paths switched off (the paths built on them follow):
    /// what a path gains is measured against it, and a fault found in one is narrowed down.
    pub fn without(variant: Variant, paths: &[crate::paths::Path]) -> Rules {
        Rules::compile(variant, false, paths)
    }

    /// Compiles the IR for the plain reference: no fast path (programs run as written, every
    /// move made by the general make, legality and check decided by making every reply).
    pub fn reference(variant: Variant) -> Rules {
        Rules::compile(variant, true, &[])
    }

    /// Whether these are the reference's rules (see [`Rules::reference`]).
    pub fn is_reference(&self) -> bool {
        self.paths.generated_checks()
    }

    /// The names of the fast paths these rules allow, for reports and tests.
    pub fn fast_paths(&self) -> Vec<String> {
        self.paths.allowed().map(|p| format!("{p:?}")).collect()
    }

    fn compile(variant: Variant, plain: bool, without: &[crate::paths::Path]) -> Rules {
        let mut features = crate::paths::Features::of(&variant);
        let derive = |f: &crate::paths::Features| {
            if plain {
                crate::paths::Paths::NONE
            } else {
                crate::paths::Paths::derive_without(f, without)
            }
        };
        let graph = Graph::new(&variant.board);
        let players = variant.players.len();
        let types = variant.pieces.len();
        let cells = variant.board.cells.len();
        let zone_sets = zone_sets(&variant);
        let (between, between_cell) = between_locations(&variant);
        let covering = between_cell.iter().any(|b| *b);
        let cover_cells = if covering && variant.board.cells.iter().all(|c| c.covers.len() <= 4) {
            let fill = |covers: &[CellId]| {
                std::array::from_fn(|k| covers.get(k).or(covers.first()).copied().unwrap_or(CellId(0)))
            };
            variant.board.cells.iter().map(|c| fill(&c.covers)).collect()
        } else {
            Vec::new()
        };
        let stacking = variant.zones.iter().any(|z| z.occupancy.is_some());
        let facts = BoardFacts { graph: &graph, zone_sets: &zone_sets, between: &between };

        // Atoms: declarative powers, then the programs that have an atom's shape (only where a
        // cell holds one piece and directions do not branch, where the two read alike).
        let mut seed = 0x5641_5249_4100_0001u64;
        let branching = (0..cells).any(|c| {
            (0..variant.board.directions.len())
                .any(|d| graph.step(CellId(c as u16), crate::ir::DirId(d as u8)).len() > 1)
        });
        // Atoms take a program's opening `verify friend` as always true, which shared pieces
        // (moved by players who do not own them) make false.
        features.branching |= branching;
        let recognise = derive(&features).allows(crate::paths::Path::Atoms);
        let start_cells = derive(&features).allows(crate::paths::Path::StartCells);
        let mut atoms: Vec<Vec<crate::atoms::Atom>> = variant
            .pieces
            .iter()
            .map(|p| p.moves.iter().flat_map(|m| crate::atoms::of_power(p, m)).collect())
            .collect();
        let program = if ProgramRules::needed(&variant) {
            let (from_programs, pr) = ProgramRules::build(&variant, &facts, recognise, start_cells, &mut seed);
            for (t, more) in from_programs.into_iter().enumerate() {
                atoms[t].extend(more);
            }
            Some(Box::new(pr))
        } else {
            None
        };
        let tables = MoveTables::build(&variant, &facts, atoms);
        let slow_attacks = tables.slow_types.iter().any(|s| *s);

        let codes = players * types + 1;
        let castles = crate::rules::castles::CastleRules::new(&variant, &graph);
        let gates = crate::rules::gates::GateRules::new(&variant, &castles, cells);
        let keys = keys::Keys::draw(&mut seed, cells, codes, players, gates.letters.len(), variant.phases.len());

        let squares = SquarePlay::new(&variant, &graph);

        let castle_keep = crate::rules::gates::rights_kept(&variant, &castles, &gates, cells);
        let has_turns = players::has_turns(&variant);

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
        let attr_defaults =
            variant.pieces.iter().map(|p| p.attributes.iter().fold(0u64, |m, a| m | 1 << (a.0 % 64))).collect();

        let (occ_kind, occupancies) = occupancy_kinds(&variant);
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
        let mut occupancy_phases = 0u32;
        for (_, by_phase) in &occupancies {
            for (p, _) in by_phase {
                occupancy_phases |= 1 << p.0;
            }
        }
        let occupancy_phases_on_capture = (0..variant.phases.len())
            .filter(|i| occupancy_phases & (1 << i) != 0)
            .all(|i| counts_only(&variant.phases[i].when, &variant, 0));
        let captures_to_hand = variant.pieces.iter().any(|p| p.to_hand.is_some());
        let explosions = crate::rules::explosions::Explosions::new(&variant, &graph);
        let has_royal = variant.pieces.iter().any(|p| p.royal);
        let programmed_types = (0..types).map(|t| program.as_ref().is_some_and(|p| !p.codes[t].is_empty())).collect();
        // What the tables and programs found, for the derivation of the fast paths.
        features.slow_attacks = slow_attacks;
        if let Some(p) = program.as_deref() {
            features.program_captures = p.may_capture();
            features.attacks_read_position = p.attacks_read_position;
            features.attacks_read_history = p.attacks_read_history;
        }
        features.phases_beyond_captures |= occupancy_phases != 0 && !occupancy_phases_on_capture;
        let paths = derive(&features);
        let before_tests = variant.before_tests();
        let mut rules = Rules {
            count: Default::default(),
            slow_reach: None,
            ends: Ends {
                counts_checks: variant.check_limit().is_some(),
                counting: !variant.end.counting.is_empty(),
                before_cacheable: before_tests.iter().all(|(_, t)| t.reads_position_only()),
                before_tests,
            },
            captures_to_hand,
            programmed_types,
            slow_attacks,
            tables,
            program,
            paths,
            explosions,
            gates,
            squares,
            between: Between { on: covering, cells: between_cell, covers: cover_cells },
            stacks: Stacks {
                on: stacking,
                kind: occ_kind,
                occupancies,
                inert_cells,
                phases: occupancy_phases,
                phases_on_capture: occupancy_phases_on_capture,
            },
            apart,
            sides: players::Sides {
                team_of: players::team_of(&variant),
                contenders: has_turns.iter().filter(|t| **t).count(),
                has_turns,
                teamed: !variant.teams.is_empty(),
            },
            pieces: Pieces {
                owner_of,
                type_of,
                royal_code,
                resets_clock_code,
                no_drop_checkmate: variant.pieces.iter().map(|p| p.no_drop_checkmate).collect(),
                held_by_check: variant.pieces.iter().any(|p| p.held_by_check),
                no_check: if variant.pieces.iter().any(|p| p.no_check != 0) {
                    variant.pieces.iter().map(|p| p.no_check).collect()
                } else {
                    Vec::new()
                },
                setup_counts: setup_counts(&variant),
                attr_defaults,
            },
            graph,
            players,
            types,
            cells,
            zone_sets,
            has_royal,
            keys,
            castle_keep,
            castles,
            variant,
        };
        rules.count = counting::CountRules::new(&rules);
        rules.slow_reach = slow_reach::SlowReach::new(&rules);
        rules
    }

    /// The piece code of a player's piece type.
    #[inline]
    pub fn piece(&self, player: PlayerId, ty: PieceTypeId) -> Piece {
        Piece(1 + ty.0 as u16 * self.players as u16 + player.0 as u16)
    }

    /// The owner of a (non-empty) piece code.
    #[inline]
    pub fn owner(&self, piece: Piece) -> PlayerId {
        PlayerId(self.pieces.owner_of[piece.0 as usize])
    }

    /// The type of a (non-empty) piece code.
    #[inline]
    pub fn type_of(&self, piece: Piece) -> PieceTypeId {
        PieceTypeId(self.pieces.type_of[piece.0 as usize])
    }

    /// Whether `cell` is in `zone` for `player`.
    #[inline]
    pub fn in_zone(&self, zone: ZoneId, player: PlayerId, cell: CellId) -> bool {
        self.zone_sets[zone.0 as usize * self.players + player.0 as usize].contains(cell)
    }

    /// The `promote` rule that applies to a piece: its type's first that reaches its owner.
    pub(crate) fn promotion_of(&self, piece: Piece) -> Option<&crate::ir::Promotion> {
        self.variant.pieces[self.type_of(piece).0 as usize].promotion_for(&self.variant.zones, self.owner(piece))
    }

    /// Whether a move of `player` from `from` to `to` may promote by this promotion: it ends in
    /// the zone, or starts in its `from` zone.
    #[inline]
    pub fn promotes(&self, p: &crate::ir::Promotion, player: PlayerId, from: CellId, to: CellId) -> bool {
        self.in_zone(p.zone, player, to) || p.from_zone.is_some_and(|z| self.in_zone(z, player, from))
    }

    /// Whether a move of a piece of type `ty` by the entry's promotion `promo` may land as a
    /// type that is royal where `ty` is not, or the other way: its safety is the landed piece's,
    /// so such moves are tried, never counted as an unpinned piece's.
    pub(crate) fn crowns_or_uncrowns(&self, ty: usize, promo: u16) -> bool {
        let royal = |t: usize| self.variant.pieces[t].royal;
        promo != crate::tables::NO_PROMOTION
            && self.tables.promotions[promo as usize].choices.iter().any(|c| royal(c.0 as usize) != royal(ty))
    }

    /// Whether a promoting move of `player` to `to` must promote (no unpromoted choice).
    #[inline]
    pub fn must_promote(&self, p: &crate::ir::Promotion, player: PlayerId, to: CellId) -> bool {
        p.mandatory || p.forced_zone.is_some_and(|z| self.in_zone(z, player, to))
    }

    /// Number of players.
    pub fn player_count(&self) -> usize {
        self.players
    }

    /// Number of cells.
    pub fn cell_count(&self) -> usize {
        self.cells
    }

    /// Number of piece attributes.
    pub fn attributes(&self) -> usize {
        self.program.as_ref().map_or(0, |p| p.attributes)
    }

    /// The attribute bits a new piece of the type carries.
    #[inline]
    pub(crate) fn attr_default(&self, ty: PieceTypeId) -> u64 {
        self.pieces.attr_defaults.get(ty.0 as usize).copied().unwrap_or(0)
    }

    /// A castling by its index (`Move::extra` of a castling move).
    pub fn castling(&self, i: u16) -> &crate::ir::Castling {
        &self.castles.list[i as usize]
    }

    /// The name of a cell.
    pub fn cell_name(&self, cell: CellId) -> &str {
        &self.variant.board.cells[cell.0 as usize].name
    }

    /// Looks up a cell by name.
    pub fn cell_by_name(&self, name: &str) -> Option<CellId> {
        self.variant.board.cells.iter().position(|c| c.name == name).map(|i| CellId(i as u16))
    }

    /// Players have hands: pieces are dropped, captured to hand or given in hand at the start.
    pub fn has_hands(&self) -> bool {
        let v = &self.variant;
        self.program.is_some()
            && (v.pieces.iter().any(|p| !p.drops.is_empty() || p.to_hand.is_some()) || !v.setup.hands.is_empty())
    }

    /// How UCI (as Fairy-Stockfish writes it) names a promotion of a piece of type `mover` to
    /// type `t`: `+` for a type marked `+` (shogi's `e4e5+`), `-` for a piece marked `+` turning
    /// into an unmarked type (kyotoshogi's `a1a2-`), else the letter in lower case (`e7e8q`).
    pub fn uci_promotion(&self, mover: PieceTypeId, t: PieceTypeId) -> String {
        let p = &self.variant.pieces[t.0 as usize];
        let from = &self.variant.pieces[mover.0 as usize];
        if p.mark == Some('+') {
            "+".to_string()
        } else if from.mark == Some('+') {
            "-".to_string()
        } else {
            p.letter.to_ascii_lowercase().to_string()
        }
    }

    /// Some piece type is marked `+` or `~` (position strings then read symbols, not letters).
    pub fn has_marks(&self) -> bool {
        self.variant.pieces.iter().any(|p| p.mark.is_some())
    }

    /// The occupancy rules of a cell while the given phases are on.
    #[inline]
    pub fn occupancy(&self, cell: CellId, phases: u32) -> Occupancy {
        let k = self.stacks.kind[cell.0 as usize];
        if k == 0 {
            return Occupancy::default();
        }
        let (base, by_phase) = &self.stacks.occupancies[k as usize - 1];
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
        let k = self.stacks.kind[cell.0 as usize];
        if k == 0 {
            return Some(1);
        }
        let (base, by_phase) = &self.stacks.occupancies[k as usize - 1];
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
        self.stacks.kind[cell.0 as usize] != 0
    }

    /// The cells a location between cells covers (empty for an ordinary cell).
    #[inline]
    pub fn covers(&self, cell: CellId) -> &[CellId] {
        &self.variant.board.cells[cell.0 as usize].covers
    }

    /// The cells a location between cells covers, from the fixed arrays where they are built
    /// (possibly with the first repeated: for tests of every cell, not for counting them).
    #[inline(always)]
    pub(crate) fn covered_cells(&self, cell: CellId) -> &[CellId] {
        self.between.covers.get(cell.0 as usize).map_or(self.covers(cell), |c| &c[..])
    }

    /// Whether the location stands between cells (a piece there covers several).
    #[inline]
    pub fn is_between(&self, cell: CellId) -> bool {
        self.between.on && self.between.cells[cell.0 as usize]
    }

    /// Whether any location of the variant stands between cells.
    pub fn has_between(&self) -> bool {
        self.between.on
    }

    /// Whether squares are game objects here, or turns have several actions.
    pub fn has_square_play(&self) -> bool {
        self.squares.play
    }

    /// Whether any cell of the variant may hold several pieces.
    pub fn has_stacks(&self) -> bool {
        self.stacks.on
    }

    /// Whether the last ply's count reads this board of stacks from the ray masks (for tests).
    #[doc(hidden)]
    pub fn counts_stacks(&self) -> bool {
        self.count.stacked
    }

    /// How many of the piece types' programs run as compiled atoms, and how many are run
    /// instruction by instruction (for reports and benchmarks).
    pub fn program_counts(&self) -> (usize, usize) {
        let total: usize = self.variant.pieces.iter().map(|p| p.programs.len()).sum();
        let interpreted = self.program.as_ref().map_or(0, |p| p.codes.iter().map(|c| c.len()).sum());
        (total - interpreted, interpreted)
    }

    /// The hash key of a player's reserve size (none for an unlimited supply).
    #[inline]
    pub(crate) fn zreserve(&self, player: PlayerId, n: u32) -> u64 {
        if n == u32::MAX {
            return 0;
        }
        self.keys.reserve[player.0 as usize * 65 + n.min(64) as usize]
    }

    /// The hash key of a location without a square.
    #[inline]
    pub(crate) fn zhole(&self, cell: CellId) -> u64 {
        self.keys.piece[cell.0 as usize * (self.players * self.types + 1)]
    }

    /// The hash key of a square's owner.
    #[inline]
    pub(crate) fn zowner(&self, cell: CellId, owner: u8) -> u64 {
        if owner == 0 {
            return 0;
        }
        self.keys.owner[cell.0 as usize * self.players + owner as usize - 1]
    }

    /// The hash key of the `k`-th piece of one code on a cell (k = 0 for the first).
    #[inline]
    pub(crate) fn zkey(&self, cell: CellId, piece: Piece, k: usize) -> u64 {
        let codes = self.players * self.types + 1;
        let base = self.keys.piece[cell.0 as usize * codes + piece.0 as usize];
        if k == 0 {
            return base;
        }
        let mut s = base ^ (k as u64).wrapping_mul(0xA24B_AED4_963E_E407);
        splitmix(&mut s)
    }

    #[inline]
    pub(crate) fn entries_for(&self, player: PlayerId, ty: PieceTypeId, cell: CellId) -> (usize, usize, bool) {
        let i = (player.0 as usize * self.types + ty.0 as usize) * self.cells + cell.0 as usize;
        (self.tables.entry_index[i] as usize, self.tables.entry_index[i + 1] as usize, self.tables.entry_dedup[i])
    }

    /// Whether a piece of type `ty` attacks from probe cell `k`.
    #[inline]
    pub(crate) fn probe_has(&self, k: usize, ty: PieceTypeId) -> bool {
        let t = ty.0 as usize;
        self.tables.probe_masks[k * self.tables.type_words + (t >> 6)] & (1 << (t & 63)) != 0
    }
}

/// Per cell the occupancy kind (0: plain, else 1 + index), and each zone's occupancy rules.
#[allow(clippy::type_complexity)]
fn occupancy_kinds(v: &Variant) -> (Vec<u8>, Vec<(Occupancy, Vec<(PhaseId, Occupancy)>)>) {
    let mut occ_kind = vec![0u8; v.board.cells.len()];
    let mut occupancies = Vec::new();
    for zone in &v.zones {
        if let Some(base) = zone.occupancy {
            // Every cell takes at least one piece (generation relies on it for empty cells).
            let at_least_one = |mut o: Occupancy| {
                o.capacity = o.capacity.map(|c| c.max(1));
                o
            };
            let by_phase = zone.phase_occupancy.iter().map(|&(p, o)| (p, at_least_one(o))).collect();
            occupancies.push((at_least_one(base), by_phase));
            for c in zone.cells.iter().flatten() {
                occ_kind[c.0 as usize] = occupancies.len() as u8;
            }
        }
    }
    (occ_kind, occupancies)
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

/// Per (player, piece type): how many pieces the setup places.
fn setup_counts(variant: &Variant) -> Vec<u32> {
    let types = variant.pieces.len();
    let mut counts = vec![0; variant.players.len() * types];
    for (_, stack) in &variant.setup.placements {
        for (player, ty) in stack {
            counts[player.0 as usize * types + ty.0 as usize] += 1;
        }
    }
    // A shuffle places the same pieces whatever it draws.
    for s in &variant.setup.shuffles {
        for (player, _) in &s.targets {
            for ty in s.groups.iter().flat_map(|g| &g.pieces) {
                counts[player.0 as usize * types + ty.0 as usize] += 1;
            }
        }
    }
    counts
}

/// Per piece code and per piece type: what the hot loops look up of a piece.
#[derive(Debug)]
pub(crate) struct Pieces {
    /// Per piece code: owner and type (lookups instead of divisions in the hot loops).
    pub(crate) owner_of: Vec<u8>,
    pub(crate) type_of: Vec<u8>,
    /// Per piece code: the piece is royal.
    pub(crate) royal_code: Vec<bool>,
    /// Per piece code: moving it resets the move clock.
    pub(crate) resets_clock_code: Vec<bool>,
    /// Per piece type: a drop of it may not checkmate.
    pub(crate) no_drop_checkmate: Vec<bool>,
    /// Some piece type is `held-by-check`.
    pub(crate) held_by_check: bool,
    /// Per piece type, which of its actions may not give check (`no-check`, ir bits); empty
    /// when no piece has the rule.
    pub(crate) no_check: Vec<u8>,
    /// Per (player, piece type): the pieces the setup gives (for `captured-only` promotions).
    pub(crate) setup_counts: Vec<u32>,
    /// Per piece type: the attribute bits a new piece carries.
    pub(crate) attr_defaults: Vec<u64>,
}

/// What the end rules read of a position beyond its moves.
#[derive(Debug)]
pub(crate) struct Ends {
    /// A goal counts the checks each player gives (`checks-given`).
    pub(crate) counts_checks: bool,
    /// The variant has counting rules (`counting N: ...`).
    pub(crate) counting: bool,
    /// The `before(...)` tests of goals and `forbid` rules (see `game/goals.rs`).
    pub(crate) before_tests: Vec<(u8, crate::ir::GoalTest)>,
    /// The `before(...)` tests read only what a position's hash covers (their values may be
    /// kept by hash).
    pub(crate) before_cacheable: bool,
}
