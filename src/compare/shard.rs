//! A comparison cut into shards and put back together: `compare LEVEL --battles N --shard
//! K/M` plays only the K-th of M equal runs of battles (battle i still uses seed S + i) and
//! prints every battle's summary as JSON; `compare --merge FILE…` checks that the shards
//! are of one comparison and cover it once, and reports the whole, the same bytes as one run
//! of all N battles.

use super::batch::{CompareReport, SpecRun, report_of};
use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::path::PathBuf;

/// One shard's battles, as `--shard` prints them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardFile {
    pub level: String,
    /// Battles in the whole comparison, per spec.
    pub battles: u32,
    pub seed: u64,
    /// Which shard this is (1-based) of how many.
    pub shard: [u32; 2],
    pub sides: Vec<String>,
    pub specs: Vec<SpecRun>,
}

/// `K/M`, 1 ≤ K ≤ M ≤ 1,000.
pub fn parse_shard(s: &str) -> Result<(u32, u32), String> {
    let (k, m) = s.split_once('/').ok_or_else(|| format!("expected K/M (as 2/3), got \"{s}\""))?;
    let (k, m): (u32, u32) =
        (k.trim().parse().map_err(|e| format!("{s}: {e}"))?, m.trim().parse().map_err(|e| format!("{s}: {e}"))?);
    if !(1..=1000).contains(&m) || !(1..=m).contains(&k) {
        return Err(format!("{s}: the shard K/M needs 1 ≤ K ≤ M ≤ 1000"));
    }
    Ok((k, m))
}

/// The battles shard `k` of `m` plays out of `battles`: the k-th of m runs as equal as can
/// be, in order.
pub fn range(battles: u32, (k, m): (u32, u32)) -> Range<u32> {
    let at = |j: u32| (u64::from(battles) * u64::from(j) / u64::from(m)) as u32;
    at(k - 1)..at(k)
}

/// Reads the shard files named.
pub fn read(files: &[PathBuf]) -> Result<Vec<ShardFile>, String> {
    files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?;
            serde_json::from_str(&text).map_err(|e| format!("{}: not a shard of `compare --shard`: {e}", f.display()))
        })
        .collect()
}

/// The whole comparison from its shards, given in any order: they must be of one level,
/// seed, number of battles, sides and specs, and cover every shard once.
pub fn merge(mut shards: Vec<ShardFile>) -> Result<CompareReport, String> {
    let first = shards.first().ok_or("no shard to merge")?.clone();
    let count = first.shard[1];
    for s in &shards {
        let specs = |x: &ShardFile| x.specs.iter().map(|r| (r.spec.clone(), r.house_rules.clone())).collect::<Vec<_>>();
        if (&s.level, s.battles, s.seed, &s.sides, s.shard[1])
            != (&first.level, first.battles, first.seed, &first.sides, count)
            || specs(s) != specs(&first)
        {
            return Err(format!(
                "shard {}/{} is of another comparison than shard {}/{} (level, seed, battles, sides, specs or shard count differ)",
                s.shard[0], s.shard[1], first.shard[0], first.shard[1]
            ));
        }
    }
    shards.sort_by_key(|s| s.shard[0]);
    let have: Vec<u32> = shards.iter().map(|s| s.shard[0]).collect();
    if have != (1..=count).collect::<Vec<_>>() {
        return Err(format!("the shards given are {have:?} of {count}: each of 1 to {count} is needed once"));
    }
    let mut runs: Vec<SpecRun> = first.specs.iter().map(|r| SpecRun { battles: vec![], ..r.clone() }).collect();
    for s in &shards {
        let want = range(first.battles, (s.shard[0], count));
        for (run, part) in runs.iter_mut().zip(&s.specs) {
            if part.battles.len() != want.len() {
                return Err(format!(
                    "shard {}/{count} holds {} battles of {}, not {}",
                    s.shard[0],
                    part.battles.len(),
                    part.spec,
                    want.len()
                ));
            }
            run.battles.extend(part.battles.iter().cloned());
        }
    }
    Ok(report_of(&first.level, first.seed, &first.sides, &runs))
}
