//! Bounds on the size of a variant, checked by every lowering (with a located error) before
//! `Rules::new`, so that compiling and playing any accepted text stays cheap.
//!
//! The cost of compiling a variant is dominated by its ray tables: for every player, piece type,
//! cell and move power, the cells each ray from that cell passes (and, for capturing powers, the
//! same walked backwards for the attack probes). [`compile_work`] counts them exactly as the
//! tables would hold them (a ray branches where a cell has several neighbours in one direction,
//! and stops before a cell it has visited) and gives up as soon as the count passes
//! [`MAX_COMPILE_WORK`], so the count itself costs at most that many steps.

use crate::ir::{Board, CellId, DirId, Geometry, MoveMode, Variant};

/// Most cells (locations, between locations included) a board may have.
pub const MAX_CELLS: usize = 10_000;

/// Most ray cells the compiled tables of a variant may hold (see [`compile_work`]); chess
/// needs about 10,000, the largest bundled variant and Zillions game far less than this.
pub const MAX_COMPILE_WORK: u64 = 4_000_000;

// Limits on what a variant declares; the lowerings report each with a located error naming
// the limit (docs/language.md lists them).

/// Piece types (type ids are bytes, and 255 marks "no promotion").
pub const PIECE_TYPES: usize = 255;
/// Most players a game may have, neutral ones included: real Zillions files declare up to 12
/// (two who move and ten neutral colours). Position strings give each player a prefix letter,
/// and the players out of the game are the bits of a 32-bit word.
pub const PLAYERS: usize = 16;
/// Piece attributes (a piece's attributes are the bits of one 64-bit word).
pub const ATTRIBUTES: usize = 64;
/// Flags of a running program (the bits of one 64-bit word).
pub const FLAGS: usize = 64;
/// Move types (255 marks "no move type").
pub const MOVE_TYPES: usize = 255;
/// Move programs or drop programs of one piece type (a move names its program in 16 bits).
pub const PROGRAMS_PER_PIECE: usize = 65_535;
/// Phases and castlings (each a bit of a 32-bit set).
pub const PHASES: usize = 32;
/// Steps one run of a move program may take (one run: from one start cell, or one cell of a
/// drop), whatever the board's size or the program's length ...
pub const PROGRAM_STEPS: u32 = 4096;
/// ... and this many more for each move the run has produced, so that a generation costs at
/// most a constant per run and per move produced. A run past its steps ends there, keeping the
/// moves it has produced (a looping program on a large board took seconds for one list).
pub const PROGRAM_STEPS_PER_MOVE: u32 = 256;
/// Most actions of one turn of partial moves: after its 32nd action the turn ends even where
/// the piece could go on (a man hopping to and fro would otherwise never hand the turn over).
/// The longest capture chain of draughts on 10x10 takes 20 pieces.
pub const TURN_PARTS: u8 = 32;

/// What pushed the compile work of a variant past [`MAX_COMPILE_WORK`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TooMuchWork {
    /// The powers of this piece type (index into `Variant::pieces`), added to those before it.
    Piece(usize),
    /// The moves and carries of squares.
    Squares,
}

/// The number of ray cells the compiled tables of `variant` hold, counting per player and per
/// cell: each piece type's moves forwards, its capturing moves backwards, one cell per piece
/// type and cell for the per-cell tables, and the moves and carries of squares. Stops with the
/// piece type (or the squares) that passes [`MAX_COMPILE_WORK`].
pub fn compile_work(variant: &Variant) -> Result<u64, TooMuchWork> {
    let walker = Walker::new(&variant.board);
    let cells = variant.board.cells.len();
    let mut work = 0u64;
    for (index, piece) in variant.pieces.iter().enumerate() {
        let budget = |work: u64| MAX_COMPILE_WORK.saturating_sub(work);
        for player in &variant.players {
            work = work.saturating_add(cells as u64);
            for rule in &piece.moves {
                let backwards = [false, rule.mode != MoveMode::MoveOnly];
                for back in backwards.into_iter().filter(|b| !*b || backwards[1]) {
                    let n = walker
                        .geometry(&rule.geometry, &player.direction_map, back, budget(work))
                        .ok_or(TooMuchWork::Piece(index))?;
                    work = work.saturating_add(n);
                }
            }
            if work > MAX_COMPILE_WORK {
                return Err(TooMuchWork::Piece(index));
            }
        }
    }
    if let Some(squares) = &variant.squares {
        for player in &variant.players {
            for geometry in squares.moves.iter().chain(&squares.carries) {
                let n = walker
                    .geometry(geometry, &player.direction_map, false, MAX_COMPILE_WORK.saturating_sub(work))
                    .ok_or(TooMuchWork::Squares)?;
                work = work.saturating_add(n);
            }
        }
    }
    Ok(work)
}

/// The board's links as neighbour lists per (cell, direction), both ways.
struct Walker {
    dirs: usize,
    forward: Vec<Vec<CellId>>,
    backward: Vec<Vec<CellId>>,
    cells: usize,
}

impl Walker {
    fn new(board: &Board) -> Walker {
        let cells = board.cells.len();
        let dirs = board.directions.len().max(1);
        let mut forward = vec![Vec::new(); cells * dirs];
        let mut backward = vec![Vec::new(); cells * dirs];
        for link in &board.links {
            let (from, to, d) = (link.from.0 as usize, link.to.0 as usize, link.dir.0 as usize);
            if from < cells && to < cells && d < dirs {
                forward[from * dirs + d].push(link.to);
                backward[to * dirs + d].push(link.from);
            }
        }
        Walker { dirs, forward, backward, cells }
    }

    fn next(&self, cell: CellId, dir: DirId, back: bool) -> &[CellId] {
        let table = if back { &self.backward } else { &self.forward };
        table.get(cell.0 as usize * self.dirs + dir.0 as usize).map_or(&[], Vec::as_slice)
    }

    /// The ray cells of one geometry from every cell, or `None` past `budget`.
    fn geometry(&self, geometry: &Geometry, map: &[DirId], back: bool, budget: u64) -> Option<u64> {
        let mapped = |d: &DirId| map.get(d.0 as usize).copied().unwrap_or(*d);
        let mut on_path = vec![false; self.cells];
        let mut total = 0u64;
        for c in 0..self.cells {
            let cell = CellId(c as u16);
            match geometry {
                Geometry::Slide { dirs, max } => {
                    let max = max.map_or(usize::MAX, usize::from);
                    for d in dirs {
                        let start = Start { cell, dir: mapped(d), max, back };
                        total += self.rays(&mut on_path, start, budget.checked_sub(total)?)?;
                    }
                }
                Geometry::Hop { dirs, .. } => {
                    for d in dirs {
                        let start = Start { cell, dir: mapped(d), max: usize::MAX, back };
                        total += self.rays(&mut on_path, start, budget.checked_sub(total)?)?;
                    }
                }
                Geometry::Leap { paths } => {
                    for path in paths {
                        let mut here = vec![cell];
                        for d in path {
                            let mut next = Vec::new();
                            for &h in &here {
                                for &n in self.next(h, mapped(d), back) {
                                    if !next.contains(&n) {
                                        next.push(n);
                                    }
                                }
                            }
                            total += next.len() as u64;
                            if total > budget {
                                return None;
                            }
                            here = next;
                        }
                    }
                }
            }
        }
        Some(total)
    }

    /// The cells of every ray from `cell` in direction `dir`, up to `max` cells, branching where
    /// the board branches and stopping before a visited cell; `None` past `budget`. A walk with
    /// an explicit stack: every cell it steps to lies on some ray it counts, so it costs at most
    /// `budget` steps. `on_path` is all `false` before and after.
    fn rays(&self, on_path: &mut [bool], start: Start, budget: u64) -> Option<u64> {
        let Start { cell, dir, max, back } = start;
        on_path[cell.0 as usize] = true;
        // (cell, index of the next neighbour to try; usize::MAX once counted as a ray's end)
        let mut stack: Vec<(CellId, usize)> = vec![(cell, 0)];
        let mut total = 0u64;
        while let Some(&(at, tried)) = stack.last() {
            let depth = stack.len() - 1;
            let next = self.next(at, dir, back);
            let mut tried = tried;
            if tried == 0 && (depth >= max || next.iter().all(|n| on_path[n.0 as usize])) {
                total += depth as u64;
                if total > budget {
                    for &(c, _) in &stack {
                        on_path[c.0 as usize] = false;
                    }
                    return None;
                }
                tried = usize::MAX;
            }
            let step = next.iter().enumerate().skip(tried).find(|(_, n)| !on_path[n.0 as usize]);
            match step {
                Some((i, &n)) => {
                    if let Some(top) = stack.last_mut() {
                        top.1 = i + 1;
                    }
                    on_path[n.0 as usize] = true;
                    stack.push((n, 0));
                }
                None => {
                    on_path[at.0 as usize] = false;
                    stack.pop();
                }
            }
        }
        Some(total)
    }
}

/// Where a walk of rays starts.
#[derive(Clone, Copy)]
struct Start {
    cell: CellId,
    dir: DirId,
    max: usize,
    back: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Graph;
    use crate::ir::{Cell, Link};

    /// A board whose rays branch and loop: cells 0..n in a ring in direction 0, every cell also
    /// linked two ahead, and cell 0 linked to every other cell in direction 1.
    fn tangled(n: u16) -> Board {
        let cell = |i: u16| Cell {
            name: format!("c{i}"),
            x: i32::from(i),
            y: 0,
            layer: 0,
            covers: Vec::new(),
            also_at: Vec::new(),
        };
        let mut links = Vec::new();
        for i in 0..n {
            links.push(Link { from: CellId(i), dir: DirId(0), to: CellId((i + 1) % n) });
            links.push(Link { from: CellId(i), dir: DirId(0), to: CellId((i + 2) % n) });
            if i > 0 {
                links.push(Link { from: CellId(0), dir: DirId(1), to: CellId(i) });
            }
        }
        Board {
            cells: (0..n).map(cell).collect(),
            directions: vec!["a".into(), "b".into()],
            direction_sets: Vec::new(),
            links,
            initially_empty_locations: Vec::new(),
        }
    }

    /// The walk with an explicit stack counts the cells of exactly the rays `Graph::rays` makes.
    #[test]
    fn ray_counts_agree_with_the_graph() {
        let board = tangled(9);
        let graph = Graph::new(&board);
        let walker = Walker::new(&board);
        let mut on_path = vec![false; 9];
        for c in 0..9 {
            for d in 0..2 {
                for max in [1, 2, 3, 5, usize::MAX] {
                    for back in [false, true] {
                        let expected: u64 =
                            graph.rays(CellId(c), DirId(d), max, back).iter().map(|r| r.len() as u64).sum();
                        let start = Start { cell: CellId(c), dir: DirId(d), max, back };
                        assert_eq!(walker.rays(&mut on_path, start, u64::MAX), Some(expected), "{c} {d} {max} {back}");
                        assert!(on_path.iter().all(|b| !b));
                        if expected > 0 {
                            assert_eq!(walker.rays(&mut on_path, start, expected - 1), None);
                            assert!(on_path.iter().all(|b| !b));
                        }
                    }
                }
            }
        }
    }
}
