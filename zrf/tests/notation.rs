//! How Zillions moves are written: every legal move has a text of its own, which reads back as
//! that move; a step that ends the turn and the same step that goes on are two texts, and a
//! cell taken twice by one move is taken (and written) once.
use std::sync::Arc;

use varia_interpreter::{Position, Rules};

/// A 3x3 board (files a-c, ranks 3 to 1); White's Man on a1, Black's on `black`.
fn game(moves: &str, black: &str) -> Position {
    let text = format!(
        r#"(game (title "t") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c" (10 0)) ("3/2/1" (0 10)))
    (directions (n 0 -1) (e 1 0))))
  (piece (name Man) (moves {moves}))
  (board-setup (White (Man a1)) (Black (Man {black}))))"#
    );
    let game = varia_zrf::load(&text, None).unwrap_or_else(|e| panic!("{}\n{text}", e.render(&text)));
    Position::start(Arc::new(Rules::new(game.variant)))
}

fn texts(pos: &mut Position) -> Vec<String> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut texts: Vec<String> = moves.iter().map(|m| pos.long_notation(*m)).collect();
    for (mv, text) in moves.iter().zip(&texts) {
        assert_eq!(pos.parse_move(text), Ok(*mv), "`{text}` reads back");
    }
    texts.sort();
    texts
}

#[test]
fn a_step_that_goes_on_is_written_apart_from_the_step_that_ends_the_turn() {
    // North as a whole move, north going on with moves of type `hop` (east steps), and the
    // east step itself (a move of type hop, legal at the start of a turn too).
    let mut pos = game(
        "(n (verify empty?) add) (n (verify empty?) (add-partial hop)) (move-type hop) (e (verify empty?) add)",
        "c3",
    );
    assert_eq!(texts(&mut pos), ["Ma1-a2", "Ma1-a2,then:hop", "Ma1-b1"]);
    let mv = pos.parse_move("Ma1-a2,then:hop").expect("legal");
    pos.make(mv);
    // The same piece goes on with an east step only.
    assert_eq!(texts(&mut pos), ["Ma2-b2"]);
    // A partial move without a type is written `,then`.
    let mut pos = game("(n (verify empty?) add) (n (verify empty?) add-partial)", "c3");
    assert_eq!(texts(&mut pos), ["Ma1-a2", "Ma1-a2,then"]);
}

#[test]
fn a_cell_taken_twice_by_one_move_is_taken_once() {
    // The second program captures a2 twice: the same move as the first, made and written once.
    let jump = "(n (verify enemy?) capture n (verify empty?) add)";
    let twice = "(n (verify enemy?) capture capture n (verify empty?) add)";
    assert_eq!(texts(&mut game(twice, "a2")), ["Ma1xa3xa2"]);
    assert_eq!(texts(&mut game(&format!("{jump} {twice}"), "a2")), ["Ma1xa3xa2"]);
}
