//! Random playouts over every Zillions file of ../shared that loads: make and unmake keep the hash exact, position strings read back to the same position, and unmaking everything restores the start.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use varia_interpreter::{Position, Rules};

/// Every `.zrf` under `dir`, sorted; none when the folder is absent.
fn zrf_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            zrf_files(&p, out);
        } else if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("zrf")) {
            out.push(p);
        }
    }
}

/// Plays `plies` random legal moves, checking the invariants after each, then unmakes them all.
fn playout(rules: &Arc<Rules>, rng: &mut StdRng, plies: usize, name: &str) {
    let mut pos = Position::start(rules.clone());
    let start = (pos.hash(), pos.to_position_string());
    let mut moves = Vec::new();
    let mut made = 0;
    for ply in 0..plies {
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.random_range(0..moves.len())];
        let before = pos.hash();
        pos.make(mv);
        made += 1;
        assert_eq!(
            pos.hash(),
            pos.compute_hash(),
            "{name}: ply {ply}: incremental hash after {}",
            pos.to_position_string()
        );
        let text = pos.to_position_string();
        match Position::from_position_string(rules.clone(), &text) {
            Ok(back) => {
                assert_eq!(back.to_position_string(), text, "{name}: ply {ply}: position string round trip");
                assert_eq!(back.hash(), pos.hash(), "{name}: ply {ply}: hash of the position read back from {text}");
            }
            Err(e) => panic!("{name}: ply {ply}: `{text}` does not read back: {e}"),
        }
        pos.unmake();
        assert_eq!(pos.hash(), before, "{name}: ply {ply}: unmake restores the hash");
        pos.make(mv);
    }
    for _ in 0..made {
        pos.unmake();
    }
    assert_eq!((pos.hash(), pos.to_position_string()), start, "{name}: unmaking every move restores the start");
}

/// The Zillions files of ../shared (its chess files and the corpus); `None` without it.
fn shared_files() -> Option<Vec<std::path::PathBuf>> {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared");
    let mut files = Vec::new();
    zrf_files(&shared.join("zrf"), &mut files);
    zrf_files(&shared.join("zrf-corpus"), &mut files);
    (!files.is_empty()).then_some(files)
}

#[test]
fn random_playouts_over_the_shared_zillions_files() {
    let Some(files) = shared_files() else {
        eprintln!("../shared not found: skipped");
        return;
    };
    let mut rng = StdRng::seed_from_u64(16);
    let mut played = 0;
    for path in &files {
        let Ok((_, game)) = varia_zrf::load_file(path, None) else { continue };
        let rules = Arc::new(Rules::new(game.variant));
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        for _ in 0..2 {
            playout(&rules, &mut rng, 40, &name);
        }
        played += 1;
    }
    assert!(played >= 50, "only {played} Zillions files loaded");
}

/// Along a random game, every legal move has a text of its own (the long form `moves`
/// prints), and reading that text gives the move back, as `replay`, UCI and the web read it; so
/// does the short form the web and PGN write. Every text is told apart from all the others; 50
/// moves a position, spread over the list, are read back (each reading generates the moves once,
/// so reading them all would cost a generation per move).
fn texts_along_a_game(rules: &Arc<Rules>, rng: &mut StdRng, plies: usize, name: &str) -> usize {
    let mut pos = Position::start(rules.clone());
    let mut moves = Vec::new();
    let mut checked = 0;
    for ply in 0..plies {
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mut texts: Vec<String> = moves.iter().map(|m| pos.long_notation(*m)).collect();
        for (mv, text) in moves.iter().zip(&texts).step_by(moves.len().div_ceil(50)) {
            let back = pos.parse_move(text);
            assert_eq!(back, Ok(*mv), "{name}: ply {ply}: `{text}` at {}", pos.to_position_string());
            let short = pos.short_notation(*mv, &moves);
            let back = pos.parse_move(&short);
            assert_eq!(back, Ok(*mv), "{name}: ply {ply}: short `{short}` at {}", pos.to_position_string());
            checked += 1;
        }
        texts.sort();
        let twice = texts.windows(2).find(|w| w[0] == w[1]);
        assert!(twice.is_none(), "{name}: ply {ply}: two moves written {twice:?} at {}", pos.to_position_string());
        pos.make(moves[rng.random_range(0..moves.len())]);
    }
    checked
}

/// The game and each playable variant of a Zillions file that load (a variant with an error of
/// its own is left out: the corpus test records errors), with its label.
fn games_of(path: &Path) -> Vec<(String, varia_interpreter::ir::Variant)> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut games = Vec::new();
    if let Ok((_, game)) = varia_zrf::load_file(path, None) {
        games.push((name.clone(), game.variant));
    }
    // Past the last variant the loader answers "no variant"; a file without a game says so
    // for every number.
    for n in 1..=256 {
        match varia_zrf::load_file(path, Some(&n.to_string())) {
            Ok((_, game)) => games.push((format!("{name} variant {n}"), game.variant)),
            Err((_, e)) if e.message.starts_with("no variant") || e.message.starts_with("the file has no") => break,
            Err(_) => {}
        }
    }
    games
}

#[test]
fn every_legal_move_of_the_shared_zillions_files_has_its_own_text() {
    let Some(files) = shared_files() else {
        eprintln!("../shared not found: skipped");
        return;
    };
    let mut rng = StdRng::seed_from_u64(50);
    let (mut games, mut checked) = (0, 0);
    for path in &files {
        for (name, variant) in games_of(path) {
            let rules = Arc::new(Rules::new(variant));
            checked += texts_along_a_game(&rules, &mut rng, 30, &name);
            games += 1;
        }
    }
    eprintln!("{games} games and variants, {checked} move texts read back");
    assert!(games >= 300, "only {games} Zillions games and variants loaded");
}
