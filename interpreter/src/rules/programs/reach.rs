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

/// The reach of a program's code for `player` from `start` (`drop`: no piece stands there),
/// spending the states it explores from `left` (what is left of [`MAX_VARIANT_STATES`]).
pub(crate) fn reach(
    v: &Variant,
    facts: &BoardFacts,
    code: &Code,
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
        let outcome = follow(v, facts, code, player, start, drop, cap, &mut seen);
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

/// [`reach`] exploring at most `cap` states, kept in `seen`.
#[allow(clippy::too_many_arguments)]
fn follow(
    v: &Variant,
    facts: &BoardFacts,
    code: &Code,
    player: usize,
    start: CellId,
    drop: bool,
    cap: usize,
    seen: &mut States,
) -> Outcome {
    let graph: &Graph = facts.graph;
    let map = &v.players[player].direction_map;
    let step = |c: CellId, d: DirId| graph.step(c, map.get(d.0 as usize).copied().unwrap_or(d)).first().copied();
    let place = |st: &State, p: &Option<Place>| match p {
        None => Some(st.cur),
        Some(Place::Cell(c)) => Some(*c),
        Some(Place::Dir(d)) => step(st.cur, *d),
    };
    // The cell a test shows empty when it comes out `holds` (`empty?`, or `not-empty?` false).
    let emptied = |st: &State, t: u16, holds: bool| match (&code.tests[t as usize], holds) {
        (Test::Empty(p), true) => place(st, p),
        (Test::Not(inner), false) => match &**inner {
            Test::Empty(p) => place(st, p),
            _ => None,
        },
        _ => None,
    };
    // The state going on after test `t` came out `holds`: what it showed empty is remembered.
    let after = |st: State, t: u16, holds: bool| State { empty: emptied(&st, t, holds).or(st.empty), ..st };
    // A change landing on `target` may take what stands there.
    let takes = |st: &State, target: CellId| !(st.empty == Some(target) || (target == start && st.start_empty));
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
    let anywhere = Outcome { reach: Reach::Anywhere, emits: true };
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
            // A test decided by geometry alone is followed; any other may go either way. A
            // `from` zone is read where a run reads it: the moving piece's cell, or for a
            // drop that has not named one, the current cell.
            let decided = |t: u16, st: &State| {
                let test = &code.tests[t as usize];
                let from = st.from.unwrap_or(st.cur);
                is_geometric(test).then(|| geometric_holds(facts, v, player, from, st.cur, test))
            };
            match op {
                Op::Step(d) => match step(st.cur, *d) {
                    Some(n) => st.cur = n,
                    None => break,
                },
                Op::Jump(c) => st.cur = *c,
                Op::Go(l) => match l {
                    Landmark::From => match st.from {
                        Some(c) => st.cur = c,
                        None => break,
                    },
                    Landmark::To => st.cur = st.to.unwrap_or(st.cur),
                    Landmark::Mark => st.cur = st.mark,
                    Landmark::LastFrom | Landmark::LastTo => return anywhere,
                },
                Op::Mark(p) => match place(&st, p) {
                    Some(c) => st.mark = c,
                    None => break,
                },
                Op::Back => st.cur = st.mark,
                Op::Verify(t) => {
                    if decided(*t, &st) == Some(false) {
                        break;
                    }
                    if st.cur == start && code.tests[*t as usize] == Test::Empty(None) {
                        st.start_empty = true;
                    }
                    st = after(st, *t, true);
                }
                Op::IfNot(t, target) => match decided(*t, &st) {
                    Some(true) => {}
                    Some(false) => st.pc = *target,
                    None => {
                        todo.push(after(State { pc: *target, ..st }, *t, false));
                        st = after(st, *t, true);
                    }
                },
                Op::Goto(target) => st.pc = *target,
                Op::LoopStart(_) => {}
                Op::While { test, exit, .. } => match decided(*test, &st) {
                    Some(true) => {}
                    Some(false) => st.pc = *exit,
                    None => {
                        todo.push(after(State { pc: *exit, ..st }, *test, false));
                        st = after(st, *test, true);
                    }
                },
                Op::To => st.to = Some(st.cur),
                Op::From => st.from = Some(st.cur),
                Op::Cascade => {
                    let target = st.to.unwrap_or(st.cur);
                    if takes(&st, target) {
                        out.push(target);
                    }
                    st.to = None;
                    st.from = Some(st.cur);
                }
                Op::Add { .. } => {
                    emits = true;
                    let target = st.to.unwrap_or(st.cur);
                    if takes(&st, target) {
                        out.push(target);
                    }
                }
                Op::Capture(p) | Op::Create { at: p, .. } => match place(&st, p) {
                    Some(c) => out.push(c),
                    None => break,
                },
                Op::ChangeType(_, p) | Op::ChangeOwner(p) | Op::Flip(p) | Op::SetCellFlag(_, _, p) => {
                    if place(&st, p).is_none() {
                        break;
                    }
                }
                Op::SetFlag(..) | Op::SetAttribute(..) => {}
            }
        }
    }
    out.sort();
    out.dedup();
    Outcome { reach: Reach::Cells(out), emits }
}
