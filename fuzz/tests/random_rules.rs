//! Random rule files: every generated `.var` and `.zrf` text loads, compiles and survives a
//! short random game; the generators are deterministic and cover every feature they list.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use varia_fuzz::{random_var_with_features, random_zrf_with_features, VAR_FEATURES, ZRF_FEATURES};
use varia_interpreter::ir::Variant;
use varia_interpreter::{Position, Rules};

const VAR_SEEDS: u64 = 600;
const PLIES: usize = 30;

/// What the random games saw: plies played, and the legal moves of every position met.
#[derive(Default)]
struct Stats {
    plies: usize,
    positions: usize,
    moves: usize,
    most: usize,
}

/// Compiles the variant and plays up to `PLIES` random legal moves (seeded), unmaking them all
/// at the end.
fn play(variant: Variant, seed: u64, stats: &mut Stats) {
    let rules = Arc::new(Rules::new(variant));
    let mut pos = Position::start(rules);
    let start = pos.hash();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut legal = Vec::new();
    let mut played = 0;
    for _ in 0..PLIES {
        legal.clear();
        pos.legal_moves(&mut legal);
        stats.positions += 1;
        stats.moves += legal.len();
        stats.most = stats.most.max(legal.len());
        if legal.is_empty() {
            break;
        }
        pos.make(legal[rng.random_range(0..legal.len())]);
        played += 1;
    }
    for _ in 0..played {
        pos.unmake();
    }
    assert_eq!(pos.hash(), start, "unmaking {played} plies does not restore the start position");
    stats.plies += played;
}

/// Loads a generated `.var` text, or fails with the seed, the errors and the text.
fn load_var(seed: u64, text: &str) -> Variant {
    varia_grammar::load(text).unwrap_or_else(|errors| {
        let shown: Vec<String> = errors
            .iter()
            .map(|d| {
                let (line, col) = varia_grammar::line_col(text, d.span.start);
                format!("{line}:{col}: {} ({}) at `{}`", d.message, d.label, &text[d.span.clone()])
            })
            .collect();
        panic!("random_var({seed}) does not load:\n{}\n---\n{text}", shown.join("\n"))
    })
}

/// Runs `f` for one seed, reporting the seed and the text if it panics.
fn guarded(kind: &str, seed: u64, text: &str, f: impl FnOnce()) {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(()) => {}
        Err(e) => {
            let msg = e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()));
            panic!("{kind} seed {seed}: {}\n---\n{text}", msg.unwrap_or_default())
        }
    }
}

fn report(kind: &str, files: u64, stats: &Stats, started: Instant) {
    println!(
        "{files} {kind} files, {} plies in {:?}; legal moves per position: {:.1} on average, {} at most",
        stats.plies,
        started.elapsed(),
        stats.moves as f64 / stats.positions.max(1) as f64,
        stats.most
    );
}

#[test]
fn random_var_files_load_compile_and_play() {
    let started = Instant::now();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut stats = Stats::default();
    for seed in 0..VAR_SEEDS {
        let (text, features) = random_var_with_features(seed);
        assert_eq!(random_var_with_features(seed).0, text, "seed {seed} gives two different texts");
        guarded("var", seed, &text, || play(load_var(seed, &text), seed, &mut stats));
        for f in features {
            *counts.entry(f).or_default() += 1;
        }
    }
    report("var", VAR_SEEDS, &stats, started);
    for f in VAR_FEATURES {
        println!("{f:>24} {:>4}", counts.get(f).copied().unwrap_or(0));
    }
    let rare: Vec<String> = VAR_FEATURES
        .iter()
        .filter(|f| counts.get(*f).copied().unwrap_or(0) < 10)
        .map(|f| format!("{f} ({})", counts.get(f).copied().unwrap_or(0)))
        .collect();
    assert!(rare.is_empty(), "features in fewer than 10 of {VAR_SEEDS} variants: {}", rare.join(", "));
    assert!(stats.plies > VAR_SEEDS as usize * 5, "random games too short: {} plies in all", stats.plies);
}

const ZRF_SEEDS: u64 = 300;

/// Loads a generated `.zrf` text, or fails with the seed, the error and the text.
fn load_zrf(seed: u64, text: &str) -> Variant {
    match varia_zrf::load(text, None) {
        Ok(game) => game.variant,
        Err(e) => {
            let (line, col) = varia_grammar::line_col(text, e.span.start);
            panic!("random_zrf({seed}) does not load:\n{line}:{col}: {}\n---\n{text}", e.message)
        }
    }
}

#[test]
fn random_zrf_files_load_compile_and_play() {
    let started = Instant::now();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut stats = Stats::default();
    for seed in 0..ZRF_SEEDS {
        let (text, features) = random_zrf_with_features(seed);
        assert_eq!(random_zrf_with_features(seed).0, text, "seed {seed} gives two different texts");
        guarded("zrf", seed, &text, || play(load_zrf(seed, &text), seed, &mut stats));
        for f in features {
            *counts.entry(f).or_default() += 1;
        }
    }
    report("zrf", ZRF_SEEDS, &stats, started);
    for f in ZRF_FEATURES {
        println!("{f:>24} {:>4}", counts.get(f).copied().unwrap_or(0));
    }
    let rare: Vec<String> = ZRF_FEATURES
        .iter()
        .filter(|f| counts.get(*f).copied().unwrap_or(0) < 10)
        .map(|f| format!("{f} ({})", counts.get(f).copied().unwrap_or(0)))
        .collect();
    assert!(rare.is_empty(), "features in fewer than 10 of {ZRF_SEEDS} games: {}", rare.join(", "));
    assert!(stats.plies > ZRF_SEEDS as usize * 5, "random games too short: {} plies in all", stats.plies);
}

/// Plays a seed's random game, which must take under ten seconds in all.
fn plays_quickly(seed: u64) {
    let started = Instant::now();
    let mut stats = Stats::default();
    play(load_var(seed, &varia_fuzz::random_var(seed)), seed, &mut stats);
    assert!(stats.positions > 0 && started.elapsed().as_secs() < 10, "seed {seed}: {:?}", started.elapsed());
}

/// `between` locations with a `no-drop-checkmate` piece: one position's legal moves took
/// minutes, drops between cells over pieces emptying the board as the question whether a drop
/// checkmates made and unmade them (tests/regressions.rs has the smallest such game).
#[test]
fn random_var_5204_plays_quickly() {
    plays_quickly(5204);
}

/// `between` locations with a `no-drop-checkmate` piece: the seventh ply overflowed the stack,
/// for the same reason as seed 5204's.
#[test]
fn random_var_6078_plays_quickly() {
    plays_quickly(6078);
}
