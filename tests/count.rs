//! The count of the last perft ply (ray masks, ray walks, the royal's targets tried in the cell
//! array) equals the number of legal moves generated, along random games of every bundled
//! variant, the bench's declarative games, games with programs, drops and goals (the Zillions
//! chess files among them), a board too large for the masks and boards with holes; and the
//! moves generated equal those walked and tested one by one.

mod common;

use std::sync::{Arc, OnceLock};

use proptest::prelude::*;
use varia_interpreter::{Move, Position, Rules};

fn compile(text: &str) -> Arc<Rules> {
    Arc::new(Rules::new(varia_grammar::load(text).expect("valid variant")))
}

/// The games: every bundled variant, the bench's makruk and shatranj, and chess on 12x12 (144
/// cells: past the masks' 128, counted by walking the rays). Each with its start position
/// string, and chess also from positions with holes (the walk again).
fn games() -> &'static Vec<(String, Arc<Rules>, String)> {
    static ALL: OnceLock<Vec<(String, Arc<Rules>, String)>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut out: Vec<(String, Arc<Rules>, String)> = Vec::new();
        for f in common::variant_files() {
            let rules = common::rules(&f);
            let start = Position::start(rules.clone()).to_position_string();
            out.push((f, rules, start));
        }
        for game in ["makruk", "shatranj"] {
            let path = common::root().join(format!("benches/variants/{game}.var"));
            let rules = compile(&std::fs::read_to_string(path).expect("bench variant"));
            let start = Position::start(rules.clone()).to_position_string();
            out.push((game.into(), rules, start));
        }
        let chess = std::fs::read_to_string(common::root().join("variants/chess.var")).expect("chess.var");
        let big = compile(&chess.replacen("grid 8 x 8", "grid 12 x 12", 1));
        let start = Position::start(big.clone()).to_position_string();
        out.push(("chess on 12x12".into(), big, start));
        // Programs, drops and goals: the count reads the reach of programs and generates
        // their moves and the drops.
        let program_games = [
            ("chess.var, knight as programs", common::with_program_knight(&chess)),
            ("chess with hands", common::drop_chess_text()),
            (
                "chess with a goal",
                chess.replacen("  repetition 3\n", "  repetition 3\n  goal white black loss: pieces-remaining 1\n", 1),
            ),
            // A rook that also leaps two squares: a cell two away lies on two of its probes
            // (the slide's and the leap's), where check and pins go back to the walk.
            (
                "chess, rook leaping two",
                chess.replacen("  slide orthogonal\n}", "  slide orthogonal\n  leap 2 0\n}", 1),
            ),
        ];
        for (name, text) in program_games {
            let rules = compile(&text);
            let start = Position::start(rules.clone()).to_position_string();
            out.push((name.into(), rules, start));
        }
        // The Zillions chess files, when ../shared is beside the repository.
        let shared = common::root().join("../shared/zrf");
        for name in ["chess.zrf", "makruk.zrf", "shatranj.zrf", "courier-chess.zrf", "platform-chess.zrf"] {
            let Ok((_, game)) = varia_zrf::load_file(&shared.join(name), None) else { continue };
            let rules = Arc::new(Rules::new(game.variant));
            let start = Position::start(rules.clone()).to_position_string();
            out.push((name.into(), rules, start));
        }
        // Boards of stacks the count reads with the cells' rules: share squares (inert lone
        // pieces, capture choices, a capacity of two) without the rules that keep it general
        // (kings kept apart, the phase that changes the squares), and crowds of at most three
        // where a capture takes every enemy piece.
        let share = std::fs::read_to_string(common::root().join("variants/share-squares.var")).expect("bundled");
        let wrap = share.find("  in-phase wrap-up {").expect("the wrap-up block");
        let end = wrap + share[wrap..].find("  }\n").expect("its end") + 4;
        let share = format!("{}{}", &share[..wrap], &share[end..])
            .replacen("phase wrap-up when pieces <= 5\n", "", 1)
            .replacen("  keep-apart 1\n", "", 1);
        let crowds = std::fs::read_to_string(common::root().join("variants/safety-in-numbers.var"))
            .expect("bundled")
            .replacen("  capacity any\n  crowd-safe\n", "  capacity 3\n  capture-all\n", 1);
        // And share squares whose capture takes both pieces of a crowd, leaving the capturer
        // alone and inert: the cell, which blocked, is then seen through.
        let share_all = share.replacen("  capture-one\n", "  capture-all\n", 1);
        for (name, text) in [
            ("share squares, no phase, kings not apart", share),
            ("share squares taken whole", share_all),
            ("crowds of three, capture-all", crowds),
        ] {
            let rules = compile(&text);
            let start = Position::start(rules.clone()).to_position_string();
            out.push((name.into(), rules, start));
        }
        // Share Squares a capture or two from its Wrap Up (five pieces or fewer), with doubled
        // and gray squares: the phase begins along the random games.
        let rules = common::rules("share-squares.var");
        for near_the_end in [
            "r3k3/8/8/3(Pp)4/4N3/8/8/R3K3 w - - 0 1",
            "4k3/2p5/8/3(Pp)(Nn)3/8/8/4P3/R3K3 w - - 0 1",
            "4k3/2p5/8/2b(Pp)(NN)3/4(qB)3/8/4P3/R3K3 b - - 0 1",
        ] {
            out.push(("share-squares.var".into(), rules.clone(), near_the_end.into()));
        }
        // Multiple Squares with a bishop between four squares shielding the white king: taking
        // it on b4 clears a4 and a5, so the knight's capture there is illegal.
        // And a queen between four squares whose captures of that bishop are illegal alike.
        // The king taking a rook between two squares (b2 then open to the other rook), a pawn
        // taking a bishop between four (the e-file then open to the rook), which the masks
        // leave to the walk.
        let rules = common::rules("multiple-squares.var");
        for shield in [
            "r6k/8/8/8/8/3N4/8/K7{bab4.5} w - - 0 1",
            "r6k/8/8/8/8/8/8/K7{bab4.5,Qcd3.5} w - - 0 1",
            "7k/8/8/8/8/8/7r/2K5{rab2} w - - 0 1",
            "4r2k/8/8/8/4P3/8/8/4K3{bde5.5} w - - 0 1",
        ] {
            out.push(("multiple-squares.var".into(), rules.clone(), shield.into()));
        }
        let rules = common::rules("chess.var");
        for holes in [
            "rnbqkbnr/pppppppp/8/3*4/8/2*5/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        ] {
            out.push(("chess.var".into(), rules.clone(), holes.into()));
        }
        out
    })
}

/// Plays random legal moves, checking at each ply that the count equals the generated moves.
fn check(index: usize, choices: &[usize]) -> Result<(), TestCaseError> {
    let (name, rules, start) = &games()[index];
    let mut pos = Position::from_position_string(rules.clone(), start).expect("valid position");
    let mut moves: Vec<Move> = Vec::new();
    let mut buf = Vec::new();
    let mut walked: Vec<Move> = Vec::new();
    for &choice in choices {
        pos.legal_moves(&mut moves);
        let counted = pos.count_legal(&mut buf);
        prop_assert_eq!(counted, moves.len() as u64, "{}: {}", name, pos.to_position_string());
        // The pins and checks the count and the masks' generation read from bit sets
        // (`threats.rs`) against every move walked and tested without them.
        pos.legal_moves_by_walk(&mut walked);
        prop_assert_eq!(common::as_set(&walked), common::as_set(&moves), "{}: {}", name, pos.to_position_string());
        // The search's check trial of a quiet move, where it tells one, says what making it does.
        for &mv in &moves {
            if let Some(told) = pos.check_told_before(mv) {
                pos.make(mv);
                let checks = pos.in_check();
                pos.unmake();
                prop_assert_eq!(told, checks, "{}: {} then {:?}", name, pos.to_position_string(), mv);
            }
        }
        if moves.is_empty() {
            break;
        }
        pos.make(moves[choice % moves.len()]);
    }
    Ok(())
}

proptest! {
    #![proptest_config(common::proptest_config(400))]

    #[test]
    fn counted_moves_equal_generated_moves(index in 0..games().len(), choices in proptest::collection::vec(any::<usize>(), 0..120)) {
        check(index, &choices)?;
    }

    /// The boards of stacks again, longer: crowds form, dissolve and hold kings.
    #[test]
    fn counted_stacks_equal_generated_moves(k in 0..stack_games().len(), choices in proptest::collection::vec(any::<usize>(), 0..200)) {
        check(stack_games()[k], &choices)?;
    }
}

/// The indices in [`games`] of the boards of stacks.
fn stack_games() -> Vec<usize> {
    games().iter().enumerate().filter(|(_, g)| g.1.has_stacks()).map(|(i, _)| i).collect()
}

/// Every board of stacks above (the bundled crowd games and Share Squares, with its kings kept
/// apart and the phase that changes its squares) is read by the stacks' count, so that the
/// random games test it.
#[test]
fn boards_of_stacks_are_counted_from_the_masks() {
    let stacks: Vec<_> = games().iter().filter(|g| g.1.has_stacks()).collect();
    assert!(stacks.len() >= 5, "{}", stacks.len());
    for (name, rules, _) in stacks {
        assert!(rules.counts_stacks(), "{name}");
    }
}

/// The search's check trial (a quiet move tried in the cell array) applies to chess, the
/// large board and the bench's makruk, so that the random games above test it; not to games
/// whose moves do more than move a piece (Hans38's squares, stacks, programs).
#[test]
fn check_trial_applies_where_sound() {
    for (name, rules, start) in games() {
        let mut pos = Position::from_position_string(rules.clone(), start).expect("valid position");
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let quiet = moves.iter().find(|m| !m.is_capture() && m.promote == 0).copied();
        let told = quiet.and_then(|m| pos.check_told_before(m)).is_some();
        let expected = ["chess.var", "chess on 12x12", "makruk", "capablanca.var", "grand.var"]
            .contains(&name.as_str())
            || (name == "chess.var" && start.contains('*'));
        let never = name.starts_with("hans38")
            || ["share-squares.var", "multiple-squares.var", "moving-occupied-squares.var", "infinite-reserves.var"]
                .contains(&name.as_str())
            || name.contains("programs")
            || name.starts_with("safety");
        assert!(!expected || told, "{name}: {start}");
        assert!(!never || !told, "{name}: {start}");
    }
}

/// Perft on the board past the masks' size agrees with perft by generation, and the hole
/// blocks slides as it does in generation.
#[test]
fn large_boards_and_holes_count_as_generated() {
    for (name, rules, start) in games().iter().filter(|g| g.0.contains("12x12") || g.2.contains('*')) {
        let mut pos = Position::from_position_string(rules.clone(), start).expect("valid position");
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut by_generation = 0;
        for &mv in &moves {
            pos.make(mv);
            let mut next = Vec::new();
            pos.legal_moves(&mut next);
            by_generation += next.len() as u64;
            pos.unmake();
        }
        assert_eq!(varia_interpreter::perft(&mut pos, 2), by_generation, "{name}: {start}");
    }
}

/// `perft --threads`: the root moves shared among threads give the serial counts, in the
/// serial order, for single actions and for whole turns.
#[test]
fn perft_on_threads_counts_as_on_one_thread() {
    use varia_interpreter::{divide, divide_threads, divide_turns, perft, perft_threads, perft_turns};
    for (name, depth, turns) in
        [("chess.var", 3, false), ("hans38-postal.var", 3, false), ("infinite-reserves.var", 2, true)]
    {
        let mut pos = Position::start(common::rules(name));
        let (serial, split) = if turns {
            (perft_turns(&mut pos, depth).expect("turns end"), divide_turns(&mut pos, depth).expect("turns end"))
        } else {
            (perft(&mut pos, depth), divide(&mut pos, depth))
        };
        assert_eq!(perft_threads(&mut pos, depth, turns, 2).expect("turns end"), serial, "{name}");
        assert_eq!(divide_threads(&mut pos, depth, turns, 2).expect("turns end"), split, "{name}");
    }
}

/// Before the Wrap Up a lone knight on a share square (d4) is inert: it gives no check, so the
/// king may step to e2, which the knight would attack if active. The count tries the king's
/// targets by the threats' bit sets, which must leave a piece on a share square to the walk:
/// five king moves and six pawn moves.
#[test]
fn an_inert_piece_on_a_share_square_guards_no_cell() {
    let rules = common::rules("share-squares.var");
    let mut pos = Position::from_position_string(rules, "4k3/pppp4/8/8/3n4/8/PPP5/4K3 w - - 0 1").expect("valid");
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert_eq!(moves.len(), 11);
    assert_eq!(pos.count_legal(&mut Vec::new()), 11);
}
