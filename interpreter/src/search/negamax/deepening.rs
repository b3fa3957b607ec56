//! Iterative deepening at the root: each depth's iteration of every line (MultiPV), its aspiration window, and the root moves searched in order.

use std::sync::atomic::Ordering as AtomicOrdering;
use std::time::{Duration, Instant};

use super::multipv;
use super::{gives_check, turn_ended, Limits, SearchInfo, Searcher, INFINITY, MATE, MATE_BOUND};
use crate::ir::PlayerId;
use crate::order::MAX_PLY;
use crate::position::{Move, Position};

/// A line's score and principal variation, as an iteration found them.
type Found = (i32, Option<(i32, Vec<Move>)>);

impl Searcher {
    /// [`Searcher::search_lines`] once the piece-square table is attached.
    pub(super) fn search_lines_tallied(
        &mut self,
        pos: &mut Position,
        limits: Limits,
        lines: usize,
        mut on_iteration: impl FnMut(&[SearchInfo]),
    ) -> Vec<SearchInfo> {
        self.begin(pos, limits);
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
        let mut pace = Pace::default();
        for depth in 1..=max_depth {
            self.progress.depth.store(depth, AtomicOrdering::Relaxed);
            let Some(mut found_lines) = self.iteration(pos, depth, &mut root, &last, &mut best, &mut on_iteration)
            else {
                break;
            };
            multipv::rank(&mut found_lines);
            for (l, line) in last.iter_mut().zip(&found_lines) {
                *l = Some(line.score);
            }
            best = found_lines;
            self.progress.hashfull.store(self.table.per_mille_full(), AtomicOrdering::Relaxed);
            on_iteration(&best);
            pace.iteration_ended(self.start.elapsed());
            if self.deep_enough(&best[0], depth, root.len(), &limits, &pace) {
                break;
            }
        }
        for line in &mut best {
            line.nodes = self.nodes;
            line.elapsed = self.start.elapsed();
        }
        best
    }

    /// Readies the searcher for a search of `pos`: counts, clock, table age, and the sides.
    fn begin(&mut self, pos: &Position, limits: Limits) {
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
    }

    /// One iteration of every line at `depth`, unranked. `None` when the search stopped in it:
    /// `best` then keeps what the stopped iteration found (and is reported, with several lines).
    fn iteration(
        &mut self,
        pos: &mut Position,
        depth: u32,
        root: &mut [Move],
        last: &[Option<i32>],
        best: &mut Vec<SearchInfo>,
        on_iteration: &mut impl FnMut(&[SearchInfo]),
    ) -> Option<Vec<SearchInfo>> {
        let lines = best.len();
        let mut found_lines: Vec<SearchInfo> = Vec::with_capacity(lines);
        for k in 0..lines {
            let (score, found) = if k == 0 {
                // Better moves on the way are shown only in a search of one line: in more,
                // line 1 would be shown twice in one iteration.
                self.aspiration(pos, depth, last[0], root, &mut |info| {
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
                self.keep_after_stop(depth, k, found, found_lines, best, on_iteration);
                return None;
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
        Some(found_lines)
    }

    /// After a stop in line `k` of the iteration of `depth`: a partly searched iteration that
    /// already found a better first move keeps it; with several lines, the lines it finished
    /// go before the older ones, and the result is reported.
    fn keep_after_stop(
        &self,
        depth: u32,
        k: usize,
        found: Option<(i32, Vec<Move>)>,
        found_lines: Vec<SearchInfo>,
        best: &mut Vec<SearchInfo>,
        on_iteration: &mut impl FnMut(&[SearchInfo]),
    ) {
        let lines = best.len();
        let better = found.filter(|(score, pv)| k == 0 && (pv.first() != best[0].pv.first() || *score > best[0].score));
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
            *best = multipv::after_stop(found_lines, first, best, lines);
            on_iteration(best);
        }
    }

    /// Whether the iteration of `depth`, whose best line is `first`, ends the search: a mate it
    /// proved, one legal move when the caller limits time or nodes, or on a clock, when the
    /// next iteration, as long as [`Pace`] expects it, would end more than a quarter past the
    /// target. Iterations grow about twofold, so a search stopped so ends on average near the
    /// target itself; an iteration begun later would mostly be cut by the hard limit.
    fn deep_enough(&self, first: &SearchInfo, depth: u32, root_moves: usize, limits: &Limits, pace: &Pace) -> bool {
        let score = first.score;
        let mate_proved = score.abs() >= MATE_BOUND && (MATE - score.abs()) as u32 <= depth;
        let forced = root_moves == 1 && (limits.depth.is_none() || limits.target.is_some());
        mate_proved || forced || limits.target.is_some_and(|t| pace.next_ends(self.start.elapsed()) > t.mul_f64(1.25))
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
    ) -> Found {
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
    ) -> Found {
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
}

/// The time the iterations of a search took, to tell when the next would end.
#[derive(Default)]
struct Pace {
    /// When the last two iterations ended, the later last.
    ends: [Duration; 2],
    /// How long the last two iterations took, the later last.
    took: [Duration; 2],
}

impl Pace {
    /// Below this an iteration's time says little about the next one's.
    const NOISE: Duration = Duration::from_millis(2);

    fn iteration_ended(&mut self, at: Duration) {
        self.took = [self.took[1], at.saturating_sub(self.ends[1])];
        self.ends = [self.ends[1], at];
    }

    /// When the next iteration would end, begun at `now`: it takes the last one's time times
    /// the last growth from one iteration to the next, held between 1.5 and 4 (2 while the
    /// iterations are too short to time).
    fn next_ends(&self, now: Duration) -> Duration {
        let [before, last] = self.took;
        let growth =
            if before < Self::NOISE { 2.0 } else { (last.as_secs_f64() / before.as_secs_f64()).clamp(1.5, 4.0) };
        now + last.mul_f64(growth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn the_next_iteration_grows_as_the_last_did() {
        let mut pace = Pace::default();
        for end in [1, 11, 41] {
            pace.iteration_ended(ms(end));
        }
        // 10 ms then 30 ms: three times as long again, 90 ms from now.
        assert_eq!(pace.next_ends(ms(41)), ms(131));
        // A sudden tenfold growth is taken as four.
        pace.iteration_ended(ms(341));
        assert_eq!(pace.next_ends(ms(341)), ms(341 + 1200));
        // An iteration shorter than the last still counts one and a half times as long.
        pace.iteration_ended(ms(351));
        assert_eq!(pace.next_ends(ms(351)), ms(351 + 15));
    }

    #[test]
    fn iterations_too_short_to_time_double() {
        let mut pace = Pace::default();
        pace.iteration_ended(Duration::from_micros(300));
        pace.iteration_ended(Duration::from_micros(900));
        assert_eq!(pace.next_ends(ms(1)), ms(1) + Duration::from_micros(1200));
    }
}
