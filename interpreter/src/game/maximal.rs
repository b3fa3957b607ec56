//! The rules that weigh a turn's captures: maximal captures (only the moves that begin a turn taking the most enemy pieces, then the most of the preferred types) and compulsory capture (a player who can take must take).

use std::collections::HashMap;

use crate::ir::PlayerId;
use crate::position::{Move, Position};

/// Deepest chain of partial moves followed when counting a turn's captures; a longer chain
/// counts as if it ended there (a turn of partial moves this long does not occur in real games,
/// and the bound keeps a turn that could go on forever from hanging the move generator).
pub const MAX_CHAIN: u32 = 64;

/// Most moves made while weighing the moves of one position. Each position of the turn is
/// expanded once (its best continuation is remembered by its key), so the moves made are those
/// of every position the turn can reach, whatever order they are met in; past the bound the
/// weighing gives up for every move alike and each counts only its own captures (an answer
/// that does not depend on the order of the moves). Real chains of captures stay far below it; a
/// file whose partial moves could wander for ever does not hang the move generator.
pub const MAX_WEIGHED_MOVES: u32 = 1 << 16;

/// The walk over the rest of a turn: the best continuation of each position met, by its key,
/// and the moves it may still make.
struct Weighing {
    best_after: HashMap<u64, (u32, u32)>,
    budget: u32,
    exhausted: bool,
}

impl Position {
    /// Keeps, of `moves` (the legal moves at this point of the turn), those after which the
    /// rest of the turn can take the most pieces of the other players; of those, where the
    /// variant prefers types (`maximal_captures_prefer`), the ones taking the most of them.
    /// A turn is weighed by its best continuation: the most pieces, then the most preferred.
    pub(crate) fn keep_maximal_captures(&mut self, moves: &mut Vec<Move>) {
        if moves.len() < 2 {
            return;
        }
        let side = self.st.side;
        let mut walk = Weighing {
            best_after: HashMap::new(),
            budget: MAX_WEIGHED_MOVES.saturating_sub(moves.len() as u32),
            exhausted: false,
        };
        let mut taken: Vec<(u32, u32)> =
            moves.iter().map(|&mv| self.captures_from(mv, side, MAX_CHAIN, &mut walk)).collect();
        if walk.exhausted {
            // Too many positions to weigh them all: every move counts its own captures alone.
            let mut own = Weighing { best_after: HashMap::new(), budget: 0, exhausted: false };
            taken = moves.iter().map(|&mv| self.captures_from(mv, side, 1, &mut own)).collect();
        }
        let best = taken.iter().copied().max().unwrap_or_default();
        let mut i = 0;
        moves.retain(|_| {
            i += 1;
            taken[i - 1] == best
        });
    }

    /// Keeps, of `moves` (the legal moves at this point of the turn), those that take a piece
    /// of another player when one does (`must-capture`); a pass or a resignation stays only
    /// where nothing can be taken.
    pub(crate) fn keep_captures(&mut self, moves: &mut Vec<Move>) {
        let side = self.st.side;
        let takes: Vec<bool> = moves
            .iter()
            .map(|&mv| {
                let before = self.enemy_pieces(side).0;
                self.make(mv);
                let after = self.enemy_pieces(side).0;
                self.unmake();
                after < before
            })
            .collect();
        if takes.iter().any(|t| *t) {
            let mut i = 0;
            moves.retain(|_| {
                i += 1;
                takes[i - 1]
            });
        }
    }

    /// The most enemy pieces a turn of `side` takes when it goes on with `mv`, with how many
    /// of them are of the preferred types (the best continuation by both, in that order).
    fn captures_from(&mut self, mv: Move, side: PlayerId, depth: u32, walk: &mut Weighing) -> (u32, u32) {
        let before = self.enemy_pieces(side);
        self.make(mv);
        let after = self.enemy_pieces(side);
        let mut n = (before.0.saturating_sub(after.0), before.1.saturating_sub(after.1));
        if depth > 1 && !walk.exhausted && self.st.side == side && self.st.partial.is_some() {
            let key = self.hash();
            let more = match walk.best_after.get(&key) {
                Some(&more) => more,
                None => {
                    let mut next = Vec::new();
                    self.generate_unfiltered(&mut next);
                    let mut more = (0, 0);
                    match walk.budget.checked_sub(next.len() as u32) {
                        Some(left) => {
                            walk.budget = left;
                            for m in next {
                                more = more.max(self.captures_from(m, side, depth - 1, walk));
                            }
                            walk.best_after.insert(key, more);
                        }
                        None => walk.exhausted = true,
                    }
                    more
                }
            };
            n = (n.0 + more.0, n.1 + more.1);
        }
        self.unmake();
        n
    }

    /// How many pieces the players other than `side` have on the board, and how many of them
    /// are of the preferred types.
    fn enemy_pieces(&self, side: PlayerId) -> (u32, u32) {
        let r = &*self.rules;
        let prefer = &r.variant.play.maximal_captures_prefer;
        let (mut n, mut preferred) = (0, 0);
        for (p, cells) in self.st.occupied.iter().enumerate() {
            if p == usize::from(side.0) {
                continue;
            }
            n += cells.len() as u32;
            if prefer.is_empty() {
                continue;
            }
            for c in cells.iter() {
                let owned = self.pieces_at(c).iter().filter(|q| usize::from(r.owner(**q).0) == p);
                preferred += owned.filter(|q| prefer.contains(&r.type_of(**q))).count() as u32;
            }
        }
        (n, preferred)
    }
}
