//! Random move and drop programs: `move [TYPE] { ... }` and `drop { ... }` bodies.

use super::board::COMPASS;
use super::pieces::{condition, targets};
use super::{Ctx, Gen};

/// A compass direction and its opposite.
fn compass(g: &mut Gen) -> (&'static str, &'static str) {
    let c = g.pick(&COMPASS);
    (c.0, c.1)
}

/// A single direction to step in: mostly the compass, sometimes a declared direction.
fn dir(g: &mut Gen, ctx: &Ctx) -> &'static str {
    if !ctx.board.extra_dirs.is_empty() && g.chance(0.15) {
        g.pick(&ctx.board.extra_dirs)
    } else {
        compass(g).0
    }
}

/// A test for `verify`, `if` and `while`, beyond `empty`, `friend` and `enemy`.
fn test(g: &mut Gen, ctx: &Ctx) -> String {
    g.feature("program-test");
    let d = dir(g, ctx);
    // A move type some program declares, for the tests that name one.
    let ty = ctx.move_types.iter().next().copied();
    match g.int(0, 14) {
        0 => "not attacked".into(),
        1 => format!("defended or empty({d})"),
        2 => "adjacent-to-enemy".into(),
        3 => format!("piece({}, {d})", g.pick(&ctx.pieces).name),
        4 => format!("on-board({d})"),
        5 => format!("not last-to({d})"),
        6 => format!("in({})", g.pick(&ctx.zones)),
        7 => format!("holds({})", condition(g, ctx)),
        8 => "not marked".into(),
        9 => format!("(empty({d}) or enemy({d})) and not friend"),
        10 => format!("not attacked({d})"),
        11 => ty.map_or_else(|| "true".into(), |t| format!("not attacked-by({t})")),
        12 => ty.map_or_else(|| "true".into(), |t| format!("defended-by({t}, {d})")),
        13 => format!("not last-from({d})"),
        _ => "true".into(),
    }
}

/// The optional type of a program, recorded so the top level can rank and order types.
fn move_type(g: &mut Gen, ctx: &mut Ctx, me: usize, p: f64, name: &'static str) -> String {
    if g.chance(p) {
        g.feature("move-type");
        ctx.move_types.insert(name);
        ctx.pieces[me].types.insert(name);
        format!(" {name}")
    } else {
        String::new()
    }
}

/// A random move program for piece `me`.
pub(crate) fn move_program(g: &mut Gen, ctx: &mut Ctx, me: usize) -> String {
    g.feature("program");
    let (d, back) = compass(g);
    let e = dir(g, ctx);
    let other = g.pick(&targets(ctx, me));
    let shape = g.int(0, 17);
    if shape <= 1 {
        return jump_chain(g, ctx, me, d);
    }
    let ty = move_type(g, ctx, me, 0.25, "quiet");
    let body = match shape {
        2 => step_like(g, ctx, d),
        3 => {
            g.feature("while");
            format!("{d} while empty {{ add {d} }} verify enemy add")
        }
        4 => {
            g.feature("if-else");
            g.feature("add-promote");
            format!("{d} verify empty if in(far) {{ add({other}) }} else if in(mid) {{ add }} else {{ add }}")
        }
        5 => {
            g.feature("add-copy");
            format!("{d} verify empty verify {} add-copy", test(g, ctx))
        }
        6 => {
            g.feature("change-type");
            format!("{d} verify enemy change-type({other}) add")
        }
        7 => {
            g.feature("flip");
            format!("{d} verify empty verify enemy({e}) flip({e}) add")
        }
        8 => {
            g.feature("change-owner");
            format!("{d} verify not friend verify enemy({e}) change-owner({e}) add")
        }
        9 => {
            g.feature("create");
            let owner = g.pick(&ctx.player_names());
            format!("{d} verify empty verify empty({e}) create(owner: {owner}, piece: {other}, at: {e}) add")
        }
        10 => {
            g.feature("cascade");
            if g.chance(0.5) {
                // A swap with a friendly piece: both leave before either lands.
                format!("{d} verify friend cascade {back} add")
            } else {
                reserve_capture(g, ctx, d, other)
            }
        }
        11 => {
            // Then looks at a neighbour that only test it (the `NeighbourTests` path): one
            // guarded by `on-board`, one not, whose mark a later `back` reads.
            g.feature("mark-back");
            format!(
                "mark {d} verify empty {d} verify not friend add back \
                 if on-board({e}) {{ mark {e} if enemy {{ verify not piece({other}) }} back }} \
                 mark {e} verify not friend back {e} verify empty add back {back} verify empty add"
            )
        }
        12 => {
            g.feature("flag");
            format!("set-flag seen false {d} while empty {{ set-flag seen true {d} }} verify flag(seen) verify not friend add")
        }
        13 => {
            g.feature("capture");
            format!("{d} verify empty verify enemy({e}) capture({e}) add")
        }
        14 if ctx.plan.attributes => attribute_program(g, d),
        15 => {
            g.feature("cell-flag");
            g.feature("while");
            format!(
                "{d} while empty {{ set-cell-flag passed true {d} }} verify not friend verify cell-flag(passed, {back}) or not empty({back}) add"
            )
        }
        16 => {
            // The copy goes on moving: a turn of partial moves (bounded by the turn's parts).
            g.feature("add-copy-partial");
            format!("{d} verify empty verify adjacent-to-enemy add-copy-partial")
        }
        _ => {
            g.feature("while");
            g.feature("if-else");
            format!("{d} while empty {{ if {} {{ add }} {d} }} verify not friend add", test(g, ctx))
        }
    };
    g.feature("verify");
    format!("move{ty} {{ {body} }}")
}

/// A capture that sends the piece taken to the first empty cell of a line from a named cell
/// (Knight's Court's reserve; the `LeanCascades` path): the line may run off the board (no
/// move), end on a hole, or come back to the cells of the move.
fn reserve_capture(g: &mut Gen, ctx: &Ctx, d: &str, other: &str) -> String {
    g.feature("cascade-reserve");
    let b = &ctx.board;
    let cells: Vec<(usize, usize)> =
        (0..b.h).flat_map(|y| (0..b.w).map(move |x| (x, y))).filter(|&(x, y)| b.exists(x, y)).collect();
    let (x, y) = g.pick(&cells);
    let cell = super::board::Board::name(x, y);
    let w = dir(g, ctx);
    let spared = if g.chance(0.5) { format!(" and not piece({other})") } else { String::new() };
    format!("{d} verify not friend if enemy{spared} {{ cascade {cell} while not empty {{ {w} }} }} add")
}

fn step_like(g: &mut Gen, ctx: &Ctx, d: &str) -> String {
    let e = dir(g, ctx);
    if g.chance(0.5) {
        format!("{d} verify not friend add")
    } else {
        format!("{d} {e} verify not friend verify {} add", test(g, ctx))
    }
}

/// A checkers-like capture that goes on jumping (`add-partial then TYPE`).
fn jump_chain(g: &mut Gen, ctx: &mut Ctx, me: usize, d: &str) -> String {
    g.feature("add-partial");
    g.feature("capture");
    g.feature("move-type");
    g.feature("verify");
    ctx.move_types.insert("jump");
    ctx.pieces[me].types.insert("jump");
    format!("move jump {{ {d} verify enemy capture {d} verify empty add-partial then jump }}")
}

/// A move that needs the piece's attribute, and clears it.
fn attribute_program(g: &mut Gen, d: &str) -> String {
    g.feature("attribute");
    format!("verify attribute(fresh) {d} verify empty {d} verify empty set-attribute fresh false add")
}

/// A king's extra program: a double step while it has never moved, or a step to a safe cell.
pub(crate) fn king_extra(g: &mut Gen, ctx: &Ctx) -> String {
    g.feature("program");
    g.feature("verify");
    let (d, _) = compass(g);
    if ctx.plan.attributes {
        g.feature("attribute");
        return format!(
            "attribute fresh set\n  move {{ verify attribute(fresh) {d} verify empty {d} verify empty set-attribute fresh false add }}"
        );
    }
    g.feature("program-test");
    format!("move {{ {d} verify empty verify not attacked {d} verify empty verify not attacked add }}")
}

/// A pawn written as programs: a step that promotes by `add(TYPES)`, a capture.
pub(crate) fn pawn_program(g: &mut Gen, ctx: &mut Ctx, me: usize) -> String {
    g.feature("program");
    g.feature("verify");
    g.feature("if-else");
    g.feature("add-promote");
    let to = targets(ctx, me);
    let n = g.int(1, to.len().min(2));
    let promo = g.some(&to, n).join(" ");
    let ty = move_type(g, ctx, me, 0.3, "quiet");
    format!(
        "move{ty} {{ n verify empty if in(last) {{ add({promo}) }} else {{ add }} }}\n  \
         move {{ ne verify enemy add }}\n  move {{ nw verify enemy add }}"
    )
}

/// Drop programs and the piece's supply.
pub(crate) fn drops(g: &mut Gen, ctx: &mut Ctx, me: usize) -> Vec<String> {
    g.feature("drop");
    let mut v = Vec::new();
    let unlimited = g.chance(0.3);
    if unlimited {
        g.feature("drop-unlimited");
        v.push("drop-supply unlimited".to_string());
    } else {
        ctx.pieces[me].drops_from_hand = true;
        if g.chance(0.3) {
            v.push("drop-supply hand".to_string());
        }
    }
    if ctx.plan.royals > 0 && g.chance(0.3) {
        g.feature("no-drop-checkmate");
        v.push("no-drop-checkmate".into());
    }
    let ty = move_type(g, ctx, me, 0.2, "drop");
    // Mostly onto a few rows, so that drops do not swamp the list of legal moves.
    // Programs whose zone, or first step, leaves them few start cells (the `StartCells` path).
    let body = match g.int(0, 8) {
        0 => "verify empty verify not in(last) add".to_string(),
        1 | 2 => "verify empty verify in(start) add".to_string(),
        3 => format!("verify empty verify in(far) verify {} add", test(g, ctx)),
        4 => "verify empty verify adjacent-to-enemy add".to_string(),
        5 => {
            g.feature("drop-capture");
            "verify in(start) verify not friend add".to_string()
        }
        6 => format!("{} verify in(start) verify empty add", dir(g, ctx)),
        7 => walk_drop(g, ctx),
        _ => "verify empty add".to_string(),
    };
    v.push(format!("drop{ty} {{ {body} }}"));
    v
}

/// A drop body that walks lines from its cell, testing the piece on every cell met (shogi's
/// pawn drop; the `DropWalks` path), or now and then a walk with a test of another kind.
fn walk_drop(g: &mut Gen, ctx: &Ctx) -> String {
    g.feature("drop-walk");
    let mut body = String::from("verify empty");
    if g.chance(0.5) {
        body.push_str(" verify not in(last)");
    }
    for _ in 0..g.int(1, 2) {
        let d = dir(g, ctx);
        let other = g.pick(&ctx.pieces).name;
        let t = match g.int(0, 5) {
            0 => format!("not (friend and piece({other}))"),
            1 => "not enemy".to_string(),
            2 => "empty or friend".to_string(),
            3 => format!("not piece({other})"),
            4 => format!("not (enemy and piece({other})) verify not empty or friend"),
            _ => test(g, ctx),
        };
        body.push_str(&format!(" mark while on-board({d}) {{ {d} verify {t} }} back"));
    }
    body.push_str(" add");
    body
}
