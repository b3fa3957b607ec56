//! Slow pieces by the cells their rays hold: the origins an attack test looks at instead of walking every slow piece.

use crate::ir::CellId;
use crate::ir::PieceTypeId;

/// The entries of slow pieces (hops, lame leaps, conditional captures) by the cells their rays
/// hold, so that an attack test looks only at the origins that could reach the cell instead of
/// walking every slow piece of the attacker.
#[derive(Debug)]
pub(crate) struct SlowReach {
    /// Per (attacking player, cell): range into `items`.
    pub(crate) index: Vec<u32>,
    /// (origin cell, piece type, entry index).
    pub(crate) items: Vec<(CellId, PieceTypeId, u32)>,
}

/// The largest index built: beyond it (long rays on huge boards) the pieces are walked.
pub(crate) const SLOW_REACH_LIMIT: usize = 1 << 21;
