//! Threatened squares: which squares each combatant threatens (its reach band around
//! its footprint, less walls and squares it has no line of effect to), and for each
//! square the set of combatants threatening it.

use super::Battlefield;
use super::cover::has_line_of_effect;
use super::roster::{Roster, UnitMask, bit};
use crate::grid::{Footprint, GridPos};
use bevy::prelude::Resource;

/// The squares a unit with reach band `band` standing on `fp` threatens, row-major.
pub fn threatened_squares(field: &Battlefield, fp: Footprint, band: super::ReachBand) -> Vec<GridPos> {
    let mut out = Vec::new();
    for_each_threatened(field, fp, band, |c| out.push(c));
    out
}

fn for_each_threatened(field: &Battlefield, fp: Footprint, band: super::ReachBand, mut f: impl FnMut(GridPos)) {
    let terrain = &field.terrain;
    // No square (or hex) farther than max_ft / 5 steps on either axis can be in reach.
    let r = (band.max_ft / 5) as i32;
    let (x0, y0) = ((fp.origin.x - r).max(0), (fp.origin.y - r).max(0));
    let (x1, y1) = (
        (fp.origin.x + fp.side - 1 + r).min(terrain.width() - 1),
        (fp.origin.y + fp.side - 1 + r).min(terrain.height() - 1),
    );
    for y in y0..=y1 {
        for x in x0..=x1 {
            let c = GridPos::new(x, y);
            if !terrain.get(c).passable() || !band.covers(field.variant, fp, c) {
                continue;
            }
            // Next to the creature nothing can come between (lines from a shared corner or
            // edge cross no square), so only farther squares need their lines drawn.
            let (gx, gy) = crate::grid::box_gap(fp, Footprint::single(c));
            let adjacent = match field.variant.shape() {
                crate::grid::Shape::Square => gx <= 1 && gy <= 1,
                crate::grid::Shape::Hex => fp.cells().any(|f| crate::grid::hex_steps(f, c) <= 1),
            };
            if !adjacent && !has_line_of_effect(field, fp, c) {
                continue;
            }
            f(c);
        }
    }
}

/// For every square, the units threatening it; for every unit, the squares it threatens.
#[derive(Debug, Default, PartialEq, Resource)]
pub struct ThreatMap {
    width: i32,
    height: i32,
    masks: Vec<UnitMask>,
    by_unit: Vec<Vec<GridPos>>,
}

clone_in_place!(ThreatMap { width, height, masks, by_unit });

impl ThreatMap {
    /// Computes the whole map.
    pub fn build(field: &Battlefield, roster: &Roster) -> ThreatMap {
        let mut map = ThreatMap::default();
        map.rebuild(field, roster);
        map
    }

    /// Recomputes the map in place, reusing its memory: only the squares threatened last
    /// time are cleared, so the cost follows the number of threatened squares, not the
    /// size of the map.
    pub fn rebuild(&mut self, field: &Battlefield, roster: &Roster) {
        let (w, h) = (field.terrain.width(), field.terrain.height());
        if (w, h) != (self.width, self.height) || self.masks.len() != (w * h) as usize {
            *self = ThreatMap { width: w, height: h, masks: vec![0; (w * h) as usize], by_unit: vec![] };
        } else {
            for cells in &mut self.by_unit {
                for c in cells.drain(..) {
                    self.masks[(c.y * w + c.x) as usize] = 0;
                }
            }
        }
        self.by_unit.resize_with(roster.len(), Vec::new);
        self.by_unit.truncate(roster.len());
        for (i, u) in roster.units.iter().enumerate() {
            if let (Some(band), true) = (u.threat, u.able) {
                let (masks, cells) = (&mut self.masks, &mut self.by_unit[i]);
                for_each_threatened(field, u.footprint, band, |c| {
                    masks[(c.y * w + c.x) as usize] |= bit(i);
                    cells.push(c);
                });
            }
        }
    }

    /// Units threatening square `p`.
    pub fn threateners(&self, p: GridPos) -> UnitMask {
        if p.x < 0 || p.y < 0 || p.x >= self.width || p.y >= self.height {
            return 0;
        }
        self.masks[(p.y * self.width + p.x) as usize]
    }

    /// Units threatening any square of a footprint.
    pub fn threateners_of(&self, fp: Footprint) -> UnitMask {
        fp.cells().fold(0, |m, c| m | self.threateners(c))
    }

    /// Squares unit `i` threatens, row-major.
    pub fn squares_of(&self, i: usize) -> &[GridPos] {
        self.by_unit.get(i).map_or(&[], Vec::as_slice)
    }

    /// Whether unit `i` threatens any square of `fp`.
    pub fn threatens(&self, i: usize, fp: Footprint) -> bool {
        self.threateners_of(fp) & bit(i) != 0
    }
}
