//! MultiPV bookkeeping: an iteration's lines ranked best first, and the lines a stopped iteration leaves, each first move once.

use super::SearchInfo;

/// Ranks a finished iteration's lines best first. Line k searched the root without the first
/// moves of lines 1 to k-1, so its score should be no higher than theirs; where the search says
/// otherwise (a different window, the table's entries) the higher score comes first.
pub(crate) fn rank(lines: &mut [SearchInfo]) {
    // A stable sort: equal scores keep the order in which they were found.
    lines.sort_by_key(|l| std::cmp::Reverse(l.score));
}

/// The lines of an iteration stopped part way: the lines it finished (`done`, ranked), then,
/// when it stopped in its first line, that line's better move found on the way (`first`),
/// then the last finished iteration's lines (`before`) whose first moves are not among them,
/// at most `count` in all. So no first move is shown twice, and the best move is the
/// deepest one known.
pub(crate) fn after_stop(
    mut done: Vec<SearchInfo>,
    first: Option<SearchInfo>,
    before: &[SearchInfo],
    count: usize,
) -> Vec<SearchInfo> {
    rank(&mut done);
    done.extend(first);
    for line in before {
        if done.len() >= count {
            break;
        }
        if !done.iter().any(|d| d.best() == line.best()) {
            done.push(line.clone());
        }
    }
    done
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::CellId;
    use crate::Move;
    use std::time::Duration;

    fn line(depth: u32, score: i32, to: u16) -> SearchInfo {
        let mv = Move { to: CellId(to), ..Move::end_turn() };
        SearchInfo { depth, score, pv: vec![mv], nodes: 0, elapsed: Duration::ZERO, partial: false }
    }

    #[test]
    fn a_later_line_that_scores_higher_is_ranked_first() {
        let mut lines = vec![line(3, 10, 1), line(3, 25, 2), line(3, 10, 3)];
        rank(&mut lines);
        let order: Vec<(i32, u16)> = lines.iter().map(|l| (l.score, l.pv[0].to.0)).collect();
        assert_eq!(order, [(25, 2), (10, 1), (10, 3)]);
    }

    #[test]
    fn a_stopped_iteration_shows_each_first_move_once() {
        let before = vec![line(4, 30, 1), line(4, 20, 2), line(4, 10, 3)];
        // Stopped in line 1, which had found move 2 better at depth 5.
        let first = line(5, 40, 2);
        let lines = after_stop(Vec::new(), Some(first), &before, 3);
        let shown: Vec<(u32, u16)> = lines.iter().map(|l| (l.depth, l.pv[0].to.0)).collect();
        assert_eq!(shown, [(5, 2), (4, 1), (4, 3)]);
        // Stopped in line 3: lines 1 and 2 of depth 5 stand, then depth 4's other move.
        let done = vec![line(5, 35, 3), line(5, 33, 1)];
        let lines = after_stop(done, None, &before, 3);
        let shown: Vec<(u32, u16)> = lines.iter().map(|l| (l.depth, l.pv[0].to.0)).collect();
        assert_eq!(shown, [(5, 3), (5, 1), (4, 2)]);
    }
}
