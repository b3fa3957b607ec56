//! The fast paths against the plain reference (`varia_fuzz::differential`) along seeded random games of every bundled variant, the bench's variants and the Zillions chess files.

use varia_fuzz::differential::{check, Budget};

fn bundled() -> Vec<(String, String)> {
    let root = varia_fuzz::root();
    let mut out = Vec::new();
    for dir in ["variants", "benches/variants"] {
        let mut files: Vec<_> =
            std::fs::read_dir(root.join(dir)).expect("folder").filter_map(Result::ok).map(|e| e.path()).collect();
        files.retain(|p| p.extension().is_some_and(|e| e == "var"));
        files.sort();
        for f in files {
            out.push((f.display().to_string(), std::fs::read_to_string(&f).expect("readable")));
        }
    }
    out
}

#[test]
fn bundled_variants_agree_with_the_reference() {
    let mut failures = Vec::new();
    for (name, text) in bundled() {
        let variant = varia_grammar::load(&text).unwrap_or_else(|_| panic!("{name} loads"));
        let budget = Budget { plies: 16, depth: 2, perft_nodes: 2_000, perft_every: 8 };
        for seed in 0..2 {
            let t = std::time::Instant::now();
            match check(variant.clone(), seed, budget) {
                Ok(seen) => eprintln!(
                    "{name} seed {seed}: {} positions, {} moves, {:.1} s",
                    seen.positions,
                    seen.moves,
                    t.elapsed().as_secs_f64()
                ),
                Err(e) => failures.push(format!("{name}: {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
