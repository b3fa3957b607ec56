//! Drop programs that test their cell and walk lines (the `DropWalks` path): listed by walks whose results are shared between cells, they give the moves the full program runs give.

mod common;

use std::sync::Arc;

use varia_interpreter::paths::Path;
use varia_interpreter::{Position, Rules};

/// What the comparison met: positions compared, and those where a piece in hand had drops
/// barred by a walk (fewer drops of it than empty cells).
#[derive(Default)]
struct Seen {
    positions: usize,
    barred: usize,
}

/// Plays `games` pseudo-random games of `plies` from the start with the first rules, comparing
/// at each position the moves every rules list (the reference's every `reference_every` plies).
/// `dropper`: the letter of a piece whose drops are counted.
fn compare(all: &[Arc<Rules>], games: u64, plies: usize, reference_every: usize, dropper: &str) -> Seen {
    let mut seen = Seen::default();
    for game in 0..games {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64 ^ (game + 1).wrapping_mul(0x2545_f491_4f6c_dd1d);
        let mut positions: Vec<Position> = all.iter().map(|r| Position::start(r.clone())).collect();
        for ply in 0..plies {
            let fast = common::legal(&mut positions[0]);
            if fast.is_empty() {
                break;
            }
            for (k, pos) in positions.iter_mut().enumerate().skip(1) {
                if pos.rules().is_reference() && ply % reference_every != 0 {
                    continue;
                }
                assert_eq!(common::listed(pos), fast, "rules {k}, game {game} ply {ply}: {}", pos.to_position_string());
            }
            let drops = fast.iter().filter(|m| m.to_uppercase().starts_with(&format!("{dropper}@"))).count();
            let empty = (0..positions[0].rules().variant.board.cells.len())
                .filter(|c| positions[0].piece_at(varia_interpreter::ir::CellId(*c as u16)).is_none())
                .count();
            let side = positions[0].side_to_move();
            let in_hand = positions[0]
                .hand(side)
                .any(|(t, n)| n > 0 && positions[0].rules().variant.pieces[t.0 as usize].letter.to_string() == dropper);
            if in_hand && drops < empty {
                seen.barred += 1;
            }
            seen.positions += 1;
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let chosen = fast[(seed >> 33) as usize % fast.len()].clone();
            for pos in &mut positions {
                let mv = pos.parse_move(&chosen).unwrap_or_else(|e| panic!("{chosen}: {e}"));
                pos.make(mv);
            }
        }
    }
    seen
}

/// Shogi's pawn drop (two walks along the file) and made-up drops walking other ways, with
/// other tests, on other boards (one whose rows come round, where a walk east never ends and
/// its drop runs in full): each
/// lists, in pseudo-random games, what the same rules without `DropWalks` and the plain
/// reference list, and the path is taken where it may be.
#[test]
fn drop_walks_list_what_full_runs_list() {
    let shogi = std::fs::read_to_string(common::root().join("variants/shogi.var")).expect("shogi.var");
    let all = common::every_rules(&shogi, &[Path::DropWalks]);
    assert!(all[0].fast_paths().iter().any(|p| p == "DropWalks"), "{:?}", all[0].fast_paths());
    assert!(!all[1].fast_paths().iter().any(|p| p == "DropWalks"), "{:?}", all[1].fast_paths());
    let seen = compare(&all, 3, 160, 16, "P");
    assert!(seen.barred > 10, "shogi: {} of {} positions had pawn drops barred", seen.barred, seen.positions);

    let made_up = r#"variant "Walks"
board { grid 6 x 6 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
zone far {
  white: rank 6
  black: rank 1
}
piece King K { royal step all }
piece Rook R {
  captured-to-hand
  slide orthogonal
  drop { verify empty mark while on-board(e) { e verify not (enemy and piece(Rook)) } back add }
}
piece Bishop B {
  captured-to-hand
  slide diagonal
  drop {
    verify empty
    verify not in(far)
    while on-board(ne) { ne verify not enemy verify not piece(King) }
    back
    mark
    while on-board(sw) { sw verify empty or friend }
    back
    add
  }
}
piece Pawn P {
  captured-to-hand
  step n
  drop { mark verify empty while on-board(n) { n verify not (friend and piece(Pawn)) } back verify not in(far) add }
}
setup {
  white: K a1, R b1, B c1, P a2, P b2, P c2
  black: K f6, R e6, B d6, P f5, P e5, P d5
  hand white: P 2, R 1, B 1
  hand black: P 2, R 1, B 1
}
"#;
    let all = common::every_rules(made_up, &[Path::DropWalks]);
    assert!(all[0].fast_paths().iter().any(|p| p == "DropWalks"));
    for dropper in ["P", "B", "R"] {
        let seen = compare(&all, 2, 80, 4, dropper);
        assert!(seen.barred > 0, "made-up {dropper}: no drop barred in {} positions", seen.barred);
    }

    // Rows that come round: the rook's walk east never ends (its drop runs in full, the loop's
    // bound deciding); the others still walk.
    let mut links = String::new();
    for rank in 1..=6 {
        links.push_str(&format!("  link f{rank} e a{rank}\n  link a{rank} w f{rank}\n"));
    }
    let round = made_up.replacen("board { grid 6 x 6 }", &format!("board {{\n  grid 6 x 6\n{links}}}"), 1);
    let all = common::every_rules(&round, &[Path::DropWalks]);
    let seen = compare(&all, 2, 60, 4, "P");
    assert!(seen.barred > 0, "round: no pawn drop barred in {} positions", seen.positions);
}
