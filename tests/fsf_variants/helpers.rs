//! Helpers of the tests of the Fairy-Stockfish games (tests/fsf_variants.rs,
//! tests/fsf_variants_asian.rs): positions from their position strings and move lists.

#![allow(dead_code)]

// What both test files use, in one place; each uses only part of it.
#[allow(unused_imports)]
pub use varia_interpreter::ir::PlayerId;
#[allow(unused_imports)]
pub use varia_interpreter::{EndReason, GameResult, Position};

pub const WHITE: PlayerId = PlayerId(0);
pub const BLACK: PlayerId = PlayerId(1);

/// A position of the bundled game `file` from a position string.
pub fn at(file: &str, text: &str) -> Position {
    crate::common::position(&crate::common::rules(file), text)
}

/// A list of moves written apart by spaces.
pub fn list(moves: &str) -> Vec<String> {
    moves.split_whitespace().map(str::to_string).collect()
}
