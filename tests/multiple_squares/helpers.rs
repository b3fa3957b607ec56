//! Helpers of the Occupying Multiple Squares tests (tests/multiple_squares.rs,
//! tests/multiple_squares_examples.rs): the rules, positions, move lists and locations.

#![allow(dead_code)]

// What both test files use, in one place; each uses only part of it.
#[allow(unused_imports)]
pub use crate::common::{from, game_moves, has, legal, play, targets};
#[allow(unused_imports)]
pub use std::collections::BTreeSet;
#[allow(unused_imports)]
pub use std::sync::Arc;
#[allow(unused_imports)]
pub use varia_interpreter::ir::{CellId, PlayerId};
#[allow(unused_imports)]
pub use varia_interpreter::{perft, EndReason, GameResult, MoveError, Position, Rules};

pub const WHITE: PlayerId = PlayerId(0);
pub const BLACK: PlayerId = PlayerId(1);

/// The Occupying Multiple Squares rules.
pub fn rules() -> Arc<Rules> {
    crate::common::rules("multiple-squares.var")
}

/// A position of Occupying Multiple Squares from a position string (or `start`).
pub fn at(text: &str) -> Position {
    crate::common::position(&rules(), text)
}

/// The position string and the sorted legal moves, as each file's `snap` records them, and
/// the moves. The position must be legal: the side that just moved is not in check.
pub fn move_list(pos: &mut Position) -> (String, Vec<String>) {
    crate::common::assert_not_left_in_check(pos);
    let moves = legal(pos);
    (format!("{}\n--\n{}", pos.to_position_string(), moves.join("\n")), moves)
}

/// The cell or location named `name`.
pub fn cell(name: &str) -> CellId {
    rules().cell_by_name(name).unwrap_or_else(|| panic!("no location {name}"))
}

/// The letter of the piece on a square or covering it, if any.
pub fn on(pos: &Position, name: &str) -> Option<char> {
    pos.piece_at(cell(name)).map(|p| pos.rules().piece_letter(p))
}

/// Where the piece on the square stands: the square itself or the location between squares.
pub fn standing(pos: &Position, name: &str) -> String {
    pos.rules().cell_name(pos.standing_at(cell(name))).to_string()
}

/// The squares a location covers, sorted by name.
pub fn covered(name: &str) -> Vec<String> {
    let rules = rules();
    let mut out: Vec<String> = rules.covers(cell(name)).iter().map(|c| rules.cell_name(*c).to_string()).collect();
    out.sort();
    out
}

/// The position after the moves, from a position string.
pub fn after(text: &str, moves: &str) -> Position {
    let mut pos = at(text);
    play(&mut pos, moves);
    pos
}

/// The short form Varia writes for the legal move written `long`.
pub fn short(pos: &mut Position, long: &str) -> String {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mv = *moves.iter().find(|m| pos.long_notation(**m) == long).unwrap_or_else(|| panic!("{long} is not legal"));
    pos.short_notation(mv, &moves)
}

/// Checks that every legal move's long and short forms read back as that move.
pub fn every_form_reads_back(pos: &mut Position) {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    for &mv in &moves {
        let long = pos.long_notation(mv);
        let short = pos.short_notation(mv, &moves);
        for text in [&long, &short] {
            assert_eq!(pos.parse_move(text), Ok(mv), "`{text}` ({long}) in {}", pos.to_position_string());
        }
    }
}
