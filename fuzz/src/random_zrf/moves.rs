//! Random Zillions move bodies and drops, built from directions, tests and instructions.

use super::{Game, COMPASS};
use crate::random_var::Gen;

/// A test for `verify`, `if` and `while` beyond the plain `empty?`, `friend?` and `enemy?`.
fn test(g: &mut Gen, game: &Game) -> String {
    g.feature("zrf-test");
    let d = g.pick(&COMPASS).0;
    match g.int(0, 8) {
        0 => "not-attacked?".into(),
        1 => format!("(or defended? (empty? {d}))"),
        2 => "adjacent-to-enemy?".into(),
        3 => format!("(piece? {} {d})", g.pick(&game.pieces)),
        4 => format!("(on-board? {d})"),
        5 => format!("(not (last-to? {d}))"),
        6 => "(in-zone? home)".into(),
        7 => format!("(and (not-friend? {d}) (not marked?))"),
        _ => "true".into(),
    }
}

/// One move body for a piece (a list of instructions in parentheses) and its move type, if any.
pub(crate) fn body(g: &mut Gen, game: &mut Game) -> (Option<&'static str>, String) {
    let (d, back) = {
        let c = g.pick(&COMPASS);
        (c.0, c.1)
    };
    let e = if game.warp && g.chance(0.15) { "warp" } else { g.pick(&COMPASS).0 };
    // Never a king: a promotion or a created piece adds no royal piece.
    let kinds: Vec<&'static str> = game.pieces.iter().copied().filter(|&p| p != "King").collect();
    let promo = g.pick(&kinds);
    let owner = g.pick(&game.players);
    let text = match g.int(0, 18) {
        0 | 1 => {
            g.feature("zrf-not-friend");
            format!("({e} (verify not-friend?) add)")
        }
        2 => {
            g.feature("zrf-empty");
            format!("({d} (verify empty?) add)")
        }
        3 | 4 => {
            g.feature("zrf-while");
            g.feature("zrf-enemy");
            format!("({d} (while empty? add {d}) (verify enemy?) add)")
        }
        5 | 6 => {
            g.feature("zrf-add-partial");
            g.feature("zrf-capture");
            game.types.insert("jump-type");
            return (
                Some("jump-type"),
                format!("({d} (verify enemy?) capture {d} (verify empty?) (add-partial jump-type))"),
            );
        }
        7 => {
            g.feature("zrf-if");
            g.feature("zrf-promotion");
            format!("({d} (verify empty?) (if (in-zone? promo) (add {promo}) else add))")
        }
        8 => {
            g.feature("zrf-mark-back");
            format!("(mark {d} (verify empty?) back {e} (verify not-friend?) add)")
        }
        9 => {
            g.feature("zrf-create");
            format!("({d} (verify empty?) (verify (empty? {e})) (create {owner} {promo} {e}) add)")
        }
        10 => {
            g.feature("zrf-flip");
            format!("({d} (verify empty?) (verify (enemy? {e})) (flip {e}) add)")
        }
        11 => {
            g.feature("zrf-change-type");
            format!("({d} (verify not-friend?) (change-type {promo}) add)")
        }
        12 => {
            g.feature("zrf-add-copy");
            format!("({d} (verify empty?) (verify {}) add-copy)", test(g, game))
        }
        13 => {
            g.feature("zrf-if");
            format!("({d} (if empty? add else (verify enemy?) add))")
        }
        14 => {
            g.feature("zrf-cascade");
            format!("({d} (verify friend?) cascade {back} add)")
        }
        15 => {
            g.feature("zrf-flag");
            format!(
                "((set-flag seen false) {d} (while empty? (set-flag seen true) {d}) (verify (flag? seen)) (verify not-friend?) add)"
            )
        }
        16 => {
            g.feature("zrf-capture");
            format!("({d} (verify empty?) (verify (enemy? {e})) (capture {e}) add)")
        }
        17 => {
            // A man hopping over any piece, to and fro, going on with any of its moves: only
            // the bound on a turn's actions ends such a turn.
            g.feature("zrf-hop-partial");
            let hop = |d: &str| format!("({d} (verify not-empty?) {d} (verify empty?) add-partial)");
            format!("{} {}", hop(d), hop(back))
        }
        _ => format!("({d} {e} (verify not-friend?) (verify {}) add)", test(g, game)),
    };
    g.feature("zrf-verify");
    if g.chance(0.15) {
        g.feature("zrf-move-type");
        game.types.insert("quiet-type");
        return (Some("quiet-type"), text);
    }
    (None, text)
}

/// A `(drops ...)` item: onto empty cells, mostly of the player's home.
pub(crate) fn drops(g: &mut Gen) -> String {
    g.feature("zrf-drops");
    let body = match g.int(0, 3) {
        0 => "((verify empty?) add)",
        1 => "((verify empty?) (verify (in-zone? home)) add)",
        2 => {
            // Onto any cell of the home but a friend's: it takes an enemy standing there.
            g.feature("zrf-drops-capture");
            "((verify (in-zone? home)) (verify not-friend?) add)"
        }
        _ => "((verify empty?) (verify (not (in-zone? promo))) add)",
    };
    format!("(drops {body})")
}
