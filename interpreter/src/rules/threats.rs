//! Threat tables: per target cell, the cells from which each attacker could capture there.

use crate::ir::CellId;

/// The cells between, where a cell is on two probes of the same player that pass different
/// cells before it.
pub(crate) const TWO_PROBES: u128 = !0;

/// The spans and the cells between, derived from the reverse probes once.
#[derive(Debug, Default)]
pub(crate) struct ThreatTables {
    /// Per (cell, piece code): the cells from which such a piece attacks the cell along a
    /// probe, the way clear (by cell first: one target's spans share a few cache lines).
    pub(crate) spans: Vec<u128>,
    /// Piece codes (no piece included).
    pub(crate) codes: usize,
    /// Per cell: the union of the spans of every code.
    pub(crate) any: Vec<u128>,
    /// Per (attacking player, cell, cell of an attacker): the cells the probe passes before
    /// the attacker's ([`TWO_PROBES`] where two probes pass there, each past other cells).
    pub(crate) between: Vec<u128>,
    /// The cells that may hold a stack: while none holds a piece, the board reads as one of
    /// single pieces.
    pub(crate) stackable: u128,
    /// No cell may hold a stack.
    pub(crate) exact: bool,
}

impl ThreatTables {
    /// Whether the tables were built and read the board at all times (no stacks).
    #[inline(always)]
    pub(crate) fn built(&self) -> bool {
        self.exact && !self.any.is_empty()
    }

    /// Whether the tables were built on a board of stacks (read off the stack cells).
    #[inline(always)]
    pub(crate) fn for_stacks(&self) -> bool {
        !self.exact && !self.any.is_empty()
    }

    /// Whether a cell may hold a stack.
    #[inline(always)]
    pub(crate) fn stackable(&self, cell: CellId) -> bool {
        self.stackable >> (cell.0 & 127) & 1 != 0
    }

    /// The cells of `all` whose contents the tables cannot read: those that may hold a stack.
    #[inline(always)]
    pub(crate) fn unsure(&self, all: u128) -> u128 {
        all & self.stackable
    }
}
