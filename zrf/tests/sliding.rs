//! Dagaz's `"sliding-puzzle"` option: the pieces sharing a `value` slide as one block, each
//! piece's step moving the whole block; the corpus puzzles are checked against
//! tools/oracle-sliding.py.
use std::sync::Arc;

use varia_interpreter::{Position, Rules};

/// A puzzle on a 4x3 grid (files a-d, ranks 3 to 1) whose pieces step n, s, e and w as the
/// corpus' common.zrf writes them (`(step d)` = `d add`), with a `value` each.
fn puzzle(pieces: &str, setup: &str) -> String {
    format!(
        r#"(define T (piece (name $1$2) (attribute value $2) (attribute key '$1')
    (moves (n add) (s add) (w add) (e add))))
(game (title "t") (option "sliding-puzzle" true) (players You) (turn-order You)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c/d" (10 0)) ("3/2/1" (0 10)))
    (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0))))
  {pieces}
  (board-setup (You {setup}))
  (win-condition (You) (absolute-config X1 (d3))))"#
    )
}

fn moves_of(text: &str) -> Vec<String> {
    let game = varia_zrf::load(text, None).unwrap_or_else(|e| panic!("{}\n{text}", e.render(text)));
    let mut pos = Position::start(Arc::new(Rules::new(game.variant)));
    let mut out = Vec::new();
    pos.legal_moves(&mut out);
    let mut listed: Vec<String> = out.iter().map(|m| pos.long_notation(*m)).collect();
    listed.sort();
    listed
}

fn error_of(text: &str) -> (String, String) {
    let e = varia_zrf::load(text, None).unwrap_err();
    (e.message.clone(), text[e.span.clone()].to_string())
}

#[test]
fn a_block_moves_whole_from_any_of_its_pieces() {
    // X1 on a1 and a2 is one block (value 1); Y2 on b1 alone. The block steps north (both
    // its pieces move, the front one first) and east only where both land on empty cells.
    let text = puzzle("(T X 1) (T Z 1) (T Y 2)", "(X1 a1) (Z1 a2) (Y2 b1)");
    assert_eq!(
        moves_of(&text),
        [
            // Written from either piece, the same move of the block.
            "Xa1-a2,a2-a3",
            "Yb1-b2",
            "Yb1-c1",
            "Za2-a3,a1-a2",
        ]
    );
}

#[test]
fn a_block_may_not_land_on_another_piece() {
    // East of the block a1-a2 stand b2 (empty) and b1 (Y2): the block cannot step east, and
    // Y2 cannot step west onto it.
    let text = puzzle("(T X 1) (T Z 1) (T Y 2) (T W 3)", "(X1 a1) (Z1 a2) (Y2 b1) (W3 c3)");
    let moves = moves_of(&text);
    assert!(!moves.iter().any(|m| m.contains("-b1") || m.contains("b1-a1")), "{moves:?}");
}

#[test]
fn a_piece_of_value_zero_moves_alone_onto_empty_cells() {
    let text = puzzle("(T X 0) (T Z 0) (T X 1)", "(X0 a1) (Z0 a2)");
    assert_eq!(moves_of(&text), ["Xa1-b1", "Za2-a3", "Za2-b2"]);
}

#[test]
fn a_type_placed_twice_in_its_block_moves_the_block_once_from_each() {
    // X1 on a1 and c1, Z1 on b1: one block of three across the bottom rank.
    let text = puzzle("(T X 1) (T Z 1)", "(X1 a1) (Z1 b1) (X1 c1)");
    // North and east, each written from the three pieces.
    assert_eq!(
        moves_of(&text),
        [
            "Xa1-a2,b1-b2,c1-c2",
            "Xa1-b1,b1-c1,c1-d1",
            "Xc1-c2,a1-a2,b1-b2",
            "Xc1-d1,a1-b1,b1-c1",
            "Zb1-b2,a1-a2,c1-c2",
            "Zb1-c1,a1-b1,c1-d1"
        ]
    );
}

#[test]
fn the_win_ends_the_puzzle() {
    let text = puzzle("(T X 1) (T Y 2)", "(X1 c3) (Y2 a1)");
    let game = varia_zrf::load(&text, None).unwrap();
    let mut pos = Position::start(Arc::new(Rules::new(game.variant)));
    let mv = pos.parse_move("Xc3-d3").expect("a legal move");
    pos.make(mv);
    let (result, reason) = pos.outcome().expect("the game is over after the win");
    assert_eq!(format!("{result:?} {reason:?}"), "Win(PlayerId(0)) Goal(0)");
    assert_eq!(varia_interpreter::perft(&mut pos, 1), 0);
}

#[test]
fn without_the_option_numbers_in_attributes_are_refused() {
    let text = puzzle("(T X 1)", "(X1 a1)").replace(r#"(option "sliding-puzzle" true) "#, "");
    let (message, at) = error_of(&text);
    assert!(
        message.starts_with("a Dagaz construct Zillions does not have: attribute 'value' with the value 1"),
        "{message}"
    );
    assert_eq!(at, "1");
}

#[test]
fn only_value_and_key_may_hold_other_than_true_or_false() {
    let text = puzzle("(T X 1) (piece (name W) (attribute weight 3) (moves (n add)))", "(X1 a1) (W b1)");
    let (message, at) = error_of(&text);
    assert!(message.contains("attribute 'weight' with the value 3"), "{message}");
    assert!(message.contains("only `value` and `key` are read"), "{message}");
    assert_eq!(at, "3");
}

#[test]
fn a_block_whose_pieces_are_apart_is_a_located_error() {
    let text = puzzle("(T X 1) (T Z 1)", "(X1 a1) (Z1 c3)");
    let (message, _) = error_of(&text);
    assert_eq!(
        message,
        "the pieces of block 1 are not joined by steps between their positions, in macro 'T' used at 6:3"
    );
}

#[test]
fn a_move_other_than_one_step_is_a_located_error() {
    let text = puzzle("(T X 1)", "(X1 a1)").replace("(moves (n add)", "(moves (n n add)");
    let (message, _) = error_of(&text);
    assert!(message.starts_with("piece X1: with \"sliding-puzzle\", every move must be one step"), "{message}");
}
