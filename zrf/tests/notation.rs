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

/// A 3x3 board with Men and Kings: `men` and `kings` are each side's counts (White's on rank 1
/// from a1, Black's on rank 3 from a3), `man` the Man's moves.
fn men_and_kings(man: &str, men: usize, kings: usize) -> varia_interpreter::ir::Variant {
    let cells = |rank: char, from: usize, n: usize| -> String {
        ["a", "b", "c"].iter().skip(from).take(n).map(|f| format!("{f}{rank}")).collect::<Vec<_>>().join(" ")
    };
    let text = format!(
        r#"(game (title "t") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c" (10 0)) ("3/2/1" (0 10)))
    (directions (n 0 -1) (e 1 0))))
  (piece (name Man) (moves {man}))
  (piece (name King) (moves (e (verify empty?) add)))
  (board-setup (White (Man {}) (King {})) (Black (Man {}) (King {}))))"#,
        cells('1', 0, men),
        cells('1', men, kings),
        cells('3', 0, men),
        cells('3', men, kings),
    );
    varia_zrf::load(&text, None).unwrap_or_else(|e| panic!("{}\n{text}", e.render(&text))).variant
}

fn letterless(v: &varia_interpreter::ir::Variant) -> Vec<&str> {
    v.pieces.iter().filter(|p| p.san_without_letter).map(|p| p.name.as_str()).collect()
}

#[test]
fn the_most_numerous_type_that_promotes_is_written_without_its_letter() {
    let plain = "(n (verify empty?) add)";
    // Every step of this man makes it a king: a promotion, as far as the rule can tell.
    let promotes = "(n (verify empty?) (add King))";
    // Two men and one king a side; the men promote: no letter for the Man, by count and
    // promotion, not by name.
    assert_eq!(letterless(&men_and_kings(promotes, 2, 1)), ["Man"]);
    let mut pos = Position::start(Arc::new(Rules::new(men_and_kings(promotes, 2, 1))));
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    let mv = pos.parse_move("a2=K").expect("the man's step, short and without a letter");
    assert_eq!(pos.short_notation(mv, &legal), "a2=K");
    assert_eq!(pos.long_notation(mv), "a1-a2=K");
    // A Man that never promotes keeps its letter; so do men as many as kings (a tie).
    assert!(letterless(&men_and_kings(plain, 2, 1)).is_empty());
    assert!(letterless(&men_and_kings(promotes, 1, 1)).is_empty());
    // The King, most numerous but without a promotion, keeps its letter too.
    assert!(letterless(&men_and_kings(promotes, 1, 2)).is_empty());
}

#[test]
fn coordinates_name_their_move_before_a_looser_short_form_of_another() {
    // Files P, Q, R (capitals, as ko-shogi names its cells) and ranks 15, 14: White's pawns on
    // P15 and R15 both step to Q15. `P15Q15` is the coordinates of the pawn from P15, and also
    // the short form of the pawn of rank 15 going to Q15 over-specified by its rank.
    let text = r#"(game (title "t") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("P/Q/R" (10 0)) ("15/14" (0 10)))
    (directions (e 1 0) (w -1 0))))
  (piece (name Pawn) (moves (e (verify empty?) add) (w (verify empty?) add)))
  (board-setup (White (Pawn P15 R15)) (Black (Pawn Q14))))"#;
    let game = varia_zrf::load(text, None).unwrap_or_else(|e| panic!("{}", e.render(text)));
    let mut pos = Position::start(Arc::new(Rules::new(game.variant)));
    let mv = pos.parse_move("P15Q15").expect("the coordinates of one move");
    assert_eq!(pos.long_notation(mv), "PP15-Q15");
    let other = pos.parse_move("R15Q15").expect("legal");
    assert_eq!(pos.long_notation(other), "PR15-Q15");
    // The short form names the pawn by its file, which tells the two apart.
    assert!(matches!(pos.parse_move("PQ15"), Err(varia_interpreter::MoveError::Ambiguous { .. })));
}
