//! The two sides of a generated level: the same creatures on each, drawn from a roster of
//! the catalogue, blue in its deployment zone and red on the mirror images (or, with no
//! symmetry, anywhere in its own zone); then every unit is made able to reach the enemy,
//! carving a path through walls (mirrored) where the map sealed it off.

use super::{GenerateError, GenerateSpec, Grid, Symmetry};
use crate::grid::{Footprint, GridPos, Shape, Terrain};
use crate::level::{Catalogue, UnitDef};
use rand::Rng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// The creatures sides are drawn from (those the catalogue has).
const ROSTER: [&str; 9] =
    ["human_fighter", "spearman", "goblin", "human_archer", "wolf", "glaive_guard", "veteran", "ogre", "crossbowman"];

/// Random tries for a unit's place before a square-by-square search.
const TRIES: usize = 200;

/// Squares `x0..x1` × `y0..y1` (ends exclusive) a side deploys in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Zone {
    pub x0: i32,
    pub y0: i32,
    pub x1: i32,
    pub y1: i32,
}

impl Zone {
    /// The zone turned half a turn about the map's centre.
    fn turned(self, w: i32, h: i32) -> Zone {
        Zone { x0: w - self.x1, y0: h - self.y1, x1: w - self.x0, y1: h - self.y0 }
    }

    /// Whether a footprint lies wholly inside.
    fn holds(self, (x, y): (i32, i32), side: i32) -> bool {
        x >= self.x0 && y >= self.y0 && x + side <= self.x1 && y + side <= self.y1
    }
}

/// Where each side deploys, and the wider ground it falls back on when that is full.
pub(crate) struct Zones {
    blue: [Zone; 2],
    red: [Zone; 2],
}

impl Zones {
    /// Blue in the left (or, under top-bottom symmetry, top) third, falling back on its half;
    /// red on the far side. A style may name either side's first zone.
    pub fn new(symmetry: Symmetry, w: i32, h: i32, blue: Option<Zone>, red: Option<Zone>) -> Zones {
        let (third, half) = if symmetry == Symmetry::TopBottom {
            (Zone { x0: 0, y0: 0, x1: w, y1: (h / 3).max(2) }, Zone { x0: 0, y0: 0, x1: w, y1: h / 2 })
        } else {
            (Zone { x0: 0, y0: 0, x1: (w / 3).max(2), y1: h }, Zone { x0: 0, y0: 0, x1: w / 2, y1: h })
        };
        let blue = blue.unwrap_or(third);
        Zones { blue: [blue, half], red: [red.unwrap_or(blue.turned(w, h)), half.turned(w, h)] }
    }
}

/// The two sides, paired (b01, r01, b02, …): the same creatures on each.
pub(crate) fn place(
    grid: &Grid,
    spec: &GenerateSpec,
    zones: &Zones,
    catalogue: &Catalogue,
    rng: &mut ChaCha8Rng,
) -> Result<Vec<UnitDef>, GenerateError> {
    let mut roster: Vec<&str> = ROSTER.into_iter().filter(|c| catalogue.creature(c).is_some()).collect();
    roster.shuffle(rng);
    let per_side = spec.units / 2;
    let (w, h) = (grid.w, grid.h);
    if roster.is_empty() && per_side > 0 {
        return Err(GenerateError::NoRoom { wanted: spec.units, placed: 0, w, h });
    }
    let side_of = |c: &str| catalogue.creature(c).map_or(1, |d| d.size.side());
    let mut mix: Vec<&str> = roster.iter().cycle().take(per_side).copied().collect();
    // The big ones first, while there is room for them.
    mix.sort_by_key(|c| std::cmp::Reverse(side_of(c)));
    let no_room = |placed| GenerateError::NoRoom { wanted: spec.units, placed, w, h };
    let mut taken: Vec<Footprint> = vec![];
    let mut units = vec![];
    for (i, creature) in mix.iter().enumerate() {
        let s = side_of(creature);
        let free = |at: (i32, i32), taken: &[Footprint]| {
            let fp = Footprint::new(GridPos::new(at.0, at.1), s);
            fp.cells()
                .all(|c| grid.inside((c.x, c.y)) && matches!(grid.get((c.x, c.y)), Terrain::Floor | Terrain::Difficult))
                && !taken.iter().any(|t| t.overlaps(&fp))
        };
        let (blue, red) = if spec.symmetry == Symmetry::None {
            let blue = find(zones.blue, s, rng, |at| free(at, &taken)).ok_or_else(|| no_room(units.len()))?;
            taken.push(Footprint::new(GridPos::new(blue.0, blue.1), s));
            let red = find(zones.red, s, rng, |at| free(at, &taken)).ok_or_else(|| no_room(units.len() + 1))?;
            (blue, red)
        } else {
            let mirror = |at| spec.symmetry.mirror_footprint(at, s, w, h, spec.shape());
            let blue = find(zones.blue, s, rng, |at| {
                mirror(at).is_some_and(|m| {
                    let (a, b) =
                        (Footprint::new(GridPos::new(at.0, at.1), s), Footprint::new(GridPos::new(m.0, m.1), s));
                    free(at, &taken) && free(m, &taken) && !a.overlaps(&b)
                })
            })
            .ok_or_else(|| no_room(units.len()))?;
            taken.push(Footprint::new(GridPos::new(blue.0, blue.1), s));
            (blue, mirror(blue).ok_or_else(|| no_room(units.len() + 1))?)
        };
        taken.push(Footprint::new(GridPos::new(red.0, red.1), s));
        for (side, at) in [("blue", blue), ("red", red)] {
            let id = format!("{}{:02}", if side == "blue" { "b" } else { "r" }, i + 1);
            units.push(UnitDef::new(id, side, at, *creature));
        }
    }
    Ok(units)
}

/// A place for a `side`×`side` footprint that `ok` accepts: random tries in the first zone,
/// then every place in it, then every place in the second.
fn find(zones: [Zone; 2], side: i32, rng: &mut ChaCha8Rng, ok: impl Fn((i32, i32)) -> bool) -> Option<(i32, i32)> {
    let [first, second] = zones;
    for _ in 0..TRIES {
        if first.x1 - side < first.x0 || first.y1 - side < first.y0 {
            break;
        }
        let at = (rng.random_range(first.x0..=first.x1 - side), rng.random_range(first.y0..=first.y1 - side));
        if ok(at) {
            return Some(at);
        }
    }
    [first, second].into_iter().find_map(|z| {
        (z.y0..z.y1).flat_map(|y| (z.x0..z.x1).map(move |x| (x, y))).find(|&at| z.holds(at, side) && ok(at))
    })
}

/// Makes every unit able to walk (as the rules move it) to a place next to an enemy: where one cannot, a path is carved to the nearest
/// enemy, its walls turned to floor and their mirror images with them.
pub(crate) fn connect(grid: &mut Grid, units: &[UnitDef], symmetry: Symmetry, shape: Shape, catalogue: &Catalogue) {
    let side_of = |u: &UnitDef| {
        u.size.unwrap_or_else(|| catalogue.creature(&u.creature).map_or(crate::grid::Size::Medium, |c| c.size)).side()
    };
    for u in units {
        let s = side_of(u);
        let enemies: Vec<Footprint> =
            units.iter().filter(|e| e.side != u.side).map(|e| Footprint::new(e.pos(), side_of(e))).collect();
        let Some(nearest) = enemies.iter().min_by_key(|e| (e.origin.x - u.at.0).abs() + (e.origin.y - u.at.1).abs())
        else {
            continue;
        };
        if grid.reaches(shape, u.at, s, &enemies) {
            continue;
        }
        let (w, h) = (grid.w, grid.h);
        let target = (nearest.origin.x.clamp(0, w - s), nearest.origin.y.clamp(0, h - s));
        let wide = s.max(nearest.side);
        let mut path = vec![];
        let (mut x, mut y) = u.at;
        path.push((x, y));
        while x != target.0 {
            x += (target.0 - x).signum();
            path.push((x, y));
        }
        while y != target.1 {
            y += (target.1 - y).signum();
            path.push((x, y));
        }
        for (px, py) in path {
            for c in Footprint::new(GridPos::new(px, py), wide).cells() {
                // A square and its image, both or neither: one with no image stays walled.
                let image = if symmetry == Symmetry::None {
                    Some((c.x, c.y))
                } else {
                    symmetry.mirror((c.x, c.y), w, h, shape)
                };
                for m in image.into_iter().flat_map(|m| [(c.x, c.y), m]) {
                    if grid.get(m) == Terrain::Wall {
                        grid.set(m, Terrain::Floor);
                    }
                }
            }
        }
    }
}
