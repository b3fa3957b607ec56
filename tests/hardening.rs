//! Regression tests of issue 20 ("Hardening"): each holds the reproducer of one defect found by
//! fuzzing and abuse, and checks that it now ends in a clean error or a correct result.

mod common;

use varia_interpreter::{Position, MAX_CLOCK};

/// Item 7: a 20-digit count of empty cells saturated to `usize::MAX`, and `i + n` wrapped, so
/// the next letter overwrote an earlier cell: the chess start was accepted with the white king
/// replaced by a rook.
#[test]
fn a_huge_empty_count_is_refused_not_wrapped() {
    let rules = common::rules("chess.var");
    let text = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQK18446744073709551615RBNR w KQkq - 0 1";
    let e = Position::from_position_string(rules.clone(), text).expect_err("too many cells");
    assert_eq!(e.message, "too many cells in this row: it has 8");
    assert_eq!(&text[e.offset..e.offset + 1], "1");
    for count in ["99999999999999999999999999", "18446744073709551616", "9"] {
        let text = format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R{count}NBQKBNR w KQkq - 0 1");
        assert!(Position::from_position_string(rules.clone(), &text).is_err(), "{text}");
    }
    // In Share Squares it put four knights on a cell of capacity 2.
    let share = common::rules("share-squares.var");
    let text = "rnbqkb1r/pppppppp/8/3(NN)18446744073709551615(NN)3/8/8/PPPPPPPP/R1BQKB1R w KQkq - 0 1";
    assert!(Position::from_position_string(share, text).is_err());
}

/// Item 7: clocks up to `u32::MAX` were accepted and wrapped after one move.
#[test]
fn clocks_are_bounded() {
    // Without the move rule, so that a position with the largest clock is still being played.
    let text = std::fs::read_to_string(common::root().join("variants/chess.var")).unwrap();
    let rules = std::sync::Arc::new(varia_interpreter::Rules::new(
        varia_grammar::load(&text.replace("  move-rule 50\n", "")).unwrap(),
    ));
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
    for (clocks, field) in
        [("4294967295 1", "4294967295"), ("0 4294967295", "4294967295"), ("0 1000000001", "1000000001")]
    {
        let text = format!("{start} {clocks}");
        let e = Position::from_position_string(rules.clone(), &text).expect_err("clock too large");
        assert_eq!(
            e.message,
            format!("expected a number from {} to {MAX_CLOCK}, found `{field}`", u32::from(clocks.starts_with('0')))
        );
    }
    // The largest clocks are read; playing on stops them there (issue 51: the engine wrote
    // move 1000000001 and refused to read it back), and unmaking keeps them exact.
    let text = format!("{start} {MAX_CLOCK} {MAX_CLOCK}");
    let mut pos = common::position(&rules, &text);
    common::play(&mut pos, "Nf3 Nf6");
    assert_eq!(pos.halfmove_clock(), MAX_CLOCK);
    assert_eq!(pos.fullmove_number(), MAX_CLOCK);
    let written = pos.to_position_string();
    let again = Position::from_position_string(rules.clone(), &written).expect("what the engine writes reads back");
    assert_eq!(again.to_position_string(), written);
    pos.unmake();
    pos.unmake();
    assert_eq!(pos.to_position_string(), text);
}

/// Item 7: in Hans38 a stack written `(B)` read the bishop but not the owner of its square, so
/// the same position read back with another hash.
#[test]
fn a_stack_of_one_piece_reads_as_the_piece() {
    let rules = common::rules("hans38.var");
    let plain = "rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 1 3,3 -";
    let stacked = plain.replace("RNBQKBNR w", "RN(B)QKBNR w").replace("rnbqkbnr/", "rn(b)qkbnr/");
    let a = common::position(&rules, plain);
    let b = common::position(&rules, &stacked);
    assert_eq!(b.to_position_string(), plain);
    assert_eq!(a.hash(), b.hash());
}

/// Item 9: a byte order mark was accepted at the start of a `.zrf` but refused in a `.var`, with
/// an error showing an invisible character.
#[test]
fn a_byte_order_mark_starts_a_var_file() {
    let text = std::fs::read_to_string(common::root().join("variants/chess.var")).expect("chess.var");
    let with_bom = format!("\u{feff}{text}");
    let plain = varia_grammar::load(&text).expect("chess loads");
    let marked = varia_grammar::load(&with_bom).expect("chess with a byte order mark loads");
    assert_eq!(format!("{plain:?}"), format!("{marked:?}"));
    // Only at the start.
    let inside = text.replacen("board", "\u{feff}board", 1);
    assert!(varia_grammar::load(&inside).is_err());
}

/// Item 9: a `.zrf` game without a board loaded "ok" with 0 cells, and its position string did
/// not read back.
#[test]
fn a_zillions_game_without_positions_is_an_error() {
    for (text, message, at) in [
        ("(game (title \"x\") (players A B))", "the game has no (board ...)", "(players A B)"),
        ("(game (players A B) (board (image \"b.bmp\")))", "the board has no positions", "(board (image \"b.bmp\"))"),
    ] {
        let e = varia_zrf::load(text, None).map(|_| ()).expect_err("no board");
        assert_eq!(e.message, message);
        assert_eq!(&text[e.span.clone()], at);
    }
}

/// Item 4: a 1.1 KB text with 25 grids of 26x99 took 28 s and ~300 MB in `Rules::new`. The
/// board is now capped at `MAX_CELLS` cells and the move tables at `MAX_COMPILE_WORK` ray cells,
/// each with an error at the declaration that passes the limit.
#[test]
fn board_size_and_compile_work_are_capped() {
    use varia_interpreter::limits::{MAX_CELLS, MAX_COMPILE_WORK};
    let big = |grids: usize, pieces: &str| {
        let grids: String =
            (0..grids).map(|i| format!("  grid 26 x 99 prefix \"{}\" layer {i}\n", (b'A' + i as u8) as char)).collect();
        format!(
            "variant \"Big\"\nboard {{\n{grids}}}\nplayer white\nplayer black swap n <-> s  ne <-> se  nw <-> sw\n\
             piece King K {{\n  royal\n  step all\n}}\n{pieces}\nsetup {{\n  white: K Aa1\n  black: K Az99\n}}\n"
        )
    };
    let text = big(25, "piece Queen Q {\n  slide all\n}");
    let errors = varia_grammar::load(&text).expect_err("too many cells");
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].message, format!("the board has more than {MAX_CELLS} cells"));
    assert_eq!(&text[errors[0].span.clone()], "grid 26 x 99 prefix \"D\" layer 3");
    assert_eq!(errors[0].label, "expected at most 10000 cells in all: this adds 2574 to 7722");
    // Three grids pass the cell limit; queens and rooks on them pass the work limit.
    let text = big(3, "piece Queen Q {\n  slide all\n}\npiece Rook R {\n  slide orthogonal\n}");
    let errors = varia_grammar::load(&text).expect_err("too much work");
    assert_eq!(
        errors[0].message,
        format!(
            "the variant is too large to compile: its move tables would hold more than {MAX_COMPILE_WORK} ray cells"
        )
    );
    assert!(text[errors[0].span.clone()].starts_with("piece Queen Q"), "{:?}", &text[errors[0].span.clone()]);
    // A single such grid with kings only compiles.
    assert!(varia_grammar::load(&big(1, "")).is_ok());
}

/// Every bundled variant and every Zillions game of `../shared` stays far below the limits.
#[test]
fn real_games_are_within_the_limits() {
    use varia_interpreter::limits::{compile_work, MAX_COMPILE_WORK};
    let mut most = (0, String::new());
    for file in common::variant_files().into_iter().filter(|f| f.ends_with(".var")) {
        let text = std::fs::read_to_string(common::root().join("variants").join(&file)).expect("read");
        let variant = varia_grammar::load(&text).expect("loads");
        let work = compile_work(&variant).expect("within the limit");
        most = most.max((work, file));
    }
    let mut dirs = vec![common::root().join("../shared/zrf"), common::root().join("../shared/zrf-corpus")];
    let mut games = 0;
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            println!("skipping: no {}", dir.display());
            continue;
        };
        for path in entries.filter_map(Result::ok).map(|e| e.path()) {
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "zrf") {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path) else { continue };
            match varia_zrf::load(&text, None) {
                Ok(game) => {
                    games += 1;
                    let work = compile_work(&game.variant).expect("within the limit");
                    most = most.max((work, path.display().to_string()));
                }
                Err(e) => assert!(!e.message.contains("too large to compile"), "{}: {}", path.display(), e.message),
            }
        }
    }
    println!("{games} Zillions games load");
    println!("largest compile work: {} ray cells ({})", most.0, most.1);
    assert!(most.0 < MAX_COMPILE_WORK / 4, "{most:?}");
}

/// Found by the fuzzing smoke run: a thousand duplicate piece declarations were given ids past
/// the limit of piece types (wrapping), and the bodies of refused declarations were read at ids
/// that did not exist (a panic). The limit now comes first.
#[test]
fn piece_declarations_past_the_limit_are_refused_without_a_panic() {
    let text = std::fs::read_to_string(common::root().join("variants/chess.var")).expect("chess.var");
    let many = "piece Rook R {\n  slide orthogonal\n}\n".repeat(1000);
    let text = text.replacen("piece Bishop B {", &format!("{many}piece Bishop B {{"), 1);
    let errors = varia_grammar::load(&text).expect_err("too many pieces");
    assert!(errors.iter().any(|d| d.message == "too many piece types"), "{:?}", &errors[..3]);
    assert!(errors.iter().any(|d| d.message.starts_with("duplicate piece")));
}

/// Marks in position strings: a stray `+` or `~` is a located error, in the rows and in hands.
#[test]
fn stray_marks_in_position_strings_are_located_errors() {
    let shogi = common::rules("minishogi.var");
    let house = common::rules("crazyhouse.var");
    for (rules, text, at, what) in [
        (&shogi, "4k/5/5/5/K3+[-] w 0 1", 11, "expected a piece marked `+`"),
        (&shogi, "4k/5/5/5/K+~3[-] w 0 1", 10, "expected a piece marked `+`"),
        (&shogi, "4k/5/5/5/K4[+] w 0 1", 12, "expected the letter of a piece in hand, found `+`"),
        (&shogi, "4k/5/5/5/K4[P~] w 0 1", 13, "found `~`"),
        (&house, "4k3/8/8/8/8/8/8/Q~~3K3[] w - - 0 1", 18, "found `~`"),
        (&house, "4k3/8/8/8/8/8/8/~Q3K3[] w - - 0 1", 16, "found `~`"),
    ] {
        let e = Position::from_position_string(rules.clone(), text).expect_err(text);
        assert_eq!(e.offset, at, "{text}: {e:?}");
        assert!(e.message.contains(what), "{text}: {e:?}");
    }
    // The marked pieces themselves read back as written.
    let text = "4k/5/5/5/K+P+S2[] w - - 0 1";
    assert_eq!(Position::from_position_string(shogi, text).unwrap().to_position_string(), text);
}

/// Found by the fuzzer: three-check (goals, so program rules, but no hands) took a hand field
/// it never writes back, so the position read back with another hash. A hand is refused there.
#[test]
fn a_hand_is_refused_where_the_game_has_none() {
    let text = "rn1qkbnr/ppp1pppp/8/3p4/2P3b1/N7/PP1PPP1P/R1BQKBNR[p] b KQkq c3 0 3";
    let e = Position::from_position_string(common::rules("three-check.var"), text).expect_err("no hands");
    assert!(e.message.contains("not part of this game"), "{e:?}");
    assert_eq!(e.offset, 50, "{e:?}");
    let loop_chess = Position::from_position_string(common::rules("loop.var"), text).unwrap();
    assert_eq!(loop_chess.to_position_string(), text);
}

/// Fuzzing found a text repeating a pawn's step ten thousand times that took six seconds to
/// compile: the entries that another entry covers were found by comparing every pair and
/// removed one by one. Repeated powers, and a power that another one holds (a rook's `slide n`
/// beside its `slide orthogonal`), still make each move once: chess perft 3 stays 8,902, the
/// published count.
#[test]
fn a_power_repeated_thousands_of_times_makes_each_move_once() {
    let text = std::fs::read_to_string(common::root().join("variants/chess.var")).expect("chess.var");
    let repeated = text
        .replacen("  step n move-only\n", &"  step n move-only\n".repeat(4000), 1)
        .replacen("  leap 2 1\n", &"  leap 2 1\n".repeat(500), 1)
        .replacen("  slide orthogonal\n", &"  slide orthogonal\n  slide n\n".repeat(100), 1);
    assert!(repeated.len() > text.len() + 80_000, "the powers were not found in chess.var");
    let variant = varia_grammar::load(&repeated).expect("a valid variant");
    let rules = std::sync::Arc::new(varia_interpreter::Rules::new(variant));
    let mut pos = Position::start(rules);
    assert_eq!(varia_interpreter::perft(&mut pos, 3), 8_902);
}
