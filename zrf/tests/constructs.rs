//! Zillions constructs of the Dagaz corpus, each on a small game: `opposite`, options, conditions.
use std::sync::Arc;

use varia_interpreter::{Position, Rules};

/// A game on a 3x3 grid with the compass `n s e w`; `pieces` and `extra` go into the game.
fn game(pieces: &str, setup: &str, extra: &str) -> String {
    format!(
        r#"(game (title "t") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c" (10 0)) ("3/2/1" (0 10)))
    (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0))))
  {pieces}
  (board-setup {setup})
  {extra})"#
    )
}

fn moves_of(text: &str) -> Vec<String> {
    let game = varia_zrf::load(text, None).unwrap_or_else(|e| panic!("{}\n{text}", e.render(text)));
    let mut pos = Position::start(Arc::new(Rules::new(game.variant)));
    let mut out = Vec::new();
    pos.legal_moves(&mut out);
    out.iter().map(|m| pos.long_notation(*m)).collect()
}

#[test]
fn opposite_steps_back_along_a_direction() {
    let text = game("(piece (name Man) (moves (n n (opposite n) add)))", "(White (Man a1)) (Black (Man c3))", "");
    // Two steps north and one back: one step north.
    assert_eq!(moves_of(&text), ["Ma1-a2"]);
}

#[test]
fn opposite_of_an_unknown_direction_is_a_located_error() {
    let text = game("(piece (name Man) (moves (n (opposite up) add)))", "(White (Man a1)) (Black (Man c3))", "");
    let e = varia_zrf::load(&text, None).unwrap_err();
    assert_eq!(e.message, "unknown direction 'up'");
    assert_eq!(&text[e.span.clone()], "up");
}
