//! Fuzz targets for every input Varia reads, their seeds, an in-process mutation harness, and
//! seeded generators of random valid rule files (`random_var`, `random_zrf`).
//!
//! A target takes arbitrary bytes and runs one input through Varia, checking what must hold
//! for any input: no panic (the harness catches it), errors located inside the text, and for
//! accepted input the engine's invariants (make/unmake restores the position and its hash, a
//! position string reads back as itself). The same targets run three ways: a short smoke run
//! in `cargo test` (`tests/smoke.rs`), long in-process runs (`cargo run --release -p varia-fuzz
//! --bin varia-fuzz -- TARGET SECONDS`), and coverage-guided runs with cargo-afl (the `fuzz-afl`
//! binary; see docs/fuzzing.md).

pub mod differential;
pub mod mutate;
pub mod random_var;
pub mod random_zrf;
pub mod targets;

use std::path::{Path, PathBuf};

pub use random_var::{random_var, random_var_with_features, VAR_FEATURES};
pub use random_zrf::{random_zrf, random_zrf_with_features, ZRF_FEATURES};
pub use targets::{run, Target};

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The files of a folder (and its subfolders) whose names end with `ext`, sorted.
fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for path in entries.filter_map(Result::ok).map(|e| e.path()) {
            if path.is_dir() {
                dirs.push(path);
            } else if path.to_string_lossy().ends_with(ext) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The seeds of a target: the bundled variants and bad inputs for `.var`; the Zillions files of
/// `../shared/zrf` and the test games for `.zrf` (skipped without `../shared`); position strings
/// and moves of the bundled variants, from their setups and a few plies in; request bodies for
/// the web API.
pub fn seeds(target: Target) -> Vec<Vec<u8>> {
    let root = root();
    let read = |paths: Vec<PathBuf>| -> Vec<Vec<u8>> { paths.iter().filter_map(|p| std::fs::read(p).ok()).collect() };
    match target {
        Target::Var => {
            let mut out = read(files(&root.join("variants"), ".var"));
            out.extend(read(files(&root.join("tests/bad"), ".var")));
            out
        }
        Target::Zrf => {
            let mut out = read(files(&root.join("../shared/zrf"), ".zrf"));
            out.extend(read(files(&root.join("zrf/tests/games"), ".zrf")));
            out
        }
        Target::Position | Target::Move => targets::game_seeds(target),
        Target::Web => targets::web_seeds(),
    }
}

/// Words worth splicing into inputs of a target (keywords, numbers at the edges of limits).
pub fn dictionary(target: Target) -> &'static [&'static str] {
    match target {
        Target::Var => &[
            "board",
            "grid 26 x 99",
            "piece",
            "move {",
            "}",
            "{",
            "if",
            "else if",
            "while",
            "not ",
            "(",
            ")",
            "slide all",
            "leap 2 1",
            "hop",
            "step",
            "zone",
            "capacity 255",
            "between",
            "link",
            "direction d offset 16 0 0",
            "99999999999999999999",
            "-2147483648",
            "4294967295",
            "\u{feff}",
            "é",
            "\"",
            "/*",
            "//",
            "setup {",
        ],
        Target::Zrf => &[
            "(define",
            "$1",
            "$1$1$1$1",
            "(game",
            "(board",
            "(grid",
            "(dimensions",
            "(moves",
            "(while",
            "(if",
            "else",
            "(piece",
            "(name",
            "(players",
            "add",
            "(",
            ")",
            "\"",
            ";",
            "99999999999999999999",
            "(variant",
        ],
        Target::Position => &[
            "/",
            "8",
            "18446744073709551615",
            "99999999999999999999",
            "(",
            ")",
            "(B)",
            "*",
            "+",
            "-",
            " w ",
            " b ",
            "KQkq",
            "4294967295",
            "1000000000",
            "{",
            "}",
            "|",
            ".5",
            "hand=",
            "attrs=",
            "turn=",
            "partial=",
            "parts=",
            "last=",
        ],
        Target::Move => &["e2-e4", "x", "=", "@@", "@", "+", "#", "O-O", "end", "-", "a1", "Z99", "(", ")", "e8=Q"],
        Target::Web => &[
            "\"source\"",
            "\"moves\"",
            "\"start\"",
            "\"format\"",
            "\"zrf\"",
            "\"move\"",
            "[",
            "]",
            "{",
            "}",
            ",",
            ":",
            "null",
            "4000",
            "\\u0000",
            "\\ud800",
            "\"time_ms\"",
        ],
    }
}

/// What a run of the harness found and did.
#[derive(Debug, Default)]
pub struct Report {
    /// Inputs run.
    pub execs: u64,
    /// Inputs that panicked or broke an invariant, with the message.
    pub failures: Vec<(Vec<u8>, String)>,
    /// The slowest input and its time.
    pub slowest: (std::time::Duration, Vec<u8>),
}

/// Runs `target` on mutations of its seeds until `budget` passes or `max_execs` inputs ran,
/// with a fixed `seed` so a run repeats. Before each input it writes it to `current` (when
/// given), so an input that aborts the process (a stack overflow) is kept.
pub fn fuzz(target: Target, budget: std::time::Duration, max_execs: u64, seed: u64, current: Option<&Path>) -> Report {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut corpus = seeds(target);
    if corpus.is_empty() {
        corpus.push(Vec::new());
    }
    let seed_count = corpus.len();
    let start = std::time::Instant::now();
    let mut report = Report::default();
    quiet_panics(true);
    while start.elapsed() < budget && report.execs < max_execs {
        // The seeds themselves first, then mutations.
        let input = match corpus.get(report.execs as usize) {
            Some(seed) if (report.execs as usize) < seed_count => seed.clone(),
            _ => mutate::mutate(&mut rng, &corpus, dictionary(target)),
        };
        if let Some(path) = current {
            let _ = std::fs::write(path, &input);
        }
        let t = std::time::Instant::now();
        let outcome = std::panic::catch_unwind(|| run(target, &input));
        let took = t.elapsed();
        report.execs += 1;
        if took > report.slowest.0 {
            report.slowest = (took, input.clone());
        }
        match outcome {
            Ok(Ok(accepted)) => {
                // Keep some accepted inputs as parents: they reach deeper code.
                if accepted && corpus.len() < 4096 && rng.random_range(0..8) == 0 {
                    corpus.push(input);
                }
            }
            Ok(Err(broken)) => report.failures.push((input, broken)),
            Err(panic) => {
                let message = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "a panic".to_string());
                report.failures.push((input, format!("panicked: {message}")));
            }
        }
    }
    quiet_panics(false);
    report
}

thread_local! {
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Silences panic messages on this thread only (the fuzzer catches its inputs' panics), leaving
/// them on for other threads: the tests of one binary run side by side, and a failing test's
/// message must still be printed while a fuzz target runs beside it.
fn quiet_panics(on: bool) {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(|q| q.get()) {
                default(info);
            }
        }));
    });
    QUIET.with(|q| q.set(on));
}
