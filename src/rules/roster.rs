//! The roster: a plain, ordered snapshot of the combatants (sorted by level id) that the
//! pure rule functions read, plus the occupancy grid. Systems rebuild both from the
//! combatant components on change; tests and tools may build them directly.

use crate::grid::{BitGrid, Footprint, GridPos, Metric, Size, TerrainMap};
use crate::level::WeaponDef;
use crate::variants::RulesVariant;

/// A set of units by roster index (levels hold at most 128 units).
pub type UnitMask = u128;

/// The unit with roster index `i` as a mask.
pub const fn bit(i: usize) -> UnitMask {
    1u128 << i
}

/// Iterates the roster indices in a mask, lowest (first by id) first.
pub fn indices(mut mask: UnitMask) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let i = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        Some(i)
    })
}

/// The squares a creature threatens: within `max_ft`, and beyond `inner_ft` if set
/// (a reach weapon cannot hit adjacent foes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ReachBand {
    pub max_ft: u32,
    pub inner_ft: Option<u32>,
    /// The variant's 10-ft diagonal exception reaches the corners (two diagonals away);
    /// `false` for a Small reach-weapon wielder where its source says it loses them.
    pub corners: bool,
}

impl ReachBand {
    /// The band of a creature with `natural_ft` reach wielding `weapon`, or `None` if it
    /// threatens nothing (ranged weapons, unarmed strikes, no reach at all).
    pub fn of(natural_ft: u32, weapon: &WeaponDef) -> Option<ReachBand> {
        if !weapon.threatens() || natural_ft == 0 {
            return None;
        }
        Some(if weapon.reach {
            ReachBand { max_ft: natural_ft * 2, inner_ft: Some(natural_ft), corners: true }
        } else {
            ReachBand { max_ft: natural_ft, inner_ft: None, corners: true }
        })
    }

    /// The band `variant` gives a wielder of `size` with `natural_ft` reach: what it can
    /// strike, whether or not it threatens it.
    pub fn under(variant: RulesVariant, natural_ft: u32, size: Size, weapon: &WeaponDef) -> Option<ReachBand> {
        let band = ReachBand::of(natural_ft, weapon)?;
        let small_reach = size == Size::Small && weapon.reach;
        Some(if small_reach && variant.small_reach_loses_corners() { band.without_corners() } else { band })
    }

    /// What such a wielder threatens: its band, or nothing if it is untrained with the
    /// weapon where the variant says the untrained threaten nothing.
    pub fn threatened(
        variant: RulesVariant,
        natural_ft: u32,
        size: Size,
        weapon: &WeaponDef,
        trained: bool,
    ) -> Option<ReachBand> {
        if !trained && variant.untrained_threaten_nothing() {
            return None;
        }
        ReachBand::under(variant, natural_ft, size, weapon)
    }

    /// The same band without the corners of its reach.
    pub fn without_corners(self) -> ReachBand {
        ReachBand { corners: false, ..self }
    }

    /// The box (least and greatest corner) of the origins of footprints `side` squares wide
    /// from which the band can reach a cell of `target`: a step to a neighbouring square or
    /// hex moves a column and a row at most, so no farther origin is within the band.
    pub fn origins_near(&self, target: Footprint, side: i32) -> (GridPos, GridPos) {
        let r = (self.max_ft / 5) as i32 + 2;
        let (o, s) = (target.origin, target.side);
        (GridPos::new(o.x - r - side + 1, o.y - r - side + 1), GridPos::new(o.x + s - 1 + r, o.y + s - 1 + r))
    }

    /// Whether `cell` is in the band around footprint `fp` under `variant`'s measure.
    pub fn covers(&self, variant: RulesVariant, fp: Footprint, cell: GridPos) -> bool {
        if fp.contains(cell) {
            return false;
        }
        let metric = variant.range_metric();
        if metric != Metric::Hex {
            // Squares: one gap, measured once.
            let (gx, gy) = crate::grid::box_gap(fp, Footprint::single(cell));
            let d = metric.square_ft(gx, gy);
            let exception = variant.diagonal_reach_exception()
                && self.corners
                && metric == Metric::Alternating
                && gx == 2
                && gy == 2;
            let within = |r: u32| d <= r || (exception && r == 10);
            return within(self.max_ft) && !self.inner_ft.is_some_and(within);
        }
        let metric = variant.range_metric();
        let exception = variant.diagonal_reach_exception() && self.corners;
        metric.within_reach(fp, cell, self.max_ft, exception)
            && !self.inner_ft.is_some_and(|inner| metric.within_reach(fp, cell, inner, exception))
    }
}

/// One combatant as the rules see it.
#[derive(Debug, PartialEq)]
pub struct UnitView {
    pub id: String,
    /// Index into [`Roster::sides`].
    pub side: usize,
    pub footprint: Footprint,
    pub speed_ft: u32,
    /// What it threatens now; `None` when it threatens nothing (ranged weapon, unarmed,
    /// unconscious…).
    pub threat: Option<ReachBand>,
    /// Its wielded weapon fires or throws rather than strikes.
    pub ranged: bool,
    /// It can act and make attacks at all (conscious, not helpless).
    pub able: bool,
}

clone_in_place!(UnitView { id, side, footprint, speed_ft, threat, ranged, able });

impl UnitView {
    /// The rules' view of a combatant: what it threatens follows from its reach, its
    /// weapon and its conditions (the helpless and the grappled threaten nothing).
    pub fn new(
        id: &str,
        footprint: Footprint,
        speed_ft: u32,
        natural_reach_ft: u32,
        weapon: &WeaponDef,
        conditions: &std::collections::BTreeSet<super::Condition>,
    ) -> UnitView {
        let able = super::components::able(conditions);
        let threat = if able && !conditions.contains(&super::Condition::Grappled) {
            ReachBand::of(natural_reach_ft, weapon)
        } else {
            None
        };
        UnitView { id: id.to_string(), side: 0, footprint, speed_ft, threat, ranged: weapon.is_ranged(), able }
    }
}

/// All combatants, sorted by id; a unit's index is its place in this order.
#[derive(Debug, Default, PartialEq, bevy::prelude::Resource)]
pub struct Roster {
    pub units: Vec<UnitView>,
    /// Side names, sorted.
    pub sides: Vec<String>,
    side_masks: Vec<UnitMask>,
}

clone_in_place!(Roster { units, sides, side_masks });

impl Roster {
    /// Builds a roster from units in any order; they are sorted by id.
    pub fn new(mut units: Vec<(UnitView, String)>) -> Roster {
        units.sort_by(|a, b| a.0.id.cmp(&b.0.id));
        let mut sides: Vec<String> = units.iter().map(|(_, s)| s.clone()).collect();
        sides.sort();
        sides.dedup();
        let mut side_masks = vec![0; sides.len()];
        let units = units
            .into_iter()
            .enumerate()
            .map(|(i, (mut u, side))| {
                u.side = sides.binary_search(&side).expect("side listed");
                side_masks[u.side] |= bit(i);
                u
            })
            .collect();
        Roster { units, sides, side_masks }
    }

    pub fn len(&self) -> usize {
        self.units.len()
    }
    pub fn is_empty(&self) -> bool {
        self.units.is_empty()
    }
    pub fn index_of(&self, id: &str) -> Option<usize> {
        self.units.binary_search_by(|u| u.id.as_str().cmp(id)).ok()
    }
    pub fn get(&self, i: usize) -> &UnitView {
        &self.units[i]
    }
    pub fn side_name(&self, i: usize) -> &str {
        &self.sides[self.units[i].side]
    }
    pub fn all(&self) -> UnitMask {
        if self.units.len() == 128 { UnitMask::MAX } else { bit(self.units.len()) - 1 }
    }
    /// Units on the same side as unit `i`, itself included.
    pub fn allies_of(&self, i: usize) -> UnitMask {
        self.side_masks[self.units[i].side]
    }
    /// Units on any other side than unit `i`'s.
    pub fn foes_of(&self, i: usize) -> UnitMask {
        self.all() & !self.allies_of(i)
    }
    pub fn are_foes(&self, a: usize, b: usize) -> bool {
        self.units[a].side != self.units[b].side
    }
    /// Feet between two units' nearest squares under `metric`.
    pub fn distance_ft(&self, metric: Metric, a: usize, b: usize) -> u32 {
        metric.footprint_ft(self.units[a].footprint, self.units[b].footprint)
    }
}

/// Which unit stands on each square, with a summed-area table for box queries.
#[derive(Debug, Default, PartialEq, bevy::prelude::Resource)]
pub struct Occupancy {
    width: i32,
    height: i32,
    cells: Vec<Option<u8>>,
    sat: Vec<u32>,
    /// Per square, packed for line walks: the low byte is what the square does to a line
    /// of sight (0 nothing, 1 low wall, 2 wall), the high byte the unit on it plus one.
    sight: Vec<u16>,
    /// Low walls and occupied squares, as a bit set: what a line walk short of walls has to
    /// look at square by square.
    marks: BitGrid,
}

clone_in_place!(Occupancy { width, height, cells, sat, sight, marks });

impl Occupancy {
    pub fn build(terrain: &TerrainMap, roster: &Roster) -> Occupancy {
        let (w, h) = (terrain.width(), terrain.height());
        let mut cells = vec![None; (w * h) as usize];
        let mut marks = terrain.low_walls().clone();
        let mut rows_held = vec![false; h as usize];
        for (i, u) in roster.units.iter().enumerate() {
            for c in u.footprint.cells() {
                if terrain.in_bounds(c) {
                    cells[(c.y * w + c.x) as usize] = Some(i as u8);
                    rows_held[c.y as usize] = true;
                    marks.insert(c);
                }
            }
        }
        // The summed-area table a row at a time: a row nobody stands on adds nothing, so
        // it repeats the row above.
        let sw = w as usize + 1;
        let mut sat = vec![0u32; sw * (h as usize + 1)];
        for y in 0..h as usize {
            let (above, row) = sat.split_at_mut((y + 1) * sw);
            let (above, row) = (&above[y * sw..], &mut row[..sw]);
            if !rows_held[y] {
                row.copy_from_slice(above);
                continue;
            }
            let mut run = 0;
            for x in 0..w as usize {
                run += u32::from(cells[y * w as usize + x].is_some());
                row[x + 1] = above[x + 1] + run;
            }
        }
        let mut sight = terrain.sight_codes().to_vec();
        for (code, unit) in sight.iter_mut().zip(&cells) {
            if let Some(u) = unit {
                *code |= (*u as u16 + 1) << 8;
            }
        }
        Occupancy { width: w, height: h, cells, sat, sight, marks }
    }

    /// The unit standing on `p`, if any.
    pub fn at(&self, p: GridPos) -> Option<usize> {
        if p.x < 0 || p.y < 0 || p.x >= self.width || p.y >= self.height {
            return None;
        }
        self.cells[(p.y * self.width + p.x) as usize].map(usize::from)
    }

    /// The unit on `p` and what the square does to sight (0 nothing, 1 low wall,
    /// 2 wall; off the map is wall), in one lookup.
    #[inline]
    pub fn sight_at(&self, p: GridPos) -> (Option<usize>, u8) {
        let code = self.sight_code(p);
        ((code >> 8).checked_sub(1).map(usize::from), code as u8)
    }

    /// The packed sight code of a square (see the field); 0 means nothing there at all.
    #[inline]
    pub fn sight_code(&self, p: GridPos) -> u16 {
        if p.x < 0 || p.y < 0 || p.x >= self.width || p.y >= self.height {
            return 2;
        }
        self.sight[(p.y * self.width + p.x) as usize]
    }

    /// Low walls and occupied squares, as a bit set.
    pub fn marks(&self) -> &BitGrid {
        &self.marks
    }

    /// Number of occupied squares in an inclusive box.
    pub fn count_in(&self, min: GridPos, max: GridPos) -> u32 {
        let (x0, y0) = (min.x.max(0), min.y.max(0));
        let (x1, y1) = (max.x.min(self.width - 1), max.y.min(self.height - 1));
        if x0 > x1 || y0 > y1 {
            return 0;
        }
        let sw = self.width as usize + 1;
        let at = |x: i32, y: i32| self.sat[y as usize * sw + x as usize];
        at(x1 + 1, y1 + 1) + at(x0, y0) - at(x0, y1 + 1) - at(x1 + 1, y0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mask_indices_come_out_in_order() {
        let m = bit(3) | bit(0) | bit(100);
        assert_eq!(indices(m).collect::<Vec<_>>(), vec![0, 3, 100]);
    }

    #[test]
    fn no_origin_outside_the_box_near_a_target_reaches_it() {
        let bands = [
            ReachBand { max_ft: 5, inner_ft: None, corners: true },
            ReachBand { max_ft: 10, inner_ft: Some(5), corners: true },
            ReachBand { max_ft: 20, inner_ft: Some(10), corners: true },
        ];
        for variant in RulesVariant::ALL {
            for band in bands {
                for (target_side, side) in [(1, 1), (2, 1), (1, 2), (3, 2)] {
                    let target = Footprint::new(GridPos::new(20, 21), target_side);
                    let (lo, hi) = band.origins_near(target, side);
                    let mut inside = 0;
                    for y in 0..45 {
                        for x in 0..45 {
                            let fp = Footprint::new(GridPos::new(x, y), side);
                            if target.cells().any(|c| band.covers(variant, fp, c)) {
                                let within = (lo.x..=hi.x).contains(&x) && (lo.y..=hi.y).contains(&y);
                                assert!(within, "{variant:?} {band:?}: ({x}, {y}) reaches, outside {lo:?}..{hi:?}");
                                inside += 1;
                            }
                        }
                    }
                    assert!(inside > 0, "{variant:?} {band:?}: something reaches the target");
                }
            }
        }
    }
}
