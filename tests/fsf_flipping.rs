//! Fairy-Stockfish's flipping games bundled with Varia (ataxx, flipello, flipello10, flipersi): positions that exercise each rule (clones, jumps, enclosing drops, the flips, passing, the ends by a full board, two passes, no stone left and no drop). Every expected move list, position string and result is Fairy-Stockfish's (pyffish 0.0.90: `legal_moves`, `get_fen`, `is_immediate_game_end`, `game_result`), written in its UCI form; tools/oracle-fsf.py compares whole random games.

mod common;

use varia_interpreter::ir::PlayerId;
use varia_interpreter::{EndReason, GameResult, Position};

const WHITE: PlayerId = PlayerId(0);
const BLACK: PlayerId = PlayerId(1);

fn at(file: &str, text: &str) -> Position {
    common::position(&common::rules(file), text)
}

fn list(moves: &str) -> Vec<String> {
    moves.split_whitespace().map(str::to_string).collect()
}

/// The board and side fields of a position string (Fairy-Stockfish writes the clocks its own
/// way, and no hand where the supply is endless: Varia writes an empty one, `[]`).
fn board(pos: &Position) -> String {
    pos.to_position_string().split_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

#[test]
fn ataxx_a_jump_and_a_clone_turn_the_enemy_stones_next_to_them() {
    // a1 jumps to c2: b2, b3 and c3 turn white, a1 is left; Black has no stone and loses.
    let mut pos = at("ataxx.var", "7/7/7/7/1pp4/1p5/P6 w 0 1");
    common::play(&mut pos, "a1c2");
    assert_eq!(board(&pos), "7/7/7/7/1PP4/1PP4/7[] b");
    assert!(common::uci(&mut pos).is_empty());
    assert_eq!(pos.outcome(), Some((GameResult::Win(WHITE), EndReason::Stalemate)));
    // A clone on a2 (next to a1) turns b2 and b3; c3 is not next to a2.
    let mut pos = at("ataxx.var", "7/7/7/7/1pp4/1p5/P6 w 0 1");
    common::play(&mut pos, "P@a2");
    assert_eq!(board(&pos), "7/7/7/7/1Pp4/PP5/P6[] b");
    assert_eq!(
        common::uci(&mut pos),
        list("P@b4 P@c2 P@c4 P@d2 P@d3 P@d4 c3a3 c3a4 c3a5 c3b1 c3b5 c3c1 c3c5 c3d1 c3d5 c3e1 c3e2 c3e3 c3e4 c3e5")
    );
}

#[test]
fn ataxx_a_player_without_a_move_passes_with_its_first_stone() {
    // White's a7 is hemmed in: its only move is a pass, written as its stone to its own cell.
    let mut pos = at("ataxx.var", "Pppp3/ppp4/ppp4/7/7/7/7 w 0 1");
    assert_eq!(common::uci(&mut pos), list("a7a7"));
    common::play(&mut pos, "a7a7");
    assert_eq!(board(&pos), "Pppp3/ppp4/ppp4/7/7/7/7[] b");
    assert_eq!(common::uci(&mut pos).len(), 57);
    // With a move, no pass.
    let mut pos = at("ataxx.var", "P1pp3/ppp4/ppp4/ppp4/7/7/7 w 0 1");
    assert_eq!(common::uci(&mut pos), list("P@b7"));
}

#[test]
fn ataxx_a_full_board_ends_the_game_and_more_stones_win() {
    let mut pos = at("ataxx.var", "PPPPPP1/PPPPPPP/PPPPPPP/ppppppp/ppppppp/ppppppp/ppppppp w 0 1");
    common::play(&mut pos, "P@g7");
    assert!(common::uci(&mut pos).is_empty());
    assert!(matches!(pos.outcome(), Some((GameResult::Win(BLACK), EndReason::Goal(_)))), "{:?}", pos.outcome());
    let mut pos = at("ataxx.var", "PPPPPP1/PPPPPPP/PPPPPPP/PPPPPPP/ppppppp/ppppppp/ppppppp w 0 1");
    common::play(&mut pos, "P@g7");
    assert!(matches!(pos.outcome(), Some((GameResult::Win(WHITE), EndReason::Goal(_)))), "{:?}", pos.outcome());
    // A player left without a stone cannot pass: it loses.
    let mut pos = at("ataxx.var", "7/7/7/7/7/1p5/P6 b 0 1");
    common::play(&mut pos, "P@a2");
    assert_eq!(board(&pos), "7/7/7/7/7/pp5/p6[] w");
    assert!(common::uci(&mut pos).is_empty());
    assert_eq!(pos.outcome(), Some((GameResult::Win(BLACK), EndReason::Stalemate)));
}

#[test]
fn flipello_a_drop_turns_every_line_it_closes() {
    // d5 closes d6 (against d7) and c5 (against b5); e5-h5 runs to the edge and d4 to an empty
    // cell: neither turns. (e4 is still empty, so Black's only drop goes there.)
    let mut pos = at("flipello.var", "8/3P4/3p4/1Pp1pppp/3p4/8/8/8[PPPPpppp] w 0 1");
    common::play(&mut pos, "P@d5");
    assert_eq!(board(&pos), "8/3P4/3P4/1PPPpppp/3p4/8/8/8[PPPpppp] b");
    assert_eq!(common::uci(&mut pos), list("P@e4"));
    // From the start: four drops, each closing one line.
    let mut pos = at("flipello.var", "8/8/8/3pP3/3Pp3/8/8/PPp5[PPPPpppp] w 0 1");
    assert_eq!(common::uci(&mut pos), list("P@c5 P@d1 P@d6 P@e3 P@f4"));
    // While a centre cell is empty, the drops go there, enclosing nothing.
    let mut pos = at("flipello.var", "8/8/8/8/8/8/8/PPp5[PPPPpppp] b 0 1");
    assert_eq!(common::uci(&mut pos), list("P@d4 P@d5 P@e4 P@e5"));
}

#[test]
fn flipello_two_passes_end_the_game_and_more_stones_win() {
    let mut pos = at("flipello.var", "8/8/8/3PP3/3PP3/8/8/pp6[PPPPpppp] w 0 1");
    assert_eq!(common::uci(&mut pos), list("d4d4"));
    common::play(&mut pos, "d4d4");
    assert_eq!(common::uci(&mut pos), list("a1a1"));
    common::play(&mut pos, "a1a1");
    assert!(common::uci(&mut pos).is_empty());
    assert!(matches!(pos.outcome(), Some((GameResult::Win(WHITE), EndReason::Goal(_)))), "{:?}", pos.outcome());
}

#[test]
fn flipersi_has_no_pass_and_the_first_stones_fill_the_centre() {
    // No drop and no pass: the game ends, White has more stones and wins.
    let mut pos = at("flipersi.var", "8/8/8/3PP3/3PP3/8/8/pp6[PPPPpppp] w 0 1");
    assert!(common::uci(&mut pos).is_empty());
    assert_eq!(pos.outcome(), Some((GameResult::Win(WHITE), EndReason::Stalemate)));
    let mut pos = at("flipersi.var", "8/8/8/3Pp3/3PP3/8/8/8[PPPPpppp] w 0 1");
    assert_eq!(common::uci(&mut pos), list("P@e6 P@f5 P@f6"));
    let mut pos =
        at("flipersi.var", "8/8/8/8/8/8/8/8[PPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPpppppppppppppppppppppppppppppppp] w 0 1");
    common::play(&mut pos, "P@d4 P@e4");
    assert_eq!(board(&pos), "8/8/8/8/3Pp3/8/8/8[PPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPppppppppppppppppppppppppppppppp] w");
    assert_eq!(common::uci(&mut pos), list("P@d5 P@e5"));
}

#[test]
fn flipello10_starts_from_its_four_centre_stones() {
    let rules = common::rules("flipello10.var");
    let mut pos = Position::start(rules);
    assert_eq!(common::uci(&mut pos), list("P@d6 P@e7 P@f4 P@g5"));
}

/// pyffish's random games from the start (tests/fsf_results, tools/fsf-results.py, seed 5):
/// the number of legal moves at every position and every result agree.
#[test]
fn whole_games_agree_with_pyffish() {
    for (file, games, positions) in
        [("ataxx.var", 6, 700), ("flipello.var", 12, 600), ("flipello10.var", 4, 350), ("flipersi.var", 12, 600)]
    {
        let fixture = file.replace(".var", ".txt");
        let (g, p) = common::replay_fsf_games(common::rules(file), &fixture);
        assert_eq!(g, games, "{file}");
        assert!(p > positions, "{file}: {p}");
    }
}
