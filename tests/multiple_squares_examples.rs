//! Occupying Multiple Squares (Event #87): the rule text's four examples
//! (`shared/rules/occupying-multiple-squares.txt`), its notation, stalemate and repetition, games
//! replayed and random games checked against the definition of legality. The scenarios of each
//! rule sentence are in tests/multiple_squares.rs, which says how locations and position strings
//! are written.

mod common;
#[path = "multiple_squares/helpers.rs"]
mod helpers;

use helpers::*;

/// Snapshots the position string and the sorted legal moves under `name` (insta names the
/// snapshot after this file), and returns the moves.
fn snap(name: &str, pos: &mut Position) -> Vec<String> {
    let (text, moves) = move_list(pos);
    insta::assert_snapshot!(name, text);
    moves
}

// ---------------------------------------------------------------------------------------------
// The text's four examples.
// ---------------------------------------------------------------------------------------------

/// Example 1: "Whites rook is occupying both a1 and a2. Whites rook can move from any of those
/// squares. The rook can NOT move to b1.5, since the rook can't reach there from either a1 or
/// a2. A legal move, however is Ra7.5#. Whites rook is able to move from either a7 or a8. Black
/// is checkmated." The black king on h8 behind its pawns g7 and h7: the rook checks from a8.
#[test]
fn example_1_rook_a1_5_to_a7_5_mates() {
    let mut pos = at("7k/6pp/8/8/8/8/8/4K3{Ra1.5} w - - 0 1");
    let moves = snap("example_1_rook_a1_5", &mut pos);
    assert!(!has(&moves, "Ra1.5-b1.5"));
    assert!(has(&moves, "Ra1.5-a7.5") && has(&moves, "Ra1.5-a1") && has(&moves, "Ra1.5-a2"));
    assert_eq!(short(&mut pos, "Ra1.5-a7.5"), "Ra7.5");
    play(&mut pos, "Ra7.5#");
    assert_eq!(pos.to_position_string(), "7k/6pp/8/8/8/8/8/4K3{Ra7.5} b - - 1 1");
    assert_eq!((on(&pos, "a7"), on(&pos, "a8")), (Some('R'), Some('R')));
    assert!(pos.in_check());
    assert!(pos.is_attacked(cell("g8"), WHITE));
    let moves = snap("example_1_after_ra7_5", &mut pos);
    assert!(moves.is_empty());
    assert_eq!(pos.outcome(), Some((GameResult::Win(WHITE), EndReason::Checkmate)));
}

/// Example 2: "White plays Bef3.5#. Whites bishop is able to move from either e3, e4, f3 or f4.
/// Black is checkmated." Reconstructed: the bishop goes from c1 to ef3.5 (half a square past
/// e3) and checks the king on h5 from f3; it also guards g4 (from f3), g5 and h6 (from f4) and
/// g6 (from e4); the knight on g2 guards h4.
#[test]
fn example_2_bishop_to_ef3_5_mates() {
    let mut pos = at("8/8/8/7k/8/8/6N1/K1B5 w - - 0 1");
    let moves = snap("example_2_bishop_c1", &mut pos);
    assert!(has(&moves, "Bc1-ef3.5"));
    assert_eq!(short(&mut pos, "Bc1-ef3.5"), "Bef3.5");
    play(&mut pos, "Bef3.5#");
    assert_eq!(pos.to_position_string(), "8/8/8/7k/8/8/6N1/K7{Bef3.5} b - - 1 1");
    assert!(pos.in_check());
    for sq in ["g4", "g5", "g6", "h4", "h6"] {
        assert!(pos.is_attacked(cell(sq), WHITE), "{sq}");
    }
    let moves = snap("example_2_after_bef3_5", &mut pos);
    assert!(moves.is_empty());
    assert_eq!(pos.outcome(), Some((GameResult::Win(WHITE), EndReason::Checkmate)));
    // Without the knight the king escapes to h4: no mate.
    let mut pos = after("8/8/8/7k/8/8/8/K1B5 w - - 0 1", "Bef3.5+");
    assert_eq!(legal(&mut pos), ["Kh5-h4"]);
}

/// Example 3: "Whites bishop can be captured on any square it is occupying. Black plays Nxf4."
/// The knight on h5 takes the bishop on ef3.5 by landing on f4; the bishop leaves e3, e4, f3
/// and f4.
#[test]
fn example_3_knight_takes_the_bishop_on_f4() {
    let mut pos = at("4k3/8/8/7n/8/8/8/4K3{Bef3.5} b - - 0 1");
    let moves = snap("example_3_knight_h5", &mut pos);
    assert!(has(&moves, "Nh5xf4"));
    assert_eq!(short(&mut pos, "Nh5xf4"), "Nxf4");
    play(&mut pos, "Nxf4");
    assert_eq!(pos.to_position_string(), "4k3/8/8/8/5n2/8/8/4K3 w - - 0 2");
    assert_eq!(on(&pos, "f4"), Some('n'));
    for sq in ["e3", "e4", "f3"] {
        assert_eq!(on(&pos, sq), None, "{sq}");
    }
    assert_eq!(pos.piece_count(), 3);
}

/// Example 4: "Whites queen is occupying f3, f4, g3 and g4. Whites pawns on f2 and g2 are
/// blocked and cannot move. Whites knight can not move to f3. Whites dark squared bishop can not
/// move to f4, g5 or h6."
#[test]
fn example_4_queen_on_fg3_5_blocks_its_own_pieces() {
    let mut pos = at("4k3/8/8/8/8/4B3/5PPP/1K2N1N1{Qfg3.5} w - - 0 1");
    let moves = snap("example_4_queen_on_fg3_5", &mut pos);
    assert!(from(&moves, "f2").is_empty() && from(&moves, "g2").is_empty());
    assert!(has(&moves, "h2-h3") && has(&moves, "h2-h4"));
    assert!(!has(&moves, "Ng1-f3") && !has(&moves, "Ne1-f3"));
    assert!(has(&moves, "Ng1-h3") && has(&moves, "Ng1-e2") && has(&moves, "Ne1-d3"));
    for t in ["f4", "g5", "h6", "ef3.5", "fg4.5"] {
        assert!(!has(&moves, &format!("Be3-{t}")), "{t}");
    }
    assert!(has(&moves, "Be3-d4") && has(&moves, "Be3-d2"));
    // The queen moves from each of its squares, including onto them.
    for m in ["Qfg3.5-f8", "Qfg3.5-g8", "Qfg3.5-a4", "Qfg3.5-h3", "Qfg3.5-f3", "Qfg3.5-g4", "Qfg3.5-fg4.5"] {
        assert!(has(&moves, m), "{m}");
    }
    assert!(!has(&moves, "Qfg3.5-fg5.5") && !has(&moves, "Qfg3.5-e3") && !has(&moves, "Qfg3.5-a3"));
}

// ---------------------------------------------------------------------------------------------
// Notation.
// ---------------------------------------------------------------------------------------------

/// The text's notation is read as is: `Ra7.5` (example 1), `Bef3.5` (example 2), `Nxf4`
/// (example 3) and `Qab1.5`, here a queen on d4 going down the long diagonal to stop between
/// a1, a2, b1 and b2. Varia writes the same short forms, and the long forms `Ra1.5-a7.5`,
/// `Bc1-ef3.5`, `Nh5xf4`, `Qd4-ab1.5`.
#[test]
fn the_texts_notation_reads_as_is() {
    let cases = [
        ("7k/6pp/8/8/8/8/8/4K3{Ra1.5} w - - 0 1", "Ra7.5", "Ra1.5-a7.5"),
        ("8/8/8/7k/8/8/6N1/K1B5 w - - 0 1", "Bef3.5", "Bc1-ef3.5"),
        ("4k3/8/8/7n/8/8/8/4K3{Bef3.5} b - - 0 1", "Nxf4", "Nh5xf4"),
        ("4k3/8/8/8/3Q4/8/8/7K w - - 0 1", "Qab1.5", "Qd4-ab1.5"),
    ];
    for (text, written, long) in cases {
        let mut pos = at(text);
        let mv = pos.parse_move(written).unwrap_or_else(|e| panic!("{written}: {e}"));
        assert_eq!(pos.long_notation(mv), long);
        assert_eq!(short(&mut pos, long), written);
        for form in [long.to_string(), long.replace(['-', 'x'], ""), format!("{written}+")] {
            assert_eq!(pos.parse_move(&form), Ok(mv), "{form}");
        }
    }
}

/// Ruling: where names run together, the short form names more of the start square until no
/// other legal move reads the same way. With a rook on c2 and one on cd3 (c3, d3), `Rcd2` could
/// be the rook on c2 going to d2 or to cd2: Varia writes `R2d2` and `Rccd2`, and reads `Rcd2`
/// as ambiguous. The rook on cd3 going to d2 is `Rcdd2`. (The position comes from a failing
/// property test.)
#[test]
fn notation_where_names_run_together() {
    let text = "4r1n1/p4kr1/3b1npp/1pqp4/3N1B1P/Pp2B3/2R3P1/4K1N1{Rcd3} w - - 7 43";
    let mut pos = at(text);
    let moves = snap("notation_where_names_run_together", &mut pos);
    assert!(has(&moves, "Rc2-d2") && has(&moves, "Rc2-cd2") && has(&moves, "Rcd3-d2"));
    assert_eq!(short(&mut pos, "Rc2-d2"), "R2d2");
    assert_eq!(short(&mut pos, "Rc2-cd2"), "Rccd2");
    assert_eq!(short(&mut pos, "Rcd3-d2"), "Rcdd2");
    match pos.parse_move("Rcd2") {
        Err(MoveError::Ambiguous { candidates, .. }) => assert_eq!(candidates, ["Rc2-cd2", "Rc2-d2"]),
        other => panic!("Rcd2: {other:?}"),
    }
    every_form_reads_back(&mut pos);
}

/// Every legal move's long and short forms read back as that move, in positions with pieces of
/// both sides between squares (and, in the last, two rooks whose names run together).
#[test]
fn every_written_move_reads_back() {
    for text in [
        "7k/6pp/8/8/8/8/8/4K3{Ra1.5} w - - 0 1",
        "4k3/8/8/8/8/4B3/5PPP/1K2N1N1{Qfg3.5} w - - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R{qab2,Rcd3,Rc5.5,Bde5.5,bgh5.5} w KQkq - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R{qab2,Rcd3,Rc5.5,Bde5.5,bgh5.5} b KQkq - 0 1",
        "4k3/8/8/3n2p1/8/r7/8/7K{Bef3.5} b - - 0 1",
        "7k/8/8/8/8/8/2R5/4K3{Rbc1,Rcd3} w - - 0 1",
    ] {
        let mut pos = at(text);
        assert_eq!(pos.to_position_string(), text);
        every_form_reads_back(&mut pos);
    }
}

// ---------------------------------------------------------------------------------------------
// Perft, the end of the game, and a game file.
// ---------------------------------------------------------------------------------------------

/// Perft from the start: 20, 400, 9,490 (depth 4, 222,790, and depth 5, 6,278,155, are in
/// `tests/perft.txt`; the independent oracle in `tools/multiple-squares-oracle/` agrees).
/// The first stops between squares come at depth 3 (after 1. e4, say, and a black move,
/// `Bf1-cd3.5`).
#[test]
fn perft_from_the_start() {
    let mut pos = at("start");
    assert_eq!(perft(&mut pos, 1), 20);
    assert_eq!(perft(&mut pos, 2), 400);
    assert_eq!(perft(&mut pos, 3), 9490);
    let mut pos = after("start", "e4 e5");
    assert!(has(&legal(&mut pos), "Bf1-cd3.5"));
}

/// "Condition: None": the rest is FIDE chess. Stalemate draws: the queen on g5.5 (g5, g6) takes
/// g7, g8 and h7 from the king on h8 without checking it.
#[test]
fn stalemate_draws() {
    let mut pos = at("7k/8/8/8/8/8/8/K5Q1 w - - 0 1");
    play(&mut pos, "Qg5.5");
    assert_eq!(pos.to_position_string(), "7k/8/8/8/8/8/8/K7{Qg5.5} b - - 1 1");
    assert!(!pos.in_check());
    let moves = snap("stalemate_draws", &mut pos);
    assert!(moves.is_empty());
    assert_eq!(pos.outcome(), Some((GameResult::Draw, EndReason::Stalemate)));
}

/// Threefold repetition counts positions with pieces between squares like any other: the rook
/// goes a1 - a1.5 - a1 twice, the king h8 - g8 - h8, and the start's third occurrence draws. A
/// move between squares is not a capture or a pawn move and does not reset the move clock.
#[test]
fn threefold_repetition_with_a_piece_between_squares() {
    let mut pos = at("7k/8/8/8/8/8/8/R6K w - - 0 1");
    let start = pos.hash();
    let moves = "Ra1-a1.5 Kh8-g8 Ra1.5-a1 Kg8-h8 Ra1-a1.5 Kh8-g8 Ra1.5-a1";
    for m in moves.split_whitespace() {
        play(&mut pos, m);
        assert_eq!(pos.hash(), pos.compute_hash(), "{m}");
        assert_eq!(pos.outcome(), None);
    }
    assert_eq!(pos.halfmove_clock(), 7);
    play(&mut pos, "Kg8-h8");
    assert_eq!(pos.hash(), start);
    assert_eq!(pos.outcome(), Some((GameResult::Draw, EndReason::Repetition)));
}

/// Replays a game file from the start, calling `check` after each move with the number of
/// moves made and the position.
fn replay(name: &str, mut check: impl FnMut(usize, &mut Position)) -> Position {
    let mut pos = at("start");
    for (i, m) in game_moves(name).iter().enumerate() {
        play(&mut pos, m);
        assert_eq!(pos.hash(), pos.compute_hash(), "{m}");
        check(i + 1, &mut pos);
    }
    pos
}

/// The Scholar's mate with the bishop between squares: 2. Bcd3.5 puts it on c3, d3, c4 and d4,
/// and from c4 it guards f7 for 4. Qxf7#.
#[test]
fn game_scholars_mate_from_between_squares() {
    let mut pos = replay("multiple-squares-scholars-mate.txt", |ply, pos| {
        if ply == 3 {
            assert_eq!(
                pos.to_position_string(),
                "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQK1NR{Bcd3.5} b KQkq - 1 2"
            );
            assert!(pos.is_attacked(cell("f7"), WHITE), "from c4");
        }
    });
    assert_eq!(pos.to_position_string(), "r1bqkb1r/pppp1Qpp/2n2n2/4p3/4P3/8/PPPP1PPP/RNB1K1NR{Bcd3.5} b KQkq - 0 4");
    let moves = snap("game_scholars_mate_from_between_squares", &mut pos);
    assert!(moves.is_empty());
    assert_eq!(pos.outcome(), Some((GameResult::Win(WHITE), EndReason::Checkmate)));
}

/// Example 3 in a game: 2. Bef3.5 stands on e3, e4, f3 and f4; 3...Nxf4 takes it on f4.
#[test]
fn game_knight_takes_the_bishop_between_squares() {
    let pos = replay("multiple-squares-knight-takes-bishop.txt", |ply, pos| {
        if ply == 3 {
            assert_eq!(
                pos.to_position_string(),
                "rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RN1QKBNR{Bef3.5} b KQkq - 2 2"
            );
            // The knight on f6 could already take it on e4.
            assert!(has(&legal(pos), "Nf6xe4"));
        }
    });
    assert_eq!(pos.to_position_string(), "rnbqkb1r/pppppppp/8/8/3P1n2/2N5/PPP1PPPP/R2QKBNR w KQkq - 0 4");
}

// ---------------------------------------------------------------------------------------------
// Random games that favour pieces between squares.
// ---------------------------------------------------------------------------------------------

/// Random games from three starts (the setup and two with many queens and rooks), choosing a
/// move to or from a location between squares two times in three when there is one. In every
/// position: each legal move leaves no royal capturable by the opponent's generated moves, each
/// rejected pseudo-legal move does, check agrees with generation, the hash kept by make equals
/// a fresh one, and the position string reads back to the same position. Every eighth position,
/// every legal move's long and short forms read back as that move.
#[test]
fn random_games_agree_with_the_definition_of_legality() {
    let rules = rules();
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let starts =
        ["start", "r1q1k1br/8/8/8/8/8/8/RQ1BK2R w KQkq - 0 1", "rr2k1qq/pp4pp/8/8/8/8/PP4PP/RR2K1QQ w - - 0 1"];
    let (mut positions, mut with_between) = (0, 0);
    for g in 0..9 {
        let mut pos = at(starts[g % starts.len()]);
        for ply in 0..80 {
            if pos.outcome().is_some() {
                break;
            }
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            positions += 1;
            let text = pos.to_position_string();
            with_between += usize::from(text.contains('{'));
            let back = Position::from_position_string(rules.clone(), &text).expect("own string");
            assert_eq!(back.to_position_string(), text);
            assert_eq!(back.hash(), pos.hash(), "{text}");
            assert_eq!(pos.hash(), pos.compute_hash(), "{text}");
            assert_eq!(pos.in_check(), pos.royal_capturable_by_generation(pos.side_to_move()), "{text}");
            let mut pseudo = Vec::new();
            pos.pseudo_legal_moves(&mut pseudo);
            for &mv in &pseudo {
                if mv.kind == varia_interpreter::MoveKind::Castle {
                    continue;
                }
                let mover = pos.side_to_move();
                pos.make(mv);
                let exposed = pos.royal_capturable_by_generation(mover);
                pos.unmake();
                assert_eq!(!exposed, moves.contains(&mv), "{} in {text}", pos.long_notation(mv));
            }
            if ply % 8 == 0 {
                every_form_reads_back(&mut pos);
            }
            let between: Vec<_> =
                moves.iter().filter(|m| rules.is_between(m.to) || rules.is_between(m.from)).copied().collect();
            let mv = if !between.is_empty() && next(3) > 0 {
                between[next(between.len())]
            } else {
                moves[next(moves.len())]
            };
            pos.make(mv);
        }
    }
    assert!(
        positions > 500 && with_between * 2 > positions,
        "{positions} positions, {with_between} with a piece between"
    );
}
