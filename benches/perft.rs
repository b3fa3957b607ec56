//! Perft speed: varia on variants/chess.var against the shakmaty crate on standard chess, same run.
//!
//! `cargo bench --bench perft [-- NODES] [NAME...]` prints the node rate of every bundled variant
//! (or of those whose file names hold a NAME, with chess.var), each at the smallest depth whose
//! perft reaches NODES leaf nodes (default one million), and shakmaty's rate at chess.var's
//! depth, with the ratios (best of three runs) and the last ply's leaves per position. Then the games that use move
//! programs: chess and Hans38 with their knight written as eight programs, the Zillions files of
//! `../shared/zrf/` (when present), chess.zrf converted to a `.var` file, and declarative
//! versions of makruk.zrf and shatranj.zrf (`benches/variants/`), whose counts must equal the
//! Zillions files' and whose rates are the reference for them.

use std::sync::Arc;
use std::time::{Duration, Instant};

use varia_interpreter::{perft, perft_threads, Position, Rules};

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

/// A row of the table: name, depth, nodes, time.
type Row = (String, u32, u64, Duration);

/// Counts `rules` at the first depth reaching `min_nodes` leaves, best of three.
fn measure(name: &str, rules: &Arc<Rules>, min_nodes: u64) -> Row {
    // Games of several actions per turn branch unevenly: pick the depth by node count.
    let mut depth = 1;
    while depth < 12 && perft(&mut Position::start(rules.clone()), depth) < min_nodes {
        depth += 1;
    }
    let (nodes, time) = best_of(3, || perft(&mut Position::start(rules.clone()), depth));
    (name.to_string(), depth, nodes, time)
}

fn compile(text: &str) -> Arc<Rules> {
    Arc::new(Rules::new(varia_grammar::load(text).expect("valid variant")))
}

/// The knight of a bundled game rewritten as its eight move programs.
fn program_knight(text: &str) -> String {
    let programs: String = ["n n e", "n n w", "s s e", "s s w", "e e n", "e e s", "w w n", "w w s"]
        .iter()
        .map(|p| format!("  move {{ {p} verify not friend add }}\n"))
        .collect();
    text.replacen("  leap 2 1\n", &programs, 1)
}

fn print_row(row: &Row, reference: f64) {
    let (name, d, nodes, time) = row;
    let r = rate(*nodes, *time);
    println!(
        "{:<36} {:>5} {:>12} {:>10.1} {:>14.0} {:>11.2}x",
        name,
        d,
        nodes,
        time.as_secs_f64() * 1e3,
        r,
        if r > 0.0 { reference / r } else { 0.0 }
    );
}

/// The games with move programs, and their references.
fn programs(root: &str, min_nodes: u64, chess_rate: f64) {
    println!("\ngames with move programs (last column: chess.var's rate / this rate)");
    let bundled = |name: &str| std::fs::read_to_string(format!("{root}/variants/{name}")).expect("bundled variant");
    let chess = compile(&program_knight(&bundled("chess.var")));
    print_row(&measure("varia chess.var, knight as programs", &chess, min_nodes), chess_rate);
    let hans = compile(&program_knight(&bundled("hans38.var")));
    let hans_plain = compile(&bundled("hans38.var"));
    let plain = measure("varia hans38.var", &hans_plain, min_nodes);
    print_row(&measure("varia hans38.var, knight as programs", &hans, min_nodes), chess_rate);
    print_row(&plain, chess_rate);
    let shared = std::path::Path::new(root).join("../shared/zrf");
    if !shared.is_dir() {
        println!("(../shared/zrf/ not found: the Zillions rows are skipped)");
        return;
    }
    let zrf = |name: &str| -> Option<Arc<Rules>> {
        let text = std::fs::read_to_string(shared.join(name)).ok()?;
        Some(Arc::new(Rules::new(varia_zrf::load(&text, None).ok()?.variant)))
    };
    for name in ["chess.zrf", "courier-chess.zrf", "platform-chess.zrf", "dragonchess.zrf"] {
        match zrf(name) {
            Some(rules) => print_row(&measure(&format!("varia {name}"), &rules, min_nodes), chess_rate),
            None => println!("{name}: does not load"),
        }
    }
    if let Some(rules) = zrf("chess.zrf") {
        let text = varia_grammar::write::write_variant(&rules.variant).expect("chess.zrf converts");
        print_row(&measure("varia chess.zrf converted to .var", &compile(&text), min_nodes), chess_rate);
    }
    // Each Zillions file against its declarative version (last column: declarative rate / it).
    println!("\nZillions files against the same game written with move powers (last column: .var rate / .zrf rate)");
    for game in ["makruk", "shatranj"] {
        let Some(z) = zrf(&format!("{game}.zrf")) else { continue };
        let text = std::fs::read_to_string(format!("{root}/benches/variants/{game}.var")).expect("bench variant");
        let d = measure(&format!("varia benches/variants/{game}.var"), &compile(&text), min_nodes);
        let zr = measure(&format!("varia {game}.zrf"), &z, min_nodes);
        assert_eq!((d.1, d.2), (zr.1, zr.2), "{game}: the .var and .zrf counts differ");
        let reference = rate(d.2, d.3);
        print_row(&d, reference);
        print_row(&zr, reference);
    }
}

/// `varia perft --threads N` on chess.var (every core), apart from the ratios above: the
/// machine's other load decides what it shows.
fn threads(root: &str, depth: u32, nodes: u64, chess_rate: f64) {
    let n = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let rules = compile(&std::fs::read_to_string(format!("{root}/variants/chess.var")).expect("chess.var"));
    let (counted, time) =
        best_of(3, || perft_threads(&mut Position::start(rules.clone()), depth, false, n).expect("plies, not turns"));
    assert_eq!(counted, nodes, "perft on {n} threads counts as on one");
    print_row(&(format!("varia chess.var, --threads {n}"), depth, counted, time), chess_rate);
}

/// The layer only perft uses, against perft without it, per bundled game where the game may
/// take it (last column: how many times faster with it): the bulk count of the last ply
/// (`BulkCount`: ray and mask counts, the stacked and square-action counts). Without it, perft
/// counts the list the search's generator makes.
fn layers(root: &str, min_nodes: u64, filters: &[String]) {
    use varia_interpreter::paths::Path;
    println!("\nthe perft-only layer (gain: time without it / time with it)");
    println!("{:<36} {:>5} {:>12} {:>10} {:>12}", "variant", "depth", "nodes", "ms", "BulkCount");
    let mut files: Vec<_> = std::fs::read_dir(format!("{root}/variants"))
        .expect("variants/")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "var"))
        .filter(|p| {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            filters.is_empty() || name == "chess.var" || filters.iter().any(|f| name.contains(f.as_str()))
        })
        .collect();
    files.sort();
    for path in files {
        let variant = varia_grammar::load(&std::fs::read_to_string(&path).expect("variant file")).expect("valid");
        let all = Arc::new(Rules::new(variant.clone()));
        let (_, depth, nodes, time) = measure("", &all, min_nodes);
        let gain = |layer: Path| {
            if !all.fast_paths().contains(&format!("{layer:?}")) {
                return "-".to_string();
            }
            let without = Arc::new(Rules::without(variant.clone(), &[layer]));
            let (n, t) = best_of(3, || perft(&mut Position::start(without.clone()), depth));
            assert_eq!(n, nodes, "{}: perft without {layer:?} counts differently", path.display());
            format!("{:.2}x", t.as_secs_f64() / time.as_secs_f64())
        };
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let bulk = gain(Path::BulkCount);
        println!("{name:<36} {depth:>5} {nodes:>12} {:>10.1} {bulk:>12}", time.as_secs_f64() * 1e3);
    }
}

/// chess.var's perft counting the list the search's generator makes (no perft-only layer)
/// against shakmaty's, same depth, same run.
fn search_generator(root: &str, depth: u32, sk_rate: f64) {
    use varia_interpreter::paths::Path;
    let variant =
        varia_grammar::load(&std::fs::read_to_string(format!("{root}/variants/chess.var")).expect("chess.var"))
            .expect("valid");
    let rules = Arc::new(Rules::without(variant, &[Path::BulkCount]));
    let (nodes, time) = best_of(3, || perft(&mut Position::start(rules.clone()), depth));
    print_row(&("varia chess.var, the search's generator".into(), depth, nodes, time), sk_rate);
    println!("ratio shakmaty / varia on chess with the search's generator: {:.2}x", sk_rate / rate(nodes, time));
}

fn main() {
    let min_nodes: u64 = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(1_000_000);
    // Words that are not numbers nor options pick the variant files whose names hold one of
    // them (chess.var always runs); with them, the games with programs are left out.
    let filters: Vec<String> =
        std::env::args().skip(1).filter(|a| a.parse::<u64>().is_err() && !a.starts_with('-')).collect();
    let root = env!("CARGO_MANIFEST_DIR");
    let mut rows = Vec::new();
    let mut chess_rate = 0.0;
    let mut chess_depth = 5;
    let mut files: Vec<_> = std::fs::read_dir(format!("{root}/variants"))
        .expect("variants/")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "var"))
        .filter(|p| {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            filters.is_empty() || name == "chess.var" || filters.iter().any(|f| name.contains(f.as_str()))
        })
        .collect();
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("variant file");
        let variant = varia_grammar::load(&text).expect("bundled variants are valid");
        let rules = Arc::new(Rules::new(variant));
        // Games of several actions per turn branch unevenly: pick the depth by node count.
        // The positions whose moves the last ply counts: leaves per position tell how far the
        // last ply's branching spreads the per-position cost.
        let (mut depth, mut before) = (1, 1);
        loop {
            let n = perft(&mut Position::start(rules.clone()), depth);
            if depth >= 12 || n >= min_nodes {
                break;
            }
            before = n;
            depth += 1;
        }
        let (nodes, time) = best_of(3, || perft(&mut Position::start(rules.clone()), depth));
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if name == "chess.var" {
            chess_rate = rate(nodes, time);
            chess_depth = depth;
        }
        rows.push((name, depth, nodes, time, before));
    }
    let start = shakmaty::Chess::default();
    let depth = chess_depth;
    let (sk_nodes, sk_time) = best_of(3, || shakmaty::perft(&start, depth));
    println!("perft from the start position at the first depth reaching {min_nodes} nodes, best of 3 runs");
    println!(
        "{:<36} {:>5} {:>12} {:>10} {:>14} {:>12} {:>10}",
        "engine / variant", "depth", "nodes", "ms", "nodes/s", "chess.var/it", "last ply"
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
    // The last column: leaves per position of the last ply (its mean branching).
    for (name, d, nodes, time, before) in &rows {
        let r = rate(*nodes, *time);
        println!(
            "{:<36} {:>5} {:>12} {:>10.1} {:>14.0} {:>11.2}x {:>10.1}",
            format!("varia {name}"),
            d,
            nodes,
            time.as_secs_f64() * 1e3,
            r,
            if r > 0.0 { chess_rate / r } else { 0.0 },
            *nodes as f64 / (*before).max(1) as f64
        );
    }
    if chess_rate > 0.0 {
        let chess_nodes = rows.iter().find(|r| r.0 == "chess.var").map(|r| r.2).unwrap_or(0);
        assert_eq!(chess_nodes, sk_nodes, "varia and shakmaty disagree on perft {depth}");
        println!("ratio shakmaty / varia on chess: {:.2}x", rate(sk_nodes, sk_time) / chess_rate);
        search_generator(root, depth, rate(sk_nodes, sk_time));
        threads(root, depth, chess_nodes, chess_rate);
    }
    layers(root, min_nodes, &filters);
    if filters.is_empty() {
        programs(root, min_nodes, chess_rate);
    }
}
