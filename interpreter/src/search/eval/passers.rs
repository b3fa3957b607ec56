//! The passed-promoter term: a promoting piece whose way to its zone no enemy promoting piece blocks or could reach, weighted by its progress, from masks precomputed per (piece code, cell).

use super::promoters::Promoter;
use crate::ir::CellId;
use crate::position::Position;
use crate::rules::{Piece, Rules};

/// The most promoting piece codes the term follows (more: no term).
const MOST_KINDS: usize = 16;

/// What the passed term reads, derived from the compiled rules: per promoting piece code and
/// cell, its progress and the cells from which an enemy promoting piece would stop it.
#[derive(Clone, Debug, Default)]
pub(super) struct Passers {
    cells: usize,
    /// Per piece code: its index among the promoting codes (`u8::MAX`: it does not promote).
    kind: Vec<u8>,
    /// Per promoting code (by index): the piece code.
    codes: Vec<Piece>,
    /// Per (piece code, cell): progress to the zone in hundredths, `(1 - moves left / most
    /// moves)^2` times the promotion's gain / 800 (0 where it gains nothing or cannot promote).
    progress: Vec<i32>,
    /// Per ((piece code, cell), promoting code): the cells where a piece of that code (an
    /// enemy's) stands in the way (see [`way`]) or could reach a cell of it by its moves and
    /// captures on an open board, one after another (0 for a friendly code).
    stops: Vec<u128>,
    /// Mixed into the cache's keys, so that two evaluations' entries never meet.
    salt: u64,
}

/// Entries of the cache of passed terms, per thread (a power of two).
const CACHE: usize = 4096;

thread_local! {
    // The passed term of two players by the key of their promoting pieces: pawn structures
    // change seldom along a search, and the masks cost a visit to every piece.
    static PASSED: std::cell::RefCell<Vec<(u64, [i32; 2])>> = std::cell::RefCell::new(vec![(0, [0, 0]); CACHE]);
}

/// Numbers the masks built, for [`Passers::salt`].
static BUILT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// A well-mixed 64-bit number from `x` (splitmix64's finaliser).
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

impl Passers {
    /// The masks for boards of up to 128 cells whose ray masks give each piece's reach
    /// (`reach`: per (piece code, cell), the cells it lands on with every cell open to a
    /// capture), without stacks; otherwise none (the term says nothing).
    pub(super) fn new(rules: &Rules, reach: &[u128], promoting: &[(Piece, Promoter)]) -> Option<Passers> {
        let n = rules.cell_count();
        let codes = rules.player_count() * rules.variant.pieces.len() + 1;
        if promoting.iter().all(|(_, p)| p.gain <= 0)
            || promoting.len() > MOST_KINDS
            || reach.len() < codes * n
            || n > 128
            || rules.has_stacks()
        {
            return None;
        }
        let k = promoting.len();
        let mut kind = vec![u8::MAX; codes];
        for (j, (piece, _)) in promoting.iter().enumerate() {
            kind[piece.0 as usize] = j as u8;
        }
        // Per promoting code and cell: every cell it could come to, move after move.
        let closure: Vec<Vec<u128>> =
            promoting.iter().map(|(piece, _)| (0..n).map(|g| closure(reach, *piece, g, n)).collect()).collect();
        let mut progress = vec![0; codes * n];
        let mut stops = vec![0u128; codes * n * k];
        for (piece, p) in promoting.iter().filter(|(_, p)| p.gain > 0) {
            let most = p.dist.iter().flatten().copied().max().unwrap_or(0).max(1) as f64;
            let owner = rules.owner(*piece);
            for c in 0..n {
                let Some(d) = p.dist[c].filter(|&d| d > 0) else { continue };
                let x = 1.0 - d as f64 / most;
                let at = piece.0 as usize * n + c;
                progress[at] = (100.0 * x * x * p.gain as f64 / 800.0).round() as i32;
                let way = way(p, c);
                for (j, (enemy, _)) in promoting.iter().enumerate() {
                    if rules.allied(rules.owner(*enemy), owner) {
                        continue;
                    }
                    stops[at * k + j] = (0..n).filter(|&g| closure[j][g] & way != 0).fold(0u128, |m, g| m | 1u128 << g);
                }
            }
        }
        let codes = promoting.iter().map(|(piece, _)| *piece).collect();
        let salt = mix(BUILT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)) | 1;
        Some(Passers { cells: n, kind, codes, progress, stops, salt })
    }

    /// A piece's key at a cell, by its index in (piece code, cell): a number of 64 bits for a
    /// promoting piece, 0 for the others. A position's key is their sum over its pieces.
    pub(super) fn key(&self, at: usize) -> u64 {
        match self.kind.get(at / self.cells.max(1)) {
            Some(&j) if j != u8::MAX => mix(at as u64 ^ 0x5a5a_0000_0000),
            _ => 0,
        }
    }

    /// The passed term of two players, from the cache where `key` (the sum of the promoting
    /// pieces' keys) is found there, else computed and kept.
    pub(super) fn cached(&self, pos: &Position, key: u64) -> [i32; 2] {
        let key = key ^ self.salt;
        PASSED.with_borrow_mut(|cache| {
            let slot = &mut cache[(key as usize) & (CACHE - 1)];
            if slot.0 != key {
                let mut out = [0; 2];
                self.feature(pos, &mut out);
                *slot = (key, out);
            }
            slot.1
        })
    }

    /// Per player (up to `out`'s length): the progress of its passed promoters, in hundredths.
    pub(super) fn feature(&self, pos: &Position, out: &mut [i32]) {
        let st = &pos.st;
        let k = self.codes.len();
        let mut occ = [0u128; MOST_KINDS];
        for set in &st.occupied {
            for (w, &word) in set.words().iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let c = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let j = self.kind[st.cells[c].0 as usize];
                    if j != u8::MAX {
                        occ[j as usize] |= 1u128 << c;
                    }
                }
            }
        }
        let rules = &**pos.rules();
        for (j, piece) in self.codes.iter().enumerate() {
            let mut bits = occ[j];
            let owner = rules.owner(*piece).0 as usize;
            while bits != 0 {
                let c = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let at = piece.0 as usize * self.cells + c;
                let gain = self.progress[at];
                if gain == 0 {
                    continue;
                }
                let stops = &self.stops[at * k..at * k + k];
                if stops.iter().zip(&occ[..k]).all(|(s, o)| s & o == 0) {
                    if let Some(o) = out.get_mut(owner) {
                        *o += gain;
                    }
                }
            }
        }
    }
}

/// The cells a piece could come to from `from` on an open board, move after move (with
/// `from`).
fn closure(reach: &[u128], piece: Piece, from: usize, n: usize) -> u128 {
    let mut seen = 1u128 << from;
    let mut todo = seen;
    while todo != 0 {
        let c = todo.trailing_zeros() as usize;
        todo &= todo - 1;
        let next = reach[piece.0 as usize * n + c] & !seen;
        seen |= next;
        todo |= next;
    }
    seen
}

/// A promoter's way to its zone from `from`: the cells its moves on the empty board land on,
/// each no farther from the zone than the cell it leaves, move after move (a chess pawn's
/// double step leaves its zone as far as its single step does, which the way then holds).
fn way(p: &Promoter, from: usize) -> u128 {
    let mut way = 0u128;
    let mut todo = vec![CellId(from as u16)];
    while let Some(at) = todo.pop() {
        let d = p.dist[at.0 as usize];
        for t in &p.targets[at.0 as usize] {
            let bit = 1u128 << t.0;
            if way & bit == 0 && t.0 as usize != from && p.dist[t.0 as usize].is_some() && p.dist[t.0 as usize] <= d {
                way |= bit;
                todo.push(*t);
            }
        }
    }
    way
}
