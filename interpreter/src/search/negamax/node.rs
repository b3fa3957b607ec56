//! One node of the principal variation search: the cuts that need no move, then the moves in order, each refinement a small function guarded by one line.

use super::{
    gives_check, turn_ended, PlyLists, Searcher, INFINITY, LATE_MOVE_COUNT, LATE_MOVE_DEPTH, MATE, MATE_BOUND,
    MID_TURN_MOVE_COUNT,
};
use crate::end::GameResult;
use crate::moves::checks::CheckTrial;
use crate::order::{is_quiet, MAX_PLY};
use crate::position::{Move, Position};
use crate::table::{Bound, Entry};

/// What a node knows before its moves: the facts the refinements' guards read.
#[derive(Clone, Copy)]
struct Node {
    depth: u32,
    ply: usize,
    beta: i32,
    /// The window is wider than one: the node is on the principal variation.
    pv_node: bool,
    /// The node's action is the first of its turn.
    turn_start: bool,
    in_check: bool,
    /// Off the principal variation, not in check, at a turn's start: where the cuts that need
    /// no move (reverse futility, null move) and futility apply.
    quiet_node: bool,
    /// The static evaluation (`-INFINITY` in check, where it means nothing), made nearer the
    /// truth by the table's bound where it has one.
    stand: i32,
    /// The mover's evaluation is above that of its last turn (or that is unknown): the
    /// prunings that assume it falls are milder.
    improving: bool,
}

/// A move of the node, made, with what the refinements ask of it.
struct Tried {
    /// Its place in the node's order.
    index: usize,
    mv: Move,
    quiet: bool,
    /// The player after it is on the mover's side (the window is not turned over).
    same_side: bool,
    /// It leaves its turn to go on: the depth counts whole turns, so it spends none.
    within_turn: bool,
    /// It ended the turn and gave check (a check of the turn's earlier actions is not its own).
    gives_check: bool,
}

impl Searcher {
    /// Principal variation search from the side to move's point of view.
    pub(super) fn negamax(
        &mut self,
        pos: &mut Position,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
        null_ok: bool,
    ) -> i32 {
        let mut lists = std::mem::take(&mut self.lists[ply]);
        let s = self.negamax_with(pos, depth, ply, alpha, beta, null_ok, &mut lists);
        self.lists[ply] = lists;
        s
    }

    /// [`Searcher::negamax`] with the ply's move lists.
    #[allow(clippy::too_many_arguments)]
    fn negamax_with(
        &mut self,
        pos: &mut Position,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
        null_ok: bool,
        lists: &mut PlyLists,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv[ply].clear();
        let turn_start = pos.action_index() == 0;
        if let Some(s) = self.settled(pos, turn_start, ply) {
            return s;
        }
        if depth == 0 || ply >= MAX_PLY {
            return self.quiesce(pos, ply, alpha, beta, 0);
        }
        self.nodes += 1;
        if self.out_of_time() {
            return 0;
        }
        let key = pos.hash();
        let entry = self.table.probe(key);
        if let Some(s) = entry.and_then(|e| table_cut(&e, pv_node, depth, ply, alpha, beta)) {
            return s;
        }
        let depth = self.internally_reduced(depth, entry.as_ref());
        // Where the cuts that need no move (reverse futility, null move) may apply, the move
        // list waits for them: they return before it at most such nodes (more than half of
        // a chess search's), which made it for nothing. Ends decided without the list (bare
        // royals, goals, the draw rules) are judged first; having no move is found when the
        // list is made, so a stalemate below beta's margin is judged by its evaluation, as in
        // chess engines.
        let decided = pos.decided_before_moves().is_some() || pos.drawn_by_rule().is_some();
        let in_check = !decided && turn_start && pos.in_check_learnt();
        let quiet_node = !pv_node && !in_check && turn_start;
        let listed = decided || !quiet_node;
        if listed {
            pos.legal_moves(&mut lists.moves);
            if let Some(s) = self.game_end(pos, !lists.moves.is_empty(), ply) {
                return s;
            }
        }
        let stand = if in_check { -INFINITY } else { self.static_eval(pos) };
        let improving = self.improving(pos, ply, stand, in_check || !turn_start);
        let stand = entry.map_or(stand, |e| bounded_stand(&e, stand, ply));
        let node = Node { depth, ply, beta, pv_node, turn_start, in_check, quiet_node, stand, improving };
        if let Some(s) = self.reverse_futility(&node) {
            return s;
        }
        if let Some(s) = self.null_move(pos, &node, null_ok) {
            return s;
        }
        if !listed {
            // Not decided before its moves nor drawn by rule (asked above): the list as it is.
            pos.generate_legal(&mut lists.moves);
            if lists.moves.is_empty() {
                if let Some(s) = self.game_end(pos, false, ply) {
                    return s;
                }
            }
        }
        let PlyLists { moves, picker, .. } = lists;
        self.order.scores(&self.eval, pos, moves, entry.and_then(|e| e.best), ply, picker);
        let (best_score, best_move) = self.search_moves(pos, &node, alpha, lists);
        if self.stopped {
            return 0;
        }
        let Some(best_move) = best_move else {
            // Every move was pruned: the position is as bad as its evaluation says.
            return alpha;
        };
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table.store(key, depth, bound, to_table(best_score, ply), Some(best_move));
        best_score
    }

    /// A node settled before it is searched: a repetition inside the search ends as the
    /// game's repetition rule ends it (it can be forced again): a draw, or where the rule says
    /// otherwise (a perpetual check loses, a player loses every repetition) that result; with
    /// the root player out of the game the others all play on one side, nothing would count
    /// the depth down, and the game is lost for the root player anyway.
    fn settled(&mut self, pos: &Position, turn_start: bool, ply: usize) -> Option<i32> {
        if turn_start && pos.repetitions() > 0 {
            return Some(self.repetition_score(pos, ply));
        }
        (self.paranoid && pos.side_out(self.root_side)).then(|| self.static_eval(pos))
    }

    /// The score of a repetition for the side to move: a draw, unless the game's repetition
    /// rule gives a winner (it takes moves back only where a perpetual check decides).
    fn repetition_score(&self, pos: &Position, ply: usize) -> i32 {
        match pos.repetition_outcome().0 {
            GameResult::Draw => self.draw_score(pos),
            GameResult::Win(p) if self.same_team(p, pos.side_to_move()) => MATE - ply as i32,
            GameResult::Win(_) => -(MATE - ply as i32),
        }
    }

    /// Internal reduction: a node of depth 4 or more at a turn's start that the table gives no
    /// move for is searched a turn shallower.
    fn internally_reduced(&self, depth: u32, entry: Option<&Entry>) -> u32 {
        let moveless = entry.is_none_or(|e| e.best.is_none());
        depth - (self.features.internal_reduction && depth >= 4 && moveless) as u32
    }

    /// Whether the mover's evaluation is above its evaluation a turn ago (two plies up, where
    /// the same player moved at a turn's start out of check); unknown counts as improving.
    /// Records this node's evaluation for the plies below.
    fn improving(&mut self, pos: &Position, ply: usize, stand: i32, unknown: bool) -> bool {
        let me = pos.side_to_move();
        self.stands[ply] = (!unknown).then_some((me, stand));
        let before = ply.checked_sub(2).and_then(|p| self.stands[p]);
        unknown || before.is_none_or(|(side, s)| side != me || stand > s)
    }

    /// Reverse futility: far above beta near the leaves, the opponent's reply will not bring the
    /// score back (unsafe in check and mid-turn, where the evaluation misleads). The margin
    /// is smaller while the mover's evaluation improves.
    fn reverse_futility(&self, n: &Node) -> Option<i32> {
        let margin = 90 * n.depth as i32 - if n.improving { 40 } else { 0 };
        let far_above = n.stand - margin >= n.beta;
        (self.features.futility && n.quiet_node && n.depth <= 6 && n.stand.abs() < MATE_BOUND && far_above)
            .then_some(n.stand)
    }

    /// Null move: the side to move passes; if the opponent, moving twice, still fails high, the
    /// node is cut. Unsafe in check, mid-turn, near mate scores, and where zugzwang is likely.
    fn null_move(&mut self, pos: &mut Position, n: &Node, null_ok: bool) -> Option<i32> {
        let (depth, beta) = (n.depth, n.beta);
        let wanted = self.features.null_move && n.quiet_node && null_ok && depth >= 2 && n.stand >= beta;
        if !(wanted && beta.abs() < MATE_BOUND && self.can_pass(pos)) {
            return None;
        }
        let passer = pos.side_to_move();
        let undo = pos.make_null()?;
        // A pass to a partner (or, alone, to oneself) is no pass to the opponent: the window
        // turned over would be wrong, so such a pass is not tried.
        let s = if self.same_team(pos.side_to_move(), passer) {
            -INFINITY
        } else {
            let r = 2 + depth / 4 + ((n.stand - beta) / 200).clamp(0, 2) as u32;
            -self.negamax(pos, depth.saturating_sub(1 + r), n.ply + 1, -beta, -beta + 1, false)
        };
        pos.unmake_null(undo);
        if self.stopped {
            return Some(0);
        }
        (s >= beta).then_some(if s >= MATE_BOUND { beta } else { s })
    }

    /// The node's moves in order, each searched by principal variation search, the late quiet
    /// ones pruned or reduced. Returns the best score and move (no move when every move was
    /// pruned); after a stop, what it had.
    fn search_moves(
        &mut self,
        pos: &mut Position,
        n: &Node,
        mut alpha: i32,
        lists: &mut PlyLists,
    ) -> (i32, Option<Move>) {
        let PlyLists { moves, picker, quiets } = lists;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        quiets.clear();
        let mover = pos.side_to_move();
        // Mid-turn, whether the player after the turn is already in check from its earlier
        // actions (asked once, when a last action first leaves a check).
        let mut checked_before: Option<bool> = None;
        // Futility (below) may apply here: a quiet move is then first tried for check in the
        // cell array, where that is sound, and passed over unmade if it gives none.
        let futile_node = n.quiet_node && n.depth <= 5;
        let mut trial = None;
        for i in 0..moves.len() {
            picker.pick(pos, &self.eval, moves, i);
            let mv = moves[i];
            let quiet = is_quiet(&mv);
            // Futility: a quiet move cannot lift a position far below alpha near the leaves.
            let futile = futile_node
                && quiet
                && i > 0
                && best_score > -MATE_BOUND
                && (self.futile(n, alpha) || self.count_pruned(n, i));
            if futile && gives_no_check_unmade(pos, &mut trial, mv) {
                continue;
            }
            let bad_capture = self.bad_capture_pruned(n, i, picker.scores[i], &mv, best_score);
            pos.make(mv);
            if n.depth >= 2 {
                self.table.prefetch(pos.hash());
            }
            let same_side = self.same_team(pos.side_to_move(), mover);
            let within_turn = same_side && !turn_ended(pos);
            let gives_check = !same_side && gives_check(pos, mv, n.turn_start, &mut checked_before);
            let t = Tried { index: i, mv, quiet, same_side, within_turn, gives_check };
            if ((futile || bad_capture) && !within_turn && !gives_check) || self.late_move_pruned(n, &t, best_score) {
                pos.unmake();
                continue;
            }
            let s = self.search_move(pos, n, &t, alpha);
            pos.unmake();
            if self.stopped {
                return (best_score, best_move);
            }
            if s > best_score {
                best_score = s;
                best_move = Some(mv);
                if s > alpha {
                    alpha = s;
                    self.extend_pv(n.ply, mv);
                    if alpha >= n.beta {
                        if quiet {
                            self.order.refuted(mv, n.ply, n.depth, quiets);
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets.push(mv);
            }
        }
        (best_score, best_move)
    }

    /// Futility: near the leaves a quiet move cannot lift a position far below alpha.
    fn futile(&self, n: &Node, alpha: i32) -> bool {
        self.features.futility && n.depth <= 2 && n.stand + 120 * n.depth as i32 <= alpha
    }

    /// Move-count pruning at a turn's start (the node is a quiet one near the leaves): beyond
    /// `(3 + depth²)` moves in order, half that once the evaluation stops improving, a quiet
    /// move rarely changes the result.
    fn count_pruned(&self, n: &Node, index: usize) -> bool {
        let count = (3 + n.depth * n.depth) as usize / if n.improving { 1 } else { 2 };
        self.features.move_count_pruning && n.depth <= 5 && index >= count
    }

    /// Bad-capture pruning: off the principal variation near the leaves, a capture that loses
    /// material by static exchange (the picker sank it among the bad captures) is skipped.
    fn bad_capture_pruned(&self, n: &Node, index: usize, order_score: i32, mv: &Move, best_score: i32) -> bool {
        self.features.bad_capture_pruning
            && n.quiet_node
            && n.depth <= 3
            && index > 0
            && best_score > -MATE_BOUND
            && order_score < 0
            && crate::order::is_capture(mv)
    }

    /// Late-move pruning: at the last turn, the actions that end it (a placement after a piece
    /// and a square moved) are many and mostly alike; beyond the first few in order a quiet one
    /// rarely changes the result, and trying every one cost most of the search in such games
    /// (three times the nodes at depth 3, same best moves). The actions between (the square
    /// move) multiply the placements after them: beyond a few more in order they are skipped
    /// too (four times fewer nodes again). A turn before the last, the counts grow with the
    /// depth's square, as in chess engines' move-count pruning: 2.4-3.5 times fewer nodes at
    /// depth 3, same first moves. Unsafe on the principal variation, at a turn's start, for
    /// checks, and once every move seen loses.
    fn late_move_pruned(&self, n: &Node, t: &Tried, best_score: i32) -> bool {
        let late_at = (n.depth * n.depth) as usize;
        let late = if t.within_turn {
            self.features.mid_turn_pruning && t.index >= MID_TURN_MOVE_COUNT * late_at
        } else {
            self.features.late_move_pruning && t.index >= LATE_MOVE_COUNT * late_at
        };
        late && !n.pv_node
            && !n.turn_start
            && n.depth <= LATE_MOVE_DEPTH
            && t.quiet
            && !t.gives_check
            && best_score > -MATE_BOUND
    }

    /// A made move's score by principal variation search: the first move with the full window,
    /// the others with a null window (late quiet ones shallower first), again in full when
    /// they beat alpha on the principal variation.
    fn search_move(&mut self, pos: &mut Position, n: &Node, t: &Tried, alpha: i32) -> i32 {
        // Back where it was earlier in this turn (a man hopping to and fro): every turn
        // from here was open from there, so this line stops at the evaluation.
        let next = match t.within_turn {
            true if pos.repeats_in_turn() => 0,
            true => n.depth,
            false => n.depth - 1 + self.extended(n, t) as u32,
        };
        let (ply, beta) = (n.ply + 1, n.beta);
        if t.index == 0 {
            return self.child(pos, t.same_side, next, ply, alpha, beta);
        }
        let r = self.reduction(n, t, next);
        let mut s = self.child(pos, t.same_side, next - r, ply, alpha, alpha + 1);
        if r > 0 && s > alpha && !self.stopped {
            s = self.child(pos, t.same_side, next, ply, alpha, alpha + 1);
        }
        if n.pv_node && s > alpha && s < beta && !self.stopped {
            s = self.child(pos, t.same_side, next, ply, alpha, beta);
        }
        s
    }

    /// Check extension: a move that gives check is searched one turn deeper. A check by a later
    /// action of a turn of several actions (a placement that opens a line) is extended on the
    /// principal variation only: its answer is a whole turn, and extending each such placement
    /// everywhere took seven times the nodes at depth 3 in Moving Occupied Squares. Quiescence
    /// still tries every evasion elsewhere.
    fn extended(&self, n: &Node, t: &Tried) -> bool {
        t.gives_check
            && self.features.check_extensions
            && n.ply < MAX_PLY / 2
            && (n.turn_start || n.pv_node || !self.features.late_checks_on_pv_only)
    }

    /// Late-move reduction: late quiet moves are searched shallower first (never in check, nor
    /// a check, nor a killer). In the middle of a turn the depth left is that of the turns
    /// after it: those are reduced.
    fn reduction(&self, n: &Node, t: &Tried, next: u32) -> u32 {
        let reducible = if t.within_turn {
            self.features.turn_reductions
        } else {
            self.features.late_move_reductions && n.depth >= 3
        };
        let late_quiet =
            reducible && t.quiet && !n.in_check && !t.gives_check && t.index >= if n.pv_node { 4 } else { 2 };
        if !late_quiet || self.order.is_killer(&t.mv, n.ply) {
            return 0;
        }
        let mut r = self.lmr[n.depth.min(63) as usize][t.index.min(63)] as u32;
        if t.within_turn {
            // At least a turn less, even at the last turn (which the formula would not
            // reduce): there a late action is judged by the position it leaves.
            r = r.max(1);
        }
        if n.pv_node {
            r = r.saturating_sub(1);
        } else if !n.improving {
            r += 1;
        }
        if self.order.history(&t.mv) > 4000 {
            r = r.saturating_sub(1);
        }
        r.min(if t.within_turn { next } else { next.saturating_sub(1) })
    }

    /// The principal variation from `ply`: `mv`, then the one found below it.
    fn extend_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        head[ply].extend_from_slice(&tail[0]);
    }
}

/// A table entry deep enough to settle a node off the principal variation: its score, when its
/// bound says it is the node's.
fn table_cut(e: &Entry, pv_node: bool, depth: u32, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    if pv_node || (e.depth as u32) < depth {
        return None;
    }
    let s = from_table(e.score, ply);
    match e.bound {
        Bound::Exact => Some(s),
        Bound::Lower if s >= beta => Some(s),
        Bound::Upper if s <= alpha => Some(s),
        _ => None,
    }
}

/// The static evaluation bounded by the table's score where its bound says the true score lies
/// beyond it (mate scores aside).
fn bounded_stand(e: &Entry, stand: i32, ply: usize) -> i32 {
    let s = from_table(e.score, ply);
    let beyond = match e.bound {
        Bound::Exact => true,
        Bound::Lower => s > stand,
        Bound::Upper => s < stand,
    };
    if stand > -INFINITY && s.abs() < MATE_BOUND && beyond {
        s
    } else {
        stand
    }
}

/// Whether a quiet move surely gives no check, read in the cell array without making it
/// (`trial` is the node's check trial, made the first time it is asked; where it is unsound
/// there is none and the move is made).
fn gives_no_check_unmade(pos: &mut Position, trial: &mut Option<Option<CheckTrial>>, mv: Move) -> bool {
    let t = *trial.get_or_insert_with(|| pos.check_trial());
    t.is_some_and(|t| pos.quiet_move_checks(&t, mv) == Some(false))
}

/// Mate scores are stored relative to the node, read back relative to the root.
fn to_table(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

fn from_table(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}
