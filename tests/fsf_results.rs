//! Fairy-Stockfish's result rules in the language: per-player results of stalemate, the move
//! rule and repetition (armageddon), stalemate won by fewer pieces (suicide) and counts that
//! begin above zero (makruk), against random games pyffish played (tools/fsf-results.py).

mod common;

use std::sync::Arc;

use varia_interpreter::{EndReason, Position, Rules};

fn rules(file: &str) -> Arc<Rules> {
    let path = format!("{}/tests/fsf_rules/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Arc::new(Rules::new(varia_grammar::load(&text).unwrap_or_else(|e| panic!("{file}: {e:?}"))))
}

fn text_of(file: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/fsf_rules/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// The result and reason after `moves` from `fen`, with the moves left (none when it is over).
fn end_after(file: &str, fen: &str, moves: &str) -> (Vec<String>, Option<(&'static str, EndReason)>) {
    let mut pos = Position::from_position_string(rules(file), fen).unwrap_or_else(|e| panic!("{fen}: {e:?}"));
    common::play(&mut pos, moves);
    let legal = common::uci(&mut pos);
    (legal, pos.outcome().map(|(r, why)| (common::result_name(r), why)))
}

/// Replays every game of a fixture against the rules of a file of tests/fsf_rules.
fn replay_fixture(file: &str, fixture: &str) -> (usize, usize) {
    common::replay_fsf_games(rules(file), fixture)
}

/// Armageddon's stalemates go to Black whoever is stalemated (pyffish: 32000 for Black to move
/// in the first, -32000 for White to move in the second).
#[test]
fn a_stalemate_is_blacks_win_either_way() {
    let (moves, end) = end_after("armageddon.var", "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1", "");
    assert!(moves.is_empty());
    assert_eq!(end, Some(("black", EndReason::Stalemate)));
    let (moves, end) = end_after("armageddon.var", "K7/2q5/1k6/8/8/8/8/8 w - - 0 1", "");
    assert!(moves.is_empty());
    assert_eq!(end, Some(("black", EndReason::Stalemate)));
    // A checkmate is still the mated player's loss.
    let (_, end) = end_after("armageddon.var", "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", "");
    assert_eq!(end, Some(("white", EndReason::Checkmate)));
}

/// The fiftieth move without a capture or pawn move, and the third occurrence of a position,
/// are Black's wins; the game then has no moves.
#[test]
fn the_move_rule_and_repetition_are_blacks_wins() {
    let (moves, end) = end_after("armageddon.var", "8/8/8/3k4/8/8/8/4K2Q w - - 99 80", "h1h2");
    assert!(moves.is_empty());
    assert_eq!(end, Some(("black", EndReason::MoveRule)));
    let (moves, end) = end_after("armageddon.var", "8/8/8/3k4/8/8/8/4K2Q w - - 98 80", "h1h2");
    assert_eq!((moves.len(), end), (6, None));
    let shuffle = "h1h2 b5b6 h2h1 b6b5 h1h2 b5b6 h2h1 b6b5";
    let (moves, end) = end_after("armageddon.var", "8/8/8/1k6/8/8/8/4K2Q w - - 0 1", shuffle);
    assert!(moves.is_empty());
    assert_eq!(end, Some(("black", EndReason::Repetition)));
}

/// Suicide's stalemate: the player with fewer pieces wins, as many is a draw (pyffish's
/// `game_result`: 32000, -32000 and 0 for the side to move).
#[test]
fn a_stalemate_is_won_by_the_player_with_fewer_pieces() {
    let cases = [
        ("8/8/8/8/8/p7/P7/7p w - - 0 1", "white"),
        ("8/8/8/8/p7/P7/8/7P b - - 0 1", "black"),
        ("8/8/8/8/8/p7/P7/8 w - - 0 1", "draw"),
        ("8/8/8/8/8/p7/P6P/8 w - - 0 1", "none"),
        ("8/8/8/8/8/p7/P7/6pp w - - 0 1", "white"),
        ("8/8/8/8/7p/p6P/P6P/8 w - - 0 1", "black"),
    ];
    for (fen, want) in cases {
        let (moves, end) = end_after("suicide.var", fen, "");
        assert_eq!(end.map_or("none", |e| e.0), want, "{fen}");
        assert_eq!(moves.is_empty(), want != "none", "{fen}");
        if let Some((_, why)) = end {
            assert_eq!(why, EndReason::Stalemate, "{fen}");
        }
    }
}

/// pyffish's random games (armageddon from the start and from endings near the move rule):
/// every move count and every result agree.
#[test]
fn armageddon_agrees_with_pyffish() {
    let (games, positions) = replay_fixture("armageddon.var", "armageddon.txt");
    assert_eq!(games, 24);
    assert!(positions > 3000, "{positions}");
}

/// pyffish's random games of suicide chess: move counts and results agree.
#[test]
fn suicide_agrees_with_pyffish() {
    let (games, positions) = replay_fixture("suicide.var", "suicide.txt");
    assert_eq!(games, 36);
    assert!(positions > 500, "{positions}");
}

/// The writer writes the new end items back, and the text loads to the same rules.
#[test]
fn the_result_rules_are_written_back() {
    for (file, words) in [
        ("armageddon.var", &["stalemate black win", "move-rule 50 black win", "repetition 3 black win"][..]),
        ("suicide.var", &["stalemate fewer-pieces win"][..]),
        ("makruk.var", &["counting 16 from pieces: ", "not count-running", "opponent(pieces-remaining 1)"][..]),
    ] {
        let v = varia_grammar::load(&text_of(file)).unwrap();
        let text = varia_grammar::write::write_variant(&v).unwrap();
        for w in words {
            assert!(text.contains(w), "{file}: {w}\n{text}");
        }
        let back = varia_grammar::load(&text).unwrap();
        assert_eq!(serde_json::to_value(&v).unwrap(), serde_json::to_value(&back).unwrap(), "{file}");
    }
}

/// Bad values are located errors naming what was expected.
#[test]
fn bad_result_rules_are_errors() {
    let base = text_of("armageddon.var");
    for (from, to, found, says) in [
        ("stalemate black win", "stalemate blue win", "blue", "player"),
        ("move-rule 50 black win", "move-rule 50 black victory", "victory", "expected `win`, `loss` or `draw`"),
        ("stalemate black win", "stalemate fewer-pieces", "move-rule", "expected `win`, `loss` or `draw`"),
        ("move-rule 50 black win", "move-rule 50 nobody draw", "nobody", "player"),
    ] {
        let wrong = base.replace(from, to);
        let errs = varia_grammar::load(&wrong).expect_err(to);
        let text = format!("{errs:?}");
        assert!(text.contains(says), "{to}: {text}");
        assert_eq!(&wrong[errs[0].span.clone()], found, "{to}: {text}");
    }
}

/// pyffish's random games of makruk endings and from the start: the counts of the board's and
/// the pieces' honour run out on the same move, and every move count agrees.
#[test]
fn makruk_counting_agrees_with_pyffish() {
    let (games, positions) = replay_fixture("makruk.var", "makruk.txt");
    assert_eq!(games, 40);
    assert!(positions > 3000, "{positions}");
}

/// Bad counting rules are located errors.
#[test]
fn bad_counting_rules_are_errors() {
    let base = text_of("makruk.var");
    for (from, to, found, says) in [
        ("counting 16 from pieces", "counting 16 from cells", "cells:", "expected `pieces`"),
        ("counting 16 from pieces", "counting 0 from pieces", "0", "a count of 0 moves"),
        ("not opponent(pieces-remaining 1)", "not opponent(pieces-remaining x)", "x", "expected"),
        ("not opponent(pieces-remaining 1)", "not opponent pieces-remaining 1", "pieces-remaining", "expected `(`"),
    ] {
        let wrong = base.replacen(from, to, 1);
        let errs = varia_grammar::load(&wrong).expect_err(to);
        let text = format!("{errs:?}");
        assert!(text.contains(says), "{to}: {text}");
        assert_eq!(&wrong[errs[0].span.clone()], found, "{to}: {text}");
    }
}
