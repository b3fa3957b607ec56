//! Seeded generator of random but valid Zillions `.zrf` games, for `varia_zrf::load`.
//!
//! `random_zrf(seed)` writes a small game: a grid of 16 to 64 positions (killed positions,
//! unlinked walls, a `warp` direction), two players or now and then three or four with their
//! symmetries and now and then a neutral player (pieces in the middle, never in the turn order),
//! zones, a few piece types whose move bodies are built from directions, tests and
//! instructions (captures, partial moves, promotions, `create`, `flip`, `change-type`,
//! `cascade`, flags, `mark`/`back`), drops and hands, options (also in their game-level keyword
//! spelling), a turn order, move priorities and win, loss, draw and count conditions. The same
//! seed always gives the same text.

mod moves;

use std::collections::BTreeSet;

use crate::random_var::Gen;

/// Every feature name [`random_zrf_with_features`] may report.
pub const ZRF_FEATURES: &[&str] = &[
    "zrf-macro",
    "zrf-kill",
    "zrf-unlink",
    "zrf-links",
    "zrf-players-3+",
    "zrf-royal-0",
    "zrf-royal-1",
    "zrf-royal-2",
    "zrf-not-friend",
    "zrf-empty",
    "zrf-enemy",
    "zrf-while",
    "zrf-if",
    "zrf-verify",
    "zrf-test",
    "zrf-add-partial",
    "zrf-hop-partial",
    "zrf-capture",
    "zrf-promotion",
    "zrf-mark-back",
    "zrf-create",
    "zrf-flip",
    "zrf-change-type",
    "zrf-add-copy",
    "zrf-cascade",
    "zrf-flag",
    "zrf-move-type",
    "zrf-drops",
    "zrf-drops-capture",
    "zrf-hand",
    "zrf-maximal-captures",
    "zrf-maximal-captures-2",
    "zrf-option-keyword",
    "zrf-neutral",
    "zrf-pass-turn",
    "zrf-pass-partial",
    "zrf-turn-order",
    "zrf-priorities",
    "zrf-checkmated",
    "zrf-stalemated",
    "zrf-pieces-remaining",
    "zrf-total-piece-count",
    "zrf-absolute-config",
    "zrf-captured",
    "zrf-repetition",
    "zrf-count-condition",
];

/// The compass as Zillions grids give it: name, opposite, and the offset (y grows downwards).
pub(crate) const COMPASS: [(&str, &str, i32, i32); 8] = [
    ("n", "s", 0, -1),
    ("ne", "sw", 1, -1),
    ("e", "w", 1, 0),
    ("se", "nw", 1, 1),
    ("s", "n", 0, 1),
    ("sw", "ne", -1, 1),
    ("w", "e", -1, 0),
    ("nw", "se", -1, -1),
];

const PIECE_NAMES: [&str; 8] = ["Man", "Runner", "Guard", "Stone", "Frog", "Lancer", "Archer", "Tower"];

/// A random valid `.zrf` text for this seed.
pub fn random_zrf(seed: u64) -> String {
    random_zrf_with_features(seed).0
}

/// A random valid `.zrf` text for this seed, and the features it uses (names from
/// [`ZRF_FEATURES`], sorted).
pub fn random_zrf_with_features(seed: u64) -> (String, Vec<&'static str>) {
    let mut g = Gen::new(seed, ZRF_FEATURES);
    let text = write_game(&mut g, seed);
    (text, g.features.iter().copied().collect())
}

/// What the parts of the game share.
pub(crate) struct Game {
    pub players: Vec<&'static str>,
    pub pieces: Vec<&'static str>,
    /// Move types used by the bodies.
    pub types: BTreeSet<&'static str>,
    /// The board has a `warp` direction.
    pub warp: bool,
    /// A player `Neutral`, in no turn, has pieces in the middle of the board.
    pub neutral: bool,
    w: usize,
    h: usize,
    killed: BTreeSet<(usize, usize)>,
}

impl Game {
    /// A position's name; `y` counts ranks from the bottom.
    fn name(x: usize, y: usize) -> String {
        format!("{}{}", (b'a' + x as u8) as char, y + 1)
    }

    /// The player's home cells, `depth` rows from its own edge.
    fn row(&self, player: usize, depth: usize) -> Vec<(usize, usize)> {
        let (w, h) = (self.w, self.h);
        let side_rows = (2..h.saturating_sub(2)).collect::<Vec<_>>();
        let cells: Vec<(usize, usize)> = match player {
            0 => (0..w).map(|x| (x, depth)).collect(),
            1 => (0..w).map(|x| (x, h - 1 - depth)).collect(),
            2 => side_rows.iter().map(|&y| (depth, y)).collect(),
            _ => side_rows.iter().map(|&y| (w - 1 - depth, y)).collect(),
        };
        cells.into_iter().filter(|c| !self.killed.contains(c)).collect()
    }

    fn names(cells: &[(usize, usize)]) -> String {
        cells.iter().map(|&(x, y)| Game::name(x, y)).collect::<Vec<_>>().join(" ")
    }

    /// Cells in nobody's home.
    fn middle(&self) -> Vec<(usize, usize)> {
        let home: BTreeSet<(usize, usize)> =
            (0..self.players.len()).flat_map(|p| [self.row(p, 0), self.row(p, 1)]).flatten().collect();
        (0..self.h)
            .flat_map(|y| (0..self.w).map(move |x| (x, y)))
            .filter(|c| !home.contains(c) && !self.killed.contains(c))
            .collect()
    }
}

fn write_game(g: &mut Gen, seed: u64) -> String {
    let n = if g.chance(0.88) { 2 } else { g.int(3, 4) };
    if n > 2 {
        g.feature("zrf-players-3+");
    }
    let players = if n == 2 { vec!["White", "Black"] } else { ["South", "North", "West", "East"][..n].to_vec() };
    let (w, h) = loop {
        let lo = if n > 2 { 6 } else { 4 };
        let (w, h) = (g.int(lo, 8), g.int(lo, 8));
        if w * h <= 64 {
            break (w, h);
        }
    };
    let royals = g.pick(&[0, 1, 1, 2]);
    g.feature(["zrf-royal-0", "zrf-royal-1", "zrf-royal-2"][royals]);
    let mut pieces = Vec::new();
    if royals > 0 {
        pieces.push("King");
    }
    let others = g.int(1, 4);
    pieces.extend(g.some(&PIECE_NAMES, others));
    let neutral = g.chance(0.12);
    let mut game =
        Game { players, pieces, types: BTreeSet::new(), warp: false, neutral, w, h, killed: BTreeSet::new() };
    let mut out = String::from("(version \"2.0\")\n\n");
    let macro_step = g.chance(0.3);
    if macro_step {
        g.feature("zrf-macro");
        out.push_str("(define step-or-capture ($1 (verify not-friend?) add))\n\n");
    }
    let board = board(g, &mut game);
    let bodies = piece_forms(g, &mut game, macro_step);
    let neutral = if game.neutral { " Neutral" } else { "" };
    out.push_str(&format!("(game\n  (title \"Random {seed}\")\n  (players {}{neutral})\n", game.players.join(" ")));
    out.push_str(&turn_order(g, &game));
    out.push_str(&options(g));
    out.push_str(&board);
    out.push_str(&bodies.0);
    out.push_str(&setup(g, &game, royals, &bodies.1));
    out.push_str(&conditions(g, &game, royals));
    out.push_str(")\n");
    out
}

/// The `(board ...)` form: the grid, killed positions, walls, a warp, symmetries and zones.
fn board(g: &mut Gen, game: &mut Game) -> String {
    let (w, h) = (game.w, game.h);
    let files: Vec<String> = (0..w).map(|x| ((b'a' + x as u8) as char).to_string()).collect();
    let ranks: Vec<String> = (1..=h).rev().map(|r| r.to_string()).collect();
    let dirs: Vec<String> = COMPASS.iter().map(|(d, _, dx, dy)| format!("({d} {dx} {dy})")).collect();
    let mut out = format!(
        "  (board\n    (grid (start-rectangle 0 0 50 50)\n      (dimensions (\"{}\" (50 0)) (\"{}\" (0 50)))\n      (directions {}))\n",
        files.join("/"),
        ranks.join("/"),
        dirs.join(" ")
    );
    let middle = game.middle();
    if !middle.is_empty() && g.chance(0.2) {
        g.feature("zrf-kill");
        let n = g.int(1, 2.min(middle.len()));
        let cut = g.some(&middle, n);
        out.push_str(&format!("    (kill-positions {})\n", Game::names(&cut)));
        game.killed.extend(cut);
    }
    let middle = game.middle();
    if !middle.is_empty() && g.chance(0.15) {
        g.feature("zrf-unlink");
        let (x, y) = g.pick(&middle);
        out.push_str(&format!("    (unlink ({} {}))\n", Game::name(x, y), g.pick(&COMPASS).0));
    }
    if middle.len() >= 2 && g.chance(0.15) {
        g.feature("zrf-links");
        let ends = g.some(&middle, 2);
        let (a, b) = (Game::name(ends[0].0, ends[0].1), Game::name(ends[1].0, ends[1].1));
        out.push_str(&format!("    (links warp ({a} {b}) ({b} {a}))\n"));
        game.warp = true;
    }
    let syms = [
        "",
        "(n s) (s n) (ne se) (se ne) (nw sw) (sw nw)",
        "(n e) (e n) (s w) (w s) (nw se) (se nw)",
        "(n w) (w n) (s e) (e s) (ne sw) (sw ne)",
    ];
    for (i, p) in game.players.iter().enumerate().skip(1) {
        out.push_str(&format!("    (symmetry {p} {})\n", syms[i]));
    }
    let far = |game: &Game, i: usize| {
        let opposite = [1, 0, 3, 2][i];
        if opposite < game.players.len() {
            game.row(opposite, 0)
        } else {
            // The edge across from a side player, when nobody stands there.
            (0..game.h).map(|y| if i == 2 { (game.w - 1, y) } else { (0, y) }).collect()
        }
    };
    for (i, p) in game.players.iter().enumerate() {
        let promo: Vec<(usize, usize)> = far(game, i).into_iter().filter(|c| !game.killed.contains(c)).collect();
        out.push_str(&format!("    (zone (name promo) (players {p}) (positions {}))\n", Game::names(&promo)));
        let home = [game.row(i, 0), game.row(i, 1)].concat();
        out.push_str(&format!("    (zone (name home) (players {p}) (positions {}))\n", Game::names(&home)));
    }
    out.push_str("  )\n");
    out
}

/// The `(piece ...)` forms, and the types that drop from a hand.
fn piece_forms(g: &mut Gen, game: &mut Game, macro_step: bool) -> (String, Vec<&'static str>) {
    let mut out = String::new();
    let mut droppers = Vec::new();
    for i in 0..game.pieces.len() {
        let name = game.pieces[i];
        let mut plain = Vec::new();
        let mut typed: Vec<(&'static str, String)> = Vec::new();
        if name == "King" {
            let step = if macro_step { "(step-or-capture {d})" } else { "({d} (verify not-friend?) add)" };
            plain.extend(COMPASS.iter().map(|c| step.replace("{d}", c.0)));
        } else {
            for _ in 0..g.int(1, 4) {
                match moves::body(g, game) {
                    (None, b) => plain.push(b),
                    (Some(t), b) => typed.push((t, b)),
                }
            }
        }
        // A `(move-type T)` applies to every body after it: the untyped ones come first.
        typed.sort();
        let mut list = plain;
        let mut current = None;
        for (t, b) in typed {
            if current != Some(t) {
                list.push(format!("(move-type {t})"));
                current = Some(t);
            }
            list.push(b);
        }
        let drops = if name != "King" && g.chance(0.15) {
            droppers.push(name);
            format!("\n    {}", moves::drops(g))
        } else {
            String::new()
        };
        out.push_str(&format!(
            "  (piece (name {name}) (help \"{name}\")\n    (moves\n      {}\n    ){drops}\n  )\n",
            list.join("\n      ")
        ));
    }
    (out, droppers)
}

fn turn_order(g: &mut Gen, game: &Game) -> String {
    // A neutral player is the one the turn order leaves out.
    if !game.neutral && !g.chance(0.2) {
        return format!("  (turn-order {})\n", game.players.join(" "));
    }
    g.feature("zrf-turn-order");
    let first = game.players[0];
    let rest = game.players.join(" ");
    match g.int(0, 1) {
        0 => format!("  (turn-order {first} repeat {rest})\n"),
        _ => format!("  (turn-order {rest} {first} repeat {rest})\n"),
    }
}

fn options(g: &mut Gen) -> String {
    let mut out = String::new();
    // `(option "pass turn" forced)`, or the first language's `(pass-turn forced)`.
    let mut option = |g: &mut Gen, name: &str, value: &str| {
        if g.chance(0.3) {
            g.feature("zrf-option-keyword");
            out.push_str(&format!("  ({} {value})\n", name.replace(' ', "-")));
        } else {
            out.push_str(&format!("  (option \"{name}\" {value})\n"));
        }
    };
    if g.chance(0.12) {
        g.feature("zrf-maximal-captures");
        let value = if g.chance(0.5) { "2" } else { "true" };
        if value == "2" {
            g.feature("zrf-maximal-captures-2");
        }
        option(g, "maximal captures", value);
    }
    if g.chance(0.12) {
        g.feature("zrf-pass-turn");
        let value = g.pick(&["true", "forced"]);
        option(g, "pass turn", value);
    }
    if g.chance(0.1) {
        g.feature("zrf-pass-partial");
        option(g, "pass partial", "true");
    }
    out
}

/// The `(board-setup ...)` form: kings at the back, the rest anywhere at home, hands.
fn setup(g: &mut Gen, game: &Game, royals: usize, droppers: &[&'static str]) -> String {
    let others: Vec<&'static str> = game.pieces.iter().copied().filter(|&p| p != "King").collect();
    let army: Vec<&'static str> = (0..g.int(2, 6)).map(|_| g.pick(&others)).collect();
    let hand = !droppers.is_empty() && g.chance(0.7);
    let mut out = String::from("  (board-setup\n");
    for (i, p) in game.players.iter().enumerate() {
        let mut free = [game.row(i, 0), game.row(i, 1)].concat();
        let mut items = Vec::new();
        for _ in 0..royals {
            let back: Vec<(usize, usize)> = game.row(i, 0).into_iter().filter(|c| free.contains(c)).collect();
            if !back.is_empty() {
                let c = g.pick(&back);
                free.retain(|&f| f != c);
                items.push(format!("(King {})", Game::name(c.0, c.1)));
            }
        }
        for &t in &army {
            if free.is_empty() {
                break;
            }
            let c = g.pick(&free);
            free.retain(|&f| f != c);
            items.push(format!("({t} {})", Game::name(c.0, c.1)));
        }
        if hand {
            g.feature("zrf-hand");
            items.extend(droppers.iter().map(|t| format!("({t} off {})", 1 + i % 2)));
        }
        out.push_str(&format!("    ({p} {})\n", items.join(" ")));
    }
    let middle = game.middle();
    if game.neutral && !middle.is_empty() {
        g.feature("zrf-neutral");
        let n = g.int(1, 3.min(middle.len()));
        let items: Vec<String> =
            g.some(&middle, n).iter().map(|&(x, y)| format!("({} {})", g.pick(&others), Game::name(x, y))).collect();
        out.push_str(&format!("    (Neutral {})\n", items.join(" ")));
    }
    out.push_str("  )\n");
    out
}

/// Win, loss and draw conditions that do not hold at the start.
fn conditions(g: &mut Gen, game: &Game, royals: usize) -> String {
    let all = game.players.join(" ");
    let mut out = String::new();
    if royals > 0 {
        g.feature("zrf-checkmated");
        out.push_str(&format!("  (loss-condition ({all}) (checkmated King))\n"));
    }
    let outcome = |g: &mut Gen| g.pick(&["win-condition", "loss-condition", "draw-condition"]);
    if g.chance(0.4) {
        g.feature("zrf-stalemated");
        out.push_str(&format!("  ({} ({all}) stalemated)\n", outcome(g)));
    }
    if g.chance(0.35) {
        g.feature("zrf-pieces-remaining");
        out.push_str(&format!("  (loss-condition ({all}) (pieces-remaining 0))\n"));
    }
    if g.chance(0.15) {
        g.feature("zrf-total-piece-count");
        out.push_str(&format!("  (draw-condition ({all}) (total-piece-count {}))\n", g.int(1, 3)));
    }
    if g.chance(0.3) {
        g.feature("zrf-absolute-config");
        let t = g.pick(&game.pieces[usize::from(game.pieces[0] == "King")..]);
        // Nobody stands in its own far row, nor in another's home, at the start.
        for p in &game.players {
            let (who, at) = if g.chance(0.3) { (format!("(opponent {t})"), "home") } else { (t.to_string(), "promo") };
            out.push_str(&format!("  (win-condition ({p}) (absolute-config {who} ({at})))\n"));
        }
    }
    if g.chance(0.15) {
        g.feature("zrf-captured");
        out.push_str(&format!("  (loss-condition ({all}) (captured {}))\n", g.pick(&game.pieces)));
    }
    if g.chance(0.1) {
        g.feature("zrf-repetition");
        out.push_str(&format!("  (draw-condition ({all}) repetition)\n"));
    }
    if g.chance(0.12) {
        // The most pieces on the board win; every army has two pieces or more at the start.
        g.feature("zrf-count-condition");
        out.push_str(&match g.int(0, 2) {
            0 => format!("  (count-condition ({all}) stalemated)\n"),
            1 => format!("  (count-condition ({all}) repetition)\n"),
            _ => format!("  (count-condition (total-piece-count {}))\n", g.int(1, 3)),
        });
    }
    if !game.types.is_empty() && g.chance(0.4) {
        g.feature("zrf-priorities");
        let types: Vec<&str> = game.types.iter().copied().collect();
        out.push_str(&format!("  (move-priorities {})\n", types.join(" ")));
    }
    out
}
