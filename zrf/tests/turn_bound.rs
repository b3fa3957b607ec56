//! A turn of partial moves has a bound (`limits::TURN_PARTS` actions): a man that may hop to
//! and fro for ever hands the turn over after the last action the bound allows, the count of
//! actions is in the position string, and perft, the search and a game of six hopping players
//! come to an end.
use std::sync::Arc;
use std::time::{Duration, Instant};

use varia_interpreter::limits::TURN_PARTS;
use varia_interpreter::{perft, perft_turns, Limits, Position, Rules, Searcher, MAX_TURN_ACTIONS};

/// A strip of `cells` cells (directions `e`, `w`, read alike by every player): a man hops over
/// any piece next to it onto the empty cell beyond, capturing nothing, and goes on hopping.
/// `options` adds game options, `steps` other moves; `setup` gives each player's men.
fn hopping(players: &[&str], cells: &str, options: &str, steps: &str, setup: &str) -> String {
    let players = players.join(" ");
    format!(
        r#"(game (title "t") (players {players}) (turn-order {players}) {options}
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("{cells}" (10 0)) ("1" (0 10)))
    (directions (e 1 0) (w -1 0))))
  (piece (name Man) (moves
    (e (verify not-empty?) e (verify empty?) add-partial)
    (w (verify not-empty?) w (verify empty?) add-partial) {steps}))
  (board-setup {setup}))"#
    )
}

/// White's man on a1 may only hop over Black's on b1 to c1 and back, for ever.
fn to_and_fro(options: &str) -> String {
    hopping(&["White", "Black"], "a/b/c/d/e", options, "", "(White (Man a1)) (Black (Man b1 e1))")
}

fn start(text: &str) -> Position {
    let game = varia_zrf::load(text, None).unwrap_or_else(|e| panic!("{}\n{text}", e.render(text)));
    Position::start(Arc::new(Rules::new(game.variant)))
}

fn legal(pos: &mut Position) -> Vec<String> {
    let mut out = Vec::new();
    pos.legal_moves(&mut out);
    out.iter().map(|m| pos.long_notation(*m)).collect()
}

/// Makes the only legal move (a hop), `n` times.
fn hop(pos: &mut Position, n: u8) {
    for _ in 0..n {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        assert_eq!(moves.len(), 1, "{:?} at {}", legal(pos), pos.to_position_string());
        pos.make(moves[0]);
    }
}

#[test]
fn a_turn_of_partial_moves_ends_after_its_last_allowed_action() {
    let mut pos = start(&to_and_fro(""));
    hop(&mut pos, TURN_PARTS - 1);
    // 31 hops: the man stands on c1 and may still go on, with White to move.
    assert_eq!(pos.side_to_move().0, 0);
    assert_eq!(pos.turn_parts(), TURN_PARTS - 1);
    assert_eq!(legal(&mut pos), ["Mc1-a1"]);
    // The 32nd ends the turn, though the man could hop on: Black moves (and cannot).
    hop(&mut pos, 1);
    assert_eq!((pos.partial_move(), pos.turn_parts(), pos.side_to_move().0), (None, 0, 1));
    assert!(legal(&mut pos).is_empty());
    // Unmade, the turn is under way again.
    pos.unmake();
    assert_eq!((pos.turn_parts(), pos.side_to_move().0), (TURN_PARTS - 1, 0));
}

#[test]
fn perft_follows_the_turn_to_its_end() {
    // The turn is the 32 hops, then Black has no move: one line of 32 plies.
    let mut pos = start(&to_and_fro(""));
    assert_eq!(perft(&mut pos, u32::from(TURN_PARTS)), 1);
    assert_eq!(perft(&mut pos, u32::from(TURN_PARTS) + 1), 0);
    // Whole turns of more than `MAX_TURN_ACTIONS` actions are too many to count where a piece
    // may wander: perft --turns refuses them, naming the position.
    let err = perft_turns(&mut pos, 1).expect_err("refused");
    assert!(err.to_string().contains(&format!("past {MAX_TURN_ACTIONS} actions")), "{err}");
}

#[test]
fn the_actions_of_the_turn_are_in_the_position_string() {
    let mut pos = start(&to_and_fro(""));
    hop(&mut pos, 5);
    let fen = pos.to_position_string();
    assert!(fen.ends_with(" partial=c1 parts=5"), "{fen}");
    let rules = pos.rules().clone();
    let mut back = Position::from_position_string(rules.clone(), &fen).expect("reads back");
    assert_eq!((back.to_position_string(), back.hash()), (fen.clone(), pos.hash()));
    // The same hop later in the turn is another position: fewer actions are left.
    let later = Position::from_position_string(rules.clone(), &fen.replace("parts=5", "parts=7")).expect("reads");
    assert_ne!(later.hash(), pos.hash());
    // Read back, the turn ends where it would have in play.
    hop(&mut back, TURN_PARTS - 5);
    assert_eq!((back.partial_move(), back.side_to_move().0), (None, 1));
    // Without `parts=` (position strings written before it), the piece has made one action.
    let old = Position::from_position_string(rules.clone(), &fen.replace(" parts=5", "")).expect("reads");
    assert_eq!(old.turn_parts(), 1);
}

#[test]
fn a_wrong_count_of_actions_is_a_located_error() {
    let mut pos = start(&to_and_fro(""));
    hop(&mut pos, 1);
    let fen = pos.to_position_string();
    let rules = pos.rules().clone();
    let expected = "expected the actions of the turn so far, 1 to 31 (a turn has at most 32), found";
    for bad in ["0", "32", "x", "-1", "999999999999"] {
        let text = fen.replace("parts=1", &format!("parts={bad}"));
        let e = Position::from_position_string(rules.clone(), &text).unwrap_err();
        assert_eq!((e.offset, e.message.clone()), (text.rfind(bad).unwrap(), format!("{expected} `{bad}`")));
    }
    let text = fen.replace(" partial=c1 parts=1", " parts=1");
    let e = Position::from_position_string(rules, &text).unwrap_err();
    assert_eq!(e.offset, text.find("parts=").unwrap());
    assert!(e.message.contains("follows `partial=`"), "{}", e.message);
}

#[test]
fn the_search_of_a_turn_that_could_go_on_for_ever_ends() {
    let mut pos = start(&to_and_fro(r#"(option "pass partial" true)"#));
    let mut searcher = Searcher::new(pos.rules(), 4);
    let began = Instant::now();
    let info = searcher.search(&mut pos, Limits { depth: Some(1), ..Limits::default() }, |_| {});
    assert!(!info.pv.is_empty());
    assert!(began.elapsed() < Duration::from_secs(10), "{:?}", began.elapsed());
}

#[test]
fn six_hopping_players_play_on_turn_after_turn() {
    // Six players' men in pairs on a strip of 13: a man can hop over its neighbour and back,
    // so a turn would never end without the bound; a man may also step to an empty cell.
    let players = ["P1", "P2", "P3", "P4", "P5", "P6"];
    let setup = "(P1 (Man b1)) (P2 (Man c1)) (P3 (Man e1)) (P4 (Man f1)) (P5 (Man h1)) (P6 (Man i1))";
    let steps = "(e (verify empty?) add) (w (verify empty?) add)";
    let text = hopping(&players, "a/b/c/d/e/f/g/h/i/j/k/l/m", "", steps, setup);
    let mut pos = start(&text);
    let mut searcher = Searcher::new(pos.rules(), 4);
    let began = Instant::now();
    let mut turns = 0;
    let mut actions = 0;
    while turns < 12 && pos.outcome().is_none() {
        let mover = pos.side_to_move();
        let limits = Limits { depth: Some(1), nodes: Some(20_000), ..Limits::default() };
        let info = searcher.search(&mut pos, limits, |_| {});
        let Some(&mv) = info.pv.first() else { break };
        pos.make(mv);
        actions += 1;
        assert!(actions <= 12 * u32::from(TURN_PARTS), "a turn went on past the bound");
        if pos.side_to_move() != mover {
            turns += 1;
        }
    }
    assert_eq!(turns, 12, "{}", pos.to_position_string());
    assert!(began.elapsed() < Duration::from_secs(60), "{:?}", began.elapsed());
}

#[test]
fn the_search_does_not_follow_a_man_back_where_it_was_in_the_turn() {
    // A man back on a cell it went on from earlier in the turn stands where every turn from
    // there was already open: a1-c1 and c1-a1 are new (the turn began with no man going on),
    // the next a1-c1 repeats the first.
    let mut pos = start(&to_and_fro(r#"(option "pass partial" true)"#));
    let hop_on = |pos: &mut Position| {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mv = *moves.iter().find(|m| pos.long_notation(**m).contains(",then")).expect("a hop");
        pos.make(mv);
    };
    hop_on(&mut pos);
    assert!(!pos.repeats_in_turn());
    hop_on(&mut pos);
    assert!(!pos.repeats_in_turn());
    hop_on(&mut pos);
    assert!(pos.repeats_in_turn(), "{}", pos.to_position_string());
    // The search of such turns is then a handful of nodes.
    let mut pos = start(&to_and_fro(r#"(option "pass partial" true)"#));
    let mut searcher = Searcher::new(pos.rules(), 4);
    let info = searcher.search(&mut pos, Limits { depth: Some(2), ..Limits::default() }, |_| {});
    assert!(!info.pv.is_empty());
    assert!(info.nodes < 1000, "{} nodes", info.nodes);
}
