//! Won endgames converted: the runaway term (a promoting piece the enemy royal cannot catch,
//! by the rule of the square read from the compiled moves and zones), the passed term, and
//! positions played out by the engine against itself at fixed depth to mate within the move
//! rule.

mod common;

use std::sync::Arc;

use varia_interpreter::{Evaluator, GameResult, Limits, Position, Rules, Searcher, Weights};

/// The evaluation of `fen` with the runaway term at its default weights, less its value with
/// the term off.
fn runaway(rules: &Arc<Rules>, fen: &str) -> i32 {
    let mut off = Weights::defaults(rules);
    off.terms.insert("runaway".into(), [0.0, 0.0]);
    let plain = Evaluator::with_weights(rules, &off).expect("valid weights");
    let pos = common::position(rules, fen);
    Evaluator::new(rules).evaluate(&pos) - plain.evaluate(&pos)
}

#[test]
fn a_promoting_piece_the_enemy_royal_cannot_catch_is_worth_most_of_its_promotion() {
    let rules = common::rules("chess.var");
    // The pawn on a4 needs four moves; the black king on g1 seven steps to a8: out of reach.
    // Half the queen's gain over the pawn (800), all in the endgame.
    let far = runaway(&rules, "8/8/8/8/P7/8/8/K5k1 w - - 0 1");
    assert!((380..=400).contains(&far), "{far}");
    // From Black's view, the same worth against it.
    assert_eq!(runaway(&rules, "8/8/8/8/P7/8/8/K5k1 b - - 0 1"), -far);
    // The rule of the square: a king five steps from a8 catches a pawn four moves away only
    // when it moves first.
    assert!(runaway(&rules, "5k2/8/8/8/P7/8/8/K7 w - - 0 1") > 0);
    assert_eq!(runaway(&rules, "5k2/8/8/8/P7/8/8/K7 b - - 0 1"), 0);
    // Inside the square, the way blocked (its own king on a5), or a knight that could stop it:
    // nothing.
    for fen in ["8/8/8/3k4/P7/8/8/K7 w - - 0 1", "8/8/8/K7/P7/8/8/6k1 w - - 0 1", "8/8/8/8/P7/8/8/K5kn w - - 0 1"] {
        assert_eq!(runaway(&rules, fen), 0, "{fen}");
    }
    // Both sides with a runaway (a race): the search decides, the term does not.
    assert_eq!(runaway(&rules, "8/8/8/7p/P7/8/8/K3k3 w - - 0 1"), 0);
    // Makruk's zone is the sixth rank, and a pawn promotes to a met (a ferz): the term reads
    // the zone and the gain from the rules. A pawn on a4 is two moves from a6.
    let makruk = common::rules("makruk.var");
    let near = runaway(&makruk, "8/8/8/8/P7/8/8/K5k1 w - - 0 1");
    let nearer = runaway(&makruk, "8/8/8/8/P7/8/8/K3k3 w - - 0 1");
    assert!(near > 0 && near < far, "{near}");
    assert_eq!(nearer, near, "e1 is four steps from a6, more than two moves");
}

/// The evaluation of `fen` with the passed term at 100 centipawns in both phases, less its
/// value with the term off: the progress of the side to move's passed promoters in hundredths,
/// less the other side's.
fn passed(rules: &Arc<Rules>, fen: &str) -> i32 {
    let pos = common::position(rules, fen);
    let with = |w: f64| {
        let mut weights = Weights::defaults(rules);
        weights.terms.insert("passed".into(), [w, w]);
        Evaluator::with_weights(rules, &weights).expect("valid weights").evaluate(&pos)
    };
    with(100.0) - with(0.0)
}

#[test]
fn a_promoting_piece_no_enemy_promoting_piece_can_stop_counts_its_progress() {
    let rules = common::rules("chess.var");
    // A pawn on d5 is three moves from d8, of six from its first rank: (1 - 3/6)^2 of the
    // queen's gain over the pawn (800) / 800, in hundredths.
    assert_eq!(passed(&rules, "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1"), 25);
    assert_eq!(passed(&rules, "4k3/8/8/3P4/8/8/8/4K3 b - - 0 1"), -25);
    // Nearer, more: d6 (1 - 2/6)^2, d7 (1 - 1/6)^2.
    assert_eq!(passed(&rules, "4k3/8/3P4/8/8/8/8/4K3 w - - 0 1"), 44);
    assert_eq!(passed(&rules, "2k5/3P4/8/8/8/8/8/4K3 w - - 0 1"), 69);
    // An enemy pawn on its way (d7) or one that could take on it (e7 on d6): not passed, and
    // neither is the enemy pawn, which the white one could take or stands in front of.
    for fen in ["4k3/3p4/8/3P4/8/8/8/4K3 w - - 0 1", "4k3/4p3/8/3P4/8/8/8/4K3 w - - 0 1"] {
        assert_eq!(passed(&rules, fen), 0, "{fen}");
    }
    // An enemy pawn behind it (c4), blocked itself by a white pawn on c3, which it blocks in
    // turn: only d5 is passed. Other pieces neither block nor stop it.
    assert_eq!(passed(&rules, "4k3/8/8/3P4/2p5/2P5/8/4K3 w - - 0 1"), 25);
    assert_eq!(passed(&rules, "3rk3/3n4/8/3P4/8/8/8/4K3 w - - 0 1"), 25);
    // Makruk's pawn becomes a met, worth little more: its progress counts little.
    let makruk = common::rules("makruk.var");
    let met = passed(&makruk, "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1");
    assert!((1..25).contains(&met), "{met}");
    // A game where nothing promotes: nothing, wherever the pieces stand.
    let breakthrough = common::rules("breakthrough.var");
    let mut pos = Position::start(breakthrough.clone());
    let mut moves = Vec::new();
    for _ in 0..12 {
        let text = pos.to_position_string();
        assert_eq!(passed(&breakthrough, &text), 0, "{text}");
        pos.legal_moves(&mut moves);
        pos.make(moves[moves.len() / 2]);
    }
}

/// Plays `fen` out with the engine on both sides at `depth`, and returns the result, why, and
/// the plies played.
fn play_out(rules: &Arc<Rules>, fen: &str, depth: u32) -> (Option<GameResult>, String, usize) {
    let mut pos: Position = common::position(rules, fen);
    let mut searcher = Searcher::new(rules, 16);
    for ply in 0..400 {
        if let Some((result, why)) = pos.outcome() {
            return (Some(result), format!("{why:?}"), ply);
        }
        let mv = searcher.search(&mut pos, Limits { depth: Some(depth), ..Limits::default() }, |_| {});
        pos.make(mv.best().expect("a legal move"));
    }
    (None, "the ply limit".into(), 400)
}

#[test]
fn won_endgames_are_mated_within_the_move_rule() {
    let rules = common::rules("chess.var");
    // Queen, rook, queen against rook, and a pawn race that White wins by a tempo (Fairy-Stockfish
    // 11.1 at 3 s: mate in 21), each won by White. The move rule (50 moves without a capture
    // or a pawn move) ends any game that wanders, so a mate is a mate within it.
    let cases = [
        ("KQ-K", "8/8/8/4k3/8/8/8/KQ6 w - - 0 1"),
        ("KR-K", "8/8/8/4k3/8/8/8/KR6 w - - 0 1"),
        ("KQ-KR", "8/8/3r4/4k3/8/8/8/KQ6 w - - 0 1"),
        ("pawn race", "8/8/8/7p/P7/8/8/K3k3 w - - 0 1"),
    ];
    for (name, fen) in cases {
        let (result, why, plies) = play_out(&rules, fen, 6);
        assert!(
            matches!(result, Some(GameResult::Win(p)) if p.0 == 0),
            "{name}: {result:?} by {why} after {plies} plies"
        );
    }
}
