//! Search speed: nodes per second of the alpha-beta search from the start of every bundled variant, as a ratio to chess.var's, same run.
//!
//! `cargo bench --bench search [-- NODES]` searches each start position until NODES nodes
//! (default 300,000; best of three runs).

use std::sync::Arc;
use std::time::Duration;

use varia_interpreter::{Limits, Position, Rules, Searcher};

fn main() {
    let nodes: u64 = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(300_000);
    let root = env!("CARGO_MANIFEST_DIR");
    let mut files: Vec<_> = std::fs::read_dir(format!("{root}/variants"))
        .expect("variants/")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "var"))
        .collect();
    files.sort();
    let mut rows = Vec::new();
    let mut chess = 0.0;
    for path in files {
        let text = std::fs::read_to_string(&path).expect("variant file");
        let rules = Arc::new(Rules::new(varia_grammar::load(&text).expect("bundled variants are valid")));
        let mut best = (0u64, Duration::MAX, 0u32);
        for _ in 0..3 {
            let mut pos = Position::start(rules.clone());
            let mut searcher = Searcher::new(&rules, 16);
            let limits = Limits { nodes: Some(nodes), ..Limits::default() };
            let info = searcher.search(&mut pos, limits, |_| {});
            if info.elapsed < best.1 {
                best = (info.nodes, info.elapsed, info.depth);
            }
        }
        let rate = best.0 as f64 / best.1.as_secs_f64();
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if name == "chess.var" {
            chess = rate;
        }
        rows.push((name, best.0, best.1, best.2, rate));
    }
    println!("alpha-beta search from the start position, {nodes} nodes, best of 3 runs");
    println!("{:<36} {:>10} {:>9} {:>6} {:>12} {:>12}", "variant", "nodes", "ms", "depth", "nodes/s", "chess.var/it");
    for (name, n, t, d, rate) in rows {
        println!(
            "{:<36} {:>10} {:>9.1} {:>6} {:>12.0} {:>11.2}x",
            name,
            n,
            t.as_secs_f64() * 1e3,
            d,
            rate,
            if rate > 0.0 { chess / rate } else { 0.0 }
        );
    }
}
