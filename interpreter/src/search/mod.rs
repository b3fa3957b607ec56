//! The search: the evaluation, move ordering, the transposition table and the alpha-beta search.

pub mod eval;
pub mod negamax;
pub(crate) mod order;
pub(crate) mod table;

pub use negamax::*;
