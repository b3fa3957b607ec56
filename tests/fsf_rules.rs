//! Fairy-Stockfish's rule features in the language: several royal pieces (`royal-check`), compulsory capture (`must-capture`) and goals that look at attacks (`safe-config`), castling rights gained by drops (`gained-by-drop`), each against the move lists pyffish gives.

mod common;

use std::sync::Arc;

use varia_interpreter::{Position, Rules};

fn rules(file: &str) -> Arc<Rules> {
    let path = format!("{}/tests/fsf_rules/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Arc::new(Rules::new(varia_grammar::load(&text).unwrap_or_else(|e| panic!("{file}: {e:?}"))))
}

/// The legal moves in UCI after `moves` from `fen`, sorted.
fn moves_after(file: &str, fen: &str, moves: &[&str]) -> Vec<String> {
    let mut pos = Position::from_position_string(rules(file), fen).unwrap_or_else(|e| panic!("{fen}: {e:?}"));
    for m in moves {
        let mv = pos.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        pos.make(mv);
    }
    common::uci(&mut pos)
}

fn list(moves: &str) -> Vec<String> {
    let mut v: Vec<String> = moves.split_whitespace().map(String::from).collect();
    v.sort();
    v
}

/// `royal-check all`: one king of two attacked is no check (pyffish 0.0.90, spartan: 8 moves).
#[test]
fn two_kings_one_attacked_is_no_check() {
    let got = moves_after("two-kings.var", "k1k5/8/8/8/8/8/8/R3K3 b - - 0 1", &[]);
    assert_eq!(got, list("a8a7 a8b7 a8b8 c8b7 c8b8 c8c7 c8d7 c8d8"));
}

/// Both kings attacked is check: only the moves that take one out of attack are legal.
#[test]
fn two_kings_both_attacked_is_check() {
    let fen = "k6k/8/8/8/8/8/8/R3K2R b - - 0 1";
    let mut pos = Position::from_position_string(rules("two-kings.var"), fen).unwrap();
    assert!(pos.in_check());
    assert_eq!(common::uci(&mut pos), list("a8b7 a8b8 h8g7 h8g8"));
}

/// A king left attacked may be taken; the last one is then royal alone.
#[test]
fn the_last_king_is_royal() {
    let got = moves_after("two-kings.var", "k6k/8/8/8/8/8/8/R3K3 w - - 0 1", &["a1a8"]);
    assert_eq!(got, list("h8g7 h8h7"));
}

/// `royal-check last`: with a crown prince beside it, the king may stay attacked (shoshogi's
/// rule: pyffish lists these 8 moves with a gold on d2, where the king alone has one).
#[test]
fn a_king_with_a_crown_prince_is_not_royal() {
    let got = moves_after("crown-prince.var", "4k4/9/9/9/9/9/9/3g5/3K4+E w - - 0 1", &[]);
    assert_eq!(got, list("d1c1 d1c2 d1d2 d1e1 d1e2 i1h1 i1h2 i1i2"));
    let alone = moves_after("crown-prince.var", "4k4/9/9/9/9/9/9/3g5/3K5 w - - 0 1", &[]);
    assert_eq!(alone, list("d1d2"));
}

/// `must-capture`: a capture rules out every other move (pyffish's antichess).
#[test]
fn a_player_who_can_capture_must() {
    assert_eq!(moves_after("antichess.var", "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", &[]), list("e1d2"));
    // No capture: every move.
    let free = moves_after("antichess.var", "4k3/8/8/8/3p4/8/8/R3K3 w - - 0 1", &[]);
    assert_eq!(free.len(), 15);
}

/// `safe-config`: the lion on the far rank wins only once nothing attacks it there
/// (pyffish's dobutsu: after a3a4 Black has 8 moves, after b4b3 White has won).
#[test]
fn a_lion_wins_on_the_far_rank_only_unattacked() {
    let fen = "1g1/L2/2l/3[] w - - 0 1";
    assert_eq!(moves_after("dobutsu.var", fen, &["a3a4"]), list("b4b3 b4a4 b4c4 c2b1 c2c1 c2b2 c2b3 c2c3"));
    let mut pos = Position::from_position_string(rules("dobutsu.var"), fen).unwrap();
    for m in ["a3a4", "b4b3"] {
        let mv = pos.parse_move(m).unwrap();
        pos.make(mv);
    }
    assert!(common::uci(&mut pos).is_empty());
    let (result, _) = pos.outcome().expect("the game is over");
    assert_eq!(format!("{result:?}"), "Win(PlayerId(0))");
}

/// The writer writes the new declarations back, and the text loads to the same rules.
#[test]
fn the_new_declarations_are_written_back() {
    for file in ["two-kings.var", "crown-prince.var", "antichess.var", "dobutsu.var"] {
        let path = format!("{}/tests/fsf_rules/{file}", env!("CARGO_MANIFEST_DIR"));
        let v = varia_grammar::load(&std::fs::read_to_string(path).unwrap()).unwrap();
        let text = varia_grammar::write::write_variant(&v).unwrap();
        let word = ["royal-check all", "royal-check last", "must-capture", "safe-config("];
        assert!(word.iter().any(|w| text.contains(w)), "{file}:\n{text}");
        let back = varia_grammar::load(&text).unwrap();
        assert_eq!(serde_json::to_value(&v).unwrap(), serde_json::to_value(&back).unwrap(), "{file}");
    }
}

/// Bad values are located errors.
#[test]
fn bad_royal_checks_are_errors() {
    let base =
        std::fs::read_to_string(format!("{}/tests/fsf_rules/two-kings.var", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let wrong = base.replace("royal-check all", "royal-check most");
    let errs = varia_grammar::load(&wrong).expect_err("`most` is no royal check");
    let text = format!("{errs:?}");
    assert!(text.contains("expected `any`, `all` or `last`, found `most`"), "{text}");
    let at = base.find("royal-check all").unwrap() + "royal-check ".len();
    assert_eq!(errs[0].span.start, at, "{text}");
    let twice = base.replace("royal-check all", "royal-check all\nroyal-check last");
    let errs = varia_grammar::load(&twice).expect_err("two lines");
    assert!(format!("{errs:?}").contains("a second `royal-check` line"), "{errs:?}");
}

/// The `gained-by-drop` example of docs/language.md: a castling right comes with the king and
/// the partner placed on their start cells, in either order, and goes with the drop taken back.
#[test]
fn a_castling_right_is_gained_by_placing_king_and_partner() {
    let path = format!("{}/docs/examples/placed-castling.var", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let rules = Arc::new(Rules::new(varia_grammar::load(&text).unwrap()));
    let rights = |pos: &Position| pos.to_position_string().split_whitespace().nth(2).unwrap().to_string();
    let mut pos = Position::start(rules.clone());
    common::play(&mut pos, "K@b1 K@b5");
    assert_eq!(rights(&pos), "-");
    common::play(&mut pos, "R@e1");
    assert_eq!(rights(&pos), "K");
    pos.unmake();
    assert_eq!(rights(&pos), "-");
    // Elsewhere than e1 the rook gives nothing.
    common::play(&mut pos, "R@d1 R@e5");
    assert_eq!(rights(&pos), "k");
    assert!(!common::legal(&mut pos).contains(&"O-O".to_string()));
    // The partner first, then the king.
    let mut pos = Position::start(rules);
    common::play(&mut pos, "R@e1 R@e5 K@b1");
    assert_eq!(rights(&pos), "K");
    common::play(&mut pos, "K@b5");
    assert_eq!(rights(&pos), "Kk");
    common::play(&mut pos, "O-O");
    assert_eq!(
        pos.to_position_string().split_whitespace().take(3).collect::<Vec<_>>().join(" "),
        "1k2r/5/5/5/2RK1[] b k"
    );
}
