//! Legality: the legal moves of a position (none once the game is decided), filtered by the cheapest sound test, the turn order's move type and the priorities.
//!
//! Which shortcuts a variant may take is derived in one place (`paths.rs`); here they only read
//! [`crate::paths::Paths::allows`] and the position (a move under way, a check, the move's own
//! cells in [`State::plain_footprint`]).

use crate::ir::{CellId, PlayerId, NO_CHECK_DROPS, NO_CHECK_MOVES, NO_CHECK_PROMOTIONS};
use crate::paths::Path;
use crate::position::{Move, MoveKind, Position, State};
use crate::royal_memo::Pins;
use crate::rules::players::turn_entry;
use crate::rules::programs::PLAIN_DROP;
use crate::rules::{Piece, Rules};
use crate::tables::NO_MOVE_TYPE;

impl State {
    /// On a board of stacks, whether a move may be tried in the cell array alone
    /// (`Rules::stack_trials`): it neither starts nor ends on a cell that may hold a stack
    /// (whose pieces attacks read from the stacks), captures nothing (a capture may begin a
    /// phase that changes the cells' rules) and moves no royal (kept apart from others). The
    /// caller also asks that the pieces kept apart stand far enough apart already (the trial
    /// asks about attacks only), learnt once per position.
    #[inline]
    pub(crate) fn off_stacks(&self, r: &Rules, mv: Move) -> bool {
        r.paths.allows(Path::StackTrial)
            && mv.take.is_empty()
            && mv.kind != MoveKind::EnPassant
            && !r.pieces.royal_code[mv.piece.0 as usize]
            && !r.is_stack_cell(mv.from)
            && !r.is_stack_cell(mv.to)
    }

    /// Whether a program or drop of another player than `side` might capture on `cell` after
    /// some move: an enemy piece stands where a program of its type could reach the cell, or
    /// a drop could land there. The probes do not see such attacks.
    pub(crate) fn programs_may_take(&self, r: &Rules, cell: CellId, side: PlayerId) -> bool {
        let Some(pr) = r.program.as_deref() else { return false };
        (0..r.players as u8).map(PlayerId).filter(|p| r.threatens(*p, side)).any(|p| {
            pr.reaching(r.cells, p, cell).any(|&(start, t, _)| self.holds(r, start, r.piece(p, t)))
                || pr.drops_reaching(r.cells, p, cell).next().is_some()
        })
    }

    /// The cells read by the enemy programs that could capture on `royal` now or after a move
    /// of `side` that leaves and lands outside them (`ProgramPins`), one bit per cell: those
    /// whose piece stands on their start cell. A run reads only the cells it names and what
    /// stands there, so while those cells and the program's own start cell keep their pieces,
    /// it captures after the move where it captured before. `None` where that does not hold:
    /// a drop or a program that may capture anywhere could reach the royal, or a program that
    /// could reads the last move, attributes, conditions or attacks, or the cells read are not
    /// kept.
    pub(crate) fn program_watch(&self, r: &Rules, royal: CellId, side: PlayerId) -> Option<u128> {
        let pr = r.program.as_deref()?;
        let mut watch = 0u128;
        for p in (0..r.players as u8).map(PlayerId).filter(|p| r.threatens(*p, side)) {
            if pr.drops_reaching(r.cells, p, royal).next().is_some() || !pr.anywhere[p.0 as usize].is_empty() {
                return None;
            }
            for &(start, t, k) in pr.reaching(r.cells, p, royal) {
                if !self.holds(r, start, r.piece(p, t)) {
                    continue;
                }
                let code = &pr.codes[t.0 as usize][k as usize].1;
                if code.reads_history || code.reads_position || code.reads_attacks {
                    return None;
                }
                watch |= *code.reads.get(p.0 as usize * r.cells + start.0 as usize)?;
            }
        }
        Some(watch)
    }

    /// Whether a move changes only its two cells in ways attacks can see: it leaves `from`
    /// and lands on `to`, and nothing else about the board (occupancy rules, squares, a piece
    /// covering cells) changes with it.
    #[inline]
    fn plain_footprint(&self, r: &Rules, mv: Move, royal: CellId) -> bool {
        if mv.kind != MoveKind::Normal && mv.kind != MoveKind::Passage {
            return false;
        }
        // A blast clears the cells around the target.
        if blasts(r, mv) {
            return false;
        }
        // On a stacking board, a move onto the royal's cell changes its safety, and a move from
        // or to an inert cell can wake a piece or open a line through the cell.
        if r.stacks.on
            && (mv.to == royal
                || (r.stacks.inert_cells.contains(mv.from) && !self.leaves_unseen(r, mv.from))
                || (r.stacks.inert_cells.contains(mv.to) && !self.lands_unseen(r, mv)))
        {
            return false;
        }
        // Capturing a piece that stands between cells clears cells off the capturer's path.
        if r.between.on && mv.is_capture() && self.standing_at(mv.to) != mv.to {
            return false;
        }
        // A phase that this move may begin can change the occupancy rules of every cell.
        if r.stacks.phases & !self.phases != 0 && (!r.stacks.phases_on_capture || mv.is_capture()) {
            return false;
        }
        true
    }

    /// Whether a piece leaving `from`, a cell that may make a lone piece inert, opens no line
    /// there: the cell does not make lone pieces inert now, or the piece was alone (inert, so
    /// seen through already). Leaving a crowd there would leave one inert piece.
    fn leaves_unseen(&self, r: &Rules, from: CellId) -> bool {
        !r.occupancy(from, self.phases).lone_inert || self.count(r, from) == 1
    }

    /// Whether a move onto `mv.to`, a cell that may make a lone piece inert, neither wakes an
    /// enemy piece nor leaves one inert piece behind a capture: the cell does not make lone
    /// pieces inert now, or it is empty (the mover is seen through there), or it holds one
    /// piece of the mover's (woken, it can attack only the enemy), or a crowd from which a
    /// capture takes one piece.
    fn lands_unseen(&self, r: &Rules, mv: Move) -> bool {
        let rule = r.occupancy(mv.to, self.phases);
        if !rule.lone_inert {
            return true;
        }
        match self.count(r, mv.to) {
            0 => true,
            1 => r.allied(r.owner(self.cells[mv.to.0 as usize]), r.owner(mv.piece)),
            _ => rule.capture == crate::ir::CaptureRule::One,
        }
    }

    /// A plain move of an unpinned, non-royal piece cannot expose the royal (when not in check).
    #[inline]
    fn surely_legal(&self, r: &Rules, mv: Move, safe: &Option<(CellId, Pins)>) -> bool {
        let Some((royal, pins)) = safe else { return false };
        // A piece promoted to a royal type is a royal of its own to keep safe.
        self.plain_footprint(r, mv, *royal)
            && mv.from != *royal
            && !pins.holds(mv.from)
            && (pins.watch == 0 || (mv.take.is_empty() && !pins.watches(mv.from) && !pins.watches(mv.to)))
            && !r.pieces.royal_code[mv.landed(r, mv.piece).0 as usize]
    }

    /// Whether a move goes from a cell to a cell, neither between cells nor covered from there
    /// (the light legality test, which moves one cell's piece, is then sound).
    #[inline]
    fn square_to_square(&self, r: &Rules, mv: Move) -> bool {
        !r.has_between() || !r.is_between(mv.from) && !r.is_between(mv.to) && self.standing_at(mv.to) == mv.to
    }
}

/// Whether the move's capture sets off a blast (every capture does where captures explode).
#[inline(always)]
fn blasts(r: &Rules, mv: Move) -> bool {
    r.explosions.is_some() && mv.is_capture()
}

/// Whether the move takes one of the mover's own royal pieces (a program may take friends):
/// the trial in the cell array watches the royal's old cell, which then holds the capturer.
#[inline(always)]
fn takes_own_royal(r: &Rules, mv: Move, side: PlayerId) -> bool {
    mv.take != Piece::EMPTY && r.pieces.royal_code[mv.take.0 as usize] && r.owner(mv.take) == side
}

impl Position {
    /// Whether a pseudo-legal move is legal: made, the mover's royals tested, unmade. The
    /// royals must be safe after every action, except in the middle of a partial move (the
    /// turn's end judges).
    /// Where captures explode, a move may not destroy a royal piece of the mover, and one that
    /// destroys an opponent's is legal whatever it leaves attacked. A gated move is judged
    /// without its gate.
    pub fn is_legal(&mut self, mv: Move) -> bool {
        let mv = Move { gate: 0, ..mv };
        let side = self.st.side;
        let log = self.st.log.len();
        self.make_with(mv, false);
        let lost = if self.rules.explosions.is_some() {
            self.st.royals_lost(&self.rules, mv, log, side)
        } else {
            (false, false)
        };
        let ok = match lost {
            (true, _) => false,
            (false, true) => true,
            (false, false) => {
                (self.st.partial.is_some() && self.st.side == side)
                    || (!self.st.royal_attacked(&self.rules, side) && self.st.kept_apart(&self.rules))
            }
        };
        let ok = ok && (self.rules.variant.forbids.is_empty() || !self.forbidden(side));
        self.unmake_with(false);
        ok
    }

    /// Whether passing the turn is legal: as any action, it may not leave a royal of the
    /// mover attacked nor a `forbid` test true, unless the pass ends the game by a goal (the
    /// game is over before anything could be captured).
    fn pass_is_legal(&mut self) -> bool {
        if !self.rules.has_royal && self.rules.variant.forbids.is_empty() {
            return true;
        }
        let side = self.st.side;
        self.make_with(Move::end_turn(), false);
        let ok = (!self.st.royal_attacked(&self.rules, side)
            && (self.rules.variant.forbids.is_empty() || !self.forbidden(side)))
            || self.decided_before_moves().is_some();
        self.unmake_with(false);
        ok
    }

    /// Legality without a full make: the mover put on its target in the cell array only (the
    /// history shown the move), and the royals asked about.
    fn legal_light(&mut self, mv: Move) -> bool {
        let r = &*self.rules;
        let st = &mut self.st;
        let side = st.side;
        let from = mv.from.0 as usize;
        let to = mv.to.0 as usize;
        let moving = st.cells[from];
        let target = st.cells[to];
        let victim_at = if mv.kind == MoveKind::EnPassant { Some(mv.extra as usize) } else { None };
        let victim = victim_at.map(|v| st.cells[v]);
        st.cells[from] = Piece::EMPTY;
        st.cells[to] = mv.landed(r, moving);
        if let Some(v) = victim_at {
            st.cells[v] = Piece::EMPTY;
        }
        let history = r.program.as_deref().is_some_and(|p| p.attacks_read_history);
        if history {
            let record = st.undo_record(mv, moving);
            st.history.push(record);
        }
        // A promotion may crown the piece or take its crown: it is royal after the move if
        // it lands as a royal type, and the cell it left holds no royal of its any more.
        let left = r.pieces.royal_code[moving.0 as usize];
        // The threat tables tell attacks where they are built (on the first 128 cells), with
        // the trial's cells: the mover's left, its target's and the victim's taken.
        let trial = r.count.threats.built().then(|| {
            let bit = |c: usize| 1u128 << (c & 127);
            ((bit(from) | victim_at.map_or(0, bit)) & !bit(to), bit(to))
        });
        let read = |st: &State, c: CellId| {
            trial.and_then(|(emptied, own)| st.attacked_in_trial(r, c, side, emptied, (own, 0)))
        };
        let ok = (!r.pieces.royal_code[st.cells[to].0 as usize]
            || !read(st, mv.to).unwrap_or_else(|| st.attacked_by_any_enemy(r, mv.to, side)))
            && st.royals[side.0 as usize].iter().all(|c| {
                (left && c == mv.from)
                    || !(if r.is_between(c) { None } else { read(st, c) })
                        .unwrap_or_else(|| st.royal_cell_attacked(r, c, side))
            });
        if history {
            st.history.pop();
        }
        if let (Some(v), Some(p)) = (victim_at, victim) {
            st.cells[v] = p;
        }
        st.cells[to] = target;
        st.cells[from] = moving;
        ok
    }

    /// [`Position::legal_light`] for a castling: the king and its partner lifted, then set
    /// down on their targets in the cell array (as the make carries them), and the royals
    /// asked about.
    fn castle_light(&mut self, mv: Move) -> bool {
        let r = &*self.rules;
        let st = &mut self.st;
        let side = st.side;
        let c = &r.castles.list[mv.extra as usize];
        let cells = [c.king_from, c.partner_from, c.king_to, c.partner_to].map(|c| c.0 as usize);
        let saved = cells.map(|c| st.cells[c]);
        let (king, partner) = (saved[0], saved[1]);
        st.cells[cells[0]] = Piece::EMPTY;
        st.cells[cells[1]] = Piece::EMPTY;
        st.cells[cells[2]] = king;
        st.cells[cells[3]] = partner;
        let trial = r.count.threats.built().then(|| {
            let [kf, pf, kt, pt] = cells.map(|c| 1u128 << (c & 127));
            ((kf | pf) & !(kt | pt), kt | pt)
        });
        let st = &*st;
        let attacked = |c: CellId| {
            (if r.is_between(c) { None } else { trial })
                .and_then(|(emptied, own)| st.attacked_in_trial(r, c, side, emptied, (own, 0)))
                .unwrap_or_else(|| st.royal_cell_attacked(r, c, side))
        };
        let ok = (!r.pieces.royal_code[king.0 as usize] || !attacked(c.king_to))
            && (!r.pieces.royal_code[partner.0 as usize] || !attacked(c.partner_to))
            && st.royals[side.0 as usize].iter().all(|x| x == c.king_from || x == c.partner_from || !attacked(x));
        // Each cell as it stood (the saved pieces were all read before the trial).
        for (cell, piece) in cells.into_iter().zip(saved) {
            self.st.cells[cell] = piece;
        }
        ok
    }

    /// Whether a pseudo-legal move is legal, by the cheapest sound test; a drop of a
    /// `no-drop-checkmate` piece must not checkmate besides, and an action a `no-check` rule
    /// names must not give check.
    #[inline]
    pub(crate) fn legal_fast(&mut self, mv: Move, royal: &Option<(CellId, Pins)>) -> bool {
        if self.rules.paths.allows(Path::AllLegal) {
            return true;
        }
        // A gated move is legal as the same move without the gate is.
        let mv = Move { gate: 0, ..mv };
        // Both rules may hold for one drop: each is asked.
        let mates_barred =
            mv.kind == MoveKind::Drop && self.rules.pieces.no_drop_checkmate[self.rules.type_of(mv.piece).0 as usize];
        let checks_barred = !self.rules.pieces.no_check.is_empty() && self.no_check_applies(mv);
        self.legal_fast_by_rules(mv, royal)
            && !(mates_barred && (self.mate_tests_deferred || self.checkmates(mv)))
            && !(checks_barred && self.gives_check(mv))
    }

    /// Whether a `no-check` rule of the moving piece's type covers this action.
    fn no_check_applies(&self, mv: Move) -> bool {
        let kinds = self.rules.pieces.no_check[self.rules.type_of(mv.piece).0 as usize];
        if mv.kind == MoveKind::Drop {
            kinds & NO_CHECK_DROPS != 0
        } else if mv.kind.is_piece_move() {
            kinds & NO_CHECK_MOVES != 0 || (kinds & NO_CHECK_PROMOTIONS != 0 && mv.promotion().is_some())
        } else {
            false
        }
    }

    /// Whether a legal move leaves a royal piece of another player attacked.
    fn gives_check(&mut self, mv: Move) -> bool {
        let mover = self.st.side;
        self.make_with(mv, false);
        let players = self.rules.players;
        let check = (0..players)
            .map(|p| PlayerId(p as u8))
            .any(|p| !self.rules.allied(p, mover) && self.st.royal_attacked(&self.rules, p));
        self.unmake_with(false);
        check
    }

    /// Whether a legal move leaves the next player in check without a legal move, whatever
    /// ends the game besides (a goal the move reaches is no mate). (Their own drops that would
    /// checkmate in turn are judged the same way: each level needs a drop that gives check, so
    /// the recursion ends with the pieces in hand.)
    fn checkmates(&mut self, mv: Move) -> bool {
        self.make_with(mv, false);
        let mut replies = Vec::new();
        let mated = self.in_check() && {
            self.replies_answer(&mut replies, |pos, out| pos.generate_legal(out));
            replies.is_empty()
        };
        self.unmake_with(false);
        mated
    }

    /// Lists into `out` the legal replies by `generate`, or some of them: first without the
    /// drops that must not checkmate (taken as illegal), and only where no other reply is left
    /// with them asked whether they mate. A list that is not empty without them is not empty
    /// with them (the rules that keep some moves of a list, such as compulsory capture, never
    /// empty one), so the drops' own mate questions, each of which lists replies in turn, are
    /// asked only where nothing else answers the check: else they branch at every level.
    pub(crate) fn replies_answer(&mut self, out: &mut Vec<Move>, mut generate: impl FnMut(&mut Self, &mut Vec<Move>)) {
        let deferred = std::mem::replace(&mut self.mate_tests_deferred, true);
        generate(self, out);
        self.mate_tests_deferred = deferred;
        if out.is_empty() {
            generate(self, out);
        }
    }

    /// [`Position::legal_fast`] without the rule on checkmating drops.
    #[inline]
    fn legal_fast_by_rules(&mut self, mv: Move, royal: &Option<(CellId, Pins)>) -> bool {
        let r = &*self.rules;
        // A walled move, which no trial in part can judge, is made in full below; where no
        // royal piece, `forbid` test or pieces kept apart exist nothing can make it illegal.
        if mv.wall != 0 && !r.has_royal && r.variant.forbids.is_empty() && r.apart.is_empty() {
            return true;
        }
        match mv.kind {
            MoveKind::Normal | MoveKind::Passage | MoveKind::EnPassant => {
                if self.st.surely_legal(r, mv, royal) {
                    return true;
                }
                let light = r.paths.allows(Path::LightTrial)
                    && self.st.square_to_square(r, mv)
                    && !blasts(r, mv)
                    && !takes_own_royal(r, mv, self.st.side);
                // The square left behind may vanish and block a line the trial saw open: the
                // trial's "legal" stands, its "illegal" is asked again in full.
                let vacates = r.squares.vacates;
                if light || (self.st.off_stacks(r, mv) && self.kept_apart_learnt()) {
                    return self.legal_light(mv) || (vacates && self.is_legal(mv));
                }
            }
            // A castling tried in the cell array as a plain move is, where that is sound.
            MoveKind::Castle if r.paths.allows(Path::CastleTrial) && self.st.partial.is_none() => {
                return self.castle_light(mv);
            }
            // A drop on an empty cell can only block lines: safe when no royal is attacked.
            // A program's run may read the cell (see `ProgramPins`).
            MoveKind::Drop
                if mv.seq == PLAIN_DROP
                    && royal.is_some_and(|(_, pins)| !pins.watches(mv.to))
                    && r.paths.allows(Path::DropShortcut)
                    && mv.take.is_empty() =>
            {
                return true;
            }
            // Without a royal piece on the board, only a royal piece dropped may be attacked.
            MoveKind::Drop
                if mv.seq == PLAIN_DROP
                    && self.st.royals[self.st.side.0 as usize].is_empty()
                    && !r.pieces.royal_code[mv.piece.0 as usize]
                    && r.paths.allows(Path::DropShortcut)
                    && mv.take.is_empty() =>
            {
                return true;
            }
            _ => {}
        }
        self.is_legal(mv)
    }

    /// The single royal cell when the pin shortcut applies (not in check, attacks from the
    /// probes or the slow pieces' index, exactly one royal piece, the cells that programs or
    /// slow pieces able to reach it read known, the pieces kept apart
    /// far enough apart: a move that leaves two of them too near is illegal even if they
    /// stood so before it, as a move that leaves the royal attacked is).
    pub(crate) fn shortcut_royal(&self) -> Option<(CellId, Pins)> {
        let r = &*self.rules;
        if !r.paths.allows(Path::PinShortcut) {
            return None;
        }
        let side = self.st.side;
        let mut royals = self.st.royal_cells(side);
        let royal = royals.next()?;
        if r.is_between(royal) || royals.next().is_some() || self.st.attacked_by_any_enemy(r, royal, side) {
            return None;
        }
        if !r.apart.is_empty() && !self.st.kept_apart(r) {
            return None;
        }
        // Programs that could take the royal: the moves off the cells they read need no test.
        let watch = if self.st.programs_may_take(r, royal, side) {
            if !r.paths.allows(Path::ProgramPins) {
                return None;
            }
            self.st.program_watch(r, royal, side)?
        } else {
            0
        };
        let watch = watch | self.st.slow_watch(r, royal, side)?;
        Some((royal, Pins { watch, ..self.st.pinned(r, royal, side) }))
    }

    /// The legal moves of the side to move, in generation order: none once the game is
    /// decided (a goal, a bare king, the move rule, repetition); where squares are game
    /// objects or turns have several actions, the legal actions at this point of the turn.
    pub fn legal_moves(&mut self, out: &mut Vec<Move>) {
        out.clear();
        if self.decided_before_moves().is_some() {
            return;
        }
        self.generate_legal(out);
        if !out.is_empty() && self.drawn_by_rule().is_some() {
            out.clear();
        }
    }

    /// [`Position::legal_moves`] with every move walked and tested one by one, none made from
    /// the ray masks: the same moves, maybe in another order (a cross-check for tests).
    #[cfg(feature = "test-hooks")]
    pub fn legal_moves_by_walk(&mut self, out: &mut Vec<Move>) {
        self.walk_only = true;
        self.legal_moves(out);
        self.walk_only = false;
    }

    /// The legal moves whatever the end rules say.
    pub(crate) fn generate_legal(&mut self, out: &mut Vec<Move>) {
        self.generate_unfiltered(out);
        if self.rules.variant.play.maximal_captures {
            self.keep_maximal_captures(out);
        }
        if self.rules.variant.must_capture {
            self.keep_captures(out);
        }
    }

    /// The legal moves before the rule of maximal captures.
    pub(crate) fn generate_unfiltered(&mut self, out: &mut Vec<Move>) {
        out.clear();
        if self.st.choosing(&self.rules) {
            // Before the first move, a player with a choice to make makes it.
            self.st.choice_moves(&self.rules, out);
            out.retain(|mv| self.is_legal(*mv));
            return;
        }
        if self.st.partial.is_some() {
            self.legal_piece_moves_into(out);
            if let Some((cell, _)) = self.st.partial {
                if self.rules.variant.play.pass_partial {
                    out.push(Move {
                        from: cell,
                        to: cell,
                        kind: MoveKind::EndTurn,
                        promote: 0,
                        extra: 0,
                        piece: self.st.cells[cell.0 as usize],
                        take: Piece::EMPTY,
                        seq: 0,
                        move_type: NO_MOVE_TYPE,
                        gate: 0,
                        wall: 0,
                    });
                }
            }
        } else if self.rules.squares.play {
            self.legal_square_play(out);
            // Priorities rank square actions too (they have no move type).
            self.keep_best_priority(out, 0);
        } else {
            self.legal_piece_moves_into(out);
        }
        self.add_pass(out);
        self.add_resignation(out);
    }

    /// The pass (`end` at the start of a turn) where the rules allow one.
    fn add_pass(&mut self, out: &mut Vec<Move>) {
        let allowed = match self.rules.variant.play.pass_turn {
            crate::ir::PassTurn::Never => false,
            crate::ir::PassTurn::Always => true,
            crate::ir::PassTurn::IfNoMove => out.is_empty(),
        };
        if allowed && self.st.partial.is_none() && self.st.slot == 0 && self.pass_is_legal() {
            out.push(Move::end_turn());
        }
    }

    /// Appends the legal moves of pieces (by powers and programs, castlings, drops): of the
    /// turn order's move type, legal, and of the best priority that has one.
    pub(crate) fn legal_piece_moves_into(&mut self, out: &mut Vec<Move>) {
        self.collect_legal_piece_moves(out, false);
    }

    /// The legal captures and promotions of the side to move's pieces (what quiescence
    /// searches), in generation order. Where no rule weighs the whole move list (priorities,
    /// maximal captures, a choice, a partial move, square play), the other moves are dropped
    /// before their legality is tested; else the legal moves are generated and filtered.
    pub fn legal_captures(&mut self, out: &mut Vec<Move>) {
        let r = &*self.rules;
        let whole_list = !r.paths.allows(Path::NoisyFirst) || self.st.partial.is_some() || self.st.choosing(r);
        if whole_list {
            self.legal_moves(out);
            out.retain(is_noisy);
            return;
        }
        out.clear();
        if self.decided_before_moves().is_some() {
            return;
        }
        self.collect_legal_piece_moves(out, true);
        if !out.is_empty() && self.drawn_by_rule().is_some() {
            out.clear();
        }
    }

    /// The legal moves of pieces, or (`noisy`) their captures and promotions only, whose
    /// generation then skips the moves that can be neither.
    fn collect_legal_piece_moves(&mut self, out: &mut Vec<Move>, noisy: bool) {
        let first = out.len();
        if !self.walk_only && self.legal_moves_by_masks(out, noisy) {
            self.keep_held_by_check(out, first);
            return;
        }
        let start = out.len();
        // The pins learnt with the check where the count applies (stacks, locations between
        // cells), else found here (and here always for the cross-check of the walk).
        let learnt = if self.walk_only { None } else { self.counted_royal().map(|(c, pins, _)| (c, pins)) };
        // In a partial move the pins serve only moves by powers and drops (the continuations
        // are mostly program moves, made in full): found when such a move is first tested.
        let later = self.st.partial.is_some() && learnt.is_none();
        let royal = if later { None } else { learnt.or_else(|| self.shortcut_royal()) };
        let mut royal = RoyalPins { found: royal, later };
        // In check, the moves that neither capture the checker nor block it need no trial,
        // and a piece whose every move is such is not asked for them (the walk's cross-check
        // tries them all).
        let evasions = if royal.found.is_none() && !self.walk_only { self.evasions() } else { None };
        let generated = match &evasions {
            Some(ev) if !noisy => self.evasion_candidates(ev, out),
            _ => false,
        };
        // The rules read through the field (no reference count taken at every node).
        let side = self.st.side;
        let generated = generated || (noisy && self.st.pseudo_noisy_moves(&self.rules, side, out));
        if !generated {
            self.st.pseudo_moves(&self.rules, side, out);
        }
        if self.rules.variant.walls.is_some() {
            // A wall changes nothing of what a move takes or promotes to: quiescence's moves
            // are chosen before they are multiplied by their walls.
            if noisy {
                retain_from(out, start, |mv| is_noisy(&mv));
            }
            self.add_walls(out, start);
        }
        let entry_type = if self.st.partial.is_none() {
            turn_entry(&self.rules, self.st.turn).and_then(|e| e.move_type).map(|t| t.0)
        } else {
            None
        };
        let wanted = |mv: &Move| {
            entry_type.is_none_or(|t| t == mv.move_type)
                && (!noisy || is_noisy(mv))
                && !evasions.is_some_and(|e| e.ignores(mv))
        };
        if self.rules.program.as_deref().is_some_and(|pr| pr.prioritised) {
            retain_from(out, start, |mv| wanted(&mv));
            self.keep_legal_best_first(out, start, &mut royal);
        } else if royal.later {
            retain_from(out, start, |mv| wanted(&mv) && self.legal_with(mv, &mut royal));
            self.keep_held_by_check(out, start);
        } else {
            // The pins found already: each move tested as it stands (the common loop).
            let royal = royal.found;
            retain_from(out, start, |mv| wanted(&mv) && self.legal_fast(mv, &royal));
            self.keep_held_by_check(out, start);
        }
    }

    /// [`Position::legal_fast`] with the pins of `royal`, found first where they are wanted
    /// later and this move may use them (a move by powers, a drop).
    #[inline]
    fn legal_with(&mut self, mv: Move, royal: &mut RoyalPins) -> bool {
        if royal.later && matches!(mv.kind, MoveKind::Normal | MoveKind::Passage | MoveKind::EnPassant | MoveKind::Drop)
        {
            royal.found = self.shortcut_royal();
            royal.later = false;
        }
        self.legal_fast(mv, &royal.found)
    }

    /// Under move priorities, of the pseudo-legal moves from `start` on, keeps the legal ones
    /// (the `held-by-check` rule applied) of the best priority that has one. The moves of a
    /// rank are tested only where no better rank has a legal move: a listing of partial moves
    /// whose continuations rank last tests none of those.
    fn keep_legal_best_first(&mut self, out: &mut Vec<Move>, start: usize, royal: &mut RoyalPins) {
        if out[start..].iter().any(|m| m.kind == MoveKind::EndTurn) {
            retain_from(out, start, |mv| self.legal_with(mv, royal));
            self.keep_held_by_check(out, start);
            self.keep_best_priority(out, start);
            return;
        }
        let rank = |r: &Rules, m: &Move| r.program.as_deref().map_or(0, |pr| pr.rank_of(m.move_type));
        while let Some(best) = out[start..].iter().map(|m| rank(&self.rules, m)).min() {
            // The legal moves of the best rank left are put after the list, in order.
            let end = out.len();
            for i in start..end {
                let mv = out[i];
                if rank(&self.rules, &mv) == best && self.legal_with(mv, royal) {
                    out.push(mv);
                }
            }
            self.keep_held_by_check(out, end);
            if out.len() > end {
                out.drain(start..end);
                return;
            }
            let rules = &*self.rules;
            retain_from(out, start, |mv| rank(rules, &mv) != best);
        }
    }

    /// Of the moves from `start` on, keeps those of the best move priority that has one. Moves
    /// of no type (declarative powers, castling, square actions) rank with the types the
    /// priorities leave out, after every listed type; ending a turn is always allowed.
    pub(crate) fn keep_best_priority(&self, out: &mut Vec<Move>, start: usize) {
        let Some(pr) = self.rules.program.as_deref() else { return };
        if !pr.prioritised || out.len() <= start {
            return;
        }
        let unlisted = u8::MAX - 1;
        let rank = |m: &Move| match m.kind {
            MoveKind::EndTurn => 0,
            _ => pr.rank_of(m.move_type),
        };
        let best = out[start..].iter().filter(|m| m.kind != MoveKind::EndTurn).map(rank).min().unwrap_or(unlisted);
        let mut k = start;
        for i in start..out.len() {
            if out[i].kind == MoveKind::EndTurn || rank(&out[i]) == best {
                out[k] = out[i];
                k += 1;
            }
        }
        out.truncate(k);
    }

    /// Counts the legal moves, using `buf` as scratch space.
    pub fn count_legal(&mut self, buf: &mut Vec<Move>) -> u64 {
        let r = &*self.rules;
        if r.paths.allows(Path::BulkCount) && self.st.partial.is_none() && !self.st.choosing(r) {
            // As `legal_moves`: a decided game has no moves.
            if self.decided_before_moves().is_some() || self.drawn_by_rule().is_some() {
                return 0;
            }
            let n = if self.rules.squares.play { self.count_square_play(buf) } else { self.count_piece_moves(buf) };
            // With no move, a player out of a game of several may still have to resign.
            if n > 0 || !self.rules.eliminating() {
                return n;
            }
        }
        self.legal_moves(buf);
        buf.len() as u64
    }

    /// The number of legal moves of pieces (as [`Position::legal_piece_moves_into`] makes them
    /// without a turn order or priorities), counted along rays where that is sound, else by
    /// testing the pseudo-legal moves one by one without storing them.
    pub(crate) fn count_piece_moves(&mut self, buf: &mut Vec<Move>) -> u64 {
        if self.rules.paths.allows(Path::PseudoCount) {
            return self.st.pseudo_move_count(&self.rules, self.st.side, buf);
        }
        if let Some(n) = self.count_by_rays(buf) {
            return n;
        }
        let r = &*self.rules;
        buf.clear();
        self.st.pseudo_moves(r, self.st.side, buf);
        let royal = self.shortcut_royal();
        let mut n = 0;
        for &mv in buf.iter() {
            if self.legal_fast(mv, &royal) {
                n += 1;
            }
        }
        n
    }
}

/// The single royal and its pins for the pin shortcut ([`Position::shortcut_royal`]), or
/// (`later`) not yet found.
struct RoyalPins {
    found: Option<(CellId, Pins)>,
    later: bool,
}

/// Keeps the moves of `out[first..]` that `keep` accepts, in order (asked once each).
pub(crate) fn retain_from(out: &mut Vec<Move>, first: usize, mut keep: impl FnMut(Move) -> bool) {
    let mut kept = first;
    for i in first..out.len() {
        let mv = out[i];
        if keep(mv) {
            out[kept] = mv;
            kept += 1;
        }
    }
    out.truncate(kept);
}

/// A capture or a promotion by a piece: what quiescence searches.
pub(crate) fn is_noisy(m: &Move) -> bool {
    m.is_noisy()
}
