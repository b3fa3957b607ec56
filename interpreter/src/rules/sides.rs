//! Who plays on whose side: the teams and the players with turns, as the compiled rules hold them.

use crate::ir::{PlayerId, Variant};

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
