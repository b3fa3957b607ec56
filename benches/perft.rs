//! Perft speed: varia on variants/chess.var against the shakmaty crate on standard chess, same run.
//!
//! `cargo bench --bench perft [-- NODES]` prints the node rate of every bundled variant, each at
//! the smallest depth whose perft reaches NODES leaf nodes (default one million), and shakmaty's
//! rate at chess.var's depth, with the ratios (best of three runs).

use std::sync::Arc;
use std::time::{Duration, Instant};

use varia_interpreter::{perft, Position, Rules};

fn best_of<F: FnMut() -> u64>(runs: usize, mut f: F) -> (u64, Duration) {
    let mut best = Duration::MAX;
    let mut nodes = 0;
    for _ in 0..runs {
        let t = Instant::now();
        nodes = f();
        best = best.min(t.elapsed());
    }
    (nodes, best)
}

fn rate(nodes: u64, d: Duration) -> f64 {
    nodes as f64 / d.as_secs_f64()
}

fn main() {
    let min_nodes: u64 = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(1_000_000);
    let root = env!("CARGO_MANIFEST_DIR");
    let mut rows = Vec::new();
    let mut chess_rate = 0.0;
    let mut chess_depth = 5;
    let mut files: Vec<_> = std::fs::read_dir(format!("{root}/variants"))
        .expect("variants/")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "var"))
        .collect();
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("variant file");
        let variant = varia_grammar::load(&text).expect("bundled variants are valid");
        let rules = Arc::new(Rules::new(variant));
        // Games of several actions per turn branch unevenly: pick the depth by node count.
        let mut depth = 1;
        while depth < 12 && perft(&mut Position::start(rules.clone()), depth) < min_nodes {
            depth += 1;
        }
        let (nodes, time) = best_of(3, || perft(&mut Position::start(rules.clone()), depth));
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if name == "chess.var" {
            chess_rate = rate(nodes, time);
            chess_depth = depth;
        }
        rows.push((name, depth, nodes, time));
    }
    let start = shakmaty::Chess::default();
    let depth = chess_depth;
    let (sk_nodes, sk_time) = best_of(3, || shakmaty::perft(&start, depth));
    println!("perft from the start position at the first depth reaching {min_nodes} nodes, best of 3 runs");
    println!(
        "{:<36} {:>5} {:>12} {:>10} {:>14} {:>12}",
        "engine / variant", "depth", "nodes", "ms", "nodes/s", "chess.var/it"
    );
    println!(
        "{:<36} {:>5} {:>12} {:>10.1} {:>14.0}",
        "shakmaty (chess)",
        depth,
        sk_nodes,
        sk_time.as_secs_f64() * 1e3,
        rate(sk_nodes, sk_time)
    );
    // The last column: how many times faster chess.var runs than this variant (rate ratio).
    for (name, d, nodes, time) in &rows {
        let r = rate(*nodes, *time);
        println!(
            "{:<36} {:>5} {:>12} {:>10.1} {:>14.0} {:>11.2}x",
            format!("varia {name}"),
            d,
            nodes,
            time.as_secs_f64() * 1e3,
            r,
            if r > 0.0 { chess_rate / r } else { 0.0 }
        );
    }
    if chess_rate > 0.0 {
        let chess_nodes = rows.iter().find(|r| r.0 == "chess.var").map(|r| r.2).unwrap_or(0);
        assert_eq!(chess_nodes, sk_nodes, "varia and shakmaty disagree on perft {depth}");
        println!("ratio shakmaty / varia on chess: {:.2}x", rate(sk_nodes, sk_time) / chess_rate);
    }
}
