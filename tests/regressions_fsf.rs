//! Defects found by writing Fairy-Stockfish's variants in the language, each with the smallest game that showed it.

mod common;

use std::sync::Arc;

use varia_interpreter::{perft, perft_threads, perft_turns, Position, Rules};

fn load(text: &str) -> Arc<Rules> {
    Arc::new(Rules::new(varia_grammar::load(text).unwrap_or_else(|e| panic!("{e:?}"))))
}

/// A drop whose program places the piece promoted side up (`add(Tokin)`, kyotoshogi's drops)
/// took a piece of the promoted type out of the hand, so the pawn dropped stayed in hand
/// (`P@b2=+P` gave `[P]` after the rows).
const DROP_PROMOTED: &str = r#"variant "Drop promoted"
board { grid 4 x 4 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
piece King K { royal step all }
piece Pawn P {
  captured-to-hand
  step n
  drop { verify empty add }
  drop { verify empty add(Tokin) }
}
piece Tokin +P { captured-to-hand as Pawn step all }
setup { white: K a1  black: K d4  hand white: P 1 }
"#;

#[test]
fn a_drop_promoted_side_up_leaves_the_hand() {
    let rules = load(DROP_PROMOTED);
    for text in ["P@b2=+P", "+P@b2", "P@b2+"] {
        let mut pos = Position::start(rules.clone());
        let start = pos.to_position_string();
        let mv = pos.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        pos.make(mv);
        // The tokin stands on b2 and the hand is empty: `+P@b2` is the promoted drop as
        // Fairy-Stockfish writes it in UCI (pyffish 0.0.90, kyotoshogi), `P@b2+` as Varia wrote
        // it (its `+` is no check sign).
        assert_eq!(pos.to_position_string(), "3k/4/1+P2/K3[] b - - 0 1", "{text}");
        let black = pos.parse_move("Kd4-d3").expect("a king step");
        pos.make(black);
        assert!(common::legal(&mut pos).iter().all(|m| !m.contains('@')), "{:?}", common::legal(&mut pos));
        pos.unmake();
        pos.unmake();
        assert_eq!(pos.to_position_string(), start);
        assert_eq!(pos.hash(), pos.compute_hash());
    }
    // The plain drop is another move, and leaves a pawn.
    let mut pos = Position::start(rules);
    let mv = pos.parse_move("P@b2").expect("the plain drop");
    pos.make(mv);
    assert_eq!(pos.to_position_string(), "3k/4/1P2/K3[] b - - 0 1");
}

/// SAN's check sign after a drop was read as a promotion sign: micro's PGN `B@c5+` (the plain
/// bishop dropped with check) replayed as the drop promoted side up. Where the plain drop gives
/// check, its `+` is the check sign; elsewhere `P@b2+` still names the promoted drop.
#[test]
fn a_check_sign_after_a_drop_is_no_promotion() {
    let rules = load(DROP_PROMOTED);
    // A pawn on d3 attacks d4 (the black king), dropped plain or promoted side up.
    for (text, after) in [
        ("P@d3+", "3k/3P/4/K3[] b - - 0 1"),
        ("P@d3", "3k/3P/4/K3[] b - - 0 1"),
        ("+P@d3", "3k/3+P/4/K3[] b - - 0 1"),
        ("P@d3=+P+", "3k/3+P/4/K3[] b - - 0 1"),
    ] {
        let mut pos = Position::start(rules.clone());
        let mv = pos.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        pos.make(mv);
        assert_eq!(pos.to_position_string(), after, "{text}");
    }
}

/// A `no-drop-checkmate` pawn's drop that gives check was refused where a check wins by a goal
/// (checkshogi): the goal ended the game, the reply list was empty, and that was read as mate.
/// Fairy-Stockfish (pyffish 0.0.90, `checkshogi`, `4k4/9/9/9/9/9/9/9/4K4[P] w - - 0 1`) lists
/// `P@e8` among its 76 moves, as it does in shogi.
#[test]
fn a_checking_drop_that_wins_by_a_goal_is_no_mate() {
    let shogi = std::fs::read_to_string(common::root().join("variants/shogi.var")).expect("shogi.var");
    let check_shogi = shogi.replacen("end {", "end {\n  goal white black win: checks-given 1", 1);
    assert_ne!(check_shogi, shogi, "shogi.var has an end block");
    for (name, text) in [("shogi", shogi), ("checkshogi", check_shogi)] {
        let mut pos = common::position(&load(&text), "4k4/9/9/9/9/9/9/9/4K4[P] w - - 0 1");
        let moves = common::uci(&mut pos);
        assert_eq!(moves.len(), 76, "{name}: {moves:?}");
        assert!(moves.iter().any(|m| m == "P@e8"), "{name}: {moves:?}");
    }
}

/// Perft by whole turns counted a turn that the game's end cut short (a king taken by the first
/// jump of a chain that could go on) as no turn at all.
#[test]
fn a_turn_cut_short_by_the_end_of_the_game_is_a_turn() {
    let text = r#"variant "King hunt"
board { grid 4 x 6 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
piece King K { step all }
piece Man M {
  move jump { n verify enemy capture n verify empty add-partial then jump }
}
setup { white: M a1, K d1  black: K a2, M a4 }
end { goal white black loss: pieces-remaining 0 King }
"#;
    let rules = load(text);
    let mut pos = Position::start(rules);
    // The jump over the king and White's three king steps.
    assert_eq!(perft(&mut pos, 1), 4);
    assert_eq!(perft_turns(&mut pos, 1), Ok(4));
    assert_eq!(perft_threads(&mut pos, 1, true, 2), Ok(4));
    // After the jump the game is over; below each king step Black's king has five steps
    // (a1 taking the man, b1, b2, b3, a3) and its man none.
    let jump = pos.parse_move("Ma1xa3xa2").expect("the jump");
    pos.make(jump);
    assert!(pos.outcome().is_some(), "the king is taken");
    pos.unmake();
    assert_eq!(perft_turns(&mut pos, 2), Ok(15));
    assert_eq!(perft_threads(&mut pos, 2, true, 2), Ok(15));
    assert_eq!(perft(&mut pos, 2), 15);
}

/// A promoted piece turning back into its base type is written `a1a2-` by Fairy-Stockfish's
/// UCI (kyotoshogi: pyffish 0.0.90 lists `a1a2-` among the first moves of its start position);
/// Varia wrote the base type's letter and read `-` as nothing.
#[test]
fn a_promoted_piece_turning_back_is_written_with_a_minus() {
    let text = r#"variant "Flip"
board { grid 3 x 4 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
zone everywhere { a1..c4 }
piece King K { royal step all }
piece Lance L { slide n promote in everywhere to Tokin }
piece Tokin +L { step all promote in everywhere to Lance }
setup { white: K a1, Tokin c1  black: K c4 }
"#;
    let mut pos = Position::start(load(text));
    assert_eq!(common::uci(&mut pos), ["a1a2", "a1b1", "a1b2", "c1b1-", "c1b2-", "c1c2-"]);
    let back = pos.parse_move("c1c2-").expect("the tokin turning back");
    pos.make(back);
    let king = pos.parse_move("c4b4").expect("a king step");
    pos.make(king);
    let up = pos.parse_move("c2c3+").expect("the lance promoting");
    pos.make(up);
    assert_eq!(pos.to_position_string(), "1k1/2+L/3/K2 b - - 3 2");
}

/// A zone named by a word the language reserves (`points`, `goal`) or a move type called `step`
/// failed with "expected a name": where only a name can stand, any word is one.
#[test]
fn reserved_words_are_names_where_only_a_name_can_stand() {
    let text = r#"variant "Keywords"
board { grid 3 x 3 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
zone points { a1 }
zone goal { white: rank 3  black: rank 1 }
move-types step
priorities step
piece King K { royal step all }
piece Man M {
  move step { n verify empty verify not in(points) add }
}
setup { white: K a1, M b2  black: K c3 }
"#;
    let mut pos = Position::start(load(text));
    // The priorities leave the moves of type `step` alone: the man's.
    assert_eq!(common::legal(&mut pos), ["Mb2-b3"]);
}

/// Fairy-Stockfish runs the passed cells of the en-passant field together (`f3f4` after a triple
/// step, pyffish 0.0.90 on `wildebeest` of ../shared/fsf/variants.ini); Varia read only its own
/// comma-separated form (`f3,f4`) and refused the string.
#[test]
fn an_en_passant_field_run_together_is_read() {
    let text = r#"variant "Triple step"
board { grid 11 x 10 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
zone pawn-start { white: rank 2  black: rank 9 }
piece King K { royal step all }
piece Pawn P {
  resets-move-clock
  step n move-only
  slide n max 3 move-only from pawn-start marks-en-passant
  step ne nw capture-only en-passant
}
setup { white: K a1, P f2  black: K a10, P g4 g5 }
"#;
    let rules = load(text);
    let mut pos = Position::start(rules.clone());
    let triple = pos.parse_move("f2f5").expect("the triple step");
    pos.make(triple);
    let written = pos.to_position_string();
    let fsf = "k10/11/11/11/11/5Pp4/6p4/11/11/K10 b - f3f4 0 1";
    let read = common::position(&rules, fsf);
    assert_eq!(read.to_position_string(), written);
    let mut read = read;
    // pyffish: g4f3 and g5f4 take the pawn on f5 en passant.
    insta::assert_snapshot!("en_passant_run_together", format!("{written}\n--\n{}", common::uci(&mut read).join("\n")));
    // A text that splits into no cells is refused, naming the field.
    let bad = Position::from_position_string(rules, "k10/11/11/11/11/5Pp4/6p4/11/11/K10 b - f3f4x 0 1");
    let err = bad.map(|_| ()).expect_err("f3f4x names no cells");
    assert!(err.message.contains("found `f3f4x`"), "{}", err.message);
}

/// Fairy-Stockfish writes a move that leaves a wall with the wall's cell after a comma
/// (`a1a2,a2a1` in `snailtrail`, whose pieces wall up the cell they leave); Varia's form of
/// that rule, `squares { vacate }`, wrote and read the move as `a1a2` alone, and refused
/// Fairy-Stockfish's text. pyffish 0.0.90: perft 3 is 45, and after `a1a2,a2a1 g7f6,f6g7` the
/// position is `6*/5p1/7/7/7/P6/*6 w - - 2 2` with moves `a2a3,a3a2 a2b1,b1a2 a2b2,b2a2 a2b3,b3a2`.
#[test]
fn a_move_that_leaves_a_wall_is_read_in_fairy_stockfish_form() {
    let text = r#"variant "Snail trail"
board { grid 7 x 7 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
squares { vacate }
piece Snail P { step all }
setup { white: P a1  black: P g7 }
end { stalemate loss }
"#;
    let rules = load(text);
    let mut pos = Position::start(rules.clone());
    assert_eq!(perft(&mut pos, 3), 45);
    for text in ["a1a2,a2a1", "g7f6,f6g7"] {
        let mv = pos.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        pos.make(mv);
    }
    insta::assert_snapshot!(
        "wall_moves_read",
        format!("{}\n--\n{}", pos.to_position_string(), common::uci(&mut pos).join("\n"))
    );
    // The wall must fall on a cell the move walls up.
    assert!(pos.parse_move("a2a3,a3a4").is_err());
    assert!(pos.parse_move("a2a3,a3a2").is_ok());
}
