//! The players of a game: who has turns, who plays on whose side, and how a side is named.

use crate::ir::{PlayerId, TurnEntry};

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

/// The index of turn number `t` in the hash keys of turn slots.
pub(crate) fn turn_slot(r: &Rules, t: u32) -> usize {
    match &r.variant.turn_order {
        None => 0,
        Some(o) => {
            let t = t as usize;
            if t < o.opening.len() {
                t
            } else {
                o.opening.len() + (t - o.opening.len()) % o.cycle.len().max(1)
            }
        }
    }
}

/// The turn-order entry of turn number `t`, if the variant has a turn order.
pub(crate) fn turn_entry(r: &Rules, t: u32) -> Option<TurnEntry> {
    let o = r.variant.turn_order.as_ref()?;
    let t = t as usize;
    if t < o.opening.len() {
        return o.opening.get(t).copied();
    }
    if o.cycle.is_empty() {
        return None;
    }
    o.cycle.get((t - o.opening.len()) % o.cycle.len()).copied()
}
