//! The fuzzing smoke run of `cargo test`: every target on its seeds and a few thousand
//! mutations, with a fixed seed; any panic or broken invariant fails with the input.

use std::time::Duration;

use varia_fuzz::{fuzz, Target};

fn smoke(target: Target, execs: u64) {
    let report = fuzz(target, Duration::from_secs(60), execs, 20, None);
    println!("{}: {} inputs, slowest {:?}", target.name(), report.execs, report.slowest.0);
    if let Some((input, message)) = report.failures.first() {
        let shown: String = String::from_utf8_lossy(input).chars().take(2000).collect();
        panic!("{} failures; the first: {message}\ninput:\n{shown}", report.failures.len());
    }
    assert!(
        report.slowest.0 < Duration::from_secs(10),
        "{:?}: {}",
        report.slowest.0,
        String::from_utf8_lossy(&report.slowest.1)
    );
}

#[test]
fn var_texts() {
    smoke(Target::Var, 5000);
}

#[test]
fn zrf_texts() {
    smoke(Target::Zrf, 5000);
}

#[test]
fn position_strings() {
    smoke(Target::Position, 20_000);
}

#[test]
fn move_strings() {
    smoke(Target::Move, 20_000);
}

#[test]
fn web_requests() {
    smoke(Target::Web, 3000);
}
