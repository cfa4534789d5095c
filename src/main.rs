//! The `fivefoot` command line: `play` (the default), `edit`, `level`, `sim`, `query`, …
#![deny(clippy::unwrap_used, clippy::indexing_slicing)]

use clap::{Parser, Subcommand};
use fivefoot::RulesVariant;
use fivefoot::query::{self, Question};
use fivefoot::variants::HouseRule;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(name = "fivefoot", version, about = "A tactical grid skirmish: tabletop combat rules as ECS systems")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(clap::Args, Debug, Default)]
struct PlayArgs {
    /// The level file (default: levels/skirmish.ron).
    level: Option<PathBuf>,
    /// Rule variant (default: the level's own).
    #[arg(long)]
    rules: Option<RulesVariant>,
    /// The side you play (default: the level's first side).
    #[arg(long)]
    side: Option<String>,
    /// Watch: the AI plays every side.
    #[arg(long, conflicts_with = "side")]
    watch: bool,
    /// Open the title menu instead of going straight into the level.
    #[arg(long)]
    menu: bool,
    /// Keep the pointer over this square (X,Y), for screenshots and demos.
    #[arg(long, value_parser = parse_xy, hide = true)]
    hover: Option<(i32, i32)>,
    /// Start with every layer on (enemy threat, range, cover lines).
    #[arg(long)]
    all_layers: bool,
    /// Print the mean CPU frame time when the window closes.
    #[arg(long)]
    frame_report: bool,
    /// Seed for the dice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Save a PNG of the window after --frames frames, then exit.
    #[arg(long)]
    screenshot: Option<PathBuf>,
    /// Frames to run before the screenshot.
    #[arg(long, default_value_t = 30)]
    frames: u32,
    /// AI commands per second.
    #[arg(long, default_value_t = 4.0)]
    pace: f32,
    /// The window's size (WIDTHxHEIGHT).
    #[arg(long, value_parser = fivefoot::play::parse_window)]
    window: Option<(u32, u32)>,
    /// A house rule to play with (repeatable; default: the level's own).
    #[arg(long = "house-rule", value_enum)]
    house_rules: Vec<HouseRule>,
    /// The AI for a side, as SIDE=KIND (greedy, tactical, tactical:easy|normal|hard;
    /// default: the level's, else tactical, the normal difficulty).
    #[arg(long = "ai", value_parser = parse_ai)]
    ai: Vec<(String, fivefoot::combat::AiKind)>,
}

#[derive(clap::Args, Debug)]
struct SimArgs {
    /// The level file (RON).
    level: PathBuf,
    /// Rule variant (default: the level's own).
    #[arg(long)]
    rules: Option<RulesVariant>,
    /// Seed of the first battle; battle i uses seed + i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Number of battles.
    #[arg(long, default_value_t = 100)]
    battles: u32,
    /// The AI for a side, as SIDE=KIND (default: greedy for every side).
    #[arg(long = "ai", value_parser = parse_ai)]
    ai: Vec<(String, fivefoot::combat::AiKind)>,
    /// Print the statistics as one JSON object.
    #[arg(long)]
    json: bool,
    /// Write every command and event as JSON lines to this file.
    #[arg(long)]
    log: Option<PathBuf>,
    /// d20-classic death saves.
    #[arg(long, value_enum, default_value_t)]
    death_saves: fivefoot::combat::DeathSaves,
    /// Rounds before a battle is called a draw.
    #[arg(long, default_value_t = 50)]
    round_cap: u32,
    /// Threads to spread the battles over (default: one per core); the results are the
    /// same bytes whatever the number.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: Option<u32>,
    /// Check every invariant after every command (no shared squares, everyone on the map,
    /// hit points and budgets in bounds, the dead neither acting nor threatening, the
    /// threat map as recomputed, the clock only forward) and that each battle replays to
    /// the same events. A broken invariant exits 1.
    #[arg(long)]
    check: bool,
    /// A house rule to play with (repeatable; default: the level's own).
    #[arg(long = "house-rule", value_enum)]
    house_rules: Vec<HouseRule>,
    /// Play each seed twice, the two sides' AIs exchanged the second time (battle i uses
    /// seed + i/2), so a lopsided level does not pass for a strong AI; needs two sides.
    #[arg(long)]
    swap_sides: bool,
}

fn parse_xy(s: &str) -> Result<(i32, i32), String> {
    let (x, y) = s.split_once(',').ok_or_else(|| format!("expected X,Y, got \"{s}\""))?;
    Ok((x.trim().parse().map_err(|e| format!("{e}"))?, y.trim().parse().map_err(|e| format!("{e}"))?))
}

use fivefoot::combat::ai::parse_side_ai as parse_ai;

#[derive(Subcommand, Debug)]
enum LevelAction {
    /// Generate a level from a seed: a style (ruins, forest, fortress, arena), a symmetry, and
    /// two sides of the same creatures; RON on standard output, or written to --out.
    Generate(fivefoot::level::generate::cli::GenerateArgs),
    /// Check each file: its first problem (the loader stops there), and whether it can make a
    /// battle (units on two sides at least).
    Check {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// The balance check: AI-vs-AI battles under each variant (or one), the sides' colours
    /// swapped for the second half; each side's win rate with a 95 % Wilson interval.
    Balance {
        /// The level file (RON).
        file: PathBuf,
        /// Only this variant (default: all five).
        #[arg(long)]
        rules: Option<RulesVariant>,
        /// Battles per variant.
        #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
        battles: u32,
        /// Seed of the first battle.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Print the reports as one JSON array.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run AI-vs-AI battles headless and report statistics.
    Sim(SimArgs),
    /// Compare rule variants on one level: a batch of battles per variant (each with house
    /// rules if asked), the same seeds under every one, reported side by side.
    Compare(fivefoot::compare::cli::CompareArgs),
    /// Play a level in a window, skipping the menu.
    Play(PlayArgs),
    /// Print the key bindings in force, or write them to the player's bindings file.
    Bindings {
        /// Write the defaults to the bindings file (or PATH).
        #[arg(long)]
        write: bool,
        /// The file to write (default: $FIVEFOOT_BINDINGS or ./fivefoot-bindings.ron).
        #[arg(long)]
        path: Option<PathBuf>,
    },
    /// Generate a seeded arena level (scattered walls, rubble, low walls, two sides): the
    /// arena style of `fivefoot level generate`, with the sides it has always had.
    Arena(fivefoot::level::generate::cli::ArenaArgs),
    /// Open the level editor on a level (or a new map); with --apply, edit headless: apply a
    /// RON list of edits and save the result.
    Edit {
        /// The level to edit (or --new).
        level: Option<PathBuf>,
        /// Start from a blank map of this size instead (WIDTHxHEIGHT, up to 64x64).
        #[arg(long, conflicts_with = "level", value_parser = fivefoot::editor::cli::parse_size)]
        new: Option<(i32, i32)>,
        /// With --new: a hex map (played under hex-phases).
        #[arg(long, requires = "new")]
        hex: bool,
        /// The edits to apply (a RON list: Paint(…), PlaceUnit(…), Undo, …).
        #[arg(long)]
        apply: Option<PathBuf>,
        /// Where to write the result.
        #[arg(long, requires = "apply")]
        save: Option<PathBuf>,
        #[command(flatten)]
        window: EditWindow,
    },
    /// Level files: check them as the loader does, check their balance, or generate one.
    Level {
        #[command(subcommand)]
        action: LevelAction,
    },
    /// Check that a screenshot shows the board (not a blank window): for CI.
    CheckScreenshot {
        /// The PNG file.
        path: PathBuf,
    },
    /// Print the rules schedule as Bevy built it: each stage in run order with its systems,
    /// each with the components and resources Bevy says it reads and writes.
    Schedule {
        /// Rule variant.
        #[arg(long, default_value = "d20-classic")]
        rules: RulesVariant,
        /// A house rule (repeatable): its plugin follows the variant's.
        #[arg(long = "house-rule", value_enum)]
        house_rules: Vec<HouseRule>,
        /// One JSON object: {"variant", "house_rules", "sets": [{"name", "systems": [{"name",
        /// "reads", "writes"}]}]}.
        #[arg(long)]
        json: bool,
    },
    /// Ask the rules oracle one question about a level; prints one JSON object.
    Query {
        /// The level file (RON).
        level: PathBuf,
        /// Rule variant (default: the level's own).
        #[arg(long, global = true)]
        rules: Option<RulesVariant>,
        /// A house rule (repeatable; default: the level's own).
        #[arg(long = "house-rule", value_enum, global = true)]
        house_rules: Vec<HouseRule>,
        #[command(subcommand)]
        question: Question,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            // clap's whole message: what is wrong, the usage, the possible values, the --help hint.
            let _ = e.print();
            return ExitCode::from(2);
        }
    };
    if !matches!(cli.command, None | Some(Command::Play(_)) | Some(Command::Edit { .. })) {
        quiet_on_closed_pipe();
    }
    match cli.command {
        Some(Command::Query { level, rules, house_rules, question }) => {
            match query::run(&level, rules, &house_rules, &question) {
                Ok(json) => {
                    println!("{json}");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("fivefoot query: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Some(Command::Schedule { rules, house_rules, json }) => {
            let house_rules = match fivefoot::variants::house_rules_in_force(&house_rules, &[], rules) {
                Ok(h) => h,
                Err(e) => {
                    eprintln!("fivefoot schedule: {e}");
                    return ExitCode::from(2);
                }
            };
            let listing = fivefoot::combat::engine::Engine::with_house_rules(rules, &house_rules).listing();
            println!("{}", if json { listing.to_json() } else { listing.to_text() });
            ExitCode::SUCCESS
        }
        Some(Command::Play(args)) => play(args),
        Some(Command::Sim(args)) => sim(args),
        Some(Command::Compare(args)) => ExitCode::from(fivefoot::compare::cli::main(&args)),
        Some(Command::Bindings { write, path }) => bindings(write, path),
        Some(Command::Arena(args)) => report("fivefoot arena", fivefoot::level::generate::cli::run_arena(&args)),
        Some(Command::CheckScreenshot { path }) if !path.is_file() => {
            eprintln!("fivefoot check-screenshot: {}: no such file", path.display());
            ExitCode::from(2)
        }
        Some(Command::CheckScreenshot { path }) => match fivefoot::view::screenshot::check_board(&path) {
            Ok(summary) => {
                println!("{summary}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("fivefoot check-screenshot: {e}");
                ExitCode::FAILURE
            }
        },
        Some(Command::Level { action: LevelAction::Check { files } }) => fivefoot::editor::cli::level_check(&files),
        Some(Command::Level { action: LevelAction::Generate(args) }) => {
            report("fivefoot level generate", fivefoot::level::generate::cli::run_generate(&args))
        }
        Some(Command::Level { action: LevelAction::Balance { file, rules, battles, seed, json } }) => {
            fivefoot::editor::cli::level_balance(&file, rules, battles, seed, json)
        }
        Some(Command::Edit { level, new, hex, apply, save, window }) => {
            use fivefoot::editor::{Document, cli};
            let start = match (&level, new) {
                (Some(path), _) => cli::read_level(path).map(Document::new),
                (None, Some((w, h))) => Document::blank(w, h, hex),
                (None, None) => Err("give a LEVEL to edit, or --new WIDTHxHEIGHT".into()),
            };
            let (Some(apply), Some(save)) = (apply, save) else {
                return edit_window(start, level, window);
            };
            match cli::apply_and_save(start, &apply, &save, &fivefoot::level::Catalogue::builtin()) {
                Ok(done) => {
                    println!("{done}");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("fivefoot edit: {e}");
                    ExitCode::from(2)
                }
            }
        }
        None => menu(),
    }
}

/// How `fivefoot edit` opens its window.
#[derive(clap::Args, Debug)]
struct EditWindow {
    /// Save a PNG of the editor window after --frames frames, then exit.
    #[arg(long, conflicts_with = "apply")]
    screenshot: Option<PathBuf>,
    /// Frames to run before the screenshot.
    #[arg(long, default_value_t = 30)]
    frames: u32,
    /// Start with every rules layer on (threat, reach, cover, flanking, movement).
    #[arg(long, conflicts_with = "apply")]
    all_layers: bool,
    /// Keep the pointer over this square (X,Y), for screenshots and demos.
    #[arg(long, value_parser = parse_xy, hide = true)]
    hover: Option<(i32, i32)>,
    /// Print the mean CPU frame time when the window closes.
    #[arg(long, conflicts_with = "apply")]
    frame_report: bool,
    /// The window's size (WIDTHxHEIGHT).
    #[arg(long, conflicts_with = "apply", value_parser = fivefoot::play::parse_window)]
    window: Option<(u32, u32)>,
    /// A house rule for the play-tests (repeatable; default: the level's own).
    #[arg(long = "house-rule", value_enum, conflicts_with = "apply")]
    house_rules: Vec<HouseRule>,
}

/// `fivefoot edit LEVEL` (or `--new WxH`) without `--apply`: the editor window.
fn edit_window(start: Result<fivefoot::editor::Document, String>, path: Option<PathBuf>, w: EditWindow) -> ExitCode {
    let doc = match start {
        Ok(doc) => fivefoot::editor::EditorDoc::new(doc, path),
        Err(e) => {
            eprintln!("fivefoot edit: {e}");
            return ExitCode::from(2);
        }
    };
    let opts = fivefoot::play::PlayOptions {
        seed: 1,
        frames: w.frames,
        pace: 4.0,
        screenshot: w.screenshot,
        all_layers: w.all_layers,
        hover: w.hover,
        frame_report: w.frame_report,
        window: w.window,
        house_rules: w.house_rules,
        editor: Some(doc),
        ..Default::default()
    };
    finish(fivefoot::play::run(opts))
}

/// No command: the title menu, the default skirmish selected.
fn menu() -> ExitCode {
    let opts = fivefoot::play::PlayOptions { seed: 1, frames: 30, pace: 4.0, ..Default::default() };
    finish(fivefoot::play::run(opts))
}

fn play(args: PlayArgs) -> ExitCode {
    let opts = fivefoot::play::PlayOptions {
        level: if args.menu { None } else { Some(args.level.unwrap_or_else(fivefoot::play::default_level)) },
        hover: args.hover,
        all_layers: args.all_layers,
        rules: args.rules,
        side: args.side,
        watch: args.watch,
        frame_report: args.frame_report,
        seed: args.seed,
        screenshot: args.screenshot,
        frames: args.frames,
        pace: args.pace,
        editor: None,
        window: args.window,
        house_rules: args.house_rules,
        ais: args.ai.into_iter().collect(),
        compare: None,
    };
    finish(fivefoot::play::run(opts))
}

/// Prints what a command made, or its error (exit 2).
fn report(what: &str, outcome: Result<String, String>) -> ExitCode {
    match outcome {
        Ok(text) => {
            println!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{what}: {e}");
            ExitCode::from(2)
        }
    }
}

fn finish(outcome: Result<bevy::app::AppExit, String>) -> ExitCode {
    match outcome {
        Ok(bevy::app::AppExit::Success) => ExitCode::SUCCESS,
        Ok(bevy::app::AppExit::Error(code)) => ExitCode::from(code.get()),
        Err(e) => {
            eprintln!("fivefoot: {e}");
            ExitCode::from(2)
        }
    }
}

fn bindings(write: bool, path: Option<PathBuf>) -> ExitCode {
    use fivefoot::input::{Bindings, load_bindings, user_bindings_path};
    if write {
        let path = path.unwrap_or_else(user_bindings_path);
        return match Bindings::default().save(&path) {
            Ok(()) => {
                println!("wrote the default bindings to {}", path.display());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("fivefoot bindings: {e}");
                ExitCode::from(2)
            }
        };
    }
    let (b, problem) = load_bindings();
    if let Some(p) = problem {
        eprintln!("fivefoot bindings: {p}");
    }
    for (action, inputs) in &b.bindings {
        let keys: Vec<String> = inputs.iter().map(|i| i.label()).collect();
        println!("{:<18} {:<48} {}", format!("{action:?}"), action.describe(), keys.join(", "));
    }
    ExitCode::SUCCESS
}

fn sim(args: SimArgs) -> ExitCode {
    use fivefoot::combat::{BattleOptions, sim};
    let catalogue = fivefoot::level::Catalogue::builtin();
    let level = match fivefoot::level::Level::load(&args.level, &catalogue) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("fivefoot sim: {e}");
            return ExitCode::from(2);
        }
    };
    let sides = sim::sides_of(&level);
    if sides.len() < 2 {
        // A battle of one side (or none) is decided before it starts: nothing to simulate.
        eprintln!("fivefoot sim: {}: {}", args.level.display(), fivefoot::editor::check::TWO_SIDES);
        return ExitCode::from(2);
    }
    if args.swap_sides && sides.len() != 2 {
        eprintln!("fivefoot sim: --swap-sides needs two sides; {} has {}", args.level.display(), sides.len());
        return ExitCode::from(2);
    }
    if let Some((side, _)) = args.ai.iter().find(|(s, _)| !sides.contains(s)) {
        eprintln!("fivefoot sim: --ai names side \"{side}\", which has no units in {}", args.level.display());
        return ExitCode::from(2);
    }
    let rules = args.rules.unwrap_or(level.def.rules);
    let house_rules = match fivefoot::variants::house_rules_in_force(&args.house_rules, &level.def.house_rules, rules) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("fivefoot sim: {e}");
            return ExitCode::from(2);
        }
    };
    let spec = sim::SimSpec {
        rules,
        seed: args.seed,
        battles: args.battles,
        ais: args.ai.into_iter().collect(),
        options: BattleOptions { death_saves: args.death_saves, round_cap: args.round_cap, house_rules },
        check: args.check,
        swap_sides: args.swap_sides,
    };
    // The log is written beside its destination and renamed over it once complete, so an
    // interrupted run never leaves half a log in its place.
    let mut log_file = match args.log.as_deref().map(fivefoot::level::AtomicFile::create).transpose() {
        Ok(f) => f,
        Err(e) => {
            eprintln!("fivefoot sim: cannot write the log: {e}");
            return ExitCode::from(2);
        }
    };
    let bar = indicatif::ProgressBar::new(spec.battles as u64);
    bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
    if spec.battles < 200 {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let started = std::time::Instant::now();
    let log: Option<&mut dyn std::io::Write> = log_file.as_mut().map(|f| f as &mut dyn std::io::Write);
    let threads = args.threads.map_or_else(sim::default_threads, |n| n as usize).clamp(1, spec.battles.max(1) as usize);
    let progress = &mut |n: u32| bar.set_position(n as u64);
    let report = match sim::run_batch_on(&level, &catalogue, &spec, log, progress, threads) {
        Ok(r) => r,
        Err(e) => {
            bar.finish_and_clear();
            eprintln!("fivefoot sim: {e}");
            // A log that cannot be written is the user's input; a broken invariant is ours.
            return ExitCode::from(if matches!(e, sim::SimError::Log(_)) { 2 } else { 1 });
        }
    };
    if let Some(Err(e)) = log_file.map(fivefoot::level::AtomicFile::commit) {
        eprintln!("fivefoot sim: cannot write the log: {e}");
        return ExitCode::from(2);
    }
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "{} battles in {:.2} s ({:.0} battles/s, {threads} thread{})",
        report.battles,
        secs,
        report.battles as f64 / secs.max(1e-9),
        if threads == 1 { "" } else { "s" }
    );
    if args.check {
        let peak = peak_rss_mib().map_or_else(String::new, |m| format!("; peak memory {m} MiB"));
        eprintln!("{} commands, every invariant checked after each: none broken{peak}", report.commands);
    }
    if args.json {
        println!("{}", serde_json::to_string(&report).expect("reports serialise"));
    } else {
        println!("{} under {} — {} battles from seed {}", report.level, report.rules, report.battles, report.seed);
        for (side, n) in &report.wins {
            println!("  {side:>8}: {n}");
        }
        println!(
            "  mean rounds {:.2}, attacks {}, hits {}, criticals {}, attacks of opportunity {}, deaths {}",
            report.mean_rounds,
            report.attacks,
            report.hits,
            report.criticals,
            report.attacks_of_opportunity,
            report.deaths
        );
        for (ai, r) in report.ais.iter().flatten() {
            println!(
                "  {ai:>16}: {} won, {} lost, {} drawn; win rate {:.1} % (95 % CI {:.1}–{:.1} %); decision p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
                r.wins,
                r.losses,
                r.draws,
                r.win_rate * 100.0,
                r.ci95[0] * 100.0,
                r.ci95[1] * 100.0,
                r.decision_ms.p50,
                r.decision_ms.p99,
                r.decision_ms.max
            );
        }
    }
    ExitCode::SUCCESS
}

/// The most memory the process has held (Linux: VmHWM), for soak runs.
fn peak_rss_mib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// `fivefoot level check FILE…`: the problems of each file, one line each; 1 if any.
/// Warnings (`FILE: warning: …`) are printed too but leave the exit code 0.
/// `fivefoot level balance FILE`: the balance check, one block (or JSON object) per variant.
/// A command whose reader goes away (`fivefoot sim … | head -1`) ends quietly, as any Unix
/// tool does, instead of panicking in `println!` on the broken pipe.
fn quiet_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: called once at start-up, before any other thread exists; SIG_DFL for SIGPIPE
    // only restores the default disposition.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
