//! The runaway term: a promoting piece whose way to its zone is clear and that the enemy royal cannot reach in time (the rule of the square, read from the compiled moves and zones), when the enemy has nothing else to stop it.

use super::geometry::Cornering;
use super::promoters::Promoter;
use super::Evaluator;
use crate::ir::{CellId, PlayerId};
use crate::position::Position;

impl Evaluator {
    /// The runaway feature from `me`'s view in a game of two players without hands: the gain
    /// of the fastest promotion no enemy can stop, when only one side has such a piece, in
    /// centipawns (positive when it is `me`'s).
    pub(super) fn runaway_feature(&self, pos: &Position, me: PlayerId, material: &[i64; 2]) -> i32 {
        let Some(k) = &self.cornering else { return 0 };
        if pos.rules().player_count() != 2 || self.holds_hands {
            return 0;
        }
        // A player whose enemy holds more than promoting pieces can hold has no runaway.
        let fastest = |p: u8| {
            let enemy = 1 - p as usize;
            (material[enemy] <= self.runaways.most_promoting).then(|| self.fastest_runaway(pos, k, PlayerId(p)))?
        };
        let f = match (fastest(0), fastest(1)) {
            (Some(g), None) => g,
            (None, Some(g)) => -g,
            _ => return 0,
        };
        if me.0 == 0 {
            f
        } else {
            -f
        }
    }

    /// The gain of `player`'s runaway that promotes first, if it has one.
    fn fastest_runaway(&self, pos: &Position, k: &Cornering, player: PlayerId) -> Option<i32> {
        let enemy = PlayerId(1 - player.0);
        let r = &self.runaways;
        if pos.occupied_by(enemy).iter().any(|c| pos.pieces_at(c).iter().any(|q| r.stoppers[q.0 as usize])) {
            return None;
        }
        let royals: Vec<usize> = pos.royal_cells(enemy).map(|c| c.0 as usize).collect();
        if royals.is_empty() {
            return None;
        }
        // The enemy moving first has a step more to catch it.
        let head_start = u32::from(pos.side_to_move() == enemy);
        let mut best: Option<(u32, i32)> = None;
        for c in pos.occupied_by(player).iter() {
            for q in pos.pieces_at(c) {
                let Some(p) = r.promoters.get(q.0 as usize).and_then(|p| p.as_ref()) else { continue };
                let Some((moves, zone)) = clear_way(pos, p, c) else { continue };
                let catch = royals.iter().map(|&royal| k.steps[royal * k.cells + zone.0 as usize] as u32).min();
                if catch.is_some_and(|steps| steps > moves + head_start) && best.is_none_or(|(m, _)| moves < m) {
                    best = Some((moves, p.gain));
                }
            }
        }
        best.map(|(_, gain)| gain)
    }
}

/// The moves from `from` to the zone along a way of empty cells, each move one nearer, and the
/// zone cell reached; `None` when it stands in the zone or every way is blocked at some step.
fn clear_way(pos: &Position, p: &Promoter, from: CellId) -> Option<(u32, CellId)> {
    let moves = p.dist[from.0 as usize].filter(|&d| d > 0)?;
    let mut at = from;
    for left in (0..moves).rev() {
        at = *p.targets[at.0 as usize]
            .iter()
            .find(|t| p.dist[t.0 as usize] == Some(left) && pos.has_square(**t) && pos.pieces_at(**t).is_empty())?;
    }
    Some((moves, at))
}
