//! Lean runs: a program whose every `add` moves its piece alone, with tests of cells only, run straight into ordinary moves.
//!
//! Such a program (see [`Code::lean`]) emits nothing but its piece's move from its cell to the
//! current one, so a run needs no change log, no scratch space and no emission records: each
//! `add` is the ordinary move the full run would have made of it. Equal moves of several
//! programs are merged by the caller's `dedup_from`, as the full run's emissions are. A run
//! that `add`s on its own start cell (a move of another kind) or passes the step limit gives
//! up, and the caller runs the piece's programs in full.
//!
//! Where a lean program has a `cascade` (the `LeanCascades` path), an `add` after it moves the
//! piece to the cell where the cascade stood and sends the piece standing there to the
//! current cell: a program move (made by replaying the program), numbered as the full run
//! numbers its emissions. A second cascade, or a cascade whose pieces would meet on a cell
//! already in the move, gives up.

use crate::ir::{CellId, DirId, Place, PlayerId, Test};
use crate::limits::PROGRAM_STEPS;
use crate::position::{Move, MoveKind, State};
use crate::rules::programs::code::{table_holds, Code, Op, MAX_LOOP_LEVELS, NO_CELL};
use crate::rules::{Piece, Rules};

/// The most emissions a lean run of a code with a cascade numbers (more: the full run lists).
const MAX_EMISSIONS: usize = 32;

/// Where a lean run stands: the rules, the position, the mover's side and the current cell.
struct Lean<'a> {
    st: &'a State,
    r: &'a Rules,
    /// Per (direction, cell) as the mover reads directions: the cell one step away.
    next: &'a [CellId],
    side: PlayerId,
    cur: CellId,
    mark: CellId,
    /// A piece imagined on a cell (an attack probe's victim on an empty cell); the cell is
    /// [`NO_CELL`] when none.
    imagined: (CellId, Piece),
}

/// What a lean walk's caller says of an `add`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    /// Go on.
    On,
    /// Stop the walk.
    Stop,
    /// Give up: the full run decides.
    GiveUp,
}

/// How a lean walk ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Walk {
    /// The program ran to its end (or off the board).
    Ended,
    /// The caller's `add` asked to stop.
    Stopped,
    /// The run gave up: the full run decides.
    GaveUp,
}

impl Lean<'_> {
    /// The piece on a cell, or the imagined one.
    #[inline(always)]
    fn at(&self, c: CellId) -> Piece {
        if c == self.imagined.0 {
            return self.imagined.1;
        }
        self.st.cells[c.0 as usize]
    }

    #[inline(always)]
    fn neighbour(&self, c: CellId, d: DirId) -> Option<CellId> {
        let n = self.next.get(d.0 as usize * self.r.cells + c.0 as usize).copied().unwrap_or(NO_CELL);
        (n != NO_CELL).then_some(n)
    }

    #[inline(always)]
    fn place(&self, p: &Option<Place>) -> Option<CellId> {
        match p {
            None => Some(self.cur),
            Some(Place::Cell(c)) => Some(*c),
            Some(Place::Dir(d)) => self.neighbour(self.cur, *d),
        }
    }

    /// Test `t` of `code`: from its table where it reads only the piece on one place.
    #[inline(always)]
    fn check(&self, code: &Code, t: u16) -> bool {
        match code.cell_tables.get(t as usize) {
            Some((place, table)) if !table.is_empty() => {
                let piece = self.place(place).map(|c| self.at(c));
                table_holds(table, self.r.players, self.side, piece)
            }
            _ => self.test(&code.tests[t as usize]),
        }
    }

    /// Whether the cell holds a piece satisfying `f` (a hole holds none).
    #[inline(always)]
    fn any_piece(&self, c: CellId, f: impl Fn(Piece) -> bool) -> bool {
        let p = self.at(c);
        !p.is_empty() && p != Piece::HOLE && f(p)
    }

    /// A test of cells, as the full run reads it on a board without stacks or locations
    /// between cells (the only tests [`Code::lean`] admits).
    fn test(&self, t: &Test) -> bool {
        let (r, side) = (self.r, self.side);
        match t {
            Test::True => true,
            Test::False => false,
            Test::Empty(p) => self.place(p).is_some_and(|c| self.at(c).is_empty()),
            Test::Friend(p) => self.place(p).is_some_and(|c| self.any_piece(c, |q| r.allied(r.owner(q), side))),
            Test::Enemy(p) => self.place(p).is_some_and(|c| self.any_piece(c, |q| !r.allied(r.owner(q), side))),
            Test::Piece(ty, p) => self.place(p).is_some_and(|c| self.any_piece(c, |q| r.type_of(q) == *ty)),
            Test::InZone(z, p) => self.place(p).is_some_and(|c| r.in_zone(*z, side, c)),
            Test::OnBoard(p) => self.place(&Some(*p)).is_some(),
            Test::At(c) => self.cur == *c,
            Test::Marked(p) => self.place(p) == Some(self.mark),
            Test::Not(inner) => !self.test(inner),
            Test::And(all) => all.iter().all(|x| self.test(x)),
            Test::Or(any) => any.iter().any(|x| self.test(x)),
            // Not admitted by `Code::lean`.
            _ => unreachable!("a lean run met a test it does not read"),
        }
    }

    /// Whether test `when` of `code` holds with some neighbour along `dirs` as the current
    /// cell (as the full run's `around`), read from its table where it has one.
    fn around(&mut self, code: &Code, dirs: &[DirId], when: u16, piece: bool) -> bool {
        let here = self.cur;
        let mut hit = false;
        for &d in dirs {
            if let Some(n) = self.neighbour(here, d) {
                let q = self.at(n);
                if piece && (q.is_empty() || q == Piece::HOLE) {
                    continue;
                }
                self.cur = n;
                if self.check(code, when) {
                    hit = true;
                    break;
                }
            }
        }
        self.cur = here;
        hit
    }
}

impl State {
    /// Runs a lean program (see [`Code::lean`]) for `side`'s `piece` on `from`, pushing its
    /// moves on `out` as the full run and `program_moves_of` would make them (each `add` an
    /// ordinary move, before duplicates are merged). False where the run gives up (`out` then
    /// holds part of its moves). In line: the listing runs it once per lean program.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn lean_run(
        &self,
        r: &Rules,
        next: &[CellId],
        code: &Code,
        side: PlayerId,
        from: CellId,
        piece: Piece,
        move_type: u8,
        out: &mut Vec<Move>,
    ) -> bool {
        let walk = self.lean_walk::<false>(r, next, code, (side, from), (NO_CELL, Piece::EMPTY), |to, promote, _| {
            let mv = Move {
                from,
                to,
                kind: MoveKind::Normal,
                promote: 0,
                extra: 0,
                piece,
                take: self.cells[to.0 as usize],
                seq: 0,
                move_type,
                gate: 0,
                wall: 0,
            };
            let types = &code.promotions[promote as usize];
            if types.is_empty() {
                out.push(mv);
            }
            for t in types {
                out.push(Move { promote: t.0 + 1, ..mv });
            }
            Flow::On
        });
        walk != Walk::GaveUp
    }

    /// [`State::lean_run`] for a code with a cascade (or any lean code of a piece that has
    /// one): its moves of the piece alone are ordinary
    /// moves, those that send a taken piece on are program moves (program `program`, numbered
    /// as the full run numbers its emissions: an emission met again in the run is not one more).
    /// Kept out of line, so that the other lean runs stay as they were.
    #[inline(never)]
    pub(crate) fn lean_cascade_run(
        &self,
        r: &Rules,
        next: &[CellId],
        code: &Code,
        (side, from, piece): (PlayerId, CellId, Piece),
        (move_type, program): (u8, u16),
        out: &mut Vec<Move>,
    ) -> bool {
        // The emissions so far: (target, promotion plus one, where the taken piece goes).
        let mut met = [(NO_CELL, 0u8, NO_CELL); MAX_EMISSIONS];
        let mut count = 0usize;
        let walk = self.lean_walk::<true>(r, next, code, (side, from), (NO_CELL, Piece::EMPTY), |to, promote, sent| {
            let types = &code.promotions[promote as usize];
            let plain = types.is_empty().then_some(0);
            for p in plain.into_iter().chain(types.iter().map(|t| t.0 + 1)) {
                let seq = match met[..count].iter().position(|m| *m == (to, p, sent)) {
                    Some(k) => k,
                    None if count < MAX_EMISSIONS => {
                        met[count] = (to, p, sent);
                        count += 1;
                        count - 1
                    }
                    None => return Flow::GiveUp,
                };
                let mv = Move {
                    from,
                    to,
                    kind: MoveKind::Normal,
                    promote: p,
                    extra: 0,
                    piece,
                    take: self.cells[to.0 as usize],
                    seq: 0,
                    move_type,
                    gate: 0,
                    wall: 0,
                };
                if sent == NO_CELL {
                    // A repeat is merged by the caller's `dedup_from`, as in `lean_run`.
                    out.push(mv);
                } else if seq + 1 == count {
                    // The mover leaves the cell it lands on to the taken piece's going: what the
                    // move takes first is what stands where that piece goes.
                    let q = self.cells[sent.0 as usize];
                    let enemy = !q.is_empty() && q != Piece::HOLE && !r.allied(r.owner(q), side);
                    let take = if enemy { q } else { Piece::EMPTY };
                    out.push(Move { kind: MoveKind::Program, extra: program, take, seq: seq as u16, ..mv });
                }
            }
            Flow::On
        });
        walk != Walk::GaveUp
    }

    /// Whether a lean program of `side`'s piece on `from` captures on `target` (with
    /// `imagined` standing there, if given), as the full run's probe answers it (a lean
    /// program's moves take what stands where they land); `None` where the run gives up. In
    /// line: an attack probe runs it once per program.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn lean_hits(
        &self,
        r: &Rules,
        next: &[CellId],
        code: &Code,
        side: PlayerId,
        from: CellId,
        target: CellId,
        imagined: Option<Piece>,
    ) -> Option<bool> {
        let imagined = imagined.map_or((NO_CELL, Piece::EMPTY), |p| (target, p));
        let hits = |to, _, _| if to == target { Flow::Stop } else { Flow::On };
        match self.lean_walk::<false>(r, next, code, (side, from), imagined, hits) {
            Walk::Ended => Some(false),
            Walk::Stopped => Some(true),
            Walk::GaveUp => None,
        }
    }

    /// [`State::lean_hits`] for a code with a cascade ([`Code::cascades`]). Kept out of line,
    /// so that the other lean probes stay as they were.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    pub(crate) fn lean_cascade_hits(
        &self,
        r: &Rules,
        next: &[CellId],
        code: &Code,
        side: PlayerId,
        from: CellId,
        target: CellId,
        imagined: Option<Piece>,
    ) -> Option<bool> {
        let imagined = imagined.map_or((NO_CELL, Piece::EMPTY), |p| (target, p));
        // A cascade's taken piece lands on a cell it found empty: the full run decides one
        // landing on the target.
        let hits = |to, _, sent| match sent {
            NO_CELL if to == target => Flow::Stop,
            NO_CELL => Flow::On,
            _ if sent == target => Flow::GiveUp,
            _ => Flow::On,
        };
        match self.lean_walk::<true>(r, next, code, (side, from), imagined, hits) {
            Walk::Ended => Some(false),
            Walk::Stopped => Some(true),
            Walk::GaveUp => None,
        }
    }

    /// Walks a lean program for `side` from `from`, calling `add` with each `add`'s cell, its
    /// promotion set and, with `CASCADES` ([`Code::cascades`]), the cell a `cascade` sends the
    /// taken piece to ([`NO_CELL`] else); never the start cell, nor a hole. Generic over
    /// `CASCADES` so that the walk of the codes without one keeps its small loop.
    #[inline(always)]
    fn lean_walk<const CASCADES: bool>(
        &self,
        r: &Rules,
        next: &[CellId],
        code: &Code,
        (side, from): (PlayerId, CellId),
        imagined: (CellId, Piece),
        mut add: impl FnMut(CellId, u16, CellId) -> Flow,
    ) -> Walk {
        let mut run = Lean { st: self, r, next, side, cur: from, mark: from, imagined };
        // Where a `cascade` stood ([`NO_CELL`] before one): the mover lands there.
        let mut cascade = NO_CELL;
        let bound = r.cell_count() as u32 + 1;
        let mut loops = [0u32; MAX_LOOP_LEVELS];
        let loops = &mut loops[..(code.loop_levels as usize).min(MAX_LOOP_LEVELS)];
        let mut steps = 0u32;
        let mut pc = 0usize;
        while let Some(op) = code.ops.get(pc) {
            steps += 1;
            // The full run's limit grows with the moves it makes: it decides such a run.
            if steps > PROGRAM_STEPS {
                return Walk::GaveUp;
            }
            pc += 1;
            match op {
                Op::Step(d) => match run.neighbour(run.cur, *d) {
                    Some(n) => run.cur = n,
                    None => return Walk::Ended,
                },
                Op::Mark(p) => match run.place(p) {
                    Some(c) => run.mark = c,
                    None => return Walk::Ended,
                },
                Op::Back => run.cur = run.mark,
                Op::Verify(t) => {
                    if !run.check(code, *t) {
                        return Walk::Ended;
                    }
                }
                Op::IfNot(t, target) => {
                    if !run.check(code, *t) {
                        pc = *target as usize;
                    }
                }
                Op::Goto(target) => pc = *target as usize,
                Op::LoopStart(level) => loops[*level as usize] = 0,
                Op::While { test, exit, level } => {
                    if !run.check(code, *test) {
                        pc = *exit as usize;
                    } else {
                        loops[*level as usize] += 1;
                        if loops[*level as usize] > bound {
                            return Walk::Ended;
                        }
                    }
                }
                Op::Around { dirs, when, piece } => {
                    if run.around(code, &code.dir_sets[*dirs as usize], *when, *piece) {
                        return Walk::Ended;
                    }
                }
                Op::Add { promote, .. } => {
                    let here = run.cur;
                    // A move back to its own cell is not an ordinary move.
                    if here == from {
                        return Walk::GaveUp;
                    }
                    // A move landing on a hole is not made.
                    if self.cells[here.0 as usize] == Piece::HOLE {
                        continue;
                    }
                    let (to, sent) = match cascade {
                        NO_CELL => (here, NO_CELL),
                        // The taken piece staying where it was taken is no cascade a lean run reads.
                        at if at == here => return Walk::GaveUp,
                        at => (at, here),
                    };
                    match add(to, *promote, sent) {
                        Flow::On => {}
                        Flow::Stop => return Walk::Stopped,
                        Flow::GiveUp => return Walk::GaveUp,
                    }
                }
                Op::Jump(c) if CASCADES => run.cur = *c,
                Op::Cascade if CASCADES => {
                    // The mover will land here, and the piece standing here go on.
                    let q = run.at(run.cur);
                    if cascade != NO_CELL || run.cur == from || q.is_empty() || q == Piece::HOLE {
                        return Walk::GaveUp;
                    }
                    cascade = run.cur;
                }
                // Not admitted by `Code::lean`.
                _ => return Walk::GaveUp,
            }
        }
        Walk::Ended
    }
}
