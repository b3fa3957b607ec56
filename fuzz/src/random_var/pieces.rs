//! Random pieces: the roster, move powers with modifiers, promotion and the pieces' flags.

use std::collections::BTreeSet;

use super::board::COMPASS;
use super::setup::Placed;
use super::{programs, Ctx, Gen};

/// What a piece type is for, which decides the shape of its body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    King,
    Pawn,
    Other,
}

/// A piece type as the other parts of the file see it.
#[derive(Clone, Debug)]
pub(crate) struct PieceSpec {
    pub name: &'static str,
    pub letter: char,
    pub role: Role,
    pub royal: bool,
    /// Has drop programs taking from the hand (so the setup may fill hands).
    pub drops_from_hand: bool,
    /// The move types of its programs.
    pub types: BTreeSet<&'static str>,
}

const NAMES: [&str; 24] = [
    "Alfa", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel", "India", "Juliett", "Lima", "Mike",
    "November", "Oscar", "Quebec", "Romeo", "Sierra", "Tango", "Uniform", "Victor", "Whiskey", "Xray", "Yankee",
    "Zulu",
];

/// Chooses the piece types: royal ones as the plan says, sometimes a pawn, and a few others.
pub(crate) fn roster(g: &mut Gen, ctx: &mut Ctx) {
    let royals = ctx.plan.royals;
    g.feature(["royal-0", "royal-1", "royal-2"][royals]);
    let others = g.int(1, 4);
    let mut names = g.some(&NAMES, others + 1);
    let spec = |name: &'static str, role, royal| PieceSpec {
        name,
        letter: name.chars().next().expect("a name"),
        role,
        royal,
        drops_from_hand: false,
        types: BTreeSet::new(),
    };
    if royals > 0 || ctx.plan.castling {
        ctx.pieces.push(spec("King", Role::King, royals > 0));
    }
    // Two royal pieces a side: two kings, or a king and a royal piece of another type.
    if royals == 2 && g.chance(0.5) {
        ctx.pieces.push(spec(names.pop().expect("a name"), Role::Other, true));
    } else {
        names.pop();
    }
    if g.chance(0.55) {
        ctx.pieces.push(spec("Pawn", Role::Pawn, false));
    }
    for name in names {
        ctx.pieces.push(spec(name, Role::Other, false));
    }
}

/// The names of the non-royal types other than `me` (promotion and change targets).
pub(crate) fn targets(ctx: &Ctx, me: usize) -> Vec<&'static str> {
    let out: Vec<&'static str> =
        ctx.pieces.iter().enumerate().filter(|(i, p)| *i != me && !p.royal).map(|(_, p)| p.name).collect();
    if out.is_empty() {
        vec![ctx.pieces[me].name]
    } else {
        out
    }
}

/// The `piece` declarations.
pub(crate) fn bodies(g: &mut Gen, ctx: &mut Ctx, placed: &Placed) -> String {
    let mut out = String::new();
    for i in 0..ctx.pieces.len() {
        let mut lines = Vec::new();
        let p = ctx.pieces[i].clone();
        if p.royal {
            lines.push("royal".to_string());
        }
        match p.role {
            Role::King => lines.extend(king_powers(g, ctx)),
            Role::Pawn => lines.extend(pawn_powers(g, ctx, i)),
            Role::Other => {
                for _ in 0..g.int(1, 3) {
                    if g.chance(0.25) {
                        lines.push(programs::move_program(g, ctx, i));
                    } else {
                        lines.push(power(g, ctx));
                    }
                }
            }
        }
        lines.extend(flags(g, ctx, i, placed));
        if p.role == Role::Other && g.chance(0.2) {
            lines.push(promotion(g, ctx, i));
        }
        // A royal piece that explodes may not promote (the grammar refuses it): the blast goes.
        if p.royal && lines.iter().any(|l| l.starts_with("promote") || (l.starts_with("move") && l.contains("add("))) {
            lines.retain(|l| !l.starts_with("explodes"));
        }
        out.push_str(&format!("piece {} {} {{\n  {}\n}}\n", p.name, p.letter, lines.join("\n  ")));
    }
    out.push('\n');
    out
}

fn king_powers(g: &mut Gen, ctx: &Ctx) -> Vec<String> {
    match g.int(0, 3) {
        0 => {
            g.feature("betza");
            vec!["betza \"K\"".into()]
        }
        1 => {
            g.feature("step");
            vec!["step orthogonal".into(), "step diagonal if turn >= 2".into()]
        }
        _ => {
            g.feature("step");
            let mut v = vec!["step all".to_string()];
            if ctx.plan.attributes || g.chance(0.2) {
                v.push(programs::king_extra(g, ctx));
            }
            // A first leap while the king's cell holds a right, not out of check.
            if g.chance(0.2) {
                g.feature("if-on-right");
                g.feature("if-in-check");
                v.push("leap 2 1 move-only if on-right if not in-check".into());
            }
            v
        }
    }
}

fn pawn_powers(g: &mut Gen, ctx: &mut Ctx, me: usize) -> Vec<String> {
    let mut v = vec!["san-without-letter".to_string(), "resets-move-clock".to_string()];
    match g.int(0, 3) {
        0 => {
            g.feature("betza");
            g.feature("en-passant");
            v.push("betza \"mfW\"".into());
            v.push("betza \"mfW\" max 2 from start marks-en-passant".into());
            v.push("betza \"cfF\" en-passant".into());
        }
        1 => {
            g.feature("step");
            g.feature("slide");
            g.feature("slide-max");
            g.feature("from-zone");
            g.feature("move-only");
            g.feature("capture-only");
            g.feature("en-passant");
            v.push("step n move-only".into());
            v.push("slide n max 2 move-only from start marks-en-passant".into());
            v.push("step ne nw capture-only en-passant".into());
        }
        2 => v.push(programs::pawn_program(g, ctx, me)),
        _ => {
            g.feature("step");
            v.push("step n".into());
        }
    }
    if g.chance(0.8) {
        v.push(promotion(g, ctx, me));
    }
    v
}

/// One random move power with random modifiers.
fn power(g: &mut Gen, ctx: &Ctx) -> String {
    let kind = g.int(0, 5);
    let mut s = match kind {
        0 => {
            g.feature("step");
            format!("step {}", dir_list(g, ctx))
        }
        1 => {
            g.feature("slide");
            format!("slide {}", dir_list(g, ctx))
        }
        2 => leap(g),
        3 => {
            g.feature("hop");
            format!("hop {}", dir_list(g, ctx))
        }
        _ => betza(g),
    };
    // `max` applies to slides and hops; `stop-between` to steps and slides.
    if (kind == 1 || kind == 3) && g.chance(0.35) {
        if kind == 1 {
            g.feature("slide-max");
        }
        s.push_str(&format!(" max {}", g.int(1, 3)));
    }
    if kind <= 1 && ctx.plan.between && g.chance(0.5) {
        g.feature("stop-between");
        s.push_str(" stop-between");
    }
    s.push_str(&modifiers(g, ctx));
    s
}

fn leap(g: &mut Gen) -> String {
    g.feature("leap");
    if g.chance(0.2) {
        g.feature("leap-path");
        let (a, b) = (g.pick(&COMPASS), g.pick(&COMPASS));
        return format!("leap ({} {} {}) ({} {})", a.0, a.0, b.0, b.0, a.0);
    }
    let a = g.int(1, 3);
    let b = g.int(0, a);
    format!("leap {a} {b}")
}

fn betza(g: &mut Gen) -> String {
    g.feature("betza");
    let atoms = ["W", "F", "D", "N", "A", "H", "C", "Z", "G", "K", "R", "B", "Q", "WW", "FF"];
    let mods = ["", "", "", "m", "c", "f", "b", "l", "r", "v", "s", "fr", "mf", "cb"];
    let mut text = String::new();
    for _ in 0..g.int(1, 2) {
        let (m, a) = (g.pick(&mods), g.pick(&atoms));
        // A letter written twice in a row is a rider, which only W and F may be.
        if m.is_empty() && text.ends_with(&a[..1]) {
            continue;
        }
        text.push_str(&format!("{m}{a}"));
    }
    format!("betza \"{text}\"")
}

/// A list of directions: compass names, sets, declared sets and extra directions.
pub(crate) fn dir_list(g: &mut Gen, ctx: &Ctx) -> String {
    let mut pool: Vec<&str> = vec!["orthogonal", "diagonal", "all", "n", "e", "s", "w", "ne", "nw", "se", "sw"];
    pool.extend(ctx.board.sets.iter().copied());
    pool.extend(ctx.board.extra_dirs.iter().copied());
    let n = g.int(1, 3);
    g.some(&pool, n).join(" ")
}

fn modifiers(g: &mut Gen, ctx: &Ctx) -> String {
    let mut s = String::new();
    match g.int(0, 9) {
        0 | 1 => {
            g.feature("move-only");
            s.push_str(" move-only");
            // Only a move-only power may read check.
            if g.chance(0.3) {
                g.feature("if-in-check");
                s.push_str(if g.chance(0.5) { " if in-check" } else { " if not in-check" });
            }
        }
        2 => {
            g.feature("capture-only");
            s.push_str(" capture-only");
        }
        _ => {}
    }
    if g.chance(0.08) {
        g.feature("from-zone");
        s.push_str(&format!(" from {}", g.pick(&ctx.zones)));
    }
    if g.chance(0.08) {
        g.feature("to-zone");
        s.push_str(&format!(" to {}", g.pick(&ctx.zones)));
    }
    if g.chance(0.1) {
        g.feature("if-condition");
        s.push_str(&format!(" if {}", condition(g, ctx)));
    }
    if g.chance(0.08) {
        g.feature("if-on-right");
        s.push_str(if g.chance(0.7) { " if on-right" } else { " if not on-right" });
    }
    s
}

/// A random condition: counts, turns, phases, negation.
pub(crate) fn condition(g: &mut Gen, ctx: &Ctx) -> String {
    let cmp = g.pick(&["<", "<=", "==", ">=", ">"]);
    match g.int(0, 6) {
        0 | 1 => format!("pieces {cmp} {}", g.int(2, 14)),
        2 => format!("pieces({}) {cmp} {}", g.pick(&ctx.pieces).name, g.int(0, 2)),
        3 => format!("pieces(enemy {}) {cmp} {}", g.pick(&ctx.pieces).name, g.int(0, 2)),
        4 if !ctx.phases.is_empty() => format!("phase {}", g.pick(&ctx.phases)),
        5 => format!("not {}", condition(g, ctx)),
        _ => format!("turn {cmp} {}", g.int(1, 6)),
    }
}

/// `promote in ZONE [or from ZONE] to TYPES [optional [except in ZONE]] [captured-only|setup-only]`,
/// or two such rules, one for the first player and one for the others.
fn promotion(g: &mut Gen, ctx: &Ctx, me: usize) -> String {
    if g.chance(0.15) {
        g.feature("promote-per-player");
        let first = promotion_in(g, ctx, me, "far-first");
        return format!("{first}\n  {}", promotion_in(g, ctx, me, "far-rest"));
    }
    promotion_in(g, ctx, me, "far")
}

/// One `promote` rule whose zone is `far` or a part of it.
fn promotion_in(g: &mut Gen, ctx: &Ctx, me: usize, far: &str) -> String {
    g.feature("promote");
    let to = targets(ctx, me);
    let n = g.int(1, to.len().min(3));
    let mut s = format!("promote in {far}");
    if g.chance(0.15) {
        g.feature("promote-from");
        s.push_str(&format!(" or from {far}"));
    }
    s.push_str(&format!(" to {}", g.some(&to, n).join(" ")));
    if g.chance(0.35) {
        g.feature("promote-optional");
        s.push_str(" optional");
        if g.chance(0.3) {
            g.feature("promote-except");
            s.push_str(" except in last");
        }
    }
    match g.int(0, 9) {
        0 | 1 => {
            g.feature("captured-only");
            s.push_str(" captured-only");
        }
        2 => {
            g.feature("setup-only");
            s.push_str(" setup-only");
        }
        _ => {}
    }
    s
}

/// Values, points, check rules, explosions, hands and drops.
fn flags(g: &mut Gen, ctx: &mut Ctx, me: usize, placed: &Placed) -> Vec<String> {
    let p = ctx.pieces[me].clone();
    let mut v = Vec::new();
    if g.chance(0.3) {
        v.push(format!("value {}", g.int(1, 12) * 50));
    }
    if g.chance(0.15) {
        g.feature("points");
        v.push(format!("points {}", g.pick(&["1", "2.5", "3", "0.25"])));
    }
    if p.royal && ctx.plan.players.len() == 2 && g.chance(0.15) {
        g.feature("keep-apart");
        v.push("keep-apart 1".into());
    }
    if !p.royal && ctx.plan.royals > 0 && g.chance(0.1) {
        g.feature("no-check");
        v.push(g.pick(&["no-check", "no-check moves", "no-check drops promotions", "no-check promotions"]).into());
    }
    // Mostly a royal piece (makpong's king), sometimes another that may not leave check either.
    if ctx.plan.royals > 0 && g.chance(if p.royal { 0.12 } else { 0.03 }) {
        g.feature("held-by-check");
        v.push("held-by-check".into());
    }
    if g.chance(0.08) {
        g.feature("explodes");
        v.push(format!("explodes {}", g.pick(&["all", "orthogonal", "diagonal", "n s"])));
    } else if g.chance(0.08) {
        g.feature("blast-proof");
        v.push("blast-proof".into());
    }
    if g.chance(0.12) {
        g.feature("captured-to-hand");
        let back = if g.chance(0.3) { format!(" as {}", g.pick(&targets(ctx, me))) } else { String::new() };
        v.push(format!("captured-to-hand{back}"));
    }
    let in_setup = placed.types_on_board.contains(&me);
    if !p.royal && (g.chance(0.1) || (!in_setup && g.chance(0.5))) {
        v.extend(programs::drops(g, ctx, me));
    }
    v
}
