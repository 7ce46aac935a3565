//! A small, fast, seedable random number generator for playouts and move noise.
//!
//! Playouts draw tens of millions of numbers per second, so the generator must be tiny and
//! inlineable; it is defined here (wyrand) so that seeded searches replay identically whatever
//! version of a dependency is installed.

/// The wyrand generator: 64 bits of state, one multiply per number.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator from a seed; equal seeds give equal sequences.
    pub fn new(seed: u64) -> Rng {
        let mut rng = Rng {
            state: seed ^ 0x853c_49e6_748f_ea9b,
        };
        rng.next_u64();
        rng
    }

    /// The next 64 random bits.
    #[inline(always)]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0xa076_1d64_78bd_642f);
        let t = u128::from(self.state) * u128::from(self.state ^ 0xe703_7ed1_a0b4_28db);
        (t >> 64) as u64 ^ t as u64
    }

    /// The next 32 random bits.
    #[inline(always)]
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// A number in `0..n` (`n > 0`), by multiply-shift; the bias is below 2^-32.
    #[inline(always)]
    pub fn below(&mut self, n: u32) -> u32 {
        (((self.next_u64() >> 32) * u64::from(n)) >> 32) as u32
    }

    /// A float in `[0, 1)`.
    #[inline]
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_seeds_give_equal_sequences_and_numbers_stay_in_range() {
        let (mut a, mut b) = (Rng::new(5), Rng::new(5));
        let mut seen = [false; 7];
        for _ in 0..1000 {
            let x = a.below(7);
            assert_eq!(x, b.below(7));
            seen[x as usize] = true;
            let u = a.unit();
            assert_eq!(u, b.unit());
            assert!((0.0..1.0).contains(&u));
        }
        assert!(seen.iter().all(|&s| s));
    }
}
