//! Random rules around the pieces: teams, zones and their occupancy (stacks), phases, squares
//! and turns, and the top-level switches (move types, priorities, turn order, passes, forbids).

use std::collections::BTreeSet;

use super::board::Board;
use super::end::goal_test;
use super::pieces::condition;
use super::{Ctx, Gen, Side};

/// `team` lines and `shared-pieces`.
pub(crate) fn players_extra(g: &mut Gen, ctx: &Ctx, out: &mut String) {
    let n = ctx.plan.players.len();
    if n > 2 && ctx.plan.movers == n && g.chance(0.5) {
        g.feature("team");
        out.push_str("team south north\n");
        if n == 4 && g.chance(0.5) {
            out.push_str("team west east\n");
        }
    }
    if n > 2 {
        g.feature("players-3+");
    }
    if ctx.plan.shared {
        g.feature("shared-pieces");
        out.push_str("shared-pieces\n");
    }
    out.push('\n');
}

/// A per-player zone: for each player, the cells `depths` rows from its far edge (0: the last
/// row), or from its own edge with `near`.
fn rows(ctx: &Ctx, depths: &[usize], near: bool) -> String {
    rows_of(ctx, depths, near, |_| true)
}

/// [`rows`] for the players `which` keeps (by index) only.
fn rows_of(ctx: &Ctx, depths: &[usize], near: bool, which: impl Fn(usize) -> bool) -> String {
    let (w, h) = (ctx.board.w, ctx.board.h);
    let mut parts = Vec::new();
    for (_, p) in ctx.plan.players.iter().enumerate().filter(|(i, _)| which(*i)) {
        let across = if matches!(p.side, Side::South | Side::North) { h } else { w };
        let terms: Vec<String> = depths
            .iter()
            .map(|&d| if near { across - 1 - d } else { d })
            .map(|d| match p.side {
                Side::South => format!("rank {}", h - d),
                Side::North => format!("rank {}", d + 1),
                Side::West => format!("file {}", (b'a' + (w - 1 - d) as u8) as char),
                Side::East => format!("file {}", (b'a' + d as u8) as char),
            })
            .collect();
        parts.push(format!("{}: {}", p.name, terms.join(" ")));
    }
    parts.join("  ")
}

/// Phases, the zones every piece may name (`far`, `last`, `start`, `mid`) and the stack zones.
pub(crate) fn zones_and_phases(g: &mut Gen, ctx: &mut Ctx) -> String {
    let mut out = String::new();
    if g.chance(0.25) {
        g.feature("phase");
        out.push_str(&format!("phase late when turn >= {}\n", g.int(3, 8)));
        ctx.phases.push("late");
        if g.chance(0.5) {
            out.push_str(&format!("phase thin when pieces <= {}\n", g.int(3, 8)));
            ctx.phases.push("thin");
        }
    }
    out.push_str(&format!("zone far {{ {} }}\n", rows(ctx, &[0, 1], false)));
    out.push_str(&format!("zone last {{ {} }}\n", rows(ctx, &[0], false)));
    // The far rows of the first player alone and of the others: a `promote` rule for each.
    out.push_str(&format!("zone far-first {{ {} }}\n", rows_of(ctx, &[0, 1], false, |i| i == 0)));
    out.push_str(&format!("zone far-rest {{ {} }}\n", rows_of(ctx, &[0, 1], false, |i| i != 0)));
    // The start rows: one row in from each player's own edge.
    out.push_str(&format!("zone start {{ {} }}\n", rows(ctx, &[1], true)));
    let middle: Vec<String> = ctx
        .board
        .middle()
        .into_iter()
        .filter(|&(x, y)| ctx.board.exists(x, y))
        .map(|(x, y)| Board::name(x, y))
        .collect();
    out.push_str(&format!("zone mid {{ {} }}\n", middle.join(" ")));
    ctx.zones.extend(["far", "last", "start", "mid", "far-first", "far-rest"]);
    if ctx.plan.stacks {
        out.push_str(&stack_zone(g, ctx));
    }
    out.push('\n');
    out
}

/// A zone with occupancy rules: the whole board, or the middle cells.
fn stack_zone(g: &mut Gen, ctx: &mut Ctx) -> String {
    let b = &ctx.board;
    let whole = g.chance(0.5) || b.middle().iter().all(|&(x, y)| !b.exists(x, y));
    let cells: Vec<(usize, usize)> = if whole {
        (0..b.h).flat_map(|y| (0..b.w).map(move |x| (x, y))).filter(|&(x, y)| b.exists(x, y)).collect()
    } else {
        let mid: Vec<(usize, usize)> = b.middle().into_iter().filter(|&(x, y)| b.exists(x, y)).collect();
        let n = g.int(1, mid.len().min(6));
        g.some(&mid, n)
    };
    let list = if whole {
        (1..=b.h).map(|r| format!("rank {r}")).collect::<Vec<_>>().join(" ")
    } else {
        cells.iter().map(|&(x, y)| Board::name(x, y)).collect::<Vec<_>>().join(" ")
    };
    let (rules, stackable) = occupancy(g, ctx);
    if stackable {
        ctx.stack_cells.extend(cells);
    }
    format!("zone {} {{\n  {list}\n  {rules}\n}}\n", if whole { "crowd" } else { "share" })
}

/// Occupancy rules, and whether every phase lets a cell hold two pieces or more.
fn occupancy(g: &mut Gen, ctx: &Ctx) -> (String, bool) {
    g.feature("capacity");
    let mut rules = vec![if g.chance(0.4) { "capacity any".to_string() } else { format!("capacity {}", g.int(2, 4)) }];
    let flags: [(&str, &'static str, f64); 5] = [
        ("lone-inert", "lone-inert", 0.3),
        ("crowd-safe", "crowd-safe", 0.3),
        ("capture-all", "capture-all", 0.25),
        ("join-mixed-crowd", "join-mixed-crowd", 0.3),
        ("join-enemy-by-move", "join-enemy-by-move", 0.3),
    ];
    for (word, feature, p) in flags {
        if g.chance(p) {
            g.feature(feature);
            rules.push(word.to_string());
        }
    }
    if g.chance(0.3) {
        g.feature("capture-one");
        rules.push("capture-one".into());
    }
    let mut stackable = true;
    if !ctx.phases.is_empty() && g.chance(0.6) {
        g.feature("in-phase");
        let phase = g.pick(&ctx.phases);
        let cap = g.pick(&["capacity 1", "capacity 2", "capacity any", ""]);
        stackable = cap != "capacity 1";
        let extra = g.pick(&["lone-active", "crowd-open capture-all", "join-none", "lone-inert crowd-safe"]);
        rules.push(format!("in-phase {phase} {{ {cap} {extra} }}"));
    }
    (rules.join("\n  "), stackable)
}

/// A square's power: leaps, steps, slides or Betza, with `max` at most.
fn square_power(g: &mut Gen) -> String {
    g.pick(&[
        "betza \"KNDA\"",
        "betza \"WD\"",
        "step all",
        "leap 2 0",
        "leap 2 1",
        "slide orthogonal max 2",
        "step diagonal max 2",
    ])
    .to_string()
}

/// The `squares` block and the `turn` block.
pub(crate) fn squares_and_turn(g: &mut Gen, ctx: &Ctx) -> String {
    let mut out = String::new();
    if ctx.plan.squares {
        g.feature("squares");
        let mut items = Vec::new();
        if g.chance(0.5) {
            g.feature("squares-owned");
            items.push("owned".to_string());
        } else if g.chance(0.5) {
            items.push("neutral".to_string());
        }
        let reserve = g.pick(&["0", "1", "3", "any"]);
        if reserve != "0" {
            g.feature("square-reserve");
            items.push(format!("reserve {reserve}"));
        }
        if g.chance(0.8) {
            g.feature("square-move");
            items.push(format!("move {}", square_power(g)));
        }
        if g.chance(0.35) {
            g.feature("square-carry");
            let except = if ctx.plan.royals > 0 && g.chance(0.5) { " except-royal" } else { "" };
            items.push(format!("carry {}{except}", square_power(g)));
        }
        if g.chance(0.3) {
            g.feature("place-in-zone");
            items.push("place in mid".into());
        } else if g.chance(0.5) {
            items.push("place anywhere".into());
        }
        if g.chance(0.45) {
            g.feature("untouchable");
            items.push(g.pick(&["untouchable moved", "untouchable touched"]).into());
        }
        if g.chance(0.35) {
            g.feature("vacate");
            items.push(if g.chance(0.5) { "vacate".into() } else { format!("vacate if turn >= {}", g.int(2, 5)) });
        }
        out.push_str(&format!("squares {{\n  {}\n}}\n", items.join("\n  ")));
        out.push_str(&square_turn(g, reserve != "0"));
    } else if g.chance(0.06) {
        g.feature("turn-block");
        if g.chance(0.5) {
            g.feature("optional-action");
            out.push_str("turn { piece then piece optional }\n");
        } else {
            g.feature("skip-if-none");
            out.push_str("turn { piece then piece skip-if-none }\n");
        }
    }
    out
}

/// Now and then a `walls` block: where each piece move places its wall (`anywhere` and `duck`
/// only in the middle zone, to keep the moves few), and petrifying types (never a royal one,
/// which the lowering refuses). None with pieces between cells, which cover cells a wall
/// could go on.
pub(crate) fn walls(g: &mut Gen, ctx: &Ctx) -> String {
    if ctx.plan.between || !g.chance(0.1) {
        return String::new();
    }
    let mut items = Vec::new();
    if g.chance(0.8) {
        g.feature("walls-place");
        // The duck lifts every hole but the board's own, squares moved away among them.
        let rule = if ctx.plan.squares {
            g.pick(&["past", "arrow", "anywhere"])
        } else {
            g.pick(&["past", "past", "arrow", "anywhere", "duck"])
        };
        let zone = if matches!(rule, "anywhere" | "duck") || g.chance(0.3) { " in mid" } else { "" };
        items.push(format!("place {rule}{zone}"));
    }
    let stones: Vec<&str> = ctx.pieces.iter().filter(|p| !p.royal).map(|p| p.name).collect();
    if !stones.is_empty() && (items.is_empty() || g.chance(0.4)) {
        g.feature("petrify");
        let n = g.int(1, stones.len().min(3));
        items.push(format!("petrify {}", g.some(&stones, n).join(" ")));
    }
    if items.is_empty() {
        return String::new();
    }
    format!("walls {{\n  {}\n}}\n", items.join("\n  "))
}

/// A turn of several actions on pieces and squares (a square is placed only from a reserve).
fn square_turn(g: &mut Gen, reserve: bool) -> String {
    let place = if reserve { " | place-square" } else { "" };
    let text = match g.int(0, 4) {
        0 => format!("turn {{ piece | move-square{place} }}\n"),
        1 => {
            g.feature("skip-if-none");
            g.feature("optional-action");
            format!("turn {{\n  piece skip-if-none if turn == 1\n  then move-square{place} optional\n}}\n")
        }
        2 => {
            g.feature("optional-action");
            "turn { piece then move-square optional }\n".to_string()
        }
        3 if reserve => {
            g.feature("skip-if-none");
            "turn { move-square skip-if-none then piece then place-square optional }\n".to_string()
        }
        _ => return String::new(),
    };
    g.feature("turn-block");
    text
}

/// Move types, priorities, the turn order, passes, maximal captures, royal checks, compulsory
/// capture and forbids.
pub(crate) fn top_level(g: &mut Gen, ctx: &Ctx) -> String {
    let mut out = String::new();
    let types: Vec<&'static str> = ctx.move_types.iter().copied().collect();
    if !types.is_empty() && g.chance(0.4) {
        let mut listed = g.some(&types, types.len());
        if g.chance(0.3) {
            listed.push("spare");
        }
        out.push_str(&format!("move-types {}\n", listed.join(" ")));
    }
    if !types.is_empty() && g.chance(0.5) {
        g.feature("priorities");
        let n = g.int(1, types.len());
        out.push_str(&format!("priorities {}\n", g.some(&types, n).join(" ")));
    }
    let n = ctx.plan.players.len();
    if ctx.plan.movers < n || g.chance(0.15) {
        // A turn restricted to a move type only names the types of pieces in play.
        let in_play: BTreeSet<&'static str> =
            ctx.on_board.iter().flat_map(|&i| ctx.pieces[i].types.iter().copied()).collect();
        out.push_str(&turn_order(g, ctx, &in_play.into_iter().collect::<Vec<_>>()));
    }
    match g.int(0, 19) {
        0 | 1 => {
            g.feature("pass-turn");
            out.push_str("pass-turn\n");
        }
        2 => {
            g.feature("pass-turn");
            out.push_str("pass-turn if-no-move\n");
        }
        _ => {}
    }
    if ctx.move_types.contains("jump") && g.chance(0.4) {
        g.feature("pass-partial");
        out.push_str("pass-partial\n");
    }
    if g.chance(0.08) {
        g.feature("maximal-captures");
        if g.chance(0.5) && !ctx.pieces.is_empty() {
            // Of the turns taking the most pieces, those taking the most of these types.
            g.feature("maximal-captures-then");
            let names: Vec<&str> = ctx.pieces.iter().map(|p| p.name).collect();
            let n = g.int(1, 2.min(names.len()));
            out.push_str(&format!("maximal-captures then {}\n", g.some(&names, n).join(" ")));
        } else {
            out.push_str("maximal-captures\n");
        }
    }
    if ctx.plan.royals > 0 && g.chance(0.15) {
        // With two royal pieces a side (or one crowned by a promotion), when a player is in check.
        g.feature("royal-check");
        out.push_str(&format!("royal-check {}\n", g.pick(&["all", "last"])));
    }
    if g.chance(0.08) {
        g.feature("must-capture");
        out.push_str("must-capture\n");
    }
    if g.chance(0.08) {
        g.feature("goals-count-hands");
        out.push_str("goals-count-hands\n");
    }
    if g.chance(0.08) {
        g.feature("forbid");
        let mut befores = 0;
        out.push_str(&format!("forbid: {}\n", goal_test(g, ctx, 0, &mut befores)));
    }
    if ctx.phases.is_empty() && g.chance(0.05) {
        // A phase on a piece count, named by a power's condition below the roster.
        g.feature("phase");
        out.push_str(&format!("phase endgame when {}\n", condition(g, ctx)));
    }
    out.push('\n');
    out
}

fn turn_order(g: &mut Gen, ctx: &Ctx, types: &[&'static str]) -> String {
    g.feature("turn-order");
    let movers: Vec<&str> = ctx.plan.players.iter().take(ctx.plan.movers).map(|p| p.name).collect();
    if ctx.plan.movers < ctx.plan.players.len() {
        g.feature("neutral-player");
    }
    let entry = |g: &mut Gen, p: &str| {
        if !types.is_empty() && g.chance(0.2) {
            format!("{p}:{}", g.pick(types))
        } else {
            p.to_string()
        }
    };
    let once: Vec<String> = if g.chance(0.4) { vec![entry(g, movers[0])] } else { Vec::new() };
    let mut repeat: Vec<String> = movers.iter().map(|p| entry(g, p)).collect();
    if g.chance(0.2) {
        repeat.push(entry(g, movers[movers.len() - 1]));
    }
    format!("turn-order {{ {} repeat {} }}\n", once.join(" "), repeat.join(" "))
}
