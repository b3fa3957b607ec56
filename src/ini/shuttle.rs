//! `moveRepetitionIllegal`: a player who moves one piece back and forth loses, written as a `shuttled 4` goal (see docs/language.md).

use super::model::{Model, Region, KING};

/// The goal lines for `moveRepetitionIllegal` (none without it, or without `nFoldRule`, which
/// Fairy-Stockfish's test sits under). Fairy-Stockfish counts four moves back and forth of a
/// piece whose type may stand where the other side's king may (its mobility regions): one line
/// for both players where they count the same types, else one each. `forms` gives the `.var`
/// names of a slot's pieces.
pub(super) fn goals(m: &Model, forms: &dyn Fn(usize) -> Vec<String>) -> Vec<String> {
    if !m.end.move_repetition_illegal || m.end.n_fold_rule == 0 {
        return Vec::new();
    }
    let region = |c: usize, slot: usize| m.mobility_region.get(&(c, slot)).copied().unwrap_or(Region::MAX) & m.board();
    let counted = |c: usize| -> Vec<usize> { m.slots().filter(|&s| region(c, s) & region(1 - c, KING) != 0).collect() };
    let types = |slots: &[usize]| -> String {
        if slots.len() == m.slots().count() {
            return String::new();
        }
        slots.iter().flat_map(|&s| forms(s)).map(|f| format!(" {f}")).collect()
    };
    let (white, black) = (counted(0), counted(1));
    if white == black {
        return vec![format!("goal white black loss: shuttled 4{}", types(&white))];
    }
    [("white", &white), ("black", &black)]
        .into_iter()
        .filter(|(_, s)| !s.is_empty())
        .map(|(p, s)| format!("goal {p} loss: shuttled 4{}", types(s)))
        .collect()
}
