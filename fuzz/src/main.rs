//! `varia-fuzz`: long in-process fuzzing runs, and seed folders for cargo-afl.
//!
//! ```sh
//! cargo run --release -p varia-fuzz -- run var 3600     # an hour on .var texts; findings in target/fuzz/
//! cargo run --release -p varia-fuzz -- seeds target/fuzz/seeds   # one folder of seeds per target
//! ```

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use varia_fuzz::{fuzz, seeds, Target};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage =
        "usage: varia-fuzz run TARGET SECONDS [SEED] | varia-fuzz seeds DIR   (TARGET: var zrf position move web)";
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
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
