//! Shuffled setups: drawing, from a seed, an arrangement of a `shuffle`'s pieces that keeps its groups' orders and allowed places.
//!
//! Each group in turn takes places at random among the free places it allows (a group of
//! several pieces takes as many places and fills them in its order), so a group's pieces
//! keep their order by construction. Chess960's groups (a bishop on each colour, the queen,
//! two knights, then rook, king, rook) draw each of the 960 starts equally often. A draw
//! that leaves a group without enough places starts again, at most [`ATTEMPTS`] times.

use crate::ir::{PieceTypeId, Shuffle};

/// How many draws are tried before a shuffle is called impossible.
pub const ATTEMPTS: usize = 1000;

/// A 64-bit generator (splitmix64), the same on every machine.
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (n > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The pieces of a shuffle by place (index into each target's cells), drawn from `seed`;
/// `None` if no arrangement was found.
pub fn draw(shuffle: &Shuffle, seed: u64) -> Option<Vec<PieceTypeId>> {
    let places = shuffle.targets.first().map(|(_, cells)| cells.len())?;
    let mut rng = Draw(seed ^ 0x5eed_0f5b_ff1e);
    'attempt: for _ in 0..ATTEMPTS {
        let mut out: Vec<Option<PieceTypeId>> = vec![None; places];
        for g in &shuffle.groups {
            let mut free: Vec<usize> = (0..places)
                .filter(|i| out[*i].is_none())
                .filter(|i| g.allowed.as_ref().is_none_or(|a| a.contains(&(*i as u16))))
                .collect();
            if free.len() < g.pieces.len() {
                continue 'attempt;
            }
            let mut taken = Vec::with_capacity(g.pieces.len());
            for _ in 0..g.pieces.len() {
                taken.push(free.swap_remove(rng.below(free.len())));
            }
            taken.sort_unstable();
            for (place, ty) in taken.into_iter().zip(&g.pieces) {
                out[place] = Some(*ty);
            }
        }
        if out.iter().all(|p| p.is_some()) {
            return Some(out.into_iter().flatten().collect());
        }
    }
    None
}
