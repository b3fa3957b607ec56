//! Fairy-Stockfish's variants.ini import: sections of the shared example file load and count perft as pyffish does; malformed files and refused options give located errors; the CLI plays a section.

mod common;

use std::process::Command;
use std::sync::Arc;

use varia::ini;
use varia_interpreter::{perft, EndReason, GameResult, Position, Rules};

/// The shared example file, when it is there.
fn shared_ini() -> Option<String> {
    let path = common::root().join("../shared/fsf/variants.ini");
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(_) => {
            eprintln!("skipped: {} does not exist (the shared files are not beside this clone)", path.display());
            None
        }
    }
}

fn rules(text: &str, name: &str) -> Arc<Rules> {
    let var = ini::convert(text, name).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    Arc::new(Rules::new(varia_grammar::load(&var).unwrap_or_else(|d| panic!("{name}: {d:?}\n{var}"))))
}

fn counts(rules: &Arc<Rules>, depth: u32) -> Vec<u64> {
    let mut pos = Position::start(rules.clone());
    (1..=depth).map(|d| perft(&mut pos, d)).collect()
}

/// The errors of a text's section, as `line:col message`.
fn errors(text: &str, name: &str) -> Vec<String> {
    let errs = match ini::convert(text, name) {
        Ok(_) => panic!("{name} should not load"),
        Err(e) => e,
    };
    errs.iter()
        .map(|e| {
            let (l, c) = varia_grammar::line_col(text, e.span.start);
            format!("{l}:{c} {}", e.message)
        })
        .collect()
}

/// Perft from the start to depth 3, as pyffish 0.0.90 counts it after
/// `load_variant_config(variants.ini)` (tools/oracle-ini.py prints the same figures).
#[test]
fn shared_sections_count_perft_as_pyffish() {
    let Some(text) = shared_ini() else { return };
    let cases: &[(&str, [u64; 3])] = &[
        ("allwayspawns", [20, 400, 10422]),
        ("3check-crazyhouse", [20, 400, 8902]),
        ("centaurking", [22, 484, 11888]),
        ("gemini", [28, 784, 25304]),
        ("caught-in-a-snag", [13, 152, 1949]),
        ("minihouse", [15, 220, 3493]),
        ("orda", [20, 560, 12462]),
        ("4x5chess", [6, 35, 227]),
        ("breakthrough5", [13, 156, 1924]),
        ("dragonfly", [11, 121, 1604]),
        ("xhess", [80, 6280, 488576]),
        ("nim", [16, 206, 2116]),
        ("khans", [20, 760, 16912]),
        ("gorogoroplus", [39, 1438, 44436]),
        ("wildebeest", [45, 2025, 95829]),
        ("argess", [45, 542, 24982]),
    ];
    for (name, want) in cases {
        assert_eq!(counts(&rules(&text, name), 3), want, "{name}");
    }
}

#[test]
fn shared_sections_load_or_are_refused_by_name() {
    let Some(text) = shared_ini() else { return };
    let names = ini::sections(&text).expect("the shared file reads");
    assert_eq!(names.len(), 143);
    let mut loaded = 0;
    for name in &names {
        match ini::convert(&text, name) {
            Ok(var) => {
                varia_grammar::load(&var).unwrap_or_else(|d| panic!("{name}: {d:?}"));
                loaded += 1;
            }
            Err(errs) => {
                for e in errs {
                    assert!(e.span.end <= text.len() && !e.message.is_empty(), "{name}: {e:?}");
                }
            }
        }
    }
    // The count tools/oracle-ini.py reports; a change here is a change in what Varia imports.
    assert_eq!(loaded, 73, "sections that load");
}

#[test]
fn malformed_files_get_located_errors() {
    let cases: &[(&str, &str, &str)] = &[
        ("[broken\nmaxRank = 5\n", "broken", "1:1 a section header must end with `]`"),
        ("[a:nosuch]\nmaxRank = 5\n", "a", "1:4 unknown parent `nosuch`"),
        ("[a:b]\n[b:a]\n", "a", "1:4 parent `b` is defined below this section (or the inheritance runs in a cycle)"),
        (
            "[a:chess]\ncustomPiece1 = x:mQzN\n",
            "a",
            "2:20 `customPiece1`: bad Betza `mQzN`: expected a Betza modifier (m c p g n f b l r v s h) or atom (W F D N A H C Z G K R B Q L J), found `z`",
        ),
        ("[a:chess]\nmaxRank = eleven\n", "a", "2:11 bad value `eleven` for `maxRank`"),
        ("[a:chess]\ncastling = maybe\n", "a", "2:12 bad value `maybe` for `castling`"),
        ("[a:chess]\nnoSuchOption = 1\n", "a", "2:1 unknown option `noSuchOption`"),
        ("[a:chess]\njust words\n", "a", "2:1 a line that is not `key = value`"),
        (
            "[a:chess]\nstartFen = rnbqkbnr/8/8 w - - 0 1\n",
            "a",
            "2:12 bad startFen `rnbqkbnr/8/8 w - - 0 1`: the board has 8 ranks, this position 3",
        ),
    ];
    for (text, name, want) in cases {
        let got = errors(text, name);
        assert!(got.iter().any(|g| g.starts_with(want)), "{text:?}: got {got:?}, want {want}");
    }
}

#[test]
fn unsupported_options_are_refused_unless_at_their_default() {
    let text = "[a:chess]\nmustDrop = true\n[b:chess]\nmustDrop = false\n[c:atomic]\n";
    let a = errors(text, "a");
    assert!(a[0].starts_with("2:12 `mustDrop = true`: compulsory drops"), "{a:?}");
    assert!(ini::convert(text, "b").is_ok());
    // An option a built-in parent sets (here `atomic` through its own parent) is refused at the
    // `:parent` that brings it in.
    let c = errors(text, "c");
    assert!(c.iter().any(|e| e.starts_with("5:4 `blastOnCapture = true` (set by the built-in `atomic`)")), "{c:?}");
}

#[test]
fn custom_pieces_and_goals_convert() {
    let text =
        "[lamebox]\nmaxRank = 4\nmaxFile = 4\nking = k\ncustomPiece1 = n:nN\nstartFen = 1nk1/4/4/1NK1 w - - 0 1\n\
                flagPiece = k\nflagRegionWhite = *4\nflagRegionBlack = *1\n";
    let var = ini::convert(text, "lamebox").expect("loads");
    insta::assert_snapshot!(var);
    // pyffish counts 5, 23, 118: the king may not step to c2, which Black's lame knight on b4
    // reaches over b3; White's knight cannot go to d2 past its own king on c1.
    assert_eq!(counts(&rules(text, "lamebox"), 3), vec![5, 23, 118]);
}

#[test]
fn the_cli_plays_a_section_and_asks_for_one() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("v.ini");
    std::fs::write(&path, "[tiny:chess]\nmaxRank = 5\nmaxFile = 5\nstartFen = rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1\ncastling = false\ndoubleStep = false\npromotionRegionWhite = *5\n").expect("written");
    let bin = env!("CARGO_BIN_EXE_varia");
    let out = Command::new(bin).args(["perft"]).arg(&path).args(["2", "--variant", "tiny"]).output().expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout.lines().last(), Some("nodes 53"), "{stdout}");
    let out = Command::new(bin).arg("check").arg(&path).output().expect("runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("choose a section with --variant NAME (its sections: tiny)"));
}

/// `immobilityIllegal`: a shogi knight and lance may neither stay unpromoted nor be dropped
/// where they could never move again, and still attack those cells (Black's knight on e4
/// guards d2 though it may not go there unpromoted). pyffish counts 32, 881, 20978 (and
/// tools/oracle-ini.py agrees along its random games).
#[test]
fn immobile_pieces_are_forbidden_where_they_could_never_move() {
    let text = "[immo:minishogi]\nlance = l\nshogiKnight = n\nmandatoryPiecePromotion = false\n\
                promotedPieceType = p:g s:g b:h r:d l:g n:g\nstartFen = rbsgk/l3n/4p/P4/KGSBR[LNln] w 0 1\n\
                nFoldValueAbsolute = false\nnFoldValue = draw\nperpetualCheckIllegal = false\n";
    let var = ini::convert(text, "immo").expect("converts");
    assert!(var.contains("forbid: config(own ShogiKnight at immobile-shogiknight)"), "{var}");
    assert!(var.contains("drop { verify empty verify in(drop-shogiknight) add }"), "{var}");
    assert_eq!(counts(&rules(text, "immo"), 3), vec![32, 881, 20978]);
    // A knight that starts where it could never move would make every move illegal here, and
    // none in Fairy-Stockfish: refused.
    let stuck = text.replace("rbsgk/l3n/4p/P4", "rbsgk/l4/4p/P3n").replace("[immo", "[stuck");
    let e = errors(&stuck, "stuck");
    assert!(e[0].starts_with("1:8 `immobilityIllegal` (set by the built-in `minishogi`): a start position"), "{e:?}");
}

/// `tripleStepRegion`: Wildebeest's pawns go three cells from their first rank, and both cells
/// passed may be taken en passant (as pyffish lists them after the same moves).
#[test]
fn a_triple_step_marks_both_cells_it_passes() {
    let Some(text) = shared_ini() else { return };
    let rules = rules(&text, "wildebeest");
    let mut pos = Position::start(rules);
    common::play(&mut pos, "a2a3 d9d6 a3a4 d6d5 e2e5");
    let from_d5: Vec<String> = common::uci(&mut pos).into_iter().filter(|m| m.starts_with("d5")).collect();
    assert_eq!(from_d5, ["d5d4", "d5e4"]);
    let mut pos = Position::start(pos.rules().clone());
    common::play(&mut pos, "a2a3 d9d6 a3a4 d6d5 a4a5 d5d4 e2e5");
    let from_d4: Vec<String> = common::uci(&mut pos).into_iter().filter(|m| m.starts_with("d4")).collect();
    assert_eq!(from_d4, ["d4d3", "d4e3"]);
}

/// Pawns that promote to different pieces for each side: a `promote` rule per side, each with a
/// zone of that side's cells; the moves are pyffish's after `load_variant_config` of the section.
#[test]
fn each_side_promotes_by_its_own_list() {
    let text = "[sides:chess]\npromotionPieceTypesWhite = q\npromotionPieceTypesBlack = nr\n";
    let var = ini::convert(text, "sides").expect("converts");
    assert!(var.contains("promote in promotion-pawn-white to Queen\n"), "{var}");
    assert!(var.contains("promote in promotion-pawn-black to Knight Rook\n"), "{var}");
    let rules = rules(text, "sides");
    let mut pos = common::position(&rules, "4k3/P7/8/8/8/8/p7/4K3 w - - 0 1");
    assert_eq!(common::uci(&mut pos), ["a7a8q", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2"]);
    let mut pos = common::position(&rules, "4k3/P7/8/8/8/8/p7/4K3 b - - 0 1");
    assert_eq!(common::uci(&mut pos), ["a2a1n", "a2a1r", "e8d7", "e8d8", "e8e7", "e8f7", "e8f8"]);
}

/// A start position with Black to move: Black's turn comes first (a `turn-order`), and White
/// keeps its name and upper-case letters.
#[test]
fn a_start_position_with_black_to_move_plays_black_first() {
    let text = "[tiny:chess]\nmaxRank = 5\nmaxFile = 5\nstartFen = rnbqk/ppppp/5/PPPPP/RNBQK b - - 0 1\n\
                castling = false\ndoubleStep = false\npromotionRegionWhite = *5\npromotionRegionBlack = *1\n";
    let var = ini::convert(text, "tiny").expect("converts");
    assert!(var.contains("turn-order { black white }"), "{var}");
    let mut pos = Position::start(rules(text, "tiny"));
    assert_eq!(common::uci(&mut pos), ["a4a3", "b4b3", "b5a3", "b5c3", "c4c3", "d4d3", "e4e3"]);
    assert!(pos.to_position_string().contains(" b "), "{}", pos.to_position_string());
}

/// The end of a section's game at a position: who won (`white`, `black`, `draw`) and why.
fn outcome(text: &str, name: &str, fen: &str) -> Option<(&'static str, EndReason)> {
    let mut pos = common::position(&rules(text, name), fen);
    pos.outcome().map(|(r, why)| {
        let who = match r {
            GameResult::Win(p) if p.0 == 0 => "white",
            GameResult::Win(_) => "black",
            GameResult::Draw => "draw",
        };
        (who, why)
    })
}

/// Result options written as the language's results: `stalematePieceCount` (the player to move
/// with fewer pieces gets the stalemate value, as many draw) and `materialCounting =
/// blackdrawodds` (every draw is Black's win). pyffish's `game_result` at these positions:
/// 32000 and 0; -32000 with White to move and 32000 with Black to move.
#[test]
fn stalemate_counts_and_draw_odds_convert_to_results() {
    let text = "[fewer:giveaway]\nstalematePieceCount = true\n[odds:chess]\nmaterialCounting = blackdrawodds\n";
    let fewer = ini::convert(text, "fewer").expect("converts");
    assert!(fewer.contains("must-capture\n") && fewer.contains("  stalemate fewer-pieces win\n"), "{fewer}");
    assert_eq!(outcome(text, "fewer", "8/8/8/8/8/p7/P7/7p w - - 0 1"), Some(("white", EndReason::Stalemate)));
    assert_eq!(outcome(text, "fewer", "8/8/8/8/8/p7/P7/8 w - - 0 1"), Some(("draw", EndReason::Stalemate)));
    let odds = ini::convert(text, "odds").expect("converts");
    for line in ["  stalemate black win\n", "  move-rule 50 black win\n", "  repetition 3 black win\n"] {
        assert!(odds.contains(line), "{line} in {odds}");
    }
    assert_eq!(outcome(text, "odds", "K7/2q5/1k6/8/8/8/8/8 w - - 0 1"), Some(("black", EndReason::Stalemate)));
    assert_eq!(outcome(text, "odds", "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1"), Some(("black", EndReason::Stalemate)));
}

/// `extinctionPseudoRoyal` with two pieces of the type: neither is royal until one is left
/// (`royal-check last`). pyffish's legal moves: with two commoners White may step next to
/// Black's; with one, only away or onto it.
#[test]
fn two_pseudo_royal_pieces_are_royal_only_when_one_is_left() {
    let text = "[two:chess]\nking = -\ncommoner = k\ncastlingKingPiece = k\nextinctionValue = loss\n\
                extinctionPseudoRoyal = true\nextinctionPieceTypes = k\nstartFen = 4k3/8/8/8/8/8/8/1K2K3 w - - 0 1\n";
    let var = ini::convert(text, "two").expect("converts");
    assert!(var.contains("\nroyal-check last\n"), "{var}");
    let r = rules(text, "two");
    let mut two = common::position(&r, "8/8/8/8/8/8/3k4/1K2K3 w - - 0 1");
    let want = ["b1a1", "b1a2", "b1b2", "b1c1", "b1c2", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2"];
    assert_eq!(common::uci(&mut two), want);
    let mut one = common::position(&r, "8/8/8/8/8/8/3k4/4K3 w - - 0 1");
    assert_eq!(common::uci(&mut one), ["e1d2", "e1f1", "e1f2"]);
}

/// The sections of tests/ini/keys.ini: options Varia maps to its own features.
fn keys_ini() -> String {
    std::fs::read_to_string(common::root().join("tests/ini/keys.ini")).unwrap()
}

/// Every section of tests/ini/keys.ini loads and counts perft as pyffish 0.0.90 does after
/// `load_variant_config` (tools/fsf-perft.py --ini tests/ini/keys.ini; `tools/oracle-ini.py
/// --ini tests/ini/keys.ini --games 20` prints the same figures and compares 20 random games of
/// each: they agree).
#[test]
fn mapped_options_count_perft_as_pyffish() {
    let text = keys_ini();
    let sections = [
        ("castledrop", [127, 8299, 695623]),
        ("shuttlechess", [20, 400, 8902]),
        ("enclose", [4, 12, 24]),
        ("clone", [6, 36, 288]),
    ];
    for (name, want) in sections {
        assert_eq!(counts(&rules(&text, name), 3), want, "{name}");
    }
}

/// `castlingDroppedPiece`: a rook dropped in a corner beside the king on e1 gains that side's
/// right, even after the king has moved away and back; none is held before (pyffish's legal
/// moves and position strings: `... w K - 1 2`, `... w Q - 1 2`).
#[test]
fn a_dropped_rook_beside_the_king_gains_the_castling_right() {
    let text = keys_ini();
    let var = ini::convert(&text, "castledrop").expect("converts");
    assert!(
        var.contains("castle \"O-O\" white right K king e1 -> g1 partner h1 -> f1 gained-by-drop King Rook\n"),
        "{var}"
    );
    let r = rules(&text, "castledrop");
    let castles = |moves: &str| -> Vec<String> {
        let mut pos = common::position(&r, "start");
        common::play(&mut pos, moves);
        common::uci(&mut pos).into_iter().filter(|m| ["e1g1", "e1c1"].contains(&m.as_str())).collect()
    };
    assert!(castles("").is_empty());
    assert_eq!(castles("R@h1 e8d8"), ["e1g1"]);
    assert_eq!(castles("R@a1 e8d8"), ["e1c1"]);
    assert_eq!(castles("e1f1 e8d8 f1e1 d8e8 R@h1 e8d8"), ["e1g1"]);
}

/// `moveRepetitionIllegal`: White's knight brought to f3, then moved to g1 and back twice,
/// loses; black pawn moves in between reset the move clock and nothing ends (pyffish's
/// `is_optional_game_end`: 32000 for Black to move after the ninth move, no end otherwise).
#[test]
fn a_knight_moved_back_and_forth_loses() {
    let text = keys_ini();
    assert!(ini::convert(&text, "shuttlechess").unwrap().contains("  goal white black loss: shuttled 4\n"));
    let r = rules(&text, "shuttlechess");
    let end = |moves: &str| {
        let mut pos = common::position(&r, "start");
        common::play(&mut pos, moves);
        pos.outcome().map(|(res, why)| (common::result_name(res), why))
    };
    assert_eq!(end("g1f3 b8c6 f3g1 g8f6 g1f3 c6e5 f3g1 e5c4"), None);
    assert_eq!(end("g1f3 b8c6 f3g1 g8f6 g1f3 c6e5 f3g1 e5c4 g1f3"), Some(("black", EndReason::Goal(0))));
    assert_eq!(end("g1f3 a7a6 f3g1 a6a5 g1f3 h7h6 f3g1 h6h5 g1f3"), None);
}

/// `enclosingDrop` and `flipEnclosedPieces`: pyffish's position strings after these drops (the
/// ataxx rule turns over the stone beside, the reversi rule the closed line) and its legal
/// drops (beside an own stone; closing a line once the four start cells are full).
#[test]
fn enclosing_drops_turn_enemy_pieces_over() {
    let text = keys_ini();
    let board = |name: &str, moves: &str| {
        let mut pos = common::position(&rules(&text, name), "start");
        common::play(&mut pos, moves);
        let fen = pos.to_position_string();
        (fen.split(['[', ' ']).next().unwrap().to_string(), common::uci(&mut pos))
    };
    let (fen, _) = board("clone", "P@d4 P@b4 P@c4");
    assert_eq!(fen, "p3P/1PPP1/5/5/P3p");
    let (_, drops) = board("clone", "");
    assert_eq!(drops, ["P@a2", "P@b1", "P@b2", "P@d4", "P@d5", "P@e4"]);
    let (fen, drops) = board("enclose", "P@c3 P@d3 P@d4 P@c4");
    assert_eq!(fen, "6/6/2pP2/2Pp2/6/6");
    assert_eq!(drops, ["P@b4", "P@c5", "P@d2", "P@e3"]);
    let (fen, drops) = board("enclose", "P@c3 P@d3 P@d4 P@c4 P@b4");
    assert_eq!(fen, "6/6/1PPP2/2Pp2/6/6");
    assert_eq!(drops, ["P@b3", "P@b5", "P@d5"]);
}

/// Enclosing rules the import does not write, flips after pieces' moves and bad values are
/// refused at the option.
#[test]
fn other_enclosing_rules_are_refused_at_the_option() {
    let base =
        "[a]\nking = -\nimmobile = p\npieceDrops = true\ncastling = false\nstartFen = 8/8/8/8/8/8/8/8[Pp] w - - 0 1\n";
    for (extra, want) in [
        ("enclosingDrop = top\n", "7:17 `enclosingDrop`: only `reversi` and `ataxx` drops are imported"),
        ("flipEnclosedPieces = quadwrangle\n", "7:22 `flipEnclosedPieces`: only `reversi` and `ataxx` flips"),
        ("customPiece1 = a:W\nflipEnclosedPieces = ataxx\n", "8:22 `flipEnclosedPieces`: flips after a piece's move"),
        ("enclosingDrop = corners\n", "7:17 bad value `corners` for `enclosingDrop`"),
    ] {
        let text = format!("{base}{extra}");
        let got = errors(&text, "a");
        assert!(got.iter().any(|g| g.starts_with(want)), "{extra}: got {got:?}, want {want}");
    }
}
