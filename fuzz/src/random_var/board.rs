//! The random board: grid sizes, removed cells, holes, links, extra directions, layers, `between`.

use std::collections::BTreeSet;

use super::{Gen, Plan, Side};

/// The compass directions and their opposites.
pub(crate) const COMPASS: [(&str, &str, i32, i32); 8] = [
    ("n", "s", 0, 1),
    ("ne", "sw", 1, 1),
    ("e", "w", 1, 0),
    ("se", "nw", 1, -1),
    ("s", "n", 0, -1),
    ("sw", "ne", -1, -1),
    ("w", "e", -1, 0),
    ("nw", "se", -1, 1),
];

/// The board as the rest of the generator needs it: which cells exist and may hold a piece,
/// and the extra names it declares.
#[derive(Clone, Debug)]
pub(crate) struct Board {
    pub w: usize,
    pub h: usize,
    pub text: String,
    pub removed: BTreeSet<(usize, usize)>,
    pub holes: BTreeSet<(usize, usize)>,
    /// Declared directions that have links (usable in powers and programs).
    pub extra_dirs: Vec<&'static str>,
    /// Declared direction sets.
    pub sets: Vec<&'static str>,
    /// How many players stand on the edges (2: south and north; 3-4: west and east too).
    pub sides: usize,
}

impl Board {
    pub(crate) fn name(x: usize, y: usize) -> String {
        format!("{}{}", (b'a' + x as u8) as char, y + 1)
    }

    pub(crate) fn exists(&self, x: usize, y: usize) -> bool {
        x < self.w && y < self.h && !self.removed.contains(&(x, y))
    }

    /// The cell exists and has a square (a piece may stand there).
    pub(crate) fn standable(&self, x: usize, y: usize) -> bool {
        self.exists(x, y) && !self.holes.contains(&(x, y))
    }

    /// The player's home cells, in rows from its edge outwards.
    pub(crate) fn area_cells(&self, side: Side) -> Vec<(usize, usize)> {
        let (w, h) = (self.w, self.h);
        let side_rows = |y: usize| y >= 2 && y + 2 < h;
        let mut out = Vec::new();
        match side {
            Side::South => (0..2).for_each(|y| (0..w).for_each(|x| out.push((x, y)))),
            Side::North => (0..2).for_each(|d| (0..w).for_each(|x| out.push((x, h - 1 - d)))),
            Side::West => (0..2).for_each(|x| (0..h).filter(|&y| side_rows(y)).for_each(|y| out.push((x, y)))),
            Side::East => (0..2).for_each(|d| (0..h).filter(|&y| side_rows(y)).for_each(|y| out.push((w - 1 - d, y)))),
        }
        out
    }

    /// The cells of the player's area that may hold a piece.
    pub(crate) fn area(&self, side: Side) -> Vec<(usize, usize)> {
        self.area_cells(side).into_iter().filter(|&(x, y)| self.standable(x, y)).collect()
    }

    /// Cells in no player's area: free for holes, removals and unlinks.
    pub(crate) fn middle(&self) -> Vec<(usize, usize)> {
        let mut sides = vec![Side::South, Side::North];
        if self.sides > 2 {
            sides.extend([Side::West, Side::East]);
        }
        let home: BTreeSet<(usize, usize)> = sides.iter().flat_map(|&s| self.area_cells(s)).collect();
        (0..self.h).flat_map(|y| (0..self.w).map(move |x| (x, y))).filter(|c| !home.contains(c)).collect()
    }
}

/// A random board for the plan.
pub(crate) fn generate(g: &mut Gen, plan: &Plan) -> Board {
    let sides = plan.players.len();
    let (w, h) = loop {
        let (lo, hi) = if sides > 2 { (6, 9) } else { (4, 9) };
        let (w, h) = (g.int(lo, hi), g.int(lo, hi));
        // Mostly 16 to 64 cells, now and then up to about a hundred.
        if w * h <= 64 || (w * h <= 100 && g.chance(0.25)) {
            break (w, h);
        }
    };
    let mut b = Board {
        w,
        h,
        text: String::new(),
        removed: BTreeSet::new(),
        holes: BTreeSet::new(),
        extra_dirs: Vec::new(),
        sets: Vec::new(),
        sides,
    };
    let mut lines = vec![format!("grid {w} x {h}")];
    remove_cells(g, plan, &mut b, &mut lines);
    holes(g, plan, &mut b, &mut lines);
    if g.chance(0.15) {
        layer(g, &mut b, &mut lines);
    }
    if g.chance(0.15) {
        extra_cell(g, &mut b, &mut lines);
    }
    links(g, &mut b, &mut lines);
    if g.chance(0.2) {
        g.feature("direction-set");
        lines.push("directions forward = n ne nw".into());
        lines.push("directions sideways = e w".into());
        b.sets.extend(["forward", "sideways"]);
    }
    if plan.between {
        g.feature("between");
        let dirs = g.pick(&["orthogonal", "all", "diagonal", "n s"]);
        lines.push(format!("between {dirs}"));
    }
    b.text = format!("board {{\n  {}\n}}\n\n", lines.join("\n  "));
    b
}

fn remove_cells(g: &mut Gen, plan: &Plan, b: &mut Board, lines: &mut Vec<String>) {
    let mut cut = Vec::new();
    if !plan.castling && b.sides == 2 && g.chance(0.15) {
        let corners = [(0, 0), (b.w - 1, 0), (0, b.h - 1), (b.w - 1, b.h - 1)];
        let n = g.int(1, 2);
        cut.extend(g.some(&corners, n));
    }
    let middle = b.middle();
    if !middle.is_empty() && g.chance(0.2) {
        let n = g.int(1, 3.min(middle.len()));
        cut.extend(g.some(&middle, n));
    }
    if cut.is_empty() {
        return;
    }
    g.feature("remove");
    b.removed.extend(cut.iter().copied());
    let names: Vec<String> = cut.iter().map(|&(x, y)| Board::name(x, y)).collect();
    lines.push(format!("remove {}", names.join(" ")));
}

fn holes(g: &mut Gen, plan: &Plan, b: &mut Board, lines: &mut Vec<String>) {
    let middle: Vec<(usize, usize)> = b.middle().into_iter().filter(|&(x, y)| b.exists(x, y)).collect();
    if middle.is_empty() {
        return;
    }
    // Squares move only onto locations without a square: give them room.
    let n = if plan.squares {
        g.int(middle.len().div_ceil(3), middle.len())
    } else if g.chance(0.22) {
        g.int(1, 4.min(middle.len()))
    } else {
        0
    };
    if n == 0 {
        return;
    }
    g.feature("no-square");
    let cells = g.some(&middle, n);
    b.holes.extend(cells.iter().copied());
    let names: Vec<String> = cells.iter().map(|&(x, y)| Board::name(x, y)).collect();
    lines.push(format!("no-square {}", names.join(" ")));
}

/// A second, small grid on layer 1, joined by declared or offset directions.
fn layer(g: &mut Gen, b: &mut Board, lines: &mut Vec<String>) {
    g.feature("grid-layers");
    let (lw, lh) = (g.int(2, 3), g.int(2, 3));
    lines.push(format!("grid {lw} x {lh} prefix \"X\" layer 1"));
    if g.chance(0.5) {
        g.feature("direction-offset");
        lines.push("direction up offset 0 0 1".into());
        lines.push("direction down offset 0 0 -1".into());
    } else {
        g.feature("direction");
        g.feature("link");
        lines.push("direction up down".into());
        let mut pairs = Vec::new();
        for _ in 0..g.int(1, 3) {
            let (x, y) = (g.int(0, b.w - 1), g.int(0, b.h - 1));
            let (lx, ly) = (g.int(0, lw - 1), g.int(0, lh - 1));
            if b.exists(x, y) && !pairs.contains(&(x, y)) {
                pairs.push((x, y));
                let (from, to) = (Board::name(x, y), format!("X{}", Board::name(lx, ly)));
                lines.push(format!("link {from} up {to}"));
                lines.push(format!("link {to} down {from}"));
            }
        }
        if pairs.is_empty() {
            lines.push(format!("link {} up Xa1", first_cell(b)));
            lines.push(format!("link Xa1 down {}", first_cell(b)));
        }
    }
    b.extra_dirs.extend(["up", "down"]);
}

fn first_cell(b: &Board) -> String {
    let (x, y) = (0..b.h).flat_map(|y| (0..b.w).map(move |x| (x, y))).find(|&(x, y)| b.exists(x, y)).expect("a cell");
    Board::name(x, y)
}

/// A lone cell beside the grid, joined to the east edge.
fn extra_cell(g: &mut Gen, b: &mut Board, lines: &mut Vec<String>) {
    let y = g.int(0, b.h - 1);
    if !b.exists(b.w - 1, y) {
        return;
    }
    g.feature("cell");
    g.feature("link");
    let edge = Board::name(b.w - 1, y);
    lines.push(format!("cell annex at {} {y}", b.w));
    lines.push(format!("link {edge} e annex"));
    lines.push(format!("link annex w {edge}"));
}

/// Wrap-around links, unlinked walls and a declared direction with links of its own.
fn links(g: &mut Gen, b: &mut Board, lines: &mut Vec<String>) {
    if g.chance(0.15) {
        // A cylinder row: leaving the west edge enters the east edge, and back.
        let y = g.int(0, b.h - 1);
        if b.exists(0, y) && b.exists(b.w - 1, y) {
            g.feature("link");
            let (west, east) = (Board::name(0, y), Board::name(b.w - 1, y));
            lines.push(format!("link {west} w {east}"));
            lines.push(format!("link {east} e {west}"));
        }
    }
    let middle = b.middle();
    if !middle.is_empty() && g.chance(0.15) {
        let mut walls = Vec::new();
        for _ in 0..g.int(1, 3) {
            let (x, y) = g.pick(&middle);
            let (d, _, dx, dy) = g.pick(&COMPASS);
            let (nx, ny) = (x as i32 + dx, y as i32 + dy);
            // Each link once: a second `unlink` of it would find none.
            if b.exists(x, y) && nx >= 0 && ny >= 0 && b.exists(nx as usize, ny as usize) && !walls.contains(&(x, y, d))
            {
                walls.push((x, y, d));
                g.feature("unlink");
                lines.push(format!("unlink {} {d}", Board::name(x, y)));
            }
        }
    }
    if g.chance(0.12) {
        g.feature("direction");
        g.feature("link");
        lines.push("direction warp".into());
        for _ in 0..g.int(1, 4) {
            let (x1, y1, x2, y2) = (g.int(0, b.w - 1), g.int(0, b.h - 1), g.int(0, b.w - 1), g.int(0, b.h - 1));
            if b.exists(x1, y1) && b.exists(x2, y2) && (x1, y1) != (x2, y2) {
                lines.push(format!("link {} warp {}", Board::name(x1, y1), Board::name(x2, y2)));
            }
        }
        b.extra_dirs.push("warp");
    }
    if g.chance(0.1) {
        g.feature("direction-offset");
        lines.push("direction skip offset 0 2 0".into());
        b.extra_dirs.push("skip");
    }
}
