//! Tables the royal terms read, derived once from the compiled rules: each piece's reach on an open board and the cells where castlings leave a royal.

use crate::bitset::CellSet;
use crate::ir::CellId;
use crate::rules::masks::Occupancy;
use crate::rules::{Piece, Rules};

/// [`Evaluator::empty_reach`]: per (piece code, cell), the targets of its slot with nothing
/// standing and every cell open to a capture.
pub(super) fn mask_reach(rules: &Rules) -> Vec<u128> {
    let masks = &rules.count.masks;
    let n = rules.cells;
    let codes = rules.player_count() * rules.variant.pieces.len() + 1;
    if !rules.count.applies || masks.fits.is_empty() || n > 128 || masks.slots.len() < codes * n {
        return Vec::new();
    }
    let open = Occupancy { all: 0u128, enemy: !0, land: !0, join: !0 };
    (0..codes * n).map(|i| masks.targets(masks.slot(Piece((i / n) as u16), CellId((i % n) as u16), n), open)).collect()
}

/// Per player: its castlings' rights bits and the cells where they leave its royal piece.
pub(super) fn castle_ends(rules: &Rules) -> Vec<(u32, CellSet)> {
    let mut out = vec![(0, CellSet::new(rules.cell_count())); rules.player_count()];
    for (i, c) in rules.castles.list.iter().enumerate() {
        if let Some((bits, ends)) = out.get_mut(c.player.0 as usize) {
            *bits |= 1 << rules.castles.bit[i];
            ends.insert(c.king_to);
        }
    }
    out
}
