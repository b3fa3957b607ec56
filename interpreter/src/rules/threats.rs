//! Threat tables: per target cell, the cells from which each attacker could capture there.

use crate::ir::CellId;
use crate::ir::PieceTypeId;
use crate::rules::Rules;

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
    /// The tables of a board of at most 128 cells (empty otherwise, or where a probe leaves
    /// the first 128 cells).
    pub(crate) fn new(r: &Rules) -> ThreatTables {
        // On a board of stacks, they read the board while no cell that may hold a stack holds a
        // piece: not built where every cell may.
        let stackable = (0..r.cells).filter(|c| r.stacks.kind[*c] != 0).fold(0u128, |m, c| m | 1 << (c & 127));
        if r.cells > 128
            || r.tables.probe_cells.iter().any(|c| c.0 >= 128)
            || (r.stacks.on && stackable.count_ones() as usize >= r.cells)
        {
            return ThreatTables::default();
        }
        let codes = r.players * r.types + 1;
        let mut spans = vec![0u128; codes * r.cells];
        let mut between = vec![0u128; r.players * r.cells * r.cells];
        let mut seen = vec![false; r.players * r.cells * r.cells];
        for p in 0..r.players {
            for cell in 0..r.cells {
                let i = p * r.cells + cell;
                for probe in &r.tables.probes[r.tables.probe_index[i] as usize..r.tables.probe_index[i + 1] as usize] {
                    let mut passed = 0u128;
                    for k in probe.start as usize..probe.start as usize + probe.len as usize {
                        let c = r.tables.probe_cells[k].0 as usize;
                        let at = i * r.cells + c;
                        // Two probes that pass the same cells before this one (a step and a
                        // ride the same way) see the same piece first: one answer.
                        between[at] = if seen[at] && between[at] != passed { TWO_PROBES } else { passed };
                        seen[at] = true;
                        for ty in 0..r.types {
                            if r.probe_has(k, PieceTypeId(ty as u8)) {
                                spans[cell * codes + 1 + ty * r.players + p] |= 1 << c;
                            }
                        }
                        passed |= 1 << c;
                    }
                }
            }
        }
        let any = spans.chunks(codes).map(|s| s.iter().fold(0, |m, span| m | span)).collect();
        ThreatTables { spans, codes, any, between, stackable, exact: !r.stacks.on }
    }

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
