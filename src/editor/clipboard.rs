//! Select, copy, cut, paste, rotate and flip: a rectangle of the map (its terrain and the
//! units standing wholly inside it) taken into a clip, turned or mirrored, and put down
//! elsewhere as ordinary edits (paint and place), so a paste is undone like anything else.

use super::edit::{cells, size_of};
use super::{Area, Edit};
use crate::grid::{Footprint, GridPos, Terrain};
use crate::level::{Catalogue, LevelDef, UnitDef};

/// A piece of a map: terrain row by row, and units placed relative to its top-left square.
#[derive(Clone, Debug, PartialEq)]
pub struct Clip {
    pub width: i32,
    pub height: i32,
    /// Row-major, `width × height`.
    pub terrain: Vec<Terrain>,
    pub units: Vec<UnitDef>,
}

/// The rectangle between two corners as (top-left, bottom-right).
pub fn corners(a: (i32, i32), b: (i32, i32)) -> ((i32, i32), (i32, i32)) {
    ((a.0.min(b.0), a.1.min(b.1)), (a.0.max(b.0), a.1.max(b.1)))
}

/// Copies the rectangle from `a` to `b` (inclusive, clipped to the map).
pub fn copy(level: &LevelDef, catalogue: &Catalogue, a: (i32, i32), b: (i32, i32)) -> Option<Clip> {
    let (h, w) = (level.map.rows.len() as i32, level.map.rows.first().map_or(0, |r| r.chars().count()) as i32);
    let ((x0, y0), (x1, y1)) = corners(a, b);
    let (x0, y0, x1, y1) = (x0.max(0), y0.max(0), x1.min(w - 1), y1.min(h - 1));
    if x0 > x1 || y0 > y1 {
        return None;
    }
    let grid: Vec<Vec<Terrain>> = level
        .map
        .rows
        .iter()
        .map(|r| r.chars().map(|c| Terrain::from_char(c).unwrap_or(Terrain::Floor)).collect())
        .collect();
    let mut terrain = vec![];
    for y in y0..=y1 {
        for x in x0..=x1 {
            terrain.push(grid.get(y as usize).and_then(|r| r.get(x as usize)).copied().unwrap_or(Terrain::Floor));
        }
    }
    let inside = |u: &UnitDef| {
        let s = size_of(u, catalogue).side();
        u.at.0 >= x0 && u.at.1 >= y0 && u.at.0 + s - 1 <= x1 && u.at.1 + s - 1 <= y1
    };
    let units = level
        .units
        .iter()
        .filter(|u| inside(u))
        .map(|u| UnitDef { at: (u.at.0 - x0, u.at.1 - y0), ..u.clone() })
        .collect();
    Some(Clip { width: x1 - x0 + 1, height: y1 - y0 + 1, terrain, units })
}

impl Clip {
    fn at(&self, x: i32, y: i32) -> Terrain {
        self.terrain[(y * self.width + x) as usize]
    }

    /// Turned a quarter clockwise.
    pub fn rotated(&self, catalogue: &Catalogue) -> Clip {
        let (w, h) = (self.height, self.width);
        let mut terrain = Vec::with_capacity(self.terrain.len());
        for y in 0..h {
            for x in 0..w {
                // New (x, y) shows old (y, height - 1 - x).
                terrain.push(self.at(y, self.height - 1 - x));
            }
        }
        let units = self
            .units
            .iter()
            .map(|u| {
                let s = size_of(u, catalogue).side();
                UnitDef { at: (self.height - u.at.1 - s, u.at.0), ..u.clone() }
            })
            .collect();
        Clip { width: w, height: h, terrain, units }
    }

    /// Mirrored left to right.
    pub fn flipped(&self, catalogue: &Catalogue) -> Clip {
        let mut terrain = Vec::with_capacity(self.terrain.len());
        for y in 0..self.height {
            for x in 0..self.width {
                terrain.push(self.at(self.width - 1 - x, y));
            }
        }
        let units = self
            .units
            .iter()
            .map(|u| {
                let s = size_of(u, catalogue).side();
                UnitDef { at: (self.width - u.at.0 - s, u.at.1), ..u.clone() }
            })
            .collect();
        Clip { terrain, units, ..self.clone() }
    }

    /// The squares the clip covers with its top-left square at `at`.
    pub fn footprint(&self, at: (i32, i32)) -> Vec<(i32, i32)> {
        cells(&Area::Rect { from: at, to: (at.0 + self.width - 1, at.1 + self.height - 1) })
    }

    /// The edits that put the clip down with its top-left square at `at`: the terrain, one
    /// paint per kind, then the units (their ids made unique as they are placed).
    pub fn paste_edits(&self, at: (i32, i32)) -> Vec<Edit> {
        let mut out = vec![];
        for kind in Terrain::ALL {
            let list: Vec<(i32, i32)> = (0..self.height)
                .flat_map(|y| (0..self.width).map(move |x| (x, y)))
                .filter(|&(x, y)| self.at(x, y) == kind)
                .map(|(x, y)| (at.0 + x, at.1 + y))
                .collect();
            if !list.is_empty() {
                out.push(Edit::Paint { terrain: kind, area: Area::Cells(list) });
            }
        }
        for u in &self.units {
            out.push(Edit::PlaceUnit {
                id: u.id.clone(),
                creature: u.creature.clone(),
                side: u.side.clone(),
                at: (at.0 + u.at.0, at.1 + u.at.1),
                weapon: u.weapon.clone(),
            });
        }
        out
    }
}

/// The edits that cut the rectangle from `a` to `b`: its units removed, its squares floor.
pub fn cut_edits(level: &LevelDef, catalogue: &Catalogue, a: (i32, i32), b: (i32, i32)) -> Vec<Edit> {
    let ((x0, y0), (x1, y1)) = corners(a, b);
    let fp = |u: &UnitDef| Footprint::new(u.pos(), size_of(u, catalogue).side());
    let rect = |c: GridPos| c.x >= x0 && c.y >= y0 && c.x <= x1 && c.y <= y1;
    let mut out: Vec<Edit> =
        level.units.iter().filter(|u| fp(u).cells().all(rect)).map(|u| Edit::RemoveUnit { id: u.id.clone() }).collect();
    out.push(Edit::Paint { terrain: Terrain::Floor, area: Area::Rect { from: (x0, y0), to: (x1, y1) } });
    out
}
