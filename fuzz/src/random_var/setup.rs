//! The random starting position: armies on each player's edge, castling, stacks, hands, choices.

use std::collections::BTreeSet;

use super::board::Board;
use super::pieces::Role;
use super::{Ctx, Gen, Side};

/// One castling: the player's index, its right letter and the four cells.
#[derive(Clone, Debug)]
pub(crate) struct Castle {
    pub player: usize,
    pub right: char,
    pub notation: &'static str,
    pub king: ((usize, usize), (usize, usize)),
    pub partner: ((usize, usize), (usize, usize)),
}

/// Where the pieces start.
#[derive(Clone, Debug, Default)]
pub(crate) struct Placed {
    /// Per player: (piece index, cell), a cell listed twice being a stack.
    pub armies: Vec<Vec<(usize, (usize, usize))>>,
    pub castles: Vec<Castle>,
    /// The castlings take their start cells from the position (`from` the back row), with the
    /// king's and partner's types.
    pub free_castling: Option<(usize, usize)>,
    /// The back row's width, for a `from` list.
    pub row_width: usize,
    /// The fixed castlings' rights are also gained by drops (`gained-by-drop`), with the
    /// king's and partner's types.
    pub by_drop: Option<(usize, usize)>,
    /// The piece types some player has on the board at the start.
    pub types_on_board: BTreeSet<usize>,
}

impl Placed {
    fn taken(&self) -> BTreeSet<(usize, usize)> {
        self.armies.iter().flatten().map(|&(_, c)| c).collect()
    }
}

/// Chooses the armies: royal pieces at the back, pawns in front, a few others anywhere at home.
pub(crate) fn place(g: &mut Gen, ctx: &Ctx) -> Placed {
    let mut placed = Placed { armies: vec![Vec::new(); ctx.plan.players.len()], ..Placed::default() };
    if ctx.plan.castling {
        castles(g, ctx, &mut placed);
    }
    let royal: Vec<usize> = (0..ctx.pieces.len()).filter(|&i| ctx.pieces[i].royal).collect();
    let pawn = ctx.pieces.iter().position(|p| p.role == Role::Pawn);
    let others: Vec<usize> = (0..ctx.pieces.len()).filter(|&i| !ctx.pieces[i].royal && Some(i) != pawn).collect();
    // Two kings of one type, or one of each royal type.
    let mut kinds: Vec<usize> = match (ctx.plan.royals, royal.len()) {
        (0, _) => Vec::new(),
        (2, 1) => vec![royal[0], royal[0]],
        _ => royal.clone(),
    };
    if ctx.plan.castling {
        kinds.clear();
    }
    let mut army = kinds;
    if let Some(p) = pawn {
        army.extend(std::iter::repeat_n(p, g.int(1, 3)));
    }
    for _ in 0..g.int(2, 5) {
        if !others.is_empty() {
            army.push(g.pick(&others));
        }
    }
    for (pi, spec) in ctx.plan.players.iter().enumerate() {
        let area: BTreeSet<(usize, usize)> = ctx.board.area(spec.side).into_iter().collect();
        let mut taken = placed.taken();
        for &piece in &army {
            let back = ctx.pieces[piece].royal;
            let front = ctx.pieces[piece].role == Role::Pawn;
            let free: Vec<(usize, usize)> = area
                .iter()
                .copied()
                .filter(|c| !taken.contains(c) && !castle_path(&placed, pi).contains(c))
                .filter(|&c| {
                    let depth = depth(&ctx.board, spec.side, c);
                    (!back || depth == 0) && (!front || depth == 1)
                })
                .collect();
            if free.is_empty() {
                continue;
            }
            let c = g.pick(&free);
            taken.insert(c);
            placed.armies[pi].push((piece, c));
        }
    }
    stack_some(g, ctx, &mut placed);
    placed.types_on_board = placed.armies.iter().flatten().map(|&(p, _)| p).collect();
    placed
}

/// How far from its own edge a cell is, for a player (0: the back row).
fn depth(b: &Board, side: Side, (x, y): (usize, usize)) -> usize {
    match side {
        Side::South => y,
        Side::North => b.h - 1 - y,
        Side::West => x,
        Side::East => b.w - 1 - x,
    }
}

/// The cells between a player's castling king and partner, kept empty.
fn castle_path(placed: &Placed, player: usize) -> BTreeSet<(usize, usize)> {
    let mut out = BTreeSet::new();
    for c in placed.castles.iter().filter(|c| c.player == player) {
        let (k, p) = (c.king.0, c.partner.0);
        let (lo, hi) = (k.0.min(p.0), k.0.max(p.0));
        out.extend((lo + 1..hi).map(|x| (x, k.1)));
    }
    out
}

/// A castling on one or both wings for both players, the king and partner placed for it.
fn castles(g: &mut Gen, ctx: &Ctx, placed: &mut Placed) {
    let b = &ctx.board;
    let king = ctx.pieces.iter().position(|p| p.role == Role::King).expect("a king for castling");
    let partner = ctx.pieces.iter().position(|p| p.role == Role::Other).expect("a partner type");
    let w = b.w;
    let kx = g.int(0, w - 1);
    let mut wings: Vec<(usize, usize, usize, &'static str, char)> = Vec::new();
    if w >= 4 && kx + 3 < w {
        wings.push((w - 1, kx + 2, kx + 1, "O-O", 'K'));
    }
    if kx >= 3 {
        wings.push((0, kx - 2, kx - 1, "O-O-O", 'Q'));
    }
    if wings.is_empty() {
        return;
    }
    g.feature("castling");
    if g.chance(0.5) {
        g.feature("castling-from-position");
        placed.free_castling = Some((king, partner));
        placed.row_width = w;
    } else if g.chance(0.7) {
        g.feature("castling-by-drop");
        placed.by_drop = Some((king, partner));
    }
    for (pi, spec) in ctx.plan.players.iter().enumerate() {
        let row = if spec.side == Side::South { 0 } else { b.h - 1 };
        placed.armies[pi].push((king, (kx, row)));
        for &(px, kd, pd, notation, right) in &wings {
            let right = if pi == 0 { right } else { right.to_ascii_lowercase() };
            placed.armies[pi].push((partner, (px, row)));
            placed.castles.push(Castle {
                player: pi,
                right,
                notation,
                king: ((kx, row), (kd, row)),
                partner: ((px, row), (pd, row)),
            });
        }
    }
}

/// On cells that hold several pieces from the start, a second friendly piece joins one.
fn stack_some(g: &mut Gen, ctx: &Ctx, placed: &mut Placed) {
    if ctx.stack_cells.is_empty() || !g.chance(0.5) {
        return;
    }
    for army in &mut placed.armies {
        let on_stack: Vec<(usize, (usize, usize))> =
            army.iter().copied().filter(|(p, c)| ctx.stack_cells.contains(c) && !ctx.pieces[*p].royal).collect();
        if let Some(&(piece, cell)) = on_stack.first() {
            g.feature("stacked-setup");
            army.push((piece, cell));
        }
    }
}

/// The `castle` declarations.
pub(crate) fn castlings(ctx: &Ctx, placed: &Placed) -> String {
    let mut out = String::new();
    for c in &placed.castles {
        let n = |(x, y): (usize, usize)| Board::name(x, y);
        if let Some((king, partner)) = placed.free_castling {
            let row: Vec<String> = (0..placed.row_width).map(|x| n((x, c.king.0 .1))).collect();
            out.push_str(&format!(
                "castle \"{}\" {} right {} king {} -> {} partner {} -> {} from {}\n",
                c.notation,
                ctx.plan.players[c.player].name,
                c.right,
                ctx.pieces[king].name,
                n(c.king.1),
                ctx.pieces[partner].name,
                n(c.partner.1),
                row.join(" ")
            ));
            continue;
        }
        let by_drop = placed
            .by_drop
            .map(|(k, p)| format!(" gained-by-drop {} {}", ctx.pieces[k].name, ctx.pieces[p].name))
            .unwrap_or_default();
        out.push_str(&format!(
            "castle \"{}\" {} right {} king {} -> {} partner {} -> {}{by_drop}\n",
            c.notation,
            ctx.plan.players[c.player].name,
            c.right,
            n(c.king.0),
            n(c.king.1),
            n(c.partner.0),
            n(c.partner.1)
        ));
    }
    out
}

/// The `setup` block and any `choice`.
pub(crate) fn text(g: &mut Gen, ctx: &Ctx, placed: &Placed) -> String {
    let mut out = String::new();
    let mut rights: Vec<String> = placed.castles.iter().map(|c| c.right.to_string()).collect();
    let droppers: Vec<usize> = (0..ctx.pieces.len()).filter(|&i| ctx.pieces[i].drops_from_hand).collect();
    let hands = !droppers.is_empty() && g.chance(0.7);
    // A gate's letter could be a castling partner's file letter (`G`): no gates then.
    let file_letters = placed.free_castling.is_some() && placed.row_width > 6;
    if !file_letters && g.chance(if hands { 0.3 } else { 0.15 }) {
        // Gating: a piece's first move from these cells may put a piece from hand there;
        // without hands the rights only say which pieces have not moved (`if on-right`).
        g.feature(if hands { "gate" } else { "gate-rights" });
        for (pi, army) in placed.armies.iter().enumerate().take(2) {
            let cells: Vec<String> = army.iter().take(2).map(|&(_, (x, y))| Board::name(x, y)).collect();
            if !cells.is_empty() {
                let right = if pi == 0 { 'G' } else { 'g' };
                // Now and then a type the gate never places.
                let except = if hands && g.chance(0.5) {
                    g.feature("gate-except");
                    format!(" except {}", ctx.pieces[g.pick(&droppers)].name)
                } else {
                    String::new()
                };
                // Now and then the right is also lost to enemy pieces aiming at its cells.
                let aimed = if g.chance(0.4) {
                    g.feature("gate-aimed");
                    format!(" aimed-by {}", g.pick(&ctx.pieces).name)
                } else {
                    String::new()
                };
                out.push_str(&format!(
                    "gate {} right {right} at {}{except}{aimed}\n",
                    ctx.plan.players[pi].name,
                    cells.join(" ")
                ));
                rights.push(right.to_string());
            }
        }
    }
    let (shuffled, skip) =
        if placed.free_castling.is_some() && g.chance(0.75) { shuffle(g, ctx, placed) } else { Default::default() };
    out.push_str("setup {\n");
    for (pi, army) in placed.armies.iter().enumerate() {
        let items: Vec<String> = army
            .iter()
            .filter(|(_, c)| !skip.contains(c))
            .map(|&(p, (x, y))| format!("{} {}", ctx.pieces[p].name, Board::name(x, y)))
            .collect();
        if items.is_empty() {
            continue;
        }
        out.push_str(&format!("  {}: {}\n", ctx.plan.players[pi].name, items.join(", ")));
    }
    if hands {
        g.feature("hand");
        for p in &ctx.plan.players {
            let n = g.int(1, droppers.len());
            let items: Vec<String> =
                g.some(&droppers, n).iter().map(|&i| format!("{} {}", ctx.pieces[i].name, g.int(1, 2))).collect();
            out.push_str(&format!("  hand {}: {}\n", p.name, items.join(", ")));
        }
    }
    out.push_str(&shuffled);
    if !rights.is_empty() {
        out.push_str(&format!("  castling {}\n", rights.join(" ")));
    }
    out.push_str("}\n");
    if g.chance(0.1) {
        out.push_str(&choice(g, ctx, placed));
    }
    out
}

/// A `shuffle` of the castling king and partners over their cells and a few cells between them
/// (the same files for both players), in the order they stood (`R K R`), with other pieces on
/// the cells between, the first of those maybe limited to some cells. The cells it fills.
fn shuffle(g: &mut Gen, ctx: &Ctx, placed: &Placed) -> (String, BTreeSet<(usize, usize)>) {
    let Some((king, partner)) = placed.free_castling else { return (String::new(), BTreeSet::new()) };
    let rows: Vec<usize> =
        ctx.plan.players.iter().map(|s| if s.side == Side::South { 0 } else { ctx.board.h - 1 }).collect();
    let ours: Vec<&Castle> = placed.castles.iter().filter(|c| c.player == 0).collect();
    let mut order: Vec<(usize, usize)> = vec![(ours[0].king.0 .0, king)];
    order.extend(ours.iter().map(|c| (c.partner.0 .0, partner)));
    order.sort_unstable();
    let path: Vec<usize> = castle_path(placed, 0).into_iter().map(|(x, _)| x).collect();
    let others: Vec<usize> = (0..ctx.pieces.len()).filter(|&i| !ctx.pieces[i].royal).collect();
    let n = g.int(0, 2.min(path.len()));
    let extra = if others.is_empty() { Vec::new() } else { g.some(&path, n) };
    g.feature("shuffle");
    let mut files: Vec<usize> = order.iter().map(|(x, _)| *x).chain(extra.iter().copied()).collect();
    files.sort_unstable();
    let mut items = vec![order.iter().map(|(_, t)| ctx.pieces[*t].name).collect::<Vec<_>>().join(" ")];
    for (k, _) in extra.iter().enumerate() {
        let piece = ctx.pieces[g.pick(&others)].name;
        if k == 0 && g.chance(0.5) {
            let n = g.int(1, files.len());
            let on: Vec<String> = g.some(&files, n).iter().map(|&x| Board::name(x, rows[0])).collect();
            items.push(format!("{piece} on {}", on.join(" ")));
        } else {
            items.push(piece.to_string());
        }
    }
    let targets: Vec<String> = ctx
        .plan
        .players
        .iter()
        .zip(&rows)
        .map(|(s, &y)| {
            format!("{}: {}", s.name, files.iter().map(|&x| Board::name(x, y)).collect::<Vec<_>>().join(" "))
        })
        .collect();
    let cells = rows.iter().flat_map(|&y| files.iter().map(move |&x| (x, y))).collect();
    (format!("  shuffle {} {{ {} }}\n", targets.join("  "), items.join(", ")), cells)
}

/// A choice of two or three small armies, on home cells the setup leaves free.
fn choice(g: &mut Gen, ctx: &Ctx, placed: &Placed) -> String {
    let taken = placed.taken();
    let others: Vec<usize> = (0..ctx.pieces.len()).filter(|&i| !ctx.pieces[i].royal).collect();
    let mut options = Vec::new();
    for o in 0..g.int(2, 3) {
        let mut lines = Vec::new();
        for (pi, spec) in ctx.plan.players.iter().enumerate() {
            let free: Vec<(usize, usize)> = ctx
                .board
                .area(spec.side)
                .into_iter()
                .filter(|c| !taken.contains(c) && !castle_path(placed, pi).contains(c))
                .collect();
            if free.is_empty() {
                continue;
            }
            let n = g.int(1, 2.min(free.len()));
            let cells: Vec<String> = g.some(&free, n).iter().map(|&(x, y)| Board::name(x, y)).collect();
            lines.push(format!("{}: {} {}", spec.name, ctx.pieces[g.pick(&others)].name, cells.join(" ")));
        }
        if lines.is_empty() {
            return String::new();
        }
        options.push(format!("  option army{o} \"Army {o}\" {{ {} }}\n", lines.join("  ")));
    }
    g.feature("choice");
    format!("choice army {{\n{}}}\n", options.concat())
}
