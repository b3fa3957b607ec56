//! Lowers the project's test games and the shared corpus into the IR and checks what comes out:
//! board sizes, links, pieces, royalty, zones, setups and goals, plus located errors for input
//! the IR cannot express.
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use varia_interpreter::ir::{
    AddKind, ConfigGroup, DropSupply, GoalTest, Instr, MoveTypeId, Occupier, Outcome, PieceTypeId, PlayerId, TurnEntry,
    Variant,
};
use varia_zrf::{load, variant_titles, Game};

const GAMES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/games");
const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/zrf");

fn zrf_files(dir: &Path) -> Option<Vec<PathBuf>> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        println!("skipping: no rule-file folder at {}", dir.display());
        return None;
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext.eq_ignore_ascii_case("zrf")))
        .collect();
    files.sort();
    Some(files)
}

fn text_of(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    String::from_utf8_lossy(&bytes).into_owned()
}

fn game(name: &str) -> (String, Game) {
    let text = text_of(&Path::new(GAMES).join(name));
    let game = load(&text, None).unwrap_or_else(|e| panic!("{name}: {}", e.render(&text)));
    (text, game)
}

fn corpus_game(name: &str, choice: Option<&str>) -> Option<Game> {
    let path = Path::new(CORPUS).join(name);
    if !path.exists() {
        println!("skipping: no corpus file {}", path.display());
        return None;
    }
    let text = text_of(&path);
    Some(load(&text, choice).unwrap_or_else(|e| panic!("{name}: {}", e.render(&text))))
}

fn cell(v: &Variant, name: &str) -> usize {
    v.board.cells.iter().position(|c| c.name == name).unwrap_or_else(|| panic!("no cell {name}"))
}

fn piece(v: &Variant, name: &str) -> usize {
    v.pieces.iter().position(|p| p.name == name).unwrap_or_else(|| panic!("no piece {name}"))
}

fn dir(v: &Variant, name: &str) -> usize {
    v.board.directions.iter().position(|d| d == name).unwrap_or_else(|| panic!("no direction {name}"))
}

/// The links as (from, direction, to) names, for comparing boards built differently.
fn link_names(v: &Variant) -> BTreeSet<(String, String, String)> {
    v.board
        .links
        .iter()
        .map(|l| {
            (
                v.board.cells[usize::from(l.from.0)].name.clone(),
                v.board.directions[usize::from(l.dir.0)].clone(),
                v.board.cells[usize::from(l.to.0)].name.clone(),
            )
        })
        .collect()
}

fn royal(v: &Variant) -> Vec<&str> {
    v.pieces.iter().filter(|p| p.royal).map(|p| p.name.as_str()).collect()
}

/// Loads the game and every playable variant of a file; returns the notes of each.
fn load_all(path: &Path) -> Vec<(String, Vec<String>)> {
    let text = text_of(path);
    let shown = path.display();
    let titles = variant_titles(&text).unwrap_or_else(|e| panic!("{shown}: {}", e.render(&text)));
    let mut out = Vec::new();
    for (i, title) in titles.iter().enumerate() {
        let number = i.to_string();
        let choice = (i > 0).then_some(number.as_str());
        let game = load(&text, choice).unwrap_or_else(|e| panic!("{shown} [{title}]: {}", e.render(&text)));
        assert_eq!(&game.variant.title, title, "{shown}");
        assert!(!game.variant.board.cells.is_empty(), "{shown} [{title}]: no cells");
        assert!(!game.variant.pieces.is_empty(), "{shown} [{title}]: no pieces");
        out.push((title.clone(), game.notes.into_iter().map(|n| n.message).collect()));
    }
    out
}

#[test]
fn every_test_game_and_variant_loads_without_notes() {
    let files = zrf_files(Path::new(GAMES)).expect("the test games are part of the crate");
    assert_eq!(files.len(), 4);
    for path in &files {
        for (title, notes) in load_all(path) {
            assert!(notes.is_empty(), "{} [{title}]: {notes:?}", path.display());
        }
    }
}

#[test]
fn every_corpus_file_and_variant_loads() {
    let Some(files) = zrf_files(Path::new(CORPUS)) else { return };
    assert!(!files.is_empty());
    for path in &files {
        let loaded = load_all(path);
        let is_chess = path.file_name().is_some_and(|n| n == "chess.zrf");
        for (title, notes) in loaded {
            // Only the corpus chess sets Dagaz's own option, which Zillions ignores.
            let expected: Vec<String> = if is_chess {
                vec!["unknown option 'chess invariant' ignored, as Zillions does".to_string()]
            } else {
                Vec::new()
            };
            assert_eq!(notes, expected, "{} [{title}]", path.display());
        }
    }
}

#[test]
fn chess_board_players_and_pieces() {
    let (_, game) = game("chess.zrf");
    let v = &game.variant;
    assert_eq!(v.title, "Chess (Varia test)");
    assert_eq!(v.board.cells.len(), 64);
    // 4 orthogonal directions × 56 links, 4 diagonal × 49.
    assert_eq!(v.board.links.len(), 4 * 56 + 4 * 49);
    // In grid order: the compass as Varia's grid has it, sets added, cells from a1 rank by rank.
    assert_eq!(v.board.directions, ["n", "ne", "e", "se", "s", "sw", "w", "nw"]);
    assert_eq!(v.board.direction_sets.len(), 3);
    assert_eq!(v.board.cells[0].name, "a1");
    assert_eq!(v.board.cells[63].name, "h8");
    let a1 = &v.board.cells[cell(v, "a1")];
    let h8 = &v.board.cells[cell(v, "h8")];
    assert_eq!((a1.x, a1.y, a1.layer), (0, 0, 0));
    assert_eq!((h8.x, h8.y), (7, 7));
    let e2 = cell(v, "e2");
    let n = dir(v, "n");
    let e4_of_e2: Vec<&str> = v
        .board
        .links
        .iter()
        .filter(|l| usize::from(l.from.0) == e2 && usize::from(l.dir.0) == n)
        .map(|l| v.board.cells[usize::from(l.to.0)].name.as_str())
        .collect();
    assert_eq!(e4_of_e2, ["e3"]);

    let names: Vec<&str> = v.players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["White", "Black"]);
    assert!(v.turn_order.is_none());
    let identity: Vec<u8> = (0..8).collect();
    assert_eq!(v.players[0].direction_map.iter().map(|d| d.0).collect::<Vec<_>>(), identity);
    let black: Vec<&str> =
        v.players[1].direction_map.iter().map(|d| v.board.directions[usize::from(d.0)].as_str()).collect();
    assert_eq!(black, ["s", "se", "e", "ne", "n", "nw", "w", "sw"]);

    let letters: Vec<(&str, char)> = v.pieces.iter().map(|p| (p.name.as_str(), p.letter)).collect();
    assert_eq!(
        letters,
        [("Pawn", 'P'), ("Knight", 'N'), ("Bishop", 'B'), ("Rook", 'R'), ("Queen", 'Q'), ("King", 'K')]
    );
    assert_eq!(royal(v), ["King"]);
    assert_eq!(v.attributes, ["never-moved"]);
    for p in &v.pieces {
        let expected = if p.name == "Rook" || p.name == "King" { 1 } else { 0 };
        assert_eq!(p.attributes.len(), expected, "{}", p.name);
        // No drops: the supply is never asked and stays the default.
        assert_eq!(p.drop_supply, DropSupply::Hand);
        assert!(p.moves.is_empty() && p.promotion.is_none() && p.value.is_none());
    }
    let programs: Vec<usize> = v.pieces.iter().map(|p| p.programs.len()).collect();
    assert_eq!(programs, [6, 8, 4, 4, 8, 10]);
    // The pawn's promotion: one add listing four types.
    let pawn = &v.pieces[piece(v, "Pawn")];
    let Instr::If(_, then, otherwise) = &pawn.programs[0].body[2] else { panic!("{:?}", pawn.programs[0]) };
    let queen = PieceTypeId(piece(v, "Queen") as u8);
    assert!(
        matches!(&then[..], [Instr::Add { kind: AddKind::Move, promote, then: None }] if promote.len() == 4 && promote[0] == queen)
    );
    assert!(matches!(&otherwise[..], [Instr::Add { kind: AddKind::Move, promote, .. }] if promote.is_empty()));

    let zones: Vec<(&str, Vec<usize>)> =
        v.zones.iter().map(|z| (z.name.as_str(), z.cells.iter().map(Vec::len).collect())).collect();
    assert_eq!(zones, [("promotion-zone", vec![8, 8]), ("pawn-start", vec![8, 8])]);
    assert!(v.zones.iter().all(|z| z.occupancy.is_none()));

    assert_eq!(v.setup.placements.len(), 32);
    assert!(v.setup.placements.windows(2).all(|w| w[0].0 < w[1].0), "sorted by cell");
    assert!(v.setup.hands.is_empty() && v.setup.castling_rights.is_empty());
    let e1 = cell(v, "e1");
    let king = PieceTypeId(piece(v, "King") as u8);
    assert!(v.setup.placements.iter().any(|(c, s)| usize::from(c.0) == e1 && s[..] == [(PlayerId(0), king)]));

    assert_eq!(v.end.checkmate, Outcome::Loss);
    assert_eq!(v.end.stalemate, Outcome::Draw);
    assert_eq!(v.end.goals.len(), 1);
    assert_eq!(v.end.goals[0].outcome, Outcome::Draw);
    assert_eq!(v.end.goals[0].test, GoalTest::Repetition(3));
    assert_eq!(v.end.goals[0].players, [PlayerId(0), PlayerId(1)]);
    assert!(v.end.bare_king.is_none() && v.end.move_rule.is_none() && v.end.repetition.is_none());
    assert!(v.castlings.is_empty() && v.phases.is_empty() && v.squares.is_none());
    assert!(v.move_types.is_empty() && v.flags.is_empty() && !v.play.pass_partial);
}

#[test]
fn chess_variants_by_title_and_number() {
    let text = text_of(&Path::new(GAMES).join("chess.zrf"));
    let titles = variant_titles(&text).expect("titles");
    assert_eq!(
        titles,
        [
            "Chess (Varia test)",
            "Chess test position: Kiwipete",
            "Chess test position: rook ending",
            "Chess test position: promotions"
        ]
    );
    // The separator is not counted: variant 2 is the rook ending.
    let by_number = load(&text, Some("2")).expect("loads");
    let by_title = load(&text, Some("Chess test position: rook ending")).expect("loads");
    assert_eq!(by_number.variant.title, "Chess test position: rook ending");
    assert_eq!(by_title.variant.setup.placements.len(), 10);
    assert_eq!(by_number.variant.setup.placements.len(), 10);
    // Only the setup is replaced; the pieces and goals are the game's.
    assert_eq!(by_number.variant.pieces.len(), 6);
    assert_eq!(royal(&by_number.variant), ["King"]);
    let kiwipete = load(&text, Some("1")).expect("loads");
    assert_eq!(kiwipete.variant.setup.placements.len(), 32);
    let err = load(&text, Some("5")).expect_err("no such variant");
    assert_eq!(
        err.render(&text),
        "163:1: no variant '5' in this file; the variants are: 1 'Chess test position: Kiwipete', \
         2 'Chess test position: rook ending', 3 'Chess test position: promotions' (choose a variant by title or number)"
    );
    assert!(load(&text, Some("0")).is_err());
    assert!(load(&text, Some("-")).is_err());
}

#[test]
fn drops_hands_and_supplies() {
    let (_, game) = game("drops.zrf");
    let v = &game.variant;
    assert_eq!(v.board.cells.len(), 25);
    assert_eq!(v.board.links.len(), 4 * 20 + 4 * 16);
    let supplies: Vec<(&str, DropSupply, usize)> =
        v.pieces.iter().map(|p| (p.name.as_str(), p.drop_supply, p.drops.len())).collect();
    assert_eq!(
        supplies,
        [("King", DropSupply::Hand, 0), ("Man", DropSupply::Hand, 1), ("Runner", DropSupply::Hand, 1)]
    );
    let man = PieceTypeId(1);
    let runner = PieceTypeId(2);
    assert_eq!(
        v.setup.hands,
        [(PlayerId(0), man, 3), (PlayerId(0), runner, 1), (PlayerId(1), man, 3), (PlayerId(1), runner, 1)]
    );
    assert_eq!(v.setup.placements.len(), 2);
    assert_eq!(royal(v), ["King"]);
    assert_eq!(v.zones.len(), 1);
    assert_eq!(v.zones[0].cells[0].len(), 10);
}

#[test]
fn links_board_assembly() {
    let (text, game) = game("links.zrf");
    let v = &game.variant;
    assert_eq!(v.board.cells.len(), 32);
    assert_eq!(v.board.links.len(), 194);
    assert!(!v.board.cells.iter().any(|c| ["a1", "f1", "a6", "f6"].contains(&c.name.as_str())));
    assert_eq!(v.board.directions, ["n", "ne", "e", "se", "s", "sw", "w", "nw", "warp"]);
    let warp = dir(v, "warp");
    let black = &v.players[1].direction_map;
    assert_eq!(usize::from(black[warp].0), warp, "warp is not remapped");
    assert_eq!(usize::from(black[dir(v, "n")].0), dir(v, "s"));
    // The wall: no link between c3 and d3 either way; the wormhole both ways.
    let names = link_names(v);
    assert!(!names.iter().any(|(f, _, t)| (f == "c3" && t == "d3") || (f == "d3" && t == "c3")));
    assert!(names.contains(&("b3".into(), "warp".into(), "e4".into())));
    assert!(names.contains(&("e4".into(), "warp".into(), "b3".into())));
    // The two halves are drawn 10 pixels apart, but the ranks still count 0..5 from the bottom.
    let b1 = &v.board.cells[cell(v, "b1")];
    let e6 = &v.board.cells[cell(v, "e6")];
    assert_eq!((b1.x, b1.y, e6.x, e6.y), (1, 0, 4, 5));
    // Goals: reaching the goal zone wins, no pieces loses, stalemate (for all) loses.
    assert_eq!(v.end.stalemate, Outcome::Loss);
    let goal = ConfigGroup::Zone(varia_interpreter::ir::ZoneId(0));
    assert_eq!(v.end.goals[0].test, GoalTest::Config(vec![Occupier::Own(PieceTypeId(0))], vec![goal]));
    assert_eq!(v.end.goals[0].outcome, Outcome::Win);
    assert_eq!(v.end.goals[1].test, GoalTest::PiecesRemaining(0, None));
    assert!(royal(v).is_empty());

    let single = load(&text, Some("Wormhole Breakthrough (single grid)")).expect("variant loads").variant;
    assert_eq!(link_names(&single), names, "both boards have the same links");
    assert_eq!(single.board.cells.len(), 32);
}

#[test]
fn partial_move_types_and_priorities() {
    let (_, game) = game("partial.zrf");
    let v = &game.variant;
    assert_eq!(v.move_types, ["jump-type", "step-type"]);
    assert_eq!(v.move_priorities, [MoveTypeId(0), MoveTypeId(1)]);
    let frog = &v.pieces[0];
    let types: Vec<Option<u8>> = frog.programs.iter().map(|p| p.move_type.map(|t| t.0)).collect();
    assert_eq!(types, [Some(0), Some(0), Some(0), Some(1), Some(1), Some(1)]);
    let Some(Instr::If(_, _, otherwise)) = frog.programs[0].body.last() else { panic!() };
    assert_eq!(otherwise[..], [Instr::Add { kind: AddKind::Partial, promote: Vec::new(), then: Some(MoveTypeId(0)) }]);
    assert_eq!(v.board.links.len(), 4 * 30);
    assert_eq!(v.setup.placements.len(), 12);
}

#[test]
fn corpus_facts() {
    if let Some(courier) = corpus_game("courier-chess.zrf", None) {
        let v = &courier.variant;
        assert_eq!(v.board.cells.len(), 96);
        assert_eq!(v.board.links.len(), 652);
        assert_eq!(royal(v), ["King"]);
        assert_eq!(v.end.stalemate, Outcome::Loss);
        assert_eq!(v.end.goals[0].test, GoalTest::PiecesRemaining(1, None));
        assert_eq!(v.setup.placements.len(), 48);
        assert_eq!(v.pieces.len(), 9);
    }
    if let Some(dragon) = corpus_game("dragonchess.zrf", None) {
        let v = &dragon.variant;
        // One 12×24 grid: three levels of 96.
        assert_eq!(v.board.cells.len(), 3 * 96);
        // Grid links 2092, plus 192 u and 192 d links, minus 2 × 68 unlinked.
        assert_eq!(v.board.links.len(), 2092 + 384 - 136);
        assert_eq!(v.board.directions.len(), 10);
        assert_eq!(v.pieces.len(), 23);
        assert!(royal(v).is_empty(), "no goal at all, so nothing is royal");
        assert!(v.end.goals.is_empty());
        assert_eq!(v.setup.placements.len(), 84);
        let letters: BTreeSet<char> = v.pieces.iter().map(|p| p.letter).collect();
        assert_eq!(letters.len(), 23);
    }
    if let Some(platform) = corpus_game("platform-chess.zrf", None) {
        let v = &platform.variant;
        assert_eq!(v.board.cells.len(), 16 + 64);
        assert_eq!(v.board.links.len(), 48 + 420 + 128);
        assert_eq!(v.setup.placements.len(), 44);
        assert!(v.end.goals.is_empty() && royal(v).is_empty());
    }
    if let Some(makruk) = corpus_game("makruk.zrf", None) {
        assert_eq!(royal(&makruk.variant), ["Khun"]);
        assert_eq!(makruk.variant.end.goals[0].test, GoalTest::Repetition(3));
        assert_eq!(makruk.variant.end.goals[0].outcome, Outcome::Loss);
    }
    if let Some(shatranj) = corpus_game("shatranj.zrf", None) {
        let v = &shatranj.variant;
        assert_eq!(royal(v), ["Shah"]);
        assert_eq!(v.end.stalemate, Outcome::Loss);
        let tests: Vec<(Outcome, &GoalTest)> = v.end.goals.iter().map(|g| (g.outcome, &g.test)).collect();
        assert_eq!(
            tests,
            [(Outcome::Draw, &GoalTest::PiecesRemaining(1, None)), (Outcome::Loss, &GoalTest::Repetition(3))]
        );
    }
    // The first "Oblong Shatranj" carries (default), but only a choice loads it.
    if let Some(oblong) = corpus_game("shatranj.zrf", Some("Oblong Shatranj")) {
        let v = &oblong.variant;
        assert_eq!(v.board.cells.len(), 65);
        let dice = &v.board.cells[cell(v, "DICE")];
        assert!(v.board.links.iter().all(|l| usize::from(l.from.0) != cell(v, "DICE")));
        assert_eq!(dice.x, 16, "right of the 16 files");
        let names: Vec<&str> = v.pieces.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["D1", "D2", "D3", "D4", "D5", "D6", "Shah", "Fers", "Rokh", "Alfil", "Asb", "Sarbaz"]);
        assert_eq!(v.move_types, ["drop-type"]);
        assert!(v.pieces[..6].iter().all(|p| p.drops.len() == 1 && p.drop_supply == DropSupply::Unlimited));
        assert_eq!(v.zones.iter().map(|z| z.name.as_str()).collect::<Vec<_>>(), ["promotion", "dice-zone"]);
    }
    if let Some(chess) = corpus_game("chess.zrf", Some("Dunsany's Chess")) {
        let v = &chess.variant;
        assert_eq!(v.setup.placements.len(), 48);
        // The variant's board has no White third-rank zone.
        let third = v.zones.iter().find(|z| z.name == "third-rank").expect("zone");
        assert_eq!(third.cells.iter().map(Vec::len).collect::<Vec<_>>(), [0, 8]);
    }
}

/// A compact, reviewable summary of a lowered game.
fn summary(v: &Variant) -> String {
    let mut out = String::new();
    let dirs = |ids: &[varia_interpreter::ir::DirId]| -> String {
        ids.iter().map(|d| v.board.directions[usize::from(d.0)].as_str()).collect::<Vec<_>>().join(" ")
    };
    out += &format!("title: {}\n", v.title);
    let width = v.board.cells.iter().map(|c| c.x).max().unwrap_or(0) + 1;
    let height = v.board.cells.iter().map(|c| c.y).max().unwrap_or(0) + 1;
    out += &format!("board: {} cells ({width}x{height}), {} links\n", v.board.cells.len(), v.board.links.len());
    out += &format!("directions: {}\n", v.board.directions.join(" "));
    for p in &v.players {
        out += &format!("player {}: {}\n", p.name, dirs(&p.direction_map));
    }
    out += &format!("turn order: {:?}\n", v.turn_order.as_ref().map(|t| (&t.opening, &t.cycle)));
    for z in &v.zones {
        let per: Vec<String> = z
            .cells
            .iter()
            .map(|cells| {
                cells.iter().map(|c| v.board.cells[usize::from(c.0)].name.as_str()).collect::<Vec<_>>().join(",")
            })
            .collect();
        out += &format!("zone {}: {}\n", z.name, per.join(" | "));
    }
    out += &format!("attributes: {:?}\n", v.attributes);
    for p in &v.pieces {
        let lengths: Vec<usize> = p.programs.iter().map(|prog| prog.body.len()).collect();
        out += &format!(
            "piece {} '{}'{}: programs {:?}, drops {}, attributes {:?}\n",
            p.name,
            p.letter,
            if p.royal { " royal" } else { "" },
            lengths,
            p.drops.len(),
            p.attributes.iter().map(|a| v.attributes[usize::from(a.0)].as_str()).collect::<Vec<_>>()
        );
    }
    out += &format!("setup: {} placements, hands {:?}\n", v.setup.placements.len(), v.setup.hands);
    out += &format!("checkmate: {:?}, stalemate: {:?}\n", v.end.checkmate, v.end.stalemate);
    for g in &v.end.goals {
        out += &format!("goal {:?} for {:?}: {:?}\n", g.outcome, g.players, g.test);
    }
    out
}

#[test]
fn chess_summary_snapshot() {
    let (_, game) = game("chess.zrf");
    insta::assert_snapshot!("chess_summary", summary(&game.variant));
}

#[test]
fn corpus_chess_pawn_programs_snapshot() {
    let Some(chess) = corpus_game("chess.zrf", None) else { return };
    let v = &chess.variant;
    let pawn = &v.pieces[piece(v, "Pawn")];
    insta::assert_snapshot!("corpus_chess_pawn_programs", format!("{:#?}", &pawn.programs[..2]));
}

#[test]
fn turn_orders_with_move_types_and_repeat() {
    let text = game_text(
        "(turn-order White (Black drop-type) repeat Black White)",
        "(piece (name K) (moves (n add)) (drops (move-type drop-type) ((verify empty?) add)))",
        "",
    );
    let v = load(&text, None).unwrap_or_else(|e| panic!("{}", e.render(&text))).variant;
    let order = v.turn_order.expect("not the plain order");
    let drop = Some(MoveTypeId(0));
    assert_eq!(
        order.opening,
        [TurnEntry { player: PlayerId(0), move_type: None }, TurnEntry { player: PlayerId(1), move_type: drop }]
    );
    assert_eq!(
        order.cycle,
        [TurnEntry { player: PlayerId(1), move_type: None }, TurnEntry { player: PlayerId(0), move_type: None }]
    );
    assert_eq!(v.pieces[0].drops[0].move_type, drop);
    // Repeating the plain order is the plain order.
    let text = game_text("(turn-order repeat White Black)", "(piece (name K) (moves (n add)))", "");
    assert!(load(&text, None).expect("loads").variant.turn_order.is_none());
}

#[test]
fn instructions_and_conditions_of_every_kind() {
    let body = "(moves (mark (verify (not-piece? K)) (verify (not-in-zone? z)) (if (flag? f) (set-flag f false) else \
                (set-position-flag g true n)) (verify (position-flag? g)) (go last-to) (go mark) (capture e) \
                (change-type K) (change-owner a1) (flip) (create Black K a1) (verify (or marked? (attacked? n) \
                not-defended? adjacent-to-enemy? (on-board? e) (position? b2) last-from? not-last-to? true)) \
                (add-partial K step) add-copy (add-copy-partial step) a1 back to from cascade add) add)";
    let text = game_text("", &format!("(piece (name K) {body})"), "(zone (name z) (players White) (positions a1))");
    let v = load(&text, None).unwrap_or_else(|e| panic!("{}", e.render(&text))).variant;
    assert_eq!(v.flags, ["f", "g"]);
    assert_eq!(v.move_types, ["step"]);
    let programs = &v.pieces[0].programs;
    assert_eq!(programs.len(), 2);
    assert_eq!(programs[1].body, [Instr::Add { kind: AddKind::Move, promote: Vec::new(), then: None }]);
    let shown = format!("{:?}", programs[0].body);
    for part in [
        "Not(Piece(PieceTypeId(0), None))",
        "Not(InZone(ZoneId(0), None))",
        "SetCellFlag(FlagId(1), True, Some(Dir(DirId(0))))",
        "Go(LastTo)",
        "Capture(Some(Dir(DirId(1))))",
        "ChangeOwner(Some(Cell(CellId(0))))",
        "Create { owner: Some(PlayerId(1)), piece: Some(PieceTypeId(0)), at: Some(Cell(CellId(0))) }",
        "Attacked(None, Some(Dir(DirId(0))))",
        "Not(Defended(None, None))",
        "OnBoard(Dir(DirId(1)))",
        "At(CellId(3))",
        "Not(LastTo(None))",
        "Add { kind: Partial, promote: [PieceTypeId(0)], then: Some(MoveTypeId(0)) }",
        "Add { kind: CopyPartial, promote: [], then: Some(MoveTypeId(0)) }",
        "Jump(CellId(0))",
        "Back, To, From, Cascade, Add",
    ] {
        assert!(shown.contains(part), "{part} not in {shown}");
    }
}

#[test]
fn options_are_ignored_noted_or_kept() {
    let text = game_text(
        "(option \"smart moves\" true) (option \"pass partial\" true) (option \"pass turn\" false) \
         (option \"chess invariant\" true)",
        "(piece (name K) (moves (n add)))",
        "",
    );
    let game = load(&text, None).expect("loads");
    assert!(game.variant.play.pass_partial);
    assert_eq!(game.notes.len(), 1);
    assert_eq!(game.notes[0].message, "unknown option 'chess invariant' ignored, as Zillions does");
    assert_eq!(&text[game.notes[0].span.clone()], "(option \"chess invariant\" true)");
}

/// A small two-player game on a 2×2 board (a2 b2 / a1 b1, directions n and e), with `extra`
/// spliced into the game, the pieces given, and board items added.
fn game_text(extra: &str, pieces: &str, board_extra: &str) -> String {
    format!(
        "(game (title \"T\") (players White Black) {extra}\n\
         (board (grid (start-rectangle 0 0 10 10) (dimensions (\"a/b\" (10 0)) (\"2/1\" (0 10)))\n\
         (directions (n 0 -1) (e 1 0))) {board_extra})\n\
         {pieces}\n\
         (board-setup (White (K a1)) (Black (K b2))))"
    )
}

fn error_of(text: &str) -> String {
    match load(text, None) {
        Ok(_) => panic!("expected an error for {text}"),
        Err(err) => err.render(text),
    }
}

#[test]
fn forty_piece_types_load_and_play() {
    let pieces: String = (0..40).map(|i| format!("(piece (name P{i}) (moves (e add)))")).collect();
    let text = game_text("", &format!("{pieces}(piece (name K) (moves (n add)))"), "");
    let v = load(&text, None).unwrap_or_else(|e| panic!("{}", e.render(&text))).variant;
    assert_eq!(v.pieces.len(), 41);
    let mut pos = varia_interpreter::Position::start(std::sync::Arc::new(varia_interpreter::Rules::new(v)));
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    // Each king steps north; no P piece stands on the board.
    assert_eq!(moves.len(), 1);
}

#[test]
fn errors_are_located_and_exact() {
    let king = "(piece (name K) (moves (n add)))";
    let cases: Vec<(String, &str)> = vec![
        (
            game_text("", "(piece (name K) (moves (n (set-turn-order White) add)))", ""),
            "4:27: 'set-turn-order' is not a Zillions instruction or condition (a mistake in the file, or a macro never defined?) (in a move body of piece K)",
        ),
        (
            game_text("(turn-order (White Black) Black)", king, ""),
            "1:53: unsupported ZRF construct 'turn as another player' (White would move as Black)",
        ),
        (
            game_text("", king, "").replace("(White (K a1))", "(White (Qeen a1))"),
            "5:22: unknown piece 'Qeen' (in (board-setup ...))",
        ),
        (
            game_text("(turn-order (White Black drop) Black)", king, ""),
            "1:53: unsupported ZRF construct 'turn as another player' (White would move as Black)",
        ),
        (
            game_text("(win-condition (White Black) (count-condition (total-piece-count 1)))", king, ""),
            "1:70: unsupported ZRF construct 'count-condition' (in a goal condition)",
        ),
        (
            game_text("", "(piece (name K) (moves (nn add)))", ""),
            "4:25: unknown direction or position 'nn' (in a move body of piece K)",
        ),
        (
            game_text("(count-condition (White Black) stalemated repetition)", king, ""),
            "1:41: a goal needs a player list and one condition (in a goal)",
        ),
        (
            game_text("(turn-order White Black)", king, "")
                .replace("(players White Black)", "(players White Black C D E F G H I J L M N O P Q R)"),
            "1:19: games of 17 players are not supported (Varia plays games of at most 16 players)",
        ),
        (
            game_text("(loss-condition (White) (checkmated K))", king, ""),
            "1:65: unsupported ZRF construct 'checkmated' (a checkmated goal must be given for every player who moves)",
        ),
        (
            game_text("(option \"recycle captures\" true)", king, ""),
            "1:41: unsupported ZRF construct 'option \"recycle captures\"' (Varia has no such rule; only false is accepted)",
        ),
        (
            format!("(include \"rules.zrf\")\n{}", game_text("", king, "")),
            "1:1: cannot include \"rules.zrf\": this file was given as text, not read from a folder (the file to include)",
        ),
        (
            game_text("", "(piece (name K) (dummy) (moves (n add)))", ""),
            "4:17: unsupported ZRF construct 'dummy' (in piece K)",
        ),
        (
            game_text("", "(piece (name K) (moves (n (verify (in-zone? nowhere))) add))", ""),
            "4:45: unknown zone 'nowhere' (in a move body of piece K)",
        ),
        (
            game_text("", "(piece (name K) (moves (n (verify neutral?) add)))", ""),
            "4:35: unsupported ZRF construct 'neutral?' (in a move body of piece K)",
        ),
        (
            game_text("", king, "(kill-positions a1)"),
            "5:24: position 'a1' was removed by kill-positions (in (board-setup ...))",
        ),
        (
            game_text("", king, "").replace("(e 1 0)", "(e 1 0 1)"),
            "3:22: a direction needs at most 2 index deltas, one per dimension (in (grid ...))",
        ),
        (
            format!(
                "(define hop ($1 (verify emptyish?) add))\n{}",
                game_text("", "(piece (name K) (moves (hop n)))", "")
            ),
            "1:25: 'emptyish?' is not a Zillions instruction or condition (a mistake in the file, or a macro never defined?), in macro 'hop' used at 5:24 (in a move body of piece K)",
        ),
        (
            game_text("", &(0..256).map(|i| format!("(piece (name P{i}))")).collect::<String>(), ""),
            "4:4749: more than 255 piece types (Varia allows at most 255 piece types)",
        ),
        ("(variant (title \"x\"))".to_string(), "1:1: the file has no (game ...) form (a game is required)"),
    ];
    let wrong: Vec<String> = cases
        .iter()
        .filter_map(|(text, expected)| {
            let got = error_of(text);
            (got != *expected).then(|| format!("input:\n{text}\n  got:      {got}\n  expected: {expected}"))
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
    assert!(cases.len() >= 10);
}
