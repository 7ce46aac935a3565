//! The transposition table of the exact solver.
//!
//! Every search of the solver runs to the end of the game, so what it learns about a position
//! does not depend on a search depth: an entry keeps a lower and an upper bound of the position's
//! exact value and the move that proved the better one. A table is shared between threads: each
//! entry is one `AtomicU64` (key, bounds, move and work in one word), so a reader never sees half
//! of a write and no lock is needed.
//!
//! Entries live in buckets of four (one 32-byte run, in one cache line); a new entry replaces the
//! one in its bucket that stands for the least work, counted as the marbles still on edge spaces.
//! The table is on huge pages where the system allows it, and the solver asks for an entry
//! ([`Table::prefetch`]) a little before it reads it: most reads miss every cache.

use mabula::Move;
use std::sync::atomic::{AtomicU64, Ordering};

/// Entries per bucket.
const WAYS: usize = 4;

/// What the table knows about a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The value is at least this.
    pub lo: i32,
    /// The value is at most this.
    pub hi: i32,
    /// The move that gave the best value found (may be [`Move::PASS`]).
    pub best: Move,
}

/// A lock-free table of [`Bounds`], keyed by a 64-bit hash.
pub struct Table {
    entries: Vec<AtomicU64>,
    /// Number of buckets minus one (a power of two minus one).
    mask: u64,
}

impl Table {
    /// Whether the machine gives a table of `megabytes` now: the memory is asked for and given
    /// back untouched. A size it cannot give is then a clear error where the size is chosen
    /// (`--table-mb`, `set_option table_mb`), not an abort in the middle of a search.
    pub fn fits(megabytes: usize) -> bool {
        let Some(bytes) = megabytes.max(1).checked_mul(1 << 20) else {
            return false;
        };
        Vec::<u64>::new().try_reserve_exact(bytes / 8).is_ok()
    }

    /// A table of at most `megabytes` MB (at least one bucket).
    pub fn new(megabytes: usize) -> Table {
        let bytes = megabytes.max(1) << 20;
        let buckets = (bytes / (8 * WAYS)).next_power_of_two() >> 1;
        let buckets = buckets.max(1);
        Table {
            entries: crate::mem::zeroed_words(buckets * WAYS),
            mask: buckets as u64 - 1,
        }
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.entries.len() * 8
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for e in &self.entries {
            e.store(0, Ordering::Relaxed);
        }
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &[AtomicU64] {
        let start = (key & self.mask) as usize * WAYS;
        &self.entries[start..start + WAYS]
    }

    /// The bounds stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Bounds> {
        let check = (key >> 32) as u32;
        for e in self.bucket(key) {
            let word = e.load(Ordering::Relaxed);
            if word >> 56 != 0 && word as u32 == check {
                return Some(unpack(word));
            }
        }
        None
    }

    /// Starts loading the bucket of `key` into the cache, for a probe soon after.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        crate::mem::prefetch(&self.bucket(key)[0]);
    }

    /// Stores bounds for `key`; `work` (1 to 255) ranks entries for replacement.
    #[inline]
    pub fn store(&self, key: u64, bounds: Bounds, work: u8) {
        let check = (key >> 32) as u32;
        let word = u64::from(check)
            | u64::from(bounds.lo.clamp(-127, 127) as i8 as u8) << 32
            | u64::from(bounds.hi.clamp(-127, 127) as i8 as u8) << 40
            | u64::from(bounds.best.code()) << 48
            | u64::from(work.max(1)) << 56;
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut least = u64::MAX;
        for (i, e) in bucket.iter().enumerate() {
            let old = e.load(Ordering::Relaxed);
            if old >> 56 == 0 || old as u32 == check {
                victim = i;
                break;
            }
            if old >> 56 < least {
                least = old >> 56;
                victim = i;
            }
        }
        bucket[victim].store(word, Ordering::Relaxed);
    }
}

fn unpack(word: u64) -> Bounds {
    Bounds {
        lo: i32::from((word >> 32) as u8 as i8),
        hi: i32::from((word >> 40) as u8 as i8),
        best: Move::from_code((word >> 48) as u8).unwrap_or(Move::PASS),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_bounds_come_back_and_other_keys_miss() {
        let table = Table::new(1);
        let mv: Move = "b1-b4".parse().expect("a move");
        table.store(
            0xdead_beef_0000_0011,
            Bounds {
                lo: -3,
                hi: 81,
                best: mv,
            },
            7,
        );
        assert_eq!(
            table.probe(0xdead_beef_0000_0011),
            Some(Bounds {
                lo: -3,
                hi: 81,
                best: mv
            })
        );
        assert_eq!(table.probe(0xdead_beee_0000_0011), None);
        table.clear();
        assert_eq!(table.probe(0xdead_beef_0000_0011), None);
    }

    #[test]
    fn a_full_bucket_gives_up_its_least_valuable_entry() {
        let table = Table::new(1);
        let b = Bounds {
            lo: 0,
            hi: 0,
            best: Move::PASS,
        };
        let keys: Vec<u64> = (1..=5).map(|i: u64| (i << 40) | 3).collect();
        for (i, &k) in keys.iter().enumerate() {
            table.store(k, b, 10 - i as u8);
        }
        assert!(table.probe(keys[0]).is_some());
        assert!(
            table.probe(keys[3]).is_none(),
            "the entry with the least work was replaced"
        );
        assert!(table.probe(keys[4]).is_some());
    }
}
