//! Each refinement of the search switched off on a position where it matters: the zugzwang
//! guard of null-move pruning, check extensions, the reductions and prunings that save nodes
//! (the same search with the refinement on visits fewer), the cornering term of the evaluation
//! that lets the side ahead drive a bare royal to the rim, and the royal-safety terms.

mod common;

use std::sync::Arc;

use varia_interpreter::search::{Features, SearchInfo};
use varia_interpreter::{Evaluator, Limits, Position, Rules, Searcher, Weights};

/// Turns one refinement off.
type SwitchOff = fn(&mut Features);

fn search(rules: &Arc<Rules>, fen: &str, depth: u32, change: impl Fn(&mut Features)) -> SearchInfo {
    let mut pos = common::position(rules, fen);
    let mut s = Searcher::new(pos.rules(), 16);
    change(&mut s.features);
    s.search(&mut pos, Limits { depth: Some(depth), ..Limits::default() }, |_| {})
}

fn best(rules: &Arc<Rules>, fen: &str, info: &SearchInfo) -> String {
    let pos = common::position(rules, fen);
    pos.long_notation(info.best().expect("a legal move"))
}

#[test]
fn null_moves_are_not_tried_where_zugzwang_is_likely() {
    let rules = common::rules("chess.var");
    // A mutual zugzwang: each king guards its pawn and attacks the other's. Black to move must
    // let go of d6 and loses it. A null move would let Black pass and miss that.
    let fen = "8/8/3pk3/2KP4/8/8/8/8 b - - 0 1";
    let guarded = search(&rules, fen, 8, |_| {});
    assert!(guarded.score <= -100, "with the guard Black is a pawn down: {}", guarded.score);
    let unguarded = search(&rules, fen, 8, |f| f.zugzwang_guard = false);
    assert!(unguarded.score > -100, "without it the null move hides the zugzwang: {}", unguarded.score);
}

#[test]
fn checks_are_searched_deeper() {
    let rules = common::rules("chess.var");
    // Philidor's legacy, mate in five by checks alone: 1. Qe2-c4+ Kh8 2. Nf7+ Kg8 3. Nh6++ Kh8
    // 4. Qg8+ Rxg8 5. Nf7#. Nine plies, found at depth 5 only because every check adds a ply.
    let fen = "r5k1/6pp/8/4N3/8/8/4Q1PP/6K1 w - - 0 1";
    let extended = search(&rules, fen, 5, |_| {});
    assert_eq!(extended.mate_in(), Some(9), "score {}", extended.score);
    assert_eq!(best(&rules, fen, &extended), "Qe2-c4");
    let plain = search(&rules, fen, 5, |f| f.check_extensions = false);
    assert_eq!(plain.mate_in(), None, "without extensions depth 5 cannot see nine plies");
    // The smothered mate at its end (three plies) at depth 2.
    let fen = "r6k/6pp/7N/8/2Q5/8/6PP/6K1 w - - 0 1";
    assert_eq!(search(&rules, fen, 2, |_| {}).mate_in(), Some(3));
    assert_eq!(search(&rules, fen, 2, |f| f.check_extensions = false).mate_in(), None);
}

#[test]
fn each_pruning_saves_nodes() {
    let rules = common::rules("chess.var");
    // Quiet middle games (an Italian, a Queen's Gambit, a Sicilian), searched to depth 8: the
    // nodes summed over the three, as one position's count hangs on its move order (at depth
    // 6, with the prunings of today, aspiration windows cost 3% here; at 8 they save 15%).
    let fens = [
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R w KQkq - 0 5",
        "r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R1BQ1RK1 w - - 0 8",
        "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
    ];
    let nodes = |off: &dyn Fn(&mut Features)| -> u64 { fens.iter().map(|fen| search(&rules, fen, 8, off).nodes).sum() };
    let all = nodes(&|_| {});
    let offs: [(&str, SwitchOff); 7] = [
        ("null move", |f| f.null_move = false),
        ("late-move reductions", |f| f.late_move_reductions = false),
        ("futility", |f| f.futility = false),
        ("aspiration windows", |f| f.aspiration = false),
        ("move-count pruning", |f| f.move_count_pruning = false),
        ("bad-capture pruning", |f| f.bad_capture_pruning = false),
        ("internal reduction", |f| f.internal_reduction = false),
    ];
    for (name, off) in offs {
        let without = nodes(&off);
        assert!(all < without, "{name}: {all} nodes with it, {without} without");
    }
}

#[test]
fn late_actions_of_a_turn_reduce_the_turns_after_them() {
    let rules = common::rules("infinite-reserves.var");
    let fen = infinite_reserves_opening(&rules);
    // Measured without mid-turn pruning, which skips many of the same late actions outright
    // (with it, the reductions save about a tenth here).
    let on = search(&rules, &fen, 3, |f| f.mid_turn_pruning = false);
    let off = search(&rules, &fen, 3, |f| {
        f.mid_turn_pruning = false;
        f.turn_reductions = false;
    });
    assert!(on.nodes * 5 < off.nodes * 4, "{} nodes with turn reductions, {} without", on.nodes, off.nodes);
    assert_eq!(best(&rules, &fen, &on), best(&rules, &fen, &off));
}

/// Infinite Reserves after four turns of three actions (a piece, a square moved, a square placed).
fn infinite_reserves_opening(rules: &Arc<Rules>) -> String {
    after(rules, "@@c3 @@c6 Nb1-c3 @b1-a3 @@f3 Nb8-c6 @b8-a6 @@f6 Ng1-f3 @g1-h3 @@h4 Ng8-f6 @a6-a5 @@a6")
}

/// The position string after `moves` (long notation, space-separated) from the setup.
fn after(rules: &Arc<Rules>, moves: &str) -> String {
    let mut pos = Position::start(rules.clone());
    for mv in moves.split_whitespace() {
        let m = pos.parse_move(mv).expect("a legal action");
        pos.make(m);
    }
    pos.to_position_string()
}

/// A search to `depth` with a table of 64 MB, stopped after `nodes` if given.
fn search_up_to(rules: &Arc<Rules>, fen: &str, depth: u32, nodes: Option<u64>, change: SwitchOff) -> SearchInfo {
    let mut pos = common::position(rules, fen);
    let mut s = Searcher::new(pos.rules(), 64);
    change(&mut s.features);
    s.search(&mut pos, Limits { depth: Some(depth), nodes, ..Limits::default() }, |_| {})
}

/// A pruning of the last turn's late actions, switched off by `off`: in Infinite Reserves at
/// depth 3 it halves the nodes or better with the same best move and score; in chess, whose
/// turns have one action, it changes nothing.
fn prunes_late_actions_of_the_last_turn(name: &str, off: SwitchOff) {
    let rules = common::rules("infinite-reserves.var");
    let fen = infinite_reserves_opening(&rules);
    let with = search(&rules, &fen, 3, |_| {});
    let without = search(&rules, &fen, 3, off);
    assert!(with.nodes * 2 < without.nodes, "{} nodes with {name}, {} without", with.nodes, without.nodes);
    assert_eq!(best(&rules, &fen, &with), best(&rules, &fen, &without));
    assert_eq!(with.score, without.score);
    let chess = common::rules("chess.var");
    let italian = "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    assert_eq!(search(&chess, italian, 4, |_| {}).nodes, search(&chess, italian, 4, off).nodes);
}

#[test]
fn late_placements_at_the_last_turn_are_pruned() {
    prunes_late_actions_of_the_last_turn("late-move pruning", |f| f.late_move_pruning = false);
}

#[test]
fn late_square_moves_in_the_middle_of_the_last_turn_are_pruned() {
    // The square move between a piece move and a placement: each one tried opens every
    // placement after it.
    prunes_late_actions_of_the_last_turn("mid-turn pruning", |f| f.mid_turn_pruning = false);
}

/// Moving Occupied Squares after 58 actions of a study game (depth 3 against depth 1): White
/// is far ahead, and within a few turns many piece moves give check before the square move and
/// placement that end their turn.
fn moving_occupied_squares_won(rules: &Arc<Rules>) -> String {
    let moves = "@h2-g3 @@a3 @e7-e6 @@e5 Nb1-a3 @c2-d3 @@f3 e6-e5 @b1-c2 @@e7 Ng1-f3 @a3-b4 @@h2 \
                 Qd8-e7 @e5-f5 @@f6 Qd1-c2 @b4-b5 @@d4 Qe7-e6 @c7-c6 @@e7 Nb5-d4 @f6-h4 @@g4 \
                 Qe6-e7 @g1-h3 @@f6 Nd4xc6 @c6-c7 @@e4 Ke8-d8 @h2-g1 @@a6 Nc7xa8 @f6-d4 @@h2 \
                 a7-a6 @h4-f6 @@d6 d3-d4 @d4-e5 @@d3 d7-d6 @e4-f4 @@d7 e5xd6 @d6-c7 @@e5 Qe7xc7 \
                 @g1-e3 @@e7 Na8xc7 @c7-b6 @@e4 f5-f4 @c8-c7 @@d6";
    after(rules, moves)
}

/// Moving Occupied Squares after 71 actions of another study game, White (depth 3) to move a
/// square in the middle of its turn: many placements open a line to a king.
fn moving_occupied_squares_open_kings(rules: &Arc<Rules>) -> String {
    let moves = "@c2-d3 @@d4 @b7-a6 @@c6 d3-d4 @d4-d5 @@f3 c7-c6 @c6-c5 @@f6 Ng1-f3 @f3-e4 @@c2 f7-f6 \
                 @c5-c4 @@h6 Ne4xf6 @f6-e5 @@b3 h7-h6 @c4-d4 @@a5 Ne5xd7 @d7-e6 @@a3 d4-d3 @d8-d7 @@c6 \
                 Ne6xf8 @d5-e6 @@d6 d3xe2 @d7-d8 @@d7 Bf1xe2 @a5-a4 @@d3 Ke8xf8 @a3-a5 @@b6 Qd1-a4 \
                 @d7-b5 @@f1 a6-a5 @a5-a6 @@d7 Rh1-g1 @e6-f5 @@d1 Qd8-d6 @f1-e3 @@e6 Qa4-d7 @d7-d8 @@e8 \
                 Kf8-f7 @c8-b7 @@d5 Qd8-c7 @f5-g6 @@f1 Kf7xg6 @d6-e5 @@f6 Qc7xb7 @c2-b4 @@c4 Nb8-c6 \
                 @d3-d4 @@e4 Qb7xc6";
    after(rules, moves)
}

#[test]
fn a_check_by_a_later_action_of_a_turn_is_extended_on_the_principal_variation_only() {
    let rules = common::rules("moving-occupied-squares.var");
    let fen = moving_occupied_squares_open_kings(&rules);
    // Depth 2 with the default weights: 173,367 nodes against 635,970 (at depth 3 with the
    // variant's weights file, 3.7 million against 28.7 million). The second search is stopped
    // at twice the first.
    let pv_only = search_up_to(&rules, &fen, 2, None, |_| {});
    let everywhere = search_up_to(&rules, &fen, 2, Some(2 * pv_only.nodes), |f| f.late_checks_on_pv_only = false);
    assert!(
        2 * pv_only.nodes <= everywhere.nodes,
        "{} nodes extending on the principal variation only, {} everywhere",
        pv_only.nodes,
        everywhere.nodes
    );
    // In chess every check is a turn's first action: nothing changes.
    let chess = common::rules("chess.var");
    let fen = "r5k1/6pp/8/4N3/8/8/4Q1PP/6K1 w - - 0 1";
    assert_eq!(
        search(&chess, fen, 5, |_| {}).nodes,
        search(&chess, fen, 5, |f| f.late_checks_on_pv_only = false).nodes
    );
}

#[test]
fn a_check_from_a_turns_first_action_is_not_extended_at_each_action_after_it() {
    let rules = common::rules("moving-occupied-squares.var");
    let fen = moving_occupied_squares_won(&rules);
    // A check is the action's that gave it; were a piece move's check credited to each square
    // move and placement that ends the turn after it, every one would be searched a turn
    // deeper and none pruned: 131.9 million nodes at depth 3 here (298 s), a few hundred
    // thousand with extensions off. The search with them is stopped at ten times that.
    let without = search_up_to(&rules, &fen, 3, None, |f| f.check_extensions = false);
    let with = search_up_to(&rules, &fen, 3, Some(10 * without.nodes), |_| {});
    assert!(with.nodes < 10 * without.nodes, "{} nodes with check extensions, {} without", with.nodes, without.nodes);
    assert_eq!(with.depth, 3);
}

#[test]
fn the_side_ahead_drives_a_bare_royal_to_the_rim() {
    let rules = common::rules("chess.var");
    let eval = Evaluator::new(&rules);
    let mut off = Weights::defaults(&rules);
    off.terms.insert("cornering".into(), [0.0, 0.0]);
    let plain = Evaluator::with_weights(&rules, &off).expect("valid weights");
    let value = |e: &Evaluator, fen: &str| e.evaluate(&common::position(&rules, fen));
    // King and rook against king: the black king in the centre, then in the corner with the
    // white king near. White is to move in both. Five steps more (the rim 3, the kings 2) at
    // 10 centipawns each in the endgame, nearly all of the taper with only a rook left.
    let centre = "8/8/8/3k4/8/8/8/R3K3 w - - 0 1";
    let corner = "7k/8/5K2/8/8/8/8/R7 w - - 0 1";
    let gain = (value(&eval, corner) - value(&eval, centre)) - (value(&plain, corner) - value(&plain, centre));
    assert!(gain >= 40, "the corner is worth {gain} more with the cornering term");
    // Even material: the term says nothing.
    let even = "7k/6p1/5K2/8/8/8/6P1/8 w - - 0 1";
    assert_eq!(value(&eval, even), value(&plain, even));
    // From Black's view the sign turns over.
    let black = "7k/8/5K2/8/8/8/8/R7 b - - 0 1";
    let black_gain = value(&plain, black) - value(&eval, black);
    assert!(black_gain > 0, "Black, the bare side, sees the corner as worse by {black_gain}");
}

/// The static exchange played out in the cell array (no move made) values every capture as
/// the exchange with the moves made does, along pseudo-random games of every bundled variant
/// where it applies, and leaves the position as it was; a recapture that would promote sends
/// the exchange back to the moves made. The search's question (does a capture win at least a
/// threshold?), answered with only the recaptures that decide it, agrees with the value.
#[test]
fn exchanges_in_the_cell_array_equal_exchanges_made() {
    let mut compared = 0;
    for name in common::variant_files() {
        let rules = common::rules(&name);
        let mut pos = Position::start(rules.clone());
        let s = Searcher::new(&rules, 1);
        let mut moves = Vec::new();
        for ply in 0..80usize {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let before = pos.to_position_string();
            for &mv in moves.iter().filter(|m| m.is_capture()) {
                let (made, in_cells) = s.exchange_both_ways(&mut pos, mv);
                if let Some(v) = in_cells {
                    assert_eq!(v, made, "{name}: {before} {}", pos.long_notation(mv));
                    compared += 1;
                }
                // The search's question, answered with as few recaptures as decide it.
                for t in [made - 1, made, made + 1, 0, -made, 1] {
                    let at_least = s.exchange_at_least(&mut pos, mv, t);
                    assert_eq!(at_least, made >= t, "{name}: {before} {} at least {t}", pos.long_notation(mv));
                }
                assert_eq!(pos.to_position_string(), before, "{name}");
            }
            // Captures first, so that exchanges arise.
            let capture = moves.iter().position(|m| m.is_capture());
            let k = capture.filter(|_| ply % 3 != 2).unwrap_or((ply * 7919 + 13) % moves.len());
            pos.make(moves[k]);
        }
    }
    assert!(compared > 200, "{compared}");
    // A rook taken on d8, the bishop's recapture taken by a pawn that promotes there: the
    // exchange is made.
    let rules = common::rules("chess.var");
    let mut pos = common::position(&rules, "3r3k/2P1b3/8/8/8/8/8/3R3K w - - 0 1");
    let s = Searcher::new(&rules, 1);
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let rxd8 = *moves.iter().find(|m| pos.long_notation(**m) == "Rd1xd8").expect("Rd1xd8");
    assert_eq!(s.exchange_both_ways(&mut pos, rxd8).1, None);
}

/// The evaluation of `fen` with `term` at `weight` in the middle game, less its value at 0.
fn term_value(rules: &Arc<Rules>, fen: &str, term: &str, weight: f64) -> i32 {
    let with = |w: f64| {
        let mut weights = Weights::defaults(rules);
        weights.terms.insert(term.into(), [w, 0.0]);
        Evaluator::with_weights(rules, &weights).expect("valid weights").evaluate(&common::position(rules, fen))
    };
    with(weight) - with(0.0)
}

#[test]
fn the_royal_attack_term_counts_attackers_times_cells_from_the_rules() {
    let rules = common::rules("chess.var");
    // The queen on h4 lands on f2 and on the king's own cell: one piece, two cells of the zone.
    let queen = "rnb1kbnr/pppp1ppp/8/4p3/7q/8/PPPPP1PP/RNBQKBNR w KQkq - 0 1";
    let one = term_value(&rules, queen, "royal-attack", -10.0);
    assert!((-20..=-18).contains(&one), "{one}");
    // A knight on g4 lands on f2 as well: two pieces on three cells count 6, three times one
    // (each rounded apart).
    let knight = "rnb1kb1r/pppp1ppp/8/4p3/6nq/8/PPPPP1PP/RNBQKBNR w KQkq - 0 1";
    let two = term_value(&rules, knight, "royal-attack", -10.0);
    assert!((3 * one - 2..=3 * one + 2).contains(&two), "{two} against {one}");
    // At home nothing lands next to either king.
    let home = "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPP1PP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(term_value(&rules, home, "royal-attack", -10.0), 0);
    // Xiangqi (90 cells, read as 128-cell sets): at the start nothing lands beside a general.
    let xq = common::rules("xiangqi.var");
    let start = Position::start(xq.clone()).to_position_string();
    assert_eq!(term_value(&xq, &start, "royal-attack", -10.0), 0);
}

#[test]
fn the_royal_attack_term_reads_the_zones_rays_alike_in_every_variant() {
    // Each leaf evaluated with the term on checks (a debug assertion) that the rays crossing a
    // royal's zone give the targets there that all of the piece's rays give.
    for name in common::variant_files() {
        let rules = common::rules(&name);
        let mut weights = Weights::defaults(&rules);
        weights.terms.insert("royal-attack".into(), [-4.0, -4.0]);
        let eval = Evaluator::with_weights(&rules, &weights).expect("valid weights");
        let mut searcher = Searcher::with_evaluator(&rules, 1, eval);
        let mut pos = Position::start(rules.clone());
        let info = searcher.search(&mut pos, Limits { nodes: Some(400), ..Limits::default() }, |_| {});
        assert!(info.nodes > 0, "{name}");
    }
}

#[test]
fn the_castle_term_counts_a_right_held_or_a_castling_done_from_the_rules() {
    let rules = common::rules("chess.var");
    // Both sides hold their rights: the term says nothing.
    let home = "r1bqkbnr/pppppppp/2n5/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(term_value(&rules, home, "castle", 40.0), 0);
    // White's king walked to d3 and gave up both rights; Black still holds its own: White is
    // worse by the weight, tapered by the two pawns gone.
    let walked = "r1bqkbnr/pppppppp/2n5/8/8/3K4/PPP2PPP/RNBQ1BNR w kq - 0 1";
    let v = term_value(&rules, walked, "castle", 40.0);
    assert!((-40..=-35).contains(&v), "{v}");
    // White castled (its king where a castling ends, no right left) and Black's king walked to
    // e7: White is better by the weight, tapered by White's bishop gone.
    let castled = "rnbq1bnr/ppppkppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQ1RK1 w - - 0 1";
    let v = term_value(&rules, castled, "castle", 40.0);
    assert!((35..=40).contains(&v), "{v}");
    // One right kept is enough: the king's rook moved, the queen's side still held.
    let rook_moved = "rnbqkbnr/pppppppp/8/8/8/7P/PPPPPPPR/RNBQKBN1 w Qkq - 0 1";
    assert_eq!(term_value(&rules, rook_moved, "castle", 40.0), 0);
    // Xiangqi has no castling: nothing to count.
    let xq = common::rules("xiangqi.var");
    let start = Position::start(xq.clone()).to_position_string();
    assert_eq!(term_value(&xq, &start, "castle", 40.0), 0);
}

#[test]
fn royal_safety_counts_open_lines_and_attacked_cells_from_the_rules() {
    let rules = common::rules("chess.var");
    // Each side castled behind three pawns: equal, the term says nothing.
    let sheltered = "r4rk1/ppp2ppp/8/8/8/8/PPP2PPP/R4RK1 w - - 0 1";
    assert_eq!(term_value(&rules, sheltered, "open-lines", -4.0), 0);
    // White's king walked to d3 with the pawns ahead gone: its lines are open, and with only
    // the kings' pawns changed White is worse for it (all material still on: the middle game).
    let walked = "r1bqkbnr/pppppppp/2n5/8/8/3K4/PPP2PPP/RNBQ1BNR w kq - 0 1";
    let home = "r1bqkbnr/pppppppp/2n5/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert!(
        term_value(&rules, walked, "open-lines", -4.0) <= -40,
        "{}",
        term_value(&rules, walked, "open-lines", -4.0)
    );
    assert_eq!(term_value(&rules, home, "open-lines", -4.0), 0);
    // The cells next to a royal piece an enemy attacks: the queen on h4 bears on f2, next to
    // White's king; at home it bears on none.
    let queen_out = "rnb1kbnr/pppp1ppp/8/4p3/7q/8/PPPPP1PP/RNBQKBNR w KQkq - 0 1";
    let queen_home = "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPP1PP/RNBQKBNR w KQkq - 0 1";
    assert!(term_value(&rules, queen_out, "royal-zone", -10.0) <= -8);
    assert_eq!(term_value(&rules, queen_home, "royal-zone", -10.0), 0);
    // Xiangqi: the general in its palace is a royal piece like any other. With Red's middle
    // soldier gone its file is open up to Black's soldier: three cells more, by the variant's own
    // directions (no game named).
    let xq = common::rules("xiangqi.var");
    let start = Position::start(xq.clone()).to_position_string();
    assert_eq!(term_value(&xq, &start, "open-lines", -4.0), 0);
    let open = start.replacen("P1P1P1P1P", "P1P3P1P", 1);
    assert_ne!(open, start, "the soldiers' rank in {start}");
    assert!(
        (-12..=-10).contains(&term_value(&xq, &open, "open-lines", -4.0)),
        "{}",
        term_value(&xq, &open, "open-lines", -4.0)
    );
}

#[test]
fn the_hand_drops_term_counts_enemy_pieces_in_hand_times_empty_cells_beside_a_royal() {
    let rules = common::rules("crazyhouse.var");
    // White's king has one empty cell beside it (e2); black holds one knight: 1 x 1.
    let one = term_value(&rules, "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR[n] w KQkq - 0 1", "hand-drops", -10.0);
    assert!((-11..=-8).contains(&one), "{one}");
    // Two pieces in black's hand and e2, f2 empty: 2 x 2.
    let four = term_value(&rules, "rnbqkbnr/pppppppp/8/8/8/8/PPPP2PP/RNBQKBNR[np] w KQkq - 0 1", "hand-drops", -10.0);
    assert!((4 * one - 3..=4 * one + 3).contains(&four), "{four} against {one}");
    // A king's own side's hand is no threat to it, nor a hand beside a closed king.
    let own = "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR[N] w KQkq - 0 1";
    assert_eq!(term_value(&rules, own, "hand-drops", -10.0), 0);
    // Black's king, e7 empty, against white's knight in hand: the term counts for black.
    let black = "rnbqkbnr/pppp1ppp/8/8/8/8/PPPPPPPP/RNBQKBNR[N] w KQkq - 0 1";
    assert!((8..=11).contains(&term_value(&rules, black, "hand-drops", -10.0)));
    // A game without hands counts nothing.
    let chess = common::rules("chess.var");
    assert_eq!(term_value(&chess, "rnbqkbnr/pppp1ppp/8/8/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1", "hand-drops", -10.0), 0);
}

#[test]
fn positions_alike_but_for_the_move_clock_are_evaluated_apart() {
    // The move clock scales the evaluation but is not in the position's hash: a searcher that
    // met the same board at another clock must not reuse that evaluation (its cache keys the
    // clock too).
    let rules = common::rules("chess.var");
    let early = "8/8/8/3k4/8/8/8/R3K3 w - - 0 60";
    let late = "8/8/8/3k4/8/8/8/R3K3 w - - 90 60";
    let (a, b) = (common::position(&rules, early), common::position(&rules, late));
    assert_eq!(a.hash(), b.hash(), "the hash leaves the clock out");
    let eval = Evaluator::new(&rules);
    assert_ne!(eval.evaluate(&a), eval.evaluate(&b), "the clock scales the evaluation");
    let limits = Limits { depth: Some(1), ..Limits::default() };
    let mut fresh = Searcher::new(&rules, 16);
    let alone = fresh.search(&mut common::position(&rules, late), limits, |_| {}).score;
    let mut reused = Searcher::new(&rules, 16);
    reused.search(&mut common::position(&rules, early), limits, |_| {});
    let after = reused.search(&mut common::position(&rules, late), limits, |_| {}).score;
    assert_eq!(after, alone, "the late clock's search as a fresh searcher scores it");
}
