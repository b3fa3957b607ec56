//! Compiling a variant's IR into its `Rules`: the board's facts, the move tables, the pieces,
//! stacks, sides and end rules, then the fast paths those allow and the tables derived from the
//! rules once built (counting, slow pieces' reach).
//!
//! It sits above `rules/mod.rs` and the modules whose tables `Rules` holds, so that none of
//! them imports another in a circle.

use std::collections::HashMap;

use crate::bitset::CellSet;
use crate::graph::Graph;
use crate::ir::{CellId, Condition, Occupancy, PhaseId, PieceTypeId, Place, Test, Variant};
use crate::paths::{Features, Path, Paths};
use crate::rules::counting::CountRules;
use crate::rules::programs::code::one_place;
use crate::rules::programs::{CodePaths, ProgramRules};
use crate::rules::sides::{self, Sides};
use crate::rules::slow_reach::SlowReach;
use crate::rules::squares::SquarePlay;
use crate::rules::stacks::{Between, Stacks};
use crate::rules::{castles, explosions, gates, keys, Ends, Piece, Pieces, Rules};
use crate::tables::{BoardFacts, MoveTables};

impl Rules {
    /// Compiles the IR, with every fast path its features allow. The IR is assumed checked by
    /// the lowering (ids in range).
    pub fn new(variant: Variant) -> Rules {
        Rules::compile(variant, false, &[])
    }

    /// [`Rules::new`] with some fast paths switched off (the paths built on them follow):
    /// what a path gains is measured against it, and a fault found in one is narrowed down.
    pub fn without(variant: Variant, paths: &[Path]) -> Rules {
        Rules::compile(variant, false, paths)
    }

    /// Compiles the IR for the plain reference: no fast path (programs run as written, every
    /// move made by the general make, legality and check decided by making every reply).
    pub fn reference(variant: Variant) -> Rules {
        Rules::compile(variant, true, &[])
    }

    fn compile(variant: Variant, plain: bool, without: &[Path]) -> Rules {
        let derive = |f: &Features| if plain { Paths::NONE } else { Paths::derive_without(f, without) };
        let mut features = Features::of(&variant);
        let graph = Graph::new(&variant.board);
        let (players, types, cells) = (variant.players.len(), variant.pieces.len(), variant.board.cells.len());
        let zone_sets = zone_sets(&variant);
        let (between_of, between) = between_parts(&variant);
        let facts = BoardFacts { graph: &graph, zone_sets: &zone_sets, between: &between_of };
        let mut seed = 0x5641_5249_4100_0001u64;
        // Atoms take a program's opening `verify friend` as always true, which shared pieces
        // (moved by players who do not own them) make false.
        features.board.branching |= branches(&variant, &graph);
        let recognise = derive(&features).allows(Path::Atoms);
        let code_paths = CodePaths {
            recognise_atoms: recognise,
            start_cells: derive(&features).allows(Path::StartCells),
            neighbour_tests: derive(&features).allows(Path::NeighbourTests),
            lean_runs: derive(&features).allows(Path::LeanRuns),
            lean_cascades: derive(&features).allows(Path::LeanCascades),
            drop_walks: derive(&features).allows(Path::DropWalks),
            reach_by_pieces: derive(&features).allows(Path::ReachByPieces),
        };
        let (tables, program) = move_tables(&variant, &facts, code_paths, &mut seed);
        let slow_attacks = tables.slow_types.iter().any(|s| *s);
        let castles = castles::CastleRules::new(&variant, &graph);
        let mut gates = gates::GateRules::new(&variant, &castles, cells);
        gates.learn_aimed(&variant, &tables);
        let codes = players * types + 1;
        let keys = keys::Keys::draw(&mut seed, cells, codes, players, gates.letters.len(), variant.phases.len());
        let stacks = stacks(&variant);
        // What the tables and programs found, for the derivation of the fast paths.
        features.programs.slow_attacks = slow_attacks;
        if let Some(p) = program.as_deref() {
            features.programs.program_captures = p.may_capture();
            features.programs.attacks_read_position = p.attacks_read_position;
            features.programs.attacks_read_history = p.attacks_read_history;
        }
        features.turn.phases_beyond_captures |= stacks.phases != 0 && !stacks.phases_on_capture;
        let paths = derive(&features);
        let every_move_captures = every_move_captures(&variant, &features);
        let mut rules = Rules {
            count: CountRules::default(),
            slow_reach: None,
            ends: ends(&variant),
            captures_to_hand: variant.pieces.iter().any(|p| p.to_hand.is_some()),
            every_move_captures,
            programmed_types: (0..types).map(|t| program.as_ref().is_some_and(|p| !p.codes[t].is_empty())).collect(),
            slow_attacks,
            tables,
            program,
            paths,
            explosions: explosions::Explosions::new(&variant, &graph),
            castle_keep: gates::rights_kept(&variant, &castles, &gates, cells),
            gates,
            squares: SquarePlay::new(&variant, &graph),
            between,
            stacks,
            apart: apart(&variant, &graph),
            sides: sides_of(&variant),
            pieces: pieces(&variant),
            has_royal: variant.pieces.iter().any(|p| p.royal),
            graph,
            players,
            types,
            cells,
            zone_sets,
            keys,
            castles,
            variant,
        };
        rules.count = CountRules::new(&rules);
        rules.slow_reach = SlowReach::new(&rules);
        if let Some(mut pr) = rules.program.take() {
            for (_, code) in pr.codes.iter_mut().flatten() {
                if code.lean || code.cascades {
                    code.cell_tables = code.tests.iter().map(|t| cell_table(&rules, t)).collect();
                }
            }
            for rule in pr.drops.iter_mut().flatten() {
                if let crate::rules::programs::DropRule::Walks(w) = rule {
                    for walk in &mut w.walks {
                        walk.table = cell_table(&rules, &walk.test).1;
                    }
                }
            }
            rules.program = Some(pr);
        }
        rules
    }
}

/// A lean code's test, where it reads only the piece on one place: the place, and its value
/// per (player, piece code), a hole and then "off the board" last, so a run reads it in one
/// load; else an empty table.
fn cell_table(r: &Rules, t: &Test) -> (Option<Place>, Vec<bool>) {
    let Some(place) = one_place(t) else { return (None, Vec::new()) };
    let codes = r.players * r.types + 1;
    let mut table = Vec::with_capacity(r.players * (codes + 2));
    for side in 0..r.players {
        let side = crate::ir::PlayerId(side as u8);
        table.extend((0..codes).map(|c| piece_holds(r, t, side, Some(Piece(c as u16)))));
        table.push(piece_holds(r, t, side, Some(Piece::HOLE)));
        table.push(piece_holds(r, t, side, None));
    }
    (place, table)
}

/// The value of a test that reads only the piece on one place, `p` standing there (`None`:
/// the place is off the board), for `side` (as a run reads it on a board without stacks or
/// locations between cells).
fn piece_holds(r: &Rules, t: &Test, side: crate::ir::PlayerId, p: Option<Piece>) -> bool {
    let piece = p.filter(|p| !p.is_empty() && *p != Piece::HOLE);
    match t {
        Test::True => true,
        Test::Empty(_) => p.is_some_and(|p| p.is_empty()),
        Test::Friend(_) => piece.is_some_and(|p| r.allied(r.owner(p), side)),
        Test::Enemy(_) => piece.is_some_and(|p| !r.allied(r.owner(p), side)),
        Test::Piece(ty, _) => piece.is_some_and(|p| r.type_of(p) == *ty),
        Test::OnBoard(_) => p.is_some(),
        Test::Not(inner) => !piece_holds(r, inner, side, p),
        Test::And(all) => all.iter().all(|x| piece_holds(r, x, side, p)),
        Test::Or(any) => any.iter().any(|x| piece_holds(r, x, side, p)),
        _ => false,
    }
}

/// Whether some direction leads from some cell to more than one cell.
fn branches(v: &Variant, graph: &Graph) -> bool {
    (0..v.board.cells.len()).any(|c| {
        (0..v.board.directions.len()).any(|d| graph.step(CellId(c as u16), crate::ir::DirId(d as u8)).len() > 1)
    })
}

/// The move tables: declarative powers as atoms, then the programs that have an atom's shape
/// (where `recognise`: only where a cell holds one piece and directions do not branch, where
/// the two read alike), with the programs left to run (each from the cells it may emit from,
/// where `start_cells`).
fn move_tables(
    v: &Variant,
    facts: &BoardFacts,
    paths: CodePaths,
    seed: &mut u64,
) -> (MoveTables, Option<Box<ProgramRules>>) {
    let mut atoms: Vec<Vec<crate::atoms::Atom>> =
        v.pieces.iter().map(|p| p.moves.iter().flat_map(|m| crate::atoms::of_power(p, m)).collect()).collect();
    let program = if ProgramRules::needed(v) {
        let (from_programs, pr) = ProgramRules::build(v, facts, paths, seed);
        for (t, more) in from_programs.into_iter().enumerate() {
            atoms[t].extend(more);
        }
        Some(Box::new(pr))
    } else {
        None
    };
    (MoveTables::build(v, facts, atoms), program)
}

/// The locations between cells: the one between two neighbouring cells, and per cell whether
/// it is one and (where each covers at most four) the cells it covers.
fn between_parts(v: &Variant) -> (HashMap<(CellId, CellId), CellId>, Between) {
    let (between, between_cell) = between_locations(v);
    let covering = between_cell.iter().any(|b| *b);
    let cover_cells = if covering && v.board.cells.iter().all(|c| c.covers.len() <= 4) {
        let fill =
            |covers: &[CellId]| std::array::from_fn(|k| covers.get(k).or(covers.first()).copied().unwrap_or(CellId(0)));
        v.board.cells.iter().map(|c| fill(&c.covers)).collect()
    } else {
        Vec::new()
    };
    (between, Between { on: covering, cells: between_cell, covers: cover_cells })
}

/// Per piece code and per piece type: what the hot loops look up of a piece.
fn pieces(v: &Variant) -> Pieces {
    let (players, types) = (v.players.len(), v.pieces.len());
    let codes = players * types + 1;
    let mut owner_of = vec![0u8; codes];
    let mut type_of = vec![0u8; codes];
    let mut royal_code = vec![false; codes];
    let mut resets_clock_code = vec![false; codes];
    for code in 1..codes {
        owner_of[code] = ((code - 1) % players) as u8;
        type_of[code] = ((code - 1) / players) as u8;
        royal_code[code] = v.pieces[type_of[code] as usize].royal;
        resets_clock_code[code] = v.pieces[type_of[code] as usize].resets_move_clock;
    }
    Pieces {
        owner_of,
        type_of,
        royal_code,
        resets_clock_code,
        no_drop_checkmate: v.pieces.iter().map(|p| p.no_drop_checkmate).collect(),
        held_by_check: v.pieces.iter().any(|p| p.held_by_check),
        no_check: if v.pieces.iter().any(|p| p.no_check != 0) {
            v.pieces.iter().map(|p| p.no_check).collect()
        } else {
            Vec::new()
        },
        setup_counts: setup_counts(v),
        attr_defaults: v.pieces.iter().map(|p| p.attributes.iter().fold(0u64, |m, a| m | 1 << (a.0 % 64))).collect(),
    }
}

/// The cells that hold stacks, with their occupancy rules and the phases that change them.
fn stacks(v: &Variant) -> Stacks {
    let (occ_kind, occupancies) = occupancy_kinds(v);
    let mut inert_cells = CellSet::new(v.board.cells.len());
    for (c, &k) in occ_kind.iter().enumerate() {
        if k != 0 {
            let (base, by_phase) = &occupancies[k as usize - 1];
            if base.lone_inert || by_phase.iter().any(|(_, o)| o.lone_inert) {
                inert_cells.insert(CellId(c as u16));
            }
        }
    }
    let mut occupancy_phases = 0u32;
    for (_, by_phase) in &occupancies {
        for (p, _) in by_phase {
            occupancy_phases |= 1 << p.0;
        }
    }
    let phases_on_capture =
        (0..v.phases.len()).filter(|i| occupancy_phases & (1 << i) != 0).all(|i| counts_only(&v.phases[i].when, v, 0));
    Stacks {
        on: v.zones.iter().any(|z| z.occupancy.is_some()),
        kind: occ_kind,
        occupancies,
        inert_cells,
        phases: occupancy_phases,
        phases_on_capture,
    }
}

/// Piece types that keep apart, with, per cell, the cells within their distance.
fn apart(v: &Variant, graph: &Graph) -> Vec<(PieceTypeId, Vec<CellSet>)> {
    let cells = v.board.cells.len();
    let mut apart = Vec::new();
    for (t, piece) in v.pieces.iter().enumerate() {
        if let Some(d) = piece.keep_apart {
            let near: Vec<CellSet> = (0..cells).map(|c| graph.within(CellId(c as u16), d as usize)).collect();
            apart.push((PieceTypeId(t as u8), near));
        }
    }
    apart
}

/// Who plays: teams, players with turns.
fn sides_of(v: &Variant) -> Sides {
    let has_turns = sides::has_turns(v);
    Sides {
        team_of: sides::team_of(v),
        contenders: has_turns.iter().filter(|t| **t).count(),
        has_turns,
        teamed: !v.teams.is_empty(),
    }
}

/// What the end rules read of a position beyond its moves.
fn ends(v: &Variant) -> Ends {
    let before_tests = v.before_tests();
    Ends {
        counts_checks: v.check_limit().is_some(),
        counting: !v.end.counting.is_empty(),
        // A streak's value here follows from the position and the values kept with the last
        // move, which the cache's key holds too.
        before_cacheable: before_tests.iter().all(|(_, t)| match t {
            crate::ir::GoalTest::Streak(_, during, some) => during.reads_position_only() && some.reads_position_only(),
            _ => t.reads_position_only(),
        }),
        before_tests,
    }
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

/// Whether no move can be quiet (see [`Rules::every_move_captures`]): read from the powers and
/// from the features that bring other moves (programs, drops and hands are all in the program
/// layer).
fn every_move_captures(v: &Variant, f: &crate::paths::Features) -> bool {
    let other_moves = f.programs.program_layer
        || f.squares.square_play
        || f.turn.pass_turn
        || f.pieces.gates
        || !v.castlings.is_empty();
    !other_moves && v.pieces.iter().all(|p| p.moves.iter().all(|m| m.mode == crate::ir::MoveMode::CaptureOnly))
}
