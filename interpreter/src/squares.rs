//! Square play: squares as game objects (moved, carried, placed, owned, removed) and turns of several actions.
//!
//! A location's square is in the cell array (`Piece::HOLE` where there is none), owners and
//! reserves are per-cell and per-player arrays, and a turn is a sequence of action slots; each
//! action is one move (one ply), and the side to move changes when the turn's last action is made.

use crate::ir::{ActionKind, CellId, PlayerId, Untouchable};
use crate::position::{Move, MoveKind, Position, SquareUndo, State, UNLIMITED};
use crate::rules::{Piece, Rules};

impl ActionKind {
    fn bit(self) -> u8 {
        match self {
            ActionKind::MovePiece => 1,
            ActionKind::MoveSquare => 2,
            ActionKind::PlaceSquare => 4,
        }
    }

    /// The kind of action a move is (`None` for the end of a turn).
    pub fn of(kind: MoveKind) -> Option<ActionKind> {
        match kind {
            MoveKind::MoveSquare | MoveKind::CarrySquare => Some(ActionKind::MoveSquare),
            MoveKind::PlaceSquare => Some(ActionKind::PlaceSquare),
            MoveKind::EndTurn => None,
            _ => Some(ActionKind::MovePiece),
        }
    }
}

impl State {
    /// Sets a square's owner, keeping the hash and recording the old owner for unmaking.
    fn own(&mut self, r: &Rules, cell: CellId, owner: u8, su: &mut SquareUndo) {
        let i = cell.0 as usize;
        let old = self.owner[i];
        if old == owner {
            return;
        }
        self.hash ^= r.zowner(cell, old) ^ r.zowner(cell, owner);
        self.owner[i] = owner;
        su.owners[su.owners_len as usize] = (cell, old);
        su.owners_len += 1;
    }

    /// Puts a square on a location without one, or takes the (empty) square off it.
    fn set_square(&mut self, r: &Rules, cell: CellId, present: bool) {
        self.cells[cell.0 as usize] = if present { Piece::EMPTY } else { Piece::HOLE };
        self.hash ^= r.zhole(cell);
    }

    fn set_reserve(&mut self, r: &Rules, player: PlayerId, n: u32) {
        let i = player.0 as usize;
        self.hash ^= r.zreserve(player, self.reserve[i]) ^ r.zreserve(player, n);
        self.reserve[i] = n;
    }

    fn touch(&mut self, r: &Rules, cell: CellId) {
        if !self.touched.contains(cell) {
            self.touched.push(cell);
            self.hash ^= r.z_touched[cell.0 as usize];
        }
    }

    /// The slot a move of this kind fills: the first from the current one that accepts it.
    fn slot_for(&self, r: &Rules, kind: ActionKind) -> usize {
        let from = self.slot as usize;
        (from..r.slots.len()).find(|&s| r.slots[s].kinds.contains(&kind)).unwrap_or(from)
    }

    /// Makes one action of square play.
    pub(crate) fn make_square_play(&mut self, r: &Rules, mv: Move) {
        let side = self.side;
        let me = side.0 + 1;
        let moved = match mv.kind {
            MoveKind::MoveSquare | MoveKind::PlaceSquare | MoveKind::EndTurn => Piece::EMPTY,
            _ => self.cells[mv.from.0 as usize],
        };
        let mut undo = self.undo_record(mv, moved);
        let mut su = SquareUndo {
            owners: [(CellId(0), 0); 3],
            owners_len: 0,
            reserve: self.reserve[side.0 as usize],
            frozen: self.frozen,
            touched: self.touched,
            slot: self.slot,
            side,
            fullmove: self.fullmove,
            vacated: false,
        };
        self.hashes.push(self.hash);
        let single = r.slots.len() == 1;
        if self.slot == 0 {
            self.halfmove += 1;
        }
        // En passant is open for one turn: any action of a one-action turn ends it, and a piece
        // move (the only action that could use it) ends it in a turn of several actions.
        if single || mv.kind.is_piece_move() {
            self.clear_en_passant(r);
        }
        let squares = r.variant.squares.as_ref();
        let touches = |kind: MoveKind| match squares.map(|s| s.untouchable) {
            Some(Untouchable::Moved) => kind != MoveKind::PlaceSquare,
            Some(Untouchable::Touched) => true,
            _ => false,
        };
        match mv.kind {
            MoveKind::EndTurn => {}
            MoveKind::PlaceSquare => {
                self.set_square(r, mv.to, true);
                if r.owned_squares {
                    self.own(r, mv.to, me, &mut su);
                }
                let n = self.reserve[side.0 as usize];
                if n != UNLIMITED {
                    self.set_reserve(r, side, n.saturating_sub(1));
                }
                if touches(mv.kind) {
                    self.touch(r, mv.to);
                }
            }
            MoveKind::MoveSquare | MoveKind::CarrySquare => {
                // Carrying away the piece that passed, or moving a passed square away, ends the
                // en-passant chance (nothing could take it any more).
                if self.ep.is_some_and(|ep| mv.from == ep.victim || ep.passed().contains(&mv.from)) {
                    self.clear_en_passant(r);
                }
                if mv.kind == MoveKind::CarrySquare {
                    let p = self.lift(r, mv.from);
                    let p = mv.landed(r, p);
                    self.set_square(r, mv.to, true);
                    self.drop_on(r, mv.to, p);
                    if r.resets_clock_code[moved.0 as usize] {
                        self.halfmove = 0;
                    }
                } else {
                    self.set_square(r, mv.to, true);
                }
                self.set_square(r, mv.from, false);
                if r.owned_squares {
                    let o = self.owner[mv.from.0 as usize];
                    self.own(r, mv.to, o, &mut su);
                    self.own(r, mv.from, 0, &mut su);
                }
                if touches(mv.kind) {
                    self.touch(r, mv.to);
                }
            }
            _ => {
                if r.resets_clock_code[moved.0 as usize] {
                    self.halfmove = 0;
                }
                if mv.kind == MoveKind::Castle {
                    let c = &r.variant.castlings[mv.extra as usize];
                    let king = self.lift(r, c.king_from);
                    let partner = self.lift(r, c.partner_from);
                    self.drop_on(r, c.king_to, king);
                    self.drop_on(r, c.partner_to, partner);
                    if r.owned_squares {
                        self.own(r, c.king_to, me, &mut su);
                        self.own(r, c.partner_to, me, &mut su);
                    }
                } else {
                    self.carry::<false>(r, mv, &mut undo);
                    if r.owned_squares {
                        // A piece landing on a square takes it.
                        self.own(r, mv.to, me, &mut su);
                    }
                }
                if let Some(conds) = squares.and_then(|s| s.vacate.as_ref()) {
                    let from = mv.from;
                    if self.cells[from.0 as usize].is_empty()
                        && conds.iter().all(|c| self.condition_holds(r, c, Some((mv.from, mv.to))))
                    {
                        // The square the piece left goes back to the mover's reserve.
                        self.set_square(r, from, false);
                        if r.owned_squares {
                            self.own(r, from, 0, &mut su);
                        }
                        let n = self.reserve[side.0 as usize];
                        if n != UNLIMITED {
                            self.set_reserve(r, side, n + 1);
                        }
                        su.vacated = true;
                    }
                }
            }
        }
        if mv.kind != MoveKind::EndTurn {
            self.lose_castling(r, mv);
        }
        let next = match ActionKind::of(mv.kind) {
            Some(kind) => self.slot_for(r, kind) + 1,
            None => r.slots.len(),
        };
        self.hash ^= r.z_slot[self.slot as usize];
        if next >= r.slots.len() {
            self.end_turn(r);
        } else {
            self.slot = next as u8;
        }
        self.hash ^= r.z_slot[self.slot as usize];
        if !r.variant.phases.is_empty() {
            self.update_phases(r);
        }
        self.history.push(undo);
        self.square_history.push(su);
    }

    /// Ends the side to move's turn: its touched squares become untouchable for the next
    /// player, an en-passant chance it did not create closes, and the next player moves.
    fn end_turn(&mut self, r: &Rules) {
        for c in self.frozen.cells() {
            self.hash ^= r.z_frozen[c.0 as usize];
        }
        for c in self.touched.cells() {
            self.hash ^= r.z_touched[c.0 as usize] ^ r.z_frozen[c.0 as usize];
        }
        self.frozen = self.touched;
        self.touched = Default::default();
        if self.ep.is_some_and(|ep| r.owner(ep.piece) != self.side) {
            self.clear_en_passant(r);
        }
        self.slot = 0;
        self.pass_turn(r);
    }

    /// Takes back the last action of square play.
    pub(crate) fn unmake_square_play(&mut self, r: &Rules) {
        let (Some(undo), Some(su)) = (self.history.pop(), self.square_history.pop()) else { return };
        self.hashes.pop();
        let mv = undo.mv;
        let side = su.side;
        match mv.kind {
            MoveKind::EndTurn => {}
            MoveKind::PlaceSquare => self.set_square(r, mv.to, false),
            MoveKind::MoveSquare => {
                self.set_square(r, mv.from, true);
                self.set_square(r, mv.to, false);
            }
            MoveKind::CarrySquare => {
                self.lift(r, mv.to);
                self.set_square(r, mv.to, false);
                self.set_square(r, mv.from, true);
                self.drop_on(r, mv.from, undo.moved);
            }
            MoveKind::Castle => {
                if su.vacated {
                    self.set_square(r, mv.from, true);
                }
                let c = &r.variant.castlings[mv.extra as usize];
                let king = self.lift(r, c.king_to);
                let partner = self.lift(r, c.partner_to);
                self.drop_on(r, c.king_from, king);
                self.drop_on(r, c.partner_from, partner);
            }
            _ => {
                if su.vacated {
                    self.set_square(r, mv.from, true);
                }
                self.uncarry::<false>(r, &undo);
            }
        }
        for &(cell, owner) in su.owners[..su.owners_len as usize].iter().rev() {
            self.owner[cell.0 as usize] = owner;
        }
        self.reserve[side.0 as usize] = su.reserve;
        self.frozen = su.frozen;
        self.touched = su.touched;
        self.slot = su.slot;
        self.side = side;
        self.fullmove = su.fullmove;
        self.castling = undo.castling;
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.phases = undo.phases;
        self.hash = undo.hash;
    }

    /// Pseudo-legal square moves of `side`: empty squares by the square moves, squares holding
    /// one of its pieces by the carry moves, each to a location without a square.
    fn square_moves(&self, r: &Rules, side: PlayerId, out: &mut Vec<Move>) {
        let Some(sq) = r.variant.squares.as_ref() else { return };
        for c in 0..r.cells {
            let from = CellId(c as u16);
            let p = self.cells[c];
            if p == Piece::HOLE || self.frozen.contains(from) {
                continue;
            }
            let (table, kind) = if p.is_empty() {
                // With owned squares, only one's own empty squares move.
                if r.owned_squares && self.owner[c] != side.0 + 1 {
                    continue;
                }
                (&r.square_moves, MoveKind::MoveSquare)
            } else {
                if r.owner(p) != side || (!sq.carry_royal && r.royal_code[p.0 as usize]) {
                    continue;
                }
                (&r.square_carries, MoveKind::CarrySquare)
            };
            let mut mv = Move { from, to: from, kind, promote: 0, extra: 0, piece: p, take: Piece::EMPTY };
            for ray in table.rays(r.cells, side, from) {
                for &to in ray {
                    if self.cells[to.0 as usize] != Piece::HOLE {
                        break;
                    }
                    mv.to = to;
                    if kind == MoveKind::CarrySquare {
                        self.push(r, r.type_of(p), mv, out);
                    } else {
                        out.push(mv);
                    }
                }
            }
        }
    }

    /// Pseudo-legal placements of `side`: a square from reserve on any location without one
    /// (in the placement zone, if the game names one).
    fn square_placements(&self, r: &Rules, side: PlayerId, out: &mut Vec<Move>) {
        let Some(sq) = r.variant.squares.as_ref() else { return };
        if self.reserve[side.0 as usize] == 0 {
            return;
        }
        for c in 0..r.cells {
            let to = CellId(c as u16);
            if self.cells[c] == Piece::HOLE && sq.place_zone.is_none_or(|z| r.in_zone(z, side, to)) {
                out.push(Move {
                    from: to,
                    to,
                    kind: MoveKind::PlaceSquare,
                    promote: 0,
                    extra: 0,
                    piece: Piece::EMPTY,
                    take: Piece::EMPTY,
                });
            }
        }
    }
}

impl Position {
    /// Whether a square action leaves the mover's royal pieces safe. Attacks depend on the cells
    /// alone, so an empty square's move or placement is tried in the cell array only; a carry
    /// (which moves a piece) is made and unmade.
    fn square_action_legal(&mut self, mv: Move) -> bool {
        let r = &*self.rules;
        if mv.kind == MoveKind::CarrySquare || r.slow_attacks || r.stacking || !r.apart.is_empty() {
            return self.is_legal(mv);
        }
        let st = &mut self.st;
        let (from, to) = (mv.from.0 as usize, mv.to.0 as usize);
        let was = (st.cells[from], st.cells[to]);
        if mv.kind == MoveKind::MoveSquare {
            st.cells[from] = Piece::HOLE;
        }
        st.cells[to] = Piece::EMPTY;
        let ok = !st.royal_attacked(r, st.side);
        st.cells[to] = was.1;
        st.cells[from] = was.0;
        ok
    }

    /// The square actions (moves, carries, placements) the rules offer at this point of the
    /// turn, before the test of the royal piece's safety.
    pub(crate) fn pseudo_square_actions(&self, out: &mut Vec<Move>) {
        let r = &*self.rules;
        let side = self.st.side;
        for slot in &r.slots[self.st.slot as usize..] {
            for kind in &slot.kinds {
                match kind {
                    ActionKind::MoveSquare => self.st.square_moves(r, side, out),
                    ActionKind::PlaceSquare => self.st.square_placements(r, side, out),
                    ActionKind::MovePiece => {}
                }
            }
            if !slot.optional && slot.skip_if_none.is_none() {
                break;
            }
        }
    }

    /// The legal actions of square play: those of the current slot of the turn, and of later
    /// slots where the earlier ones may be skipped (by choice, or because none is legal), plus
    /// the end of the turn when every remaining slot may be left out.
    pub(crate) fn legal_square_play(&mut self, out: &mut Vec<Move>) {
        out.clear();
        let rules = self.rules.clone();
        let r = &*rules;
        let side = self.st.side;
        let mut done = 0u8;
        let mut s = self.st.slot as usize;
        loop {
            let slot = &r.slots[s];
            let first = out.len();
            for &kind in &slot.kinds {
                if done & kind.bit() != 0 {
                    continue;
                }
                done |= kind.bit();
                // Generate this kind's pseudo-legal actions after the others, then keep the legal.
                let start = out.len();
                let royal = match kind {
                    ActionKind::MovePiece => {
                        self.st.pseudo_moves(r, side, out);
                        self.shortcut_royal()
                    }
                    ActionKind::MoveSquare => {
                        self.st.square_moves(r, side, out);
                        None
                    }
                    ActionKind::PlaceSquare => {
                        self.st.square_placements(r, side, out);
                        None
                    }
                };
                let mut kept = start;
                for i in start..out.len() {
                    let mv = out[i];
                    let ok = if kind == ActionKind::MovePiece {
                        self.legal_fast(mv, &royal)
                    } else {
                        self.square_action_legal(mv)
                    };
                    if ok {
                        out[kept] = mv;
                        kept += 1;
                    }
                }
                out.truncate(kept);
            }
            let none = out.len() == first;
            let skip = slot.optional
                || (none
                    && slot
                        .skip_if_none
                        .as_ref()
                        .is_some_and(|conds| conds.iter().all(|c| self.st.condition_holds(r, c, None))));
            if !skip {
                break;
            }
            s += 1;
            if s == r.slots.len() {
                // Every remaining action may be left out: the turn may end here, once something
                // has been done in it.
                if self.st.slot > 0 {
                    let c = CellId(0);
                    out.push(Move {
                        from: c,
                        to: c,
                        kind: MoveKind::EndTurn,
                        promote: 0,
                        extra: 0,
                        piece: Piece::EMPTY,
                        take: Piece::EMPTY,
                    });
                }
                break;
            }
        }
    }
}
