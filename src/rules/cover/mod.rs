//! Cover and line of effect. On squares, the corner rule: the attacker picks the corner
//! of its space best for it and draws lines to the corners of a target square; a line
//! that crosses a wall or a (qualifying) low wall gives cover, one that crosses another
//! creature gives soft cover, and if every line from every corner is walled off the
//! target has total cover. On hexes, lines run centre to centre, nudged to each side.
//! Each variant then turns the survey into its own bonus.

mod crossing;
#[cfg(test)]
mod reference;
mod sight_lines;
mod survey;
#[cfg(test)]
mod tests;

pub use sight_lines::SightLines;
pub use survey::survey;

use crossing::*;
use survey::*;

use super::roster::Occupancy;
use super::{Battlefield, RulesView};
use crate::grid::{
    BitGrid, CrossedSpans, Footprint, GridPos, Metric, Shape, Terrain, crossed_runs_are_columns, for_each_crossed_cell,
    for_each_crossed_run, for_each_face_pair, hex_line_all, mask, square_corners,
};
use crate::variants::{CoverRule, RulesVariant};
use serde::Serialize;

/// Degrees of cover, as `fivefoot query cover` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CoverKind {
    None,
    Soft,
    Cover,
    Total,
}

/// What an attack reaches with, which decides whether creatures give soft cover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttackReach {
    /// A melee attack on an adjacent foe: creatures in between do not count.
    Adjacent,
    /// A melee attack with reach over a gap.
    Reach,
    /// A ranged attack.
    Ranged,
}

/// What stops a single line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Blocker {
    Clear,
    Creature,
    LowWall,
    Wall,
}

/// One line drawn for cover, in grid units (square corners, or hex centres), for display.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SightLine {
    pub from: [f32; 2],
    pub to: [f32; 2],
    pub blocker: Blocker,
}

/// How the best choice of lines fared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineScore {
    /// Lines crossing a wall or a qualifying low wall.
    pub blocked: u8,
    /// Of those, lines crossing a wall.
    pub walls: u8,
    /// Lines crossing only another creature.
    pub creatures: u8,
}

/// The lines between an attacker and a target.
#[derive(Clone, Debug, PartialEq)]
pub struct LineSurvey {
    /// Every line from every choice crosses a wall.
    pub total: bool,
    /// The attacker's best choice of corner (and target square).
    pub best: LineScore,
    /// Lines per choice: 4 on squares, 2 on hexes.
    pub lines: u8,
    /// The best choice's lines, when asked for.
    pub best_lines: Vec<SightLine>,
}

/// Cover of a target against one attack, in the variant's own terms.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CoverResult {
    pub cover: CoverKind,
    /// The size of the defensive improvement: AC (d20 family, four-actions), descending
    /// AC improvement (osr-segments), DCV (hex-phases).
    pub ac_bonus: i32,
    pub can_target: bool,
    /// osr-segments: cover over 50% breaks line of effect for spells.
    #[serde(skip)]
    pub breaks_line_of_effect: bool,
    #[serde(skip)]
    pub survey: LineScore,
    #[serde(skip)]
    pub lines: Vec<SightLine>,
}

impl Blocker {
    /// The blocker whose `as u8` is `code`.
    fn from_code(code: u8) -> Blocker {
        match code {
            0 => Blocker::Clear,
            1 => Blocker::Creature,
            2 => Blocker::LowWall,
            _ => Blocker::Wall,
        }
    }
}

/// What one line met, and whether the same segment drawn the other way (attacker and
/// target swapped) meets the same: not always when a low wall was looked at, whose cover
/// depends on who stands nearer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Finding {
    blocker: Blocker,
    both_ways: bool,
}

impl Finding {
    fn both_ways(blocker: Blocker) -> Self {
        Finding { blocker, both_ways: true }
    }
    /// Walls block both ways; anything else is taken to hold this way only.
    fn one_way(blocker: Blocker) -> Self {
        Finding { blocker, both_ways: blocker == Blocker::Wall }
    }
}

impl AttackReach {
    /// The reach of `attacker`'s wielded weapon against `target` where they stand.
    pub fn of(view: &RulesView, attacker: usize, target: usize) -> AttackReach {
        let a = view.roster.get(attacker);
        if a.ranged {
            AttackReach::Ranged
        } else {
            AttackReach::melee(view.field.variant, a.footprint, view.roster.get(target).footprint)
        }
    }

    /// The reach of a melee attack from `from` on `to`, where either may be a square the
    /// creature only might stand on: adjacent within 5 ft, else with reach.
    pub fn melee(variant: RulesVariant, from: Footprint, to: Footprint) -> AttackReach {
        if variant.range_metric().footprint_ft(from, to) <= 5 { AttackReach::Adjacent } else { AttackReach::Reach }
    }
}

/// Cover of `target` against `attacker`'s wielded weapon, where they stand.
pub fn cover_between(view: &RulesView, attacker: usize, target: usize, detail: bool) -> CoverResult {
    let reach = AttackReach::of(view, attacker, target);
    let (a, t) = (view.roster.get(attacker).footprint, view.roster.get(target).footprint);
    cover_at(view.field, view.occupancy, (attacker, a), (target, t), reach, detail)
}

/// Cover for every ordered pair of units (`None` on the diagonal): what the AI or a
/// whole-board view asks. Each pair is surveyed both ways together. Total cover on squares
/// is symmetric (the lines join every corner of one footprint to every corner of the
/// other, the same segments walked either way), so it is proven once and the reverse
/// direction reuses it (its line score is the forward survey's: every line walled).
/// Otherwise the reverse survey starts from the walls that blocked the forward lines and
/// reuses every line that meets the same either way.
pub fn cover_all_pairs(view: &RulesView) -> Vec<Vec<Option<CoverResult>>> {
    let n = view.roster.len();
    let square = view.field.variant.shape() == Shape::Square;
    let mut out: Vec<Vec<Option<CoverResult>>> = vec![vec![None; n]; n];
    let mut memo = LineMemo::new(Footprint::single(GridPos::default()), Footprint::single(GridPos::default()));
    for (a, ua) in view.roster.units.iter().enumerate() {
        for (t, ut) in view.roster.units.iter().enumerate().skip(a + 1) {
            let (fa, ft) = (ua.footprint, ut.footprint);
            memo.reset(fa, ft);
            let there =
                survey_with(view.field, Some((view.occupancy, [a, t])), fa, ft, false, Some((&mut memo, false)));
            let back = if there.total && square {
                there.clone()
            } else {
                survey_with(view.field, Some((view.occupancy, [t, a])), ft, fa, false, Some((&mut memo, true)))
            };
            out[a][t] = Some(rate(view.field.variant, &there, AttackReach::of(view, a, t)));
            out[t][a] = Some(rate(view.field.variant, &back, AttackReach::of(view, t, a)));
        }
    }
    out
}

/// Cover of a target standing on `target.1` (perhaps hypothetically) against an attacker
/// on `attacker.1`, for an attack of the given reach.
pub fn cover_at(
    field: &Battlefield,
    occupancy: &Occupancy,
    attacker: (usize, Footprint),
    target: (usize, Footprint),
    reach: AttackReach,
    detail: bool,
) -> CoverResult {
    let survey = survey(field, Some((occupancy, [attacker.0, target.0])), attacker.1, target.1, detail);
    rate(field.variant, &survey, reach)
}

/// Whether `from` has line of effect to `to` (a spell's, a counterspeller's): it can be
/// targeted there and nothing in between breaks the line.
pub fn line_of_effect(
    field: &Battlefield,
    occupancy: &Occupancy,
    from: (usize, Footprint),
    to: (usize, Footprint),
) -> bool {
    let cover = cover_at(field, occupancy, from, to, AttackReach::Adjacent, false);
    cover.can_target && !cover.breaks_line_of_effect
}

/// Turns a survey into the variant's cover.
pub fn rate(variant: RulesVariant, survey: &LineSurvey, reach: AttackReach) -> CoverResult {
    let b = survey.best;
    let mut out = CoverResult {
        cover: CoverKind::None,
        ac_bonus: 0,
        can_target: true,
        breaks_line_of_effect: false,
        survey: b,
        lines: survey.best_lines.clone(),
    };
    if survey.total {
        out.cover = CoverKind::Total;
        out.can_target = false;
        out.breaks_line_of_effect = true;
        return out;
    }
    out.cover = if b.blocked > 0 {
        CoverKind::Cover
    } else if b.creatures > 0 && reach != AttackReach::Adjacent {
        CoverKind::Soft
    } else {
        CoverKind::None
    };
    match (variant.grid().cover, out.cover) {
        (_, CoverKind::None | CoverKind::Total) => {}
        (CoverRule::Bonus { cover, .. }, CoverKind::Cover) => out.ac_bonus = cover,
        (CoverRule::Bonus { soft_ranged, .. }, CoverKind::Soft) => {
            out.ac_bonus = if reach == AttackReach::Ranged { soft_ranged } else { 0 }
        }
        (CoverRule::NoTargetingPastWalls { low_cover }, CoverKind::Cover) if b.walls == 0 => out.ac_bonus = low_cover,
        (CoverRule::NoTargetingPastWalls { .. }, _) => out.can_target = false,
        (CoverRule::ByCorners, CoverKind::Cover) => {
            // Fraction of the target's corners blocked: 25% 2, 50% 4, 75% (or more, when
            // a low wall rather than a wall closes the last line) 7.
            out.ac_bonus = match b.blocked {
                1 => 2,
                2 => 4,
                _ => 7,
            };
            out.breaks_line_of_effect = b.blocked > 2;
        }
        (CoverRule::ByCorners, CoverKind::Soft) => {}
    }
    out
}

/// Whether an attacker on `from` has any line of effect to square `to` (walls only): the
/// negation of total cover, so one clear line from any corner settles it.
pub fn has_line_of_effect(field: &Battlefield, from: Footprint, to: GridPos) -> bool {
    if from.side == 1 {
        return field.lines.clear(from.origin, to, || walk_line_of_effect(field, from, to));
    }
    walk_line_of_effect(field, from, to)
}

/// [`has_line_of_effect`], found by walking the lines.
fn walk_line_of_effect(field: &Battlefield, from: Footprint, to: GridPos) -> bool {
    let target = Footprint::single(to);
    let (min, max) = union_box(from, target);
    if !field.terrain.any_wall_in(min, max) {
        return true;
    }
    let wall = |c: GridPos| !from.contains(c) && c != to && field.terrain.get(c) == Terrain::Wall;
    match field.variant.shape() {
        Shape::Square => {
            let tcorners = square_corners(to);
            (0..=from.side).any(|cy| {
                (0..=from.side).any(|cx| {
                    let a = from.origin.offset(cx, cy);
                    tcorners.iter().any(|&b| {
                        if a.x == b.x || a.y == b.y {
                            for_each_face_pair(a, b, |p, q| !(wall(p) && wall(q)))
                        } else {
                            for_each_crossed_cell(a, b, |c| !wall(c))
                        }
                    })
                })
            })
        }
        // A neighbouring hex shares an edge with it: nothing lies between.
        Shape::Hex => from.cells().any(|a| {
            crate::grid::hex_steps(a, to) <= 1
                || [1e-6, -1e-6].into_iter().any(|nudge| hex_line_all(a, to, nudge, |c| !wall(c)))
        }),
    }
}

fn score_of(blockers: &[Blocker]) -> LineScore {
    let mut s = LineScore::default();
    for &b in blockers {
        s.add(b);
    }
    s
}

/// Ordered field by field, `blocked` first (compared at once, packed in one word).
impl Ord for LineScore {
    #[inline]
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

impl PartialOrd for LineScore {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl LineScore {
    #[inline]
    fn key(self) -> u32 {
        u32::from(self.blocked) << 16 | u32::from(self.walls) << 8 | u32::from(self.creatures)
    }

    /// Counts one more line.
    #[inline]
    fn add(&mut self, b: Blocker) {
        match b {
            Blocker::Wall => {
                self.blocked += 1;
                self.walls += 1;
            }
            Blocker::LowWall => self.blocked += 1,
            Blocker::Creature => self.creatures += 1,
            Blocker::Clear => {}
        }
    }
}

/// A low wall covers a target within 30 ft of it, unless the attacker is closer to it.
pub fn low_wall_counts(metric: Metric, attacker: Footprint, target: Footprint, wall: GridPos) -> bool {
    let to_target = metric.footprint_to_cell_ft(target, wall);
    to_target <= 30 && metric.footprint_to_cell_ft(attacker, wall) >= to_target
}
