//! Varia's interpreter: the IR of a variant and a generic engine that plays any variant the IR describes.
//!
//! The flow is one way: the `varia-grammar` crate lowers `.var` text into an [`ir::Variant`];
//! [`Rules::new`] compiles it into flat tables; a [`Position`] holds the state and generates,
//! makes and unmakes moves.

mod atoms;
mod attack;
pub mod bitset;
mod board;
mod checks;
mod choices;
mod count;
mod counters;
mod eliminate;
pub mod end;
pub mod eval;
mod explosion;
pub mod fen;
mod gating;
mod goals;
pub mod graph;
pub mod ir;
mod legal;
pub mod limits;
mod make;
mod maskgen;
pub mod maximal;
pub mod movegen;
mod multipv;
pub mod notation;
mod order;
pub mod pass;
pub mod paths;
pub mod perft;
pub mod pgn;
mod phases;
pub mod position;
pub mod program;
mod reference;
mod royal;
mod royal_memo;
pub mod rules;
pub mod search;
pub mod shuffle;
pub mod squares;
mod stackcount;
mod symbols;
mod table;
mod tables;
mod threats;
mod to_hand;

pub use end::{EndReason, GameResult};
pub use eval::{Evaluator, Weights};
pub use fen::{PositionError, MAX_CLOCK};
pub use notation::MoveError;
pub use pass::NullUndo;
pub use perft::{divide, divide_threads, divide_turns, perft, perft_threads, perft_turns, LongTurn, MAX_TURN_ACTIONS};
pub use position::{EnPassant, Move, MoveKind, Position, SquareMarks};
pub use rules::programs::code::endless_loops;
pub use rules::{Piece, Rules};
pub use search::{Features, Limits, SearchInfo, Searcher, MATE};
