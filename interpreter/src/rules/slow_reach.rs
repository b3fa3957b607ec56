//! Slow pieces by the cells their rays hold: the origins an attack test looks at instead of walking every slow piece.

use crate::ir::CellId;
use crate::ir::MoveMode;
use crate::ir::PieceTypeId;
use crate::ir::PlayerId;
use crate::rules::Rules;
use crate::tables::EntryKind;

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

impl SlowReach {
    pub(crate) fn new(r: &Rules) -> Option<SlowReach> {
        if !r.paths.allows(crate::paths::Path::SlowReach) {
            return None;
        }
        let mut per_cell: Vec<Vec<(CellId, PieceTypeId, u32)>> = vec![Vec::new(); r.players * r.cells];
        let mut total = 0;
        for p in 0..r.players {
            for t in (0..r.types).filter(|t| r.tables.slow_types[*t]) {
                for origin in 0..r.cells {
                    let (from, ty) = (CellId(origin as u16), PieceTypeId(t as u8));
                    let (a, b, _) = r.entries_for(PlayerId(p as u8), ty, from);
                    for (k, e) in r.tables.entries[a..b].iter().enumerate() {
                        if e.mode == MoveMode::MoveOnly {
                            continue;
                        }
                        let ray = &r.tables.ray_cells[e.start as usize..e.start as usize + e.len as usize];
                        let targets = if e.kind == EntryKind::Lame { &ray[ray.len() - 1..] } else { ray };
                        for c in targets {
                            per_cell[p * r.cells + c.0 as usize].push((from, ty, (a + k) as u32));
                            total += 1;
                            if total > SLOW_REACH_LIMIT {
                                return None;
                            }
                        }
                    }
                }
            }
        }
        let mut index = vec![0];
        let mut items = Vec::with_capacity(total);
        for list in per_cell {
            items.extend(list);
            index.push(items.len() as u32);
        }
        Some(SlowReach { index, items })
    }
}
