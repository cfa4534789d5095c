//! Exact hit chances for the two ways the sources roll to hit: a d20 (with or without
//! "a natural 20 always hits, a natural 1 always misses") and 3d6 roll-high.

/// The die an attack roll uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackDie {
    /// d20; with `naturals`, a 20 always hits and a 1 always misses.
    D20 { naturals: bool },
    /// 3d6, roll high.
    ThreeD6,
}

/// Number of ways 3d6 totals each value 3..=18 (out of 216).
const WAYS_3D6: [u32; 19] = [0, 0, 0, 1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1];

impl AttackDie {
    /// Probability that `die + modifier >= target`.
    pub fn hit_chance(self, modifier: i32, target: i32) -> f64 {
        let need = target - modifier;
        match self {
            AttackDie::D20 { naturals } => {
                let hits = (1..=20)
                    .filter(|&r| {
                        if naturals && r == 20 {
                            true
                        } else if naturals && r == 1 {
                            false
                        } else {
                            r >= need
                        }
                    })
                    .count();
                hits as f64 / 20.0
            }
            AttackDie::ThreeD6 => {
                let hits: u32 = (3..=18).filter(|&r| r >= need).map(|r| WAYS_3D6[r as usize]).sum();
                hits as f64 / 216.0
            }
        }
    }

    /// Whether a natural roll `natural` hits with `modifier` against `target`.
    pub fn hits(self, natural: i32, modifier: i32, target: i32) -> bool {
        match self {
            AttackDie::D20 { naturals: true } if natural == 20 => true,
            AttackDie::D20 { naturals: true } if natural == 1 => false,
            _ => natural + modifier >= target,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            AttackDie::D20 { .. } => "d20",
            AttackDie::ThreeD6 => "3d6",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_d6_at_equal_values_hits_62_5_percent() {
        // 3d6 + OCV vs 10 + DCV with OCV = DCV: need 10 or more on 3d6.
        assert_eq!(AttackDie::ThreeD6.hit_chance(5, 15), 0.625);
        assert_eq!(AttackDie::ThreeD6.hit_chance(0, 3), 1.0);
        assert_eq!(AttackDie::ThreeD6.hit_chance(0, 19), 0.0);
        assert_eq!(WAYS_3D6.iter().sum::<u32>(), 216);
    }

    #[test]
    fn naturals_bound_the_d20() {
        let nat = AttackDie::D20 { naturals: true };
        let plain = AttackDie::D20 { naturals: false };
        assert_eq!(nat.hit_chance(0, 30), 0.05, "a natural 20 always hits");
        assert_eq!(plain.hit_chance(0, 30), 0.0);
        assert_eq!(nat.hit_chance(30, 10), 0.95, "a natural 1 always misses");
        assert_eq!(plain.hit_chance(30, 10), 1.0);
        assert_eq!(nat.hit_chance(5, 16), 0.5);
        assert!(nat.hits(20, -10, 40) && !nat.hits(1, 50, 10));
    }
}
