//! The generic search: mates found at fixed depth, a fixed-depth player against a random one,
//! and engine-against-engine games in every bundled variant.

mod common;

use varia_interpreter::{GameResult, Limits, Move, MoveKind, Position, Searcher};

fn depth(d: u32) -> Limits {
    Limits { depth: Some(d), ..Limits::default() }
}

fn best(pos: &mut Position, d: u32) -> (String, Option<i32>) {
    let mut s = Searcher::new(pos.rules(), 4);
    let info = s.search(pos, depth(d), |_| {});
    let mv = info.best().expect("a legal move");
    (pos.long_notation(mv), info.mate_in())
}

#[test]
fn mate_in_one_is_found() {
    let rules = common::rules("chess.var");
    // A back-rank mate, a queen mate next to the king, and Black's fool's-mate reply.
    let cases = [
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "Rd1-d8"),
        ("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", "Qf1-f8"),
        ("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2", "Qd8-h4"),
    ];
    for (fen, mate) in cases {
        let mut pos = common::position(&rules, fen);
        let (mv, mate_in) = best(&mut pos, 2);
        assert_eq!(mv, mate, "{fen}");
        assert_eq!(mate_in, Some(1), "{fen}");
    }
}

#[test]
fn mate_in_two_is_found() {
    let rules = common::rules("chess.var");
    // Two rooks (Ra1-a7, then Rb1-b8), and king and rook (1. Kc6-b6 Ka8-b8 2. Rh1-h8): any first
    // move that mates in two is right, so check the score and that the line ends in mate.
    let cases = ["6k1/8/8/8/8/8/8/RR4K1 w - - 0 1", "k7/8/2K5/8/8/8/8/7R w - - 0 1"];
    for fen in cases {
        let mut pos = common::position(&rules, fen);
        let mut s = Searcher::new(pos.rules(), 4);
        let info = s.search(&mut pos, depth(4), |_| {});
        assert_eq!(info.mate_in(), Some(3), "{fen}: {}", info.score);
        for mv in &info.pv {
            pos.make(*mv);
        }
        assert!(matches!(pos.outcome(), Some((GameResult::Win(_), _))), "{fen}: the line ends in mate");
    }
}

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A fixed-depth player wins at least 95 of 100 chess games against a random mover (each
/// side half the time; unfinished games after 300 plies count against it).
#[test]
fn fixed_depth_beats_a_random_player() {
    let rules = common::rules("chess.var");
    let mut rng = Rng(0x5eed_cafe);
    let mut wins = 0;
    for game in 0..100 {
        let engine_side = (game % 2) as u8;
        let mut pos = Position::start(rules.clone());
        let mut searcher = Searcher::new(&rules, 2);
        let mut moves: Vec<Move> = Vec::new();
        for _ in 0..300 {
            if pos.outcome().is_some() {
                break;
            }
            let mv = if pos.side_to_move().0 == engine_side {
                searcher.search(&mut pos, depth(2), |_| {}).best().expect("a move")
            } else {
                pos.legal_moves(&mut moves);
                moves[rng.below(moves.len())]
            };
            pos.make(mv);
        }
        if matches!(pos.outcome(), Some((GameResult::Win(p), _)) if p.0 == engine_side) {
            wins += 1;
        }
    }
    assert!(wins >= 95, "the depth-2 player won {wins} of 100");
}

/// Every bundled variant: 20 games of the engine against itself at depth 1 (the first two
/// plies random, so that games differ), every move legal, no panic.
#[test]
fn every_variant_plays_engine_games() {
    for name in common::variant_files() {
        let rules = common::rules(&name);
        let mut rng = Rng(0xabad_1dea);
        for _ in 0..20 {
            let mut pos = Position::start(rules.clone());
            let mut searcher = Searcher::new(&rules, 1);
            let mut moves: Vec<Move> = Vec::new();
            for ply in 0..80 {
                if pos.outcome().is_some() {
                    break;
                }
                pos.legal_moves(&mut moves);
                let mv = if ply < 2 {
                    moves[rng.below(moves.len())]
                } else {
                    searcher.search(&mut pos, depth(1), |_| {}).best().expect("a move")
                };
                assert!(
                    moves.contains(&mv),
                    "{name}: {} is not legal in {}",
                    pos.long_notation(mv),
                    pos.to_position_string()
                );
                pos.make(mv);
            }
        }
    }
}

/// What quiescence searches, the legal captures and promotions (`legal_captures`, which drops
/// the other moves before testing legality where no rule weighs the whole list, and where
/// pieces stand alone on cells does not generate the moves to empty cells that can neither
/// promote nor take en passant), is the legal move list filtered, in the same order: random
/// games in every bundled variant.
#[test]
fn legal_captures_are_the_legal_moves_that_capture() {
    let noisy = |m: &Move| m.kind.is_piece_move() && ((m.is_capture() && m.kind != MoveKind::Castle) || m.promote != 0);
    let mut captures_seen = 0;
    for name in common::variant_files() {
        let rules = common::rules(&name);
        let mut rng = Rng(0x5eed_cafe);
        for _ in 0..10 {
            let mut pos = Position::start(rules.clone());
            let (mut all, mut some, mut walked) = (Vec::new(), Vec::new(), Vec::new());
            for _ in 0..120 {
                pos.legal_moves(&mut all);
                if all.is_empty() {
                    break;
                }
                // The moves made from the ray masks are those the walk finds, in its order.
                pos.legal_moves_by_walk(&mut walked);
                assert_eq!(common::as_set(&walked), common::as_set(&all), "{name}: {}", pos.to_position_string());
                pos.legal_captures(&mut some);
                all.retain(|m| noisy(m));
                assert_eq!(some, all, "{name}: {}", pos.to_position_string());
                captures_seen += some.len();
                pos.legal_moves(&mut all);
                let mv = all[rng.below(all.len())];
                pos.make(mv);
            }
        }
    }
    assert!(captures_seen > 1000, "the games reached captures: {captures_seen}");
}

/// The depth counts whole turns, whoever moves next: in a game of one player (a puzzle), each
/// of its moves ends a turn, and depth 1 looks one move ahead (the search went on to the end
/// of the game, as the turn never passed to another player). No pass is tried as a null move
/// and no capture is played out in quiescence: no one plays against the player.
#[test]
fn one_player_depth_counts_turns() {
    let text = r#"variant "Walker"
board { grid 8 x 1 }
player you
player nobody
piece Walker W { step e w }
setup { you: Walker a1 }
turn-order { you }
"#;
    let rules = std::sync::Arc::new(varia_interpreter::Rules::new(varia_grammar::load(text).expect("loads")));
    for d in 1..=4 {
        let mut pos = Position::start(rules.clone());
        let mut s = Searcher::new(pos.rules(), 4);
        let info = s.search(&mut pos, depth(d), |_| {});
        assert_eq!(info.pv.len(), d as usize, "depth {d}: {:?}", info.pv);
        // Each turn has at most two moves: the tree is at most 1 + 2 + ... + 2^d nodes a pass.
        assert!(info.nodes < 4 << d, "depth {d}: {} nodes", info.nodes);
    }
}

/// Where every move of the game captures (clobber's stones), quiescence, which follows
/// captures, would search the whole tree: there it stands at the leaves. The rule is read from
/// the compiled rules, and holds for no other bundled game, whose searches are unchanged.
#[test]
fn quiescence_stands_at_the_leaves_where_every_move_captures() {
    let capturing: Vec<String> =
        common::variant_files().into_iter().filter(|n| common::rules(n).every_move_captures()).collect();
    assert_eq!(capturing, ["clobber.var", "clobber10.var"]);
    for (name, d, most) in [("clobber.var", 5, 200_000), ("clobber10.var", 3, 200_000)] {
        let rules = common::rules(name);
        let mut pos = Position::start(rules.clone());
        let info = Searcher::new(&rules, 4).search(&mut pos, depth(d), |_| {});
        assert!(info.best().is_some() && info.nodes < most, "{name}: {} nodes at depth {d}", info.nodes);
    }
    // Leaving the other player no move wins: of the two captures, the one that does it.
    let rules = common::rules("clobber.var");
    let mut pos = common::position(&rules, "5/5/5/5/p4/Ppp2 w - - 0 1");
    let (mv, mate_in) = best(&mut pos, 2);
    assert_eq!((mv.as_str(), mate_in), ("a1xa2", Some(1)));
}

/// Quiescence does not follow a quiet move that turns a piece into a type that can turn back:
/// where every move turns pieces over, both ways (kyotoshogi), such moves would make every move
/// noisy. Of the bundled games only two have pieces that turn both ways, and micro's turn only
/// by capturing (followed as before): no other game's search changes.
#[test]
fn quiescence_leaves_out_quiet_moves_that_turn_a_piece_over_both_ways() {
    let turning: Vec<String> =
        common::variant_files().into_iter().filter(|n| Searcher::turns_over_both_ways(&common::rules(n))).collect();
    assert_eq!(turning, ["kyotoshogi.var", "micro.var"]);
    let rules = common::rules("kyotoshogi.var");
    let mut pos = Position::start(rules.clone());
    let info = Searcher::new(&rules, 4).search(&mut pos, depth(4), |_| {});
    assert!(info.best().is_some() && info.nodes < 500_000, "kyotoshogi: {} nodes at depth 4", info.nodes);
}

/// A search stops within a few hundred nodes of the moment a limit is passed (the clock, the
/// node count and the stop flag are read every 256 nodes, in the main search and in
/// quiescence alike), and still answers with a legal move. Counted in nodes, so the bound does
/// not depend on the machine's speed.
#[test]
fn a_search_stops_within_a_few_hundred_nodes_of_its_limit() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::{Duration, Instant};
    let rules = common::rules("chess.var");
    let italian = "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let legal = |pos: &mut Position, mv: Option<Move>| {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        assert!(mv.is_some_and(|m| moves.contains(&m)), "not a legal move: {mv:?}");
    };
    const CHECKED_EVERY: u64 = 256;
    // A node budget, deep into an iteration.
    let mut pos = common::position(&rules, italian);
    let mut s = Searcher::new(pos.rules(), 4);
    let info = s.search(&mut pos, Limits { nodes: Some(20_000), ..Limits::default() }, |_| {});
    assert!((20_000..20_000 + CHECKED_EVERY).contains(&info.nodes), "{} nodes for 20000", info.nodes);
    legal(&mut pos, info.best());
    // A time already spent when the search begins (the command arrived long ago): the hard
    // limit is found passed at the first reading of the clock.
    let mut s = Searcher::new(pos.rules(), 4);
    let long_ago = Instant::now().checked_sub(Duration::from_secs(1));
    let limits = Limits { time: Some(Duration::from_millis(10)), started: long_ago, ..Limits::default() };
    let info = s.search(&mut pos, limits, |_| {});
    assert!(long_ago.is_none() || info.nodes <= CHECKED_EVERY, "{} nodes after the time ran out", info.nodes);
    legal(&mut pos, info.best());
    // A stop sent before the search began (a GUI's `stop` right after `go`).
    let mut s = Searcher::new(pos.rules(), 4);
    let flag = Arc::new(AtomicBool::new(true));
    s.set_stop_flag(flag.clone());
    let info = s.search(&mut pos, Limits { depth: Some(30), ..Limits::default() }, |_| {});
    assert!(info.nodes <= CHECKED_EVERY, "{} nodes after the stop", info.nodes);
    assert!(flag.load(Ordering::Relaxed), "the search leaves the flag to its owner");
    legal(&mut pos, info.best());
}

#[test]
fn a_repetition_in_the_search_ends_as_the_games_repetition_rule_says() {
    // Xiangqi: the third occurrence of a position where one side checked with every move loses
    // for that side. Red's rook checked twice (a9-a10, a10-a9); the general's step back to d10
    // repeats the first position, Red the perpetual checker: a win for Black, not a draw.
    let rules = common::rules("xiangqi.var");
    let mut pos = common::position(&rules, "3k5/R8/9/9/9/9/9/9/9/4K4 w - - 0 1");
    common::play(&mut pos, "a9a10 d10d9 a10a9");
    let (mv, mate_in) = best(&mut pos, 2);
    assert_eq!(mv, "Kd9-d10");
    assert!(mate_in.is_some_and(|m| m > 0), "a win for Black, found {mate_in:?}");
}
