//! Seeded generator of random but valid `.var` rule files, combining the language's features.
//!
//! `random_var(seed)` writes a small variant (a board of mostly 16 to 64 cells, a few pieces a
//! side) that `varia_grammar::load` accepts; the same seed always gives the same text. The
//! generator first draws a [`Plan`] (players, royal pieces, which families of features this
//! variant uses), then writes the board, zones, pieces, setup and end rules consistently with
//! it, avoiding the combinations the lowering refuses (stacks with `between` or attributes,
//! squares with `between`, shared pieces with royal pieces, owned squares with more than two
//! players). Each feature written is recorded, so a test can report coverage.

mod board;
mod end;
mod pieces;
mod programs;
mod rules;
mod setup;

use std::collections::BTreeSet;

use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};

/// Every feature name [`random_var_with_features`] may report, so a test can check that each
/// one appears.
pub const VAR_FEATURES: &[&str] = &[
    // board
    "grid-layers",
    "remove",
    "no-square",
    "link",
    "unlink",
    "direction",
    "direction-offset",
    "direction-set",
    "cell",
    "between",
    // players
    "players-3+",
    "team",
    "neutral-player",
    "shared-pieces",
    // stacks and phases
    "capacity",
    "lone-inert",
    "crowd-safe",
    "capture-one",
    "capture-all",
    "join-mixed-crowd",
    "join-enemy-by-move",
    "in-phase",
    "phase",
    "stacked-setup",
    // squares and turns
    "squares",
    "squares-owned",
    "square-reserve",
    "square-move",
    "square-carry",
    "place-in-zone",
    "untouchable",
    "vacate",
    "walls-place",
    "petrify",
    "turn-block",
    "optional-action",
    "skip-if-none",
    // powers and modifiers
    "step",
    "slide",
    "slide-max",
    "leap",
    "leap-path",
    "hop",
    "betza",
    "move-only",
    "capture-only",
    "from-zone",
    "to-zone",
    "if-condition",
    "if-in-check",
    "if-on-right",
    "en-passant",
    "stop-between",
    // programs
    "program",
    "verify",
    "if-else",
    "while",
    "add-promote",
    "add-partial",
    "add-copy",
    "capture",
    "cascade",
    "cascade-reserve",
    "change-type",
    "flip",
    "change-owner",
    "create",
    "flag",
    "attribute",
    "move-type",
    "mark-back",
    "program-test",
    "cell-flag",
    "add-copy-partial",
    // drops and hands
    "drop",
    "drop-unlimited",
    "drop-capture",
    "drop-walk",
    "hand",
    "captured-to-hand",
    // promotion
    "promote",
    "promote-optional",
    "promote-except",
    "promote-from",
    "promote-per-player",
    "captured-only",
    "setup-only",
    // pieces and special moves
    "castling",
    "castling-from-position",
    "castling-by-drop",
    "shuffle",
    "gate",
    "gate-except",
    "gate-rights",
    "gate-aimed",
    "explodes",
    "blast-proof",
    "royal-0",
    "royal-1",
    "royal-2",
    "keep-apart",
    "no-check",
    "held-by-check",
    "no-drop-checkmate",
    "points",
    // end of game
    "checkmate-outcome",
    "stalemate-outcome",
    "stalemate-player",
    "stalemate-fewer-pieces",
    "bare-king",
    "move-rule",
    "move-rule-player",
    "repetition",
    "perpetual-check",
    "goal-pieces-remaining",
    "goal-total-pieces",
    "goal-captured",
    "goal-stalemated",
    "goal-to-move",
    "goal-checks-given",
    "goal-repetition",
    "goal-config",
    "goal-safe-config",
    "goal-can-reach",
    "goal-passed",
    "goal-shuttled",
    "goal-facing",
    "goal-before",
    "goal-streak",
    "goal-in-check",
    "goal-checked-by",
    "goal-opponent",
    "goal-count-running",
    "counting",
    "counting-from-pieces",
    "points-outcome",
    // top level
    "forbid",
    "priorities",
    "turn-order",
    "pass-turn",
    "pass-partial",
    "maximal-captures",
    "maximal-captures-then",
    "goals-count-hands",
    "royal-check",
    "must-capture",
    "choice",
];

/// A random valid `.var` text for this seed.
pub fn random_var(seed: u64) -> String {
    random_var_with_features(seed).0
}

/// A random valid `.var` text for this seed, and the features it uses (names from
/// [`VAR_FEATURES`], sorted).
pub fn random_var_with_features(seed: u64) -> (String, Vec<&'static str>) {
    let mut g = Gen::new(seed, VAR_FEATURES);
    let text = write_variant(&mut g, seed);
    (text, g.features.into_iter().collect())
}

/// The random source and the features recorded so far (names from `known`).
pub(crate) struct Gen {
    rng: StdRng,
    known: &'static [&'static str],
    pub(crate) features: BTreeSet<&'static str>,
}

impl Gen {
    pub(crate) fn new(seed: u64, known: &'static [&'static str]) -> Gen {
        Gen { rng: StdRng::seed_from_u64(seed), known, features: BTreeSet::new() }
    }

    /// True with probability `p`.
    pub(crate) fn chance(&mut self, p: f64) -> bool {
        self.rng.random_bool(p)
    }

    /// A number from `lo` to `hi`, both included.
    pub(crate) fn int(&mut self, lo: usize, hi: usize) -> usize {
        self.rng.random_range(lo..=hi)
    }

    /// One element of a non-empty slice.
    pub(crate) fn pick<T: Clone>(&mut self, xs: &[T]) -> T {
        xs.choose(&mut self.rng).expect("a choice among none").clone()
    }

    /// Up to `n` distinct elements of a slice, in a random order.
    pub(crate) fn some<T: Clone>(&mut self, xs: &[T], n: usize) -> Vec<T> {
        xs.choose_multiple(&mut self.rng, n).cloned().collect()
    }

    pub(crate) fn feature(&mut self, name: &'static str) {
        debug_assert!(self.known.contains(&name), "unlisted feature {name}");
        self.features.insert(name);
    }
}

/// Where a player's army stands and how it reads directions.
#[derive(Clone, Debug)]
pub(crate) struct PlayerSpec {
    pub name: &'static str,
    /// The `swap` pairs written after the name (empty for the first player).
    pub swap: &'static str,
    pub side: Side,
}

/// The edge of the board a player starts from (its pieces move away from it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    South,
    North,
    West,
    East,
}

/// The decisions taken before anything is written, so every part of the file agrees.
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    pub players: Vec<PlayerSpec>,
    /// The players who move (the others are neutral).
    pub movers: usize,
    /// Royal pieces per side: 0, 1 or 2.
    pub royals: usize,
    pub castling: bool,
    pub stacks: bool,
    pub between: bool,
    pub squares: bool,
    pub attributes: bool,
    pub shared: bool,
}

fn plan(g: &mut Gen) -> Plan {
    let n = if g.chance(0.82) { 2 } else { g.int(3, 4) };
    let players = players(g, n);
    let movers = if n == 3 && g.chance(0.5) { 2 } else { n };
    let royals = g.pick(&[0, 1, 1, 1, 2]);
    let shared = royals == 0 && g.chance(0.3);
    let squares = n == 2 && g.chance(0.18);
    let between = !squares && g.chance(0.1);
    let stacks = !between && g.chance(0.16);
    let attributes = !stacks && g.chance(0.2);
    let castling = n == 2 && royals == 1 && g.chance(0.18);
    Plan { players, movers, royals, castling, stacks, between, squares, attributes, shared }
}

fn players(g: &mut Gen, n: usize) -> Vec<PlayerSpec> {
    const FLIP: &str = "swap n <-> s  ne <-> se  nw <-> sw";
    if n == 2 {
        let (a, b) = g.pick(&[("white", "black"), ("red", "blue"), ("sente", "gote")]);
        return vec![
            PlayerSpec { name: a, swap: "", side: Side::South },
            PlayerSpec { name: b, swap: FLIP, side: Side::North },
        ];
    }
    let all = [
        PlayerSpec { name: "south", swap: "", side: Side::South },
        PlayerSpec { name: "north", swap: FLIP, side: Side::North },
        // Reflections that make each player's `n` point away from its own edge.
        PlayerSpec { name: "west", swap: "swap n <-> e  s <-> w  nw <-> se", side: Side::West },
        PlayerSpec { name: "east", swap: "swap n <-> w  s <-> e  ne <-> sw", side: Side::East },
    ];
    all[..n].to_vec()
}

/// Everything the parts of the file share once the board and zones are known.
pub(crate) struct Ctx {
    pub plan: Plan,
    pub board: board::Board,
    /// Zones every player has cells in (per player or common), for `from`, `to`, `in(...)`.
    pub zones: Vec<&'static str>,
    /// Phase names declared.
    pub phases: Vec<&'static str>,
    /// The piece roster, decided before any body is written.
    pub pieces: Vec<pieces::PieceSpec>,
    /// Move types used by programs (declared by them or by `move-types`).
    pub move_types: BTreeSet<&'static str>,
    /// The piece types every player has on the board at the start.
    pub on_board: BTreeSet<usize>,
    /// The fewest pieces a player has on the board at the start.
    pub army_min: usize,
    /// Cells whose capacity is two or more in every phase (a setup may stack pieces there).
    pub stack_cells: BTreeSet<(usize, usize)>,
}

impl Ctx {
    pub(crate) fn player_names(&self) -> Vec<&'static str> {
        self.plan.players.iter().map(|p| p.name).collect()
    }
}

fn write_variant(g: &mut Gen, seed: u64) -> String {
    let plan = plan(g);
    let board = board::generate(g, &plan);
    let mut ctx = Ctx {
        plan,
        board,
        zones: Vec::new(),
        phases: Vec::new(),
        pieces: Vec::new(),
        move_types: BTreeSet::new(),
        on_board: BTreeSet::new(),
        army_min: 0,
        stack_cells: BTreeSet::new(),
    };
    let mut out = format!("variant \"Random {seed}\"\n\n");
    out.push_str(&ctx.board.text);
    for p in &ctx.plan.players {
        out.push_str(&format!("player {} {}\n", p.name, p.swap));
    }
    rules::players_extra(g, &ctx, &mut out);
    out.push_str(&rules::zones_and_phases(g, &mut ctx));
    pieces::roster(g, &mut ctx);
    let placed = setup::place(g, &ctx);
    ctx.army_min = placed.armies.iter().map(Vec::len).min().unwrap_or(0);
    ctx.on_board =
        (0..ctx.pieces.len()).filter(|t| placed.armies.iter().all(|a| a.iter().any(|(p, _)| p == t))).collect();
    out.push_str(&pieces::bodies(g, &mut ctx, &placed));
    out.push_str(&setup::castlings(&ctx, &placed));
    out.push_str(&rules::squares_and_turn(g, &ctx));
    out.push_str(&rules::top_level(g, &ctx));
    out.push_str(&setup::text(g, &ctx, &placed));
    out.push_str(&end::end_block(g, &ctx));
    // Drawn last, so the rest of each seed's variant stays as it was.
    out.push_str(&rules::walls(g, &ctx));
    out
}
