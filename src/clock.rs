//! A move's time from a game clock (what is left, the increment, the moves to the next control), as UCI and XBoard send them: a target the move should take and a limit it never passes.

use std::time::Duration;

/// Kept back on every move for what the search does not see: writing the move, the GUI
/// reading it, the process being scheduled on a loaded machine.
const OVERHEAD_MS: u64 = 50;
/// Moves assumed left in a game without a control ahead (sudden death, or an increment).
const MOVES_LEFT: u64 = 30;

/// The time for one move: `target` is what it should take on average, `limit` the most it may.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveTime {
    pub target: Duration,
    pub limit: Duration,
}

/// The time for the next move with `left_ms` on the clock, `inc_ms` added after each move and
/// `moves_to_go` moves before the clock is filled again (`None`: never, sudden death).
///
/// A twentieth of the clock and [`OVERHEAD_MS`] are never spent, so even the last move before
/// a control ends in time. The target is an equal share of the rest over the moves to go, plus
/// most of the increment; the limit lets a move run to four targets (a search that has not
/// settled) but never past an equal share of what is usable over the next moves, up to four
/// (all of it for the last move before a control): a clock run low keeps a reserve for a
/// machine that delays a move.
pub fn move_time(left_ms: u64, inc_ms: u64, moves_to_go: Option<u64>) -> MoveTime {
    let usable = left_ms.saturating_sub(OVERHEAD_MS + left_ms / 20);
    let to_go = moves_to_go.unwrap_or(MOVES_LEFT).clamp(1, MOVES_LEFT * 2);
    let cap = usable / to_go.min(4);
    let target = (usable / to_go + inc_ms * 3 / 4).min(cap);
    let limit = (target * 4).min(cap);
    MoveTime { target: Duration::from_millis(target.max(1)), limit: Duration::from_millis(limit.max(1)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays `moves` moves each taking its whole limit (`worst`) or its target: the clock never
    /// runs out, and it is given back `inc_ms` a move and refilled every `control` moves.
    /// Returns the least time left after a move.
    fn play(start_ms: u64, inc_ms: u64, control: Option<u64>, moves: u64, worst: bool) -> u64 {
        let mut left = start_ms;
        let mut least = left;
        for m in 0..moves {
            let to_go = control.map(|c| c - m % c);
            let t = move_time(left, inc_ms, to_go);
            assert!(t.target <= t.limit, "{t:?}");
            let spent = if worst { t.limit } else { t.target }.as_millis() as u64;
            assert!(spent < left.max(1), "move {m}: {spent} ms spent with {left} ms left");
            left = left - spent + inc_ms;
            if control.is_some_and(|c| (m + 1) % c == 0) {
                left += start_ms;
            }
            least = least.min(left);
        }
        least
    }

    #[test]
    fn never_flags_even_when_every_move_takes_its_limit() {
        // 40 moves in 20 s: the last move before the control still has time left over.
        assert!(play(20_000, 0, Some(40), 200, true) >= OVERHEAD_MS);
        // 10 s + 0.1 s, over a long game.
        assert!(play(10_000, 100, None, 300, true) >= OVERHEAD_MS);
        // Sudden death: moves that keep to their targets last a long game (each taking its
        // limit would spend all but the overhead, a millisecond a move, within 100 moves).
        assert!(play(60_000, 0, None, 150, false) >= OVERHEAD_MS * 4);
        // A clock nearly out still gives a move some time.
        assert_eq!(move_time(0, 0, None).target, Duration::from_millis(1));
    }

    #[test]
    fn shares_the_clock_over_the_moves_to_go() {
        let t = move_time(20_000, 0, Some(40));
        // 20 s less a twentieth and the overhead, over 40 moves.
        assert_eq!(t.target, Duration::from_millis((20_000 - 1_050) / 40));
        assert_eq!(t.limit, t.target * 4);
        // The last move before the control may use what is usable.
        let last = move_time(2_000, 0, Some(1));
        assert_eq!(last.target, Duration::from_millis(2_000 - 150));
        assert_eq!(last.limit, last.target);
        // An increment adds most of itself.
        let inc = move_time(10_000, 1_000, None);
        assert_eq!(inc.target, Duration::from_millis((10_000 - 550) / 30 + 750));
        // A low clock keeps most of itself: at most a quarter of what is usable.
        let low = move_time(400, 100, None);
        assert_eq!(low.limit, Duration::from_millis((400 - 70) / 4));
    }
}
