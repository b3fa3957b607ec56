//! `pass-turn [if-no-move]`: a player may pass (always, or only without a legal move); the pass is the move `end`.

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
    assert_eq!(varia_grammar::load(&text).map(|v| v.pass_turn).ok(), Some(PassTurn::Always));
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
        assert_eq!(back.pass_turn, variant.pass_turn);
    }
}
