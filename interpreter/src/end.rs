//! End conditions: checkmate, stalemate, bare king, the N-move rule and repetition, as the variant declares them.

use crate::ir::{Outcome, PlayerId};
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
    /// The same position occurred too often.
    Repetition,
}

impl EndReason {
    /// A lower-case name for messages.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::BareKing => "bare king",
            EndReason::MoveRule => "move rule",
            EndReason::Repetition => "repetition",
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
    /// Applies an outcome for `player` to give the game result (two-player reading: a loss
    /// is a win for the next player).
    fn result_for(&self, player: PlayerId, outcome: Outcome) -> GameResult {
        let other = PlayerId(((player.0 as usize + 1) % self.rules.player_count()) as u8);
        match outcome {
            Outcome::Win => GameResult::Win(player),
            Outcome::Loss => GameResult::Win(other),
            Outcome::Draw => GameResult::Draw,
        }
    }

    /// The game's result if it has ended in this position.
    pub fn outcome(&mut self) -> Option<(GameResult, EndReason)> {
        if let Some(r) = self.bare_king_outcome() {
            return Some(r);
        }
        let mut moves: Vec<Move> = Vec::new();
        self.legal_moves(&mut moves);
        self.outcome_after_bare_king(moves.is_empty())
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

    /// The game's result given whether the side to move has a legal move (for a search that
    /// has generated the moves already).
    pub fn outcome_given(&mut self, has_moves: bool) -> Option<(GameResult, EndReason)> {
        if let Some(r) = self.bare_king_outcome() {
            return Some(r);
        }
        self.outcome_after_bare_king(!has_moves)
    }

    fn outcome_after_bare_king(&self, no_moves: bool) -> Option<(GameResult, EndReason)> {
        let end = &self.rules.variant.end;
        let side = self.side_to_move();
        if no_moves {
            return Some(if self.in_check() {
                (self.result_for(side, end.checkmate), EndReason::Checkmate)
            } else {
                (self.result_for(side, end.stalemate), EndReason::Stalemate)
            });
        }
        // The move and repetition rules are judged between turns, never in the middle of one.
        if self.action_index() > 0 {
            return None;
        }
        if let Some(n) = end.move_rule {
            if self.halfmove_clock() >= 2 * n {
                return Some((GameResult::Draw, EndReason::MoveRule));
            }
        }
        if let Some(n) = end.repetition {
            if self.repetitions() + 1 >= n {
                return Some((GameResult::Draw, EndReason::Repetition));
            }
        }
        None
    }
}
