//! The evidence over the Dagaz corpus (`../shared/zrf-corpus`): per file, whether it loads (or its
//! first error) and its perft 1-2 counts, held in a snapshot so that a file that stops loading or
//! a count that changes fails the test. Skipped with a message when the corpus is absent.
use std::path::{Path, PathBuf};
use std::sync::Arc;

use varia_interpreter::{perft, Position, Rules};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/zrf-corpus");

/// Every `.zrf` under `dir`, sorted by path.
fn zrf_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut paths: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            zrf_files(&path, out);
        } else if path.extension().is_some_and(|x| x.eq_ignore_ascii_case("zrf")) {
            out.push(path);
        }
    }
}

/// One line of the table: `folder/file.zrf: perft 20 400`, or the first error with its place.
fn row(path: &Path, root: &Path) -> (String, Option<bool>) {
    let name = path.strip_prefix(root).unwrap_or(path).to_string_lossy().replace('\\', "/");
    match varia_zrf::load_file(path, None) {
        Err((_, e)) if e.message == "the file has no (game ...) form" => {
            (format!("{name}: not a game (no (game ...) form)"), None)
        }
        Err((text, e)) => (format!("{name}: error {}", e.render(&text)), Some(false)),
        Ok((_, game)) => {
            let rules = Arc::new(Rules::new(game.variant));
            let mut pos = Position::start(rules);
            let counts: Vec<String> = (1..=2).map(|depth| perft(&mut pos, depth).to_string()).collect();
            (format!("{name}: perft {}", counts.join(" ")), Some(true))
        }
    }
}

#[test]
fn every_corpus_game_loads_or_names_its_first_error() {
    let root = Path::new(CORPUS);
    let mut files = Vec::new();
    zrf_files(root, &mut files);
    if files.is_empty() {
        println!("skipping: no Zillions corpus at {}", root.display());
        return;
    }
    let rows: Vec<(String, Option<bool>)> = files.iter().map(|path| row(path, root)).collect();
    let games = rows.iter().filter(|(_, loaded)| loaded.is_some()).count();
    let loaded = rows.iter().filter(|(_, loaded)| *loaded == Some(true)).count();
    let mut table = format!("{loaded} of {games} games load and run perft 2\n");
    for (line, _) in &rows {
        table.push_str(line);
        table.push('\n');
    }
    println!("{table}");
    insta::assert_snapshot!("corpus_figures", table);
}
