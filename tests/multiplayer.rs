//! Games of more than two players, written in `.var`: turns in player order, position strings
//! with a prefix per player, the result of a loss, and the paranoid search.
use std::sync::Arc;

use varia_interpreter::{GameResult, Limits, Position, Rules, Searcher};

/// Three players on a 4x4 board, each with one wazir-stepping Man; a player left without a
/// piece loses.
const THREE: &str = r#"variant "Three men"
board { grid 4 x 4 }
player white
player black swap n <-> s
player red
piece Man M { step orthogonal }
setup {
  white: M a1
  black: M d4
  red: M a4
}
end {
  goal white black red loss: pieces-remaining 0
}
"#;

fn start(text: &str) -> Position {
    let v = varia_grammar::load(text).unwrap_or_else(|e| panic!("{e:?}"));
    Position::start(Arc::new(Rules::new(v)))
}

fn play(pos: &mut Position, moves: &[&str]) {
    for m in moves {
        let mv = pos.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e:?}"));
        pos.make(mv);
    }
}

#[test]
fn position_strings_write_each_players_pieces_with_its_prefix() {
    let pos = start(THREE);
    let text = pos.to_position_string();
    assert!(text.starts_with("rM2bM/4/4/wM3 w "), "{text}");
    let back = Position::from_position_string(pos.rules().clone(), &text).expect("reads back");
    assert_eq!(back.to_position_string(), text);
    assert_eq!(back.hash(), pos.hash());
}

#[test]
fn a_bad_prefix_is_a_located_error() {
    let pos = start(THREE);
    let e = Position::from_position_string(pos.rules().clone(), "xM3/4/4/4 w - - 0 1").unwrap_err();
    assert_eq!(e.offset, 0, "{e:?}");
    // Without a prefix, a letter names no player's piece.
    assert!(Position::from_position_string(pos.rules().clone(), "M3/4/4/4 w - - 0 1").is_err());
}

#[test]
fn turns_go_round_the_players_in_order() {
    let mut pos = start(THREE);
    let names = |p: &Position| p.rules().variant.players[p.side_to_move().0 as usize].name.clone();
    assert_eq!(names(&pos), "white");
    play(&mut pos, &["Ma1-a2"]);
    assert_eq!(names(&pos), "black");
    play(&mut pos, &["Md4-d3"]);
    assert_eq!(names(&pos), "red");
    play(&mut pos, &["Ma4-b4"]);
    assert_eq!(names(&pos), "white");
    let text = pos.to_position_string();
    assert!(text.contains(" w "), "{text}");
    let back = Position::from_position_string(pos.rules().clone(), &text).expect("reads back");
    assert_eq!(back.to_position_string(), text);
}

#[test]
fn a_player_who_loses_is_out_and_the_last_one_in_wins() {
    // White takes red's Man: red has no piece left and is out; the game goes on between white
    // and black, red's turns passed over.
    let mut pos = start(THREE);
    play(&mut pos, &["Ma1-a2", "Md4-d3", "Ma4-b4", "Ma2-a3", "Md3-c3", "Mb4-a4"]);
    assert!(pos.outcome().is_none());
    play(&mut pos, &["Ma3xa4"]);
    let red = varia_interpreter::ir::PlayerId(2);
    assert!(pos.is_out(red));
    assert_eq!(pos.outcome(), None);
    assert_eq!(pos.side_to_move(), varia_interpreter::ir::PlayerId(1));
    play(&mut pos, &["Mc3-b3"]);
    assert_eq!(pos.side_to_move(), varia_interpreter::ir::PlayerId(0), "red's turn is passed over");
    // The position string says who is out, and reads back to the same position.
    let text = pos.to_position_string();
    assert!(text.ends_with(" out=r"), "{text}");
    let back = Position::from_position_string(pos.rules().clone(), &text).expect("reads back");
    assert_eq!(back.to_position_string(), text);
    assert_eq!(back.hash(), pos.hash());
    // White takes black's Man too: white is the last one in and wins.
    let mut pos = Position::from_position_string(pos.rules().clone(), "4/4/wMbM2/4 w - - 0 9 out=r").expect("valid");
    play(&mut pos, &["Ma2xb2"]);
    assert_eq!(
        pos.outcome(),
        Some((GameResult::Win(varia_interpreter::ir::PlayerId(0)), varia_interpreter::EndReason::LastStanding))
    );
    // Taking the moves back brings the players in again.
    pos.unmake();
    assert!(!pos.is_out(varia_interpreter::ir::PlayerId(1)));
    assert!(pos.is_out(red));
}

#[test]
fn a_player_without_a_move_who_would_lose_resigns_and_is_out() {
    // With stalemate lost, black (to move, with only a Wall, which has no move) has only
    // `end`, which puts it out; white and red play on.
    let text = THREE
        .replace("end {\n", "end {\n  stalemate loss\n")
        .replace("piece Man M { step orthogonal }", "piece Man M { step orthogonal }\npiece Wall W { }");
    let pos = start(&text);
    let mut pos = Position::from_position_string(pos.rules().clone(), "3bW/4/rM3/wM3 b - - 0 1").expect("valid");
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let listed: Vec<String> = moves.iter().map(|m| pos.long_notation(*m)).collect();
    assert_eq!(listed, ["end"]);
    play(&mut pos, &["end"]);
    assert!(pos.is_out(varia_interpreter::ir::PlayerId(1)));
    assert_eq!(pos.outcome(), None);
    assert_eq!(pos.side_to_move(), varia_interpreter::ir::PlayerId(2));
}

#[test]
fn the_search_takes_for_the_player_at_the_root_against_all_others() {
    // White to move can take red's last piece (and win at once).
    let pos = start(THREE);
    let mut pos = Position::from_position_string(pos.rules().clone(), "4/4/rM3/wM1bM1 w - - 0 1").expect("valid");
    let mut searcher = Searcher::new(pos.rules(), 4);
    let info = searcher.search(&mut pos, Limits { depth: Some(3), ..Limits::default() }, |_| {});
    let best = info.best().expect("a move");
    assert_eq!(pos.long_notation(best), "Ma1xa2");
}

/// Writes the variant to a file of its own (per test) and returns its path.
fn written(text: &str, name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("varia-multiplayer-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("three.var");
    std::fs::write(&path, text).expect("write");
    path
}

fn varia(args: &[&str], file_text: &str) -> std::process::Output {
    let path = written(file_text, args[0]);
    let mut all: Vec<&str> = args.to_vec();
    let p = path.to_string_lossy().to_string();
    all.insert(1, &p);
    std::process::Command::new(env!("CARGO_BIN_EXE_varia")).args(&all).output().expect("runs")
}

#[test]
fn show_names_the_prefixes_and_uci_refuses() {
    let out = varia(&["show"], THREE);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("rM .  .  bM"), "{text}");
    assert!(text.contains("players: w white, b black, r red"), "{text}");
    let out = varia(&["uci"], THREE);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("UCI plays games of two players; this game has 3"));
}

#[test]
fn the_computer_plays_the_third_player_in_the_terminal() {
    let path = written(THREE, "play");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_varia"))
        .args(["play", &path.to_string_lossy(), "--black", "ai", "--others", "ai", "--depth", "1"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    use std::io::Write;
    child.stdin.take().expect("stdin").write_all(b"Ma1-a2\nquit\n").expect("write");
    let out = child.wait_with_output().expect("ends");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("black plays"), "{text}");
    assert!(text.contains("red plays"), "{text}");
}

#[test]
fn shared_pieces_are_moved_by_every_player() {
    // With `shared-pieces`, white moves black's Man as well as its own (and may take with it).
    let text = THREE
        .replace("player red\n", "")
        .replace("  red: M a4\n", "")
        .replace("end {\n  goal white black red loss: pieces-remaining 0\n}\n", "shared-pieces\n");
    let mut pos = start(&text);
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut listed: Vec<String> = moves.iter().map(|m| pos.long_notation(*m)).collect();
    listed.sort();
    assert_eq!(listed, ["Ma1-a2", "Ma1-b1", "Md4-c4", "Md4-d3"]);
    play(&mut pos, &["Md4-d3"]);
    // The piece stays black's.
    assert!(pos.to_position_string().starts_with("4/3m/4/M3 b "), "{}", pos.to_position_string());
}

#[test]
fn the_search_stops_where_the_root_player_is_out() {
    // Black, to move, can be taken at once: past that, white and red (both against black) would
    // move in turn with no depth counted down. The search ends, and small.
    let pos = start(THREE);
    let mut pos = Position::from_position_string(pos.rules().clone(), "4/4/bMwM2/rM3 b - - 0 1").expect("valid");
    let mut searcher = Searcher::new(pos.rules(), 4);
    let info = searcher.search(&mut pos, Limits { depth: Some(4), ..Limits::default() }, |_| {});
    assert!(info.best().is_some());
    assert!(info.nodes < 100_000, "{} nodes", info.nodes);
}

/// White and black move, grey (left out of the turn order) is neutral; kings are royal.
fn with_neutral(setup: &str, end: &str) -> String {
    format!(
        r#"variant "Neutral rook"
board {{ grid 4 x 4 }}
player white
player black swap n <-> s
player grey
piece King K {{ royal step all }}
piece Rook R {{ slide orthogonal }}
turn-order {{ white black }}
setup {{ {setup} }}
end {{ {end} }}
"#
    )
}

#[test]
fn a_neutral_players_pieces_give_no_check() {
    // Grey's rook on b4 never moves: White's king on a1 may step onto the b-file (a2, b1,
    // b2); Black's on d4 to c4, c3 and d3, but not c3 beside White's king on b2: 3 + 3 + 2.
    let mut pos = start(&with_neutral("white: K a1  black: K d4  grey: R b4", ""));
    assert_eq!(varia_interpreter::perft(&mut pos, 1), 3);
    assert_eq!(varia_interpreter::perft(&mut pos, 2), 8);
}

#[test]
fn with_two_players_who_move_a_checkmate_ends_the_game() {
    // Black's rooks on a4 and b4 mate White's king on a1; grey is in no contest.
    let mut pos = start(&with_neutral("white: K a1  black: K d4, R a4, R b4  grey: R c1", ""));
    assert!(pos.in_check());
    assert_eq!(pos.outcome().map(|(r, _)| r), Some(GameResult::Win(varia_interpreter::ir::PlayerId(1))));
}

#[test]
fn points_leave_a_neutral_player_out() {
    // Grey has the most points but does not play: White, with a rook to Black's nothing, wins.
    let end = "goal white black points: to-move";
    let text = with_neutral("white: K a1, R c1  black: K d4  grey: R b3, R c3", end)
        .replace("piece Rook R {", "piece Rook R { points 5 ");
    let mut pos = start(&text);
    assert_eq!(pos.outcome().map(|(r, _)| r), Some(GameResult::Win(varia_interpreter::ir::PlayerId(0))));
}
