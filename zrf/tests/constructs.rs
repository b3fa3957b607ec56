//! Zillions constructs of the Dagaz corpus, each on a small game: `opposite`, options, conditions.
use std::sync::Arc;

use varia_interpreter::{Position, Rules};

/// A game on a 3x3 grid with the compass `n s e w`; `pieces` and `extra` go into the game.
fn game(pieces: &str, setup: &str, extra: &str) -> String {
    format!(
        r#"(game (title "t") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c" (10 0)) ("3/2/1" (0 10)))
    (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0))))
  {pieces}
  (board-setup {setup})
  {extra})"#
    )
}

fn moves_of(text: &str) -> Vec<String> {
    let game = varia_zrf::load(text, None).unwrap_or_else(|e| panic!("{}\n{text}", e.render(text)));
    let mut pos = Position::start(Arc::new(Rules::new(game.variant)));
    let mut out = Vec::new();
    pos.legal_moves(&mut out);
    out.iter().map(|m| pos.long_notation(*m)).collect()
}

#[test]
fn opposite_steps_back_along_a_direction() {
    let text = game("(piece (name Man) (moves (n n (opposite n) add)))", "(White (Man a1)) (Black (Man c3))", "");
    // Two steps north and one back: one step north.
    assert_eq!(moves_of(&text), ["Ma1-a2"]);
}

#[test]
fn opposite_of_an_unknown_direction_is_a_located_error() {
    let text = game("(piece (name Man) (moves (n (opposite up) add)))", "(White (Man a1)) (Black (Man c3))", "");
    let e = varia_zrf::load(&text, None).unwrap_err();
    assert_eq!(e.message, "unknown direction 'up'");
    assert_eq!(&text[e.span.clone()], "up");
}

/// A 9x1 strip a1..i1: a White man on c1 may jump a Black man west (b1, one capture) or east
/// (d1, then on over f1: two captures in two partial moves).
fn strip(options: &str) -> String {
    format!(
        r#"(game (title "t") (players White Black) (turn-order White Black) {options}
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c/d/e/f/g/h/i" (10 0)) ("1" (0 10)))
    (directions (e 1 0) (w -1 0))))
  (piece (name Man) (moves
    (w (verify enemy?) capture w (verify empty?) add-partial)
    (e (verify enemy?) capture e (verify empty?) add-partial)))
  (board-setup (White (Man c1)) (Black (Man b1 d1 f1))))"#
    )
}

#[test]
fn maximal_captures_keeps_the_turns_that_take_the_most() {
    assert_eq!(moves_of(&strip("")), ["Mc1xa1xb1,then", "Mc1xe1xd1,then"]);
    assert_eq!(moves_of(&strip(r#"(option "maximal captures" true)"#)), ["Mc1xe1xd1,then"]);
    assert_eq!(moves_of(&strip(r#"(option "maximal captures" false)"#)), ["Mc1xa1xb1,then", "Mc1xe1xd1,then"]);
    // 2 is Zillions' tie-break on kings (tests/real_constructs.rs); no other number is.
    let text = strip(r#"(option "maximal captures" 3)"#);
    let e = varia_zrf::load(&text, None).unwrap_err();
    assert_eq!(e.message, "unsupported ZRF construct 'option \"maximal captures\" 3'");
    assert_eq!(e.label, "\"maximal captures\" must be true, false or 2");
    assert_eq!(&text[e.span.clone()], "3");
}

#[test]
fn include_off_pieces_counts_pieces_in_hand_in_goals() {
    // White's only King starts in hand: without the option White has lost at once.
    let text = |options: &str| {
        format!(
            r#"(game (title "t") (players White Black) (turn-order White Black) {options}
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c" (10 0)) ("1" (0 10)))
    (directions (e 1 0) (w -1 0))))
  (piece (name King) (moves (e (verify empty?) add)) (drops ((verify empty?) add)))
  (board-setup (White (King off 1)) (Black (King c1)))
  (loss-condition (White Black) (pieces-remaining 0 King)))"#
        )
    };
    assert_eq!(moves_of(&text("")), Vec::<String>::new());
    assert_eq!(moves_of(&text(r#"(option "include off pieces" true)"#)), ["K@a1", "K@b1"]);
}

#[test]
fn a_later_setup_piece_replaces_an_earlier_one_with_a_note() {
    let text = game(
        "(piece (name Man) (moves (n add))) (piece (name Queen) (moves (e add)))",
        "(White (Man a1 b1) (Queen a1)) (Black (Man c3))",
        "",
    );
    let game = varia_zrf::load(&text, None).expect("loads");
    assert_eq!(game.notes.len(), 1);
    assert_eq!(game.notes[0].message, "Queen on position 'a1' replaces the Man placed there before");
    assert_eq!(&text[game.notes[0].span.clone()], "a1");
    // The Queen stands on a1 (a bare `add` takes even a friend, as in Zillions).
    assert_eq!(moves_of(&text), ["Qa1xb1", "Mb1-b2"]);
}

#[test]
fn a_zone_may_list_killed_positions_which_it_leaves_out() {
    let text = game(
        "(piece (name Man) (moves ((verify (in-zone? goal)) n add)))",
        "(White (Man a1)) (Black (Man c3))",
        "",
    )
    .replace(
        "(directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0))))",
        "(directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0))) (kill-positions b2) (zone (name goal) (players White Black) (positions a1 b2)))",
    );
    let game = varia_zrf::load(&text, None).unwrap_or_else(|e| panic!("{}", e.render(&text)));
    assert_eq!(game.notes.len(), 1, "{:?}", game.notes);
    assert_eq!(&text[game.notes[0].span.clone()], "b2");
    assert_eq!(moves_of(&text), ["Ma1-a2"]);
}

#[test]
fn glyph_is_presentation_in_pieces_and_zones() {
    let text = game(
        r#"(piece (name Man) (glyph White "w.bmp" Black "b.bmp") (moves (n add)))"#,
        "(White (Man a1)) (Black (Man c3))",
        "",
    )
    .replace(
        "(directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0))))",
        r#"(directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0))) (zone (name home) (players White) (positions a3) (glyph "h.bmp")))"#,
    );
    assert_eq!(moves_of(&text), ["Ma1-a2"]);
}

#[test]
fn perft_turns_counts_a_chain_of_partial_moves_as_one_turn() {
    let game = varia_zrf::load(&strip(""), None).expect("loads");
    let mut pos = Position::start(Arc::new(Rules::new(game.variant)));
    // Two turns: c1xa1 (no jump follows), and c1xe1 then e1xg1 (the second jump is compulsory).
    assert_eq!(varia_interpreter::perft_turns(&mut pos, 1).expect("turns end"), 2);
    let split: Vec<u64> =
        varia_interpreter::divide_turns(&mut pos, 1).expect("turns end").into_iter().map(|(_, n)| n).collect();
    assert_eq!(split, [1, 1]);
}

#[test]
fn one_amazons_turn_is_a_move_and_a_shot() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/zrf-corpus/stalemate/amazons.zrf");
    let Ok((_, game)) = varia_zrf::load_file(&path, None) else {
        println!("skipping: no {}", path.display());
        return;
    };
    let mut pos = Position::start(Arc::new(Rules::new(game.variant)));
    // 80 queen moves from the start, each followed by its shots: 2,176 whole turns, the
    // number of first moves of the Game of the Amazons as published (Wikipedia: 2,176).
    assert_eq!(varia_interpreter::perft(&mut pos, 1), 80);
    assert_eq!(varia_interpreter::perft_turns(&mut pos, 1).expect("turns end"), 2176);
}

#[test]
fn a_zillions_pawn_is_written_and_read_without_its_letter() {
    let text = include_str!("games/chess.zrf");
    let game = varia_zrf::load(text, None).expect("loads");
    let mut pos = Position::start(Arc::new(Rules::new(game.variant)));
    let mv = pos.parse_move("e4").expect("e4 is the pawn's double step");
    assert_eq!(pos.long_notation(mv), "e2-e4");
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    assert_eq!(pos.short_notation(mv, &legal), "e4");
    let knight = pos.parse_move("Nf3").expect("Nf3");
    assert_eq!(pos.long_notation(knight), "Ng1-f3");
}

#[test]
fn a_letter_from_later_in_a_name_never_reads_as_another_chess_piece() {
    // Shatranj's names: Sarbaz (the pawn) would get R or B from its name; both read as chess
    // pieces it is not, so it takes Z.
    let text = game(
        "(piece (name Shah) (moves (n add))) (piece (name Rokh) (moves (n add))) (piece (name Asb) (moves (n add)))
         (piece (name Sarbaz) (moves (n add))) (piece (name Knight) (moves (n add))) (piece (name King) (moves (n add)))",
        "(White (Sarbaz a1)) (Black (Shah c3))",
        "",
    );
    let game = varia_zrf::load(&text, None).expect("loads");
    let letters: Vec<(String, char)> = game.variant.pieces.iter().map(|p| (p.name.clone(), p.letter)).collect();
    let expected = [("Shah", 'S'), ("Rokh", 'R'), ("Asb", 'A'), ("Sarbaz", 'Z'), ("Knight", 'N'), ("King", 'K')];
    assert_eq!(letters, expected.map(|(n, l)| (n.to_string(), l)));
}

#[test]
fn relative_config_finds_a_pattern_anywhere_on_the_board() {
    let text = game(
        "(piece (name Man) (moves (w (verify empty?) add)))",
        "(White (Man a1 a2 b3)) (Black (Man c1))",
        "(win-condition (White Black) (relative-config Man n Man n Man))",
    );
    let game = varia_zrf::load(&text, None).unwrap_or_else(|e| panic!("{}", e.render(&text)));
    let mut pos = Position::start(Arc::new(Rules::new(game.variant)));
    assert!(pos.outcome().is_none());
    let mv = pos.parse_move("Mb3-a3").expect("b3-a3");
    pos.make(mv);
    // a1, a2, a3: three Men one step north of each other, White's.
    let (result, _) = pos.outcome().expect("decided");
    assert_eq!(format!("{result:?}"), "Win(PlayerId(0))");
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert!(moves.is_empty());
}

#[test]
fn a_misspelt_instruction_is_called_a_mistake_in_the_file() {
    let text = game("(piece (name Man) (moves (n (varify empty?) add)))", "(White (Man a1)) (Black (Man c3))", "");
    let e = varia_zrf::load(&text, None).unwrap_err();
    assert_eq!(
        e.message,
        "'varify' is not a Zillions instruction or condition: a mistake in the file? (did you mean 'verify'?)"
    );
    assert_eq!(&text[e.span.clone()], "(varify empty?)");
    // A Zillions word Varia lacks is still "unsupported".
    let text = game("(piece (name Man) (moves (n (verify neutral?) add)))", "(White (Man a1)) (Black (Man c3))", "");
    assert_eq!(varia_zrf::load(&text, None).unwrap_err().message, "unsupported ZRF construct 'neutral?'");
}

#[test]
fn maximal_captures_over_a_partial_move_that_never_ends_is_bounded() {
    // The man may wander east and west for ever in one turn (until the bound on a turn's
    // actions): each position of the turn is weighed once, not each of the 2^31 chains.
    let text = strip(r#"(option "maximal captures" true)"#).replace(
        "(moves\n    (w (verify enemy?) capture w (verify empty?) add-partial)\n    (e (verify enemy?) capture e (verify empty?) add-partial))",
        "(moves (w (verify empty?) add-partial) (e (verify empty?) add-partial))",
    );
    assert!(text.contains("(moves (w (verify empty?) add-partial)"), "{text}");
    let text = text.replace("(Black (Man b1 d1 f1))", "(Black (Man i1))");
    assert_eq!(moves_of(&text), ["Mc1-b1,then", "Mc1-d1,then"]);
}

#[test]
fn options_spelt_with_hyphens_are_the_same_options() {
    let text = game(
        "(piece (name Man) (moves (n add)))",
        "(White (Man a1)) (Black (Man c3))",
        r#"(option "smart-moves" from) (option "include off-pieces" true) (option "progressive-levels" true)"#,
    );
    let game = varia_zrf::load(&text, None).expect("loads");
    assert!(game.variant.goals_count_hands);
    // Only the Dagaz option is unknown.
    let notes: Vec<&str> = game.notes.iter().map(|n| n.message.as_str()).collect();
    assert_eq!(notes, ["unknown option 'progressive-levels' ignored, as Zillions does"]);
}

#[test]
fn a_game_of_one_player_gets_a_second_player_who_never_moves() {
    let text = r#"(game (title "t") (players Solo)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a" (10 0)) ("3/2/1" (0 10)))
    (directions (n 0 -1))))
  (piece (name Man) (moves (n (verify empty?) add)))
  (board-setup (Solo (Man a1)))
  (loss-condition (Solo) (absolute-config Man (a3))))"#;
    let game = varia_zrf::load(text, None).unwrap_or_else(|e| panic!("{}", e.render(text)));
    let names: Vec<&str> = game.variant.players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["Solo", varia_zrf::lower::NOBODY]);
    let mut pos = Position::start(Arc::new(Rules::new(game.variant)));
    for expected in ["Ma1-a2", "Ma2-a3"] {
        // Every turn is Solo's.
        assert_eq!(pos.side_to_move().0, 0);
        let mv = pos.parse_move(expected).expect("legal");
        pos.make(mv);
    }
    // Solo reached a3 and lost: the win goes to the player who never moves.
    let (result, _) = pos.outcome().expect("decided");
    assert_eq!(format!("{result:?}"), "Win(PlayerId(1))");
}

#[test]
fn absolute_config_over_a_list_of_positions_is_met_by_any_of_them() {
    // White wins with a Man on any position of the top rank, as breakthrough.zrf means it.
    let text = game(
        "(piece (name Man) (moves (n add)))",
        "(White (Man b2)) (Black (Man a1))",
        "(win-condition (White) (absolute-config Man (a3 b3 c3)))",
    );
    let game = varia_zrf::load(&text, None).expect("loads");
    let mut pos = Position::start(Arc::new(Rules::new(game.variant)));
    assert!(pos.outcome().is_none());
    let mv = pos.parse_move("Mb2-b3").expect("legal");
    pos.make(mv);
    let (result, _) = pos.outcome().expect("the Man on b3 wins");
    assert_eq!(result, varia_interpreter::GameResult::Win(varia_interpreter::ir::PlayerId(0)));
}

/// White, Black and a neutral N (never in the turn order) on a 3x3 board.
fn shared(option: &str) -> String {
    format!(
        r#"(game (title "t") {option} (players White Black N) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c" (10 0)) ("3/2/1" (0 10)))
    (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0))))
  (piece (name Man) (moves (n (verify empty?) add)))
  (piece (name Own) (moves ((verify friend?) n (verify empty?) add)))
  (board-setup (White (Man a1) (Own c1)) (Black (Man c3)) (N (Man b2) (Own a2))))"#
    )
}

#[test]
fn a_neutral_players_pieces_stand_and_nobody_moves_them() {
    // White's Man on a1 is blocked by N's Own on a2; N's Man on b2 is not White's to move.
    assert_eq!(moves_of(&shared("")), ["Oc1-c2"]);
}

#[test]
fn shared_pieces_let_the_mover_move_every_piece_as_its_own() {
    // N's Man steps north for White; N's Own does not, as its move checks the piece is the
    // mover's (`verify friend?`), and Black's Man on c3 has no cell north of it.
    assert_eq!(moves_of(&shared(r#"(option "shared pieces" true)"#)), ["Oc1-c2", "Mb2-b3"]);
}

#[test]
fn a_board_of_levels_takes_directions_within_a_level_and_links_between_levels() {
    // Two levels of 2 x 2; the directions give two deltas of three (the level's is 0), and
    // `links` joins the levels, as three-dimensional Zillions files write them.
    let text = r#"(game (title "t") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10)
      (dimensions ("a/b" (10 0)) ("2/1" (0 10)) ("B/A" (0 0)))
      (directions (n 0 -1) (e 1 0)))
    (links up (a1A a1B) (b1A b1B)))
  (piece (name Man) (moves (n (verify empty?) add) (e (verify empty?) add) (up (verify empty?) add)))
  (board-setup (White (Man a1A)) (Black (Man b2B))))"#;
    let mut moves = moves_of(text);
    moves.sort();
    // North to a2 and east to b1 on its own level, up to the level above; never across levels.
    assert_eq!(moves, ["Ma1A-a1B", "Ma1A-a2A", "Ma1A-b1A"]);
}

#[test]
fn a_symmetry_of_no_player_or_of_no_direction_is_passed_over_with_a_note() {
    let text = game("(piece (name Man) (moves (n (verify empty?) add)))", "(White (Man a1)) (Black (Man c3))", "")
        .replace("(w -1 0))))", "(w -1 0))) (symmetry Black (n s) (s n) (n up)) (symmetry Silver (n s)))");
    let game = varia_zrf::load(&text, None).unwrap_or_else(|e| panic!("{}", e.render(&text)));
    let notes: Vec<(&str, &str)> = game.notes.iter().map(|n| (n.message.as_str(), &text[n.span.clone()])).collect();
    assert_eq!(
        notes,
        [
            ("'up' is no direction of the board: the symmetry pair (n up) is ignored", "(n up)"),
            ("a symmetry of 'Silver', who is not a player: ignored", "Silver"),
        ]
    );
    // The pairs that name real directions still hold: Black's north is south.
    assert_eq!(moves_of(&text), ["Ma1-a2"]);
    let mut pos = Position::start(Arc::new(Rules::new(game.variant)));
    let mut out = Vec::new();
    pos.legal_moves(&mut out);
    pos.make(out[0]);
    pos.legal_moves(&mut out);
    let black: Vec<String> = out.iter().map(|m| pos.long_notation(*m)).collect();
    assert_eq!(black, ["Mc3-c2"]);
}
