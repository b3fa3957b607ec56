//! Move programs flattened into one instruction array: blocks become jumps, so a run needs no recursion and no allocation.

use crate::ir::{
    AddKind, AttributeId, CellId, DirId, FlagId, Instr, Landmark, MoveTypeId, PieceTypeId, Place, PlayerId, Program,
    Test,
};
use crate::rules::piece::Piece;

/// One instruction of flattened code. Jump targets are indexes into [`Code::ops`]; tests are
/// indexes into [`Code::tests`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    Step(DirId),
    Jump(CellId),
    Go(Landmark),
    Mark(Option<Place>),
    Back,
    /// Fail unless the test holds.
    Verify(u16),
    /// Go on at `target` unless the test holds.
    IfNot(u16, u32),
    /// Go on at `target`.
    Goto(u32),
    /// A loop begins: its round counter (one per nesting level) starts at zero.
    LoopStart(u8),
    /// A loop's head: leave to `exit` unless the test holds; count the round (failing past
    /// the bound).
    While {
        test: u16,
        exit: u32,
        level: u8,
    },
    To,
    From,
    Cascade,
    Add {
        kind: AddKind,
        promote: u16,
        then: Option<MoveTypeId>,
    },
    Capture(Option<Place>),
    ChangeType(PieceTypeId, Option<Place>),
    ChangeOwner(Option<Place>),
    Flip(Option<Place>),
    Create {
        owner: Option<PlayerId>,
        piece: Option<PieceTypeId>,
        at: Option<Place>,
    },
    SetFlag(FlagId, u16),
    SetCellFlag(FlagId, u16, Option<Place>),
    SetAttribute(AttributeId, u16),
    /// Fail if a neighbour along one of the directions `Code::dir_sets[dirs]` exists and test
    /// `when` holds with it as the current cell (folded looks that each forbid one neighbour);
    /// `piece`: `when` can hold only on a cell that holds a piece.
    Around {
        dirs: u16,
        when: u16,
        piece: bool,
    },
}

/// A flattened program.
#[derive(Clone, Debug, Default)]
pub(crate) struct Code {
    pub(crate) ops: Vec<Op>,
    pub(crate) tests: Vec<Test>,
    /// The promotion lists of `add`s (index 0 is the empty list).
    pub(crate) promotions: Vec<Vec<PieceTypeId>>,
    /// Deepest loop nesting (the number of round counters a run needs).
    pub(crate) loop_levels: u8,
    /// The program's move type.
    pub(crate) move_type: Option<MoveTypeId>,
    /// Some instruction or test reads the last move (`last-from`, `last-to`).
    pub(crate) reads_history: bool,
    /// Some test asks about attacks (it runs other programs).
    pub(crate) reads_attacks: bool,
    /// Some test reads the position beyond the cells' pieces: attributes, or a condition of
    /// the language (phases, the piece count, the turn number).
    pub(crate) reads_position: bool,
    /// The program begins with these steps and then a test of what stands on the cell
    /// reached (`guard`): a run whose guard fails emits nothing, so it need not be started.
    pub(crate) prefix: Vec<DirId>,
    pub(crate) guard: Option<Guard>,
    /// Per (player, start cell): the cell the guard tests ([`NO_CELL`] where the steps
    /// leave the board); empty where guards are not used (stacks, pieces between cells).
    pub(crate) guard_cells: Vec<CellId>,
    /// Per player: the cells a run may start from and emit a move (where the board lets it
    /// reach an `add`); empty where every cell is tried (the `StartCells` path is off).
    pub(crate) starts: Vec<crate::bitset::CellSet>,
    /// Per (player, start cell): the cells a run may read ([`reach::Outcome::reads`]); empty
    /// where they are not kept (a board of more than 128 cells, too many programs).
    ///
    /// [`reach::Outcome::reads`]: crate::rules::programs::reach::Outcome::reads
    pub(crate) reads: Vec<u128>,
    /// The direction lists of [`Op::Around`].
    pub(crate) dir_sets: Vec<Vec<DirId>>,
    /// Every `add` moves the piece alone and every test reads cells only: a listing runs it
    /// lean, straight into ordinary moves (the `LeanRuns` path; see [`Code::lean_shape`]).
    pub(crate) lean: bool,
    /// A code with a `cascade`, of the lean shape but for it and its jumps to named cells: run
    /// lean by the `LeanCascades` path (`lean` is then false), a capture may send the piece
    /// taken to another cell, a program move a lean listing numbers as the full run does.
    pub(crate) cascades: bool,
    /// Every run emits a move on its start cell first (see [`Code::adds_where_it_starts`]):
    /// a partial move whose continuation this code lists surely goes on.
    pub(crate) adds_first: bool,
    /// Per test of a lean code: where it reads only the piece on one place (the current cell,
    /// a neighbour, a named cell), that place and the test's value per (player, piece code),
    /// a hole and then "off the board" last; else an empty table.
    pub(crate) cell_tables: Vec<(Option<Place>, Vec<bool>)>,
}

/// In [`Code::guard_cells`]: no such cell.
pub(crate) const NO_CELL: CellId = CellId(u16::MAX);

/// A test of one cell's contents that a run checks first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Guard {
    Empty,
    Friend,
    Enemy,
    NotFriend,
    Piece(PieceTypeId),
}

/// Most loop nesting levels a program may have (the grammar's nesting limit is lower).
pub(crate) const MAX_LOOP_LEVELS: usize = 32;

impl Code {
    /// Whether a run for `side` from `cell` may emit a move (see [`Code::starts`]).
    #[inline]
    pub(crate) fn may_start(&self, side: PlayerId, cell: CellId) -> bool {
        self.starts.get(side.0 as usize).is_none_or(|s| s.contains(cell))
    }

    /// Flattens a program.
    pub(crate) fn compile(p: &Program) -> Code {
        let mut code = Code { promotions: vec![Vec::new()], move_type: p.move_type, ..Code::default() };
        code.block(&p.body, 0);
        let prefix: Vec<DirId> =
            code.ops.iter().map_while(|op| if let Op::Step(d) = op { Some(*d) } else { None }).collect();
        if let Some(Op::Verify(t)) = code.ops.get(prefix.len()) {
            code.guard = match &code.tests[*t as usize] {
                Test::Empty(None) => Some(Guard::Empty),
                Test::Friend(None) => Some(Guard::Friend),
                Test::Enemy(None) => Some(Guard::Enemy),
                Test::Not(inner) if **inner == Test::Friend(None) => Some(Guard::NotFriend),
                Test::Piece(ty, None) => Some(Guard::Piece(*ty)),
                _ => None,
            };
        }
        code.prefix = prefix;
        code.adds_first = code.adds_where_it_starts();
        code
    }

    /// Whether every emission of the code is its piece's move alone, from its cell to the
    /// current one (no `to`, `from`, capture, change or flag; plain `add`s) and every
    /// test reads only the cells' pieces and the board (what a lean run reads). With
    /// `cascades`, an emission may also send the piece on the cell the mover reaches to the
    /// current one (`cascade`, then steps and jumps to named cells).
    pub(crate) fn lean_shape(&self, cascades: bool) -> bool {
        let ops = self.ops.iter().all(|op| match op {
            Op::Step(_)
            | Op::Verify(_)
            | Op::IfNot(..)
            | Op::Goto(_)
            | Op::LoopStart(_)
            | Op::While { .. }
            | Op::Around { .. }
            | Op::Mark(_)
            | Op::Back => true,
            Op::Cascade | Op::Jump(_) => cascades,
            Op::Add { kind, then, .. } => *kind == AddKind::Move && then.is_none(),
            _ => false,
        });
        ops && self.tests.iter().all(cell_test) && !self.adds_first
    }

    /// Whether every run emits a move on its start cell first (its first instruction, past
    /// marks, loop starts and jumps, is an `add`): a lean run gives up there (its moves go
    /// from a cell to another), and the listing of every program of the piece starts again
    /// in full, so such a code runs in full from the start.
    pub(crate) fn adds_where_it_starts(&self) -> bool {
        let mut at = 0;
        // Each jump goes on to another instruction: as many as there are instructions.
        for _ in 0..=self.ops.len() {
            match self.ops.get(at) {
                Some(Op::Mark(_) | Op::LoopStart(_)) => at += 1,
                Some(Op::Goto(target)) => at = *target as usize,
                Some(Op::Add { .. }) => return true,
                _ => return false,
            }
        }
        false
    }

    /// The index of a test in [`Code::tests`], added if new.
    pub(crate) fn test(&mut self, t: &Test) -> u16 {
        if reads(t, &|x| matches!(x, Test::LastFrom(_) | Test::LastTo(_))) {
            self.reads_history = true;
        }
        if reads(t, &|x| matches!(x, Test::Attacked(..) | Test::Defended(..))) {
            self.reads_attacks = true;
        }
        if reads(t, &|x| {
            matches!(x, Test::Attribute(..))
                || matches!(x, Test::Holds(c) if !crate::atoms::is_geometric(&Test::Holds(c.clone())))
        }) {
            self.reads_position = true;
        }
        if let Some(i) = self.tests.iter().position(|x| x == t) {
            return i as u16;
        }
        self.tests.push(t.clone());
        (self.tests.len() - 1) as u16
    }

    fn here(&self) -> u32 {
        self.ops.len() as u32
    }

    fn patch(&mut self, at: u32, target: u32) {
        match &mut self.ops[at as usize] {
            Op::IfNot(_, t) | Op::Goto(t) => *t = target,
            Op::While { exit, .. } => *exit = target,
            _ => {}
        }
    }

    fn block(&mut self, body: &[Instr], level: u8) {
        for i in body {
            self.instr(i, level);
        }
    }

    fn instr(&mut self, i: &Instr, level: u8) {
        let op = match i {
            Instr::Step(d) => Op::Step(*d),
            Instr::Jump(c) => Op::Jump(*c),
            Instr::Go(l) => {
                if matches!(l, Landmark::LastFrom | Landmark::LastTo) {
                    self.reads_history = true;
                }
                Op::Go(*l)
            }
            Instr::Mark(p) => Op::Mark(*p),
            Instr::Back => Op::Back,
            Instr::Verify(t) => Op::Verify(self.test(t)),
            Instr::If(t, yes, no) => {
                let t = self.test(t);
                let branch = self.here();
                self.ops.push(Op::IfNot(t, 0));
                self.block(yes, level);
                if no.is_empty() {
                    let end = self.here();
                    self.patch(branch, end);
                } else {
                    let skip = self.here();
                    self.ops.push(Op::Goto(0));
                    let other = self.here();
                    self.patch(branch, other);
                    self.block(no, level);
                    let end = self.here();
                    self.patch(skip, end);
                }
                return;
            }
            Instr::While(t, body) => {
                let t = self.test(t);
                let level = level.min(MAX_LOOP_LEVELS as u8 - 1);
                self.loop_levels = self.loop_levels.max(level + 1);
                self.ops.push(Op::LoopStart(level));
                let head = self.here();
                self.ops.push(Op::While { test: t, exit: 0, level });
                self.block(body, level + 1);
                self.ops.push(Op::Goto(head));
                let exit = self.here();
                self.patch(head, exit);
                return;
            }
            Instr::To => Op::To,
            Instr::From => Op::From,
            Instr::Cascade => Op::Cascade,
            Instr::Add { kind, promote, then } => {
                let idx = match self.promotions.iter().position(|x| x == promote) {
                    Some(i) => i,
                    None => {
                        self.promotions.push(promote.clone());
                        self.promotions.len() - 1
                    }
                };
                Op::Add { kind: *kind, promote: idx as u16, then: *then }
            }
            Instr::Capture(p) => Op::Capture(*p),
            Instr::ChangeType(t, p) => Op::ChangeType(*t, *p),
            Instr::ChangeOwner(p) => Op::ChangeOwner(*p),
            Instr::Flip(p) => Op::Flip(*p),
            Instr::Create { owner, piece, at } => Op::Create { owner: *owner, piece: *piece, at: *at },
            Instr::SetFlag(f, t) => Op::SetFlag(*f, self.test(t)),
            Instr::SetCellFlag(f, t, p) => Op::SetCellFlag(*f, self.test(t), *p),
            Instr::SetAttribute(a, t) => Op::SetAttribute(*a, self.test(t)),
        };
        self.ops.push(op);
    }
}

/// Whether a test reads only the pieces on cells and the board (see [`Code::lean_shape`]).
fn cell_test(t: &Test) -> bool {
    match t {
        Test::True
        | Test::False
        | Test::Empty(_)
        | Test::Friend(_)
        | Test::Enemy(_)
        | Test::Piece(..)
        | Test::InZone(..)
        | Test::OnBoard(_)
        | Test::At(_)
        | Test::Marked(_) => true,
        Test::Not(inner) => cell_test(inner),
        Test::And(all) | Test::Or(all) => all.iter().all(cell_test),
        _ => false,
    }
}

/// Whether a test or one of its parts satisfies `f`.
fn reads(t: &Test, f: &dyn Fn(&Test) -> bool) -> bool {
    if f(t) {
        return true;
    }
    match t {
        Test::Not(inner) => reads(inner, f),
        Test::And(all) | Test::Or(all) => all.iter().any(|x| reads(x, f)),
        _ => false,
    }
}

/// The loops of a program that can never end once entered: their body neither moves the
/// current cell nor sets a flag, so their test keeps its value, and nothing in the body can
/// fail. Each is given by its number among the program's `while` loops in reading order
/// (counting from 0, a loop before the loops inside it, an `if` block before its `else`).
pub fn endless_loops(p: &Program) -> Vec<usize> {
    let mut out = Vec::new();
    let mut count = 0;
    find_endless(&p.body, &mut count, &mut out);
    out
}

fn find_endless(body: &[Instr], count: &mut usize, out: &mut Vec<usize>) {
    for instr in body {
        match instr {
            Instr::While(t, inner) => {
                if *t != Test::False && inner.iter().all(inert) {
                    out.push(*count);
                }
                *count += 1;
                find_endless(inner, count, out);
            }
            Instr::If(_, a, b) => {
                find_endless(a, count, out);
                find_endless(b, count, out);
            }
            _ => {}
        }
    }
}

/// An instruction that neither moves, nor sets a flag, nor can fail.
fn inert(i: &Instr) -> bool {
    match i {
        Instr::Add { .. }
        | Instr::Capture(None)
        | Instr::ChangeType(_, None)
        | Instr::ChangeOwner(None)
        | Instr::Flip(None)
        | Instr::To
        | Instr::SetAttribute(..) => true,
        Instr::If(_, a, b) => a.iter().all(inert) && b.iter().all(inert),
        _ => false,
    }
}

/// A one-place test's value from its table (`compile::cell_table`: per player, one entry per
/// piece code, then a hole, then off the board) for `side`, `piece` standing on the place
/// (`None`: the place is off the board).
#[inline(always)]
pub(crate) fn table_holds(table: &[bool], players: usize, side: PlayerId, piece: Option<Piece>) -> bool {
    let stride = table.len() / players;
    let at = match piece {
        Some(Piece::HOLE) => stride - 2,
        Some(p) => p.0 as usize,
        None => stride - 1,
    };
    table[side.0 as usize * stride + at]
}

/// Whether a test reads only the piece on the current cell.
pub(crate) fn reads_piece_here(t: &Test) -> bool {
    matches!(one_place(t), Some(None))
}

/// The one place whose piece a test reads (`None`: the current cell), where it reads no other
/// and nothing else.
pub(crate) fn one_place(t: &Test) -> Option<Option<Place>> {
    let mut place = None;
    places_agree(t, &mut place).then_some(place.flatten())
}

/// Whether every part of the test reads the piece on `at` (set by the first that reads one).
fn places_agree(t: &Test, at: &mut Option<Option<Place>>) -> bool {
    let mut same = |p: Option<Place>| *at.get_or_insert(p) == p;
    match t {
        Test::True | Test::False => true,
        Test::Empty(p) | Test::Friend(p) | Test::Enemy(p) | Test::Piece(_, p) => same(*p),
        Test::OnBoard(p) => same(Some(*p)),
        Test::Not(inner) => places_agree(inner, at),
        Test::And(all) | Test::Or(all) => all.iter().all(|x| places_agree(x, at)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ride_flattens_into_a_loop_with_its_exit_patched() {
        let n = DirId(0);
        let p = Program {
            move_type: None,
            body: vec![
                Instr::Step(n),
                Instr::While(
                    Test::Empty(None),
                    vec![Instr::Add { kind: AddKind::Move, promote: vec![], then: None }, Instr::Step(n)],
                ),
                Instr::Verify(Test::Enemy(None)),
            ],
        };
        let c = Code::compile(&p);
        assert_eq!(
            c.ops,
            vec![
                Op::Step(n),
                Op::LoopStart(0),
                Op::While { test: 0, exit: 6, level: 0 },
                Op::Add { kind: AddKind::Move, promote: 0, then: None },
                Op::Step(n),
                Op::Goto(2),
                Op::Verify(1),
            ]
        );
        assert_eq!(c.loop_levels, 1);
    }

    #[test]
    fn if_else_jumps_over_the_other_block() {
        let p = Program {
            move_type: None,
            body: vec![Instr::If(Test::Empty(None), vec![Instr::To], vec![Instr::From]), Instr::Back],
        };
        let c = Code::compile(&p);
        assert_eq!(c.ops, vec![Op::IfNot(0, 3), Op::To, Op::Goto(4), Op::From, Op::Back]);
    }

    #[test]
    fn a_loop_that_neither_moves_nor_sets_a_flag_is_endless() {
        let add = Instr::Add { kind: AddKind::Move, promote: vec![], then: None };
        let p = Program {
            move_type: None,
            body: vec![Instr::Step(DirId(0)), Instr::While(Test::Empty(None), vec![add.clone()])],
        };
        assert_eq!(endless_loops(&p), vec![0]);
        let moving =
            Program { move_type: None, body: vec![Instr::While(Test::Empty(None), vec![add, Instr::Step(DirId(0))])] };
        assert!(endless_loops(&moving).is_empty());
    }
}
