//! Partial moves (`add-partial`): a piece that goes on moving in the same turn. Each test is
//! a regression of a defect found in play; the perft counts are counted by hand from the rules
//! written in the test.
use std::sync::Arc;

use varia_interpreter::{divide_threads, divide_turns, perft, perft_threads, perft_turns, Position, Rules};

/// A 9x1 strip a1..i1 (directions `e`, `w`, read alike by both players): a White man on c1,
/// Black men on b1, d1, f1. A man jumps an enemy next to it onto the empty cell beyond
/// (capturing it, and going on moving), and `plain` adds its other moves.
fn strip(plain: &str) -> String {
    format!(
        r#"(game (title "t") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c/d/e/f/g/h/i" (10 0)) ("1" (0 10)))
    (directions (e 1 0) (w -1 0))))
  (piece (name Man) (moves
    (w (verify enemy?) capture w (verify empty?) add-partial)
    (e (verify enemy?) capture e (verify empty?) add-partial)
    {plain}))
  (board-setup (White (Man c1)) (Black (Man b1 d1 f1))))"#
    )
}

/// The strip where a man also steps to an empty neighbour (a move that ends the turn).
fn strip_with_steps() -> String {
    strip("(e (verify empty?) add) (w (verify empty?) add)")
}

fn start(text: &str) -> Position {
    let game = varia_zrf::load(text, None).unwrap_or_else(|e| panic!("{}\n{text}", e.render(text)));
    Position::start(Arc::new(Rules::new(game.variant)))
}

fn play(pos: &mut Position, moves: &str) {
    for m in moves.split_whitespace() {
        let mv = pos.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e:?}"));
        pos.make(mv);
    }
}

fn legal(pos: &mut Position) -> Vec<String> {
    let mut out = Vec::new();
    pos.legal_moves(&mut out);
    out.iter().map(|m| pos.long_notation(*m)).collect()
}

#[test]
fn a_step_that_continues_a_partial_move_ends_the_turn() {
    let mut pos = start(&strip_with_steps());
    // c1xa1 takes b1; the man can jump no more, but may go on with a step east to b1.
    play(&mut pos, "Mc1xa1xb1,then");
    assert_eq!(pos.partial_move().map(|c| pos.rules().cell_name(c).to_string()).as_deref(), Some("a1"));
    assert_eq!(legal(&mut pos), ["Ma1-b1"]);
    // The step is the turn's last action: Black moves, no partial move left over.
    play(&mut pos, "Ma1-b1");
    assert_eq!(pos.partial_move(), None);
    assert_eq!(pos.side_to_move().0, 1);
    assert!(!pos.to_position_string().contains("partial="), "{}", pos.to_position_string());
    assert_eq!(legal(&mut pos), ["Md1-e1", "Md1-c1", "Mf1-g1", "Mf1-e1"]);
    assert!(pos.outcome().is_none());
}

#[test]
fn whole_turns_with_steps_after_jumps_counted_by_hand() {
    let mut pos = start(&strip_with_steps());
    // White's turns (a continuation is compulsory while there is one):
    //   c1xa1, a1-b1;  c1xe1, e1-d1;  c1xe1, e1xg1, g1-h1;  c1xe1, e1xg1, g1-f1.
    assert_eq!(perft_turns(&mut pos, 1).expect("turns end"), 4);
    // Black's answers (only steps: no Black man stands next to the White one with an empty
    // cell beyond): with d1 and f1 left, 2 + 2; with b1 and f1, 2 + 2; with b1 alone, 2 (twice).
    assert_eq!(perft_turns(&mut pos, 2).expect("turns end"), 4 + 4 + 2 + 2);
    // In single actions: c1xa1, c1xe1; then a1-b1 / e1xg1, e1-d1.
    assert_eq!(perft(&mut pos, 1), 2);
    assert_eq!(perft(&mut pos, 2), 3);
}

#[test]
fn threaded_perft_ends_a_turn_where_the_serial_one_does() {
    // Without steps: c1xa1 ends White's turn (nothing to jump), c1xe1 goes on with e1xg1.
    // After either turn Black has no jump and no other move: no whole turn at depth 2 (the
    // partial c1xe1 alone is not a turn).
    let text = strip("");
    let mut pos = start(&text);
    assert_eq!(perft_turns(&mut pos, 1).expect("turns end"), 2);
    assert_eq!(perft_turns(&mut pos, 2).expect("turns end"), 0);
    for (text, depth) in [(text, 2), (strip_with_steps(), 3)] {
        let mut pos = start(&text);
        for turns in [false, true] {
            let serial = if turns { perft_turns(&mut pos, depth).expect("turns end") } else { perft(&mut pos, depth) };
            assert_eq!(perft_threads(&mut pos, depth, turns, 2).expect("turns end"), serial, "turns {turns}");
        }
        let split = |d: Vec<(varia_interpreter::Move, u64)>| d.into_iter().map(|(_, n)| n).collect::<Vec<_>>();
        assert_eq!(
            split(divide_threads(&mut pos, depth, true, 2).expect("turns end")),
            split(divide_turns(&mut pos, depth).expect("turns end"))
        );
    }
}

/// A flying king on the strip (White, on c1) and Black men that step: the king jumps over an
/// enemy (any distance away) onto the cell beyond and, with moves of `continue-type`, goes on
/// jumping, but may not pass back over the cell its last jump started from (as
/// armenian-tama.zrf's king: `(verify not-last-from?)` while it slides).
fn flying_king() -> String {
    let jump = |d: &str| {
        format!("({d} (while empty? {d}) (verify enemy?) capture {d} (verify empty?) (add-partial continue-type))")
    };
    let go_on = |d: &str| {
        format!("({d} (while empty? {d} (verify not-last-from?)) (verify enemy?) capture {d} (verify empty?) (add-partial continue-type))")
    };
    format!(
        r#"(game (title "t") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c/d/e/f/g/h/i" (10 0)) ("1" (0 10)))
    (directions (e 1 0) (w -1 0))))
  (piece (name King) (moves (move-type jump-type) {} {} (move-type continue-type) {} {}))
  (piece (name Man) (moves (e (verify empty?) add) (w (verify empty?) add)))
  (board-setup (White (King c1)) (Black (Man b1 d1 f1))))"#,
        jump("e"),
        jump("w"),
        go_on("e"),
        go_on("w")
    )
}

#[test]
fn a_chain_that_cannot_go_on_ends_the_turn() {
    let text = flying_king();
    let mut pos = start(&text);
    // Kc1xa1 takes b1; from a1 the king could only jump d1 by passing back over c1, where
    // its jump started: the chain ends and Black moves.
    play(&mut pos, "Kc1xa1xb1");
    assert_eq!(pos.partial_move(), None, "{}", pos.to_position_string());
    assert_eq!(pos.side_to_move().0, 1);
    assert_eq!(legal(&mut pos), ["Md1-e1", "Md1-c1", "Mf1-g1", "Mf1-e1"]);
    // Counted by hand: White's turns are Kc1xa1 and Kc1xe1 then Ke1xg1 (the jump back over
    // c1 to take b1 is barred); Black answers with 4 steps (d1, f1 left) or 2 (b1 left).
    let mut pos = start(&text);
    assert_eq!(perft_turns(&mut pos, 1).expect("turns end"), 2);
    assert_eq!(perft_turns(&mut pos, 2).expect("turns end"), 4 + 2);
    // In single actions: Kc1xa1, Kc1xe1; then Black's 4 steps, or Ke1xg1.
    assert_eq!(perft(&mut pos, 2), 4 + 1);
}

#[test]
fn the_position_string_in_the_middle_of_a_chain_keeps_where_the_last_jump_started() {
    let text = flying_king();
    let mut pos = start(&text);
    play(&mut pos, "Kc1xe1xd1");
    // Going on from e1: east over f1; west would pass back over c1.
    assert_eq!(legal(&mut pos), ["Ke1xg1xf1,then:continue-type"]);
    let fen = pos.to_position_string();
    assert!(fen.ends_with(" last=c1-e1 partial=e1:continue-type parts=1"), "{fen}");
    let mut back = Position::from_position_string(pos.rules().clone(), &fen).expect("reads back");
    assert_eq!(back.to_position_string(), fen);
    assert_eq!(back.hash(), pos.hash());
    assert_eq!(legal(&mut back), ["Ke1xg1xf1,then:continue-type"]);
    // The same board and piece going on, after a jump from elsewhere, is another position.
    let other = fen.replace("last=c1-e1", "last=a1-e1");
    let mut other = Position::from_position_string(pos.rules().clone(), &other).expect("reads");
    assert_ne!(other.hash(), pos.hash());
    assert_eq!(legal(&mut other), ["Ke1xg1xf1,then:continue-type", "Ke1xa1xb1,then:continue-type"]);
    // So is the piece going on with any move rather than one type.
    let any = Position::from_position_string(pos.rules().clone(), &fen.replace(":continue-type", "")).expect("reads");
    assert_ne!(any.hash(), pos.hash());
    // Made on from the string, the chain ends as in play.
    play(&mut back, "Ke1xg1xf1");
    assert_eq!((back.partial_move(), back.side_to_move().0), (None, 1));
    assert_eq!(legal(&mut back), ["Mb1-c1", "Mb1-a1"]);
}

/// A 3x3 board (Black reads `n` as `s`): a man steps north onto an empty cell and then, with
/// a move of `continue-type`, must step east if it can; a step east alone is also a turn.
fn two_part() -> String {
    r#"(game (title "t") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c" (10 0)) ("3/2/1" (0 10)))
    (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0)))
    (symmetry Black (n s) (s n)))
  (piece (name Man) (moves
    (move-type normal-type)
    (n (verify empty?) (add-partial continue-type))
    (move-type continue-type)
    (e (verify empty?) add)))
  (board-setup (White (Man a1)) (Black (Man c3))))"#
        .to_string()
}

#[test]
fn the_second_part_of_a_two_part_move_hands_the_turn_over() {
    let text = two_part();
    let mut pos = start(&text);
    play(&mut pos, "Ma1-a2");
    assert_eq!(legal(&mut pos), ["Ma2-b2"]);
    play(&mut pos, "Ma2-b2");
    let fen = pos.to_position_string();
    assert!(!fen.contains("partial="), "{fen}");
    assert_eq!(legal(&mut pos), ["Mc3-c2,then:continue-type"]);
    // Counted by hand. White: a1-a2 then a2-b2, or a1-b1. Black's man on c3 steps to c2
    // (nothing east of it: the turn ends there). White then: from b2, b2-b3 then b3-c3; from
    // b1, b1-b2 (c2 is taken: the turn ends) or b1-c1.
    let mut pos = start(&text);
    let turns: Vec<u64> = (1..=3).map(|d| perft_turns(&mut pos, d).expect("turns end")).collect();
    assert_eq!(turns, [2, 2, 1 + 2]);
    // In single actions: a1-a2, a1-b1; a2-b2, c3-c2; c3-c2, then b1-b2 or b1-c1; then b2-b3,
    // c2-c1 (after b1-b2) and nothing after b1-c1.
    let plies: Vec<u64> = (1..=4).map(|d| perft(&mut pos, d)).collect();
    assert_eq!(plies, [2, 2, 1 + 2, 1 + 1]);
}

/// Three players on a 4x4 board (all read the directions alike): the two-part move of
/// [`two_part`], and a player with a Man on c2 has lost (and is out).
fn three_players() -> String {
    r#"(game (title "t") (players White Red Black) (turn-order White Red Black)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c/d" (10 0)) ("4/3/2/1" (0 10)))
    (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0))))
  (piece (name Man) (moves
    (move-type normal-type)
    (n (verify empty?) (add-partial continue-type))
    (move-type continue-type)
    (e (verify empty?) add)))
  (board-setup (White (Man a1 c1)) (Red (Man a2 b3)) (Black (Man b1 d1)))
  (loss-condition (White Red Black) (absolute-config Man (c2))))"#
        .to_string()
}

#[test]
fn a_player_out_in_the_middle_of_a_partial_move_leaves_the_next_one_free() {
    let text = three_players();
    let mut pos = start(&text);
    // White's only move, c1-c2, loses: White is out and Red moves its own pieces.
    assert_eq!(legal(&mut pos), ["Mc1-c2,then:continue-type"]);
    play(&mut pos, "Mc1-c2");
    let fen = pos.to_position_string();
    assert!(fen.ends_with(" r - - 1 1 out=w"), "{fen}");
    assert_eq!(legal(&mut pos), ["Ma2-b2", "Ma2-a3,then:continue-type", "Mb3-c3", "Mb3-b4,then:continue-type"]);
    // Counted by hand. Red's turns: a2-b2; a2-a3 (b3 blocks the step east); b3-c3; b3-b4
    // then b4-c4. Black's answers: after a2-b2, b1-c1 and d1-d2 (b2 taken); otherwise
    // b1-b2 (c2 blocks the step east), b1-c1 and d1-d2 (the edge ends it).
    let mut pos = start(&text);
    let turns: Vec<u64> = (1..=3).map(|d| perft_turns(&mut pos, d).expect("turns end")).collect();
    assert_eq!(turns, [1, 4, 2 + 3 + 3 + 3]);
    // In single actions the third ply holds b4-c4 once instead of Black's 3.
    assert_eq!(perft(&mut pos, 3), 2 + 3 + 3 + 1);
}

#[test]
fn an_armenian_tama_kings_chain_that_cannot_go_on_ends_the_turn() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/zrf-corpus/checkers/armenian-tama.zrf");
    let Ok((_, game)) = varia_zrf::load_file(&path, None) else {
        println!("skipping: no {}", path.display());
        return;
    };
    let mut pos = Position::start(Arc::new(Rules::new(game.variant)));
    // A random game (the men, the type the setup has most of and which promotes, are written
    // without their letter): White's new king takes d5 and d7, then c5, then b4, landing on b3; its
    // only way on would pass back over b5, where that jump started. Black moves next.
    play(
        &mut pos,
        "f3-g4 d6-c5 f2-f3 c5-b4 b3xb5xb4 b6xb4xb5 g3-h4 f6-e5 g2-g3 g6-g5 g4xg6xg5 \
         g6xg8=Kxg7 c6-c5 Kg8-d8 e5-f4 Kd8xd5xd7 Kd5xb5xc5 Kb5xb3xb4",
    );
    assert_eq!(pos.partial_move(), None, "{}", pos.to_position_string());
    assert_eq!(pos.side_to_move().0, 1);
    assert!(!legal(&mut pos).is_empty());
    assert!(pos.outcome().is_none());
}

#[test]
fn a_malformed_last_move_is_a_located_error() {
    let pos = start(&flying_king());
    let rules = pos.rules().clone();
    let good = "1m1m1m3 w - - 0 1 last=c1-e1";
    assert!(Position::from_position_string(rules.clone(), good).is_ok());
    for (bad, at, message) in [
        ("1m1m1m3 w - - 0 1 last=c1-z9", "z9", "expected a cell name, found `z9`"),
        ("1m1m1m3 w - - 0 1 last=@z9", "z9", "expected a cell name, found `z9`"),
        ("1m1m1m3 w - - 0 1 last=c1", "c1", "expected `FROM-TO` or `@TO`, found `c1`"),
    ] {
        let e = Position::from_position_string(rules.clone(), bad).unwrap_err();
        assert_eq!((e.offset, e.message.as_str()), (bad.rfind(at).unwrap(), message), "{bad}");
    }
}

#[test]
fn a_drop_is_written_as_the_last_move_with_an_at_sign() {
    // A stone may not be dropped west of the last stone dropped (the drop reads `last-to`).
    let text = r#"(game (title "t") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c/d" (10 0)) ("1" (0 10)))
    (directions (e 1 0) (w -1 0))))
  (piece (name Stone) (drops ((verify empty?) (verify (not-last-to? e)) add)))
  (board-setup (White (Stone off 2)) (Black (Stone off 2))))"#;
    let mut pos = start(text);
    play(&mut pos, "S@c1");
    let fen = pos.to_position_string();
    assert!(fen.ends_with(" last=@c1"), "{fen}");
    assert_eq!(legal(&mut pos), ["S@a1", "S@d1"]);
    let mut back = Position::from_position_string(pos.rules().clone(), &fen).expect("reads back");
    assert_eq!((back.to_position_string(), back.hash()), (fen, pos.hash()));
    assert_eq!(legal(&mut back), ["S@a1", "S@d1"]);
}
