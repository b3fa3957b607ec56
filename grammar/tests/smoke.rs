use std::sync::Arc;
use varia_interpreter::{perft, Position, Rules};

#[test]
fn chess_perft_3() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../variants/chess.var")).unwrap();
    let v = match varia_grammar::load(&text) { Ok(v) => v, Err(e) => panic!("{e:?}") };
    let rules = Arc::new(Rules::new(v));
    let mut pos = Position::start(rules);
    println!("{}", pos.to_position_string());
    for d in 1..=4 { println!("{d} {}", perft(&mut pos, d)); }
}
