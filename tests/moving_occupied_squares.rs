//! Moving Occupied Squares (Ralph Betza, "Chess with a Limited Supply of Squares",
//! `shared/rules/limited-supply-of-squares.txt`): a scenario for each rule sentence of the
//! section and each ruling recorded in `docs/variants/moving-occupied-squares.md`, the legal
//! actions snapshotted. The Game of Infinite Reserves it adds to is in tests/infinite_reserves.rs,
//! which says how turns and position strings are written; every snapshotted list here was
//! compared with the oracle `tools/hans38-oracle/perft.py --occupied moves --actions --pos ...`.

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
