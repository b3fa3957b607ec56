//! PGN: games written with tags and SAN (Varia's notation where SAN has none), read back with comments, variations and several games, and replayed to the same position in every bundled variant.

mod common;

use varia_interpreter::pgn;
use varia_interpreter::Position;

/// Replays a read game's moves from `start`.
fn replay(mut pos: Position, game: &pgn::Game) -> Position {
    for (text, _) in &game.moves {
        let mv = pos.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        pos.make(mv);
    }
    pos
}

fn tags() -> Vec<(&'static str, String)> {
    vec![("Event", "test".to_string()), ("White", "a".to_string()), ("Black", "b \"c\"".to_string())]
}

#[test]
fn chess_is_written_as_standard_pgn() {
    let rules = common::rules("chess.var");
    let mut pos = Position::start(rules);
    common::play(&mut pos, "e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7");
    let text = pgn::write(&pos, &tags());
    insta::assert_snapshot!(text, @r#"
    [Event "test"]
    [Site "?"]
    [Date "????.??.??"]
    [Round "?"]
    [White "a"]
    [Black "b \"c\""]
    [Result "1-0"]

    1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# {checkmate} 1-0
    "#);
    let games = pgn::read(&text).expect("it reads back");
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].tag("Black"), Some("b \"c\""));
    assert_eq!(games[0].result.as_deref(), Some("1-0"));
    let again = replay(Position::start(pos.rules().clone()), &games[0]);
    assert_eq!(again.to_position_string(), pos.to_position_string());
}

#[test]
fn a_game_from_a_position_or_of_another_variant_carries_its_fen_and_variant() {
    let rules = common::rules("chess.var");
    let start = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 7";
    let mut pos = common::position(&rules, start);
    common::play(&mut pos, "Kd7 e4");
    let text = pgn::write(&pos, &[]);
    assert!(text.contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 7\"]\n"), "{text}");
    assert!(text.contains("\n7... Kd7 8. e4 *\n"), "{text}");
    assert!(!text.contains("Variant"), "{text}");
    // Hans38: the variant's title and its setup as FEN; square actions in Varia's notation.
    let rules = common::rules("hans38.var");
    let mut pos = Position::start(rules.clone());
    common::play(&mut pos, "@@f3 @@f6 Ng1-f3 Ng8-f6 @@e3 @g8-e6");
    let text = pgn::write(&pos, &[]);
    assert!(text.contains("[Variant \"Hans38 Chess\"]"), "{text}");
    assert!(text.contains(&format!("[FEN \"{}\"]", Position::start(rules.clone()).to_position_string())), "{text}");
    assert!(text.contains("1. @@f3 @@f6 2. Nf3 Nf6 3. @@e3 @g8-e6 *"), "{text}");
    let game = &pgn::read(&text).unwrap()[0];
    let start = Position::from_position_string(rules, game.tag("FEN").unwrap()).unwrap();
    assert_eq!(replay(start, game).to_position_string(), pos.to_position_string());
}

#[test]
fn reading_skips_comments_variations_glyphs_and_escapes_and_splits_games() {
    let text = "% an escape line\n[Event \"one\"]\n[Site \"x\"]\n\n\
                1. e4 {a comment} e5 ; to the end of the line\n2.Nf3 (2. f4 exf4 (2... d5) {in} 3. Nf3) $1 Nc6!? 3. Bb5 1/2-1/2\n\n\
                [Event \"two\"]\n1. d4 d5 *\n\n1. c4\n";
    let games = pgn::read(text).expect("reads");
    assert_eq!(games.len(), 3);
    assert_eq!(games[0].tag("Event"), Some("one"));
    let moves: Vec<&str> = games[0].moves.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(moves, ["e4", "e5", "Nf3", "Nc6!?", "Bb5"]);
    // Offsets point at the moves (for line and column in messages).
    let (m, at) = &games[0].moves[2];
    assert_eq!(&text[*at..*at + m.len()], "Nf3");
    assert_eq!(games[0].result.as_deref(), Some("1/2-1/2"));
    assert_eq!(games[1].tag("Event"), Some("two"));
    assert_eq!(games[1].moves.len(), 2);
    assert_eq!(games[2].moves.iter().map(|(m, _)| m.as_str()).collect::<Vec<_>>(), ["c4"]);
    assert_eq!(games[2].result, None);
}

#[test]
fn malformed_pgn_is_a_located_error() {
    for (text, message, at) in [
        ("1. e4 { never closed", "this `{` comment is never closed: expected `}`", 6),
        ("1. e4 (1. d4 d5", "this `(` variation is never closed: expected `)`", 6),
        ("1. e4 e5) 2. Nf3", "`)` without an opening `(`", 8),
        ("[Event \"x]\n1. e4", "the value of tag `Event` is never closed", 10),
        ("[Event x]", "expected a quoted value for tag `Event`", 7),
        ("[ \"x\"]", "expected a tag name after `[`", 2),
        ("[Event \"x\" 1. e4", "expected `]` to close tag `Event`", 11),
        ("1. e4 } e5", "`}` without an opening `{`", 6),
    ] {
        let e = pgn::read(text).expect_err(text);
        assert_eq!((e.message.as_str(), e.offset), (message, at), "{text}");
    }
}

#[test]
fn random_games_of_every_bundled_variant_read_back_to_the_same_position() {
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    for name in common::variant_files() {
        let rules = common::rules(&name);
        for game in 0..3 {
            let mut pos = Position::start(rules.clone());
            let mut legal = Vec::new();
            for _ in 0..40 {
                pos.legal_moves(&mut legal);
                if legal.is_empty() || pos.outcome().is_some() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos.make(legal[(seed % legal.len() as u64) as usize]);
            }
            let text = pgn::write(&pos, &[("Round", game.to_string())]);
            let games = pgn::read(&text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
            let start = match games[0].tag("FEN") {
                Some(fen) => Position::from_position_string(rules.clone(), fen).expect("its FEN"),
                None => Position::start(rules.clone()),
            };
            let again = replay(start, &games[0]);
            assert_eq!(again.to_position_string(), pos.to_position_string(), "{name}\n{text}");
            let long = text.lines().filter(|l| !l.starts_with("[")).any(|l| l.len() > 80);
            assert!(!long, "{name}: a line of movetext over 80 characters\n{text}");
        }
    }
}

/// chess.var's text with its `pgn-variant standard` line replaced by `decl`.
fn chess_declaring(decl: &str) -> Position {
    let text = std::fs::read_to_string(common::root().join("variants/chess.var")).expect("chess.var");
    assert!(text.contains("\npgn-variant standard\n"), "chess.var declares itself standard");
    let text = text.replace("\npgn-variant standard\n", &format!("\n{decl}\n"));
    let variant = varia_grammar::load(&text).unwrap_or_else(|e| panic!("{e:?}"));
    Position::start(std::sync::Arc::new(varia_interpreter::Rules::new(variant)))
}

#[test]
fn the_variant_tag_is_what_the_file_declares_not_what_the_title_says() {
    // The same rules and title: only the declaration decides whether the game is standard PGN.
    let mut standard = chess_declaring("pgn-variant standard");
    let mut plain = chess_declaring("");
    let mut named = chess_declaring("pgn-variant \"From Position\"");
    for pos in [&mut standard, &mut plain, &mut named] {
        common::play(pos, "e4 e5");
    }
    let start = Position::start(standard.rules().clone()).to_position_string();
    let fen = format!("[SetUp \"1\"]\n[FEN \"{start}\"]\n");
    let text = pgn::write(&standard, &[]);
    assert!(!text.contains("[Variant") && !text.contains("[FEN"), "{text}");
    let text = pgn::write(&plain, &[]);
    assert!(text.contains(&format!("[Result \"*\"]\n[Variant \"Chess\"]\n{fen}")), "{text}");
    let text = pgn::write(&named, &[]);
    assert!(text.contains(&format!("[Result \"*\"]\n[Variant \"From Position\"]\n{fen}")), "{text}");
    // Each reads back to the same position from the start it names.
    let game = &pgn::read(&text).expect("reads")[0];
    assert!(pgn::tag_names(game.tag("Variant").unwrap(), &named.rules().variant));
    let from = Position::from_position_string(named.rules().clone(), game.tag("FEN").unwrap()).unwrap();
    assert_eq!(replay(from, game).to_position_string(), named.to_position_string());
}
