//! Unusual boards (stacks in Share Squares and Safety in Numbers, the merged centre of The Central Squares, pieces between squares in Occupying Multiple Squares): perft by two routes, legality against its definition, random-game invariants. These check Varia against itself; the independent generators that check its moves and counts are in `tools/` (share-squares-oracle, safety-in-numbers-oracle, central-squares-oracle, multiple-squares-oracle).

mod common;

use std::sync::Arc;

use varia_interpreter::ir::CellId;
use varia_interpreter::{Move, MoveKind, Piece, Position, Rules};

const STACKED: [&str; 2] = ["share-squares.var", "safety-in-numbers.var"];

/// perft(depth) after each root move and each reply, counted twice: continuing in the same
/// position object (make/unmake), and from a fresh position read from its position string.
/// Any state that make/unmake keeps but the string loses (or the reverse) shows as a mismatch.
#[test]
fn perft_by_two_routes_agrees() {
    // perft 4 from the start, as recorded in tests/perft.txt (each group there names the
    // independent generator in tools/ that gives it).
    let expected = [
        ("share-squares.var", 200_124),
        ("safety-in-numbers.var", 198_240),
        ("central-squares.var", 2_762_199),
        ("multiple-squares.var", 222_790),
    ];
    for (name, expected) in expected {
        assert_eq!(common::perft_two_routes(name, 2), expected, "{name}");
    }
}

/// Legality by its definition, using Varia's own move generation (not an independent oracle:
/// it checks the engine's legality shortcuts against its pseudo-legal moves; tools/ holds the
/// independent generators): the move leaves no royal piece of the mover capturable by any
/// pseudo-legal reply (found by generating the replies), and no two kings (keep-apart pieces)
/// within one king step of each other, measured on the board's display coordinates.
fn legal_by_definition(pos: &mut Position, mv: Move) -> bool {
    let mover = pos.side_to_move();
    pos.make(mv);
    let rules = pos.rules().clone();
    let mut ok = !pos.royal_capturable_by_generation(mover);
    let apart: Vec<usize> =
        rules.variant.pieces.iter().enumerate().filter(|(_, p)| p.keep_apart.is_some()).map(|(i, _)| i).collect();
    if ok && !apart.is_empty() {
        let cells = &rules.variant.board.cells;
        let mut spots: [Vec<(i32, i32)>; 2] = [Vec::new(), Vec::new()];
        for (c, cell) in cells.iter().enumerate() {
            for q in pos.pieces_at(CellId(c as u16)) {
                if apart.contains(&(rules.type_of(*q).0 as usize)) {
                    spots[rules.owner(*q).0 as usize].push((cell.x, cell.y));
                }
            }
        }
        for a in &spots[0] {
            for b in &spots[1] {
                if (a.0 - b.0).abs() <= 1 && (a.1 - b.1).abs() <= 1 {
                    ok = false;
                }
            }
        }
    }
    pos.unmake();
    ok
}

/// How many pieces a move captures, from the position before it.
fn captured_by(pos: &Position, mv: Move) -> usize {
    if mv.take == Piece::ALL {
        let side = pos.side_to_move();
        pos.pieces_at(mv.to).iter().filter(|q| pos.rules().owner(**q) != side).count()
    } else if mv.take.is_empty() {
        0
    } else {
        1
    }
}

/// Every piece on the board, as sorted codes.
fn census(pos: &Position) -> Vec<u16> {
    let n = pos.rules().cell_count();
    let mut all: Vec<u16> = (0..n).flat_map(|c| pos.pieces_at(CellId(c as u16)).iter().map(|p| p.0)).collect();
    all.sort();
    all
}

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n as u64) as usize
    }
}

/// Random games: every cell stays within its capacity, pieces are conserved except by capture
/// (and change type only by promotion), check agrees with check found by generating the
/// opponent's moves, and the legal moves are exactly the pseudo-legal moves that are legal by
/// definition (checked on every fourth ply).
#[test]
fn random_games_keep_the_stacking_rules() {
    for name in STACKED {
        let rules: Arc<Rules> = common::rules(name);
        let mut rng = Rng(0x5EED_0000_0000_0001);
        let mut stacks_seen = 0;
        let mut captures_on_stacks = 0;
        for game in 0..1500 {
            let mut pos = Position::start(rules.clone());
            let mut legal = Vec::new();
            let mut pseudo = Vec::new();
            for ply in 0..250 {
                if pos.outcome().is_some() {
                    break;
                }
                pos.legal_moves(&mut legal);
                assert_eq!(
                    pos.in_check(),
                    pos.royal_capturable_by_generation(pos.side_to_move()),
                    "{name}: check in {}",
                    pos.to_position_string()
                );
                if ply % 4 == 0 && game % 3 == 0 {
                    pos.pseudo_legal_moves(&mut pseudo);
                    let by_definition: Vec<Move> =
                        pseudo.clone().into_iter().filter(|m| legal_by_definition(&mut pos, *m)).collect();
                    assert_eq!(legal, by_definition, "{name}: legal moves in {}", pos.to_position_string());
                }
                let mv = legal[rng.below(legal.len())];
                let before = census(&pos);
                let count_before = pos.piece_count();
                let taken = captured_by(&pos, mv);
                if pos.pieces_at(mv.to).len() > 1 && taken > 0 {
                    captures_on_stacks += 1;
                }
                let capacity = rules.occupancy(mv.to, pos.phases()).capacity;
                pos.make(mv);
                let after = census(&pos);
                let landed = pos.pieces_at(mv.to).len();
                assert!(
                    capacity.is_none_or(|c| landed <= c as usize) || mv.kind == MoveKind::Castle,
                    "{name}: {landed} pieces on {} over capacity {capacity:?} in {}",
                    rules.cell_name(mv.to),
                    pos.to_position_string()
                );
                for c in 0..rules.cell_count() {
                    let cell = CellId(c as u16);
                    let most = rules.most_pieces(cell);
                    assert!(most.is_none_or(|m| pos.pieces_at(cell).len() <= m as usize));
                    if pos.pieces_at(cell).len() > 1 {
                        stacks_seen += 1;
                    }
                }
                assert_eq!(pos.piece_count() as usize, count_before as usize - taken, "{name}");
                assert_eq!(after.len(), before.len() - taken, "{name}: census");
                if mv.promotion().is_none() {
                    // Without promotion, what is left is what was there minus the captured
                    // pieces, all of them the opponent's.
                    let mut gone = before.clone();
                    for code in &after {
                        let i = gone.iter().position(|x| x == code).expect("no piece appears from nowhere");
                        gone.remove(i);
                    }
                    assert_eq!(gone.len(), taken, "{name}: pieces vanished");
                    let mover = rules.owner(mv.piece);
                    assert!(gone.iter().all(|c| rules.owner(Piece(*c)) != mover), "{name}: captured a friend");
                }
            }
        }
        assert!(stacks_seen > 1000, "{name}: the random games should build stacks ({stacks_seen})");
        // Crowds are safe in Safety in Numbers; in Share Squares the random games capture on them.
        if name == STACKED[0] {
            assert!(captures_on_stacks > 10, "{name}: and capture on them ({captures_on_stacks})");
        }
    }
}
