//! Defects a long run of the differential test (`varia_fuzz::differential`) found, each with the smallest game that showed it.

use std::sync::Arc;

use varia_interpreter::paths::Path;
use varia_interpreter::{Position, Rules};

fn notations(pos: &Position, moves: &[varia_interpreter::Move]) -> Vec<String> {
    let mut out: Vec<String> = moves.iter().map(|m| pos.long_notation(*m)).collect();
    out.sort();
    out
}

/// The legal moves of the start position (or `position`), by the fast rules, by the rules
/// without `without`, and by the reference: each list must be `expected`.
fn agree(text: &str, position: Option<&str>, without: &[Path], expected: &[&str]) {
    let variant = varia_grammar::load(text).unwrap_or_else(|e| panic!("{e:?}"));
    for rules in [Rules::new(variant.clone()), Rules::without(variant.clone(), without), Rules::reference(variant)] {
        let rules = Arc::new(rules);
        let mut pos = match position {
            Some(p) => Position::from_position_string(rules, p).expect("a position"),
            None => Position::start(rules),
        };
        let mut moves = Vec::new();
        if pos.rules().is_reference() {
            pos.reference_moves(&mut moves);
        } else {
            pos.legal_moves(&mut moves);
        }
        assert_eq!(notations(&pos, &moves), expected, "{:?}", pos.rules().fast_paths());
    }
}

/// A blast takes a piece standing between cells when it reaches any cell the piece covers, from
/// the location it stands on: it took the covered cells' copies, leaving the piece standing on
/// its location, and the unmake put it back on the covered cells as two pieces of no location,
/// so the reference's replies (made with their blast and unmade) corrupted the board
/// (random_var 1362).
#[test]
fn a_blast_takes_a_piece_between_cells_whole() {
    let text = r#"variant "Blast between"
board { grid 3 x 3  between orthogonal }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
piece King K { royal step all }
piece Sapper S { step n explodes orthogonal }
piece Rook R { slide orthogonal stop-between }
setup { white: K a1, S b1  black: K a3, S b2, R c2.5 }
"#;
    let variant = varia_grammar::load(text).unwrap_or_else(|e| panic!("{e:?}"));
    for rules in [Rules::new(variant.clone()), Rules::without(variant.clone(), &Path::ALL), Rules::reference(variant)] {
        let mut pos = Position::start(Arc::new(rules));
        let start = pos.to_position_string();
        let blast = pos.parse_move("Sb1xb2").expect("a capture");
        pos.make(blast);
        // The sapper, the one it took and the rook covering c2 are gone.
        let after = pos.to_position_string();
        assert!(after.starts_with("k2/3/K2 b"), "{after}");
        let mut moves = Vec::new();
        if pos.rules().is_reference() {
            pos.reference_moves(&mut moves);
        } else {
            pos.legal_moves(&mut moves);
        }
        assert!(notations(&pos, &moves).iter().all(|m| m.starts_with('K')), "{:?}", notations(&pos, &moves));
        pos.unmake();
        assert_eq!(pos.to_position_string(), start);
        assert_eq!(pos.hash(), pos.compute_hash());
    }
}

/// A program's change of owner (or type, or attribute) on a cell a piece between cells covers
/// changes that piece where it stands: it changed the covered cell's copy alone, leaving the
/// piece on its location and a stray one on the cell after the unmake, which corrupted the
/// reference's board as it tried replies (random_var 1395).
#[test]
fn a_change_of_owner_on_a_covered_cell_changes_the_piece_between() {
    let text = r#"variant "Flip between"
board { grid 3 x 3  between orthogonal }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
piece King K { royal step all }
piece Flipper F { move { e verify empty verify enemy(e) change-owner(e) add } }
piece Rook R { slide orthogonal stop-between }
setup { white: K a1, F a2  black: K a3, R c2.5 }
"#;
    let variant = varia_grammar::load(text).unwrap_or_else(|e| panic!("{e:?}"));
    for rules in [Rules::new(variant.clone()), Rules::without(variant.clone(), &Path::ALL), Rules::reference(variant)] {
        let mut pos = Position::start(Arc::new(rules));
        let start = pos.to_position_string();
        let flip = pos.parse_move("Fa2-b2").expect("the flip");
        pos.make(flip);
        let after = pos.to_position_string();
        assert!(after.starts_with("k2/1F1/K2{Rc2.5} b"), "{after}");
        pos.unmake();
        assert_eq!(pos.to_position_string(), start);
        assert_eq!(pos.hash(), pos.compute_hash());
    }
}
