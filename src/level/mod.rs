//! Levels: the `levels/*.ron` schema (a contract), loading with errors that name the
//! file, line and column or the offending unit, atomic saving, and the catalogues.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod catalogue;
mod error;
pub mod generate;
mod locate;
mod reach;
mod symmetric;
pub use symmetric::hex_layout_note;

pub use catalogue::*;
pub use error::LevelError;
pub use generate::{GenerateError, GenerateSpec, Style, arena, generate};
pub(crate) use reach::can_reach;
pub use reach::{Warning, warnings};

use crate::grid::{Footprint, GridPos, Size, Terrain, TerrainMap};
use crate::variants::RulesVariant;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Most units a level may hold (the rules keep unit sets in 128-bit masks).
pub const MAX_UNITS: usize = 128;
/// The most hit points a creature or unit may have: far above any real creature, and small
/// enough that the rules' doubled and summed hit points stay inside an `i32`.
pub const MAX_HP: i32 = 1_000_000;

/// The newest version of the level schema this build reads (and writes).
pub const LEVEL_VERSION: u32 = 1;

/// A level as written in RON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelDef {
    /// The schema's version; a file without one is version 1. A version newer than
    /// [`LEVEL_VERSION`] is refused, naming where it is written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<u32>,
    pub name: String,
    /// The default rule variant.
    #[serde(default)]
    pub rules: RulesVariant,
    pub map: MapDef,
    pub units: Vec<UnitDef>,
    /// d20-classic death saves for this scenario (default: stats-matter).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub death_saves: Option<DeathSaves>,
    /// How sides are shown and who plays them by default, where the level says so.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sides: Vec<SideDef>,
    /// The symmetry the level is built to (the editor paints and places under it, and `level
    /// check` warns where it does not hold); none by default.
    #[serde(default, skip_serializing_if = "generate::Symmetry::is_none")]
    pub symmetry: generate::Symmetry,
    /// The house rules it is played with by default (those that apply to the variant
    /// chosen).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub house_rules: Vec<crate::variants::HouseRule>,
}

/// A side's colour and whether a person plays it by default.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideDef {
    pub name: String,
    /// Its tokens' colour, red, green and blue (otherwise one chosen from its name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colour: Option<(u8, u8, u8)>,
    /// A person plays this side unless told otherwise (the others are the AI's).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub person: bool,
    /// The AI that plays it by default in the window (`greedy`, `tactical`, `tactical:hard`…;
    /// otherwise the skirmish's `game::SKIRMISH_AI`, and greedy on the compare boards).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ai: Option<crate::combat::AiKind>,
}

impl LevelDef {
    /// The AI the level names for each side that names one.
    pub fn side_ais(&self) -> std::collections::BTreeMap<String, crate::combat::AiKind> {
        self.sides.iter().filter_map(|s| Some((s.name.clone(), s.ai?))).collect()
    }

    /// What the level says of `side`, if anything.
    pub fn side(&self, side: &str) -> Option<&SideDef> {
        self.sides.iter().find(|s| s.name == side)
    }

    /// The side a person plays by default: the first marked so, else the first unit's.
    pub fn person_side(&self) -> Option<&str> {
        let marked = self.sides.iter().find(|s| s.person && self.units.iter().any(|u| u.side == s.name));
        marked.map(|s| s.name.as_str()).or_else(|| self.units.first().map(|u| u.side.as_str()))
    }
}

/// How d20-classic resolves dying (source 002's three death-roll types).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(try_from = "String", into = "String")]
pub enum DeathSaves {
    /// "In death, all are equal": d% ≥ 51, each failure 10 harder.
    AllAreEqual,
    /// "Stats matter!": Fortitude vs 10 + Hit Dice − Con modifier.
    #[default]
    StatsMatter,
    /// "Brutality": Fortitude vs 10 + the damage that dropped the character.
    Brutality,
}

/// The terrain rows, one character per 5-ft square.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapDef {
    pub rows: Vec<String>,
}

/// One unit placed on the map.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitDef {
    pub id: String,
    pub side: String,
    /// Top-left square of the unit's footprint.
    pub at: (i32, i32),
    pub creature: String,
    /// Overrides the creature's wielded weapon.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weapon: Option<String>,
    /// Overrides the creature's size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<Size>,
    /// Overrides the creature's hit points.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hp: Option<i32>,
    /// Whether the unit is aware of its foes when the fight starts (default true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aware: Option<bool>,
}

impl UnitDef {
    /// A unit of `creature` for `side` at `at`, with the creature's own weapon, size and
    /// hit points, aware of its foes.
    pub fn new(id: impl Into<String>, side: impl Into<String>, at: (i32, i32), creature: impl Into<String>) -> UnitDef {
        UnitDef {
            id: id.into(),
            side: side.into(),
            at,
            creature: creature.into(),
            weapon: None,
            size: None,
            hp: None,
            aware: None,
        }
    }

    pub fn pos(&self) -> GridPos {
        GridPos::new(self.at.0, self.at.1)
    }
    pub fn is_aware(&self) -> bool {
        self.aware.unwrap_or(true)
    }
}

/// A level checked against its catalogue: the terrain is parsed and every unit fits.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    pub def: LevelDef,
    pub terrain: TerrainMap,
    /// Where it was loaded from, for messages.
    pub source: PathBuf,
}

impl Level {
    /// Reads, parses and validates a level file.
    pub fn load(path: impl AsRef<Path>, catalogue: &Catalogue) -> Result<Level, LevelError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path)
            .map_err(|e| LevelError::Io { path: path.to_path_buf(), message: e.to_string() })?;
        Level::parse(&text, path, catalogue)
    }

    /// Parses and validates level text; `path` is only used in messages.
    pub fn parse(text: &str, path: &Path, catalogue: &Catalogue) -> Result<Level, LevelError> {
        let def: LevelDef = ron_options().from_str(text).map_err(|e| LevelError::Syntax {
            path: path.to_path_buf(),
            line: e.span.start.line,
            col: e.span.start.col,
            message: e.code.to_string(),
        })?;
        let terrain = validate(&def, text, path, catalogue)?;
        Ok(Level { def, terrain, source: path.to_path_buf() })
    }

    /// Validates a level built in code (no source text, so errors name units only).
    pub fn from_def(def: LevelDef, catalogue: &Catalogue) -> Result<Level, LevelError> {
        let path = PathBuf::from(format!("<{}>", def.name));
        let terrain = validate(&def, "", &path, catalogue)?;
        Ok(Level { def, terrain, source: path })
    }

    /// Size of a unit as placed (its override or its creature's).
    pub fn unit_size(&self, unit: &UnitDef, catalogue: &Catalogue) -> Size {
        unit.size.unwrap_or_else(|| catalogue.creature(&unit.creature).map_or(Size::Medium, |c| c.size))
    }
}

/// RON options levels are read and written with (bare optional values).
pub fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
}

fn validate(def: &LevelDef, text: &str, path: &Path, catalogue: &Catalogue) -> Result<TerrainMap, LevelError> {
    let file = path.to_path_buf();
    if let Some(found) = def.version.filter(|&v| v != LEVEL_VERSION) {
        let (line, col) = locate::top_field(text, "version");
        return Err(LevelError::Version { path: file, line, col, found });
    }
    let rows = &def.map.rows;
    let Some(first) = rows.first().filter(|row| !row.is_empty()) else {
        return Err(LevelError::EmptyMap { path: file });
    };
    let width = first.chars().count();
    for (y, row) in rows.iter().enumerate() {
        let n = row.chars().count();
        if n != width {
            let (line, col) = locate::row_char(text, y, 0);
            return Err(LevelError::RaggedRow { path: file, line, col, row: y, expected: width, found: n });
        }
    }
    let terrain = TerrainMap::from_rows(rows).map_err(|(y, x, ch)| {
        let (line, col) = locate::row_char(text, y, x);
        LevelError::UnknownTerrain { path: file.clone(), line, col, ch, x: x as i32, y: y as i32 }
    })?;
    if def.units.len() > MAX_UNITS {
        return Err(LevelError::TooManyUnits { path: file, count: def.units.len() });
    }

    let mut ids = BTreeSet::new();
    let mut placed: Vec<(&str, Footprint)> = Vec::with_capacity(def.units.len());
    for unit in &def.units {
        let at = |field: &str| locate::unit_field(text, &unit.id, field);
        let unit_err = |field: &str, problem: String| {
            let (line, col) = at(field);
            LevelError::Unit { path: file.clone(), line, col, unit: unit.id.clone(), problem }
        };
        if unit.id.trim().is_empty() {
            return Err(unit_err("id", "a unit needs a non-empty id".into()));
        }
        if !ids.insert(unit.id.as_str()) {
            let (line, col) = locate::nth_unit_field(text, &unit.id, "id", 1);
            return Err(LevelError::Unit {
                path: file.clone(),
                line,
                col,
                unit: unit.id.clone(),
                problem: "duplicate unit id".into(),
            });
        }
        if unit.side.trim().is_empty() {
            return Err(unit_err("side", "a unit needs a side".into()));
        }
        let Some(creature) = catalogue.creature(&unit.creature) else {
            let known: Vec<_> = catalogue.creatures.keys().map(String::as_str).collect();
            return Err(unit_err(
                "creature",
                format!("unknown creature \"{}\" (known: {})", unit.creature, known.join(", ")),
            ));
        };
        if let Some(w) = &unit.weapon
            && catalogue.weapon(w).is_none()
        {
            let known: Vec<_> = catalogue.weapons.keys().map(String::as_str).collect();
            return Err(unit_err("weapon", format!("unknown weapon \"{w}\" (known: {})", known.join(", "))));
        }
        if let Some(hp) = unit.hp
            && !(1..=MAX_HP).contains(&hp)
        {
            return Err(unit_err("hp", format!("hit points must be 1 to {MAX_HP}, not {hp}")));
        }
        let size = unit.size.unwrap_or(creature.size);
        let fp = Footprint::new(unit.pos(), size.side());
        for cell in fp.cells() {
            if !terrain.in_bounds(cell) {
                return Err(unit_err(
                    "at",
                    format!(
                        "{} is outside the {}×{} map",
                        if cell == unit.pos() {
                            format!("square {cell}")
                        } else {
                            format!("its footprint square {cell}")
                        },
                        terrain.width(),
                        terrain.height()
                    ),
                ));
            }
            if terrain.get(cell) == Terrain::Wall {
                return Err(unit_err("at", format!("stands on a wall at {cell}")));
            }
        }
        if let Some((other, _)) = placed.iter().find(|(_, o)| o.overlaps(&fp)) {
            return Err(unit_err("at", format!("overlaps unit \"{other}\"")));
        }
        placed.push((&unit.id, fp));
    }
    Ok(terrain)
}

impl TryFrom<String> for DeathSaves {
    type Error = String;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        <DeathSaves as clap::ValueEnum>::from_str(&s, false)
            .map_err(|_| format!("unknown death saves \"{s}\" (known: all-are-equal, stats-matter, brutality)"))
    }
}

impl From<DeathSaves> for String {
    fn from(d: DeathSaves) -> String {
        clap::ValueEnum::to_possible_value(&d).map_or_else(String::new, |v| v.get_name().to_string())
    }
}

/// Writes a level as pretty RON, atomically: a temporary file in the same folder is
/// written and synced, then renamed over the target, so a crash never leaves half a file.
pub fn save_atomic(def: &LevelDef, path: impl AsRef<Path>) -> Result<(), LevelError> {
    let path = path.as_ref();
    let io = |e: std::io::Error| LevelError::Io { path: path.to_path_buf(), message: e.to_string() };
    let text = to_ron(def).map_err(|e| LevelError::Io { path: path.to_path_buf(), message: e })?;
    write_atomic(path, &text).map_err(io)
}

/// A level as the pretty RON [`save_atomic`] writes, final newline and all.
pub fn to_ron(def: &LevelDef) -> Result<String, String> {
    let pretty = ron::ser::PrettyConfig::new()
        .struct_names(false)
        .extensions(ron::extensions::Extensions::IMPLICIT_SOME)
        .compact_arrays(false);
    let text = ron::Options::default().to_string_pretty(def, pretty).map_err(|e| e.to_string())?;
    Ok(format!("{text}\n"))
}

/// Writes `text` to `path` atomically: a temporary file in the same folder is written
/// and synced, then renamed over the target.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut f = AtomicFile::create(path)?;
    f.write_all(text.as_bytes())?;
    f.commit()
}

/// A file written beside its destination and renamed over it by [`AtomicFile::commit`]:
/// until then (and if the writer fails or is dropped) the old file stays as it was.
pub struct AtomicFile {
    tmp: PathBuf,
    path: PathBuf,
    out: Option<std::io::BufWriter<std::fs::File>>,
}

impl AtomicFile {
    pub fn create(path: &Path) -> std::io::Result<AtomicFile> {
        let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "file".into());
        let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
        let out = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
        Ok(AtomicFile { tmp, path: path.to_path_buf(), out: Some(out) })
    }

    /// Flushes and syncs what was written, then renames it over the destination.
    pub fn commit(mut self) -> std::io::Result<()> {
        let out = self.out.take().ok_or_else(|| std::io::Error::other("already committed"))?;
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        std::fs::rename(&self.tmp, &self.path)
    }
}

impl std::io::Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.out.as_mut().ok_or_else(|| std::io::Error::other("already committed"))?.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.as_mut().map_or(Ok(()), |o| o.flush())
    }
}

impl Drop for AtomicFile {
    /// Uncommitted (an error, a panic, a kill signal's unwinding): the temporary goes, the
    /// old file stays.
    fn drop(&mut self) {
        if self.out.is_some() || self.tmp.exists() {
            self.out = None;
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// Reads a map size written `WIDTHxHEIGHT` ("24x16"); whether it is a size the caller
/// allows is the caller's to say.
pub fn parse_dimensions(s: &str) -> Result<(i32, i32), String> {
    let bad = || format!("expected WIDTHxHEIGHT, like 24x16, not \"{s}\"");
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let n = |v: &str| v.trim().parse::<i32>().map_err(|_| bad());
    Ok((n(w)?, n(h)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn an_atomic_file_replaces_the_old_one_only_when_committed() {
        let dir = std::env::temp_dir().join(format!("fivefoot-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("level.ron");
        std::fs::write(&path, "old").unwrap();
        // Half written, then abandoned (an error or a panic mid-write): the old file stays.
        let mut f = AtomicFile::create(&path).unwrap();
        f.write_all(b"half of the new").unwrap();
        drop(f);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "no temporary file left behind");
        // Committed: the new text, whole.
        let mut f = AtomicFile::create(&path).unwrap();
        f.write_all(b"new").unwrap();
        f.commit().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        // A destination that cannot be replaced (a folder): an error, and nothing left over.
        let folder = dir.join("folder");
        std::fs::create_dir_all(&folder).unwrap();
        assert!(write_atomic(&folder, "text").is_err());
        assert!(folder.is_dir());
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
