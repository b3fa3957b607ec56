//! Games of more than two players: a player who loses is out of the game, the others play on, teams play as one side, and the last side in wins.

use crate::end::{EndReason, GameResult};
use crate::ir::{Outcome, PassTurn, PlayerId, Variant};
use crate::position::{Move, MoveKind, Position};
use crate::rules::Rules;

impl Rules {
    /// A loss puts a player out of the game instead of ending it: more than two players have
    /// turns (neutral players do not count).
    #[inline]
    pub fn eliminating(&self) -> bool {
        self.contenders() > 2
    }

    /// Whether the player has turns: a player the turn order never names is neutral (its
    /// pieces stand, nobody moves them unless pieces are shared, and it neither wins nor is
    /// out).
    #[inline]
    pub fn has_turns(&self, player: PlayerId) -> bool {
        self.has_turns.get(player.0 as usize).copied().unwrap_or(false)
    }

    /// How many players have turns.
    #[inline]
    pub fn contenders(&self) -> usize {
        self.contenders
    }

    /// Whether pieces of `by` may capture pieces of `side`'s (so that they attack, check and
    /// pin them): another side's pieces, moved by a player with turns; a neutral player's
    /// never move, unless every player moves every piece (`shared-pieces`).
    #[inline]
    pub fn threatens(&self, by: PlayerId, side: PlayerId) -> bool {
        !self.allied(by, side) && (self.has_turns(by) || self.variant.shared_pieces)
    }

    /// Whether two players play on one side: the same player, or partners in a team.
    #[inline]
    pub fn allied(&self, a: PlayerId, b: PlayerId) -> bool {
        a == b || (self.teamed && self.team_of[a.0 as usize] == self.team_of[b.0 as usize])
    }

    /// The players on `player`'s side, in turn order: its team, or itself alone.
    pub fn side_of(&self, player: PlayerId) -> Vec<PlayerId> {
        (0..self.players as u8).map(PlayerId).filter(|p| self.allied(*p, player)).collect()
    }

    /// The names of `player`'s side: `white`, or `south and north` for a team.
    pub fn side_name(&self, player: PlayerId) -> String {
        let names: Vec<&str> =
            self.side_of(player).iter().map(|p| self.variant.players[p.0 as usize].name.as_str()).collect();
        match names.as_slice() {
            [rest @ .., last] if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => names.concat(),
        }
    }

    /// How a result names its winners: `white wins`, or `south and north win` for a team.
    pub fn winners_phrase(&self, player: PlayerId) -> String {
        let verb = if self.side_of(player).len() > 1 { "win" } else { "wins" };
        format!("{} {verb}", self.side_name(player))
    }
}

/// Whether the players still in (those with turns not in the `out` bits) are all on one
/// side, or none is left.
fn one_side_in(r: &Rules, out: u32) -> bool {
    let mut inside = (0..r.players as u8).map(PlayerId).filter(|p| r.has_turns(*p) && out & (1 << p.0) == 0);
    inside.next().is_none_or(|first| inside.all(|p| r.allied(p, first)))
}

/// Per player: whether the turn order names it (every player when the variant has none).
pub(crate) fn has_turns(v: &Variant) -> Vec<bool> {
    let mut named = vec![v.turn_order.is_none(); v.players.len()];
    if let Some(order) = &v.turn_order {
        for entry in order.opening.iter().chain(&order.cycle) {
            if let Some(slot) = named.get_mut(entry.player.0 as usize) {
                *slot = true;
            }
        }
    }
    named
}

/// Per player: the first player of its team, or itself outside teams.
pub(crate) fn team_of(v: &Variant) -> Vec<u8> {
    (0..v.players.len() as u8)
        .map(|p| v.teams.iter().find(|t| t.contains(&PlayerId(p))).and_then(|t| t.iter().min()).map_or(p, |f| f.0))
        .collect()
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
                && r.variant.pass_turn == PassTurn::Never
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
        for (p, key) in r.z_out.iter().enumerate() {
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
            || r.variant.pass_turn != PassTurn::Never
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
                self.st.hash ^= rules.z_out[player.0 as usize];
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
