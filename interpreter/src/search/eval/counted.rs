//! The evaluation's counted terms of one player (shelter, danger, mobility, reserve, owned squares, crowding, castling and the royal terms), and their weighed sum at a leaf.

use super::{
    Evaluator, CASTLE, CROWD, DANGER, HAND_DROPS, MOBILITY, OPEN_LINES, OWNED, RESERVE, ROYAL_ATTACK, ROYAL_ZONE,
    SHELTER, TERM_COUNT,
};
use crate::bitset::CellSet;
use crate::ir::{CellId, PlayerId};
use crate::position::Position;

impl Evaluator {
    /// One player's counted terms times their weights, [mg, eg]: [`Evaluator::extra_features`]
    /// weighed, counting only the terms that may weigh (this runs at every leaf).
    pub(super) fn weighed_terms(&self, pos: &Position, player: PlayerId) -> [i64; 2] {
        let [shelter, danger] = self.royal_neighbourhood(pos, player).map(i64::from);
        let mut sum = [0, 1].map(|s| self.term[SHELTER][s] as i64 * shelter + self.term[DANGER][s] as i64 * danger);
        for &i in &self.weighed {
            let f = self.extra_feature(pos, player, i) as i64;
            sum[0] += self.term[i][0] as i64 * f;
            sum[1] += self.term[i][1] as i64 * f;
        }
        sum
    }

    /// The shelter and danger terms: the player's own pieces next to each of its royal pieces,
    /// and enemy pieces within two steps of them.
    fn royal_neighbourhood(&self, pos: &Position, player: PlayerId) -> [i32; 2] {
        let own = pos.occupied_by(player);
        let [mut shelter, mut danger] = [0, 0];
        let royals = pos.st.royals[player.0 as usize].words();
        if let [word] = royals {
            // A board of one word (up to 64 cells, most games): the sets read as integers.
            let mut bits = *word;
            while bits != 0 {
                let royal = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                shelter += (self.near1[royal].words()[0] & own.words()[0]).count_ones() as i32 - 1;
                let near = self.near2[royal].words()[0];
                for q in &self.enemies[player.0 as usize] {
                    danger += (near & pos.occupied_by(*q).words()[0]).count_ones() as i32;
                }
            }
            return [shelter, danger];
        }
        // The royal cells word by word: this runs for every player at every leaf.
        for (w, &word) in royals.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let royal = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                shelter += common(&self.near1[royal], own) as i32 - 1;
                for q in &self.enemies[player.0 as usize] {
                    danger += common(&self.near2[royal], pos.occupied_by(*q)) as i32;
                }
            }
        }
        [shelter, danger]
    }

    /// The counted features of one player besides the tables: shelter, danger, open lines, the
    /// royal zone, mobility, reserve, owned squares, crowding (indexed like [`TERMS`]; table
    /// terms and tempo are 0). Open lines, the royal zone and mobility cost attack tests or move
    /// generation: they are counted only where weighed.
    pub(super) fn extra_features(&self, pos: &Position, player: PlayerId) -> [i32; TERM_COUNT] {
        let mut f = [0i32; TERM_COUNT];
        [f[SHELTER], f[DANGER]] = self.royal_neighbourhood(pos, player);
        for i in [RESERVE, OWNED, CROWD, CASTLE] {
            f[i] = self.extra_feature(pos, player, i);
        }
        for i in [OPEN_LINES, ROYAL_ZONE, ROYAL_ATTACK, MOBILITY, HAND_DROPS] {
            if self.term[i] != [0, 0] {
                f[i] = self.extra_feature(pos, player, i);
            }
        }
        f
    }

    /// One counted term of one player (see [`Evaluator::extra_features`]).
    fn extra_feature(&self, pos: &Position, player: PlayerId, term: usize) -> i32 {
        let r = &**pos.rules();
        match term {
            OPEN_LINES => self.open_lines(pos, player),
            ROYAL_ZONE => self.royal_zone(pos, player),
            CASTLE => self.castle_feature(pos, player),
            ROYAL_ATTACK => self.royal_attack(pos, player),
            MOBILITY => self.mobility(pos, player),
            HAND_DROPS => self.hand_drops(pos, player),
            RESERVE => match &r.variant.squares {
                Some(sq) if sq.reserve.is_some() => pos.reserve(player).unwrap_or(0).min(1000) as i32,
                _ => 0,
            },
            OWNED if r.has_square_play() && r.variant.squares.as_ref().is_some_and(|s| s.owned) => {
                (0..r.cell_count()).filter(|&c| pos.square_owner(CellId(c as u16)) == Some(player)).count() as i32
            }
            CROWD if r.has_stacks() => {
                let mut crowd = 0;
                for c in pos.occupied_by(player).iter() {
                    let mine = pos.pieces_at(c).iter().filter(|q| r.owner(**q) == player).count();
                    if mine >= 2 {
                        crowd += mine as i32;
                    }
                }
                crowd
            }
            _ => 0,
        }
    }

    /// The number of pseudo-legal piece moves a player has.
    pub(super) fn mobility(&self, pos: &Position, player: PlayerId) -> i32 {
        thread_local! {
            // Scratch for the moves the count generates rather than reads from masks: no
            // allocation per leaf.
            static MOVES: std::cell::RefCell<Vec<crate::position::Move>> = const { std::cell::RefCell::new(Vec::new()) };
        }
        MOVES.with_borrow_mut(|moves| pos.pseudo_legal_move_count(player, moves).min(i32::MAX as usize) as i32)
    }
}

/// How many cells two sets share.
pub(super) fn common(a: &CellSet, b: &CellSet) -> u32 {
    a.words().iter().zip(b.words()).map(|(x, y)| (x & y).count_ones()).sum()
}
