//! The players of a game: who has turns, who plays on whose side, and how a side is named.

use crate::ir::{PlayerId, Variant};

use super::Rules;

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
        self.sides.has_turns.get(player.0 as usize).copied().unwrap_or(false)
    }

    /// How many players have turns.
    #[inline]
    pub fn contenders(&self) -> usize {
        self.sides.contenders
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
        a == b || (self.sides.teamed && self.sides.team_of[a.0 as usize] == self.sides.team_of[b.0 as usize])
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

/// Who plays: teams and players with turns.
#[derive(Debug)]
pub(crate) struct Sides {
    /// Per player: its team (the first player of it; itself outside teams), and whether the
    /// game has teams at all.
    pub(crate) team_of: Vec<u8>,
    pub(crate) teamed: bool,
    /// Per player: it has turns (the turn order names it, or there is none). A player without
    /// turns is neutral: its pieces never move, so they threaten nobody's, and it neither wins
    /// nor goes out.
    pub(crate) has_turns: Vec<bool>,
    /// How many players have turns (read at every position: whether a loss puts a player out).
    pub(crate) contenders: usize,
}
