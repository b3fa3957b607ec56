//! The board's geometry as the evaluation reads it: steps between cells, their mean from each cell, the rim, and the lines from a cell along each direction.

use crate::ir::{CellId, DirId};
use crate::rules::Rules;

/// Distances between cells for the cornering term: in steps along any direction of the board.
#[derive(Clone, Debug)]
pub(super) struct Cornering {
    pub(super) cells: usize,
    /// Per pair of cells (row-major): steps between them (`u8::MAX`: unreachable or far).
    pub(super) steps: Vec<u8>,
    /// Per cell: steps to the nearest rim cell (one with fewer neighbours than the most any
    /// cell has), and the largest of these.
    pub(super) rim: Vec<u8>,
    pub(super) deepest: u8,
    /// The most steps between two connected cells (capped at 254).
    pub(super) diameter: u8,
}

impl Cornering {
    /// Larger boards get no cornering term (the table is quadratic).
    pub(super) const MAX_CELLS: usize = 1024;

    pub(super) fn new(rules: &Rules) -> Option<Cornering> {
        let n = rules.cell_count();
        if n > Cornering::MAX_CELLS || n == 0 {
            return None;
        }
        let mut steps = vec![u8::MAX; n * n];
        let mut dist = vec![u32::MAX; n];
        let mut queue = Vec::with_capacity(n);
        for c in 0..n {
            step_distances(rules, CellId(c as u16), &mut dist, &mut queue);
            for &t in &queue {
                steps[c * n + t.0 as usize] = dist[t.0 as usize].min(254) as u8;
            }
        }
        let neighbours: Vec<usize> = (0..n).map(|c| (0..n).filter(|&t| steps[c * n + t] == 1).count()).collect();
        let most = neighbours.iter().copied().max().unwrap_or(0);
        let rim: Vec<u8> = (0..n)
            .map(|c| (0..n).filter(|&t| neighbours[t] < most).map(|t| steps[c * n + t]).min().unwrap_or(0))
            .collect();
        let reachable = |x: &&u8| **x != u8::MAX;
        let deepest = rim.iter().filter(reachable).copied().max().unwrap_or(0);
        let diameter = steps.iter().filter(reachable).copied().max().unwrap_or(0);
        Some(Cornering { cells: n, steps, rim, deepest, diameter })
    }
}

/// Fills `dist` with the steps (along any direction of the board) from `from` to each cell,
/// and `queue` with the cells reached, nearest first.
pub(super) fn step_distances(rules: &Rules, from: CellId, dist: &mut [u32], queue: &mut Vec<CellId>) {
    let dirs = rules.variant.board.directions.len();
    dist.iter_mut().for_each(|d| *d = u32::MAX);
    queue.clear();
    dist[from.0 as usize] = 0;
    queue.push(from);
    let mut head = 0;
    while head < queue.len() {
        let at = queue[head];
        head += 1;
        for d in 0..dirs {
            for &t in rules.graph.step(at, DirId(d as u8)) {
                if dist[t.0 as usize] == u32::MAX {
                    dist[t.0 as usize] = dist[at.0 as usize] + 1;
                    queue.push(t);
                }
            }
        }
    }
}

/// The lines from a cell: per direction of the board, the cells reached by stepping on (the
/// first target where a step branches), nearest first, stopping before a cell seen twice.
pub(super) fn lines_from(rules: &Rules, from: CellId) -> Vec<Vec<CellId>> {
    let mut out = Vec::new();
    for d in 0..rules.variant.board.directions.len() {
        let mut line = Vec::new();
        let mut at = from;
        while let Some(&next) = rules.graph.step(at, DirId(d as u8)).first() {
            if next == from || line.contains(&next) {
                break;
            }
            line.push(next);
            at = next;
        }
        if !line.is_empty() {
            out.push(line);
        }
    }
    out
}

/// Per cell: the mean number of steps (along any direction of the board) to the cells it can
/// reach; `None` for a cell linked to nothing.
pub(super) fn mean_distances(rules: &Rules) -> Vec<Option<f64>> {
    let n = rules.cell_count();
    // Boards beyond a few thousand cells would make this quadratic pass slow: no centre term.
    if n > 4096 {
        return vec![None; n];
    }
    let mut out = vec![None; n];
    let mut dist = vec![u32::MAX; n];
    let mut queue = Vec::with_capacity(n);
    for (c, slot) in out.iter_mut().enumerate() {
        step_distances(rules, CellId(c as u16), &mut dist, &mut queue);
        if queue.len() > 1 {
            let total: u64 = queue.iter().map(|t| dist[t.0 as usize] as u64).sum();
            *slot = Some(total as f64 / (queue.len() - 1) as f64);
        }
    }
    out
}
