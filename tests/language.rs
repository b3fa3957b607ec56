//! Small language features checked on tiny inline variants.

use std::sync::Arc;

use varia_interpreter::{Position, Rules};

fn moves_of(text: &str) -> Vec<String> {
    let v = varia_grammar::load(text).unwrap_or_else(|e| panic!("{e:?}"));
    let mut pos = Position::start(Arc::new(Rules::new(v)));
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut out: Vec<String> = moves.iter().map(|m| pos.long_notation(*m)).collect();
    out.sort();
    out
}

const HOPPERS: &str = r#"
variant "Hoppers"
board { grid 5 x 5 }
player white
player black swap n <-> s
piece King K { royal step all }
piece Grasshopper G { hop orthogonal max 1 }
piece Cannon C { slide orthogonal move-only  hop orthogonal capture-only }
piece Pawn P { step n }
setup {
  white: K a1, G c1, C e1, P c3 e3
  black: K a5, P c5 e5
}
"#;

#[test]
fn hop_max_counts_cells_past_the_screen() {
    let moves = moves_of(HOPPERS);
    let grasshopper: Vec<&String> = moves.iter().filter(|m| m.starts_with('G')).collect();
    // Screen c3: lands on c4 only (max 1), not c5.
    assert_eq!(grasshopper, vec!["Gc1-c4"]);
    let cannon: Vec<&String> = moves.iter().filter(|m| m.starts_with('C')).collect();
    // Quiet slides along rank 1 and up to e2; captures over the screen e3 onto e5.
    assert_eq!(cannon, vec!["Ce1-d1", "Ce1-e2", "Ce1xe5"]);
}
