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
    /// Common random numbers for the AI's playouts: while a roller is named, its rolls come
    /// from a stream of its own (seeded from `seed` and the roller), so two playouts that
    /// differ in one unit's choice still give every unit the same rolls in the same order.
    streams: Vec<Option<ChaCha8Rng>>,
    roller: Option<usize>,
    /// Every roll of a stream turned over (`sides + 1 − r`): the antithetic twin of a
    /// playout, whose luck runs the other way.
    mirrored: bool,
}

impl Dice {
    pub fn seeded(seed: u64) -> Dice {
        Dice { seed, rng: ChaCha8Rng::seed_from_u64(seed), streams: Vec::new(), roller: None, mirrored: false }
    }
    /// Names who rolls next (a stream of its own), or none (the one common stream).
    pub fn set_roller(&mut self, roller: Option<usize>) {
        self.roller = roller;
    }
    /// Starts every roller's stream afresh from `seed`.
    pub fn reseed_streams(&mut self, seed: u64, mirrored: bool) {
        self.mirrored = mirrored;
        self.seed = seed;
        self.rng = ChaCha8Rng::seed_from_u64(seed);
        self.streams.iter_mut().for_each(|s| *s = None);
        self.roller = None;
    }
    pub fn seed(&self) -> u64 {
        self.seed
    }
    /// How far the common stream has rolled (it moves on with every roll), which a snapshot
    /// carries as it is.
    pub fn position(&self) -> u64 {
        self.rng.get_word_pos() as u64
    }
    /// One roll of a `sides`-sided die, 1..=sides.
    pub fn roll(&mut self, sides: u32) -> u32 {
        let Some(who) = self.roller else {
            return self.rng.random_range(1..=sides.max(1));
        };
        if self.streams.len() <= who {
            self.streams.resize(who + 1, None);
        }
        let seed = self.seed;
        let stream = self.streams[who].get_or_insert_with(|| {
            ChaCha8Rng::seed_from_u64(seed ^ (who as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
        });
        let r = stream.random_range(1..=sides.max(1));
        if self.mirrored { sides.max(1) + 1 - r } else { r }
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

    /// With a stream per roller, what one roller rolls does not depend on what the others
    /// rolled in between: the common random numbers the AI's playouts compare lines on.
    #[test]
    fn each_roller_rolls_its_own_stream_whatever_the_others_roll() {
        let mut a = Dice::seeded(7);
        a.reseed_streams(99, false);
        let mut b = a.clone();
        let theirs = |d: &mut Dice, others: usize| -> Vec<u32> {
            let mut mine = vec![];
            for _ in 0..10 {
                d.set_roller(Some(1));
                for _ in 0..others {
                    d.roll(20);
                }
                d.set_roller(Some(0));
                mine.push(d.roll(20));
            }
            mine
        };
        assert_eq!(theirs(&mut a, 0), theirs(&mut b, 3), "roller 0 sees the same rolls");
        let mut c = Dice::seeded(7);
        c.reseed_streams(100, false);
        assert_ne!(theirs(&mut c, 0), theirs(&mut Dice::seeded(7), 0), "another seed, other rolls");
        let (mut plain, mut named) = (Dice::seeded(5), Dice::seeded(5));
        named.set_roller(None);
        assert_eq!(plain.roll_many(20, 6), named.roll_many(20, 6), "no roller: the one common stream");
    }
}
