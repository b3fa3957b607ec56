//! Perft counts against published values and independent oracles, read from tests/perft.txt.

mod common;

use varia_interpreter::{perft, perft_turns};

fn run(slow: bool) {
    let data = std::fs::read_to_string(common::root().join("tests/perft.txt")).expect("tests/perft.txt");
    let mut checked = 0;
    for line in data.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let f: Vec<&str> = line.split(';').map(str::trim).collect();
        let flags = f.get(4..).unwrap_or_default();
        let is_slow = flags.contains(&"slow");
        let turns = flags.contains(&"turns");
        if is_slow != slow {
            continue;
        }
        let rules = common::rules(f[0]);
        let mut pos = common::position(&rules, f[1]);
        let depth: u32 = f[2].parse().expect("depth");
        let expected: u64 = f[3].parse().expect("count");
        let before = pos.to_position_string();
        let count = if turns { perft_turns(&mut pos, depth).expect("turns end") } else { perft(&mut pos, depth) };
        assert_eq!(count, expected, "{line}");
        // Make/unmake must restore the position exactly, hash included.
        assert_eq!(pos.to_position_string(), before);
        assert_eq!(pos.hash(), pos.compute_hash());
        checked += 1;
    }
    assert!(checked > 0);
}

#[test]
fn published_counts() {
    run(false);
}

#[test]
#[ignore = "deep counts: minutes in a release build"]
fn published_counts_deep() {
    run(true);
}
