//! The `fivefoot` command line: `play` (the default), `query`.

use clap::{Parser, Subcommand};
use fivefoot::RulesVariant;
use fivefoot::query::{self, Question};
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
    /// The side you play.
    #[arg(long)]
    side: Option<String>,
    /// Seed for the dice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Save a PNG of the window after --frames frames, then exit.
    #[arg(long)]
    screenshot: Option<PathBuf>,
    /// Frames to run before the screenshot.
    #[arg(long, default_value_t = 30)]
    frames: u32,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play a level in a window (the default command).
    Play(PlayArgs),
    /// Ask the rules oracle one question about a level; prints one JSON object.
    Query {
        /// The level file (RON).
        level: PathBuf,
        /// Rule variant (default: the level's own).
        #[arg(long, global = true)]
        rules: Option<RulesVariant>,
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
            let text = e.render().to_string();
            eprintln!("{}", text.lines().next().unwrap_or("invalid arguments"));
            return ExitCode::from(2);
        }
    };
    match cli.command {
        Some(Command::Query { level, rules, question }) => match query::run(&level, rules, &question) {
            Ok(json) => {
                println!("{json}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("fivefoot query: {e}");
                ExitCode::from(2)
            }
        },
        Some(Command::Play(args)) => play(args),
        None => play(PlayArgs { seed: 1, frames: 30, ..PlayArgs::default() }),
    }
}

fn play(args: PlayArgs) -> ExitCode {
    let opts = fivefoot::play::PlayOptions {
        level: args.level,
        rules: args.rules,
        side: args.side,
        seed: args.seed,
        screenshot: args.screenshot,
        frames: args.frames,
    };
    match fivefoot::play::run(opts) {
        Ok(bevy::app::AppExit::Success) => ExitCode::SUCCESS,
        Ok(bevy::app::AppExit::Error(code)) => ExitCode::from(code.get()),
        Err(e) => {
            eprintln!("fivefoot: {e}");
            ExitCode::from(2)
        }
    }
}
