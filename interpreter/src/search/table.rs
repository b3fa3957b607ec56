//! The search's tables by Zobrist hash, kept between the searches of one game: the transposition table (scores, bounds and best moves of searched positions) and the cache of static evaluations.

use crate::position::Move;

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true score.
    Exact,
    /// The true score is at least this (the search failed high).
    Lower,
    /// The true score is at most this (the search failed low).
    Upper,
}

/// One searched position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub(crate) key: u64,
    pub(crate) best: Option<Move>,
    pub(crate) score: i32,
    pub(crate) depth: u8,
    pub(crate) bound: Bound,
    /// The search that stored it (older entries give way first).
    generation: u8,
}

/// A fixed-size table, one entry per slot, indexed by the low bits of the hash.
pub(crate) struct Table {
    slots: Vec<Option<Entry>>,
    generation: u8,
}

impl Table {
    /// A table of about `mb` megabytes (a power of two of slots).
    pub(crate) fn new(mb: usize) -> Table {
        let n = (mb.clamp(1, 1 << 16) << 20) / std::mem::size_of::<Option<Entry>>();
        let n = (n.next_power_of_two() / 2).max(1024);
        let mut slots = Vec::with_capacity(n);
        huge_pages(slots.as_ptr() as usize, n * std::mem::size_of::<Option<Entry>>());
        slots.resize(n, None);
        Table { slots, generation: 0 }
    }

    /// Marks the start of a new search: entries of earlier ones are replaced first.
    pub(crate) fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 1)
    }

    /// The entry for a position, if the table holds it.
    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        self.slots[self.slot(key)].filter(|e| e.key == key)
    }

    /// Asks the processor to bring a position's slot into the cache: a slot read cold cost
    /// a sixth of a chess search's time. Called as soon as the position is made, so that the
    /// reading overlaps the work before the probe.
    #[inline]
    pub(crate) fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        #[allow(unsafe_code)]
        {
            let slot: *const Option<Entry> = &self.slots[self.slot(key)];
            // SAFETY: a prefetch only hints the cache; the pointer is to a live slot.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(slot.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Stores a result. An entry of the same search for another position is kept when it is
    /// clearly deeper; a deeper entry for the same position is kept unless the new one is exact.
    pub(crate) fn store(&mut self, key: u64, depth: u32, bound: Bound, score: i32, best: Option<Move>) {
        let i = self.slot(key);
        let depth = depth.min(255) as u8;
        if let Some(old) = self.slots[i] {
            if old.key == key {
                if old.depth > depth && bound != Bound::Exact {
                    return;
                }
            } else if old.generation == self.generation && old.depth > depth.saturating_add(2) {
                return;
            }
        }
        let best = best.or_else(|| self.slots[i].filter(|e| e.key == key).and_then(|e| e.best));
        self.slots[i] = Some(Entry { key, best, score, depth, bound, generation: self.generation });
    }

    /// Per mille of the slots used by the current search (UCI's `hashfull`), from a sample.
    pub(crate) fn per_mille_full(&self) -> u32 {
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample].iter().filter(|e| e.is_some_and(|e| e.generation == self.generation)).count();
        (used * 1000 / sample.max(1)) as u32
    }
}

/// Static evaluations by position hash, one per slot (the latest kept): a position met again,
/// by another order of the same moves or by the next iteration of the deepening, is not
/// evaluated again. The key ([`crate::eval::Evaluator::cache_key`]) holds everything the evaluation reads.
pub(crate) struct EvalCache {
    slots: Vec<Option<(u64, i32)>>,
}

impl EvalCache {
    /// Slots of the cache: 256 KB, small enough to stay in the processor's second-level cache.
    const SLOTS: usize = 1 << 14;

    pub(crate) fn new() -> EvalCache {
        EvalCache { slots: vec![None; Self::SLOTS] }
    }

    /// The evaluation stored for `key`, or `eval()` stored and returned.
    #[inline]
    pub(crate) fn get_or(&mut self, key: u64, eval: impl FnOnce() -> i32) -> i32 {
        let slot = &mut self.slots[key as usize & (Self::SLOTS - 1)];
        match *slot {
            Some((k, v)) if k == key => {
                debug_assert_eq!(v, eval(), "the key holds everything the evaluation reads");
                v
            }
            _ => {
                let v = eval();
                *slot = Some((key, v));
                v
            }
        }
    }
}

/// Asks the kernel to back the table's memory with huge pages before it is first written: a
/// probe lands anywhere in tens of megabytes, and with small pages most probes also missed
/// the address cache (where transparent huge pages are on request only, as by default).
fn huge_pages(start: usize, len: usize) {
    #[cfg(target_os = "linux")]
    #[allow(unsafe_code)]
    {
        const HUGE: usize = 2 << 20;
        let (from, to) = (start.next_multiple_of(HUGE), (start + len) / HUGE * HUGE);
        if to > from {
            // SAFETY: advice on pages of an allocation this table owns; it changes no contents.
            unsafe { libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, len);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cached_evaluation_is_kept_per_key_and_given_way_by_another_key_of_its_slot() {
        let mut cache = EvalCache::new();
        let asked = std::cell::Cell::new(0);
        let seven = || {
            asked.set(asked.get() + 1);
            7
        };
        assert_eq!(cache.get_or(5, seven), 7);
        assert_eq!(cache.get_or(5, seven), 7);
        // Stored: a hit asks again only for the debug build's check.
        assert_eq!(asked.get(), if cfg!(debug_assertions) { 2 } else { 1 });
        // Another key of the same slot replaces it; the first is then evaluated again.
        let other = 5 + EvalCache::SLOTS as u64;
        assert_eq!(cache.get_or(other, || 9), 9);
        assert_eq!(cache.get_or(5, seven), 7);
        assert_eq!(asked.get(), if cfg!(debug_assertions) { 3 } else { 2 });
    }
}
