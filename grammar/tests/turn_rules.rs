//! Turn-wide rules: `pass-turn [if-no-move]` (the pass is the move `end`), `maximal-captures`, `goals-count-hands`.

use std::sync::Arc;

use varia_interpreter::ir::PassTurn;
use varia_interpreter::{perft, Position, Rules};

/// Two rooks on a 3x1 strip, each of which may step east or west onto an empty cell.
fn strip(pass: &str, setup: &str) -> String {
    format!(
        r#"variant "Strip"
board {{ grid 3 x 1 }}
player white
player black
piece Rook R {{ step e w }}
{pass}
setup {{ {setup} }}
"#
    )
}

fn position(text: &str) -> Position {
    let variant = varia_grammar::load(text).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    Position::start(Arc::new(Rules::new(variant)))
}

fn moves(pos: &mut Position) -> Vec<String> {
    let mut out = Vec::new();
    pos.legal_moves(&mut out);
    out.iter().map(|m| pos.long_notation(*m)).collect()
}

#[test]
fn pass_turn_offers_a_pass_at_every_turn() {
    let text = strip("pass-turn", "white: R a1  black: R c1");
    assert_eq!(varia_grammar::load(&text).map(|v| v.play.pass_turn).ok(), Some(PassTurn::Always));
    let mut pos = position(&text);
    // White: a1-b1 or pass; after either Black has c1-b1 (a step captures) or the pass.
    assert_eq!(moves(&mut pos), ["Ra1-b1", "end"]);
    assert_eq!(perft(&mut pos, 2), 4);
}

#[test]
fn pass_turn_if_no_move_passes_only_a_blocked_player() {
    let mut free = position(&strip("pass-turn if-no-move", "white: R a1 b1"));
    assert_eq!(moves(&mut free), ["Rb1-c1"]);
    let mut blocked = position(&strip("pass-turn if-no-move", "white: R a1 b1 c1"));
    assert_eq!(moves(&mut blocked), ["end"]);
    // Black, without pieces, passes in turn: one line of two passes.
    assert_eq!(perft(&mut blocked, 2), 1);
    let mut stuck = position(&strip("", "white: R a1 b1 c1"));
    assert_eq!(moves(&mut stuck), Vec::<String>::new());
}

#[test]
fn pass_turn_round_trips_through_the_writer() {
    for pass in ["pass-turn", "pass-turn if-no-move"] {
        let variant = varia_grammar::load(&strip(pass, "white: R a1  black: R c1")).expect("loads");
        let written = varia_grammar::write::write_variant(&variant).expect("writes");
        assert!(written.contains(pass), "{written}");
        let back = varia_grammar::load(&written).expect("reads back");
        assert_eq!(back.play.pass_turn, variant.play.pass_turn);
    }
}

#[test]
fn maximal_captures_and_goals_count_hands_read_and_write() {
    let text = strip("maximal-captures\ngoals-count-hands", "white: R a1  black: R c1");
    let variant = varia_grammar::load(&text).expect("loads");
    assert!(variant.play.maximal_captures && variant.goals_count_hands);
    let written = varia_grammar::write::write_variant(&variant).expect("writes");
    assert!(written.contains("maximal-captures\n") && written.contains("goals-count-hands\n"), "{written}");
    let back = varia_grammar::load(&written).expect("reads back");
    assert!(back.play.maximal_captures && back.goals_count_hands);
}

#[test]
fn maximal_captures_makes_a_capture_compulsory_when_one_exists() {
    // On a 4x1 strip, after White's a1-b1, Black's c1 rook may take on b1 or step to d1;
    // with the rule only the capture is legal.
    let wide = |rule: &str| strip(rule, "white: R a1  black: R c1").replace("grid 3 x 1", "grid 4 x 1");
    for (rule, expected) in [("maximal-captures", vec!["Rc1xb1"]), ("", vec!["Rc1-d1", "Rc1xb1"])] {
        let mut pos = position(&wide(rule));
        let mut out = Vec::new();
        pos.legal_moves(&mut out);
        assert_eq!(out.len(), 1);
        pos.make(out[0]);
        assert_eq!(moves(&mut pos), expected, "with '{rule}'");
    }
}

#[test]
fn maximal_captures_then_prefers_the_turns_taking_the_types_named() {
    // White's rook on c1 may take Black's rook on d1 or Black's crown on b1: one piece
    // either way, so both stay legal; `then Crown` keeps the taking of the crown.
    let text = |rule: &str| {
        strip(rule, "white: R c1  black: R d1, C b1")
            .replace("grid 3 x 1", "grid 5 x 1")
            .replace("piece Rook R { step e w }", "piece Rook R { step e w }\npiece Crown C { step e }")
    };
    let sorted = |rule: &str| {
        let mut listed = moves(&mut position(&text(rule)));
        listed.sort();
        listed
    };
    assert_eq!(sorted("maximal-captures"), ["Rc1xb1", "Rc1xd1"]);
    assert_eq!(sorted("maximal-captures then Crown"), ["Rc1xb1"]);
    assert_eq!(sorted("maximal-captures then Rook"), ["Rc1xd1"]);
    let variant = varia_grammar::load(&text("maximal-captures then Crown")).expect("loads");
    let written = varia_grammar::write::write_variant(&variant).expect("writes");
    assert!(written.contains("maximal-captures then C\n"), "{written}");
    let back = varia_grammar::load(&written).expect("reads back");
    assert_eq!(back.play.maximal_captures_prefer, variant.play.maximal_captures_prefer);
    // A type the game does not have, and a second line, are located errors.
    let errors = varia_grammar::load(&text("maximal-captures then Queen")).unwrap_err();
    assert_eq!(errors[0].message, "unknown piece `Queen`");
    let errors = varia_grammar::load(&text("maximal-captures\nmaximal-captures")).unwrap_err();
    assert_eq!(errors[0].message, "a second `maximal-captures` line");
}
