//! End conditions: checkmate, stalemate, bare king, the N-move rule and repetition, as the variant declares them.

use crate::ir::{Outcome, PlayerId, ResultFor};
use crate::position::{Move, Position};

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The side to move has no legal move and a royal piece is attacked.
    Checkmate,
    /// The side to move has no legal move and no royal piece is attacked.
    Stalemate,
    /// A player has only royal pieces left.
    BareKing,
    /// Too many moves without a capture or clock-resetting move.
    MoveRule,
    /// A count begun by a counting rule ran out.
    Counting,
    /// The same position occurred too often.
    Repetition,
    /// The same position occurred too often, and one player gave check with every move since
    /// it first did.
    PerpetualCheck,
    /// One of the variant's goals (its index in the end rules' goals) holds.
    Goal(usize),
    /// Every other player is out of the game (games of more than two players).
    LastStanding,
}

impl EndReason {
    /// A lower-case name for messages.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::BareKing => "bare king",
            EndReason::MoveRule => "move rule",
            EndReason::Counting => "counting",
            EndReason::Repetition => "repetition",
            EndReason::PerpetualCheck => "perpetual check",
            EndReason::Goal(_) => "goal",
            EndReason::LastStanding => "the others are out",
        }
    }
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// The player won.
    Win(PlayerId),
    /// Nobody won.
    Draw,
}

impl Position {
    /// Applies an outcome for `player` to give the game result: a loss is the other player's
    /// win; with more than two players, the win of the player who moved last (who brought the
    /// loss about, as Polygamo credits it), or of the next player with turns when that is the
    /// loser (neutral players win nothing; in a game of one player, the loss is the added
    /// player's win).
    fn result_for(&self, player: PlayerId, outcome: Outcome) -> GameResult {
        let count = self.rules.player_count();
        let after = |k: usize| PlayerId(((player.0 as usize + k) % count) as u8);
        let next = (1..count).map(after).find(|p| self.rules.has_turns(*p)).unwrap_or(after(1));
        let other = match self.st.history.last().map(|u| u.side) {
            Some(mover) if self.rules.player_count() > 2 && mover != player => mover,
            _ => next,
        };
        match outcome {
            Outcome::Win => GameResult::Win(player),
            Outcome::Loss => GameResult::Win(other),
            Outcome::Draw => GameResult::Draw,
            Outcome::Points => self.points_result(),
        }
    }

    /// The game's result if it has ended in this position.
    pub fn outcome(&mut self) -> Option<(GameResult, EndReason)> {
        if let Some(r) = self.decided_before_moves() {
            return Some(r);
        }
        let mut moves: Vec<Move> = Vec::new();
        self.generate_legal(&mut moves);
        self.outcome_after_moves(moves.is_empty())
    }

    /// The game's result given whether [`Position::legal_moves`] found a move (for a search
    /// or a client that has generated them already).
    pub fn outcome_given(&mut self, has_moves: bool) -> Option<(GameResult, EndReason)> {
        if let Some(r) = self.decided_before_moves() {
            return Some(r);
        }
        if !has_moves && self.drawn_by_rule().is_some() {
            // The moves may have been withheld by the draw: a mate on the last move still wins.
            let mut moves: Vec<Move> = Vec::new();
            self.generate_legal(&mut moves);
            return self.outcome_after_moves(moves.is_empty());
        }
        self.outcome_after_moves(!has_moves)
    }

    /// An end decided by the position alone, before any move is generated: a bare king, or a
    /// goal that does not ask whether the player can move.
    pub(crate) fn decided_before_moves(&self) -> Option<(GameResult, EndReason)> {
        // The game begins once its choices are made.
        if self.st.pending_choice(&self.rules).is_some() {
            return None;
        }
        if let Some(r) = self.bare_king_outcome() {
            return Some(r);
        }
        if let Some(r) = self.elimination_outcome() {
            return Some(r);
        }
        let end = &self.rules.variant.end;
        let eliminating = self.rules.eliminating();
        for (i, goal) in end.goals.iter().enumerate() {
            // With more than two players a loss puts the player out (`eliminate.rs`).
            if eliminating && goal.outcome == Outcome::Loss {
                continue;
            }
            for &p in &goal.players {
                if self.is_out(p) {
                    continue;
                }
                if self.goal_holds(&goal.test, p, false) {
                    return Some((self.result_for(p, goal.outcome), EndReason::Goal(i)));
                }
            }
        }
        None
    }

    /// A draw by the move rule or repetition (judged between turns only).
    pub(crate) fn drawn_by_rule(&self) -> Option<(GameResult, EndReason)> {
        let end = &self.rules.variant.end;
        if self.action_index() > 0 || self.st.partial.is_some() || self.st.pending_choice(&self.rules).is_some() {
            return None;
        }
        if let Some(n) = end.move_rule {
            if self.halfmove_clock() >= 2 * n {
                let result = end.move_rule_player.map_or(GameResult::Draw, |(p, o)| self.result_for(p, o));
                return Some((result, EndReason::MoveRule));
            }
        }
        if self.counting_ran_out() {
            return Some((GameResult::Draw, EndReason::Counting));
        }
        if let Some(n) = end.repetition {
            // A third occurrence needs at least four turns per earlier one.
            if self.repetition_window() >= 4 * (n.max(1) as usize - 1) && self.repetitions() + 1 >= n {
                return Some(self.repetition_outcome());
            }
        }
        None
    }

    /// The result of a repetition: the perpetual checker's outcome, else the named player's,
    /// else a draw.
    pub(crate) fn repetition_outcome(&self) -> (GameResult, EndReason) {
        let end = &self.rules.variant.end;
        if let Some(outcome) = end.perpetual_check {
            if let Some(p) = self.perpetual_checker() {
                return (self.result_for(p, outcome), EndReason::PerpetualCheck);
            }
        }
        match end.repetition_player {
            Some((p, outcome)) => (self.result_for(p, outcome), EndReason::Repetition),
            None => (GameResult::Draw, EndReason::Repetition),
        }
    }

    /// The player each of whose moves since the current position first occurred (within the
    /// repetition window) left the opponent in check, if one did. Found by taking the moves
    /// back on a copy: a repetition ends a game once, so the cost is paid rarely.
    fn perpetual_checker(&self) -> Option<PlayerId> {
        let r = &*self.rules;
        let len = self.st.history.len().min(self.st.hashes.len());
        let window = self.repetition_window().min(len);
        let first = (len - window..len).find(|&k| self.st.hashes[k] == self.st.hash)?;
        let mut st = self.st.clone();
        let mut checking = vec![true; r.player_count()];
        let mut moved = vec![false; r.player_count()];
        for _ in first..len {
            let mover = st.history.last().expect("a move to take back").side;
            moved[mover.0 as usize] = true;
            if !st.royal_attacked(r, st.side) {
                checking[mover.0 as usize] = false;
            }
            st.unmake(r);
        }
        let mut checkers = (0..r.player_count()).filter(|p| moved[*p] && checking[*p]);
        match (checkers.next(), checkers.next()) {
            (Some(p), None) => Some(PlayerId(p as u8)),
            _ => None,
        }
    }

    /// The result of a stalemate of `side`: the stalemate's outcome for `side`, for a named
    /// player, or for the one player with the fewest pieces on the board (a tie is a draw).
    fn stalemate_result(&self, side: PlayerId) -> GameResult {
        let end = &self.rules.variant.end;
        match end.stalemate_for {
            None => self.result_for(side, end.stalemate),
            Some(ResultFor::Player(p)) => self.result_for(p, end.stalemate),
            Some(ResultFor::FewerPieces) => {
                let counts: Vec<(PlayerId, usize)> = (0..self.rules.player_count() as u8)
                    .map(PlayerId)
                    .filter(|p| self.rules.has_turns(*p) && !self.is_out(*p))
                    .map(|p| (p, self.pieces_on_board(p)))
                    .collect();
                let fewest = counts.iter().map(|c| c.1).min().unwrap_or(0);
                let mut least = counts.iter().filter(|c| c.1 == fewest);
                match (least.next(), least.next()) {
                    (Some(&(p, _)), None) => self.result_for(p, end.stalemate),
                    _ => GameResult::Draw,
                }
            }
        }
    }

    /// How many pieces of `player`'s stand on the board.
    fn pieces_on_board(&self, player: PlayerId) -> usize {
        self.occupied_by(player)
            .iter()
            .map(|c| self.pieces_at(c).iter().filter(|q| self.rules.owner(**q) == player).count())
            .sum()
    }

    /// Whether the bare-king rule ends the game here (when the variant has it).
    fn bare_king_outcome(&self) -> Option<(GameResult, EndReason)> {
        let bare = self.rules.variant.end.bare_king?;
        for p in 0..self.rules.player_count() as u8 {
            let player = PlayerId(p);
            let mut royals = 0;
            let mut others = 0;
            for c in self.occupied_by(player).iter() {
                for &q in self.pieces_at(c).iter().filter(|q| self.rules.owner(**q) == player) {
                    if self.rules.variant.pieces[self.rules.type_of(q).0 as usize].royal {
                        royals += 1;
                    } else {
                        others += 1;
                    }
                }
            }
            if royals > 0 && others == 0 {
                return Some((self.result_for(player, bare), EndReason::BareKing));
            }
        }
        None
    }

    /// After the position's own ends: goals that ask whether the player can move, then no
    /// legal move (checkmate or stalemate), then the move rule and repetition.
    fn outcome_after_moves(&self, no_moves: bool) -> Option<(GameResult, EndReason)> {
        let end = &self.rules.variant.end;
        if no_moves {
            for (i, goal) in end.goals.iter().enumerate() {
                for &p in &goal.players {
                    if self.goal_holds(&goal.test, p, true) {
                        return Some((self.result_for(p, goal.outcome), EndReason::Goal(i)));
                    }
                }
            }
            let side = self.side_to_move();
            return Some(if self.in_check() {
                (self.result_for(side, end.checkmate), EndReason::Checkmate)
            } else {
                (self.stalemate_result(side), EndReason::Stalemate)
            });
        }
        self.drawn_by_rule()
    }
}
