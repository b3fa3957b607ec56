//! Lean runs whose captures send the piece taken to another cell (the `LeanCascades` path): along random games they list the moves, numbered alike, that full runs list, and the reference agrees.

use std::path::PathBuf;
use std::sync::Arc;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use varia_fuzz::random_var_with_features;
use varia_interpreter::ir::{CellId, PlayerId, Variant};
use varia_interpreter::paths::Path;
use varia_interpreter::position::{Move, MoveKind};
use varia_interpreter::{Position, Rules};

const PLIES: usize = 24;

/// A position's legal moves, each written out in full (program index, emission number and
/// all), sorted.
fn raw(pos: &mut Position) -> Vec<String> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut out: Vec<String> = moves.iter().map(|m| format!("{m:?}")).collect();
    out.sort();
    out
}

/// The reference's legal moves in long notation, sorted, and the engine's.
fn written(pos: &mut Position) -> Vec<String> {
    let mut moves: Vec<Move> = Vec::new();
    if pos.rules().is_reference() {
        pos.reference_moves(&mut moves);
    } else {
        pos.legal_moves(&mut moves);
    }
    let mut out: Vec<String> = moves.iter().map(|m| pos.long_notation(*m)).collect();
    out.sort();
    out
}

/// What a comparison met: positions, and program moves the lean rules listed.
#[derive(Default, Debug)]
struct Seen {
    positions: usize,
    program_moves: usize,
}

/// Plays `games` seeded random games with the lean rules, the same moves with full runs (no
/// `LeanCascades`) and with the reference, comparing at each position the raw move lists of the
/// first two, the written lists of all three, the attacks on every cell and the positions.
fn compare(name: &str, variant: &Variant, games: u64, seen: &mut Seen) {
    let lean = Arc::new(Rules::new(variant.clone()));
    let full = Arc::new(Rules::without(variant.clone(), &[Path::LeanCascades]));
    let reference = Arc::new(Rules::reference(variant.clone()));
    for game in 0..games {
        let mut rng = StdRng::seed_from_u64(game);
        let mut ps = [Position::start(lean.clone()), Position::start(full.clone()), Position::start(reference.clone())];
        for ply in 0..PLIES {
            let at = format!("{name}, game {game}, ply {ply}: {}", ps[0].to_position_string());
            let fast = raw(&mut ps[0]);
            assert_eq!(fast, raw(&mut ps[1]), "{at}");
            let listed = written(&mut ps[0]);
            assert_eq!(listed, written(&mut ps[2]), "reference, {at}");
            for p in 0..lean.player_count() {
                for c in 0..lean.cell_count() {
                    let (cell, by) = (CellId(c as u16), PlayerId(p as u8));
                    assert_eq!(ps[0].is_attacked(cell, by), ps[1].is_attacked(cell, by), "{cell:?} by {by:?}, {at}");
                }
            }
            let mut moves = Vec::new();
            ps[0].legal_moves(&mut moves);
            seen.positions += 1;
            seen.program_moves += moves.iter().filter(|m| m.kind == MoveKind::Program).count();
            if moves.is_empty() {
                break;
            }
            // Program moves first now and then, so that their makes are met.
            let programs: Vec<&Move> = moves.iter().filter(|m| m.kind == MoveKind::Program).collect();
            let chosen = match programs.is_empty() || rng.random_bool(0.5) {
                true => moves[rng.random_range(0..moves.len())],
                false => *programs[rng.random_range(0..programs.len())],
            };
            let text = ps[0].long_notation(chosen);
            for pos in &mut ps {
                let mv = pos.parse_move(&text).unwrap_or_else(|e| panic!("{text}: {e:?}, {at}"));
                pos.make(mv);
            }
            let after = ps[0].to_position_string();
            assert_eq!(after, ps[1].to_position_string(), "after {text}, {at}");
            assert_eq!(after, ps[2].to_position_string(), "reference after {text}, {at}");
        }
    }
}

/// Made-up pieces whose captures send the piece taken along a line from a named cell to the
/// first empty one: a step and a leap (the same target and line: one move, merged as the full
/// listing merges it), a line from a hole's side that may end on the hole (no move), one that
/// runs back over the cells of the move (the lean run gives up), a promotion of the piece
/// sent, and a piece that also has a program of another shape (run in full with them).
const MADE_UP: &str = r#"variant "Reserves"
board {
  grid 5 x 6
  no-square c4
}
player white
player black swap n <-> s  ne <-> se  nw <-> sw
zone far {
  white: rank 6
  black: rank 1
}
piece King K { royal step all }
piece Pawn P { move { n verify empty add } }
piece Queen Q { }
piece Courier C {
  move { n verify not friend if enemy and not piece(King) { cascade a3 while not empty { e } } add }
  move { n verify not friend if enemy and not piece(King) { cascade a3 while not empty { e } } add }
  move { nw verify not friend if enemy { cascade b4 while not empty { e } } add }
  move { ne ne verify not friend if enemy { cascade e1 while not empty { n } } add }
}
piece Warden W {
  move { e verify not friend if enemy and not piece(King) { cascade a5 while not empty { s } } add(Queen) }
  move { w verify not friend if enemy { cascade a1 while not empty { e } } add }
  move { s verify empty set-flag moved true add }
}
setup {
  white: K a1, C b2, C d2, W c3, P a2, P e2, P b3
  black: K e6, C b5, C d5, W c5, P a5, P e5, P d4
}
"#;

#[test]
fn lean_cascades_list_and_make_what_full_runs_do() {
    let mut seen = Seen::default();
    let made_up = varia_grammar::load(MADE_UP).unwrap_or_else(|e| panic!("{e:?}"));
    assert!(Rules::new(made_up.clone()).fast_paths().iter().any(|p| p == "LeanCascades"));
    assert!(!Rules::without(made_up.clone(), &[Path::LeanCascades]).fast_paths().iter().any(|p| p == "LeanCascades"));
    compare("made up", &made_up, 40, &mut seen);
    let made_up_seen = seen.program_moves;
    assert!(made_up_seen > 50, "made up: {seen:?}");

    // Knight's Court, where captures go to the reserve (when the corpus is there).
    let court = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/zrf-corpus/checkmate/knights-court.zrf");
    match varia_zrf::load_file(&court, None) {
        Ok((_, game)) => {
            assert!(Rules::new(game.variant.clone()).fast_paths().iter().any(|p| p == "LeanCascades"));
            compare("knights-court", &game.variant, 30, &mut seen);
            assert!(seen.program_moves > made_up_seen + 50, "knights-court: {seen:?}");
        }
        Err(e) => eprintln!("{}: {e:?}; skipped", court.display()),
    }

    // Random variants with such captures.
    let mut random = 0;
    for seed in 0..400u64 {
        let (text, features) = random_var_with_features(seed);
        if !features.contains(&"cascade-reserve") {
            continue;
        }
        let Ok(variant) = varia_grammar::load(&text) else { continue };
        if !Rules::new(variant.clone()).fast_paths().iter().any(|p| p == "LeanCascades") {
            continue;
        }
        random += 1;
        compare(&format!("random_var({seed})"), &variant, 2, &mut seen);
    }
    eprintln!("{random} random variants; {seen:?}");
    assert!(random >= 5, "only {random} random variants take LeanCascades");
}
