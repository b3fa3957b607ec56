//! A generic opponent for any variant: iterative deepening principal variation search with a transposition table, null move, late-move reductions, move-count and futility pruning, check extensions, static exchange pruning, killer and history ordering and aspiration windows, over the evaluation of `eval.rs`.
//!
//! Nothing here knows a game. Depth counts turns: in games whose turn has several actions, the
//! actions of one turn are searched at the same depth, and the score keeps its sign while the
//! same player acts. Each refinement is guarded by a one-line condition saying when it is
//! unsafe, and can be switched off through [`Features`] (the tests do, to show it matters).

mod deepening;
mod multipv;
mod node;
mod quiesce;

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering as AtomicOrdering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::end::GameResult;
use crate::ir::PlayerId;
use crate::order::{see, Ordering, Picker, MAX_PLY};
use crate::position::{Move, Position};
use crate::rules::Rules;
use crate::table::{EvalCache, Table};

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
/// How many plies of captures quiescence follows at most.
const QUIESCENCE_PLIES: u32 = 16;

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
    /// On a clock, the time a move should take: no iteration starts that would, as long as the
    /// last ones took, end past it (it would mostly be cut at `time`, the most it may take).
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
    /// At a turn's start near the leaves, off the principal variation and out of check, quiet
    /// moves beyond a count growing with the depth's square are skipped (half as many once the
    /// mover's evaluation has stopped improving since its last turn).
    pub move_count_pruning: bool,
    /// Near the leaves, off the principal variation and out of check, captures that lose
    /// material by static exchange are skipped unless they give check.
    pub bad_capture_pruning: bool,
    /// A node deep enough that the table gives no move for is searched a turn shallower (its
    /// move order would be a guess: the shallower search is cheap and fills the table).
    pub internal_reduction: bool,
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
            move_count_pruning: true,
            bad_capture_pruning: true,
            internal_reduction: true,
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
    /// Static evaluations already made (two-player searches).
    evals: EvalCache,
    order: Ordering,
    /// The refinements in use.
    pub features: Features,
    /// Per piece type: it is neither royal nor promoting (having one guards against zugzwang).
    officer: Vec<bool>,
    /// Having no legal move wins or loses the game (not a draw): quiescence looks for moves.
    stalemate_decides: bool,
    /// How many plies of captures quiescence follows: none where every move of the game
    /// captures (no leaf is ever quiet there, and following captures searches the whole tree).
    quiescence_plies: u32,
    /// Per (type, type), `reversible_types` to a row: a quiet move turning the first into the
    /// second is no move quiescence follows (the second turns back: see `order.rs`).
    reversible: Vec<bool>,
    reversible_types: usize,
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
    /// Per ply of the current line, the static evaluation of its node and its mover, where it
    /// was taken at a turn's start out of check (whether the mover's evaluation improves).
    stands: Vec<Option<(PlayerId, i32)>>,
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
            evals: EvalCache::new(),
            order: Ordering::new(rules),
            features: Features::default(),
            officer,
            stalemate_decides: rules.variant.end.stalemate != crate::ir::Outcome::Draw
                || rules.variant.end.stalemate_for.is_some(),
            quiescence_plies: if rules.every_move_captures() { 0 } else { QUIESCENCE_PLIES },
            reversible: crate::order::reversible_promotions(&rules.variant),
            reversible_types: rules.variant.pieces.len(),
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
            stands: vec![None; MAX_PLY + 2],
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
    fn static_eval(&mut self, pos: &Position) -> i32 {
        if !self.paranoid {
            let eval = &self.eval;
            return self.evals.get_or(eval.cache_key(pos), || eval.evaluate(pos));
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

    /// Whether a capture wins at least `threshold` by static exchange (for tests and tools).
    pub fn exchange_at_least(&self, pos: &mut Position, mv: Move, threshold: i32) -> bool {
        let rules = pos.rules().clone();
        see(pos, &rules, &self.eval, mv, threshold)
    }

    /// A capture's static exchange value played out with the moves made, and in the cell
    /// array where the search does that (for tests to compare the two).
    #[cfg(feature = "test-hooks")]
    pub fn exchange_both_ways(&self, pos: &mut Position, mv: Move) -> (i32, Option<i32>) {
        let rules = pos.rules().clone();
        crate::order::exchange_both_ways(pos, &rules, &self.eval, mv)
    }

    /// Whether some piece type of the game turns into another whose moves turn it back, as the
    /// quiescence reads it (for tests to list the games it changes).
    #[cfg(feature = "test-hooks")]
    pub fn turns_over_both_ways(rules: &Rules) -> bool {
        crate::order::reversible_promotions(&rules.variant).contains(&true)
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

/// Whether the action just made ended its turn (no later action of the turn, no partial move
/// going on).
fn turn_ended(pos: &Position) -> bool {
    pos.action_index() == 0 && pos.partial_move().is_none()
}
