//! Varia's interpreter: the IR of a variant and a generic engine that plays any variant the IR describes.
//!
//! The flow is one way: the `varia-grammar` crate lowers `.var` text into an [`ir::Variant`];
//! [`Rules::new`] compiles it into flat tables; a [`Position`] holds the state and generates,
//! makes and unmakes moves.

#![warn(missing_docs)]

mod game;
mod model;
mod moves;
pub mod rules;
pub mod search;
mod state;

// The layers' modules by their own names: a layer imports only from the layers below it.
pub use game::{end, maximal, notation, pgn};
pub(crate) use model::{atoms, tables};
pub use model::{bitset, graph, ir, limits, shuffle};
pub(crate) use moves::legal;
pub use moves::{movegen, pass, perft, program, squares};
pub use rules::paths;
pub use search::eval;
pub(crate) use search::{order, table};
pub(crate) use state::{choices, counters, gating, move_types, position_error, program_fields, royal_memo, to_hand};
pub use state::{fen, position};

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
