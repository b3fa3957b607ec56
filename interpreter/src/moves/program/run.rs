//! Running flattened move programs: the moves a run emits with their changes, and whether a run could capture on a cell.

use crate::ir::{AddKind, AttributeId, CellId, DirId, Landmark, MoveTypeId, PieceTypeId, Place, PlayerId, Test};
use crate::limits::{PROGRAM_STEPS, PROGRAM_STEPS_PER_MOVE};
use crate::position::{MoveKind, State};
use crate::rules::programs::code::{Code, Op, MAX_LOOP_LEVELS, NO_CELL};
use crate::rules::{Piece, Rules};

mod emit;

/// One change a program collects for its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Change {
    /// Remove the pieces on the cell.
    Capture(CellId),
    /// The piece `piece` on `from` goes to `to` (becoming `promote` when set); `copy`: a new
    /// piece of its kind appears there and it stays.
    Go { from: CellId, to: CellId, piece: Piece, promote: Option<PieceTypeId>, copy: bool },
    /// A new piece of this owner and type appears.
    Create(CellId, PlayerId, PieceTypeId),
    /// The piece there becomes this type.
    Retype(CellId, PieceTypeId),
    /// The piece there now belongs to this player (`None`: the next player after its owner).
    Reown(CellId, Option<PlayerId>),
    /// The attribute of the piece there is set or unset.
    Attribute(CellId, AttributeId, bool),
    /// A drop: a new piece lands on the cell (the first piece: promoted side up where the
    /// program said so), and one of the second, the dropping piece, leaves the hand (or the
    /// endless supply).
    Drop(CellId, Piece, Piece),
}

/// A move a run emitted; its changes are `changes[ops.0..ops.1]` of the scratch space.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Emission {
    pub(crate) to: CellId,
    pub(crate) promote: Option<PieceTypeId>,
    /// For a partial move: the move type the piece continues with (`Some(None)`: any).
    pub(crate) partial: Option<Option<MoveTypeId>>,
    /// The piece captured first, for notation and move ordering.
    pub(crate) take: Piece,
    pub(crate) ops: (u32, u32),
}

/// Reusable buffers of runs, so that running a program does not allocate once warm.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    /// Changes collected by the run in progress.
    pending: Vec<Change>,
    cell_flags: Vec<(CellId, u8, bool)>,
    /// Emitted moves, and their changes.
    pub(crate) emissions: Vec<Emission>,
    pub(crate) changes: Vec<Change>,
    /// The emissions a listing made moves of, with the moves' range in its list (see
    /// `program_moves_of`); kept here so that a listing does not allocate once warm.
    pub(crate) made: Vec<(usize, std::ops::Range<usize>)>,
}

impl Scratch {
    /// The changes of an emission.
    pub(crate) fn changes_of(&self, e: &Emission) -> &[Change] {
        &self.changes[e.ops.0 as usize..e.ops.1 as usize]
    }

    /// Forgets earlier emissions.
    pub(crate) fn clear(&mut self) {
        self.emissions.clear();
        self.changes.clear();
    }
}

thread_local! {
    /// Scratch spaces of program runs on this thread, reused so that runs do not allocate.
    static POOL: std::cell::RefCell<Vec<Scratch>> = const { std::cell::RefCell::new(Vec::new()) };
    /// The first run on this thread that passed its steps since last asked: the moving piece's
    /// type and the cell the run started from (see [`crate::position::Position::take_cut_run`]).
    static CUT: std::cell::Cell<Option<(PieceTypeId, CellId)>> = const { std::cell::Cell::new(None) };
}

impl crate::position::Position {
    /// The first run of a move program on this thread that passed its steps
    /// ([`PROGRAM_STEPS`], and [`PROGRAM_STEPS_PER_MOVE`] more per move it had produced) since
    /// the last call, as the moving piece's name and the cell the run started from, and
    /// forgets it (`varia check` warns of it).
    pub fn take_cut_run(&self) -> Option<(String, String)> {
        let (t, c) = CUT.with(|cut| cut.take())?;
        let name = self.rules().variant.pieces.get(t.0 as usize).map_or("?", |p| p.name.as_str());
        Some((name.to_string(), self.rules().cell_name(c).to_string()))
    }
}

/// Where and for whom a program runs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Start {
    pub(crate) side: PlayerId,
    /// The cell the current cell starts on.
    pub(crate) cell: CellId,
    /// Where the moving piece stands (the start cell, or the location between cells of a
    /// piece covering it); `None` for a drop.
    pub(crate) stands: Option<CellId>,
    /// The moving piece (for a drop: the new piece).
    pub(crate) mover: Piece,
}

/// What a run looks for besides emitting moves.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Probe {
    /// Stop at the first emission that removes the piece on this cell.
    pub(crate) target: Option<CellId>,
    /// A piece imagined on a cell (for `attacked` on an empty cell).
    pub(crate) imagined: Option<(CellId, Piece)>,
    /// Nesting of `attacked` tests (they run the other side's programs).
    pub(crate) depth: u8,
    /// A hit counts only if the mover's blast, centred where the move lands, spares its own
    /// royal pieces (where captures explode, a royal is attacked only by such captures).
    pub(crate) blast: bool,
}

struct Run<'a> {
    st: &'a State,
    r: &'a Rules,
    /// Per (direction, cell) as the mover reads directions: the cell one step away.
    next: &'a [CellId],
    code: &'a Code,
    s: &'a mut Scratch,
    start: Start,
    probe: Probe,
    mover: Piece,
    from: Option<CellId>,
    first_to: Option<CellId>,
    to: Option<CellId>,
    cur: CellId,
    mark: CellId,
    flags: u64,
    drop: bool,
    hit: bool,
    first: usize,
}

impl<'a> Run<'a> {
    fn piece(&self, c: CellId) -> Piece {
        if let Some((at, p)) = self.probe.imagined {
            if at == c {
                return p;
            }
        }
        let p = self.st.cells[c.0 as usize];
        // A piece covering cells from between them does not block itself.
        if self.r.between.on && !p.is_empty() && Some(self.st.standing_at(c)) == self.start.stands {
            return Piece::EMPTY;
        }
        p
    }

    /// Whether some piece on the cell satisfies `f` (every piece of a stack counts).
    fn any_piece(&self, c: CellId, f: impl Fn(Piece) -> bool) -> bool {
        let p = self.piece(c);
        if p.is_empty() || p == Piece::HOLE {
            return false;
        }
        if self.r.stacks.on && self.r.is_stack_cell(c) && self.probe.imagined.is_none_or(|(at, _)| at != c) {
            return self.st.pieces_at(self.r, c).iter().any(|q| f(*q));
        }
        f(p)
    }

    #[inline]
    fn neighbour(&self, c: CellId, d: DirId) -> Option<CellId> {
        let n = self.next.get(d.0 as usize * self.r.cells + c.0 as usize).copied().unwrap_or(NO_CELL);
        (n != NO_CELL).then_some(n)
    }

    fn place(&self, p: &Option<Place>) -> Option<CellId> {
        match p {
            None => Some(self.cur),
            Some(Place::Cell(c)) => Some(*c),
            Some(Place::Dir(d)) => self.neighbour(self.cur, *d),
        }
    }

    fn last_move(&self) -> Option<crate::position::Move> {
        self.st.last_move()
    }

    /// Runs the code; returns when it ends, fails, or finds its target.
    fn exec(&mut self) {
        let code = self.code;
        let bound = self.r.cell_count() as u32 + 1;
        let mut loops = [0u32; MAX_LOOP_LEVELS];
        let loops = &mut loops[..(code.loop_levels as usize).min(MAX_LOOP_LEVELS)];
        let mut steps = 0u32;
        let mut pc = 0usize;
        while let Some(op) = code.ops.get(pc) {
            steps += 1;
            if steps > PROGRAM_STEPS && self.cut(steps) {
                return;
            }
            pc += 1;
            match op {
                Op::Step(d) => match self.neighbour(self.cur, *d) {
                    Some(n) => self.cur = n,
                    None => return,
                },
                Op::Jump(c) => self.cur = *c,
                Op::Go(l) => {
                    let at = match l {
                        Landmark::From => self.from.or(self.start.stands),
                        Landmark::To => Some(self.to.unwrap_or(self.cur)),
                        Landmark::Mark => Some(self.mark),
                        Landmark::LastFrom => self.last_move().map(|m| m.from),
                        Landmark::LastTo => self.last_move().map(|m| m.to),
                    };
                    match at {
                        Some(c) => self.cur = c,
                        None => return,
                    }
                }
                Op::Mark(p) => match self.place(p) {
                    Some(c) => self.mark = c,
                    None => return,
                },
                Op::Back => self.cur = self.mark,
                Op::Verify(t) => {
                    if !self.test(&code.tests[*t as usize]) {
                        return;
                    }
                }
                Op::IfNot(t, target) => {
                    if !self.test(&code.tests[*t as usize]) {
                        pc = *target as usize;
                    }
                }
                Op::Goto(target) => pc = *target as usize,
                Op::Around { dirs, when, piece } => {
                    if self.around(&code.dir_sets[*dirs as usize], &code.tests[*when as usize], *piece) {
                        return;
                    }
                }
                Op::LoopStart(level) => loops[*level as usize] = 0,
                Op::While { test, exit, level } => {
                    if !self.test(&code.tests[*test as usize]) {
                        pc = *exit as usize;
                    } else {
                        // A loop that walks the board meets every cell at most once per round.
                        loops[*level as usize] += 1;
                        if loops[*level as usize] > bound {
                            return;
                        }
                    }
                }
                Op::To => self.to = Some(self.cur),
                Op::From => {
                    let p = self.piece(self.cur);
                    if p.is_empty() || p == Piece::HOLE {
                        return;
                    }
                    self.mover = p;
                    self.from = Some(self.cur);
                    self.drop = false;
                }
                Op::Cascade => {
                    let dest = self.to.unwrap_or(self.cur);
                    self.push_move(dest, None, false);
                    self.to = None;
                    // The next mover is whatever stands here (a `from` may name another).
                    self.mover = self.piece(self.cur);
                    self.from = Some(self.cur);
                    self.drop = false;
                }
                _ => {
                    if !self.effect(op) {
                        return;
                    }
                }
            }
        }
    }

    /// Whether test `when` holds with some neighbour along `dirs` as the current cell (the
    /// parts of an `and` read in line, the first that fails ending the neighbour's test); with
    /// `piece`, a neighbour holding none is passed over unread.
    /// Kept out of line: in line it made the loop of every other game's runs heavier.
    #[inline(never)]
    fn around(&mut self, dirs: &[DirId], when: &Test, piece: bool) -> bool {
        let parts = match when {
            Test::And(all) => all.as_slice(),
            one => std::slice::from_ref(one),
        };
        let here = self.cur;
        let mut hit = false;
        for &d in dirs {
            if let Some(n) = self.neighbour(here, d) {
                if piece {
                    let p = self.piece(n);
                    if p.is_empty() || p == Piece::HOLE {
                        continue;
                    }
                }
                self.cur = n;
                if parts.iter().all(|t| self.test(t)) {
                    hit = true;
                    break;
                }
            }
        }
        self.cur = here;
        hit
    }

    /// Whether the run passed its steps: a constant, and a constant more per move it has
    /// produced (the first run cut on this thread is remembered for `varia check`).
    #[cold]
    fn cut(&self, steps: u32) -> bool {
        let allowed = PROGRAM_STEPS
            .saturating_add(PROGRAM_STEPS_PER_MOVE.saturating_mul((self.s.emissions.len() - self.first) as u32));
        if steps <= allowed {
            return false;
        }
        let at = (self.r.type_of(self.start.mover), self.start.cell);
        CUT.with(|cut| cut.set(cut.get().or(Some(at))));
        true
    }

    /// An instruction that emits a move or collects a change; false where the run ends (a
    /// place off the board, the probe's target hit).
    fn effect(&mut self, op: &Op) -> bool {
        let code = self.code;
        match op {
            Op::Add { kind, promote, then } => {
                let dest = self.to.unwrap_or(self.cur);
                let copy = matches!(kind, AddKind::Copy | AddKind::CopyPartial);
                let partial = matches!(kind, AddKind::Partial | AddKind::CopyPartial).then_some(*then);
                let types = &code.promotions[*promote as usize];
                if types.is_empty() {
                    self.emit(dest, None, copy, partial);
                } else {
                    for t in types {
                        self.emit(dest, Some(*t), copy, partial);
                        if self.hit {
                            return false;
                        }
                    }
                }
                if self.hit {
                    return false;
                }
            }
            Op::Capture(p) => {
                let Some(c) = self.place(p) else { return false };
                let q = self.piece(c);
                // A piece that cannot be captured where it stands (alone on a lone-inert
                // cell, in a crowd-safe crowd) is not taken by a program either: the
                // instruction fails, as a power's capture could not be made there.
                if !q.is_empty() && q != Piece::HOLE {
                    if !self.st.capturable_on(self.r, c, self.start.side, 0) {
                        return false;
                    }
                    self.capture(c);
                }
            }
            Op::ChangeType(t, p) => {
                let Some(c) = self.place(p) else { return false };
                self.s.pending.push(Change::Retype(c, *t));
            }
            Op::ChangeOwner(p) => {
                let Some(c) = self.place(p) else { return false };
                self.s.pending.push(Change::Reown(c, Some(self.start.side)));
            }
            Op::Flip(p) => {
                let Some(c) = self.place(p) else { return false };
                self.s.pending.push(Change::Reown(c, None));
            }
            Op::Create { owner, piece, at } => {
                let Some(c) = self.place(at) else { return false };
                let owner = owner.unwrap_or(self.start.side);
                let ty = piece.unwrap_or_else(|| self.r.type_of(self.mover));
                self.s.pending.push(Change::Create(c, owner, ty));
            }
            Op::SetFlag(f, t) => {
                let v = self.test(&code.tests[*t as usize]);
                let bit = 1u64 << (f.0 % 64);
                if v {
                    self.flags |= bit
                } else {
                    self.flags &= !bit
                }
            }
            Op::SetCellFlag(f, t, p) => {
                let v = self.test(&code.tests[*t as usize]);
                let Some(c) = self.place(p) else { return false };
                self.s.cell_flags.retain(|(x, g, _)| !(*x == c && *g == f.0));
                self.s.cell_flags.push((c, f.0, v));
            }
            Op::SetAttribute(a, t) => {
                let v = self.test(&code.tests[*t as usize]);
                self.s.pending.push(Change::Attribute(self.cur, *a, v));
            }
            _ => {}
        }
        true
    }

    /// A test; a test of a place that does not exist is false. The tests of the current
    /// cell's contents and of the board's edge, and their negations (most of the tests runs
    /// make), are read in line; the others in [`Run::test_any`].
    #[inline(always)]
    fn test(&mut self, t: &Test) -> bool {
        if let Some(v) = self.quick_test(t) {
            return v;
        }
        if let Test::Not(inner) = t {
            if let Some(v) = self.quick_test(inner) {
                return !v;
            }
        }
        self.test_any(t)
    }

    /// The value of a test of the current cell's contents or of the board's edge, as
    /// [`Run::test_any`] gives it; `None` for the other tests.
    #[inline(always)]
    fn quick_test(&self, t: &Test) -> Option<bool> {
        let r = self.r;
        let side = self.start.side;
        Some(match t {
            Test::Empty(None) => self.piece(self.cur).is_empty(),
            Test::Friend(None) => self.any_piece(self.cur, |q| r.allied(r.owner(q), side)),
            Test::Enemy(None) => self.any_piece(self.cur, |q| !r.allied(r.owner(q), side)),
            Test::Piece(ty, None) => self.any_piece(self.cur, |q| r.type_of(q) == *ty),
            Test::OnBoard(p) => self.place(&Some(*p)).is_some(),
            _ => return None,
        })
    }

    /// Any test (see [`Run::test`]).
    fn test_any(&mut self, t: &Test) -> bool {
        let r = self.r;
        let side = self.start.side;
        match t {
            Test::True => true,
            Test::False => false,
            Test::Empty(p) => self.place(p).is_some_and(|c| self.piece(c).is_empty()),
            Test::Friend(p) => self.place(p).is_some_and(|c| self.any_piece(c, |q| r.allied(r.owner(q), side))),
            Test::Enemy(p) => self.place(p).is_some_and(|c| self.any_piece(c, |q| !r.allied(r.owner(q), side))),
            Test::Piece(ty, p) => self.place(p).is_some_and(|c| self.any_piece(c, |q| r.type_of(q) == *ty)),
            Test::InZone(z, p) => self.place(p).is_some_and(|c| r.in_zone(*z, side, c)),
            Test::OnBoard(p) => self.place(&Some(*p)).is_some(),
            Test::At(c) => self.cur == *c,
            Test::LastFrom(p) => {
                let last = self.last_move();
                self.place(p).is_some_and(|c| last.is_some_and(|m| m.from == c && m.kind != MoveKind::Drop))
            }
            Test::LastTo(p) => {
                let last = self.last_move();
                self.place(p).is_some_and(|c| last.is_some_and(|m| m.to == c))
            }
            Test::Marked(p) => self.place(p) == Some(self.mark),
            Test::Attacked(ty, p) => self.place(p).is_some_and(|c| self.attacked_here(c, *ty, false)),
            Test::Defended(ty, p) => self.place(p).is_some_and(|c| self.attacked_here(c, *ty, true)),
            Test::AdjacentToEnemy(p) => self.place(p).is_some_and(|c| {
                (0..r.variant.board.directions.len()).any(|d| {
                    r.graph.step(c, DirId(d as u8)).iter().any(|n| self.any_piece(*n, |q| !r.allied(r.owner(q), side)))
                })
            }),
            Test::Flag(f) => self.flags & (1u64 << (f.0 % 64)) != 0,
            Test::CellFlag(f, p) => {
                self.place(p).is_some_and(|c| self.s.cell_flags.iter().any(|(x, g, v)| *x == c && *g == f.0 && *v))
            }
            Test::Attribute(a, p) => self.place(p).is_some_and(|c| {
                let q = self.piece(c);
                !q.is_empty() && q != Piece::HOLE && self.st.attr_of(c) & (1u64 << a.0) != 0
            }),
            Test::Holds(cond) => {
                let from = self.from.or(self.start.stands).unwrap_or(self.cur);
                self.st.condition_holds_for(r, cond, Some((from, self.cur)), self.start.side)
            }
            Test::Not(inner) => !self.test(inner),
            Test::And(all) => all.iter().all(|x| self.test(x)),
            Test::Or(any) => any.iter().any(|x| self.test(x)),
        }
    }

    /// Collects the capture of the pieces on `c`. Taking a cell twice takes it once (captures
    /// apply first, together), so moves of the same effect stay one move, written once.
    fn capture(&mut self, c: CellId) {
        if !self.s.pending.iter().any(|ch| matches!(*ch, Change::Capture(x) if x == c)) {
            self.s.pending.push(Change::Capture(c));
        }
    }

    /// Whether another player (`friends`: the mover's side, capturing an enemy's piece) could
    /// capture a piece on `c`: a piece of the side attacked stands there, or else the moving piece (of that side) is
    /// imagined there, as the attack tables read every cell (a piece is attacked where its
    /// capturer's own piece now stands: it defends the cell).
    fn attacked_here(&self, c: CellId, ty: Option<MoveTypeId>, friends: bool) -> bool {
        if self.probe.depth >= 1 {
            return false;
        }
        let r = self.r;
        let side = self.start.side;
        // A defended cell is one where the mover's side could capture an enemy: the imagined
        // victim belongs to the next player in turn order not allied to the mover (with teams
        // the next player may be a partner, whom no capture takes). A variant always has one
        // (a team of every player is refused); without it nothing could be captured.
        let victim_side = if friends {
            match (1..r.players)
                .map(|k| PlayerId(((side.0 as usize + k) % r.players) as u8))
                .find(|p| !r.allied(*p, side))
            {
                Some(p) => p,
                None => return false,
            }
        } else {
            side
        };
        let here = self.piece(c);
        if here == Piece::HOLE {
            // Nothing can stand where there is no square, so nothing is captured there.
            return false;
        }
        let imagined = if here.is_empty() || !r.allied(r.owner(here), victim_side) {
            Some(r.piece(victim_side, r.type_of(self.mover)))
        } else {
            None
        };
        let mut by =
            (0..r.players as u8)
                .map(PlayerId)
                .filter(|p| if friends { r.allied(*p, side) } else { r.threatens(*p, side) });
        by.any(|by| self.st.attacked_by(r, c, by, imagined, ty, self.probe.depth + 1))
    }
}

impl State {
    /// Runs a program's code from `start`, appending its emitted moves to `s` (or, with a
    /// probe target, looking for a capture there); returns whether the target was hit.
    pub(crate) fn run_code(&self, r: &Rules, code: &Code, start: Start, probe: Probe, s: &mut Scratch) -> bool {
        if !s.pending.is_empty() {
            s.pending.clear();
        }
        if !s.cell_flags.is_empty() {
            s.cell_flags.clear();
        }
        let first = s.emissions.len();
        let changes = s.changes.len();
        let mut run = Run {
            st: self,
            r,
            next: r
                .program
                .as_deref()
                .map_or(&[], |pr| pr.next_of(r.cells, r.variant.board.directions.len(), start.side)),
            code,
            s,
            start,
            probe,
            mover: start.mover,
            from: start.stands,
            first_to: None,
            to: None,
            cur: start.cell,
            mark: start.cell,
            flags: 0,
            drop: start.stands.is_none(),
            hit: false,
            first,
        };
        run.exec();
        let hit = run.hit;
        if probe.target.is_some() {
            s.emissions.truncate(first);
            s.changes.truncate(changes);
        }
        hit
    }

    /// Takes a scratch space from this thread's pool (or a new one).
    pub(crate) fn scratch(&self) -> Scratch {
        POOL.with(|p| p.borrow_mut().pop()).unwrap_or_default()
    }

    /// Returns a scratch space to this thread's pool.
    pub(crate) fn return_scratch(&self, mut s: Scratch) {
        s.clear();
        POOL.with(|p| {
            let mut pool = p.borrow_mut();
            // Runs nest at most a few deep; more spaces would only hold memory.
            if pool.len() < 8 {
                pool.push(s);
            }
        });
    }
}
