//! More of Fairy-Stockfish's games bundled with Varia (clobber, checkshogi, supply, janggicasual, janggitraditional, kyotoshogi, wolf, koedem, shouse, racingkings, placement): positions that exercise each game's own rules. Every expected move list and result is Fairy-Stockfish's (pyffish 0.0.90: `legal_moves`, `is_immediate_game_end`, `game_result` on the same position string), written in its UCI form; tools/oracle-fsf.py compares whole random games.

mod common;

use varia_interpreter::ir::PlayerId;
use varia_interpreter::{EndReason, GameResult, Position};

const WHITE: PlayerId = PlayerId(0);

fn at(file: &str, text: &str) -> Position {
    common::position(&common::rules(file), text)
}

fn list(moves: &str) -> Vec<String> {
    moves.split_whitespace().map(str::to_string).collect()
}

/// The cells where pieces of one letter are dropped, sorted.
fn drops(moves: &[String], letter: char) -> Vec<String> {
    let mut cells: Vec<String> =
        moves.iter().filter_map(|m| m.strip_prefix(&format!("{letter}@")).map(str::to_string)).collect();
    cells.sort();
    cells
}

#[test]
fn clobber_stones_only_capture_and_a_player_without_a_capture_loses() {
    // White's a1 takes a2 or b1 (orthogonal neighbours); c1 is no neighbour.
    let mut pos = at("clobber.var", "5/5/5/5/p4/Ppp2 w - - 0 1");
    assert_eq!(common::uci(&mut pos), list("a1a2 a1b1"));
    // After a1a2 Black's b1 and c1 have no white neighbour: Black cannot move and loses.
    common::play(&mut pos, "a1a2");
    assert!(common::uci(&mut pos).is_empty());
    assert_eq!(pos.outcome(), Some((GameResult::Win(WHITE), EndReason::Stalemate)));
}

#[test]
fn checkshogi_the_first_check_wins() {
    // 84 moves, among them the rook's drops; a drop on the e-file gives check and wins at once.
    let mut pos = at("checkshogi.var", "4k4/9/9/9/9/9/9/9/4K4[R] w - - 0 1");
    assert_eq!(common::uci(&mut pos).len(), 84);
    common::play(&mut pos, "R@e5");
    assert!(common::uci(&mut pos).is_empty());
    assert!(matches!(pos.outcome(), Some((GameResult::Win(WHITE), EndReason::Goal(_)))));
}

#[test]
fn supply_drops_land_where_each_piece_could_stand_in_its_own_half() {
    let mut pos = at("supply.var", "5k3/9/9/9/9/9/9/9/9/3K5[ABNRCP] w - - 0 1");
    let moves = common::uci(&mut pos);
    assert_eq!(moves.len(), 150);
    // Advisors on their palace's points, elephants on theirs, soldiers on ranks 4 and 5 of the
    // files they start on.
    assert_eq!(drops(&moves, 'A'), list("d3 e2 f1 f3"));
    assert_eq!(drops(&moves, 'B'), list("a3 c1 c5 e3 g1 g5 i3"));
    assert_eq!(drops(&moves, 'P'), list("a4 a5 c4 c5 e4 e5 g4 g5 i4 i5"));
    // Horses and cannons anywhere empty in White's half; the chariot not on the f-file, where
    // it would give check.
    assert_eq!(drops(&moves, 'N').len(), 44);
    assert_eq!(drops(&moves, 'C').len(), 44);
    assert_eq!(drops(&moves, 'R').len(), 39);
    assert!(!drops(&moves, 'R').iter().any(|c| c.starts_with('f')));
    // Black's drops are the same in Black's half.
    let mut pos = at("supply.var", "5k3/9/9/9/9/9/9/9/9/3K5[abnrcp] b - - 0 1");
    let moves = common::uci(&mut pos);
    assert_eq!(moves.len(), 150);
    assert_eq!(drops(&moves, 'A'), list("d10 d8 e9 f8"));
    assert_eq!(drops(&moves, 'P'), list("a6 a7 c6 c7 e6 e7 g6 g7 i6 i7"));
}

#[test]
fn supply_no_drop_gives_check_not_even_a_cannon_over_a_screen() {
    // Black's soldier on d6 would screen a cannon dropped on the d-file against the general on d10.
    let mut pos = at("supply.var", "3k5/9/9/9/3p5/9/9/9/9/5K3[C] w - - 0 1");
    let cannon = drops(&common::uci(&mut pos), 'C');
    assert_eq!(cannon.len(), 39);
    assert!(!cannon.iter().any(|c| c.starts_with('d')), "{cannon:?}");
}

#[test]
fn supply_captures_pass_nothing_to_the_hand() {
    let mut pos = at("supply.var", "3k5/9/9/9/9/9/9/9/r8/R4K3[] w - - 0 1");
    common::play(&mut pos, "a1a2");
    assert_eq!(pos.to_position_string(), "3k5/9/9/9/9/9/9/9/R8/5K3[] b - - 0 1");
}

#[test]
fn janggi_casual_two_passes_draw_and_the_generals_face_freely() {
    let mut pos = at("janggicasual.var", "start");
    common::play(&mut pos, "e2e2 e9e9");
    assert!(common::uci(&mut pos).is_empty());
    assert!(matches!(pos.outcome(), Some((GameResult::Draw, EndReason::Goal(_)))));
    // No bikjang: the general may stay on the open file, and a pass there goes on.
    let mut pos = at("janggicasual.var", "4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1");
    assert_eq!(common::uci(&mut pos), list("e2d1 e2d2 e2d3 e2e1 e2e2 e2e3 e2f1 e2f2 e2f3"));
    common::play(&mut pos, "e2e2");
    assert_eq!(pos.outcome(), None);
}

#[test]
fn janggi_traditional_bikjang_and_two_passes_draw() {
    let mut pos = at("janggitraditional.var", "start");
    common::play(&mut pos, "e2e2 e9e9");
    assert!(matches!(pos.outcome(), Some((GameResult::Draw, EndReason::Goal(_)))));
    // Generals facing: a move must part them, and a pass leaves them facing and draws.
    let mut pos = at("janggitraditional.var", "4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1");
    assert_eq!(common::uci(&mut pos), list("e2d1 e2d2 e2d3 e2e2 e2f1 e2f2 e2f3"));
    common::play(&mut pos, "e2e2");
    assert!(matches!(pos.outcome(), Some((GameResult::Draw, EndReason::Goal(_)))));
}

#[test]
fn kyotoshogi_every_move_turns_the_piece_over_both_ways() {
    let mut pos = at("kyotoshogi.var", "start");
    assert_eq!(common::uci(&mut pos), list("a1a2- a1b2- b1a2+ b1b2+ b1c2+ c1b2 c1c2 c1d2 d1c2- d1d2- d1e2- e1e2+"));
    // The silver turns into a bishop, the gold on a1 back into a lance.
    common::play(&mut pos, "b1b2+");
    assert_eq!(pos.to_position_string(), "p+nks+l/5/5/1+S3/+L1K+NP[] b - - 1 1");
    let mut pos = at("kyotoshogi.var", "start");
    common::play(&mut pos, "a1a2-");
    assert_eq!(pos.to_position_string(), "p+nks+l/5/5/L4/1SK+NP[] b - - 1 1");
}

#[test]
fn kyotoshogi_a_piece_in_hand_is_dropped_either_side_up() {
    let mut pos = at("kyotoshogi.var", "2k2/5/5/5/2K2[S] w - - 0 1");
    let moves = common::uci(&mut pos);
    assert_eq!(moves.len(), 51);
    assert!(common::has(&moves, "S@c3") && common::has(&moves, "+S@c3"), "{moves:?}");
    common::play(&mut pos, "+S@c3");
    assert_eq!(pos.to_position_string(), "2k2/5/2+S2/5/2K2[] b - - 0 1");
}

#[test]
fn wolf_pawns_become_elephants_and_sergeants_step_twice_from_the_third_rank() {
    // A pawn on the far rank becomes any of queen, wolf, fox, rook, bishop or the elephant, the
    // last written as a promoted pawn (`b9b10+`, `+P`); the sergeant on b2 steps forwards,
    // diagonally forwards, or twice from its start cell.
    let mut pos = at("wolf.var", "7k/1P6/8/8/8/8/8/8/1S6/K7 w - - 0 1");
    assert_eq!(common::uci(&mut pos), list("a1a2 a1b1 b2a3 b2b3 b2b4 b2c3 b9b10+ b9b10b b9b10f b9b10q b9b10r b9b10w"));
    common::play(&mut pos, "b9b10+");
    assert_eq!(pos.to_position_string(), "1+P5k/8/8/8/8/8/8/8/1S6/K7 b - - 0 1");
    // From b3 (a cell in front of a sergeant's start) the sergeant steps twice too, and a pawn
    // beside it may then take it en passant.
    let mut pos = at("wolf.var", "7k/8/8/8/8/p7/8/1S6/8/K7 w - - 0 1");
    assert_eq!(common::uci(&mut pos), list("a1a2 a1b1 a1b2 b3a4 b3b4 b3b5 b3c4"));
    common::play(&mut pos, "b3b5");
    assert_eq!(common::uci(&mut pos), list("a5a4 a5b4 h10g10 h10g9 h10h9"));
    common::play(&mut pos, "a5b4");
    assert_eq!(pos.to_position_string(), "7k/8/8/8/8/8/1p6/8/8/K7 w - - 0 2");
}

#[test]
fn koedem_kings_are_plain_pieces_dropped_first_and_the_last_king_loses() {
    // The king is no royal piece: it takes the rook on e2 (which attacks it) and castles over d1,
    // which Black's rook attacks.
    let mut pos = at("koedem.var", "3rk3/8/8/8/8/8/8/R3K3[] w Q - 0 1");
    assert_eq!(
        common::uci(&mut pos),
        list("a1a2 a1a3 a1a4 a1a5 a1a6 a1a7 a1a8 a1b1 a1c1 a1d1 e1c1 e1d1 e1d2 e1e2 e1f1 e1f2")
    );
    // A king in hand must be dropped before anything else: 61 drops on the empty cells.
    let mut pos = at("koedem.var", "4k3/8/8/8/8/8/4r3/4K3[Kk] w - - 0 1");
    let moves = common::uci(&mut pos);
    assert_eq!(moves.len(), 61);
    assert_eq!(drops(&moves, 'K').len(), 61);
    // Black has no king, on the board or in hand, and White holds two: Black has lost.
    let mut pos = at("koedem.var", "8/8/8/8/8/8/4r3/K7[K] b - - 0 1");
    assert!(common::uci(&mut pos).is_empty());
    assert!(matches!(pos.outcome(), Some((GameResult::Win(WHITE), _))), "{:?}", pos.outcome());
}

#[test]
fn shouse_gates_any_piece_in_hand_but_a_pawn() {
    // Black's king leaves e8, its gate held, with a pawn in hand: the pawn is dropped on ranks
    // 2 to 7 (48 drops) but never gated on e8 (53 moves, Fairy-Stockfish's count).
    let mut pos = at("shouse.var", "4k3/8/8/8/8/8/8/4K3[p] b e - 0 1");
    let moves = common::uci(&mut pos);
    assert_eq!(moves.len(), 53);
    assert_eq!(drops(&moves, 'P').len(), 48);
    assert_eq!(
        moves.iter().filter(|m| !m.contains('@')).cloned().collect::<Vec<_>>(),
        list("e8d7 e8d8 e8e7 e8f7 e8f8")
    );
    // A hawk in hand is gated on e1 with every king move, and dropped on any empty cell.
    let mut pos = at("shouse.var", "4k3/8/8/8/8/8/8/4K3[Hp] w Ee - 0 1");
    let moves = common::uci(&mut pos);
    assert_eq!(drops(&moves, 'H').len(), 62);
    assert_eq!(
        moves.iter().filter(|m| !m.contains('@')).cloned().collect::<Vec<_>>(),
        list("e1d1 e1d1h e1d2 e1d2h e1e2 e1e2h e1f1 e1f1h e1f2 e1f2h")
    );
}

#[test]
fn racingkings_no_check_and_black_may_follow_the_king() {
    // No move may give check: the rook neither goes to a7 nor to b1.
    let mut pos = at("racingkings.var", "8/1k4K1/8/8/8/8/8/R7 w - - 0 1");
    assert_eq!(
        common::uci(&mut pos),
        list("a1a2 a1a3 a1a4 a1a5 a1a6 a1a8 a1c1 a1d1 a1e1 a1f1 a1g1 a1h1 g7f6 g7f7 g7f8 g7g6 g7g8 g7h6 g7h7 g7h8")
    );
    // White's king reaches g8; Black's on a2 cannot follow: White has won.
    let mut pos = at("racingkings.var", "8/6K1/8/8/8/8/k7/8 w - - 0 1");
    common::play(&mut pos, "g7g8");
    assert!(common::uci(&mut pos).is_empty());
    assert!(matches!(pos.outcome(), Some((GameResult::Win(WHITE), _))), "{:?}", pos.outcome());
    // On b7 it can: Black plays on, and following draws.
    let mut pos = at("racingkings.var", "8/1k4K1/8/8/8/8/8/8 w - - 0 1");
    common::play(&mut pos, "g7g8");
    assert_eq!(common::uci(&mut pos), list("b7a6 b7a7 b7a8 b7b6 b7b8 b7c6 b7c7 b7c8"));
    common::play(&mut pos, "b7b8");
    assert!(matches!(pos.outcome(), Some((GameResult::Draw, _))), "{:?}", pos.outcome());
}

/// The position string's board, side and castling fields.
fn board_and_rights(pos: &Position) -> String {
    pos.to_position_string().split_whitespace().take(3).collect::<Vec<_>>().join(" ")
}

#[test]
fn placement_castling_rights_come_with_the_king_and_rook_placed_on_their_cells() {
    // The king placed on e1 with a rook on h1 gives O-O's right; a rook placed on a1 with the
    // king on e1 gives O-O-O's; on g1, or with the king on d1, no right.
    let cases = [
        (
            "8/pppppppp/8/8/8/8/PPPPPPPP/7R[KQRBBNNkqrrbbnn] w - - 0 1",
            "K@e1",
            "8/pppppppp/8/8/8/8/PPPPPPPP/4K2R[QRBBNNkqrrbbnn] b K",
        ),
        (
            "8/pppppppp/8/8/8/8/PPPPPPPP/4K3[QRRBBNNkqrrbbnn] w - - 0 1",
            "R@a1",
            "8/pppppppp/8/8/8/8/PPPPPPPP/R3K3[QRBBNNkqrrbbnn] b Q",
        ),
        (
            "8/pppppppp/8/8/8/8/PPPPPPPP/4K3[QRRBBNNkqrrbbnn] w - - 0 1",
            "R@g1",
            "8/pppppppp/8/8/8/8/PPPPPPPP/4K1R1[QRBBNNkqrrbbnn] b -",
        ),
        (
            "8/pppppppp/8/8/8/8/PPPPPPPP/3K4[QRRBBNNkqrrbbnn] w - - 0 1",
            "R@h1",
            "8/pppppppp/8/8/8/8/PPPPPPPP/3K3R[QRBBNNkqrrbbnn] b -",
        ),
    ];
    for (fen, drop, after) in cases {
        let mut pos = at("placement.var", fen);
        common::play(&mut pos, drop);
        assert_eq!(board_and_rights(&pos), after, "{fen} {drop}");
    }
    // While a player holds pieces, it must place one; once placed, the king castles.
    let mut pos = at("placement.var", "4k3/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[qrrbbnn] b KQ - 0 1");
    assert!(common::uci(&mut pos).iter().all(|m| m.contains('@')));
    let mut pos = at("placement.var", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
    let king: Vec<String> = common::uci(&mut pos).into_iter().filter(|m| m.starts_with("e1")).collect();
    assert_eq!(king, list("e1c1 e1d1 e1f1 e1g1"));
}

#[test]
fn placement_bishops_go_on_cells_of_opposite_colours() {
    // With a bishop on c1 (dark), the other goes on a light cell only.
    let mut pos = at("placement.var", "8/pppppppp/8/8/8/8/PPPPPPPP/2B5[KQRRBNNkqrrbbnn] w - - 0 1");
    let moves = common::uci(&mut pos);
    assert_eq!(moves.len(), 32);
    assert_eq!(drops(&moves, 'B'), list("b1 d1 f1 h1"));
    // a1 and g1 (dark) and h1 (light) are left: no piece but the bishop may take h1.
    let mut pos = at("placement.var", "8/pppppppp/8/8/8/8/PPPPPPPP/1NBQRN2[KRBkqrrbbnn] w - - 0 1");
    assert_eq!(common::uci(&mut pos), list("B@h1 K@a1 K@g1 R@a1 R@g1"));
    let mut pos = at("placement.var", "8/pppppppp/8/8/8/8/PPPPPPPP/RNKQRN2[BBkqrrbbnn] w - - 0 1");
    assert_eq!(common::uci(&mut pos), list("B@g1 B@h1"));
}
