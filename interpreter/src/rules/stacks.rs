//! Stacks and locations between cells compiled: the cells that hold stacks with their occupancy rules, the locations between cells with the cells they cover, and the rules of stacked cells that counting reads.

use crate::bitset::CellSet;
use crate::ir::CaptureRule;
use crate::ir::CellId;
use crate::ir::{Occupancy, PhaseId};
use crate::rules::Rules;

/// The cells' occupancy rules as masks while a set of phases is on (those of the phases that
/// change occupancy rules).
#[derive(Clone, Copy, Debug)]
pub(crate) struct StackRules {
    pub(crate) phases: u32,
    /// Cells whose lone piece is inert; of those, the ones it may be joined on.
    pub(crate) inert: u128,
    pub(crate) inert_joined: u128,
    /// Cells whose lone enemy piece a power that only moves may join.
    pub(crate) lone_joined: u128,
}

impl StackRules {
    /// The masks for every set of the phases that change occupancy rules (none past four such
    /// phases, or past 128 cells: the count does not read the board then).
    pub(crate) fn new(r: &Rules) -> Vec<StackRules> {
        let bits: Vec<u32> = (0..32).filter(|i| r.stacks.phases & 1 << i != 0).collect();
        if bits.len() > 4 || r.cells > 128 {
            return Vec::new();
        }
        (0..1u32 << bits.len())
            .map(|subset| {
                let phases =
                    bits.iter().enumerate().filter(|(k, _)| subset & 1 << k != 0).fold(0, |m, (_, b)| m | 1 << b);
                let mut s = StackRules { phases, inert: 0, inert_joined: 0, lone_joined: 0 };
                for c in 0..r.cells {
                    let rule = r.occupancy(CellId(c as u16), phases);
                    let two = rule.capacity.is_none_or(|k| k >= 2);
                    if rule.lone_inert && r.stacks.inert_cells.contains(CellId(c as u16)) {
                        s.inert |= 1 << c;
                        if two {
                            s.inert_joined |= 1 << c;
                        }
                    }
                    if rule.join_enemy_by_move && two {
                        s.lone_joined |= 1 << c;
                    }
                }
                s
            })
            .collect()
    }

    /// The most pieces one capture may take: one, or where some cell's capture takes every
    /// enemy piece, as many as a cell may hold.
    pub(crate) fn most_taken(r: &Rules) -> u32 {
        let all = r.variant.zones.iter().any(|z| {
            z.occupancy.iter().chain(z.phase_occupancy.iter().map(|(_, o)| o)).any(|o| o.capture == CaptureRule::All)
        });
        if !all {
            return 1;
        }
        (0..r.cells).map(|c| r.most_pieces(CellId(c as u16)).map_or(r.cells as u32, u32::from)).max().unwrap_or(1)
    }
}

/// Cells that hold stacks (zones with occupancy rules).
#[derive(Debug)]
pub(crate) struct Stacks {
    /// Some cells hold stacks (a zone has occupancy rules): the stack-aware paths are used.
    pub(crate) on: bool,
    /// Per cell: 0 for a plain cell, else 1 + index into `occupancies`.
    pub(crate) kind: Vec<u8>,
    /// Occupancy rules of each zone that has them: base rules and phase overrides.
    pub(crate) occupancies: Vec<(Occupancy, Vec<(PhaseId, Occupancy)>)>,
    /// Cells that are `lone-inert` in some phase.
    pub(crate) inert_cells: CellSet,
    /// Phases that change some cell's occupancy rules.
    pub(crate) phases: u32,
    /// Those phases begin only on a change of the piece count (so only captures start them).
    pub(crate) phases_on_capture: bool,
}

/// Locations between cells (a piece there covers several cells).
#[derive(Debug, Default)]
pub(crate) struct Between {
    /// Some locations stand between cells: the covering paths are used.
    pub(crate) on: bool,
    /// Per cell: it is a location between cells.
    pub(crate) cells: Vec<bool>,
    /// Per location between cells, the cells it covers in one fixed array (the first repeated
    /// to fill it): the walks test them without following the board's lists. Empty where no
    /// location stands between cells or one covers more than four.
    pub(crate) covers: Vec<[CellId; 4]>,
}
