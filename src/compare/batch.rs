//! The headless comparison: a batch of battles per variant spec, with common random
//! numbers (battle i uses seed S + i under every spec), folded into one report whose JSON,
//! table and CSV are the same bytes for the same inputs on any number of threads.

use super::VariantSpec;
use crate::combat::AiKind;
use crate::combat::sim::{BattleSummary, SimError, SimSpec, run_batch_on, sides_of};
use crate::level::{Catalogue, Level};
use serde::Serialize;
use serde::ser::SerializeMap;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// What to compare.
#[derive(Clone, Debug)]
pub struct CompareSpec {
    pub variants: Vec<VariantSpec>,
    /// Battles per variant.
    pub battles: u32,
    pub seed: u64,
    pub ais: BTreeMap<String, AiKind>,
    pub threads: usize,
}

/// One side's record under one variant: wins over all the battles, draws counted in.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideRate {
    pub wins: u32,
    pub win_rate: f64,
    /// The 95 % Wilson score interval of `win_rate`.
    pub ci95: [f64; 2],
}

/// Mean, median and 90th percentile of a battle measure.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Spread {
    pub mean: f64,
    pub median: f64,
    pub p90: f64,
}

impl Spread {
    /// Of `values`, sorted in place (the median of an even count is the mean of the two
    /// middle values; the 90th percentile is the nearest rank).
    pub fn of(values: &mut [f64]) -> Spread {
        if values.is_empty() {
            return Spread::default();
        }
        values.sort_by(f64::total_cmp);
        let n = values.len();
        let median = if n % 2 == 1 { values[n / 2] } else { (values[n / 2 - 1] + values[n / 2]) / 2.0 };
        let p90 = values[((n as f64 * 0.9).ceil() as usize).clamp(1, n) - 1];
        Spread { mean: round2(values.iter().sum::<f64>() / n as f64), median: round2(median), p90: round2(p90) }
    }
}

/// One variant's battles, summed up.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VariantReport {
    /// The house rules in force (the spec's and the level's own that apply).
    pub house_rules: Vec<String>,
    pub sides: BTreeMap<String, SideRate>,
    pub draws: u32,
    pub rounds: Spread,
    /// Battle length in the story's seconds (rounds × the variant's round).
    pub seconds: Spread,
    /// Damage each side dealt per round, over all the battles.
    pub damage_per_round: BTreeMap<String, f64>,
    pub hits: u32,
    pub misses: u32,
    pub criticals: u32,
    pub attacks_of_opportunity_per_battle: f64,
    /// Each side's units out of the fight at the end, per battle.
    pub units_lost: BTreeMap<String, f64>,
    /// Each battle's length in the story's seconds, shortest first (for the charts).
    #[serde(skip)]
    pub lengths: Vec<f64>,
}

/// The comparison: the scenario, the batch, and a report per variant spec in the order
/// asked.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CompareReport {
    pub level: String,
    pub battles: u32,
    pub seed: u64,
    pub variants: InOrder,
}

/// Variant reports keyed by spec, kept (and written as a JSON object) in the order asked.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct InOrder(pub Vec<(String, VariantReport)>);

impl Serialize for InOrder {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn round4(x: f64) -> f64 {
    (x * 1e4).round() / 1e4
}

/// One spec's battles, each summed up, in seed order: what a report is made from, and what a
/// shard carries so that shards can be merged into the whole.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct SpecRun {
    pub spec: String,
    /// The house rules in force (the spec's and the level's own that apply).
    pub house_rules: Vec<String>,
    pub battles: Vec<BattleSummary>,
}

/// Runs every spec's batch in turn (each spread over `threads`), battles `first..first +
/// spec.battles` of the comparison (battle i uses seed S + i); `progress` is told the
/// battles done so far, over all the specs.
pub fn run_specs(
    level: &Level,
    catalogue: &Catalogue,
    spec: &CompareSpec,
    first: u32,
    progress: &mut dyn FnMut(u32),
) -> Result<Vec<SpecRun>, SimError> {
    let mut runs = Vec::new();
    for (k, v) in spec.variants.iter().enumerate() {
        let options = v.options_on(level);
        let house_rules = options.house_rules.iter().map(|h| h.id().to_string()).collect();
        let sim = SimSpec {
            rules: v.rules,
            seed: spec.seed.wrapping_add(u64::from(first)),
            battles: spec.battles,
            ais: spec.ais.clone(),
            options,
            check: false,
            swap_sides: false,
        };
        let done = k as u32 * spec.battles;
        let report = run_batch_on(level, catalogue, &sim, None, &mut |n| progress(done + n), spec.threads)?;
        runs.push(SpecRun { spec: v.to_string(), house_rules, battles: report.summaries });
    }
    Ok(runs)
}

/// Runs every spec's batch in turn and reports them; `progress` as for [`run_specs`].
pub fn run(
    level: &Level,
    catalogue: &Catalogue,
    spec: &CompareSpec,
    progress: &mut dyn FnMut(u32),
) -> Result<CompareReport, SimError> {
    let runs = run_specs(level, catalogue, spec, 0, progress)?;
    Ok(report_of(&level.def.name, spec.seed, &sides_of(level), &runs))
}

/// The report of `runs` (every battle of each spec, from seed `seed` on) for `sides`.
pub fn report_of(level_name: &str, seed: u64, sides: &[String], runs: &[SpecRun]) -> CompareReport {
    let variants = runs
        .iter()
        .map(|run| {
            let seconds = run.spec.parse::<VariantSpec>().map_or(6, |v| v.rules.numbers().round_seconds);
            let mut summary = summarise(&run.battles, sides, seconds);
            summary.house_rules = run.house_rules.clone();
            (run.spec.clone(), summary)
        })
        .collect();
    CompareReport {
        level: level_name.to_string(),
        battles: runs.first().map_or(0, |r| r.battles.len() as u32),
        seed,
        variants: InOrder(variants),
    }
}

/// One variant's battles summed up, for `sides`.
fn summarise(battles: &[BattleSummary], sides: &[String], round_seconds: u32) -> VariantReport {
    let n = battles.len() as u32;
    let per_battle = |x: f64| if n == 0 { 0.0 } else { round2(x / f64::from(n)) };
    let total_rounds: u64 = battles.iter().map(|b| u64::from(b.rounds.max(1))).sum();
    let side_rate = |side: &String| {
        let wins = battles.iter().filter(|b| &b.winner == side).count() as u32;
        let (low, high) = crate::stats::wilson(wins, n);
        let rate = if n == 0 { 0.0 } else { f64::from(wins) / f64::from(n) };
        SideRate { wins, win_rate: round4(rate), ci95: [round4(low), round4(high)] }
    };
    let mut rounds: Vec<f64> = battles.iter().map(|b| f64::from(b.rounds)).collect();
    let mut seconds: Vec<f64> = rounds.iter().map(|r| r * f64::from(round_seconds)).collect();
    let attacks: u32 = battles.iter().map(|b| b.stats.attacks).sum();
    let hits: u32 = battles.iter().map(|b| b.stats.hits).sum();
    VariantReport {
        house_rules: vec![],
        sides: sides.iter().map(|s| (s.clone(), side_rate(s))).collect(),
        draws: battles.iter().filter(|b| b.winner == "draw").count() as u32,
        rounds: Spread::of(&mut rounds),
        seconds: Spread::of(&mut seconds),
        lengths: seconds.clone(),
        damage_per_round: sides
            .iter()
            .map(|s| {
                let dealt: u64 = battles.iter().map(|b| b.damage_dealt.get(s).copied().unwrap_or(0)).sum();
                (s.clone(), if total_rounds == 0 { 0.0 } else { round2(dealt as f64 / total_rounds as f64) })
            })
            .collect(),
        hits,
        misses: attacks.saturating_sub(hits),
        criticals: battles.iter().map(|b| b.stats.criticals).sum(),
        attacks_of_opportunity_per_battle: per_battle(
            battles.iter().map(|b| f64::from(b.stats.attacks_of_opportunity)).sum(),
        ),
        units_lost: sides
            .iter()
            .map(|s| {
                (s.clone(), per_battle(battles.iter().map(|b| f64::from(b.lost.get(s).copied().unwrap_or(0))).sum()))
            })
            .collect(),
    }
}

impl CompareReport {
    /// The report as a table: one column per variant spec, one row per measure.
    pub fn table(&self) -> String {
        let mut rows: Vec<(String, Vec<String>)> = Vec::new();
        let reports: Vec<&VariantReport> = self.variants.0.iter().map(|(_, r)| r).collect();
        let mut row = |name: &str, f: &dyn Fn(&VariantReport) -> String| {
            rows.push((name.to_string(), reports.iter().map(|r| f(r)).collect()));
        };
        let sides: Vec<String> = reports.first().map(|r| r.sides.keys().cloned().collect()).unwrap_or_default();
        row("house rules", &|r| if r.house_rules.is_empty() { "none".into() } else { r.house_rules.join("+") });
        for s in &sides {
            row(&format!("{s} wins"), &|r| {
                let x = &r.sides[s];
                format!("{} {:.0}% ({:.0}-{:.0}%)", x.wins, x.win_rate * 100.0, x.ci95[0] * 100.0, x.ci95[1] * 100.0)
            });
        }
        row("draws", &|r| r.draws.to_string());
        row("rounds mean/median/p90", &|r| format!("{}/{}/{}", r.rounds.mean, r.rounds.median, r.rounds.p90));
        row("seconds mean/median/p90", &|r| format!("{}/{}/{}", r.seconds.mean, r.seconds.median, r.seconds.p90));
        for s in &sides {
            row(&format!("{s} damage/round"), &|r| format!("{:.2}", r.damage_per_round[s]));
        }
        row("hits/misses", &|r| format!("{}/{}", r.hits, r.misses));
        row("criticals", &|r| r.criticals.to_string());
        row("AoO per battle", &|r| format!("{:.2}", r.attacks_of_opportunity_per_battle));
        for s in &sides {
            row(&format!("{s} units lost"), &|r| format!("{:.2}", r.units_lost[s]));
        }
        let first = rows.iter().map(|(n, _)| n.chars().count()).max().unwrap_or(0);
        let widths: Vec<usize> = (0..reports.len())
            .map(|i| {
                let head = self.variants.0[i].0.chars().count();
                rows.iter().map(|(_, c)| c[i].chars().count()).max().unwrap_or(0).max(head)
            })
            .collect();
        let mut out = format!("{} — {} battles per variant from seed {}\n", self.level, self.battles, self.seed);
        let _ = write!(out, "{:first$}", "");
        for (i, (name, _)) in self.variants.0.iter().enumerate() {
            let _ = write!(out, "  {name:>w$}", w = widths[i]);
        }
        out.push('\n');
        for (name, cells) in &rows {
            let _ = write!(out, "{name:first$}");
            for (i, c) in cells.iter().enumerate() {
                let _ = write!(out, "  {c:>w$}", w = widths[i]);
            }
            out.push('\n');
        }
        out
    }

    /// The report as CSV: a header, then one row per variant spec.
    pub fn csv(&self) -> String {
        let sides: Vec<String> =
            self.variants.0.first().map(|(_, r)| r.sides.keys().cloned().collect()).unwrap_or_default();
        let mut head = vec!["variant".to_string(), "house_rules".into(), "battles".into()];
        for s in &sides {
            head.extend([
                format!("{s}_wins"),
                format!("{s}_win_rate"),
                format!("{s}_ci95_low"),
                format!("{s}_ci95_high"),
            ]);
        }
        head.extend(
            ["draws", "rounds_mean", "rounds_median", "rounds_p90", "seconds_mean", "seconds_median", "seconds_p90"]
                .map(String::from),
        );
        head.extend(sides.iter().map(|s| format!("{s}_damage_per_round")));
        head.extend(["hits", "misses", "criticals", "attacks_of_opportunity_per_battle"].map(String::from));
        head.extend(sides.iter().map(|s| format!("{s}_units_lost")));
        let mut out = head.join(",") + "\n";
        for (name, r) in &self.variants.0 {
            let mut cells = vec![name.clone(), r.house_rules.join("+"), self.battles.to_string()];
            for s in &sides {
                let x = &r.sides[s];
                cells.extend([
                    x.wins.to_string(),
                    x.win_rate.to_string(),
                    x.ci95[0].to_string(),
                    x.ci95[1].to_string(),
                ]);
            }
            cells.push(r.draws.to_string());
            for sp in [&r.rounds, &r.seconds] {
                cells.extend([sp.mean.to_string(), sp.median.to_string(), sp.p90.to_string()]);
            }
            cells.extend(sides.iter().map(|s| r.damage_per_round[s].to_string()));
            cells.extend([r.hits.to_string(), r.misses.to_string(), r.criticals.to_string()]);
            cells.push(r.attacks_of_opportunity_per_battle.to_string());
            cells.extend(sides.iter().map(|s| r.units_lost[s].to_string()));
            out += &(cells.join(",") + "\n");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spreads_take_the_median_and_the_nearest_rank() {
        let s = Spread::of(&mut [5.0, 1.0, 3.0, 2.0, 4.0, 6.0, 7.0, 8.0, 9.0, 10.0]);
        assert_eq!(s, Spread { mean: 5.5, median: 5.5, p90: 9.0 });
        assert_eq!(Spread::of(&mut [4.0, 1.0, 9.0]), Spread { mean: 4.67, median: 4.0, p90: 9.0 });
        assert_eq!(Spread::of(&mut []), Spread::default());
    }
}
