//! The language's first moves held as rights and its counts begun by a capturer: a power's `if
//! on-right` and `if in-check`, a gate's `aimed-by`, a counting rule's `for-mover` (the examples
//! of docs/language.md, tests/fsf_rules/first-leaps.var and last-pawn.var), their errors and
//! their writing back.

mod common;

use std::sync::Arc;

use varia_interpreter::{EndReason, Position, Rules};

fn rules(file: &str) -> Arc<Rules> {
    let text = std::fs::read_to_string(common::root().join("tests/fsf_rules").join(file)).unwrap();
    Arc::new(Rules::new(varia_grammar::load(&text).unwrap_or_else(|e| panic!("{file}: {e:?}"))))
}

/// The king leaps while its cell holds the right and it is not in check; a leap onto an
/// attacked cell is illegal as any move is (e2 is on the black rook's file).
#[test]
fn a_king_leaps_while_on_its_right_and_not_in_check() {
    let r = rules("first-leaps.var");
    let mut pos = Position::start(r.clone());
    let moves = common::uci(&mut pos);
    assert!(common::has(&moves, "c1a2") && !common::has(&moves, "c1e2"), "{moves:?}");
    assert_eq!(varia_interpreter::perft(&mut pos, 3), pos.reference_perft(3));
    // In check from the rook on a1 the leap is not offered, though a2 would be safe.
    let mut pos = Position::from_position_string(r.clone(), "2k2/5/5/5/r1K2 w C - 0 1").unwrap();
    let moves = common::uci(&mut pos);
    assert!(!common::has(&moves, "c1a2") && !common::has(&moves, "c1e2"), "{moves:?}");
    assert_eq!(varia_interpreter::perft(&mut pos, 3), pos.reference_perft(3));
    // Once the king has moved, the right is gone for good.
    let mut pos = Position::start(r.clone());
    common::play(&mut pos, "c1c2 c5c4 c2c1 c4c5");
    assert_eq!(pos.to_position_string(), "2k1r/5/5/5/R1K2 w - - 4 3");
    assert!(!common::has(&common::uci(&mut pos), "c1a2"));
}

/// An enemy rook ending its move where it would take on c5 on an empty board (the fifth rank,
/// the c-file) takes Black's right, whatever stands between; elsewhere it does not.
#[test]
fn a_rook_aiming_at_the_kings_cell_takes_the_right() {
    let r = rules("first-leaps.var");
    let mut pos = Position::start(r.clone());
    common::play(&mut pos, "a1a5");
    assert_eq!(pos.to_position_string(), "R1k1r/5/5/5/2K2 b C - 1 1");
    // Blocked by the rook on b5, the aim still counts.
    let mut pos = Position::from_position_string(r.clone(), "1rk1r/5/5/5/R1K2 w Cc - 0 1").unwrap();
    common::play(&mut pos, "a1a5");
    assert!(pos.to_position_string().contains(" b C "), "{}", pos.to_position_string());
    let mut pos = Position::from_position_string(r.clone(), "2k1r/5/5/5/R1K2 w Cc - 0 1").unwrap();
    common::play(&mut pos, "a1a2");
    assert!(pos.to_position_string().contains(" b Cc "), "{}", pos.to_position_string());
    let mut pos = Position::from_position_string(r.clone(), "2k1r/5/5/5/R1K2 w Cc - 0 1").unwrap();
    common::play(&mut pos, "a1a4 e5e1");
    assert!(pos.to_position_string().contains(" w c "), "{}", pos.to_position_string());
}

/// A bare king that takes the last pawn begins its count, one half-move short of the three
/// pieces' six: two half-moves later the count has run out.
#[test]
fn a_count_begun_by_the_capturer() {
    let r = rules("last-pawn.var");
    let mut pos = Position::start(r.clone());
    common::play(&mut pos, "d1c1 b3a3");
    assert_eq!(pos.to_position_string(), "3K/k3/4/2R1 w - 6 5 2");
    common::play(&mut pos, "c1c2");
    assert_eq!(pos.outcome(), None);
    common::play(&mut pos, "a3a4");
    assert_eq!(pos.outcome().map(|(_, why)| why), Some(EndReason::Counting));
    // Without `for-mover` the rule is judged for the player to move, who is not bare.
    let text = std::fs::read_to_string(common::root().join("tests/fsf_rules/last-pawn.var")).unwrap();
    let plain = Arc::new(Rules::new(varia_grammar::load(&text.replace(" for-mover", "")).unwrap()));
    let mut pos = Position::start(plain);
    common::play(&mut pos, "d1c1 b3a3");
    assert_eq!(pos.to_position_string(), "3K/k3/4/2R1 w - - 0 2");
}

/// Misuse is a located error: `in-check` on a power that may capture, `in-check` or
/// `on-right` outside a power, an unknown type after `aimed-by`.
#[test]
fn misused_rights_and_checks_are_located_errors() {
    let base = std::fs::read_to_string(common::root().join("tests/fsf_rules/first-leaps.var")).unwrap();
    for (from, to, found, says) in [
        (" move-only if on-right", " if on-right", "leap (w w n) (e e n) if on-right if not in-check", "may capture"),
        ("aimed-by Rook\ngate black", "aimed-by Bishop\ngate black", "Bishop", "Bishop"),
        (
            "piece Rook R { slide orthogonal }",
            "piece Rook R { slide orthogonal }\nphase p when in-check",
            "in-check",
            "read only by a move power",
        ),
        (
            "piece Rook R { slide orthogonal }",
            "piece Rook R { slide orthogonal }\nphase p when not on-right",
            "not on-right",
            "read only by a move power",
        ),
    ] {
        let wrong = base.replacen(from, to, 1);
        let errs = varia_grammar::load(&wrong).expect_err(to);
        let text = format!("{errs:?}");
        assert!(text.contains(says), "{to}: {text}");
        assert_eq!(&wrong[errs[0].span.clone()], found, "{to}: {text}");
    }
}

/// The writer writes the new words back, and the text loads to the same rules.
#[test]
fn the_new_words_are_written_back() {
    for (path, words) in [
        ("tests/fsf_rules/first-leaps.var", &["if on-right if not in-check", "aimed-by R\n"][..]),
        ("tests/fsf_rules/last-pawn.var", &["counting 3 from pieces for-mover: "][..]),
        ("variants/cambodian.var", &["aimed-by R\n", "for-mover", "if on-right"][..]),
    ] {
        let v = varia_grammar::load(&std::fs::read_to_string(common::root().join(path)).unwrap()).unwrap();
        let text = varia_grammar::write::write_variant(&v).unwrap();
        for w in words {
            assert!(text.contains(w), "{path}: {w}\n{text}");
        }
        let back = varia_grammar::load(&text).unwrap();
        assert_eq!(serde_json::to_value(&v).unwrap(), serde_json::to_value(&back).unwrap(), "{path}");
    }
}
