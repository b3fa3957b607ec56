//! Making a program move or a drop: the program is run again, the chosen emission found, and its changes applied in the documented order through the logged board changes.

use crate::ir::{CellId, MoveTypeId, PlayerId};
use crate::position::{Move, MoveKind, State};
use crate::program::run::{Change, Emission, Probe, Scratch, Start};
use crate::rules::programs::{DropRule, PLAIN_DROP};
use crate::rules::{Piece, Rules};

impl State {
    /// Applies a program move or a drop; returns the move type a partial move continues with.
    pub(crate) fn apply_program(&mut self, r: &Rules, mv: Move) -> Option<Option<MoveTypeId>> {
        if mv.kind == MoveKind::Drop && mv.seq == PLAIN_DROP {
            self.drop_piece(r, mv.to, mv.piece, mv.piece);
            return None;
        }
        // The changes are read from the run's scratch space: a make allocates nothing.
        let mut s = self.scratch();
        let found = self.program_emission(r, mv, &mut s);
        if let Some(e) = found {
            self.apply_changes(r, s.changes_of(&e));
        }
        self.return_scratch(s);
        found.and_then(|e| e.partial)
    }

    /// The changes a program move or a coded drop makes, found by running its program again,
    /// and the move type a partial move continues with.
    pub(crate) fn program_changes(&self, r: &Rules, mv: Move) -> Option<(Vec<Change>, Option<Option<MoveTypeId>>)> {
        let mut s = self.scratch();
        let out = self.program_emission(r, mv, &mut s).map(|e| (s.changes_of(&e).to_vec(), e.partial));
        self.return_scratch(s);
        out
    }

    /// The emission of a program move or a coded drop, found by running its program again
    /// into `s` (its changes are there).
    fn program_emission(&self, r: &Rules, mv: Move, s: &mut Scratch) -> Option<Emission> {
        let pr = r.program.as_deref()?;
        let t = r.type_of(mv.piece).0 as usize;
        match mv.kind {
            MoveKind::Drop => {
                let Some(DropRule::Code(code)) = pr.drops[t].get(mv.extra as usize) else { return None };
                let start = Start { side: self.side, cell: mv.from, stands: None, mover: mv.piece };
                self.run_code(r, code, start, Probe::default(), s);
                s.emissions.get(mv.seq as usize).copied()
            }
            MoveKind::Program => {
                let (_, code) = pr.codes[t].get(mv.extra as usize)?;
                let origins = if r.is_between(mv.from) { r.covers(mv.from) } else { std::slice::from_ref(&mv.from) };
                origins.iter().find_map(|origin| {
                    let start = Start { side: self.side, cell: *origin, stands: Some(mv.from), mover: mv.piece };
                    self.run_code(r, code, start, Probe::default(), s);
                    s.emissions.get(mv.seq as usize).copied()
                })
            }
            _ => None,
        }
    }

    /// Places a dropped piece `p` (promoted side up where the program says so), capturing what
    /// stands on a plain cell (on a stack it joins); the dropping piece `from` leaves the hand,
    /// where it comes from there.
    fn drop_piece(&mut self, r: &Rules, c: CellId, p: Piece, from: Piece) {
        let Some(pr) = r.program.as_deref() else { return };
        let t = r.type_of(from).0 as usize;
        if pr.from_hand[t] {
            let i = r.owner(from).0 as usize * r.types + t;
            if self.hand[i] > 0 {
                self.hand_logged(r, i, self.hand[i] - 1);
            }
        }
        self.land_new(r, c, p);
    }

    /// Puts a new piece on a cell: what stands on a plain cell is captured; on a cell of a
    /// stack zone the piece joins.
    fn land_new(&mut self, r: &Rules, c: CellId, p: Piece) {
        let at = self.standing_at(c);
        if (!r.stacks.on || !r.is_stack_cell(at)) && !self.cells[at.0 as usize].is_empty() {
            self.clear_logged(r, at, true);
        }
        self.put_logged(r, c, p, r.attr_default(r.type_of(p)));
    }

    /// Applies an emission's changes: captures, then the movements in order (and drops), then
    /// new pieces, then changes of type and owner and attributes on what stands there after
    /// the movements.
    pub(crate) fn apply_changes(&mut self, r: &Rules, changes: &[Change]) {
        for ch in changes {
            if let Change::Capture(c) = *ch {
                let at = self.standing_at(c);
                self.clear_logged(r, at, true);
            }
        }
        // The moving pieces all leave their cells first, then land in order: a piece landing
        // where another piece of the same move leaves (a captured piece sent to a reserve by a
        // cascade) does not capture it.
        let mut lifted: Vec<(Piece, u64)> = Vec::new();
        for ch in changes {
            if let Change::Go { from, piece, copy, promote, .. } = *ch {
                // A piece between cells leaves from where it stands, whichever covered cell
                // the program named (a cascade moving the friend it found there).
                let from = self.standing_at(from);
                let landed = match promote {
                    Some(t) => r.piece(r.owner(piece), t),
                    None => piece,
                };
                if copy {
                    lifted.push((landed, r.attr_default(r.type_of(landed))));
                } else if self.holds(r, from, piece) {
                    let attrs = self.take_logged(r, from, piece, false);
                    lifted.push((landed, attrs));
                } else {
                    lifted.push((Piece::EMPTY, 0));
                }
            }
        }
        let mut k = 0;
        for ch in changes {
            match *ch {
                Change::Go { to, .. } => {
                    let (landed, attrs) = lifted[k];
                    k += 1;
                    if landed.is_empty() {
                        continue;
                    }
                    let at = self.standing_at(to);
                    if (!r.stacks.on || !r.is_stack_cell(at)) && !self.cells[at.0 as usize].is_empty() {
                        self.clear_logged(r, at, true);
                    }
                    self.put_logged(r, to, landed, attrs);
                }
                Change::Drop(c, p, from) => self.drop_piece(r, c, p, from),
                _ => {}
            }
        }
        for ch in changes {
            if let Change::Create(c, owner, t) = *ch {
                self.land_new(r, c, r.piece(owner, t));
            }
        }
        // A piece between cells changes where it stands, whichever covered cell was named.
        for ch in changes {
            match *ch {
                Change::Retype(c, t) => {
                    let c = self.standing_at(c);
                    for p in self.pieces_at(r, c).to_vec() {
                        let attrs = self.take_logged(r, c, p, false);
                        self.put_logged(r, c, r.piece(r.owner(p), t), attrs);
                    }
                }
                Change::Reown(c, owner) => {
                    let c = self.standing_at(c);
                    for p in self.pieces_at(r, c).to_vec() {
                        let owner = owner.unwrap_or_else(|| PlayerId(((r.owner(p).0 as usize + 1) % r.players) as u8));
                        let attrs = self.take_logged(r, c, p, false);
                        self.put_logged(r, c, r.piece(owner, r.type_of(p)), attrs);
                    }
                }
                _ => {}
            }
        }
        for ch in changes {
            if let Change::Attribute(c, a, v) = *ch {
                let c = self.standing_at(c);
                let p = self.cells[c.0 as usize];
                if p.is_empty() || p == Piece::HOLE {
                    continue;
                }
                let old = self.attr_of(c);
                let new = if v { old | 1 << a.0 } else { old & !(1 << a.0) };
                self.attrs_logged(r, c, new);
            }
        }
    }
}
