//! The state: a position, making and unmaking moves, the hash, position strings and what a position keeps of its pieces, hands, rights and counters.

pub(crate) mod board;
pub(crate) mod choices;
pub(crate) mod counters;
pub(crate) mod drop_make;
pub mod fen;
pub(crate) mod gating;
pub(crate) mod make;
pub(crate) mod move_types;
pub(crate) mod phases;
pub mod position;
pub(crate) mod position_error;
pub(crate) mod program_fields;
pub(crate) mod royal_memo;
pub(crate) mod start;
pub(crate) mod to_hand;
