//! Random end rules: checkmate and stalemate outcomes (a named player's, the fewest pieces'), bare king, move rule (a player's result), repetition, counting (from the pieces on the board), points and goals of every kind (who gives check, streaks of positions too).

use super::board::Board;
use super::{Ctx, Gen};

/// `before(...)` and `streak(...)` tests written so far stay well under the limit (64 / players,
/// at most 16).
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

/// A cell in nobody's home (or a zone when there is none), for `config` goals.
fn middle_group(g: &mut Gen, ctx: &Ctx) -> String {
    let b = &ctx.board;
    let cells: Vec<(usize, usize)> = b.middle().into_iter().filter(|&(x, y)| b.standable(x, y)).collect();
    if cells.is_empty() || g.chance(0.4) {
        return "mid".to_string();
    }
    let (x, y) = g.pick(&cells);
    Board::name(x, y)
}

/// A random goal test. Every test it writes is false at the start (no piece has moved, none
/// is in the middle or the far rows, every player has its army), so games go on for a while.
pub(crate) fn goal_test(g: &mut Gen, ctx: &Ctx, depth: usize, befores: &mut usize) -> String {
    if depth < 2 && g.chance(0.3) {
        let a = goal_test(g, ctx, depth + 1, befores);
        let b = goal_test(g, ctx, depth + 1, befores);
        return match g.int(0, 5) {
            0 => format!("{a} and {b}"),
            1 => format!("({a} or {b})"),
            2 => {
                g.feature("goal-to-move");
                format!("to-move and {a}")
            }
            // `a` is false at the start for every player, so these are too.
            3 => {
                g.feature("goal-opponent");
                format!("opponent({a}) or {b}")
            }
            4 => {
                g.feature("goal-count-running");
                format!("{a} and {}count-running", if g.chance(0.5) { "not " } else { "" })
            }
            _ => format!("{a} and not {b}"),
        };
    }
    if *befores < MOST_BEFORES && depth < 2 && g.chance(0.08) {
        g.feature("goal-before");
        *befores += 1;
        return format!("before({})", goal_test(g, ctx, 2, befores));
    }
    if *befores < MOST_BEFORES && depth < 2 && g.chance(0.05) {
        // False at the start with its second test; a run of checks where there is check.
        g.feature("goal-streak");
        *befores += 1;
        let during = if ctx.plan.royals > 0 && g.chance(0.6) { "in-check".to_string() } else { goal_atom(g, ctx) };
        return format!("streak({during}, {})", goal_test(g, ctx, 2, befores));
    }
    if ctx.plan.royals > 0 && g.chance(0.06) {
        return check_atom(g, ctx);
    }
    goal_atom(g, ctx)
}

/// A test of who gives check, false at the start (nothing is captured and every player can
/// move there).
fn check_atom(g: &mut Gen, ctx: &Ctx) -> String {
    let t = g.pick(&ctx.pieces).name;
    match g.int(0, 2) {
        0 => {
            g.feature("goal-in-check");
            format!("in-check and captured {t}")
        }
        1 => {
            g.feature("goal-checked-by");
            let types = g.some(&ctx.pieces, 2).iter().map(|p| p.name).collect::<Vec<_>>().join(" ");
            format!("checked-by({types}) and captured {t}")
        }
        _ => {
            g.feature("goal-checked-by");
            format!("checked-by(only {t}) and stalemated")
        }
    }
}

fn goal_atom(g: &mut Gen, ctx: &Ctx) -> String {
    let t = g.pick(&ctx.pieces).name;
    let on_board: Vec<usize> = ctx.on_board.iter().copied().collect();
    match g.int(0, 11) {
        0 => {
            g.feature("goal-pieces-remaining");
            match on_board.is_empty() || g.chance(0.5) {
                true if ctx.army_min >= 3 => format!("pieces-remaining {}", g.int(0, 1)),
                true => "pieces-remaining 0".to_string(),
                false => format!("pieces-remaining 0 {}", ctx.pieces[g.pick(&on_board)].name),
            }
        }
        1 => {
            g.feature("goal-total-pieces");
            match on_board.is_empty() || g.chance(0.5) {
                true => format!("total-pieces {}", g.int(0, 3)),
                false => format!("total-pieces 0 {}", ctx.pieces[g.pick(&on_board)].name),
            }
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
            g.feature("goal-checks-given");
            format!("checks-given {}", g.int(1, 3))
        }
        5 => {
            g.feature("goal-repetition");
            format!("repetition {}", g.int(2, 3))
        }
        6 | 7 => {
            g.feature("goal-config");
            // Sometimes only a piece no enemy attacks there counts.
            let word = if g.chance(0.3) {
                g.feature("goal-safe-config");
                "safe-config"
            } else {
                "config"
            };
            if g.chance(0.25) {
                // Reached, unless the other player can follow at once (racing kings).
                g.feature("goal-can-reach");
                let u = g.pick(&ctx.pieces).name;
                let zone = g.pick(&["far", "last", "mid"]);
                return format!("({word}(own {t} at {zone}) and not opponent(can-reach(own {u} at {zone})))");
            }
            match g.int(0, 2) {
                0 => format!("{word}(own {t} at {})", g.pick(&["far", "last", "mid"])),
                1 => format!("{word}(opponent {t} at {})", g.pick(&["start", "mid"])),
                _ => format!("{word}(any {t} at {})", middle_group(g, ctx)),
            }
        }
        8 => {
            g.feature("goal-passed");
            format!("passed {}", g.int(1, 2))
        }
        9 => {
            // Short shuttles, so that random games reach them.
            g.feature("goal-shuttled");
            match g.chance(0.5) {
                true => format!("shuttled {}", g.int(2, 3)),
                false => format!("shuttled {} {t}", g.int(2, 4)),
            }
        }
        _ => {
            // Along ranks only: no two armies share a rank at the start.
            g.feature("goal-facing");
            let u = g.pick(&ctx.pieces).name;
            format!("facing(own {t}, opponent {u}, {})", g.pick(&["e w", "e", "w"]))
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
        let whose = match g.int(0, 3) {
            0 => {
                g.feature("stalemate-player");
                format!("{} ", g.pick(&players))
            }
            1 => {
                g.feature("stalemate-fewer-pieces");
                "fewer-pieces ".to_string()
            }
            _ => String::new(),
        };
        items.push(format!("stalemate {whose}{}", outcome(g)));
    }
    if ctx.plan.royals > 0 && g.chance(0.15) {
        g.feature("bare-king");
        items.push(format!("bare-king {}", outcome(g)));
    }
    if g.chance(0.2) {
        g.feature("move-rule");
        let mut r = format!("move-rule {}", g.int(3, 50));
        if g.chance(0.3) {
            g.feature("move-rule-player");
            r.push_str(&format!(" {} {}", g.pick(&players), outcome(g)));
        }
        items.push(r);
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
        let from = if g.chance(0.4) {
            g.feature("counting-from-pieces");
            " from pieces"
        } else {
            ""
        };
        items.push(format!("counting {}{from}: {}", g.int(1, 20), goal_test(g, ctx, 1, &mut befores)));
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
