//! Shuffled starts and castling from the position (chess960, Capablanca random chess): drawn
//! setups keep their constraints, position strings read X-FEN and Shredder-FEN rights and write
//! them back, castling is the king taking its rook where the file says so, and move lists and
//! perft counts are Fairy-Stockfish's (pyffish 0.0.90, `chess` and `caparandom` with chess960
//! on; tools/oracle-shuffled.py compares whole random games).

mod common;

use std::sync::Arc;

use varia_interpreter::{perft, MoveKind, Position, Rules};

fn load(text: &str) -> Arc<Rules> {
    match varia_grammar::load(text) {
        Ok(v) => Arc::new(Rules::new(v)),
        Err(d) => panic!("{d:?}"),
    }
}

fn file(name: &str) -> String {
    std::fs::read_to_string(common::root().join("variants").join(name)).expect("bundled file")
}

/// The same rules written with X-FEN letters and the king's castling move (no
/// `castling-notation`).
fn xfen(name: &str) -> Arc<Rules> {
    load(&file(name).replace("castling-notation king-takes-partner\n", ""))
}

/// The legal moves as Fairy-Stockfish's UCI_Chess960 writes them (castling as the king taking
/// its rook), sorted.
fn uci960(pos: &mut Position) -> Vec<String> {
    let rules = pos.rules().clone();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut out: Vec<String> = moves
        .iter()
        .map(|m| {
            let (from, to) = if m.kind == MoveKind::Castle {
                let c = rules.castling(m.extra);
                (c.king_from, c.partner_from)
            } else {
                (m.from, m.to)
            };
            let promo = m.promotion().map(|t| rules.uci_promotion(rules.type_of(m.piece), t)).unwrap_or_default();
            format!("{}{}{promo}", rules.cell_name(from), rules.cell_name(to))
        })
        .collect();
    out.sort();
    out
}

fn list(moves: &str) -> Vec<String> {
    moves.split_whitespace().map(str::to_string).collect()
}

#[test]
fn drawn_starts_keep_the_constraints_and_reach_all_960() {
    let rules = load(&file("fischerandom.var"));
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..20_000u64 {
        let pos = Position::start_seeded(rules.clone(), seed);
        let text = pos.to_position_string();
        let back: Vec<char> = text.split('/').next_back().expect("rows").chars().take(8).collect();
        let black: Vec<char> = text.split('/').next().expect("rows").chars().collect();
        assert_eq!(back.iter().map(|c| c.to_ascii_lowercase()).collect::<Vec<_>>(), black, "{text}");
        let at = |ch: char| back.iter().enumerate().filter(|(_, c)| **c == ch).map(|(i, _)| i).collect::<Vec<_>>();
        let (b, r, k) = (at('B'), at('R'), at('K'));
        assert_eq!(b.len(), 2);
        assert_ne!(b[0] % 2, b[1] % 2, "bishops on one colour: {text}");
        assert!(r[0] < k[0] && k[0] < r[1], "king not between the rooks: {text}");
        assert_eq!((at('Q').len(), at('N').len()), (1, 2), "{text}");
        seen.insert(back.into_iter().collect::<String>());
    }
    assert_eq!(seen.len(), 960);
}

#[test]
fn a_seed_gives_the_same_start_and_the_start_reads_back() {
    let rules = load(&file("fischerandom.var"));
    let texts: Vec<String> = (0..4).map(|s| Position::start_seeded(rules.clone(), s).to_position_string()).collect();
    assert_eq!(
        texts,
        [
            "brnbnqkr/pppppppp/8/8/8/8/PPPPPPPP/BRNBNQKR w HBhb - 0 1",
            "rqbnkbrn/pppppppp/8/8/8/8/PPPPPPPP/RQBNKBRN w GAga - 0 1",
            "bqrkrbnn/pppppppp/8/8/8/8/PPPPPPPP/BQRKRBNN w ECec - 0 1",
            "nrknbbrq/pppppppp/8/8/8/8/PPPPPPPP/NRKNBBRQ w GBgb - 0 1",
        ]
    );
    assert_eq!(Position::start(rules.clone()).to_position_string(), texts[0]);
    for t in &texts {
        assert_eq!(&common::position(&rules, t).to_position_string(), t);
    }
    // Without `castling-notation`, the outermost rooks are written K and Q (X-FEN).
    assert_eq!(
        Position::start_seeded(xfen("fischerandom.var"), 1).to_position_string(),
        "rqbnkbrn/pppppppp/8/8/8/8/PPPPPPPP/RQBNKBRN w KQkq - 0 1"
    );
}

#[test]
fn perft_3_from_drawn_starts_is_fairy_stockfishs() {
    // pyffish: perft by recursion over legal_moves(variant, fen, moves, True).
    let cases = [
        ("fischerandom.var", "brnbnqkr/pppppppp/8/8/8/8/PPPPPPPP/BRNBNQKR w HBhb - 0 1", 8956),
        ("fischerandom.var", "rqbnkbrn/pppppppp/8/8/8/8/PPPPPPPP/RQBNKBRN w GAga - 0 1", 7803),
        // The pieces between kings and rooks taken off: castlings at once.
        ("fischerandom.var", "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1", 13518),
        ("fischerandom.var", "r3k1r1/pppppppp/8/8/8/8/PPPPPPPP/R3K1R1 w GAga - 0 1", 15156),
        ("fischerandom.var", "2rkr3/pppppppp/8/8/8/8/PPPPPPPP/2RKR3 w ECec - 0 1", 12012),
        ("fischerandom.var", "2r1kr2/pppppppp/8/8/8/8/PPPPPPPP/2R1KR2 w FCfc - 0 1", 13494),
        ("caparandom.var", "rkbbnrncqa/pppppppppp/10/10/10/10/PPPPPPPPPP/RKBBNRNCQA w FAfa - 0 1", 22216),
        ("caparandom.var", "bnrbqackrn/pppppppppp/10/10/10/10/PPPPPPPPPP/BNRBQACKRN w ICic - 0 1", 25039),
    ];
    for (name, fen, count) in cases {
        let rules = load(&file(name));
        let mut pos = common::position(&rules, fen);
        assert_eq!(perft::perft(&mut pos, 3), count, "{name} {fen}");
        let mut pos = common::position(&xfen(name), fen);
        assert_eq!(perft::perft(&mut pos, 3), count, "{name} {fen} (X-FEN rules)");
    }
}

#[test]
fn castling_from_the_position_is_fairy_stockfishs() {
    let rules = load(&file("fischerandom.var"));
    // The rook on b1 shields c1 from the queen: castling would leave the king in check.
    let mut pos = common::position(&rules, "4k3/8/8/8/8/8/8/qRK5 w B - 0 1");
    assert_eq!(uci960(&mut pos), list("b1a1 c1c2 c1d1 c1d2"));
    // Inner rooks named by file, outer ones by K and Q (X-FEN, read in any form).
    let fsf = list(
        "a1a2 a1a3 a1a4 a1a5 a1a6 a1a7 a1a8 b1b2 b1b3 b1b4 b1b5 b1b6 b1b7 b1b8 b1c1 b1d1 e1b1 e1d1 e1d2 \
         e1e2 e1f1 e1f2 e1g1 g1f1 g1g2 g1g3 g1g4 g1g5 g1g6 g1g7 g1g8 h1h2 h1h3 h1h4 h1h5 h1h6 h1h7 h1h8",
    );
    for fen in ["r3k2r/8/8/8/8/8/8/RR2K1RR w GBkq - 0 1", "r3k2r/8/8/8/8/8/8/RR2K1RR w GBha - 0 1"] {
        let mut pos = common::position(&rules, fen);
        assert_eq!(uci960(&mut pos), fsf, "{fen}");
        assert_eq!(pos.to_position_string(), "r3k2r/8/8/8/8/8/8/RR2K1RR w GBha - 0 1");
    }
    // The king already on its castling cell: only the rook moves (`g1h1`).
    let mut pos = common::position(&rules, "4k3/8/8/8/8/8/8/5RKr w F - 0 1");
    assert_eq!(uci960(&mut pos), list("g1f2 g1g2 g1h1"));
    // After castling, moving the king or a rook: the rights Fairy-Stockfish keeps.
    for (mv, after) in [
        ("e1g1", "r3k2r/8/8/8/8/8/8/RR3RKR b ha - 1 1"),
        ("e1b1", "r3k2r/8/8/8/8/8/8/R1KR2RR b ha - 1 1"),
        ("e1f1", "r3k2r/8/8/8/8/8/8/RR3KRR b ha - 1 1"),
    ] {
        let mut pos = common::position(&rules, "r3k2r/8/8/8/8/8/8/RR2K1RR w GBha - 0 1");
        common::play(&mut pos, mv);
        assert_eq!(pos.to_position_string(), after, "after {mv}");
    }
}

#[test]
fn castling_is_written_and_read_as_the_king_taking_its_rook() {
    let rules = load(&file("fischerandom.var"));
    let mut pos = common::position(&rules, "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1");
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let castles: Vec<String> =
        moves.iter().filter(|m| m.kind == MoveKind::Castle).map(|m| pos.long_notation(*m)).collect();
    assert_eq!(castles, ["O-O", "O-O-O"]);
    // Each castling is read as the king taking its rook, as its notation and as the king's move.
    for (text, want) in [("e1h1", "O-O"), ("e1a1", "O-O-O"), ("O-O", "O-O"), ("e1g1", "O-O"), ("e1c1", "O-O-O")] {
        let mv = pos.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(pos.long_notation(mv), want, "{text}");
    }
}

#[test]
fn bad_castling_rights_and_shuffles_are_located_errors() {
    let rules = load(&file("fischerandom.var"));
    // K needs a rook on the king's side; a file letter needs a rook there beside the king.
    for (fen, says) in [
        ("4k3/8/8/8/8/8/8/R3K3 w K - 0 1", "castling right `K` needs white's king on its castling cells with a rook"),
        ("4k3/8/8/8/8/8/8/R3K3 w C - 0 1", "castling right `C` needs white's castling king"),
    ] {
        let e = Position::from_position_string(rules.clone(), fen).expect_err(fen);
        assert!(e.message.contains(says), "{fen}: {}", e.message);
        assert_eq!(e.offset, fen.find(" w ").expect("side") + 3, "{fen}");
    }
    let base = file("fischerandom.var");
    for (from, to, says) in [
        ("Q, N, N, R K R", "Q, N, R K R", "the shuffle's pieces do not fill its cells"),
        ("B on a1 c1 e1 g1, B on b1 d1 f1 h1", "B on a1, B on a1", "the shuffle's pieces cannot be placed"),
        ("B on a1 c1 e1 g1,", "B on a2,", "`a2` is not one of the shuffle's cells"),
        ("black: rank 8 {", "black: a8..g8 {", "the shuffle's cell lists differ in length"),
        ("white: P rank 2", "white: P rank 2, N a1", "`a1` is filled twice in the setup"),
        (
            "-> c1 partner Rook -> d1 from rank 1",
            "-> c1 partner Rook -> d1 from e1 f1 g1",
            "not a line holding its destinations",
        ),
        ("partner Rook -> f1 from rank 1", "partner Rook -> f1 from a1 b1 a2", "not a line holding its destinations"),
    ] {
        assert!(base.contains(from), "{from}");
        let text = base.replacen(from, to, 1);
        let Err(d) = varia_grammar::load(&text) else { panic!("{to}: loads") };
        let shown = format!("{d:?}");
        assert!(shown.contains(says), "{to}: {shown}");
    }
}

#[test]
fn shuffled_pieces_own_their_squares_from_the_start() {
    // Found by the differential fuzzer (seed 500415): with owned squares, the squares under
    // shuffled pieces belong to their players at the start, as a position string says.
    let rules = load(
        r#"variant "Owned shuffle"
board { grid 4 x 4 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
piece King K { royal step all }
piece Rook R { slide orthogonal }
squares { owned }
setup {
  shuffle white: a1 b1 c1  black: a4 b4 c4 { R K R }
}
"#,
    );
    let start = Position::start(rules.clone());
    let text = start.to_position_string();
    let back = common::position(&rules, &text);
    assert_eq!(back.to_position_string(), text);
    assert_eq!(back.hash(), start.hash(), "{text}");
}
