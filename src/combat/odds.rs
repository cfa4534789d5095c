//! Exact hit chances for the two ways the sources roll to hit: a d20 (with or without
//! "a natural 20 always hits, a natural 1 always misses") and 3d6 roll-high; and what an
//! attack comes to on average ([`AttackOdds`]): its chance to hit and to land a critical
//! hit, and its expected damage, worked out exactly from the same numbers the strike rolls
//! against, not sampled.

pub use crate::variants::AttackDie;

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

/// How a variant's critical hits go, as far as the odds need it: a natural roll of `from`
/// or more on a d20 that hits is a threat, which is a critical outright or, if `confirmed`,
/// once a second roll would also hit; a critical rolls the damage dice `mult` times, and
/// adds the flat bonuses `mult` times where `confirmed` (once otherwise).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CriticalHits {
    pub from: i32,
    pub mult: u32,
    pub confirmed: bool,
}

/// What one attack comes to on average.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct AttackOdds {
    pub hit: f64,
    pub critical: f64,
    /// Damage per attack, misses counted as nothing.
    pub expected_damage: f64,
}

/// The odds of an attack with `bonus` against `target` on `die`, doing `count`d`sides` +
/// `flat` (at least 1) on a hit, with `criticals` where the variant has them.
pub fn attack_odds(
    die: AttackDie,
    bonus: i32,
    target: i32,
    (count, sides): (u32, u32),
    flat: i32,
    criticals: Option<CriticalHits>,
) -> AttackOdds {
    let naturals: Vec<(i32, f64)> = match die {
        AttackDie::D20 { .. } => (1..=20).map(|r| (r, 1.0 / 20.0)).collect(),
        AttackDie::ThreeD6 => (3..=18).map(|r| (r, f64::from(WAYS_3D6[r as usize]) / 216.0)).collect(),
    };
    let normal = mean_damage(count, sides, flat);
    let d20 = matches!(die, AttackDie::D20 { .. });
    // The chance to hit exactly as the hit-chance panel gives it.
    let mut odds = AttackOdds { hit: die.hit_chance(bonus, target), ..AttackOdds::default() };
    for (natural, p) in naturals {
        if !die.hits(natural, bonus, target) {
            continue;
        }
        let crit = criticals.filter(|c| d20 && natural >= c.from).map(|c| {
            // The confirmation is a second roll that would hit.
            let confirm = if c.confirmed { die.hit_chance(bonus, target) } else { 1.0 };
            let flat = if c.confirmed { flat * c.mult as i32 } else { flat };
            (confirm, mean_damage(count * c.mult, sides, flat))
        });
        let (confirm, critical) = crit.unwrap_or((0.0, 0.0));
        odds.critical += p * confirm;
        odds.expected_damage += p * (confirm * critical + (1.0 - confirm) * normal);
    }
    odds
}

/// The mean of `count`d`sides` + `flat`, at least 1 (a blow always does 1).
fn mean_damage(count: u32, sides: u32, flat: i32) -> f64 {
    // Ways to roll each total, built die by die.
    let mut ways = vec![1.0f64];
    for _ in 0..count {
        let mut next = vec![0.0; ways.len() + sides as usize];
        for (total, w) in ways.iter().enumerate() {
            for face in 1..=sides as usize {
                next[total + face] += w;
            }
        }
        ways = next;
    }
    let all: f64 = ways.iter().sum();
    ways.iter().enumerate().map(|(total, w)| w * (total as i32 + flat).max(1) as f64).sum::<f64>() / all
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

    #[test]
    fn the_mean_blow_counts_every_total_and_never_less_than_one() {
        assert_eq!(mean_damage(1, 8, 3), 7.5);
        assert_eq!(mean_damage(2, 6, 0), 7.0);
        // 1d4 − 3: totals −2, −1, 0, 1 all deal 1.
        assert_eq!(mean_damage(1, 4, -3), 1.0);
    }

    #[test]
    fn a_longsword_at_plus_5_against_ac_15_under_confirmed_criticals() {
        // Hits on 10–20 (55 %); 19–20 threaten, confirmed 55 % of the time; 1d8+3 (7.5),
        // a critical 2d8+6 (15).
        let nat = AttackDie::D20 { naturals: true };
        let crits = CriticalHits { from: 19, mult: 2, confirmed: true };
        let odds = attack_odds(nat, 5, 15, (1, 8), 3, Some(crits));
        assert!((odds.hit - 0.55).abs() < 1e-12);
        assert!((odds.critical - 0.1 * 0.55).abs() < 1e-12);
        let expected = 0.45 * 7.5 + 0.1 * (0.55 * 15.0 + 0.45 * 7.5);
        assert!((odds.expected_damage - expected).abs() < 1e-12, "{odds:?}");
    }

    #[test]
    fn criticals_on_a_threat_add_the_flat_bonus_once() {
        // four-actions: 20 on a hit is a critical outright, dice doubled, +2 once.
        let nat = AttackDie::D20 { naturals: true };
        let crits = CriticalHits { from: 20, mult: 2, confirmed: false };
        let odds = attack_odds(nat, 0, 11, (1, 6), 2, Some(crits));
        assert!((odds.hit - 0.5).abs() < 1e-12 && (odds.critical - 0.05).abs() < 1e-12);
        assert!((odds.expected_damage - (0.45 * 5.5 + 0.05 * 9.0)).abs() < 1e-12);
    }

    #[test]
    fn three_d6_has_no_critical_and_hits_on_the_bell() {
        // hex-phases: OCV 5 against DCV 5 hits 62.5 %; 1d6+1 does 4.5 on a hit.
        let odds = attack_odds(AttackDie::ThreeD6, 5, 15, (1, 6), 1, None);
        assert_eq!(odds.hit, 0.625);
        assert_eq!(odds.critical, 0.0);
        assert!((odds.expected_damage - 0.625 * 4.5).abs() < 1e-12);
    }
}
