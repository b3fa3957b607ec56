//! A second generic opponent: Monte Carlo tree search (UCT) whose short random playouts are cut off and scored by the evaluation.

use std::time::Instant;

use crate::end::GameResult;
use crate::ir::PlayerId;
use crate::position::{Move, Position};
use crate::search::{Evaluator, Limits, SearchInfo};

/// Playouts stop after this many plies; the evaluation then says how likely a win is.
const PLAYOUT_PLIES: usize = 6;

/// The evaluation's centipawns per unit of the logistic that turns them into a win chance.
const SCALE: f64 = 250.0;

struct Node {
    /// The move into this node (none at the root).
    mv: Option<Move>,
    /// The player who made `mv`: rewards are counted for them.
    mover: PlayerId,
    children: Vec<usize>,
    untried: Vec<Move>,
    visits: u32,
    reward: f64,
}

/// UCT search: selection by the UCB1 formula, one new node per iteration, a random playout,
/// and the result backed up for the player who moved into each node.
pub struct Mcts {
    eval: Evaluator,
    rng: u64,
    /// The exploration constant of UCB1.
    pub exploration: f64,
}

impl Mcts {
    /// A player for a variant, with a seed for its random playouts.
    pub fn new(rules: &std::sync::Arc<crate::rules::Rules>, seed: u64) -> Mcts {
        Mcts::with_evaluator(seed, Evaluator::new(rules))
    }

    /// A player with a given evaluation (for instance with tuned weights).
    pub fn with_evaluator(seed: u64, eval: Evaluator) -> Mcts {
        Mcts { eval, rng: seed | 1, exploration: 0.7 }
    }

    fn below(&mut self, n: usize) -> usize {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        (self.rng % n as u64) as usize
    }

    /// Runs iterations until the limits (`nodes` counts iterations; `depth` N means N x 1000
    /// iterations; without limits 2000 iterations) and returns the most visited move, with a
    /// score of `(2 p - 1) x 1000` for its win rate `p`.
    pub fn search(&mut self, pos: &mut Position, limits: Limits) -> SearchInfo {
        let start = Instant::now();
        let budget = limits.nodes.or(limits.depth.map(|d| d as u64 * 1000)).unwrap_or(2000);
        let budget =
            if limits.time.is_some() && limits.nodes.is_none() && limits.depth.is_none() { u64::MAX } else { budget };
        let mut untried = Vec::new();
        pos.legal_moves(&mut untried);
        let root_mover = pos.side_to_move();
        let mut nodes =
            vec![Node { mv: None, mover: root_mover, children: Vec::new(), untried, visits: 0, reward: 0.0 }];
        let mut iterations = 0u64;
        let mut moves = Vec::new();
        loop {
            let open = !nodes[0].untried.is_empty() || !nodes[0].children.is_empty();
            if !open || iterations >= budget || limits.time.is_some_and(|t| start.elapsed() >= t) {
                break;
            }
            iterations += 1;
            // Selection.
            let mut path = vec![0usize];
            let mut made = 0;
            let mut at = 0;
            while nodes[at].untried.is_empty() && !nodes[at].children.is_empty() {
                let ln = (nodes[at].visits.max(1) as f64).ln();
                let c = self.exploration;
                let next = *nodes[at]
                    .children
                    .iter()
                    .max_by(|&&a, &&b| {
                        let ucb = |i: usize| {
                            let n = &nodes[i];
                            n.reward / n.visits.max(1) as f64 + c * (ln / n.visits.max(1) as f64).sqrt()
                        };
                        ucb(a).total_cmp(&ucb(b))
                    })
                    .expect("children");
                pos.make(nodes[next].mv.expect("a child has a move"));
                made += 1;
                path.push(next);
                at = next;
            }
            // Expansion.
            if !nodes[at].untried.is_empty() {
                let k = self.below(nodes[at].untried.len());
                let mv = nodes[at].untried.swap_remove(k);
                let mover = pos.side_to_move();
                pos.make(mv);
                made += 1;
                let mut untried = Vec::new();
                if pos.outcome().is_none() {
                    pos.legal_moves(&mut untried);
                }
                nodes.push(Node { mv: Some(mv), mover, children: Vec::new(), untried, visits: 0, reward: 0.0 });
                let id = nodes.len() - 1;
                nodes[at].children.push(id);
                path.push(id);
            }
            // Playout: a few random moves, then the evaluation's win chance for the side to move.
            let mut plies = 0;
            let outcome = loop {
                if let Some((result, _)) = pos.outcome() {
                    break match result {
                        GameResult::Win(p) => (p, 1.0),
                        GameResult::Draw => (pos.side_to_move(), 0.5),
                    };
                }
                if plies >= PLAYOUT_PLIES {
                    let score = self.eval.evaluate(pos) as f64;
                    break (pos.side_to_move(), 1.0 / (1.0 + (-score / SCALE).exp()));
                }
                pos.legal_moves(&mut moves);
                let mv = moves[self.below(moves.len())];
                pos.make(mv);
                plies += 1;
            };
            for _ in 0..plies + made {
                pos.unmake();
            }
            // Backpropagation.
            for &i in &path {
                let n = &mut nodes[i];
                n.visits += 1;
                // `outcome` is a win chance for one player: the others get the rest.
                n.reward += if outcome.0 == n.mover { outcome.1 } else { 1.0 - outcome.1 };
            }
        }
        let best = nodes[0].children.iter().copied().max_by_key(|&i| nodes[i].visits);
        let (pv, score) = match best {
            Some(i) => {
                let n = &nodes[i];
                let p = n.reward / n.visits.max(1) as f64;
                (vec![n.mv.expect("a move")], ((2.0 * p - 1.0) * 1000.0) as i32)
            }
            None => (nodes[0].untried.first().copied().into_iter().collect(), 0),
        };
        SearchInfo { depth: 0, score, pv, nodes: iterations, elapsed: start.elapsed(), partial: false }
    }
}
