//! Reads the project's own test games in `tests/games/` (see the README there) and checks that
//! they expand cleanly and have the shape the README describes. What the games mean when played
//! is for the engine's tests; here only the reader and the macro expansion are exercised.
use std::path::PathBuf;

use varia_zrf::{read, Sexp, ZrfFile};

const GAMES: [&str; 4] = ["chess.zrf", "drops.zrf", "links.zrf", "partial.zrf"];

fn load(name: &str) -> (String, ZrfFile) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/games").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let file = read(&text).unwrap_or_else(|e| panic!("{name}:{}", e.render(&text)));
    (text, file)
}

/// The single `(game ...)` form of a file.
fn game_of<'a>(name: &str, file: &'a ZrfFile) -> &'a Sexp {
    let games: Vec<&Sexp> = file.forms_named("game").collect();
    assert_eq!(games.len(), 1, "{name}: expected exactly one (game ...) form");
    games[0]
}

/// The items of the first direct child `(keyword ...)` of a form.
fn child<'a>(form: &'a Sexp, keyword: &str) -> Option<&'a [Sexp]> {
    form.tail().iter().find(|item| item.is_form(keyword)).map(Sexp::tail)
}

/// Every direct child `(keyword ...)` of a form.
fn children<'a>(form: &'a Sexp, keyword: &'a str) -> impl Iterator<Item = &'a Sexp> + 'a {
    form.tail().iter().filter(move |item| item.is_form(keyword))
}

/// The `(piece ...)` form named `name` directly inside `form`.
fn piece<'a>(form: &'a Sexp, name: &str) -> &'a Sexp {
    children(form, "piece")
        .find(|piece| child(piece, "name").and_then(|n| n.first()).is_some_and(|n| n.is_atom(name)))
        .unwrap_or_else(|| panic!("no piece {name}"))
}

/// The move definitions of a piece's `(moves ...)` (the `(move-type T)` markers left out).
fn moves_of(piece: &Sexp) -> Vec<String> {
    child(piece, "moves")
        .expect("a moves block")
        .iter()
        .filter(|mv| !mv.is_form("move-type"))
        .map(ToString::to_string)
        .collect()
}

/// One placement of a `board-setup`: the piece type, its squares and how many start off the board.
type Placement = (String, Vec<String>, usize);

/// For each player of a `board-setup`, the pieces it places.
fn setup(form: &Sexp) -> Vec<(String, Vec<Placement>)> {
    let board_setup = child(form, "board-setup").expect("a board-setup");
    board_setup
        .iter()
        .map(|player| {
            let owner = player.head().expect("a player name").to_string();
            let placements = player
                .tail()
                .iter()
                .map(|placement| {
                    let items = placement.as_list().expect("a placement list");
                    let kind = items[0].as_atom().expect("a piece name").to_string();
                    let mut squares = Vec::new();
                    let mut off = 0;
                    let mut rest = items[1..].iter();
                    while let Some(item) = rest.next() {
                        if item.is_atom("off") {
                            let count = rest.next().and_then(Sexp::as_atom).expect("a count after off");
                            off += count.parse::<usize>().expect("a number after off");
                        } else {
                            squares.push(item.as_atom().expect("a square").to_string());
                        }
                    }
                    (kind, squares, off)
                })
                .collect();
            (owner, placements)
        })
        .collect()
}

/// True when a text still holds a `$k` parameter.
fn has_param(text: &str) -> bool {
    text.as_bytes().windows(2).any(|w| w[0] == b'$' && w[1].is_ascii_digit())
}

#[test]
fn every_game_expands_with_one_titled_game() {
    for name in GAMES {
        let (_, file) = load(name);
        let game = game_of(name, &file);
        let title = child(game, "title").and_then(|t| t.first()).and_then(Sexp::as_str);
        assert!(title.is_some_and(|t| !t.trim().is_empty()), "{name}: the game has no title");
        for form in &file.forms {
            form.walk(&mut |node: &Sexp| {
                if let Some(text) = node.text() {
                    assert!(!has_param(text), "{name}: a parameter is left in {node}");
                }
                if let Some(head) = node.head() {
                    let is_macro = file.macros.keys().any(|m| m.eq_ignore_ascii_case(head));
                    assert!(!is_macro, "{name}: macro '{head}' is left unexpanded in {node}");
                }
                assert!(!node.is_form("define"), "{name}: a define is left in {node}");
            });
        }
        for variant in file.variants() {
            assert!(child(variant, "title").is_some(), "{name}: a variant without a title");
        }
    }
}

#[test]
fn chess_sets_up_thirty_two_pieces() {
    let (_, file) = load("chess.zrf");
    let game = game_of("chess.zrf", &file);
    let sides = setup(game);
    let owners: Vec<&str> = sides.iter().map(|(owner, _)| owner.as_str()).collect();
    assert_eq!(owners, ["White", "Black"]);
    let mut total = 0;
    for (owner, placements) in &sides {
        let count: usize = placements.iter().map(|(_, squares, _)| squares.len()).sum();
        assert_eq!(count, 16, "{owner} places 16 pieces");
        assert!(placements.iter().all(|(_, _, off)| *off == 0), "{owner}: nothing is off the board");
        total += count;
    }
    assert_eq!(total, 32);
    let white: Vec<String> =
        sides[0].1.iter().map(|(kind, squares, _)| format!("{kind} {}", squares.join(" "))).collect();
    assert_eq!(
        white,
        ["King e1", "Queen d1", "Rook a1 h1", "Bishop c1 f1", "Knight b1 g1", "Pawn a2 b2 c2 d2 e2 f2 g2 h2"]
    );
}

#[test]
fn chess_test_positions_are_setup_only_variants() {
    let (_, file) = load("chess.zrf");
    let shown: Vec<String> = file
        .variants()
        .map(|variant| {
            let title = child(variant, "title").and_then(|t| t.first()).and_then(Sexp::as_str).unwrap_or_default();
            let heads: Vec<&str> = variant.tail().iter().filter_map(Sexp::head).collect();
            if title == "-" {
                return format!("{title} {heads:?}");
            }
            let pieces: usize =
                setup(variant).iter().flat_map(|(_, placements)| placements.iter().map(|(_, s, _)| s.len())).sum();
            format!("{title} {heads:?} {pieces}")
        })
        .collect();
    assert_eq!(
        shown,
        [
            r#"- ["title"]"#,
            r#"Chess test position: Kiwipete ["title", "board-setup"] 32"#,
            r#"Chess test position: rook ending ["title", "board-setup"] 10"#,
            r#"Chess test position: promotions ["title", "board-setup"] 31"#,
        ]
    );
}

#[test]
fn chess_moves_expand_to_plain_zillions() {
    let (_, file) = load("chess.zrf");
    let game = game_of("chess.zrf", &file);
    // No program-specific option: the rules are all in the moves and goals.
    assert_eq!(children(game, "option").count(), 0);

    let king = moves_of(piece(game, "King"));
    assert_eq!(king.len(), 10);
    assert_eq!(king[0], "(n (verify not-friend?) (set-attribute never-moved? false) add)");
    assert_eq!(
        king[8],
        "(mark (verify never-moved?) e (verify empty?) e (verify empty?) \
         e (verify (and friend? (piece? Rook) never-moved?)) back (verify not-attacked?) \
         e (verify not-attacked?) e (verify not-attacked?) (set-attribute never-moved? false) \
         cascade e from w w (set-attribute never-moved? false) add)"
    );
    assert_eq!(
        king[9],
        "(mark (verify never-moved?) w (verify empty?) w (verify empty?) w (verify empty?) \
         w (verify (and friend? (piece? Rook) never-moved?)) back (verify not-attacked?) \
         w (verify not-attacked?) w (verify not-attacked?) (set-attribute never-moved? false) \
         cascade w w from e e e (set-attribute never-moved? false) add)"
    );

    let pawn = moves_of(piece(game, "Pawn"));
    assert_eq!(pawn.len(), 6);
    assert_eq!(pawn[0], "(n (verify empty?) (if (in-zone? promotion-zone) (add Queen Rook Bishop Knight) else add))");
    assert_eq!(pawn[1], "((verify (in-zone? pawn-start)) n (verify empty?) n (verify empty?) add)");
    let promotions = pawn.iter().filter(|mv| mv.contains("(add Queen Rook Bishop Knight)")).count();
    assert_eq!(promotions, 3, "the single step and both captures may promote");
    assert_eq!(
        pawn[4],
        "(e (verify (and enemy? last-to? (piece? Pawn))) capture n (verify empty?) to n (verify last-from?) add)"
    );

    for (kind, count) in [("Knight", 8), ("Bishop", 4), ("Rook", 4), ("Queen", 8)] {
        assert_eq!(moves_of(piece(game, kind)).len(), count, "{kind} moves");
    }
    for kind in ["King", "Rook"] {
        let attribute = child(piece(game, kind), "attribute").expect("an attribute");
        let shown: Vec<String> = attribute.iter().map(ToString::to_string).collect();
        assert_eq!(shown, ["never-moved?", "true"], "{kind}'s castling right");
    }

    let goals: Vec<String> = game
        .tail()
        .iter()
        .filter(|item| item.is_form("loss-condition") || item.is_form("draw-condition"))
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        goals,
        [
            "(loss-condition (White Black) (checkmated King))",
            "(draw-condition (White Black) stalemated)",
            "(draw-condition (White Black) repetition)",
        ]
    );
}

#[test]
fn drops_start_with_pieces_in_hand() {
    let (_, file) = load("drops.zrf");
    let game = game_of("drops.zrf", &file);
    let shown: Vec<String> = setup(game)
        .iter()
        .map(|(owner, placements)| {
            let parts: Vec<String> =
                placements.iter().map(|(kind, squares, off)| format!("{kind} {squares:?} off {off}")).collect();
            format!("{owner}: {}", parts.join(", "))
        })
        .collect();
    assert_eq!(
        shown,
        [
            r#"White: King ["c1"] off 0, Man [] off 3, Runner [] off 1"#,
            r#"Black: King ["c5"] off 0, Man [] off 3, Runner [] off 1"#,
        ]
    );
    let drops: Vec<(String, String)> = children(game, "piece")
        .filter_map(|piece| {
            let name = child(piece, "name")?.first()?.to_string();
            let drops = child(piece, "drops")?;
            Some((name, drops.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")))
        })
        .collect();
    assert_eq!(
        drops,
        [
            ("Man".to_string(), "((verify empty?) (verify (in-zone? home)) add)".to_string()),
            ("Runner".to_string(), "((verify empty?) add)".to_string()),
        ]
    );
    assert_eq!(
        moves_of(piece(game, "Man")),
        ["(n (verify not-friend?) add)", "(e (verify not-friend?) add)", "(w (verify not-friend?) add)"]
    );
}

#[test]
fn links_board_is_sewn_from_two_grids() {
    let (_, file) = load("links.zrf");
    let game = game_of("links.zrf", &file);
    let board = game.tail().iter().find(|item| item.is_form("board")).expect("a board");
    assert_eq!(children(board, "grid").count(), 2);
    for grid in children(board, "grid") {
        let directions = child(grid, "directions").expect("the compass macro spliced in");
        assert_eq!(directions.len(), 8);
    }
    // Six `links` forms sew the halves together (32 links), one more is the wormhole.
    let links: Vec<&Sexp> = children(board, "links").collect();
    assert_eq!(links.len(), 7);
    let seam: usize = links.iter().filter(|l| !l.tail()[0].is_atom("warp")).map(|l| l.tail().len() - 1).sum();
    assert_eq!(seam, 32);
    let warp = links.iter().find(|l| l.tail()[0].is_atom("warp")).expect("the wormhole");
    assert_eq!(warp.to_string(), "(links warp (b3 e4) (e4 b3))");
    let extras = |board: &Sexp| -> Vec<String> {
        board
            .tail()
            .iter()
            .filter(|item| item.is_form("kill-positions") || item.is_form("unlink"))
            .map(ToString::to_string)
            .collect()
    };
    let expected = ["(kill-positions a1 f1 a6 f6)", "(unlink (c3 d3) (d3 c3) (c4 d4) (d4 c4))"];
    assert_eq!(extras(board), expected);

    // The variant builds the same board from one grid, with the same extras.
    let variants: Vec<&Sexp> = file.variants().collect();
    assert_eq!(variants.len(), 1);
    let single = variants[0].tail().iter().find(|item| item.is_form("board")).expect("a board in the variant");
    assert_eq!(children(single, "grid").count(), 1);
    assert_eq!(extras(single), expected);
    assert_eq!(children(single, "zone").count(), 2);

    let stone = moves_of(piece(game, "Stone"));
    assert_eq!(stone.last().map(String::as_str), Some("(warp (verify not-friend?) add)"));
    let goal = game.tail().iter().find(|item| item.is_form("win-condition")).expect("a win condition");
    assert_eq!(goal.to_string(), "(win-condition (White Black) (absolute-config Stone (goal)))");
}

#[test]
fn partial_chains_jumps_with_move_types() {
    let (_, file) = load("partial.zrf");
    let game = game_of("partial.zrf", &file);
    let priorities = child(game, "move-priorities").expect("move priorities");
    let shown: Vec<String> = priorities.iter().map(ToString::to_string).collect();
    assert_eq!(shown, ["jump-type", "step-type"]);

    let frog = piece(game, "Frog");
    let block = child(frog, "moves").expect("Frog moves");
    let types: Vec<String> = block.iter().filter(|mv| mv.is_form("move-type")).map(ToString::to_string).collect();
    assert_eq!(types, ["(move-type jump-type)", "(move-type step-type)"]);
    let moves = moves_of(frog);
    assert_eq!(moves.len(), 6);
    assert_eq!(
        moves[0],
        "(n (verify enemy?) capture n (verify empty?) (if (in-zone? far-rank) (add Toad) else (add-partial jump-type)))"
    );
    let toad = moves_of(piece(game, "Toad"));
    assert_eq!(toad.len(), 8);
    assert!(toad[..4].iter().all(|mv| mv.ends_with("(add-partial jump-type))")));

    let drills: Vec<String> = file
        .variants()
        .map(|variant| {
            let title = child(variant, "title").and_then(|t| t.first()).and_then(Sexp::as_str).unwrap_or_default();
            let pieces: usize =
                setup(variant).iter().flat_map(|(_, placements)| placements.iter().map(|(_, s, _)| s.len())).sum();
            format!("{title}: {pieces}")
        })
        .collect();
    assert_eq!(drills, ["Frog Pond: chain drill: 7", "Frog Pond: crowning drill: 3"]);
}
