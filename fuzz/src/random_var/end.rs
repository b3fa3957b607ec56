//! Random end rules: checkmate and stalemate outcomes, bare king, move rule, repetition,
//! counting, points and goals of every kind.

use super::board::Board;
use super::{Ctx, Gen};

/// `before(...)` tests written so far stay well under the limit (64 / players, at most 16).
const MOST_BEFORES: usize = 6;

/// An outcome word, `points` now and then.
fn outcome(g: &mut Gen) -> &'static str {
    match g.int(0, 9) {
        0..=3 => "loss",
        4..=6 => "win",
        7 => "draw",
        _ => {
            g.feature("points-outcome");
            "points"
        }
    }
}

/// A place a `config` goal names: a cell with a square, or a zone.
fn group(g: &mut Gen, ctx: &Ctx) -> String {
    let b = &ctx.board;
    if g.chance(0.5) {
        return g.pick(&ctx.zones).to_string();
    }
    let cells: Vec<(usize, usize)> =
        (0..b.h).flat_map(|y| (0..b.w).map(move |x| (x, y))).filter(|&(x, y)| b.standable(x, y)).collect();
    let (x, y) = g.pick(&cells);
    Board::name(x, y)
}

/// A random goal test, at most two levels of `and`/`or`/`not` deep.
pub(crate) fn goal_test(g: &mut Gen, ctx: &Ctx, depth: usize, befores: &mut usize) -> String {
    if depth < 2 && g.chance(0.3) {
        let (a, b) = (goal_test(g, ctx, depth + 1, befores), goal_test(g, ctx, depth + 1, befores));
        return match g.int(0, 2) {
            0 => format!("{a} and {b}"),
            1 => format!("({a} or {b})"),
            _ => format!("not {a}"),
        };
    }
    let t = g.pick(&ctx.pieces).name;
    let u = g.pick(&ctx.pieces).name;
    match g.int(0, 11) {
        0 => {
            g.feature("goal-pieces-remaining");
            let ty = if g.chance(0.5) { format!(" {t}") } else { String::new() };
            format!("pieces-remaining {}{ty}", g.int(0, 2))
        }
        1 => {
            g.feature("goal-total-pieces");
            let ty = if g.chance(0.5) { format!(" {t}") } else { String::new() };
            format!("total-pieces {}{ty}", g.int(0, 4))
        }
        2 => {
            g.feature("goal-captured");
            format!("captured {t}")
        }
        3 => {
            g.feature("goal-stalemated");
            "stalemated".into()
        }
        4 => {
            g.feature("goal-to-move");
            "to-move".into()
        }
        5 => {
            g.feature("goal-checks-given");
            format!("checks-given {}", g.int(1, 3))
        }
        6 => {
            g.feature("goal-repetition");
            format!("repetition {}", g.int(2, 3))
        }
        7 | 8 => {
            g.feature("goal-config");
            let who = g.pick(&["own", "opponent", "any"]);
            format!("config({who} {t} at {})", group(g, ctx))
        }
        9 => {
            g.feature("goal-passed");
            format!("passed {}", g.int(1, 2))
        }
        10 if *befores < MOST_BEFORES && depth < 2 => {
            g.feature("goal-before");
            *befores += 1;
            format!("before({})", goal_test(g, ctx, 2, befores))
        }
        _ => {
            g.feature("goal-facing");
            let dirs = g.pick(&["n", "orthogonal", "all", "e w"]);
            format!("facing(own {t}, opponent {u}, {dirs})")
        }
    }
}

/// The `end` block (or nothing: the defaults).
pub(crate) fn end_block(g: &mut Gen, ctx: &Ctx) -> String {
    if g.chance(0.12) {
        return String::new();
    }
    let mut items = Vec::new();
    let players = ctx.player_names();
    if ctx.plan.royals > 0 && g.chance(0.3) {
        g.feature("checkmate-outcome");
        items.push(format!("checkmate {}", outcome(g)));
    }
    if g.chance(0.3) {
        g.feature("stalemate-outcome");
        items.push(format!("stalemate {}", outcome(g)));
    }
    if ctx.plan.royals > 0 && g.chance(0.15) {
        g.feature("bare-king");
        items.push(format!("bare-king {}", outcome(g)));
    }
    if g.chance(0.2) {
        g.feature("move-rule");
        items.push(format!("move-rule {}", g.int(3, 50)));
    }
    if g.chance(0.2) {
        g.feature("repetition");
        let mut r = format!("repetition {}", g.int(2, 4));
        if g.chance(0.3) {
            r.push_str(&format!(" {} {}", g.pick(&players), outcome(g)));
        }
        if g.chance(0.3) {
            g.feature("perpetual-check");
            r.push_str(&format!(" perpetual-check {}", outcome(g)));
        }
        items.push(r);
    }
    let mut befores = 0;
    if g.chance(0.1) {
        g.feature("counting");
        items.push(format!("counting {}: {}", g.int(1, 20), goal_test(g, ctx, 1, &mut befores)));
    }
    for _ in 0..g.int(0, 3) {
        let n = g.int(1, players.len());
        let who = g.some(&players, n).join(" ");
        let o = outcome(g);
        items.push(format!("goal {who} {o}: {}", goal_test(g, ctx, 0, &mut befores)));
    }
    if g.chance(0.1) {
        items.push(format!("points-bonus {} {}", g.pick(&players), g.pick(&["0.5", "1", "2.25"])));
    }
    format!("end {{\n  {}\n}}\n", items.join("\n  "))
}
