//! Janggi and sittuyin as Fairy-Stockfish plays them: positions that exercise each game's special
//! rules. Every expected move list and result is Fairy-Stockfish's (pyffish 0.0.90:
//! `legal_moves`, `is_immediate_game_end`, `game_result` on the same position string), written in
//! its UCI form; tools/oracle-fsf.py compares whole random games. The other games are in
//! tests/fsf_variants.rs.

mod common;
#[path = "fsf_variants/helpers.rs"]
mod helpers;

use helpers::*;

#[test]
fn janggi_general_and_guards_keep_to_the_palace_lines() {
    // Orthogonal steps inside the palace, diagonal ones only along its diagonal lines (d1-e2-f3,
    // f1-e2-d3): the guard on d1 reaches neither c2 nor e2's other diagonals.
    let mut pos = at("janggi.var", "9/4k4/9/9/9/9/9/9/4A4/3K5 w - - 0 1");
    assert_eq!(common::uci(&mut pos), list("d1d1 d1d2 d1e1 e2d2 e2d3 e2e1 e2e3 e2f1 e2f2 e2f3"));
}

#[test]
fn janggi_elephant_and_horse_are_blocked_on_the_way() {
    // The soldier on e6 blocks the elephant's first point north: c8 and g8 are out of reach.
    let mut pos = at("janggi.var", "3k5/9/9/9/4p4/4B4/9/9/9/4K4 w - - 0 1");
    assert_eq!(common::uci(&mut pos), list("e1d1 e1e1 e1e2 e1f1 e5b3 e5b7 e5c2 e5g2 e5h3 e5h7"));
    let mut pos = at("janggi.var", "3k5/9/9/9/9/4N4/9/9/9/4K4 w - - 0 1");
    assert_eq!(common::uci(&mut pos), list("e1d1 e1e1 e1e2 e1f1 e5c4 e5c6 e5d3 e5d7 e5f3 e5f7 e5g4 e5g6"));
}

#[test]
fn janggi_chariot_runs_the_palace_diagonals() {
    let mut pos = at("janggi.var", "3k5/9/9/9/9/9/9/9/9/R2R4K w - - 0 1");
    let moves = common::uci(&mut pos);
    assert!(moves.contains(&"d1e2".to_string()) && moves.contains(&"d1f3".to_string()));
    assert!(!moves.iter().any(|m| m.starts_with("a1") && m.ends_with('2') && m != "a1a2"));
    assert_eq!(moves.len(), 29);
}

#[test]
fn janggi_cannon_jumps_a_screen_that_is_not_a_cannon() {
    // Over the soldier to e2..e4 and nowhere else: a cannon is neither a screen nor a victim.
    let mut pos = at("janggi.var", "3k5/9/9/9/4C4/4P4/9/9/9/4K4 w - - 0 1");
    assert_eq!(common::uci(&mut pos), list("e1d1 e1e1 e1e2 e1f1 e5d5 e5f5 e6e2 e6e3 e6e4"));
    let mut pos = at("janggi.var", "3k5/9/9/4c4/4C4/4p4/9/4c4/4C4/4K4 w - - 0 1");
    assert_eq!(common::uci(&mut pos), list("e1d1 e1e1 e1f1 e6e4"));
    // In the palace, from a corner over the centre to the other corner.
    let mut pos = at("janggi.var", "4k4/9/9/9/9/9/9/9/4P4/3C4K w - - 0 1");
    assert_eq!(common::uci(&mut pos), list("d1f3 e2d2 e2d3 e2e3 e2f2 e2f3 i1i1"));
}

#[test]
fn janggi_soldier_steps_forwards_sideways_and_along_palace_lines() {
    let mut pos = at("janggi.var", "4k4/4P4/9/9/9/9/9/9/9/3K5 w - - 0 1");
    assert_eq!(common::uci(&mut pos), list("d1d1 d1d2 d1e1 d1e2 e9d10 e9d9 e9e10 e9f10 e9f9"));
}

#[test]
fn janggi_passes_are_written_as_the_general_standing_still_and_not_out_of_check() {
    let mut pos = at("janggi.var", "4k4/9/9/9/9/9/9/9/4r4/3K5 w - - 0 1");
    assert_eq!(common::uci(&mut pos), list("d1e2"));
    let rules = common::rules("janggi.var");
    let mut pos = Position::start(rules);
    assert!(common::uci(&mut pos).contains(&"e2e2".to_string()));
    common::play(&mut pos, "e2e2");
    assert!(pos.outcome().is_none());
}

#[test]
fn janggi_two_passes_end_the_game_on_points() {
    // Equal armies: Han (Black) wins by its 1.5 points (Fairy-Stockfish: -32000 for White).
    let rules = common::rules("janggi.var");
    let mut pos = Position::start(rules);
    common::play(&mut pos, "e2e2");
    common::play(&mut pos, "e9e9");
    assert_eq!(pos.outcome(), Some((GameResult::Win(BLACK), EndReason::Goal(0))));
    assert_eq!((pos.points(WHITE), pos.points(BLACK)), (7200, 7350));
    // With a chariot more, Cho (White) wins instead.
    let mut pos = at("janggi.var", "4k4/9/9/9/9/9/9/9/9/R3K4 w - - 0 1");
    for mv in ["e1d1", "e10e10", "d1d1"] {
        assert!(pos.outcome().is_none());
        common::play(&mut pos, mv);
    }
    assert_eq!(pos.outcome(), Some((GameResult::Win(WHITE), EndReason::Goal(0))));
}

#[test]
fn janggi_facing_generals_must_be_parted_or_the_game_ends_on_points() {
    // Bikjang: the chariot may not move while the generals face each other; the general steps
    // off the file or passes.
    let mut pos = at("janggi.var", "4k4/9/9/9/9/9/9/9/9/R3K4 w - - 0 1");
    assert_eq!(common::uci(&mut pos), list("e1d1 e1e1 e1f1"));
    common::play(&mut pos, "e1e1");
    assert_eq!(pos.outcome(), Some((GameResult::Win(WHITE), EndReason::Goal(1))));
    // A move that brings the generals face to face is legal.
    let mut pos = at("janggi.var", "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1");
    assert!(common::uci(&mut pos).contains(&"d1e1".to_string()));
    common::play(&mut pos, "d1e1");
    assert_eq!(common::uci(&mut pos), list("e10d10 e10e10 e10f10"));
}

#[test]
fn janggi_a_pass_that_ends_the_game_is_legal_in_check() {
    // Facing generals and the rook's check on rank 2: passing ends the game on points.
    let mut pos = at("janggi.var", "4k4/3a1a3/9/9/9/9/9/2P6/r3K4/3A1A3 w - - 0 1");
    assert_eq!(common::uci(&mut pos), list("e2d3 e2e2 e2f3"));
}

#[test]
fn sittuyin_pieces_are_placed_first_on_the_own_half_rooks_on_the_back_rank() {
    // Every one of the 88 first moves is a drop; Black's are written in capitals too (`K@e8`).
    let rules = common::rules("sittuyin.var");
    let mut pos = Position::start(rules);
    let moves = common::uci(&mut pos);
    assert_eq!(moves.len(), 88);
    assert!(moves.iter().all(|m| m.contains('@')), "{moves:?}");
    common::play(&mut pos, "K@e1");
    let moves = common::uci(&mut pos);
    assert_eq!(moves.len(), 88);
    let rooks: Vec<&String> = moves.iter().filter(|m| m.starts_with("R@")).collect();
    assert_eq!(rooks, list("R@a8 R@b8 R@c8 R@d8 R@e8 R@f8 R@g8 R@h8").iter().collect::<Vec<_>>());
    assert!(moves.contains(&"K@d6".to_string()) && !moves.contains(&"K@e6".to_string()));
}

#[test]
fn sittuyin_pieces_move_once_no_drop_is_possible_and_drops_answer_check() {
    // A rook in hand but the back rank full: the pieces move.
    let mut pos = at("sittuyin.var", "k7/8/8/8/8/8/P7/NNSFKSNN[R] w - - 0 1");
    assert_eq!(
        common::uci(&mut pos),
        list(
            "a1b3 a1c2 a2a3 b1a3 b1c3 b1d2 c1b2 c1c2 c1d2 d1c2 d1e2 e1d2 e1e2 e1f2 f1e2 f1f2 f1g2 g1e2 g1f3 \
             g1h3 h1f2 h1g3"
        )
    );
    // In check with a piece in hand: only the drops that block.
    let mut pos = at("sittuyin.var", "k3r3/8/8/8/8/8/P7/4K3[N] w - - 0 1");
    assert_eq!(common::uci(&mut pos), list("N@e2 N@e3"));
    // A knight's check no drop can answer: the king moves.
    let mut pos = at("sittuyin.var", "k7/8/8/8/8/5n2/P7/4K3[R] w - - 0 1");
    assert_eq!(common::uci(&mut pos), list("e1d1 e1e2 e1f1 e1f2"));
}

#[test]
fn sittuyin_pawns_step_without_promoting_and_promote_on_the_diagonals_in_place_or_by_a_step() {
    // Two pawns: only the one on a promotion cell (d5) may become a general, standing still or
    // stepping diagonally to an empty cell; the pawn on h7 reaches h8 as a pawn.
    let mut pos = at("sittuyin.var", "4k3/1n6/8/2PP4/8/8/8/4K3 w - - 0 1");
    // Not c6: a general there would attack the knight on b7.
    assert_eq!(common::uci(&mut pos), list("c5c6 d5c4f d5d5f d5d6 d5e4f d5e6f e1d1 e1d2 e1e2 e1f1 e1f2"));
    let mut pos = at("sittuyin.var", "k7/7P/8/8/4P3/8/8/4K3 w - - 0 1");
    assert_eq!(common::uci(&mut pos), list("e1d1 e1d2 e1e2 e1f1 e1f2 e4e5 h7h8"));
    // A side's last pawn promotes wherever it stands.
    let mut pos = at("sittuyin.var", "k7/8/8/8/2P5/8/8/4K3 w - - 0 1");
    assert_eq!(common::uci(&mut pos), list("c4b3f c4b5f c4c4f c4c5 c4d3f c4d5f e1d1 e1d2 e1e2 e1f1 e1f2"));
    // Only while the side has no general.
    let mut pos = at("sittuyin.var", "4k3/8/8/2PP4/8/8/8/3FK3 w - - 0 1");
    assert_eq!(common::uci(&mut pos), list("c5c6 d1c2 d1e2 d5d6 e1d2 e1e2 e1f1 e1f2"));
    common::play(&mut pos, "d5d6");
    assert!(pos.to_position_string().starts_with("4k3/8/3P4/2P5/"), "{}", pos.to_position_string());
}

#[test]
fn sittuyin_a_promotion_may_not_give_check_even_by_uncovering_a_line() {
    // The pawn on d1 shields the white king from the rook on h1: it may become a general in
    // place, not by stepping aside.
    let mut pos = at("sittuyin.var", "8/8/8/2k5/8/8/8/K2p3r b - - 0 1");
    assert_eq!(
        common::uci(&mut pos),
        list("c5b4 c5b5 c5b6 c5c4 c5c6 c5d4 c5d5 c5d6 d1d1f h1e1 h1f1 h1g1 h1h2 h1h3 h1h4 h1h5 h1h6 h1h7 h1h8")
    );
    common::play(&mut pos, "d1d1f");
    assert!(pos.to_position_string().starts_with("8/8/8/2k5/8/8/8/K2f3r"), "{}", pos.to_position_string());
    // A promotion that gives check directly is out as well (e7 would attack d8).
    let mut pos = at("sittuyin.var", "3k4/8/5P2/8/P7/8/8/4K3 w - - 0 1");
    assert_eq!(common::uci(&mut pos), list("a4a5 e1d1 e1d2 e1e2 e1f1 e1f2 f6e5f f6f6f f6f7 f6g5f f6g7f"));
}

#[test]
fn sittuyin_stalemate_draws_and_a_drop_resets_the_move_clock() {
    let mut pos = at("sittuyin.var", "k7/1R6/1K6/8/8/8/8/8 b - - 0 1");
    assert_eq!(pos.outcome(), Some((GameResult::Draw, EndReason::Stalemate)));
    // Fairy-Stockfish: k7/8/8/8/8/8/P7/R3K3[] b - - 0 10 (a rook drop resets the clock).
    let mut pos = at("sittuyin.var", "k7/8/8/8/8/8/P7/4K3[R] w - - 7 10");
    common::play(&mut pos, "R@a1");
    assert_eq!(pos.to_position_string(), "k7/8/8/8/8/8/P7/R3K3[] b - - 0 10");
    let mut pos = at("crazyhouse.var", "k7/8/8/8/8/8/P7/4K3[N] w - - 7 10");
    common::play(&mut pos, "N@c3");
    assert_eq!(pos.to_position_string(), "k7/8/8/8/8/2N5/P7/4K3[] b - - 0 10");
}

#[test]
fn sittuyin_counting_against_a_bare_king_draws_after_sixteen_moves_with_a_rook() {
    // Fairy-Stockfish's game: the count (32 half-moves with a rook) begins once Black's king
    // is bare and to move, and is written in the en-passant and clock fields.
    let mut pos = at("sittuyin.var", "k7/8/8/8/8/7R/8/4K3 w - - 0 1");
    common::play(&mut pos, "h3h1");
    assert_eq!(pos.to_position_string(), "k7/8/8/8/8/8/8/4K2R[] b - 32 0 1");
    let rest = "a8a7 e1d1 a7b8 h1g1 b8c7 d1e2 c7d8 e2e3 d8e8 g1c1 e8f8 c1a1 f8e8 a1a4 e8f8 a4g4 f8e7 e3e2 \
                e7f8 g4g7 f8e8 g7b7 e8f8 e2d2 f8e8 b7b1 e8d7 b1g1 d7c6 g1g4 c6b5 g4f4";
    for mv in rest.split_whitespace() {
        assert!(pos.outcome().is_none(), "over before {mv}");
        common::play(&mut pos, mv);
    }
    assert_eq!(pos.to_position_string(), "8/8/8/1k6/5R2/8/3K4/8[] b - 32 32 17");
    common::play(&mut pos, "b5a5");
    assert_eq!(pos.outcome(), Some((GameResult::Draw, EndReason::Counting)));
    assert_eq!(common::uci(&mut pos), Vec::<String>::new());
    pos.unmake();
    assert!(pos.outcome().is_none());
    // Read from its position string, the count goes on from where it stood.
    let mut pos = at("sittuyin.var", "8/8/8/1k6/5R2/8/3K4/8[] b - 32 32 17");
    common::play(&mut pos, "b5a5");
    assert_eq!(pos.outcome(), Some((GameResult::Draw, EndReason::Counting)));
}

#[test]
fn sittuyin_counting_needs_the_pawns_gone_and_depends_on_the_strongest_piece() {
    // Fairy-Stockfish: an elephant counts 44 moves (88 half-moves), a knight 64, a general
    // alone nothing; no count while a pawn stands.
    for (text, mv, after) in [
        ("k7/8/8/8/8/8/3K4/SNF5 w - - 0 1", "d2d1", "k7/8/8/8/8/8/8/SNFK4[] b - 88 0 1"),
        ("k7/8/8/8/8/8/3K4/NF6 w - - 0 1", "d2d1", "k7/8/8/8/8/8/8/NF1K4[] b - 128 0 1"),
        ("k7/8/8/8/8/8/3K4/F7 w - - 0 1", "d2d1", "k7/8/8/8/8/8/8/F2K4[] b - - 1 1"),
        ("k7/8/8/8/8/8/3K4/RP6 w - - 0 1", "d2d1", "k7/8/8/8/8/8/8/RP1K4[] b - - 1 1"),
    ] {
        let mut pos = at("sittuyin.var", text);
        common::play(&mut pos, mv);
        assert_eq!(pos.to_position_string(), after, "{text}");
    }
}

#[test]
fn sittuyin_a_count_out_of_range_in_a_position_string_is_a_located_error() {
    let rules = common::rules("sittuyin.var");
    let e = Position::from_position_string(rules, "k7/8/8/8/8/8/8/4K2R[] b - 99999 0 1").expect_err("an error");
    assert_eq!(e.offset, 26, "{e:?}");
    assert!(e.message.contains("a count's limit in half-moves, 1 to 20000"), "{e:?}");
}

#[test]
fn bughouse_a_capture_passes_nothing_and_stalemate_loses() {
    // Fairy-Stockfish: 4k3/8/8/8/8/8/3K4/8[Nq] b - - 0 1 (the rook is not in White's hand).
    let mut pos = at("bughouse.var", "4k3/8/8/8/8/8/3r4/4K3[Nq] w - - 0 1");
    common::play(&mut pos, "Kxd2");
    assert_eq!(pos.to_position_string(), "4k3/8/8/8/8/8/3K4/8[Nq] b - - 0 1");
    let moves = common::uci(&mut pos);
    assert_eq!(moves.len(), 67, "{moves:?}");
    assert_eq!(common::from(&moves, "Q@").len(), 62);
    // The stalemated player loses (pyffish's game_result: -32000 for the side to move).
    let mut stalemate = at("bughouse.var", "k7/8/1Q6/8/8/8/8/4K3[] b - - 0 1");
    assert!(common::uci(&mut stalemate).is_empty());
    assert_eq!(stalemate.outcome(), Some((GameResult::Win(WHITE), EndReason::Stalemate)));
}

#[test]
fn dragon_is_dropped_on_its_players_first_rank_only() {
    let mut pos = at("dragon.var", "4k3/8/8/8/8/8/8/4K3[Dd] b - - 0 1");
    assert_eq!(common::uci(&mut pos), list("D@a8 D@b8 D@c8 D@d8 D@f8 D@g8 D@h8 e8d7 e8d8 e8e7 e8f7 e8f8"));
    // Stalemate draws, as in chess (pyffish's game_result: 0).
    let mut stalemate = at("dragon.var", "k7/8/1Q6/8/8/8/8/4K3[] b - - 0 1");
    assert!(common::uci(&mut stalemate).is_empty());
    assert_eq!(stalemate.outcome(), Some((GameResult::Draw, EndReason::Stalemate)));
}

#[test]
fn atomar_kings_are_immune_to_blasts_and_never_take_each_other() {
    // Fairy-Stockfish lists no e1d2: the king may not take the king beside it.
    let mut pos = at("atomar.var", "8/8/8/8/8/8/3k4/4K3 w - - 0 1");
    assert_eq!(common::uci(&mut pos), list("e1d1 e1e2 e1f1 e1f2"));
    // The king's capture blows up the bishop beside the target and the king stays
    // (Fairy-Stockfish: 4k3/8/8/8/8/8/3K4/8 b - - 0 1).
    let mut pos = at("atomar.var", "4k3/8/8/8/8/8/3nB3/4K3 w - - 0 1");
    common::play(&mut pos, "e1d2");
    assert_eq!(pos.to_position_string(), "4k3/8/8/8/8/8/3K4/8 b - - 0 1");
    // A king beside another piece's blast survives (Fairy-Stockfish: 4k3/8/8/8/8/8/8/4K3 b - - 0 1).
    let mut pos = at("atomar.var", "4k3/8/8/8/8/8/3nB3/4KN2 w - - 0 1");
    common::play(&mut pos, "f1d2");
    assert_eq!(pos.to_position_string(), "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    // A king taken loses (pyffish's game_result: -32000 for White, to move).
    let mut pos = at("atomar.var", "4k3/8/8/8/8/8/3q4/4K3 b - - 0 1");
    common::play(&mut pos, "d2e1");
    assert!(common::uci(&mut pos).is_empty());
    assert!(matches!(pos.outcome(), Some((GameResult::Win(BLACK), _))), "{:?}", pos.outcome());
}

#[test]
fn torishogi_two_swallows_a_file_and_quails_turned_round() {
    // Fairy-Stockfish drops the swallow anywhere but the far rank and the d-file, which holds
    // two white swallows already.
    let mut pos = at("torishogi.var", "k6/7/3S3/7/7/3S3/6K[S] w 0 1");
    let drops: Vec<String> = common::uci(&mut pos).into_iter().filter(|m| m.contains('@')).collect();
    let mut expected = Vec::new();
    for file in ["a", "b", "c", "e", "f", "g"] {
        for rank in 1..=6 {
            if !(file == "g" && rank == 1) {
                expected.push(format!("S@{file}{rank}"));
            }
        }
    }
    assert_eq!(drops, expected);
    // Black's left quail on d4 slides forwards (south) and back to its right (north-west on the
    // board) and steps back to its left (north-east): Fairy-Stockfish's d4 moves.
    let mut pos = at("torishogi.var", "6k/7/7/3l3/7/7/K6[-] b 0 1");
    let quail: Vec<String> = common::uci(&mut pos).into_iter().filter(|m| m.starts_with("d4")).collect();
    assert_eq!(quail, list("d4a7 d4b6 d4c5 d4d1 d4d2 d4d3 d4e5"));
}
