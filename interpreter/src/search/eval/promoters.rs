//! What the runaway term reads of the promoting pieces: each one's moves to its zone on the empty board, its promotion's gain, and which pieces could stop it.

use crate::ir::{CellId, PieceTypeId};
use crate::rules::{Piece, Rules};

/// What the runaway term knows of one piece code that promotes.
#[derive(Clone, Debug)]
pub(super) struct Promoter {
    /// Per cell: its moves to the promotion zone on the empty board (0 inside it).
    pub(super) dist: Vec<Option<u32>>,
    /// Per cell: the cells it reaches in one move on the empty board.
    pub(super) targets: Vec<Vec<CellId>>,
    /// The value its best promotion adds, in centipawns (untuned values).
    pub(super) gain: i32,
}

/// Per piece code: how it promotes (`None`: it does not), and whether it could stop an enemy
/// promoter other than by the royal's walk (every non-royal piece that does not promote).
#[derive(Clone, Debug, Default)]
pub(super) struct Runaways {
    pub(super) promoters: Vec<Option<Promoter>>,
    pub(super) stoppers: Vec<bool>,
    /// The most material (untuned values) of promoting pieces a player's setup holds: a player
    /// with more has a piece that could stop a runaway, which spares the look at its pieces in
    /// the middle game.
    pub(super) most_promoting: i64,
}

impl Runaways {
    /// From the per-(player, type) promotion distances and targets the evaluation computed.
    pub(super) fn new(rules: &Rules, values: &[i32], promoting: Vec<(Piece, Promoter)>) -> Runaways {
        let codes = rules.player_count() * rules.variant.pieces.len() + 1;
        let mut promoters = vec![None; codes];
        let mut stoppers: Vec<bool> = (0..codes)
            .map(|code| code > 0 && !rules.variant.pieces[rules.type_of(Piece(code as u16)).0 as usize].royal)
            .collect();
        for (piece, p) in promoting {
            stoppers[piece.0 as usize] = false;
            if p.gain > 0 {
                promoters[piece.0 as usize] = Some(p);
            }
        }
        let promotes = |t: PieceTypeId| rules.variant.pieces[t.0 as usize].promotions().next().is_some();
        let mut held = vec![0i64; rules.player_count()];
        let placed = rules.variant.setup.placements.iter().flat_map(|(_, stack)| stack.iter().copied());
        let shuffled = rules.variant.setup.shuffles.iter().flat_map(|s| {
            s.targets
                .iter()
                .flat_map(|(player, _)| s.groups.iter().flat_map(|g| g.pieces.iter().map(|t| (*player, *t))))
        });
        for (player, t) in placed.chain(shuffled).filter(|(_, t)| promotes(*t)) {
            held[player.0 as usize] += values[t.0 as usize] as i64;
        }
        Runaways { promoters, stoppers, most_promoting: held.into_iter().max().unwrap_or(0) }
    }
}

/// Per cell: moves a piece needs to reach its promotion zone on the empty board (0 inside it),
/// `None` where it cannot.
pub(super) fn promotion_distances(targets: &[Vec<CellId>], zone: impl Fn(CellId) -> bool) -> Vec<Option<u32>> {
    let n = targets.len();
    let mut back: Vec<Vec<CellId>> = vec![Vec::new(); n];
    for (c, ts) in targets.iter().enumerate() {
        for t in ts {
            back[t.0 as usize].push(CellId(c as u16));
        }
    }
    let mut dist = vec![None; n];
    let mut queue = Vec::new();
    for (c, d) in dist.iter_mut().enumerate() {
        if zone(CellId(c as u16)) {
            *d = Some(0);
            queue.push(CellId(c as u16));
        }
    }
    let mut head = 0;
    while head < queue.len() {
        let at = queue[head];
        head += 1;
        let next = dist[at.0 as usize].map_or(0, |d| d + 1);
        for &b in &back[at.0 as usize] {
            if dist[b.0 as usize].is_none() {
                dist[b.0 as usize] = Some(next);
                queue.push(b);
            }
        }
    }
    dist
}
