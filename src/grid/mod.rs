//! The battle grid: positions, footprints by size, distance metrics (5/10/5 squares,
//! straight-line OSR ranges, odd-r hexes), neighbours and the lines used for cover.
//! Pure geometry, no ECS: every rule above it is built from these functions.

mod bits;
mod distance;
mod line;
mod terrain;

pub use bits::{BitGrid, Run, mask};
pub use distance::{Metric, Shape};
pub use distance::{box_gap, hex_steps};
pub use line::{
    CrossedSpans, crossed_runs_are_columns, for_each_crossed_cell, for_each_crossed_run, for_each_crossed_span,
    for_each_face_pair, hex_line_all, hex_line_cells, segment_crosses_cell, segment_crosses_cell_at_once,
    square_corners, straight_line,
};
pub use terrain::{Terrain, TerrainMap};

use serde::{Deserialize, Serialize};
use std::fmt;

/// One 5-ft square (or hex): `x` is the column, `y` the row, (0, 0) top-left.
/// Ordered row-major (by `y`, then `x`), the order every listing uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GridPos {
    pub x: i32,
    pub y: i32,
}

impl GridPos {
    pub const fn new(x: i32, y: i32) -> Self {
        Self { x, y }
    }
    pub const fn offset(self, dx: i32, dy: i32) -> Self {
        Self::new(self.x + dx, self.y + dy)
    }
}

impl Ord for GridPos {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.y, self.x).cmp(&(other.y, other.x))
    }
}
impl PartialOrd for GridPos {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl From<(i32, i32)> for GridPos {
    fn from((x, y): (i32, i32)) -> Self {
        Self::new(x, y)
    }
}

impl fmt::Display for GridPos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// Creature size categories, as the d20 sources name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Size {
    Fine,
    Diminutive,
    Tiny,
    Small,
    Medium,
    Large,
    Huge,
    Gargantuan,
}

impl Size {
    /// Side of the square footprint in grid cells (rules-notes: Large 2×2, Huge 3×3…).
    pub const fn side(self) -> i32 {
        match self {
            Size::Fine | Size::Diminutive | Size::Tiny | Size::Small | Size::Medium => 1,
            Size::Large => 2,
            Size::Huge => 3,
            Size::Gargantuan => 4,
        }
    }

    /// Natural reach of a tall creature of this size, in feet.
    pub const fn natural_reach_ft(self) -> u32 {
        match self {
            Size::Fine | Size::Diminutive | Size::Tiny => 0,
            Size::Small | Size::Medium => 5,
            Size::Large => 10,
            Size::Huge => 15,
            Size::Gargantuan => 20,
        }
    }

    /// The d20 size modifier to attack rolls and AC.
    pub const fn size_modifier(self) -> i32 {
        match self {
            Size::Fine => 8,
            Size::Diminutive => 4,
            Size::Tiny => 2,
            Size::Small => 1,
            Size::Medium => 0,
            Size::Large => -1,
            Size::Huge => -2,
            Size::Gargantuan => -4,
        }
    }
}

/// The squares a creature occupies: a `side`×`side` block whose top-left is `origin`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Footprint {
    pub origin: GridPos,
    pub side: i32,
}

impl Footprint {
    pub const fn new(origin: GridPos, side: i32) -> Self {
        Self { origin, side }
    }
    pub const fn single(origin: GridPos) -> Self {
        Self { origin, side: 1 }
    }
    pub fn at(self, origin: GridPos) -> Self {
        Self { origin, ..self }
    }
    pub fn contains(&self, p: GridPos) -> bool {
        p.x >= self.origin.x
            && p.y >= self.origin.y
            && p.x < self.origin.x + self.side
            && p.y < self.origin.y + self.side
    }
    /// Squares row by row, top-left first.
    pub fn cells(&self) -> impl Iterator<Item = GridPos> + '_ {
        let o = self.origin;
        let s = self.side;
        (0..s).flat_map(move |dy| (0..s).map(move |dx| o.offset(dx, dy)))
    }
    pub fn overlaps(&self, other: &Footprint) -> bool {
        self.origin.x < other.origin.x + other.side
            && other.origin.x < self.origin.x + self.side
            && self.origin.y < other.origin.y + other.side
            && other.origin.y < self.origin.y + self.side
    }
}

/// A rectangle of squares: its top-left corner and its size (a part of a board).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    pub origin: GridPos,
    pub width: i32,
    pub height: i32,
}

impl Window {
    /// The squares of `f`.
    pub fn around(f: Footprint) -> Window {
        Window { origin: f.origin, width: f.side, height: f.side }
    }
    /// Grown just enough to hold `f` too.
    pub fn take_in(&mut self, f: Footprint) {
        let (x0, y0) = (self.origin.x.min(f.origin.x), self.origin.y.min(f.origin.y));
        let x1 = (self.origin.x + self.width).max(f.origin.x + f.side);
        let y1 = (self.origin.y + self.height).max(f.origin.y + f.side);
        *self = Window { origin: GridPos::new(x0, y0), width: x1 - x0, height: y1 - y0 };
    }
    /// `by` squares wider on every side, kept within a board of `width`×`height`.
    pub fn widened_within(self, by: i32, width: i32, height: i32) -> Window {
        let (x0, y0) = ((self.origin.x - by).max(0), (self.origin.y - by).max(0));
        let x1 = (self.origin.x + self.width + by).min(width);
        let y1 = (self.origin.y + self.height + by).min(height);
        Window { origin: GridPos::new(x0, y0), width: x1 - x0, height: y1 - y0 }
    }
    pub fn overlaps(&self, f: &Footprint) -> bool {
        f.origin.x < self.origin.x + self.width
            && self.origin.x < f.origin.x + f.side
            && f.origin.y < self.origin.y + self.height
            && self.origin.y < f.origin.y + f.side
    }
    pub fn holds(&self, f: &Footprint) -> bool {
        f.origin.x >= self.origin.x
            && f.origin.y >= self.origin.y
            && f.origin.x + f.side <= self.origin.x + self.width
            && f.origin.y + f.side <= self.origin.y + self.height
    }
}

/// The eight square-grid directions, orthogonals first (stable order for searches).
pub const SQUARE_DIRS: [(i32, i32); 8] = [(1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, 1), (-1, -1), (1, -1)];

/// Odd-r hex neighbours for even rows and odd rows (pointy-top, odd rows shifted right).
pub const HEX_DIRS_EVEN: [(i32, i32); 6] = [(1, 0), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1)];
pub const HEX_DIRS_ODD: [(i32, i32); 6] = [(1, 0), (1, 1), (0, 1), (-1, 0), (0, -1), (1, -1)];

/// The neighbour offsets of `p` on a grid of this shape.
pub fn neighbour_offsets(shape: Shape, p: GridPos) -> &'static [(i32, i32)] {
    match shape {
        Shape::Square => &SQUARE_DIRS,
        Shape::Hex if p.y.rem_euclid(2) == 0 => &HEX_DIRS_EVEN,
        Shape::Hex => &HEX_DIRS_ODD,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn footprints_follow_size() {
        assert_eq!(Size::Medium.side(), 1);
        assert_eq!(Size::Small.side(), 1);
        assert_eq!(Size::Large.side(), 2);
        assert_eq!(Size::Huge.side(), 3);
        assert_eq!(Size::Gargantuan.side(), 4);
        let fp = Footprint::new(GridPos::new(3, 4), 2);
        let cells: Vec<_> = fp.cells().collect();
        assert_eq!(cells, vec![GridPos::new(3, 4), GridPos::new(4, 4), GridPos::new(3, 5), GridPos::new(4, 5)]);
        assert!(fp.contains(GridPos::new(4, 5)));
        assert!(!fp.contains(GridPos::new(5, 5)));
    }

    #[test]
    fn footprint_overlap() {
        let a = Footprint::new(GridPos::new(0, 0), 2);
        assert!(a.overlaps(&Footprint::single(GridPos::new(1, 1))));
        assert!(!a.overlaps(&Footprint::single(GridPos::new(2, 1))));
    }

    #[test]
    fn natural_reach_by_size() {
        assert_eq!(Size::Medium.natural_reach_ft(), 5);
        assert_eq!(Size::Small.natural_reach_ft(), 5);
        assert_eq!(Size::Large.natural_reach_ft(), 10);
        assert_eq!(Size::Huge.natural_reach_ft(), 15);
    }
}
