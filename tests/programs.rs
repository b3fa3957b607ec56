//! Move programs in the engine: declarative powers run as programs give the same moves, and program moves make and unmake exactly.

mod common;

use std::sync::Arc;

use varia_interpreter::ir::{Goal, GoalTest, Outcome, PlayerId};
use varia_interpreter::{perft, Position, Rules};

/// Chess with every power run through the program path (a goal that never holds switches
/// program play on); castling and en passant are left out, as programs write them themselves.
fn chess_as_programs() -> Arc<Rules> {
    let text = std::fs::read_to_string(common::root().join("variants/chess.var")).unwrap();
    let mut v = varia_grammar::load(&text).unwrap();
    v.castlings.clear();
    v.setup.castling_rights.clear();
    v.end.goals.push(Goal {
        players: vec![PlayerId(0)],
        outcome: Outcome::Win,
        test: GoalTest::PiecesRemaining(1000, None),
    });
    Arc::new(Rules::new(v))
}

#[test]
fn declarative_chess_through_programs_matches_published_counts() {
    let rules = chess_as_programs();
    let mut pos = Position::start(rules);
    // No castling or en passant is possible within four plies of the start.
    assert_eq!(perft(&mut pos, 1), 20);
    assert_eq!(perft(&mut pos, 2), 400);
    assert_eq!(perft(&mut pos, 3), 8902);
    assert_eq!(perft(&mut pos, 4), 197_281);
}

#[test]
fn program_moves_unmake_to_the_same_hash() {
    let rules = chess_as_programs();
    let mut pos = Position::start(rules);
    let start = pos.hash();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    for mv in moves {
        pos.make(mv);
        assert_eq!(pos.hash(), pos.compute_hash(), "{}", pos.long_notation(mv));
        pos.unmake();
        assert_eq!(pos.hash(), start);
    }
}

#[test]
fn program_features_with_castling_are_refused_with_a_located_error() {
    let text = std::fs::read_to_string(common::root().join("variants/chess.var")).unwrap();
    let text = text.replace("  repetition 3\n", "  repetition 3\n  goal white black loss: pieces-remaining 0 K\n");
    let diags = varia_grammar::load(&text).expect_err("castling and goals do not mix yet");
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert!(
        diags[0].message.contains("cannot be combined with `castle` lines, en passant yet"),
        "{}",
        diags[0].message
    );
    assert_eq!(&text[diags[0].span.clone()], "variant \"Chess\"");
}
