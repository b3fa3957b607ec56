//! Expands every real rule file in the shared corpus (`../shared/zrf` beside the workspace),
//! when that folder exists; a clone of the project alone has no such folder and skips.
use std::path::{Path, PathBuf};

use varia_zrf::{read, Sexp, ZrfFile};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/zrf");

/// The corpus files, sorted, or `None` (with a message) when the folder is absent.
fn corpus() -> Option<Vec<PathBuf>> {
    corpus_at(Path::new(CORPUS))
}

fn corpus_at(dir: &Path) -> Option<Vec<PathBuf>> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        println!("skipping: no rule-file corpus at {}", dir.display());
        return None;
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext.eq_ignore_ascii_case("zrf")))
        .collect();
    files.sort();
    Some(files)
}

fn load(path: &Path) -> (String, ZrfFile) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    // Non-UTF-8 bytes are the caller's business; the corpus is ASCII, but be tolerant.
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let file = read(&text).unwrap_or_else(|e| panic!("{}:{}", path.display(), e.render(&text)));
    (text, file)
}

fn load_named(name: &str) -> Option<(String, ZrfFile)> {
    let path = corpus()?.into_iter().find(|p| p.file_name().is_some_and(|n| n == name))?;
    Some(load(&path))
}

/// True when a text still holds a `$k` parameter.
fn has_param(text: &str) -> bool {
    text.as_bytes().windows(2).any(|w| w[0] == b'$' && w[1].is_ascii_digit())
}

#[test]
fn corpus_path_resolves_beside_the_workspace() {
    let expected = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/zrf");
    assert_eq!(Path::new(CORPUS), expected);
    assert_eq!(corpus_at(&Path::new(env!("CARGO_MANIFEST_DIR")).join("no-such-folder")), None);
}

#[test]
fn every_corpus_file_expands_cleanly() {
    let Some(files) = corpus() else { return };
    assert!(!files.is_empty(), "the corpus folder {CORPUS} holds no .zrf file");
    for path in &files {
        let (_, file) = load(path);
        let shown = path.display();
        assert!(file.game().is_some(), "{shown}: no (game ...) form");
        for form in &file.forms {
            form.walk(&mut |node: &Sexp| {
                if let Some(text) = node.text() {
                    assert!(!has_param(text), "{shown}: a parameter is left in {node}");
                }
                if let Some(head) = node.head() {
                    let is_macro = file.macros.keys().any(|name| name.eq_ignore_ascii_case(head));
                    assert!(!is_macro, "{shown}: macro '{head}' is left unexpanded in {node}");
                }
                assert!(!node.is_form("define"), "{shown}: a define is left in {node}");
            });
        }
    }
}

#[test]
fn chess_moves_expand_to_instruction_lists() {
    let Some((_, file)) = load_named("chess.zrf") else { return };
    let game = file.game().expect("game");
    let king = game
        .find_forms("piece")
        .into_iter()
        .find(|piece| piece.tail().iter().any(|item| item.to_string() == "(name King)"))
        .expect("a King");
    let moves = king.find_forms("moves");
    let moves = moves.first().expect("King moves");
    let first = moves.tail().first().expect("a first move");
    assert_eq!(first.to_string(), "(n (verify not-friend?) add)");
    assert_eq!(moves.tail().len(), 10);
    // Castling: (O-O e w) pastes both directions into one instruction list.
    let castle = moves.tail().get(8).expect("O-O").to_string();
    assert_eq!(
        castle,
        "(e (verify empty?) e (verify empty?) to e (verify friend?) (verify (piece? Rook)) cascade w w add)"
    );
    assert!(file.macros.contains_key("en-passant"));
    assert_eq!(file.variants().count(), 5);
}

#[test]
fn platform_chess_splices_a_four_form_macro() {
    let Some((_, file)) = load_named("platform-chess.zrf") else { return };
    let game = file.game().expect("game");
    let step = game
        .find_forms("moves")
        .into_iter()
        .flat_map(|moves| moves.tail().iter())
        .find(|mv| mv.to_string().starts_with("(n (verify not-friend?)"))
        .expect("a King step north");
    assert_eq!(step.to_string(), "(n (verify not-friend?) mark down (verify not-empty?) back add)");
}

#[test]
fn shatranj_pastes_parameters_into_names_and_strings() {
    let Some((_, file)) = load_named("shatranj.zrf") else { return };
    let oblong = file.variants().find(|v| v.find_forms("piece").len() == 6).expect("a variant with dice pieces");
    let dice: Vec<String> =
        oblong.find_forms("piece").iter().filter_map(|piece| piece.tail().first()).map(ToString::to_string).collect();
    assert_eq!(dice, ["(name D1)", "(name D2)", "(name D3)", "(name D4)", "(name D5)", "(name D6)"]);
    let images = oblong.find_forms("image");
    assert!(images
        .iter()
        .any(|image| image.to_string() == "(image White \"images/dice/3.bmp\" Black \"images/dice/3.bmp\")"));
    let drops = oblong.find_forms("drops");
    assert_eq!(
        drops.first().map(ToString::to_string).as_deref(),
        Some("(drops (move-type drop-type) ((verify (in-zone? dice-zone)) (verify not-friend?) add))")
    );
}
