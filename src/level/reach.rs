//! Warnings about a level that loads and plays but plays badly: a side that cannot reach
//! the other (no unit of it can walk next to a foe) and a unit with no way out (walls, the
//! map's edge or other units box it in so it cannot move at all). A level with warnings is
//! still valid.
//!
//! Movement is the rules' own (`rules::movement`): a footprint moves a square (or hex) at
//! a time onto places it fits, never cutting a wall's corner on squares; difficult ground
//! and low walls slow it but never stop it; allies are passed through but not stopped on;
//! foes block. Cost does not matter to either question, so one flood fill per side and
//! footprint size answers for every unit of that side at once (a search per unit would
//! not fit the editor's frame on a big map).
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use super::{Catalogue, Level};
use crate::grid::{Footprint, GridPos, Shape, TerrainMap, neighbour_offsets};

/// One warning, and what it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    pub message: String,
    /// The unit it is about, if any.
    pub unit: Option<String>,
    /// Where to look: that unit, or the first unit of the side it is about.
    pub at: Option<(i32, i32)>,
}

const NONE: u32 = u32::MAX;

/// Every warning about `level`: units with no way out (in the level's order), then sides
/// that cannot reach another (in name order; only with at least two sides does reaching
/// mean anything), then a symmetry it names that does not hold.
pub fn warnings(level: &Level, catalogue: &Catalogue) -> Vec<Warning> {
    let t = &level.terrain;
    let shape = level.def.rules.shape();
    let units: Vec<(&str, &str, Footprint)> = level
        .def
        .units
        .iter()
        .map(|u| (u.id.as_str(), u.side.as_str(), Footprint::new(u.pos(), level.unit_size(u, catalogue).side())))
        .collect();
    let grid = Grid { w: t.width(), h: t.height() };
    let mut occupant: Vec<Option<usize>> = vec![None; grid.len()];
    for (i, (_, _, fp)) in units.iter().enumerate() {
        for c in fp.cells() {
            if let Some(o) = grid.at(c).and_then(|k| occupant.get_mut(k)) {
                *o = Some(i);
            }
        }
    }
    let who = |c: GridPos| grid.at(c).and_then(|k| occupant.get(k).copied().flatten());
    let mut sides: Vec<&str> = units.iter().map(|u| u.1).collect();
    sides.sort_unstable();
    sides.dedup();
    let mut boxed = vec![false; units.len()];
    let mut stuck_sides = vec![];
    for &side in &sides {
        let foe_at = |c: GridPos| who(c).and_then(|o| units.get(o)).is_some_and(|u| u.1 != side);
        let mut reaches = false;
        let mut sizes: Vec<i32> = units.iter().filter(|u| u.1 == side).map(|u| u.2.side).collect();
        sizes.sort_unstable();
        sizes.dedup();
        for s in sizes {
            let (labels, touches) = regions(t, shape, s, &foe_at);
            // Per region: a place where nobody stands.
            let mut free = vec![false; touches.len()];
            for (k, &l) in labels.iter().enumerate() {
                let Some(l) = (l != NONE).then_some(l as usize) else { continue };
                if Footprint::new(grid.pos(k), s).cells().all(|c| who(c).is_none())
                    && let Some(f) = free.get_mut(l)
                {
                    *f = true;
                }
            }
            for (i, (_, _, fp)) in units.iter().enumerate().filter(|(_, u)| u.1 == side && u.2.side == s) {
                let region = grid.at(fp.origin).and_then(|k| labels.get(k)).copied().unwrap_or(NONE);
                let Some(l) = (region != NONE).then_some(region as usize) else { continue };
                reaches |= touches.get(l).copied().unwrap_or(false);
                // A way out: a free place in reach, or a place overlapping only itself.
                let shifted = (-(s - 1)..s)
                    .flat_map(|dy| (-(s - 1)..s).map(move |dx| fp.origin.offset(dx, dy)))
                    .filter(|&p| p != fp.origin && grid.at(p).and_then(|k| labels.get(k)) == Some(&region))
                    .any(|p| Footprint::new(p, s).cells().all(|c| who(c).is_none_or(|o| o == i)));
                if !(free.get(l).copied().unwrap_or(false) || shifted)
                    && let Some(b) = boxed.get_mut(i)
                {
                    *b = true;
                }
            }
        }
        if !reaches {
            stuck_sides.push(side);
        }
    }
    let mut out: Vec<Warning> = units
        .iter()
        .zip(&boxed)
        .filter(|(_, b)| **b)
        .map(|((id, _, fp), _)| Warning {
            message: format!(
                "unit \"{id}\" has no way out: walls, the map's edge or other units box it in so it cannot move"
            ),
            unit: Some(id.to_string()),
            at: Some((fp.origin.x, fp.origin.y)),
        })
        .collect();
    if sides.len() >= 2 {
        for side in stuck_sides {
            let other = if sides.len() == 2 { "the other side" } else { "any other side" };
            out.push(Warning {
                message: format!("side \"{side}\" cannot reach {other}: no unit of it can walk next to a foe"),
                unit: None,
                at: units.iter().find(|u| u.1 == side).map(|u| (u.2.origin.x, u.2.origin.y)),
            });
        }
    }
    out.extend(super::symmetric::symmetry_warning(level, catalogue));
    out
}

/// Whether a footprint of side `s` at `from` can walk, as the rules move it, to a place
/// next to one of `enemies` (who block the way). For the generator, which carves a way
/// where there is none.
pub(crate) fn can_reach(t: &TerrainMap, shape: Shape, from: GridPos, s: i32, enemies: &[Footprint]) -> bool {
    let grid = Grid { w: t.width(), h: t.height() };
    let (labels, touches) = regions(t, shape, s, &|c| enemies.iter().any(|e| e.contains(c)));
    let region = grid.at(from).and_then(|k| labels.get(k)).copied().filter(|&l| l != NONE);
    region.is_some_and(|l| touches.get(l as usize).copied().unwrap_or(false))
}

/// The places a footprint of side `s` fits (foes, where `foe_at` says, block it), labelled
/// by the region it can walk within (`flood`), and for each region whether a place in it is
/// next to a foe: standing there, a unit has reached the foe.
fn regions(t: &TerrainMap, shape: Shape, s: i32, foe_at: &dyn Fn(GridPos) -> bool) -> (Vec<u32>, Vec<bool>) {
    let grid = Grid { w: t.width(), h: t.height() };
    let fits = |p: GridPos| Footprint::new(p, s).cells().all(|c| t.get(c).passable() && !foe_at(c));
    let labels = flood(t, shape, s, &fits);
    let near_foe: Vec<bool> = (0..grid.len())
        .map(|k| {
            let c = grid.pos(k);
            neighbour_offsets(shape, c).iter().any(|&(dx, dy)| foe_at(c.offset(dx, dy)))
        })
        .collect();
    let count = labels.iter().filter(|&&l| l != NONE).max().map_or(0, |&l| l as usize + 1);
    let mut touches = vec![false; count];
    for (k, &l) in labels.iter().enumerate() {
        let Some(l) = (l != NONE).then_some(l as usize) else { continue };
        if Footprint::new(grid.pos(k), s)
            .cells()
            .any(|c| grid.at(c).and_then(|k| near_foe.get(k)).copied().unwrap_or(false))
            && let Some(f) = touches.get_mut(l)
        {
            *f = true;
        }
    }
    (labels, touches)
}

/// Row-major cell indices of a `w`×`h` map.
#[derive(Clone, Copy)]
struct Grid {
    w: i32,
    h: i32,
}

impl Grid {
    fn len(self) -> usize {
        (self.w.max(0) * self.h.max(0)) as usize
    }
    fn at(self, p: GridPos) -> Option<usize> {
        (p.x >= 0 && p.y >= 0 && p.x < self.w && p.y < self.h).then(|| (p.y * self.w + p.x) as usize)
    }
    fn pos(self, k: usize) -> GridPos {
        GridPos::new(k as i32 % self.w.max(1), k as i32 / self.w.max(1))
    }
}

/// Labels each place (footprint top-left) a footprint of side `s` fits by the connected
/// region it belongs to, moving as the rules move it; `NONE` where it does not fit.
fn flood(t: &TerrainMap, shape: Shape, s: i32, fits: &dyn Fn(GridPos) -> bool) -> Vec<u32> {
    let grid = Grid { w: t.width(), h: t.height() };
    let ok: Vec<bool> = (0..grid.len()).map(|k| fits(grid.pos(k))).collect();
    let wall_free = |p: GridPos| Footprint::new(p, s).cells().all(|c| t.get(c).passable());
    let mut labels = vec![NONE; grid.len()];
    let mut next = 0u32;
    let mut stack = vec![];
    for k in 0..grid.len() {
        if !ok.get(k).copied().unwrap_or(false) || labels.get(k) != Some(&NONE) {
            continue;
        }
        if let Some(l) = labels.get_mut(k) {
            *l = next;
        }
        stack.push(k);
        while let Some(k) = stack.pop() {
            let here = grid.pos(k);
            for &(dx, dy) in neighbour_offsets(shape, here) {
                let p = here.offset(dx, dy);
                let Some(n) = grid.at(p) else { continue };
                if !ok.get(n).copied().unwrap_or(false) || labels.get(n) != Some(&NONE) {
                    continue;
                }
                let diagonal = shape == Shape::Square && dx != 0 && dy != 0;
                if diagonal && !(wall_free(here.offset(dx, 0)) && wall_free(here.offset(0, dy))) {
                    continue; // no cutting past a wall's corner
                }
                if let Some(l) = labels.get_mut(n) {
                    *l = next;
                }
                stack.push(n);
            }
        }
        next += 1;
    }
    labels
}
