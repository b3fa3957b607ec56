//! A generic opponent for any variant: evaluation derived from the IR, and negamax alpha-beta with iterative deepening, a transposition table, move ordering and quiescence.
//!
//! Nothing here knows a game: piece values come from the `.var` file (`value`) or from each
//! piece's mobility on an empty board; the rest of the evaluation is mobility and royal safety.
//! In games whose turn has several actions, each action is one ply and the score keeps its sign
//! while the same side moves.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::bitset::CellSet;
use crate::end::GameResult;
use crate::ir::{CellId, PieceTypeId, PlayerId};
use crate::position::{Move, MoveKind, Position};
use crate::rules::{Piece, Rules};

/// A score of a won game: mate scores are `MATE - plies to the end`.
pub const MATE: i32 = 1_000_000;
/// Scores at least this large in absolute value are game ends.
const MATE_BOUND: i32 = MATE - 10_000;
const INFINITY: i32 = MATE + 1;

/// How an evaluation values the pieces and the position.
#[derive(Clone, Debug)]
pub struct Evaluator {
    /// Per piece type: its value in centipawns (royal pieces 0).
    values: Vec<i32>,
    /// Per piece type: whether the value was declared in the `.var` file.
    declared: Vec<bool>,
}

impl Evaluator {
    /// Values every piece type: the declared `value`, or `40 * m + 20` where `m` is the
    /// average number of cells the piece reaches from a cell of the empty board (a rook on
    /// 8x8 reaches 14: 580; a knight 5.25: 230).
    pub fn new(rules: &Rules) -> Evaluator {
        let mut values = Vec::new();
        let mut declared = Vec::new();
        for (t, piece) in rules.variant.pieces.iter().enumerate() {
            declared.push(piece.value.is_some());
            values.push(if piece.royal {
                0
            } else {
                piece.value.unwrap_or_else(|| (40.0 * mobility(rules, PieceTypeId(t as u8)) + 20.0).round() as i32)
            });
        }
        Evaluator { values, declared }
    }

    /// The value of a piece type in centipawns.
    pub fn value(&self, ty: PieceTypeId) -> i32 {
        self.values[ty.0 as usize]
    }

    /// Whether the type's value was declared by the designer (else computed from mobility).
    pub fn declared(&self, ty: PieceTypeId) -> bool {
        self.declared[ty.0 as usize]
    }

    fn piece_value(&self, r: &Rules, p: Piece) -> i32 {
        if p.is_empty() || p == Piece::HOLE || p == Piece::ALL {
            return 0;
        }
        self.values[r.type_of(p).0 as usize]
    }

    /// The static evaluation from the side to move's point of view: material, mobility (4 per
    /// pseudo-legal move more than the opponent), royal safety (15 per attacked cell next to a
    /// royal piece), and 25 per square in reserve where squares are held in hand.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let r = &*pos.rules;
        let st = &pos.st;
        let me = st.side;
        let mut score = 0;
        for p in 0..r.players {
            let player = PlayerId(p as u8);
            let sign = if player == me { 1 } else { -1 };
            let mut material = 0;
            for c in st.occupied[p].iter() {
                for &q in st.pieces_at(r, c) {
                    if r.owner(q) == player {
                        material += self.piece_value(r, q);
                    }
                }
            }
            let mut moves = Vec::new();
            st.pseudo_moves(r, player, &mut moves);
            let mut danger = 0;
            for royal in st.royals[p].iter() {
                for d in 0..r.variant.board.directions.len() {
                    for &n in r.graph.step(royal, crate::ir::DirId(d as u8)) {
                        if st.attacked_by_any_enemy(r, n, player) {
                            danger += 1;
                        }
                    }
                }
            }
            let reserve = match pos.reserve(player) {
                Some(n) if r.variant.squares.is_some() => n as i32,
                _ => 0,
            };
            score += sign * (material + 4 * moves.len() as i32 - 15 * danger + 25 * reserve);
        }
        score
    }
}

/// The average number of cells a piece type reaches from a cell of the empty board (for the
/// first player, all conditions but the start zone ignored).
fn mobility(r: &Rules, ty: PieceTypeId) -> f64 {
    let mut total = 0usize;
    for c in 0..r.cells {
        let (a, b, _) = r.entries_for(PlayerId(0), ty, CellId(c as u16));
        let mut seen = CellSet::new(r.cells);
        for e in &r.entries[a..b] {
            for k in 0..e.len as usize {
                seen.insert(r.ray_cells[e.start as usize + k]);
            }
        }
        total += seen.len();
    }
    total as f64 / r.cells.max(1) as f64
}

/// When to stop searching.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Deepest iteration, in plies (actions).
    pub depth: Option<u32>,
    /// Time for the whole search.
    pub time: Option<Duration>,
    /// Most nodes to visit.
    pub nodes: Option<u64>,
}

/// The result of one iteration (or of the whole search).
#[derive(Clone, Debug)]
pub struct SearchInfo {
    /// The depth searched, in plies.
    pub depth: u32,
    /// The score for the side to move, in centipawns (or a mate score).
    pub score: i32,
    /// The principal variation, best move first.
    pub pv: Vec<Move>,
    /// Nodes visited so far.
    pub nodes: u64,
    /// Time spent so far.
    pub elapsed: Duration,
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    depth: u8,
    bound: Bound,
    score: i32,
    best: Option<Move>,
}

/// Figures of a running search, updated every few thousand nodes and readable from another
/// thread (a protocol's periodic `info` lines).
#[derive(Debug, Default)]
pub struct Progress {
    /// Nodes visited so far in this search.
    pub nodes: AtomicU64,
    /// The iteration being searched, in plies.
    pub depth: AtomicU32,
    /// How full the transposition table is, in permille (sampled).
    pub hashfull: AtomicU32,
}

/// A searcher: keeps its transposition table between searches of one game.
pub struct Searcher {
    eval: Evaluator,
    table: Vec<Option<Entry>>,
    killers: Vec<[Option<Move>; 2]>,
    nodes: u64,
    start: Instant,
    limits: Limits,
    stop: Arc<AtomicBool>,
    stopped: bool,
    /// Root moves the current root search skips (the lines already found, for MultiPV).
    excluded: Vec<Move>,
    /// The best root move of the last root search.
    root_best: Option<Move>,
    progress: Arc<Progress>,
}

impl Searcher {
    /// A searcher for a variant, with a transposition table of about `table_mb` megabytes.
    pub fn new(rules: &Rules, table_mb: usize) -> Searcher {
        let n = (table_mb.max(1) << 20) / std::mem::size_of::<Option<Entry>>();
        Searcher {
            eval: Evaluator::new(rules),
            table: vec![None; n.next_power_of_two() / 2],
            killers: vec![[None; 2]; 128],
            nodes: 0,
            start: Instant::now(),
            limits: Limits::default(),
            stop: Arc::new(AtomicBool::new(false)),
            stopped: false,
            excluded: Vec::new(),
            root_best: None,
            progress: Arc::new(Progress::default()),
        }
    }

    /// The evaluation in use.
    pub fn evaluator(&self) -> &Evaluator {
        &self.eval
    }

    /// A flag that stops the search cleanly when set (from another thread); the search then
    /// returns the best move of the last finished iteration. The search never clears it (a stop
    /// sent before the search began must still stop it): its owner does, before the next search.
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

    /// How full the transposition table is, in permille, from its first thousand slots.
    pub fn hashfull(&self) -> u32 {
        let sample = &self.table[..self.table.len().min(1000)];
        (sample.iter().filter(|e| e.is_some()).count() * 1000 / sample.len().max(1)) as u32
    }

    /// Searches by iterative deepening until a limit is reached, calling `on_iteration` after
    /// each finished depth. Without any limit, depth 4 is searched.
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
    /// variation, best first, calling `on_iteration` with all of them after each finished depth.
    /// Line k is the search of the root with the first moves of lines 1 to k-1 left out. Returns
    /// at least one line (with no move when the position has no legal move).
    pub fn search_lines(
        &mut self,
        pos: &mut Position,
        limits: Limits,
        lines: usize,
        mut on_iteration: impl FnMut(&[SearchInfo]),
    ) -> Vec<SearchInfo> {
        self.nodes = 0;
        self.start = Instant::now();
        self.limits = limits;
        self.stopped = false;
        self.progress.nodes.store(0, Ordering::Relaxed);
        for k in self.killers.iter_mut() {
            *k = [None; 2];
        }
        let max_depth = match (limits.depth, limits.time, limits.nodes) {
            (Some(d), _, _) => d.clamp(1, 100),
            (None, None, None) => 4,
            _ => 100,
        };
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let lines = lines.clamp(1, moves.len().max(1));
        let mut best: Vec<SearchInfo> = (0..lines)
            .map(|k| SearchInfo {
                depth: 0,
                score: self.eval.evaluate(pos),
                pv: moves.get(k).copied().into_iter().collect(),
                nodes: 0,
                elapsed: Duration::ZERO,
            })
            .collect();
        if moves.is_empty() {
            return best;
        }
        'deepening: for depth in 1..=max_depth {
            self.progress.depth.store(depth, Ordering::Relaxed);
            let mut found: Vec<SearchInfo> = Vec::with_capacity(lines);
            for k in 0..lines {
                self.excluded = found.iter().filter_map(|l| l.best()).collect();
                self.root_best = None;
                let score = self.negamax(pos, depth, 0, -INFINITY, INFINITY);
                if self.stopped {
                    break 'deepening;
                }
                let pv = match self.root_best {
                    // The table's root entry is another line's when moves were left out.
                    Some(first) if k > 0 => {
                        pos.make(first);
                        let mut pv = self.principal_variation(pos, depth.saturating_sub(1));
                        pos.unmake();
                        pv.insert(0, first);
                        pv
                    }
                    _ => self.principal_variation(pos, depth),
                };
                found.push(SearchInfo {
                    depth,
                    score,
                    pv: if pv.is_empty() { best[k].pv.clone() } else { pv },
                    nodes: self.nodes,
                    elapsed: self.start.elapsed(),
                });
            }
            self.excluded.clear();
            best = found;
            self.progress.hashfull.store(self.hashfull(), Ordering::Relaxed);
            on_iteration(&best);
            let score = best[0].score;
            if score.abs() >= MATE_BOUND && (MATE - score.abs()) as u32 <= depth {
                break;
            }
            // A new iteration costs several times the last: do not start one that cannot end.
            if let Some(t) = limits.time {
                if self.start.elapsed() * 3 > t {
                    break;
                }
            }
        }
        self.excluded.clear();
        for line in &mut best {
            line.nodes = self.nodes;
            line.elapsed = self.start.elapsed();
        }
        best
    }

    fn out_of_time(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes & 1023 == 0 {
            self.progress.nodes.store(self.nodes, Ordering::Relaxed);
            if self.nodes & 0xffff == 0 {
                self.progress.hashfull.store(self.hashfull(), Ordering::Relaxed);
            }
            let late = self.limits.time.is_some_and(|t| self.start.elapsed() >= t);
            let many = self.limits.nodes.is_some_and(|n| self.nodes >= n);
            if late || many || self.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            }
        }
        self.stopped
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.table.len() - 1)
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        self.table[self.slot(key)].filter(|e| e.key == key)
    }

    fn store(&mut self, key: u64, depth: u32, bound: Bound, score: i32, best: Option<Move>) {
        let i = self.slot(key);
        if let Some(old) = self.table[i] {
            if old.key == key && old.depth as u32 > depth && bound != Bound::Exact {
                return;
            }
        }
        self.table[i] = Some(Entry { key, depth: depth.min(255) as u8, bound, score, best });
    }

    /// The moves of the principal variation, read from the transposition table.
    fn principal_variation(&self, pos: &mut Position, depth: u32) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut moves = Vec::new();
        while pv.len() < depth as usize + 8 {
            let Some(best) = self.probe(pos.hash()).and_then(|e| e.best) else { break };
            pos.legal_moves(&mut moves);
            if !moves.contains(&best) {
                break;
            }
            pv.push(best);
            pos.make(best);
            if pos.repetitions() > 0 {
                break;
            }
        }
        for _ in 0..pv.len() {
            pos.unmake();
        }
        pv
    }

    /// The score of the end of the game for the side to move, if it has ended.
    fn game_end(&self, pos: &mut Position, has_moves: bool, ply: u32) -> Option<i32> {
        let side = pos.side_to_move();
        let (result, _) = pos.outcome_given(has_moves)?;
        Some(match result {
            GameResult::Draw => 0,
            GameResult::Win(p) if p == side => MATE - ply as i32,
            GameResult::Win(_) => -(MATE - ply as i32),
        })
    }

    /// Orders moves: the table's move, captures by victim value then cheapest capturer,
    /// killers, then the rest in generation order.
    fn order(&self, pos: &Position, moves: &mut [Move], best: Option<Move>, ply: u32) {
        let r = &*pos.rules;
        let killers = self.killers.get(ply as usize).copied().unwrap_or([None; 2]);
        let key = |m: &Move| -> i32 {
            if Some(*m) == best {
                return -INFINITY;
            }
            if m.is_capture() && m.kind != MoveKind::Castle {
                let victim = if m.take == Piece::ALL { 1000 } else { self.eval.piece_value(r, m.take) };
                return -(100_000 + 16 * victim - self.eval.piece_value(r, m.piece) / 16);
            }
            if m.promote != 0 {
                return -90_000;
            }
            if killers.contains(&Some(*m)) {
                return -80_000;
            }
            0
        };
        moves.sort_by_key(key);
    }

    /// Negamax with alpha-beta, from the side to move's point of view.
    fn negamax(&mut self, pos: &mut Position, depth: u32, ply: u32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.out_of_time() {
            return 0;
        }
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        if ply > 0 {
            if let Some(s) = self.game_end(pos, !moves.is_empty(), ply) {
                return s;
            }
            // A repetition inside the search counts as a draw (it can be forced again).
            if pos.action_index() == 0 && pos.repetitions() > 0 {
                return 0;
            }
        } else if moves.is_empty() {
            return self.game_end(pos, false, ply).unwrap_or(0);
        }
        if depth == 0 {
            return self.quiesce(pos, ply, alpha, beta, 0);
        }
        let key = pos.hash();
        let entry = self.probe(key);
        if let Some(e) = entry {
            if ply > 0 && e.depth as u32 >= depth {
                let s = from_table(e.score, ply);
                match e.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        if ply == 0 && !self.excluded.is_empty() {
            moves.retain(|m| !self.excluded.contains(m));
        }
        self.order(pos, &mut moves, entry.and_then(|e| e.best), ply);
        let alpha0 = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mover = pos.side_to_move();
        for mv in moves {
            pos.make(mv);
            let s = if pos.side_to_move() == mover {
                self.negamax(pos, depth - 1, ply + 1, alpha, beta)
            } else {
                -self.negamax(pos, depth - 1, ply + 1, -beta, -alpha)
            };
            pos.unmake();
            if self.stopped {
                return 0;
            }
            if s > best_score {
                best_score = s;
                best_move = Some(mv);
            }
            if s > alpha {
                alpha = s;
            }
            if alpha >= beta {
                if !mv.is_capture() {
                    if let Some(k) = self.killers.get_mut(ply as usize) {
                        if k[0] != Some(mv) {
                            k[1] = k[0];
                            k[0] = Some(mv);
                        }
                    }
                }
                break;
            }
        }
        if ply == 0 {
            self.root_best = best_move;
            // With moves left out, the score is not the root position's: keep it out of the table.
            if !self.excluded.is_empty() {
                return best_score;
            }
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.store(key, depth, bound, to_table(best_score, ply), best_move);
        best_score
    }

    /// Quiescence: captures only (at the start of a turn), standing pat on the evaluation.
    fn quiesce(&mut self, pos: &mut Position, ply: u32, mut alpha: i32, beta: i32, qdepth: u32) -> i32 {
        self.nodes += 1;
        if self.out_of_time() {
            return 0;
        }
        let stand = self.eval.evaluate(pos);
        if pos.action_index() != 0 || qdepth >= 8 {
            return stand;
        }
        if stand >= beta {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        moves.retain(|m| m.is_capture() && m.kind.is_piece_move() && m.kind != MoveKind::Castle);
        self.order(pos, &mut moves, None, ply);
        let mover = pos.side_to_move();
        let mut best = stand;
        for mv in moves {
            pos.make(mv);
            let s = if pos.side_to_move() == mover {
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
            }
            if s > alpha {
                alpha = s;
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

/// Mate scores are stored relative to the node, read back relative to the root.
fn to_table(s: i32, ply: u32) -> i32 {
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

fn from_table(s: i32, ply: u32) -> i32 {
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}
