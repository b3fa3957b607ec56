//! The rule of maximal captures: of a turn's moves, only those that begin a turn taking the most enemy pieces are legal.

use crate::ir::PlayerId;
use crate::position::{Move, Position};

/// Deepest chain of partial moves followed when counting a turn's captures; a longer chain
/// counts as if it ended there (a turn of partial moves this long does not occur in real games,
/// and the bound keeps a turn that could go on forever from hanging the move generator).
pub const MAX_CHAIN: u32 = 64;

impl Position {
    /// Keeps, of `moves` (the legal moves at this point of the turn), those after which the
    /// rest of the turn can take the most pieces of the other players.
    pub(crate) fn keep_maximal_captures(&mut self, moves: &mut Vec<Move>) {
        if moves.len() < 2 {
            return;
        }
        let side = self.st.side;
        let mut best = 0;
        let mut taken = Vec::with_capacity(moves.len());
        for &mv in moves.iter() {
            let n = self.captures_from(mv, side, MAX_CHAIN);
            best = best.max(n);
            taken.push(n);
        }
        let mut i = 0;
        moves.retain(|_| {
            i += 1;
            taken[i - 1] == best
        });
    }

    /// The most enemy pieces a turn of `side` takes when it goes on with `mv`.
    fn captures_from(&mut self, mv: Move, side: PlayerId, depth: u32) -> u32 {
        let before = self.enemy_pieces(side);
        self.make(mv);
        let mut n = before.saturating_sub(self.enemy_pieces(side));
        if depth > 1 && self.st.side == side && self.st.partial.is_some() {
            let mut next = Vec::new();
            self.generate_unfiltered(&mut next);
            let more = next.iter().map(|&m| self.captures_from(m, side, depth - 1)).max().unwrap_or(0);
            n += more;
        }
        self.unmake();
        n
    }

    /// How many pieces the players other than `side` have on the board.
    fn enemy_pieces(&self, side: PlayerId) -> u32 {
        let mut n = 0;
        for (p, cells) in self.st.occupied.iter().enumerate() {
            if p != usize::from(side.0) {
                n += cells.len() as u32;
            }
        }
        n
    }
}
