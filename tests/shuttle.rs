//! The `shuttled N` goal test (a piece moved back and forth) and janggimodern, the game that uses it, against Fairy-Stockfish's results (pyffish 0.0.90: `is_optional_game_end` on the same moves; tools/fsf-results.py for the fixture).

mod common;

use std::sync::Arc;

use varia_interpreter::{EndReason, Position, Rules};

const START: &str = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";

fn example_text() -> String {
    std::fs::read_to_string(common::root().join("tests/fsf_rules/shuttle.var")).unwrap()
}

/// The result (`white`, `black`, `draw`) and reason after `moves` from `fen`, or `none`.
fn end_after(rules: &Arc<Rules>, fen: &str, moves: &str) -> (&'static str, Option<EndReason>) {
    let mut pos = common::position(rules, fen);
    common::play(&mut pos, moves);
    match pos.outcome() {
        Some((r, why)) => (common::result_name(r), Some(why)),
        None => ("none", None),
    }
}

/// pyffish's games of janggimodern: seven that begin with moves built to end (or not) by the
/// rule, two random games from the start; every move count and result agrees.
#[test]
fn janggimodern_agrees_with_pyffish() {
    let (games, positions) = common::replay_fsf_games(common::rules("janggimodern.var"), "janggimodern.txt");
    assert_eq!(games, 9);
    assert!(positions > 900, "{positions}");
}

/// A chariot brought to a2, then moved a2-a3 and back twice: White has lost (pyffish: 32000
/// for Black to move after the ninth move, no end after the eighth).
#[test]
fn a_piece_moved_back_and_forth_loses() {
    let r = common::rules("janggimodern.var");
    let moves = "a1a2 e7e6 a2a3 e6e5 a3a2 i7i6 a2a3 c7c6";
    assert_eq!(end_after(&r, START, moves), ("none", None));
    let (who, why) = end_after(&r, START, &format!("{moves} a3a2"));
    assert_eq!((who, why), ("black", Some(EndReason::Goal(1))));
    // Black moving back and forth loses the same way.
    let black = "e4e5 a10a9 c4c5 a9a8 g4g5 a8a9 i4i5 a9a8 a4a5 a8a9";
    assert_eq!(end_after(&r, START, black).0, "white");
}

/// A pass between the last two moves is skipped (pyffish: the end comes after `a3a2`, the
/// eleventh move, with White's pass between).
#[test]
fn a_pass_between_the_last_two_moves_is_skipped() {
    let r = common::rules("janggimodern.var");
    let moves = "a1a2 e7e6 a2a3 e6e5 a3a2 i7i6 a2a3 c7c6 e2e2 g7g6";
    assert_eq!(end_after(&r, START, moves), ("none", None));
    assert_eq!(end_after(&r, START, &format!("{moves} a3a2")).0, "black");
}

/// The general and the guards, which cannot leave their palace, are not counted (pyffish: no
/// end after either).
#[test]
fn the_general_and_the_guards_are_not_counted() {
    let r = common::rules("janggimodern.var");
    assert_eq!(end_after(&r, START, "d1d2 e7e6 d2d1 e6e5 d1d2 i7i6 d2d1 c7c6 d1d2 g7g6").0, "none");
    assert_eq!(end_after(&r, START, "e2e3 e7e6 e3e2 e6e5 e2e3 i7i6 e3e2 c7c6 e2e3 g7g6").0, "none");
}

/// A capture by the other player in between, or a move made in check, breaks the count; moves
/// before a position string are not known (pyffish: no end in any of them).
#[test]
fn a_capture_a_check_or_a_position_string_breaks_the_count() {
    let r = common::rules("janggimodern.var");
    assert_eq!(end_after(&r, START, "a1a2 e7e6 a2a3 e6e5 a3a2 e5e4 a2a3 c7c6 a3a2").0, "none");
    let open = "7r1/4k4/9/p8/9/9/9/9/9/4K1R2 w - - 0 1";
    // Black's chariot checks from h1; White's f2-f1 blocks it, a move made in check.
    assert_eq!(end_after(&r, open, "g1f1 a7a6 f1f2 h10h1 f2f1 h1h2 f1f2 h2h1 f2f1").0, "none");
    // Without the checks the same chariot moves lose.
    assert_eq!(end_after(&r, open, "g1f1 a7a6 f1f2 h10h9 f2f1 h9h10 f1f2 h10h9 f2f1").0, "black");
    let after_a1a2 = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/R3K4/1NBA1ABNR b - - 1 1";
    assert_eq!(end_after(&r, after_a1a2, "e7e6 a2a3 e6e5 a3a2 i7i6 a2a3 c7c6 a3a2").0, "none");
}

/// The fourth occurrence of a position ends the game on points: the guards' repetition leaves
/// the material equal and Han's 1.5 wins (pyffish: -32000 for White to move after 12 moves).
#[test]
fn the_fourth_repetition_is_decided_on_points() {
    let r = common::rules("janggimodern.var");
    let round = "d1d2 d10d9 d2d1 d9d10";
    let eight = format!("{round} {round}");
    assert_eq!(end_after(&r, START, &eight).0, "none");
    assert_eq!(end_after(&r, START, &format!("{eight} {round}")), ("black", Some(EndReason::Repetition)));
}

/// The language's example, with every fast path, each switched off, and the plain reference:
/// the fifth rook move ends the game, and the moves before it are the same everywhere.
#[test]
fn the_example_agrees_on_every_path_and_the_reference() {
    let moves = "b2b1 d4c4 b1b2 c4d4 b2b1 d4c4 b1b2 c4d4";
    let mut seen = Vec::new();
    for rules in common::every_rules(&example_text(), &varia_interpreter::paths::Path::ALL) {
        let mut pos = Position::start(rules.clone());
        let mut lists = Vec::new();
        for m in moves.split_whitespace() {
            lists.push(common::uci(&mut pos));
            common::play(&mut pos, m);
        }
        lists.push(common::uci(&mut pos));
        assert_eq!(pos.outcome(), None);
        common::play(&mut pos, "b2b1");
        let end = pos.outcome().map(|(r, why)| (common::result_name(r), why));
        assert_eq!(end, Some(("black", EndReason::Goal(0))));
        assert!(common::uci(&mut pos).is_empty());
        seen.push(lists);
    }
    assert!(seen.windows(2).all(|w| w[0] == w[1]));
}

/// The writer writes the test back, and the text loads to the same rules.
#[test]
fn the_test_is_written_back() {
    for text in [example_text(), std::fs::read_to_string(common::root().join("variants/janggimodern.var")).unwrap()] {
        let v = varia_grammar::load(&text).unwrap();
        let written = varia_grammar::write::write_variant(&v).unwrap();
        assert!(written.contains("shuttled 4 "), "{written}");
        let back = varia_grammar::load(&written).unwrap();
        assert_eq!(serde_json::to_value(&v).unwrap(), serde_json::to_value(&back).unwrap());
    }
}

/// Bad counts and types are located errors naming what was expected.
#[test]
fn bad_shuttles_are_errors() {
    let base = example_text();
    for (to, found, says) in [
        ("shuttled 1 Rook", "1", "expected 2 or more moves back and forth"),
        ("shuttled 101 Rook", "101", "expected a number from 0 to 100"),
        ("shuttled 4 Dragon", "Dragon", "piece"),
        ("shuttled 4 Rook Rook", "Rook", "expected each type once"),
        ("shuttled Rook", "Rook", "expected"),
    ] {
        let wrong = base.replace("shuttled 4 Rook", to);
        let errs = varia_grammar::load(&wrong).expect_err(to);
        let text = format!("{errs:?}");
        assert!(text.contains(says), "{to}: {text}");
        let at = errs[0].span.clone();
        assert!(wrong[at.clone()].starts_with(found), "{to}: {:?} {text}", &wrong[at]);
    }
}
