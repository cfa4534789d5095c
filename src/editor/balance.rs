//! The balance check of a scenario: AI-vs-AI battles under one or every variant, the two
//! sides' colours swapped for the second half (so neither gains from tie-breaks or turn
//! order that follow side names), each side's win rate with a 95 % Wilson score interval,
//! draws and mean rounds. It runs the same batches as `fivefoot sim`, on every core, and
//! gives the same answer for the same seed whatever the number of threads.

use crate::combat::sim::{SimError, SimSpec, run_batch_on};
use crate::combat::{AiKind, BattleOptions};
use crate::level::{Catalogue, Level, LevelDef};
use crate::variants::RulesVariant;
use serde::Serialize;
use std::collections::BTreeMap;

/// What to simulate.
#[derive(Clone, Debug)]
pub struct BalanceSpec {
    /// Battles per variant (the second half with the colours swapped).
    pub battles: u32,
    pub variants: Vec<RulesVariant>,
    pub seed: u64,
    pub threads: usize,
}

/// One side's record under one variant.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideRecord {
    pub side: String,
    pub wins: u32,
    pub rate: f64,
    /// The 95 % Wilson score interval of the win rate.
    pub low: f64,
    pub high: f64,
}

/// The balance of a scenario under one variant.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BalanceReport {
    pub rules: String,
    pub battles: u32,
    pub sides: Vec<SideRecord>,
    pub draws: u32,
    pub mean_rounds: f64,
}

pub use crate::stats::wilson;

/// The level with its two sides' colours swapped; `None` unless it has exactly two sides.
fn swapped(level: &Level, catalogue: &Catalogue) -> Option<Level> {
    let mut sides: Vec<&str> = level.def.units.iter().map(|u| u.side.as_str()).collect();
    sides.sort_unstable();
    sides.dedup();
    let [a, b] = sides.as_slice() else { return None };
    let (a, b) = (a.to_string(), b.to_string());
    let mut def: LevelDef = level.def.clone();
    for u in &mut def.units {
        u.side = if u.side == a { b.clone() } else { a.clone() };
    }
    Level::from_def(def, catalogue).ok()
}

/// Runs the balance check; `progress` is told the battles done so far over all variants.
pub fn check_balance(
    level: &Level,
    catalogue: &Catalogue,
    spec: &BalanceSpec,
    progress: &mut dyn FnMut(u32),
) -> Result<Vec<BalanceReport>, SimError> {
    let swap = swapped(level, catalogue);
    let first_half = if swap.is_some() { spec.battles.div_ceil(2) } else { spec.battles };
    let mut done = 0;
    let mut reports = Vec::new();
    for &rules in &spec.variants {
        let mut wins: BTreeMap<String, u32> = BTreeMap::new();
        let (mut draws, mut rounds, mut battles) = (0u32, 0f64, 0u32);
        let halves = [(level, first_half, false), (swap.as_ref().unwrap_or(level), spec.battles - first_half, true)];
        for (lvl, n, colours_swapped) in halves {
            if n == 0 {
                continue;
            }
            let sim = SimSpec {
                rules,
                seed: spec.seed.wrapping_add(u64::from(colours_swapped) * u64::from(first_half)),
                battles: n,
                ais: BTreeMap::<String, AiKind>::new(),
                options: BattleOptions {
                    death_saves: lvl.def.death_saves.unwrap_or_default(),
                    // The level's own house rules, those that apply to the variant tried
                    // (with none asked for, nothing is refused).
                    house_rules: crate::variants::house_rules_in_force(&[], &lvl.def.house_rules, rules)
                        .unwrap_or_default(),
                    ..Default::default()
                },
                check: false,
                swap_sides: false,
            };
            let base = done;
            let report = run_batch_on(lvl, catalogue, &sim, None, &mut |k| progress(base + k), spec.threads)?;
            done += n;
            for (side, w) in report.wins {
                if side == "draw" {
                    draws += w;
                    continue;
                }
                // Credit the units, not the colour: after the swap "red" wins are blue's.
                let owner = if colours_swapped { other_side(level, &side) } else { side };
                *wins.entry(owner).or_default() += w;
            }
            rounds += report.mean_rounds * f64::from(n);
            battles += n;
        }
        let sides = wins
            .into_iter()
            .map(|(side, w)| {
                let (low, high) = wilson(w, battles);
                SideRecord { side, wins: w, rate: f64::from(w) / f64::from(battles.max(1)), low, high }
            })
            .collect();
        let mean_rounds = if battles == 0 { 0.0 } else { rounds / f64::from(battles) };
        reports.push(BalanceReport { rules: rules.id().to_string(), battles, sides, draws, mean_rounds });
    }
    Ok(reports)
}

/// The other of a two-sided level's sides.
fn other_side(level: &Level, side: &str) -> String {
    level.def.units.iter().map(|u| u.side.clone()).find(|s| s != side).unwrap_or_else(|| side.to_string())
}

/// One line per side, as the CLI prints it.
pub fn describe(report: &BalanceReport) -> String {
    let mut out = format!("{} ({} battles, colours swapped for the second half)\n", report.rules, report.battles);
    for s in &report.sides {
        out.push_str(&format!(
            "  {:<8} {:>5} wins  {:5.1} %  (95 % interval {:4.1}–{:4.1} %)\n",
            s.side,
            s.wins,
            100.0 * s.rate,
            100.0 * s.low,
            100.0 * s.high
        ));
    }
    out.push_str(&format!("  draws {}, mean rounds {:.2}\n", report.draws, report.mean_rounds));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{MapDef, UnitDef};

    /// Worked by hand: p = 0.5, n = 100, z² = 3.8416: centre 0.5, half-width
    /// 1.96 / 1.038416 × √(0.0025 + 0.000096) = 0.09617; for 0 of 10 the interval is
    /// [0, 2 × 0.19208 / 1.38416] = [0, 0.2775].
    #[test]
    fn wilson_intervals_match_the_formula_worked_by_hand() {
        let (lo, hi) = wilson(50, 100);
        assert!((lo - 0.40383).abs() < 1e-4 && (hi - 0.59617).abs() < 1e-4, "{lo} {hi}");
        let (lo, hi) = wilson(0, 10);
        assert!(lo == 0.0 && (hi - 0.27753).abs() < 1e-4, "{lo} {hi}");
        assert_eq!(wilson(0, 0), (0.0, 1.0));
    }

    fn lopsided() -> Level {
        let unit = |id: &str, side: &str, at, creature: &str| UnitDef::new(id, side, at, creature);
        let def = LevelDef {
            version: None,
            name: "ogre and goblin".into(),
            rules: RulesVariant::D20Classic,
            map: MapDef { rows: vec![".".repeat(10); 8] },
            units: vec![unit("gob", "blue", (1, 3), "goblin"), unit("ogre", "red", (6, 3), "ogre")],
            death_saves: None,
            house_rules: vec![],
            sides: vec![],
            symmetry: Default::default(),
        };
        Level::from_def(def, &Catalogue::builtin()).unwrap()
    }

    /// With the colours swapped for the second half, the ogre's wins are still the ogre
    /// side's: were they counted by colour, "red" would win only about half.
    #[test]
    fn the_swapped_half_credits_the_units_not_the_colour_and_threads_change_nothing() {
        let spec = |threads| BalanceSpec { battles: 40, variants: vec![RulesVariant::D20Classic], seed: 3, threads };
        let one = check_balance(&lopsided(), &Catalogue::builtin(), &spec(1), &mut |_| {}).unwrap();
        let r = &one[0];
        assert_eq!(r.battles, 40);
        let wins = |side: &str| r.sides.iter().find(|s| s.side == side).map_or(0, |s| s.wins);
        assert_eq!(wins("red") + wins("blue") + r.draws, 40);
        assert!(wins("red") >= 36, "the ogre wins nearly every battle: {r:?}");
        let two = check_balance(&lopsided(), &Catalogue::builtin(), &spec(2), &mut |_| {}).unwrap();
        assert_eq!(one, two);
    }
}
