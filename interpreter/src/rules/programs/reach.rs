//! Where a move program could ever capture from a given cell, whatever stands on the board: the attack probes of programs that are not atoms.
//!
//! The program is run abstractly: geometry (steps, zones, named cells) is followed exactly,
//! every test of what stands where is taken both ways, and every cell on which a change could
//! remove a piece is collected. So `attacked` needs to run a program only from the cells whose
//! reach holds the attacked cell.

use std::collections::HashSet;

use crate::atoms::is_geometric;
use crate::graph::Graph;
use crate::ir::{CellId, DirId, Landmark, Place, Test, Variant};
use crate::rules::programs::code::{Code, Op};
use crate::tables::{geometric_holds, BoardFacts};

/// Most abstract states explored for one program from one cell before giving up (and
/// assuming it may capture anywhere).
const MAX_STATES: usize = 20_000;

/// Most abstract states explored for all the programs of a variant, from every cell, for every
/// player: once they are spent the programs left may capture anywhere (their attack probes run
/// from every cell, each run bounded by its steps). Without it, eight looping programs on a
/// board of 676 cells took 216 million states (37 s) to compile.
pub(crate) const MAX_VARIANT_STATES: usize = 1_000_000;

/// Most (program, player, start cell) masks of the cells a run reads kept for a variant (16
/// bytes each): past them none is kept, and moves are tested against programs one by one.
pub(crate) const MAX_READ_MASKS: usize = 1 << 16;

/// A cell's bit in a mask of the cells read ([`Outcome::reads`]): past the 128th cell, every
/// bit (the cell cannot be told apart).
#[inline]
pub(crate) fn read_bit(c: CellId) -> u128 {
    1u128.checked_shl(c.0 as u32).unwrap_or(u128::MAX)
}

/// The cells a program may capture on from a start cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Reach {
    /// These cells (sorted, without repeats).
    Cells(Vec<CellId>),
    /// Any cell (the program goes to the last move's cells, or is too large to follow).
    Anywhere,
}

/// What a program could ever do from a start cell: where it may capture, and whether it may
/// emit a move at all (a run from a cell where it cannot need not be started).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Outcome {
    pub(crate) reach: Reach,
    pub(crate) emits: bool,
    /// The cells whose contents a run may read, one bit per cell (every bit where that is not
    /// known: a cell past the 128th, a test of more than cells' contents, a program that may
    /// capture anywhere). A run whose cells read hold what they held runs the same way.
    pub(crate) reads: u128,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct State {
    pc: u32,
    cur: CellId,
    mark: CellId,
    to: Option<CellId>,
    from: Option<CellId>,
    /// The start cell was tested `empty`: nothing changes while a program runs, so an `add`
    /// there later takes nothing (a drop program's usual first test).
    start_empty: bool,
    /// The cell last found empty by a test taken on this path (`if empty? add`, the exit of
    /// `while not-empty?`): a move landing there takes nothing either.
    empty: Option<CellId>,
}

/// The reach of a program's code (with its tests' [`shapes`]) for `player` from `start`
/// (`drop`: no piece stands there), spending the states it explores from `left` (what is left
/// of [`MAX_VARIANT_STATES`]).
pub(crate) fn reach(
    v: &Variant,
    facts: &BoardFacts,
    (code, shapes): (&Code, &[Shape]),
    player: usize,
    start: CellId,
    drop: bool,
    left: &mut usize,
) -> Outcome {
    let cap = MAX_STATES.min(*left);
    let outcome = SEEN.with(|seen| {
        let mut seen = seen.borrow_mut();
        // Kept from run to run (most runs are small: growing a new set each time cost as
        // much as the analysis); a set grown large is dropped, as clearing it costs its size.
        if seen.capacity() > 4 * 1024 {
            *seen = States::default();
        }
        seen.clear();
        let outcome = follow(v, facts, (code, shapes), player, start, drop, cap, &mut seen);
        *left = left.saturating_sub(seen.len().max(1));
        outcome
    });
    outcome
}

thread_local! {
    /// The states of [`reach`]'s runs on this thread.
    static SEEN: std::cell::RefCell<States> = std::cell::RefCell::new(States::default());
}

/// The abstract states met, hashed by a multiply-and-rotate hasher: the states are small
/// and made here (no input chooses them to collide), and SipHash took most of the analysis.
type States = HashSet<State, std::hash::BuildHasherDefault<StateHasher>>;

/// A word-at-a-time hasher (the Fx hash of rustc) for [`States`].
#[derive(Default)]
struct StateHasher(u64);

impl std::hash::Hasher for StateHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(*b as u64);
        }
    }

    #[inline]
    fn write_u8(&mut self, n: u8) {
        self.write_u64(n as u64);
    }

    #[inline]
    fn write_u16(&mut self, n: u16) {
        self.write_u64(n as u64);
    }

    #[inline]
    fn write_u32(&mut self, n: u32) {
        self.write_u64(n as u64);
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// The abstract run of one program for one player from one start cell: geometry read from the
/// board, every other test taken both ways.
struct Walk<'a> {
    v: &'a Variant,
    facts: &'a BoardFacts<'a>,
    code: &'a Code,
    player: usize,
    start: CellId,
    /// The cells read so far (see [`Outcome::reads`]).
    reads: std::cell::Cell<u128>,
    /// Per test of the code: what it reads, where that is quick to tell (none where the
    /// cells read are not kept: [`Code::reads`]).
    shapes: &'a [Shape],
}

/// What a test reads, told once per program so the walk's many tests are noted quickly.
#[derive(Clone, Copy)]
pub(crate) enum Shape {
    /// No cell's contents (geometry, the run's own flags).
    Nothing,
    /// The current cell's contents only.
    Here,
    /// Something else: read test by test.
    Other,
}

/// Per test of `code`: what it reads (none where the cells read are not kept:
/// [`Code::reads`]), told once per program for all its start cells.
pub(crate) fn shapes(code: &Code) -> Vec<Shape> {
    if code.reads.is_empty() {
        Vec::new()
    } else {
        code.tests.iter().map(shape).collect()
    }
}

/// [`Shape`] of a test.
fn shape(t: &Test) -> Shape {
    match t {
        Test::Empty(None) | Test::Friend(None) | Test::Enemy(None) | Test::Piece(_, None) => Shape::Here,
        Test::Flag(_) | Test::CellFlag(..) => Shape::Nothing,
        Test::Not(inner) => shape(inner),
        Test::And(all) | Test::Or(all) => {
            let shapes: Vec<Shape> = all.iter().map(shape).collect();
            if shapes.iter().all(|s| matches!(s, Shape::Nothing)) {
                Shape::Nothing
            } else if shapes.iter().all(|s| matches!(s, Shape::Nothing | Shape::Here)) {
                Shape::Here
            } else {
                Shape::Other
            }
        }
        _ if is_geometric(t) => Shape::Nothing,
        _ => Shape::Other,
    }
}

/// What an abstract run does after one instruction.
enum Next {
    /// Goes on with the next instruction.
    On,
    /// This path ends (a step off the board, a failed test).
    End,
    /// The program may capture anywhere (it reads the last move's cells).
    Anywhere,
}

impl Walk<'_> {
    fn step(&self, c: CellId, d: DirId) -> Option<CellId> {
        let graph: &Graph = self.facts.graph;
        let map = &self.v.players[self.player].direction_map;
        graph.step(c, map.get(d.0 as usize).copied().unwrap_or(d)).first().copied()
    }

    fn place(&self, st: &State, p: &Option<Place>) -> Option<CellId> {
        match p {
            None => Some(st.cur),
            Some(Place::Cell(c)) => Some(*c),
            Some(Place::Dir(d)) => self.step(st.cur, *d),
        }
    }

    /// The cell a test shows empty when it comes out `holds` (`empty?`, or `not-empty?` false).
    fn emptied(&self, st: &State, t: u16, holds: bool) -> Option<CellId> {
        match (&self.code.tests[t as usize], holds) {
            (Test::Empty(p), true) => self.place(st, p),
            (Test::Not(inner), false) => match &**inner {
                Test::Empty(p) => self.place(st, p),
                _ => None,
            },
            _ => None,
        }
    }

    /// The state going on after test `t` came out `holds`: what it showed empty is remembered.
    fn after(&self, st: State, t: u16, holds: bool) -> State {
        State { empty: self.emptied(&st, t, holds).or(st.empty), ..st }
    }

    /// Whether a change landing on `target` may take what stands there.
    fn takes(&self, st: &State, target: CellId) -> bool {
        !(st.empty == Some(target) || (target == self.start && st.start_empty))
    }

    /// Notes the cells test `t` reads in state `st` (every cell for a test that reads more
    /// than the contents of cells it names).
    #[inline]
    fn note_reads(&self, st: &State, t: u16) {
        let mut acc = self.reads.get();
        match self.shapes.get(t as usize) {
            // Also where the cells read are not kept (no shapes).
            None | Some(Shape::Nothing) => return,
            Some(Shape::Here) => acc |= read_bit(st.cur),
            _ => self.reads_of(st, &self.code.tests[t as usize], &mut acc),
        }
        self.reads.set(acc);
    }

    fn reads_of(&self, st: &State, t: &Test, acc: &mut u128) {
        match t {
            Test::True | Test::False | Test::InZone(..) | Test::OnBoard(_) | Test::At(_) | Test::Marked(_) => {}
            // A run's own flags, set by its own tests (which are noted where they are set).
            Test::Flag(_) | Test::CellFlag(..) => {}
            Test::Empty(p) | Test::Friend(p) | Test::Enemy(p) | Test::Piece(_, p) => {
                if let Some(c) = self.place(st, p) {
                    *acc |= read_bit(c);
                }
            }
            Test::Not(inner) => self.reads_of(st, inner, acc),
            Test::And(all) | Test::Or(all) => all.iter().for_each(|x| self.reads_of(st, x, acc)),
            Test::Holds(_) if is_geometric(t) => {}
            _ => *acc = u128::MAX,
        }
    }

    /// A test decided by geometry alone is followed; any other may go either way. A `from`
    /// zone is read where a run reads it: the moving piece's cell, or for a drop that has not
    /// named one, the current cell.
    fn decided(&self, t: u16, st: &State) -> Option<bool> {
        let test = &self.code.tests[t as usize];
        let from = st.from.unwrap_or(st.cur);
        is_geometric(test).then(|| geometric_holds(self.facts, self.v, self.player, from, st.cur, test))
    }

    /// A branch on test `t`: goes on at `target` where it fails, both ways where undecided.
    #[inline]
    fn branch(&self, st: &mut State, t: u16, target: u32, todo: &mut Vec<State>) {
        match self.decided(t, st) {
            Some(true) => {}
            Some(false) => st.pc = target,
            None => {
                todo.push(self.after(State { pc: target, ..*st }, t, false));
                *st = self.after(*st, t, true);
            }
        }
    }

    /// Follows one instruction (`st.pc` already past it), collecting the cells it may capture
    /// on in `out` and the branches it leaves in `todo`.
    fn op(&self, op: &Op, st: &mut State, todo: &mut Vec<State>, out: &mut Vec<CellId>, emits: &mut bool) -> Next {
        match op {
            Op::Step(d) => match self.step(st.cur, *d) {
                Some(n) => st.cur = n,
                None => return Next::End,
            },
            Op::Jump(c) => st.cur = *c,
            Op::Go(l) => match l {
                Landmark::From => match st.from {
                    Some(c) => st.cur = c,
                    None => return Next::End,
                },
                Landmark::To => st.cur = st.to.unwrap_or(st.cur),
                Landmark::Mark => st.cur = st.mark,
                Landmark::LastFrom | Landmark::LastTo => return Next::Anywhere,
            },
            Op::Mark(p) => match self.place(st, p) {
                Some(c) => st.mark = c,
                None => return Next::End,
            },
            Op::Back => st.cur = st.mark,
            Op::Verify(t) => {
                self.note_reads(st, *t);
                if self.decided(*t, st) == Some(false) {
                    return Next::End;
                }
                if st.cur == self.start && self.code.tests[*t as usize] == Test::Empty(None) {
                    st.start_empty = true;
                }
                *st = self.after(*st, *t, true);
            }
            Op::IfNot(t, target) => {
                self.note_reads(st, *t);
                self.branch(st, *t, *target, todo)
            }
            Op::Goto(target) => st.pc = *target,
            Op::LoopStart(_) => {}
            Op::While { test, exit, .. } => {
                // A cell found empty in an earlier round is forgotten at the round's head
                // unless the run stands on it or can go back to it by name: remembering every
                // such cell made a walk over the board's N cells N² states (a drop program
                // walking the board to list its empty cells spent the variant's whole
                // budget), and forgetting only lets a move there count as a capture.
                st.empty = st.empty.filter(|&e| e == st.cur || e == st.mark || Some(e) == st.to || Some(e) == st.from);
                self.note_reads(st, *test);
                self.branch(st, *test, *exit, todo)
            }
            Op::To => st.to = Some(st.cur),
            Op::From => st.from = Some(st.cur),
            Op::Cascade => {
                let target = st.to.unwrap_or(st.cur);
                if self.takes(st, target) {
                    out.push(target);
                }
                st.to = None;
                st.from = Some(st.cur);
            }
            Op::Add { .. } => {
                *emits = true;
                let target = st.to.unwrap_or(st.cur);
                if self.takes(st, target) {
                    out.push(target);
                }
            }
            Op::Capture(p) | Op::Create { at: p, .. } => match self.place(st, p) {
                Some(c) => out.push(c),
                None => return Next::End,
            },
            Op::SetCellFlag(_, t, p) => {
                self.note_reads(st, *t);
                if self.place(st, p).is_none() {
                    return Next::End;
                }
            }
            Op::ChangeType(_, p) | Op::ChangeOwner(p) | Op::Flip(p) => {
                if self.place(st, p).is_none() {
                    return Next::End;
                }
            }
            Op::SetFlag(_, t) | Op::SetAttribute(_, t) => self.note_reads(st, *t),
            Op::Around { dirs, when, .. } => {
                for &d in &self.code.dir_sets[*dirs as usize] {
                    if let Some(n) = self.step(st.cur, d) {
                        self.note_reads(&State { cur: n, ..*st }, *when);
                    }
                }
            }
        }
        Next::On
    }
}

/// [`reach`] exploring at most `cap` states, kept in `seen`.
#[allow(clippy::too_many_arguments)]
fn follow(
    v: &Variant,
    facts: &BoardFacts,
    (code, shapes): (&Code, &[Shape]),
    player: usize,
    start: CellId,
    drop: bool,
    cap: usize,
    seen: &mut States,
) -> Outcome {
    let walk = Walk { v, facts, code, player, start, reads: std::cell::Cell::new(0), shapes };
    let mut todo = vec![State {
        pc: 0,
        cur: start,
        mark: start,
        to: None,
        from: (!drop).then_some(start),
        start_empty: false,
        empty: None,
    }];
    let mut out: Vec<CellId> = Vec::new();
    let mut emits = false;
    let anywhere = Outcome { reach: Reach::Anywhere, emits: true, reads: u128::MAX };
    while let Some(mut st) = todo.pop() {
        loop {
            if !seen.insert(st) {
                break;
            }
            if seen.len() > cap {
                return anywhere;
            }
            let Some(op) = code.ops.get(st.pc as usize) else { break };
            st.pc += 1;
            match walk.op(op, &mut st, &mut todo, &mut out, &mut emits) {
                Next::On => {}
                Next::End => break,
                Next::Anywhere => return anywhere,
            }
        }
    }
    out.sort();
    out.dedup();
    // The piece's own cell is read where a run starts (it must hold the piece).
    let own = read_bit(start);
    Outcome { reach: Reach::Cells(out), emits, reads: walk.reads.get() | own }
}
