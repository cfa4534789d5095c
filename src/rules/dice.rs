//! The one source of randomness: a seeded ChaCha generator as a resource, so the same
//! seed gives the same battle byte for byte.

use bevy::prelude::Resource;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Seeded dice. Every random number in the rules comes from here.
#[derive(Clone, Debug, Resource)]
pub struct Dice {
    seed: u64,
    rng: ChaCha8Rng,
}

impl Dice {
    pub fn seeded(seed: u64) -> Dice {
        Dice { seed, rng: ChaCha8Rng::seed_from_u64(seed) }
    }
    pub fn seed(&self) -> u64 {
        self.seed
    }
    /// One roll of a `sides`-sided die, 1..=sides.
    pub fn roll(&mut self, sides: u32) -> u32 {
        self.rng.random_range(1..=sides.max(1))
    }
    /// `count` rolls of a `sides`-sided die.
    pub fn roll_many(&mut self, count: u32, sides: u32) -> Vec<u32> {
        (0..count).map(|_| self.roll(sides)).collect()
    }
}

impl Default for Dice {
    fn default() -> Self {
        Dice::seeded(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_rolls() {
        let mut a = Dice::seeded(42);
        let mut b = Dice::seeded(42);
        let ra: Vec<_> = (0..50).map(|_| a.roll(20)).collect();
        let rb: Vec<_> = (0..50).map(|_| b.roll(20)).collect();
        assert_eq!(ra, rb);
        assert!(ra.iter().all(|&r| (1..=20).contains(&r)));
        let mut c = Dice::seeded(43);
        let rc: Vec<_> = (0..50).map(|_| c.roll(20)).collect();
        assert_ne!(ra, rc);
    }
}
