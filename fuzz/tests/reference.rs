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
        let budget = Budget { plies: 16, depth: 2, perft_nodes: 2_000, perft_every: 8, turns: true };
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

/// The Zillions files beside the repository (`../shared/zrf` and `../shared/zrf-corpus`), each
/// game that loads along one short random game; skipped, saying so, without `../shared`.
#[test]
fn zillions_games_agree_with_the_reference() {
    let shared = varia_fuzz::root().join("../shared");
    if !shared.is_dir() {
        eprintln!("skipped: no ../shared beside the repository");
        return;
    }
    let mut files = Vec::new();
    let mut dirs = vec![shared.join("zrf"), shared.join("zrf-corpus")];
    while let Some(d) = dirs.pop() {
        for p in std::fs::read_dir(&d).into_iter().flatten().filter_map(Result::ok).map(|e| e.path()) {
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("zrf")) {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut failures = Vec::new();
    let mut checked = 0;
    for f in files {
        let Ok((_, game)) = varia_zrf::load_file(&f, None) else { continue };
        let budget = Budget { plies: 8, depth: 2, perft_nodes: 500, perft_every: 8, turns: true };
        eprintln!("{} ...", f.display());
        let t = std::time::Instant::now();
        match check(game.variant, 0, budget) {
            Ok(_) => checked += 1,
            Err(e) => failures.push(format!("{}: {e}", f.display())),
        }
        eprintln!("{}: {:.1} s", f.display(), t.elapsed().as_secs_f64());
    }
    eprintln!("{checked} games agree");
    assert!(failures.is_empty(), "{} games differ:\n{}", failures.len(), failures.join("\n"));
}

/// docs/architecture.md holds the derivation's table as `Paths::markdown()` writes it.
#[test]
fn the_architecture_page_holds_the_paths_table() {
    let page = std::fs::read_to_string(varia_fuzz::root().join("docs/architecture.md")).expect("the page");
    let (begin, end) = ("<!-- paths:begin -->\n", "<!-- paths:end -->");
    let start = page.find(begin).expect("the table's begin marker") + begin.len();
    let stop = page.find(end).expect("the table's end marker");
    let table = varia_interpreter::paths::Paths::markdown();
    assert_eq!(&page[start..stop], table, "docs/architecture.md's paths table is stale; it should read:\n{table}");
}

/// Seeds of `random_var` whose games still differ from the reference, each with the defect it
/// shows (open work, kept so that the test fails when one is fixed and not struck off, and when
/// any other seed differs).
const KNOWN_VAR: &[(u64, &str)] = &[];

/// Random `.var` variants (`varia_fuzz::random_var`) along one random game each: every one
/// agrees with the reference but the known seeds above, which all still differ.
#[test]
fn random_variants_agree_with_the_reference() {
    let seeds: u64 = std::env::var("VARIA_RANDOM_VARIANTS").ok().and_then(|s| s.parse().ok()).unwrap_or(500);
    let budget = Budget { plies: 16, depth: 3, perft_nodes: 2_000, perft_every: 8, turns: true };
    let mut failures = Vec::new();
    let mut differ = Vec::new();
    for seed in 0..seeds {
        let text = varia_fuzz::random_var(seed);
        let variant = varia_grammar::load(&text).unwrap_or_else(|e| panic!("random_var({seed}) loads: {e:?}"));
        let t = std::time::Instant::now();
        let result = check(variant, seed, budget);
        eprintln!("random_var({seed}): {:.2} s", t.elapsed().as_secs_f64());
        if let Err(e) = result {
            differ.push(seed);
            if !KNOWN_VAR.iter().any(|(k, _)| *k == seed) {
                failures.push(format!("random_var({seed}): {e}"));
            }
        }
    }
    assert!(failures.is_empty(), "{} of {seeds} random variants differ:\n{}", failures.len(), failures.join("\n"));
    let stale: Vec<u64> = KNOWN_VAR.iter().map(|(k, _)| *k).filter(|k| *k < seeds && !differ.contains(k)).collect();
    assert!(stale.is_empty(), "these known seeds agree now: strike them off KNOWN_VAR: {stale:?}");
}

/// Random Zillions games (`varia_fuzz::random_zrf`) along one random game each.
#[test]
fn random_zillions_games_agree_with_the_reference() {
    let seeds: u64 = std::env::var("VARIA_RANDOM_ZRF").ok().and_then(|s| s.parse().ok()).unwrap_or(300);
    let budget = Budget { plies: 16, depth: 3, perft_nodes: 2_000, perft_every: 8, turns: true };
    let mut failures = Vec::new();
    for seed in 0..seeds {
        let text = varia_fuzz::random_zrf(seed);
        let game = varia_zrf::load(&text, None).unwrap_or_else(|e| panic!("random_zrf({seed}) loads: {}", e.message));
        let t = std::time::Instant::now();
        let result = check(game.variant, seed, budget);
        eprintln!("random_zrf({seed}): {:.2} s", t.elapsed().as_secs_f64());
        if let Err(e) = result {
            failures.push(format!("random_zrf({seed}): {e}"));
        }
    }
    assert!(failures.is_empty(), "{} of {seeds} random games differ:\n{}", failures.len(), failures.join("\n"));
}

/// Every move a partial move answered by a continuation that stands still (`add` first, the
/// `SureContinuations` path), under priorities that rank the continuation's type last (so its
/// moves at the start of a turn are never tested), with captures of the royal, promotions that
/// change the piece that goes on, and a piece without the continuation.
const STAND_STILL: &str = r#"variant "Settle"
board { grid 5 x 5 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
zone far {
  white: rank 5
  black: rank 1
}
move-types normal settle
priorities normal
piece King K {
  royal
  move normal { n verify not friend add-partial then settle }
  move normal { s verify not friend add-partial then settle }
  move normal { e verify not friend add-partial then settle }
  move normal { w verify not friend add-partial then settle }
  move settle { add }
}
piece Rook R {
  move normal { n while empty { add-partial then settle n } verify enemy add-partial then settle }
  move normal { e while empty { add-partial then settle e } verify enemy add-partial then settle }
  move normal { w while empty { add-partial then settle w } verify enemy add-partial then settle }
  move settle { mark add }
}
piece Pawn P {
  move normal { n verify empty if in(far) { add-partial(Rook) then settle } else { add-partial then settle } }
  move normal { ne verify enemy add-partial then settle }
  move settle { add }
}
piece Guard G {
  move normal { s verify not friend add-partial then settle }
  move normal { nw verify not friend add }
}
setup {
  white: K c1, R a1, P b2, P d2, G e1
  black: K c5, R e5, P b4, P d4, G a5
}
"#;

#[test]
fn stand_still_continuations_agree_with_the_reference() {
    use varia_interpreter::paths::Path;
    use varia_interpreter::perft::perft;
    use varia_interpreter::{Position, Rules};
    let variant = varia_grammar::load(STAND_STILL).unwrap_or_else(|e| panic!("{e:?}"));
    let fast = Rules::new(variant.clone());
    assert!(fast.fast_paths().iter().any(|p| p == "SureContinuations"), "{:?}", fast.fast_paths());
    let budget = Budget { plies: 24, depth: 3, perft_nodes: 5_000, perft_every: 4, turns: true };
    for seed in 0..6 {
        if let Err(e) = check(variant.clone(), seed, budget) {
            panic!("seed {seed}: {e}");
        }
    }
    // Listed or not, the continuation is there: the same counts, each action a ply.
    let count = |rules: Rules| perft(&mut Position::start(std::sync::Arc::new(rules)), 6);
    let listed = count(Rules::without(variant.clone(), &[Path::SureContinuations]));
    assert_eq!(count(fast), listed);
    assert_eq!(count(Rules::reference(variant)), listed);
}
