//! Lowering never panics: every prefix of each test game, and many random mutations of the test
//! games and the corpus, give `Ok` or a located `Err`.
use std::path::{Path, PathBuf};

use varia_zrf::{line_col, load, variant_titles};

/// A seeded generator (rand's `StdRng`), so failures reproduce.
struct Rng(rand::rngs::StdRng);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(<rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(seed))
    }

    fn below(&mut self, n: usize) -> usize {
        rand::Rng::random_range(&mut self.0, 0..n.max(1))
    }
}

/// Checks one input; true when it loaded.
fn check(text: &str, choice: Option<&str>) -> bool {
    let loaded = match load(text, choice) {
        Ok(game) => {
            for note in &game.notes {
                assert!(note.span.end <= text.len());
            }
            true
        }
        Err(err) => {
            assert!(err.span.start <= err.span.end, "bad span {:?}", err.span);
            assert!(err.span.end <= text.len(), "span {:?} past the end", err.span);
            assert!(!err.message.is_empty());
            let (line, col) = line_col(text, err.span.start);
            assert!(line >= 1 && col >= 1);
            false
        }
    };
    let _ = variant_titles(text);
    loaded
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        println!("skipping: no rule-file folder at {}", dir.display());
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|ext| ext == "zrf"))
        .collect();
    files.sort();
    files
}

fn games() -> Vec<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/games");
    files(&dir).iter().map(|p| std::fs::read_to_string(p).expect("game text")).collect()
}

fn corpus() -> Vec<String> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/zrf"));
    files(&dir).iter().map(|p| String::from_utf8_lossy(&std::fs::read(p).expect("corpus file")).into_owned()).collect()
}

#[test]
fn every_prefix_of_the_test_games_is_handled() {
    for text in games() {
        for end in (0..=text.len()).filter(|&end| text.is_char_boundary(end)) {
            check(&text[..end], None);
        }
    }
}

/// Splits a text into parentheses, strings and words (comments dropped).
fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '(' | ')' => out.push(c.to_string()),
            ';' => {
                while chars.peek().is_some_and(|&c| c != '\n') {
                    chars.next();
                }
            }
            '"' => {
                let mut s = String::from('"');
                for c in chars.by_ref() {
                    s.push(c);
                    if c == '"' {
                        break;
                    }
                }
                out.push(s);
            }
            c if c.is_whitespace() => {}
            c => {
                let mut s = String::from(c);
                while chars.peek().is_some_and(|&c| !c.is_whitespace() && !"()\";".contains(c)) {
                    s.extend(chars.next());
                }
                out.push(s);
            }
        }
    }
    out
}

const EXTRA: &[&str] = &[
    "(",
    ")",
    "0",
    "-1",
    "99999",
    "1000000",
    "off",
    "repeat",
    "else",
    "add",
    "(add-partial)",
    "(go nowhere)",
    "(kill-positions a1)",
    "(unlink a1)",
    "(links x (a1 a1))",
    "(verify)",
    "(if)",
    "(while)",
    "not-",
    "not-?",
    "?",
    "(absolute-config)",
    "(create)",
    "(set-attribute x y)",
    "\"\"",
    "(grid)",
    "(dimensions (\"\" (0 0)))",
];

fn mutate(rng: &mut Rng, base: &[String], pool: &[String]) -> String {
    let mut toks = base.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(toks.len());
        let pick = |rng: &mut Rng| -> String {
            if rng.below(3) == 0 {
                EXTRA[rng.below(EXTRA.len())].to_string()
            } else {
                pool[rng.below(pool.len())].clone()
            }
        };
        match rng.below(5) {
            0 if !toks.is_empty() => {
                toks.remove(at);
            }
            1 => {
                let tok = pick(rng);
                toks.insert(at, tok);
            }
            2 if !toks.is_empty() => toks[at] = pick(rng),
            3 if !toks.is_empty() => {
                let other = rng.below(toks.len());
                toks.swap(at, other);
            }
            _ => {
                // Duplicate a stretch of tokens (often a whole list).
                let len = 1 + rng.below(30);
                let stretch: Vec<String> = toks.iter().skip(at).take(len).cloned().collect();
                for (i, tok) in stretch.into_iter().enumerate() {
                    toks.insert(at + i, tok);
                }
            }
        }
    }
    toks.join(" ")
}

#[test]
fn random_mutations_never_panic() {
    let mut rng = Rng::new(0x1234_5678_9abc_def1);
    let mut texts = games();
    texts.extend(corpus());
    let mut loaded = 0;
    for text in &texts {
        let base = tokens(text);
        let pool: Vec<String> = base.iter().filter(|t| t != &"(" && t != &")").cloned().collect();
        for round in 0..300 {
            let mutated = mutate(&mut rng, &base, &pool);
            let choice = match round % 3 {
                0 => None,
                1 => Some("1"),
                _ => Some("2"),
            };
            loaded += usize::from(check(&mutated, choice));
        }
    }
    // The mutations must not all stop at the reader: some reach the end of the lowering.
    assert!(loaded * 20 > texts.len() * 300, "only {loaded} mutations loaded");
}

#[test]
fn deep_nesting_in_bodies_and_goals_is_handled() {
    let depth = 190;
    let condition = format!("{}empty?{}", "(not ".repeat(depth), ")".repeat(depth));
    let ifs = format!("{}add{}", "(if empty? ".repeat(depth), ")".repeat(depth));
    let goal = format!("{}stalemated{}", "(not ".repeat(depth), ")".repeat(depth));
    let text = format!(
        "(game (players A B) (board (grid (dimensions (\"a/b\" (1 0)) (\"1/2\" (0 1))) (directions (n 0 -1))))\n\
         (piece (name P) (moves (n (verify {condition}) {ifs})))\n\
         (win-condition (A) {goal}))"
    );
    assert!(check(&text, None), "loads");
}
