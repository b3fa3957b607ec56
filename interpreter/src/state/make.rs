//! Making and unmaking moves: a plain path (a piece moves, maybe capturing, the capture maybe to hand, or castles, or a piece is dropped from the hand onto an empty cell, on a board without stacks, squares or attributes) and one general path, logged change by change, for every kind of move in every variant.
//!
//! Both end the same way: the turn advances (the next action of a turn, a partial move's
//! continuation, or the next player by the turn order), phases begin, and the undo record is
//! pushed. Unmaking restores the record and, for the general path, takes the log back.

use crate::counters::MAX_CLOCK;
use crate::ir::{ActionKind, CellId, Condition, DirId, MoveTypeId, PlayerId, Untouchable};
use crate::position::{EnPassant, Logged, Move, MoveKind, SquareUndo, State, Undo, UNLIMITED};
use crate::rules::{Piece, Rules};

impl State {
    /// Plays a move (assumed pseudo-legal).
    pub(crate) fn make(&mut self, r: &Rules, mv: Move) {
        // In the middle of a partial move even a plain step is the piece going on: the general
        // path ends the partial move (or lets it go on) and hands over the turn as its rules say.
        if r.paths.allows(crate::paths::Path::PlainMake) && self.partial.is_none() {
            match mv.kind {
                MoveKind::Normal | MoveKind::Passage | MoveKind::EnPassant | MoveKind::Castle => {
                    return self.make_plain(r, mv);
                }
                MoveKind::Drop if mv.is_plain_drop() && self.make_plain_drop(r, mv) => return,
                _ => {}
            }
        }
        self.make_general(r, mv);
    }

    /// What unmaking `mv` needs of the state as it is now.
    #[inline]
    pub(crate) fn undo_record(&self, mv: Move, moved: Piece) -> Undo {
        Undo {
            mv,
            moved,
            captured: Piece::EMPTY,
            captured_at: mv.to,
            castling: self.rights.castling,
            ep: self.rights.ep,
            halfmove: self.clocks.halfmove,
            phases: self.phases,
            hash: self.hash,
            general: false,
            log: self.log.len() as u32,
            piece_count: self.piece_count,
            side: self.side,
            fullmove: self.clocks.fullmove,
            turn: self.turn,
            slot: self.slot,
            partial: self.partial,
            parts: self.parts,
            before: 0,
            out: self.out,
        }
    }

    /// The plain path: the capture and the piece carried over (or the castling), recorded in
    /// the undo record alone.
    fn make_plain(&mut self, r: &Rules, mv: Move) {
        let moved = self.cells[mv.from.0 as usize];
        // Pushed first, so that it is written once, where it stays (the capture is added).
        self.history.push(self.undo_record(mv, moved));
        self.hashes.push(self.hash);
        self.clear_en_passant(r);
        // The counters stop at the largest number a position string may give, so that every
        // position written reads back.
        self.clocks.halfmove = (self.clocks.halfmove + 1).min(MAX_CLOCK);
        if r.pieces.resets_clock_code[moved.0 as usize] {
            self.clocks.halfmove = 0;
        }
        let target = self.cells[mv.to.0 as usize];
        if mv.kind == MoveKind::Castle {
            let c = &r.castles.list[mv.extra as usize];
            let king = self.lift(r, c.king_from);
            let partner = self.lift(r, c.partner_from);
            self.drop_on(r, c.king_to, king);
            self.drop_on(r, c.partner_to, partner);
        } else {
            let taken = if r.between.on { self.carry::<true>(r, mv) } else { self.carry::<false>(r, mv) };
            if let (Some((captured, at)), Some(undo)) = (taken, self.history.last_mut()) {
                (undo.captured, undo.captured_at) = (captured, at);
                if r.captures_to_hand {
                    self.plain_to_hand(r, captured);
                }
            }
        }
        self.lose_castling(r, mv);
        if r.castles.has_free() {
            let taken = if mv.kind == MoveKind::Castle { Piece::EMPTY } else { target };
            self.drop_castling(r, self.king_keep(r, moved, mv.from) & self.king_keep(r, taken, mv.to));
        }
        self.next_player(r);
        if !r.variant.phases.is_empty() {
            self.update_phases(r);
        }
    }

    /// The body of a plain move (not a castling): the capture, then the piece carried over. A
    /// piece standing between cells leaves (or is captured from) every cell it covers and
    /// covers all of its new location's; a move onto one of the mover's own covered cells
    /// captures nothing. `COVER`: the board has locations between cells. Returns the piece
    /// captured and where it stood.
    #[inline]
    fn carry<const COVER: bool>(&mut self, r: &Rules, mv: Move) -> Option<(Piece, CellId)> {
        let at = match mv.kind {
            MoveKind::EnPassant => CellId(mv.extra),
            _ if COVER => self.standing_at(mv.to),
            _ => mv.to,
        };
        let mut taken = None;
        if at != mv.from && !self.cells[at.0 as usize].is_empty() {
            taken = Some((self.leave::<COVER>(r, at), at));
            self.piece_count -= 1;
            self.clocks.halfmove = 0;
        }
        let p = self.leave::<COVER>(r, mv.from);
        let p = mv.landed(r, p);
        self.land::<COVER>(r, mv.to, p);
        if mv.kind == MoveKind::Passage {
            self.mark_passage(r, mv);
        }
        taken
    }

    /// Takes back [`State::carry`].
    #[inline]
    fn uncarry<const COVER: bool>(&mut self, r: &Rules, mv: Move, moved: Piece, (captured, at): (Piece, CellId)) {
        self.leave::<COVER>(r, mv.to);
        self.land::<COVER>(r, mv.from, moved);
        if !captured.is_empty() {
            self.land::<COVER>(r, at, captured);
        }
    }

    #[inline]
    fn leave<const COVER: bool>(&mut self, r: &Rules, cell: CellId) -> Piece {
        if COVER {
            self.take_off(r, cell)
        } else {
            self.lift(r, cell)
        }
    }

    #[inline]
    fn land<const COVER: bool>(&mut self, r: &Rules, cell: CellId, p: Piece) {
        if COVER {
            self.put_on(r, cell, p)
        } else {
            self.drop_on(r, cell, p)
        }
    }

    /// The general path: every board change logged, so any kind of move composes with any
    /// feature of the board.
    fn make_general(&mut self, r: &Rules, mv: Move) {
        self.make_general_with(r, mv, true, true);
    }

    /// [`State::make_general`]. The plain reference makes replies only to see what they take:
    /// without `settle`, a turn whose remaining actions may all be left out does not end by
    /// itself when none is legal; without `blast`, a capture does not explode and no wall is built.
    pub(crate) fn make_general_with(&mut self, r: &Rules, mv: Move, settle: bool, blast: bool) {
        let moved = match mv.kind {
            MoveKind::MoveSquare | MoveKind::PlaceSquare | MoveKind::EndTurn | MoveKind::Choose => Piece::EMPTY,
            _ => mv.piece,
        };
        let mut undo = self.undo_record(mv, moved);
        undo.general = true;
        let log = self.log.len();
        self.hashes.push(self.hash);
        if r.squares.play {
            self.squares.square_history.push(SquareUndo { frozen: self.squares.frozen, touched: self.squares.touched });
        }
        if mv.kind == MoveKind::Choose {
            // Before the first move: nothing but the choice changes.
            self.make_choice(r, mv);
            if !r.variant.phases.is_empty() {
                self.update_phases(r);
            }
            self.history.push(undo);
            return;
        }
        // The clock counts turns: it runs at a turn's first action.
        if self.slot == 0 && self.partial.is_none() {
            self.clocks.halfmove = (self.clocks.halfmove + 1).min(MAX_CLOCK);
        }
        // En passant is open for one turn: any action of a one-action turn ends it, and a piece
        // move (the only action that could use it) ends it in a turn of several actions.
        if r.squares.slots.len() == 1 || mv.kind.is_piece_move() {
            self.clear_en_passant(r);
        }
        let continues = self.act(r, mv);
        if blast && r.explosions.is_some() && mv.kind.is_piece_move() {
            self.explode(r, mv, log);
        }
        // Without its blast a capturer may still stand on a cell its blast would clear, where
        // the move may put its wall: the walls are left out too (such a move is made only to
        // read what it takes).
        if blast && r.variant.walls.is_some() && mv.kind.is_piece_move() {
            self.build_walls(r, mv, log);
        }
        if mv.gate != 0 {
            self.place_gated(r, mv);
        }
        let moves_piece = mv.kind.is_piece_move() && mv.kind != MoveKind::Drop;
        let (captured, keep) = self.captured_and_kept(r, log);
        if captured && r.captures_to_hand {
            self.captures_to_hand(r, log);
        }
        // A drop adds material to the board for good, as a capture takes it away: it resets
        // the clock whatever it drops (as Fairy-Stockfish does).
        let places_piece = moves_piece || mv.kind == MoveKind::CarrySquare;
        if captured || mv.kind == MoveKind::Drop || (places_piece && r.pieces.resets_clock_code[mv.piece.0 as usize]) {
            self.clocks.halfmove = 0;
        }
        if mv.kind.is_piece_move() {
            self.drop_castling(r, keep);
            if mv.kind == MoveKind::Drop && r.castles.gained_by_drop() {
                self.gain_castling(r, mv);
            }
            if r.squares.owned {
                self.own_landed_squares(r, log);
            }
            if moves_piece {
                self.vacate(r, mv);
            }
        } else if mv.kind != MoveKind::EndTurn {
            // A square carrying a castling king off its cell ends the castlings whose start
            // cells come from the position, as the king's own move does.
            let carried =
                if mv.kind == MoveKind::CarrySquare { self.king_keep(r, mv.piece, mv.from) } else { u32::MAX };
            self.drop_castling(r, r.castle_keep[mv.from.0 as usize] & r.castle_keep[mv.to.0 as usize] & carried);
        }
        // The partial move going on is keyed with the last move: its key leaves before this
        // move becomes the last, and the continuation is looked for with this move as the
        // last (a continuation may test `last-from`).
        let parts = self.parts;
        self.set_partial(r, None, 0);
        self.history.push(undo);
        self.advance(r, mv, continues, parts);
        if !r.variant.phases.is_empty() {
            self.update_phases(r);
        }
        // A turn ends by itself after its last possible action (the rest being optional).
        if settle
            && r.squares.play
            && self.slot > 0
            && self.partial.is_none()
            && self.rest_optional(r)
            && !self.can_act(r)
        {
            self.end_turn(r);
            if !r.variant.phases.is_empty() {
                self.update_phases(r);
            }
        }
    }

    /// Plays the move's action (a piece's move, a castling, a program or drop, a square's
    /// action): for a program, whether and how the turn continues.
    fn act(&mut self, r: &Rules, mv: Move) -> Option<Option<MoveTypeId>> {
        match mv.kind {
            MoveKind::Normal | MoveKind::Passage | MoveKind::EnPassant => {
                self.move_piece(r, mv);
                None
            }
            MoveKind::Castle => {
                self.castle(r, mv);
                None
            }
            MoveKind::Program | MoveKind::Drop => self.apply_program(r, mv),
            MoveKind::MoveSquare | MoveKind::CarrySquare | MoveKind::PlaceSquare => {
                self.square_action(r, mv);
                None
            }
            MoveKind::EndTurn | MoveKind::Choose => None,
        }
    }

    /// From the log entries since `log`: whether a piece was captured, and the castling and
    /// gating rights the cells touched leave.
    fn captured_and_kept(&self, r: &Rules, log: usize) -> (bool, u32) {
        let mut captured = false;
        let mut keep = u32::MAX;
        for e in &self.log[log..] {
            match *e {
                Logged::Took(c, p, _, cap) => {
                    captured |= cap;
                    keep &= r.castle_keep[c.0 as usize] & self.king_keep(r, p, c);
                }
                Logged::Put(c, p, _) => {
                    keep &= r.castle_keep[c.0 as usize];
                    if !r.gates.aimed.is_empty() {
                        keep &= !r.gates.aimed_loss(r.owner(p), r.type_of(p), c);
                    }
                }
                _ => {}
            }
        }
        (captured, keep)
    }

    /// A piece landing on a square takes it for its owner, also when it joins a stack
    /// (whoever else stands there); a piece put and then taken away again (blown up) takes
    /// nothing. The ownership changes are logged after the move's own entries (since `log`).
    fn own_landed_squares(&mut self, r: &Rules, log: usize) {
        for k in log..self.log.len() {
            if let Logged::Put(c, p, _) = self.log[k] {
                if self.pieces_at(r, c).contains(&p) {
                    self.own_logged(r, c, r.owner(p).0 + 1);
                }
            }
        }
    }

    /// A piece moves by a power (or a program move that only moves it): the capture on the
    /// target (on a stack: the pieces the move names), then the piece, keeping its attributes.
    fn move_piece(&mut self, r: &Rules, mv: Move) {
        let at = if mv.kind == MoveKind::EnPassant { CellId(mv.extra) } else { self.standing_at(mv.to) };
        if r.stacks.on && r.is_stack_cell(at) {
            if mv.take == Piece::ALL {
                let side = self.side;
                let victims: Vec<Piece> =
                    self.stacks[at.0 as usize].iter().copied().filter(|q| !r.allied(r.owner(*q), side)).collect();
                for v in victims {
                    self.take_logged(r, at, v, true);
                }
            } else if !mv.take.is_empty() {
                self.take_logged(r, at, mv.take, true);
            }
        } else if at != self.standing_at(mv.from) && !self.cells[at.0 as usize].is_empty() {
            self.clear_logged(r, at, true);
        }
        let attrs = self.take_logged(r, mv.from, mv.piece, false);
        self.put_logged(r, mv.to, mv.landed(r, mv.piece), attrs);
        if mv.kind == MoveKind::Passage {
            self.mark_passage(r, mv);
        }
    }

    /// A castling: the king and the partner each go to their cell.
    fn castle(&mut self, r: &Rules, mv: Move) {
        let c = &r.castles.list[mv.extra as usize];
        let king = self.cells[c.king_from.0 as usize];
        let partner = self.cells[c.partner_from.0 as usize];
        let ka = self.take_logged(r, c.king_from, king, false);
        let pa = self.take_logged(r, c.partner_from, partner, false);
        self.put_logged(r, c.king_to, king, ka);
        self.put_logged(r, c.partner_to, partner, pa);
    }

    /// When squares vacate: the square a piece left is removed to the mover's reserve.
    fn vacate(&mut self, r: &Rules, mv: Move) {
        let Some(conds) = r.variant.squares.as_ref().and_then(|s| s.vacate.as_ref()) else { return };
        let from = mv.from;
        if self.cells[from.0 as usize].is_empty()
            && conds.iter().all(|c| self.condition_holds(r, c, Some((mv.from, mv.to))))
        {
            self.square_logged(r, from, false);
            if r.squares.owned {
                self.own_logged(r, from, 0);
            }
            let n = self.squares.reserve[self.side.0 as usize];
            if n != UNLIMITED {
                self.reserve_logged(r, self.side, n + 1);
            }
        }
    }

    /// An action on squares: a placement from reserve, or a square moved (with its piece).
    fn square_action(&mut self, r: &Rules, mv: Move) {
        let side = self.side;
        let me = side.0 + 1;
        let touches = match r.variant.squares.as_ref().map(|s| s.untouchable) {
            Some(Untouchable::Moved) => mv.kind != MoveKind::PlaceSquare,
            Some(Untouchable::Touched) => true,
            _ => false,
        };
        if mv.kind == MoveKind::PlaceSquare {
            self.square_logged(r, mv.to, true);
            if r.squares.owned {
                self.own_logged(r, mv.to, me);
            }
            let n = self.squares.reserve[side.0 as usize];
            if n != UNLIMITED {
                self.reserve_logged(r, side, n.saturating_sub(1));
            }
        } else {
            // Carrying away the piece that passed, or moving a passed square away, ends the
            // en-passant chance (nothing could take it any more).
            if self.rights.ep.is_some_and(|ep| mv.from == ep.victim || ep.passed().contains(&mv.from)) {
                self.clear_en_passant(r);
            }
            self.square_logged(r, mv.to, true);
            if mv.kind == MoveKind::CarrySquare {
                let attrs = self.take_logged(r, mv.from, mv.piece, false);
                self.put_logged(r, mv.to, mv.landed(r, mv.piece), attrs);
            }
            self.square_logged(r, mv.from, false);
            if r.squares.owned {
                let o = self.squares.owner[mv.from.0 as usize];
                self.own_logged(r, mv.to, o);
                self.own_logged(r, mv.from, 0);
            }
        }
        if touches && !self.squares.touched.contains(mv.to) {
            self.squares.touched.push(mv.to);
            self.hash ^= r.keys.touched[mv.to.0 as usize];
        }
    }

    /// After an action: a partial move's piece goes on if it can, unless the turn has had
    /// [`crate::limits::TURN_PARTS`] actions (`parts` before this one); else the next action
    /// of the turn is due, or the turn ends.
    fn advance(&mut self, r: &Rules, mv: Move, continues: Option<Option<MoveTypeId>>, parts: u8) {
        let parts = parts.saturating_add(1);
        if let Some(ty) = continues.filter(|_| parts < crate::limits::TURN_PARTS) {
            self.set_partial(r, Some((mv.to, ty)), parts);
            if self.surely_goes_on(r, mv.to, ty) {
                return;
            }
            let mut next = Vec::new();
            self.pseudo_moves(r, self.side, &mut next);
            if !next.is_empty() {
                return;
            }
            self.set_partial(r, None, 0);
        }
        if r.squares.play && mv.kind != MoveKind::EndTurn {
            let kind = ActionKind::of(mv.kind).unwrap_or(ActionKind::MovePiece);
            let from = self.slot as usize;
            let filled =
                (from..r.squares.slots.len()).find(|&s| r.squares.slots[s].kinds.contains(&kind)).unwrap_or(from);
            if filled + 1 < r.squares.slots.len() {
                self.hash ^= r.keys.slot[self.slot as usize];
                self.slot = (filled + 1) as u8;
                self.hash ^= r.keys.slot[self.slot as usize];
                return;
            }
        }
        self.end_turn(r);
    }

    /// Whether the piece on `at` surely has a move of type `ty` to go on with, its
    /// continuation not listed (the `SureContinuations` path): one of its programs of that
    /// type emits a move wherever it may start, which its first instruction, an `add`, does
    /// (such a code has no guard; on a board without stacks or locations between cells that
    /// move lands).
    fn surely_goes_on(&self, r: &Rules, at: CellId, ty: Option<MoveTypeId>) -> bool {
        let Some(pr) = r.program.as_deref().filter(|_| r.paths.allows(crate::paths::Path::SureContinuations)) else {
            return false;
        };
        let piece = self.cells[at.0 as usize];
        if piece.is_empty() || piece == Piece::HOLE || r.owner(piece) != self.side {
            return false;
        }
        let only = crate::rules::programs::Only::of(ty);
        pr.codes[r.type_of(piece).0 as usize].iter().any(|(_, code)| {
            code.adds_first
                && only.allows(code.move_type.map_or(crate::tables::NO_MOVE_TYPE, |m| m.0))
                && code.may_start(self.side, at)
        })
    }

    /// Sets or clears the piece that goes on with a partial move and the actions its turn has
    /// had, keeping the hash.
    pub(crate) fn set_partial(&mut self, r: &Rules, p: Option<(CellId, Option<MoveTypeId>)>, parts: u8) {
        let Some(pr) = r.program.as_deref() else {
            (self.partial, self.parts) = (p, parts);
            return;
        };
        self.hash ^= self.partial_key(r, pr);
        (self.partial, self.parts) = (p, parts);
        self.hash ^= self.partial_key(r, pr);
    }

    /// Ends the side to move's turn: in square play its touched squares become untouchable
    /// for the next player and an en-passant chance it did not create closes; then the next
    /// player moves.
    pub(crate) fn end_turn(&mut self, r: &Rules) {
        if r.squares.play {
            for c in self.squares.frozen.cells() {
                self.hash ^= r.keys.frozen[c.0 as usize];
            }
            for c in self.squares.touched.cells() {
                self.hash ^= r.keys.touched[c.0 as usize] ^ r.keys.frozen[c.0 as usize];
            }
            self.squares.frozen = self.squares.touched;
            self.squares.touched = Default::default();
            if self.rights.ep.is_some_and(|ep| !r.allied(r.owner(ep.piece), self.side)) {
                self.clear_en_passant(r);
            }
            self.hash ^= r.keys.slot[self.slot as usize] ^ r.keys.slot[0];
            self.slot = 0;
        }
        self.next_player(r);
    }

    /// Who moves in turn number `t` (0 is the first turn), after `before` moved in turn
    /// `t - 1`: the turn order's player, or else the next player in order.
    pub(crate) fn turn_player(&self, r: &Rules, t: u32) -> PlayerId {
        match crate::rules::players::turn_entry(r, t) {
            Some(e) => e.player,
            None if t == 0 => PlayerId(0),
            // The next in order, wrapping round (no division: this runs at every move).
            None if self.side.0 as usize + 1 >= r.players => PlayerId(0),
            None => PlayerId(self.side.0 + 1),
        }
    }

    /// Hands the move to the next player; a new round (full move) begins when the first
    /// player's turn comes back.
    #[inline(always)]
    pub(crate) fn next_player(&mut self, r: &Rules) {
        // A partial move never outlives its player's turn, however the turn passes (a player
        // put out of the game in the middle of one, say).
        if self.partial.is_some() {
            self.set_partial(r, None, 0);
        }
        let before = self.side;
        let start_turn = self.turn;
        let mut next = self.turn_player(r, self.turn + 1);
        self.turn += 1;
        // Players out of the game are passed over (while one is still in).
        let mut skipped = false;
        if self.out != 0 && (self.out.count_ones() as usize) < r.players {
            let mut guard = 0;
            while self.out & (1 << next.0) != 0 && guard < 256 {
                // A turn order without entries reads the player before from `side`.
                self.side = next;
                next = self.turn_player(r, self.turn + 1);
                self.turn += 1;
                skipped = true;
                guard += 1;
            }
            self.side = before;
        }
        if let Some(pr) = r.program.as_deref() {
            if r.variant.turn_order.is_some() {
                self.hash ^= pr.z_turn[crate::rules::players::turn_slot(r, start_turn)];
                self.hash ^= pr.z_turn[crate::rules::players::turn_slot(r, self.turn)];
            }
        }
        self.hash ^= r.keys.side[before.0 as usize] ^ r.keys.side[next.0 as usize];
        self.side = next;
        // A new round begins when the first player's turn comes back (or, past players out of
        // the game, when the order wraps round).
        let round = if skipped { next.0 <= before.0 } else { next.0 == 0 && (before.0 != 0 || r.players == 1) };
        if round {
            self.clocks.fullmove = (self.clocks.fullmove + 1).min(MAX_CLOCK);
        }
    }

    /// Takes back the last move.
    pub(crate) fn unmake(&mut self, r: &Rules) {
        // Read where it lies, a field at a time, rather than copied out whole.
        let Some(&Undo { mv, moved, captured, captured_at, general, log, .. }) = self.history.last() else { return };
        self.hashes.pop();
        if general {
            self.unlog(r, log as usize);
            if r.squares.play {
                if let Some(su) = self.squares.square_history.pop() {
                    self.squares.frozen = su.frozen;
                    self.squares.touched = su.touched;
                }
            }
        } else if mv.kind == MoveKind::Drop {
            self.unmake_plain_drop(r, mv);
        } else if mv.kind == MoveKind::Castle {
            let c = &r.castles.list[mv.extra as usize];
            let king = self.lift(r, c.king_to);
            let partner = self.lift(r, c.partner_to);
            self.drop_on(r, c.king_from, king);
            self.drop_on(r, c.partner_from, partner);
        } else {
            if r.between.on {
                self.uncarry::<true>(r, mv, moved, (captured, captured_at));
            } else {
                self.uncarry::<false>(r, mv, moved, (captured, captured_at));
            }
            if r.captures_to_hand && !captured.is_empty() {
                let mover = self.history[self.history.len() - 1].side;
                self.unplain_to_hand(r, mover, captured);
            }
        }
        let last = self.history.len() - 1;
        let undo = &self.history[last];
        self.side = undo.side;
        self.clocks.fullmove = undo.fullmove;
        self.turn = undo.turn;
        self.slot = undo.slot;
        self.partial = undo.partial;
        self.parts = undo.parts;
        self.rights.castling = undo.castling;
        self.rights.ep = undo.ep;
        self.clocks.halfmove = undo.halfmove;
        self.phases = undo.phases;
        self.piece_count = undo.piece_count;
        self.hash = undo.hash;
        self.out = undo.out;
        self.history.truncate(last);
    }

    /// Ends any en-passant chance, keeping the hash.
    #[inline]
    pub(crate) fn clear_en_passant(&mut self, r: &Rules) {
        if let Some(ep) = self.rights.ep.take() {
            for c in ep.passed() {
                self.hash ^= r.keys.ep[c.0 as usize];
            }
        }
    }

    /// Drops the castling rights of a move that starts or ends on a castling piece's start cell.
    #[inline]
    pub(crate) fn lose_castling(&mut self, r: &Rules, mv: Move) {
        self.drop_castling(r, r.castle_keep[mv.from.0 as usize] & r.castle_keep[mv.to.0 as usize]);
    }

    /// The rights kept when `piece` leaves `cell` or is taken there: a castling king on its
    /// castling cells ends the castlings whose start cells come from the position.
    #[inline]
    fn king_keep(&self, r: &Rules, piece: Piece, cell: CellId) -> u32 {
        if piece.is_empty() || piece == Piece::HOLE || !r.castles.has_free() {
            return u32::MAX;
        }
        !r.castles.king_loss(r.owner(piece), r.type_of(piece), cell)
    }

    /// Gives the rights a drop gains (`gained-by-drop`): its king or partner has landed on its
    /// start cell while the other stands on its own.
    pub(crate) fn gain_castling(&mut self, r: &Rules, mv: Move) {
        let player = r.owner(mv.piece);
        let cells = &self.cells;
        let at = |c: CellId| {
            let p = cells[c.0 as usize];
            (!p.is_empty() && p != Piece::HOLE).then(|| (r.owner(p), r.type_of(p)))
        };
        let gained = r.castles.gained_on(player, mv.to, at) & !self.rights.castling;
        if gained != 0 {
            self.flip_castling(r, gained);
        }
    }

    /// Keeps only the castling rights in `keep`.
    #[inline]
    pub(crate) fn drop_castling(&mut self, r: &Rules, keep: u32) {
        let lost = self.rights.castling & !keep;
        if lost != 0 {
            self.flip_castling(r, lost);
        }
    }

    /// Turns the castling rights of `bits` on where they are off and off where they are on,
    /// keeping the hash.
    #[inline]
    pub(crate) fn flip_castling(&mut self, r: &Rules, bits: u32) {
        for (i, key) in r.keys.castle.iter().enumerate() {
            if bits & (1 << i) != 0 {
                self.hash ^= key;
            }
        }
        self.rights.castling ^= bits;
    }

    /// Records the cells a passage move went over as capturable en passant. A passage that
    /// promotes marks nothing: the piece that passed is gone, another stands in its place (as
    /// in Fairy-Stockfish, where a double step into the promotion zone leaves no en passant).
    pub(crate) fn mark_passage(&mut self, r: &Rules, mv: Move) {
        if mv.promotion().is_some() {
            return;
        }
        let landed = mv.piece;
        let mut ep = EnPassant { cells: [mv.to; 4], len: 0, victim: mv.to, piece: landed };
        let dir = DirId(mv.extra as u8);
        let mut c = mv.from;
        while let Some(&n) = r.graph.step(c, dir).first() {
            if n == mv.to || ep.len as usize == ep.cells.len() {
                break;
            }
            ep.cells[ep.len as usize] = n;
            ep.len += 1;
            c = n;
        }
        if ep.len > 0 {
            for c in ep.passed() {
                self.hash ^= r.keys.ep[c.0 as usize];
            }
            self.rights.ep = Some(ep);
        }
    }

    /// Switches on every phase whose condition now holds (phases never switch off).
    pub(crate) fn update_phases(&mut self, r: &Rules) {
        for (i, phase) in r.variant.phases.iter().enumerate() {
            if self.phases & (1 << i) == 0 && self.condition_holds(r, &phase.when, None) {
                self.phases |= 1 << i;
                self.hash ^= r.keys.phase[i];
            }
        }
    }

    /// Evaluates a condition of the language for a move from and to the given cells.
    pub(crate) fn condition_holds(&self, r: &Rules, cond: &Condition, mv: Option<(CellId, CellId)>) -> bool {
        self.condition_holds_for(r, cond, mv, self.side)
    }

    /// [`State::condition_holds`] for a move of `mover`'s (zones and pieces as that player
    /// reads them: an attack by another player than the one to move is judged as its own).
    pub(crate) fn condition_holds_for(
        &self,
        r: &Rules,
        cond: &Condition,
        mv: Option<(CellId, CellId)>,
        mover: PlayerId,
    ) -> bool {
        match cond {
            Condition::FromZone(z) => mv.is_some_and(|(f, _)| r.in_zone(*z, mover, f)),
            Condition::ToZone(z) => mv.is_some_and(|(_, t)| r.in_zone(*z, mover, t)),
            Condition::InPhase(p) => self.phases & (1 << p.0) != 0,
            Condition::PieceCount(op, n) => op.holds(self.piece_count, *n),
            Condition::TurnNumber(op, n) => op.holds(self.clocks.fullmove, *n),
            Condition::TypeCount { enemy, types, compare, n } => {
                compare.holds(self.count_types(r, *enemy, types, mover), *n)
            }
            // The moving piece stands where a right its player holds covers.
            Condition::OnRight => mv.is_some_and(|(f, _)| r.gates.gating(mover, f) & self.rights.castling != 0),
            // Read by the generator (`power_condition_holds`), which knows attacks; the
            // language reads it nowhere else.
            Condition::InCheck => false,
            Condition::Not(inner) => !self.condition_holds_for(r, inner, mv, mover),
        }
    }

    /// The pieces on the board of the given types that belong to `mover`'s side (or, with
    /// `enemy`, to any other player).
    fn count_types(&self, r: &Rules, enemy: bool, types: &[crate::ir::PieceTypeId], mover: PlayerId) -> u32 {
        (0..r.players as u8)
            .map(PlayerId)
            .filter(|p| r.allied(*p, mover) != enemy)
            .map(|p| self.pieces_of(r, p, types))
            .sum()
    }

    /// A player's pieces on the board (stacks included) of the given types.
    pub(crate) fn pieces_of(&self, r: &Rules, player: PlayerId, types: &[crate::ir::PieceTypeId]) -> u32 {
        let mut n = 0;
        for c in self.occupied[player.0 as usize].iter() {
            n += self
                .pieces_at(r, c)
                .iter()
                .filter(|q| r.owner(**q) == player && types.contains(&r.type_of(**q)))
                .count() as u32;
        }
        n
    }

    /// The cells of a player's royal pieces.
    pub(crate) fn royal_cells<'a>(&'a self, player: PlayerId) -> impl Iterator<Item = CellId> + 'a {
        self.royals[player.0 as usize].iter()
    }

    /// The pieces the last move captured.
    pub(crate) fn last_captured(&self) -> Vec<Piece> {
        let Some(u) = self.history.last() else { return Vec::new() };
        if !u.general {
            return if u.captured.is_empty() { Vec::new() } else { vec![u.captured] };
        }
        self.log[u.log as usize..]
            .iter()
            .filter_map(|e| match *e {
                Logged::Took(_, p, _, true) => Some(p),
                _ => None,
            })
            .collect()
    }
}
