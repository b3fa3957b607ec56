//! Chess with Different Armies (variants/different-armies.var): one scenario per rule. Every
//! expected move list is Fairy-Stockfish's (pyffish 0.0.90) for the pairing configured by
//! tools/oracle-armies.py from Betza's army definitions, in its UCI form.

mod common;

use varia_interpreter::ir::PlayerId;
use varia_interpreter::{MoveKind, Position};

const FILE: &str = "different-armies.var";

fn at(text: &str) -> Position {
    common::position(&common::rules(FILE), text)
}

fn list(moves: &str) -> Vec<String> {
    moves.split_whitespace().map(str::to_string).collect()
}

#[test]
fn each_player_chooses_an_army_before_the_first_move_white_first() {
    let mut pos = at("start");
    assert_eq!(common::legal(&mut pos), list("army=clobberers army=fides army=nutty army=rookies"));
    assert_eq!(pos.side_to_move(), PlayerId(0));
    assert_eq!(pos.to_position_string(), "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1 choices=army:-,-");
    common::play(&mut pos, "army=nutty");
    // Black chooses knowing White's army; White's pieces and castling rights are there.
    assert_eq!(pos.side_to_move(), PlayerId(1));
    assert_eq!(pos.to_position_string(), "4k3/pppppppp/8/8/8/8/PPPPPPPP/GIHOKHIG b KQ - 0 1 choices=army:nutty,-");
    assert_eq!(common::legal(&mut pos).len(), 4);
    // The option's name alone is read too; choosing moves neither the clocks nor the move number.
    common::play(&mut pos, "clobberers");
    assert_eq!(pos.side_to_move(), PlayerId(0));
    assert_eq!(
        pos.to_position_string(),
        "dwackawd/pppppppp/8/8/8/8/PPPPPPPP/GIHOKHIG w KQkl - 0 1 choices=army:nutty,clobberers"
    );
    assert!(pos.outcome().is_none());
    // Taken back, the start comes back whole.
    let start = at("start");
    pos.unmake();
    pos.unmake();
    assert_eq!(pos.to_position_string(), start.to_position_string());
    assert_eq!(pos.hash(), start.hash());
}

#[test]
fn the_position_string_records_the_armies_and_reads_back() {
    let mut pos = at("start");
    common::play(&mut pos, "rookies fides e2e4");
    let text = pos.to_position_string();
    assert_eq!(text, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/SMFEKFMS b KQkq e3 0 1 choices=army:rookies,fides");
    let mut back = at(&text);
    assert_eq!(back.hash(), pos.hash());
    assert_eq!(common::legal(&mut back), common::legal(&mut pos));
    // Without the field the armies are still to be chosen, which a board already full cannot
    // take: a located error asks for the field.
    let rules = common::rules(FILE);
    let err = Position::from_position_string(rules, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/SMFEKFMS b KQkq e3 0 1")
        .expect_err("armies not given");
    assert!(err.message.contains("choices=army:"), "{}", err.message);
}

#[test]
fn the_nutty_knights_move_as_betza_wrote_them() {
    // Colonel d5, charging knight d4, fibnif d3, charging rook d2; then Black's, seen from its side.
    let mut pos = at("4k3/8/8/3O4/3H4/3I4/3G4/4K3 w - - 0 1 choices=army:nutty,clobberers");
    assert_eq!(
        common::uci(&mut pos),
        list(
            "d2a2 d2b2 d2c1 d2c2 d2d1 d2e2 d2f2 d2g2 d2h2 d3c1 d3c2 d3c4 d3c5 d3e2 d3e4 d3e5 d4b5 d4c3 d4c4 d4c6 d4e3 \
             d4e4 d4e6 d4f5 d5a5 d5b5 d5b6 d5c4 d5c5 d5c6 d5c7 d5d6 d5d7 d5d8 d5e4 d5e5 d5e6 d5e7 d5f5 d5f6 d5g5 d5h5 \
             e1d1 e1e2 e1f1 e1f2"
        )
    );
    let mut pos = at("4k3/3g4/3i4/3h4/3o4/8/8/4K3 b - - 0 1 choices=army:clobberers,nutty");
    assert_eq!(
        common::uci(&mut pos),
        list(
            "d4a4 d4b3 d4b4 d4c2 d4c3 d4c4 d4c5 d4d1 d4d2 d4d3 d4e2 d4e3 d4e4 d4e5 d4f3 d4f4 d4g4 d4h4 d5b4 d5c3 d5c5 \
             d5c6 d5e3 d5e5 d5e6 d5f4 d6c4 d6c5 d6c7 d6c8 d6e4 d6e5 d6e7 d7a7 d7b7 d7c7 d7c8 d7d8 d7e7 d7f7 d7g7 d7h7 \
             e8d8 e8e7 e8f7 e8f8"
        )
    );
}

#[test]
fn the_colorbound_clobberers_and_the_remarkable_rookies_move_as_betza_wrote_them() {
    // Cardinal d5, Bede d4, Waffle d3, Fad d2.
    let mut pos = at("4k3/8/8/3C4/3D4/3W4/3A4/4K3 w - - 0 1 choices=army:clobberers,rookies");
    assert_eq!(
        common::uci(&mut pos),
        list(
            "d2b2 d2b4 d2c1 d2c3 d2e3 d2f2 d2f4 d3b1 d3b5 d3c3 d3e3 d3f1 d3f5 d4a1 d4a7 d4b2 d4b4 d4b6 d4c3 d4c5 d4d6 \
             d4e3 d4e5 d4f2 d4f4 d4f6 d4g1 d4g7 d4h8 d5a2 d5a8 d5b3 d5b4 d5b6 d5b7 d5c3 d5c4 d5c6 d5c7 d5e3 d5e4 d5e6 \
             d5e7 d5f3 d5f4 d5f6 d5f7 d5g2 d5g8 d5h1 e1d1 e1e2 e1f1 e1f2"
        )
    );
    // Chancellor d5, short rook d4 (four squares at most), woody rook d3, half-duck d2.
    let mut pos = at("4k3/8/8/3E4/3S4/3M4/3F4/4K3 w - - 0 1 choices=army:rookies,fides");
    assert_eq!(
        common::uci(&mut pos),
        list(
            "d2a2 d2b2 d2c1 d2c3 d2e3 d2f2 d2g2 d3b3 d3c3 d3d1 d3e3 d3f3 d4a4 d4b4 d4c4 d4e4 d4f4 d4g4 d4h4 d5a5 d5b4 \
             d5b5 d5b6 d5c3 d5c5 d5c7 d5d6 d5d7 d5d8 d5e3 d5e5 d5e7 d5f4 d5f5 d5f6 d5g5 d5h5 e1d1 e1e2 e1f1 e1f2"
        )
    );
}

#[test]
fn a_pawn_promotes_to_a_piece_of_either_army_in_play() {
    let mut pos = at("4k3/6P1/8/8/8/8/8/4K3 w - - 0 1 choices=army:fides,nutty");
    assert_eq!(common::uci(&mut pos), list("e1d1 e1d2 e1e2 e1f1 e1f2 g7g8b g7g8g g7g8h g7g8i g7g8n g7g8o g7g8q g7g8r"));
    // With the same army on both sides, only its four pieces.
    let mut pos = at("4k3/6P1/8/8/8/8/8/4K3 w - - 0 1 choices=army:rookies,rookies");
    let promotions: Vec<String> = common::uci(&mut pos).into_iter().filter(|m| m.starts_with("g7")).collect();
    assert_eq!(promotions, list("g7g8e g7g8f g7g8m g7g8s"));
}

#[test]
fn every_army_castles_with_its_corner_piece_and_the_bede_keeps_its_colour() {
    // The Clobberers castle long with the king to b1 and the Bede to c1.
    let mut pos = at("dwackawd/pppppppp/8/8/8/8/PPPPPPPP/D3K2D w KLkl - 0 1 choices=army:clobberers,clobberers");
    assert_eq!(
        common::uci(&mut pos),
        list(
            "a1a3 a1c1 a2a3 a2a4 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e1b1 e1d1 e1f1 e1g1 e2e3 e2e4 f2f3 f2f4 g2g3 g2g4 h1f1 \
             h1h3 h2h3 h2h4"
        )
    );
    common::play(&mut pos, "O-O-O");
    let rules = pos.rules().clone();
    let at_cell = |pos: &Position, c: &str| pos.piece_at(rules.cell_by_name(c).unwrap()).map(|p| rules.piece_symbol(p));
    assert_eq!(at_cell(&pos, "b1").as_deref(), Some("K"));
    assert_eq!(at_cell(&pos, "c1").as_deref(), Some("D"));
    // The Nutty Knights' charging rook castles as a rook does.
    let mut pos = at("4k3/8/8/8/8/8/8/G3K2G w KQ - 0 1 choices=army:nutty,fides");
    let castles: Vec<String> = common::uci(&mut pos).into_iter().filter(|m| m == "e1c1" || m == "e1g1").collect();
    assert_eq!(castles, list("e1c1 e1g1"));
}

#[test]
fn the_choices_survive_every_route_through_the_position_string() {
    // Every pairing, then one move each, counted in place and from the written string.
    assert_eq!(common::perft_two_routes(FILE, 2), 9604);
}

#[test]
fn the_engine_chooses_an_army_when_it_plays() {
    let mut pos = at("start");
    let mut searcher = varia_interpreter::Searcher::new(pos.rules(), 1);
    let limits = varia_interpreter::Limits { depth: Some(2), ..Default::default() };
    let best = searcher.search(&mut pos.clone(), limits, |_| {}).best();
    let best = best.expect("a move");
    assert_eq!(best.kind, MoveKind::Choose);
    // Its choice is one of the options on offer, and the game goes on after it.
    assert!(common::legal(&mut pos).contains(&pos.long_notation(best)));
}

#[test]
fn a_bad_choices_field_is_a_located_error() {
    let rules = common::rules(FILE);
    let base = "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1 ";
    for (field, offset, says) in [
        ("choices=colour:fides,-", 8, "expected a choice of this game (army), found `colour`"),
        (
            "choices=army:fides,nuty",
            19,
            "expected an option of `army` (fides, clobberers, rookies, nutty) or `-`, found `nuty`",
        ),
        ("choices=army:fides", 13, "expected one option (or `-`) for each of the 2 players, found `fides`"),
        ("choices=army", 8, "expected `choice:option,option`, found `army`"),
    ] {
        let text = format!("{base}{field}");
        let err = Position::from_position_string(rules.clone(), &text).expect_err(field);
        assert_eq!((err.offset, err.message.as_str()), (base.len() + offset, says), "{field}");
    }
}

/// The army section (the pawn, the armies' pieces, castlings, setup and choice) of a file.
fn army_section(file: &str) -> String {
    let text = std::fs::read_to_string(common::root().join("variants").join(file)).expect("variant file");
    let start = text.find("// A pawn promotes to any piece").expect("the pawn's comment");
    let end = text[start..].find("\nchoice army {").map(|i| start + i).expect("the choice");
    let end = end + text[end..].find("\n}\n").expect("the choice's end") + 3;
    text[start..end].to_string()
}

#[test]
fn hans38_and_safety_in_numbers_take_the_same_armies() {
    let armies = army_section(FILE);
    assert!(armies.contains("option nutty"));
    for file in ["hans38-armies.var", "safety-in-numbers-armies.var"] {
        assert_eq!(army_section(file), armies, "{file} repeats the armies word for word");
    }
}

/// The position string without its `choices=` field.
fn without_choices(pos: &Position) -> String {
    let text = pos.to_position_string();
    text.split(' ').filter(|f| !f.starts_with("choices=")).collect::<Vec<_>>().join(" ")
}

#[test]
fn with_two_fide_armies_hans38_and_safety_in_numbers_are_the_games_themselves() {
    // Counts of tools/hans38-oracle and tools/safety-in-numbers-oracle (tests/perft.txt).
    for (file, base, counts) in [
        ("hans38-armies.var", "hans38.var", [32, 1004, 44212]),
        ("safety-in-numbers-armies.var", "safety-in-numbers.var", [20, 400, 8910]),
    ] {
        let mut pos = common::position(&common::rules(file), "start");
        common::play(&mut pos, "fides fides");
        let original = common::position(&common::rules(base), "start");
        assert_eq!(without_choices(&pos), original.to_position_string(), "{file}");
        for (d, n) in counts.iter().enumerate() {
            assert_eq!(varia_interpreter::perft(&mut pos, d as u32 + 1), *n, "{file}: perft {}", d + 1);
        }
    }
}

#[test]
fn in_hans38_the_chosen_army_owns_its_squares_and_moves_only_onto_squares() {
    let mut pos = common::position(&common::rules("hans38-armies.var"), "start");
    common::play(&mut pos, "nutty clobberers");
    // Nothing but the knights' leaps could reach the empty middle, and there are no squares
    // there: the first actions are square actions alone.
    let moves = common::legal(&mut pos);
    assert!(moves.iter().all(|m| m.starts_with('@')), "{moves:?}");
    // A square placed on c3 takes the fibnif's narrow leap from b1; the Waffle's alfil leap from
    // g8 to e6 needs a square there too.
    common::play(&mut pos, "@@c3 @@e6");
    let moves = common::legal(&mut pos);
    assert_eq!(common::targets(&moves, "Ib1"), ["c3".to_string()].into_iter().collect());
    common::play(&mut pos, "Ib1-c3");
    let moves = common::legal(&mut pos);
    assert!(common::has(&moves, "Wg8-e6"), "{moves:?}");
    // The squares under both armies are their owners': the squares the fibnif and the waffle
    // left are White's (`+`) and Black's (`-`).
    common::play(&mut pos, "Wg8-e6");
    assert_eq!(
        pos.to_position_string(),
        "dwacka-d/pppppppp/****w***/********/********/**I*****/PPPPPPPP/G+HOKHIG w KQkl - 4 3 2,2 - choices=army:nutty,clobberers"
    );
}

#[test]
fn in_safety_in_numbers_an_army_piece_joins_a_mixed_crowd() {
    let rules = common::rules("safety-in-numbers-armies.var");
    // A woody rook below a crowd of two pawns (one each): it may join them, as any piece may
    // join a crowd that holds an enemy piece, and nothing there can be captured.
    let mut pos = common::position(&rules, "4k3/8/8/3(Pp)4/3M4/8/8/4K3 w - - 0 1 choices=army:rookies,nutty");
    let moves = common::legal(&mut pos);
    assert!(common::targets(&moves, "Md4").contains("d5"), "{moves:?}");
    common::play(&mut pos, "Md4-d5");
    assert_eq!(pos.pieces_at(rules.cell_by_name("d5").unwrap()).len(), 3);
}
