//! Move programs in the engine: declarative powers run as programs give the same moves, and program moves make and unmake exactly.

mod common;

use std::sync::Arc;

use varia_interpreter::ir::{Goal, GoalTest, Outcome, PlayerId};
use varia_interpreter::{perft, Position, Rules};

/// Chess with every power run through the program path (a goal that never holds switches
/// program play on); castling and en passant are left out, as programs write them themselves.
fn chess_as_programs() -> Arc<Rules> {
    let text = std::fs::read_to_string(common::root().join("variants/chess.var")).unwrap();
    let mut v = varia_grammar::load(&text).unwrap();
    v.castlings.clear();
    v.setup.castling_rights.clear();
    v.end.goals.push(Goal {
        players: vec![PlayerId(0)],
        outcome: Outcome::Win,
        test: GoalTest::PiecesRemaining(1000, None),
    });
    Arc::new(Rules::new(v))
}

#[test]
fn declarative_chess_through_programs_matches_published_counts() {
    let rules = chess_as_programs();
    let mut pos = Position::start(rules);
    // No castling or en passant is possible within four plies of the start.
    assert_eq!(perft(&mut pos, 1), 20);
    assert_eq!(perft(&mut pos, 2), 400);
    assert_eq!(perft(&mut pos, 3), 8902);
    assert_eq!(perft(&mut pos, 4), 197_281);
}

#[test]
fn program_moves_unmake_to_the_same_hash() {
    let rules = chess_as_programs();
    let mut pos = Position::start(rules);
    let start = pos.hash();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    for mv in moves {
        pos.make(mv);
        assert_eq!(pos.hash(), pos.compute_hash(), "{}", pos.long_notation(mv));
        pos.unmake();
        assert_eq!(pos.hash(), start);
    }
}

/// A 3x3 game written with programs, with `extra` pieces and end lines spliced in.
fn tiny(pieces: &str, setup: &str, end: &str, extra: &str) -> Arc<Rules> {
    let text = format!(
        "variant \"Tiny\"\nboard {{\n  grid 3 x 3\n}}\nplayer white\nplayer black swap n <-> s  ne <-> se  nw <-> sw\n\
         {extra}\n{pieces}\nsetup {{\n{setup}\n}}\nend {{\n  checkmate loss\n  stalemate draw\n{end}\n}}\n"
    );
    match varia_grammar::load(&text) {
        Ok(v) => Arc::new(Rules::new(v)),
        Err(d) => panic!("{d:?}\n{text}"),
    }
}

#[test]
fn priorities_make_captures_compulsory() {
    let rules = tiny(
        "piece Man M {\n  move capture { n verify enemy add }\n  move quiet { e verify empty add }\n}",
        "  white: M a1\n  black: M a2 c3",
        "",
        "priorities capture quiet",
    );
    let mut pos = Position::start(rules);
    // The capture on a2 is possible, so the quiet step to b1 is not.
    assert_eq!(common::legal(&mut pos), ["Ma1xa2"]);
}

#[test]
fn a_turn_order_with_repeat_gives_double_moves() {
    let rules = tiny(
        "piece Man M {\n  move { n verify empty add }\n  move { s verify empty add }\n}",
        "  white: M a1\n  black: M c3",
        "",
        "turn-order { white repeat black black white white }",
    );
    let mut pos = Position::start(rules);
    let sides: Vec<u8> = (0..7)
        .map(|_| {
            let side = pos.side_to_move().0;
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            pos.make(moves[0]);
            side
        })
        .collect();
    assert_eq!(sides, [0, 1, 1, 0, 0, 1, 1]);
    assert_eq!(pos.hash(), pos.compute_hash());
}

#[test]
fn create_flip_and_change_type_act_after_the_movement() {
    let rules = tiny(
        "piece Man M {\n  move { n verify enemy flip add-copy }\n  move { e verify empty create(piece: Q, at: a1) change-type(Q) add }\n}\n\
         piece Queen Q {\n}",
        "  white: M a1\n  black: M a2",
        "",
        "",
    );
    let mut pos = Position::start(rules.clone());
    // Side effects are written after the move, so that moves differing only in them differ.
    assert_eq!(common::legal(&mut pos), ["Ma1-b1=Q,+Q@a1", "Ma1xa2,copy,~a2"]);
    // The copy lands on a2 (taking the black man), then the flip acts on what stands there
    // after the movement: the copy, which turns black. The original stays on a1.
    common::play(&mut pos, "Ma1xa2");
    assert_eq!(pos.to_position_string().split(' ').next().unwrap(), "3/m2/M2");
    pos.unmake();
    // The man steps to b1 and becomes a queen; a new queen appears on a1, which it just left.
    common::play(&mut pos, "Ma1-b1");
    assert_eq!(pos.to_position_string().split(' ').next().unwrap(), "3/m2/QQ1");
    assert_eq!(pos.hash(), pos.compute_hash());
}

#[test]
fn goals_end_the_game_for_the_player_they_name() {
    let rules = tiny(
        "piece Man M {\n  move { n verify not friend add }\n}\npiece Goal G {\n}",
        "  white: M a1, G c1\n  black: M a3, G c3",
        "  goal white black loss: captured M\n  goal white black win: config(own M at c2)",
        "",
    );
    let mut pos = Position::start(rules);
    common::play(&mut pos, "Ma1-a2");
    assert_eq!(pos.outcome(), None);
    // Black's man takes White's: White has had a man captured and loses.
    common::play(&mut pos, "Ma3xa2");
    assert_eq!(
        pos.outcome(),
        Some((varia_interpreter::GameResult::Win(PlayerId(1)), varia_interpreter::EndReason::Goal(0)))
    );
}

/// Drop programs that can emit from few cells (a zone, a first step) run only from those
/// cells (the `StartCells` path), and give the moves the reference gives running them from
/// every cell: a drop into the home row that takes an enemy there, and one that steps north
/// first and lands on an empty cell of the middle row.
#[test]
fn drop_programs_run_only_from_the_cells_they_can_emit_from() {
    let text =
        "variant \"Drops\"\nboard {\n  grid 3 x 3\n}\nplayer white\nplayer black swap n <-> s  ne <-> se  nw <-> sw\n\
                zone home {\n  white: rank 1\n  black: rank 3\n}\nzone middle {\n  white: rank 2\n  black: rank 2\n}\n\
                piece King K {\n  royal\n  step all\n}\n\
                piece Raider R {\n  drop-supply unlimited\n  drop { verify in(home) verify not friend add }\n}\n\
                piece Scout S {\n  drop-supply unlimited\n  drop { n verify in(middle) verify empty add }\n}\n\
                setup {\n  white: K a1\n  black: K c3, R b1\n}\nend {\n  checkmate loss\n  stalemate draw\n}\n";
    let v = varia_grammar::load(text).unwrap_or_else(|d| panic!("{d:?}"));
    let fast = Arc::new(Rules::new(v.clone()));
    assert!(fast.fast_paths().contains(&"StartCells".to_string()), "{:?}", fast.fast_paths());
    let mut pos = Position::start(fast);
    // The raider lands on c1 (empty) or takes the black raider on b1 (White's king stands
    // on a1); the scout lands on each middle cell from the cell below it. The king may not go
    // to b2, next to Black's king.
    assert_eq!(common::legal(&mut pos), ["Ka1-a2", "Ka1xb1", "R@b1", "R@c1", "S@a2", "S@b2", "S@c2"]);
    for rules in [Rules::without(v.clone(), &[varia_interpreter::paths::Path::StartCells]), Rules::reference(v.clone())]
    {
        let mut other = Position::start(Arc::new(rules));
        assert_eq!(common::legal(&mut other), common::legal(&mut pos));
        for depth in 1..=3 {
            assert_eq!(perft(&mut other, depth), perft(&mut pos, depth), "depth {depth}");
        }
    }
}

/// A program that could take the royal reads cells on its way (`ProgramPins`): a move from or
/// to one of them is tried, a move off them needs no test. The warden takes the first enemy
/// down its file only where the cell east of that enemy is empty: the guard beside the king
/// shields it, so the guard may only step into the file, while the rook, off every cell the
/// warden reads, moves freely.
#[test]
fn a_move_off_the_cells_a_program_reads_needs_no_test() {
    let text = r#"variant "Warden"
board { grid 5 x 5 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
piece King K { royal step all }
piece Guard G { step all }
piece Rook R { slide orthogonal }
piece Warden W { move { n while empty { add n } verify enemy verify empty(e) add } }
setup { white: K a1, G b1, R c3  black: K e5, W a5 }
"#;
    let all = common::every_rules(text, &[varia_interpreter::paths::Path::ProgramPins]);
    assert!(all[0].fast_paths().iter().any(|p| p == "ProgramPins"), "{:?}", all[0].fast_paths());
    let mut counts = Vec::new();
    for rules in all {
        let (written, n) = common::start_moves_and_perft(&rules, 4);
        let rook = ["Rc3-a3", "Rc3-b3", "Rc3-c1", "Rc3-c2", "Rc3-c4", "Rc3-c5", "Rc3-d3", "Rc3-e3"];
        let expected: Vec<&str> = ["Gb1-a2", "Ka1-b2"].into_iter().chain(rook).collect();
        assert_eq!(written, expected, "{:?}", rules.fast_paths());
        counts.push(n);
    }
    // Deeper, the fast rules count what the plain reference (the last) counts.
    assert!(counts.iter().all(|n| *n == counts[counts.len() - 1]), "{counts:?}");
}

/// A slider that may not pass a cell beside an enemy gate (looks at the four neighbours, as
/// hiashatar's pieces look for the enemy Hia): the looks read as one instruction
/// (`NeighbourTests`) give the moves and counts the plain reference gives.
#[test]
fn a_slide_stops_beside_an_enemy_gate() {
    let looks: String = ["n", "e", "s", "w"]
        .iter()
        .map(|d| format!("if on-board({d}) {{ mark {d} if enemy {{ verify not piece(Gate) }} back }} "))
        .collect();
    let slide = |d: &str| format!("move {{ {d} while empty {{ add {looks}{d} }} verify not friend add }}");
    let text = format!(
        "variant \"Gates\"\nboard {{ grid 5 x 5 }}\nplayer white\nplayer black swap n <-> s  ne <-> se  nw <-> sw\n\
         piece King K {{ royal step all }}\npiece Gate G {{ step all }}\npiece Lancer L {{ {} {} }}\n\
         setup {{ white: K a1, L b2  black: K e5, G d3, L e1 }}\n",
        slide("n"),
        slide("e")
    );
    let all = common::every_rules(&text, &[varia_interpreter::paths::Path::NeighbourTests]);
    assert!(all[0].fast_paths().iter().any(|p| p == "NeighbourTests"), "{:?}", all[0].fast_paths());
    let mut counts = Vec::new();
    for rules in all {
        let (written, n) = common::start_moves_and_perft(&rules, 4);
        // East the lancer stops on d2, beside the gate on d3; north nothing stops it.
        let expected = ["Ka1-a2", "Ka1-b1", "Lb2-b3", "Lb2-b4", "Lb2-b5", "Lb2-c2", "Lb2-d2"];
        assert_eq!(written, expected, "{:?}", rules.fast_paths());
        counts.push(n);
    }
    assert!(counts.iter().all(|n| *n == counts[counts.len() - 1]), "{counts:?}");
}

/// Without a royal type every pseudo-legal move is legal (`AllLegal`), and the last ply is
/// counted as pseudo-legal moves (`PseudoCount`): the tables' moves from the masks, a program
/// piece's program moves listed (the runner's second program makes plain moves, which are
/// listed with the tables' moves, each once). Every way counts what the plain reference counts.
#[test]
fn without_a_royal_every_pseudo_legal_move_is_counted() {
    let text = r#"variant "Kingless"
board { grid 5 x 5 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
piece King K { step all }
piece Rook R { slide orthogonal }
piece Runner H { step diagonal move { e verify enemy capture w add } move { n if empty { n } verify empty add } }
setup { white: K a1, R c3, H b2  black: K e5, R a5, H d4 }
"#;
    use varia_interpreter::paths::Path;
    let all = common::every_rules(text, &[Path::AllLegal, Path::PseudoCount]);
    for path in ["AllLegal", "PseudoCount"] {
        assert!(all[0].fast_paths().iter().any(|p| p == path), "{:?}", all[0].fast_paths());
    }
    let runs: Vec<_> = all.iter().map(|rules| common::start_moves_and_perft(rules, 4)).collect();
    let reference = &runs[runs.len() - 1];
    // The runner steps to a3 and c1 by its table, and to b4 by its program (over b3).
    for mv in ["Hb2-a3", "Hb2-c1", "Hb2-b4"] {
        assert!(reference.0.contains(&mv.to_string()), "{:?}", reference.0);
    }
    for (rules, run) in all.iter().zip(&runs) {
        assert_eq!(run, reference, "{:?}", rules.fast_paths());
    }
}

/// Programs that only move their piece, testing cells, are listed lean (`LeanRuns`): a slide
/// through a friendly stone, a step that takes whatever stands there but a king (a friend too), a
/// promotion in a zone, a look at the cell beside (mark and back), one program giving the
/// same move as another, and one that adds on its own cell (a run that gives up, so the piece's
/// programs run in full). Every way lists and counts what the plain reference does.
#[test]
fn lean_runs_list_what_full_runs_list() {
    let text = r#"variant "Lean"
board { grid 5 x 5 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
zone far {
  white: rank 5
  black: rank 1
}
piece King K { royal step all }
piece Stone S { }
piece Rider R {
  move { n while empty or piece(Stone) { if empty { add } n } verify not friend add }
  move { e verify not piece(King) add }
  move { mark w verify not empty back ne verify not friend add }
  move { n verify empty add }
}
piece Pawn P {
  move { n verify empty if in(far) { add(Rider) } else { add } }
  move { n verify empty s add }
}
setup { white: K a1, R b2, S b3, S c2, P d4  black: K e5, R c4, S a4, P a5 }
"#;
    use varia_interpreter::paths::Path;
    let all = common::every_rules(text, &[Path::LeanRuns]);
    assert!(all[0].fast_paths().iter().any(|p| p == "LeanRuns"), "{:?}", all[0].fast_paths());
    assert!(!all[1].fast_paths().iter().any(|p| p == "LeanRuns"), "{:?}", all[1].fast_paths());
    let runs: Vec<_> = all.iter().map(|rules| common::start_moves_and_perft(rules, 4)).collect();
    let reference = &runs[runs.len() - 1];
    // Through the stone on b3 to b4 and b5; east onto its own stone on c2; the pawn promotes.
    for mv in ["Rb2-b4", "Rb2-b5", "Rb2xc2", "Pd4-d5"] {
        assert!(reference.0.iter().any(|m| m.starts_with(mv)), "{mv} not in {:?}", reference.0);
    }
    for (rules, run) in all.iter().zip(&runs) {
        assert_eq!(run, reference, "{:?}", rules.fast_paths());
    }
}

/// A lean run reads a test of the piece on one place (a neighbour, a named cell, the edge
/// there) from a table, as the full run reads it: a test off the board is false but its
/// negation holds, `on-board` reads the edge, a named cell is read wherever the run stands.
#[test]
fn lean_runs_read_one_place_tests_as_full_runs() {
    let text = r#"variant "Lean places"
board { grid 5 x 5 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
piece King K { royal step all }
piece Stone S { }
piece Rider R {
  move { n while empty { if not friend(n) { add } n } }
  move { e verify not empty(e) or not on-board(e) add }
  move { w verify on-board(w) and not piece(Stone, w) add }
  move { s verify piece(Stone, c3) or empty(c3) verify not friend add }
  move { ne verify enemy(n) or empty(e) verify not friend add }
}
setup { white: K a1, R b2, S b3, S c2, R e4  black: K e5, R c4, S a4, S c3 }
"#;
    use varia_interpreter::paths::Path;
    let all = common::every_rules(text, &[Path::LeanRuns]);
    assert!(all[0].fast_paths().iter().any(|p| p == "LeanRuns"), "{:?}", all[0].fast_paths());
    let runs: Vec<_> = all.iter().map(|rules| common::start_moves_and_perft(rules, 4)).collect();
    let reference = &runs[runs.len() - 1];
    // East of e4 is off the board: `not on-board(e)` holds but no step is made there.
    assert!(reference.0.iter().any(|m| m.starts_with("Rb2-b1")), "{:?}", reference.0);
    for (rules, run) in all.iter().zip(&runs) {
        assert_eq!(run, reference, "{:?}", rules.fast_paths());
    }
}
