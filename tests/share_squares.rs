//! Share Squares: a scenario for each rule sentence of the rule text and each ruling, its legal moves snapshotted.

mod common;

use common::{legal, play};

use std::sync::Arc;

use varia_interpreter::{EndReason, GameResult, MoveError, Position, Rules};

/// The Share Squares rules, loaded once per test.
fn rules() -> Arc<Rules> {
    common::rules("share-squares.var")
}

/// A position of Share Squares from a position string.
fn at(fen: &str) -> Position {
    common::position(&rules(), fen)
}

/// Snapshots the position string and the sorted legal moves under `name`, and returns the moves.
fn snap(name: &str, pos: &mut Position) -> Vec<String> {
    let moves = legal(pos);
    insta::assert_snapshot!(name, format!("{}\n--\n{}", pos.to_position_string(), moves.join("\n")));
    moves
}

/// The letters of the pieces on a cell, in the stack's canonical order.
fn on(pos: &Position, cell: &str) -> String {
    let c = pos.rules().cell_by_name(cell).expect("cell");
    pos.pieces_at(c).iter().map(|p| pos.rules().piece_letter(*p)).collect()
}

fn has(moves: &[String], m: &str) -> bool {
    moves.iter().any(|x| x == m)
}

/// Whether the Wrap Up (the only phase) has begun.
fn wrap_up(pos: &Position) -> bool {
    pos.phases() & 1 != 0
}

// ---------------------------------------------------------------------------------------------
// Capacity: two pieces of any colours.
// ---------------------------------------------------------------------------------------------

/// "Each of these four squares can hold up to 2 pieces (2 black, 2 white, or 1 black and 1
/// white)": a knight joins its own lone pawn (double white) or a lone enemy pawn (gray), a pawn
/// joins by its straight step, and nothing enters the full e4.
#[test]
fn capacity_two_pieces_of_any_colours() {
    let mut pos = at("7k/8/8/4p3/3P(BP)3/2N2N2/8/K7 w - - 0 1");
    assert!(!wrap_up(&pos));
    let moves = snap("capacity_two_pieces_of_any_colours", &mut pos);
    assert!(has(&moves, "Nf3-d4"), "joins its own lone pawn");
    assert!(has(&moves, "Nf3-e5"), "joins a lone enemy pawn");
    assert!(has(&moves, "e4-e5"), "a pawn joins by its straight step");
    assert!(!moves.iter().any(|m| m.ends_with("e4")), "e4 already holds two pieces: {moves:?}");
    play(&mut pos, "Nf3-e5");
    assert_eq!(on(&pos, "e5"), "Np");
    assert_eq!(pos.to_position_string(), "7k/8/8/4(Np)3/3P(BP)3/2N5/8/K7 b - - 1 1");
    // The black pawn, now on an active square, could capture, but d4 is lone (inactive) and f4
    // empty; its step is blocked by the full e4. The bishop on e4 guards h7.
    let moves = snap("capacity_after_the_join", &mut pos);
    assert_eq!(moves, ["Kh8-g7", "Kh8-g8"]);
}

// ---------------------------------------------------------------------------------------------
// Inactive squares.
// ---------------------------------------------------------------------------------------------

/// "That piece cannot be captured": the knight may join the lone rook on d5, never take it.
#[test]
fn inactive_piece_cannot_be_captured() {
    let mut pos = at("7k/p7/8/3r4/5N2/8/7P/K7 w - - 0 1");
    let moves = snap("inactive_piece_cannot_be_captured", &mut pos);
    assert!(has(&moves, "Nf4-d5"));
    assert!(!has(&moves, "Nf4xd5"));
    play(&mut pos, "Nf4-d5");
    assert_eq!(on(&pos, "d5"), "rN", "both stay, in canonical order: rook before knight");
}

/// "...nor can it capture directly": the lone rook on d5 may slide off (and join its own lone
/// pawn on e5) but takes neither g5 nor d2; the lone pawn on e5 steps but cannot take f4.
#[test]
fn inactive_piece_cannot_capture() {
    let mut pos = at("7k/8/8/3rp1P1/5P2/8/3N4/K7 b - - 0 1");
    let moves = snap("inactive_piece_cannot_capture", &mut pos);
    for m in ["Rd5xg5", "Rd5xd2", "e5xf4"] {
        assert!(!has(&moves, m), "{m}");
    }
    assert!(has(&moves, "Rd5-e5") && has(&moves, "Rd5-f5") && has(&moves, "e5-e4"));
}

/// "It may move normally off of that shared square, unless the movement would capture": the lone
/// bishop on d4 has every quiet move, including joining the lone pawn on the next share square
/// e5, and takes neither a7 nor h8. Once it joins e5 the square is gray and the bishop checks;
/// the pawn leaving e5 would leave the bishop alone and end the check.
#[test]
fn inactive_piece_may_leave_but_not_by_capturing() {
    let mut pos = at("7k/p7/8/4p3/3B4/8/7P/K7 w - - 0 1");
    let moves = snap("inactive_piece_may_leave_but_not_by_capturing", &mut pos);
    assert!(has(&moves, "Bd4-e5") && has(&moves, "Bd4-g7"));
    assert!(!has(&moves, "Bd4xa7") && !has(&moves, "Bd4xh8"));
    play(&mut pos, "Bd4-e5");
    assert_eq!(on(&pos, "e5"), "Bp");
    assert!(pos.in_check(), "the bishop is active on the gray square e5");
    let moves = snap("inactive_piece_joined_gives_check", &mut pos);
    assert_eq!(moves, ["Kh8-g8", "Kh8-h7", "e5-e4"]);
}

/// "No piece on an inactive square is delivering check": the lone queen on d5 does not check the
/// king on e6, which may go anywhere around it, even onto d5 itself (a gray square).
#[test]
fn inactive_piece_gives_no_check() {
    let mut pos = at("8/7p/4k3/3Q4/8/8/PP6/K7 b - - 0 1");
    assert!(!pos.in_check());
    let moves = snap("inactive_piece_gives_no_check", &mut pos);
    assert_eq!(moves.iter().filter(|m| m.starts_with('K')).count(), 8, "{moves:?}");
    assert!(has(&moves, "Ke6-d5"));
}

/// "Sliding pieces ... can move through inactive squares as if they are empty": the rook on d1
/// passes the lone knight on d4 and the lone pawn on d5 (joining either if it stops there) and
/// captures on d8.
#[test]
fn sliders_pass_through_inactive_squares() {
    let mut pos = at("3r3k/8/8/3P4/3n4/8/7P/K2R4 w - - 0 1");
    let moves = snap("sliders_pass_through_inactive_squares", &mut pos);
    for m in ["Rd1-d4", "Rd1-d5", "Rd1-d6", "Rd1-d7", "Rd1xd8"] {
        assert!(has(&moves, m), "{m}");
    }
    assert!(!has(&moves, "Rd1xd4"));
}

/// Sliders pass through inactive squares for checks too: the lone pieces on d4 and e4 do not
/// shield the king on h4 from the rook on a4. A second piece joining d4 makes it active and
/// blocks; moving the knight off e4 does not help.
#[test]
fn inactive_squares_do_not_shield_and_a_second_piece_blocks() {
    let mut pos = at("k7/8/8/8/r2bN2K/8/1P3B2/8 w - - 0 1");
    assert!(pos.in_check());
    let moves = snap("inactive_squares_do_not_shield_and_a_second_piece_blocks", &mut pos);
    assert_eq!(moves, ["Bf2-d4", "Kh4-g3", "Kh4-g5", "Kh4-h3", "Kh4-h5", "b2-b4"]);
}

// ---------------------------------------------------------------------------------------------
// Active squares: double white, double black, gray.
// ---------------------------------------------------------------------------------------------

/// "If any piece ... moves onto that share square (as the 2nd piece)" the square is active: the
/// knight joining the lone queen on d5 makes her check. Black may take either piece on the double
/// white square, or step onto the empty share square e5 where the king is alone and cannot be
/// captured.
#[test]
fn a_second_piece_makes_the_square_active() {
    let mut pos = at("8/7p/4k3/3Q4/1N6/8/7P/K7 w - - 0 1");
    play(&mut pos, "Nb4-d5");
    assert_eq!(on(&pos, "d5"), "QN");
    assert!(pos.in_check());
    let moves = snap("a_second_piece_makes_the_square_active", &mut pos);
    assert_eq!(moves, ["Ke6-e5", "Ke6xNd5", "Ke6xQd5"]);
}

/// Joining a lone enemy piece wakes it: the knight on b4 may not join the lone black knight on
/// d5, since that knight, active on the gray square, would check the king on e3. The king itself
/// may stand anywhere around the lone knight, which gives no check.
#[test]
fn joining_an_enemy_piece_can_wake_it_into_check() {
    let mut pos = at("7k/p7/8/3n4/1N6/4K3/7P/8 w - - 0 1");
    assert!(!pos.in_check());
    let moves = snap("joining_an_enemy_piece_can_wake_it_into_check", &mut pos);
    assert!(!has(&moves, "Nb4-d5"));
    assert!(has(&moves, "Nb4-d3") && has(&moves, "Ke3-f4"));
}

/// "Double black square": both black pieces on d5 are active; the bishop and the knight each
/// move and capture from it.
#[test]
fn double_black_square_pieces_capture() {
    let mut pos = at("7k/8/8/3(bn)4/8/1P2N3/8/K7 b - - 0 1");
    let moves = snap("double_black_square_pieces_capture", &mut pos);
    assert!(has(&moves, "Bd5xb3") && has(&moves, "Nd5xe3"));
}

/// "If a player moves onto his/her opponent's double square, then said player who does the
/// capturing decides which of the two pieces is captured. The double square would then become a
/// gray square": one move per choice, written with the taken piece's letter.
#[test]
fn capture_on_a_double_square_chooses_the_piece() {
    let mut pos = at("7k/p7/8/3(pn)4/8/4N3/7P/K7 w - - 0 1");
    assert_eq!(pos.to_position_string(), "7k/p7/8/3(np)4/8/4N3/7P/K7 w - - 0 1");
    let moves = snap("capture_on_a_double_square_chooses_the_piece", &mut pos);
    assert!(has(&moves, "Ne3xNd5") && has(&moves, "Ne3xPd5"));
    assert!(!has(&moves, "Ne3xd5") && !has(&moves, "Ne3-d5"));
    // The short form names the piece too; without it the capture is ambiguous.
    let mut all = Vec::new();
    pos.legal_moves(&mut all);
    let mv = pos.parse_move("Ne3xNd5").expect("the knight is taken");
    assert_eq!(pos.short_notation(mv, &all), "NxNd5");
    match pos.parse_move("Nxd5") {
        Err(MoveError::Ambiguous { mut candidates, .. }) => {
            candidates.sort();
            assert_eq!(candidates, ["Ne3xNd5", "Ne3xPd5"]);
        }
        other => panic!("`Nxd5` should be ambiguous: {other:?}"),
    }
    pos.make(mv);
    assert_eq!(on(&pos, "d5"), "Np", "gray: the white knight and the black pawn");
    assert_eq!(pos.piece_count(), 6, "one piece taken of seven");
    assert!(!wrap_up(&pos));
    let moves = snap("capture_on_a_double_square_then_gray", &mut pos);
    assert!(has(&moves, "d5-d4"), "the black pawn leaves the gray square");
}

/// When both enemy pieces on a double square are alike there is nothing to choose: one move.
#[test]
fn capture_on_two_like_pieces_is_one_move() {
    let mut pos = at("7k/p7/8/3(pp)4/8/4N3/7P/K7 w - - 0 1");
    let moves = snap("capture_on_two_like_pieces_is_one_move", &mut pos);
    assert_eq!(moves.iter().filter(|m| m.contains("xPd5")).count(), 1, "{moves:?}");
    play(&mut pos, "Nxd5");
    assert_eq!(on(&pos, "d5"), "Np");
}

/// "Gray square": either piece can capture from it or be captured on it. White: the bishop on
/// the gray d4 captures b6, the rook takes the black knight on d4 (written with its letter).
#[test]
fn gray_square_either_piece_captures_white_to_move() {
    let mut pos = at("3r2k1/8/1p6/8/3(Bn)4/8/2P5/K2R4 w - - 0 1");
    let moves = snap("gray_square_either_piece_captures_white_to_move", &mut pos);
    assert!(has(&moves, "Bd4xb6") && has(&moves, "Rd1xNd4"));
    assert!(!has(&moves, "Rd1xBd4") && !has(&moves, "Rd1-d5"), "the gray square blocks the rook");
}

/// The same position with Black to move: the knight on the gray d4 captures c2, the rook takes
/// the white bishop on d4; the bishop, active, guards g7 and h8.
#[test]
fn gray_square_either_piece_captures_black_to_move() {
    let mut pos = at("3r2k1/8/1p6/8/3(Bn)4/8/2P5/K2R4 b - - 0 1");
    let moves = snap("gray_square_either_piece_captures_black_to_move", &mut pos);
    assert!(has(&moves, "Nd4xc2") && has(&moves, "Rd8xBd4"));
    assert!(!has(&moves, "Kg8-g7") && !has(&moves, "Kg8-h8"));
}

/// "...unless someone moves a piece off it – then it would become an inactive square": the white
/// knight leaving the gray d4 leaves the black pawn alone there, inactive, and the rook on d1
/// now checks through it. The pawn may block by stepping to d3 but cannot capture c3.
#[test]
fn leaving_a_gray_square_makes_it_inactive() {
    let mut pos = at("3k4/7p/8/8/3(Np)4/2P5/8/3R3K w - - 0 1");
    let moves = snap("leaving_a_gray_square_makes_it_inactive", &mut pos);
    assert!(has(&moves, "Rd1xPd4") && has(&moves, "c3xPd4"));
    play(&mut pos, "Nd4-f5");
    assert_eq!(on(&pos, "d4"), "p");
    assert!(pos.in_check(), "discovered check through the inactive d4");
    let moves = snap("leaving_a_gray_square_then_check", &mut pos);
    assert_eq!(moves, ["Kd8-c7", "Kd8-c8", "Kd8-e8", "d4-d3"]);
}

/// Ruling: a piece on a gray square gives check. The rook on the gray e4 checks e8. Black may
/// take it, block on e7, or move the pawn off e4 (leaving the rook alone and inactive); a block
/// on the empty share square e5 does not count, since a lone piece there blocks nothing.
#[test]
fn gray_square_piece_gives_check() {
    let mut pos = at("4k3/8/3b1n2/8/4(Rp)3/8/8/K7 b - - 0 1");
    assert!(pos.in_check());
    let moves = snap("gray_square_piece_gives_check", &mut pos);
    assert_eq!(moves, ["Bd6-e7", "Ke8-d7", "Ke8-d8", "Ke8-f7", "Ke8-f8", "Nf6xRe4", "e4-e3"]);
    assert!(!has(&moves, "Bd6-e5"));
}

/// Leaving a double square leaves its other piece alone and inactive, so a line opens: here
/// either piece of the double white d4 leaving would expose the king on d1 to the rook on d8.
#[test]
fn leaving_a_double_square_can_expose_the_king() {
    let mut pos = at("3r2k1/p7/8/8/3(BN)4/8/7P/3K4 w - - 0 1");
    assert!(!pos.in_check());
    let moves = snap("leaving_a_double_square_can_expose_the_king", &mut pos);
    assert_eq!(moves, ["Kd1-c1", "Kd1-c2", "Kd1-d2", "Kd1-e1", "Kd1-e2", "h2-h3", "h2-h4"]);
}

// ---------------------------------------------------------------------------------------------
// Kings.
// ---------------------------------------------------------------------------------------------

/// "They can never be in any adjacent squares (regular or shared)": the white king alone on d4
/// gives no check, yet the black king may not step next to it (e4, e5), and vice versa.
#[test]
fn kings_never_stand_adjacent_black_to_move() {
    let mut pos = at("8/p6p/8/5k2/3K4/8/P6P/8 b - - 0 1");
    assert!(!pos.in_check());
    let moves = snap("kings_never_stand_adjacent_black_to_move", &mut pos);
    assert!(!has(&moves, "Kf5-e4") && !has(&moves, "Kf5-e5"));
    assert!(has(&moves, "Kf5-e6"));
}

/// The same with White to move: the king on d4 may not go to e4 or e5, next to f5.
#[test]
fn kings_never_stand_adjacent_white_to_move() {
    let mut pos = at("8/p6p/8/5k2/3K4/8/P6P/8 w - - 0 1");
    let moves = snap("kings_never_stand_adjacent_white_to_move", &mut pos);
    assert!(!has(&moves, "Kd4-e4") && !has(&moves, "Kd4-e5"));
    assert!(has(&moves, "Kd4-d5") && has(&moves, "Kd4-e3"));
}

/// Ruling: a king alone on a share square cannot be captured, so it is not in check though the
/// rook and the bishop aim at it, and it may step onto another empty share square (d5, e4, e5)
/// that they attack. Like any lone piece there it cannot capture (not e3).
#[test]
fn a_king_alone_on_a_share_square_is_never_in_check() {
    let mut pos = at("3r3k/b7/8/8/3K4/4p3/P6P/8 w - - 0 1");
    assert!(!pos.in_check());
    let moves = snap("a_king_alone_on_a_share_square_is_never_in_check", &mut pos);
    assert!(has(&moves, "Kd4-d5") && has(&moves, "Kd4-e4") && has(&moves, "Kd4-e5"));
    assert!(!has(&moves, "Kd4-c5") && !has(&moves, "Kd4-d3") && !has(&moves, "Kd4xe3"));
}

// ---------------------------------------------------------------------------------------------
// The Wrap Up.
// ---------------------------------------------------------------------------------------------

/// "As soon as there are 5 or less pieces on the board (including the two kings), share squares
/// no longer exist": read with five pieces, the lone knight on d4 is an ordinary piece; it
/// checks the king on c2 and the rook captures it.
#[test]
fn wrap_up_at_five_pieces_lone_pieces_are_ordinary() {
    let mut pos = at("7k/8/8/8/3n4/8/2K4P/3R4 w - - 0 1");
    assert!(wrap_up(&pos));
    assert!(pos.in_check());
    let moves = snap("wrap_up_at_five_pieces_lone_pieces_are_ordinary", &mut pos);
    assert_eq!(moves, ["Kc2-b1", "Kc2-b2", "Kc2-c1", "Kc2-c3", "Kc2-d2", "Kc2-d3", "Rd1xd4"]);
}

/// In the Wrap Up no square is shared any more: the knight may not join its own pawn on d4, and
/// the lone black pawn on e5 is captured like any piece (by the knight or the pawn).
#[test]
fn wrap_up_no_new_sharing() {
    let mut pos = at("7k/8/8/4p3/3P4/5N2/8/K7 w - - 0 1");
    assert!(wrap_up(&pos));
    let moves = snap("wrap_up_no_new_sharing", &mut pos);
    assert!(!has(&moves, "Nf3-d4") && !has(&moves, "Nf3-e5"));
    assert!(has(&moves, "Nf3xe5") && has(&moves, "d4xe5"));
}

/// "One or more share squares can remain double occupied in the Wrap Up phase, but those pieces
/// will not be able to share again/move back once one of the two pieces move off": both pieces
/// of the double d4 move; after the knight leaves, it cannot come back.
#[test]
fn wrap_up_double_square_stays_until_one_leaves() {
    let mut pos = at("6k1/p7/8/8/3(BN)4/8/8/K7 w - - 0 1");
    assert!(wrap_up(&pos));
    assert_eq!(on(&pos, "d4"), "BN");
    let moves = snap("wrap_up_double_square_stays_until_one_leaves", &mut pos);
    assert!(has(&moves, "Bd4xa7") && has(&moves, "Nd4-f5"));
    play(&mut pos, "Nd4-f5 a7-a6");
    assert_eq!(on(&pos, "d4"), "B");
    let moves = snap("wrap_up_double_square_cannot_be_shared_again", &mut pos);
    assert!(!has(&moves, "Nf5-d4"));
}

/// "During the Wrap Up, BOTH enemy pieces are captured": one capture, written without a letter.
#[test]
fn wrap_up_capture_takes_both() {
    let mut pos = at("7k/8/8/3(pn)4/8/4N3/8/K7 w - - 0 1");
    assert!(wrap_up(&pos));
    let moves = snap("wrap_up_capture_takes_both", &mut pos);
    assert!(has(&moves, "Ne3xd5"));
    assert!(!has(&moves, "Ne3xNd5") && !has(&moves, "Ne3xPd5"));
    play(&mut pos, "Ne3xd5");
    assert_eq!(on(&pos, "d5"), "N");
    assert_eq!(pos.piece_count(), 3);
    assert_eq!(pos.outcome(), None);
}

/// A king on a double square of its own colour in the Wrap Up can be captured with its companion
/// (both go), so it is in check from the rook on d1; the knight cannot help, and the king leaves.
#[test]
fn wrap_up_king_on_its_own_double_square_can_be_checked() {
    let mut pos = at("7k/8/8/3(KN)4/8/8/8/3r4 w - - 0 1");
    assert!(wrap_up(&pos));
    assert!(pos.in_check());
    let moves = snap("wrap_up_king_on_its_own_double_square_can_be_checked", &mut pos);
    assert_eq!(moves, ["Kd5-c4", "Kd5-c5", "Kd5-c6", "Kd5-d6", "Kd5-e4", "Kd5-e5", "Kd5-e6"]);
}

/// "You may not move onto a gray square during the Wrap Up": the knight cannot go to d5.
#[test]
fn wrap_up_no_move_onto_a_gray_square() {
    let mut pos = at("7k/8/8/3(nP)4/8/4N3/8/K7 w - - 0 1");
    assert!(wrap_up(&pos));
    let moves = snap("wrap_up_no_move_onto_a_gray_square", &mut pos);
    assert!(!moves.iter().any(|m| m.ends_with("d5")), "{moves:?}");
    assert!(has(&moves, "d5-d6"), "the white pawn on the gray square still moves");
}

/// Ruling: as nothing may move onto a gray square in the Wrap Up, nothing on one can be captured;
/// the king sharing d5 with a black knight is not in check from the rook on d1.
#[test]
fn wrap_up_gray_square_cannot_be_attacked() {
    let mut pos = at("7k/8/8/3(Kn)4/8/8/7P/3r4 w - - 0 1");
    assert!(wrap_up(&pos));
    assert!(!pos.in_check());
    let moves = snap("wrap_up_gray_square_cannot_be_attacked", &mut pos);
    assert!(!has(&moves, "Kd5-d4"), "d4 is on the rook's file");
    assert!(has(&moves, "Kd5-d6"), "the lone knight left on d5 blocks the file");
}

/// Ruling: a capture that starts the Wrap Up is judged under its rules at once. Ra1xa7 would leave
/// five pieces; the lone knight on d5 would then be active and check the king on e3, so the
/// capture is illegal. Every other rook move stays legal.
#[test]
fn a_capture_that_starts_the_wrap_up_is_judged_under_it() {
    let mut pos = at("7k/p7/8/3n4/8/4K3/7P/R7 w - - 0 1");
    assert!(!wrap_up(&pos));
    assert!(!pos.in_check());
    let moves = snap("a_capture_that_starts_the_wrap_up_is_judged_under_it", &mut pos);
    assert!(!has(&moves, "Ra1xa7"));
    assert!(has(&moves, "Ra1-a6") && has(&moves, "Ke3-f4"));
    // With the king out of the knight's reach the same capture is legal and starts the Wrap Up.
    let mut pos = at("7k/p7/8/3n4/8/8/4K2P/R7 w - - 0 1");
    play(&mut pos, "Ra1xa7");
    assert!(wrap_up(&pos));
    assert_eq!(pos.piece_count(), 5);
}

// ---------------------------------------------------------------------------------------------
// Rulings on pawns, en passant, castling and the end of the game.
// ---------------------------------------------------------------------------------------------

/// Ruling: a join uses a power that could move to an empty square. The pawn on d3 joins the lone
/// knight on d4 with its straight step, but cannot join (or take) the lone pawn on e4 with its
/// diagonal capture step.
#[test]
fn a_pawn_joins_only_by_its_straight_step() {
    let mut pos = at("7k/p7/8/8/3np3/3P4/7P/K7 w - - 0 1");
    let moves = snap("a_pawn_joins_only_by_its_straight_step", &mut pos);
    assert!(has(&moves, "d3-d4"));
    assert!(!has(&moves, "d3-e4") && !has(&moves, "d3xe4"));
}

/// Ruling: en passant only when the pawn that passed could be captured on its square. A pawn
/// double-stepping onto the empty d4 is alone and inactive there: no c4xd3.
#[test]
fn no_en_passant_against_a_lone_pawn_on_a_share_square() {
    let mut pos = at("7k/p7/8/8/2p5/8/3P3P/K7 w - - 0 1");
    play(&mut pos, "d2-d4");
    assert_eq!(pos.to_position_string(), "7k/p7/8/8/2pP4/8/7P/K7 b - d3 0 1");
    let moves = snap("no_en_passant_against_a_lone_pawn_on_a_share_square", &mut pos);
    assert!(!has(&moves, "c4xd3"));
}

/// Ruling: a pawn double-stepping onto d4 next to its own knight makes d4 active, so it can be
/// taken en passant; the knight stays, alone again.
#[test]
fn en_passant_against_a_pawn_that_joined_a_share_square() {
    let mut pos = at("7k/p7/8/8/2pN4/8/3P3P/K7 w - - 0 1");
    play(&mut pos, "d2-d4");
    assert_eq!(on(&pos, "d4"), "NP");
    let moves = snap("en_passant_against_a_pawn_that_joined_a_share_square", &mut pos);
    assert!(has(&moves, "c4xd3"));
    play(&mut pos, "c4xd3");
    assert_eq!(on(&pos, "d4"), "N");
    assert_eq!(on(&pos, "d3"), "p");
    assert_eq!(pos.piece_count(), 6);
}

/// Ruling: castling is unchanged, and attacked cells are judged with the share rules. The bishop
/// on a7 sees g1 (and f2) through the lone knight on d4, so O-O is illegal.
#[test]
fn castling_through_an_inactive_square_is_attacked() {
    let mut pos = at("k7/b6p/8/8/3N4/8/8/4K2R w K - 0 1");
    let moves = snap("castling_through_an_inactive_square_is_attacked", &mut pos);
    assert!(!has(&moves, "O-O") && !has(&moves, "Ke1-f2"));
}

/// The same with a double white d4: the active square blocks the bishop, and O-O is legal.
#[test]
fn castling_behind_an_active_square_is_safe() {
    let mut pos = at("k7/b6p/8/8/3(NP)4/8/8/4K2R w K - 0 1");
    let moves = snap("castling_behind_an_active_square_is_safe", &mut pos);
    assert!(has(&moves, "O-O") && has(&moves, "Ke1-f2"));
}

/// Ruling: stalemate as in chess. The lone black pawn on d5 cannot step onto the full d4 and,
/// being inactive, cannot take c4: Black has no move and is not in check.
#[test]
fn stalemate_as_in_chess() {
    let mut pos = at("k7/8/1Q6/3p4/2P(NP)4/8/8/7K b - - 0 1");
    assert!(!pos.in_check());
    let moves = snap("stalemate_as_in_chess", &mut pos);
    assert!(moves.is_empty());
    assert_eq!(pos.outcome(), Some((GameResult::Draw, EndReason::Stalemate)));
}

/// Ruling: repetition as in chess, comparing stacks as unordered sets. The string reads the gray
/// d5 in either order; the knight leaves and rejoins it twice, and the third occurrence draws.
#[test]
fn repetition_compares_stacks_as_sets() {
    let mut pos = at("7k/7p/8/3(pN)4/8/8/P7/K7 w - - 0 1");
    assert_eq!(pos.to_position_string(), "7k/7p/8/3(Np)4/8/8/P7/K7 w - - 0 1");
    assert_eq!(pos.hash(), at("7k/7p/8/3(Np)4/8/8/P7/K7 w - - 0 1").hash());
    snap("repetition_compares_stacks_as_sets", &mut pos);
    play(&mut pos, "Nd5-f4 Kh8-g8 Nf4-d5 Kg8-h8");
    assert_eq!(pos.to_position_string(), "7k/7p/8/3(Np)4/8/8/P7/K7 w - - 4 3");
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "Nd5-f4 Kh8-g8 Nf4-d5 Kg8-h8");
    assert_eq!(pos.outcome(), Some((GameResult::Draw, EndReason::Repetition)));
}

/// Position strings: stacks in parentheses, read in any order, written in the canonical order
/// (K Q R B N P, White's piece first for the same type).
#[test]
fn position_strings_write_stacks_in_canonical_order() {
    let rules = rules();
    for (read, written) in [
        ("4k3/8/8/3(pn)4/8/8/8/4K3 w - - 0 1", "4k3/8/8/3(np)4/8/8/8/4K3 w - - 0 1"),
        ("4k3/8/8/3(Pn)4/8/8/8/4K3 w - - 0 1", "4k3/8/8/3(nP)4/8/8/8/4K3 w - - 0 1"),
        ("4k3/8/8/3(nN)4/8/8/8/4K3 w - - 0 1", "4k3/8/8/3(Nn)4/8/8/8/4K3 w - - 0 1"),
    ] {
        let pos = common::position(&rules, read);
        assert_eq!(pos.to_position_string(), written);
        assert_eq!(pos.hash(), common::position(&rules, written).hash());
    }
}
