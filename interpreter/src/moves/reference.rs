//! The plain reference of a legal move: every pseudo-legal action made in full and unmade, the mover's royal pieces judged safe when no reply of another player, made in full, takes one; every fast path is tested against it.
//!
//! It reads the rules only through the generator of pseudo-legal actions, the general make
//! and the rules of the turn (slots, priorities, maximal captures, passing, the end of the
//! game), and takes no shortcut: it is slow and meant for tests on small games (see
//! `tests/reference.rs`). Compiled with [`crate::Rules::reference`], the engine's own checks
//! (the end of the game, whether a turn may go on) are decided the same way.

use crate::ir::{ActionKind, CellId, PlayerId, NO_CHECK_DROPS, NO_CHECK_MOVES, NO_CHECK_PROMOTIONS};
use crate::position::{Logged, Move, MoveKind, Position, State};
use crate::rules::players::turn_entry;
use crate::rules::Rules;

impl State {
    /// How many royal pieces `player` has on the board.
    fn royal_pieces(&self, r: &Rules, player: PlayerId) -> usize {
        self.royals[player.0 as usize]
            .iter()
            .map(|c| {
                self.pieces_at(r, c)
                    .iter()
                    .filter(|q| r.owner(**q) == player && r.pieces.royal_code[q.0 as usize])
                    .count()
            })
            .sum()
    }

    /// Whether some move of a player not allied to `victim` would capture one of its royal
    /// pieces where it stands: every pseudo-legal move of each such player (as if its turn had
    /// come, no partial move under way) made in full, without its blast where captures
    /// explode, and unmade; its captures are the pieces its change log takes as captured (a
    /// piece that changes owner or type is not captured). A capture that, made with its blast,
    /// takes one of its mover's own royal pieces off the board does not count (it could not be
    /// played).
    pub(crate) fn royal_takeable(&mut self, r: &Rules, victim: PlayerId) -> bool {
        let royals = self.royal_pieces(r, victim);
        if royals == 0 {
            return false;
        }
        let rule = r.variant.royal_check;
        // Where one royal taken is not enough (`royal-check`), the cells of those a reply takes.
        let mut taken_cells: Vec<crate::ir::CellId> = Vec::new();
        let mut taken = false;
        self.each_reply(r, victim, |st, p, mv| {
            let log = st.log.len();
            st.make_general_with(r, mv, false, false);
            let cells = st.royals_taken(r, log, victim);
            taken = !cells.is_empty();
            st.unmake(r);
            if taken && r.explosions.is_some() {
                // Made in full, the capture may not take one of its mover's royal pieces
                // off the board, as its legality says (`royals_lost`): a royal capturer
                // goes with its blast whatever it promotes to.
                let log = st.log.len();
                st.make_general_with(r, mv, false, true);
                taken = !st.royals_lost(r, mv, log, p).0;
                st.unmake(r);
            }
            if taken && rule != crate::ir::RoyalCheck::Any {
                for c in cells {
                    if !taken_cells.contains(&c) {
                        taken_cells.push(c);
                    }
                }
                taken = false;
            }
            taken
        });
        if rule != crate::ir::RoyalCheck::Any {
            return rule.in_check(self.royals[victim.0 as usize].len(), taken_cells.len());
        }
        taken
    }
}

impl State {
    /// The cells of the pieces giving check to `victim`: those from which another player's
    /// pseudo-legal move, made in full, takes one of its royal pieces (a `held-by-check` piece
    /// may take only the one there is).
    pub(crate) fn checkers(&mut self, r: &Rules, victim: PlayerId) -> Vec<CellId> {
        self.checking(r, victim, |_, mv| mv.from)
    }

    /// What `key` reads of each move of the replies that takes one of `victim`'s royal
    /// pieces, each value once (a move whose value is already found is not tried).
    fn checking<K: PartialEq>(&mut self, r: &Rules, victim: PlayerId, key: impl Fn(&Rules, &Move) -> K) -> Vec<K> {
        let mut out = Vec::new();
        self.each_reply(r, victim, |st, _, mv| {
            let k = key(r, &mv);
            if !out.contains(&k) {
                let log = st.log.len();
                st.make_general_with(r, mv, false, false);
                if !st.royals_taken(r, log, victim).is_empty() {
                    out.push(k);
                }
                st.unmake(r);
            }
            false
        });
        out
    }

    /// Calls `f` with each pseudo-legal move (castlings left out: they take nothing) of each
    /// player who threatens `victim`, as if its turn had come with no partial move under way,
    /// until `f` says to stop; the turn is put back after each player.
    fn each_reply(&mut self, r: &Rules, victim: PlayerId, mut f: impl FnMut(&mut State, PlayerId, Move) -> bool) {
        let (side, partial, slot, judging) = (self.side, self.partial, self.slot, self.judging_replies);
        self.judging_replies = true;
        let mut replies = Vec::new();
        for p in (0..r.players as u8).map(PlayerId).filter(|p| r.threatens(*p, victim)) {
            self.side = p;
            self.partial = None;
            self.slot = 0;
            replies.clear();
            crate::movegen::with_every_choice(|| self.pseudo_moves(r, p, &mut replies));
            let stop = replies.iter().filter(|mv| mv.kind != MoveKind::Castle).any(|&mv| f(self, p, mv));
            (self.side, self.partial, self.slot) = (side, partial, slot);
            if stop {
                break;
            }
        }
        self.judging_replies = judging;
    }

    /// The types of the pieces giving check to `victim` (as [`State::checkers`] finds them),
    /// each once: a goal's `checked-by(...)`.
    pub(crate) fn checking_types(&mut self, r: &Rules, victim: PlayerId) -> Vec<crate::ir::PieceTypeId> {
        self.checking(r, victim, |r, mv| r.type_of(mv.piece))
    }

    /// The cells of `victim`'s royal pieces the change log takes as captured from `log` on.
    fn royals_taken(&self, r: &Rules, log: usize, victim: PlayerId) -> Vec<CellId> {
        self.log[log..]
            .iter()
            .filter_map(|e| match *e {
                Logged::Took(c, q, _, true) if r.owner(q) == victim && r.pieces.royal_code[q.0 as usize] => Some(c),
                _ => None,
            })
            .collect()
    }
}

impl Position {
    /// Of the legal moves from `start` on, drops those the `held-by-check` rule bars: while
    /// the mover is in check, a move of such a piece must take every piece giving check (so
    /// there must be one only, on a cell the move takes on).
    #[inline]
    pub(crate) fn keep_held_by_check(&mut self, out: &mut Vec<Move>, start: usize) {
        // Asked of every list: most games have no such piece, and the rules are not shared
        // out (an atomic count) for nothing.
        if self.rules.pieces.held_by_check {
            self.keep_held_by_check_now(out, start);
        }
    }

    /// [`Position::keep_held_by_check`] in a game with such pieces.
    fn keep_held_by_check_now(&mut self, out: &mut Vec<Move>, start: usize) {
        let rules = self.rules.clone();
        let held =
            |m: &Move| m.kind.is_piece_move() && rules.variant.pieces[rules.type_of(m.piece).0 as usize].held_by_check;
        let side = self.st.side;
        if !rules.pieces.held_by_check || !out[start..].iter().any(held) || !self.st.royal_attacked(&rules, side) {
            return;
        }
        let checkers = self.st.checkers(&rules, side);
        let mut kept = start;
        for i in start..out.len() {
            let mv = out[i];
            if !held(&mv) || self.takes_every(mv, &checkers) {
                out[kept] = mv;
                kept += 1;
            }
        }
        out.truncate(kept);
    }

    /// Whether the move, made in full, captures on every one of `cells` (none: it does not).
    fn takes_every(&mut self, mv: Move, cells: &[CellId]) -> bool {
        if cells.is_empty() {
            return false;
        }
        let rules = self.rules.clone();
        let log = self.st.log.len();
        self.st.make_general_with(&rules, Move { gate: 0, ..mv }, false, false);
        let taken: Vec<CellId> = self.st.log[log..]
            .iter()
            .filter_map(|e| match *e {
                Logged::Took(c, _, _, true) => Some(c),
                _ => None,
            })
            .collect();
        self.st.unmake(&rules);
        cells.iter().all(|c| taken.contains(c))
    }

    /// The legal moves by the plain definition: the same moves as [`Position::legal_moves`]
    /// (perhaps in another order), found without any fast path.
    pub fn reference_moves(&mut self, out: &mut Vec<Move>) {
        out.clear();
        if self.decided_before_moves().is_some() {
            return;
        }
        self.reference_generate(out);
        if !out.is_empty() && self.drawn_by_rule().is_some() {
            out.clear();
        }
    }

    /// [`Position::reference_moves`] whatever the end rules say.
    fn reference_generate(&mut self, out: &mut Vec<Move>) {
        self.reference_unfiltered(out);
        if self.rules.variant.play.maximal_captures {
            self.keep_maximal_captures(out);
        }
        if self.rules.variant.must_capture {
            self.keep_captures(out);
        }
    }

    /// Perft by the plain definition: the leaves of the tree of [`Position::reference_moves`].
    pub fn reference_perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut moves = Vec::new();
        self.reference_moves(&mut moves);
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut n = 0;
        for mv in moves {
            self.make(mv);
            n += self.reference_perft(depth - 1);
            self.unmake();
        }
        n
    }

    /// [`Position::reference_perft`] split by root move, in the reference's order.
    pub fn reference_divide(&mut self, depth: u32) -> Vec<(Move, u64)> {
        let mut moves = Vec::new();
        self.reference_moves(&mut moves);
        moves
            .into_iter()
            .map(|mv| {
                self.make(mv);
                let n = if depth <= 1 { 1 } else { self.reference_perft(depth - 1) };
                self.unmake();
                (mv, n)
            })
            .collect()
    }

    /// The legal moves before the rule of maximal captures.
    fn reference_unfiltered(&mut self, out: &mut Vec<Move>) {
        if self.st.choosing(&self.rules) {
            self.st.choice_moves(&self.rules, out);
            out.retain(|mv| self.reference_legal(*mv));
            return;
        }
        if let Some((cell, _)) = self.st.partial {
            self.reference_piece_moves(out);
            if self.rules.variant.play.pass_partial {
                let mut end = Move::end_turn();
                end.from = cell;
                end.to = cell;
                end.piece = self.st.cells[cell.0 as usize];
                out.push(end);
            }
        } else if self.rules.squares.play {
            let end = self.walk_slots(|pos, kind| {
                let start = out.len();
                match kind {
                    ActionKind::MovePiece => pos.reference_piece_moves(out),
                    _ => {
                        pos.pseudo_square_kind(kind, out);
                        let mut kept = start;
                        for i in start..out.len() {
                            if pos.reference_legal(out[i]) {
                                out[kept] = out[i];
                                kept += 1;
                            }
                        }
                        out.truncate(kept);
                    }
                }
                (out.len() - start) as u64
            });
            if end {
                out.push(Move::end_turn());
            }
            self.keep_best_priority(out, 0);
        } else {
            self.reference_piece_moves(out);
        }
        let pass = match self.rules.variant.play.pass_turn {
            crate::ir::PassTurn::Never => false,
            crate::ir::PassTurn::Always => true,
            crate::ir::PassTurn::IfNoMove => out.is_empty(),
        };
        if pass && self.st.partial.is_none() && self.st.slot == 0 && self.reference_pass_legal() {
            out.push(Move::end_turn());
        }
        self.add_resignation(out);
    }

    /// The legal moves of pieces: the pseudo-legal ones of the turn's move type that are
    /// legal, of the best priority that has one.
    fn reference_piece_moves(&mut self, out: &mut Vec<Move>) {
        let start = out.len();
        let side = self.st.side;
        self.st.pseudo_moves(&self.rules, side, out);
        // Each piece move with each of its walls: the walls are part of the move.
        if self.rules.variant.walls.is_some() {
            self.add_walls(out, start);
        }
        let entry = if self.st.partial.is_none() {
            turn_entry(&self.rules, self.st.turn).and_then(|e| e.move_type).map(|t| t.0)
        } else {
            None
        };
        let mut kept = start;
        for i in start..out.len() {
            let mv = out[i];
            if entry.is_none_or(|t| t == mv.move_type) && self.reference_legal(mv) {
                out[kept] = mv;
                kept += 1;
            }
        }
        out.truncate(kept);
        self.keep_held_by_check(out, start);
        self.keep_best_priority(out, start);
    }

    /// Whether a pseudo-legal action is legal: made in full, it leaves no royal piece of the
    /// mover takeable (inside a partial move the turn's end judges) and no `forbid` test true;
    /// where captures explode it destroys none of the mover's royal pieces, and one that
    /// destroys another player's is legal whatever it leaves; a drop of a `no-drop-checkmate`
    /// piece does not checkmate, and an action a `no-check` rule names gives no check. A gated
    /// move is judged without its gate.
    fn reference_legal(&mut self, mv: Move) -> bool {
        let judged = Move { gate: 0, ..mv };
        let side = self.st.side;
        let log = self.st.log.len();
        self.make_with(judged, false);
        let lost = if self.rules.explosions.is_some() {
            self.st.royals_lost(&self.rules, judged, log, side)
        } else {
            (false, false)
        };
        let rules = self.rules.clone();
        let mut ok = match lost {
            (true, _) => false,
            (false, true) => true,
            (false, false) => {
                (self.st.partial.is_some() && self.st.side == side)
                    || (!self.st.royal_takeable(&rules, side) && self.st.kept_apart(&rules))
            }
        };
        ok = ok && (rules.variant.forbids.is_empty() || !self.forbidden(side));
        let checks = ok && self.reference_check_barred(judged) && self.others_takeable(side);
        let mates = ok
            && judged.kind == MoveKind::Drop
            && rules.pieces.no_drop_checkmate[rules.type_of(judged.piece).0 as usize]
            && (self.mate_tests_deferred || self.reference_mated());
        self.unmake_with(false);
        ok && !checks && !mates
    }

    /// Whether a `no-check` rule of the moving piece's type names this action.
    fn reference_check_barred(&self, mv: Move) -> bool {
        let r = &*self.rules;
        if r.pieces.no_check.is_empty() {
            return false;
        }
        let kinds = r.pieces.no_check[r.type_of(mv.piece).0 as usize];
        match mv.kind {
            MoveKind::Drop => kinds & NO_CHECK_DROPS != 0,
            k if k.is_piece_move() => {
                kinds & NO_CHECK_MOVES != 0 || (kinds & NO_CHECK_PROMOTIONS != 0 && mv.promotion().is_some())
            }
            _ => false,
        }
    }

    /// Whether a royal piece of a player not allied to `mover` is takeable now.
    fn others_takeable(&mut self, mover: PlayerId) -> bool {
        let rules = self.rules.clone();
        (0..rules.players as u8)
            .map(PlayerId)
            .filter(|p| !rules.allied(*p, mover))
            .any(|p| self.st.royal_takeable(&rules, p))
    }

    /// Whether the player to move has a royal piece takeable and no legal move.
    fn reference_mated(&mut self) -> bool {
        let rules = self.rules.clone();
        let side = self.st.side;
        if !self.st.royal_takeable(&rules, side) {
            return false;
        }
        // Mate is having no move in check, whatever ends the game besides (a goal the drop
        // reaches is no mate).
        let mut replies = Vec::new();
        self.replies_answer(&mut replies, |pos, out| pos.reference_generate(out));
        replies.is_empty()
    }

    /// Whether passing is legal: it leaves no royal piece of the mover takeable and no
    /// `forbid` test true, unless the game ends with it by a goal.
    fn reference_pass_legal(&mut self) -> bool {
        let side = self.st.side;
        self.make_with(Move::end_turn(), false);
        let rules = self.rules.clone();
        let ok = (!self.st.royal_takeable(&rules, side) && (rules.variant.forbids.is_empty() || !self.forbidden(side)))
            || self.decided_before_moves().is_some();
        self.unmake_with(false);
        ok
    }
}
