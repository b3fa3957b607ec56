//! Square play (the Chess with a Limited Supply of Squares family): perft by two routes, turn
//! perft, and random-playout properties (no panic, hashes, position strings, square counts).

mod common;

use std::sync::Arc;

use varia_interpreter::ir::PlayerId;
use varia_interpreter::{perft_turns, Move, MoveKind, Position, Rules};

/// Perft by two routes (see `common::perft_two_routes`), after every two-action prefix.
#[test]
fn perft_by_two_routes_agrees() {
    // (variant, depth below the two-action prefix, total = perft(depth + 2) from the start):
    // the totals are the independent oracle's (tools/hans38-oracle: `perft.py 4`, `--neutral 3`,
    // `--infinite --actions 5`, `--occupied --actions 4`, `--postal-plus --actions 4`).
    let cases = [
        ("hans38.var", 2, 1_913_452),
        ("hans38-neutral.var", 1, 71_506),
        ("infinite-reserves.var", 3, 236_604),
        ("moving-occupied-squares.var", 2, 366_476),
        ("hans38-postal-plus.var", 2, 30_890),
    ];
    for (name, depth, expected) in cases {
        assert_eq!(common::perft_two_routes(name, depth), expected, "{name}");
    }
}

/// Whole turns: the independent oracle's counts (tools/hans38-oracle `--infinite 3`,
/// `--occupied 1`, Hans38 `3`) for the games of several actions per turn; in one-action games
/// turns and actions are the same.
#[test]
fn perft_by_turns() {
    let cases: [(&str, &[u64]); 3] = [
        ("infinite-reserves.var", &[32, 2_976, 391_260]),
        ("moving-occupied-squares.var", &[704]),
        ("hans38.var", &[32, 1_004, 44_212]),
    ];
    for (name, counts) in cases {
        let rules = common::rules(name);
        let mut pos = Position::start(rules);
        for (i, &n) in counts.iter().enumerate() {
            assert_eq!(perft_turns(&mut pos, i as u32 + 1).expect("turns end"), n, "{name} depth {}", i + 1);
        }
    }
}

/// A small deterministic generator for the random games (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// What the rules promise about squares, checked after every action of a random game.
struct Expect {
    /// The game keeps a fixed total of squares on the board and in reserve.
    total: Option<u32>,
}

fn squares_in_reserve(pos: &Position) -> u32 {
    (0..pos.rules().player_count()).filter_map(|p| pos.reserve(PlayerId(p as u8))).sum()
}

/// Random games: no panic; the incremental hash equals the recomputed one; the position string
/// reads back to the same position; no piece stands where there is no square; owned squares
/// under pieces are their owner's; squares are conserved where the rules conserve them; each
/// action makes the changes its kind says; unmaking every action restores the start exactly.
fn random_games(name: &str, games: usize, plies: usize, seed: u64, expect: Expect) {
    let rules: Arc<Rules> = common::rules(name);
    let mut rng = Rng(seed);
    for g in 0..games {
        let mut pos = Position::start(rules.clone());
        let start = pos.to_position_string();
        let mut moves: Vec<Move> = Vec::new();
        for _ in 0..plies {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            let before_squares = pos.square_count();
            let before_reserve = pos.reserve(pos.side_to_move());
            let mover = pos.side_to_move();
            pos.make(mv);
            let text = pos.to_position_string();
            let what = format!("{name} game {g}: {} -> {text}", pos.long_notation(mv));
            assert_eq!(pos.hash(), pos.compute_hash(), "{what}");
            let fresh = Position::from_position_string(rules.clone(), &text).expect("own string");
            assert_eq!(fresh.to_position_string(), text, "{what}");
            assert_eq!(fresh.hash(), pos.hash(), "{what}");
            for c in 0..rules.cell_count() {
                let cell = varia_interpreter::ir::CellId(c as u16);
                if let Some(p) = pos.piece_at(cell) {
                    assert!(pos.has_square(cell), "{what}: a piece on {} without a square", rules.cell_name(cell));
                    if rules.variant.squares.as_ref().is_some_and(|s| s.owned) {
                        assert_eq!(pos.square_owner(cell), Some(rules.owner(p)), "{what}");
                    }
                }
            }
            match mv.kind {
                MoveKind::PlaceSquare => {
                    assert_eq!(pos.square_count(), before_squares + 1, "{what}");
                    if let Some(n) = before_reserve {
                        assert_eq!(pos.reserve(mover), Some(n - 1), "{what}");
                    }
                }
                MoveKind::MoveSquare | MoveKind::CarrySquare | MoveKind::EndTurn => {
                    assert_eq!(pos.square_count(), before_squares, "{what}")
                }
                // A piece move keeps every square, or removes the one it left (vacate).
                _ => {
                    assert!(pos.square_count() == before_squares || pos.square_count() + 1 == before_squares, "{what}")
                }
            }
            if let Some(total) = expect.total {
                assert_eq!(pos.square_count() as u32 + squares_in_reserve(&pos), total, "{what}");
            }
        }
        while pos.ply() > 0 {
            pos.unmake();
        }
        assert_eq!(pos.to_position_string(), start);
        assert_eq!(pos.hash(), pos.compute_hash());
    }
}

#[test]
fn random_games_hans38() {
    // 32 squares on the board and 3 in each reserve: 38 in all, whatever happens.
    random_games("hans38.var", 40, 200, 0x5eed_0001, Expect { total: Some(38) });
}

#[test]
fn random_games_hans38_neutral() {
    random_games("hans38-neutral.var", 40, 200, 0x5eed_0002, Expect { total: Some(38) });
}

#[test]
fn random_games_postal() {
    random_games("hans38-postal.var", 20, 200, 0x5eed_0003, Expect { total: Some(38) });
    random_games("hans38-postal-plus.var", 20, 200, 0x5eed_0004, Expect { total: Some(38) });
}

/// Infinite Reserves: one placement per turn and, from the fourth turn, one square removed per
/// piece move, so the board holds 32 + turns squares up to the fourth turn and then stays at
/// the count it reached.
fn infinite_counts(name: &str, seed: u64) {
    let rules = common::rules(name);
    let mut rng = Rng(seed);
    for _ in 0..20 {
        let mut pos = Position::start(rules.clone());
        let mut moves = Vec::new();
        let mut turns = 0;
        while turns < 40 {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.make(moves[rng.below(moves.len())]);
            if pos.action_index() == 0 {
                turns += 1;
                // After each player's third turn, the count stops growing: 38 from then on.
                let expected = (32 + turns).min(38);
                assert_eq!(pos.square_count(), expected, "{}", pos.to_position_string());
            }
        }
    }
    random_games(name, 20, 150, seed ^ 0xabcd, Expect { total: None });
}

#[test]
fn random_games_infinite_reserves() {
    infinite_counts("infinite-reserves.var", 0x5eed_0005);
}

#[test]
fn random_games_moving_occupied_squares() {
    infinite_counts("moving-occupied-squares.var", 0x5eed_0006);
}

/// Perft's last plies over placements (the square actions counted in bulk): along random games
/// of every square game (and Postal Plus with unowned squares, with placed squares
/// untouchable, and with an unlimited reserve), perft 2 equals the sum over the legal actions
/// of the count after each, made one by one (`divide`), and perft 3 equals its divide too.
#[test]
fn placements_counted_in_bulk_agree_with_making_each() {
    let plus = std::fs::read_to_string(common::root().join("variants/hans38-postal-plus.var")).expect("bundled");
    let mut games: Vec<(String, Arc<Rules>)> = ["hans38-postal-plus.var", "hans38-postal.var", "infinite-reserves.var"]
        .iter()
        .chain(&["hans38.var", "hans38-neutral.var", "moving-occupied-squares.var", "hans38-armies.var"])
        .map(|n| (n.to_string(), common::rules(n)))
        .collect();
    for (name, from, to) in [
        ("postal plus, unowned", "  owned\n", ""),
        ("postal plus, placed untouchable", "untouchable moved", "untouchable touched"),
        ("postal plus, unlimited reserve", "reserve 3", "reserve any"),
    ] {
        assert!(plus.contains(from), "{name}");
        let text = plus.replacen(from, to, 1);
        games.push((name.into(), Arc::new(Rules::new(varia_grammar::load(&text).expect(name)))));
    }
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for (name, rules) in &games {
        for _game in 0..3 {
            let mut pos = Position::start(rules.clone());
            for _ply in 0..24 {
                let split: u64 = varia_interpreter::divide(&mut pos, 2).iter().map(|(_, n)| n).sum();
                assert_eq!(varia_interpreter::perft(&mut pos, 2), split, "{name}: {}", pos.to_position_string());
                let split: u64 = varia_interpreter::divide(&mut pos, 3).iter().map(|(_, n)| n).sum();
                assert_eq!(varia_interpreter::perft(&mut pos, 3), split, "{name}: {}", pos.to_position_string());
                let mut moves = Vec::new();
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos.make(moves[(seed % moves.len() as u64) as usize]);
            }
        }
    }
}

/// Of three placements that end White's turn, the one on e4 opens the e-file from the white
/// rook to the black rook before the king, pinning it: perft's count after that placement
/// reads the pin, the other two (off the king's lines) none.
#[test]
fn a_placement_opening_a_line_to_the_king_is_counted_with_the_pin() {
    let rules = common::rules("hans38-postal-plus.var");
    let text = "----k---/--------/----r---/*-----*-/++++*+++/++++++++/++++++++/K+++R+++ w - - 0 5 2,0 - 3 -";
    let mut pos = common::position(&rules, text);
    let split = varia_interpreter::divide(&mut pos, 2);
    assert_eq!(split.len(), 4, "three placements and the end of the turn");
    for (mv, _) in &split {
        let text = pos.long_notation(*mv);
        pos.make(*mv);
        let sideways = common::legal(&mut pos).iter().any(|m| m.starts_with("Re6-") && !m.starts_with("Re6-e"));
        pos.unmake();
        assert_eq!(sideways, text != "@@e4", "{text}");
    }
    assert_eq!(varia_interpreter::perft(&mut pos, 2), split.iter().map(|(_, n)| n).sum::<u64>());
}
