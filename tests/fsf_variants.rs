//! The Fairy-Stockfish games bundled with Varia (xiangqi, shatranj, three-check, loop, crazyhouse, minishogi, shogi, grand, atomic, seirawan, bughouse, dragon, atomar, torishogi; janggi and sittuyin in tests/fsf_variants_asian.rs): positions that
//! exercise each game's special rules. Every expected move list and result is Fairy-Stockfish's
//! (pyffish 0.0.90: `legal_moves`, `is_immediate_game_end`, `game_result` on the same position
//! string), written in its UCI form; tools/oracle-fsf.py compares whole random games.

mod common;
#[path = "fsf_variants/helpers.rs"]
mod helpers;

use helpers::*;

#[test]
fn xiangqi_generals_may_not_face_each_other() {
    // The cannon on e5 is all that stands between the generals: it may not leave the file.
    let mut pos = at("xiangqi.var", "4k4/9/9/9/9/4C4/9/9/9/4K4 w - - 0 1");
    assert_eq!(common::uci(&mut pos), list("e1d1 e1e2 e1f1 e5e2 e5e3 e5e4 e5e6 e5e7 e5e8 e5e9"));
}

#[test]
fn xiangqi_elephant_eye_and_river() {
    // c1-e3 is blocked by the advisor on d2; the elephant on e5 may not cross to c7 or g7.
    let mut pos = at("xiangqi.var", "3k5/9/9/9/9/4B4/9/9/3A5/2B1K4 w - - 0 1");
    assert_eq!(common::uci(&mut pos), list("c1a3 d2e3 e1d1 e1e2 e1f1 e5c3 e5g3"));
}

#[test]
fn xiangqi_horse_leg_and_cannon_screen() {
    // The soldier on b2 hobbles the horse northwards; the cannon takes the chariot on h10
    // over the soldier on h7 and moves without capturing up to the screen.
    let mut pos = at("xiangqi.var", "4k2r1/9/9/7p1/9/9/9/7C1/1P7/1N1K5 w - - 0 1");
    assert_eq!(
        common::uci(&mut pos),
        list("b1d2 b2b3 d1d2 h3a3 h3b3 h3c3 h3d3 h3e3 h3f3 h3g3 h3h1 h3h10 h3h2 h3h4 h3h5 h3h6 h3i3")
    );
}

#[test]
fn xiangqi_stalemate_loses() {
    let mut pos = at("xiangqi.var", "5k3/4r4/9/9/9/9/9/9/r8/3K5 w - - 0 1");
    assert!(common::uci(&mut pos).is_empty());
    assert_eq!(pos.outcome(), Some((GameResult::Win(BLACK), EndReason::Stalemate)));
}

#[test]
fn shatranj_bare_king_on_the_move_loses_when_it_cannot_bare_back() {
    // Two rooks besides the king: no single capture can bare White back.
    let mut pos = at("shatranj.var", "3k4/8/8/8/8/8/8/R2K3R b - - 0 1");
    assert!(matches!(pos.outcome(), Some((GameResult::Win(WHITE), EndReason::Goal(_)))));
    assert!(common::uci(&mut pos).is_empty());
}

#[test]
fn shatranj_bare_king_loses_after_its_move() {
    // One rook: Black moves first, and loses once it has moved without baring White.
    let mut pos = at("shatranj.var", "3k4/8/8/8/8/8/8/3K3R b - - 0 1");
    assert_eq!(pos.outcome(), None);
    assert_eq!(common::uci(&mut pos), list("d8c7 d8c8 d8d7 d8e7 d8e8"));
    common::play(&mut pos, "d8c8");
    assert!(matches!(pos.outcome(), Some((GameResult::Win(WHITE), EndReason::Goal(_)))));
}

#[test]
fn shatranj_baring_back_goes_on() {
    // Taking the last rook leaves two bare kings: the game goes on (Fairy-Stockfish lists
    // White's king moves).
    let mut pos = at("shatranj.var", "3k4/3R4/8/8/8/8/8/3K4 b - - 0 1");
    common::play(&mut pos, "d8d7");
    assert_eq!(pos.outcome(), None);
    assert_eq!(common::uci(&mut pos), list("d1c1 d1c2 d1d2 d1e1 d1e2"));
    let mut pos = at("shatranj.var", "3k4/3R4/8/8/8/8/8/3K4 b - - 0 1");
    common::play(&mut pos, "d8c8");
    assert!(matches!(pos.outcome(), Some((GameResult::Win(WHITE), EndReason::Goal(_)))));
}

#[test]
fn shatranj_stalemate_loses_and_pawns_promote_to_fers() {
    let mut pos = at("shatranj.var", "k7/2K5/1Q6/8/8/8/8/8 b - - 0 1");
    assert!(common::uci(&mut pos).is_empty());
    assert_eq!(pos.outcome(), Some((GameResult::Win(WHITE), EndReason::Stalemate)));
    let mut pos = at("shatranj.var", "8/P6p/8/8/8/8/k7/2K5 w - - 0 1");
    assert_eq!(common::uci(&mut pos), list("a7a8q c1c2 c1d1 c1d2"));
}

const TWO_CHECKS: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 1+3 4 4";

#[test]
fn three_check_the_third_check_wins() {
    // Fairy-Stockfish's `1+3`: White needs one more check.
    let mut pos = at("three-check.var", TWO_CHECKS);
    assert_eq!(pos.checks_given(WHITE), 2);
    assert_eq!(common::uci(&mut pos).len(), 42);
    common::play(&mut pos, "Bxf7");
    assert_eq!(pos.checks_given(WHITE), 3);
    assert!(matches!(pos.outcome(), Some((GameResult::Win(WHITE), EndReason::Goal(_)))));
    assert!(common::uci(&mut pos).is_empty());
}

#[test]
fn three_check_a_first_check_only_counts() {
    let mut pos = at("three-check.var", &TWO_CHECKS.replace("1+3", "3+3"));
    common::play(&mut pos, "Bxf7");
    assert_eq!(pos.checks_given(WHITE), 1);
    assert_eq!(pos.outcome(), None);
    assert_eq!(common::uci(&mut pos), list("e8e7"));
    assert!(pos.to_position_string().ends_with(" checks=1,0"), "{}", pos.to_position_string());
}

#[test]
fn three_check_counts_come_back_with_unmake_and_round_trip() {
    let mut pos = at("three-check.var", TWO_CHECKS);
    let before = (pos.to_position_string(), pos.hash());
    assert!(before.0.ends_with(" checks=2,0"), "{}", before.0);
    common::play(&mut pos, "Bxf7");
    assert_eq!(pos.hash(), pos.compute_hash());
    let after = pos.to_position_string();
    let back = at("three-check.var", &after);
    assert_eq!((back.to_position_string(), back.hash()), (after, pos.hash()));
    pos.unmake();
    assert_eq!((pos.to_position_string(), pos.hash()), before);
    assert_eq!(pos.checks_given(WHITE), 2);
}

#[test]
fn three_check_bad_counts_are_located_errors() {
    let rules = common::rules("three-check.var");
    for (text, at) in [(TWO_CHECKS.replace("1+3", "4+3"), 63), (TWO_CHECKS.replace("1+3", "1+x"), 63)] {
        let e = Position::from_position_string(rules.clone(), &text).expect_err("an error");
        assert_eq!(e.offset, at, "{e:?}");
        assert!(e.message.contains("checks each player still needs"), "{e:?}");
    }
    let text = format!("{} checks=1", TWO_CHECKS.replace(" 1+3", ""));
    let e = Position::from_position_string(rules, &text).expect_err("an error");
    assert!(e.message.contains("checks given by each player"), "{e:?}");
}

#[test]
fn loop_captures_go_to_the_capturers_hand() {
    let mut pos = at("loop.var", "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR[] w KQkq - 0 3");
    let before = (pos.to_position_string(), pos.hash());
    common::play(&mut pos, "exd5");
    // Fairy-Stockfish: rnbqkbnr/ppp2ppp/8/3Pp3/8/8/PPPP1PPP/RNBQKBNR[P] b KQkq - 0 3
    assert!(pos.to_position_string().contains("[P] "), "{}", pos.to_position_string());
    assert_eq!(pos.hash(), pos.compute_hash());
    assert_eq!(
        common::uci(&mut pos),
        list(
            "a7a5 a7a6 b7b5 b7b6 b8a6 b8c6 b8d7 c7c5 c7c6 c8d7 c8e6 c8f5 c8g4 c8h3 d8d5 d8d6 d8d7 d8e7 d8f6 \
             d8g5 d8h4 e5e4 e8d7 e8e7 f7f5 f7f6 f8a3 f8b4 f8c5 f8d6 f8e7 g7g5 g7g6 g8e7 g8f6 g8h6 h7h5 h7h6"
        )
    );
    pos.unmake();
    assert_eq!((pos.to_position_string(), pos.hash()), before);
}

#[test]
fn loop_drops_from_hands_in_fairy_stockfish_form() {
    // Pawns are not dropped on the first or last rank; other pieces anywhere empty.
    let mut pos = at("loop.var", "4k3/8/8/8/8/8/8/4K3[Pp] w - - 0 1");
    let mut expected: Vec<String> =
        (2..=7).flat_map(|r| "abcdefgh".chars().map(move |f| format!("P@{f}{r}"))).collect();
    expected.extend(list("e1d1 e1d2 e1e2 e1f1 e1f2"));
    expected.sort();
    assert_eq!(common::uci(&mut pos), expected);
    common::play(&mut pos, "P@e7");
    assert!(pos.to_position_string().contains("[p] "), "{}", pos.to_position_string());
    let mut pos = at("loop.var", "4k3/8/8/8/8/8/8/R3K3[Nq] b Q - 0 1");
    let moves = common::uci(&mut pos);
    assert_eq!(moves.len(), 66);
    assert!(moves.iter().all(|m| !m.starts_with("N@")), "only the side to move drops: {moves:?}");
}

#[test]
fn hands_in_brackets_are_checked() {
    let rules = common::rules("loop.var");
    for (text, at, what) in [
        ("4k3/8/8/8/8/8/8/4K3[Px] w - - 0 1", 21, "the letter of a piece in hand"),
        ("4k3/8/8/8/8/8/8/4K3[P w - - 0 1", 19, "in brackets"),
    ] {
        let e = Position::from_position_string(rules.clone(), text).expect_err("an error");
        assert_eq!(e.offset, at, "{e:?}");
        assert!(e.message.contains(what), "{e:?}");
    }
    let e = Position::from_position_string(common::rules("chess.var"), "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1")
        .expect_err("an error");
    assert!(e.message.contains("not part of this game"), "{e:?}");
}

#[test]
fn crazyhouse_promoted_pawns_are_marked_and_written_as_fairy_stockfish_does() {
    let mut pos = at("crazyhouse.var", "4k3/1P6/8/8/8/8/8/4K3[] w - - 0 1");
    assert_eq!(common::uci(&mut pos), list("b7b8b b7b8n b7b8q b7b8r e1d1 e1d2 e1e2 e1f1 e1f2"));
    // The short form names the piece by its letter alone; the position string marks it.
    common::play(&mut pos, "b8=Q");
    // Fairy-Stockfish: 1Q~2k3/8/8/8/8/8/8/4K3[] b - - 0 1
    assert_eq!(pos.to_position_string(), "1Q~2k3/8/8/8/8/8/8/4K3[] b - - 0 1");
    pos.unmake();
    common::play(&mut pos, "b7b8n");
    assert_eq!(pos.to_position_string(), "1N~2k3/8/8/8/8/8/8/4K3[] b - - 0 1");
    let back = at("crazyhouse.var", &pos.to_position_string());
    assert_eq!(back.hash(), pos.hash());
}

#[test]
fn crazyhouse_a_captured_promoted_pawn_goes_to_hand_as_a_pawn() {
    let start = "r1b1k2r/1Q~p2ppp/8/8/8/8/PPP2PPP/R3K2R[PPNbq] b KQkq - 0 1";
    let mut pos = at("crazyhouse.var", start);
    let before = (pos.to_position_string(), pos.hash());
    common::play(&mut pos, "Bxb7");
    // Fairy-Stockfish: r3k2r/1bp2ppp/8/8/8/8/PPP2PPP/R3K2R[NPPqbp] w KQkq - 0 2 (its hand order).
    assert_eq!(pos.to_position_string(), "r3k2r/1bp2ppp/8/8/8/8/PPP2PPP/R3K2R[NPPqbp] w KQkq - 0 2");
    assert_eq!(pos.hash(), pos.compute_hash());
    // White's 107 moves, Fairy-Stockfish's: 23 on the board, and the knight and pawn drops.
    let moves = common::uci(&mut pos);
    assert_eq!(moves.len(), 107);
    assert!(moves.iter().all(|m| !m.starts_with("Q@") && !m.starts_with("p@")), "{moves:?}");
    pos.unmake();
    assert_eq!((pos.to_position_string(), pos.hash()), before);
}

#[test]
fn marked_symbols_are_read_only_where_declared() {
    // Loop chess has no promoted types: `Q~` is a queen followed by a stray `~`.
    let e = Position::from_position_string(common::rules("loop.var"), "4k3/1Q~6/8/8/8/8/8/4K3[] w - - 0 1")
        .expect_err("an error");
    assert_eq!(e.offset, 6, "{e:?}");
    assert!(e.message.contains("found `~`"), "{e:?}");
    let pos = at("crazyhouse.var", "4k3/1q~6/8/8/8/8/8/4K3[Q~] w - - 0 1");
    assert_eq!(pos.to_position_string(), "4k3/1q~6/8/8/8/8/8/4K3[Q~] w - - 0 1");
}

#[test]
fn minishogi_pawn_drops_skip_the_far_rank_and_files_with_a_pawn() {
    // Fairy-Stockfish's list: no pawn on file a again, none on rank 5.
    let mut pos = at("minishogi.var", "4k/5/5/P4/K4[P] w - - 0 1");
    let mut expected: Vec<String> = "bcde".chars().flat_map(|f| (1..=4).map(move |r| format!("P@{f}{r}"))).collect();
    expected.extend(list("a1b1 a1b2 a2a3"));
    expected.sort();
    assert_eq!(common::uci(&mut pos), expected);
}

#[test]
fn minishogi_a_pawn_drop_may_check_but_not_checkmate() {
    // P@a4 checks; the king takes it (Fairy-Stockfish's list).
    let mut pos = at("minishogi.var", "k4/2+S2/5/K4/5[P] w - - 0 1");
    assert!(common::uci(&mut pos).contains(&"P@a4".to_string()));
    // With the bishop guarding a4 it would mate: the rule forbids it (pyffish 0.0.90 lists it,
    // see docs/variants/minishogi.md); every other move of Fairy-Stockfish's list stays.
    let mut pos = at("minishogi.var", "k4/2+S2/1B3/K4/5[P] w - - 0 1");
    let moves = common::uci(&mut pos);
    assert!(!moves.contains(&"P@a4".to_string()), "{moves:?}");
    assert_eq!(moves.len(), 29);
    // The same drop by a gold mates, and is allowed: the rule is the pawn's.
    let mut pos = at("minishogi.var", "k4/2+S2/1B3/K4/5[G] w - - 0 1");
    assert!(common::uci(&mut pos).contains(&"G@a4".to_string()));
    common::play(&mut pos, "G@a4");
    assert_eq!(pos.outcome().map(|(r, _)| r), Some(GameResult::Win(WHITE)));
}

#[test]
fn minishogi_promotes_on_leaving_the_camp_and_captures_demote() {
    // Fairy-Stockfish's form without castling and en passant fields, and its `+` promotions.
    let mut pos = at("minishogi.var", "2S1k/5/5/5/K4[-] w 0 1");
    assert_eq!(common::uci(&mut pos), list("a1a2 a1b1 a1b2 c5b4 c5b4+ c5d4 c5d4+"));
    // `c5b4` stays a silver; `c5b4+` (its `+` is no check sign here) promotes.
    assert_eq!(pos.parse_move("c5b4").unwrap().promotion(), None);
    let mv = pos.parse_move("c5b4+").unwrap();
    assert_eq!(pos.long_notation(mv), "Sc5-b4=+S");
    pos.make(mv);
    assert_eq!(pos.to_position_string(), "4k/1+S3/5/5/K4[] b - - 1 1");
    // A dragon taken goes to hand as a rook: Fairy-Stockfish gives 1k3/5/5/5/K4[r] w - - 0 2.
    let mut pos = at("minishogi.var", "k+R3/5/5/5/K4[-] b 0 1");
    assert_eq!(common::uci(&mut pos), list("a5b5"));
    common::play(&mut pos, "a5b5");
    assert_eq!(pos.to_position_string(), "1k3/5/5/5/K4[r] w - - 0 2");
}

#[test]
fn shogi_pieces_promote_where_they_could_not_move_again() {
    // Fairy-Stockfish's list: the lance may stay unpromoted on a7 and a8 but not on a9, the
    // knight must promote on rank 8, the pawn on rank 9.
    let mut pos = at("shogi.var", "4k4/6P2/9/2N6/9/9/9/L8/4K4[-] w - - 0 1");
    let moves: Vec<String> = common::uci(&mut pos).into_iter().filter(|m| !m.starts_with("e1")).collect();
    assert_eq!(moves, list("a2a3 a2a4 a2a5 a2a6 a2a7 a2a7+ a2a8 a2a8+ a2a9+ c6b8+ c6d8+ g8g9+"));
    assert_eq!(pos.parse_move("a2a8").unwrap().promotion(), None);
    assert!(pos.parse_move("a2a9").is_err(), "a lance on the far rank could never move again");
    // Black's pieces the same way down the board.
    let mut pos = at("shogi.var", "4k4/l8/9/9/9/2n6/9/6p2/4K4[-] b - - 0 1");
    let moves: Vec<String> = common::uci(&mut pos).into_iter().filter(|m| !m.starts_with("e9")).collect();
    assert_eq!(moves, list("a8a1+ a8a2 a8a2+ a8a3 a8a3+ a8a4 a8a5 a8a6 a8a7 c4b2+ c4d2+ g2g1+"));
}

#[test]
fn shogi_drops_skip_the_ranks_a_piece_could_not_leave() {
    // Fairy-Stockfish's list: knights not on ranks 8 and 9, lances and pawns not on rank 9.
    let mut pos = at("shogi.var", "4k4/9/9/9/9/9/9/9/4K4[NLP] w - - 0 1");
    let moves = common::uci(&mut pos);
    let drops = |letter: char, ranks: u32| -> usize {
        moves.iter().filter(|m| m.starts_with(letter) && m[3..].parse::<u32>().unwrap() <= ranks).count()
    };
    assert_eq!(moves.len(), 209);
    assert_eq!(drops('N', 7), 62);
    assert_eq!(drops('L', 8), 71);
    assert_eq!(drops('P', 8), 71);
    assert!(!moves.iter().any(|m| m == "N@a8" || m == "L@a9" || m == "P@a9"));
    // No second unpromoted pawn on a file (a tokin does not count).
    let mut pos = at("shogi.var", "k8/9/9/9/9/9/9/4P4/4K4[P] w - - 0 1");
    let moves = common::uci(&mut pos);
    assert_eq!(moves.len(), 69);
    assert!(!moves.iter().any(|m| m.starts_with("P@e")), "{moves:?}");
    let mut pos = at("shogi.var", "k8/9/9/9/9/9/9/4+P4/4K4[P] w - - 0 1");
    assert!(common::uci(&mut pos).contains(&"P@e5".to_string()));
}

/// The moves of the pieces standing on `cells`, from [`uci`]'s list.
fn from_cells(moves: &[String], cells: &[&str]) -> Vec<String> {
    moves.iter().filter(|m| cells.iter().any(|c| m.starts_with(c) && !m[c.len()..].starts_with('0'))).cloned().collect()
}

#[test]
fn grand_pawns_promote_only_to_lost_pieces_and_must_on_the_last_rank() {
    // White has lost its queen, chancellor, archbishop and a knight, not a rook or a bishop:
    // Fairy-Stockfish's list offers those four; on rank 8 staying a pawn is a choice, on rank
    // 10 it is not.
    let mut pos = at("grand.var", "r1r3k3/1P8/4p5/7P2/10/10/10/5P4/2B1K2BN1/R8R w - - 0 1");
    let moves = common::uci(&mut pos);
    assert_eq!(moves.len(), 83);
    assert_eq!(
        from_cells(&moves, &["b9", "h7", "f3"]),
        list(
            "b9a10a b9a10c b9a10n b9a10q b9b10a b9b10c b9b10n b9b10q b9c10a b9c10c b9c10n b9c10q \
             f3f4 f3f5 h7h8 h7h8a h7h8c h7h8n h7h8q"
        )
    );
    // With nothing lost a pawn may still enter rank 8 (a7a8) but never rank 10: the pawn on i9
    // has no move.
    let mut pos = at("grand.var", "r3k4r/8P1/10/P9/10/10/10/10/1NBQKCABN1/R8R w - - 0 1");
    let moves = common::uci(&mut pos);
    assert_eq!(moves.len(), 119);
    assert_eq!(from_cells(&moves, &["a7", "i9"]), list("a7a8"));
    // Black's queen is on the board, so it is not offered; every other type is.
    let mut pos = at("grand.var", "4k5/10/10/10/q9/10/10/10/2p7/R2NK4R b - - 0 1");
    let moves = common::uci(&mut pos);
    assert_eq!(from_cells(&moves, &["c2"]), list("c2c1a c2c1b c2c1c c2c1n c2c1r c2d1a c2d1b c2d1c c2d1n c2d1r"));
    // A promotion brings the type back: with its queen made, White is offered no second one.
    let mut pos = at("grand.var", "r1r3k3/1P8/4p5/7P2/10/10/10/5P4/2B1K2BN1/R8R w - - 0 1");
    common::play(&mut pos, "h7h8q");
    common::play(&mut pos, "e8e7");
    let moves = common::uci(&mut pos);
    assert_eq!(from_cells(&moves, &["b9"]), list("b9a10a b9a10c b9a10n b9b10a b9b10c b9b10n b9c10a b9c10c b9c10n"));
}

/// Plays `cycle` three times from `text` (the position's fourth occurrence) and returns the
/// outcome there, checking that the game went on until then.
fn after_three_cycles(file: &str, text: &str, cycle: &str) -> Option<(GameResult, EndReason)> {
    after_cycles(file, text, cycle, 3)
}

/// Plays `cycle` `n` times from `text` (the position's occurrence `n + 1`) and returns the
/// outcome there, checking that the game went on until then.
fn after_cycles(file: &str, text: &str, cycle: &str, n: usize) -> Option<(GameResult, EndReason)> {
    let mut pos = at(file, text);
    let moves: Vec<&str> = cycle.split_whitespace().collect();
    for (i, mv) in moves.iter().cycle().take(n * moves.len()).enumerate() {
        assert!(pos.outcome().is_none(), "over before move {i}");
        common::play(&mut pos, mv);
    }
    pos.outcome()
}

#[test]
fn xiangqi_repetition_draws_unless_one_side_checked_throughout() {
    // Fairy-Stockfish (`is_optional_game_end`) at the third occurrence: 0 where nobody
    // checked, -32000 for the side to move where it checked with every move (White, then
    // Black); nothing at the second.
    let quiet = "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1";
    let cycle = "e1e2 d10d9 e2e1 d9d10";
    assert_eq!(after_cycles("xiangqi.var", quiet, cycle, 1), None);
    assert_eq!(after_cycles("xiangqi.var", quiet, cycle, 2), Some((GameResult::Draw, EndReason::Repetition)));
    let white_checks = "3k5/R8/9/9/9/9/9/9/9/4K4 w - - 0 1";
    assert_eq!(
        after_cycles("xiangqi.var", white_checks, "a9a10 d10d9 a10a9 d9d10", 2),
        Some((GameResult::Win(BLACK), EndReason::PerpetualCheck))
    );
    let black_checks = "4k4/9/9/9/9/9/9/9/r8/3K5 b - - 0 1";
    assert_eq!(
        after_cycles("xiangqi.var", black_checks, "a2a1 d1d2 a1a2 d2d1", 2),
        Some((GameResult::Win(WHITE), EndReason::PerpetualCheck))
    );
    assert_eq!(
        after_cycles("minixiangqi.var", "4k2/7/7/7/7/7/3K3 w - - 0 1", "d1c1 e7e6 c1d1 e6e7", 2),
        Some((GameResult::Draw, EndReason::Repetition))
    );
}

#[test]
fn xiangqi_fifty_moves_without_a_capture_draw_and_a_soldier_step_does_not_reset_the_count() {
    // Fairy-Stockfish: claimable at a half-move clock of 100, not at 99; a soldier's step
    // counts on (h1g3 h10g8 a4a5 leaves the clock at 3).
    let fen = "3k5/9/9/9/9/9/P8/9/9/4K4 w - - 99 80";
    let mut pos = at("xiangqi.var", fen);
    assert!(pos.outcome().is_none());
    common::play(&mut pos, "a4a5");
    assert_eq!(pos.outcome().map(|(r, _)| r), Some(GameResult::Draw));
    let mut pos = at("xiangqi.var", "3k5/9/9/9/9/9/P8/9/9/4K4 w - - 98 80");
    common::play(&mut pos, "a4a5");
    assert!(pos.outcome().is_none());
}

#[test]
fn shogi_repetition_draws_unless_one_side_checked_throughout() {
    // Fairy-Stockfish (`is_optional_game_end`): 0 after the fourth occurrence of the start
    // position, -32000 for White (to move) after White checked with every move, -32000 for
    // Black (to move) after Black did.
    let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1";
    assert_eq!(
        after_three_cycles("shogi.var", start, "e1d2 e9d8 d2e1 d8e9"),
        Some((GameResult::Draw, EndReason::Repetition))
    );
    let white_checks = "4k4/R8/9/9/9/9/9/9/4K4[-] w - - 0 1";
    assert_eq!(
        after_three_cycles("shogi.var", white_checks, "a8a9 e9e8 a9a8 e8e9"),
        Some((GameResult::Win(BLACK), EndReason::PerpetualCheck))
    );
    let black_checks = "4k4/9/9/9/9/9/9/r8/4K4[-] b - - 0 1";
    assert_eq!(
        after_three_cycles("shogi.var", black_checks, "a2a1 e1e2 a1a2 e2e1"),
        Some((GameResult::Win(WHITE), EndReason::PerpetualCheck))
    );
    // Checking with only some moves is no perpetual check: a draw.
    assert_eq!(
        after_three_cycles("shogi.var", "4k4/9/9/9/9/9/9/9/R3K4[-] w - - 0 1", "a1a9 e9e8 a9a1 e8e9"),
        Some((GameResult::Draw, EndReason::Repetition))
    );
}

#[test]
fn minishogi_repetition_loses_for_sente_unless_gote_checked_throughout() {
    // Fairy-Stockfish: +32000 for Black (to move) at the fourth occurrence, so Sente (White)
    // loses; -32000 for Black after Black checked with every move.
    assert_eq!(
        after_three_cycles("minishogi.var", "rbsgk/4p/5/P4/KGSBR[-] b 0 1", "e5d4 a1b2 d4e5 b2a1"),
        Some((GameResult::Win(BLACK), EndReason::Repetition))
    );
    assert_eq!(
        after_three_cycles("minishogi.var", "k4/5/5/r4/4K[-] b 0 1", "a2a1 e1e2 a1a2 e2e1"),
        Some((GameResult::Win(WHITE), EndReason::PerpetualCheck))
    );
}

#[test]
fn atomic_a_capture_explodes_all_but_the_pawns_beside_it() {
    // Rxd4: the capturer, the rook on d4 and the knight and queen beside it go; the pawn on
    // e5 beside it stays, and the bishop on c6 two cells away.
    let mut pos = at("atomic.var", "7k/8/2b5/3np3/3rq3/8/8/K2R4 w - - 0 1");
    common::play(&mut pos, "d1d4");
    assert_eq!(pos.to_position_string(), "7k/8/2b5/4p3/8/8/8/K7 b - - 0 1");
    assert_eq!(
        common::uci(&mut pos),
        list("c6a4 c6a8 c6b5 c6b7 c6d5 c6d7 c6e4 c6e8 c6f3 c6g2 c6h1 e5e4 h8g7 h8g8 h8h7")
    );
    pos.unmake();
    assert_eq!(pos.to_position_string(), "7k/8/2b5/3np3/3rq3/8/8/K2R4 w - - 0 1");
}

#[test]
fn atomic_no_capture_beside_the_own_king_and_no_capture_by_a_king() {
    // Rxd2 would blow up the white king on e1, and Kxd2 the king itself.
    let mut pos = at("atomic.var", "7k/8/8/8/8/8/R2n4/4K3 w - - 0 1");
    assert_eq!(common::uci(&mut pos), list("a2a1 a2a3 a2a4 a2a5 a2a6 a2a7 a2a8 a2b2 a2c2 e1d1 e1e2 e1f2"));
}

#[test]
fn atomic_kings_side_by_side_are_not_in_check() {
    // The rook on e1 attacks e5, but taking the king there would blow up Black's own.
    let mut pos = at("atomic.var", "8/8/8/3kK3/8/8/8/4r3 w - - 0 1");
    assert!(!pos.in_check());
    assert_eq!(common::uci(&mut pos), list("e5d4 e5d6 e5e4 e5e6 e5f4 e5f5 e5f6"));
    // Castling may pass and end beside the enemy king: f1 is not attacked for that reason.
    let mut pos = at("atomic.var", "5r2/8/8/8/8/8/6k1/4K2R w K - 0 1");
    assert_eq!(
        common::uci(&mut pos),
        list("e1d1 e1d2 e1e2 e1f1 e1f2 e1g1 h1f1 h1g1 h1h2 h1h3 h1h4 h1h5 h1h6 h1h7 h1h8")
    );
}

#[test]
fn atomic_blowing_up_the_king_answers_check_and_wins() {
    // White is in check from h1, yet Qxb7 (beside the black king) is legal and ends the game.
    let mut pos = at("atomic.var", "k7/1p6/8/8/8/8/1Q6/K6r w - - 0 1");
    assert!(pos.in_check());
    assert_eq!(common::uci(&mut pos), list("a1a2 b2b1 b2b7 b2c1"));
    common::play(&mut pos, "b2b7");
    assert_eq!(pos.to_position_string(), "8/8/8/8/8/8/8/K6r b - - 0 1");
    assert!(matches!(pos.outcome(), Some((GameResult::Win(WHITE), EndReason::Goal(_)))));
    assert!(common::uci(&mut pos).is_empty());
}

#[test]
fn atomic_en_passant_explodes_on_the_target_and_blasts_end_castling() {
    // exd6 e.p.: the blast is around d6 (the knight on c7 goes), not d5 (the one on c4 stays).
    let mut pos = at("atomic.var", "4k3/2n5/8/3pP3/2n5/8/8/4K3 w - d6 0 1");
    assert_eq!(common::uci(&mut pos), list("e1d1 e1e2 e1f1 e1f2 e5d6 e5e6"));
    common::play(&mut pos, "e5d6");
    assert_eq!(pos.to_position_string(), "4k3/8/8/8/2n5/8/8/4K3 b - - 0 1");
    // Rxa8 blows up both queen-side rooks: both players lose that castling.
    let mut pos = at("atomic.var", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    common::play(&mut pos, "a1a8");
    assert_eq!(pos.to_position_string(), "4k2r/8/8/8/8/8/8/4K2R b Kk - 0 1");
    assert_eq!(
        common::uci(&mut pos),
        list("e8d7 e8d8 e8e7 e8f7 e8f8 e8g8 h8f8 h8g8 h8h1 h8h2 h8h3 h8h4 h8h5 h8h6 h8h7")
    );
}

#[test]
fn seirawan_a_first_move_from_the_back_rank_may_gate_a_piece_from_hand() {
    let mut pos = at("seirawan.var", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe] w KQBCDFGkqbcdfg - 0 1");
    let moves = common::uci(&mut pos);
    assert_eq!(from_cells(&moves, &["g1"]), list("g1f3 g1f3e g1f3h g1h3 g1h3e g1h3h"));
    common::play(&mut pos, "g1f3h");
    // The hawk stands on g1, has left the hand, and g1's right is gone.
    assert_eq!(pos.to_position_string(), "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKBHR[Eeh] b KQBCDFkqbcdfg - 1 1");
    pos.unmake();
    // Hands are written in type order, elephant first, as Fairy-Stockfish writes them too.
    assert_eq!(pos.to_position_string(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[EHeh] w KQBCDFGkqbcdfg - 0 1");
}

#[test]
fn seirawan_castling_gates_on_the_kings_or_the_rooks_cell() {
    let start = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[HEhe] w KQkq - 0 1";
    let mut pos = at("seirawan.var", start);
    let moves = common::uci(&mut pos);
    assert_eq!(
        from_cells(&moves, &["e1"]),
        list("e1c1 e1c1e e1c1h e1d1 e1d1e e1d1h e1f1 e1f1e e1f1h e1g1 e1g1e e1g1h")
    );
    assert_eq!(from_cells(&moves, &["h1"]), list("h1e1e h1e1h h1f1 h1f1e h1f1h h1g1 h1g1e h1g1h"));
    // On the king's cell; on the rook's; not at all: the gate on a1 stays (`A`, the castling
    // right that stood for it gone).
    for (mv, after) in [
        ("e1g1h", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3HRK1[Eeh] b Akq - 1 1"),
        ("h1e1e", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RKE[Heh] b Akq - 1 1"),
        ("e1g1", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1[EHeh] b Akq - 1 1"),
    ] {
        let mut pos = at("seirawan.var", start);
        common::play(&mut pos, mv);
        assert_eq!(pos.to_position_string(), after, "{mv}");
    }
}

#[test]
fn seirawan_a_gated_piece_may_not_be_what_blocks_a_check() {
    // The bishop on d1 is pinned: a hawk gated on d1 would shield the king, yet the bishop may
    // not move.
    let mut pos = at("seirawan.var", "4k3/8/8/8/8/8/8/r2BK3[H] w D - 0 1");
    assert_eq!(common::uci(&mut pos), list("e1d2 e1e2 e1f1 e1f2"));
}
