//! Quiescence: at the leaves of the search, captures and promotions are played out until the position is quiet, so that the evaluation is not taken in the middle of an exchange.

use super::{PlyLists, Searcher, INFINITY, MAX_PLY};
use crate::legal::is_noisy;
use crate::order::{is_capture, victim_value};
use crate::position::{Move, Position};

impl Searcher {
    /// Quiescence: captures, and promotions into a type that cannot turn back, that do not lose
    /// material by static exchange (all moves when in check), standing pat on the evaluation
    /// otherwise, for at most `quiescence_plies` plies. In the middle of a turn of several
    /// actions it stands pat.
    pub(super) fn quiesce(&mut self, pos: &mut Position, ply: usize, alpha: i32, beta: i32, qdepth: u32) -> i32 {
        let mut lists = std::mem::take(&mut self.quiet_lists[ply]);
        let s = self.quiesce_with(pos, ply, alpha, beta, qdepth, &mut lists);
        self.quiet_lists[ply] = lists;
        s
    }

    /// [`Searcher::quiesce`] with the ply's move lists.
    fn quiesce_with(
        &mut self,
        pos: &mut Position,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        qdepth: u32,
        lists: &mut PlyLists,
    ) -> i32 {
        self.nodes += 1;
        if self.out_of_time() {
            return 0;
        }
        if self.paranoid && pos.side_out(self.root_side) {
            return self.static_eval(pos);
        }
        let turn_start = pos.action_index() == 0;
        let in_check = turn_start && qdepth < 4 && pos.in_check_learnt();
        let PlyLists { moves, picker, .. } = lists;
        moves.clear();
        if in_check {
            // Every evasion is searched; none is mate.
            pos.legal_moves(moves);
            if let Some(s) = self.game_end(pos, !moves.is_empty(), ply) {
                return s;
            }
        } else if self.stalemate_decides && turn_start {
            // Where having no move decides the game, look for moves first.
            pos.legal_moves(moves);
            if let Some(s) = self.game_end(pos, !moves.is_empty(), ply) {
                return s;
            }
        } else if let Some(s) = self.game_end(pos, true, ply) {
            // Ends that need no move list (goals, bare royals, the draw rules); a stalemate
            // that only draws is left to the full-width search.
            return s;
        }
        let stand = self.static_eval(pos);
        // With no opponent (a puzzle, one team), no exchange is left unresolved: every
        // capture is a move of the game, searched to the depth asked. Where every move
        // captures, `quiescence_plies` is 0: the leaf stands as it is.
        if !turn_start || ply >= MAX_PLY || qdepth >= self.quiescence_plies || self.unopposed() {
            return stand;
        }
        if !in_check {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            if moves.is_empty() {
                pos.legal_captures(moves);
            } else {
                moves.retain(is_noisy);
            }
            // A wall changes nothing of what a capture takes: quiescence tries each capture
            // with the first of its walls only (they come together), the full-width search
            // with every one.
            moves.dedup_by(|a, b| a.wall != 0 && Move { wall: 0, ..*a } == Move { wall: 0, ..*b });
        }
        self.order.scores(&self.eval, pos, moves, None, MAX_PLY, picker);
        let mover = pos.side_to_move();
        let mut best = if in_check { -INFINITY } else { stand };
        for i in 0..moves.len() {
            picker.pick(pos, &self.eval, moves, i);
            let mv = moves[i];
            if !in_check {
                // Captures that lose material, and those that cannot reach alpha even with
                // the victim and a margin, are not worth a look.
                if picker.scores[i] < 0 && is_capture(&mv) {
                    continue;
                }
                let gain = victim_value(pos, pos.rules(), &self.eval, &mv);
                if mv.promote == 0 && stand + gain + 200 < alpha {
                    continue;
                }
                // A quiet move that turns its piece over, into a type that can turn back
                // (where every move turns pieces over, both ways), settles nothing: followed,
                // such moves would make the whole tree noisy.
                if !is_capture(&mv) && self.turns_back(pos, &mv) {
                    continue;
                }
            }
            pos.make(mv);
            let s = if self.same_team(pos.side_to_move(), mover) {
                self.quiesce(pos, ply + 1, alpha, beta, qdepth + 1)
            } else {
                -self.quiesce(pos, ply + 1, -beta, -alpha, qdepth + 1)
            };
            pos.unmake();
            if self.stopped {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if best == -INFINITY {
            return stand;
        }
        best
    }
}

impl Searcher {
    /// Whether the move turns its piece into a type whose moves may turn it back.
    fn turns_back(&self, pos: &Position, mv: &Move) -> bool {
        let Some(to) = mv.promotion() else { return false };
        let from = pos.rules().type_of(mv.piece);
        self.reversible.get(from.0 as usize * self.reversible_types + to.0 as usize).copied().unwrap_or(false)
    }
}
