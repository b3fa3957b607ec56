//! Golden tests of the `varia` command line that play, search and serve: perft by turns,
//! `analyse`, `selfplay`, `uci` and `serve`, run through the built binary from the workspace
//! root. The other commands are in tests/cli.rs.

#[path = "cli/helpers.rs"]
mod helpers;

use helpers::*;

#[test]
fn perft_counts_turns_on_request() {
    assert_eq!(ok(&["perft", "variants/infinite-reserves.var", "2"]).trim(), "nodes 756");
    assert_eq!(ok(&["perft", "variants/infinite-reserves.var", "2", "--turns"]).trim(), "nodes 2976");
}

#[test]
fn analyse_finds_a_mate_and_prints_each_depth() {
    let out =
        ok(&["analyse", "variants/chess.var", "--position", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "--depth", "3"]);
    assert!(out.contains("depth  1  score white mates in 1 ply"), "{out}");
    assert!(out.contains("best move: Rd1-d8 (score white mates in 1 ply)"), "{out}");
    let out = ok(&["analyse", "variants/chess.var", "--depth", "3"]);
    assert_eq!(out.lines().filter(|l| l.starts_with("depth ")).count(), 3, "{out}");
    // The Monte Carlo search is gone (docs/play.md: it lost every measured match).
    // clap refuses the options it no longer knows (exit code 2).
    let run = varia(&["analyse", "variants/chess.var", "--engine", "mcts", "--depth", "1"]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("unexpected argument '--engine'"), "{}", run.stderr);
    let run = varia(&["play", "variants/chess.var", "--white", "mcts"]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("[possible values: human, ai]"), "{}", run.stderr);
    let err = fails(&["match", "variants/chess.var", "--games", "2", "--first", "engine=mcts", "--second", "depth=1"]);
    assert!(err.contains("the Monte Carlo tree search was removed"), "{err}");
    let err = fails(&["analyse", "variants/chess.var", "--time=-1"]);
    assert!(err.contains("--time must be a number of seconds above 0"), "{err}");
}

#[test]
fn selfplay_reports_results_endings_and_lengths_and_saves_replayable_games() {
    let dir = std::env::temp_dir().join(format!("varia-selfplay-{}", std::process::id()));
    let d = dir.to_string_lossy().into_owned();
    let run =
        varia(&["selfplay", "variants/chess.var", "--games", "4", "--depth", "1", "--max-plies", "60", "--save", &d]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let out = run.stdout;
    assert!(out.contains("Chess: 4 games"), "{out}");
    assert!(out.contains("white wins: ") && out.contains("black wins: ") && out.contains("draws: "), "{out}");
    assert!(out.contains("how games ended:"), "{out}");
    assert!(out.contains("game length in plies: min "), "{out}");
    for i in 1..=4 {
        let game = dir.join(format!("game-{i:03}.pgn"));
        let g = game.to_string_lossy().into_owned();
        let pgn = std::fs::read_to_string(&game).expect("a saved game");
        assert!(pgn.starts_with("[Event \"Varia self-play, 2 random opening plies, seed 1\"]"), "{pgn}");
        assert!(pgn.contains(&format!("[Round \"{i}\"]")) && !pgn.contains("[Variant"), "{pgn}");
        let replay = ok(&["replay", "variants/chess.var", &g]);
        assert!(replay.contains("position: "), "{replay}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The random opening plies of self-play do not decide a game by themselves: in Infinite
/// Reserves a random placement on the opponent's side used to leave its player without a piece
/// move (stalemated, a loss) after the opponent's turn, and games lasted 5 plies at the median.
#[test]
fn selfplay_openings_leave_the_game_open() {
    let run =
        varia(&["selfplay", "variants/infinite-reserves.var", "--games", "6", "--depth", "1", "--max-plies", "60"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let out = run.stdout;
    let line = out.lines().find(|l| l.starts_with("game length in plies: min ")).expect("lengths");
    let min: usize = line["game length in plies: min ".len()..].split(',').next().unwrap().trim().parse().unwrap();
    assert!(min > 10, "{out}");
    let median: usize = line.split("median ").nth(1).unwrap().split(',').next().unwrap().trim().parse().unwrap();
    assert!(median > 20, "{out}");
}

#[test]
fn uci_plays_chess_and_a_chosen_variant() {
    let input = "uci\nisready\nposition startpos moves e2e4 e7e5\ngo depth 3\nisready\n\
                 position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\ngo depth 3\nisready\n\
                 setoption name UCI_Variant value hans38\nposition startpos\ngo depth 2\nisready\nquit\n";
    let run = varia_with_input(&["uci"], input);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let out = run.stdout;
    assert!(out.contains("option name UCI_Variant type combo default chess var chess"), "{out}");
    assert!(out.contains("uciok"), "{out}");
    assert!(out.contains("info depth 1 multipv 1 score mate 1"), "{out}");
    assert!(out.contains("bestmove d1d8"), "{out}");
    let best: Vec<&str> = out.lines().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(best.len(), 3, "{out}");
    assert!(best[2].starts_with("bestmove @@"), "Hans38's first move is a placement: {out}");
}

/// A variant chosen by `UCI_Variant` is searched with its bundled weights, as one named on the
/// command line is (Moving Occupied Squares has a weights file).
#[test]
fn uci_variant_brings_its_bundled_weights() {
    let search = "position startpos\ngo depth 1\nisready\nquit\n";
    let named = varia_with_input(&["uci", "moving-occupied-squares"], &format!("uci\nisready\n{search}"));
    let chosen = varia_with_input(
        &["uci"],
        &format!("uci\nisready\nsetoption name UCI_Variant value moving-occupied-squares\n{search}"),
    );
    // The score, the nodes and the line, without the times.
    let found = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| l.starts_with("info depth"))
            .map(|l| {
                let score = l.split(" score ").nth(1).and_then(|s| s.split(" nps ").next()).unwrap_or("");
                format!("{score} pv {}", l.split(" pv ").nth(1).unwrap_or(""))
            })
            .collect()
    };
    assert_eq!(named.code, Some(0), "{}", named.stderr);
    assert_eq!(chosen.code, Some(0), "{}", chosen.stderr);
    assert!(!found(&named.stdout).is_empty(), "{}", named.stdout);
    assert_eq!(found(&named.stdout), found(&chosen.stdout), "{}\n{}", named.stdout, chosen.stdout);
}

#[test]
fn serve_prints_its_address_and_serves_the_page() {
    use std::io::BufRead;
    let mut child = Command::new(env!("CARGO_BIN_EXE_varia"))
        .args(["serve", "--port", "0", "variants/chess.var"])
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start varia serve");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("a line");
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|s| s.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    assert!(addr.starts_with("127.0.0.1:"), "{line}");
    let mut stream = std::net::TcpStream::connect(&addr).expect("connect");
    stream.write_all(b"GET /api/variants HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").expect("request");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("answer");
    child.kill().expect("stop the server");
    let _ = child.wait();
    assert!(answer.starts_with("HTTP/1.1 200 OK"), "{answer}");
    // The file given on the command line comes first, then the bundled variants.
    assert!(answer.contains(r#"{"variants":[{"id":"variants/chess.var","title":"Chess""#), "{answer}");
}

#[test]
fn serve_refuses_a_missing_file_and_a_bad_port() {
    let err = fails(&["serve", "--port", "0", "no-such.var"]);
    assert!(err.starts_with("error: cannot read no-such.var: "), "{err}");
    // A usage error, as clap reports them: exit code 2.
    let run = varia(&["serve", "--port", "http"]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("invalid value 'http' for '--port <PORT>'"), "{}", run.stderr);
}
