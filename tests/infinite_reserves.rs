//! The Game of Infinite Reserves and Moving Occupied Squares (Ralph Betza, "Chess with a Limited
//! Supply of Squares", `shared/rules/limited-supply-of-squares.txt`): a scenario for each rule
//! sentence of the two sections and each ruling recorded in `docs/variants/infinite-reserves.md`
//! and `docs/variants/moving-occupied-squares.md`, the legal actions snapshotted.
//!
//! A turn is up to three actions (piece move, square move, placement), each one move of the
//! engine; the side to move changes after the turn's last action. Position strings: a digit run
//! is empty squares, `*` a location without a square; after the usual fields come the reserves
//! (`-`: unlimited), the squares the side to move may not move, the action due (1 to 3) and the
//! squares touched so far this turn. Every snapshotted list was compared with the independent
//! oracle `tools/hans38-oracle/perft.py --infinite|--occupied moves --actions --pos ...`.

mod common;
#[path = "infinite_reserves/helpers.rs"]
mod helpers;

use helpers::*;

/// Snapshots the position string and the sorted legal moves under `name` (insta names the
/// snapshot after this file), and returns the moves.
fn snap(name: &str, pos: &mut Position) -> Vec<String> {
    let (text, moves) = move_list(pos);
    insta::assert_snapshot!(name, text);
    moves
}

// =============================================================================================
// The Game of Infinite Reserves
// =============================================================================================

/// "If you start with an unlimited number of squares in reserve ..." The start: the 32 squares
/// under the armies, every location between them a hole, and both reserves unlimited (`-` in the
/// position string). The supply never runs out: after the seven turns each of the opening game
/// both reserves are still unlimited.
#[test]
fn reserves_are_unlimited() {
    let mut pos = at(INFINITE, "start");
    assert_eq!(pos.to_position_string(), START);
    assert_eq!(pos.square_count(), 32);
    assert_eq!((pos.reserve(WHITE), pos.reserve(BLACK)), (None, None));
    assert_eq!(pos.square_owner(cell(&pos, "e2")), None, "neutral squares have no owner");
    play(&mut pos, &game_moves("infinite-reserves-opening.txt").join(" "));
    assert!(pos.fullmove_number() > 6, "{}", pos.to_position_string());
    assert_eq!((pos.reserve(WHITE), pos.reserve(BLACK)), (None, None));
    assert!(pos.to_position_string().contains(" - "), "{}", pos.to_position_string());
}

/// "On the first move of the game, there is no penalty if you cannot move a piece": on turn 1
/// every piece stands on a square surrounded by squares or holes, so White has no piece move and
/// no empty square to move; its whole first turn is one of the 32 placements between the armies.
/// Black then moves.
#[test]
fn whites_first_turn_is_a_placement() {
    let mut pos = at(INFINITE, "start");
    let moves = snap("infinite_white_first_turn", &mut pos);
    assert_eq!(moves.len(), 32);
    assert_eq!(kinds(&mut pos), (0, 0, 32, 0));
    play(&mut pos, "@@f3");
    assert_eq!(pos.side_to_move(), BLACK);
    assert_eq!((pos.action_index(), pos.fullmove_number(), pos.square_count()), (0, 1, 33));
    assert_eq!(
        pos.to_position_string(),
        "rnbqkbnr/pppppppp/********/********/********/*****1**/PPPPPPPP/RNBQKBNR b KQkq - 1 1 - f3 1 -"
    );
}

/// Ruling: the first-turn exemption also covers Black. After `1. @@d4` no Black piece reaches d4
/// and the only empty square, d4, was just touched by White: Black's first turn is a placement
/// on one of the other 31 holes.
#[test]
fn blacks_first_turn_without_a_piece_move_is_a_placement() {
    let mut pos = after(INFINITE, "start", "@@d4");
    let moves = snap("infinite_black_first_turn_places", &mut pos);
    assert_eq!(kinds(&mut pos), (0, 0, 31, 0));
    assert!(!has(&moves, "@@d4"));
    assert_eq!(names(&pos, pos.untouchable_squares()), ["d4"]);
}

/// Ruling: the piece move may be left out only when none is legal. After `1. @@f6` Black can
/// reach f6 (`Ng8-f6`, `f7-f6`), so it must move a piece: no placement is offered. After
/// `Ng8-f6` the square g8 left behind must move (f6 was touched by White): the text's `@g8-e6`
/// is one of three square moves.
#[test]
fn blacks_first_turn_moves_a_piece_when_it_can() {
    let mut pos = after(INFINITE, "start", "@@f6");
    let moves = snap("infinite_black_first_turn_moves_a_piece", &mut pos);
    assert_eq!(moves, ["Ng8-f6", "f7-f6"]);
    play(&mut pos, "Ng8-f6");
    assert_eq!(pos.action_index(), 1);
    let moves = snap("infinite_black_first_turn_square_move", &mut pos);
    assert_eq!(moves, ["@g8-e6", "@g8-g6", "@g8-h6"]);
}

/// "After that, you must move a piece or lose by stalemate; this is different from the basic
/// game because moving a square does not count as avoidance of stalemate." and "A stalemated
/// player loses the game". After `1. @@d4 @@e5` White's pieces reach neither square; White could
/// move the empty square d4 (it is not untouchable for White) but a turn starts with a piece
/// move: White has no legal action and loses by stalemate, not in check.
#[test]
fn no_piece_move_from_the_second_turn_is_a_lost_stalemate() {
    let mut pos = after(INFINITE, "start", "@@d4 @@e5");
    assert_eq!((pos.side_to_move(), pos.fullmove_number()), (WHITE, 2));
    assert_eq!(names(&pos, pos.untouchable_squares()), ["e5"], "d4 is not untouchable for White");
    assert!(legal(&mut pos).is_empty());
    assert!(!pos.in_check());
    assert_eq!(pos.outcome(), Some((GameResult::Win(BLACK), EndReason::Stalemate)));
    assert_eq!(perft_turns(&mut pos, 1).expect("turns end"), 0);
}

/// The same as a game: `tests/games/infinite-reserves-stalemate.txt` is `1. @@d4 @@e5 0-1`.
#[test]
fn game_stalemate_in_one_turn_each() {
    let moves = game_moves("infinite-reserves-stalemate.txt");
    assert_eq!(moves, ["@@d4", "@@e5"]);
    let mut pos = after(INFINITE, "start", &moves.join(" "));
    assert_eq!(pos.outcome(), Some((GameResult::Win(BLACK), EndReason::Stalemate)));
}

/// "let's suppose instead that we use the Postal Plus Rule, infinite reserves and you *must*
/// place a square every turn" and the Postal Rule's "first move a piece and then either move or
/// place a square, or even do both ... Note that the rule is not to move the square first". From
/// the second turn a turn is a piece move, then a square move, then a placement, each one
/// action: after `1. @@e3 @@e6` White could move the empty e3, but only `e2-e3` is legal; then
/// only square moves; then only placements; then Black.
#[test]
fn a_turn_is_piece_move_then_square_move_then_placement() {
    let mut pos = after(INFINITE, "start", "@@e3 @@e6");
    assert_eq!(legal(&mut pos), ["e2-e3"], "no square move or placement first");
    assert_eq!(pos.action_index(), 0);
    play(&mut pos, "e2-e3");
    assert_eq!((pos.side_to_move(), pos.action_index()), (WHITE, 1));
    assert_eq!(kinds(&mut pos), (0, 9, 0, 0));
    play(&mut pos, "@e2-e4");
    assert_eq!((pos.side_to_move(), pos.action_index()), (WHITE, 2));
    assert_eq!(kinds(&mut pos), (0, 0, holes(&pos), 0));
    play(&mut pos, "@@d3");
    assert_eq!((pos.side_to_move(), pos.action_index(), pos.fullmove_number()), (BLACK, 0, 2));
    assert_eq!(legal(&mut pos), ["e7-e6"]);
}

/// "you *must* place a square every turn": the placement ends every turn and cannot be left
/// out. After the square move the actions are exactly the placements, one on every hole,
/// without an end of turn (`end` is not a move here).
#[test]
fn the_placement_is_compulsory() {
    let mut pos = after(INFINITE, "start", "@@e3 @@e6 e2-e3 @e2-e4");
    let moves = snap("infinite_placement_after_the_square_move", &mut pos);
    assert_eq!(moves.len(), 64 - 34);
    assert!(moves.iter().all(|m| m.starts_with("@@")));
    assert_eq!(kinds(&mut pos).3, 0, "no `end`");
    assert!(pos.parse_move("end").is_err());
}

/// Ruling: the square move is compulsory when one is legal. After `2. e2-e3` the only movable
/// empty square is e2 (e6 was touched by Black), and White must move it: nine square moves and
/// no placement.
#[test]
fn the_square_move_is_compulsory_when_one_is_legal() {
    let mut pos = after(INFINITE, "start", "@@e3 @@e6 e2-e3");
    let moves = snap("infinite_square_move_is_compulsory", &mut pos);
    assert_eq!(kinds(&mut pos), (0, 9, 0, 0));
    assert!(moves.iter().all(|m| m.starts_with("@e2-")));
}

/// Ruling: the square move is skipped when none is legal. On move 5 White's knight leaves g1
/// (its square goes) for h3; the only empty squares left, d4 and c5, were touched by Black's
/// last turn. White goes straight on to the placement: the actions are the placements, still
/// as the turn's second action due.
#[test]
fn the_square_move_is_skipped_when_none_is_legal() {
    let text = "****k***/********/********/**1*****/***1****/*******1/********/****K*N* w - - 0 5 - d4,c5 1 -";
    let mut pos = at(INFINITE, text);
    assert_eq!(legal(&mut pos), ["Ng1-h3"]);
    play(&mut pos, "Ng1-h3");
    assert!(!square(&pos, "g1"));
    let moves = snap("infinite_square_move_skipped", &mut pos);
    assert_eq!(kinds(&mut pos), (0, 0, 64 - 5, 0));
    assert_eq!(moves.len(), holes(&pos));
    assert_eq!(pos.action_index(), 1);
    play(&mut pos, "@@g1");
    assert_eq!((pos.side_to_move(), pos.action_index()), (BLACK, 0));
    assert_eq!(names(&pos, pos.untouchable_squares()), ["g1"]);
}

/// "Empty squares move 2 spaces, same as in Hans38": one or two locations in any direction (a
/// king, knight, dabbaba or alfil move), to a hole, leaping over anything. On an open board the
/// empty square d4 has 24 moves; ringed by eight pawns it still leaps to the 16 holes two steps
/// away.
#[test]
fn empty_squares_move_two_spaces_leaping() {
    let mut pos =
        at(INFINITE, "****k***/********/********/********/***1****/********/********/****K*** w - - 0 5 - - 2 -");
    let moves = snap("infinite_empty_square_open_board", &mut pos);
    assert_eq!(moves.len(), 24);
    for t in ["c3", "d5", "e5", "b3", "f5", "b4", "d6", "b2", "f6", "d2"] {
        assert!(has(&moves, &format!("@d4-{t}")), "{t}");
    }
    let mut pos =
        at(INFINITE, "****k***/********/********/**PPP***/**P1P***/**PPP***/********/****K*** w - - 0 5 - - 2 -");
    let moves = snap("infinite_empty_square_leaps_over_pieces", &mut pos);
    assert_eq!(moves.len(), 16);
    assert!(moves.iter().all(|m| {
        let (f, r) = (m.as_bytes()[4], m.as_bytes()[5]);
        f == b'b' || f == b'f' || r == b'2' || r == b'6'
    }));
}

/// "We'll use neutral squares, either player can move any empty square except the two that his
/// opponent just touched." On Black's third turn Black may move e4, a square White moved on its
/// second turn, and d7, e5; not d4 and f3, which White touched on its third turn.
#[test]
fn neutral_squares_either_player_moves_any_empty_square() {
    let mut pos = after(INFINITE, "start", "@@e3 @@e6 e2-e3 @e2-e4 @@d3 e7-e6 @e7-e5 @@d6 d2-d3 @d2-d4 @@f3 d7-d6");
    let moves = snap("infinite_neutral_squares", &mut pos);
    assert_eq!(names(&pos, pos.untouchable_squares()), ["d4", "f3"]);
    let from: std::collections::BTreeSet<&str> = moves.iter().map(|m| &m[1..3]).collect();
    assert_eq!(from.into_iter().collect::<Vec<_>>(), ["d7", "e4", "e5"]);
    for c in ["e4", "d4", "f3", "e5"] {
        assert_eq!(pos.square_owner(cell(&pos, c)), None);
    }
}

/// "except the two that his opponent just touched": the square the opponent moved (at its new
/// place) and the one it placed, for one turn only. Black's third turn touches d5 and f6;
/// White's fourth turn may move neither, but may again move d4, which Black could not.
#[test]
fn the_two_squares_just_touched_cannot_be_moved() {
    let mut pos =
        after(INFINITE, "start", "@@e3 @@e6 e2-e3 @e2-e4 @@d3 e7-e6 @e7-e5 @@d6 d2-d3 @d2-d4 @@f3 d7-d6 @d7-d5");
    assert_eq!(names(&pos, pos.touched_squares()), ["d5"]);
    assert_eq!(names(&pos, pos.untouchable_squares()), ["d4", "f3"]);
    play(&mut pos, "@@f6");
    assert_eq!(pos.side_to_move(), WHITE);
    assert_eq!(names(&pos, pos.untouchable_squares()), ["d5", "f6"]);
    assert!(pos.touched_squares().is_empty());
    play(&mut pos, "Ng1-f3");
    let moves = snap("infinite_touched_squares_frozen", &mut pos);
    assert!(moves.iter().any(|m| m.starts_with("@d4-")));
    assert!(moves.iter().all(|m| !m.starts_with("@d5-") && !m.starts_with("@f6-")));
}

/// "starting on the fourth turn, whenever a piece moves the square it leaves is returned to
/// reserves": not before. Turn 3's `d2-d3` and `d7-d6` leave d2 and d7 in place; turn 4's
/// `Ng1-f3` and `Ng8-f6` remove g1 and g8. The reserve stays unlimited.
#[test]
fn from_the_fourth_turn_the_square_a_piece_leaves_is_removed() {
    let mut pos = after(INFINITE, "start", "@@e3 @@e6 e2-e3 @e2-e4 @@d3 e7-e6 @e7-e5 @@d6");
    assert_eq!(pos.fullmove_number(), 3);
    play(&mut pos, "d2-d3");
    assert!(square(&pos, "d2"), "turn 3 keeps the square");
    assert_eq!(pos.square_count(), 36);
    play(&mut pos, "@d2-d4 @@f3 d7-d6");
    assert!(square(&pos, "d7"));
    play(&mut pos, "@d7-d5 @@f6");
    assert_eq!((pos.fullmove_number(), pos.square_count()), (4, 38));
    play(&mut pos, "Ng1-f3");
    assert!(!square(&pos, "g1"), "turn 4 removes it");
    assert_eq!(pos.square_count(), 37);
    assert_eq!(pos.reserve(WHITE), None);
    play(&mut pos, "@d4-e2 @@g3");
    assert_eq!(pos.square_count(), 38);
    play(&mut pos, "Ng8-f6");
    assert!(!square(&pos, "g8"));
    assert_eq!(pos.square_count(), 37);
}

/// "(When Castling, only the King's square is voided ...)": on move 5 `O-O` removes e1 and
/// leaves the rook's h1 as an empty square, `O-O-O` removes e1 and leaves a1. On move 3 castling
/// removes nothing. Castling needs a square on every location between king and rook (ruling 4):
/// with b1 a hole there is no `O-O-O`.
#[test]
fn castling_voids_only_the_kings_square() {
    let text = "4k3/********/********/********/********/********/********/R3K2R w KQ - 0 5 - - 1 -";
    let mut pos = at(INFINITE, text);
    let moves = snap("infinite_castling", &mut pos);
    assert!(has(&moves, "O-O") && has(&moves, "O-O-O"));
    play(&mut pos, "O-O");
    assert_eq!((on(&pos, "g1"), on(&pos, "f1")), (Some('K'), Some('R')));
    assert!(!square(&pos, "e1"));
    assert!(square(&pos, "h1") && on(&pos, "h1").is_none());
    assert_eq!(pos.square_count(), 15);
    let mut pos = after(INFINITE, text, "O-O-O");
    assert_eq!((on(&pos, "c1"), on(&pos, "d1")), (Some('K'), Some('R')));
    assert!(!square(&pos, "e1") && square(&pos, "a1") && square(&pos, "b1"));
    assert_eq!(kinds(&mut pos).0, 0, "the square move is next");
    let pos = after(INFINITE, &text.replace(" 0 5 ", " 0 3 "), "O-O");
    assert!(square(&pos, "e1"), "move 3 keeps it");
    let mut pos = at(INFINITE, &text.replace("R3K2R", "R*2K2R"));
    let moves = legal(&mut pos);
    assert!(has(&moves, "O-O") && !has(&moves, "O-O-O"));
}

/// "(... when capturing en passant, only the capturing Pawn's square is vacated.)" Black's
/// `d7-d5` on move 5 passes d6 (and removes d7); en passant stays open through Black's square
/// move and placement, and White takes: e5 goes, d5 (the captured pawn's square) stays, empty.
#[test]
fn en_passant_voids_only_the_capturing_pawns_square() {
    let text = "1***k***/***p****/***1****/***1P***/********/********/********/****K1** b - - 0 5 - - 1 -";
    let mut pos = after(INFINITE, text, "d7-d5");
    assert!(!square(&pos, "d7"));
    // Mid-turn, the en passant chance is Black's own pawn's: the string reads back as is.
    let mid = pos.to_position_string();
    assert_eq!(mid, "1***k***/********/***1****/***pP***/********/********/********/****K1** b - d6 0 5 - - 2 -");
    let mut back = at(INFINITE, &mid);
    assert_eq!((back.hash(), legal(&mut back)), (pos.hash(), legal(&mut pos)));
    play(&mut pos, "@a8-a6 @@h8");
    let moves = snap("infinite_en_passant", &mut pos);
    assert!(has(&moves, "e5xd6"));
    let count = pos.square_count();
    play(&mut pos, "e5xd6");
    assert_eq!(on(&pos, "d6"), Some('P'));
    assert!(!square(&pos, "e5"), "the capturing pawn's square goes");
    assert!(square(&pos, "d5") && on(&pos, "d5").is_none(), "the captured pawn's square stays");
    assert_eq!(pos.square_count(), count - 1);
}

/// Ruling: en passant needs the passed square; the double-stepper may move it away in its own
/// turn, which cancels en passant. After `d7-d5 @d6-c6` White cannot take on d6.
#[test]
fn en_passant_cancelled_when_the_passed_square_moves_away() {
    let text = "1***k***/***p****/***1****/***1P***/********/********/********/****K1** b - - 0 5 - - 1 -";
    let mut pos = after(INFINITE, text, "d7-d5 @d6-c6 @@h8");
    assert_eq!(legal(&mut pos), ["Ke1-f1"]);
}

/// Ruling: moving the passed square away cancels en passant for good: a square placed back on
/// d6 in the same turn is a new square the pawn never passed. After `d7-d5 @d6-c6 @@d6` White
/// cannot take on d6.
#[test]
fn en_passant_not_restored_by_a_square_placed_on_the_passed_location() {
    let text = "1***k***/***p****/***1****/***1P***/********/********/********/****K1** b - - 0 5 - - 1 -";
    let mut pos = after(INFINITE, text, "d7-d5 @d6-c6 @@d6");
    assert_eq!(legal(&mut pos), ["Ke1-f1"]);
}

/// Ruling: the king is tested after every action, so a piece move that leaves it attacked is
/// illegal even if the turn's square move could then break the line. On move 3 (squares stay)
/// the bishop on e2 is pinned: `Be2-d3` would open the e-file, and `@e5-c5` afterwards would
/// not save it. On move 4 the bishop may go, because e2 itself is then removed.
#[test]
fn check_is_tested_after_every_action() {
    let text = "****r**k/****1***/****1***/****1***/***2***/***3**/****B***/****K1** w - - 0 3 - - 1 -";
    let mut pos = at(INFINITE, text);
    let moves = snap("infinite_pinned_bishop_on_move_3", &mut pos);
    assert_eq!(moves, ["Ke1-f1"]);
    let mut pos = at(INFINITE, &text.replace(" 0 3 ", " 0 4 "));
    let moves = snap("infinite_pinned_bishop_on_move_4", &mut pos);
    assert!(has(&moves, "Be2-d3") && has(&moves, "Be2-f3"));
    play(&mut pos, "Be2-d3");
    assert!(!square(&pos, "e2") && !pos.in_check());
}

/// From the fourth turn the square a king leaves vanishes behind it and blocks the line of the
/// rook that checks it: `Ke1-f1` along that line is legal on move 4 (and counted so at the last
/// ply of perft), not on move 3, when e1 keeps its square.
#[test]
fn a_king_may_step_along_the_checking_line_once_its_square_vanishes() {
    let text = "*******k/********/********/********/********/********/********/r3K3 w - - 0 3 - - 1 -";
    let mut buf = Vec::new();
    let mut pos = at(INFINITE, text);
    assert!(pos.in_check());
    assert_eq!(legal(&mut pos), Vec::<String>::new());
    assert_eq!(pos.count_legal(&mut buf), 0);
    let mut pos = at(INFINITE, &text.replace(" 0 3 ", " 0 4 "));
    assert_eq!(legal(&mut pos), ["Ke1-f1"]);
    assert_eq!(pos.count_legal(&mut buf), 1);
}

/// "Check and checkmate can be blocked by moving a square" does not help here, since the piece
/// move comes first ("the rule is not to move the square first"): the king on h1, checked along
/// the h-file, has no square to go to, and although White could break the line by moving the
/// empty h4 away, it is checkmate.
#[test]
fn checkmate_cannot_be_blocked_by_a_square_move() {
    let text = "k******r/*******1/*******1/*******1/*******1/*******1/*******1/*******K w - - 0 5 - - 1 -";
    let mut pos = at(INFINITE, text);
    assert!(pos.in_check());
    assert!(legal(&mut pos).is_empty());
    assert_eq!(pos.outcome(), Some((GameResult::Win(BLACK), EndReason::Checkmate)));
}

/// The engine's reading of a turn that cannot be completed (oracle ruling 11: a dead end, not a
/// turn): the player then has no legal action and loses as stalemated. On a full board on move
/// 5, `Ne2-c3` removes e2 and breaks the pin on the e-file; the only square moves fill e2 from
/// the file (`@e3-e2`, `@e4-e2`, leaving another gap in it), and then the one hole left cannot
/// be filled without exposing the king: no placement is legal. The knight moves count as no
/// complete turn: 48 turns, all king moves, as in the oracle.
#[test]
fn a_turn_that_cannot_be_completed_loses_as_stalemate() {
    let text = "k3r3/8/8/8/8/8/4N3/4K3 w - - 0 5 - - 1 -";
    let mut pos = at(INFINITE, text);
    assert_eq!(perft_turns(&mut pos, 1).expect("turns end"), 48);
    play(&mut pos, "Ne2-c3");
    assert_eq!(legal(&mut pos), ["@e3-e2", "@e4-e2"]);
    play(&mut pos, "@e3-e2");
    assert!(legal(&mut pos).is_empty());
    assert!(!pos.in_check());
    assert_eq!(pos.outcome(), Some((GameResult::Win(BLACK), EndReason::Stalemate)));
}

/// Position strings of a turn in progress: the reserves (`-`), the squares the side to move may
/// not move, the action due (1 to 3) and the squares touched so far this turn.
#[test]
fn position_strings_record_the_turn() {
    let mut pos = after(INFINITE, "start", "@@e3 @@e6");
    assert_eq!(
        pos.to_position_string(),
        "rnbqkbnr/pppppppp/****1***/********/********/****1***/PPPPPPPP/RNBQKBNR w KQkq - 2 2 - e6 1 -"
    );
    play(&mut pos, "e2-e3");
    assert_eq!(
        pos.to_position_string(),
        "rnbqkbnr/pppppppp/****1***/********/********/****P***/PPPP1PPP/RNBQKBNR w KQkq - 0 2 - e6 2 -"
    );
    play(&mut pos, "@e2-e4");
    let text = pos.to_position_string();
    assert_eq!(text, "rnbqkbnr/pppppppp/****1***/********/****1***/****P***/PPPP*PPP/RNBQKBNR w KQkq - 0 2 - e6 3 e4");
    let mut back = at(INFINITE, &text);
    assert_eq!(back.to_position_string(), text);
    assert_eq!(legal(&mut back), legal(&mut pos));
    assert_eq!(back.action_index(), 2);
    assert_eq!(names(&back, back.touched_squares()), ["e4"]);
}

/// The fifty-move rule counts turns: the half-move clock goes up once per turn (at its first
/// action) and a pawn move or capture resets it. From the opening game's final position with
/// the clock set to 98, one full turn of each side without either makes 100: a draw.
#[test]
fn the_fifty_move_rule_counts_turns() {
    let text = "rnbq*rk*/ppp1bppp/**1pp**1/***n****/***2***/**NPPN**/PPP*BPPP/R*BQ*RK1 w - - 98 8 - h6,c6 1 -";
    let mut pos = at(INFINITE, text);
    for clock in [99, 100] {
        // A quiet piece move (not a pawn's, not a capture), then the first legal square move
        // and placement.
        let quiet = legal(&mut pos).into_iter().find(|m| m.starts_with(char::is_uppercase) && !m.contains('x'));
        play(&mut pos, &quiet.expect("a quiet piece move"));
        // The clock has counted this turn already, but the draw waits for the turn's end.
        assert_eq!(pos.halfmove_clock(), clock);
        assert_eq!(pos.outcome(), None, "{}", pos.to_position_string());
        while pos.action_index() != 0 {
            let next = legal(&mut pos)[0].clone();
            play(&mut pos, &next);
        }
        assert_eq!(pos.halfmove_clock(), clock, "{}", pos.to_position_string());
    }
    assert_eq!(pos.outcome(), Some((GameResult::Draw, EndReason::MoveRule)));
}

/// Plays one random legal game of `turns` full moves with a seeded generator, backtracking out
/// of positions where the side to move has no legal action, and calls `check` after every
/// action. Returns the actions played.
fn random_game(game: &str, seed: u64, turns: u32, check: &mut dyn FnMut(&mut Position)) -> Vec<String> {
    fn go(
        pos: &mut Position,
        seed: &mut u64,
        last: u32,
        check: &mut dyn FnMut(&mut Position),
        played: &mut Vec<String>,
    ) -> bool {
        if pos.fullmove_number() > last {
            return true;
        }
        let mut moves = actions(pos);
        // Shuffle (Fisher-Yates with xorshift64).
        for i in (1..moves.len()).rev() {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            moves.swap(i, (*seed % (i as u64 + 1)) as usize);
        }
        for mv in moves {
            played.push(pos.long_notation(mv));
            pos.make(mv);
            check(pos);
            if go(pos, seed, last, check, played) {
                return true;
            }
            pos.unmake();
            played.pop();
        }
        false
    }
    let mut pos = at(game, "start");
    let mut seed = seed;
    let mut played = Vec::new();
    assert!(go(&mut pos, &mut seed, turns, check, &mut played), "no game of {turns} turns found");
    played
}

/// "Since you must move a piece every turn, and you must place a square every turn, it follows
/// that the number of squares on the board will be constant. By a happy coincidence, this
/// number turns out to be 38." A seeded random game of 30 turns: after every action the count
/// is 32 plus the placements so far, until 38 at the end of turn 3; from turn 4 it is 38 at each
/// turn's start and 37 between the piece move and the placement. Position strings read back.
#[test]
fn the_square_count_is_38_from_the_fourth_turn() {
    for game in [INFINITE, OCCUPIED] {
        let mut turn_starts = 0;
        let played = random_game(game, 0x5EED_0038_u64 ^ game.len() as u64, 30, &mut |pos| {
            if pos.action_index() == 0 {
                turn_starts += 1;
                let full = pos.fullmove_number() as usize;
                let black = usize::from(pos.side_to_move() == BLACK);
                let placed = (2 * (full - 1) + black).min(6);
                assert_eq!(pos.square_count(), 32 + placed, "{}", pos.to_position_string());
            } else if pos.fullmove_number() >= 4 {
                assert_eq!(pos.square_count(), 37, "{}", pos.to_position_string());
            }
            let text = pos.to_position_string();
            let back = Position::from_position_string(pos.rules().clone(), &text).expect("reads back");
            assert_eq!(back.to_position_string(), text);
            assert_eq!(back.hash(), pos.hash(), "{text}");
        });
        assert!(turn_starts >= 60, "{game}: {played:?}");
    }
}

/// Perft from the start by single actions, as measured by the oracle (`--infinite --actions`).
/// Depth 3 is below depth 2: after `1. @@X` and a Black placement White usually has no piece
/// move, hence no action.
#[test]
fn perft_by_actions() {
    let mut pos = at(INFINITE, "start");
    let counts: Vec<u64> = (1..=5).map(|d| perft(&mut pos, d)).collect();
    assert_eq!(counts, [32, 756, 736, 10_090, 236_604]);
    assert_eq!(pos.to_position_string(), START);
}

/// Perft from the start by complete turns (`perft_turns`), as measured by the oracle
/// (`--infinite`): turns that cannot be completed count for nothing.
#[test]
fn perft_by_turns() {
    let mut pos = at(INFINITE, "start");
    let counts: Vec<u64> = (1..=3).map(|d| perft_turns(&mut pos, d).expect("turns end")).collect();
    assert_eq!(counts, [32, 2_976, 391_260]);
}

/// The opening game `tests/games/infinite-reserves-opening.txt` replays, checking the removal of
/// squares from turn 4 on the way.
#[test]
fn game_opening_replays() {
    let moves = game_moves("infinite-reserves-opening.txt");
    let mut pos = at(INFINITE, "start");
    play(&mut pos, &moves.join(" "));
    assert_eq!(pos.square_count(), 38);
    assert_eq!(pos.outcome(), None);
    assert_eq!(
        pos.to_position_string(),
        "rnbq*rk*/ppp1bppp/**1pp**1/***n****/***2***/**NPPN**/PPP*BPPP/R*BQ*RK1 w - - 8 8 - h6,c6 1 -"
    );
}
