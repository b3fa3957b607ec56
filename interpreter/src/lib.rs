//! Varia's interpreter: the IR of a variant and a generic engine that plays any variant the IR describes.
//!
//! The flow is one way: the `varia-grammar` crate lowers `.var` text into an [`ir::Variant`];
//! [`Rules::new`] compiles it into flat tables; a [`Position`] holds the state and generates,
//! makes and unmakes moves.

mod atoms;
mod attack;
pub mod bitset;
mod board;
pub mod end;
pub mod fen;
pub mod graph;
pub mod ir;
mod legal;
mod make;
pub mod mcts;
pub mod movegen;
pub mod notation;
pub mod perft;
pub mod position;
pub mod program;
pub mod rules;
pub mod search;
pub mod squares;
mod tables;

/// Limits of the engine on what a variant declares; the lowerings report each with a located
/// error naming the limit (docs/language.md lists them).
pub mod limits {
    /// Piece types (type ids are bytes, and 255 marks "no promotion").
    pub const PIECE_TYPES: usize = 255;
    /// Piece attributes (a piece's attributes are the bits of one 64-bit word).
    pub const ATTRIBUTES: usize = 64;
    /// Flags of a running program (the bits of one 64-bit word).
    pub const FLAGS: usize = 64;
    /// Move types (255 marks "no move type").
    pub const MOVE_TYPES: usize = 255;
    /// Move programs or drop programs of one piece type (a move names its program in 16 bits).
    pub const PROGRAMS_PER_PIECE: usize = 65_535;
    /// Phases and castlings (each a bit of a 32-bit set).
    pub const PHASES: usize = 32;
}

pub use end::{EndReason, GameResult};
pub use fen::PositionError;
pub use mcts::Mcts;
pub use notation::MoveError;
pub use perft::{divide, divide_turns, perft, perft_turns};
pub use position::{EnPassant, Move, MoveKind, Position, SquareMarks};
pub use program::code::endless_loops;
pub use rules::{Piece, Rules};
pub use search::{Evaluator, Limits, SearchInfo, Searcher, MATE};
