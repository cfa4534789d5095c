//! Cover and line of effect. On squares, the corner rule: the attacker picks the corner
//! of its space best for it and draws lines to the corners of a target square; a line
//! that crosses a wall or a (qualifying) low wall gives cover, one that crosses another
//! creature gives soft cover, and if every line from every corner is walled off the
//! target has total cover. On hexes, lines run centre to centre, nudged to each side.
//! Each variant then turns the survey into its own bonus.

use super::roster::Occupancy;
use super::{Battlefield, RulesView};
use crate::grid::{
    Footprint, GridPos, Metric, Shape, Terrain, for_each_crossed_cell, for_each_face_pair, hex_line_cells,
    square_corners,
};
use crate::variant::RulesVariant;
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
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

impl AttackReach {
    /// The reach of `attacker`'s wielded weapon against `target` where they stand.
    pub fn of(view: &RulesView, attacker: usize, target: usize) -> AttackReach {
        let a = view.roster.get(attacker);
        if a.ranged {
            AttackReach::Ranged
        } else if view.roster.distance_ft(view.field.variant.range_metric(), attacker, target) <= 5 {
            AttackReach::Adjacent
        } else {
            AttackReach::Reach
        }
    }
}

/// Cover of `target` against `attacker`'s wielded weapon, where they stand.
pub fn cover_between(view: &RulesView, attacker: usize, target: usize, detail: bool) -> CoverResult {
    let reach = AttackReach::of(view, attacker, target);
    let (a, t) = (view.roster.get(attacker).footprint, view.roster.get(target).footprint);
    cover_at(view.field, view.occupancy, (attacker, a), (target, t), reach, detail)
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
    match (variant, out.cover) {
        (_, CoverKind::None | CoverKind::Total) => {}
        (RulesVariant::D20Classic | RulesVariant::ApPhases, CoverKind::Cover) => out.ac_bonus = 4,
        (RulesVariant::D20Classic | RulesVariant::ApPhases, CoverKind::Soft) => {
            out.ac_bonus = if reach == AttackReach::Ranged { 4 } else { 0 }
        }
        (RulesVariant::FourActions, CoverKind::Cover) if b.walls == 0 => out.ac_bonus = 4,
        (RulesVariant::FourActions, _) => out.can_target = false,
        (RulesVariant::OsrSegments, CoverKind::Cover) => {
            // Fraction of the target's corners blocked: 25% 2, 50% 4, 75% (or more, when
            // a low wall rather than a wall closes the last line) 7.
            out.ac_bonus = match b.blocked {
                1 => 2,
                2 => 4,
                _ => 7,
            };
            out.breaks_line_of_effect = b.blocked > 2;
        }
        (RulesVariant::OsrSegments, CoverKind::Soft) => {}
        (RulesVariant::HexPhases, CoverKind::Cover) => out.ac_bonus = 2,
        (RulesVariant::HexPhases, CoverKind::Soft) => {}
    }
    out
}

/// Whether an attacker on `from` has any line of effect to square `to` (walls only): the
/// negation of total cover, so one clear line from any corner settles it.
pub fn has_line_of_effect(field: &Battlefield, from: Footprint, to: GridPos) -> bool {
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
        Shape::Hex => from
            .cells()
            .any(|a| [1e-6, -1e-6].into_iter().any(|nudge| hex_line_cells(a, to, nudge).into_iter().all(|c| !wall(c)))),
    }
}

fn union_box(a: Footprint, b: Footprint) -> (GridPos, GridPos) {
    let min = GridPos::new(a.origin.x.min(b.origin.x), a.origin.y.min(b.origin.y));
    let max = GridPos::new(
        (a.origin.x + a.side).max(b.origin.x + b.side) - 1,
        (a.origin.y + a.side).max(b.origin.y + b.side) - 1,
    );
    (min, max)
}

/// Surveys the lines from `attacker` to `target`. With `occupancy`, creatures other than
/// the two named count as soft cover.
pub fn survey(
    field: &Battlefield,
    occupancy: Option<(&Occupancy, [usize; 2])>,
    attacker: Footprint,
    target: Footprint,
    detail: bool,
) -> LineSurvey {
    let shape = field.variant.shape();
    let lines = if shape == Shape::Square { 4 } else { 2 };
    let (min, max) = union_box(attacker, target);
    let own = (attacker.side * attacker.side + target.side * target.side) as u32;
    let nobody_between = occupancy.is_none_or(|(o, _)| o.count_in(min, max) <= own);
    if !detail && nobody_between && !field.terrain.any_blocker_in(min, max) {
        return LineSurvey { total: false, best: LineScore::default(), lines, best_lines: vec![] };
    }
    let metric = field.variant.range_metric();
    let classify_cell = |c: GridPos| -> Blocker {
        let (unit, sight) = match occupancy {
            Some((o, ignore)) => {
                let code = o.sight_code(c);
                if code == 0 {
                    return Blocker::Clear; // the common case: open floor, nobody there
                }
                let unit = (code >> 8).checked_sub(1).map(usize::from);
                (unit.filter(|u| !ignore.contains(u)), code as u8)
            }
            None => (
                None,
                match field.terrain.get(c) {
                    Terrain::Wall => 2,
                    Terrain::LowWall => 1,
                    _ => 0,
                },
            ),
        };
        match sight {
            2 => Blocker::Wall,
            // A low wall under the attacker or the target does not cover.
            1 if !attacker.contains(c) && !target.contains(c) && low_wall_counts(metric, attacker, target, c) => {
                Blocker::LowWall
            }
            _ if unit.is_some() => Blocker::Creature,
            _ => Blocker::Clear,
        }
    };
    let mut best: Option<(LineScore, Vec<SightLine>)> = None;
    let mut total = true;
    match shape {
        Shape::Square => {
            // Corners nearest the target first: the best choice usually comes first and
            // ends the search.
            let tc = (2 * target.origin.x + target.side, 2 * target.origin.y + target.side);
            let mut corners: Vec<GridPos> = (0..=attacker.side)
                .flat_map(|cy| (0..=attacker.side).map(move |cx| attacker.origin.offset(cx, cy)))
                .collect();
            corners.sort_by_key(|c| (2 * c.x - tc.0).pow(2) + (2 * c.y - tc.1).pow(2));
            'search: for tsq in target.cells() {
                let tcorners = square_corners(tsq);
                for &from in &corners {
                    let mut blockers = [Blocker::Clear; 4];
                    let mut partial = LineScore::default();
                    let mut pruned = false;
                    for (k, &to) in tcorners.iter().enumerate() {
                        blockers[k] = classify_line(from, to, &classify_cell);
                        partial = score_of(&blockers[..=k]);
                        // No better than the best so far: stop drawing (the best already
                        // proves there is no total cover unless every line is walled).
                        if !detail && best.as_ref().is_some_and(|(b, _)| partial >= *b && b.walls < lines) {
                            pruned = true;
                            break;
                        }
                    }
                    if pruned {
                        continue;
                    }
                    let score = partial;
                    let drawn = || {
                        tcorners
                            .iter()
                            .zip(blockers)
                            .map(|(to, blocker)| SightLine {
                                from: [from.x as f32, from.y as f32],
                                to: [to.x as f32, to.y as f32],
                                blocker,
                            })
                            .collect()
                    };
                    if consider(&mut best, &mut total, lines, detail, score, &drawn) {
                        break 'search;
                    }
                }
            }
        }
        Shape::Hex => {
            'search: for a in attacker.cells() {
                for t in target.cells() {
                    let mut blockers = [Blocker::Clear; 2];
                    for (k, nudge) in [1e-6, -1e-6].into_iter().enumerate() {
                        blockers[k] =
                            hex_line_cells(a, t, nudge).into_iter().map(&classify_cell).max().unwrap_or(Blocker::Clear);
                    }
                    let score = score_of(&blockers);
                    let centre = |p: GridPos| [p.x as f32 + 0.5 * (p.y & 1) as f32, p.y as f32];
                    let drawn = || {
                        blockers.iter().map(|&blocker| SightLine { from: centre(a), to: centre(t), blocker }).collect()
                    };
                    if consider(&mut best, &mut total, lines, detail, score, &drawn) {
                        break 'search;
                    }
                }
            }
        }
    }
    let (best, best_lines) = best.unwrap_or_default();
    LineSurvey { total, best, lines, best_lines }
}

/// Records one choice of lines; true when it is perfect and the search can stop.
fn consider(
    best: &mut Option<(LineScore, Vec<SightLine>)>,
    total: &mut bool,
    lines: u8,
    detail: bool,
    score: LineScore,
    drawn: &dyn Fn() -> Vec<SightLine>,
) -> bool {
    if score.walls < lines {
        *total = false;
    }
    if best.as_ref().is_none_or(|(b, _)| score < *b) {
        *best = Some((score, if detail { drawn() } else { vec![] }));
    }
    score == LineScore::default()
}

fn classify_line(from: GridPos, to: GridPos, classify_cell: &impl Fn(GridPos) -> Blocker) -> Blocker {
    let mut worst = Blocker::Clear;
    if from.x == to.x || from.y == to.y {
        // Along a face: blocked only where solid terrain lies on both sides.
        for_each_face_pair(from, to, |p, q| {
            let (a, b) = (classify_cell(p), classify_cell(q));
            if a >= Blocker::LowWall && b >= Blocker::LowWall {
                worst = worst.max(a.min(b));
            }
            worst != Blocker::Wall
        });
        return worst;
    }
    for_each_crossed_cell(from, to, |c| {
        worst = worst.max(classify_cell(c));
        worst != Blocker::Wall
    });
    worst
}

fn score_of(blockers: &[Blocker]) -> LineScore {
    let mut s = LineScore::default();
    for b in blockers {
        match b {
            Blocker::Wall => {
                s.blocked += 1;
                s.walls += 1;
            }
            Blocker::LowWall => s.blocked += 1,
            Blocker::Creature => s.creatures += 1,
            Blocker::Clear => {}
        }
    }
    s
}

/// A low wall covers a target within 30 ft of it, unless the attacker is closer to it.
pub fn low_wall_counts(metric: Metric, attacker: Footprint, target: Footprint, wall: GridPos) -> bool {
    let to_target = metric.footprint_to_cell_ft(target, wall);
    to_target <= 30 && metric.footprint_to_cell_ft(attacker, wall) >= to_target
}
