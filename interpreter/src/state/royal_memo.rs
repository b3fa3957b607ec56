//! What a position learns once of the side to move's royal piece, kept with it: whether it is in check, the pieces pinned to it, the enemy pieces' cells.

use crate::ir::CellId;

/// Pieces pinned to the royal piece, found once per position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pins {
    pub(crate) cells: [CellId; 16],
    pub(crate) len: u8,
    pub(crate) overflow: bool,
    /// One bit per cell whose contents some enemy program that could take the royal reads on
    /// its way (`ProgramPins`): a move from or to such a cell is tested.
    pub(crate) watch: u128,
}

impl Pins {
    /// No piece pinned and no cell watched.
    pub(crate) const NONE: Pins = Pins { cells: [CellId(0); 16], len: 0, overflow: false, watch: 0 };

    /// Records a pinned cell (past the array's room, only that there were more).
    #[inline]
    pub(crate) fn add(&mut self, c: CellId) {
        if (self.len as usize) < self.cells.len() {
            self.cells[self.len as usize] = c;
            self.len += 1;
        } else {
            self.overflow = true;
        }
    }

    /// Whether an enemy program that could take the royal reads the cell.
    #[inline]
    pub(crate) fn watches(&self, c: CellId) -> bool {
        self.watch & crate::rules::programs::reach::read_bit(c) != 0
    }

    /// Whether the piece on the cell may be pinned.
    #[inline]
    pub(crate) fn holds(&self, c: CellId) -> bool {
        self.overflow || self.cells[..self.len as usize].contains(&c)
    }
}

/// What a position tells of the side to move's royal pieces, with the position it was learnt
/// in (its hash and the moves made to it): whether one is attacked, and where the count
/// applies the single royal's cell, the pieces pinned to it and the enemy pieces' cells.
/// Learnt in place (`learn_royal`): a memo built apart and copied in was read back across the
/// narrower stores that had just built it (a stall, a sixth of learning it).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RoyalMemo {
    pub(crate) hash: u64,
    pub(crate) ply: u32,
    pub(crate) check: bool,
    /// The count applies: `royal`, `pins` and `enemies` hold.
    pub(crate) counted: bool,
    pub(crate) royal: CellId,
    pub(crate) pins: Pins,
    pub(crate) enemies: Option<u128>,
    /// The pieces kept apart stand far enough apart (always, without such pieces).
    pub(crate) apart: bool,
}

impl RoyalMemo {
    /// Nothing learnt (no position has this many moves made).
    pub(crate) const NONE: RoyalMemo = RoyalMemo {
        hash: 0,
        ply: u32::MAX,
        check: false,
        counted: false,
        royal: CellId(0),
        pins: Pins::NONE,
        enemies: None,
        apart: true,
    };

    pub(crate) fn counted(&self) -> Option<(CellId, Pins, Option<u128>)> {
        self.counted.then_some((self.royal, self.pins, self.enemies))
    }
}
