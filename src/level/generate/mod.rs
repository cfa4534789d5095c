//! The seeded level generator: a map of any style (the classic arena, ruins, a forest, a
//! fortress) filled from a seed, mirrored under a symmetry so the sides are fair, then two
//! sides of the same creatures from the catalogue placed on it, every unit able to reach
//! the other side. The same spec gives the same level, byte for byte.
//!
//! The pipeline: the style draws its terrain (`terrain`), the symmetry copies one half over
//! the other, the sides are placed in their deployment zones (mirror images of each other
//! under a symmetry), a sealed-off unit gets a path carved to the enemy (mirrored too), and
//! the loader's validator checks the result.

mod arena;
pub mod cli;
mod sides;
mod terrain;
#[cfg(test)]
mod tests;

pub use arena::arena;

use super::{Catalogue, Level, LevelDef, MapDef};
use crate::grid::{Footprint, Shape, Terrain};
use crate::variants::RulesVariant;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Smallest side of a generated map.
pub const MIN_SIDE: i32 = 8;
/// Largest side of a generated map (the editor's largest).
pub const MAX_SIDE: i32 = 64;

/// What the map looks like.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum)]
pub enum Style {
    /// Walls ringing the map, scattered walls, rubble and low walls (`fivefoot arena`).
    Arena,
    /// Broken rooms and wall fragments with gaps, rubble where walls fell.
    #[default]
    Ruins,
    /// Clumps of trees (difficult ground) around a few trunks, and a few rocks.
    Forest,
    /// Walls with battlements (low walls) and gates: a keep held by one side, or under a
    /// symmetry two facing walls, one for each side.
    Fortress,
}

impl Style {
    pub const ALL: [Style; 4] = [Style::Arena, Style::Ruins, Style::Forest, Style::Fortress];

    pub const fn label(self) -> &'static str {
        match self {
            Style::Arena => "Arena",
            Style::Ruins => "Ruins",
            Style::Forest => "Forest",
            Style::Fortress => "Fortress",
        }
    }
}

/// Mirroring, so two-sided maps are fair: the editor paints and places under it, and the
/// generator builds its maps with it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum)]
pub enum Symmetry {
    #[default]
    None,
    LeftRight,
    TopBottom,
    Point,
}

impl Symmetry {
    pub const ALL: [Symmetry; 4] = [Symmetry::None, Symmetry::LeftRight, Symmetry::TopBottom, Symmetry::Point];

    /// No symmetry (for serde's `skip_serializing_if`).
    pub fn is_none(&self) -> bool {
        *self == Symmetry::None
    }

    pub const fn label(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::LeftRight => "left-right",
            Symmetry::TopBottom => "top-bottom",
            Symmetry::Point => "point",
        }
    }

    /// Where a `side`×`side` footprint with top-left square `(x, y)` lands when mirrored on
    /// a `w`×`h` map of `shape` (itself under no symmetry), or `None` when its image is not
    /// wholly on the map (off the map already, or on the edge a hex map's mirror leaves
    /// over).
    ///
    /// On odd-r hexes a row's half-hex offset must mirror too: top-bottom keeps each row's
    /// parity (with an even count of rows, the last row has no image), and left-right takes
    /// odd rows one hex further left (the last hex of an odd row has no image). So the image
    /// of a hex's six neighbours is its image's six neighbours. A footprint of several hexes
    /// mirrors exactly top-bottom; left-right, whose rows shift apart, it lands where its
    /// top row's image starts.
    pub fn mirror_footprint(self, at: (i32, i32), side: i32, w: i32, h: i32, shape: Shape) -> Option<(i32, i32)> {
        let (x, y) = self.reflect(at, side, w, h, shape);
        (x >= 0 && y >= 0 && x <= w - side && y <= h - side).then_some((x, y))
    }

    /// The mirror image of one square, or `None` where it has none on the map.
    pub fn mirror(self, cell: (i32, i32), w: i32, h: i32, shape: Shape) -> Option<(i32, i32)> {
        self.mirror_footprint(cell, 1, w, h, shape)
    }

    /// The reflection's arithmetic, on or off the map. Saturating: a square far off the map
    /// mirrors far off it, never overflows.
    fn reflect(self, (x, y): (i32, i32), side: i32, w: i32, h: i32, shape: Shape) -> (i32, i32) {
        let across = |n: i32, v: i32| n.saturating_sub(v).saturating_sub(side);
        let hex = shape == Shape::Hex;
        let left_right = || across(w, x).saturating_sub(i32::from(hex && y.rem_euclid(2) == 1));
        let rows = if hex && h.rem_euclid(2) == 0 { h - 1 } else { h };
        match self {
            Symmetry::None => (x, y),
            Symmetry::LeftRight => (left_right(), y),
            Symmetry::TopBottom => (x, across(rows, y)),
            Symmetry::Point => (left_right(), across(rows, y)),
        }
    }
}

/// Everything a generated level depends on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GenerateSpec {
    pub width: i32,
    pub height: i32,
    /// A hex map, played under hex-phases.
    pub hex: bool,
    pub style: Style,
    pub symmetry: Symmetry,
    /// Units on both sides together (even: the sides are the same creatures).
    pub units: usize,
    pub seed: u64,
}

impl GenerateSpec {
    /// The shape of the map: hexes for a hex map.
    pub fn shape(&self) -> Shape {
        if self.hex { Shape::Hex } else { Shape::Square }
    }
}

impl Default for GenerateSpec {
    fn default() -> Self {
        GenerateSpec {
            width: 24,
            height: 16,
            hex: false,
            style: Style::Ruins,
            symmetry: Symmetry::LeftRight,
            units: 8,
            seed: 1,
        }
    }
}

/// Why a level could not be generated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    #[error("a generated map is {} to {} squares each way, not {w}x{h}", MIN_SIDE, MAX_SIDE)]
    Size { w: i32, h: i32 },
    #[error("{0} units cannot make two equal sides: give an even number")]
    OddUnits(usize),
    #[error("{count} units, at most {} are allowed", super::MAX_UNITS)]
    TooManyUnits { count: usize },
    #[error("no room for {wanted} units on this {w}x{h} map (placed {placed}): try fewer units or a larger map")]
    NoRoom { wanted: usize, placed: usize, w: i32, h: i32 },
    #[error("the generated level is not valid: {0}")]
    Invalid(String),
}

/// Generates a level from a spec with the built-in catalogue.
pub fn generate(spec: &GenerateSpec) -> Result<LevelDef, GenerateError> {
    generate_with(spec, Catalogue::builtin_ref())
}

/// Generates a level from a spec; the sides are drawn from `catalogue`.
pub fn generate_with(spec: &GenerateSpec, catalogue: &Catalogue) -> Result<LevelDef, GenerateError> {
    let (w, h) = (spec.width, spec.height);
    if !(MIN_SIDE..=MAX_SIDE).contains(&w) || !(MIN_SIDE..=MAX_SIDE).contains(&h) {
        return Err(GenerateError::Size { w, h });
    }
    if spec.units % 2 == 1 {
        return Err(GenerateError::OddUnits(spec.units));
    }
    if spec.units > super::MAX_UNITS {
        return Err(GenerateError::TooManyUnits { count: spec.units });
    }
    let mut rng = ChaCha8Rng::seed_from_u64(spec.seed);
    let drawn = terrain::draw(spec.style, spec.symmetry, w, h, &mut rng);
    let mut grid = drawn.grid;
    let shape = spec.shape();
    grid.symmetrize(spec.symmetry, shape);
    let zones = sides::Zones::new(spec.symmetry, w, h, drawn.blue, drawn.red);
    let units = sides::place(&grid, spec, &zones, catalogue, &mut rng)?;
    sides::connect(&mut grid, &units, spec.symmetry, shape, catalogue);
    let rules = if spec.hex { RulesVariant::on_hexes() } else { RulesVariant::default() };
    let def = LevelDef {
        version: Some(crate::level::LEVEL_VERSION),
        name: format!("{} {w}×{h} ({}, seed {})", spec.style.label(), spec.symmetry.label(), spec.seed),
        rules,
        map: MapDef { rows: grid.rows() },
        units,
        death_saves: None,
        house_rules: vec![],
        sides: vec![],
        symmetry: spec.symmetry,
    };
    Level::from_def(def.clone(), catalogue).map_err(|e| GenerateError::Invalid(e.to_string()))?;
    Ok(def)
}

/// A map being drawn: terrain by square, row by row. Squares off the map read as wall and
/// ignore writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Grid {
    pub w: i32,
    pub h: i32,
    cells: Vec<Terrain>,
}

impl Grid {
    pub fn new(w: i32, h: i32, fill: Terrain) -> Grid {
        Grid { w, h, cells: vec![fill; (w.max(0) * h.max(0)) as usize] }
    }

    pub fn inside(&self, (x, y): (i32, i32)) -> bool {
        x >= 0 && y >= 0 && x < self.w && y < self.h
    }

    fn index(&self, (x, y): (i32, i32)) -> Option<usize> {
        self.inside((x, y)).then(|| (y * self.w + x) as usize)
    }

    pub fn get(&self, c: (i32, i32)) -> Terrain {
        self.index(c).and_then(|i| self.cells.get(i)).copied().unwrap_or(Terrain::Wall)
    }

    pub fn set(&mut self, c: (i32, i32), t: Terrain) {
        if let Some(cell) = self.index(c).and_then(|i| self.cells.get_mut(i)) {
            *cell = t;
        }
    }

    /// Every square, row by row.
    pub fn squares(&self) -> impl Iterator<Item = (i32, i32)> + use<> {
        let (w, h) = (self.w, self.h);
        (0..h).flat_map(move |y| (0..w).map(move |x| (x, y)))
    }

    /// Copies one half onto the other so the map is its own mirror image: the left half is
    /// the original (the top half under top-bottom symmetry), where blue deploys. Squares
    /// with no image are walled.
    pub fn symmetrize(&mut self, symmetry: Symmetry, shape: Shape) {
        let (w, h) = (self.w, self.h);
        let key = |(x, y): (i32, i32)| match symmetry {
            Symmetry::None => 0,
            Symmetry::LeftRight => x,
            Symmetry::TopBottom => y,
            Symmetry::Point => x * h + y,
        };
        for c in self.squares() {
            match symmetry.mirror(c, w, h, shape) {
                // A hex with no image (the edge a hex map's mirror leaves over) is walled,
                // so neither side has ground the other lacks.
                None => self.set(c, Terrain::Wall),
                Some(m) if key(c) > key(m) => self.set(c, self.get(m)),
                Some(_) => {}
            }
        }
    }

    /// Whether a `side`×`side` creature at `from` can walk, as the rules move it, to a place
    /// next to one of `enemies`.
    pub fn reaches(&self, shape: Shape, from: (i32, i32), side: i32, enemies: &[Footprint]) -> bool {
        let map = crate::grid::TerrainMap::new(self.w, self.h, self.cells.clone());
        super::can_reach(&map, shape, crate::grid::GridPos::new(from.0, from.1), side, enemies)
    }

    pub fn rows(&self) -> Vec<String> {
        (0..self.h).map(|y| (0..self.w).map(|x| self.get((x, y)).to_char()).collect()).collect()
    }
}
