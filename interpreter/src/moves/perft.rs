//! Perft: counting the leaf nodes of the legal move tree, the standard test of a move generator.

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::position::{Move, Position};

/// Counts the leaf nodes at `depth` plies (bulk-counting the last ply).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<Move>> = (0..=depth).map(|_| Vec::with_capacity(256)).collect();
    perft_with(pos, depth, &mut buffers)
}

fn perft_with(pos: &mut Position, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (buf, rest) = buffers.split_first_mut().expect("one buffer per ply");
    if depth == 1 {
        return pos.count_legal(buf);
    }
    pos.legal_moves(buf);
    let mut nodes = 0;
    for &mv in buf.iter() {
        pos.make(mv);
        nodes += perft_with(pos, depth - 1, rest);
        pos.unmake();
    }
    nodes
}

/// Perft split by root move: each legal move with its subtree count, in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    divide_by(pos, |pos| if depth <= 1 { 1 } else { perft(pos, depth - 1) })
}

/// Each legal move with `count` of the position after it.
fn divide_by(pos: &mut Position, mut count: impl FnMut(&mut Position) -> u64) -> Vec<(Move, u64)> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            pos.make(mv);
            let n = count(pos);
            pos.unmake();
            (mv, n)
        })
        .collect()
}

/// The most actions perft follows in one turn when it counts whole turns. A turn of partial
/// moves ends after [`crate::limits::TURN_PARTS`] actions, but where a piece may wander (Gate's
/// stones, a man hopping to and fro) the turns of that many actions are too many to count, so
/// perft refuses a turn longer than this, fewer (the longest capture chain of 10x10 draughts
/// takes 20 pieces).
pub const MAX_TURN_ACTIONS: u32 = 24;

/// A turn went on past [`MAX_TURN_ACTIONS`] actions while perft counted whole turns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LongTurn {
    /// The position string where the turn had gone on that long.
    pub position: String,
}

impl std::fmt::Display for LongTurn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "a turn went on past {MAX_TURN_ACTIONS} actions (at `{}`): whole turns cannot be counted in this game",
            self.position
        )
    }
}

/// Perft counting whole turns: the positions at the start of a turn, `depth` turns on. In games
/// where a turn is one action this equals [`perft`]. A turn longer than [`MAX_TURN_ACTIONS`]
/// actions is an error.
pub fn perft_turns(pos: &mut Position, depth: u32) -> Result<u64, LongTurn> {
    turns_from(pos, depth, 0)
}

/// [`perft_turns`] with `actions` already made in the turn under way.
fn turns_from(pos: &mut Position, depth: u32, actions: u32) -> Result<u64, LongTurn> {
    if depth == 0 {
        return Ok(1);
    }
    if actions >= MAX_TURN_ACTIONS {
        return Err(LongTurn { position: pos.to_position_string() });
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    // A goal reached in the middle of a turn (a king taken by the first jump of a chain) ends
    // that turn: a leaf one turn on. A turn that merely cannot go on is a dead end, no turn.
    if moves.is_empty() && actions > 0 && pos.decided_before_moves().is_some() {
        return Ok(u64::from(depth == 1));
    }
    let mut nodes = 0;
    for mv in moves {
        pos.make(mv);
        // Back at a turn's first action: one turn done; otherwise (a later action, or a partial
        // move going on) the turn goes on.
        let n = if turn_done(pos) { turns_from(pos, depth - 1, 0) } else { turns_from(pos, depth, actions + 1) };
        pos.unmake();
        nodes += n?;
    }
    Ok(nodes)
}

/// [`divide`] counting whole turns: each legal action here with the turns below it (the
/// action's own turn counting as the first).
pub fn divide_turns(pos: &mut Position, depth: u32) -> Result<Vec<(Move, u64)>, LongTurn> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut out = Vec::with_capacity(moves.len());
    for mv in moves {
        pos.make(mv);
        let n = turns_after(pos, depth);
        pos.unmake();
        out.push((mv, n?));
    }
    Ok(out)
}

/// The whole turns below the action just made, its own turn counting as the first.
fn turns_after(pos: &mut Position, depth: u32) -> Result<u64, LongTurn> {
    if turn_done(pos) {
        turns_from(pos, depth.saturating_sub(1), 0)
    } else {
        turns_from(pos, depth, 1)
    }
}

/// Whether the move just made ended its turn.
fn turn_done(pos: &Position) -> bool {
    pos.action_index() == 0 && pos.partial_move().is_none()
}

/// [`divide`] (or [`divide_turns`], with `turns`) with the root moves shared among `threads`
/// threads: each counts its moves' subtrees on its own copy of the position. The same counts
/// in the same order as the serial functions.
pub fn divide_threads(
    pos: &mut Position,
    depth: u32,
    turns: bool,
    threads: usize,
) -> Result<Vec<(Move, u64)>, LongTurn> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    // Each thread makes and takes back the moves on its own copy of the position.
    let count = |p: &mut Position, mv: Move| {
        p.make(mv);
        let n = if turns {
            turns_after(p, depth)
        } else if depth <= 1 {
            Ok(1)
        } else {
            Ok(perft(p, depth - 1))
        };
        p.unmake();
        n.map(|n| (mv, n))
    };
    let threads = threads.clamp(1, moves.len().max(1));
    if threads == 1 {
        return moves.iter().map(|mv| count(pos, *mv)).collect();
    }
    // The threads take the root moves in turn from a shared index; each answer is put back in
    // its move's place.
    let next = AtomicUsize::new(0);
    let base: &Position = pos;
    let work = || {
        let mut p = base.clone();
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(mv) = moves.get(i) else { return done };
            done.push((i, count(&mut p, *mv)));
        }
    };
    let mut found: Vec<Option<Result<(Move, u64), LongTurn>>> = vec![None; moves.len()];
    std::thread::scope(|s| {
        // A thread that cannot be had leaves its share to the others and to this one.
        let helpers: Vec<_> =
            (1..threads).filter_map(|_| std::thread::Builder::new().spawn_scoped(s, work).ok()).collect();
        let mine = work();
        for (i, n) in helpers.into_iter().flat_map(|h| h.join().unwrap_or_default()).chain(mine) {
            found[i] = Some(n);
        }
    });
    found.into_iter().zip(&moves).map(|(n, mv)| n.unwrap_or_else(|| count(pos, *mv))).collect()
}

/// [`perft`] (or [`perft_turns`], with `turns`) with the root moves shared among `threads`
/// threads.
pub fn perft_threads(pos: &mut Position, depth: u32, turns: bool, threads: usize) -> Result<u64, LongTurn> {
    if depth == 0 {
        return Ok(1);
    }
    Ok(divide_threads(pos, depth, turns, threads)?.iter().map(|(_, n)| n).sum())
}
