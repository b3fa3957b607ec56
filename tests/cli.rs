//! Golden tests of the `varia` command line, run through the built binary from the workspace root.

#[path = "cli/helpers.rs"]
mod helpers;

use helpers::*;

#[test]
fn check_prints_one_summary_line() {
    let out = ok(&["check", "variants/chess.var"]);
    assert_eq!(out.lines().count(), 1, "{out}");
    assert_eq!(out.trim_end(), "variants/chess.var: ok: \"Chess\", 64 cells, 2 players, 6 piece types, 2 zones");
}

#[test]
fn perft_3_from_the_start() {
    let out = ok(&["perft", "variants/chess.var", "3"]);
    assert_eq!(out.lines().last(), Some("nodes 8902"), "{out}");
}

#[test]
fn perft_after_moves() {
    // Source: python-chess: after 1. e4 e5, 29 moves and 835 positions two plies on.
    let out = ok(&["perft", "variants/chess.var", "1", "--after", "e4 e5"]);
    assert_eq!(out.lines().last(), Some("nodes 29"), "{out}");
    let out = ok(&["perft", "variants/chess.var", "2", "--after", "e4 e5"]);
    assert_eq!(out.lines().last(), Some("nodes 835"), "{out}");
    let run = varia(&["perft", "variants/chess.var", "1", "--after", "e4 e4"]);
    assert_ne!(run.code, Some(0));
    assert!(run.stderr.contains("--after move 2"), "{}", run.stderr);
}

#[test]
fn perft_divide() {
    let out = ok(&["perft", "variants/chess.var", "2", "--divide"]);
    assert_eq!(out.lines().count(), 21, "{out}");
    assert_eq!(out.lines().last(), Some("nodes 400"), "{out}");
    insta::assert_snapshot!("perft_divide_2", out);
}

#[test]
fn moves_from_the_start() {
    let out = ok(&["moves", "variants/chess.var"]);
    assert_eq!(out.lines().count(), 20, "{out}");
    insta::assert_snapshot!("moves_start", out);
}

#[test]
fn moves_after_an_opening() {
    let out = ok(&["moves", "variants/chess.var", "--after", "e4 e5 Nf3"]);
    assert_eq!(out.lines().count(), 29, "{out}");
    assert!(out.lines().any(|l| l == "Nb8-c6"), "{out}");
    insta::assert_snapshot!("moves_after_e4_e5_nf3", out);
}

/// The same move list as an independent chess library, as from-to pairs.
#[test]
fn moves_after_an_opening_agree_with_shakmaty() {
    use shakmaty::{san::San, CastlingMode, Chess, Position};
    let mut pos = Chess::default();
    for san in ["e4", "e5", "Nf3"] {
        let mv = San::from_ascii(san.as_bytes()).expect("SAN").to_move(&pos).expect("legal");
        pos = pos.play(&mv).expect("legal");
    }
    let mut expected: Vec<String> =
        pos.legal_moves().iter().map(|m| m.to_uci(CastlingMode::Standard).to_string()).collect();
    expected.sort();
    let out = ok(&["moves", "variants/chess.var", "--after", "e4 e5 Nf3"]);
    // `Nb8-c6` -> `b8c6`.
    let mut got: Vec<String> =
        out.lines().map(|l| l.trim_start_matches(|c: char| c.is_ascii_uppercase()).replace('-', "")).collect();
    got.sort();
    assert_eq!(got, expected);
}

#[test]
fn moves_after_an_illegal_move_fails() {
    let err = fails(&["moves", "variants/chess.var", "--after", "e4 e9"]);
    assert!(err.contains("--after move 2"), "{err}");
    assert!(err.contains("`e9`"), "{err}");
}

#[test]
fn show_the_start() {
    let out = ok(&["show", "variants/chess.var"]);
    insta::assert_snapshot!("show_start", out);
}

#[test]
fn show_a_bad_position_string() {
    let bad = "rnbqkbnr/pppppppp/8/8/4X3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let err = fails(&["show", "variants/chess.var", "--position", bad]);
    assert!(err.contains("<position>:1:24:"), "{err}");
    assert!(err.contains("expected a piece letter"), "{err}");
    insta::assert_snapshot!("show_bad_position", err);
}

#[test]
fn every_subcommand_has_help() {
    for sub in [
        &["--help"][..],
        &["check", "--help"],
        &["perft", "--help"],
        &["moves", "--help"],
        &["replay", "--help"],
        &["show", "--help"],
        &["play", "--help"],
        &["list", "--help"],
        &["help"],
    ] {
        let out = ok(sub);
        assert!(out.contains("Usage: varia"), "varia {sub:?}:\n{out}");
    }
}

#[test]
fn list_shows_chess() {
    let out = ok(&["list"]);
    assert!(out.lines().any(|l| l.starts_with("chess ") && l.contains("Chess")), "{out}");
}

/// Runs `varia` in an empty folder of its own.
fn varia_elsewhere(args: &[&str]) -> Run {
    let dir = std::env::temp_dir().join(format!("varia-empty-{}-{}", std::process::id(), args.join("-")));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let out = Command::new(env!("CARGO_BIN_EXE_varia")).args(args).current_dir(&dir).output().expect("run varia");
    let _ = std::fs::remove_dir_all(&dir);
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[test]
fn bundled_games_work_from_any_folder() {
    let run = varia_elsewhere(&["check", "chess"]);
    assert_eq!(run.stdout, "chess: ok: \"Chess\", 64 cells, 2 players, 6 piece types, 2 zones\n", "{}", run.stderr);
    let run = varia_elsewhere(&["perft", "hans38", "2"]);
    assert_eq!(run.stdout, "nodes 1004\n", "{}", run.stderr);
    let run = varia_elsewhere(&["perft", "central-squares", "3"]);
    assert_eq!((run.code, run.stdout.as_str()), (Some(0), "nodes 64239\n"), "{}", run.stderr);
    // As tests/perft.txt (the oracles in tools/). The names `varia list` printed before still work.
    let run = varia_elsewhere(&["check", "variants/chess.var"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let run = varia_elsewhere(&["check", "nosuch"]);
    assert_eq!(run.code, Some(1));
    assert!(run.stderr.contains("cannot read nosuch") && run.stderr.contains("nor is it a bundled variant: chess,"));
}

#[test]
fn a_path_wins_over_a_bundled_name() {
    let dir = std::env::temp_dir().join(format!("varia-path-wins-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let text = std::fs::read_to_string("variants/chess.var").expect("chess.var").replace("\"Chess\"", "\"My Chess\"");
    std::fs::write(dir.join("chess"), text).expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_varia")).args(["check", "chess"]).current_dir(&dir).output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(String::from_utf8_lossy(&out.stdout).contains("ok: \"My Chess\""), "{out:?}");
}

#[test]
fn replay_the_scholars_mate() {
    let out = ok(&["replay", "variants/chess.var", "tests/games/scholars-mate.txt"]);
    assert_eq!(out.lines().last(), Some("result: white wins by checkmate"), "{out}");
    insta::assert_snapshot!("replay_scholars_mate", out);
}

#[test]
fn replay_reads_xboards_xiangqi_with_ranks_from_zero() {
    // A game XBoard 4.9 saved, Varia against itself: ranks 0 to 9, the horse `H`, the
    // elephant `E`, soldiers without a letter (`4. e4`); 131 moves to two bare advisers' ends.
    let out = ok(&["replay", "xiangqi", "tests/games/xboard-xiangqi.pgn"]);
    assert!(out.contains("position: 9/4a4/4k4/9/2b3b2/6B2/9/4B4/4A4/4K4 b - - 0 131"), "{out}");
    // Varia's own notation, ranks from 1, is read as written: the cannons to the middle file.
    let file = std::env::temp_dir().join(format!("varia-xiangqi-{}.txt", std::process::id()));
    std::fs::write(&file, "1. Ch3e3 Ch8e8 2. Nh1g3\n").unwrap();
    let out = ok(&["replay", "xiangqi", &file.to_string_lossy()]);
    assert!(out.contains("position: rnbakabnr/9/1c2c4/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b"), "{out}");
    let _ = std::fs::remove_file(&file);
}

#[test]
fn replay_stops_at_an_illegal_move() {
    let err = fails(&["replay", "variants/chess.var", "tests/games/illegal-move-3.txt"]);
    assert!(err.contains("tests/games/illegal-move-3.txt:2:24:"), "{err}");
    assert!(err.contains("move 3 (white) `Ke3` is illegal"), "{err}");
    insta::assert_snapshot!("replay_illegal_move_3", err);
}

#[test]
fn replay_of_a_missing_game_file_fails() {
    let err = fails(&["replay", "variants/chess.var", "tests/games/no-such-game.txt"]);
    assert!(err.contains("cannot read tests/games/no-such-game.txt"), "{err}");
}

#[test]
fn play_reads_commands_from_stdin() {
    let run = varia_with_input(&["play", "variants/chess.var"], "e4\nfoo\nmoves\nundo\nquit\n");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stderr.is_empty(), "{}", run.stderr);
    let out = &run.stdout;
    assert!(out.contains("`foo` is not a legal move: `foo` names no cell of this board"), "{out}");
    // The help suggests moves of this position: a knight's and a pawn's.
    assert!(out.contains("type a move (Na3, a3 here), or: moves, undo,"), "{out}");
    // `moves` after 1. e4 lists Black's 20 replies in short notation, in columns of equal
    // width that fit 80 characters: 16 columns of 5, the first row after the prompt.
    let at = out.find("black> a5").expect("the move list");
    let rows: Vec<&str> = out[at + "black> ".len()..].lines().take(2).collect();
    assert_eq!(rows[0], "a5   a6   b5   b6   c5   c6   d5   d6   e5   e6   f5   f6   g5   g6   h5   h6", "{out}");
    assert_eq!(rows[1], "Na6  Nc6  Nf6  Nh6", "{out}");
    // The last move is marked on the board.
    assert!(out.contains("  4  . . . .[P]. . .") && out.contains("  2  P P P P[.]P P P"), "{out}");
    assert!(out.contains("last move: e4 (marked [ ])"), "{out}");
    // `undo` takes 1. e4 back: the last board shows White to move with the pawn on e2.
    let last_board = out.rsplit("  8 ").next().expect("a board");
    assert!(last_board.contains("  2  P P P P P P P P"), "{out}");
    assert!(last_board.contains("white to move"), "{out}");
}

#[test]
fn play_says_check_and_mate_explains_refusals_and_saves_pgn() {
    let dir = std::env::temp_dir().join(format!("varia-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let saved = dir.join("game.pgn");
    let s = saved.to_string_lossy().into_owned();
    let run = varia_with_input(&["play", "chess"], "e4\nf5\nQh5\nNf6\nKe2\ng6\nquit\n");
    let out = &run.stdout;
    assert!(out.contains("last move: Qh5+ (marked [ ])\ncheck: black's king is attacked"), "{out}");
    assert!(out.contains("`Nf6` is not a legal move: it would leave black's royal piece attacked"), "{out}");
    assert!(out.contains("`Ke2` is not a legal move: no king of black's can move to e2"), "{out}");
    // Fool's mate: the result is said, the prompt stays, and the game is saved at `quit`.
    let run = varia_with_input(&["play", "chess", "--save", &s], "f3\ne5\ng4\nQh4\nNc3\nquit\n");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let out = &run.stdout;
    assert!(out.contains("last move: Qh4# (marked [ ])\nresult: black wins by checkmate"), "{out}");
    assert!(
        out.contains("the game is over: undo, save FILE, load FILE or quit> the game is over (result: black wins by"),
        "{out}"
    );
    let pgn = std::fs::read_to_string(&saved).expect("the game saved");
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    assert!(pgn.contains("1. f3 e5 2. g4 Qh4# {checkmate} 0-1"), "{pgn}");
    // The saved game replays to the same mate, and `load` reads it back into a game.
    let replay = ok(&["replay", "chess", &s]);
    assert!(replay.ends_with("result: black wins by checkmate\n"), "{replay}");
    let run = varia_with_input(&["play", "chess"], &format!("load {s}\nquit\n"));
    assert!(run.stdout.contains("result: black wins by checkmate"), "{}", run.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A move refused in a game without a royal piece is refused for the rule that refuses it (it
/// was said to leave the royal piece attacked).
#[test]
fn play_says_a_capture_must_be_made() {
    let dir = std::env::temp_dir().join(format!("varia-must-capture-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("must-capture.var");
    let text = "variant \"Must capture\"\nboard { grid 3 x 4 }\nplayer white\n\
        player black swap n <-> s  ne <-> se  nw <-> sw\nmove-types capture normal\n\
        priorities capture normal\npiece Man M {\n  move capture { ne verify enemy add }\n\
        move normal { n verify empty add }\n}\nsetup { white: M a1, M c1  black: M b2, M c4 }\n\
        end { goal white black loss: pieces-remaining 0 }\n";
    std::fs::write(&file, text).unwrap();
    let f = file.to_string_lossy().into_owned();
    let run = varia_with_input(&["play", &f], "Mc1-c2\nquit\n");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stdout.contains("`Mc1-c2` is not a legal move: white must capture"), "{}", run.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `moves --uci` writes a drop promoted side up as Fairy-Stockfish does (`+P@b2`: pyffish 0.0.90
/// lists `+P@b2` and `P@b2` for kyotoshogi's `4k/5/5/5/K4[P] w 0 1`), and reads it back as the
/// promoted drop (it wrote `P@b2+`, which pyffish refuses).
#[test]
fn moves_uci_writes_a_promoted_drop_as_fairy_stockfish_does() {
    let dir = std::env::temp_dir().join(format!("varia-promoted-drop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("promoted-drop.var");
    let text = "variant \"Promoted drop\"\nboard { grid 2 x 3 }\nplayer white\n\
        player black swap n <-> s  ne <-> se  nw <-> sw\npiece King K { royal step all }\n\
        piece Pawn P {\n  captured-to-hand\n  step n\n  drop { verify empty add add(Tokin) }\n}\n\
        piece Tokin +P { captured-to-hand as Pawn step n }\n\
        setup { white: K a1  black: K b3  hand white: P 1 }\n";
    std::fs::write(&file, text).unwrap();
    let f = file.to_string_lossy().into_owned();
    insta::assert_snapshot!("promoted_drop_uci", ok(&["moves", "--uci", &f]));
    let game = dir.join("game.txt");
    std::fs::write(&game, "+P@b1\n").unwrap();
    let out = ok(&["replay", &f, &game.to_string_lossy()]);
    assert!(out.contains("position: 1k/2/K+P[] b - - 0 1"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn play_in_hans38_suggests_placements_and_says_a_cell_has_no_square() {
    let run = varia_with_input(&["play", "hans38"], "e4\nquit\n");
    let out = &run.stdout;
    assert!(out.starts_with("type a move (@@a3 here), or: moves,"), "{out}");
    assert!(
        out.contains(
            "`e4` is not a legal move: there is no square on e4: nothing can move there (a square is placed with @@e4)"
        ),
        "{out}"
    );
}

#[test]
fn replay_reads_pgn_with_its_fen_and_checks_its_variant() {
    let dir = std::env::temp_dir().join(format!("varia-pgn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("two.pgn");
    let f = file.to_string_lossy().into_owned();
    std::fs::write(
        &file,
        "[Event \"a\"]\n[SetUp \"1\"]\n[FEN \"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\"]\n\n1. Rd8# 1-0\n\n\
         [Event \"b\"]\n[Variant \"Hans38 Chess\"]\n\n1. @@f3 *\n",
    )
    .unwrap();
    let out = ok(&["replay", "chess", &f]);
    assert!(out.contains("result: white wins by checkmate\ngame 1 of 2 in the file (--game N picks another)"), "{out}");
    let err = fails(&["replay", "chess", &f, "--game", "2"]);
    assert!(err.contains("the game is of variant \"Hans38 Chess\", but the rules given are \"Chess\""), "{err}");
    let out = ok(&["replay", "hans38", &f, "--game", "2"]);
    assert!(out.contains("result: game in progress"), "{out}");
    let err = fails(&["replay", "chess", &f, "--game", "3"]);
    assert!(err.contains("there is no game 3: the file holds 2 game(s)"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_warns_about_a_variant_no_one_can_win() {
    let dir = std::env::temp_dir().join(format!("varia-noroyal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("no-king.var");
    let chess = std::fs::read_to_string("variants/chess.var").unwrap();
    std::fs::write(&file, chess.replace("  royal\n", "")).unwrap();
    let f = file.to_string_lossy().into_owned();
    let run = varia(&["check", &f]);
    assert_eq!(run.code, Some(0));
    assert!(run.stdout.contains(": ok: \"Chess\""), "{}", run.stdout);
    assert!(
        run.stderr.contains("warning: ") && run.stderr.contains("no way to win: no piece type is `royal`"),
        "{}",
        run.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn play_ai_against_ai_finishes() {
    let run = varia(&["play", "variants/chess.var", "--white", "ai", "--black", "ai", "--depth", "1"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let last = run.stdout.lines().last().unwrap_or("");
    assert!(last.starts_with("result: "), "{}", run.stdout);
}

#[test]
fn a_missing_variant_file_fails() {
    let err = fails(&["check", "variants/no-such-variant.var"]);
    assert!(err.contains("cannot read variants/no-such-variant.var"), "{err}");
}

#[test]
fn list_shows_the_stacking_games() {
    let out = ok(&["list"]);
    assert!(out.contains("\nshare-squares ") && out.contains("\nsafety-in-numbers "), "{out}");
}

#[test]
fn show_draws_stacks_and_lists_them() {
    let pos = "rnbq1bnr/pppppppp/8/8/4(NPp)3/5(Kk)2/PPPPPPPP/RNBQ1BNR w - - 0 1";
    let out = ok(&["show", "variants/safety-in-numbers.var", "--position", pos]);
    assert!(out.contains(" NPp "), "{out}");
    assert!(out.contains("stacks: f3 K k, e4 N P p"), "{out}");
    insta::assert_snapshot!("show_stacks", out);
}

#[test]
fn moves_name_the_piece_a_capture_takes_from_a_stack() {
    // d5 holds a black pawn and a black knight: the white knight chooses which one it takes.
    let pos = "r3k2r/8/8/3(pn)4/8/4N3/8/R3K2R w - - 0 1";
    let out = ok(&["moves", "variants/share-squares.var", "--position", pos]);
    assert!(out.lines().any(|l| l == "Ne3xNd5") && out.lines().any(|l| l == "Ne3xPd5"), "{out}");
    let after = ok(&["moves", "variants/share-squares.var", "--position", pos, "--after", "Ne3xPd5"]);
    assert!(!after.is_empty());
    let err = fails(&["moves", "variants/share-squares.var", "--position", pos, "--after", "Nxd5"]);
    assert!(err.contains("ambiguous") && err.contains("Ne3xNd5") && err.contains("Ne3xPd5"), "{err}");
}

#[test]
fn a_stack_on_a_plain_cell_is_a_located_error() {
    let err = fails(&["show", "variants/share-squares.var", "--position", "4k3/8/8/8/8/8/8/(KQ)7 w - - 0 1"]);
    assert!(err.contains("<position>:1:"), "{err}");
    assert!(err.contains("`a1` holds one piece"), "{err}");
    let err = fails(&["show", "variants/share-squares.var", "--position", "4k3/8/8/3(pnb)4/8/8/8/K7 w - - 0 1"]);
    assert!(err.contains("expected at most 2 pieces on `d5`, found 3"), "{err}");
    let err = fails(&["show", "variants/share-squares.var", "--position", "4k3/8/8/3(pn4/8/8/8/K7 w - - 0 1"]);
    assert!(err.contains("expected `)` to close this stack"), "{err}");
}

#[test]
fn show_draws_the_three_boards_with_the_shared_centre() {
    let out = ok(&["show", "variants/central-squares.var"]);
    assert!(out.contains("shared by every board (drawn on each, `+` when empty): c3 d3 c4 d4"), "{out}");
    insta::assert_snapshot!("show_central_squares", out);
    // A piece on the centre is drawn on all three boards.
    let out = ok(&["show", "variants/central-squares.var", "--position", "6/6/4/4/6/6|6/6/6/3B2/6/6|k5/6/4/4/6/5K w"]);
    let row3 = out.lines().find(|l| l.trim_start().starts_with("3 ")).expect("rank 3");
    assert_eq!(row3.matches('B').count(), 3, "{out}");
}

#[test]
fn show_draws_a_piece_between_squares_on_every_square_it_covers() {
    let pos = "6k1/6pp/8/8/8/8/8/4K3{Ra1.5,bef3.5} w - - 0 1";
    let out = ok(&["show", "variants/multiple-squares.var", "--position", pos]);
    assert!(
        out.contains("between squares (drawn on each square covered): R a1.5 (a1 a2), b ef3.5 (e3 f3 e4 f4)"),
        "{out}"
    );
    insta::assert_snapshot!("show_between_squares", out);
    // The rook covering a7 and a8 mates a king on g8 behind its pawns.
    let alone = "6k1/6pp/8/8/8/8/8/4K3{Ra1.5} w - - 0 1";
    let out = ok(&["moves", "variants/multiple-squares.var", "--position", alone, "--after", "Ra7.5"]);
    assert!(out.trim().is_empty(), "checkmate: no legal moves, found {out}");
}

#[test]
fn a_bad_piece_between_squares_is_a_located_error() {
    let err = fails(&["show", "variants/multiple-squares.var", "--position", "4k3/8/8/8/8/8/8/R3K3{Ra1.5} w - - 0 1"]);
    assert!(err.contains("<position>:1:"), "{err}");
    assert!(err.contains("`a1.5` covers `a1`, which already holds a piece"), "{err}");
    let err = fails(&["show", "variants/multiple-squares.var", "--position", "4k3/8/8/8/8/8/8/4K3{Ra1} w"]);
    assert!(err.contains("expected a location between cells (like `a1.5`), found `a1`"), "{err}");
    let err = fails(&["show", "variants/multiple-squares.var", "--position", "4k3/8/8/8/8/8/8/4K3{Ra1.5 w"]);
    assert!(err.contains("closed by `}`"), "{err}");
    let err = fails(&["show", "variants/chess.var", "--position", "4k3/8/8/8/8/8/8/4K3{Ra1.5} w"]);
    assert!(err.contains("this board has no locations between cells"), "{err}");
    let err = fails(&["show", "variants/multiple-squares.var", "--position", "4k3/8/8/8/8/8/8/4K3{Pb2.5} w"]);
    assert!(err.contains("a Pawn cannot stand between cells"), "{err}");
}

#[test]
fn hans38_sample_game_replays_to_the_oracles_final_position() {
    let out = ok(&["replay", "variants/hans38.var", "tests/games/hans38-sample.txt"]);
    // The independent oracle's final board (tools/hans38-oracle/README.md), in Varia's format.
    let expected = "****kb*-/*rpbqppr/*pn-pn*p/p*-*B***/****++**/**NP*N**/PPP++PPP/*R*QRBK* b - - 0 24 0,1 -";
    assert!(out.contains(&format!("position: {expected}")), "{out}");
    assert!(out.contains("squares in reserve: white 0, black 1"), "{out}");
    insta::assert_snapshot!("replay_hans38_sample", out);
}

#[test]
fn hans38_neutral_opening_replays_only_with_neutral_squares() {
    let out = ok(&["replay", "variants/hans38-neutral.var", "tests/games/hans38-neutral-opening.txt"]);
    assert!(out.contains("untouchable this turn: d5"), "{out}");
    let err = fails(&["replay", "variants/hans38.var", "tests/games/hans38-neutral-opening.txt"]);
    assert!(err.contains("move 3 (black) `@e3-d5` is illegal"), "{err}");
    assert!(err.contains("the square on e3 is the opponent's"), "{err}");
}

#[test]
fn square_actions_that_break_a_rule_say_which() {
    let cases = [
        ("variants/hans38.var", "@@f3 @f6-e6", "there is no square on f6"),
        ("variants/hans38.var", "@@f3 @@f3", "f3 already has a square"),
        ("variants/hans38.var", "@@f3 @e7-e6", "the square on e7 holds a piece: only empty squares move"),
        ("variants/hans38.var", "@@e3 @@e6 @e3-h3", "a square on e3 cannot move to h3"),
        ("variants/hans38.var", "@@f3 @@f6 @@f4 @@f5 @@e4 @@e5 @@d4", "no squares are left in reserve"),
        ("variants/hans38-neutral.var", "@@f3 @@f6 @f6-f5 @f5-f4", "untouchable this turn"),
        ("variants/infinite-reserves.var", "@@f3 @@f6 @f3-f4", "not an action allowed at this point of the turn"),
        ("variants/moving-occupied-squares.var", "@e2-e3 @@f4 @e8-e7", "e7 already has a square"),
    ];
    for (file, moves, reason) in cases {
        let err = fails(&["moves", file, "--after", moves]);
        assert!(err.contains(reason), "{file} {moves}: {err}");
    }
}

#[test]
fn square_position_strings_are_checked_field_by_field() {
    let rows = "rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let cases = [
        (
            "variants/hans38.var",
            format!("{rows} 3,x -"),
            "1:88:",
            "expected the number of squares in reserve, found `x`",
        ),
        ("variants/hans38.var", format!("{rows} 3 -"), "1:86:", "expected 2 reserve counts"),
        ("variants/hans38.var", format!("{rows} 3,3 z9"), "1:90:", "expected the name of an untouchable square"),
        ("variants/hans38.var", format!("{rows} 3,3 - 1"), "1:92:", "expected the end of the position string"),
        ("variants/infinite-reserves.var", format!("{rows} 3,3 -"), "1:86:", "reserves are unlimited"),
        ("variants/infinite-reserves.var", format!("{rows} - - 4 -"), "1:90:", "the number of the action due, 1 to 3"),
        (
            "variants/hans38-neutral.var",
            "rnbqkbnr/pppppppp/+*******/********/********/********/PPPPPPPP/RNBQKBNR w".to_string(),
            "1:19:",
            "this game's squares have no owners",
        ),
    ];
    for (file, pos, at, message) in cases {
        let err = fails(&["show", file, "--position", &pos]);
        assert!(err.contains(&format!("<position>:{at}")), "{pos}: {err}");
        assert!(err.contains(message), "{pos}: {err}");
    }
}

#[test]
fn show_draws_holes_owned_squares_reserves_and_the_action_due() {
    let out = ok(&[
        "show",
        "variants/hans38.var",
        "--position",
        "rnbqkbnr/pppppppp/*****-**/********/********/*****N**/PPPPPPPP/RNBQKB+R b KQkq - 3 2 2,2 -",
    ]);
    assert!(out.contains("empty squares: `+` white's, `-` black's; `_` no square"), "{out}");
    insta::assert_snapshot!("show_hans38", out);
    let out = ok(&[
        "show",
        "variants/infinite-reserves.var",
        "--position",
        "rnbqkbnr/pppppppp/*****1**/********/********/*****N**/PPPPPP1P/RNBQKB1R w KQkq - 1 2 - f6 2 -",
    ]);
    assert!(out.contains("white to move: action 2 of 3 (move a square)"), "{out}");
    assert!(out.contains("untouchable this turn: f6"), "{out}");
    assert!(out.contains("squares in reserve: white unlimited, black unlimited"), "{out}");
}

/// Runs `varia` with its standard output closed before it writes (as `| head -1` does once it
/// has its line); returns the exit code and what it wrote to stderr.
fn with_closed_stdout(args: &[&str], stdin: &str) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_varia"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start varia");
    drop(child.stdout.take());
    let mut input = child.stdin.take().expect("stdin");
    let _ = input.write_all(stdin.as_bytes());
    drop(input);
    let output = child.wait_with_output().expect("wait for varia");
    (output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned())
}

/// Issue 20, item 8: `varia moves ... | head -1` (and `perft --divide`, `play`) panicked on the
/// closed pipe ("failed printing to stdout"); now they stop quietly.
#[test]
fn a_closed_output_pipe_ends_the_command_quietly() {
    for (args, stdin) in [
        (&["perft", "variants/chess.var", "3", "--divide"][..], ""),
        (&["moves", "variants/chess.var", "--after", "e4 e5"][..], ""),
        (&["play", "variants/chess.var"][..], "moves\nmoves\nquit\n"),
        (&["show", "variants/hans38.var"][..], ""),
    ] {
        let (code, stderr) = with_closed_stdout(args, stdin);
        assert_eq!((code, stderr.as_str()), (Some(0), ""), "varia {args:?}");
    }
}

/// Issue 20, item 8: `perft FILE 4294967295` aborted on a 103 GB allocation (with `--turns`, a
/// stack overflow), and `selfplay --games 18446744073709551615` panicked: each number now has a
/// stated limit.
#[test]
fn command_line_numbers_have_limits() {
    for (args, limit) in [
        (&["perft", "variants/chess.var", "4294967295"][..], "4294967295 is not in 0..=64"),
        (&["perft", "variants/chess.var", "65", "--turns"][..], "65 is not in 0..=64"),
        (&["selfplay", "variants/chess.var", "--games", "18446744073709551615"][..], "is not in 1..=100000"),
        (&["selfplay", "variants/chess.var", "--max-plies", "0"][..], "0 is not in 1..=100000"),
        (&["analyse", "variants/chess.var", "--depth", "101"][..], "101 is not in 1..=100"),
    ] {
        let run = varia(args);
        assert_eq!(run.code, Some(2), "varia {args:?}: {}", run.stderr);
        assert!(run.stderr.contains(limit), "varia {args:?}: {}", run.stderr);
    }
}

/// Issue 20, item 9: an unclosed `{` comment in a game file had no line and column.
#[test]
fn an_unclosed_comment_in_a_game_file_is_located() {
    let dir = std::env::temp_dir().join(format!("varia-unclosed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let game = dir.join("game.txt");
    std::fs::write(&game, "1. e4 e5 {a comment}\n2. Nf3 {never closed\nNc6\n").expect("write game");
    let game = game.display().to_string();
    let stderr = fails(&["replay", "variants/chess.var", &game]);
    assert_eq!(stderr.trim_end(), format!("error: {game}:2:8: this `{{` comment is never closed: expected `}}`"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The README's reference perft, the same count as the fast paths', and `--without` with a path
/// name (an unknown one is an error listing the paths); `moves --reference` lists the moves the
/// fast paths list.
#[test]
fn perft_and_moves_by_the_plain_reference() {
    let run = varia(&["perft", "variants/chess.var", "3", "--reference"]);
    assert_eq!((run.code, run.stdout.as_str()), (Some(0), "nodes 8902\n"));
    let run = varia(&["perft", "variants/chess.var", "3", "--without", "BulkCount,MaskMoves"]);
    assert_eq!((run.code, run.stdout.as_str()), (Some(0), "nodes 8902\n"));
    let run = varia(&["perft", "variants/chess.var", "1", "--without", "Bulk"]);
    assert_eq!(run.code, Some(1));
    assert!(run.stderr.starts_with("error: no fast path is named `Bulk`; the paths: Atoms, "), "{}", run.stderr);
    let sorted = |text: &str| {
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        lines.sort();
        lines
    };
    let fast = varia(&["moves", "variants/shogi.var", "--after", "c3-c4 g7-g6"]);
    let plain = varia(&["moves", "variants/shogi.var", "--after", "c3-c4 g7-g6", "--reference"]);
    assert_eq!(plain.code, Some(0), "{}", plain.stderr);
    assert_eq!(sorted(&fast.stdout), sorted(&plain.stdout));
    assert!(fast.stdout.lines().count() > 20, "{}", fast.stdout);
}
