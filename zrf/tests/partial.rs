//! Partial moves (`add-partial`): a piece that goes on moving in the same turn. Each test is
//! a regression of a defect found in play; the perft counts are counted by hand from the rules
//! written in the test.
use std::sync::Arc;

use varia_interpreter::{divide_threads, divide_turns, perft, perft_threads, perft_turns, Position, Rules};

/// A 9x1 strip a1..i1 (directions `e`, `w`, read alike by both players): a White man on c1,
/// Black men on b1, d1, f1. A man jumps an enemy next to it onto the empty cell beyond
/// (capturing it, and going on moving), and `plain` adds its other moves.
fn strip(plain: &str) -> String {
    format!(
        r#"(game (title "t") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c/d/e/f/g/h/i" (10 0)) ("1" (0 10)))
    (directions (e 1 0) (w -1 0))))
  (piece (name Man) (moves
    (w (verify enemy?) capture w (verify empty?) add-partial)
    (e (verify enemy?) capture e (verify empty?) add-partial)
    {plain}))
  (board-setup (White (Man c1)) (Black (Man b1 d1 f1))))"#
    )
}

/// The strip where a man also steps to an empty neighbour (a move that ends the turn).
fn strip_with_steps() -> String {
    strip("(e (verify empty?) add) (w (verify empty?) add)")
}

fn start(text: &str) -> Position {
    let game = varia_zrf::load(text, None).unwrap_or_else(|e| panic!("{}\n{text}", e.render(text)));
    Position::start(Arc::new(Rules::new(game.variant)))
}

fn play(pos: &mut Position, moves: &str) {
    for m in moves.split_whitespace() {
        let mv = pos.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e:?}"));
        pos.make(mv);
    }
}

fn legal(pos: &mut Position) -> Vec<String> {
    let mut out = Vec::new();
    pos.legal_moves(&mut out);
    out.iter().map(|m| pos.long_notation(*m)).collect()
}

#[test]
fn a_step_that_continues_a_partial_move_ends_the_turn() {
    let mut pos = start(&strip_with_steps());
    // c1xa1 takes b1; the man can jump no more, but may go on with a step east to b1.
    play(&mut pos, "Mc1xa1xb1");
    assert_eq!(pos.partial_move().map(|c| pos.rules().cell_name(c).to_string()).as_deref(), Some("a1"));
    assert_eq!(legal(&mut pos), ["Ma1-b1"]);
    // The step is the turn's last action: Black moves, no partial move left over.
    play(&mut pos, "Ma1-b1");
    assert_eq!(pos.partial_move(), None);
    assert_eq!(pos.side_to_move().0, 1);
    assert!(!pos.to_position_string().contains("partial="), "{}", pos.to_position_string());
    assert_eq!(legal(&mut pos), ["Md1-e1", "Md1-c1", "Mf1-g1", "Mf1-e1"]);
    assert!(pos.outcome().is_none());
}

#[test]
fn whole_turns_with_steps_after_jumps_counted_by_hand() {
    let mut pos = start(&strip_with_steps());
    // White's turns (a continuation is compulsory while there is one):
    //   c1xa1, a1-b1;  c1xe1, e1-d1;  c1xe1, e1xg1, g1-h1;  c1xe1, e1xg1, g1-f1.
    assert_eq!(perft_turns(&mut pos, 1), 4);
    // Black's answers (only steps: no Black man stands next to the White one with an empty
    // cell beyond): with d1 and f1 left, 2 + 2; with b1 and f1, 2 + 2; with b1 alone, 2 (twice).
    assert_eq!(perft_turns(&mut pos, 2), 4 + 4 + 2 + 2);
    // In single actions: c1xa1, c1xe1; then a1-b1 / e1xg1, e1-d1.
    assert_eq!(perft(&mut pos, 1), 2);
    assert_eq!(perft(&mut pos, 2), 3);
}

#[test]
fn threaded_perft_ends_a_turn_where_the_serial_one_does() {
    // Without steps: c1xa1 ends White's turn (nothing to jump), c1xe1 goes on with e1xg1.
    // After either turn Black has no jump and no other move: no whole turn at depth 2 (the
    // partial c1xe1 alone is not a turn).
    let text = strip("");
    let mut pos = start(&text);
    assert_eq!(perft_turns(&mut pos, 1), 2);
    assert_eq!(perft_turns(&mut pos, 2), 0);
    for (text, depth) in [(text, 2), (strip_with_steps(), 3)] {
        let mut pos = start(&text);
        for turns in [false, true] {
            let serial = if turns { perft_turns(&mut pos, depth) } else { perft(&mut pos, depth) };
            assert_eq!(perft_threads(&mut pos, depth, turns, 2), serial, "turns {turns}");
        }
        let split = |d: Vec<(varia_interpreter::Move, u64)>| d.into_iter().map(|(_, n)| n).collect::<Vec<_>>();
        assert_eq!(split(divide_threads(&mut pos, depth, true, 2)), split(divide_turns(&mut pos, depth)));
    }
}
