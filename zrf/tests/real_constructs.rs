//! Zillions constructs that real files use beyond the Dagaz corpus, each on a small game: the
//! game-level option keywords, `count-condition`, `"maximal captures" 2`, neutral players with
//! a `checkmated` goal, games of more than eight players, a piece defined twice, and sliding
//! blocks whose steps `verify` before they `add`. Every count is worked out by hand in the test.
use std::sync::Arc;

use varia_interpreter::ir::PlayerId;
use varia_interpreter::{perft, EndReason, GameResult, Position, Rules};

fn load(text: &str) -> varia_zrf::lower::Game {
    varia_zrf::load(text, None).unwrap_or_else(|e| panic!("{}\n{text}", e.render(text)))
}

fn start(text: &str) -> Position {
    Position::start(Arc::new(Rules::new(load(text).variant)))
}

fn moves_of(text: &str) -> Vec<String> {
    let mut pos = start(text);
    let mut out = Vec::new();
    pos.legal_moves(&mut out);
    let mut listed: Vec<String> = out.iter().map(|m| pos.long_notation(*m)).collect();
    listed.sort();
    listed
}

/// The error's message, label and the text it points at.
fn error_of(text: &str) -> (String, String, String) {
    let e = varia_zrf::load(text, None).unwrap_err();
    (e.message.clone(), e.label.clone(), text[e.span.clone()].to_string())
}

/// A 3x3 board (files a-c, ranks 3 to 1) with the compass and the diagonals; `players` and
/// `rest` (pieces, setup, goals, options) go into the game.
fn board3(players: &str, rest: &str) -> String {
    format!(
        r#"(define slide ($1 (while empty? add $1) (verify not-friend?) add))
(game (title "t") {players}
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c/d" (10 0)) ("4/3/2/1" (0 10)))
    (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0) (ne 1 -1) (nw -1 -1) (se 1 1) (sw -1 1))))
  {rest})"#
    )
}

const TWO: &str = "(players White Black) (turn-order White Black)";

/// White's Man on a1 steps north onto empty cells; Black's Man on d4 has nowhere to go.
fn passing(option: &str) -> String {
    board3(TWO, &format!("{option} (piece (name Man) (moves (n (verify empty?) add))) (board-setup (White (Man a1)) (Black (Man d4)))"))
}

#[test]
fn the_game_level_pass_turn_keyword_is_the_pass_turn_option() {
    // Without passing: White's one step, then Black has no move (perft 2 is 0).
    assert_eq!(perft(&mut start(&passing("")), 2), 0);
    // (pass-turn true): White steps or passes (2), Black then passes (1 each): 2 and 2.
    for option in ["(pass-turn true)", r#"(option "pass turn" true)"#] {
        let mut pos = start(&passing(option));
        assert_eq!((perft(&mut pos, 1), perft(&mut pos, 2)), (2, 2), "{option}");
    }
    // (pass-turn forced): White must step (1), Black, without a move, passes (1).
    for option in ["(pass-turn forced)", r#"(option "pass turn" forced)"#] {
        let mut pos = start(&passing(option));
        assert_eq!((perft(&mut pos, 1), perft(&mut pos, 2)), (1, 1), "{option}");
    }
    assert_eq!(perft(&mut start(&passing("(pass-turn false)")), 2), 0);
}

#[test]
fn the_other_option_keywords_are_their_options_too() {
    // West, the Men on d1 and b1 (2); east, the Man on f1 alone (1): (maximal-captures true)
    // keeps the west jump; presentation keywords change nothing.
    let black = "(Man b1 d1 f1)";
    assert_eq!(moves_of(&kings_strip("", black)), ["Me1xc1xd1,then", "Me1xg1xf1,then"]);
    let keywords = "(maximal-captures true) (animate-captures false) (include-off-pieces false)";
    assert_eq!(moves_of(&kings_strip(keywords, black)), ["Me1xc1xd1,then"]);
    let (message, label, at) = error_of(&passing("(pass-turn sometimes)"));
    assert_eq!(message, "unsupported ZRF construct 'sometimes'");
    assert_eq!((label.as_str(), at.as_str()), ("\"pass turn\" must be true, false or forced", "sometimes"));
    let (message, _, at) = error_of(&passing("(pass-turn)"));
    assert_eq!((message.as_str(), at.as_str()), ("'pass-turn' needs one value", "(pass-turn)"));
}

/// White's Man on a1 is blocked by Black's Man on a2 (White is stalemated at once); `extra`
/// adds players, pieces and goals.
fn counted(players: &str, setup: &str, goal: &str) -> String {
    board3(players, &format!("(piece (name Man) (moves (n (verify empty?) add))) (board-setup {setup}) {goal}"))
}

#[test]
fn count_condition_ends_the_game_and_the_most_pieces_win() {
    // White (1 piece) is stalemated: Black (2 pieces) wins on the count.
    let text = counted(TWO, "(White (Man a1)) (Black (Man a2 d4))", "(count-condition (White Black) stalemated)");
    assert_eq!(start(&text).outcome(), Some((GameResult::Win(PlayerId(1)), EndReason::Stalemate)));
    // One piece each: a draw.
    let text = counted(TWO, "(White (Man a1)) (Black (Man a2))", "(count-condition (White Black) stalemated)");
    assert_eq!(start(&text).outcome(), Some((GameResult::Draw, EndReason::Stalemate)));
    // Without players the condition is every player's; here it holds at once (3 pieces).
    let text = counted(TWO, "(White (Man a1 c1)) (Black (Man d4))", "(count-condition (total-piece-count 3))");
    assert_eq!(start(&text).outcome(), Some((GameResult::Win(PlayerId(0)), EndReason::Goal(0))));
}

#[test]
fn a_neutral_players_pieces_are_not_counted() {
    // N never moves: its three Men do not make it the winner, Black's two do.
    let players = "(players White Black N) (turn-order White Black)";
    let setup = "(White (Man a1)) (Black (Man a2 d4)) (N (Man b1 b2 b3))";
    let text = counted(players, setup, "(count-condition (White Black) stalemated)");
    assert_eq!(start(&text).outcome(), Some((GameResult::Win(PlayerId(1)), EndReason::Stalemate)));
}

/// Kings stepping any way, Rooks sliding orthogonally; White, Black and the neutral N.
fn royal_game(setup: &str) -> String {
    board3(
        "(players White Black N) (turn-order White Black)",
        &format!(
            "(piece (name King) (moves (n (verify not-friend?) add) (s (verify not-friend?) add) (e (verify not-friend?) add) (w (verify not-friend?) add)
               (ne (verify not-friend?) add) (nw (verify not-friend?) add) (se (verify not-friend?) add) (sw (verify not-friend?) add)))
             (piece (name Rook) (moves (slide n) (slide s) (slide e) (slide w)))
             (board-setup {setup})
             (loss-condition (White Black) (checkmated King))"
        ),
    )
}

#[test]
fn a_checkmated_goal_for_the_players_who_move_leaves_the_neutral_out() {
    // N's Rook on b4 never moves, so it checks nobody: White's King on a1 may step to a2, b1
    // and b2 (3); Black's on d4 to c4, c3 and d3 (3), except c3 next to White's King on b2:
    // 3 + 3 + 2 = 8.
    let mut pos = start(&royal_game("(White (King a1)) (Black (King d4)) (N (Rook b4))"));
    assert_eq!((perft(&mut pos, 1), perft(&mut pos, 2)), (3, 8));
}

#[test]
fn checkmate_beside_a_neutral_player_ends_the_game() {
    // Black's Rooks on a4 and b4 hold the a- and b-files: White's King on a1 is in check with
    // no move. Two players move, so the loss ends the game (N is in no contest).
    let mut pos = start(&royal_game("(White (King a1)) (Black (King d4) (Rook a4 b4)) (N (Rook c1))"));
    assert_eq!(pos.outcome(), Some((GameResult::Win(PlayerId(1)), EndReason::Checkmate)));
}

const TWELVE: &str = "White Black Pink Red Orange Yellow Green Cyan Navy Violet Ash Slate";

#[test]
fn a_game_may_have_twelve_players_ten_of_them_neutral() {
    let text = board3(
        &format!("(players {TWELVE}) (turn-order White Black)"),
        "(piece (name King) (moves (n (verify not-friend?) add) (e (verify not-friend?) add) (ne (verify not-friend?) add)
            (s (verify not-friend?) add) (w (verify not-friend?) add) (sw (verify not-friend?) add)))
         (piece (name Man))
         (board-setup (White (King a1)) (Black (King d4)) (Pink (Man a3)) (Red (Man a4)) (Orange (Man b4))
           (Yellow (Man c1)) (Green (Man d1)) (Cyan (Man d2)) (Navy (Man c3)) (Violet (Man c4)) (Ash (Man b2)) (Slate (Man d3)))",
    );
    let mut pos = start(&text);
    // White's King: a2, b1 and Ash's Man on b2 (n, e, ne); Black's: Violet's c4, Slate's
    // d3 and Navy's c3 (w, s, sw). Nothing is royal: 3 x 3.
    assert_eq!((perft(&mut pos, 1), perft(&mut pos, 2)), (3, 9));
    // Each player's pieces are written after its initial.
    assert_eq!(pos.to_position_string().split(' ').next(), Some("rMoMvMbK/pM1nMsM/1aM1cM/wK1yMgM"));
    let (message, label, _) = error_of(&board3(&format!("(players {TWELVE} A2 B2 C2 D2 E2)"), ""));
    assert_eq!(message, "games of 17 players are not supported");
    assert_eq!(label, "Varia plays games of at most 16 players");
}

#[test]
fn a_piece_defined_twice_the_same_way_is_kept_once_with_a_note() {
    let man = "(piece (name Man) (moves (n (verify empty?) add)))";
    let text = board3(TWO, &format!("{man}\n  {man} (board-setup (White (Man a1)) (Black (Man d4)))"));
    let game = load(&text);
    let notes: Vec<&str> = game.notes.iter().map(|n| n.message.as_str()).collect();
    assert_eq!(
        notes,
        ["piece 'Man' is defined twice, identically, at line 5, column 3 and at line 6, column 3: the second definition is ignored"]
    );
    assert_eq!(game.variant.pieces.len(), 1);
    assert_eq!(moves_of(&text), ["Ma1-a2"]);
    // Two different definitions stay a mistake in the file, at the second one's name.
    let other = "(piece (name Man) (moves (e (verify empty?) add)))";
    let text = board3(TWO, &format!("{man}\n  {other} (board-setup (White (Man a1)) (Black (Man d4)))"));
    let (message, _, at) = error_of(&text);
    assert_eq!(
        (message.as_str(), at.as_str()),
        ("piece 'Man' is defined twice, differently (first at line 5, column 3)", "Man")
    );
}

/// A sliding puzzle whose pieces step north with `step` (one of Dagaz's two forms).
fn sliding(step: &str) -> String {
    format!(
        r#"(define step ({step}))
(game (title "t") (option "sliding-puzzle" true) (players You) (turn-order You)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b" (10 0)) ("3/2/1" (0 10)))
    (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0))))
  (piece (name X) (attribute value 1) (moves (step n)))
  (piece (name Z) (attribute value 1) (moves (step n)))
  (board-setup (You (X a1) (Z a2)))
  (win-condition (You) (absolute-config X (a3))))"#
    )
}

#[test]
fn a_sliding_step_may_verify_before_it_adds() {
    // The block a1-a2 steps north, written from either of its pieces (sliding.rs's rule).
    assert_eq!(moves_of(&sliding("$1 add")), ["Xa1-a2,a2-a3", "Za2-a3,a1-a2"]);
    // `(verify empty?)` is asked from the piece that steps, before the move: X's step north
    // lands on Z, so only Z gives the move.
    assert_eq!(moves_of(&sliding("$1 (verify empty?) add")), ["Za2-a3,a1-a2"]);
    // Other shapes stay refused, naming the forms allowed.
    let (message, _, _) = error_of(&sliding("$1 (verify empty?) $1 add"));
    assert!(message.contains("`DIRECTION add`, or `DIRECTION (verify ...) add`"), "{message}");
}

/// A 9x1 strip: White's Man on e1 jumps west or east over an enemy, and on (`add-partial`).
/// Men and Kings jump alike; the Man is declared first.
fn kings_strip(option: &str, black: &str) -> String {
    format!(
        r#"(define jump ($1 (verify enemy?) capture $1 (verify empty?) add-partial))
(game (title "t") (players White Black) (turn-order White Black) {option}
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c/d/e/f/g/h/i" (10 0)) ("1" (0 10)))
    (directions (e 1 0) (w -1 0))))
  (piece (name Man) (moves (jump w) (jump e)))
  (piece (name King) (moves (jump w) (jump e)))
  (board-setup (White (Man e1)) (Black {black})))"#
    )
}

#[test]
fn maximal_captures_2_prefers_the_turn_that_takes_more_kings() {
    // West: the King on d1, then the Man on b1 (2 pieces, 1 king); east: the Men on f1 and
    // h1 (2 pieces, no king).
    let black = "(King d1) (Man b1 f1 h1)";
    assert_eq!(
        moves_of(&kings_strip(r#"(option "maximal captures" true)"#, black)),
        ["Me1xc1xd1,then", "Me1xg1xf1,then"]
    );
    assert_eq!(moves_of(&kings_strip(r#"(option "maximal captures" 2)"#, black)), ["Me1xc1xd1,then"]);
    assert_eq!(moves_of(&kings_strip("(maximal-captures 2)", black)), ["Me1xc1xd1,then"]);
}

#[test]
fn maximal_captures_2_counts_the_pieces_before_the_kings() {
    // West: the King on d1 alone (1 piece, 1 king); east: two Men. The most pieces come first.
    let black = "(King d1) (Man f1 h1)";
    assert_eq!(moves_of(&kings_strip(r#"(option "maximal captures" 2)"#, black)), ["Me1xg1xf1,then"]);
}
