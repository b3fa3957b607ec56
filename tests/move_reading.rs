//! Reading one move costs about as much as listing the moves: in a Zillions game of 21,600 drops,
//! the protocols' move table (`moves --uci`, `--after`, UCI, XBoard) and the notation's reader
//! find a move in time proportional to the list, and every text read back is its own move's.

use std::sync::Arc;
use std::time::{Duration, Instant};

use varia_interpreter::{Position, Rules};

/// A 30x30 board (files a-z, aa-ad; ranks 1-30) and 25 piece types, each dropped anywhere
/// empty; P0 is given to nobody (`off 0`), so 24 types x 900 cells = 21,600 drops.
fn drops_game() -> Position {
    let files: Vec<String> =
        (b'a'..=b'z').map(|c| (c as char).to_string()).chain(["aa", "ab", "ac", "ad"].map(String::from)).collect();
    let ranks: Vec<String> = (1..=30).rev().map(|r| r.to_string()).collect();
    let pieces: String = (0..25).map(|i| format!("(piece (name P{i}) (drops ((verify empty?) add)))\n")).collect();
    let text = format!(
        r#"(game (title "drops") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("{}" (10 0)) ("{}" (0 10)))
    (directions (n 0 -1) (e 1 0))))
  {pieces}
  (board-setup (White (P0 off 0)) (Black (P0 off 0))))"#,
        files.join("/"),
        ranks.join("/")
    );
    let game = varia_zrf::load(&text, None).unwrap_or_else(|e| panic!("{}", e.render(&text)));
    Position::start(Arc::new(Rules::new(game.variant)))
}

/// The shortest of three timings of `f` (the machine is shared: the least disturbed run).
fn fastest(mut f: impl FnMut()) -> Duration {
    (0..3)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .expect("three runs")
}

#[test]
fn the_protocol_table_of_twenty_thousand_drops_is_built_and_read_in_linear_time() {
    let mut pos = drops_game();
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    assert_eq!(legal.len(), 21_600);
    let table = varia::uci::move_table(&mut pos);
    let mut texts: Vec<&str> = table.iter().map(|(_, t)| t.as_str()).collect();
    texts.sort_unstable();
    texts.dedup();
    assert_eq!(texts.len(), table.len(), "every drop has its own text");
    // A sample across the list reads back as its own move, through the table and the notation.
    for (mv, text) in table.iter().step_by(997) {
        assert_eq!(varia::uci::read_move(&mut pos, text).as_ref(), Ok(mv), "`{text}`");
        let long = pos.long_notation(*mv);
        assert_eq!(pos.parse_move(&long), Ok(*mv), "`{long}`");
    }
    let (mv, text) = table[table.len() * 2 / 3].clone();
    let listing = fastest(|| {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        for m in &moves {
            std::hint::black_box(pos.long_notation(*m));
        }
    });
    let reading = fastest(|| assert_eq!(varia::uci::read_move(&mut pos, &text), Ok(mv)));
    let parsing = fastest(|| assert_eq!(pos.parse_move(&text), Ok(mv)));
    eprintln!("listing {listing:?}, reading through the table {reading:?}, through the notation {parsing:?}");
    // Counting each text against every other (quadratic) took about 1,000 listings; a linear
    // table takes a few. The bound leaves room for a loaded machine.
    for (what, took) in [("the table", reading), ("the notation", parsing)] {
        assert!(
            took < listing * 20 + Duration::from_millis(20),
            "reading `{text}` through {what} took {took:?}, listing the moves with their texts {listing:?}"
        );
    }
}
