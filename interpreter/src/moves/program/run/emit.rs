//! Turning a finished run into a move: collecting its changes, judging where its pieces land, and emitting it (or, for a probe, seeing whether it hits the target).

use super::{Change, Emission, Run};
use crate::ir::{CellId, MoveTypeId, PieceTypeId};
use crate::rules::Piece;

impl Run<'_> {
    /// Records the moving piece's movement to `dest` as a change.
    pub(super) fn push_move(&mut self, dest: CellId, promote: Option<PieceTypeId>, copy: bool) {
        match self.from {
            Some(from) if !self.drop => {
                self.s.pending.push(Change::Go { from, to: dest, piece: self.mover, promote, copy });
            }
            _ => {
                let p = match promote {
                    Some(t) => self.r.piece(self.r.owner(self.mover), t),
                    None => self.mover,
                };
                self.s.pending.push(Change::Drop(dest, p, self.mover));
            }
        }
        if self.first_to.is_none() {
            self.first_to = Some(dest);
        }
    }

    pub(super) fn emit(
        &mut self,
        dest: CellId,
        promote: Option<PieceTypeId>,
        copy: bool,
        partial: Option<Option<MoveTypeId>>,
    ) {
        // The turn's last allowed action ends it: a partial move there is the plain move.
        let partial = partial.filter(|_| self.st.parts.saturating_add(1) < crate::limits::TURN_PARTS);
        let mark = self.s.pending.len();
        let first_to = self.first_to;
        self.push_move(dest, promote, copy);
        let to = self.first_to.unwrap_or(dest);
        let lands_on_hole = self.s.pending.iter().any(|c| match *c {
            Change::Go { to, .. } | Change::Drop(to, ..) | Change::Create(to, ..) => self.piece(to) == Piece::HOLE,
            _ => false,
        });
        if !lands_on_hole && !self.lands_between_badly() && !self.overfills(partial.is_none()) {
            // A probe keeps the moves too (dropped when it returns): the moves a run has produced
            // give it its steps, so that a probe's run goes exactly as far as the listing's.
            let take = self.first_capture();
            let ops = &self.s.pending;
            // The same move emitted again (a loop that stands still) is one move.
            let again = self.s.emissions[self.first..].iter().any(|e| {
                e.to == to
                    && e.promote == promote
                    && e.partial == partial
                    && &self.s.changes[e.ops.0 as usize..e.ops.1 as usize] == ops.as_slice()
            });
            if !again {
                let start = self.s.changes.len() as u32;
                self.s.changes.extend_from_slice(&self.s.pending);
                let end = self.s.changes.len() as u32;
                self.s.emissions.push(Emission { to, promote, partial, take, ops: (start, end) });
            }
            if let Some(target) = self.probe.target {
                let spares = || !self.probe.blast || self.blast_spares(to);
                if self.captures_on(target, partial.is_none()) && spares() {
                    self.hit = true;
                }
            }
        }
        self.s.pending.truncate(mark);
        self.first_to = first_to;
    }

    /// Whether the blast of the move collected so far, centred on `to`, spares the mover's
    /// royal pieces as they stand once the move's own changes are made (as a full make and
    /// [`State::royals_lost`] judge it): a move of the piece alone, capturing, is judged on the
    /// board as it is; one that changes other pieces (makes an enemy royal the mover's, creates,
    /// changes the type of or moves another piece) or promotes, on a copy with its changes made.
    pub(super) fn blast_spares(&self, to: CellId) -> bool {
        let (r, by, ty) = (self.r, self.start.side, self.r.type_of(self.mover));
        let plain = self.s.pending.iter().all(|c| match *c {
            Change::Capture(_) => true,
            Change::Go { piece, promote, copy, .. } => piece == self.mover && promote.is_none() && !copy,
            _ => false,
        });
        if plain {
            return self.st.spares_royals(r, by, ty, to);
        }
        let mut after = self.st.clone();
        after.apply_changes(r, &self.s.pending);
        // The capturer is read on the target as it landed (a royal turned into another type
        // is no royal the blast takes).
        after.blast_spares_royals(r, by, ty, to, false)
    }

    /// Whether the move puts a piece on a location between cells where it may not stand: its
    /// type may not `stop-between`, or a cell the location covers holds a piece this move
    /// leaves there. A piece lands between cells as a `stop-between` move stops there, taking
    /// nothing; else it would cover pieces it neither took nor could stand with. A change of
    /// type makes a piece standing between cells (once the pieces have moved) a type that
    /// must be able to stand there too.
    pub(super) fn lands_between_badly(&self) -> bool {
        if !self.r.between.on {
            return false;
        }
        let r = self.r;
        let stands = |t: PieceTypeId| r.variant.pieces[t.0 as usize].stands_between();
        self.s.pending.iter().any(|c| {
            let (to, t) = match *c {
                Change::Go { to, piece, promote, .. } => (to, promote.unwrap_or_else(|| r.type_of(piece))),
                Change::Drop(to, p, _) => (to, r.type_of(p)),
                Change::Create(to, _, t) => (to, t),
                Change::Retype(at, t) => return !stands(t) && self.between_after_moving(at),
                _ => return false,
            };
            let free = |x: &CellId| self.piece(*x).is_empty() || self.leaves(self.st.standing_at(*x));
            r.is_between(to) && !(stands(t) && r.covers(to).iter().all(free))
        })
    }

    /// Whether the piece on `c` once the move's pieces have moved (what a change of type acts
    /// on) stands between cells: the last piece put on `c` or on a location covering it (new
    /// pieces after the movements and drops), else the piece standing there now, unless it
    /// leaves, is captured or is taken by a piece landing on a cell it covers.
    pub(super) fn between_after_moving(&self, c: CellId) -> bool {
        let r = self.r;
        let onto = |to: CellId| to == c || (r.is_between(to) && r.covers(to).contains(&c));
        let pending = &self.s.pending;
        let created = pending.iter().rev().find_map(|ch| match *ch {
            Change::Create(to, ..) if onto(to) => Some(to),
            _ => None,
        });
        let landed = created.or_else(|| {
            pending.iter().rev().find_map(|ch| match *ch {
                Change::Go { to, .. } | Change::Drop(to, ..) if onto(to) => Some(to),
                _ => None,
            })
        });
        if let Some(to) = landed {
            return r.is_between(to);
        }
        let at = self.st.standing_at(c);
        let gone = self.leaves(at)
            || pending.iter().any(|ch| match *ch {
                Change::Capture(x) | Change::Go { to: x, .. } | Change::Drop(x, ..) | Change::Create(x, ..) => {
                    self.st.standing_at(x) == at
                }
                _ => false,
            });
        r.is_between(at) && !self.st.cells[at.0 as usize].is_empty() && !gone
    }

    /// Whether the move leaves a cell of a stack zone holding more pieces than its capacity (a
    /// move may end on a cell only if it then holds at most that many). A move of its piece
    /// alone, made as an ordinary move, is judged by the cell's rules where it lands (it may
    /// take a piece to make room); the others join the stacks they land on and remove pieces
    /// only by their own captures.
    pub(super) fn overfills(&self, ends: bool) -> bool {
        let r = self.r;
        if !r.stacks.on {
            return false;
        }
        if let [Change::Go { from, to, piece, copy: false, .. }] = self.s.pending[..] {
            if ends && self.start.stands == Some(from) && to != from && piece == self.start.mover {
                return false;
            }
        }
        self.s.pending.iter().any(|ch| {
            let to = match *ch {
                Change::Go { to, .. } | Change::Drop(to, ..) | Change::Create(to, ..) => self.st.standing_at(to),
                _ => return false,
            };
            r.is_stack_cell(to)
                && r.occupancy(to, self.st.phases).capacity.is_some_and(|k| self.holds_after(to) > k as usize)
        })
    }

    /// How many pieces the cell `c` holds after the collected changes, applied as a move
    /// applies them: captures empty their cells, the moving pieces leave theirs and land,
    /// joining the stacks there, and new pieces join.
    pub(super) fn holds_after(&self, c: CellId) -> usize {
        let (r, st) = (self.r, self.st);
        let at = |x: CellId| st.standing_at(x);
        let captured = |x: CellId| self.s.pending.iter().any(|ch| matches!(*ch, Change::Capture(y) if at(y) == at(x)));
        let mut n = if captured(c) { 0 } else { st.count(r, c) };
        for ch in &self.s.pending {
            match *ch {
                Change::Go { from, to, piece, copy, .. } => {
                    let lifted = copy || (!captured(from) && st.holds(r, at(from), piece));
                    if lifted && !copy && at(from) == c {
                        n = n.saturating_sub(1);
                    }
                    if lifted && at(to) == c {
                        n += 1;
                    }
                }
                Change::Drop(to, ..) | Change::Create(to, ..) if at(to) == c => n += 1,
                _ => {}
            }
        }
        n
    }

    /// Whether a piece of the move leaves the cell (so landing there does not capture it).
    pub(super) fn leaves(&self, c: CellId) -> bool {
        self.s.pending.iter().any(|op| matches!(*op, Change::Go { from, copy: false, .. } if from == c))
    }

    /// The first piece the collected changes capture.
    pub(super) fn first_capture(&self) -> Piece {
        // A piece landing on a cell of a stack zone joins what stands there (as
        // `apply_changes` makes it): only its own `capture`s take.
        let joins = |c: CellId| self.r.stacks.on && self.r.is_stack_cell(self.st.standing_at(c));
        for op in &self.s.pending {
            match *op {
                Change::Capture(c) => return self.piece(c),
                Change::Go { from, to, .. } if to != from && !self.leaves(to) && !joins(to) => {
                    let p = self.piece(to);
                    if !p.is_empty() && p != Piece::HOLE && !self.r.allied(self.r.owner(p), self.start.side) {
                        return p;
                    }
                }
                Change::Drop(c, ..) if !joins(c) => {
                    let p = self.piece(c);
                    if !p.is_empty() && p != Piece::HOLE {
                        return p;
                    }
                }
                _ => {}
            }
        }
        Piece::EMPTY
    }

    /// Whether the collected changes remove the piece standing on `c`.
    /// `ends`: the move ends the piece's turn (no partial move goes on).
    pub(super) fn captures_on(&self, c: CellId, ends: bool) -> bool {
        // On a cell with occupancy rules, landing on a lone inert piece or a safe crowd joins it
        // rather than taking it, and a capture needs room for the capturer; a move with other
        // changes than its piece's going there joins the stack (its own `capture`s take).
        let can_take = |extra: usize| self.st.capturable_on(self.r, c, self.start.side, extra);
        let alone = ends && self.s.pending.len() == 1;
        let on_stack = |x: CellId| self.r.stacks.on && self.r.is_stack_cell(self.st.standing_at(x));
        let joins = |x: CellId| on_stack(x) && !alone;
        self.s.pending.iter().any(|op| match *op {
            Change::Capture(x) => x == c && can_take(0),
            Change::Go { from, to, .. } => to == c && from != c && !self.leaves(c) && !joins(c) && can_take(1),
            // A dropped or created piece joins a stack (`land_new`), whatever stands there.
            Change::Drop(x, ..) | Change::Create(x, ..) => x == c && !on_stack(c) && can_take(1),
            _ => false,
        })
    }
}
