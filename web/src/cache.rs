//! The compiled-rules cache, bounded by an estimate of the memory its entries hold.
//!
//! Compiled rules are dominated by their ray tables, whose size is the variant's compile work
//! (`varia_interpreter::limits::compile_work`, at most `MAX_COMPILE_WORK` ray cells): each ray
//! cell costs a cell id in a ray, a cell id and a type mask in the attack probes and a share of
//! an entry. [`estimate`] counts [`BYTES_PER_RAY_CELL`] for each, plus the text (kept as the key
//! and inside the IR) and a fixed share for the IR's other tables. It errs on the large side:
//! `varia check` on boards near the limit shows 3 to 8 bytes of resident memory per ray cell.

use std::sync::Arc;

use varia_interpreter::Rules;

/// The estimated bytes of compiled tables per ray cell of compile work.
pub const BYTES_PER_RAY_CELL: usize = 12;

/// What a cache entry is keyed by: the format and the text.
pub type Key = (String, String);

/// The estimated memory of the compiled rules of `source`.
pub fn estimate(rules: &Rules, source: &str) -> usize {
    let work = varia_interpreter::limits::compile_work(&rules.variant).unwrap_or(u64::MAX);
    let tables = usize::try_from(work).unwrap_or(usize::MAX).saturating_mul(BYTES_PER_RAY_CELL);
    let variant = rules.variant.board.cells.len().saturating_mul(256);
    tables.saturating_add(variant).saturating_add(source.len().saturating_mul(2)).saturating_add(64 * 1024)
}

/// Compiled rules by text, least recently used first out when their estimated size passes the
/// bound.
pub struct RulesCache {
    entries: lru::LruCache<Key, (Arc<Rules>, usize)>,
    bytes: usize,
    limit: usize,
}

impl RulesCache {
    /// An empty cache holding at most `limit` estimated bytes.
    pub fn new(limit: usize) -> RulesCache {
        RulesCache { entries: lru::LruCache::unbounded(), bytes: 0, limit }
    }

    /// The rules compiled from a text, marked as just used.
    pub fn get(&mut self, key: &Key) -> Option<Arc<Rules>> {
        self.entries.get(key).map(|(rules, _)| rules.clone())
    }

    /// Keeps `rules`, dropping the least recently used entries until the estimate fits; an entry
    /// larger than the whole bound is not kept.
    pub fn insert(&mut self, key: Key, rules: Arc<Rules>) {
        let size = estimate(&rules, &key.1);
        if size > self.limit {
            return;
        }
        if let Some((_, (_, old))) = self.entries.push(key, (rules, size)) {
            self.bytes -= old;
        }
        self.bytes += size;
        while self.bytes > self.limit {
            match self.entries.pop_lru() {
                Some((_, (_, dropped))) => self.bytes -= dropped,
                None => break,
            }
        }
    }

    /// The estimated bytes held.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The number of texts held.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether nothing is held.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chess(title: &str) -> (Key, Arc<Rules>) {
        let text =
            include_str!("../../variants/chess.var").replace("variant \"Chess\"", &format!("variant \"{title}\""));
        let rules = Arc::new(Rules::new(varia_grammar::load(&text).expect("chess loads")));
        (("var".to_string(), text), rules)
    }

    #[test]
    fn the_cache_keeps_to_its_bound_dropping_the_least_recently_used() {
        let (key, rules) = chess("A");
        let one = estimate(&rules, &key.1);
        assert!(one > 64 * 1024 && one < 1024 * 1024, "{one}");
        let mut cache = RulesCache::new(3 * one + one / 2);
        cache.insert(key.clone(), rules);
        for title in ["B", "C"] {
            let (k, r) = chess(title);
            cache.insert(k, r);
        }
        assert_eq!(cache.len(), 3);
        // Using A makes B the least recently used: D pushes B out.
        assert!(cache.get(&key).is_some());
        let (d, r) = chess("D");
        cache.insert(d.clone(), r);
        assert_eq!(cache.len(), 3);
        assert!(cache.bytes() <= 3 * one + one / 2);
        assert!(cache.get(&chess("B").0).is_none());
        assert!(cache.get(&key).is_some() && cache.get(&d).is_some() && cache.get(&chess("C").0).is_some());
        // An entry larger than the whole bound is not kept.
        let mut tiny = RulesCache::new(one / 2);
        let (k, r) = chess("E");
        tiny.insert(k, r);
        assert!(tiny.is_empty());
    }
}
