//! `fivefoot edit`, headless: `fivefoot edit LEVEL --apply EDITS.ron --save OUT.ron` (or
//! `--new WxH [--hex]` instead of LEVEL) applies a RON list of the same edits the tools
//! issue. A malformed edit file or an edit that cannot apply is an error naming the edit's
//! place in the list, and nothing is saved; the level is saved atomically. Also `fivefoot
//! level check FILE…`.

use super::{Document, Edit};
use crate::level::{Catalogue, LevelDef, ron_options, save_atomic};
use std::path::Path;

/// Reads `WxH` ("24x16").
pub fn parse_size(s: &str) -> Result<(i32, i32), String> {
    crate::level::parse_dimensions(s)
}

/// Reads a level's definition as written, problems and all (the editor opens levels the
/// game would refuse, so they can be mended).
pub fn read_level(path: &Path) -> Result<LevelDef, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    ron_options()
        .from_str::<LevelDef>(&text)
        .map_err(|e| format!("{}:{}:{}: {}", path.display(), e.span.start.line, e.span.start.col, e.code))
}

/// Reads a RON list of edits.
pub fn read_edits(path: &Path) -> Result<Vec<Edit>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    ron_options()
        .from_str::<Vec<Edit>>(&text)
        .map_err(|e| format!("{}:{}:{}: {}", path.display(), e.span.start.line, e.span.start.col, e.code))
}

/// Applies every edit in order to `doc`; the first that cannot apply stops it, named by
/// its place in the list (1-based) and kind.
pub fn apply_all(doc: &mut Document, edits: &[Edit], catalogue: &Catalogue, file: &Path) -> Result<(), String> {
    for (i, edit) in edits.iter().enumerate() {
        doc.apply(edit, catalogue).map_err(|why| {
            let kind = format!("{edit:?}");
            let kind = kind.split(['(', ' ', '{']).next().unwrap_or("edit");
            format!("{}: edit {} of {} ({kind}): {why}", file.display(), i + 1, edits.len())
        })?;
    }
    Ok(())
}

/// The whole of `fivefoot edit --apply`: returns what to print, or the error.
pub fn apply_and_save(
    start: Result<Document, String>,
    edits_file: &Path,
    out: &Path,
    catalogue: &Catalogue,
) -> Result<String, String> {
    let mut doc = start?;
    let edits = read_edits(edits_file)?;
    apply_all(&mut doc, &edits, catalogue, edits_file)?;
    save_atomic(doc.level(), out).map_err(|e| e.to_string())?;
    let (w, h) = (doc.level().map.rows.first().map_or(0, |r| r.chars().count()), doc.level().map.rows.len());
    Ok(format!("applied {} edits; wrote {} ({w}x{h}, {} units)", edits.len(), out.display(), doc.level().units.len()))
}

/// `fivefoot level check FILE…`: each file as the loader reads it, its problems by line and
/// column (exit 1 if any), its warnings, and `FILE: ok` for a valid one.
pub fn level_check(files: &[std::path::PathBuf]) -> std::process::ExitCode {
    let catalogue = crate::level::Catalogue::builtin();
    let mut problems = 0;
    for file in files {
        match crate::level::Level::load(file, &catalogue) {
            Ok(level) => {
                let playable = crate::game::summarise(&level).sides.len() >= 2;
                if !playable {
                    println!("{}: {}", file.display(), crate::editor::check::TWO_SIDES);
                    problems += 1;
                }
                // Warnings leave the level valid: printed, not counted.
                let warnings = crate::level::warnings(&level, &catalogue);
                for w in &warnings {
                    println!("{}: warning: {}", file.display(), w.message);
                }
                // A valid file says so, so that a silent success is not taken for nothing done.
                match warnings.len() {
                    _ if !playable => {}
                    0 => println!("{}: ok", file.display()),
                    1 => println!("{}: ok, 1 warning", file.display()),
                    n => println!("{}: ok, {n} warnings", file.display()),
                }
            }
            Err(e) => {
                // The loader's first problem, placed by line and column; then every other one
                // the editor's check finds, naming its unit.
                println!("{e}");
                problems += 1;
                if let Ok(def) = crate::editor::cli::read_level(file) {
                    for p in crate::editor::check::problems(&def, &catalogue).iter().skip(1) {
                        println!("{}: {}", file.display(), p.message);
                        problems += 1;
                    }
                }
            }
        }
    }
    if problems == 0 { std::process::ExitCode::SUCCESS } else { std::process::ExitCode::FAILURE }
}

/// `fivefoot level balance`: the balance check's reports, as text or one JSON array; a
/// level that cannot make a battle exits 2.
pub fn level_balance(
    file: &Path,
    rules: Option<crate::variants::RulesVariant>,
    battles: u32,
    seed: u64,
    json: bool,
) -> std::process::ExitCode {
    use super::balance::{BalanceSpec, check_balance, describe};
    use std::process::ExitCode;
    let catalogue = crate::level::Catalogue::builtin();
    let level = match crate::level::Level::load(file, &catalogue) {
        Ok(level) if crate::game::summarise(&level).sides.len() >= 2 => level,
        Ok(_) => {
            eprintln!("fivefoot level balance: {}: {}", file.display(), crate::editor::check::TWO_SIDES);
            return ExitCode::from(2);
        }
        Err(e) => {
            eprintln!("fivefoot level balance: {e}");
            return ExitCode::from(2);
        }
    };
    let variants = rules.map_or_else(|| crate::variants::RulesVariant::ALL.to_vec(), |v| vec![v]);
    let spec = BalanceSpec { battles, variants, seed, threads: crate::combat::sim::default_threads() };
    match check_balance(&level, &catalogue, &spec, &mut |_| {}) {
        Ok(reports) if json => {
            println!("{}", serde_json::to_string(&reports).unwrap_or_default());
            ExitCode::SUCCESS
        }
        Ok(reports) => {
            println!("{}", level.def.name);
            for r in &reports {
                print!("{}", describe(r));
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("fivefoot level balance: {e}");
            ExitCode::FAILURE
        }
    }
}
