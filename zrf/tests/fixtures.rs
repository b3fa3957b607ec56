//! Reads the crate's own small `.zrf` fixtures and checks their expansion or their error.
use std::path::PathBuf;

use varia_zrf::{read, Sexp};

fn fixture(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn error_of(name: &str) -> String {
    let text = fixture(name);
    read(&text).expect_err("the fixture is invalid").render(&text)
}

#[test]
fn corridor_expands_as_expected() {
    let text = fixture("corridor.zrf");
    let file = read(&text).expect("corridor.zrf is valid");
    let shown: Vec<String> = file.forms.iter().map(|form| form.pretty(90)).collect();
    insta::assert_snapshot!("corridor_expanded", shown.join("\n\n"));
    let names: Vec<&str> = file.macros.keys().map(String::as_str).collect();
    assert_eq!(names, ["Corridor-Board", "walk", "hop", "guard", "token"]);
    let arities: Vec<usize> = file.macros.values().map(|m| m.arity()).collect();
    assert_eq!(arities, [0, 1, 1, 0, 1]);
}

#[test]
fn corridor_nodes_report_their_macro_use() {
    let text = fixture("corridor.zrf");
    let file = read(&text).expect("corridor.zrf is valid");
    let game = file.game().expect("a game form");
    let names = game.find_forms("name");
    assert!(names.iter().any(|name| name.to_string() == "(name Token2)"));
    // Every `mark` came from `guard`; three of them through a use of `walk`.
    let mut chains = Vec::new();
    game.walk(&mut |node: &Sexp| {
        if node.is_atom("mark") {
            if let Some(origin) = &node.expanded_from {
                chains.push(origin.describe(&text));
            }
        }
    });
    assert_eq!(
        chains,
        [
            "in macro 'guard' used at 50:34, in macro 'walk' used at 26:7",
            "in macro 'guard' used at 50:34, in macro 'walk' used at 26:16",
            "in macro 'guard' used at 50:34, in macro 'walk' used at 26:25",
            "in macro 'guard' used at 31:29",
        ]
    );
    assert_eq!(file.variants().count(), 1);
}

#[test]
fn recursive_fixture() {
    assert_eq!(
        error_of("recursive.zrf"),
        "2:17: macro 'run' expands into itself (run → run), in macro 'run' used at 6:26 \
         ('run' is used again here, inside its own expansion)"
    );
}

#[test]
fn mutual_fixture() {
    assert_eq!(
        error_of("mutual.zrf"),
        "3:14: macro 'tick' expands into itself (tick → tock → tick), in macro 'tock' used at 2:14, \
         in macro 'tick' used at 5:30 ('tick' is used again here, inside its own expansion)"
    );
}

#[test]
fn unbalanced_fixture() {
    assert_eq!(
        error_of("unbalanced.zrf"),
        "1:1: unbalanced parentheses: a '(' is never closed (the innermost unclosed '(' opens here)"
    );
}

#[test]
fn unterminated_fixture() {
    assert_eq!(error_of("unterminated.zrf"), "2:10: unterminated string (this string is never closed)");
}

#[test]
fn stray_fixture() {
    assert_eq!(error_of("stray.zrf"), "2:16: unexpected ')' (no '(' is open here)");
}
