//! Zillions import end to end: the project's own .zrf games and the shared corpus load, play, count perft as expected and convert to .var files that play the same.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use varia_interpreter::{perft, Move, Position, Rules};

fn games_dir() -> PathBuf {
    common::root().join("zrf/tests/games")
}

/// The shared corpus folder, when it is there.
fn corpus() -> Option<PathBuf> {
    let dir = common::root().join("../shared/zrf");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipped: {} does not exist (the shared corpus is not beside this clone)", dir.display());
        None
    }
}

fn load(path: &Path, choice: Option<&str>) -> Arc<Rules> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    match varia_zrf::load(&text, choice) {
        Ok(game) => Arc::new(Rules::new(game.variant)),
        Err(e) => panic!("{}: {}", path.display(), e.render(&text)),
    }
}

fn counts(rules: &Arc<Rules>, depth: u32) -> Vec<u64> {
    let mut pos = Position::start(rules.clone());
    (1..=depth).map(|d| perft(&mut pos, d)).collect()
}

#[test]
fn own_chess_matches_fide_chess_to_depth_5() {
    let zrf = load(&games_dir().join("chess.zrf"), None);
    assert_eq!(counts(&zrf, 5), [20, 400, 8902, 197_281, 4_865_609]);
    // The same counts as the bundled chess.var, computed here.
    assert_eq!(counts(&common::rules("chess.var"), 4), counts(&zrf, 4));
}

#[test]
fn own_chess_test_positions_with_castling_en_passant_and_promotion() {
    let path = games_dir().join("chess.zrf");
    // Published counts of the standard test positions (games/README.md).
    assert_eq!(counts(&load(&path, Some("Chess test position: Kiwipete")), 3), [48, 2039, 97_862]);
    assert_eq!(counts(&load(&path, Some("2")), 4), [14, 191, 2812, 43_238]);
    assert_eq!(counts(&load(&path, Some("3")), 3), [6, 264, 9467]);
}

#[test]
fn own_drops_links_and_partial_games() {
    assert_eq!(counts(&load(&games_dir().join("drops.zrf"), None), 3), [37, 1186, 27_084]);
    assert_eq!(counts(&load(&games_dir().join("links.zrf"), None), 4), [18, 324, 5482, 91_512]);
    // A chain of partial jumps is one turn (the turn passes when the chain ends).
    let frog = load(&games_dir().join("partial.zrf"), None);
    let mut pos = Position::start(frog);
    let turns: Vec<u64> = (1..=4).map(|d| varia_interpreter::perft_turns(&mut pos, d).expect("turns end")).collect();
    assert_eq!(turns, [16, 256, 3475, 46_567]);
}

#[test]
fn drops_take_pieces_from_the_hand() {
    let rules = load(&games_dir().join("drops.zrf"), None);
    let mut pos = Position::start(rules.clone());
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let drop = *moves.iter().find(|m| m.kind == varia_interpreter::MoveKind::Drop).expect("a drop");
    let ty = rules.type_of(drop.piece);
    let side = pos.side_to_move();
    let before = pos.in_hand(side, ty);
    assert!(before > 0);
    let hash = pos.hash();
    pos.make(drop);
    assert_eq!(pos.in_hand(side, ty), before - 1);
    assert_eq!(pos.hash(), pos.compute_hash());
    pos.unmake();
    assert_eq!(pos.in_hand(side, ty), before);
    assert_eq!(pos.hash(), hash);
}

#[test]
fn corpus_chess_matches_fide_chess_to_depth_5() {
    let Some(dir) = corpus() else { return };
    assert_eq!(counts(&load(&dir.join("chess.zrf"), None), 5), [20, 400, 8902, 197_281, 4_865_609]);
}

#[test]
fn corpus_makruk_shatranj_courier_counts() {
    let Some(dir) = corpus() else { return };
    // Cross-checked against Fairy-Stockfish to depth 3 (tools/oracle-zrf.py); see docs/zrf.md.
    assert_eq!(counts(&load(&dir.join("makruk.zrf"), None), 4), [23, 529, 12_012, 273_026]);
    assert_eq!(counts(&load(&dir.join("shatranj.zrf"), None), 4), [16, 256, 4176, 68_122]);
    assert_eq!(counts(&load(&dir.join("courier-chess.zrf"), None), 4), [20, 400, 8500, 180_571]);
}

/// A tiny deterministic generator for the random games.
fn next(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

/// Plays `games` random games of at most `plies` plies, checking that every move unmakes to
/// the same hash and that the end test answers.
fn random_games(rules: &Arc<Rules>, games: usize, plies: usize, seed: u64) -> usize {
    let mut seed = seed | 1;
    let mut made = 0;
    let mut moves: Vec<Move> = Vec::new();
    for _ in 0..games {
        let mut pos = Position::start(rules.clone());
        for _ in 0..plies {
            pos.legal_moves(&mut moves);
            if pos.outcome_given(!moves.is_empty()).is_some() {
                break;
            }
            let mv = moves[(next(&mut seed) % moves.len() as u64) as usize];
            let _ = pos.long_notation(mv);
            pos.make(mv);
            made += 1;
        }
        assert_eq!(pos.hash(), pos.compute_hash());
        while pos.ply() > 0 {
            pos.unmake();
        }
        assert_eq!(pos.hash(), Position::start(rules.clone()).hash());
    }
    made
}

#[test]
fn corpus_files_load_and_play_200_random_games() {
    let Some(dir) = corpus() else { return };
    for file in
        ["chess.zrf", "makruk.zrf", "shatranj.zrf", "courier-chess.zrf", "dragonchess.zrf", "platform-chess.zrf"]
    {
        let path = dir.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        let titles = varia_zrf::variant_titles(&text).unwrap();
        // The game and each playable variant load.
        for n in 1..titles.len() {
            load(&path, Some(&n.to_string()));
        }
        let rules = load(&path, None);
        let made = random_games(&rules, 200, 60, 0x5EED ^ file.len() as u64);
        assert!(made > 200, "{file}: only {made} moves in 200 games");
    }
}

/// `varia convert` on a file, loaded back as a .var.
fn converted(path: &Path) -> Arc<Rules> {
    let out = Command::new(env!("CARGO_BIN_EXE_varia")).arg("convert").arg(path).output().expect("run varia");
    assert!(out.status.success(), "{}: {}", path.display(), String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    match varia_grammar::load(&text) {
        Ok(v) => Arc::new(Rules::new(v)),
        Err(d) => panic!("{}: the converted text does not load: {d:?}\n{text}", path.display()),
    }
}

#[test]
fn own_games_convert_to_var_files_with_the_same_counts() {
    for file in ["chess.zrf", "drops.zrf", "links.zrf", "partial.zrf"] {
        let path = games_dir().join(file);
        assert_eq!(counts(&converted(&path), 3), counts(&load(&path, None), 3), "{file}");
    }
}

#[test]
fn corpus_files_convert_to_var_files_with_the_same_counts() {
    let Some(dir) = corpus() else { return };
    for file in
        ["chess.zrf", "makruk.zrf", "shatranj.zrf", "courier-chess.zrf", "dragonchess.zrf", "platform-chess.zrf"]
    {
        let path = dir.join(file);
        assert_eq!(counts(&converted(&path), 3), counts(&load(&path, None), 3), "{file}");
    }
}

/// Runs `varia` from the workspace root.
fn varia(args: &[&str]) -> (Option<i32>, String, String) {
    let out =
        Command::new(env!("CARGO_BIN_EXE_varia")).args(args).current_dir(common::root()).output().expect("run varia");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_bad_zrf_file_is_a_located_error_and_exit_1() {
    let dir = std::env::temp_dir().join(format!("varia-zrf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.zrf");
    std::fs::write(
        &bad,
        "(game (title \"T\") (players A B) (turn-order A B)\n\
         (board (grid (start-rectangle 0 0 10 10) (dimensions (\"a/b\" (10 0)) (\"2/1\" (0 10))) (directions (n 0 -1))))\n\
         (piece (name K) (moves (n (set-turn-order A) add)))\n\
         (board-setup (A (K a1)) (B (K b2))))\n",
    )
    .unwrap();
    let path = bad.to_string_lossy().into_owned();
    let (code, _, err) = varia(&["check", &path]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains(&format!("{path}:3:27: 'set-turn-order' is not a Zillions instruction or condition")),
        "{err}"
    );
    // Unbalanced parentheses: where the form opened.
    std::fs::write(&bad, "(game (title \"T\")\n  (players A B)\n").unwrap();
    let (code, _, err) = varia(&["perft", &path, "1"]);
    assert_eq!(code, Some(1));
    assert!(err.contains(&format!("{path}:1:1:")), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn variants_are_chosen_by_title_or_number_and_converted_to_a_file() {
    let (code, out, _) = varia(&["--variant", "2", "perft", "zrf/tests/games/chess.zrf", "2"]);
    assert_eq!(code, Some(0));
    assert!(out.trim_end().ends_with("nodes 191"), "{out}");
    let (code, _, err) = varia(&["--variant", "Nope", "check", "zrf/tests/games/chess.zrf"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("no variant 'Nope'") && err.contains("1 'Chess test position: Kiwipete'"), "{err}");
    let out_file = std::env::temp_dir().join(format!("varia-convert-{}.var", std::process::id()));
    let target = out_file.to_string_lossy().into_owned();
    let (code, stdout, _) = varia(&["convert", "zrf/tests/games/drops.zrf", "-o", &target]);
    assert_eq!(code, Some(0));
    assert!(stdout.is_empty());
    let text = std::fs::read_to_string(&out_file).unwrap();
    assert!(text.starts_with("// Converted by `varia convert` from drops.zrf."), "{text}");
    assert!(text.contains("grid 5 x 5") && text.contains("drop {"), "{text}");
    let _ = std::fs::remove_file(&out_file);
}

#[test]
fn position_strings_keep_hands_attributes_and_read_back() {
    // Kiwipete's castling rests on `never-moved` attributes: the string lists them.
    let rules = load(&games_dir().join("chess.zrf"), Some("1"));
    let start = Position::start(rules.clone());
    let text = start.to_position_string();
    assert!(text.contains(" attrs=never-moved:a1,e1,h1,a8,e8,h8"), "{text}");
    let mut back = Position::from_position_string(rules.clone(), &text).unwrap();
    assert_eq!(back.hash(), start.hash());
    assert_eq!(perft(&mut back, 2), 2039);
    // Without the field, pieces carry their types' attributes.
    let plain = text.split(" attrs=").next().unwrap();
    let defaults = Position::from_position_string(rules.clone(), plain).unwrap();
    assert_eq!(defaults.hash(), start.hash());
    // No attributes: no castling.
    let none = text.replace("never-moved:a1,e1,h1,a8,e8,h8", "never-moved:-");
    let mut none = Position::from_position_string(rules, &none).unwrap();
    assert_eq!(perft(&mut none, 1), 48 - 2);

    // Pieces in hand, before and after a drop.
    let rules = load(&games_dir().join("drops.zrf"), None);
    let mut pos = Position::start(rules.clone());
    let text = pos.to_position_string();
    assert!(text.split(' ').next().is_some_and(|rows| rows.ends_with(']')), "{text}");
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let drop = *moves.iter().find(|m| m.kind == varia_interpreter::MoveKind::Drop).unwrap();
    pos.make(drop);
    let after = pos.to_position_string();
    assert_ne!(after, text);
    let back = Position::from_position_string(rules.clone(), &after).unwrap();
    assert_eq!(back.hash(), pos.hash(), "{after}");
    let bad = Position::from_position_string(rules, &format!("{} hand=Z1", text.split(" hand=").next().unwrap()));
    let e = bad.expect_err("Z is no piece");
    assert!(e.message.contains("expected a piece letter, found `Z`"), "{}", e.message);
}
