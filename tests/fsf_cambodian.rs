//! Cambodian chess and Kar Ouk (Fairy-Stockfish's `cambodian` and `karouk`): the king's and the
//! met's first leaps held as rights in the position string, the king's lost to a rook on its
//! lines, the Cambodian counts and the first check's win, against pyffish.

mod common;

use common::{has, play, position, rules, uci};

/// The rights and moves of the start: the king leaps to b2 and f2, the met's leap is blocked by
/// the pawn on e3 (pyffish: 25 moves, `d1b2` and `d1f2` among them).
#[test]
fn the_king_leaps_once_to_the_rank_in_front_and_the_met_two_cells_forwards() {
    let r = rules("cambodian.var");
    let mut pos = position(&r, "start");
    assert_eq!(pos.to_position_string(), "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1");
    let moves = uci(&mut pos);
    assert_eq!(moves.len(), 25);
    assert!(has(&moves, "d1b2") && has(&moves, "d1f2") && !has(&moves, "e1e3"));
    // With e3 empty the met leaps over e2 (pyffish: `e1e3` legal after `e3e4 d6d5`).
    play(&mut pos, "e3e4 d6d5");
    let moves = uci(&mut pos);
    assert!(has(&moves, "e1e3"), "{moves:?}");
    play(&mut pos, "e1e3");
    assert_eq!(pos.to_position_string(), "rnsmksnr/8/ppp1pppp/3p4/4P3/PPPPMPPP/8/RNSK1SNR b Dde - 1 2");
}

/// A right is lost once its piece moves, even back to its cell; the leap is then gone.
#[test]
fn a_right_is_lost_once_its_piece_moves() {
    let r = rules("cambodian.var");
    let mut pos = position(&r, "4k3/8/8/8/8/8/8/3K4 w De - 0 1");
    assert!(has(&uci(&mut pos), "d1b2"));
    play(&mut pos, "d1d2 e8e7 d2d1 e7e8");
    assert_eq!(pos.to_position_string(), "4k3/8/8/8/8/8/8/3K4 w - - 4 3");
    assert!(!has(&uci(&mut pos), "d1b2"));
}

/// The king may not leap out of check, nor onto an occupied cell (pyffish: the rook on d8
/// leaves `d1c1 d1c2 d1e1 d1e2`; the knight on f2 `d1b2` but not `d1f2`).
#[test]
fn the_king_does_not_leap_in_check_nor_onto_a_piece() {
    let r = rules("cambodian.var");
    let mut pos = position(&r, "3rk3/8/8/8/8/8/8/3K4 w D - 0 1");
    assert_eq!(uci(&mut pos), ["d1c1", "d1c2", "d1e1", "d1e2"]);
    let mut pos = position(&r, "4k3/8/8/8/8/8/5N2/3K4 w D - 0 1");
    let moves = uci(&mut pos);
    assert!(has(&moves, "d1b2") && !has(&moves, "d1f2"), "{moves:?}");
}

/// An enemy rook that ends a move on the king's rank or file takes the king's right, whatever
/// stands between (pyffish: after `a1e1` only Black's met keeps its right `d`, the pawn on e6
/// between); the met's right stays. Black, three pieces against two, counts the board's honour.
#[test]
fn a_rook_on_the_kings_lines_takes_its_right_even_blocked() {
    let r = rules("cambodian.var");
    let mut pos = position(&r, "3mk3/8/4p3/8/8/8/8/R6K w de - 0 1");
    play(&mut pos, "a1e1");
    assert_eq!(pos.to_position_string(), "3mk3/8/4p3/8/8/8/8/4R2K b d 126 0 1");
    let mut pos = position(&r, "3mk3/8/4p3/8/8/8/8/R6K w de - 0 1");
    play(&mut pos, "a1a8");
    assert_eq!(pos.to_position_string(), "R2mk3/8/4p3/8/8/8/8/7K b d 126 0 1");
    // A rook elsewhere leaves it.
    let mut pos = position(&r, "3mk3/8/4p3/8/8/8/8/R6K w de - 0 1");
    play(&mut pos, "a1b1");
    assert_eq!(pos.to_position_string(), "3mk3/8/4p3/8/8/8/8/1R5K b de 126 0 1");
}

/// Rights read from a position string are written back, survive a move made and unmade, and a
/// letter whose piece is not on its cell is refused with its place.
#[test]
fn the_rights_survive_the_position_string_and_unmaking() {
    let r = rules("cambodian.var");
    let text = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w Dd - 0 1";
    let mut pos = position(&r, text);
    assert_eq!(pos.to_position_string(), text);
    let before = pos.to_position_string();
    for m in uci(&mut pos) {
        let mv = pos.parse_move(&m).unwrap();
        pos.make(mv);
        pos.unmake();
        assert_eq!(pos.to_position_string(), before, "{m}");
    }
}

/// Board's honour begins with pawns on the board for a player with two or three pieces: 63
/// moves from 0 (pyffish: `4k3/4p3/8/8/8/8/R7/4K3 b Ee 126 0 1` after `a1a2`).
#[test]
fn the_boards_honour_counts_with_pawns_left() {
    let r = rules("cambodian.var");
    let mut pos = position(&r, "4k3/4p3/8/8/8/8/8/R3K3 w Ee - 0 1");
    play(&mut pos, "a1a2");
    assert_eq!(pos.to_position_string(), "4k3/4p3/8/8/8/8/R7/4K3 b Ee 126 0 1");
}

/// pyffish's random games of cambodian from the start, from positions with the rights, and
/// from endings of both honours: every move count and every result agree.
#[test]
fn cambodian_agrees_with_pyffish() {
    let (games, positions) = common::replay_fsf_games(rules("cambodian.var"), "cambodian.txt");
    assert_eq!(games, 40);
    assert!(positions > 3000, "{positions}");
}

/// Kar Ouk: the first check wins (pyffish: `a1a8` ends the game, White's win); the checks
/// still needed are read as Fairy-Stockfish writes them (`1+0`: Black has given its check) and
/// written as checks given.
#[test]
fn karouk_the_first_check_wins() {
    let r = rules("karouk.var");
    let mut pos = position(&r, "start");
    play(&mut pos, "e3e4");
    assert_eq!(pos.to_position_string(), "rnsmksnr/8/pppppppp/8/4P3/PPPP1PPP/8/RNSKMSNR b DEde - 0 1 checks=0,0");
    let pos = position(&r, "4k3/8/8/8/8/8/8/R3K3 w - - 1+0 0 1");
    assert!(pos.to_position_string().ends_with(" checks=0,1"), "{}", pos.to_position_string());
    let mut pos = position(&r, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    play(&mut pos, "a1a8");
    assert!(uci(&mut pos).is_empty());
    assert_eq!(pos.outcome().map(|(res, _)| common::result_name(res)), Some("white"));
}

/// pyffish's random games of karouk: every move count and every result (first checks among
/// them) agree.
#[test]
fn karouk_agrees_with_pyffish() {
    let (games, positions) = common::replay_fsf_games(rules("karouk.var"), "karouk.txt");
    assert_eq!(games, 30);
    assert!(positions > 300, "{positions}");
}
