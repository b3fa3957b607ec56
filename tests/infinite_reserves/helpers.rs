//! Helpers of the tests of The Game of Infinite Reserves and Moving Occupied Squares
//! (tests/infinite_reserves.rs, tests/moving_occupied_squares.rs): positions, action lists and
//! the square layout of position strings.

#![allow(dead_code)]

// What both test files use, in one place; each uses only part of it.
#[allow(unused_imports)]
pub use crate::common::{game_moves, has, legal, play};
#[allow(unused_imports)]
pub use varia_interpreter::ir::{CellId, PlayerId};
#[allow(unused_imports)]
pub use varia_interpreter::{perft, perft_turns, EndReason, GameResult, Move, MoveKind, Position};

pub const WHITE: PlayerId = PlayerId(0);
pub const BLACK: PlayerId = PlayerId(1);

pub const INFINITE: &str = "infinite-reserves.var";
pub const OCCUPIED: &str = "moving-occupied-squares.var";

/// The start of both games: only the 32 squares under the armies, unlimited reserves, action 1
/// of White's first turn, nothing touched.
pub const START: &str = "rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 1 - - 1 -";

/// A position of the game (`INFINITE` or `OCCUPIED`) from a position string, or `start`.
pub fn at(game: &str, text: &str) -> Position {
    crate::common::position(&crate::common::rules(game), text)
}

/// The position after the actions, from a position string (or `start`).
pub fn after(game: &str, text: &str, actions: &str) -> Position {
    let mut pos = at(game, text);
    play(&mut pos, actions);
    pos
}

/// The position string and the sorted legal actions, as each file's `snap` records them, and
/// the actions; checks that the string reads back as the same position with the same actions.
pub fn move_list(pos: &mut Position) -> (String, Vec<String>) {
    let moves = legal(pos);
    let text = pos.to_position_string();
    let mut back = Position::from_position_string(pos.rules().clone(), &text).expect("reads back");
    assert_eq!(back.to_position_string(), text);
    assert_eq!(back.hash(), pos.hash(), "{text}");
    assert_eq!(legal(&mut back), moves, "{text}");
    (format!("{text}\n--\n{}", moves.join("\n")), moves)
}

/// The location named `name`.
pub fn cell(pos: &Position, name: &str) -> CellId {
    pos.rules().cell_by_name(name).unwrap_or_else(|| panic!("no location {name}"))
}

/// Whether the location has a square.
pub fn square(pos: &Position, name: &str) -> bool {
    pos.has_square(cell(pos, name))
}

/// The letter of the piece on the location, if any.
pub fn on(pos: &Position, name: &str) -> Option<char> {
    pos.piece_at(cell(pos, name)).map(|p| pos.rules().piece_letter(p))
}

/// Names of locations, in order.
pub fn names(pos: &Position, cells: &[CellId]) -> Vec<String> {
    cells.iter().map(|c| pos.rules().cell_name(*c).to_string()).collect()
}

/// The legal actions as moves.
pub fn actions(pos: &mut Position) -> Vec<Move> {
    let mut out = Vec::new();
    pos.legal_moves(&mut out);
    out
}

/// The kinds of the legal actions: piece moves, square moves (empty or carrying), placements.
pub fn kinds(pos: &mut Position) -> (usize, usize, usize, usize) {
    let (mut piece, mut moved, mut placed, mut end) = (0, 0, 0, 0);
    for mv in actions(pos) {
        match mv.kind {
            MoveKind::MoveSquare | MoveKind::CarrySquare => moved += 1,
            MoveKind::PlaceSquare => placed += 1,
            MoveKind::EndTurn => end += 1,
            _ => piece += 1,
        }
    }
    (piece, moved, placed, end)
}

/// The number of locations without a square.
pub fn holes(pos: &Position) -> usize {
    pos.rules().cell_count() - pos.square_count()
}

/// Board rows of a position string as one character per location (rank 8 first), for editing.
pub fn expand(text: &str) -> (Vec<char>, String) {
    let (board, rest) = text.split_once(' ').expect("fields");
    let mut cells = Vec::new();
    for ch in board.chars() {
        match ch {
            '/' => {}
            d if d.is_ascii_digit() => cells.extend(std::iter::repeat_n('1', d.to_digit(10).unwrap() as usize)),
            c => cells.push(c),
        }
    }
    assert_eq!(cells.len(), 64, "{text}");
    (cells, rest.to_string())
}

/// The inverse of [`expand`].
pub fn compress(cells: &[char], rest: &str) -> String {
    let mut rows = Vec::new();
    for row in cells.chunks(8) {
        let mut s = String::new();
        let mut run = 0;
        for &c in row {
            if c == '1' {
                run += 1;
                continue;
            }
            if run > 0 {
                s.push_str(&run.to_string());
                run = 0;
            }
            s.push(c);
        }
        if run > 0 {
            s.push_str(&run.to_string());
        }
        rows.push(s);
    }
    format!("{} {rest}", rows.join("/"))
}

/// The index of a location in [`expand`]'s order.
pub fn index(name: &str) -> usize {
    let b = name.as_bytes();
    (b'8' - b[1]) as usize * 8 + (b[0] - b'a') as usize
}
