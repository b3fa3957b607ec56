//! The moves: generation, legality, attacks and pins, counting, move programs run, the plain reference and perft.

pub(crate) mod attack;
pub(crate) mod checks;
pub(crate) mod count;
pub(crate) mod explosion;
pub(crate) mod legal;
pub(crate) mod maskgen;
pub mod movegen;
pub mod pass;
pub mod perft;
pub mod program;
pub(crate) mod reference;
pub(crate) mod royal;
pub mod squares;
pub(crate) mod stackcount;
pub(crate) mod threats;
pub(crate) mod walls;
