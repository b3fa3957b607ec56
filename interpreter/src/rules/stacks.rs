//! Stacks and locations between cells compiled: the cells that hold stacks with their occupancy rules, the locations between cells with the cells they cover, and the rules of stacked cells that counting reads.

use crate::bitset::CellSet;
use crate::ir::CellId;
use crate::ir::{Occupancy, PhaseId};

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
