//! One engine: move programs compose with castling, en passant, squares, stacks, goals and the move rule; the defects of the old program path stay fixed.

mod common;

use std::sync::Arc;

use varia_interpreter::{perft, perft_turns, Position, Rules};

fn load(text: &str) -> Arc<Rules> {
    match varia_grammar::load(text) {
        Ok(v) => Arc::new(Rules::new(v)),
        Err(d) => panic!("{d:?}"),
    }
}

fn bundled(name: &str) -> String {
    std::fs::read_to_string(common::root().join("variants").join(name)).unwrap()
}

fn with_program_knight(name: &str) -> Arc<Rules> {
    load(&common::with_program_knight(&bundled(name)))
}

fn at(rules: &Arc<Rules>, text: &str) -> Position {
    Position::from_position_string(rules.clone(), text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn chess_with_a_program_knight_keeps_castling_and_en_passant_and_the_published_counts() {
    let rules = with_program_knight("chess.var");
    let (atoms, interpreted) = rules.program_counts();
    assert_eq!(atoms + interpreted, 8, "the knight has eight programs");
    // Source: published perft counts (Chess Programming Wiki), start position and Kiwipete.
    let mut pos = Position::start(rules.clone());
    assert_eq!([1, 2, 3].map(|d| perft(&mut pos, d)), [20, 400, 8902]);
    let mut kiwi = at(&rules, KIWIPETE);
    assert_eq!([1, 2, 3].map(|d| perft(&mut kiwi, d)), [48, 2039, 97862]);
    assert!(common::legal(&mut kiwi).contains(&"O-O".to_string()));
}

#[test]
#[ignore = "perft 4 with programs: seconds in the test profile"]
fn chess_with_a_program_knight_perft_4() {
    let rules = with_program_knight("chess.var");
    let mut pos = Position::start(rules);
    // Source: published (Chess Programming Wiki).
    assert_eq!(perft(&mut pos, 4), 197_281);
}

#[test]
fn hans38_with_a_program_knight_matches_the_declarative_counts() {
    // Source: tools/hans38-oracle (written from the rule text): 32, 1004, 44212.
    let rules = with_program_knight("hans38.var");
    let mut pos = Position::start(rules);
    assert_eq!([1, 2, 3].map(|d| perft(&mut pos, d)), [32, 1004, 44212]);
}

#[test]
fn chess_with_a_goal_line_still_castles() {
    let text = bundled("chess.var")
        .replace("  repetition 3\n", "  repetition 3\n  goal white black loss: pieces-remaining 0 K\n");
    let rules = load(&text);
    let mut kiwi = at(&rules, KIWIPETE);
    assert_eq!(perft(&mut kiwi, 2), 2039);
    assert!(common::legal(&mut kiwi).contains(&"O-O-O".to_string()));
}

#[test]
fn black_to_move_passes_the_turn_to_white_with_programs_in_the_file() {
    let rules = with_program_knight("chess.var");
    let mut pos = at(&rules, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1");
    common::play(&mut pos, "e7e5");
    assert_eq!(pos.side_to_move().0, 0, "White moves after Black");
    assert!(common::legal(&mut pos).contains(&"Ng1-f3".to_string()));
}

#[test]
fn program_moves_of_a_move_clock_piece_reset_the_clock() {
    let text = "variant \"Clock\"\nboard {\n  grid 3 x 4\n}\nplayer white\nplayer black swap n <-> s\n\
                piece King K {\n  royal\n  step orthogonal\n}\npiece Man M {\n  resets-move-clock\n  move { n verify empty add }\n}\n\
                setup {\n  white: K a1, M c1\n  black: K a4\n}\nend {\n  checkmate loss\n  move-rule 50\n}\n";
    let rules = load(text);
    let mut pos = at(&rules, "k2/3/3/K1M w - - 7 1");
    common::play(&mut pos, "Mc1-c2");
    assert!(pos.to_position_string().ends_with(" 0 1"), "{}", pos.to_position_string());
    common::play(&mut pos, "Ka4-b4");
    assert!(pos.to_position_string().ends_with(" 1 2"), "{}", pos.to_position_string());
}

#[test]
fn a_test_beyond_the_edge_is_false_but_or_and_not_still_decide() {
    let text = "variant \"Edge\"\nboard {\n  grid 3 x 3\n}\nplayer white\nplayer black swap n <-> s\n\
                piece King K {\n  royal\n}\npiece Man M {\n  move { verify empty(n) or true e add }\n  move { verify not empty(n) w add }\n}\n\
                setup {\n  white: K a1, M b3\n  black: K c1\n}\nend {\n  checkmate loss\n}\n";
    let rules = load(text);
    let mut pos = Position::start(rules);
    // On the top edge: `empty(n)` is false there, `or true` holds, and `not empty(n)` holds.
    assert_eq!(common::legal(&mut pos), ["Mb3-a3", "Mb3-c3"]);
}

#[test]
fn moves_that_differ_only_in_their_side_effects_are_written_apart_and_entered() {
    let text = "variant \"Effects\"\nboard {\n  grid 3 x 3\n}\nplayer white\nplayer black swap n <-> s\n\
                piece King K {\n  royal\n}\npiece Man M {\n  move { n verify empty add }\n  move { n verify empty create(piece: M, at: a1) add }\n}\n\
                setup {\n  white: K c1, M b1\n  black: K c3\n}\nend {\n  checkmate loss\n}\n";
    let rules = load(text);
    let mut pos = Position::start(rules);
    assert_eq!(common::legal(&mut pos), ["Mb1-b2", "Mb1-b2,+M@a1"]);
    // The plain form names the plain move alone; the other is entered with its effect.
    common::play(&mut pos, "Mb1-b2,+M@a1");
    assert_eq!(pos.to_position_string().split(' ').next().unwrap(), "2k/1M1/M1K");
    pos.unmake();
    common::play(&mut pos, "Mb1-b2");
    assert_eq!(pos.to_position_string().split(' ').next().unwrap(), "2k/1M1/2K");
}

/// A breakthrough race on 8x8: pawns step forward or diagonally, and a pawn on the far rank wins.
fn breakthrough() -> Arc<Rules> {
    load(
        "variant \"Race\"\nboard {\n  grid 8 x 8\n}\nplayer white\nplayer black swap n <-> s  ne <-> se  nw <-> sw\n\
         zone far {\n  white: rank 8\n  black: rank 1\n}\n\
         piece Pawn P {\n  san-without-letter\n  step n move-only\n  step ne nw\n}\n\
         setup {\n  white: P a7\n  black: P h2\n}\nend {\n  stalemate draw\n  goal white black win: config(own P at far)\n}\n",
    )
}

#[test]
fn a_finished_game_has_no_moves_so_perft_counts_nothing_below_it() {
    let rules = breakthrough();
    let mut pos = at(&rules, "8/P7/8/8/8/8/7p/8 w - - 0 1");
    // White's two moves to the last rank each win: nothing follows them.
    assert_eq!(common::legal(&mut pos), ["a7-a8", "a7-b8"]);
    assert_eq!(perft(&mut pos, 1), 2);
    assert_eq!(perft(&mut pos, 2), 0);
    common::play(&mut pos, "a8");
    assert!(pos.outcome().is_some());
    assert!(common::legal(&mut pos).is_empty());
}

#[test]
fn castling_rights_need_their_pieces_on_their_cells() {
    let rules = common::rules("chess.var");
    let cases = [
        (
            "r3k2r/8/8/8/8/8/8/R3K2B w KQ - 0 1",
            "castling right `K` (white O-O) needs white's rook on h1, but it holds white's bishop",
        ),
        (
            "4k3/8/8/8/8/8/8/4R2K w K - 0 1",
            "castling right `K` (white O-O) needs white's king on e1, but it holds white's rook",
        ),
        ("4k3/8/8/8/8/8/8/4K3 w Q - 0 1", "castling right `Q` (white O-O-O) needs white's rook on a1, but it is empty"),
    ];
    for (text, message) in cases {
        let e = Position::from_position_string(rules.clone(), text).expect_err(text);
        assert_eq!(e.message, message, "{text}");
        assert_eq!(&text[e.offset..e.offset + e.len], &message[16..17], "the error points at the right's letter");
    }
    // Rights that fit their pieces are read.
    assert!(Position::from_position_string(rules, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").is_ok());
}

/// The declarative makruk and shatranj the bench compares the Zillions files with.
#[test]
fn bench_companions_match_fairy_stockfish_and_the_zillions_files() {
    // Source: Fairy-Stockfish (pyffish `legal_moves`, variants makruk and shatranj), perft 1-3.
    for (game, counts) in [("makruk", [23, 529, 12012]), ("shatranj", [16, 256, 4176])] {
        let text = std::fs::read_to_string(common::root().join(format!("benches/variants/{game}.var"))).unwrap();
        let rules = load(&text);
        let mut pos = Position::start(rules);
        assert_eq!([1, 2, 3].map(|d| perft(&mut pos, d)), counts, "{game}.var");
        let zrf = common::root().join(format!("../shared/zrf/{game}.zrf"));
        let Ok(ztext) = std::fs::read_to_string(&zrf) else { continue };
        let z = varia_zrf::load(&ztext, None).unwrap_or_else(|e| panic!("{}", e.render(&ztext)));
        let mut zpos = Position::start(Arc::new(Rules::new(z.variant)));
        assert_eq!([1, 2, 3].map(|d| perft(&mut zpos, d)), counts, "{game}.zrf");
    }
}

/// Every bundled game with a 2,1 leaper, its leapers' `leap 2 1` rewritten as the eight move
/// programs, counts what tests/perft.txt lists for it to depth 3 (the sources are named there:
/// published counts, Fairy-Stockfish, the oracles in tools/): programs on stacks (Share Squares,
/// Safety in Numbers), with squares and turns of several actions (the Hans38 family, Infinite
/// Reserves, Moving Occupied Squares, Multiple Squares), with castling and en passant (chess,
/// Capablanca).
#[test]
fn program_leapers_count_as_the_declarative_games_in_perft_txt() {
    let listed = std::fs::read_to_string(common::root().join("tests/perft.txt")).unwrap();
    let mut checked = std::collections::BTreeSet::new();
    for line in listed.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        let (file, position, depth, count) = (fields[0], fields[1], fields[2], fields[3]);
        let depth: u32 = depth.parse().unwrap();
        let flags = &fields[4..];
        if depth > 3 || flags.contains(&"slow") {
            continue;
        }
        let text = bundled(file);
        if !text.contains("  leap 2 1\n") {
            continue;
        }
        let rules = load(&text.replace("  leap 2 1\n", &common::program_knight()));
        let mut pos = if position == "start" { Position::start(rules) } else { at(&rules, position) };
        let n = if flags.contains(&"turns") {
            perft_turns(&mut pos, depth).expect("turns end")
        } else {
            perft(&mut pos, depth)
        };
        assert_eq!(n.to_string(), count, "{line}");
        checked.insert(file.to_string());
    }
    assert!(checked.len() >= 9, "{checked:?}");
}

fn drop_chess() -> Arc<Rules> {
    load(&common::drop_chess_text())
}

#[test]
fn drops_from_hand_compose_with_castling_en_passant_and_promotion() {
    let rules = drop_chess();
    // Source: Fairy-Stockfish, `python3 tools/fsf-perft.py --ini tools/fsf-variants.ini
    // --variant dropchess --fen "FEN"` with the hands written `[NPnp]` after the board.
    let mut start = Position::start(rules.clone());
    assert_eq!([1, 2, 3].map(|d| perft(&mut start, d)), [84, 6745, 395_773]);
    let cases: [(&str, [u64; 3]); 3] = [
        (KIWIPETE, [102, 9656, 827_202]),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", [106, 10521, 654_405]),
        ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", [14, 1393, 101_495]),
    ];
    for (fen, counts) in cases {
        let mut pos = at(&rules, &format!("{fen} hand=N1P1n1p1"));
        assert_eq!([1, 2, 3].map(|d| perft(&mut pos, d)), counts, "{fen}");
    }
    // A drop may block a check, and SAN still reads a pawn's move when pawns can be dropped
    // (`e4` is e2-e4, the drop is `P@e4`): after 1. e4 f6 2. Qh5+ Black has g6 and the four
    // drops between h5 and e8, as Fairy-Stockfish lists them.
    let mut pos = Position::start(rules);
    common::play(&mut pos, "e4 f6 Qh5");
    assert_eq!(common::legal(&mut pos), ["N@f7", "N@g6", "P@f7", "P@g6", "g7-g6"]);
}

/// A 4x4 game whose men are dropped anywhere in the dropper's half, onto anything but a friend,
/// with two shared cells where a lone piece is inert.
const DROPS_THAT_TAKE: &str = r#"variant "Drops that take"
board { grid 4 x 4 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
zone camp {
  white: rank 1 rank 2
  black: rank 3 rank 4
}
zone share {
  b2 c2
  capacity 2
  lone-inert
}
piece King K {
  royal
  step all
}
piece Man M {
  step n
  drop { verify in(camp) verify not friend add }
}
setup {
  white: K a1
  black: K d3, M b2
  hand white: M 1
}
end {
  checkmate loss
  stalemate draw
}
"#;

#[test]
fn a_drop_that_could_take_a_royal_piece_attacks_it_and_drops_join_stacks_as_moves_do() {
    let rules = load(DROPS_THAT_TAKE);
    let mut pos = Position::start(rules.clone());
    // White drops onto every cell of its half but its own king's; on b2 the man joins the lone
    // (inert) black man instead of taking it, as the king's step there does.
    assert_eq!(
        common::legal(&mut pos),
        ["Ka1-a2", "Ka1-b1", "Ka1-b2", "M@a2", "M@b1", "M@b2", "M@c1", "M@c2", "M@d1", "M@d2"]
    );
    // With a man in White's hand, d2 is a cell where the drop would take Black's king: the king
    // may not go there, but c2 is fine (alone on a shared cell it is inert: a drop joins it).
    common::play(&mut pos, "Ka1-a2");
    assert_eq!(common::legal(&mut pos), ["Kd3-c2", "Kd3-c3", "Kd3-c4", "Kd3-d4", "Mb2-b1"]);
    pos.unmake();
    // Once the man is dropped, White's hand is empty and d2 is safe.
    common::play(&mut pos, "M@b2");
    assert_eq!(common::legal(&mut pos), ["Kd3-c2", "Kd3-c3", "Kd3-c4", "Kd3-d2", "Kd3-d4", "Mb2-b1"]);
    // A king in the opponent's half while the opponent holds a man is in check.
    let mut pos = at(&rules, "4/4/4/K2k b - - 0 1 hand=M1");
    assert!(pos.in_check());
    assert_eq!(common::legal(&mut pos), ["Kd1-c2"]);
    let mut pos = at(&rules, "4/4/4/K2k b - - 0 1 hand=-");
    assert!(!pos.in_check());
    assert_eq!(common::legal(&mut pos), ["Kd1-c1", "Kd1-c2", "Kd1-d2"]);
}

/// Hans38 whose knight captures are compulsory: the knight written as typed programs and
/// `priorities capture`; moves of no type (the other pieces, square actions) rank with the
/// types the priorities leave out.
fn hans38_knight_captures_first() -> Arc<Rules> {
    let mut knight = String::new();
    for (ty, test) in [("capture", "enemy"), ("quiet", "empty")] {
        for path in ["n n e", "n n w", "s s e", "s s w", "e e n", "e e s", "w w n", "w w s"] {
            knight.push_str(&format!("  move {ty} {{ {path} verify {test} add }}\n"));
        }
    }
    let text = bundled("hans38.var").replacen("  leap 2 1\n", &knight, 1).replacen(
        "variant \"Hans38 Chess\"",
        "variant \"Hans38, knight captures first\"\n\npriorities capture",
        1,
    );
    load(&text)
}

#[test]
fn priorities_rank_square_actions_and_untyped_moves_with_the_unlisted_types() {
    let rules = hans38_knight_captures_first();
    // Source: tools/hans38-oracle (`perft.py --knight-captures-first --pos ORACLE-STRING 3`),
    // positions from its random games where a knight can capture; the strings below are the
    // same positions in Varia's form.
    let cases: [(&str, [u64; 3]); 4] = [
        ("rnbqkbnr/pppppppp/***-****/****++N*/********/****+P*+/PPPPPKPP/RNBQ*B+R w kq - 0 16 0,0 d6", [2, 28, 160]),
        ("rnbqkbnr/ppp*pppp/***-****/+**p****/**-**+**/**N*P***/PPPPBPPP/R+BQK+NR w KQkq - 0 16 0,0 -", [1, 26, 52]),
        ("r*bqkb-r/pppp-ppp/n-+*p***/***n****/+**-****/**PP****/PP*QPPPP/RNB*KBNR b KQkq - 0 21 0,0 a4", [1, 1, 50]),
        ("rnbqk*-r/pppppp*p/**+**-pb/****-**-/******n*/*+P*****/PP*PPPPP/RNBQKBNR b KQkq - 0 20 0,0 c6", [2, 52, 177]),
    ];
    for (text, counts) in cases {
        let mut pos = at(&rules, text);
        assert_eq!([1, 2, 3].map(|d| perft(&mut pos, d)), counts, "{text}");
    }
    // With no knight capture on the board the priorities change nothing: Hans38's own counts.
    let mut pos = Position::start(rules.clone());
    assert_eq!([1, 2, 3].map(|d| perft(&mut pos, d)), [32, 1004, 44212]);
    // The one knight capture is then the only legal action: no square action, no pawn move.
    let mut pos = at(&rules, cases[1].0);
    assert_eq!(common::legal(&mut pos), ["Nc3xd5"]);
}

#[test]
fn a_goal_reached_by_the_first_action_of_a_turn_ends_the_game_at_once() {
    // Hans38 with the Postal Rule (a turn: a piece move, then optionally a square action), where
    // losing the queen loses the game.
    let text = bundled("hans38-postal.var").replacen(
        "  repetition 3\n",
        "  repetition 3\n  goal black loss: captured Queen\n",
        1,
    );
    let rules = load(&text);
    // White's rook on d1 can take Black's queen on d3 over the square on d2.
    let board = "---*k---/********/********/********/********/***q****/***+****/+++RK+++";
    let mut pos = at(&rules, &format!("{board} w - - 0 10 0,0 - 1 -"));
    assert!(common::legal(&mut pos).contains(&"Rd1xd3".to_string()));
    common::play(&mut pos, "Rd1xd3");
    // The turn's square action is never played: the goal holds after the first action.
    assert!(common::legal(&mut pos).is_empty());
    assert_eq!(
        pos.outcome().map(|(r, _)| r),
        Some(varia_interpreter::GameResult::Win(varia_interpreter::ir::PlayerId(0)))
    );
    // Without the goal, the same capture leaves White its optional square action.
    let plain = common::rules("hans38-postal.var");
    let mut pos = at(&plain, &format!("{board} w - - 0 10 0,0 - 1 -"));
    common::play(&mut pos, "Rd1xd3");
    assert!(pos.outcome().is_none());
    assert!(common::legal(&mut pos).iter().any(|m| m == "end"), "the turn may end or go on with a square action");
}
