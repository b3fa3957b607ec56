//! The game: its end and goals, players out of the game, capture rules that weigh a turn, move notation and PGN.

pub(crate) mod eliminate;
pub mod end;
pub(crate) mod goals;
pub mod maximal;
pub mod notation;
pub mod pgn;
pub(crate) mod shuttle;
