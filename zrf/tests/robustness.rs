//! Bad input of every shape gives `Ok` or a located `Err`, never a panic, a hang or a crash.
use std::path::PathBuf;

use varia_zrf::{line_col, read, ZrfError};

/// A seeded generator (rand's `StdRng`), so failures reproduce.
struct Rng(rand::rngs::StdRng);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(<rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(seed))
    }

    fn next(&mut self) -> u64 {
        rand::Rng::random(&mut self.0)
    }

    fn below(&mut self, n: usize) -> usize {
        rand::Rng::random_range(&mut self.0, 0..n.max(1))
    }
}

const PIECES: &[&str] = &[
    "(",
    ")",
    "(",
    ")",
    "\"",
    ";",
    "\n",
    " ",
    "$1",
    "$2",
    "$0",
    "$",
    "a",
    "add",
    "define",
    "(define",
    "(define m ($1 (m)))",
    "(define k $1 $1)",
    "(k (k (k x)))",
    "(define d (name D$1 \"$2\"))",
    "(d (x y))",
    "(d q)",
    "(m n)",
    "é",
    "\\",
    "\r",
    "\u{feff}",
    "(define)",
    "(define \"s\")",
    "((",
    "))",
    "(game",
];

fn check(text: &str) {
    match read(text) {
        Ok(_) => {}
        Err(err) => check_error(text, &err),
    }
}

fn check_error(text: &str, err: &ZrfError) {
    assert!(err.span.start <= err.span.end, "bad span {:?} for {text:?}", err.span);
    assert!(err.span.end <= text.len(), "span {:?} past the end of {text:?}", err.span);
    assert!(!err.message.is_empty());
    let (line, col) = line_col(text, err.span.start);
    assert!(line >= 1 && col >= 1);
    assert!(err.render(text).contains(&err.message));
}

#[test]
fn random_token_soup_never_panics() {
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    for _ in 0..4000 {
        let count = 1 + rng.below(40);
        let text: String = (0..count).map(|_| PIECES[rng.below(PIECES.len())]).collect();
        check(&text);
    }
}

#[test]
fn random_bytes_as_text_never_panic() {
    let mut rng = Rng::new(42);
    for _ in 0..2000 {
        let len = rng.below(200);
        let bytes: Vec<u8> = (0..len).map(|_| (rng.next() & 0xff) as u8).collect();
        check(&String::from_utf8_lossy(&bytes));
    }
}

#[test]
fn every_prefix_of_the_fixtures_is_handled() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(&dir).expect("fixtures folder").filter_map(Result::ok).map(|e| e.path()).collect();
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("fixture text");
        for end in (0..=text.len()).filter(|&end| text.is_char_boundary(end)) {
            check(&text[..end]);
        }
    }
}

#[test]
fn prefixes_of_the_corpus_are_handled() {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/zrf"));
    let Ok(entries) = std::fs::read_dir(&dir) else {
        println!("skipping: no rule-file corpus at {}", dir.display());
        return;
    };
    let paths = entries.filter_map(Result::ok).map(|e| e.path());
    for path in paths.filter(|path| path.extension().is_some_and(|ext| ext == "zrf")) {
        let text = String::from_utf8_lossy(&std::fs::read(&path).expect("corpus file")).into_owned();
        for end in (0..=text.len()).step_by(37).filter(|&end| text.is_char_boundary(end)) {
            check(&text[..end]);
        }
    }
}

#[test]
fn huge_inputs_are_refused_quickly() {
    check(&"(".repeat(1_000_000));
    check(&")".repeat(1_000_000));
    check(&format!("\"{}", "x".repeat(1_000_000)));
    let wide = format!("(define w ({}))\n(w)(w)(w)(w)(w)(w)(w)(w)(w)(w)(w)(w)", "a ".repeat(200_000));
    check(&wide);
}
