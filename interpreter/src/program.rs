//! Move programs: compiling a variant's programs, running them to generate moves, and making and unmaking the moves they emit.
//!
//! A program move is identified by its piece's cell, the program's index and which of the
//! program's emitted moves with the same destination and promotion it is; making it runs the
//! program again and applies that emission's collected changes. So a [`Move`] stays small and
//! `Copy`, and a move list never stores effects.

use crate::ir::{
    AddKind, AttributeId, CellId, Condition, DirId, Geometry, Instr, Landmark, MoveMode, MoveTypeId, PieceTypeId,
    Place, PlayerId, Program, Test, Variant,
};
use crate::position::{Move, MoveKind, State};
use crate::rules::{splitmix_pub, Piece, Rules};

/// Most rounds a `while` loop runs (a cycle of links could loop forever).
const MAX_LOOP: u32 = 1024;
/// Most instructions one run executes.
const MAX_STEPS: u32 = 100_000;
/// Most emissions of one program from one cell with the same destination and promotion.
const MAX_SAME: usize = 255;

/// The compiled program rules of a variant that has move programs, drops, attributes, hands,
/// goals or a turn order.
#[derive(Debug)]
pub(crate) struct ProgramRules {
    /// Per piece type: its programs (declarative powers translated first, then its own).
    pub(crate) programs: Vec<Vec<Program>>,
    /// Per piece type: its drop programs.
    pub(crate) drops: Vec<Vec<Program>>,
    /// Per piece type: the attribute bits a new piece carries.
    pub(crate) attr_defaults: Vec<u32>,
    /// Per piece type: drops take from the hand.
    pub(crate) from_hand: Vec<bool>,
    /// Hash keys: per (cell, attribute); per (player, type, count up to 64); per turn slot.
    pub(crate) z_attr: Vec<u64>,
    pub(crate) z_hand: Vec<u64>,
    pub(crate) z_turn: Vec<u64>,
    pub(crate) z_partial: Vec<u64>,
    pub(crate) attributes: usize,
    /// Move priority rank per move type (`u8::MAX - 1` for types not listed, `u8::MAX` none).
    pub(crate) rank: Vec<u8>,
    /// The variant has move priorities.
    pub(crate) prioritised: bool,
}

impl ProgramRules {
    /// Whether the variant needs program play.
    pub(crate) fn needed(v: &Variant) -> bool {
        v.pieces.iter().any(|p| !p.programs.is_empty() || !p.drops.is_empty() || !p.attributes.is_empty())
            || !v.setup.hands.is_empty()
            || !v.end.goals.is_empty()
            || v.turn_order.is_some()
            || !v.move_priorities.is_empty()
    }

    pub(crate) fn build(v: &Variant, seed: &mut u64) -> ProgramRules {
        let players = v.players.len();
        let types = v.pieces.len();
        let cells = v.board.cells.len();
        let programs = v
            .pieces
            .iter()
            .map(|p| {
                let mut out: Vec<Program> = p.moves.iter().flat_map(|m| translate(p, m)).collect();
                out.extend(p.programs.iter().cloned());
                out
            })
            .collect();
        let drops = v.pieces.iter().map(|p| p.drops.clone()).collect();
        let attr_defaults = v.pieces.iter().map(|p| p.attributes.iter().fold(0u32, |m, a| m | 1 << a.0)).collect();
        let from_hand = v.pieces.iter().map(|p| p.drop_supply == crate::ir::DropSupply::Hand).collect();
        let attributes = v.attributes.len().min(32);
        let z_attr = (0..cells * attributes).map(|_| splitmix_pub(seed)).collect();
        let z_hand = (0..players * types * 65).map(|_| splitmix_pub(seed)).collect();
        let slots = v.turn_order.as_ref().map_or(1, |t| t.opening.len() + t.cycle.len()).max(1);
        let z_turn = (0..slots).map(|_| splitmix_pub(seed)).collect();
        let z_partial = (0..cells).map(|_| splitmix_pub(seed)).collect();
        let mut rank = vec![u8::MAX - 1; v.move_types.len()];
        for (i, t) in v.move_priorities.iter().enumerate() {
            if let Some(r) = rank.get_mut(t.0 as usize) {
                *r = (*r).min(i as u8);
            }
        }
        ProgramRules {
            programs,
            drops,
            attr_defaults,
            from_hand,
            z_attr,
            z_hand,
            z_turn,
            z_partial,
            attributes,
            rank,
            prioritised: !v.move_priorities.is_empty(),
        }
    }
}

/// A declarative move power as programs (one per direction or path): the same moves, for
/// variants that mix powers and programs.
fn translate(piece: &crate::ir::PieceType, rule: &crate::ir::MoveRule) -> Vec<Program> {
    let from_conds: Vec<Instr> =
        rule.conditions.iter().filter(|c| !mentions_to(c)).map(|c| Instr::Verify(Test::Holds(c.clone()))).collect();
    let to_conds: Vec<Test> =
        rule.conditions.iter().filter(|c| mentions_to(c)).map(|c| Test::Holds(c.clone())).collect();
    let plain = || Instr::Add { kind: AddKind::Move, promote: vec![], then: None };
    // The add, with the piece's promotion and the conditions on the destination.
    let add = || -> Vec<Instr> {
        let adds = match &piece.promotion {
            Some(p) => {
                let mut promote = vec![];
                if !p.mandatory {
                    promote.push(plain());
                }
                promote.push(Instr::Add { kind: AddKind::Move, promote: p.choices.clone(), then: None });
                vec![Instr::If(Test::InZone(p.zone, None), promote, vec![plain()])]
            }
            None => vec![plain()],
        };
        if to_conds.is_empty() {
            adds
        } else {
            vec![Instr::If(Test::And(to_conds.clone()), adds, vec![])]
        }
    };
    // On an empty cell: move if the mode allows; on an enemy: capture if it allows; a piece
    // ends the ray.
    let land = || -> Instr {
        let on_empty = if rule.mode == MoveMode::CaptureOnly { vec![] } else { add() };
        let mut on_piece = vec![Instr::Verify(Test::Enemy(None))];
        if rule.mode != MoveMode::MoveOnly {
            on_piece.extend(add());
        }
        on_piece.push(Instr::Verify(Test::False));
        Instr::If(Test::Empty(None), on_empty, on_piece)
    };
    let ray = |d: DirId, max: Option<u8>, seq: &mut Vec<Instr>| match max {
        Some(m) => {
            for _ in 0..m {
                seq.push(Instr::Step(d));
                seq.push(land());
            }
        }
        None => {
            seq.push(Instr::Step(d));
            seq.push(Instr::While(Test::True, vec![land(), Instr::Step(d)]));
        }
    };
    let mut out = Vec::new();
    match &rule.geometry {
        Geometry::Slide { dirs, max } => {
            for d in dirs {
                let mut seq = from_conds.clone();
                ray(*d, *max, &mut seq);
                out.push(seq);
            }
        }
        Geometry::Leap { paths } => {
            for path in paths {
                let mut seq = from_conds.clone();
                seq.extend(path.iter().map(|d| Instr::Step(*d)));
                seq.push(land());
                out.push(seq);
            }
        }
        Geometry::Hop { dirs, max } => {
            for d in dirs {
                let mut seq = from_conds.clone();
                seq.push(Instr::Step(*d));
                seq.push(Instr::While(Test::Empty(None), vec![Instr::Step(*d)]));
                ray(*d, *max, &mut seq);
                out.push(seq);
            }
        }
    }
    out.into_iter().map(|body| Program { move_type: None, body }).collect()
}

fn mentions_to(c: &Condition) -> bool {
    match c {
        Condition::ToZone(_) => true,
        Condition::Not(inner) => mentions_to(inner),
        _ => false,
    }
}

/// One change a program collects for its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    /// Remove the piece on the cell.
    Capture(CellId),
    /// The piece on `from` goes to `to` (becoming `promote` when set); `copy`: it also stays.
    Go { from: CellId, to: CellId, promote: Option<PieceTypeId>, copy: bool },
    /// A new piece of this owner and type appears.
    Create(CellId, PlayerId, PieceTypeId),
    /// The piece there becomes this type.
    ChangeType(CellId, PieceTypeId),
    /// The piece there now belongs to this player (`None`: the next player after its owner).
    ChangeOwner(CellId, Option<PlayerId>),
    /// The attribute of the piece there is set or unset.
    Attribute(CellId, AttributeId, bool),
    /// A drop: a new piece from the hand (or the endless supply) lands on the cell.
    Drop(CellId, Piece),
}

/// A move a program emitted.
#[derive(Clone, Debug)]
pub(crate) struct Emission {
    pub(crate) to: CellId,
    pub(crate) promote: Option<PieceTypeId>,
    pub(crate) ops: Vec<Op>,
    /// For a partial move: the move type the piece continues with (`Some(None)`: any).
    pub(crate) partial: Option<Option<MoveTypeId>>,
    /// The piece captured first, for notation and move ordering.
    pub(crate) take: Piece,
}

/// Where a run stands.
struct Run<'a> {
    st: &'a State,
    r: &'a Rules,
    side: PlayerId,
    /// The piece the program moves (for a drop: the new piece).
    mover: Piece,
    /// The cell of the piece moving now (`None` for a drop before anything moved).
    from: Option<CellId>,
    /// The first mover's cell and destination (the move's `from` and `to` in notation).
    first_from: Option<CellId>,
    first_to: Option<CellId>,
    to: Option<CellId>,
    cur: CellId,
    mark: CellId,
    ops: Vec<Op>,
    flags: u64,
    cell_flags: Vec<(CellId, u8, bool)>,
    steps: u32,
    /// A piece imagined on a cell (for `attacked` on an empty cell).
    imagined: Option<(CellId, Piece)>,
    /// Nesting of `attacked` tests (they run the other side's programs).
    depth: u8,
    drop: bool,
    out: Vec<Emission>,
    /// Stop after the first emission that captures on this cell.
    target: Option<CellId>,
    hit: bool,
}

/// A run ends early: a failed step or test, or a limit.
struct Fail;

impl<'a> Run<'a> {
    fn piece(&self, c: CellId) -> Piece {
        if let Some((at, p)) = self.imagined {
            if at == c {
                return p;
            }
        }
        let p = self.st.cells[c.0 as usize];
        if p == Piece::HOLE {
            Piece::EMPTY
        } else {
            p
        }
    }

    fn dir(&self, d: DirId) -> DirId {
        self.r.variant.players[self.side.0 as usize].direction_map.get(d.0 as usize).copied().unwrap_or(d)
    }

    fn neighbour(&self, c: CellId, d: DirId) -> Option<CellId> {
        self.r.graph.step(c, self.dir(d)).first().copied()
    }

    fn place(&self, p: &Option<Place>) -> Result<CellId, Fail> {
        match p {
            None => Ok(self.cur),
            Some(Place::Cell(c)) => Ok(*c),
            Some(Place::Dir(d)) => self.neighbour(self.cur, *d).ok_or(Fail),
        }
    }

    fn tick(&mut self) -> Result<(), Fail> {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return Err(Fail);
        }
        Ok(())
    }

    fn block(&mut self, body: &[Instr]) -> Result<(), Fail> {
        for i in body {
            self.exec(i)?;
            if self.hit {
                return Err(Fail);
            }
        }
        Ok(())
    }

    fn exec(&mut self, i: &Instr) -> Result<(), Fail> {
        self.tick()?;
        match i {
            Instr::Step(d) => self.cur = self.neighbour(self.cur, *d).ok_or(Fail)?,
            Instr::Jump(c) => self.cur = *c,
            Instr::Go(l) => {
                self.cur = match l {
                    Landmark::From => self.from.or(self.first_from).ok_or(Fail)?,
                    Landmark::To => self.to.unwrap_or(self.cur),
                    Landmark::Mark => self.mark,
                    Landmark::LastFrom => self.st.history.last().map(|u| u.mv.from).ok_or(Fail)?,
                    Landmark::LastTo => self.st.history.last().map(|u| u.mv.to).ok_or(Fail)?,
                }
            }
            Instr::Mark(p) => self.mark = self.place(p)?,
            Instr::Back => self.cur = self.mark,
            Instr::Verify(t) => {
                if !self.test(t)? {
                    return Err(Fail);
                }
            }
            Instr::If(t, a, b) => {
                if self.test(t)? {
                    self.block(a)?
                } else {
                    self.block(b)?
                }
            }
            Instr::While(t, body) => {
                let mut rounds = 0;
                while self.test(t)? {
                    rounds += 1;
                    if rounds > MAX_LOOP {
                        return Err(Fail);
                    }
                    self.block(body)?;
                }
            }
            Instr::To => self.to = Some(self.cur),
            Instr::From => {
                let p = self.piece(self.cur);
                if p.is_empty() {
                    return Err(Fail);
                }
                self.mover = p;
                self.from = Some(self.cur);
                self.drop = false;
                self.first_from.get_or_insert(self.cur);
            }
            Instr::Cascade => {
                let dest = self.to.unwrap_or(self.cur);
                self.push_move(dest, None, false);
                self.to = None;
                let p = self.piece(self.cur);
                self.mover = p;
                self.from = Some(self.cur);
                self.drop = false;
            }
            Instr::Add { kind, promote, then } => {
                let dest = self.to.unwrap_or(self.cur);
                let copy = matches!(kind, AddKind::Copy | AddKind::CopyPartial);
                let partial = matches!(kind, AddKind::Partial | AddKind::CopyPartial).then_some(*then);
                if promote.is_empty() {
                    self.emit(dest, None, copy, partial);
                } else {
                    for t in promote {
                        self.emit(dest, Some(*t), copy, partial);
                    }
                }
            }
            Instr::Capture(p) => {
                let c = self.place(p)?;
                if !self.piece(c).is_empty() {
                    self.ops.push(Op::Capture(c));
                }
            }
            Instr::ChangeType(t, p) => {
                let c = self.place(p)?;
                self.ops.push(Op::ChangeType(c, *t));
            }
            Instr::ChangeOwner(p) => {
                let c = self.place(p)?;
                self.ops.push(Op::ChangeOwner(c, Some(self.side)));
            }
            Instr::Flip(p) => {
                let c = self.place(p)?;
                self.ops.push(Op::ChangeOwner(c, None));
            }
            Instr::Create { owner, piece, at } => {
                let c = self.place(at)?;
                let owner = owner.unwrap_or(self.side);
                let ty = piece.unwrap_or_else(|| self.r.type_of(self.mover));
                self.ops.push(Op::Create(c, owner, ty));
            }
            Instr::SetFlag(f, t) => {
                let v = self.test(t)?;
                let bit = 1u64 << (f.0 % 64);
                if v {
                    self.flags |= bit
                } else {
                    self.flags &= !bit
                }
            }
            Instr::SetCellFlag(f, t, p) => {
                let v = self.test(t)?;
                let c = self.place(p)?;
                self.cell_flags.retain(|(x, g, _)| !(*x == c && *g == f.0));
                self.cell_flags.push((c, f.0, v));
            }
            Instr::SetAttribute(a, t) => {
                let v = self.test(t)?;
                self.ops.push(Op::Attribute(self.cur, *a, v));
            }
        }
        Ok(())
    }

    /// Records the moving piece's movement to `dest` as a change.
    fn push_move(&mut self, dest: CellId, promote: Option<PieceTypeId>, copy: bool) {
        match self.from {
            Some(from) if !self.drop => {
                self.ops.push(Op::Go { from, to: dest, promote, copy });
                if self.first_to.is_none() {
                    self.first_to = Some(dest);
                }
            }
            _ => {
                let p = match promote {
                    Some(t) => self.r.piece(self.r.owner(self.mover), t),
                    None => self.mover,
                };
                self.ops.push(Op::Drop(dest, p));
                if self.first_to.is_none() {
                    self.first_to = Some(dest);
                }
            }
        }
    }

    fn emit(&mut self, dest: CellId, promote: Option<PieceTypeId>, copy: bool, partial: Option<Option<MoveTypeId>>) {
        let mark = self.ops.len();
        let first_to = self.first_to;
        self.push_move(dest, promote, copy);
        let to = self.first_to.unwrap_or(dest);
        let take = self.first_capture();
        if let Some(target) = self.target {
            if self.captures_on(target) {
                self.hit = true;
            }
        } else {
            self.out.push(Emission { to, promote, ops: self.ops.clone(), partial, take });
        }
        self.ops.truncate(mark);
        self.first_to = first_to;
    }

    /// The first piece the collected changes capture.
    fn first_capture(&self) -> Piece {
        for op in &self.ops {
            match *op {
                Op::Capture(c) => return self.piece(c),
                Op::Go { from, to, .. } if to != from => {
                    let p = self.piece(to);
                    if !p.is_empty() && self.r.owner(p) != self.side {
                        return p;
                    }
                }
                Op::Drop(c, _) => {
                    let p = self.piece(c);
                    if !p.is_empty() {
                        return p;
                    }
                }
                _ => {}
            }
        }
        Piece::EMPTY
    }

    /// Whether the collected changes remove the piece standing on `c`.
    fn captures_on(&self, c: CellId) -> bool {
        self.ops.iter().any(|op| match *op {
            Op::Capture(x) => x == c,
            Op::Go { from, to, .. } => to == c && from != c,
            Op::Drop(x, _) => x == c,
            _ => false,
        })
    }

    fn test(&mut self, t: &Test) -> Result<bool, Fail> {
        let r = self.r;
        Ok(match t {
            Test::True => true,
            Test::False => false,
            Test::Empty(p) => self.piece(self.place(p)?).is_empty(),
            Test::Friend(p) => {
                let q = self.piece(self.place(p)?);
                !q.is_empty() && r.owner(q) == self.side
            }
            Test::Enemy(p) => {
                let q = self.piece(self.place(p)?);
                !q.is_empty() && r.owner(q) != self.side
            }
            Test::Piece(ty, p) => {
                let q = self.piece(self.place(p)?);
                !q.is_empty() && r.type_of(q) == *ty
            }
            Test::InZone(z, p) => r.in_zone(*z, self.side, self.place(p)?),
            Test::OnBoard(p) => self.place(&Some(*p)).is_ok(),
            Test::At(c) => self.cur == *c,
            Test::LastFrom(p) => {
                let c = self.place(p)?;
                self.st.history.last().is_some_and(|u| u.mv.from == c && u.mv.kind != MoveKind::Drop)
            }
            Test::LastTo(p) => {
                let c = self.place(p)?;
                self.st.history.last().is_some_and(|u| u.mv.to == c)
            }
            Test::Marked(p) => self.place(p)? == self.mark,
            Test::Attacked(ty, p) => {
                let c = self.place(p)?;
                self.attacked_here(c, *ty, false)
            }
            Test::Defended(ty, p) => {
                let c = self.place(p)?;
                self.attacked_here(c, *ty, true)
            }
            Test::AdjacentToEnemy(p) => {
                let c = self.place(p)?;
                (0..r.variant.board.directions.len()).any(|d| {
                    r.graph.step(c, DirId(d as u8)).iter().any(|n| {
                        let q = self.piece(*n);
                        !q.is_empty() && r.owner(q) != self.side
                    })
                })
            }
            Test::Flag(f) => self.flags & (1u64 << (f.0 % 64)) != 0,
            Test::CellFlag(f, p) => {
                let c = self.place(p)?;
                self.cell_flags.iter().any(|(x, g, v)| *x == c && *g == f.0 && *v)
            }
            Test::Attribute(a, p) => {
                let c = self.place(p)?;
                !self.piece(c).is_empty() && self.st.attr_of(c) & (1 << a.0) != 0
            }
            Test::Holds(cond) => {
                let from = self.from.or(self.first_from).unwrap_or(self.cur);
                self.st.condition_holds(r, cond, Some((from, self.cur)))
            }
            Test::Not(inner) => !self.test(inner)?,
            Test::And(all) => {
                for x in all {
                    if !self.test(x)? {
                        return Ok(false);
                    }
                }
                true
            }
            Test::Or(any) => {
                for x in any {
                    if self.test(x)? {
                        return Ok(true);
                    }
                }
                false
            }
        })
    }

    /// Whether another player (`friends`: the mover's side) could capture a piece on `c`; an
    /// empty cell is tested with the moving piece imagined there.
    fn attacked_here(&self, c: CellId, ty: Option<MoveTypeId>, friends: bool) -> bool {
        if self.depth >= 1 {
            return false;
        }
        let imagined = if self.piece(c).is_empty() {
            let victim_side =
                if friends { PlayerId(((self.side.0 as usize + 1) % self.r.players) as u8) } else { self.side };
            let ty = self.r.type_of(self.mover);
            Some((c, self.r.piece(victim_side, ty)))
        } else {
            None
        };
        let players: Vec<PlayerId> = if friends {
            vec![self.side]
        } else {
            (0..self.r.players as u8).map(PlayerId).filter(|p| *p != self.side).collect()
        };
        players.into_iter().any(|by| self.st.program_attacks(self.r, c, by, ty, imagined, self.depth + 1))
    }
}

impl State {
    /// The attribute bits of the piece on a cell.
    #[inline]
    pub(crate) fn attr_of(&self, c: CellId) -> u32 {
        self.attrs.get(c.0 as usize).copied().unwrap_or(0)
    }

    /// Runs one program of the piece on `from` (or a drop program of `drop` on every cell when
    /// `from` is the drop's cell), collecting its emissions.
    #[allow(clippy::too_many_arguments)]
    fn run_program(
        &self,
        r: &Rules,
        side: PlayerId,
        start: CellId,
        mover: Piece,
        drop: bool,
        program: &Program,
        target: Option<CellId>,
        imagined: Option<(CellId, Piece)>,
        depth: u8,
    ) -> (Vec<Emission>, bool) {
        let mut run = Run {
            st: self,
            r,
            side,
            mover,
            from: (!drop).then_some(start),
            first_from: (!drop).then_some(start),
            first_to: None,
            to: None,
            cur: start,
            mark: start,
            ops: Vec::new(),
            flags: 0,
            cell_flags: Vec::new(),
            steps: 0,
            imagined,
            depth,
            drop,
            out: Vec::new(),
            target,
            hit: false,
        };
        let _ = run.block(&program.body);
        (run.out, run.hit)
    }

    /// Whether `by` could capture the piece on `c` with some program move (of a move type).
    pub(crate) fn program_attacks(
        &self,
        r: &Rules,
        c: CellId,
        by: PlayerId,
        ty: Option<MoveTypeId>,
        imagined: Option<(CellId, Piece)>,
        depth: u8,
    ) -> bool {
        let Some(pr) = r.program.as_deref() else { return false };
        for from in self.occupied[by.0 as usize].iter() {
            if imagined.is_some_and(|(x, _)| x == from) {
                continue;
            }
            let piece = self.cells[from.0 as usize];
            let t = r.type_of(piece).0 as usize;
            for prog in &pr.programs[t] {
                if ty.is_some() && prog.move_type != ty {
                    continue;
                }
                if self.run_program(r, by, from, piece, false, prog, Some(c), imagined, depth).1 {
                    return true;
                }
            }
        }
        false
    }

    /// The emissions of one program move's program, in order.
    fn emissions_for(&self, r: &Rules, mv: Move) -> Vec<Emission> {
        let Some(pr) = r.program.as_deref() else { return Vec::new() };
        let index = (mv.extra >> 8) as usize;
        let t = r.type_of(mv.piece).0 as usize;
        match mv.kind {
            MoveKind::Drop => match pr.drops[t].get(index) {
                Some(p) => self.run_program(r, self.side, mv.from, mv.piece, true, p, None, None, 0).0,
                None => Vec::new(),
            },
            _ => match pr.programs[t].get(index) {
                Some(p) => self.run_program(r, self.side, mv.from, mv.piece, false, p, None, None, 0).0,
                None => Vec::new(),
            },
        }
    }

    /// The emission a program move stands for.
    fn emission_of(&self, r: &Rules, mv: Move) -> Option<Emission> {
        let k = (mv.extra & 0xff) as usize;
        self.emissions_for(r, mv)
            .into_iter()
            .filter(|e| e.to == mv.to && e.promote.map_or(0, |t| t.0 + 1) == mv.promote)
            .nth(k)
    }

    /// The move type of a program move.
    pub(crate) fn move_type_of(&self, r: &Rules, mv: Move) -> Option<MoveTypeId> {
        let pr = r.program.as_deref()?;
        let t = r.type_of(mv.piece).0 as usize;
        let index = (mv.extra >> 8) as usize;
        match mv.kind {
            MoveKind::Drop => pr.drops[t].get(index)?.move_type,
            MoveKind::Program => pr.programs[t].get(index)?.move_type,
            _ => None,
        }
    }

    /// The moves of one piece's programs (of a move type, when `only` says so). Two programs
    /// emitting the same changes make one move, the first's.
    #[allow(clippy::too_many_arguments)]
    fn piece_program_moves(
        &self,
        r: &Rules,
        side: PlayerId,
        from: CellId,
        piece: Piece,
        programs: &[Program],
        only: Option<Option<MoveTypeId>>,
        out: &mut Vec<Move>,
    ) {
        let mut earlier: Vec<Emission> = Vec::new();
        for (i, prog) in programs.iter().enumerate() {
            if let Some(Some(t)) = only {
                if prog.move_type != Some(t) {
                    continue;
                }
            }
            let em = self.run_program(r, side, from, piece, false, prog, None, None, 0).0;
            for (k, e) in em.iter().enumerate() {
                let same = em[..k].iter().filter(|x| x.to == e.to && x.promote == e.promote).count();
                if same > MAX_SAME || earlier.iter().any(|x| x.to == e.to && x.ops == e.ops && x.partial == e.partial) {
                    continue;
                }
                out.push(Move {
                    from,
                    to: e.to,
                    kind: MoveKind::Program,
                    promote: e.promote.map_or(0, |t| t.0 + 1),
                    extra: ((i as u16) << 8) | same as u16,
                    piece,
                    take: e.take,
                });
            }
            earlier.extend(em);
        }
    }

    /// The pseudo-legal moves of program play: every program of every piece of `side` (only
    /// the continuing piece in the middle of a partial move), and the drops.
    pub(crate) fn program_moves(&self, r: &Rules, side: PlayerId, out: &mut Vec<Move>) {
        let Some(pr) = r.program.as_deref() else { return };
        if let Some((cell, ty)) = self.partial {
            let piece = self.cells[cell.0 as usize];
            if piece.is_empty() || piece == Piece::HOLE || r.owner(piece) != side {
                return;
            }
            let t = r.type_of(piece).0 as usize;
            self.piece_program_moves(r, side, cell, piece, &pr.programs[t], Some(ty), out);
            return;
        }
        for from in self.occupied[side.0 as usize].iter() {
            let piece = self.cells[from.0 as usize];
            let t = r.type_of(piece).0 as usize;
            self.piece_program_moves(r, side, from, piece, &pr.programs[t], None, out);
        }
        for (t, drops) in pr.drops.iter().enumerate() {
            if drops.is_empty() {
                continue;
            }
            if pr.from_hand[t] && self.hand[side.0 as usize * r.types + t] == 0 {
                continue;
            }
            let piece = r.piece(side, PieceTypeId(t as u8));
            for (i, prog) in drops.iter().enumerate() {
                let mut seen: Vec<(CellId, Vec<Op>)> = Vec::new();
                for c in 0..r.cells {
                    let cell = CellId(c as u16);
                    if self.cells[c] == Piece::HOLE {
                        continue;
                    }
                    let em = self.run_program(r, side, cell, piece, true, prog, None, None, 0).0;
                    // A drop program run from one cell may place its piece elsewhere: the same
                    // placement reached from another start is the same move.
                    for (k, e) in em.iter().enumerate() {
                        if seen.iter().any(|(to, ops)| *to == e.to && *ops == e.ops) {
                            continue;
                        }
                        seen.push((e.to, e.ops.clone()));
                        let same = em[..k].iter().filter(|x| x.to == e.to && x.promote == e.promote).count();
                        if same > MAX_SAME {
                            continue;
                        }
                        out.push(Move {
                            from: cell,
                            to: e.to,
                            kind: MoveKind::Drop,
                            promote: e.promote.map_or(0, |t| t.0 + 1),
                            extra: ((i as u16) << 8) | same as u16,
                            piece,
                            take: e.take,
                        });
                    }
                }
            }
        }
    }

    /// Makes a move of program play.
    pub(crate) fn make_program(&mut self, r: &Rules, mv: Move) {
        let pr = r.program.as_deref().expect("program play");
        let mut undo = self.undo_record(mv, mv.piece);
        self.hashes.push(self.hash);
        let record = ProgramUndo {
            changes: self.prog_changes.len() as u32,
            captured: self.prog_captured.len() as u32,
            hand: None,
            turn: self.turn,
            side: self.side,
            fullmove: self.fullmove,
            partial: self.partial,
        };
        self.prog_history.push(record);
        self.halfmove += 1;
        let mut continues = None;
        if matches!(mv.kind, MoveKind::Program | MoveKind::Drop) {
            if let Some(e) = self.emission_of(r, mv) {
                self.apply(r, pr, &e);
                continues = e.partial;
            }
        }
        undo.captured_n = (self.prog_captured.len() as u32 - record.captured) as u8;
        if undo.captured_n > 0 {
            self.halfmove = 0;
        }
        self.set_partial(pr, None);
        let mut passes = true;
        if let Some(ty) = continues {
            // The same piece goes on, if it can; a turn whose continuation is impossible ends.
            self.set_partial(pr, Some((mv.to, ty)));
            let mut next = Vec::new();
            self.program_moves(r, self.side, &mut next);
            passes = next.is_empty();
            if passes {
                self.set_partial(pr, None);
            }
        }
        if passes {
            self.next_turn(r, pr);
        }
        if !r.variant.phases.is_empty() {
            self.update_phases(r);
        }
        self.history.push(undo);
    }

    fn set_partial(&mut self, pr: &ProgramRules, p: Option<(CellId, Option<MoveTypeId>)>) {
        if let Some((c, _)) = self.partial {
            self.hash ^= pr.z_partial[c.0 as usize];
        }
        self.partial = p;
        if let Some((c, _)) = self.partial {
            self.hash ^= pr.z_partial[c.0 as usize];
        }
    }

    /// Hands the turn on according to the turn order.
    fn next_turn(&mut self, r: &Rules, pr: &ProgramRules) {
        let before = self.side;
        self.hash ^= pr.z_turn[turn_slot(r, self.turn)];
        self.turn += 1;
        self.hash ^= pr.z_turn[turn_slot(r, self.turn)];
        let next = turn_player(r, self.turn);
        self.hash ^= r.z_side[self.side.0 as usize];
        self.side = next;
        self.hash ^= r.z_side[self.side.0 as usize];
        // A new round begins when the first player's turn comes back.
        if next.0 == 0 && (before.0 != 0 || r.players == 1) {
            self.fullmove += 1;
        }
    }

    /// Applies an emission's changes: captures, then the movements in order, then new pieces,
    /// then changes of type and owner and attributes on what stands there after the movements.
    fn apply(&mut self, r: &Rules, pr: &ProgramRules, e: &Emission) {
        for op in &e.ops {
            if let Op::Capture(c) = *op {
                self.prog_remove(r, pr, c, true);
            }
        }
        for op in &e.ops {
            match *op {
                Op::Go { from, to, promote, copy } => {
                    let p = self.cells[from.0 as usize];
                    if p.is_empty() || p == Piece::HOLE {
                        continue;
                    }
                    let attrs = self.attr_of(from);
                    if !copy {
                        self.prog_remove(r, pr, from, false);
                    }
                    if to != from || copy {
                        self.prog_remove(r, pr, to, true);
                    }
                    let landed = match promote {
                        Some(t) => r.piece(r.owner(p), t),
                        None => p,
                    };
                    let attrs = if copy { pr.attr_defaults[r.type_of(landed).0 as usize] } else { attrs };
                    self.prog_put(r, pr, to, landed, attrs);
                }
                Op::Drop(c, p) => {
                    self.prog_remove(r, pr, c, true);
                    let t = r.type_of(p).0 as usize;
                    let owner = r.owner(p).0 as usize;
                    if pr.from_hand[t] {
                        let i = owner * r.types + t;
                        if self.hand[i] > 0 {
                            self.set_hand(pr, i, self.hand[i] - 1);
                            if let Some(rec) = self.prog_history.last_mut() {
                                rec.hand = Some((i as u32, self.hand[i] + 1));
                            }
                        }
                    }
                    self.prog_put(r, pr, c, p, pr.attr_defaults[t]);
                }
                _ => {}
            }
        }
        for op in &e.ops {
            if let Op::Create(c, owner, t) = *op {
                self.prog_remove(r, pr, c, true);
                self.prog_put(r, pr, c, r.piece(owner, t), pr.attr_defaults[t.0 as usize]);
            }
        }
        for op in &e.ops {
            match *op {
                Op::ChangeType(c, t) => {
                    let p = self.cells[c.0 as usize];
                    if !p.is_empty() && p != Piece::HOLE {
                        let attrs = self.attr_of(c);
                        self.prog_remove(r, pr, c, false);
                        self.prog_put(r, pr, c, r.piece(r.owner(p), t), attrs);
                    }
                }
                Op::ChangeOwner(c, owner) => {
                    let p = self.cells[c.0 as usize];
                    if !p.is_empty() && p != Piece::HOLE {
                        let owner = owner.unwrap_or_else(|| PlayerId(((r.owner(p).0 as usize + 1) % r.players) as u8));
                        let attrs = self.attr_of(c);
                        self.prog_remove(r, pr, c, false);
                        self.prog_put(r, pr, c, r.piece(owner, r.type_of(p)), attrs);
                    }
                }
                _ => {}
            }
        }
        for op in &e.ops {
            if let Op::Attribute(c, a, v) = *op {
                let p = self.cells[c.0 as usize];
                if p.is_empty() || p == Piece::HOLE {
                    continue;
                }
                let old = self.attr_of(c);
                let new = if v { old | 1 << a.0 } else { old & !(1 << a.0) };
                if new != old {
                    self.prog_changes.push((c, p, old));
                    self.set_attrs(pr, c, new);
                }
            }
        }
    }

    fn set_attrs(&mut self, pr: &ProgramRules, c: CellId, new: u32) {
        if pr.attributes == 0 {
            return;
        }
        let old = self.attrs[c.0 as usize];
        let diff = old ^ new;
        for a in 0..pr.attributes {
            if diff & (1 << a) != 0 {
                self.hash ^= pr.z_attr[c.0 as usize * pr.attributes + a];
            }
        }
        self.attrs[c.0 as usize] = new;
    }

    fn set_hand(&mut self, pr: &ProgramRules, i: usize, n: u32) {
        self.hash ^= pr.z_hand[i * 65 + self.hand[i].min(64) as usize];
        self.hand[i] = n;
        self.hash ^= pr.z_hand[i * 65 + n.min(64) as usize];
    }

    /// Takes the piece off a cell, recording it for unmaking (and as captured when `capture`).
    fn prog_remove(&mut self, r: &Rules, pr: &ProgramRules, c: CellId, capture: bool) {
        let p = self.cells[c.0 as usize];
        if p.is_empty() || p == Piece::HOLE {
            return;
        }
        self.prog_changes.push((c, p, self.attr_of(c)));
        self.lift(r, c);
        self.set_attrs(pr, c, 0);
        self.piece_count -= 1;
        if capture {
            self.prog_captured.push(p);
        }
    }

    /// Puts a piece on an empty cell, recording the cell for unmaking.
    fn prog_put(&mut self, r: &Rules, pr: &ProgramRules, c: CellId, p: Piece, attrs: u32) {
        self.prog_changes.push((c, Piece::EMPTY, 0));
        self.drop_on(r, c, p);
        self.set_attrs(pr, c, attrs);
        self.piece_count += 1;
    }

    /// Takes back [`State::make_program`].
    pub(crate) fn unmake_program(&mut self, r: &Rules) {
        let pr = r.program.as_deref().expect("program play");
        let Some(undo) = self.history.pop() else { return };
        let Some(rec) = self.prog_history.pop() else { return };
        self.hashes.pop();
        while self.prog_changes.len() > rec.changes as usize {
            let Some((c, p, attrs)) = self.prog_changes.pop() else { break };
            let now = self.cells[c.0 as usize];
            if !now.is_empty() && now != Piece::HOLE {
                self.lift(r, c);
                self.piece_count -= 1;
            }
            if !p.is_empty() {
                self.drop_on(r, c, p);
                self.piece_count += 1;
            }
            if pr.attributes > 0 {
                self.attrs[c.0 as usize] = attrs;
            }
        }
        self.prog_captured.truncate(rec.captured as usize);
        if let Some((i, n)) = rec.hand {
            self.hand[i as usize] = n;
        }
        self.turn = rec.turn;
        self.side = rec.side;
        self.fullmove = rec.fullmove;
        self.partial = rec.partial;
        self.castling = undo.castling;
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.phases = undo.phases;
        self.hash = undo.hash;
    }

    /// The pieces the last move captured.
    pub(crate) fn last_captured(&self) -> &[Piece] {
        match self.prog_history.last() {
            Some(rec) => &self.prog_captured[rec.captured as usize..],
            None => &[],
        }
    }
}

/// What making a program move changed beyond [`crate::position::Undo`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct ProgramUndo {
    /// Length of `State::prog_changes` before the move.
    pub(crate) changes: u32,
    /// Length of `State::prog_captured` before the move.
    pub(crate) captured: u32,
    /// A hand count changed: (index, count before).
    pub(crate) hand: Option<(u32, u32)>,
    pub(crate) turn: u32,
    pub(crate) side: PlayerId,
    pub(crate) fullmove: u32,
    pub(crate) partial: Option<(CellId, Option<MoveTypeId>)>,
}

/// The index of turn number `t` in the hash keys of turn slots.
pub(crate) fn turn_slot(r: &Rules, t: u32) -> usize {
    match &r.variant.turn_order {
        None => 0,
        Some(o) => {
            let t = t as usize;
            if t < o.opening.len() {
                t
            } else {
                o.opening.len() + (t - o.opening.len()) % o.cycle.len().max(1)
            }
        }
    }
}

/// Who moves in turn number `t` (0 is the first turn).
pub(crate) fn turn_player(r: &Rules, t: u32) -> PlayerId {
    turn_entry(r, t).map_or(PlayerId((t as usize % r.players.max(1)) as u8), |e| e.player)
}

/// The turn-order entry of turn number `t`, if the variant has a turn order.
pub(crate) fn turn_entry(r: &Rules, t: u32) -> Option<crate::ir::TurnEntry> {
    let o = r.variant.turn_order.as_ref()?;
    let t = t as usize;
    if t < o.opening.len() {
        return o.opening.get(t).copied();
    }
    if o.cycle.is_empty() {
        return None;
    }
    o.cycle.get((t - o.opening.len()) % o.cycle.len()).copied()
}

impl crate::position::Position {
    /// The legal moves of program play: the pseudo-legal moves of the turn's move type that
    /// keep the mover's royals safe, of the best priority that has one; with a partial move
    /// that may stop, also the end of the turn.
    pub(crate) fn legal_program_moves(&mut self, out: &mut Vec<Move>) {
        out.clear();
        let r = self.rules.clone();
        let Some(pr) = r.program.as_deref() else { return };
        self.st.program_moves(&r, self.st.side, out);
        let entry_type = turn_entry(&r, self.st.turn).and_then(|e| e.move_type);
        let mut kept = 0;
        for i in 0..out.len() {
            let mv = out[i];
            if entry_type.is_some() && self.st.partial.is_none() && self.st.move_type_of(&r, mv) != entry_type {
                continue;
            }
            if self.is_legal(mv) {
                out[kept] = mv;
                kept += 1;
            }
        }
        out.truncate(kept);
        if pr.prioritised && !out.is_empty() {
            let rank = |m: &Move| self.st.move_type_of(&r, *m).map_or(u8::MAX, |t| pr.rank[t.0 as usize]);
            let best = out.iter().map(rank).min().unwrap_or(u8::MAX);
            let ranks: Vec<u8> = out.iter().map(rank).collect();
            let mut k = 0;
            for i in 0..out.len() {
                if ranks[i] == best {
                    out[k] = out[i];
                    k += 1;
                }
            }
            out.truncate(k);
        }
        if let Some((cell, _)) = self.st.partial {
            if r.variant.pass_partial {
                out.push(Move {
                    from: cell,
                    to: cell,
                    kind: MoveKind::EndTurn,
                    promote: 0,
                    extra: 0,
                    piece: self.st.cells[cell.0 as usize],
                    take: Piece::EMPTY,
                });
            }
        }
    }

    /// The player who made the last move, if any (program play).
    pub fn last_mover(&self) -> Option<PlayerId> {
        self.st.prog_history.last().map(|u| u.side)
    }

    /// The pieces the last move captured (program play).
    pub fn last_captured(&self) -> &[Piece] {
        self.st.last_captured()
    }

    /// Pieces of a type a player holds in hand.
    pub fn in_hand(&self, player: PlayerId, ty: PieceTypeId) -> u32 {
        self.st.hand.get(player.0 as usize * self.rules.variant.pieces.len() + ty.0 as usize).copied().unwrap_or(0)
    }

    /// The attribute bits of the piece on a cell (program play).
    pub fn attributes_at(&self, cell: CellId) -> u32 {
        self.st.attr_of(cell)
    }
}

impl crate::position::Position {
    /// The position-string fields of program play, each with a leading space: `hand=` (pieces
    /// in hand, e.g. `P2n1`, or `-`), `attrs=` (for each attribute, the cells whose piece has
    /// it: `never-moved:a1,e1;...`), `turn=` (turns completed, with a turn order) and
    /// `partial=` (the piece that goes on in the middle of a partial move).
    pub(crate) fn program_fields(&self) -> String {
        let r = &*self.rules;
        let Some(pr) = r.program.as_deref() else { return String::new() };
        let v = &r.variant;
        let mut out = String::new();
        if v.pieces.iter().any(|p| !p.drops.is_empty()) || !v.setup.hands.is_empty() {
            let mut hand = String::new();
            for p in 0..r.players {
                for t in 0..r.types {
                    let n = self.st.hand[p * r.types + t];
                    if n > 0 {
                        hand.push(r.piece_letter(r.piece(PlayerId(p as u8), PieceTypeId(t as u8))));
                        hand.push_str(&n.to_string());
                    }
                }
            }
            out.push_str(&format!(" hand={}", if hand.is_empty() { "-".to_string() } else { hand }));
        }
        if pr.attributes > 0 {
            let parts: Vec<String> = (0..pr.attributes)
                .map(|a| {
                    let cells: Vec<&str> = (0..r.cells)
                        .filter(|&c| self.st.attrs[c] & (1 << a) != 0 && self.piece_at(CellId(c as u16)).is_some())
                        .map(|c| r.cell_name(CellId(c as u16)))
                        .collect();
                    format!("{}:{}", v.attributes[a], if cells.is_empty() { "-".to_string() } else { cells.join(",") })
                })
                .collect();
            out.push_str(&format!(" attrs={}", parts.join(";")));
        }
        if v.turn_order.is_some() {
            out.push_str(&format!(" turn={}", self.st.turn));
        }
        if let Some((c, ty)) = self.st.partial {
            out.push_str(&format!(" partial={}", r.cell_name(c)));
            if let Some(t) = ty {
                out.push_str(&format!(":{}", v.move_types[t.0 as usize]));
            }
        }
        out
    }
}

/// Reads one `key=value` field of program play into the position (see
/// [`crate::position::Position::program_fields`]).
pub(crate) fn read_program_field(
    pos: &mut crate::position::Position,
    field: &str,
    at: usize,
) -> Result<(), crate::fen::PositionError> {
    let rules = pos.rules.clone();
    let r = &*rules;
    let err = |offset: usize, len: usize, message: String| crate::fen::PositionError {
        offset: at + offset,
        len: len.max(1),
        message,
    };
    let Some((key, value)) = field.split_once('=') else {
        return Err(err(0, field.len(), format!("expected `hand=`, `attrs=`, `turn=` or `partial=`, found `{field}`")));
    };
    let vat = key.len() + 1;
    let cell = |name: &str, o: usize| {
        r.cell_by_name(name).ok_or_else(|| err(o, name.len(), format!("expected a cell name, found `{name}`")))
    };
    match key {
        "hand" => {
            pos.st.hand.iter_mut().for_each(|n| *n = 0);
            if value == "-" {
                return Ok(());
            }
            let chars: Vec<(usize, char)> = value.char_indices().collect();
            let mut k = 0;
            while k < chars.len() {
                let (o, ch) = chars[k];
                let piece = r
                    .piece_by_letter(ch)
                    .ok_or_else(|| err(vat + o, ch.len_utf8(), format!("expected a piece letter, found `{ch}`")))?;
                k += 1;
                let start = k;
                while k < chars.len() && chars[k].1.is_ascii_digit() {
                    k += 1;
                }
                let digits: String = chars[start..k].iter().map(|(_, c)| *c).collect();
                let n: u32 = digits
                    .parse()
                    .map_err(|_| err(vat + o, ch.len_utf8(), format!("expected a count after `{ch}`")))?;
                let i = r.owner(piece).0 as usize * r.types + r.type_of(piece).0 as usize;
                pos.st.hand[i] = n;
            }
        }
        "attrs" => {
            pos.st.attrs.iter_mut().for_each(|a| *a = 0);
            let mut o = vat;
            for part in value.split(';') {
                let Some((name, cells)) = part.split_once(':') else {
                    return Err(err(o, part.len(), format!("expected `attribute:cells`, found `{part}`")));
                };
                let a = r
                    .variant
                    .attributes
                    .iter()
                    .position(|x| x == name)
                    .filter(|a| *a < 32 && !pos.st.attrs.is_empty())
                    .ok_or_else(|| err(o, name.len(), format!("expected an attribute of this game, found `{name}`")))?;
                let mut co = o + name.len() + 1;
                if cells != "-" {
                    for c in cells.split(',') {
                        let id = cell(c, co)?;
                        pos.st.attrs[id.0 as usize] |= 1 << a;
                        co += c.len() + 1;
                    }
                }
                o += part.len() + 1;
            }
        }
        "turn" => {
            pos.st.turn =
                value.parse().map_err(|_| err(vat, value.len(), format!("expected a number, found `{value}`")))?;
        }
        "partial" => {
            let (c, ty) = match value.split_once(':') {
                Some((c, t)) => {
                    let id = r.variant.move_types.iter().position(|x| x == t).ok_or_else(|| {
                        err(vat + c.len() + 1, t.len(), format!("expected a move type of this game, found `{t}`"))
                    })?;
                    (c, Some(MoveTypeId(id as u8)))
                }
                None => (value, None),
            };
            pos.st.partial = Some((cell(c, vat)?, ty));
        }
        _ => {
            return Err(err(0, key.len(), format!("expected `hand=`, `attrs=`, `turn=` or `partial=`, found `{key}=`")))
        }
    }
    Ok(())
}
