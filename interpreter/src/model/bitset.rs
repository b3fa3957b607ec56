//! A fixed-size set of cells stored as 64-bit words, for boards of any size.

use crate::ir::CellId;

/// A set of cells; the size is fixed when created so updates never allocate.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CellSet {
    words: Vec<u64>,
}

impl CellSet {
    /// An empty set able to hold `cells` cells.
    pub fn new(cells: usize) -> CellSet {
        CellSet { words: vec![0; cells.div_ceil(64).max(1)] }
    }

    /// Adds a cell.
    #[inline]
    pub fn insert(&mut self, c: CellId) {
        self.words[c.0 as usize >> 6] |= 1u64 << (c.0 & 63);
    }

    /// Removes a cell.
    #[inline]
    pub fn remove(&mut self, c: CellId) {
        self.words[c.0 as usize >> 6] &= !(1u64 << (c.0 & 63));
    }

    /// Whether the set holds the cell.
    #[inline]
    pub fn contains(&self, c: CellId) -> bool {
        self.words[c.0 as usize >> 6] & (1u64 << (c.0 & 63)) != 0
    }

    /// Number of cells in the set.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|w| *w == 0)
    }

    /// The raw words (for iteration without borrowing the set).
    #[inline]
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// The cells in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = CellId> + '_ {
        self.words.iter().enumerate().flat_map(|(i, w)| {
            let mut w = *w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros();
                w &= w - 1;
                Some(CellId((i as u32 * 64 + b) as u16))
            })
        })
    }
}
