//! Hans38 with Neutral Squares and Hans38 under the Postal and Postal Plus Rules (Ralph Betza,
//! "Chess with a Limited Supply of Squares", `shared/rules/limited-supply-of-squares.txt`): a
//! scenario for each rule sentence of the Neutral Squares section and of the Postal Rule, and
//! each ruling recorded in `docs/variants/hans38-neutral.md` and `hans38-postal.md`. The Basic
//! Game and Hans38 Chess are in tests/hans38.rs, which says how the position strings read; the
//! move-list snapshots here are checked against the oracle in the same way
//! (`python3 tools/hans38-oracle/snapshots.py`).

mod common;
#[path = "hans38/helpers.rs"]
mod helpers;

use helpers::*;

/// Snapshots the game file, the position string and the sorted legal moves under `name`
/// (insta names the snapshot after this file), and returns the moves.
fn snap(name: &str, file: &str, pos: &mut Position) -> Vec<String> {
    let (text, moves) = move_list(file, pos);
    insta::assert_snapshot!(name, text);
    moves
}

// =============================================================================================
// Hans38 with Neutral Squares
// =============================================================================================

/// "What if we get rid of the rule about ownership of squares, and just let anybody move any
/// empty square (except, of course, the one just moved by the other player)". After `1. @@d4`
/// Black may move White's placed square (a square just placed is not one "just moved"). Empty
/// squares have no owner: the position string writes them as digits.
#[test]
fn neutral_anyone_moves_any_empty_square() {
    let mut pos = after(NEUTRAL, "start", "@@d4");
    assert_eq!(
        pos.to_position_string(),
        "rnbqkbnr/pppppppp/********/********/***1****/********/PPPPPPPP/RNBQKBNR b KQkq - 1 1 2,3 -"
    );
    assert_eq!(owner(&pos, "d4"), None);
    let moves = snap("neutral_after_d4", NEUTRAL, &mut pos);
    assert!(has(&moves, "@d4-d6") && has(&moves, "@d4-d3"));
    assert_eq!(square_moves(&moves).len(), 19);
    assert_eq!(placements(&moves).len(), 31);
    // Black's squares are White's to move too.
    let mut pos = after(NEUTRAL, "start", "@@a3 @@h6");
    assert!(has(&legal(&mut pos), "@h6-f5"));
}

/// "... except, of course, the one just moved by the other player" and the text's example:
/// `1. @@f3 @@f6 2. Ng1-f3 Ng8-f6 3. @@e3 @e3-d5`: "Black has 'stolen' this square; White can't
/// move it right now". One turn later it is free again.
#[test]
fn neutral_the_square_just_moved_cannot_be_moved() {
    let moves = game_moves("hans38-neutral-opening.txt");
    let mut pos = at(NEUTRAL, "start");
    for m in &moves {
        check_square_rules(&mut pos, false);
        play(&mut pos, m);
    }
    assert_eq!(
        pos.to_position_string(),
        "rnbqkb1r/pppppppp/*****n**/***1****/********/*****N**/PPPPPPPP/RNBQKB1R w KQkq - 6 4 1,2 d5"
    );
    assert_eq!(pos.untouchable_squares(), [cell(&pos, "d5")]);
    let moves = snap("neutral_opening_d5_untouchable", NEUTRAL, &mut pos);
    assert!(square_moves(&moves).iter().all(|m| !m.starts_with("@d5")));
    assert!(has(&moves, "@g1-g3"));
    play(&mut pos, "@@a3 @@a6");
    assert!(has(&legal(&mut pos), "@d5-d4"));
}

/// The text goes on: "Black will continue by moving it to e6 and putting a Pawn on it [...]; but
/// then White must 'recapture' by stealing a square with @e7-f5 then @f5-e3." Played out:
/// `4. @@a3 @d5-e6 5. @a3-a4 e7-e6 6. @e7-f5 @@h6 7. @f5-e3`; after 6. @e7-f5 Black may not move
/// f5.
#[test]
fn neutral_the_texts_continuation() {
    let mut pos = at(NEUTRAL, "start");
    play(&mut pos, "@@f3 @@f6 Ng1-f3 Ng8-f6 @@e3 @e3-d5 @@a3 @d5-e6 @a3-a4 e7-e6 @e7-f5");
    assert_eq!(pos.untouchable_squares(), [cell(&pos, "f5")]);
    let moves = snap("neutral_after_e7_f5", NEUTRAL, &mut pos);
    assert!(square_moves(&moves).iter().all(|m| !m.starts_with("@f5")));
    play(&mut pos, "@@h6 @f5-e3");
    assert_eq!(on(&pos, "e6"), Some('p'));
    assert!(square(&pos, "e3") && !square(&pos, "e7") && !square(&pos, "f5"));
    assert_eq!(pos.square_count(), 32 + 5, "five placements, no square removed");
}

/// "Check and checkmate can be blocked by moving a square", with neutral squares by moving any
/// empty square: the position that is checkmate in Hans38 (the a-file squares Black's) is not
/// checkmate here, where the squares belong to nobody.
#[test]
fn neutral_check_blocked_by_any_square() {
    let mut pos =
        at(NEUTRAL, "r***k***/1*******/1*******/1*******/1*******/1*******/1*******/K******* w - - 0 10 0,0 -");
    assert!(pos.in_check());
    let moves = legal(&mut pos);
    assert!(has(&moves, "@a4-c4"));
    assert_eq!(moves.len(), square_moves(&moves).len());
    assert_eq!(pos.outcome(), None);
}

/// Perft from the start: 32, 1448, 71506 (the oracle's counts). Depth 2 is Hans38's 1004 plus
/// Black's moves of White's placed square (444 of them).
#[test]
fn neutral_perft_from_the_start() {
    let mut pos = at(NEUTRAL, "start");
    assert_eq!([1, 2, 3].map(|d| perft(&mut pos, d)), [32, 1448, 71506]);
}

// =============================================================================================
// The Postal Rule and the Postal Plus Rule
// =============================================================================================

/// The Postal start: the Hans38 start and the action fields (action 1 due, nothing touched).
#[test]
fn postal_position_strings_have_the_action_fields() {
    for file in [POSTAL, PLUS] {
        let pos = at(file, "start");
        assert_eq!(pos.to_position_string(), format!("{START} 1 -"));
        assert_eq!(pos.action_index(), 0);
    }
}

/// "On the first move of the game, there is no penalty if you cannot move a piece (otherwise,
/// White might be stalemated and lose the game in the opening position, which would be no
/// fun)." White's first turn is a placement (there is no square to move), which ends the turn.
/// There is no `end` at the start of a turn.
#[test]
fn postal_first_turn_without_a_piece_move() {
    for (file, name) in [(POSTAL, "postal_start"), (PLUS, "postal_plus_start")] {
        let mut pos = at(file, "start");
        let moves = snap(name, file, &mut pos);
        assert_eq!(moves.len(), 32);
        assert_eq!(placements(&moves).len(), 32);
        play(&mut pos, "@@d4");
        assert_eq!((pos.side_to_move(), pos.action_index()), (BLACK, 0), "{file}");
        // Black's first turn, no piece move either: its placement too.
        let moves = legal(&mut pos);
        assert_eq!(moves.len(), 31);
        assert_eq!(placements(&moves).len(), 31);
    }
}

/// The exemption is only for a player who cannot move a piece (ruling): after `1. @@a6` Black
/// can take the square with a pawn or knight, and must; it may then move or place a square or
/// stop (`end`).
#[test]
fn postal_first_turn_with_a_piece_move_must_move_it() {
    for (file, name) in [(POSTAL, "postal_first_black_turn"), (PLUS, "postal_plus_first_black_turn")] {
        let mut pos = after(file, "start", "@@a6");
        let moves = snap(name, file, &mut pos);
        assert_eq!(moves, ["Nb8-a6", "a7-a6"], "{file}");
        play(&mut pos, "a7-a6");
        assert_eq!((pos.side_to_move(), pos.action_index()), (BLACK, 1));
        let moves = legal(&mut pos);
        // a7 leaps to a5, b5, c5, b6, c6; 31 holes to place on; or stop.
        assert_eq!(square_moves(&moves), ["@a7-a5", "@a7-b5", "@a7-b6", "@a7-c5", "@a7-c6"]);
        assert_eq!(placements(&moves).len(), 31);
        assert!(has(&moves, "end"));
        assert_eq!(moves.len(), 37);
    }
}

/// "The basic rules are modified to allow the players to take two (or even three) actions per
/// turn: first move a piece and then either move or place a square" / "Note that the rule is not
/// to move the square first because that would become too similar to FIDE Chess." Postal: the
/// turn's first action is a piece move only (no square move or placement among them); then a
/// square move, a placement, or `end`; either square action ends the turn.
#[test]
fn postal_turn_is_a_piece_move_then_a_square_move_or_placement() {
    let mut pos = after(POSTAL, "start", "@@f3 @@f6 Ng1-f3 @@e3 Ng8-f6 @g8-e6");
    assert_eq!(
        pos.to_position_string(),
        "rnbqkb*r/pppppppp/****-n**/********/********/****+N**/PPPPPPPP/RNBQKB+R w KQkq - 4 3 1,2 e6 1 -"
    );
    assert_eq!(pos.halfmove_clock(), 4, "four turns, six actions: the move clock counts turns");
    let moves = snap("postal_first_action", POSTAL, &mut pos);
    assert_eq!(moves.len(), piece_moves(&moves).len());
    assert!(has(&moves, "e2-e3") && has(&moves, "Nf3-g1"));
    // In Hans38 the same position also has g1's square moves.
    let mut basic =
        at(HANS38, "rnbqkb*r/pppppppp/****-n**/********/********/****+N**/PPPPPPPP/RNBQKB+R w KQkq - 4 3 1,2 e6");
    let basic_moves = legal(&mut basic);
    assert_eq!(piece_moves(&basic_moves), piece_moves(&moves));
    assert!(!square_moves(&basic_moves).is_empty());
    play(&mut pos, "e2-e3");
    assert_eq!((pos.side_to_move(), pos.action_index(), pos.halfmove_clock()), (WHITE, 1, 0));
    let moves = snap("postal_second_action", POSTAL, &mut pos);
    assert!(piece_moves(&moves).is_empty() && has(&moves, "end"));
    assert_eq!(moves.len(), square_moves(&moves).len() + placements(&moves).len() + 1);
    assert!(has(&moves, "@e2-e4") && has(&moves, "@g1-g3") && has(&moves, "@@d4"));
    for m in ["@e2-e4", "@@d4", "end"] {
        let mut p = pos.clone();
        play(&mut p, m);
        assert_eq!(
            (p.side_to_move(), p.action_index(), p.fullmove_number(), p.halfmove_clock()),
            (BLACK, 0, 3, 0),
            "{m}"
        );
        assert!(piece_moves(&legal(&mut p)).len() == legal(&mut p).len(), "{m}");
    }
}

/// Postal Plus: "first move a piece and then either move or place a square, or even do both (if
/// you can do both, it's the Postal Plus rule)": after the piece move a square move, a
/// placement (leaving the square move out) or `end`; after a square move a placement or `end`;
/// a placement ends the turn. Never two square moves, never a placement before a square move.
#[test]
fn postal_plus_turn_is_a_piece_move_then_a_square_move_then_a_placement() {
    let mut pos = after(PLUS, "start", "@@f3 @@f6 Ng1-f3 @@e3 Ng8-f6 @g8-e6 @@d6");
    assert_eq!(
        pos.to_position_string(),
        "rnbqkb*r/pppppppp/***--n**/********/********/****+N**/PPPPPPPP/RNBQKB+R w KQkq - 4 3 1,1 e6 1 -"
    );
    play(&mut pos, "e2-e3");
    let moves = snap("postal_plus_second_action", PLUS, &mut pos);
    assert!(piece_moves(&moves).is_empty() && has(&moves, "end"));
    assert!(has(&moves, "@e2-e4") && has(&moves, "@@d4"));
    play(&mut pos, "@e2-e4");
    assert_eq!((pos.side_to_move(), pos.action_index()), (WHITE, 2));
    assert_eq!(pos.touched_squares(), [cell(&pos, "e4")]);
    assert!(pos.to_position_string().ends_with(" 3 e4"));
    let moves = snap("postal_plus_third_action", PLUS, &mut pos);
    assert_eq!(moves.len(), placements(&moves).len() + 1);
    assert!(has(&moves, "end") && has(&moves, "@@e2"));
    play(&mut pos, "@@e2");
    assert_eq!((pos.side_to_move(), pos.action_index(), pos.reserve(WHITE)), (BLACK, 0, Some(0)));
    // A placement straight after the piece move ends the turn too.
    let mut pos = after(PLUS, "start", "@@f3 @@f6 Ng1-f3 @@e3 Ng8-f6 @g8-e6 @@d6 e2-e3 @@d4");
    assert_eq!((pos.side_to_move(), pos.action_index()), (BLACK, 0));
    assert_eq!(legal(&mut pos).len(), piece_moves(&legal(&mut pos)).len());
}

/// "After that, you must move a piece or lose by stalemate; this is different from the basic
/// game because moving a square does not count as avoidance of stalemate." After `1. @@d4 @@e5`
/// no White piece can reach a square: White has no legal action although its square on d4 is
/// empty and could move (as it may in Hans38), and loses by stalemate.
#[test]
fn postal_a_player_who_cannot_move_a_piece_is_stalemated() {
    for file in [POSTAL, PLUS] {
        let mut pos = after(file, "start", "@@d4 @@e5");
        assert_eq!(pos.fullmove_number(), 2);
        assert!(!pos.in_check());
        assert!(legal(&mut pos).is_empty(), "{file}");
        assert_eq!(pos.outcome(), Some((GameResult::Win(BLACK), EndReason::Stalemate)), "{file}");
    }
    let moves = legal(&mut after(HANS38, "start", "@@d4 @@e5"));
    assert!(has(&moves, "@d4-d6") && piece_moves(&moves).is_empty());
}

/// The check rule under the Postal Rule (ruling): every action must leave the mover's king safe,
/// so a check must be met by the piece move; a square move cannot block it, since it may only
/// follow the piece move. The position where Hans38's White blocks by moving a square is
/// checkmate here. A pinned knight may not move even though a square move could then close the
/// line again.
#[test]
fn postal_check_must_be_met_by_the_piece_move() {
    for file in [POSTAL, PLUS] {
        let mut pos =
            at(file, "r***k***/+*******/+*******/+*******/+*******/+*******/+*******/K******* w - - 0 10 1,0 - 1 -");
        assert!(pos.in_check() && legal(&mut pos).is_empty(), "{file}");
        assert_eq!(pos.outcome(), Some((GameResult::Win(BLACK), EndReason::Checkmate)));
        let mut pos =
            at(file, "****r*k*/****+***/****+***/****+***/****N***/**+*+***/****+***/****K*** w - - 0 10 0,0 - 1 -");
        assert_eq!(legal(&mut pos), ["Ke1-e2"], "{file}");
    }
}

/// "A turn ends by itself after its last possible action" (docs/variants/hans38-postal.md): a
/// piece move after which no square action is possible (every location holds a square, no
/// squares in reserve) ends the turn, and so does a Postal Plus square move with no square left
/// in reserve. Found by the independent oracle (`tools/hans38-oracle/compare.py --modes
/// postal,postal-plus`), which reads the page this way.
#[test]
fn postal_turn_ends_by_itself_when_no_square_action_is_possible() {
    let full = "----k---/--------/--------/--------/++++++++/++++++++/++++++++/++++K+++ w - - 0 2 0,0 - 1 -";
    for file in [POSTAL, PLUS] {
        let pos = after(file, full, "Ke1-e2");
        assert_eq!(pos.side_to_move(), BLACK, "{file}: {}", pos.to_position_string());
    }
    let holes = "----k---/--------/--------/--------/++++++++/++++++++/++++++++/++++K+** w - - 0 2 0,0 - 1 -";
    let pos = after(PLUS, holes, "Ke1-e2 @f1-g1");
    assert_eq!(pos.side_to_move(), BLACK, "{}", pos.to_position_string());
}

/// A short Postal game (`tests/games/hans38-postal-opening.txt`): first turns of one placement,
/// then turns of a piece move and a square move, a placement, or `end`. Every action obeys the
/// square rules, and the game ends as written. It is not a Postal Plus game: there Black's
/// second turn goes on after `@g8-e6` (a placement may follow), so `e2-e3` is not yet White's.
#[test]
fn postal_game_replays() {
    let moves = game_moves("hans38-postal-opening.txt");
    let mut pos = at(POSTAL, "start");
    for m in &moves {
        check_square_rules(&mut pos, true);
        play(&mut pos, m);
        assert_eq!(pos.outcome(), None, "{m}");
    }
    assert_eq!(
        pos.to_position_string(),
        "rnb-k**r/pppqbppp/***ppn-*/********/***+****/**+PPN**/PPPNBPPP/R*BQK*+R w KQkq - 3 7 0,1 - 1 -"
    );
    let mut plus = at(PLUS, "start");
    let at_e3 = moves.iter().position(|m| m == "e2-e3").unwrap();
    for m in &moves[..at_e3] {
        play(&mut plus, m);
    }
    assert_eq!((plus.side_to_move(), plus.action_index()), (BLACK, 2));
    assert!(plus.parse_move("e2-e3").is_err());
}

/// En passant under the Postal Rules (ruling, as the oracle's ruling 14 for turns of several
/// actions): a double step followed by a square action leaves the en passant capture to the
/// opponent, unless the same turn moves the passed square away. That cancels it for good, even
/// if (Postal Plus) a new square is then placed on the passed location. Here the black pawn's
/// only move is the capture, so without it Black is stalemated.
#[test]
fn postal_en_passant_unless_the_passed_square_moves_away() {
    let start = "****k***/********/********/********/***p+***/****+***/****P***/****K+** w - - 0 10 1,0 - 1 -";
    for file in [POSTAL, PLUS] {
        for turn in ["e2-e4 end", "e2-e4 @f1-f2", "e2-e4 @@a5", "e2-e4 @e2-f3"] {
            let turn = if file == PLUS && !turn.ends_with("end") && !turn.contains("@@") {
                format!("{turn} end")
            } else {
                turn.to_string()
            };
            let mut pos = after(file, start, &turn);
            assert_eq!(legal(&mut pos), ["d4xe3"], "{file}: {turn}");
        }
        let mut pos = after(file, start, "e2-e4 @e3-f3");
        if file == PLUS {
            play(&mut pos, "end");
        }
        assert_eq!(pos.to_position_string().split(' ').nth(3), Some("-"), "{file}");
        assert!(legal(&mut pos).is_empty(), "{file}");
        assert_eq!(pos.outcome(), Some((GameResult::Win(WHITE), EndReason::Stalemate)));
    }
    let mut pos = after(PLUS, start, "e2-e4 @e3-f3 @@e3");
    assert!(square(&pos, "e3") && legal(&mut pos).is_empty());
}

/// Perft counting turns (`perft_turns`) and single actions (`perft`). Turns, depth 2, by hand:
/// for the 24 White placements off rank 6 Black has no piece move and places (31 each, 744);
/// for a placement on rank 6 Black has the 12 piece moves of Hans38, each followed by `end`, a
/// placement (31) or a move of the square the piece left (5, 3, 7, 9, 3, 9, 9, 9, 3, 7, 5, 3:
/// 72 in all). Postal: 744 + 12 x 32 + 72 = 1200. Postal Plus: after the piece move `end`, a
/// placement, or a square move and then `end` or a placement: 32 (1 + s) each, 744 + 32 x 84 =
/// 3432. Actions, depth 2: 744 + 12 = 756.
#[test]
fn postal_perft_from_the_start() {
    let mut pos = at(POSTAL, "start");
    assert_eq!([1, 2, 3].map(|d| perft_turns(&mut pos, d).expect("turns end")), [32, 1200, 33770]);
    assert_eq!([1, 2, 3].map(|d| perft(&mut pos, d)), [32, 756, 1120]);
    let mut pos = at(PLUS, "start");
    assert_eq!([1, 2].map(|d| perft_turns(&mut pos, d).expect("turns end")), [32, 3432]);
    assert_eq!([1, 2, 3].map(|d| perft(&mut pos, d)), [32, 756, 1120]);
}

/// Postal Plus perft 3 in turns (about half a million leaves).
#[test]
fn postal_plus_perft_3_turns() {
    let mut pos = at(PLUS, "start");
    assert_eq!(perft_turns(&mut pos, 3).expect("turns end"), 482918);
}
