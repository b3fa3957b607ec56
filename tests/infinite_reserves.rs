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

use common::{game_moves, has, legal, play};

use varia_interpreter::ir::{CellId, PlayerId};
use varia_interpreter::{perft, perft_turns, EndReason, GameResult, Move, MoveKind, Position};

const WHITE: PlayerId = PlayerId(0);
const BLACK: PlayerId = PlayerId(1);

const INFINITE: &str = "infinite-reserves.var";
const OCCUPIED: &str = "moving-occupied-squares.var";

/// The start of both games: only the 32 squares under the armies, unlimited reserves, action 1
/// of White's first turn, nothing touched.
const START: &str = "rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 1 - - 1 -";

/// A position of the game (`INFINITE` or `OCCUPIED`) from a position string, or `start`.
fn at(game: &str, text: &str) -> Position {
    common::position(&common::rules(game), text)
}

/// The position after the actions, from a position string (or `start`).
fn after(game: &str, text: &str, actions: &str) -> Position {
    let mut pos = at(game, text);
    play(&mut pos, actions);
    pos
}

/// Snapshots the position string and the sorted legal actions under `name`, checks that the
/// string reads back as the same position with the same actions, and returns the actions.
fn snap(name: &str, pos: &mut Position) -> Vec<String> {
    let moves = legal(pos);
    let text = pos.to_position_string();
    let mut back = Position::from_position_string(pos.rules().clone(), &text).expect("reads back");
    assert_eq!(back.to_position_string(), text);
    assert_eq!(back.hash(), pos.hash(), "{text}");
    assert_eq!(legal(&mut back), moves, "{text}");
    insta::assert_snapshot!(name, format!("{text}\n--\n{}", moves.join("\n")));
    moves
}

/// The location named `name`.
fn cell(pos: &Position, name: &str) -> CellId {
    pos.rules().cell_by_name(name).unwrap_or_else(|| panic!("no location {name}"))
}

/// Whether the location has a square.
fn square(pos: &Position, name: &str) -> bool {
    pos.has_square(cell(pos, name))
}

/// The letter of the piece on the location, if any.
fn on(pos: &Position, name: &str) -> Option<char> {
    pos.piece_at(cell(pos, name)).map(|p| pos.rules().piece_letter(p))
}

/// Names of locations, in order.
fn names(pos: &Position, cells: &[CellId]) -> Vec<String> {
    cells.iter().map(|c| pos.rules().cell_name(*c).to_string()).collect()
}

/// The legal actions as moves.
fn actions(pos: &mut Position) -> Vec<Move> {
    let mut out = Vec::new();
    pos.legal_moves(&mut out);
    out
}

/// The kinds of the legal actions: piece moves, square moves (empty or carrying), placements.
fn kinds(pos: &mut Position) -> (usize, usize, usize, usize) {
    let (mut piece, mut moved, mut placed, mut end) = (0, 0, 0, 0);
    for mv in actions(pos) {
        match mv.kind {
            MoveKind::MoveSquare | MoveKind::CarrySquare => moved += 1,
            MoveKind::PlaceSquare => placed += 1,
            MoveKind::EndTurn => end += 1,
            _ => piece += 1,
        }
    }
    (piece, moved, placed, end)
}

/// The number of locations without a square.
fn holes(pos: &Position) -> usize {
    pos.rules().cell_count() - pos.square_count()
}

/// Board rows of a position string as one character per location (rank 8 first), for editing.
fn expand(text: &str) -> (Vec<char>, String) {
    let (board, rest) = text.split_once(' ').expect("fields");
    let mut cells = Vec::new();
    for ch in board.chars() {
        match ch {
            '/' => {}
            d if d.is_ascii_digit() => cells.extend(std::iter::repeat_n('1', d.to_digit(10).unwrap() as usize)),
            c => cells.push(c),
        }
    }
    assert_eq!(cells.len(), 64, "{text}");
    (cells, rest.to_string())
}

/// The inverse of [`expand`].
fn compress(cells: &[char], rest: &str) -> String {
    let mut rows = Vec::new();
    for row in cells.chunks(8) {
        let mut s = String::new();
        let mut run = 0;
        for &c in row {
            if c == '1' {
                run += 1;
                continue;
            }
            if run > 0 {
                s.push_str(&run.to_string());
                run = 0;
            }
            s.push(c);
        }
        if run > 0 {
            s.push_str(&run.to_string());
        }
        rows.push(s);
    }
    format!("{} {rest}", rows.join("/"))
}

/// The index of a location in [`expand`]'s order.
fn index(name: &str) -> usize {
    let b = name.as_bytes();
    (b'8' - b[1]) as usize * 8 + (b[0] - b'a') as usize
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

// =============================================================================================
// Moving Occupied Squares
// =============================================================================================

/// "An occupied square moves just one space" (added to The Game of Infinite Reserves): on the
/// first turn White has no piece move and no empty square, but each pawn's square may step to
/// one of the holes in front of it, carrying the pawn: 22 first actions (6 x 3 + 2 x 2), each
/// followed by 32 placements (31 holes between the armies and the one just left): 704 first
/// turns.
#[test]
fn occupied_first_turn_is_a_pawn_carry_then_a_placement() {
    let mut pos = at(OCCUPIED, "start");
    assert_eq!(pos.to_position_string(), START);
    let moves = snap("occupied_white_first_actions", &mut pos);
    assert_eq!(moves.len(), 22);
    assert!(actions(&mut pos).iter().all(|m| m.kind == MoveKind::CarrySquare));
    assert_eq!(perft_turns(&mut pos, 1).expect("turns end"), 704);
    play(&mut pos, "@e2-e3");
    assert_eq!((on(&pos, "e3"), square(&pos, "e2")), (Some('P'), false));
    assert_eq!(kinds(&mut pos), (0, 0, 32, 0), "the carry was the turn's square move");
}

/// "Empty squares move 2 spaces, same as in Hans38. An occupied square moves just one space."
/// The knight's square on d4 steps to any of the eight holes around it, carrying the knight;
/// the empty square on a1 leaps up to two locations. The carried square keeps the piece and
/// leaves a hole: the square count does not change.
#[test]
fn an_occupied_square_steps_one_location_carrying_its_piece() {
    let text = "****k***/********/******n*/********/***N****/********/********/1***K*** w - - 0 5 - - 2 -";
    let mut pos = at(OCCUPIED, text);
    let moves = snap("occupied_carry_one_step", &mut pos);
    let carries: Vec<&String> = moves.iter().filter(|m| m.starts_with("@d4-")).collect();
    assert_eq!(carries.len(), 8);
    assert_eq!(moves.iter().filter(|m| m.starts_with("@a1-")).count(), 8);
    let count = pos.square_count();
    play(&mut pos, "@d4-e5");
    assert_eq!((on(&pos, "e5"), square(&pos, "d4")), (Some('N'), false));
    assert_eq!(pos.square_count(), count);
}

/// "You can only move squares occupied by friendly pieces." In the position above the black
/// knight's square on g6 has holes all round, but White cannot move it; Black can, on its turn.
#[test]
fn only_squares_holding_a_friendly_piece_move() {
    let text = "****k***/********/******n*/********/***N****/********/********/1***K*** w - - 0 5 - - 2 -";
    let mut pos = at(OCCUPIED, text);
    assert!(legal(&mut pos).iter().all(|m| !m.starts_with("@g6")));
    let mut pos = at(OCCUPIED, &text.replace(" w ", " b "));
    let moves = snap("occupied_black_carries", &mut pos);
    assert_eq!(moves.iter().filter(|m| m.starts_with("@g6-")).count(), 8);
    assert!(moves.iter().all(|m| !m.starts_with("@d4")));
}

/// "The square the King is on cannot move." Neither king's square is ever carried, though
/// both stand among holes (above, and here).
#[test]
fn the_kings_square_cannot_move() {
    let text = "****k***/********/********/********/********/********/********/****K*** w - - 0 5 - - 2 -";
    let mut pos = at(OCCUPIED, text);
    assert!(legal(&mut pos).iter().all(|m| m.starts_with("@@")), "straight to the placement");
    let mut pos = at(OCCUPIED, &text.replace(" w ", " b "));
    assert!(legal(&mut pos).iter().all(|m| m.starts_with("@@")));
}

/// Ruling: the squares the opponent just touched cannot be carried either. Black moved a square
/// to d4 and placed c6; White's knight may move onto d4, but then that square is frozen: only
/// the bishop's square can be carried.
#[test]
fn the_touched_squares_cannot_be_carried() {
    let text = "****k***/********/**1*****/********/***1****/*N******/******B*/****K*** w - - 0 5 - d4,c6 1 -";
    let mut pos = at(OCCUPIED, text);
    assert_eq!(legal(&mut pos), ["Nb3-d4"]);
    play(&mut pos, "Nb3-d4");
    let moves = snap("occupied_frozen_square_not_carried", &mut pos);
    assert_eq!(moves.len(), 8);
    assert!(moves.iter().all(|m| m.starts_with("@g2-")));
}

/// Ruling: a carried rook has moved and loses its castling right (so does a rook carried back
/// later); the king is never carried.
#[test]
fn a_carried_rook_loses_castling() {
    let text = "****k***/********/********/********/********/********/********/R3K2R w KQ - 0 5 - - 2 -";
    let mut pos = at(OCCUPIED, text);
    let moves = snap("occupied_rooks_carried", &mut pos);
    assert!(has(&moves, "@h1-h2") && has(&moves, "@a1-a2"));
    assert!(moves.iter().all(|m| !m.starts_with("@e1")));
    play(&mut pos, "@h1-h2");
    assert_eq!(on(&pos, "h2"), Some('R'));
    let text = pos.to_position_string();
    assert!(text.contains(" w Q - "), "{text}");
}

/// Ruling: a pawn carried onto its last rank promotes, one action per choice (`@g7-g8=Q`, `=R`,
/// `=B`, `=N`), straight or diagonally; carried elsewhere it stays a pawn. Black's pawns too.
/// Carrying a pawn resets the fifty-move count, as a pawn move does.
#[test]
fn a_pawn_carried_onto_its_last_rank_promotes() {
    let text = "k*******/******P*/********/********/********/********/********/****K*** w - - 0 5 - - 2 -";
    let mut pos = at(OCCUPIED, text);
    let moves = snap("occupied_carry_promotes", &mut pos);
    assert_eq!(moves.len(), 3 * 4 + 5);
    for m in ["@g7-g8=Q", "@g7-g8=R", "@g7-g8=B", "@g7-g8=N", "@g7-f8=Q", "@g7-h8=N", "@g7-g6", "@g7-h7"] {
        assert!(has(&moves, m), "{m}");
    }
    assert!(!has(&moves, "@g7-g8"));
    play(&mut pos, "@g7-g8=Q");
    assert_eq!(on(&pos, "g8"), Some('Q'));
    // A carried pawn has moved: the fifty-move count starts again (a carried knight does not
    // reset it).
    assert_eq!(after(OCCUPIED, &text.replace(" 0 5 ", " 7 5 "), "@g7-g6").halfmove_clock(), 0);
    let knight = "****k***/********/********/********/***N****/********/********/****K*** w - - 7 5 - - 2 -";
    assert_eq!(after(OCCUPIED, knight, "@d4-d5").halfmove_clock(), 7);
    let mut pos =
        at(OCCUPIED, "****k***/********/********/********/********/********/*p******/****K*** b - - 0 5 - - 2 -");
    play(&mut pos, "@b2-a1=N");
    assert_eq!(on(&pos, "a1"), Some('n'));
}

/// Ruling: a pawn carried along its second rank keeps its double step (which depends on the
/// rank only). White carries d2 to c2; on its next turn `c2-c4` is legal.
#[test]
fn a_pawn_carried_along_its_second_rank_keeps_the_double_step() {
    let text = "1***k1**/********/********/********/**1*****/**1*****/***P****/****K*** w - - 0 5 - - 2 -";
    let mut pos = after(OCCUPIED, text, "@d2-c2 @@h4 Ke8-f8 @a8-a6 @@h6");
    let moves = legal(&mut pos);
    assert!(has(&moves, "c2-c4") && has(&moves, "c2-c3"), "{moves:?}");
}

/// Ruling: carrying never creates an en passant chance. White's pawn goes from e2 to e4 in one
/// turn, by `e2-e3` and then a carry, and a square is placed back on e3: Black's pawn on d4
/// cannot take en passant (it could after `e2-e4`).
#[test]
fn carrying_creates_no_en_passant() {
    let text = "****k1**/********/********/********/***p****/****1***/****P***/****K1** w - - 0 5 - - 1 -";
    let mut pos = after(OCCUPIED, text, "e2-e3 @e3-e4 @@e3");
    assert_eq!(on(&pos, "e4"), Some('P'));
    assert!(pos.en_passant().is_none());
    let moves = snap("occupied_no_en_passant_after_a_carry", &mut pos);
    assert!(!has(&moves, "d4xe3"));
}

/// Ruling: carrying the double-stepped pawn away cancels en passant. With a square placed back
/// on e4 (empty) Black has no capture.
#[test]
fn carrying_the_double_stepper_away_cancels_en_passant() {
    let text = "****k1**/********/********/********/***p1***/****1***/****P***/****K1** w - - 0 5 - - 1 -";
    let mut pos = after(OCCUPIED, text, "e2-e4 @e4-f5 @@e4");
    assert!(!has(&legal(&mut pos), "d4xe3"));
}

/// The same with the location e4 left without a square (placement elsewhere): no capture.
#[test]
fn carrying_the_double_stepper_away_leaving_a_hole_cancels_en_passant() {
    let text = "****k1**/********/********/********/***p1***/****1***/****P***/****K1** w - - 0 5 - - 1 -";
    let mut pos = after(OCCUPIED, text, "e2-e4 @e4-f5 @@c3");
    assert_eq!(legal(&mut pos), ["Ke8-f8"]);
}

/// Ruling (a consequence): a carry can neither expose nor shield a king, since the location it
/// leaves becomes a hole. On move 3 the bishop on e2 cannot leave the e-file by a piece move,
/// but its square can be carried off the file with it.
#[test]
fn a_pinned_piece_may_be_carried() {
    let text = "****r**k/****1***/****1***/****1***/****1***/*1**1***/****B***/N***K1** w - - 0 3 - - 1 -";
    let mut pos = at(OCCUPIED, text);
    let moves = legal(&mut pos);
    assert!(!has(&moves, "Be2-f1") && has(&moves, "Na1-b3"), "{moves:?}");
    play(&mut pos, "Na1-b3");
    let moves = snap("occupied_pinned_bishop_carried", &mut pos);
    for m in ["@e2-d1", "@e2-d2", "@e2-d3", "@e2-f2", "@e2-f3"] {
        assert!(has(&moves, m), "{m}");
    }
    play(&mut pos, "@e2-d3");
    assert!(!pos.in_check() && !square(&pos, "e2"));
}

/// Ruling 13: a square carried by the occupied-square move does not count as left: on move 5
/// the carried square moves with its piece, and the count stays the same.
#[test]
fn a_carried_square_is_not_removed() {
    let text = "****k***/********/********/********/***N****/********/********/****K*** w - - 0 5 - - 2 -";
    let pos = after(OCCUPIED, text, "@d4-d5");
    assert!(square(&pos, "d5") && !square(&pos, "d4"));
    assert_eq!(pos.square_count(), 3);
}

/// "Add this rule to The Game of Infinite Reserves, and you get a real slugfest; quintuple
/// check should be possible." Each action adds checks: on move 3 (squares still stay)
/// `Ne6-c7` checks with the knight and uncovers the rook on e1, the carry `@f6-f7` brings a
/// pawn to f7, and the placement `@@d7` completes the bishop's diagonal from a4: four pieces
/// check the king on e8, and it is mate. (Each action can add at most the checks counted here,
/// so four seems to be the most.)
#[test]
fn a_turn_can_give_quadruple_check() {
    let text = "****k***/**1*1***/**1*NP**/*1**1*N*/B***1***/****1***/****1***/****R**K w - - 0 3 - - 1 -";
    let mut pos = at(OCCUPIED, text);
    let e8 = cell(&pos, "e8");
    assert!(!pos.is_attacked(e8, WHITE));
    play(&mut pos, "Ne6-c7 @f6-f7 @@d7");
    assert!(pos.in_check());
    assert_eq!(pos.outcome(), Some((GameResult::Win(WHITE), EndReason::Checkmate)));
    // Each of the four pieces checks on its own: remove the other three.
    let (cells, rest) = expand(&pos.to_position_string());
    let checkers = ["c7", "e1", "f7", "a4"];
    for keep in checkers {
        let mut alone = cells.clone();
        for other in checkers.iter().filter(|c| **c != keep) {
            alone[index(other)] = '1';
        }
        let single = at(OCCUPIED, &compress(&alone, &rest));
        assert!(single.is_attacked(e8, WHITE), "{keep} alone checks: {}", single.to_position_string());
    }
    let mut none = cells.clone();
    for c in checkers {
        none[index(c)] = '1';
    }
    assert!(!at(OCCUPIED, &compress(&none, &rest)).is_attacked(e8, WHITE));
}

/// Perft from the start by single actions and by turns, as measured by the oracle
/// (`--occupied --actions`, `--occupied`).
#[test]
fn occupied_perft() {
    let mut pos = at(OCCUPIED, "start");
    let counts: Vec<u64> = (1..=4).map(|d| perft(&mut pos, d)).collect();
    assert_eq!(counts, [22, 704, 11_880, 366_476]);
    assert_eq!(perft_turns(&mut pos, 1).expect("turns end"), 704);
}

/// The opening game `tests/games/moving-occupied-opening.txt` replays.
#[test]
fn game_occupied_opening_replays() {
    let moves = game_moves("moving-occupied-opening.txt");
    let mut pos = at(OCCUPIED, "start");
    play(&mut pos, &moves.join(" "));
    assert_eq!(
        pos.to_position_string(),
        "rnb1kbnr/pppp*ppp/**2q***/***pN***/****1***/*1***1**/PPPPQPPP/RNB*KB1R w KQkq - 0 5 - d7,d8 1 -"
    );
}
