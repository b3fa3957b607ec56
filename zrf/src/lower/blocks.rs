//! Dagaz's `"sliding-puzzle"` option: the pieces of one block (the same `value`) slide together.
//!
//! Dagaz's extension takes each one-step move of a piece and moves every other piece with the
//! same non-zero `value` by the same step, each onto an empty cell or one its block leaves; a
//! piece of value 0 moves alone onto empty cells. The block never breaks, so the cells of its
//! pieces keep their setup offsets: each piece's step is rewritten into one move program that
//! tests every destination and moves the whole block, with the engine's own instructions. A
//! step's own tests (`n (verify empty?) add`) are asked first, from the piece that steps, on
//! the board before the move, as Dagaz runs the piece's program before moving the block.
use std::collections::{HashMap, VecDeque};

use varia_interpreter::ir::{AddKind, DirId, Instr, PieceType, PieceTypeId, Program, Test};

use super::pieces::Placements;
use super::Lowerer;
use crate::reader::{Sexp, ZrfError};

/// Per piece type (declaration order): its `value`, where it declares one.
pub(crate) type BlockValues = Vec<Option<String>>;

impl Lowerer<'_> {
    /// Rewrites the step moves of every piece with a `value` into moves of its whole block.
    pub(crate) fn sliding_blocks(
        &self,
        forms: &[&Sexp],
        types: &mut [PieceType],
        values: &BlockValues,
        placements: &Placements,
    ) -> Result<(), ZrfError> {
        let value_of = |ty: usize| values.get(ty).cloned().flatten();
        // Every placed piece of a block: (type, cell).
        let placed: Vec<(usize, usize)> = placements
            .iter()
            .flat_map(|(cell, stack)| stack.iter().map(move |&(_, ty)| (usize::from(ty.0), usize::from(cell.0))))
            .collect();
        for (index, form) in forms.iter().enumerate() {
            let Some(value) = value_of(index) else { continue };
            let name = &self.pieces.list[index];
            let homes: Vec<usize> = placed.iter().filter(|&&(ty, _)| ty == index).map(|&(_, cell)| cell).collect();
            let Some(piece) = types.get_mut(index) else { continue };
            let mut rewritten = Vec::new();
            for program in &piece.programs {
                let Some((dir, checks)) = one_step(&program.body) else {
                    return Err(self.err(
                        format!(
                            "piece {name}: with \"sliding-puzzle\", every move must be one step (`DIRECTION add`, or `DIRECTION (verify ...) add`)"
                        ),
                        form,
                        "Dagaz's sliding-puzzle option moves blocks one step at a time",
                    ));
                };
                let step = |body| Program { move_type: program.move_type, body };
                if value == "0" {
                    // A piece of value 0 is a block of its own.
                    let add = Instr::Add { kind: AddKind::Move, promote: Vec::new(), then: None };
                    let mut body = vec![Instr::Step(dir)];
                    body.extend(checks.iter().cloned());
                    body.extend([Instr::Verify(Test::Empty(None)), add]);
                    rewritten.push(step(body));
                    continue;
                }
                // One program per position the type starts on (a block may hold it twice): the
                // program checks that the block stands around it as it did around that position.
                for &home in &homes {
                    let mut block = vec![(index, home)];
                    block.extend(
                        placed.iter().filter(|&&(ty, cell)| cell != home && value_of(ty).as_ref() == Some(&value)),
                    );
                    let paths = self.paths_within(&block).ok_or_else(|| {
                        self.err(
                            format!("the pieces of block {value} are not joined by steps between their positions"),
                            form,
                            "with \"sliding-puzzle\", a block's pieces stand next to each other",
                        )
                    })?;
                    let tiles: Vec<PieceTypeId> =
                        block.iter().filter_map(|&(ty, _)| u8::try_from(ty).ok().map(PieceTypeId)).collect();
                    // The step's own tests, on the board before the move, from this piece.
                    let mut body = Vec::new();
                    if !checks.is_empty() {
                        body.extend([Instr::Mark(None), Instr::Step(dir)]);
                        body.extend(checks.iter().cloned());
                        body.push(Instr::Back);
                    }
                    if homes.len() > 1 {
                        body.push(Instr::Mark(None));
                        for (path, tile) in paths.iter().zip(&tiles).skip(1) {
                            body.extend(path.iter().map(|&d| Instr::Step(d)));
                            body.extend([Instr::Verify(Test::Piece(*tile, None)), Instr::Back]);
                        }
                    }
                    body.extend(block_step(dir, &paths, &tiles));
                    rewritten.push(step(body));
                }
            }
            piece.programs = rewritten;
        }
        Ok(())
    }

    /// From the first cell of `block` to each cell of it (in order), the directions of a walk
    /// that stays on the block's cells; `None` when some cell cannot be reached so.
    fn paths_within(&self, block: &[(usize, usize)]) -> Option<Vec<Vec<DirId>>> {
        let cells: Vec<usize> = block.iter().map(|&(_, cell)| cell).collect();
        let mut path_to: HashMap<usize, Vec<DirId>> = HashMap::from([(cells[0], Vec::new())]);
        let mut queue = VecDeque::from([cells[0]]);
        while let Some(at) = queue.pop_front() {
            for dir in 0..self.dirs.len() {
                let Some(&next) = self.steps.get(&(at, dir)) else { continue };
                if !cells.contains(&next) || path_to.contains_key(&next) {
                    continue;
                }
                let mut path = path_to[&at].clone();
                path.push(super::board::dir_id(dir));
                path_to.insert(next, path);
                queue.push_back(next);
            }
        }
        cells.iter().map(|cell| path_to.get(cell).cloned()).collect()
    }
}

/// A step program, `DIRECTION (verify TEST)... add`: its direction and its tests.
fn one_step(body: &[Instr]) -> Option<(DirId, &[Instr])> {
    match body {
        [Instr::Step(dir), checks @ .., Instr::Add { kind: AddKind::Move, promote, then: None }]
            if promote.is_empty() && checks.iter().all(|i| matches!(i, Instr::Verify(_))) =>
        {
            Some((*dir, checks))
        }
        _ => None,
    }
}

/// The move of a block one step in `dir`, started from its first piece: every piece's
/// destination must be empty or hold a piece of the block (which leaves it), then each piece
/// moves (the engine lifts every moving piece before landing any).
fn block_step(dir: DirId, paths: &[Vec<DirId>], tiles: &[PieceTypeId]) -> Vec<Instr> {
    let free =
        Test::Or(std::iter::once(Test::Empty(None)).chain(tiles.iter().map(|&t| Test::Piece(t, None))).collect());
    let mut body = vec![Instr::Mark(None)];
    for path in paths {
        body.extend(path.iter().map(|&d| Instr::Step(d)));
        body.extend([Instr::Step(dir), Instr::Verify(free.clone()), Instr::Back]);
    }
    for (i, path) in paths.iter().enumerate() {
        if i > 0 {
            body.push(Instr::Back);
            body.extend(path.iter().map(|&d| Instr::Step(d)));
            body.push(Instr::From);
        }
        body.push(Instr::Step(dir));
        body.push(if i + 1 < paths.len() {
            Instr::Cascade
        } else {
            Instr::Add { kind: AddKind::Move, promote: Vec::new(), then: None }
        });
    }
    body
}

impl Lowerer<'_> {
    /// A piece's attribute with a value other than true or false: in a game with Dagaz's
    /// `"sliding-puzzle"` option, `value` (a whole number) names the piece's block and `key`
    /// (which only Dagaz's board view reads) is ignored; anywhere else it is refused, naming it
    /// a Dagaz construct.
    pub(crate) fn dagaz_attribute(
        &mut self,
        index: usize,
        item: &Sexp,
        value: &Sexp,
        label: &str,
    ) -> Result<(), ZrfError> {
        let name = item.tail().first().map(super::construct_name).unwrap_or_default();
        if self.sliding_puzzle {
            if name.eq_ignore_ascii_case("key") {
                return Ok(());
            }
            if name.eq_ignore_ascii_case("value") {
                // A word names the block (mothers.zrf's tenth block is `A`).
                if let Some(block) = value.as_atom() {
                    if self.block_values.len() <= index {
                        self.block_values.resize(index + 1, None);
                    }
                    self.block_values[index] = Some(block.to_string());
                    return Ok(());
                }
            }
        }
        Err(self.err(
            format!(
                "a Dagaz construct Zillions does not have: attribute '{name}' with the value {value} (Zillions attributes are true or false{})",
                if self.sliding_puzzle { "; with \"sliding-puzzle\" only `value` and `key` are read" } else { "" }
            ),
            value,
            label.to_string(),
        ))
    }
}
