//! Whether a level is its own mirror image under the symmetry it names: its terrain square
//! for square, and every unit with one of the same creature standing at its image. A level
//! that breaks its symmetry still plays; the warning names the first places that break it.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use super::reach::Warning;
use super::{Catalogue, Level};
use crate::grid::{GridPos, Shape};

/// How many places a warning names before it counts the rest.
const NAMED: usize = 3;

/// The warning for `level` when its symmetry does not hold; `None` when it does, or when it
/// names none.
pub fn symmetry_warning(level: &Level, catalogue: &Catalogue) -> Option<Warning> {
    let symmetry = level.def.symmetry;
    let breaks = breaks(level, catalogue, level.def.rules.shape());
    let at = breaks.first().map(|b| b.1);
    let mut named: Vec<String> = breaks.iter().take(NAMED).map(|b| b.0.clone()).collect();
    if breaks.len() > NAMED {
        named.push(format!("and {} more", breaks.len() - NAMED));
    }
    at.map(|at| Warning {
        message: format!("the level's {} symmetry does not hold: {}", symmetry.label(), named.join("; ")),
        unit: None,
        at: Some(at),
    })
}

/// For a square level with a symmetry that the hex layout breaks: hex-phases lays the map out
/// as odd-r hexes (every other row shifted half a hex), where a mirror made square for square
/// is not one, so its balance figures there may lean to one side. Says so, and how to get
/// the hex-exact mirror.
pub fn hex_layout_note(level: &Level, catalogue: &Catalogue) -> Option<String> {
    if level.def.rules.shape() == Shape::Hex || level.def.symmetry.is_none() {
        return None;
    }
    let first = breaks(level, catalogue, Shape::Hex).into_iter().next()?;
    Some(format!(
        "hex-phases lays this map out as odd-r hexes, where its {} mirror does not hold ({}): \
         its figures there may lean to one side. For a fair hex level, set the level's rules to \
         hex-phases: the editor then mirrors hex-exactly as you paint and place.",
        level.def.symmetry.label(),
        first.0
    ))
}

/// Where `level` is not its own image under its symmetry, on a map of `shape`, each with
/// the square it starts from.
fn breaks(level: &Level, catalogue: &Catalogue, shape: Shape) -> Vec<(String, (i32, i32))> {
    let symmetry = level.def.symmetry;
    if symmetry.is_none() {
        return vec![];
    }
    let t = &level.terrain;
    let (w, h) = (t.width(), t.height());
    let mut breaks: Vec<(String, (i32, i32))> = vec![];
    for y in 0..h {
        for x in 0..w {
            // Each pair once; a square with no image (the edge a hex mirror leaves over)
            // has nothing to match.
            let Some((mx, my)) = symmetry.mirror((x, y), w, h, shape) else { continue };
            if (my, mx) < (y, x) || t.get(GridPos::new(x, y)) == t.get(GridPos::new(mx, my)) {
                continue;
            }
            breaks.push((format!("terrain at ({x}, {y}) and ({mx}, {my}) differ"), (x, y)));
        }
    }
    let units = &level.def.units;
    let image = |u: &super::UnitDef| symmetry.mirror_footprint(u.at, level.unit_size(u, catalogue).side(), w, h, shape);
    for u in units {
        // A pair in either direction: on hexes a big footprint's image of its image need not
        // be where it started (odd rows shift), so the unit may be its partner's image.
        let partnered =
            |o: &&super::UnitDef| o.creature == u.creature && (Some(o.at) == image(u) || image(o) == Some(u.at));
        match image(u) {
            Some(at) if at == u.at => {}
            _ if units.iter().any(|o| partnered(&o)) => {}
            Some((mx, my)) => {
                breaks.push((format!("unit \"{}\" has no {} at its image ({mx}, {my})", u.id, u.creature), u.at))
            }
            None => breaks.push((format!("unit \"{}\" has no image on the map", u.id), u.at)),
        }
    }
    breaks
}
