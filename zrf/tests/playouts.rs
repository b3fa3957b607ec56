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
/// prints), and reading that text gives the move back, as `replay`, UCI and the web read it.
fn texts_along_a_game(rules: &Arc<Rules>, rng: &mut StdRng, plies: usize, name: &str) {
    let mut pos = Position::start(rules.clone());
    let mut moves = Vec::new();
    for ply in 0..plies {
        pos.legal_moves(&mut moves);
        // Positions of thousands of placements are read one move at a time elsewhere.
        if moves.is_empty() || moves.len() > 1000 {
            break;
        }
        let mut texts: Vec<String> = moves.iter().map(|m| pos.long_notation(*m)).collect();
        for (mv, text) in moves.iter().zip(&texts) {
            let back = pos.parse_move(text);
            assert_eq!(back, Ok(*mv), "{name}: ply {ply}: `{text}` at {}", pos.to_position_string());
        }
        texts.sort();
        let twice = texts.windows(2).find(|w| w[0] == w[1]);
        assert!(twice.is_none(), "{name}: ply {ply}: two moves written {twice:?} at {}", pos.to_position_string());
        pos.make(moves[rng.random_range(0..moves.len())]);
    }
}

#[test]
fn every_legal_move_of_the_shared_zillions_files_has_its_own_text() {
    let Some(files) = shared_files() else {
        eprintln!("../shared not found: skipped");
        return;
    };
    let mut rng = StdRng::seed_from_u64(50);
    for path in &files {
        let Ok((_, game)) = varia_zrf::load_file(path, None) else { continue };
        let rules = Arc::new(Rules::new(game.variant));
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        texts_along_a_game(&rules, &mut rng, 30, &name);
    }
}
