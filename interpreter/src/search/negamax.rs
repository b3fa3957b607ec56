//! A generic opponent for any variant: iterative deepening principal variation search with a transposition table, null move, late-move reductions, check extensions, static exchange pruning, history ordering and aspiration windows, over the evaluation of `eval.rs`.
//!
//! Nothing here knows a game. Depth counts turns: in games whose turn has several actions, the
//! actions of one turn are searched at the same depth, and the score keeps its sign while the
//! same player acts. Each refinement is guarded by a one-line condition saying when it is
//! unsafe, and can be switched off through [`Features`] (the tests do, to show it matters).

mod quiesce;

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering as AtomicOrdering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::end::GameResult;
use crate::ir::PlayerId;
use crate::order::{is_quiet, see, Ordering, Picker, MAX_PLY};
use crate::position::{Move, Position};
use crate::rules::Rules;
use crate::table::{Bound, Table};

pub use crate::eval::{Evaluator, Weights};

/// A score of a won game: mate scores are `MATE - plies to the end`.
pub const MATE: i32 = 1_000_000;
/// Scores at least this large in absolute value are game ends.
const MATE_BOUND: i32 = MATE - 10_000;
const INFINITY: i32 = MATE + 1;
/// How many actions ending a turn are tried at the last turn before late-move pruning skips the
/// quiet rest (times the square of the depth: 16 a turn before the last).
const LATE_MOVE_COUNT: usize = 4;
/// How many quiet actions that leave the turn to go on (the square move between a piece move
/// and a placement) are tried at the last turn before late-move pruning skips the rest: each
/// one tried opens all the actions after it (times the square of the depth, as above).
const MID_TURN_MOVE_COUNT: usize = 8;
/// Late-move pruning reaches this many turns from the leaves.
const LATE_MOVE_DEPTH: u32 = 2;

/// When to stop searching.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Deepest iteration, in turns (a turn of several actions counts once).
    pub depth: Option<u32>,
    /// Time for the whole search: the search uses it all (iterations go on until it is spent,
    /// and the best move of a partly searched iteration is kept).
    pub time: Option<Duration>,
    /// Most nodes to visit.
    pub nodes: Option<u64>,
    /// On a clock, the time a move should take: no iteration starts once half of it is spent
    /// (the next would rarely finish before `time`, the most it may take), and the search ends
    /// after the iteration that crosses it.
    pub target: Option<Duration>,
    /// When the time started (the command that asked for the move arrived): the time spent
    /// before the search began counts. `None`: when the search begins.
    pub started: Option<Instant>,
}

/// The result of one iteration (or of the whole search).
#[derive(Clone, Debug)]
pub struct SearchInfo {
    /// The depth searched, in turns.
    pub depth: u32,
    /// The score for the side to move, in centipawns (or a mate score).
    pub score: i32,
    /// The principal variation, best move first.
    pub pv: Vec<Move>,
    /// Nodes visited so far.
    pub nodes: u64,
    /// Time spent so far.
    pub elapsed: Duration,
    /// The iteration of `depth` is still running: this is a better move it found on the way.
    pub partial: bool,
}

impl SearchInfo {
    /// The best move, if the position has a legal move.
    pub fn best(&self) -> Option<Move> {
        self.pv.first().copied()
    }

    /// Moves to mate, if the score is a forced win (positive) or loss (negative), in plies.
    pub fn mate_in(&self) -> Option<i32> {
        if self.score >= MATE_BOUND {
            Some(MATE - self.score)
        } else if self.score <= -MATE_BOUND {
            Some(-(MATE + self.score))
        } else {
            None
        }
    }
}

/// The search's refinements, each of which can be switched off (all on by default).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Null-move pruning: let the opponent move twice; if that still fails high, prune.
    pub null_move: bool,
    /// No null move for a side with only royal and promoting pieces, where zugzwang is likely.
    pub zugzwang_guard: bool,
    /// Late-move reductions: quiet moves ordered late are searched shallower first.
    pub late_move_reductions: bool,
    /// Late actions in the middle of a turn of several actions: the turns after them are
    /// searched shallower first (at the last turn, the position such an action leaves is
    /// judged as it stands), and in full when that beats the best so far.
    pub turn_reductions: bool,
    /// A move that gives check is searched one turn deeper.
    pub check_extensions: bool,
    /// A check given by a later action of a turn of several actions (a placement that opens a
    /// line) is extended on the principal variation only.
    pub late_checks_on_pv_only: bool,
    /// Iterations start with a narrow window around the last score.
    pub aspiration: bool,
    /// Near the leaves, positions far above beta are cut and quiet moves far below alpha skipped.
    pub futility: bool,
    /// At the last two turns, in the middle of a turn of several actions, quiet actions that end
    /// the turn are tried only as far as the first few in order (late-move pruning).
    pub late_move_pruning: bool,
    /// The same for the quiet actions in the middle of the last two turns that leave the turn to
    /// go on (after its first action): only the first [`MID_TURN_MOVE_COUNT`] in order (times
    /// the depth's square) are tried.
    pub mid_turn_pruning: bool,
}

impl Default for Features {
    fn default() -> Features {
        Features {
            null_move: true,
            zugzwang_guard: true,
            late_move_reductions: true,
            turn_reductions: true,
            check_extensions: true,
            late_checks_on_pv_only: true,
            aspiration: true,
            futility: true,
            late_move_pruning: true,
            mid_turn_pruning: true,
        }
    }
}

/// Figures of a running search, updated every few thousand nodes and readable from another
/// thread (a protocol's periodic `info` lines).
#[derive(Debug, Default)]
pub struct Progress {
    /// Nodes visited so far in this search.
    pub nodes: AtomicU64,
    /// The iteration being searched, in turns.
    pub depth: AtomicU32,
    /// How full the transposition table is, in permille (sampled).
    pub hashfull: AtomicU32,
}

/// A searcher: keeps its transposition table and move history between searches of one game.
pub struct Searcher {
    eval: Evaluator,
    table: Table,
    order: Ordering,
    /// The refinements in use.
    pub features: Features,
    /// Per piece type: it is neither royal nor promoting (having one guards against zugzwang).
    officer: Vec<bool>,
    /// Having no legal move wins or loses the game (not a draw): quiescence looks for moves.
    stalemate_decides: bool,
    nodes: u64,
    start: Instant,
    limits: Limits,
    stop: Arc<AtomicBool>,
    stopped: bool,
    root_side: PlayerId,
    /// More than two players: the others play together against the root player (and its
    /// partners, in a game of teams).
    paranoid: bool,
    /// Bit p: player p plays on the root player's side of the search (itself and its partners;
    /// every other player is on the other side).
    root_players: u32,
    /// No one who moves plays against the root player.
    unopposed: bool,
    /// The principal variation from each ply (triangular).
    pv: Vec<Vec<Move>>,
    /// Each ply's move lists, kept between nodes so that a node allocates nothing.
    lists: Vec<PlyLists>,
    /// The same for quiescence.
    quiet_lists: Vec<PlyLists>,
    /// Late-move reductions by depth and move number.
    lmr: Vec<[u8; 64]>,
    progress: Arc<Progress>,
}

impl Searcher {
    /// A searcher for a variant with the default evaluation, with a transposition table of
    /// about `table_mb` megabytes.
    pub fn new(rules: &Arc<Rules>, table_mb: usize) -> Searcher {
        Searcher::with_evaluator(rules, table_mb, Evaluator::new(rules))
    }

    /// A searcher with a given evaluation (for instance with tuned weights).
    pub fn with_evaluator(rules: &Arc<Rules>, table_mb: usize, eval: Evaluator) -> Searcher {
        let officer = rules.variant.pieces.iter().map(|p| !p.royal && p.promotions().next().is_none()).collect();
        let lmr = (0..64)
            .map(|d| {
                let mut row = [0u8; 64];
                for (i, r) in row.iter_mut().enumerate() {
                    if d > 0 && i > 0 {
                        *r = (0.5 + (d as f64).ln() * (i as f64).ln() / 2.25) as u8;
                    }
                }
                row
            })
            .collect();
        Searcher {
            eval,
            table: Table::new(table_mb),
            order: Ordering::new(rules),
            features: Features::default(),
            officer,
            stalemate_decides: rules.variant.end.stalemate != crate::ir::Outcome::Draw
                || rules.variant.end.stalemate_for.is_some(),
            nodes: 0,
            start: Instant::now(),
            limits: Limits::default(),
            stop: Arc::new(AtomicBool::new(false)),
            stopped: false,
            root_side: PlayerId(0),
            paranoid: false,
            root_players: 1,
            unopposed: false,
            pv: vec![Vec::new(); MAX_PLY + 2],
            lists: vec![PlyLists::default(); MAX_PLY + 2],
            quiet_lists: vec![PlyLists::default(); MAX_PLY + 2],
            lmr,
            progress: Arc::new(Progress::default()),
        }
    }

    /// The evaluation in use.
    pub fn evaluator(&self) -> &Evaluator {
        &self.eval
    }

    /// A flag that stops the search cleanly when set (from another thread); the search then
    /// returns the best move found so far. The search never clears it (a stop sent before the
    /// search began must still stop it): its owner does, before the next search.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Uses `flag` as the stop flag from now on (a fresh flag per search, so that a late stop
    /// meant for an earlier search cannot reach a later one).
    pub fn set_stop_flag(&mut self, flag: Arc<AtomicBool>) {
        self.stop = flag;
    }

    /// The running search's figures, for another thread to read while it runs.
    pub fn progress(&self) -> Arc<Progress> {
        self.progress.clone()
    }

    /// How full the transposition table is, in permille.
    pub fn hashfull(&self) -> u32 {
        self.table.per_mille_full()
    }

    /// Per mille of the transposition table used by the last search.
    pub fn table_use(&self) -> u32 {
        self.table.per_mille_full()
    }

    /// Searches by iterative deepening until a limit is reached, calling `on_iteration` after
    /// each finished depth and whenever a new best move is found during an iteration. Without
    /// any limit, depth 4 is searched. A search stopped by time, nodes or the stop flag returns
    /// the best move of its last iteration, or of the one it was in when that iteration had
    /// already found a better move.
    pub fn search(
        &mut self,
        pos: &mut Position,
        limits: Limits,
        mut on_iteration: impl FnMut(&SearchInfo),
    ) -> SearchInfo {
        let mut lines = self.search_lines(pos, limits, 1, |lines| on_iteration(&lines[0]));
        lines.swap_remove(0)
    }

    /// Searches the best `lines` root moves (MultiPV), each with its own score and principal
    /// variation, ranked best first, calling `on_iteration` with all of them after each
    /// finished depth. Line k is the search of the root without the first moves of lines 1 to
    /// k-1. With one line, `on_iteration` also hears of each better move found during an
    /// iteration; with more, a search stopped part way reports once more, with the lines the
    /// stopped iteration finished (and its first line's better move) before the older ones,
    /// no first move twice. Returns at least one line (with no move when the position has no
    /// legal move), the lines last reported.
    pub fn search_lines(
        &mut self,
        pos: &mut Position,
        limits: Limits,
        lines: usize,
        on_iteration: impl FnMut(&[SearchInfo]),
    ) -> Vec<SearchInfo> {
        // The board keeps the evaluation's piece-square sums while the search runs.
        pos.attach_tally(self.eval.piece_squares().clone());
        let found = self.search_lines_tallied(pos, limits, lines, on_iteration);
        pos.detach_tally();
        found
    }

    /// [`Searcher::search_lines`] once the piece-square table is attached.
    fn search_lines_tallied(
        &mut self,
        pos: &mut Position,
        limits: Limits,
        lines: usize,
        mut on_iteration: impl FnMut(&[SearchInfo]),
    ) -> Vec<SearchInfo> {
        self.nodes = 0;
        self.start = limits.started.unwrap_or_else(Instant::now);
        self.limits = limits;
        self.stopped = false;
        self.progress.nodes.store(0, AtomicOrdering::Relaxed);
        self.table.new_search();
        self.order.new_search();
        self.root_side = pos.side_to_move();
        self.paranoid = pos.rules().player_count() > 2;
        let rules = pos.rules();
        self.root_players = (0..rules.player_count() as u8)
            .filter(|p| rules.allied(PlayerId(*p), self.root_side))
            .fold(0, |bits, p| bits | 1 << p);
        // The players who move: those of the turn order, else every player.
        self.unopposed = match &rules.variant.turn_order {
            Some(order) => order.opening.iter().chain(&order.cycle).all(|e| self.same_team(e.player, self.root_side)),
            None => (0..rules.player_count() as u8).all(|p| self.same_team(PlayerId(p), self.root_side)),
        };
        let max_depth = match (limits.depth, limits.time, limits.nodes) {
            (Some(d), _, _) => d.clamp(1, MAX_PLY as u32 / 2),
            (None, None, None) => 4,
            _ => MAX_PLY as u32 / 2,
        };
        let mut root: Vec<Move> = Vec::new();
        pos.legal_moves(&mut root);
        let lines = lines.clamp(1, root.len().max(1));
        let mut best: Vec<SearchInfo> = (0..lines)
            .map(|k| SearchInfo {
                depth: 0,
                score: self.static_eval(pos),
                pv: root.get(k).copied().into_iter().collect(),
                nodes: 0,
                elapsed: Duration::ZERO,
                partial: false,
            })
            .collect();
        if root.is_empty() {
            return best;
        }
        let mut last: Vec<Option<i32>> = vec![None; lines];
        'deepening: for depth in 1..=max_depth {
            self.progress.depth.store(depth, AtomicOrdering::Relaxed);
            let mut found_lines: Vec<SearchInfo> = Vec::with_capacity(lines);
            for k in 0..lines {
                let (score, found) = if k == 0 {
                    // Better moves on the way are shown only in a search of one line: in more,
                    // line 1 would be shown twice in one iteration.
                    self.aspiration(pos, depth, last[0], &mut root, &mut |info| {
                        if lines == 1 {
                            on_iteration(std::slice::from_ref(info))
                        }
                    })
                } else {
                    let shown: Vec<Move> = found_lines.iter().filter_map(|l| l.best()).collect();
                    let mut rest: Vec<Move> = root.iter().copied().filter(|m| !shown.contains(m)).collect();
                    self.aspiration(pos, depth, last[k], &mut rest, &mut |_| {})
                };
                if self.stopped {
                    // A partly searched iteration that already found a better move keeps it.
                    let better = found
                        .filter(|(score, pv)| k == 0 && (pv.first() != best[0].pv.first() || *score > best[0].score));
                    if lines == 1 {
                        if let Some((score, pv)) = better {
                            (best[0].pv, best[0].score) = (pv, score);
                        }
                    } else if better.is_some() || !found_lines.is_empty() {
                        let first = better.map(|(score, pv)| SearchInfo {
                            depth,
                            score,
                            pv,
                            nodes: self.nodes,
                            elapsed: self.start.elapsed(),
                            partial: true,
                        });
                        best = crate::multipv::after_stop(found_lines, first, &best, lines);
                        on_iteration(&best);
                    }
                    break 'deepening;
                }
                let pv = found.map(|(_, pv)| pv).filter(|pv| !pv.is_empty()).unwrap_or_else(|| best[k].pv.clone());
                found_lines.push(SearchInfo {
                    depth,
                    score,
                    pv,
                    nodes: self.nodes,
                    elapsed: self.start.elapsed(),
                    partial: false,
                });
            }
            crate::multipv::rank(&mut found_lines);
            for (l, line) in last.iter_mut().zip(&found_lines) {
                *l = Some(line.score);
            }
            best = found_lines;
            self.progress.hashfull.store(self.table.per_mille_full(), AtomicOrdering::Relaxed);
            on_iteration(&best);
            let score = best[0].score;
            if score.abs() >= MATE_BOUND && (MATE - score.abs()) as u32 <= depth {
                break;
            }
            // One legal move needs no thought when the caller limits time or nodes.
            if root.len() == 1 && (limits.depth.is_none() || limits.target.is_some()) {
                break;
            }
            // On a clock, a deeper iteration takes a few times the last: one begun after half
            // the target would mostly be cut by the hard limit, its time lost.
            if limits.target.is_some_and(|t| self.start.elapsed() >= t / 2) {
                break;
            }
        }
        for line in &mut best {
            line.nodes = self.nodes;
            line.elapsed = self.start.elapsed();
        }
        best
    }

    /// One iteration, first with a narrow window around the last score, widened on failure.
    /// Returns the score and the best line found (which survives a stop mid-iteration).
    fn aspiration(
        &mut self,
        pos: &mut Position,
        depth: u32,
        last: Option<i32>,
        root: &mut [Move],
        report: &mut dyn FnMut(&SearchInfo),
    ) -> (i32, Option<(i32, Vec<Move>)>) {
        let mut delta = 30;
        let (mut alpha, mut beta) = match last {
            Some(s) if self.features.aspiration && depth >= 4 && s.abs() < MATE_BOUND => (s - delta, s + delta),
            _ => (-INFINITY, INFINITY),
        };
        let mut found = None;
        loop {
            let (score, line) = self.root(pos, depth, alpha, beta, root, report);
            if line.is_some() {
                found = line;
            }
            if self.stopped {
                return (score, found);
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
            } else {
                return (score, found);
            }
            delta *= 2;
            if delta > 800 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// The root of one iteration: every root move in order (the last best first), with a
    /// principal variation search. Returns the best score and, when a move raised alpha, the
    /// best line.
    fn root(
        &mut self,
        pos: &mut Position,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        root: &mut [Move],
        report: &mut dyn FnMut(&SearchInfo),
    ) -> (i32, Option<(i32, Vec<Move>)>) {
        self.nodes += 1;
        let mover = pos.side_to_move();
        let turn_start = pos.action_index() == 0;
        let mut checked_before = None;
        let mut best = -INFINITY;
        let mut line = None;
        for i in 0..root.len() {
            let mv = root[i];
            pos.make(mv);
            let same_side = self.same_team(pos.side_to_move(), mover);
            let within_turn = same_side && !turn_ended(pos);
            let gives_check =
                !same_side && self.features.check_extensions && gives_check(pos, mv, turn_start, &mut checked_before);
            let next = match within_turn {
                true if pos.repeats_in_turn() => 0,
                true => depth,
                false => depth - 1 + gives_check as u32,
            };
            let s = if i == 0 {
                self.child(pos, same_side, next, 1, alpha, beta)
            } else {
                let t = self.child(pos, same_side, next, 1, alpha, alpha + 1);
                if t > alpha && t < beta && !self.stopped {
                    self.child(pos, same_side, next, 1, alpha, beta)
                } else {
                    t
                }
            };
            pos.unmake();
            if self.stopped {
                break;
            }
            if s > best {
                best = s;
                if s > alpha {
                    let mut pv = vec![mv];
                    pv.extend_from_slice(&self.pv[1]);
                    // The new best goes first, so the next iteration searches it first.
                    root[..=i].rotate_right(1);
                    if i > 0 && depth > 1 && s < beta {
                        report(&SearchInfo {
                            depth,
                            score: s,
                            pv: pv.clone(),
                            nodes: self.nodes,
                            elapsed: self.start.elapsed(),
                            partial: true,
                        });
                    }
                    line = Some((s, pv));
                    alpha = s;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        (best, line)
    }

    /// Searches a child: with the window turned over when the turn passed, as is when the same
    /// player acts again.
    fn child(&mut self, pos: &mut Position, same_side: bool, depth: u32, ply: usize, alpha: i32, beta: i32) -> i32 {
        if same_side {
            self.negamax(pos, depth, ply, alpha, beta, true)
        } else {
            -self.negamax(pos, depth, ply, -beta, -alpha, true)
        }
    }

    fn out_of_time(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes & 255 == 0 {
            self.progress.nodes.store(self.nodes, AtomicOrdering::Relaxed);
            let late = self.limits.time.is_some_and(|t| self.start.elapsed() >= t);
            let many = self.limits.nodes.is_some_and(|n| self.nodes >= n);
            if late || many || self.stop.load(AtomicOrdering::Relaxed) {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// A draw's score for the side to move: the player to move at the root would rather play
    /// on (`contempt`), so a draw is a little worse than equal for it, a little better for the
    /// other.
    fn draw_score(&self, pos: &Position) -> i32 {
        let c = self.eval.contempt();
        if self.same_team(pos.side_to_move(), self.root_side) {
            -c
        } else {
            c
        }
    }

    /// The score of the end of the game for the side to move, if it has ended.
    fn game_end(&self, pos: &mut Position, has_moves: bool, ply: usize) -> Option<i32> {
        let side = pos.side_to_move();
        let (result, _) = pos.outcome_given(has_moves)?;
        Some(match result {
            GameResult::Draw => self.draw_score(pos),
            GameResult::Win(p) if self.same_team(p, side) => MATE - ply as i32,
            GameResult::Win(_) => -(MATE - ply as i32),
        })
    }

    /// Whether two players are on one side of the search: both on the root player's side (it
    /// and its partners) or both against it. With two players that is the same player; with
    /// more, the others are taken to play together against the root's side (a paranoid search).
    fn same_team(&self, a: PlayerId, b: PlayerId) -> bool {
        (self.root_players >> a.0) & 1 == (self.root_players >> b.0) & 1
    }

    /// Whether no one who moves plays against the root player (a puzzle, a game of one team).
    fn unopposed(&self) -> bool {
        self.unopposed
    }

    /// The static evaluation from the side to move's point of view; in a paranoid search, the
    /// root player's evaluation (its pieces against all others'), negated for the others.
    fn static_eval(&self, pos: &Position) -> i32 {
        if !self.paranoid {
            return self.eval.evaluate(pos);
        }
        // The root player out of the game has lost, whatever stands on the board.
        let v = if pos.side_out(self.root_side) { -MATE / 2 } else { self.eval.evaluate_for(pos, self.root_side) };
        if self.same_team(pos.side_to_move(), self.root_side) {
            v
        } else {
            -v
        }
    }

    /// Whether the side to move may pass in a null-move search: it has a piece that neither is
    /// royal nor promotes (with only those, zugzwang is likely).
    fn can_pass(&self, pos: &Position) -> bool {
        if !self.features.zugzwang_guard {
            return true;
        }
        let r = &**pos.rules();
        let me = pos.side_to_move();
        pos.occupied_by(me)
            .iter()
            .any(|c| pos.pieces_at(c).iter().any(|q| r.owner(*q) == me && self.officer[r.type_of(*q).0 as usize]))
    }

    /// Principal variation search from the side to move's point of view.
    fn negamax(&mut self, pos: &mut Position, depth: u32, ply: usize, alpha: i32, beta: i32, null_ok: bool) -> i32 {
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
        mut alpha: i32,
        beta: i32,
        null_ok: bool,
        lists: &mut PlyLists,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv[ply].clear();
        let turn_start = pos.action_index() == 0;
        // A repetition inside the search counts as a draw (it can be forced again).
        if turn_start && pos.repetitions() > 0 {
            return self.draw_score(pos);
        }
        // With the root player out of the game, the others all play on one side: nothing
        // would count the depth down, and the game is lost for the root player anyway.
        if self.paranoid && pos.side_out(self.root_side) {
            return self.static_eval(pos);
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
        if let Some(e) = entry {
            if !pv_node && e.depth as u32 >= depth {
                let s = from_table(e.score, ply);
                match e.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        let PlyLists { moves, picker, quiets } = lists;
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
            pos.legal_moves(moves);
            if let Some(s) = self.game_end(pos, !moves.is_empty(), ply) {
                return s;
            }
        }
        let stand = if in_check { -INFINITY } else { self.static_eval(pos) };
        // Reverse futility: far above beta near the leaves, the opponent's reply will not
        // bring the score back (unsafe in check and mid-turn, where the evaluation misleads).
        if self.features.futility
            && quiet_node
            && depth <= 3
            && stand.abs() < MATE_BOUND
            && stand - 90 * depth as i32 >= beta
        {
            return stand;
        }
        // Null move: unsafe in check, mid-turn, near mate scores, and where zugzwang is likely.
        if self.features.null_move
            && quiet_node
            && null_ok
            && depth >= 2
            && stand >= beta
            && beta.abs() < MATE_BOUND
            && self.can_pass(pos)
        {
            let passer = pos.side_to_move();
            if let Some(undo) = pos.make_null() {
                // A pass to a partner (or, alone, to oneself) is no pass to the opponent: the
                // window turned over would be wrong, so such a pass is not tried.
                let s = if self.same_team(pos.side_to_move(), passer) {
                    -INFINITY
                } else {
                    let r = 2 + depth / 4 + ((stand - beta) / 200).clamp(0, 2) as u32;
                    -self.negamax(pos, depth.saturating_sub(1 + r), ply + 1, -beta, -beta + 1, false)
                };
                pos.unmake_null(undo);
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    return if s >= MATE_BOUND { beta } else { s };
                }
            }
        }
        if !listed {
            // Not decided before its moves nor drawn by rule (asked above): the list as it is.
            pos.generate_legal(moves);
            if moves.is_empty() {
                if let Some(s) = self.game_end(pos, false, ply) {
                    return s;
                }
            }
        }
        self.order.scores(&self.eval, pos, moves, entry.and_then(|e| e.best), ply, picker);
        let alpha0 = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        quiets.clear();
        let mover = pos.side_to_move();
        // Mid-turn, whether the player after the turn is already in check from its earlier
        // actions (asked once, when a last action first leaves a check).
        let mut checked_before: Option<bool> = None;
        // Late-move pruning's counts grow with the square of the depth (below).
        let late_at = (depth * depth) as usize;
        // Futility (below) may apply here: a quiet move is then first tried for check in the
        // cell array, where that is sound, and passed over unmade if it gives none.
        let futile_node = self.features.futility && quiet_node && depth <= 2;
        let mut trial = None;
        for i in 0..moves.len() {
            picker.pick(pos, &self.eval, moves, i);
            let mv = moves[i];
            let quiet = is_quiet(&mv);
            if futile_node && quiet && i > 0 && best_score > -MATE_BOUND && stand + 120 * depth as i32 <= alpha {
                let t = *trial.get_or_insert_with(|| pos.check_trial());
                if t.is_some_and(|t| pos.quiet_move_checks(&t, mv) == Some(false)) {
                    continue;
                }
            }
            pos.make(mv);
            if depth >= 2 {
                self.table.prefetch(pos.hash());
            }
            let same_side = self.same_team(pos.side_to_move(), mover);
            // The depth counts whole turns: an action that leaves its turn to go on spends none,
            // whoever moves next (in a game of one player, the turn passes to that player again).
            let within_turn = same_side && !turn_ended(pos);
            let gives_check = !same_side && gives_check(pos, mv, turn_start, &mut checked_before);
            // Futility: a quiet move cannot lift a position far below alpha near the leaves.
            if self.features.futility
                && quiet_node
                && quiet
                && !within_turn
                && !gives_check
                && i > 0
                && depth <= 2
                && best_score > -MATE_BOUND
                && stand + 120 * depth as i32 <= alpha
            {
                pos.unmake();
                continue;
            }
            // Late-move pruning: at the last turn, the actions that end it (a placement after a
            // piece and a square moved) are many and mostly alike; beyond the first few in order
            // a quiet one rarely changes the result, and trying every one cost most of the
            // search in such games (three times the nodes at depth 3, same best moves). The
            // actions between (the square move) multiply the placements after them: beyond a
            // few more in order they are skipped too (four times fewer nodes again). A turn
            // before the last, the counts grow with the depth's square, as in chess engines'
            // move-count pruning: 2.4-3.5 times fewer nodes at depth 3, same first moves.
            let late = if within_turn {
                self.features.mid_turn_pruning && i >= MID_TURN_MOVE_COUNT * late_at
            } else {
                self.features.late_move_pruning && i >= LATE_MOVE_COUNT * late_at
            };
            if late
                && !pv_node
                && !turn_start
                && depth <= LATE_MOVE_DEPTH
                && quiet
                && !gives_check
                && best_score > -MATE_BOUND
            {
                pos.unmake();
                continue;
            }
            // A check by a later action of a turn of several actions (a placement that opens a
            // line) is extended on the principal variation only: its answer is a whole turn,
            // and extending each such placement everywhere took seven times the nodes at depth
            // 3 in Moving Occupied Squares. Quiescence still tries every evasion elsewhere.
            let extend = gives_check
                && self.features.check_extensions
                && ply < MAX_PLY / 2
                && (turn_start || pv_node || !self.features.late_checks_on_pv_only);
            // Back where it was earlier in this turn (a man hopping to and fro): every turn
            // from here was open from there, so this line stops at the evaluation.
            let next = match within_turn {
                true if pos.repeats_in_turn() => 0,
                true => depth,
                false => depth - 1 + extend as u32,
            };
            let s = if i == 0 {
                self.child(pos, same_side, next, ply + 1, alpha, beta)
            } else {
                // Late quiet moves are searched shallower first (never in check). In the middle
                // of a turn the depth left is that of the turns after it: those are reduced.
                let mut r = 0;
                let reducible = if within_turn {
                    self.features.turn_reductions
                } else {
                    self.features.late_move_reductions && depth >= 3
                };
                if reducible
                    && quiet
                    && !in_check
                    && !gives_check
                    && i >= if pv_node { 4 } else { 2 }
                    && !self.order.is_killer(&mv, ply)
                {
                    r = self.lmr[depth.min(63) as usize][i.min(63)] as u32;
                    if within_turn {
                        // At least a turn less, even at the last turn (which the formula would
                        // not reduce): there a late action is judged by the position it leaves.
                        r = r.max(1);
                    }
                    if pv_node {
                        r = r.saturating_sub(1);
                    }
                    if self.order.history(&mv) > 4000 {
                        r = r.saturating_sub(1);
                    }
                    r = r.min(if within_turn { next } else { next.saturating_sub(1) });
                }
                let mut t = self.child(pos, same_side, next - r, ply + 1, alpha, alpha + 1);
                if r > 0 && t > alpha && !self.stopped {
                    t = self.child(pos, same_side, next, ply + 1, alpha, alpha + 1);
                }
                if pv_node && t > alpha && t < beta && !self.stopped {
                    t = self.child(pos, same_side, next, ply + 1, alpha, beta);
                }
                t
            };
            pos.unmake();
            if self.stopped {
                return 0;
            }
            if s > best_score {
                best_score = s;
                best_move = Some(mv);
                if s > alpha {
                    alpha = s;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(mv);
                    head[ply].extend_from_slice(&tail[0]);
                    if alpha >= beta {
                        if quiet {
                            self.order.refuted(mv, ply, depth, quiets);
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets.push(mv);
            }
        }
        if best_move.is_none() {
            // Every move was pruned: the position is as bad as its evaluation says.
            return alpha;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table.store(key, depth, bound, to_table(best_score, ply), best_move);
        best_score
    }

    /// Whether a capture wins at least `threshold` by static exchange (for tests and tools).
    pub fn exchange_at_least(&self, pos: &mut Position, mv: Move, threshold: i32) -> bool {
        let rules = pos.rules().clone();
        see(pos, &rules, &self.eval, mv, threshold)
    }

    /// A capture's static exchange value played out with the moves made, and in the cell
    /// array where the search does that (for tests to compare the two).
    #[doc(hidden)]
    pub fn exchange_both_ways(&self, pos: &mut Position, mv: Move) -> (i32, Option<i32>) {
        let rules = pos.rules().clone();
        crate::order::exchange_both_ways(pos, &rules, &self.eval, mv)
    }
}

/// A ply's lists: the legal moves, their order, the quiet moves tried.
#[derive(Clone, Debug, Default)]
struct PlyLists {
    moves: Vec<Move>,
    picker: Picker,
    quiets: Vec<Move>,
}

/// Whether the action `mv`, just made and ending the turn, gave check: the next player is in
/// check now and was not before it. A check that the turn's earlier actions gave is not the
/// last action's: else every last action after a checking move (each placement of a square)
/// would be extended and spared from pruning, and a checking turn of three actions would cost
/// hundreds of times a quiet one. `checked_before` keeps, for the node, whether the next
/// player was in check before its last action (asked once, the first time it matters).
fn gives_check(pos: &mut Position, mv: Move, turn_start: bool, checked_before: &mut Option<bool>) -> bool {
    if !pos.in_check_learnt() {
        return false;
    }
    if turn_start {
        return true;
    }
    let before = *checked_before.get_or_insert_with(|| {
        let next = pos.side_to_move();
        pos.unmake();
        let was = pos.royal_attacked(next);
        pos.make(mv);
        was
    });
    !before
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

/// Whether the action just made ended its turn (no later action of the turn, no partial move
/// going on).
fn turn_ended(pos: &Position) -> bool {
    pos.action_index() == 0 && pos.partial_move().is_none()
}
