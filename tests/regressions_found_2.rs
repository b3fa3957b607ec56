//! Defects the differential test (`varia_fuzz::differential`) found on random variants, continued from `regressions_found.rs`: each with the smallest game that showed it.

use std::sync::Arc;

use varia_interpreter::paths::Path;
use varia_interpreter::{perft, Position, Rules};

/// `text`'s rules: with every fast path, without each of `without`, and the reference.
fn every_rules(text: &str, without: &[Path]) -> Vec<Arc<Rules>> {
    let variant = varia_grammar::load(text).unwrap_or_else(|e| panic!("{e:?}"));
    let mut all = vec![Rules::new(variant.clone())];
    all.extend(without.iter().map(|p| Rules::without(variant.clone(), &[*p])));
    all.push(Rules::reference(variant));
    all.into_iter().map(Arc::new).collect()
}

/// The legal moves of `text`'s start (sorted) and its perft count to `depth`, on each of
/// [`every_rules`], with the fast paths of the rules that found them.
fn legal_everywhere(text: &str, without: &[Path], depth: u32) -> Vec<(Vec<String>, u64, String)> {
    every_rules(text, without)
        .into_iter()
        .map(|rules| {
            let mut pos = Position::start(rules);
            let mut moves = Vec::new();
            let n = if pos.rules().is_reference() {
                pos.reference_moves(&mut moves);
                pos.reference_perft(depth)
            } else {
                pos.legal_moves(&mut moves);
                perft(&mut pos, depth)
            };
            let mut written: Vec<String> = moves.iter().map(|m| pos.long_notation(*m)).collect();
            written.sort();
            (written, n, format!("{:?}", pos.rules().fast_paths()))
        })
        .collect()
}

/// `defended` asks whether the mover's side could capture an enemy piece on the cell. A
/// program imagined the enemy as the next player in turn order, who with teams may be the
/// mover's partner: a program's `verify enemy` then refused the capture, while the move tables
/// (the path Atoms) take any imagined piece as an enemy, so a drop on a cell a program slider
/// covers was legal on the fast rules alone (random_var 68841). The imagined enemy is now the
/// next player not allied to the mover.
#[test]
fn a_cell_is_defended_against_an_enemy_not_a_partner() {
    let text = r#"variant "Defended beside a partner"
board { grid 4 x 4 }
player south
player north swap n <-> s  ne <-> se  nw <-> sw
player west swap n <-> e  s <-> w  nw <-> se
team south north
piece Zulu Z { move { ne while empty { add ne } verify enemy add } }
piece Juliett J { drop { verify empty verify defended add } }
setup { south: Zulu a1  north: Zulu d1  west: Zulu a4  hand south: Juliett 1 }
"#;
    let found = legal_everywhere(text, &[Path::Atoms], 2);
    for (moves, _, paths) in &found {
        assert_eq!(moves, &["J@b2", "J@c3", "J@d4", "Za1-b2", "Za1-c3", "Za1-d4"], "{paths}");
    }
    let counts: Vec<u64> = found.iter().map(|f| f.1).collect();
    assert!(counts.iter().all(|n| *n == counts[0]), "{found:?}");
}

/// With no enemy at all (every player on one team) nothing could be captured: no cell is
/// defended, on the fast rules as on the reference.
#[test]
fn no_cell_is_defended_without_an_enemy() {
    let text = r#"variant "Defended among partners"
board { grid 4 x 4 }
player south
player north swap n <-> s  ne <-> se  nw <-> sw
team south north
piece Zulu Z { move { ne while empty { add ne } verify enemy add } }
piece Juliett J { drop { verify empty verify defended add } }
setup { south: Zulu a1  north: Zulu d1  hand south: Juliett 1 }
"#;
    for (moves, _, paths) in legal_everywhere(text, &[Path::Atoms], 2) {
        assert_eq!(moves, ["Za1-b2", "Za1-c3", "Za1-d4"], "{paths}");
    }
}
