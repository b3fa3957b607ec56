//! Attack probes through lean runs: along random games, every cell's attacks read with lean programs run lean match those read with every program run in full.

use std::path::PathBuf;
use std::sync::Arc;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use varia_fuzz::{random_var, random_zrf};
use varia_interpreter::ir::{CellId, PlayerId, Variant};
use varia_interpreter::paths::Path;
use varia_interpreter::{Position, Rules};

const PLIES: usize = 16;

/// The chess-family Zillions files of ../shared/zrf-corpus (those present).
fn corpus() -> Vec<(String, Variant)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/zrf-corpus");
    let names = [
        "chess/chess.zrf",
        "chess/bomb-chess.zrf",
        "chess/platform-chess.zrf",
        "chess/hiashatar.zrf",
        "chess/makruk.zrf",
        "chess/shatranj.zrf",
        "chess/courier-chess.zrf",
        "chess/swap-chess.zrf",
        "chess/chaturaji.zrf",
        "checkmate/caissa.zrf",
        "checkmate/knights-court.zrf",
    ];
    names
        .iter()
        .filter_map(|n| varia_zrf::load_file(&root.join(n), None).ok().map(|(_, g)| (n.to_string(), g.variant)))
        .collect()
}

/// Plays a seeded random game on the lean rules and the same moves on the full ones, comparing
/// every cell's attacks by every player after each move; returns the attacks seen.
fn compare(name: &str, variant: Variant, seed: u64) -> usize {
    let lean = Arc::new(Rules::new(variant.clone()));
    let full = Arc::new(Rules::without(variant, &[Path::LeanRuns]));
    let (mut a, mut b) = (Position::start(lean.clone()), Position::start(full));
    let mut rng = StdRng::seed_from_u64(seed);
    let mut legal = Vec::new();
    let mut seen = 0;
    for ply in 0..PLIES {
        for p in 0..lean.player_count() {
            let by = PlayerId(p as u8);
            for c in 0..lean.cell_count() {
                let cell = CellId(c as u16);
                let (x, y) = (a.is_attacked(cell, by), b.is_attacked(cell, by));
                assert_eq!(x, y, "{name} (seed {seed}), ply {ply}, {cell:?} by {by:?}: {}", a.to_position_string());
                seen += x as usize;
            }
        }
        legal.clear();
        a.legal_moves(&mut legal);
        if legal.is_empty() {
            break;
        }
        let text = a.long_notation(legal[rng.random_range(0..legal.len())]);
        let mv = b.parse_move(&text).unwrap_or_else(|e| panic!("{name}: {text}: {e:?}"));
        let mv_a = a.parse_move(&text).unwrap_or_else(|e| panic!("{name}: {text}: {e:?}"));
        a.make(mv_a);
        b.make(mv);
    }
    seen
}

#[test]
fn lean_probes_find_the_checks_full_runs_find() {
    let mut lean_games = 0;
    let mut attacks = 0;
    let games = corpus();
    eprintln!("{} corpus games", games.len());
    for (name, variant) in games {
        lean_games += Rules::new(variant.clone()).fast_paths().iter().any(|p| p == "LeanRuns") as usize;
        attacks += compare(&name, variant, 7);
    }
    for seed in 0..60u64 {
        for (kind, text) in [("var", random_var(seed)), ("zrf", random_zrf(seed))] {
            let variant = if kind == "var" {
                varia_grammar::load(&text).ok()
            } else {
                varia_zrf::load(&text, None).ok().map(|g| g.variant)
            };
            let Some(variant) = variant else { continue };
            lean_games += Rules::new(variant.clone()).fast_paths().iter().any(|p| p == "LeanRuns") as usize;
            attacks += compare(&format!("random_{kind}({seed})"), variant, seed);
        }
    }
    eprintln!("{lean_games} games run programs lean; {attacks} attacks seen");
    // The comparison means something: lean programs ran, and they attacked.
    assert!(lean_games >= 10, "only {lean_games} games run programs lean");
    assert!(attacks > 1000, "only {attacks} attacks seen");
}
