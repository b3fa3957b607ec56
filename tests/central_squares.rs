//! The Central Squares: a scenario for each rule sentence of the rule text and each ruling, its legal moves snapshotted.
//!
//! Position strings list boards A|B|C, each from rank 6 down to rank 1; on boards A and C ranks 3
//! and 4 have four cells (a b e f), because c3 c4 d3 d4 are written in board B's rows.

mod common;

use common::{from, has, legal, play, targets};

use std::sync::Arc;

use varia_interpreter::ir::PlayerId;
use varia_interpreter::{EndReason, GameResult, Position, Rules};

const WHITE: PlayerId = PlayerId(0);
const BLACK: PlayerId = PlayerId(1);

/// The Central Squares rules.
fn rules() -> Arc<Rules> {
    common::rules("central-squares.var")
}

/// A position of The Central Squares from a position string (or `start`).
fn at(text: &str) -> Position {
    common::position(&rules(), text)
}

/// Snapshots the position string and the sorted legal moves under `name`, and returns the moves.
fn snap(name: &str, pos: &mut Position) -> Vec<String> {
    let moves = legal(pos);
    insta::assert_snapshot!(name, format!("{}\n--\n{}", pos.to_position_string(), moves.join("\n")));
    moves
}

// ---------------------------------------------------------------------------------------------
// The boards and the shared centre.
// ---------------------------------------------------------------------------------------------

/// "The initial setup is presented in the next figure" (the figure as on the author's page):
/// White on board A, rank 1 R B N K B R and six pawns on rank 2; Black on board C, rank 6
/// R B N K N R and six pawns on rank 5; board B empty. The armies are not mirror images.
#[test]
fn setup_from_the_authors_page() {
    let mut pos = at("start");
    assert_eq!(pos.to_position_string(), "6/6/4/4/PPPPPP/RBNKBR|6/6/6/6/6/6|rbnknr/pppppp/4/4/6/6 w - - 0 1");
    let moves = snap("setup_from_the_authors_page", &mut pos);
    assert_eq!(moves.len(), 38);
    // Every pawn steps forward or up, never two squares.
    for f in "abcdef".chars() {
        assert!(!has(&moves, &format!("A{f}2-A{f}4")), "no double step");
    }
    assert!(has(&moves, "Ac2-c3") && has(&moves, "Ac2-Bc2"));
    // The bishops already reach board C's pawns through the centre.
    assert!(has(&moves, "BAb1xCf5") && has(&moves, "BAe1xCa5"));
    assert!(has(&moves, "NAc1-d3") && has(&moves, "NAc1-Cb3"));
}

/// "We can denote the central squares without the board prefix (Cc3 becomes just c3)": 100
/// cells, the four centre squares named c3 c4 d3 d4 only; a piece on c3 is written in board
/// B's rows; moves name it without a board letter.
#[test]
fn centre_squares_are_named_without_a_board_letter() {
    let rules = rules();
    assert_eq!(rules.cell_count(), 3 * 36 - 2 * 4);
    for name in ["c3", "c4", "d3", "d4", "Ab3", "Bc2", "Ce4"] {
        assert!(rules.cell_by_name(name).is_some(), "{name}");
    }
    for name in ["Ac3", "Bc3", "Cc3", "Ad4", "Bd4", "Cd4", "Bc4", "Cd3"] {
        assert!(rules.cell_by_name(name).is_none(), "{name}");
    }
    let mut pos = at("6/6/4/4/2P3/5K|6/6/6/6/6/6|k4p/6/4/4/6/6 w");
    play(&mut pos, "Ac2-c3");
    assert_eq!(pos.to_position_string(), "6/6/4/4/6/5K|6/6/6/2P3/6/6|k4p/6/4/4/6/6 b - - 0 1");
    let mut pos = at("6/6/4/4/2P3/5K|6/6/6/6/6/6|k4p/6/4/4/6/6 w");
    assert!(pos.parse_move("Ac2-Bc3").is_err(), "Bc3 is not a name");
}

/// Short moves in the start position: a written cell name wins, so `Bc2` is the pawn's move to
/// the cell Bc2 and the bishop's move there is `BBc2`; `Bd3` can only be the bishop (d3 has no
/// board letter), `d3` is the pawn and `Nd3` the knight.
#[test]
fn short_notation_bishop_letter_and_board_b() {
    let mut pos = at("start");
    for (short, long) in [
        ("Bc2", "Ac2-Bc2"),
        ("BBc2", "BAb1-Bc2"),
        ("Bd3", "BAb1-d3"),
        ("d3", "Ad2-d3"),
        ("Nd3", "NAc1-d3"),
        ("Ab1-Bc2", "BAb1-Bc2"),
        ("Ab1Bc2", "BAb1-Bc2"),
        ("BxCf5", "BAb1xCf5"),
    ] {
        let mv = pos.parse_move(short).unwrap_or_else(|e| panic!("{short}: {e}"));
        assert_eq!(pos.long_notation(mv), long, "{short}");
    }
}

/// "If a piece stands in one of these squares, it lies on all boards": a rook on c3 leaves it
/// along every board (south to Ac1, Bc1 and Cc1, east to Af3, Bf3 and Cf3). Up and down lead
/// nowhere from a centre square, since it is the same square on every board.
#[test]
fn a_piece_on_the_centre_lies_on_all_boards() {
    let mut pos = at("6/6/4/4/6/5K|6/6/6/2R3/6/6|p4k/6/4/4/6/6 w");
    let moves = snap("a_piece_on_the_centre_lies_on_all_boards", &mut pos);
    let rook = from(&moves, "Rc3");
    assert_eq!(rook.len(), 26, "{rook:?}");
    for m in
        ["Rc3-Ac1", "Rc3-Bc1", "Rc3-Cc1", "Rc3-Af3", "Rc3-Bf3", "Rc3-Cf3", "Rc3-Ac6", "Rc3-Cc6", "Rc3-c4", "Rc3-d3"]
    {
        assert!(has(&moves, m), "{m}");
    }
    assert!(!rook.iter().any(|m| m.ends_with("c3")), "no move from c3 to itself");
}

/// A piece on a centre square blocks the line on every board: the rook on Ac1 captures the
/// pawn on c4 and goes no further on any board.
#[test]
fn a_piece_on_the_centre_blocks_every_board() {
    let mut pos = at("6/6/4/4/6/2R2K|6/6/2p3/6/6/6|5k/6/4/4/6/6 w");
    let moves = snap("a_piece_on_the_centre_blocks_every_board", &mut pos);
    assert!(has(&moves, "RAc1xc4") && has(&moves, "RAc1-c3"));
    for m in ["RAc1-Ac5", "RAc1-Bc5", "RAc1-Cc5", "RAc1-Ac6", "RAc1-Bc6", "RAc1-Cc6"] {
        assert!(!has(&moves, m), "{m}");
    }
}

/// Checks cross the boards through the centre: the rook on Ac1 checks the king on Cc6. The king
/// may not step down to Bc6 (on the rook's line through the centre on board B) nor to Cc5.
#[test]
fn checks_cross_the_boards() {
    let mut pos = at("6/6/4/4/6/2R2K|6/6/6/6/6/6|2k2p/6/4/4/6/6 b");
    assert!(pos.in_check());
    let moves = snap("checks_cross_the_boards", &mut pos);
    assert_eq!(moves, ["KCc6-Cb5", "KCc6-Cb6", "KCc6-Cd5", "KCc6-Cd6"]);
}

/// Pins cross the boards too: the bishop on Ac2 stands between its king on Ac1 and the rook on
/// Cc6 and may not move; the king may not go up to Bc1, which the rook sees through the centre.
#[test]
fn pins_cross_the_boards() {
    let mut pos = at("6/6/4/4/2B3/2K3|6/6/6/6/6/6|2r2k/6/4/4/6/6 w");
    assert!(!pos.in_check());
    let moves = snap("pins_cross_the_boards", &mut pos);
    assert_eq!(moves, ["KAc1-Ab1", "KAc1-Ab2", "KAc1-Ad1", "KAc1-Ad2"]);
}

// ---------------------------------------------------------------------------------------------
// Rook.
// ---------------------------------------------------------------------------------------------

/// "The rook in Aa1 can also move to Ba1 and Ca1."
#[test]
fn rook_moves_up_and_down() {
    let mut pos = at("6/6/4/4/6/R4K|6/6/6/6/6/6|p4k/6/4/4/6/6 w");
    let moves = snap("rook_moves_up_and_down", &mut pos);
    assert!(has(&moves, "RAa1-Ba1") && has(&moves, "RAa1-Ca1"));
    assert_eq!(from(&moves, "RAa1").len(), 11);
}

/// "A rook movement can go from Ac1 to Bc6 (or Cc6)": north of c4 the ray branches onto Ac5,
/// Bc5 and Cc5.
#[test]
fn rook_goes_from_ac1_to_bc6_or_cc6() {
    let mut pos = at("6/6/4/4/6/2R2K|6/6/6/6/6/6|p4k/6/4/4/6/6 w");
    let moves = snap("rook_goes_from_ac1_to_bc6_or_cc6", &mut pos);
    for m in ["RAc1-c3", "RAc1-c4", "RAc1-Ac5", "RAc1-Bc5", "RAc1-Cc5", "RAc1-Ac6", "RAc1-Bc6", "RAc1-Cc6"] {
        assert!(has(&moves, m), "{m}");
    }
    assert_eq!(from(&moves, "RAc1").len(), 15);
}

/// Each branch of a ray is blocked on its own: a knight on Bc5 stops the B branch (the rook
/// takes it) but not the branches on boards A and C.
#[test]
fn rook_branches_are_blocked_one_by_one() {
    let mut pos = at("6/6/4/4/6/2R2K|6/2n3/6/6/6/6|5k/6/4/4/6/6 w");
    let moves = snap("rook_branches_are_blocked_one_by_one", &mut pos);
    assert!(has(&moves, "RAc1xBc5") && has(&moves, "RAc1-Ac6") && has(&moves, "RAc1-Cc6"));
    assert!(!has(&moves, "RAc1-Bc6"));
}

// ---------------------------------------------------------------------------------------------
// Bishop.
// ---------------------------------------------------------------------------------------------

/// "The bishop in Ab1 can move to Ba2, Bc2 and d3": up-nw, up-ne, and d3 both along board A's
/// diagonal and up-ne through Bc2. From d3 the ray goes on along board A's diagonal (Ae4, Af5)
/// and, as the text goes on to say, to Be4, Ce4 and Cf5.
#[test]
fn bishop_from_ab1_as_in_the_text() {
    let mut pos = at("6/6/4/4/6/1B3K|6/6/6/6/6/6|p4k/6/4/4/6/6 w");
    let moves = snap("bishop_from_ab1_as_in_the_text", &mut pos);
    for m in ["BAb1-Ba2", "BAb1-Bc2", "BAb1-d3", "BAb1-Be4", "BAb1-Ce4", "BAb1-Cf5"] {
        assert!(has(&moves, m), "{m}");
    }
    assert_eq!(from(&moves, "BAb1").len(), 11);
}

/// "From d3, the bishop can go to Be4, Ce4 and Cf5 (from Be4)": a bishop standing on d3 goes
/// along the diagonals of every board and along the eight triagonals from every board.
#[test]
fn bishop_from_d3_as_in_the_text() {
    let mut pos = at("6/6/4/4/6/5K|6/6/6/3B2/6/6|1p3k/6/4/4/6/6 w");
    let moves = snap("bishop_from_d3_as_in_the_text", &mut pos);
    for m in ["Bd3-Be4", "Bd3-Ce4", "Bd3-Cf5", "Bd3-Ae4", "Bd3-Af5", "Bd3-Bf5", "Bd3-c4", "Bd3-Ca6"] {
        assert!(has(&moves, m), "{m}");
    }
    assert_eq!(from(&moves, "Bd3").len(), 24);
}

/// Ruling: the bishop's 3D lines are the triagonals (a file, a rank and a board per step), not
/// the diagonals of a file and the boards (Bb2 to Ab3, Cb3) nor of a rank and the boards (Bb2
/// to Aa2, Cc2), and it has no up or down step.
#[test]
fn bishop_has_no_file_board_or_rank_board_diagonals() {
    let mut pos = at("6/6/4/4/6/5K|6/6/6/6/1B4/6|k4p/6/4/4/6/6 w");
    let moves = snap("bishop_has_no_file_board_or_rank_board_diagonals", &mut pos);
    for m in ["BBb2-Aa1", "BBb2-Ac1", "BBb2-Aa3", "BBb2-Ca1", "BBb2-Cc1", "BBb2-Ca3", "BBb2-c3"] {
        assert!(has(&moves, m), "{m}");
    }
    for c in ["Ab1", "Ab3", "Cb1", "Cb3", "Aa2", "Ac2", "Ca2", "Cc2", "Ab2", "Cb2"] {
        assert!(!has(&moves, &format!("BBb2-{c}")), "{c}");
    }
}

/// A diagonal that enters the centre leaves it on every board: from Aa1 through Ab2, c3 and d4
/// to e5 and f6 of boards A, B and C.
#[test]
fn bishop_through_the_centre_reaches_every_board() {
    let mut pos = at("6/6/4/4/6/B4K|6/6/6/6/6/6|kp4/6/4/4/6/6 w");
    let moves = snap("bishop_through_the_centre_reaches_every_board", &mut pos);
    for m in ["BAa1-Ae5", "BAa1-Be5", "BAa1-Ce5", "BAa1-Af6", "BAa1-Bf6", "BAa1-Cf6"] {
        assert!(has(&moves, m), "{m}");
    }
    assert_eq!(from(&moves, "BAa1").len(), 10);
}

// ---------------------------------------------------------------------------------------------
// Knight.
// ---------------------------------------------------------------------------------------------

/// "Jump 2 squares (north/south, east/west or up/down) and then turn 90 degrees (there are 2
/// ways to turn 90 degrees in 3D) and move one square": from Bb2, two north then east (to c4)
/// or down/up (Ab4, Cb4), two east then north (to d3), south (Bd1) or down/up (Ad2, Cd2), and
/// two north then west (Ba4). It jumps over the pawns around it.
#[test]
fn knight_jumps_in_three_dimensions() {
    let mut pos = at("6/6/4/4/1P4/5K|6/6/6/1P4/1NP3/6|k5/6/1p2/4/1P4/6 w");
    let moves = snap("knight_jumps_in_three_dimensions", &mut pos);
    assert_eq!(
        from(&moves, "NBb2"),
        ["NBb2-Ab4", "NBb2-Ad2", "NBb2-Ba4", "NBb2-Bd1", "NBb2-Cd2", "NBb2-c4", "NBb2-d3", "NBb2xCb4"]
    );
}

/// Ruling: a knight's path that crosses the centre may continue on any board, as the rook's
/// does: from Ac2, two north over c3 and c4 (both occupied: the knight jumps) then west lands
/// on b4 of every board. Two up then north lands on c3 (from Cc2) and takes the pawn there.
#[test]
fn knight_path_through_the_centre_continues_on_any_board() {
    let mut pos = at("6/6/4/4/2N3/5K|6/6/2p3/2p3/6/6|k5/6/4/4/6/6 w");
    let moves = snap("knight_path_through_the_centre_continues_on_any_board", &mut pos);
    for m in ["NAc2-Ab4", "NAc2-Bb4", "NAc2-Cb4", "NAc2-d4", "NAc2xc3"] {
        assert!(has(&moves, m), "{m}");
    }
    assert_eq!(from(&moves, "NAc2").len(), 14);
}

/// Ruling: up or down from a centre square leads nowhere, also as a knight's last step. From
/// Ac1, two north end on c3 and a step up from there stays on c3, so the knight does not land
/// on c3 (it reaches d3 by turning east, and Ab3, Bb3, Cb3 by turning west). From Ab3, two east
/// end on d3 and the turn up goes nowhere: no Ab3-d3, though Ab3 reaches c3 two up and east.
#[test]
fn knight_does_not_turn_up_or_down_on_a_centre_square() {
    let mut pos = at("6/6/4/4/6/2N2K|6/6/6/6/6/6|k4p/6/4/4/6/6 w");
    let moves = snap("knight_does_not_turn_up_or_down_on_a_centre_square_ac1", &mut pos);
    assert!(!has(&moves, "NAc1-c3"));
    for m in ["NAc1-d3", "NAc1-Ab3", "NAc1-Bb3", "NAc1-Cb3"] {
        assert!(has(&moves, m), "{m}");
    }
    let mut pos = at("6/6/4/1N2/6/5K|6/6/6/6/6/6|k4p/6/4/4/6/6 w");
    let moves = snap("knight_does_not_turn_up_or_down_on_a_centre_square_ab3", &mut pos);
    assert!(!has(&moves, "NAb3-d3"));
    assert!(has(&moves, "NAb3-c3") && has(&moves, "NAb3-d4"));
}

/// A knight on a centre square starts from every board: from c3 it reaches 36 cells, the
/// chess knight's eight on each board and, two along a file or a rank then up or down, c5 and
/// e3 on every board (Bc3 two north then up is Cc5, Ac3 two north then up is Bc5, ...).
#[test]
fn knight_on_a_centre_square() {
    let mut pos = at("6/6/4/4/6/5K|6/6/6/2N3/6/6|k4p/6/4/4/6/6 w");
    let moves = snap("knight_on_a_centre_square", &mut pos);
    assert_eq!(from(&moves, "Nc3").len(), 36);
    for b in ["A", "B", "C"] {
        for c in ["a2", "a4", "b1", "b5", "d1", "d5", "e2", "e4", "c1", "c5", "a3", "e3"] {
            assert!(has(&moves, &format!("Nc3-{b}{c}")), "{b}{c}");
        }
    }
}

/// Ruling, a consequence of the longer leg first: knight moves are not always reversible. From
/// Ac1 the knight goes two north, reaching c3, and turns west onto Bb3; from Bb3 going back
/// would be a short leg first, so Bb3 does not reach Ac1 (it reaches Ab1, Bc1 and Cb1 instead).
#[test]
fn knight_moves_are_not_always_reversible() {
    let mut pos = at("6/6/4/4/6/2N2K|6/6/6/6/6/6|k4p/6/4/4/6/6 w");
    assert!(has(&legal(&mut pos), "NAc1-Bb3"));
    let mut pos = at("6/6/4/4/6/5K|6/6/6/1N4/6/6|k4p/6/4/4/6/6 w");
    let moves = snap("knight_moves_are_not_always_reversible", &mut pos);
    assert!(!has(&moves, "NBb3-Ac1"));
    assert!(has(&moves, "NBb3-Ab1") && has(&moves, "NBb3-Bc1") && has(&moves, "NBb3-Cb1"));
}

// ---------------------------------------------------------------------------------------------
// Queen and king.
// ---------------------------------------------------------------------------------------------

/// "Queen: Bishop + Rook": from Bb2 the queen reaches exactly the rook's cells and the bishop's.
#[test]
fn queen_is_rook_plus_bishop() {
    let board = |p: &str| format!("6/6/4/4/6/5K|6/6/6/6/1{p}4/6|kp4/6/4/4/6/6 w");
    let mut pos = at(&board("Q"));
    let moves = snap("queen_is_rook_plus_bishop", &mut pos);
    let queen = targets(&moves, "QBb2");
    let rook = targets(&legal(&mut at(&board("R"))), "RBb2");
    let bishop = targets(&legal(&mut at(&board("B"))), "BBb2");
    assert_eq!(rook.len(), 12);
    assert_eq!(bishop.len(), 17);
    assert!(rook.is_disjoint(&bishop));
    assert_eq!(queen, rook.union(&bishop).cloned().collect());
}

/// "King: can also move up/down": the eight steps on its board plus Ab2 and Cb2, and no step
/// along a triagonal or any other diagonal through the boards.
#[test]
fn king_steps_up_and_down_but_not_diagonally_through_the_boards() {
    let mut pos = at("6/6/4/4/5P/6|6/6/6/6/1K4/6|p4k/6/4/4/6/6 w");
    let moves = snap("king_steps_up_and_down_but_not_diagonally_through_the_boards", &mut pos);
    assert_eq!(from(&moves, "KBb2").len(), 10);
    assert!(has(&moves, "KBb2-Ab2") && has(&moves, "KBb2-Cb2") && has(&moves, "KBb2-c3"));
    for c in ["Aa1", "Ca3", "Ab3", "Cc2", "Ac3"] {
        assert!(!has(&moves, &format!("KBb2-{c}")), "{c}");
    }
}

/// A king on a centre square steps to its neighbours on every board (18 cells) and has no up
/// or down step.
#[test]
fn king_on_a_centre_square() {
    let mut pos = at("6/6/4/4/5P/6|6/6/6/2K3/6/6|p4k/6/4/4/6/6 w");
    let moves = snap("king_on_a_centre_square", &mut pos);
    assert_eq!(from(&moves, "Kc3").len(), 18);
    assert!(has(&moves, "Kc3-c4") && has(&moves, "Kc3-d3") && has(&moves, "Kc3-d4"));
    assert!(has(&moves, "Kc3-Ab2") && has(&moves, "Kc3-Bb2") && has(&moves, "Kc3-Cb2"));
}

/// A pawn checks sideways and up: the white pawn on Bb5 attacks Cc5 (and Ca5, Ba6, Bc6). The
/// king escapes to Cb5, Cb6 or Cc6, which the pawn does not attack, and may not take the pawn
/// (Cc5 to Bb5 is a diagonal through the boards, not a king step).
#[test]
fn pawn_checks_sideways_and_up() {
    let mut pos = at("6/6/4/4/6/5K|6/1P4/6/6/6/6|6/2k3/4/4/p5/6 b");
    assert!(pos.in_check());
    let moves = snap("pawn_checks_sideways_and_up", &mut pos);
    assert!(has(&moves, "KCc5-Cb5") && has(&moves, "KCc5-Cb6") && has(&moves, "KCc5-Cc6"));
    assert!(!has(&moves, "KCc5xBb5"));
    assert_eq!(moves.len(), 9);
}

/// "There is no castling": the king on its start square with both rooks at home and the squares
/// between empty steps one square only, and `O-O` is not a move.
#[test]
fn no_castling() {
    let mut pos = at("6/6/4/4/1P2P1/R2K1R|6/6/6/6/6/6|3k1p/6/4/4/6/6 w");
    let moves = snap("no_castling", &mut pos);
    assert_eq!(from(&moves, "KAd1"), ["KAd1-Ac1", "KAd1-Ac2", "KAd1-Ad2", "KAd1-Ae1", "KAd1-Bd1"]);
    assert!(pos.parse_move("O-O").is_err() && pos.parse_move("O-O-O").is_err());
    assert!(pos.to_position_string().ends_with(" w - - 0 1"));
}

// ---------------------------------------------------------------------------------------------
// Pawn.
// ---------------------------------------------------------------------------------------------

/// "The pawn at Ab2 can move to Ab3 or Bb2, or capture to Aa3, c3 (typical) and also Ba2 and
/// Bc2."
#[test]
fn pawn_moves_and_captures_as_in_the_text() {
    let mut pos = at("6/6/4/p3/1P4/5K|6/6/6/2p3/p1p3/6|5k/6/4/4/6/6 w");
    let moves = snap("pawn_moves_and_captures_as_in_the_text", &mut pos);
    assert_eq!(from(&moves, "Ab2"), ["Ab2-Ab3", "Ab2-Bb2", "Ab2xAa3", "Ab2xBa2", "Ab2xBc2", "Ab2xc3"]);
}

/// A pawn captures only diagonally forward on its board and sideways-and-up: blocked ahead
/// (Ab3) and above (Bb2), it cannot take those pawns, nor the knights beside it (Aa2, Ac2), up
/// its file (Bb3) or on a triagonal (Ba3): it has no move at all.
#[test]
fn pawn_does_not_capture_straight_or_along_other_diagonals() {
    let mut pos = at("6/6/4/1p2/nPn3/5K|6/6/6/nn4/1p4/6|5k/6/4/4/6/6 w");
    let moves = snap("pawn_does_not_capture_straight_or_along_other_diagonals", &mut pos);
    assert!(from(&moves, "Ab2").is_empty(), "{moves:?}");
}

/// "There is no initial double move": a pawn on its start square steps forward or up, one
/// square.
#[test]
fn no_double_step() {
    let mut pos = at("6/6/4/4/1P4/5K|6/6/6/6/6/6|p4k/6/4/4/6/6 w");
    let moves = snap("no_double_step", &mut pos);
    assert_eq!(from(&moves, "Ab2"), ["Ab2-Ab3", "Ab2-Bb2"]);
    assert!(pos.parse_move("Ab2-Ab4").is_err() && pos.parse_move("Ab2-Cb2").is_err());
}

/// "...or down (for black) or capture east/west in down direction for black": the black pawn on
/// Cb5 steps towards rank 1 (Cb4) or down (Bb5), and captures Ca4, c4, Ba5 and Bc5.
#[test]
fn black_pawn_moves_towards_rank_1_and_down() {
    let mut pos = at("6/6/4/4/6/5K|6/P1P3/2P3/6/6/6|5k/1p4/P3/4/6/6 b");
    let moves = snap("black_pawn_moves_towards_rank_1_and_down", &mut pos);
    assert_eq!(from(&moves, "Cb5"), ["Cb5-Bb5", "Cb5-Cb4", "Cb5xBa5", "Cb5xBc5", "Cb5xCa4", "Cb5xc4"]);
}

/// "White promotions occur in rank 6 of board C": the pawns on Ba6 (up, or taking Cb6) and Cd5
/// (forward, or taking Ce6) promote to Q, R, B or N; the pawn on Ab6 steps up to Bb6 without
/// promoting and the pawn on Be5 reaches Be6 or Ce5 without promoting.
#[test]
fn white_promotes_on_rank_6_of_board_c_only() {
    let mut pos = at("1P4/6/4/4/6/5K|P5/4P1/6/6/6/6|1n2n1/3P2/3k/4/6/6 w");
    let moves = snap("white_promotes_on_rank_6_of_board_c_only", &mut pos);
    assert_eq!(from(&moves, "Ab6"), ["Ab6-Bb6"]);
    assert_eq!(from(&moves, "Be5"), ["Be5-Be6", "Be5-Ce5"]);
    assert_eq!(
        from(&moves, "Ba6"),
        ["Ba6-Ca6=B", "Ba6-Ca6=N", "Ba6-Ca6=Q", "Ba6-Ca6=R", "Ba6xCb6=B", "Ba6xCb6=N", "Ba6xCb6=Q", "Ba6xCb6=R"]
    );
    assert_eq!(from(&moves, "Cd5").len(), 8);
    play(&mut pos, "Ba6-Ca6=N");
    assert_eq!(pos.to_position_string(), "1P4/6/4/4/6/5K|6/4P1/6/6/6/6|Nn2n1/3P2/3k/4/6/6 b - - 0 1");
}

/// "...and black promotions in rank 1 of board A": the pawns on Ba1 (down) and Ad2 (forward,
/// or taking Ac1 or Ae1) promote; the pawn on Bb2 reaches Bb1 or Ab2 without promoting and the
/// pawn on Cf1 can only step down to Bf1.
#[test]
fn black_promotes_on_rank_1_of_board_a_only() {
    let mut pos = at("6/6/4/4/3p2/2N1N1|6/6/6/6/1p4/p5|2K2k/6/4/4/6/5p b");
    let moves = snap("black_promotes_on_rank_1_of_board_a_only", &mut pos);
    assert_eq!(from(&moves, "Ba1"), ["Ba1-Aa1=B", "Ba1-Aa1=N", "Ba1-Aa1=Q", "Ba1-Aa1=R"]);
    assert_eq!(from(&moves, "Ad2").len(), 12);
    assert_eq!(from(&moves, "Bb2"), ["Bb2-Ab2", "Bb2-Bb1"]);
    assert_eq!(from(&moves, "Cf1"), ["Cf1-Bf1"]);
}

/// Pawns on and into the centre: Ac2 steps forward onto c3; the pawn on c4 steps forward onto
/// c5 of every board and has no up step; it captures forward-diagonally on any board (Bb5,
/// Cd5) and sideways-and-up onto d4 (Ac4 east-up is Bd4, which is d4).
#[test]
fn pawns_on_the_centre_squares() {
    let mut pos = at("6/6/4/4/2P3/5K|6/1p4/2Pp2/6/3p2/6|5k/3p2/4/4/6/6 w");
    let moves = snap("pawns_on_the_centre_squares", &mut pos);
    assert_eq!(from(&moves, "Ac2"), ["Ac2-Bc2", "Ac2-c3", "Ac2xBd2"]);
    assert_eq!(from(&moves, "c4"), ["c4-Ac5", "c4-Bc5", "c4-Cc5", "c4xBb5", "c4xCd5", "c4xd4"]);
    let mut pos = at("6/6/4/4/6/5K|6/6/1p4/2P3/6/6|5k/6/4/4/6/6 w");
    let moves = snap("pawn_on_c3", &mut pos);
    assert_eq!(from(&moves, "c3"), ["c3-c4", "c3xBb4"]);
}

// ---------------------------------------------------------------------------------------------
// End of the game.
// ---------------------------------------------------------------------------------------------

/// "A player loses by checkmate": the queen moves to Cb5, guarded by the rook on Cb3, and also
/// covers Ba6 along a triagonal. (Black's blocked pawn on Aa5 keeps its king from being bare.)
#[test]
fn checkmate_loses() {
    let mut pos = at("6/p5/P3/4/6/5K|6/6/6/6/6/6|k5/4Q1/4/1R2/6/6 w");
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "QCe5-Cb5");
    assert!(pos.in_check());
    let moves = snap("checkmate_loses", &mut pos);
    assert!(moves.is_empty());
    assert_eq!(pos.outcome(), Some((GameResult::Win(WHITE), EndReason::Checkmate)));
}

/// "...or stalemate": Black, not in check, has no move (the king is boxed in by the rooks on Ba5
/// and Cb2, and the pawn on Aa5 is blocked) and loses.
#[test]
fn stalemate_loses() {
    let mut pos = at("6/p5/P3/4/6/5K|6/6/R5/6/6/6|k5/6/4/4/1R4/6 w");
    play(&mut pos, "RBa4-Ba5");
    assert!(!pos.in_check());
    let moves = snap("stalemate_loses", &mut pos);
    assert!(moves.is_empty());
    assert_eq!(pos.outcome(), Some((GameResult::Win(WHITE), EndReason::Stalemate)));
}

/// "...or if all his pieces (except the King) are captured": taking Black's last pawn wins at
/// once, although the king could take the rook back. A king with a pawn is not bare.
#[test]
fn bare_king_loses() {
    let mut pos = at("6/6/4/4/6/5K|6/6/6/6/6/6|k5/1p4/4/4/6/1R4 w");
    assert_eq!(pos.outcome(), None, "a king and a pawn are not a bare king");
    play(&mut pos, "RCb1xCb5");
    let moves = snap("bare_king_loses", &mut pos);
    assert!(moves.is_empty(), "the king could take back, but the game is over: no move is legal");
    assert_eq!(pos.outcome(), Some((GameResult::Win(WHITE), EndReason::BareKing)));
}

/// Ruling: a position with two bare kings cannot arise in a game (the capture that leaves one
/// side bare ends it). Read from a position string, Varia tests the players in turn order, so
/// White is the bare side that loses.
#[test]
fn two_bare_kings_only_from_a_position_string() {
    let mut pos = at("6/6/4/4/6/5K|6/6/6/6/6/6|k5/6/4/4/6/6 b");
    assert_eq!(pos.outcome(), Some((GameResult::Win(BLACK), EndReason::BareKing)));
}

/// "All FIDE rules apply": the fifty-move rule. After 99 half-moves without a capture or a pawn
/// move, a rook move draws; a pawn move (here the pawn's step up) resets the count instead.
#[test]
fn fifty_move_rule() {
    let text = "6/6/4/4/1P4/5K|6/6/6/6/6/6|k5/1p4/4/4/6/1R4 w - - 99 80";
    let mut pos = at(text);
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "RCb1-Cb2");
    assert_eq!(pos.outcome(), Some((GameResult::Draw, EndReason::MoveRule)));
    let mut pos = at(text);
    play(&mut pos, "Ab2-Bb2");
    assert_eq!(pos.halfmove_clock(), 0);
    assert_eq!(pos.outcome(), None);
}

/// "All FIDE rules apply": threefold repetition. The knights go out and back twice; the start
/// position's third occurrence draws.
#[test]
fn threefold_repetition() {
    let mut pos = at("6/6/4/4/6/1N1KN1|6/6/6/6/6/6|1n1kn1/6/4/4/6/6 w");
    snap("threefold_repetition", &mut pos);
    play(&mut pos, "NAb1-Aa3 NCb6-Ca4 NAa3-Ab1 NCa4-Cb6 NAb1-Aa3 NCb6-Ca4 NAa3-Ab1");
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "NCa4-Cb6");
    assert_eq!(pos.outcome(), Some((GameResult::Draw, EndReason::Repetition)));
}
