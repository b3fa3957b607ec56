//! Helpers of the Hans38 tests (tests/hans38.rs, tests/hans38_neutral_postal.rs): the games' files,
//! positions, move-list snapshots and the square rules read directly.

#![allow(dead_code)]

// What both test files use, in one place; each uses only part of it.
#[allow(unused_imports)]
pub use crate::common::{game_moves, has, legal, play, targets};
#[allow(unused_imports)]
pub use std::collections::BTreeSet;
pub use std::sync::Arc;
#[allow(unused_imports)]
pub use varia_interpreter::ir::{CellId, PlayerId};
#[allow(unused_imports)]
pub use varia_interpreter::{perft, perft_turns, EndReason, GameResult, MoveKind, Position, Rules};

pub const WHITE: PlayerId = PlayerId(0);
pub const BLACK: PlayerId = PlayerId(1);

pub const HANS38: &str = "hans38.var";
pub const NEUTRAL: &str = "hans38-neutral.var";
pub const POSTAL: &str = "hans38-postal.var";
pub const PLUS: &str = "hans38-postal-plus.var";

/// The start of Hans38 (all four games share it; the Postal ones add the action fields).
pub const START: &str = "rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 1 3,3 -";

pub fn rules(file: &str) -> Arc<Rules> {
    crate::common::rules(file)
}

/// A position of the game in `file` from a position string (or `start`).
pub fn at(file: &str, text: &str) -> Position {
    crate::common::position(&rules(file), text)
}

/// The position after the moves, from a position string (or `start`).
pub fn after(file: &str, text: &str, moves: &str) -> Position {
    let mut pos = at(file, text);
    play(&mut pos, moves);
    pos
}

/// The game file, the position string and the sorted legal moves, as each file's `snap`
/// records them, and the moves. The side that just moved must not be in check.
pub fn move_list(file: &str, pos: &mut Position) -> (String, Vec<String>) {
    crate::common::assert_not_left_in_check(pos);
    let moves = legal(pos);
    (format!("{file}\n{}\n--\n{}", pos.to_position_string(), moves.join("\n")), moves)
}

pub fn cell(pos: &Position, name: &str) -> CellId {
    pos.rules().cell_by_name(name).unwrap_or_else(|| panic!("no location {name}"))
}

/// The letter of the piece on a location, if any.
pub fn on(pos: &Position, name: &str) -> Option<char> {
    pos.piece_at(cell(pos, name)).map(|p| pos.rules().piece_letter(p))
}

pub fn square(pos: &Position, name: &str) -> bool {
    pos.has_square(cell(pos, name))
}

pub fn owner(pos: &Position, name: &str) -> Option<PlayerId> {
    pos.square_owner(cell(pos, name))
}

/// The square moves (`@a1-b2`) of a move list.
pub fn square_moves(moves: &[String]) -> Vec<&str> {
    moves.iter().filter(|m| m.starts_with('@') && !m.starts_with("@@")).map(|m| m.as_str()).collect()
}

/// The placements (`@@a3`) of a move list.
pub fn placements(moves: &[String]) -> Vec<&str> {
    moves.iter().filter(|m| m.starts_with("@@")).map(|m| m.as_str()).collect()
}

/// The piece moves of a move list (neither square actions nor `end`).
pub fn piece_moves(moves: &[String]) -> Vec<&str> {
    moves.iter().filter(|m| !m.starts_with('@') && *m != "end").map(|m| m.as_str()).collect()
}

/// Every location without a square, by name.
pub fn holes(pos: &Position) -> BTreeSet<String> {
    let rules = pos.rules().clone();
    (0..rules.cell_count())
        .map(|i| CellId(i as u16))
        .filter(|c| !pos.has_square(*c))
        .map(|c| rules.cell_name(c).to_string())
        .collect()
}

/// File and rank (0-based) of a location on the 8x8 board.
pub fn xy(pos: &Position, c: CellId) -> (i32, i32) {
    let name = pos.rules().cell_name(c).as_bytes().to_vec();
    ((name[0] - b'a') as i32, (name[1] - b'1') as i32)
}

/// Checks every legal move of the position against the square rules of the text, read
/// directly: a square move takes an empty square (the mover's own where squares are owned, and
/// not one the opponent just moved) one or two locations in any direction to a location without
/// a square; a placement needs a square in reserve and a location without one; every piece move
/// ends on a square. Afterwards the board has a square under every piece, and taking the move
/// back restores the position.
pub fn check_square_rules(pos: &mut Position, owned: bool) {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let side = pos.side_to_move();
    let before = pos.to_position_string();
    let frozen: Vec<CellId> = pos.untouchable_squares().to_vec();
    for &mv in &moves {
        let text = pos.long_notation(mv);
        match mv.kind {
            MoveKind::MoveSquare => {
                assert!(
                    pos.has_square(mv.from) && pos.piece_at(mv.from).is_none(),
                    "{text}: not an empty square, in {before}"
                );
                assert!(!pos.has_square(mv.to), "{text}: onto a square, in {before}");
                assert!(!frozen.contains(&mv.from), "{text}: the square just moved, in {before}");
                if owned {
                    assert_eq!(pos.square_owner(mv.from), Some(side), "{text}: not the mover's square, in {before}");
                }
                let ((x0, y0), (x1, y1)) = (xy(pos, mv.from), xy(pos, mv.to));
                let d = (x1 - x0).abs().max((y1 - y0).abs());
                assert!((1..=2).contains(&d), "{text}: not a K, N, D or A leap, in {before}");
            }
            MoveKind::PlaceSquare => {
                assert!(!pos.has_square(mv.to), "{text}: onto a square, in {before}");
                assert!(pos.reserve(side).unwrap() > 0, "{text}: nothing in reserve, in {before}");
            }
            MoveKind::CarrySquare => panic!("{text}: Hans38 squares are never carried, in {before}"),
            MoveKind::EndTurn => {}
            _ => assert!(pos.has_square(mv.to), "{text}: a piece move onto a hole, in {before}"),
        }
        let count = pos.square_count();
        pos.make(mv);
        let rules = pos.rules().clone();
        for i in 0..rules.cell_count() {
            let c = CellId(i as u16);
            if let Some(p) = pos.piece_at(c) {
                assert!(pos.has_square(c), "{text}: a piece on a hole");
                if owned {
                    assert_eq!(pos.square_owner(c), Some(rules.owner(p)), "{text}: a piece on a square not its side's");
                }
            }
        }
        let placed = usize::from(mv.kind == MoveKind::PlaceSquare);
        assert_eq!(pos.square_count(), count + placed, "{text}: squares appeared or vanished");
        pos.unmake();
        assert_eq!(pos.to_position_string(), before, "{text}: unmake");
    }
}
