//! The `shuttled N` goal test: a player's last moves took one piece back and forth between two cells (Fairy-Stockfish's `moveRepetitionIllegal`, janggi's rule against repeating a move).

use super::goals::is_pass;
use crate::ir::{PieceTypeId, PlayerId};
use crate::position::{Logged, Move, MoveKind, Position, State};

/// A move of one piece by its own powers from one cell to another: no drop, castling,
/// promotion, gate or wall (Fairy-Stockfish's plain moves, the only ones it can reverse).
fn plain(mv: &Move) -> bool {
    matches!(mv.kind, MoveKind::Normal | MoveKind::Passage | MoveKind::Program)
        && mv.promote == 0
        && mv.gate == 0
        && mv.wall == 0
        && mv.from != mv.to
}

impl State {
    /// Whether the move at `i` of the history captured.
    fn captured_at_move(&self, i: usize) -> bool {
        let u = &self.history[i];
        if !u.general {
            return !u.captured.is_empty();
        }
        let end = self.history.get(i + 1).map_or(self.log.len(), |next| next.log as usize);
        self.log[u.log as usize..end].iter().any(|e| matches!(e, Logged::Took(_, _, _, true)))
    }
}

impl Position {
    /// Whether `player`'s last `n` moves, the last of them the last move made, took one piece
    /// (of one of `types`, or any) from a cell A to B, back to A, and so on, after a move of the
    /// player's that brought it to A without capturing; nobody captured (nor made another move
    /// that resets the move clock) since that move, and the player was in check before none of
    /// these `n + 1` moves. A pass of the player's between its last two moves is skipped, as
    /// Fairy-Stockfish skips it.
    pub(crate) fn shuttled(&self, player: PlayerId, n: u32, types: &[PieceTypeId]) -> bool {
        let r = &*self.rules;
        let h = &self.st.history;
        let Some(last) = h.last() else { return false };
        if last.side != player || !plain(&last.mv) {
            return false;
        }
        if !types.is_empty() && !types.contains(&r.type_of(last.moved)) {
            return false;
        }
        // The player's moves, newest first, as indices into the history.
        let mut mine = (0..h.len()).rev().filter(|&i| h[i].side == player);
        let mut chain: Vec<usize> = Vec::with_capacity(n as usize + 2);
        let mut all: Vec<usize> = Vec::with_capacity(n as usize + 2);
        while chain.len() <= n as usize {
            let Some(i) = mine.next() else { return false };
            all.push(i);
            if chain.len() == 1 && all.len() == 2 && is_pass(&h[i]) {
                continue;
            }
            chain.push(i);
        }
        // Each of the last n moves takes back the one before it.
        for k in 1..n as usize {
            let (later, earlier) = (&h[chain[k - 1]].mv, &h[chain[k]].mv);
            if !plain(earlier) || earlier.from != later.to || earlier.to != later.from {
                return false;
            }
        }
        // The move before them brought the piece to the first cell, capturing nothing.
        let arrival = chain[n as usize];
        if h[arrival].mv.to != h[chain[n as usize - 1]].mv.from || self.st.captured_at_move(arrival) {
            return false;
        }
        // No capture since (the move clock ran on over every move after it).
        if (self.st.clocks.halfmove as usize) < h.len() - 1 - arrival {
            return false;
        }
        // Judged last, on a copy taken back move by move: the player was in check before none.
        let mut st = self.st.clone();
        for i in (all[all.len() - 1]..h.len()).rev() {
            st.unmake(r);
            if all.contains(&i) && st.royal_attacked(r, player) {
                return false;
            }
        }
        true
    }
}
