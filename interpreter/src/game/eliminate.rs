//! Games of more than two players: a player who loses is out of the game, the others play on, teams play as one side, and the last side in wins.

use crate::end::{EndReason, GameResult};
use crate::ir::{Outcome, PassTurn, PlayerId};
use crate::position::{Move, MoveKind, Position};
use crate::rules::Rules;

/// Whether the players still in (those with turns not in the `out` bits) are all on one
/// side, or none is left.
fn one_side_in(r: &Rules, out: u32) -> bool {
    let mut inside = (0..r.players as u8).map(PlayerId).filter(|p| r.has_turns(*p) && out & (1 << p.0) == 0);
    inside.next().is_none_or(|first| inside.all(|p| r.allied(p, first)))
}

impl Position {
    /// Whether the player has lost and is out of the game (games of more than two players).
    pub fn is_out(&self, player: PlayerId) -> bool {
        self.st.out & (1 << player.0) != 0
    }

    /// Whether the player and all its partners are out of the game.
    pub fn side_out(&self, player: PlayerId) -> bool {
        let r = &self.rules;
        (0..r.players as u8).map(PlayerId).all(|p| !r.allied(p, player) || self.is_out(p))
    }

    /// The first player still in the game, when every player still in is on its side (all
    /// the others are out).
    pub(crate) fn last_standing(&self) -> Option<PlayerId> {
        let r = &self.rules;
        if !r.eliminating() || self.st.out == 0 {
            return None;
        }
        let mut inside = (0..r.players as u8).map(PlayerId).filter(|p| r.has_turns(*p) && !self.is_out(*p));
        let first = inside.next()?;
        inside.all(|p| r.allied(p, first)).then_some(first)
    }

    /// After a move: a player who had no move and resigned is out, then every player whose
    /// loss goal now holds, in the order the goals are tested (file order, then the players
    /// each names), until one side is left in: that side has won, and nobody else goes out
    /// (as with two players, where the first goal to hold decides; several players losing at
    /// once would otherwise leave nobody in and the turn with a player out). The turn passes
    /// over a player out of the game, also one put out in the middle of its own turn. Nobody
    /// goes out before the choices are all made (no end rule is judged before then): the goals
    /// are first judged after the last choice.
    pub(crate) fn eliminate_losers(&mut self) {
        let rules = self.rules.clone();
        let r = &*rules;
        if self.st.pending_choice(r).is_some() {
            return;
        }
        let mut out = self.st.out;
        if let Some(u) = self.st.history.last() {
            if u.mv.kind == MoveKind::EndTurn
                && u.partial.is_none()
                && u.slot == 0
                && r.variant.play.pass_turn == PassTurn::Never
            {
                out |= 1 << u.side.0;
            }
        }
        'goals: for goal in r.variant.end.goals.iter().filter(|g| g.outcome == Outcome::Loss) {
            for &p in &goal.players {
                if one_side_in(r, out) {
                    break 'goals;
                }
                if out & (1 << p.0) == 0 && self.goal_holds(&goal.test, p, false) {
                    out |= 1 << p.0;
                }
            }
        }
        let new = out & !self.st.out;
        if new == 0 {
            return;
        }
        for (p, key) in r.keys.out.iter().enumerate() {
            if new & (1 << p) != 0 {
                self.st.hash ^= key;
            }
        }
        self.st.out = out;
        if self.is_out(self.st.side) && (out.count_ones() as usize) < r.players {
            // A player put out in the middle of its turn (a turn of several actions) loses the
            // rest of it: the turn ends as if it had ended it, and the next player in moves.
            if self.st.slot == 0 {
                self.st.next_player(r);
            } else {
                self.st.end_turn(r);
            }
            if !r.variant.phases.is_empty() {
                self.st.update_phases(r);
            }
        }
    }

    /// Where the player to move has no legal move and having none loses (checkmate or
    /// stalemate lost, no pass allowed): the one move left, `end`, which puts it out.
    pub(crate) fn add_resignation(&self, out: &mut Vec<Move>) {
        let r = &self.rules;
        if !out.is_empty()
            || !r.eliminating()
            || r.variant.play.pass_turn != PassTurn::Never
            || self.st.partial.is_some()
            || self.st.slot != 0
            || self.last_standing().is_some()
        {
            return;
        }
        let end = &r.variant.end;
        let outcome = if self.in_check() {
            end.checkmate
        } else if end.stalemate_for.is_none() {
            end.stalemate
        } else {
            // The stalemate's result is another player's: the game ends on it.
            Outcome::Draw
        };
        if outcome == Outcome::Loss {
            out.push(Move::end_turn());
        }
    }

    /// The end decided by players being out: the last one in wins.
    pub(crate) fn elimination_outcome(&self) -> Option<(GameResult, EndReason)> {
        self.last_standing().map(|p| (GameResult::Win(p), EndReason::LastStanding))
    }

    /// The position string's `out=` field (` out=s,e`), empty while every player is in.
    pub(crate) fn out_field(&self) -> String {
        let r = &self.rules;
        if self.st.out == 0 {
            return String::new();
        }
        let names: Vec<String> = (0..r.players as u8)
            .map(PlayerId)
            .filter(|p| self.is_out(*p))
            .filter_map(|p| r.player_prefix(p).map(String::from))
            .collect();
        format!(" out={}", names.join(","))
    }

    /// Reads the value of an `out=` field: player prefixes separated by commas.
    pub(crate) fn read_out_field(&mut self, value: &str, at: usize) -> Result<(), crate::PositionError> {
        let rules = self.rules.clone();
        let mut offset = at;
        for part in value.split(',') {
            let player = part
                .chars()
                .next()
                .filter(|_| part.chars().count() == 1)
                .and_then(|c| (0..rules.players as u8).map(PlayerId).find(|p| rules.player_prefix(*p) == Some(c)));
            let Some(player) = player else {
                return Err(crate::PositionError {
                    offset,
                    len: part.len().max(1),
                    message: format!("expected a player's prefix in `out=`, found `{part}`"),
                });
            };
            if self.st.out & (1 << player.0) == 0 {
                self.st.out |= 1 << player.0;
                self.st.hash ^= rules.keys.out[player.0 as usize];
            }
            offset += part.len() + 1;
        }
        // Once one player is left the game is over, whoever the turn would have come to.
        if self.is_out(self.st.side) && self.last_standing().is_none() {
            return Err(crate::PositionError {
                offset: at,
                len: value.len(),
                message: "the player to move is out of the game".into(),
            });
        }
        Ok(())
    }
}
