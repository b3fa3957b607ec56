//! Shatar (Mongolian chess) as Fairy-Stockfish plays it: its mate rules, written with the goal tests `checked-by(...)`, `in-check` and `streak(...)`, against pyffish 0.0.90 (`game_result` on the same moves) and pyffish's whole random games (tools/fsf-results.py).

mod common;

use varia_interpreter::{EndReason, GameResult, Position};

fn at(text: &str) -> Position {
    common::position(&common::rules("shatar.var"), text)
}

/// The result after `moves` from `fen`, with the moves left.
fn end_after(fen: &str, moves: &str) -> (usize, Option<(&'static str, EndReason)>) {
    let mut pos = at(fen);
    common::play(&mut pos, moves);
    let legal = common::uci(&mut pos).len();
    (legal, pos.outcome().map(|(r, why)| (common::result_name(r), why)))
}

/// pyffish's random games of shatar from the start (seeds 7 and 1): every move count and
/// every result agree, the mates its rules turn into draws and wins of the mated side too.
#[test]
fn shatar_agrees_with_pyffish_on_whole_games() {
    let (games, positions) = common::replay_fsf_games(common::rules("shatar.var"), "shatar.txt");
    assert_eq!(games, 190);
    assert!(positions > 20_000, "{positions}");
}

/// Black's king on g8, pawns b7 h7; White's king a1, rook b2, bishop e3 (White to move).
const RUN: &str = "6k1/1p5p/8/8/8/4B3/1R6/K7 w - - 0 1";

/// A bishop mates after a rook's check in the same run of checks: the mate wins (pyffish:
/// -32000 for Black to move).
#[test]
fn a_mate_wins_when_a_rook_checked_earlier_in_the_run() {
    let (moves, end) = end_after(RUN, "b2g2 g8h8 e3d4");
    assert_eq!((moves, end), (0, Some(("white", EndReason::Checkmate))));
}

/// The same bishop mate with no knight, rook or bers check in its run is a draw (pyffish: 0):
/// with the rook on g2 from the start, or when a turn out of check broke the run.
#[test]
fn a_mate_without_a_shak_in_its_run_is_a_draw() {
    assert!(matches!(end_after("7k/1p5p/8/8/8/4B3/6R1/K7 w - - 0 1", "e3d4"), (0, Some(("draw", EndReason::Goal(_))))));
    assert!(matches!(end_after(RUN, "b2g2 g8h8 a1a2 b7b6 e3d4"), (0, Some(("draw", EndReason::Goal(_))))));
}

/// A mate given by a knight alone is the mated player's win (pyffish: 32000 for Black to
/// move).
#[test]
fn a_mate_by_a_knight_alone_is_won_by_the_mated_player() {
    let (moves, end) = end_after("6rk/6pp/8/4N3/8/8/8/K7 w - - 0 1", "e5f7");
    assert!(matches!((moves, end), (0, Some(("black", EndReason::Goal(_))))), "{end:?}");
}

/// The run is history, not position: a position string starts it afresh (Fairy-Stockfish
/// walks back only over the moves played since its position string, `pliesFromNull`), so
/// the mate after the rook's check, from the position string written between them, is a
/// draw; taking moves back and making them again gives each line its own result.
#[test]
fn the_run_of_checks_follows_make_and_unmake_and_starts_at_a_position_string() {
    let mut pos = at(RUN);
    common::play(&mut pos, "b2g2 g8h8");
    let between = pos.to_position_string();
    assert_eq!(between, "7k/1p5p/8/8/8/4B3/6R1/K7 w - - 2 2");
    assert!(matches!(end_after(&between, "e3d4").1, Some(("draw", _))));
    common::play(&mut pos, "e3d4");
    assert_eq!(pos.outcome().map(|(r, _)| r), Some(GameResult::Win(varia_interpreter::ir::PlayerId(0))));
    pos.unmake();
    common::play(&mut pos, "a1a2 b7b6 e3d4");
    assert!(matches!(pos.outcome(), Some((GameResult::Draw, EndReason::Goal(_)))));
    for _ in 0..5 {
        pos.unmake();
    }
    assert_eq!(pos.to_position_string(), at(RUN).to_position_string());
    common::play(&mut pos, "b2g2 g8h8 e3d4");
    assert!(matches!(pos.outcome(), Some((GameResult::Win(_), EndReason::Checkmate))));
}

/// The three goal tests are written back by the writer, and the text loads to the same rules.
#[test]
fn the_mate_rules_are_written_back() {
    let text = std::fs::read_to_string(common::root().join("variants/shatar.var")).unwrap();
    let v = varia_grammar::load(&text).unwrap();
    let written = varia_grammar::write::write_variant(&v).unwrap();
    for w in ["checked-by(only N)", "streak(in-check, checked-by(N R J))"] {
        assert!(written.contains(w), "{w}\n{written}");
    }
    let back = varia_grammar::load(&written).unwrap();
    assert_eq!(serde_json::to_value(&v).unwrap(), serde_json::to_value(&back).unwrap());
}

/// Misused tests are located errors naming what was expected.
#[test]
fn bad_check_and_streak_tests_are_located_errors() {
    let base = std::fs::read_to_string(common::root().join("docs/examples/shak.var")).unwrap();
    let cases = [
        ("checked-by(only Knight)", "checked-by(only Knave)", "Knave", "unknown piece `Knave`"),
        ("checked-by(only Knight)", "checked-by(only)", ")", "expected"),
        ("checked-by(Rook Knight))", "checked-by(Rook Knight), )", ",", "expected"),
        ("piece King K { royal step all }", "piece King K { step all }", "checked-by", "without royal pieces"),
    ];
    for (from, to, found, says) in cases {
        let wrong = base.replacen(from, to, 1);
        let errs = varia_grammar::load(&wrong).expect_err(to);
        let text = format!("{errs:?}");
        assert!(text.contains(says), "{to}: {text}");
        assert_eq!(&wrong[errs[0].span.clone()], found, "{to}: {text}");
    }
    // History tests share one limit: 16 `before(...)` and `streak(...)` tests together.
    let many: Vec<String> =
        (1..=17).map(|n| format!("  goal white draw: streak(in-check, pieces-remaining {n})")).collect();
    let wrong = base.replacen("end {", &format!("end {{\n{}", many.join("\n")), 1);
    let errs = varia_grammar::load(&wrong).expect_err("17 streaks");
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].message, "more than 16 different `before(...)` and `streak(...)` tests");
    assert!(wrong[errs[0].span.clone()].starts_with("streak(in-check, pieces-remaining 17)"), "{errs:?}");
}
