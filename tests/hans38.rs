//! Hans38 Chess, Hans38 with Neutral Squares, and Hans38 under the Postal and Postal Plus Rules
//! (Ralph Betza, "Chess with a Limited Supply of Squares", `shared/rules/limited-supply-of-squares.txt`):
//! a scenario for each rule sentence of the Basic Game, of Hans38 Chess, of the Neutral Squares
//! section and of the Postal Rule, the text's sample games, and each ruling recorded in
//! `docs/variants/hans38.md`, `hans38-neutral.md` and `hans38-postal.md`.
//!
//! Position strings: `*` a location without a square (a hole), `+` an empty square of White's,
//! `-` one of Black's, a digit run empty squares of nobody's (the neutral game), then
//! `side castling ep halfmove fullmove reserves untouchable` and, in the Postal games, the
//! action due (1-based) and the squares touched so far this turn. Every move-list snapshot here
//! (Hans38, neutral, Postal and Postal Plus) is checked move for move against the independent
//! oracle by `python3 tools/hans38-oracle/snapshots.py`, which reads the snapshot's position into
//! the oracle (`tools/hans38-oracle`, with its `--postal` and `--postal-plus` modes).

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
// The Basic Game
// =============================================================================================

/// "The rules of FIDE Chess apply except where specifically superseded by the following rules."
/// With a square on every location and nothing in reserve no square can move or be placed, and
/// the game is FIDE chess: the published perft counts of the start and of two standard test
/// positions (empty squares written `+` and `-`, their owners play no part).
#[test]
fn fide_chess_on_a_full_board() {
    let full = "rnbqkbnr/pppppppp/--------/--------/++++++++/++++++++/PPPPPPPP/RNBQKBNR w KQkq - 0 1 0,0 -";
    let mut pos = at(HANS38, full);
    assert_eq!(pos.square_count(), 64);
    assert_eq!([1, 2, 3].map(|d| perft(&mut pos, d)), [20, 400, 8902]);
    // Kiwipete and position 3 of the Chess Programming Wiki.
    let mut pos =
        at(HANS38, "r+++k++r/p+ppqpb+/bn++pnp+/+++PN+++/+p++P+++/++N++Q+p/PPPBBPPP/R+++K++R w KQkq - 0 1 0,0 -");
    assert_eq!([1, 2].map(|d| perft(&mut pos, d)), [48, 2039]);
    let mut pos = at(HANS38, "++++++++/++p+++++/+++p++++/KP+++++r/+R+++p+k/++++++++/++++P+P+/++++++++ w - - 0 1 0,0 -");
    assert_eq!([1, 2, 3].map(|d| perft(&mut pos, d)), [14, 191, 2812]);
}

/// "The normal setup and pieces are used, on the normal 8x8 board; however, only 32 squares (the
/// squares under the initial setup of pieces) are always present on the board. The entire area
/// between the two armies may be empty, with no squares there." In Hans38 it is: ranks 3 to 6
/// have no squares. White owns ranks 1-2, Black ranks 7-8.
#[test]
fn only_32_squares_at_the_start() {
    let pos = at(HANS38, "start");
    assert_eq!(pos.to_position_string(), START);
    assert_eq!(pos.rules().cell_count(), 64);
    assert_eq!(pos.square_count(), 32);
    for f in "abcdefgh".chars() {
        for r in 1..=8 {
            let name = format!("{f}{r}");
            let expected = match r {
                1 | 2 => Some(WHITE),
                7 | 8 => Some(BLACK),
                _ => None,
            };
            assert_eq!(square(&pos, &name), expected.is_some(), "{name}");
            assert_eq!(owner(&pos, &name), expected, "{name}");
        }
    }
    assert_eq!(holes(&pos).len(), 32);
}

/// Position strings of the square games: `*` for a location without a square, `+`/`-` for an
/// empty square of White's/Black's, then the reserves and the untouchable squares; they read
/// back as themselves. Owners only where squares are owned, action fields only where a turn has
/// several actions: both mistakes are located errors.
#[test]
fn position_strings_of_the_square_games() {
    for text in [
        START,
        "****kb*-/*rpbqppr/*pn-pn*p/p*-*B***/****++**/**NP*N**/PPP++PPP/*R*QRBK* b - - 0 24 0,1 -",
        "rnbqkbnr/pppppppp/-*******/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 2 2,2 a6",
    ] {
        assert_eq!(at(HANS38, text).to_position_string(), text);
    }
    let neutral = "rnbqkb1r/pppppppp/*****n**/***1****/********/*****N**/PPPPPPPP/RNBQKB1R w KQkq - 6 4 1,2 d5";
    assert_eq!(at(NEUTRAL, neutral).to_position_string(), neutral);
    let postal = "rnbqkb*r/pppppppp/***--n**/********/****+***/****PN**/PPPP*PPP/RNBQKB+R w KQkq - 0 3 1,1 e6 3 e4";
    assert_eq!(at(PLUS, postal).to_position_string(), postal);
    let e = Position::from_position_string(rules(NEUTRAL), &neutral.replace("***1****", "***+****")).unwrap_err();
    assert!(e.message.contains("this game's squares have no owners"), "{}", e.message);
    let e = Position::from_position_string(rules(HANS38), &format!("{START} 1 -")).unwrap_err();
    assert!(e.message.contains("expected the end of the position string"), "{}", e.message);
}

/// "Jumping pieces (and with the FIDE set of pieces, only Knights are jumping pieces) can leap
/// over empty squares." (The text's "empty squares" here are locations without a square.) The
/// knight on d4 leaps over holes to b5, c6, e6 and e2, but cannot land on b3, c2, f3 or f5,
/// which have no square. From the start, after `1. @@f3 @@f6`, g1 reaches f3 but not h3.
#[test]
fn knights_leap_over_holes() {
    let mut pos =
        at(HANS38, "****k***/********/**-*p***/*-******/***N****/********/****-***/****K*** w - - 0 10 0,0 -");
    let moves = snap("knights_leap_over_holes", HANS38, &mut pos);
    assert_eq!(moves, ["Ke1-e2", "Nd4-b5", "Nd4-c6", "Nd4-e2", "Nd4xe6"]);
    let moves = legal(&mut after(HANS38, "start", "@@f3 @@f6"));
    assert!(has(&moves, "Ng1-f3") && !has(&moves, "Ng1-h3") && !has(&moves, "Nb1-c3"));
}

/// "Long-range pieces require an unbroken string of squares to use their long-range powers. For
/// example, if a Rook on a1 wants to go to a8, there must be a square at a2, and at a3, a4, a5,
/// a6, a7, and a8." With the whole a-file the rook reaches a8 (taking the rook there); without
/// the square at a5 it stops at a4. A bishop or queen stops before a hole in the same way.
#[test]
fn sliders_need_an_unbroken_line_of_squares() {
    let mut pos =
        at(HANS38, "r***k***/-*******/-*******/-*******/-*******/-*******/-*******/R***K*** w - - 0 10 0,0 -");
    let moves = legal(&mut pos);
    assert_eq!(moves, ["Ra1-a2", "Ra1-a3", "Ra1-a4", "Ra1-a5", "Ra1-a6", "Ra1-a7", "Ra1xa8"]);
    let mut pos =
        at(HANS38, "r***k***/-*******/-*******/********/-*******/-*******/-*******/R***K*** w - - 0 10 0,0 -");
    let moves = snap("rook_stops_before_a_hole", HANS38, &mut pos);
    assert_eq!(moves, ["Ra1-a2", "Ra1-a3", "Ra1-a4"]);
    // Bishop c1: d2 present, e3 a hole, f4 present: only d2. With e3 the queen reaches f4.
    let mut pos =
        at(HANS38, "****k***/********/********/********/*****-**/********/***-****/**B*K*** w - - 0 10 0,0 -");
    assert_eq!(targets(&legal(&mut pos), "Bc1"), BTreeSet::from(["d2".to_string()]));
    let mut pos =
        at(HANS38, "****k***/********/********/********/*****-**/****-***/***-****/**Q*K*** w - - 0 10 0,0 -");
    assert_eq!(targets(&legal(&mut pos), "Qc1"), BTreeSet::from(["d2", "e3", "f4"].map(String::from)));
}

/// Attacks follow the moves (ruling): a slider attacks only along an unbroken line of empty
/// squares, a knight over holes. The rook on a8 does not attack a1 or a2 across the hole at a4,
/// so the king may go to a2; White may not fill a4, neither by placing a square there nor by
/// moving one in from b2, since that would complete the line to its own king, but it may move
/// a square from a3 or a2 to a4, which leaves a hole behind on the file.
#[test]
fn attacks_need_an_unbroken_line_of_squares() {
    let mut pos =
        at(HANS38, "r***k***/+*******/+*******/+*******/********/+*******/++******/K******* w - - 0 10 1,0 -");
    assert!(!pos.in_check());
    let moves = snap("attacks_need_an_unbroken_line", HANS38, &mut pos);
    assert!(has(&moves, "Ka1-a2") && has(&moves, "Ka1-b2"));
    assert!(!has(&moves, "@@a4") && has(&moves, "@@b4"));
    assert!(!has(&moves, "@b2-a4"));
    assert!(has(&moves, "@a3-a4") && has(&moves, "@a2-a4"));
    // Perft's last ply counts the same actions (a4 is the one location that opens a line).
    assert_eq!(pos.count_legal(&mut Vec::new()), moves.len() as u64);
    // The same placement is legal for Black, whose king is not on the line.
    let mut pos =
        at(HANS38, "r***k***/+*******/+*******/+*******/********/+*******/++******/K******* b - - 0 10 0,1 -");
    assert!(has(&legal(&mut pos), "@@a4"));
    // A knight checks over holes; no placement can help: checkmate.
    let mut pos =
        at(HANS38, "****k***/********/********/********/********/*n******/********/K******* w - - 0 10 3,0 -");
    assert!(pos.in_check());
    assert!(legal(&mut pos).is_empty());
    assert_eq!(pos.outcome(), Some((GameResult::Win(BLACK), EndReason::Checkmate)));
    // A square move that would complete a line to the own king is illegal; one that leaves a
    // hole on the line is not.
    let mut pos =
        at(HANS38, "****r*k*/****+***/****+***/****+***/********/***++***/****+***/****K*** w - - 0 10 0,0 -");
    assert!(!pos.in_check());
    let moves = legal(&mut pos);
    assert!(!has(&moves, "@d3-e4") && has(&moves, "@d3-d4") && has(&moves, "@e3-e4"));
    assert_eq!(pos.count_legal(&mut Vec::new()), moves.len() as u64);
}

/// A pawn moves only onto squares: the single step needs a square in front, the double step
/// both squares present and empty (ruling; the oracle's ruling 3).
#[test]
fn pawn_double_step_needs_both_squares() {
    let moves = legal(&mut after(HANS38, "start", "@@e4 @@a6"));
    assert!(!has(&moves, "e2-e3") && !has(&moves, "e2-e4"));
    let moves = legal(&mut after(HANS38, "start", "@@e3 @@a6"));
    assert!(has(&moves, "e2-e3") && !has(&moves, "e2-e4"));
    let mut pos = after(HANS38, "start", "@@e3 @@a6 @@e4 @@h6");
    let moves = snap("pawn_double_step_with_both_squares", HANS38, &mut pos);
    assert!(has(&moves, "e2-e3") && has(&moves, "e2-e4"));
    play(&mut pos, "e2-e4");
    assert_eq!(pos.to_position_string().split(' ').nth(3), Some("e3"));
}

/// Castling as in FIDE chess, and every location between king and rook must hold an empty
/// square (ruling; the oracle's ruling 4): with no squares between them, no castling; with b1
/// missing, O-O but not O-O-O, although the king never passes b1.
#[test]
fn castling_needs_the_squares_between() {
    let mut pos =
        at(HANS38, "r***k**r/********/********/********/********/********/********/R***K**R w KQkq - 0 10 0,0 -");
    let moves = legal(&mut pos);
    assert!(!has(&moves, "O-O") && !has(&moves, "O-O-O"));
    let mut pos =
        at(HANS38, "r***k**r/********/********/********/********/********/********/R+++K++R w KQkq - 0 10 0,0 -");
    let moves = legal(&mut pos);
    assert!(has(&moves, "O-O") && has(&moves, "O-O-O"));
    let mut pos =
        at(HANS38, "r***k**r/********/********/********/********/********/********/R*++K++R w KQkq - 0 10 0,0 -");
    let moves = snap("castling_needs_b1", HANS38, &mut pos);
    assert!(has(&moves, "O-O") && !has(&moves, "O-O-O"));
}

/// Castling cannot pass an attacked square, and an attack runs along a line of squares: the
/// rook on f8 attacks f1 over the unbroken f-file, so no O-O; with a hole on f5, O-O again.
#[test]
fn castling_is_stopped_by_an_attack_along_a_line_of_squares() {
    let open = "r***kr**/*****-**/*****-**/*****-**/*****-**/*****-**/*****-**/R+++K++R w KQ - 0 10 0,0 -";
    let moves = legal(&mut at(HANS38, open));
    assert!(!has(&moves, "O-O") && has(&moves, "O-O-O"));
    let broken = open
        .replace("/*****-**/*****-**/*****-**/*****-**/*****-**/", "/*****-**/*****-**/********/*****-**/*****-**/");
    let moves = legal(&mut at(HANS38, &broken));
    assert!(has(&moves, "O-O") && has(&moves, "O-O-O"));
}

/// "An occupied square can not be moved." At the start every square holds a piece, so no
/// square can move. After `1. @@f3 @@f6 2. Ng1-f3 Ng8-f6`, the only empty White square is g1.
/// The text's remark: "after Ng1-f3, the square on g1 is empty but cannot make a King move"
/// (every location next to g1 has a square); it can only leap two, to e3, g3 or h3.
#[test]
fn an_occupied_square_cannot_move() {
    let moves = legal(&mut at(HANS38, "start"));
    assert!(square_moves(&moves).is_empty());
    let mut pos = after(HANS38, "start", "@@f3 @@f6 Ng1-f3 Ng8-f6");
    let moves = snap("g1_cannot_make_a_king_move", HANS38, &mut pos);
    assert_eq!(square_moves(&moves), ["@g1-e3", "@g1-g3", "@g1-h3"]);
}

/// "... move an empty square from its current location to some other location that currently
/// has no square there. [...] two squares cannot occupy the same location or capture each
/// other." "A square moves like a King, Knight, Dabaaba, or Alfil; in other words, one or two
/// locations in any direction, leaping over obstacles as needed." Alone, White's square on d4
/// could go to all 24 locations within two; c4 and e5 hold squares, so 22. It leaps over c4 to
/// b4 and over the pawn on e5 to f6.
#[test]
fn squares_move_one_or_two_locations_to_a_hole() {
    let mut pos =
        at(HANS38, "****k***/********/********/****p***/**-+****/********/********/****K*** w - - 0 10 0,0 -");
    let moves = snap("squares_move_like_k_n_d_or_a", HANS38, &mut pos);
    assert_eq!(moves.len(), 22);
    let expected: BTreeSet<String> = (1..=5)
        .flat_map(|f| (2..=6).map(move |r| format!("{}{}", (b'a' + f) as char, r)))
        .filter(|n| !["d4", "c4", "e5"].contains(&n.as_str()))
        .collect();
    assert_eq!(targets(&moves, "@d4"), expected);
    assert!(has(&moves, "@d4-b4") && has(&moves, "@d4-f6") && has(&moves, "@d4-b6") && has(&moves, "@d4-e6"));
}

/// "The rules of the specific games may give each player some squares in reserve, that may be
/// placed on the board at empty locations." / "Each player starts with 3 squares in reserve,
/// making a total of 38 squares in the game." / "Squares placed from reserve may be placed on
/// any empty location of the board." Placements go to every hole, anywhere (here also a8, a1
/// and next to the kings), each takes one from the reserve, and with none left there are none.
#[test]
fn reserves_of_three_placed_on_any_hole() {
    let mut pos = at(HANS38, "start");
    assert_eq!((pos.reserve(WHITE), pos.reserve(BLACK)), (Some(3), Some(3)));
    play(&mut pos, "@@a3");
    assert_eq!((pos.reserve(WHITE), pos.reserve(BLACK)), (Some(2), Some(3)));
    assert_eq!(owner(&pos, "a3"), Some(WHITE), "a placed square is the placer's");
    // The sample game's last position: Black has one square left; it may go to every hole.
    let final_position = "****kb*-/*rpbqppr/*pn-pn*p/p*-*B***/****++**/**NP*N**/PPP++PPP/*R*QRBK* b - - 0 24 0,1 -";
    let mut pos = at(HANS38, final_position);
    let moves = legal(&mut pos);
    let placed: BTreeSet<String> = placements(&moves).iter().map(|m| m[2..].to_string()).collect();
    assert_eq!(placed, holes(&pos));
    assert_eq!(placed.len(), 27);
    assert!(placed.contains("a8") && placed.contains("a1") && placed.contains("h1"));
    // Running out: three placements each, then none.
    let mut pos = after(HANS38, "start", "@@a3 @@a6 @@b3 @@b6 @@c3 @@c6");
    assert_eq!((pos.reserve(WHITE), pos.reserve(BLACK)), (Some(0), Some(0)));
    assert_eq!(pos.square_count(), 38);
    let moves = snap("reserves_run_out", HANS38, &mut pos);
    assert!(placements(&moves).is_empty());
    assert!(!square_moves(&moves).is_empty(), "White's placed squares move instead");
}

/// "Each turn each player may either move a piece from one square to another, move an empty
/// square from one location to another, or play a square from his reserve onto the board."
/// Hans38 has all three kinds of action, one per turn: after `1. @@f3 @@f6 2. Ng1-f3 Ng8-f6`
/// White may move a piece, move g1, or place; each passes the turn.
#[test]
fn a_turn_is_one_action_of_three_kinds() {
    let mut pos = after(HANS38, "start", "@@f3 @@f6 Ng1-f3 Ng8-f6");
    let moves = legal(&mut pos);
    assert!(!piece_moves(&moves).is_empty() && !square_moves(&moves).is_empty() && !placements(&moves).is_empty());
    assert!(!has(&moves, "end"));
    // Each action is a half-move for the fifty-move clock; only captures and pawn moves reset it.
    assert_eq!(pos.halfmove_clock(), 4);
    for (m, clock) in [("Nf3-g1", 5), ("@g1-g3", 5), ("@@e3", 5)] {
        let mut p = pos.clone();
        play(&mut p, m);
        assert_eq!((p.side_to_move(), p.action_index(), p.halfmove_clock()), (BLACK, 0, clock), "{m}");
    }
    let mut p = after(HANS38, "start", "@@e3 @@a6");
    assert_eq!(p.halfmove_clock(), 2);
    play(&mut p, "e2-e3");
    assert_eq!(p.halfmove_clock(), 0);
}

/// "In no game may you move the square your opponent has just moved (that would be silly, you
/// see)." The engine records the square (the position string's untouchable field), but with
/// owned squares the rule can never matter: the square the opponent just moved is the
/// opponent's (a moved square keeps its owner), and a player may only move their own squares.
/// Checked along the whole sample game: the legal moves are the same with the field cleared.
#[test]
fn the_square_just_moved_never_matters_with_owned_squares() {
    let pos = after(HANS38, "start", "@@f3 @@f6 Ng1-f3 Ng8-f6 @@e3 @g8-e6");
    assert_eq!(pos.untouchable_squares(), [cell(&pos, "e6")]);
    assert_eq!(owner(&pos, "e6"), Some(BLACK));
    assert!(pos.to_position_string().ends_with(" 1,2 e6"));
    let mut pos = at(HANS38, "start");
    let mut checked = 0;
    for m in game_moves("hans38-sample.txt") {
        play(&mut pos, &m);
        let text = pos.to_position_string();
        if !pos.untouchable_squares().is_empty() {
            let cleared = format!("{} -", text.rsplit_once(' ').unwrap().0);
            let mut other = at(HANS38, &cleared);
            assert!(other.untouchable_squares().is_empty());
            assert_eq!(legal(&mut pos), legal(&mut other), "{text}");
            checked += 1;
        }
    }
    assert_eq!(checked, 14, "one per square move of the sample game");
}

/// "Check and checkmate can be blocked by moving a square." The rook on a8 checks the king on
/// a1 along White's squares a2..a7; moving any of them off the file blocks the check, and that
/// is all White can do. With the same squares Black's, White may not move them: checkmate.
/// Placing a square never helps against a check (it can only complete lines).
#[test]
fn check_is_blocked_by_moving_a_square() {
    let own = "r***k***/+*******/+*******/+*******/+*******/+*******/+*******/K******* w - - 0 10 1,0 -";
    let mut pos = at(HANS38, own);
    assert!(pos.in_check());
    let moves = snap("check_blocked_by_moving_a_square", HANS38, &mut pos);
    assert!(!moves.is_empty() && moves.len() == square_moves(&moves).len());
    assert!(has(&moves, "@a4-c4") && has(&moves, "@a2-b3"));
    assert!(moves.iter().all(|m| !m[4..].starts_with('a')), "every move leaves the a-file");
    play(&mut pos, "@a4-c4");
    assert_eq!(pos.outcome(), None);
    let theirs = own.replace('+', "-");
    let mut pos = at(HANS38, &theirs);
    assert!(pos.in_check() && legal(&mut pos).is_empty());
    assert_eq!(pos.outcome(), Some((GameResult::Win(BLACK), EndReason::Checkmate)));
}

/// Squares affect attacks exactly as moves: a square placed on the one hole of a line from an
/// enemy rook to the king would open the line, so that placement is illegal, while moving a
/// square into the hole from the same line (leaving a hole behind) is not. The line appears
/// with Black's move: the engine keeps the openings it found for the last position it asked,
/// and must not read them in the next.
#[test]
fn a_square_may_not_open_a_line_to_the_king() {
    let mut pos =
        at(HANS38, "-------r/+******k/+*******/+*******/********/+*******/+*******/K******* b - - 0 10 1,1 -");
    let before = legal(&mut pos);
    assert!(has(&before, "Rh8-a8"), "{before:?}");
    play(&mut pos, "Rh8-a8");
    assert!(!pos.in_check());
    let moves = legal(&mut pos);
    assert!(!has(&moves, "@@a4"), "{moves:?}");
    assert!(has(&moves, "@@b4") && has(&moves, "@a2-a4") && has(&moves, "@a5-a4"), "{moves:?}");
    let counted = perft(&mut pos, 1);
    assert_eq!(counted, moves.len() as u64);
}

/// "A stalemated player loses the game; of course, moving a square counts as a move in most
/// games." / "The shortest win by stalemate is 3 turns: White places at a6, Black captures the
/// square, White places at b6, and so on." After `1. @@a6 a7-a6 2. @@b6 b7-b6 3. @@c6 c7-c6`
/// White has no square in reserve, no empty square of its own and no piece that can reach a
/// square: no legal action, not in check; Black wins. (Also with 1... Nb8-a6.) A player who can
/// still move a square is not stalemated.
#[test]
fn stalemate_loses_the_three_turn_stalemate() {
    let mut pos = at(HANS38, "start");
    play(&mut pos, "@@a6 a7-a6");
    assert_eq!(owner(&pos, "a6"), Some(BLACK));
    play(&mut pos, "@@b6 b7-b6 @@c6 c7-c6");
    assert_eq!(
        pos.to_position_string(),
        "rnbqkbnr/---ppppp/ppp*****/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 4 0,3 -"
    );
    assert!(!pos.in_check());
    let moves = snap("three_turn_stalemate", HANS38, &mut pos);
    assert!(moves.is_empty());
    assert_eq!(pos.outcome(), Some((GameResult::Win(BLACK), EndReason::Stalemate)));
    let mut pos = after(HANS38, "start", "@@a6 Nb8-a6 @@b6 b7-b6 @@c6 c7-c6");
    assert_eq!(pos.outcome(), Some((GameResult::Win(BLACK), EndReason::Stalemate)));
    // White's only empty square is on the board: it moves, so no stalemate.
    let mut pos =
        at(HANS38, "****k***/********/********/********/***+****/********/********/****K*** w - - 0 10 0,0 -");
    let moves = legal(&mut pos);
    assert_eq!(moves.len(), 24);
    assert_eq!(piece_moves(&moves).len(), 0);
    assert_eq!(pos.outcome(), None);
}

/// "Each player's first move must be to place a square on the board, because there simply is
/// no other legal move." True for White: 32 placements and nothing else. Not for Black: after a
/// placement on rank 6 Black's pawn (and on a6, c6, f6, h6 a knight) can take the square, 12
/// such first moves in all (the text's own stalemate line starts `1. @@a6 a7-a6`). Ruling: the
/// rules decide, the sentence is read as a remark about White.
#[test]
fn the_first_move_must_be_a_placement_for_white_only() {
    let mut pos = at(HANS38, "start");
    let moves = snap("start", HANS38, &mut pos);
    assert_eq!(placements(&moves).len(), 32);
    assert_eq!(moves.len(), 32);
    let mut others = Vec::new();
    for m in &moves {
        play(&mut pos, m);
        let replies = legal(&mut pos);
        assert_eq!(placements(&replies).len(), 31);
        others.extend(replies.iter().filter(|r| !r.starts_with("@@")).map(|r| format!("{m} {r}")));
        pos.unmake();
    }
    assert_eq!(
        others,
        [
            "@@a6 Nb8-a6",
            "@@a6 a7-a6",
            "@@b6 b7-b6",
            "@@c6 Nb8-c6",
            "@@c6 c7-c6",
            "@@d6 d7-d6",
            "@@e6 e7-e6",
            "@@f6 Ng8-f6",
            "@@f6 f7-f6",
            "@@g6 g7-g6",
            "@@h6 Ng8-h6",
            "@@h6 h7-h6"
        ]
    );
}

/// Checkmate (FIDE, kept by the Basic Game): the king on g1 is checked along Black's squares
/// b1..f1; White cannot move Black's squares, its pawns and king have nowhere to go, and its
/// two squares in reserve cannot block. With White's squares instead, moving one blocks.
#[test]
fn checkmate_loses() {
    let mut pos =
        at(HANS38, "****k***/********/********/********/********/********/*****PPP/r-----K* w - - 0 10 2,0 -");
    assert!(pos.in_check());
    let moves = snap("checkmate_along_black_squares", HANS38, &mut pos);
    assert!(moves.is_empty());
    assert_eq!(pos.outcome(), Some((GameResult::Win(BLACK), EndReason::Checkmate)));
    let mut pos =
        at(HANS38, "****k***/********/********/********/********/********/*****PPP/r+++++K* w - - 0 10 2,0 -");
    let moves = legal(&mut pos);
    assert!(!moves.is_empty() && moves.iter().all(|m| m.starts_with('@') && !m.starts_with("@@")));
    assert_eq!(pos.outcome(), None);
}

/// Promotion (FIDE): onto a square of the last rank, by the straight step (taking Black's empty
/// square on g8) or by a capture (h8); f8 has no square, so no capture there. Without a square on
/// g8 the pawn cannot step.
#[test]
fn promotion_needs_a_square_on_the_last_rank() {
    let mut pos =
        at(HANS38, "****k*-r/******P*/********/********/********/********/********/****K*** w - - 0 10 0,0 -");
    let moves = snap("promotion", HANS38, &mut pos);
    assert_eq!(moves, ["g7-g8=B", "g7-g8=N", "g7-g8=Q", "g7-g8=R", "g7xh8=B", "g7xh8=N", "g7xh8=Q", "g7xh8=R"]);
    play(&mut pos, "g7-g8=Q");
    assert_eq!(on(&pos, "g8"), Some('Q'));
    assert_eq!(owner(&pos, "g8"), Some(WHITE));
    let mut pos =
        at(HANS38, "****k**r/******P*/********/********/********/********/********/****K*** w - - 0 10 0,0 -");
    assert_eq!(legal(&mut pos), ["g7xh8=B", "g7xh8=N", "g7xh8=Q", "g7xh8=R"]);
}

/// En passant (FIDE): the double step needs the passed square, so it is there to capture on.
/// The capturing pawn lands on d6 and takes that square; the taken pawn's square d5 stays
/// Black's, and e5, which the pawn left, stays White's.
#[test]
fn en_passant_on_the_passed_square() {
    let mut pos =
        at(HANS38, "****k***/***p****/***-****/***-P***/********/********/********/****K*** b - - 0 10 0,0 -");
    play(&mut pos, "d7-d5");
    assert_eq!(
        pos.to_position_string(),
        "****k***/***-****/***-****/***pP***/********/********/********/****K*** w - d6 0 11 0,0 -"
    );
    let moves = snap("en_passant", HANS38, &mut pos);
    assert_eq!(moves, ["e5xd6"]);
    play(&mut pos, "e5xd6");
    assert_eq!((on(&pos, "d6"), owner(&pos, "d6")), (Some('P'), Some(WHITE)));
    assert_eq!((on(&pos, "d5"), owner(&pos, "d5")), (None, Some(BLACK)));
    assert_eq!((on(&pos, "e5"), owner(&pos, "e5")), (None, Some(WHITE)));
    // Without a square on d6 the pawn cannot double-step at all.
    let mut pos =
        at(HANS38, "****k***/***p****/********/***-P***/********/********/********/****K*** b - - 0 10 0,0 -");
    assert!(!has(&legal(&mut pos), "d7-d5"));
}

// =============================================================================================
// Hans38 Chess: ownership of squares
// =============================================================================================

/// "Each player owns the squares in hand and the squares under her starting army, and a player
/// may not move squares owned by the other player." After `1. @@d4` Black may not move White's
/// empty square: Black's only actions are the 31 placements. After `1. @@a3 @@a6`, each side
/// moves only its own square.
#[test]
fn a_player_may_not_move_the_opponents_squares() {
    let moves = legal(&mut after(HANS38, "start", "@@d4"));
    assert_eq!(moves.len(), 31);
    assert_eq!(placements(&moves).len(), 31);
    let mut pos = after(HANS38, "start", "@@a3 @@a6");
    let moves = legal(&mut pos);
    assert!(!square_moves(&moves).is_empty() && square_moves(&moves).iter().all(|m| m.starts_with("@a3")));
    play(&mut pos, "@@h3");
    let moves = legal(&mut pos);
    assert!(!square_moves(&moves).is_empty() && square_moves(&moves).iter().all(|m| m.starts_with("@a6")));
}

/// "Moving a piece onto an enemy square captures the square. In other words, a square belongs to
/// whoever last placed the square or had a piece on the square." The pawn's straight step takes
/// White's a6; Black's knight takes White's e4. A square a piece leaves keeps its owner (e4 stays
/// Black's after the knight goes back; a7 stays Black's), so White may not move e4.
#[test]
fn a_piece_landing_on_an_enemy_square_captures_it() {
    let pos = after(HANS38, "start", "@@a6 a7-a6");
    assert_eq!(owner(&pos, "a6"), Some(BLACK));
    assert_eq!((on(&pos, "a7"), owner(&pos, "a7")), (None, Some(BLACK)));
    let mut pos = after(HANS38, "start", "@@f3 @@f6 Ng1-f3 Ng8-f6 @@e4");
    assert_eq!(owner(&pos, "e4"), Some(WHITE));
    play(&mut pos, "Nf6-e4");
    assert_eq!(owner(&pos, "e4"), Some(BLACK));
    play(&mut pos, "@@a3 Ne4-f6");
    assert_eq!((on(&pos, "e4"), owner(&pos, "e4")), (None, Some(BLACK)));
    assert!(pos.to_position_string().starts_with("rnbqkb-r/pppppppp/*****n**/********/****-***/+****N**/"));
    let moves = legal(&mut pos);
    assert!(square_moves(&moves).iter().all(|m| !m.starts_with("@e4")));
}

/// "Note: Pawns capture squares by moving straight forward. A Pawn may not capture a square by
/// moving diagonally onto an empty square." After `1. @@d6` Black's d-pawn takes the square with
/// its straight step; the c- and e-pawns cannot go there diagonally.
#[test]
fn pawns_capture_squares_only_by_the_straight_step() {
    let mut pos = after(HANS38, "start", "@@d6");
    let moves = legal(&mut pos);
    assert_eq!(piece_moves(&moves), ["d7-d6"]);
    assert!(!has(&moves, "c7xd6") && !has(&moves, "e7xd6") && !has(&moves, "c7-d6") && !has(&moves, "e7-d6"));
    play(&mut pos, "d7-d6");
    assert_eq!(owner(&pos, "d6"), Some(BLACK));
}

/// "Of course, a Pawn, or in fact any piece, can capture a square and capture a piece, both in one
/// move (gambits may be too expensive)." In the sample game 23... d6:e5 takes the pawn and the
/// square, and 24. Bf4:e5 takes them back; the squares the capturers left (d6, f4) keep their
/// owners.
#[test]
fn capturing_a_piece_captures_its_square() {
    let moves = game_moves("hans38-sample.txt");
    let mut pos = at(HANS38, "start");
    let upto = moves.iter().position(|m| m == "d6:e5").unwrap();
    for m in &moves[..upto] {
        play(&mut pos, m);
    }
    assert_eq!((on(&pos, "e5"), owner(&pos, "e5")), (Some('P'), Some(WHITE)));
    play(&mut pos, "d6:e5");
    assert_eq!((on(&pos, "e5"), owner(&pos, "e5")), (Some('p'), Some(BLACK)));
    assert_eq!((on(&pos, "d6"), owner(&pos, "d6")), (None, Some(BLACK)));
    play(&mut pos, "Bf4:e5");
    assert_eq!((on(&pos, "e5"), owner(&pos, "e5")), (Some('B'), Some(WHITE)));
    assert_eq!((on(&pos, "f4"), owner(&pos, "f4")), (None, Some(WHITE)));
}

/// Castling is a move of the king and the rook, so both take the squares they land on (ruling;
/// the oracle's ruling 5): g1 is Black's (an empty square a Black piece once stood on); after O-O it is White's. The
/// squares the king and rook leave stay White's.
#[test]
fn castling_takes_the_kings_and_rooks_squares() {
    let mut pos =
        at(HANS38, "r***k**r/********/********/********/********/********/********/R+++K+-R w KQkq - 0 10 0,0 -");
    assert_eq!(owner(&pos, "g1"), Some(BLACK));
    play(&mut pos, "O-O");
    assert_eq!((on(&pos, "g1"), owner(&pos, "g1")), (Some('K'), Some(WHITE)));
    assert_eq!((on(&pos, "f1"), owner(&pos, "f1")), (Some('R'), Some(WHITE)));
    assert_eq!((owner(&pos, "e1"), owner(&pos, "h1")), (Some(WHITE), Some(WHITE)));
    assert_eq!(
        pos.to_position_string(),
        "r***k**r/********/********/********/********/********/********/R++++RK+ b kq - 1 10 0,0 -"
    );
}

/// The squares on the board never exceed 38 and never vanish: each placement adds one, nothing
/// removes one. Along the sample game the count is 32 plus the placements so far (37 at the end:
/// White placed three, Black two).
#[test]
fn squares_are_never_removed() {
    let mut pos = at(HANS38, "start");
    let mut placed = 0;
    for m in game_moves("hans38-sample.txt") {
        placed += usize::from(m.starts_with("@@"));
        play(&mut pos, &m);
        assert_eq!(pos.square_count(), 32 + placed, "{m}");
    }
    assert_eq!(placed, 5);
    assert_eq!((pos.reserve(WHITE), pos.reserve(BLACK)), (Some(0), Some(1)));
}

// =============================================================================================
// The sample game
// =============================================================================================

/// The oracle's position strings write holes as digits, Varia's as `*` (digits are empty squares
/// of nobody's); Varia adds the halfmove clock (which the oracle does not keep) before the move
/// number and writes the reserves and untouchable squares after it.
fn from_oracle(text: &str, halfmove: u32) -> String {
    let f: Vec<&str> = text.split(' ').collect();
    let board: String =
        f[0].chars().map(|c| c.to_digit(10).map_or(c.to_string(), |n| "*".repeat(n as usize))).collect();
    format!("{board} {} {} {} {halfmove} {} {} {}", f[1], f[2], f[3], f[6], f[4], f[5])
}

/// The text's sample game (with 15... b7-b6 for the printed 15... @b7-b6, see below) replays
/// legally, every action checked against the square rules, to the oracle's final position:
/// `4kb1-/1rpbqppr/1pn-pn1p/p1-1B3/4++2/2NP1N2/PPP++PPP/1R1QRBK1 b - - 0,1 - 24`.
#[test]
fn sample_game_replays_to_the_oracles_final_position() {
    let mut pos = at(HANS38, "start");
    let moves = game_moves("hans38-sample.txt");
    assert_eq!(moves.len(), 47);
    for m in &moves {
        check_square_rules(&mut pos, true);
        play(&mut pos, m);
        assert_eq!(pos.outcome(), None, "{m}");
    }
    let oracle = from_oracle("4kb1-/1rpbqppr/1pn-pn1p/p1-1B3/4++2/2NP1N2/PPP++PPP/1R1QRBK1 b - - 0,1 - 24", 0);
    assert_eq!(pos.to_position_string(), oracle);
    assert_eq!(oracle, "****kb*-/*rpbqppr/*pn-pn*p/p*-*B***/****++**/**NP*N**/PPP++PPP/*R*QRBK* b - - 0 24 0,1 -");
    snap("sample_game_final_position", HANS38, &mut pos);
}

/// The text prints 15... @b7-b6, which no reading of the rules allows: b7 still holds Black's
/// b-pawn (an occupied square cannot move) and b6 already has a square (Black's own 14...
/// @a8-b6 put it there). The pawn move 15... b7-b6 is legal, and 16... Ra7-b7 needs b7 empty,
/// which only b7-b6 achieves: a typo for b7-b6.
#[test]
fn sample_game_15_at_b7_b6_is_a_typo_for_b7_b6() {
    let moves = game_moves("hans38-sample.txt");
    let at15 = moves.iter().position(|m| m == "b7-b6").unwrap();
    assert_eq!(moves[at15 - 1], "e3-e4");
    let mut pos = at(HANS38, "start");
    for m in &moves[..at15] {
        play(&mut pos, m);
    }
    assert_eq!(pos.fullmove_number(), 15);
    assert_eq!(pos.side_to_move(), BLACK);
    assert!(pos.parse_move("@b7-b6").is_err());
    assert_eq!((on(&pos, "b7"), square(&pos, "b6"), owner(&pos, "b6")), (Some('p'), true, Some(BLACK)));
    let legal_now = legal(&mut pos);
    assert!(square_moves(&legal_now).iter().all(|m| !m.starts_with("@b7")));
    assert!(has(&legal_now, "b7-b6"));
    // Of every legal action, only b7-b6 goes from b7 to b6.
    assert_eq!(legal_now.iter().filter(|m| m.contains("b7") && m.ends_with("b6")).collect::<Vec<_>>(), ["b7-b6"]);
    play(&mut pos, "b7-b6 Ra1-b1");
    assert!(has(&legal(&mut pos), "Ra7-b7"));
}

/// "Some of the moves here were made with a different rule for moving the squares; it is all
/// still legal". The old rule was "one space if you can, otherwise you can move two spaces".
/// Five square moves of the game leap two while the same square could have stepped one, so the
/// old rule forbade them (11... @c8-a6, 14... @a8-b6, 17... @a7-a5, 19... @a6-c5, 22. @e3-e5);
/// all are legal under the current rule. Every other square move of the game obeys both rules.
#[test]
fn sample_game_moves_under_the_old_square_rule_are_legal() {
    let mut pos = at(HANS38, "start");
    let mut old_rule_breakers = Vec::new();
    for m in game_moves("hans38-sample.txt") {
        if m.starts_with('@') && !m.starts_with("@@") {
            let moves = legal(&mut pos);
            assert!(has(&moves, &m), "{m}");
            let (from, to) = (&m[1..3], &m[4..6]);
            let dist = |a: &str, b: &str| {
                let (a, b) = (a.as_bytes(), b.as_bytes());
                (a[0] as i32 - b[0] as i32).abs().max((a[1] as i32 - b[1] as i32).abs())
            };
            let could_step = targets(&moves, &format!("@{from}")).iter().any(|t| dist(from, t) == 1);
            if dist(from, to) == 2 && could_step {
                old_rule_breakers.push(format!(
                    "{}{} {m}",
                    pos.fullmove_number(),
                    if pos.side_to_move() == WHITE { "." } else { "..." }
                ));
            }
        }
        play(&mut pos, &m);
    }
    assert_eq!(old_rule_breakers, ["11... @c8-a6", "14... @a8-b6", "17... @a7-a5", "19... @a6-c5", "22. @e3-e5"]);
}

/// The comment after 20. @g3-f4: "Next, e5? would be met with 21. e4-e5! and so Black needs to
/// place a new square." A Black square placed on e5 is taken by the pawn's straight step.
#[test]
fn sample_game_e5_would_be_met_by_e4_e5() {
    let moves = game_moves("hans38-sample.txt");
    let upto = moves.iter().position(|m| m == "@g3-f4").unwrap() + 1;
    let mut pos = at(HANS38, "start");
    for m in &moves[..upto] {
        play(&mut pos, m);
    }
    play(&mut pos, "@@e5");
    assert_eq!(owner(&pos, "e5"), Some(BLACK));
    play(&mut pos, "e4-e5");
    assert_eq!((on(&pos, "e5"), owner(&pos, "e5")), (Some('P'), Some(WHITE)));
}

/// The neutral opening of the text, `1. @@f3 @@f6 2. Ng1-f3 Ng8-f6 3. @@e3 @e3-d5`, is not a Hans38
/// game: its last action moves White's square.
#[test]
fn neutral_opening_is_illegal_in_hans38() {
    let moves = game_moves("hans38-neutral-opening.txt");
    let mut pos = at(HANS38, "start");
    for m in &moves[..moves.len() - 1] {
        play(&mut pos, m);
    }
    assert_eq!(owner(&pos, "e3"), Some(WHITE));
    assert!(pos.parse_move("@e3-d5").is_err());
    assert!(legal(&mut pos).iter().all(|m| !m.starts_with("@e3")));
}

/// Perft from the start: 32, 1004, 44212 (the oracle's counts). Depth 2: 32 x 31 placements and
/// the 12 first piece moves of Black.
#[test]
fn perft_from_the_start() {
    let mut pos = at(HANS38, "start");
    assert_eq!([1, 2, 3].map(|d| perft(&mut pos, d)), [32, 1004, 44212]);
    assert_eq!(perft_turns(&mut pos, 3).expect("turns end"), 44212, "a turn is one action");
}
