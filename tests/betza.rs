//! Betza strings read as Fairy-Stockfish reads them: a piece's moves from d4 in four positions
//! against pyffish 0.0.90's (its `customPiece1` with the same string, the moves listed by
//! `pyffish.legal_moves`).

mod common;

use std::sync::Arc;

use varia_interpreter::Rules;

/// The string, then the targets from d4 in each of [`POSITIONS`], as pyffish 0.0.90 lists them.
const FAIRY_STOCKFISH: [(&str, [&str; 4]); 20] = [
    ("N", ["b3 b5 c2 c6 e2 e6 f3 f5", "b3 b5 c2 c6 e2 e6 f3 f5", "b3 b5 c2 c6 e2 e6 f3 f5", "b3 b5 c2 c6 e2 e6 f3 f5"]),
    ("fN", ["c6 e6", "c6 e6", "c6 e6", "c6 e6"]),
    ("ffN", ["c6 e6", "c6 e6", "c6 e6", "c6 e6"]),
    ("fsN", ["b5 f5", "b5 f5", "b5 f5", "b5 f5"]),
    ("flN", ["b5", "b5", "b5", "b5"]),
    ("fhN", ["b5 c6 e6 f5", "b5 c6 e6 f5", "b5 c6 e6 f5", "b5 c6 e6 f5"]),
    ("lvN", ["c2 c6", "c2 c6", "c2 c6", "c2 c6"]),
    ("ffrN", ["c6 e6 f3 f5", "c6 e6 f3 f5", "c6 e6 f3 f5", "c6 e6 f3 f5"]),
    (
        "NN",
        [
            "b3 b5 b8 c2 c6 e2 e6 f3 f5 f8 h2 h6",
            "b3 b5 b8 c2 c6 e2 e6 f3 f5 f8 h2 h6",
            "b3 b5 b8 c2 c6 e2 e6 f3 f5 f8 h2 h6",
            "b3 b5 b8 c2 c6 e2 e6 f3 f5 f8 h2 h6",
        ],
    ),
    ("nN", ["b3 b5 c2 c6 e2 e6 f3 f5", "b3 b5 c2 c6 e2 e6 f3 f5", "b3 b5 c2 e2 f3 f5", "c2 c6 e2 e6 f3 f5"]),
    ("nA", ["b2 b6 f2 f6", "b2 b6 f2 f6", "b2 b6 f6", "b2 b6 f2 f6"]),
    ("nD", ["b4 d2 d6 f4", "b4 d2 d6 f4", "b4 d2 f4", "d2 d6 f4"]),
    ("flF", ["c5", "c5", "c5", "c5"]),
    ("fsW", ["c4 d5 e4", "c4 d5 e4", "c4 d5 e4", "c4 d5 e4"]),
    (
        "R4",
        [
            "a4 b4 c4 d1 d2 d3 d5 d6 d7 d8 e4 f4 g4 h4",
            "a4 b4 c4 d1 d2 d3 d5 d6 d7 d8 e4 f4 g4 h4",
            "a4 b4 c4 d1 d2 d3 d5 e4 f4 g4 h4",
            "c4 d1 d2 d3 d5 d6 d7 d8 e4 f4 g4 h4",
        ],
    ),
    (
        "mRcpR",
        [
            "a4 b4 c4 d1 d2 d3 d5 d6 d7 d8 e4 f4 g4 h4",
            "a4 b4 c4 d1 d2 d3 d5 d6 d7 d8 e4 f4 g4 h4",
            "a4 b4 c4 d1 d2 d3 e4 f4 g4 h4",
            "d1 d2 d3 d5 d6 d7 d8 e4 f4 g4 h4",
        ],
    ),
    ("gQ", ["", "", "d6 f2", "b4"]),
    (
        "mNN",
        [
            "b3 b5 b8 c2 c6 e2 e6 f3 f5 h2 h6",
            "b3 b5 b8 c2 c6 e2 e6 f3 f5 f8 h2 h6",
            "b3 b5 b8 c2 c6 e2 e6 f3 f5 f8 h2 h6",
            "b3 b5 b8 c2 c6 e2 e6 f3 f5 f8 h2 h6",
        ],
    ),
    ("cNN", ["f8", "", "", ""]),
    (
        "N3",
        [
            "b3 b5 b8 c2 c6 e2 e6 f3 f5 f8 h2 h6",
            "b3 b5 b8 c2 c6 e2 e6 f3 f5 f8 h2 h6",
            "b3 b5 b8 c2 c6 e2 e6 f3 f5 f8 h2 h6",
            "b3 b5 b8 c2 c6 e2 e6 f3 f5 f8 h2 h6",
        ],
    ),
];

/// A black pawn on f8 (a nightrider's second leap), d5 and e3 (blocking lame leaps and
/// screens), c4 (beside the piece); a black pawn on g2 in each, the kings on a1 and h8.
const POSITIONS: [&str; 4] = [
    "5p1k/8/8/8/3A4/8/6p1/K7 w - - 0 1",
    "7k/8/8/8/3A4/8/6p1/K7 w - - 0 1",
    "7k/8/8/3p4/3A4/4p3/6p1/K7 w - - 0 1",
    "7k/8/8/8/2pA4/8/6p1/K7 w - - 0 1",
];

fn rules_with(betza: &str) -> Arc<Rules> {
    let text = format!(
        r#"variant "Betza"
board {{ grid 8 x 8 }}
player white
player black swap n <-> s  ne <-> se  nw <-> sw
piece King K {{ royal step all }}
piece Pawn P {{ step n }}
piece Amazon A {{ betza "{betza}" }}
setup {{ white: King a1, Amazon d4  black: King h8 }}
"#
    );
    Arc::new(Rules::new(varia_grammar::load(&text).unwrap_or_else(|e| panic!("{betza}: {e:?}"))))
}

#[test]
fn betza_strings_give_fairy_stockfish_moves() {
    for (betza, expected) in FAIRY_STOCKFISH {
        let rules = rules_with(betza);
        for (fen, want) in POSITIONS.iter().zip(expected) {
            let mut pos = common::position(&rules, fen);
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            let mut targets: Vec<String> = moves
                .iter()
                .map(|m| pos.long_notation(*m))
                .filter(|t| t.starts_with("Ad4"))
                .map(|t| t[t.len() - 2..].to_string())
                .collect();
            targets.sort();
            assert_eq!(targets.join(" "), want, "{betza} at {fen}");
        }
    }
}

#[test]
fn betza_errors_point_at_the_character() {
    for (betza, message) in [
        ("mQz", "found `z`"),
        ("ifmW", "initial moves are not read"),
        ("pN", "expected a hopper on orthogonal or diagonal lines"),
        ("fm", "expected a Betza atom after the modifiers"),
    ] {
        let text = format!(
            "variant \"B\"\nboard {{ grid 8 x 8 }}\nplayer white\nplayer black\npiece King K {{ royal betza \"{betza}\" }}\nsetup {{ white: King a1 black: King h8 }}\n"
        );
        let errors = varia_grammar::load(&text).expect_err(betza);
        let all = format!("{errors:?}");
        assert!(all.contains(message), "{betza}: {all}");
    }
}
