//! Drop programs that test their cell, walk lines testing every cell on them, and add: compiled to a plain drop and walks whose results a listing shares between cells.
//!
//! Such a program (shogi's pawn drop: `verify empty ... mark while on-board(n) { n verify T }
//! back ... add`) drops its piece on its start cell where the cell's tests hold and every cell
//! each walk meets passes the walk's test. The walk from a cell meets the cell next to it and
//! then what the walk from that cell meets, so a listing finds each walk's result for every
//! cell in one pass along the lines (see `State::walk_drops`) instead of walking from each
//! empty cell.

use crate::atoms::is_geometric;
use crate::bitset::CellSet;
use crate::ir::{CellId, DirId, Instr, MoveTypeId, Place, Program, Test, Variant};
use crate::limits::PROGRAM_STEPS;
use crate::rules::programs::code::NO_CELL;
use crate::tables::{geometric_holds, BoardFacts};

/// One walk: from the drop's cell along a direction to the board's edge, every cell met
/// passing a test of its piece.
#[derive(Debug)]
pub(crate) struct Walk {
    pub(crate) test: Test,
    /// Per player: (cell, the next cell along the walk or [`NO_CELL`]), each cell after the
    /// cell next to it, so a pass in this order finds the next cell's result first.
    pub(crate) order: Vec<Vec<(CellId, CellId)>>,
    /// The test's value per (player, piece code), then a hole, then off the board (read by `code::table_holds`; filled once the rules are
    /// built; see `compile::cell_table`).
    pub(crate) table: Vec<bool>,
}

/// A drop program of the walking shape.
#[derive(Debug)]
pub(crate) struct WalkDrop {
    /// Per player: the cells whose geometric tests hold (the drop also needs the cell empty).
    pub(crate) cells: Vec<CellSet>,
    pub(crate) walks: Vec<Walk>,
    pub(crate) move_type: Option<MoveTypeId>,
}

/// The drop program `p` as a [`WalkDrop`] where it has the shape: `verify empty`, geometric
/// tests, `mark` and walks (`while on-board(D) { D verify T ... }` with tests of the piece
/// there), each followed by `back`, then a plain `add`. `next` is [`super::ProgramRules::next`].
/// None for other programs, and where a walk may not end (a line that comes round) or could
/// pass a run's step limit: the full run's result would differ.
pub(crate) fn recognise(v: &Variant, facts: &BoardFacts, next: &[CellId], p: &Program) -> Option<WalkDrop> {
    let (body, last) = p.body.split_at(p.body.len().checked_sub(1)?);
    if !matches!(&last[0], Instr::Add { kind: crate::ir::AddKind::Move, promote, then: None } if promote.is_empty()) {
        return None;
    }
    let mut tests = Vec::new();
    let mut walks: Vec<(DirId, Test, usize)> = Vec::new();
    let mut need_empty = false;
    // Whether the run stands on its start cell (the mark is never moved off it).
    let mut home = true;
    for instr in body {
        match instr {
            Instr::Verify(Test::Empty(None)) if home => need_empty = true,
            Instr::Verify(t) if home && is_geometric(t) => tests.push(t),
            Instr::Mark(None) if home => {}
            Instr::Back => home = true,
            Instr::While(Test::OnBoard(Place::Dir(d)), inner) if home => {
                let (test, len) = walk_test(*d, inner)?;
                walks.push((*d, test, len));
                home = false;
            }
            _ => return None,
        }
    }
    if !home || !need_empty || walks.is_empty() {
        return None;
    }
    let (players, cells, dirs) = (v.players.len(), v.board.cells.len(), v.board.directions.len());
    let mut out = Vec::with_capacity(walks.len());
    let mut steps = 8 * body.len();
    for (d, test, len) in walks {
        let mut order = Vec::with_capacity(players);
        for pl in 0..players {
            let next_of = &next[(pl * dirs + d.0 as usize) * cells..(pl * dirs + d.0 as usize + 1) * cells];
            let lengths = ray_lengths(next_of)?;
            let longest = lengths.iter().copied().max().unwrap_or(0);
            // A round of the loop runs its head, its body and the jump back.
            steps += (longest + 1) * (len + 2) + 2;
            let mut cells_of: Vec<(CellId, CellId)> = (0..cells).map(|c| (CellId(c as u16), next_of[c])).collect();
            cells_of.sort_by_key(|(c, _)| lengths[c.0 as usize]);
            order.push(cells_of);
        }
        out.push(Walk { test, order, table: Vec::new() });
    }
    if steps >= PROGRAM_STEPS as usize {
        return None;
    }
    let cells_ok = (0..players)
        .map(|pl| {
            let mut set = CellSet::new(cells);
            for c in (0..cells).map(|c| CellId(c as u16)) {
                if v.board.cells[c.0 as usize].covers.is_empty()
                    && tests.iter().all(|t| geometric_holds(facts, v, pl, c, c, t))
                {
                    set.insert(c);
                }
            }
            set
        })
        .collect();
    Some(WalkDrop { cells: cells_ok, walks: out, move_type: p.move_type })
}

/// A walk's body, `D verify T ...` with tests of the piece on the cell reached: the tests as
/// one, and the body's length in instructions.
fn walk_test(d: DirId, inner: &[Instr]) -> Option<(Test, usize)> {
    let [Instr::Step(s), rest @ ..] = inner else { return None };
    if *s != d || rest.is_empty() {
        return None;
    }
    let mut all = Vec::new();
    for i in rest {
        match i {
            Instr::Verify(t) if super::code::reads_piece_here(t) => all.push(t.clone()),
            _ => return None,
        }
    }
    let test = if all.len() == 1 { all.pop()? } else { Test::And(all) };
    Some((test, inner.len()))
}

/// Per cell: the steps from it along a walk to the board's edge; None where a walk comes
/// round and never ends.
fn ray_lengths(next: &[CellId]) -> Option<Vec<usize>> {
    let cells = next.len();
    (0..cells)
        .map(|c| {
            let (mut at, mut len) = (next[c], 0);
            while at != NO_CELL {
                len += 1;
                if len > cells {
                    return None;
                }
                at = next[at.0 as usize];
            }
            Some(len)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line's cells count their steps to its end; a ring's walks never end.
    #[test]
    fn rays_end_on_a_line_and_not_on_a_ring() {
        let line = [CellId(1), CellId(2), NO_CELL];
        assert_eq!(ray_lengths(&line), Some(vec![2, 1, 0]));
        let ring = [CellId(1), CellId(2), CellId(0)];
        assert_eq!(ray_lengths(&ring), None);
        let into_ring = [CellId(1), CellId(2), CellId(1), NO_CELL];
        assert_eq!(ray_lengths(&into_ring), None);
    }
}
