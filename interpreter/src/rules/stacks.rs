//! The compiled rules of stacked cells that counting reads: occupancy limits and capture rules per cell.

use crate::ir::CaptureRule;
use crate::ir::CellId;
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
        let bits: Vec<u32> = (0..32).filter(|i| r.occupancy_phases & 1 << i != 0).collect();
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
                    if rule.lone_inert && r.inert_cells.contains(CellId(c as u16)) {
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
