//! The compiled board graph: neighbour lists per cell and direction, forwards and backwards.

use crate::ir::{Board, CellId, DirId};

/// Neighbour tables derived from the IR's links, flat and allocation-free to query.
#[derive(Clone, Debug)]
pub struct Graph {
    cells: usize,
    dirs: usize,
    /// `index[cell * dirs + dir]..index[cell * dirs + dir + 1]` slices `targets`.
    index: Vec<u32>,
    targets: Vec<CellId>,
    rev_index: Vec<u32>,
    rev_targets: Vec<CellId>,
}

impl Graph {
    /// Builds the tables from the IR board; links keep their declaration order.
    pub fn new(board: &Board) -> Graph {
        let cells = board.cells.len();
        let dirs = board.directions.len().max(1);
        let build = |reverse: bool| {
            let mut lists: Vec<Vec<CellId>> = vec![Vec::new(); cells * dirs];
            for link in &board.links {
                let (a, b) = if reverse { (link.to, link.from) } else { (link.from, link.to) };
                let slot = &mut lists[a.0 as usize * dirs + link.dir.0 as usize];
                if !slot.contains(&b) {
                    slot.push(b);
                }
            }
            let mut index = Vec::with_capacity(lists.len() + 1);
            let mut targets = Vec::new();
            index.push(0);
            for list in lists {
                targets.extend(list);
                index.push(targets.len() as u32);
            }
            (index, targets)
        };
        let (index, targets) = build(false);
        let (rev_index, rev_targets) = build(true);
        Graph { cells, dirs, index, targets, rev_index, rev_targets }
    }

    /// Number of cells.
    pub fn cell_count(&self) -> usize {
        self.cells
    }

    /// The cells one step from `cell` in `dir` (usually zero or one; more where rays branch).
    pub fn step(&self, cell: CellId, dir: DirId) -> &[CellId] {
        let i = cell.0 as usize * self.dirs + dir.0 as usize;
        &self.targets[self.index[i] as usize..self.index[i + 1] as usize]
    }

    /// The cells within `d` steps of `cell` along any direction (the cell itself included).
    pub fn within(&self, cell: CellId, d: usize) -> crate::bitset::CellSet {
        let mut seen = crate::bitset::CellSet::new(self.cells);
        seen.insert(cell);
        let mut frontier = vec![cell];
        for _ in 0..d {
            let mut next = Vec::new();
            for c in frontier {
                for dir in 0..self.dirs {
                    for &t in self.step(c, DirId(dir as u8)) {
                        if !seen.contains(t) {
                            seen.insert(t);
                            next.push(t);
                        }
                    }
                }
            }
            frontier = next;
        }
        seen
    }

    /// The cells from which one step in `dir` reaches `cell`.
    pub fn step_back(&self, cell: CellId, dir: DirId) -> &[CellId] {
        let i = cell.0 as usize * self.dirs + dir.0 as usize;
        &self.rev_targets[self.rev_index[i] as usize..self.rev_index[i + 1] as usize]
    }

    /// Every ray from `cell` along `dir`, at most `max` cells long, as cell lists. A branching
    /// graph gives one ray per branch; a ray stops before revisiting a cell so cycles end.
    pub fn rays(&self, cell: CellId, dir: DirId, max: usize, backwards: bool) -> Vec<Vec<CellId>> {
        let mut out = Vec::new();
        let mut path = Vec::new();
        self.walk(cell, dir, max, backwards, &mut path, &mut out, cell);
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        at: CellId,
        dir: DirId,
        max: usize,
        backwards: bool,
        path: &mut Vec<CellId>,
        out: &mut Vec<Vec<CellId>>,
        origin: CellId,
    ) {
        let next = if backwards { self.step_back(at, dir) } else { self.step(at, dir) };
        let next: Vec<CellId> = next.iter().copied().filter(|c| *c != origin && !path.contains(c)).collect();
        if path.len() >= max || next.is_empty() {
            if !path.is_empty() {
                out.push(path.clone());
            }
            return;
        }
        for n in next {
            path.push(n);
            self.walk(n, dir, max, backwards, path, out, origin);
            path.pop();
        }
    }

    /// The end cells of a path of directions from `cell` (several where the graph branches).
    pub fn follow(&self, cell: CellId, path: &[DirId], backwards: bool) -> Vec<CellId> {
        let mut here = vec![cell];
        let steps: Vec<DirId> = if backwards { path.iter().rev().copied().collect() } else { path.to_vec() };
        for d in steps {
            let mut next = Vec::new();
            for c in &here {
                let s = if backwards { self.step_back(*c, d) } else { self.step(*c, d) };
                for n in s {
                    if !next.contains(n) {
                        next.push(*n);
                    }
                }
            }
            here = next;
        }
        here.retain(|c| *c != cell);
        here
    }
}
