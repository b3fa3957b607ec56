//! Lowers `(players ...)` and `(turn-order ...)`: the players, who has turns (a player the
//! turn order leaves out is neutral) and each player's direction map.
use varia_interpreter::ir::{Player, PlayerId, TurnEntry, TurnOrder};

use super::{board, construct_name, Lowerer, NOBODY};
use crate::reader::{Sexp, ZrfError};

impl Lowerer<'_> {
    pub(crate) fn players_of(&mut self, form: &Sexp) -> Result<(), ZrfError> {
        for item in form.tail() {
            let Some(name) = item.as_atom() else {
                return Err(self.err("a player name must be a word", item, "in (players ...)"));
            };
            if self.players.get(name).is_some() {
                return Err(self.err(format!("player '{name}' is listed twice"), item, "in (players ...)"));
            }
            let mut names = std::mem::take(&mut self.players);
            let id = self.intern_byte(&mut names, name, "player", item);
            self.players = names;
            id?;
        }
        if self.players.len() == 0 {
            return Err(self.err("a game needs at least one player", form, "empty (players)"));
        }
        // Ruling: a game of one player (a puzzle, a solitaire) gets a second player who never
        // moves and owns nothing, so that the engine's results can say the player lost (a
        // loss is the other player's win); the turn order gives every turn to the one player.
        if self.players.len() == 1 {
            let nobody = if self.players.get(NOBODY).is_some() { "Nobody-else" } else { NOBODY };
            self.players.intern(nobody);
        }
        let most = varia_interpreter::limits::PLAYERS;
        if self.players.len() > most {
            return Err(self.err(
                format!("games of {} players are not supported", self.players.len()),
                form,
                format!("Varia plays games of at most {most} players"),
            ));
        }
        Ok(())
    }

    /// `(turn-order ...)`: `None` when it is exactly each player once in `players` order, else
    /// the opening (before `repeat`) and the cycle.
    pub(crate) fn turn_order(&mut self, form: &Sexp) -> Result<Option<TurnOrder>, ZrfError> {
        let label = "in (turn-order ...)";
        let mut opening = Vec::new();
        let mut cycle = Vec::new();
        let mut repeated = false;
        for item in form.tail() {
            if item.is_atom("repeat") {
                if repeated {
                    return Err(self.err("'repeat' is given twice", item, label));
                }
                repeated = true;
                opening = std::mem::take(&mut cycle);
                continue;
            }
            let entry = match item.as_list() {
                None => TurnEntry { player: self.player(item, label)?, move_type: None },
                Some([who, what, rest @ ..]) => {
                    let player = self.player(who, label)?;
                    if what.as_atom().and_then(|name| self.players.get(name)).is_some() {
                        // (P Q ...): P's turn played with Q's pieces; the IR has no such turn.
                        return Err(self.err(
                            "unsupported ZRF construct 'turn as another player'",
                            item,
                            format!("{} would move as {}", construct_name(who), construct_name(what)),
                        ));
                    }
                    if let Some(extra) = rest.first() {
                        return Err(self.err("unexpected extra item in a turn", extra, label));
                    }
                    TurnEntry { player, move_type: Some(self.move_type(what)?) }
                }
                Some([who]) => TurnEntry { player: self.player(who, label)?, move_type: None },
                Some([]) => {
                    return Err(self.err("an empty turn", item, format!("{label}: expected P or (P move-type)")))
                }
            };
            cycle.push(entry);
        }
        if cycle.is_empty() {
            let label = if repeated { "nothing after 'repeat'" } else { "no turns" };
            return Err(self.err("the turn order has no turns to repeat", form, label));
        }
        // A player who never moves is neutral: its pieces stand on the board, other players'
        // pieces to everyone (as Dagaz reads `enemy?`), and nobody moves them.
        let plain = opening.is_empty()
            && cycle.len() == self.players.len()
            && cycle.iter().enumerate().all(|(i, entry)| usize::from(entry.player.0) == i && entry.move_type.is_none());
        Ok(if plain { None } else { Some(TurnOrder { opening, cycle }) })
    }

    /// Each player's direction map: identity, except the pairs of its `symmetry` forms.
    pub(crate) fn player_maps(&self, symmetries: &[board::Symmetry]) -> Vec<Player> {
        let identity: Vec<_> = (0..self.dirs.len()).map(board::dir_id).collect();
        let mut players: Vec<Player> = self
            .players
            .list
            .iter()
            .map(|name| Player { name: name.clone(), direction_map: identity.clone() })
            .collect();
        for (player, pairs) in symmetries {
            if let Some(target) = players.get_mut(*player) {
                for &(from, to) in pairs {
                    if let Some(slot) = target.direction_map.get_mut(from) {
                        *slot = board::dir_id(to);
                    }
                }
            }
        }
        players
    }

    /// The turn order of the game: the file's, or for a game of one player every turn the
    /// player's (the added player never moves); and who has turns (`has_turns`).
    pub(crate) fn turns(&mut self, players_form: &Sexp, form: Option<&Sexp>) -> Result<Option<TurnOrder>, ZrfError> {
        let turn_order = match form {
            Some(form) => self.turn_order(form)?,
            None if players_form.tail().len() == 1 => {
                Some(TurnOrder { opening: Vec::new(), cycle: vec![TurnEntry { player: PlayerId(0), move_type: None }] })
            }
            None => None,
        };
        self.has_turns = (0..self.players.len())
            .map(|i| {
                turn_order.as_ref().is_none_or(|order| {
                    order.opening.iter().chain(&order.cycle).any(|entry| usize::from(entry.player.0) == i)
                })
            })
            .collect();
        Ok(turn_order)
    }
}
