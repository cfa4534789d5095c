//! `fivefoot compare LEVEL`: its arguments, and the run that prints the table (or JSON)
//! and writes the CSV and the charts; a shard of the run, or the merge of shards.

use super::{CompareSpec, VariantSpec};
use crate::combat::AiKind;
use crate::level::{AtomicFile, Catalogue, Level};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct CompareArgs {
    /// The level file (RON).
    #[arg(required_unless_present = "merge")]
    pub level: Option<PathBuf>,
    /// The variants to compare: `all`, or a comma-separated list, each a variant with house
    /// rules added by `+` (`d20-classic,d20-classic+no-flanking`).
    #[arg(long, default_value = "all")]
    pub rules: String,
    /// Battles per variant.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
    pub battles: u32,
    /// Seed of the first battle; battle i uses seed + i under every variant.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The AI for a side, as SIDE=KIND (default: greedy for every side).
    #[arg(long = "ai", value_parser = crate::combat::ai::parse_side_ai)]
    pub ai: Vec<(String, AiKind)>,
    /// Print the report as one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Also write the report as CSV (one row per variant) to this file.
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Also write the charts, each as PNG and SVG, into this folder: win rates, battle
    /// length, damage per round, and the analytic hit chance and expected damage of one
    /// attacker against a range of defences.
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// The attacker whose odds the charts show (default: the level's first unit).
    #[arg(long, requires = "plot")]
    pub attacker: Option<String>,
    /// The target of those odds (default: the first unit of another side).
    #[arg(long, requires = "plot")]
    pub target: Option<String>,
    /// Show the variants side by side in a window instead, one board each, played AI
    /// against AI in step (optionally the window's size, WIDTHxHEIGHT).
    #[arg(long, num_args = 0..=1, default_missing_value = "1280x800", value_parser = crate::play::parse_window)]
    pub window: Option<(u32, u32)>,
    /// With --window: open the batch window at once and play --battles battles a variant in
    /// it, its charts drawn as they come in (B opens it in the window at any time).
    #[arg(long, requires = "window")]
    pub live: bool,
    /// With --window: save a screenshot after --frames frames, then exit.
    #[arg(long, requires = "window")]
    pub screenshot: Option<PathBuf>,
    /// With --screenshot: frames to wait first.
    #[arg(long, default_value_t = 90, requires = "screenshot")]
    pub frames: u32,
    /// Play only shard K of M (battles K-1 to K of M equal runs, each battle with the seed it
    /// has in the whole) and print every battle's summary as JSON, for --merge.
    #[arg(long, value_parser = super::shard::parse_shard, conflicts_with_all = ["window", "plot", "csv", "merge"])]
    pub shard: Option<(u32, u32)>,
    /// Merge the shards printed by --shard (every one of them, in any order) and report the
    /// whole comparison, as one run of all its battles would.
    #[arg(long, num_args = 1.., conflicts_with_all = ["level", "window", "rules", "battles", "seed", "ai"])]
    pub merge: Vec<PathBuf>,
    /// Threads per batch (default: one per core); the output is the same bytes whatever
    /// the number.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
}

/// Why `compare` stopped: bad input (exit 2) or a broken invariant (exit 1).
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    #[error("{0}")]
    Input(String),
    #[error("{0}")]
    Broken(String),
}

/// `fivefoot compare` as the binary runs it: the report on standard output, or the error
/// on standard error; the exit code (2 for bad input, 1 for a broken invariant).
pub fn main(args: &CompareArgs) -> u8 {
    if args.window.is_some() {
        return match window(args) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("fivefoot compare: {e}");
                2
            }
        };
    }
    match run(args) {
        Ok(out) => {
            print!("{out}");
            0
        }
        Err(e) => {
            eprintln!("fivefoot compare: {e}");
            if matches!(e, CompareError::Input(_)) { 2 } else { 1 }
        }
    }
}

/// `compare --window`: the specs side by side, once the level, specs and AIs are known
/// good.
fn window(args: &CompareArgs) -> Result<(), String> {
    let path = args.level.clone().ok_or("a level to show")?;
    let specs = VariantSpec::parse_list(&args.rules).map_err(|e| format!("--rules: {e}"))?;
    if specs.len() > 6 {
        return Err(format!("--rules: {} specs; the window shows at most 6 boards", specs.len()));
    }
    let level = Level::load(&path, &Catalogue::builtin()).map_err(|e| e.to_string())?;
    let sides = crate::combat::sim::sides_of(&level);
    if sides.len() < 2 {
        return Err(format!("{}: {}", path.display(), crate::editor::check::TWO_SIDES));
    }
    if let Some((side, _)) = args.ai.iter().find(|(s, _)| !sides.contains(s)) {
        return Err(format!("--ai names side \"{side}\", which has no units in {}", path.display()));
    }
    let setup = super::window::CompareSetup {
        level: path.clone(),
        specs,
        seed: args.seed,
        ais: args.ai.iter().cloned().collect(),
        batch: args.live.then_some(args.battles),
    };
    let opts = crate::play::PlayOptions {
        compare: Some(setup),
        window: args.window,
        screenshot: args.screenshot.clone(),
        frames: args.frames,
        seed: args.seed,
        pace: 4.0,
        ..Default::default()
    };
    crate::play::run(opts).map(|_| ())
}

/// The whole of `fivefoot compare`: what it prints on standard output.
pub fn run(args: &CompareArgs) -> Result<String, CompareError> {
    let input = CompareError::Input;
    // The CSV is written beside its destination and renamed over it once complete.
    let mut csv = args.csv.as_deref().map(AtomicFile::create).transpose().map_err(|e| input(format!("--csv: {e}")))?;
    let (report, curves) = if args.merge.is_empty() {
        match played(args)? {
            Played::Whole(report, curves) => (report, curves),
            Played::Shard(shard) => return Ok(serde_json::to_string(&shard).expect("shards serialise") + "\n"),
        }
    } else {
        let shards = super::shard::read(&args.merge).map_err(input)?;
        (super::shard::merge(shards).map_err(|e| input(format!("--merge: {e}")))?, None)
    };
    if let Some(mut file) = csv.take() {
        file.write_all(report.csv().as_bytes())
            .and_then(|()| file.commit())
            .map_err(|e| input(format!("--csv: {e}")))?;
    }
    if let Some(dir) = &args.plot {
        super::plot::write_charts(dir, &report, curves.as_deref()).map_err(|e| input(format!("--plot: {e}")))?;
    }
    Ok(if args.json { serde_json::to_string(&report).expect("reports serialise") + "\n" } else { report.table() })
}

/// What a run of battles came to: the whole comparison (with the odds' curves if charts
/// were asked for), or one shard of it.
enum Played {
    Whole(super::CompareReport, Option<Vec<super::curves::AttackCurve>>),
    Shard(super::shard::ShardFile),
}

/// Plays the battles `args` ask for.
fn played(args: &CompareArgs) -> Result<Played, CompareError> {
    let input = CompareError::Input;
    let path = args.level.clone().ok_or_else(|| input("a level to compare on".into()))?;
    let variants = VariantSpec::parse_list(&args.rules).map_err(|e| input(format!("--rules: {e}")))?;
    let catalogue = Catalogue::builtin();
    let level = Level::load(&path, &catalogue).map_err(|e| input(e.to_string()))?;
    let sides = crate::combat::sim::sides_of(&level);
    if sides.len() < 2 {
        return Err(input(format!("{}: {}", path.display(), crate::editor::check::TWO_SIDES)));
    }
    if let Some((side, _)) = args.ai.iter().find(|(s, _)| !sides.contains(s)) {
        return Err(input(format!("--ai names side \"{side}\", which has no units in {}", path.display())));
    }
    let battles = args.shard.map_or(0..args.battles, |shard| super::shard::range(args.battles, shard));
    let spec = CompareSpec {
        variants,
        battles: battles.len() as u32,
        seed: args.seed,
        ais: args.ai.iter().cloned().collect::<BTreeMap<_, _>>(),
        threads: args.threads.map_or_else(crate::combat::sim::default_threads, |n| n as usize),
    };
    // The odds are worked out, and a bad attacker or target refused, before any battle.
    let curves = match &args.plot {
        Some(_) => {
            let (first, foe) = super::curves::default_pair(&level).unwrap_or_default();
            let attacker = args.attacker.clone().unwrap_or(first);
            let target = args.target.clone().unwrap_or(foe);
            let curves = super::curves::attack_curves(&level, &catalogue, &spec.variants, &attacker, &target)
                .map_err(|e| input(format!("--plot: {}: {e}", path.display())))?;
            Some(curves)
        }
        None => None,
    };
    let total = u64::from(spec.battles) * spec.variants.len() as u64;
    let bar = indicatif::ProgressBar::new(total);
    bar.set_draw_target(if total < 200 {
        indicatif::ProgressDrawTarget::hidden()
    } else {
        indicatif::ProgressDrawTarget::stderr()
    });
    let runs =
        super::batch::run_specs(&level, &catalogue, &spec, battles.start, &mut |n| bar.set_position(u64::from(n)));
    bar.finish_and_clear();
    let runs = runs.map_err(|e| CompareError::Broken(e.to_string()))?;
    Ok(match args.shard {
        Some((k, m)) => Played::Shard(super::shard::ShardFile {
            level: level.def.name.clone(),
            battles: args.battles,
            seed: args.seed,
            shard: [k, m],
            sides,
            specs: runs,
        }),
        None => Played::Whole(super::batch::report_of(&level.def.name, args.seed, &sides, &runs), curves),
    })
}
