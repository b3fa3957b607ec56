//! `varia-fuzz`: long in-process fuzzing runs, and seed folders for cargo-afl.
//!
//! ```sh
//! cargo run --release -p varia-fuzz -- run var 3600     # an hour on .var texts; findings in target/fuzz/
//! cargo run --release -p varia-fuzz -- seeds target/fuzz/seeds   # one folder of seeds per target
//! cargo run --release -p varia-fuzz -- differential 3600 500      # random games against the reference
//! cargo run --release -p varia-fuzz -- random var 500              # the random game of seed 500
//! ```

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use varia_fuzz::{fuzz, seeds, Target};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: varia-fuzz run TARGET SECONDS [SEED] | varia-fuzz seeds DIR | varia-fuzz differential SECONDS \
                 [FIRST-SEED] | varia-fuzz random var|zrf SEED   (TARGET: var zrf position move web)";
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["differential", seconds, rest @ ..] => {
            let Ok(seconds) = seconds.parse::<u64>() else {
                eprintln!("{usage}");
                return ExitCode::FAILURE;
            };
            let first = rest.first().and_then(|s| s.parse().ok()).unwrap_or(0);
            differential(Duration::from_secs(seconds), first)
        }
        ["run", target, seconds, rest @ ..] => {
            let (Some(target), Ok(seconds)) = (Target::named(target), seconds.parse::<u64>()) else {
                eprintln!("{usage}");
                return ExitCode::FAILURE;
            };
            let seed = rest.first().and_then(|s| s.parse().ok()).unwrap_or(1);
            let dir = varia_fuzz::root().join("target/fuzz");
            let _ = std::fs::create_dir_all(&dir);
            let current = dir.join(format!("current-{}", target.name()));
            let report = fuzz(target, Duration::from_secs(seconds), u64::MAX, seed, Some(&current));
            println!(
                "{}: {} inputs in {} s, {} failures, slowest {:?}",
                target.name(),
                report.execs,
                seconds,
                report.failures.len(),
                report.slowest.0
            );
            let _ = std::fs::write(dir.join(format!("slowest-{}", target.name())), &report.slowest.1);
            for (i, (input, message)) in report.failures.iter().enumerate() {
                let path = dir.join(format!("failure-{}-{i}", target.name()));
                let _ = std::fs::write(&path, input);
                println!("  {}: {message}", path.display());
            }
            if report.failures.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        // The random game a differential run checks for a seed, to reproduce a slow one.
        ["random", kind @ ("var" | "zrf"), seed] => {
            let Ok(seed) = seed.parse::<u64>() else {
                eprintln!("{usage}");
                return ExitCode::FAILURE;
            };
            print!("{}", if *kind == "zrf" { varia_fuzz::random_zrf(seed) } else { varia_fuzz::random_var(seed) });
            ExitCode::SUCCESS
        }
        ["seeds", dir] => {
            for target in Target::ALL {
                let out = PathBuf::from(dir).join(target.name());
                if let Err(e) = std::fs::create_dir_all(&out) {
                    eprintln!("error: {}: {e}", out.display());
                    return ExitCode::FAILURE;
                }
                for (i, seed) in seeds(target).iter().enumerate() {
                    let _ = std::fs::write(out.join(format!("seed-{i:04}")), seed);
                }
            }
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("{usage}");
            ExitCode::FAILURE
        }
    }
}

/// Random `.var` and `.zrf` games from seed `first` on, each against the plain reference
/// (`varia_fuzz::differential`), until the time is up; each difference is printed and written
/// to `target/fuzz/differential-SEED.var` (or `.zrf`).
fn differential(time: Duration, first: u64) -> ExitCode {
    use varia_fuzz::differential::{check, Budget};
    let dir = varia_fuzz::root().join("target/fuzz");
    let _ = std::fs::create_dir_all(&dir);
    let start = std::time::Instant::now();
    let (mut games, mut differ) = (0, 0);
    let mut seed = first;
    let watch = SlowGameWatch::start();
    while start.elapsed() < time {
        for zrf in [false, true] {
            watch.begin(seed, zrf);
            let text = if zrf { varia_fuzz::random_zrf(seed) } else { varia_fuzz::random_var(seed) };
            let variant = if zrf {
                varia_zrf::load(&text, None).map(|g| g.variant).map_err(|e| e.message)
            } else {
                varia_grammar::load(&text).map_err(|e| format!("{e:?}"))
            };
            // A panic is a finding too: reported, and the run goes on.
            let result = variant.and_then(|v| {
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(v, seed, Budget::default())))
                    .unwrap_or_else(|_| Err("the engine panicked".into()))
                    .map(|_| ())
            });
            games += 1;
            if let Err(e) = result {
                differ += 1;
                let path = dir.join(format!("differential-{seed}.{}", if zrf { "zrf" } else { "var" }));
                let _ = std::fs::write(&path, &text);
                println!("{}: {e}", path.display());
            }
        }
        seed += 1;
    }
    println!("{games} games (seeds {first} to {}), {differ} differ", seed.saturating_sub(1));
    if differ == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Names on stderr a game that has run a minute or more, once, so that a long run that does not
/// finish in its time still tells which seed held it up (a reference made slow by its rules).
struct SlowGameWatch {
    /// The seed under test (times two, plus one for a `.zrf` game) and when it began.
    current: std::sync::Arc<std::sync::Mutex<(u64, std::time::Instant)>>,
}

impl SlowGameWatch {
    const SLOW: Duration = Duration::from_secs(60);

    fn start() -> SlowGameWatch {
        let current = std::sync::Arc::new(std::sync::Mutex::new((u64::MAX, std::time::Instant::now())));
        let watched = current.clone();
        std::thread::spawn(move || {
            let mut told = u64::MAX;
            loop {
                std::thread::sleep(Duration::from_secs(5));
                let (game, since) = *watched.lock().unwrap_or_else(|e| e.into_inner());
                if game != told && game != u64::MAX && since.elapsed() >= Self::SLOW {
                    let kind = if game % 2 == 1 { "zrf" } else { "var" };
                    eprintln!("seed {} ({kind}) has run {} s", game / 2, since.elapsed().as_secs());
                    told = game;
                }
            }
        });
        SlowGameWatch { current }
    }

    fn begin(&self, seed: u64, zrf: bool) {
        *self.current.lock().unwrap_or_else(|e| e.into_inner()) =
            (seed.saturating_mul(2) + u64::from(zrf), std::time::Instant::now());
    }
}
