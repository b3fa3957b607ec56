//! Walls (`walls { place ...  petrify ... }`): where each move's wall goes, stones, the duck, position strings, notation, hashing and the fast paths they turn off.

mod common;

use std::sync::Arc;

use varia_interpreter::paths::{Features, Path, Paths};
use varia_interpreter::{Position, Rules};

fn example() -> Arc<Rules> {
    let text = std::fs::read_to_string(common::root().join("docs/examples/walls.var")).expect("walls.var");
    Arc::new(Rules::new(varia_grammar::load(&text).unwrap_or_else(|e| panic!("{e:?}"))))
}

fn play(pos: &mut Position, text: &str) {
    let mv = pos.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    pos.make(mv);
    assert_eq!(pos.hash(), pos.compute_hash(), "after {text}: the incremental hash");
}

fn cell(pos: &Position, name: &str) -> varia_interpreter::ir::CellId {
    pos.rules().cell_by_name(name).unwrap_or_else(|| panic!("no cell {name}"))
}

/// The docs' example: the arrow flies along the queen's lines from where it landed, through
/// the cell it left, never through the hole b2 nor onto the rook.
#[test]
fn arrows_fly_from_the_landing_cell() {
    let rules = example();
    let mut pos = Position::start(rules);
    let moves = common::legal(&mut pos);
    insta::assert_snapshot!("walls-example-moves", moves.join("\n"));
    assert!(moves.contains(&"Qa1-b1,*a1".to_string()));
    assert!(!moves.iter().any(|m| m.starts_with("Qa1-b1,*b2") || m.starts_with("Qa1-b1,*c1")));
}

/// A move written without its wall names every move of that text that places one: the one
/// move where only one wall is open, else an error listing those to choose among.
#[test]
fn a_move_without_its_wall_lists_the_walls() {
    let rules = example();
    let mut pos = Position::from_position_string(rules, "3/1*1/Q1r w").expect("position");
    let err = pos.parse_move("Qa1xc1").expect_err("four walls to choose among");
    let text = err.to_string();
    for wall in ["Qa1xc1,*a1", "Qa1xc1,*b1", "Qa1xc1,*c2", "Qa1xc1,*c3"] {
        assert!(text.contains(wall), "{text}");
    }
}

/// A queen that captures turns to stone where it lands; its arrow still flies from there
/// (here along rank 1 back to b1 and a1, or up to c2 and c3; b2 has no square).
#[test]
fn a_capturing_queen_turns_into_a_wall() {
    let rules = example();
    let mut pos = Position::from_position_string(rules, "3/1*1/Q1r w").expect("position");
    let moves = common::legal(&mut pos);
    let captures: Vec<&String> = moves.iter().filter(|m| m.contains('x')).collect();
    assert_eq!(captures, vec!["Qa1xc1,*a1", "Qa1xc1,*b1", "Qa1xc1,*c2", "Qa1xc1,*c3"]);
    let start = pos.to_position_string();
    play(&mut pos, "Qa1xc1,*b1");
    assert!(!pos.has_square(cell(&pos, "c1")), "the stone is a wall");
    assert!(!pos.has_square(cell(&pos, "b1")), "the arrow's wall");
    assert_eq!(pos.to_position_string().split(' ').next(), Some("3/1*1/1**"));
    // No white piece is left: the goal `pieces-remaining 0` ends the game.
    assert!(pos.outcome().is_some());
    pos.unmake();
    assert_eq!(pos.to_position_string(), start);
    assert_eq!(pos.hash(), pos.compute_hash());
}

/// Snailtrail: the cell the snail leaves is walled up; Fairy-Stockfish's form reads the same
/// move, and a position string with walls reads back the same.
#[test]
fn past_walls_and_their_notations() {
    let rules = common::rules("snailtrail.var");
    let mut pos = Position::start(rules.clone());
    let mv = pos.parse_move("a1b2,b2a1").expect("Fairy-Stockfish's form");
    assert_eq!(pos.long_notation(mv), "Pa1-b2,*a1");
    assert_eq!(pos.parse_move("Pa1-b2,*a1").expect("Varia's form"), mv);
    assert!(pos.parse_move("a1b2,b2c3").is_err(), "a wall elsewhere than the cell left");
    pos.make(mv);
    play(&mut pos, "g7f6,f6g7");
    let text = pos.to_position_string();
    assert!(text.starts_with("6*/5p1/7/7/7/1P5/*6 w"), "{text}");
    let mut back = Position::from_position_string(rules, &text).expect("reads back");
    assert_eq!(back.hash(), pos.hash());
    assert_eq!(common::legal(&mut back), common::legal(&mut pos));
    // Neither snail may step onto a wall.
    assert!(!common::legal(&mut pos).iter().any(|m| m.starts_with("Pb2-a1")));
}

/// Duck chess: the duck may not stay where it stood, blocks moves while it stands, and is
/// lifted from its cell when the next player puts it down.
#[test]
fn the_duck_moves_on() {
    let rules = common::rules("duck.var");
    let mut pos = Position::start(rules.clone());
    play(&mut pos, "e2e4,e4e5");
    let moves = common::legal(&mut pos);
    assert!(!moves.iter().any(|m| m.starts_with("e7-e5") || m.starts_with("e7-e6,*e5")));
    assert!(!moves.iter().any(|m| m.ends_with(",*e5")), "the duck must move");
    assert!(moves.contains(&"e7-e6,*e7".to_string()));
    play(&mut pos, "d7d5,d5h3");
    assert!(pos.has_square(cell(&pos, "e5")), "the duck left e5");
    assert!(!pos.has_square(cell(&pos, "h3")));
    let text = pos.to_position_string();
    assert!(text.starts_with("rnbqkbnr/ppp1pppp/8/3p4/4P3/7*/PPPP1PPP/RNBQKBNR w"), "{text}");
    // Read back, the duck is the wall: White's next wall lifts it.
    let mut back = Position::from_position_string(rules, &text).expect("reads back");
    play(&mut back, "g2g3,g3a6");
    assert!(back.has_square(cell(&back, "h3")) && !back.has_square(cell(&back, "a6")));
}

/// Every move is judged by making it in full: the listing by walk and the fast listing agree,
/// and the paths that try moves in part are off.
#[test]
fn walls_turn_off_the_partial_trials() {
    for name in ["duck.var", "amazons.var", "petrified.var", "isolation.var"] {
        let rules = common::rules(name);
        let paths = Paths::derive(&Features::of(&rules.variant));
        for p in [Path::PlainMake, Path::LightTrial, Path::PinShortcut, Path::Count, Path::MaskMoves, Path::BulkCount] {
            assert!(!paths.allows(p), "{name}: {p:?} is on");
        }
        let mut pos = Position::start(rules);
        let (mut fast, mut walk) = (Vec::new(), Vec::new());
        pos.legal_moves(&mut fast);
        pos.legal_moves_by_walk(&mut walk);
        fast.sort_by_key(|m| pos.long_notation(*m));
        walk.sort_by_key(|m| pos.long_notation(*m));
        assert_eq!(fast, walk, "{name}");
    }
}

/// Petrified: a rook that captures becomes a wall, so the file it stood on is blocked; the
/// king never captures, so kings may stand side by side.
#[test]
fn petrified_rooks_block_lines() {
    let rules = common::rules("petrified.var");
    let mut pos = Position::from_position_string(rules, "4k3/8/8/8/8/8/r7/R3K3 w - - 0 1").expect("position");
    play(&mut pos, "a1a2");
    assert!(!pos.has_square(cell(&pos, "a2")));
    assert_eq!(pos.to_position_string().split(' ').next(), Some("4k3/8/8/8/8/8/*7/4K3"));
    let mut kings = Position::from_position_string(pos.rules().clone(), "8/8/8/8/8/3k4/8/3K4 w - - 0 1").unwrap();
    assert!(common::legal(&mut kings).contains(&"Kd1-d2".to_string()), "the black king gives no check");
}

/// Two moves that differ only in their wall are two moves: the list holds each walled form
/// once, and none equals another (the move's equality compares the wall too).
#[test]
fn moves_that_differ_only_in_their_wall_are_unequal() {
    let mut pos = Position::start(example());
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let walled: Vec<_> = moves.iter().filter(|m| m.wall != 0).collect();
    let mut pairs = 0;
    for (i, a) in walled.iter().enumerate() {
        for b in &walled[i + 1..] {
            assert_ne!(a, b, "two listed moves compare equal");
            if (a.from, a.to) == (b.from, b.to) {
                pairs += 1;
            }
        }
    }
    assert!(pairs > 0, "the example's start has a move with two walls");
}
