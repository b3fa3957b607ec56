//! Move programs that are not atoms: compiled to flat code, run to generate moves, made by replaying the chosen emission, and probed for attacks.
//!
//! A program move is identified by its piece's cell, the program's index and which of the
//! run's emissions it is; making it runs the program again and applies that emission's
//! changes. So a [`Move`] stays small and `Copy`, and a move list never stores effects. An
//! emission that only moves the piece from its cell to another (capturing what stands there)
//! is an ordinary move, and a drop that only places its piece an ordinary drop: neither is
//! replayed.

pub(crate) mod apply;
mod lean;
pub(crate) mod run;
mod walk_drops;

use crate::ir::{CellId, MoveTypeId, PieceTypeId, PlayerId};
use crate::position::{Move, MoveKind, State};
use crate::rules::programs::code::{self};
use crate::rules::programs::{DropRule, Only, ProgramRules, PLAIN_DROP};
use crate::rules::{Piece, Rules};
use crate::tables::NO_MOVE_TYPE;
use run::{Change, Probe, Scratch, Start};

/// What an attack probe asks: the target cell, the attacker, the move type, a piece imagined on
/// the target, the nesting of probes and whether a blast must spare the attacker's royals.
type Aim = (CellId, PlayerId, Option<MoveTypeId>, Option<Piece>, u8, bool);

impl State {
    /// The moves of one piece's programs that are not atoms: the piece stands on `stands`
    /// and moves as from `origins` (its cell, or the cells it covers from between them).
    /// Emissions that only move the piece become ordinary moves; two programs emitting the
    /// same changes make one move, the first's, of the move type the priorities rank best.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn program_moves_of(
        &self,
        r: &Rules,
        pr: &ProgramRules,
        side: PlayerId,
        stands: CellId,
        origins: &[CellId],
        piece: Piece,
        only: Only,
        out: &mut Vec<Move>,
    ) {
        let first = out.len();
        let at = (side, stands, origins, piece);
        // The listing of a type with no lean cascade is compiled without their steps.
        let listed = match pr.cascading[r.type_of(piece).0 as usize] {
            true => self.list_programs::<true>(r, pr, at, only, true, out),
            false => self.list_programs::<false>(r, pr, at, only, true, out),
        };
        if !listed {
            // A lean run gave up: every program runs in full.
            out.truncate(first);
            self.list_programs::<false>(r, pr, at, only, false, out);
        }
    }

    /// [`State::program_moves_of`], with the lean programs run lean where `lean` (see
    /// [`State::lean_run`]), and those with a cascade where `CASCADES` too (see
    /// [`State::lean_cascade_run`]); false where a lean run gave up.
    fn list_programs<const CASCADES: bool>(
        &self,
        r: &Rules,
        pr: &ProgramRules,
        (side, stands, origins, piece): (PlayerId, CellId, &[CellId], Piece),
        only: Only,
        lean: bool,
        out: &mut Vec<Move>,
    ) -> bool {
        let t = r.type_of(piece).0 as usize;
        let listed = out.len();
        // Some lean run made a program move (see `lean_cascades_listed`).
        let mut cascaded = false;
        let mut scratch: Option<Scratch> = None;
        // Emissions that became moves, with the moves they made in `out`, to find a later
        // program emitting the same changes.
        let mut seen: Vec<(usize, std::ops::Range<usize>)> = Vec::new();
        for (i, (_, code)) in pr.codes[t].iter().enumerate() {
            let move_type = code.move_type.map_or(NO_MOVE_TYPE, |m| m.0);
            if !only.allows(move_type) {
                continue;
            }
            let mut seq = 0u16;
            for &origin in origins {
                if !self.may_run(r, code, side, origin) {
                    continue;
                }
                if !CASCADES && lean && code.lean {
                    // Its moves are ordinary ones: `program_moves` merges those of several
                    // programs, as `seen` does the others.
                    let next = pr.next_of(r.cells, r.variant.board.directions.len(), side);
                    if !self.lean_run(r, next, code, side, origin, piece, move_type, out) {
                        return self.gave_up(scratch);
                    }
                    continue;
                }
                // Where a program has a cascade, every lean program of the piece runs so (the
                // plain lean run is in line in the other listing alone).
                if CASCADES && lean && (code.lean || code.cascades) {
                    let at = (side, origin, piece);
                    match self.lean_cascades_listed(r, pr, code, at, (move_type, i as u16), out, listed) {
                        Some(made) => cascaded |= made,
                        None => return self.gave_up(scratch),
                    }
                    continue;
                }
                if scratch.is_none() {
                    let mut fresh = self.scratch();
                    seen = std::mem::take(&mut fresh.made);
                    seen.clear();
                    scratch = Some(fresh);
                }
                let s = scratch.get_or_insert_with(|| self.scratch());
                let first = s.emissions.len();
                self.run_code(
                    r,
                    code,
                    Start { side, cell: origin, stands: Some(stands), mover: piece },
                    Probe::default(),
                    s,
                );
                for k in first..s.emissions.len() {
                    let e = s.emissions[k];
                    let changes = s.changes_of(&e);
                    let this = seq;
                    seq = seq.saturating_add(1);
                    let dup = seen.iter().find(|(a, _)| {
                        let earlier = &s.emissions[*a];
                        earlier.to == e.to && earlier.partial == e.partial && s.changes_of(earlier) == changes
                    });
                    if let Some((_, made)) = dup {
                        // A move is as good as its best way: the priorities' best type stays.
                        if pr.prioritised {
                            for m in &mut out[made.clone()] {
                                if pr.rank_of(move_type) < pr.rank_of(m.move_type) {
                                    m.move_type = move_type;
                                }
                            }
                        }
                        continue;
                    }
                    let made = out.len();
                    let mut mv = Move {
                        from: stands,
                        to: e.to,
                        kind: MoveKind::Program,
                        promote: e.promote.map_or(0, |t| t.0 + 1),
                        extra: i as u16,
                        piece,
                        take: e.take,
                        seq: this,
                        move_type,
                        gate: 0,
                        wall: 0,
                    };
                    // A move of the piece alone, from its cell to another, is an ordinary move.
                    if let [Change::Go { from, to, piece: p, copy: false, .. }] = changes {
                        if *from == stands && *to != stands && *p == piece && e.partial.is_none() {
                            mv.kind = MoveKind::Normal;
                            mv.extra = 0;
                            mv.seq = 0;
                            self.push_landing(r, mv, out);
                            seen.push((k, made..out.len()));
                            continue;
                        }
                    }
                    out.push(mv);
                    seen.push((k, made..out.len()));
                }
            }
        }
        if let Some(mut s) = scratch {
            s.made = seen;
            self.return_scratch(s);
            // A full run's emission could equal a cascade's program move.
            return !(CASCADES && cascaded);
        }
        true
    }

    /// A listing's lean run gave up: its scratch space goes back to the pool; false.
    fn gave_up(&self, scratch: Option<Scratch>) -> bool {
        if let Some(s) = scratch {
            self.return_scratch(s);
        }
        false
    }

    /// A lean run of a code with a cascade ([`State::lean_cascade_run`]) for the listing that
    /// began at `out[listed]`: `Some(true)` where it made a program move, `Some(false)` where
    /// none, `None` where it gave up or made a program move with the target and promotion of
    /// one listed before (the full listing merges equal changes: such a listing, seldom met,
    /// is made in full).
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn lean_cascades_listed(
        &self,
        r: &Rules,
        pr: &ProgramRules,
        code: &code::Code,
        at: (PlayerId, CellId, Piece),
        types: (u8, u16),
        out: &mut Vec<Move>,
        listed: usize,
    ) -> Option<bool> {
        let next = pr.next_of(r.cells, r.variant.board.directions.len(), at.0);
        let before = out.len();
        if !self.lean_cascade_run(r, next, code, at, types, out) {
            return None;
        }
        let program = |m: &&Move| m.kind == MoveKind::Program;
        let (earlier, added) = out[listed..].split_at(before - listed);
        let apart = added
            .iter()
            .filter(program)
            .all(|m| !earlier.iter().filter(program).any(|e| e.to == m.to && e.promote == m.promote));
        apart.then(|| added.iter().any(|m| m.kind == MoveKind::Program))
    }

    /// Whether a run of `code` for `side` from `origin` may emit a move: the board lets it
    /// start there and its guard holds.
    #[inline(always)]
    pub(crate) fn may_run(&self, r: &Rules, code: &code::Code, side: PlayerId, origin: CellId) -> bool {
        if !code.may_start(side, origin) {
            return false;
        }
        match code.guard {
            Some(g) if !code.guard_cells.is_empty() => {
                let at = code.guard_cells[side.0 as usize * r.cells + origin.0 as usize];
                at != code::NO_CELL && self.guard_holds(r, g, side, at)
            }
            _ => true,
        }
    }

    /// Whether a guard holds on a plain board.
    #[inline]
    fn guard_holds(&self, r: &Rules, g: code::Guard, side: PlayerId, at: CellId) -> bool {
        let q = self.cells[at.0 as usize];
        let piece = !q.is_empty() && q != Piece::HOLE;
        match g {
            code::Guard::Empty => q.is_empty(),
            code::Guard::Friend => piece && r.allied(r.owner(q), side),
            code::Guard::Enemy => piece && !r.allied(r.owner(q), side),
            code::Guard::NotFriend => !(piece && r.allied(r.owner(q), side)),
            code::Guard::Piece(t) => piece && r.type_of(q) == t,
        }
    }

    /// Pushes an ordinary move made by a program: on a cell of a stack zone, one move per way
    /// the cell's rules let the piece land there (see `land_choices`).
    fn push_landing(&self, r: &Rules, mut mv: Move, out: &mut Vec<Move>) {
        if r.stacks.on && r.is_stack_cell(mv.to) {
            for take in self.land_choices(r, self.side_of(r, mv.piece), mv.to, crate::ir::MoveMode::MoveOrCapture) {
                mv.take = take;
                out.push(mv);
            }
            return;
        }
        let q = self.cells[self.standing_at(mv.to).0 as usize];
        mv.take = if q.is_empty() { Piece::EMPTY } else { q };
        out.push(mv);
    }

    #[inline]
    fn side_of(&self, r: &Rules, p: Piece) -> PlayerId {
        r.owner(p)
    }

    /// The drops of `side`: plain drops on the cells their rules allow, walking drop programs
    /// by their walks (see `walk_drops`), and other drop programs run from every cell.
    pub(crate) fn drop_moves(&self, r: &Rules, pr: &ProgramRules, side: PlayerId, only: Only, out: &mut Vec<Move>) {
        for (t, rules) in pr.drops.iter().enumerate() {
            if rules.is_empty() || (pr.from_hand[t] && self.hand[side.0 as usize * r.types + t] == 0) {
                continue;
            }
            let piece = r.piece(side, PieceTypeId(t as u8));
            for (i, rule) in rules.iter().enumerate() {
                match rule {
                    DropRule::Plain { cells, need_empty, move_type } => {
                        let move_type = move_type.map_or(NO_MOVE_TYPE, |m| m.0);
                        if !only.allows(move_type) {
                            continue;
                        }
                        for to in cells[side.0 as usize].iter() {
                            let q = self.cells[to.0 as usize];
                            if q == Piece::HOLE || (*need_empty && !q.is_empty()) || !self.covered_empty(r, to) {
                                continue;
                            }
                            self.push_drop(
                                r,
                                Move {
                                    from: to,
                                    to,
                                    kind: MoveKind::Drop,
                                    promote: 0,
                                    extra: i as u16,
                                    piece,
                                    take: if q.is_empty() { Piece::EMPTY } else { q },
                                    seq: PLAIN_DROP,
                                    move_type,
                                    gate: 0,
                                    wall: 0,
                                },
                                out,
                            );
                        }
                    }
                    DropRule::Walks(w) => {
                        if only.allows(w.move_type.map_or(NO_MOVE_TYPE, |m| m.0)) {
                            self.walk_drops(r, w, side, piece, i as u16, out);
                        }
                    }
                    DropRule::Code(code) => {
                        let move_type = code.move_type.map_or(NO_MOVE_TYPE, |m| m.0);
                        if !only.allows(move_type) {
                            continue;
                        }
                        let first = out.len();
                        let mut s = self.scratch();
                        for c in 0..r.cells {
                            let cell = CellId(c as u16);
                            if self.cells[c] == Piece::HOLE || !code.may_start(side, cell) {
                                continue;
                            }
                            s.clear();
                            self.run_code(
                                r,
                                code,
                                Start { side, cell, stands: None, mover: piece },
                                Probe::default(),
                                &mut s,
                            );
                            for (k, e) in s.emissions.iter().enumerate() {
                                let changes = s.changes_of(e);
                                let mut mv = Move {
                                    from: cell,
                                    to: e.to,
                                    kind: MoveKind::Drop,
                                    promote: e.promote.map_or(0, |t| t.0 + 1),
                                    extra: i as u16,
                                    piece,
                                    take: e.take,
                                    seq: k as u16,
                                    move_type,
                                    gate: 0,
                                    wall: 0,
                                };
                                if let [Change::Drop(to, p, _)] = changes {
                                    if *p == piece && e.partial.is_none() {
                                        mv.from = *to;
                                        mv.seq = PLAIN_DROP;
                                        mv.promote = 0;
                                    }
                                }
                                // The same placement reached from another start is the same move.
                                if mv.seq == PLAIN_DROP && out[first..].contains(&mv) {
                                    continue;
                                }
                                if mv.seq == PLAIN_DROP {
                                    self.push_drop(r, mv, out);
                                } else {
                                    out.push(mv);
                                }
                            }
                        }
                        self.return_scratch(s);
                    }
                }
            }
        }
    }

    /// Pushes a plain drop: on a cell of a stack zone only where the piece may join the
    /// pieces there (a drop never captures on a stack).
    fn push_drop(&self, r: &Rules, mut mv: Move, out: &mut Vec<Move>) {
        if r.stacks.on && r.is_stack_cell(mv.to) && self.count(r, mv.to) > 0 {
            if self.land_choices(r, r.owner(mv.piece), mv.to, crate::ir::MoveMode::MoveOnly).contains(&Piece::EMPTY) {
                mv.take = Piece::EMPTY;
                out.push(mv);
            }
            return;
        }
        out.push(mv);
    }

    /// Whether `by` could capture the piece on `c` (or `imagined` there) with a program that
    /// is not an atom (of a move type, if given); with `blast`, only by a capture whose blast,
    /// centred where the move lands (not always `c`), spares `by`'s royal pieces.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn program_attacks(
        &self,
        r: &Rules,
        c: CellId,
        by: PlayerId,
        ty: Option<MoveTypeId>,
        imagined: Option<Piece>,
        depth: u8,
        blast: bool,
    ) -> bool {
        let Some(pr) = r.program.as_deref() else { return false };
        let mut s: Option<Scratch> = None;
        let range = pr.reaching_range(r.cells, by, c);
        let mut hit = match pr.reach_starts.of(by, c) {
            Some(starts) => self.reach_by_pieces(r, pr, starts, range, (c, by, ty, imagined, depth, blast), &mut s),
            None => self.reach_by_cells(r, pr, range, (c, by, ty, imagined, depth, blast), &mut s),
        };
        for &entry in &pr.anywhere[by.0 as usize] {
            if hit {
                break;
            }
            hit = self.program_hits(r, pr, entry, c, by, ty, imagined, depth, blast, &mut s);
        }
        if !hit {
            hit = self.drop_attacks(r, pr, c, by, ty, imagined, depth, &mut s, blast);
        }
        if let Some(s) = s {
            self.return_scratch(s);
        }
        hit
    }

    /// Whether a program of the reach entries `range` of `c` hits it, visiting the entries
    /// start cell by start cell and skipping together those of a cell holding none of `by`'s
    /// pieces (see [`State::program_attacks`]).
    fn reach_by_cells(
        &self,
        r: &Rules,
        pr: &ProgramRules,
        range: std::ops::Range<usize>,
        (c, by, ty, imagined, depth, blast): Aim,
        s: &mut Option<Scratch>,
    ) -> bool {
        let mut i = range.start;
        while i < range.end {
            let (start, ..) = pr.reach[i];
            let q = self.cells[start.0 as usize];
            let stack = r.stacks.on && r.is_stack_cell(start);
            let end = (pr.reach_skip[i] as usize).min(range.end);
            if q.is_empty() || q == Piece::HOLE || (!stack && r.owner(q) != by) {
                i = end;
                continue;
            }
            // Off stacks only the programs of the piece standing there run: the others of
            // the cell are passed over here, without asking what stands there again.
            if !stack {
                while i < end && r.piece(by, pr.reach[i].1) != q {
                    i += 1;
                }
                if i == end {
                    continue;
                }
            }
            let entry = pr.reach[i];
            i += 1;
            if self.program_hits(r, pr, entry, c, by, ty, imagined, depth, blast, s) {
                return true;
            }
        }
        false
    }

    /// [`State::reach_by_cells`] visiting only the start cells where `by`'s pieces stand
    /// (`starts`: the start cells of the entries, as bit words; the `ReachByPieces` path), each
    /// cell's entries found by a search of the list sorted by start cell.
    fn reach_by_pieces(
        &self,
        r: &Rules,
        pr: &ProgramRules,
        starts: &[u64],
        range: std::ops::Range<usize>,
        (c, by, ty, imagined, depth, blast): Aim,
        s: &mut Option<Scratch>,
    ) -> bool {
        let list = &pr.reach[range];
        let mut from = 0;
        let stand = self.occupied[by.0 as usize].words();
        for (w, (a, b)) in starts.iter().zip(stand).enumerate() {
            let mut bits = a & b;
            while bits != 0 {
                let start = CellId((w * 64 + bits.trailing_zeros() as usize) as u16);
                bits &= bits - 1;
                let q = self.cells[start.0 as usize];
                from += list[from..].partition_point(|e| e.0 < start);
                for &entry in list[from..].iter().take_while(|e| e.0 == start) {
                    if r.piece(by, entry.1) == q
                        && self.program_hits(r, pr, entry, c, by, ty, imagined, depth, blast, s)
                    {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Whether the program of a reach entry, run for `by` if its piece stands on its start
    /// cell, captures on `c` (see [`State::program_attacks`]).
    #[allow(clippy::too_many_arguments)]
    fn program_hits(
        &self,
        r: &Rules,
        pr: &ProgramRules,
        (start, t, k): crate::rules::programs::ReachEntry,
        c: CellId,
        by: PlayerId,
        ty: Option<MoveTypeId>,
        imagined: Option<Piece>,
        depth: u8,
        blast: bool,
        s: &mut Option<Scratch>,
    ) -> bool {
        let q = self.cells[start.0 as usize];
        if q.is_empty() || q == Piece::HOLE || !self.holds(r, start, r.piece(by, t)) {
            return false;
        }
        let code = &pr.codes[t.0 as usize][k as usize].1;
        if ty.is_some() && code.move_type != ty {
            return false;
        }
        let stands = self.standing_at(start);
        // Only on a stack may the victim share the attacker's cell (a program may take
        // the piece it leaves behind).
        if stands == c && !r.stacks.on {
            return false;
        }
        if code.lean && !blast {
            let next = pr.next_of(r.cells, r.variant.board.directions.len(), by);
            if let Some(hit) = self.lean_hits(r, next, code, by, start, c, imagined) {
                return hit;
            }
        }
        if code.cascades && !blast {
            let next = pr.next_of(r.cells, r.variant.board.directions.len(), by);
            if let Some(hit) = self.lean_cascade_hits(r, next, code, by, start, c, imagined) {
                return hit;
            }
        }
        let piece = r.piece(by, t);
        let scratch = s.get_or_insert_with(|| self.scratch());
        let probe = Probe { target: Some(c), imagined: imagined.map(|p| (c, p)), depth, blast };
        scratch.clear();
        self.run_code(r, code, Start { side: by, cell: start, stands: Some(stands), mover: piece }, probe, scratch)
    }

    /// Whether a drop `by` could make now (a piece in hand, or an endless supply) would take
    /// a piece on `c`.
    #[allow(clippy::too_many_arguments)]
    fn drop_attacks(
        &self,
        r: &Rules,
        pr: &ProgramRules,
        c: CellId,
        by: PlayerId,
        ty: Option<MoveTypeId>,
        imagined: Option<Piece>,
        depth: u8,
        s: &mut Option<Scratch>,
        blast: bool,
    ) -> bool {
        for &(start, t, i) in pr.drops_reaching(r.cells, by, c) {
            let ti = t.0 as usize;
            if pr.from_hand[ti] && self.hand[by.0 as usize * r.types + ti] == 0 {
                continue;
            }
            match &pr.drops[ti][i as usize] {
                DropRule::Plain { move_type, .. } => {
                    // A plain drop lands on `c`.
                    if (ty.is_none() || *move_type == ty) && self.counts(r, by, t, c, blast) {
                        return true;
                    }
                }
                // Not in `drop_reach`: it drops onto empty cells only.
                DropRule::Walks(_) => {}
                DropRule::Code(code) => {
                    if ty.is_some() && code.move_type != ty {
                        continue;
                    }
                    let probe = Probe { target: Some(c), imagined: imagined.map(|p| (c, p)), depth, blast };
                    let scratch = s.get_or_insert_with(|| self.scratch());
                    scratch.clear();
                    let start = Start { side: by, cell: start, stands: None, mover: r.piece(by, t) };
                    if self.run_code(r, code, start, probe, scratch) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Whether the cell holds this piece (one of its pieces, on a stack).
    #[inline]
    pub(crate) fn holds(&self, r: &Rules, c: CellId, p: Piece) -> bool {
        if r.stacks.on && r.is_stack_cell(c) {
            self.stacks[c.0 as usize].contains(&p)
        } else {
            self.cells[c.0 as usize] == p
        }
    }
}
