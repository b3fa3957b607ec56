//! Square play compiled: squares as game objects (owned, moved, carried, removed) and turns of several actions, with the rays square moves walk.

use crate::graph::Graph;
use crate::ir::CellId;
use crate::ir::DirId;
use crate::ir::Geometry;
use crate::ir::PlayerId;
use crate::ir::Variant;
use crate::ir::{ActionKind, TurnAction};

/// Rays per (player, cell) for the moves of squares: each ray is walked through locations
/// without a square, every one of them a target.
#[derive(Debug, Default)]
pub(crate) struct RayTable {
    /// Per (player, cell): range into `rays`.
    pub(crate) index: Vec<u32>,
    /// (start, len) into `cells`.
    pub(crate) rays: Vec<(u32, u16)>,
    pub(crate) cells: Vec<CellId>,
    /// Per (player, cell), on boards of up to 128 cells where every ray is one cell (leaps):
    /// the targets as one mask (empty otherwise).
    pub(crate) leaps: Vec<u128>,
}

impl RayTable {
    pub(crate) fn build(variant: &Variant, graph: &Graph, geometries: &[Geometry]) -> RayTable {
        let mut t = RayTable { index: vec![0], ..RayTable::default() };
        for p in &variant.players {
            let map = &p.direction_map;
            for c in 0..graph.cell_count() {
                let cell = CellId(c as u16);
                let mut rays: Vec<Vec<CellId>> = Vec::new();
                for g in geometries {
                    match g {
                        Geometry::Slide { dirs, max } => {
                            let max = max.map(|m| m as usize).unwrap_or(usize::MAX);
                            for d in dirs {
                                rays.extend(graph.rays(cell, map[d.0 as usize], max, false));
                            }
                        }
                        Geometry::Leap { paths } => {
                            for path in paths {
                                let mapped: Vec<DirId> = path.iter().map(|d| map[d.0 as usize]).collect();
                                rays.extend(graph.follow(cell, &mapped, false).into_iter().map(|t| vec![t]));
                            }
                        }
                        Geometry::Hop { .. } => {}
                    }
                }
                let mut seen = Vec::new();
                for ray in rays {
                    if ray.len() == 1 && seen.contains(&ray[0]) {
                        continue;
                    }
                    if ray.len() == 1 {
                        seen.push(ray[0]);
                    }
                    t.rays.push((t.cells.len() as u32, ray.len() as u16));
                    t.cells.extend(ray);
                }
                t.index.push(t.rays.len() as u32);
            }
        }
        if graph.cell_count() <= 128 && t.rays.iter().all(|&(_, n)| n == 1) {
            t.leaps = t
                .index
                .windows(2)
                .map(|w| {
                    t.rays[w[0] as usize..w[1] as usize].iter().fold(0u128, |m, &(s, _)| m | 1 << t.cells[s as usize].0)
                })
                .collect();
        }
        t
    }

    /// The rays from a cell for a player.
    #[inline]
    pub(crate) fn rays(&self, cells: usize, player: PlayerId, cell: CellId) -> impl Iterator<Item = &[CellId]> + '_ {
        let i = player.0 as usize * cells + cell.0 as usize;
        self.rays[self.index[i] as usize..self.index[i + 1] as usize]
            .iter()
            .map(|&(s, n)| &self.cells[s as usize..s as usize + n as usize])
    }
}

/// Square play: squares as game objects, turns of several actions.
#[derive(Debug, Default)]
pub(crate) struct SquarePlay {
    /// Squares are game objects, or a turn has several actions: turns go by action slots.
    pub(crate) play: bool,
    /// Squares are owned by players.
    pub(crate) owned: bool,
    /// Squares pieces leave may be removed (so a piece leaving a cell can block a line there).
    pub(crate) vacates: bool,
    /// How empty squares move, and how squares carrying a piece move.
    pub(crate) moves: RayTable,
    pub(crate) carries: RayTable,
    /// The action slots of a turn.
    pub(crate) slots: Vec<TurnAction>,
}

impl SquarePlay {
    /// The square play of a variant (none, with one slot of a piece's move, for most games).
    pub(crate) fn new(variant: &Variant, graph: &Graph) -> SquarePlay {
        let slots = variant.turn.actions.clone();
        let play = variant.squares.is_some()
            || slots.len() > 1
            || slots.iter().any(|s| s.optional || s.kinds.iter().any(|k| *k != ActionKind::MovePiece));
        match &variant.squares {
            Some(sq) => SquarePlay {
                play,
                owned: sq.owned,
                vacates: sq.vacate.is_some(),
                moves: RayTable::build(variant, graph, &sq.moves),
                carries: RayTable::build(variant, graph, &sq.carries),
                slots,
            },
            None => SquarePlay { play, slots, ..SquarePlay::default() },
        }
    }
}
