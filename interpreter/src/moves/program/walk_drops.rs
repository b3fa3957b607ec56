//! Listing the drops of walking drop programs: each walk's result found for every cell in one pass along the lines, then plain drops where all pass.
//!
//! The walk from a cell passes where the next cell along it passes the walk's test and the
//! walk from that cell passes (or there is no next cell): one table load per cell and walk,
//! where running the program from each empty cell walked its whole line.

use std::cell::RefCell;

use crate::ir::PlayerId;
use crate::position::{Move, MoveKind, State};
use crate::rules::programs::code::{table_holds, NO_CELL};
use crate::rules::programs::walks::WalkDrop;
use crate::rules::programs::PLAIN_DROP;
use crate::rules::{Piece, Rules};

thread_local! {
    /// Per cell: whether every walk so far passes, then whether the current walk passes
    /// (kept so that a listing does not allocate once warm).
    static PASSES: RefCell<Vec<bool>> = const { RefCell::new(Vec::new()) };
}

impl State {
    /// The drops of a walking drop program (rule `index` of `piece`'s type) for `side`, as
    /// running the program from every cell would list them: by cell, in order.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn walk_drops(
        &self,
        r: &Rules,
        w: &WalkDrop,
        side: PlayerId,
        piece: Piece,
        index: u16,
        out: &mut Vec<Move>,
    ) {
        let s = side.0 as usize;
        let cells = r.cells;
        PASSES.with(|p| {
            let mut passes = p.borrow_mut();
            passes.clear();
            passes.resize(2 * cells, true);
            let (all, walk) = passes.split_at_mut(cells);
            for wk in &w.walks {
                for &(c, n) in &wk.order[s] {
                    let ok = n == NO_CELL
                        || (table_holds(&wk.table, r.players, side, Some(self.cells[n.0 as usize]))
                            && walk[n.0 as usize]);
                    walk[c.0 as usize] = ok;
                    all[c.0 as usize] &= ok;
                }
            }
            let move_type = w.move_type.map_or(crate::tables::NO_MOVE_TYPE, |m| m.0);
            for to in w.cells[s].iter() {
                if !self.cells[to.0 as usize].is_empty() || !all[to.0 as usize] {
                    continue;
                }
                out.push(Move {
                    from: to,
                    to,
                    kind: MoveKind::Drop,
                    promote: 0,
                    extra: index,
                    piece,
                    take: Piece::EMPTY,
                    seq: PLAIN_DROP,
                    move_type,
                    gate: 0,
                    wall: 0,
                });
            }
        });
    }
}
