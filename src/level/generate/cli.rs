//! `fivefoot level generate` (a level of any style from a seed, to a file or as RON on
//! standard output) and `fivefoot arena` (the arena as it always was). Both return what to
//! print, or the one-line error.

use super::{GenerateSpec, MAX_SIDE, MIN_SIDE, Style, Symmetry, generate};
use crate::level::{Catalogue, Level, save_atomic, to_ron};
use crate::variants::RulesVariant;
use std::path::PathBuf;

/// `fivefoot level generate`.
#[derive(clap::Args, Debug, Clone)]
pub struct GenerateArgs {
    /// The look of the map.
    #[arg(long, value_enum, default_value_t = GenerateSpec::default().style)]
    pub style: Style,
    /// WIDTHxHEIGHT, each 8 to 64.
    #[arg(long, default_value = "24x16", value_parser = parse_size)]
    pub size: (i32, i32),
    /// A hex map (played under hex-phases).
    #[arg(long)]
    pub hex: bool,
    /// Mirroring of the map and the sides.
    #[arg(long, value_enum, default_value_t = GenerateSpec::default().symmetry)]
    pub symmetry: Symmetry,
    /// Units on both sides together (an even number; each side gets the same creatures).
    #[arg(long, default_value_t = GenerateSpec::default().units, value_parser = parse_units)]
    pub units: usize,
    /// The seed: the same seed and options give the same level, byte for byte.
    #[arg(long, default_value_t = GenerateSpec::default().seed)]
    pub seed: u64,
    /// Write the level here (atomically) instead of printing it.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

impl GenerateArgs {
    pub fn spec(&self) -> GenerateSpec {
        GenerateSpec {
            width: self.size.0,
            height: self.size.1,
            hex: self.hex,
            style: self.style,
            symmetry: self.symmetry,
            units: self.units,
            seed: self.seed,
        }
    }
}

/// Reads `WxH` ("24x16"), each side 8 to 64.
pub fn parse_size(s: &str) -> Result<(i32, i32), String> {
    let (w, h) = crate::level::parse_dimensions(s)?;
    if !(MIN_SIDE..=MAX_SIDE).contains(&w) || !(MIN_SIDE..=MAX_SIDE).contains(&h) {
        return Err(format!("a generated map is {MIN_SIDE} to {MAX_SIDE} squares each way, not {w}x{h}"));
    }
    Ok((w, h))
}

/// Reads the unit count: even, at most the most a level may hold.
pub fn parse_units(s: &str) -> Result<usize, String> {
    let n: usize = s.trim().parse().map_err(|_| format!("expected a number of units, not \"{s}\""))?;
    if n % 2 == 1 {
        return Err(format!("{n} units cannot make two equal sides: give an even number"));
    }
    if n > crate::level::MAX_UNITS {
        return Err(format!("{n} units, at most {} are allowed", crate::level::MAX_UNITS));
    }
    Ok(n)
}

/// The whole of `fivefoot level generate`: the RON to print (no `--out`) or what was written.
pub fn run_generate(args: &GenerateArgs) -> Result<String, String> {
    let def = generate(&args.spec()).map_err(|e| e.to_string())?;
    match &args.out {
        None => to_ron(&def).map(|t| t.trim_end().to_string()),
        Some(out) => {
            save_atomic(&def, out).map_err(|e| e.to_string())?;
            let (w, h) = args.size;
            Ok(format!("wrote {} ({w}x{h}, {}, {} units)", out.display(), args.style.label(), def.units.len()))
        }
    }
}

/// `fivefoot arena`: the arena style with the sides it has always had.
#[derive(clap::Args, Debug, Clone)]
pub struct ArenaArgs {
    /// Where to write the level (RON).
    pub out: PathBuf,
    #[arg(long, default_value_t = 64)]
    pub width: usize,
    #[arg(long, default_value_t = 64)]
    pub height: usize,
    #[arg(long, default_value_t = 40)]
    pub units: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The level's rule variant.
    #[arg(long, default_value = "d20-classic")]
    pub rules: RulesVariant,
    /// The level's name.
    #[arg(long, default_value = "Arena")]
    pub name: String,
}

/// The whole of `fivefoot arena`.
pub fn run_arena(a: &ArenaArgs) -> Result<String, String> {
    let (width, height, units) = (a.width, a.height, a.units);
    // Walls ring the arena: under 4 squares a side there is no room inside for an ogre. Above
    // the editor's largest map a level could not be edited (and the sizes would overflow).
    if width > super::MAX_SIDE as usize || height > super::MAX_SIDE as usize {
        return Err(format!("an arena is at most {0}x{0} squares, not {width}x{height}", super::MAX_SIDE));
    }
    if width < 4 || height < 4 {
        return Err(format!("an arena needs at least 4x4 squares, not {width}x{height}"));
    }
    let mut def = super::arena(width, height, units, a.seed);
    if units > 0 && def.units.is_empty() {
        return Err(format!("a {width}x{height} arena has no room for any of the {units} units"));
    }
    def.rules = a.rules;
    def.name = a.name.clone();
    Level::from_def(def.clone(), Catalogue::builtin_ref()).map_err(|e| e.to_string())?;
    save_atomic(&def, &a.out).map_err(|e| e.to_string())?;
    Ok(format!("wrote {} ({width}x{height}, {} units)", a.out.display(), def.units.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: GenerateArgs,
    }

    #[test]
    fn the_command_lines_defaults_are_the_generators() {
        assert_eq!(Cli::parse_from(["generate"]).args.spec(), GenerateSpec::default());
    }
}
