//! Cover and line of effect. On squares, the corner rule: the attacker picks the corner
//! of its space best for it and draws lines to the corners of a target square; a line
//! that crosses a wall or a (qualifying) low wall gives cover, one that crosses another
//! creature gives soft cover, and if every line from every corner is walled off the
//! target has total cover. On hexes, lines run centre to centre, nudged to each side.
//! Each variant then turns the survey into its own bonus.

use super::roster::Occupancy;
use super::{Battlefield, RulesView};
use crate::grid::{
    BitGrid, CrossedSpans, Footprint, GridPos, Metric, Shape, Terrain, crossed_runs_are_columns, for_each_crossed_cell,
    for_each_crossed_run, for_each_face_pair, hex_line_all, hex_line_cells, mask, square_corners,
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
        // A neighbouring hex shares an edge with it: nothing lies between.
        Shape::Hex => from.cells().any(|a| {
            crate::grid::hex_steps(a, to) <= 1
                || [1e-6, -1e-6].into_iter().any(|nudge| hex_line_all(a, to, nudge, |c| !wall(c)))
        }),
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
/// Nothing that could block or cover lies in the box spanned by the two footprints (no
/// wall, low wall or third creature): every line is clear, no survey needed.
fn open_between(
    field: &Battlefield,
    occupancy: Option<(&Occupancy, [usize; 2])>,
    attacker: Footprint,
    target: Footprint,
) -> bool {
    let (min, max) = union_box(attacker, target);
    let own = (attacker.side * attacker.side + target.side * target.side) as u32;
    let nobody_between = occupancy.is_none_or(|(o, _)| o.count_in(min, max) <= own);
    nobody_between && !field.terrain.any_blocker_in(min, max)
}

/// What one square does to a line between the two footprints: a wall, a low wall that
/// counts (not under either end, and only as the low-wall rule says), a third creature
/// (`occupancy` given, its two ends ignored), or nothing.
#[inline]
fn classify(
    field: &Battlefield,
    occupancy: Option<(&Occupancy, [usize; 2])>,
    attacker: Footprint,
    target: Footprint,
    c: GridPos,
) -> Blocker {
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
    let metric = field.variant.range_metric();
    match sight {
        2 => Blocker::Wall,
        // A low wall under the attacker or the target does not cover.
        1 if !attacker.contains(c) && !target.contains(c) && low_wall_counts(metric, attacker, target, c) => {
            Blocker::LowWall
        }
        _ if unit.is_some() => Blocker::Creature,
        _ => Blocker::Clear,
    }
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
    survey_with(field, occupancy, attacker, target, detail, None)
}

/// [`survey`], sharing what lines met through `memo` (set up for the pair the other way
/// round when `backward`) with the survey of the other direction (squares only).
fn survey_with(
    field: &Battlefield,
    occupancy: Option<(&Occupancy, [usize; 2])>,
    attacker: Footprint,
    target: Footprint,
    detail: bool,
    memo: Option<(&mut LineMemo, bool)>,
) -> LineSurvey {
    let shape = field.variant.shape();
    let lines = if shape == Shape::Square { 4 } else { 2 };
    if !detail && open_between(field, occupancy, attacker, target) {
        return LineSurvey { total: false, best: LineScore::default(), lines, best_lines: vec![] };
    }
    let classify_cell = |c: GridPos| classify(field, occupancy, attacker, target, c);
    let mut best: Option<(LineScore, Vec<SightLine>)> = None;
    let mut total = true;
    match shape {
        Shape::Square => {
            // Lines are walked a row (or column) of squares at a time over bit sets when
            // both footprints lie on the map, so that every line stays on it.
            let fast = {
                let inside = |f: Footprint| {
                    f.origin.x >= 0
                        && f.origin.y >= 0
                        && f.origin.x + f.side <= field.terrain.width()
                        && f.origin.y + f.side <= field.terrain.height()
                };
                let same_map = occupancy.is_none_or(|(o, _)| {
                    o.marks().width() == field.terrain.width() && o.marks().height() == field.terrain.height()
                });
                inside(attacker) && inside(target) && same_map
            };
            let marks = occupancy.map_or(field.terrain.low_walls(), |(o, _)| o.marks());
            let quiet = |f: Footprint| f.cells().all(|c| classify_cell(c) == Blocker::Clear).then_some(f);
            // Large targets share corners between squares, and the two directions of a pair
            // share every line: each is walked once.
            let mut own_memo;
            let (memo, backward) = match memo {
                Some((memo, backward)) => (memo, backward),
                None => {
                    own_memo = LineMemo::new(attacker, target);
                    (&mut own_memo, false)
                }
            };
            debug_assert_eq!(memo.ends, if backward { [target, attacker] } else { [attacker, target] });
            let mut walker = fast.then(|| RunWalker {
                walls: field.terrain.walls(),
                marks,
                low_walls: field.terrain.low_walls(),
                // Walls that blocked lines of this pair the other way.
                hints: memo.walls.carried(),
                quiet: [quiet(attacker), quiet(target)],
                classify_cell: &classify_cell,
            });
            // Corners nearest the target first: the best choice usually comes first and
            // ends the search.
            let tc = (2 * target.origin.x + target.side, 2 * target.origin.y + target.side);
            let na = (attacker.side + 1) as usize;
            let mut corner_buf = [GridPos::default(); 25];
            let mut corner_vec = vec![];
            let corners: &mut [GridPos] = if na * na <= corner_buf.len() {
                &mut corner_buf[..na * na]
            } else {
                corner_vec.resize(na * na, GridPos::default());
                &mut corner_vec
            };
            // A stable insertion sort: at most 25 corners, most often 4.
            let key = |c: GridPos| (2 * c.x - tc.0).pow(2) + (2 * c.y - tc.1).pow(2);
            for i in 0..corners.len() {
                let c = attacker.origin.offset((i % na) as i32, (i / na) as i32);
                let mut j = i;
                while j > 0 && key(corners[j - 1]) > key(c) {
                    corners[j] = corners[j - 1];
                    j -= 1;
                }
                corners[j] = c;
            }
            let mut line = |walker: &mut Option<RunWalker<_>>, from: GridPos, to: GridPos| {
                let slot = memo.slot(from, to, backward);
                if let Some(blocker) = memo.get(slot, backward) {
                    return blocker;
                }
                let found = match walker {
                    Some(w) => w.classify(from, to),
                    None => Finding::one_way(classify_line(from, to, &classify_cell)),
                };
                memo.put(slot, backward, found);
                found.blocker
            };
            if !detail {
                // Only the best score and whether every line is walled: no lines kept, and
                // the choices can be tried in any order.
                let mut best: Option<LineScore> = None;
                'choices: for tsq in target.cells() {
                    let tcorners = square_corners(tsq);
                    'corners: for &from in corners.iter() {
                        // The four lines at once against the walls that blocked others.
                        let walled = walker.as_mut().map_or(0, |w| w.hints.crossed4(from, &tcorners));
                        let mut score = LineScore::default();
                        for _ in 0..walled.count_ones() {
                            score.add(Blocker::Wall);
                        }
                        for (k, &to) in tcorners.iter().enumerate() {
                            // No better than the best so far: stop drawing (the best already
                            // proves there is no total cover unless every line is walled).
                            if best.is_some_and(|b| score >= b && b.walls < lines) {
                                continue 'corners;
                            }
                            if walled & (1 << k) == 0 {
                                score.add(line(&mut walker, from, to));
                            }
                        }
                        if best.is_some_and(|b| score >= b && b.walls < lines) {
                            continue 'corners;
                        }
                        total &= score.walls == lines;
                        if best.is_none_or(|b| score < b) {
                            best = Some(score);
                        }
                        if score == LineScore::default() {
                            break 'choices;
                        }
                    }
                }
                if let Some(w) = &walker {
                    memo.walls = w.hints;
                }
                return LineSurvey { total, best: best.unwrap_or_default(), lines, best_lines: vec![] };
            }
            'search: for tsq in target.cells() {
                let tcorners = square_corners(tsq);
                for &from in corners.iter() {
                    let mut blockers = [Blocker::Clear; 4];
                    let mut partial = LineScore::default();
                    let mut pruned = false;
                    for (k, &to) in tcorners.iter().enumerate() {
                        blockers[k] = line(&mut walker, from, to);
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

/// What the lines between two footprints met, by their ends: a line shared by several
/// choices is walked once, and so is one that meets the same either way, for both
/// directions of a pair.
struct LineMemo {
    /// The footprints the lines join, the memo's forward direction.
    ends: [Footprint; 2],
    /// Per pair of corners (one of each footprint, row by row): 0 unknown; else the blocker
    /// code in bits 0–1, bit 2 set when it holds forward, bit 3 backward.
    codes: [u8; LineMemo::INLINE],
    /// Used instead where `codes` is too short.
    spill: Vec<u8>,
    /// Walls that blocked some of the lines.
    walls: WallHints,
}

impl LineMemo {
    /// Lines between two creatures up to two squares across.
    const INLINE: usize = 81;
    const FORWARD: u8 = 4;
    const BACKWARD: u8 = 8;

    fn new(first: Footprint, second: Footprint) -> Self {
        let mut memo =
            LineMemo { ends: [first, second], codes: [0; Self::INLINE], spill: vec![], walls: WallHints::new() };
        memo.reset(first, second);
        memo
    }

    /// Forgets everything, for the lines from `first` to `second`.
    fn reset(&mut self, first: Footprint, second: Footprint) {
        self.ends = [first, second];
        self.walls = WallHints::new();
        let n = ((first.side + 1) * (first.side + 1) * (second.side + 1) * (second.side + 1)) as usize;
        if n <= Self::INLINE {
            self.codes[..n].fill(0);
            self.spill.clear();
        } else {
            self.spill.clear();
            self.spill.resize(n, 0);
        }
    }

    /// The slot of the line from `from` to `to`, drawn from the second footprint to the
    /// first when `backward`.
    #[inline]
    fn slot(&self, from: GridPos, to: GridPos, backward: bool) -> usize {
        let (p, q) = if backward { (to, from) } else { (from, to) };
        let [f, s] = self.ends;
        let (nf, ns) = (f.side + 1, s.side + 1);
        let i = (p.y - f.origin.y) * nf + (p.x - f.origin.x);
        let j = (q.y - s.origin.y) * ns + (q.x - s.origin.x);
        (i * ns * ns + j) as usize
    }

    fn codes(&self) -> &[u8] {
        if self.spill.is_empty() { &self.codes } else { &self.spill }
    }

    #[inline]
    fn get(&self, slot: usize, backward: bool) -> Option<Blocker> {
        let code = self.codes()[slot];
        let way = if backward { Self::BACKWARD } else { Self::FORWARD };
        (code & way != 0).then(|| Blocker::from_code(code & 3))
    }

    #[inline]
    fn put(&mut self, slot: usize, backward: bool, found: Finding) {
        let way = match (found.both_ways, backward) {
            (true, _) => Self::FORWARD | Self::BACKWARD,
            (false, false) => Self::FORWARD,
            (false, true) => Self::BACKWARD,
        };
        let codes = if self.spill.is_empty() { &mut self.codes[..] } else { &mut self.spill[..] };
        codes[slot] = found.blocker as u8 | way;
    }
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

/// The last few walls that lines between one pair of footprints ran into: the next line,
/// drawn from a neighbouring corner or to one, most likely meets one of them too.
#[derive(Clone, Copy, Debug)]
struct WallHints {
    /// Most useful first: the last to block a line.
    cells: [GridPos; 4],
    len: usize,
    /// How many of the first cells a line may cross that [`WallHints::crossed_by`] has to
    /// try: those added since [`WallHints::crossed4`] tried them all on a choice's lines.
    untried: usize,
}

impl WallHints {
    fn new() -> Self {
        WallHints { cells: [GridPos::default(); 4], len: 0, untried: usize::MAX }
    }

    /// The same walls, for another survey: none tried yet.
    fn carried(self) -> Self {
        WallHints { untried: usize::MAX, ..self }
    }

    fn add(&mut self, wall: GridPos) {
        let n = self.cells.len();
        self.cells.copy_within(0..n - 1, 1);
        self.cells[0] = wall;
        self.len = (self.len + 1).min(self.cells.len());
        self.untried = self.untried.saturating_add(1);
    }
    /// Which of the four segments from `from` to `to[k]` (bit k) cross one of the walls (as
    /// [`crate::grid::segment_crosses_cell_at_once`] decides). The lines it leaves are then
    /// known to cross none of the walls so far.
    #[inline]
    fn crossed4(&mut self, from: GridPos, to: &[GridPos; 4]) -> u8 {
        self.untried = 0;
        if self.len == 0 {
            return 0;
        }
        let segments = to.map(|t| SegmentTest::new(from, t));
        let mut found = 0u8;
        for i in 0..self.len {
            let c = self.cells[i];
            let mut hit = 0u8;
            for (k, s) in segments.iter().enumerate() {
                hit |= u8::from(s.crosses(c)) << k;
            }
            if hit & !found != 0 {
                found |= hit;
                self.cells[..=i].rotate_right(1);
                if found == 0b1111 {
                    break;
                }
            }
        }
        found
    }

    /// Whether the segment crosses one of the walls (as
    /// [`crate::grid::segment_crosses_cell_at_once`] decides); a wall that does moves to
    /// the front. Only the untried walls are looked at: the segment must be one of the
    /// lines of the last [`WallHints::crossed4`] (if any) that it did not find walled.
    #[inline(always)]
    fn crossed_by(&mut self, from: GridPos, to: GridPos) -> bool {
        let s = SegmentTest::new(from, to);
        for i in 0..self.len.min(self.untried) {
            if s.crosses(self.cells[i]) {
                self.cells[..=i].rotate_right(1);
                return true;
            }
        }
        false
    }
}

/// [`crate::grid::segment_crosses_cell_at_once`] for one segment and many squares, with
/// what depends on the segment alone worked out once.
#[derive(Clone, Copy)]
struct SegmentTest {
    from: GridPos,
    dx: i64,
    dy: i64,
    /// The squares whose top-left corner lies in `min..max` (both ends' boxes).
    min: GridPos,
    max: GridPos,
    /// Offsets from a square's top-left corner's side value to its least and greatest over
    /// its four corners.
    lo: i64,
    hi: i64,
}

impl SegmentTest {
    #[inline(always)]
    fn new(from: GridPos, to: GridPos) -> Self {
        let (dx, dy) = (to.x - from.x, to.y - from.y);
        SegmentTest {
            from,
            dx: i64::from(dx),
            dy: i64::from(dy),
            min: GridPos::new(from.x.min(to.x), from.y.min(to.y)),
            max: GridPos::new(from.x.max(to.x), from.y.max(to.y)),
            lo: i64::from(dx.min(0) + (-dy).min(0)),
            hi: i64::from(dx.max(0) + (-dy).max(0)),
        }
    }

    /// Whether the segment crosses square `c`'s interior: it lies in the segment's box
    /// and the line passes strictly between its corners.
    #[inline(always)]
    fn crosses(&self, c: GridPos) -> bool {
        let inside = (c.x >= self.min.x) & (c.x < self.max.x) & (c.y >= self.min.y) & (c.y < self.max.y);
        let side = self.dx * i64::from(c.y - self.from.y) - self.dy * i64::from(c.x - self.from.x);
        inside & (side + self.lo < 0) & (side + self.hi > 0)
    }
}

/// Walks the lines of one survey a row (or column) of squares at a time over bit sets:
/// [`classify_line`], faster. A wall anywhere on a run settles the line; only the `marks`
/// (low walls, creatures: a superset of what `classify_cell` may find short of walls) are
/// looked at one by one. `walls` must be exactly the squares `classify_cell` calls walls,
/// and every line must stay on the map.
struct RunWalker<'a, F> {
    walls: &'a BitGrid,
    marks: &'a BitGrid,
    /// The low walls among the marks.
    low_walls: &'a BitGrid,
    hints: WallHints,
    /// The attacker's and the target's footprints when every square of them is clear to
    /// lines (the usual case: each stands on floor and is ignored): their marks need no look.
    quiet: [Option<Footprint>; 2],
    classify_cell: F,
}

impl<F: Fn(GridPos) -> Blocker> RunWalker<'_, F> {
    #[inline(always)]
    fn classify(&mut self, from: GridPos, to: GridPos) -> Finding {
        if from.x == to.x || from.y == to.y {
            return self.classify_face_line(from, to);
        }
        // Neighbouring lines tend to meet the same walls: try those first.
        if self.hints.crossed_by(from, to) {
            return Finding::both_ways(Blocker::Wall);
        }
        self.walk(from, to)
    }

    /// A line off the grid lines, square by square.
    #[inline(never)]
    fn walk(&mut self, from: GridPos, to: GridPos) -> Finding {
        let columns = crossed_runs_are_columns(from, to);
        let (Some(walls), Some(marks), Some(low_walls)) =
            (self.walls.single_words(columns), self.marks.single_words(columns), self.low_walls.single_words(columns))
        else {
            return self.classify_wide(from, to);
        };
        // Maps up to 64 squares: one word a row (or column).
        let cell = |line: i32, i: i32| if columns { GridPos::new(line, i) } else { GridPos::new(i, line) };
        // Walls first: the first settles the line. The marks met on the way are noted (a line
        // meets few, most often none) and looked at only once no wall has turned up.
        let mut met = [(0, 0); 8];
        let mut count = 0;
        for (line, lo, hi) in CrossedSpans::new(from, to) {
            let m = mask(lo as u32, hi as u32);
            let hit = walls[line as usize] & m;
            if hit != 0 {
                self.hints.add(cell(line, hit.trailing_zeros() as i32));
                return Finding::both_ways(Blocker::Wall);
            }
            let bits = marks[line as usize] & m;
            if bits != 0 {
                if let Some(slot) = met.get_mut(count) {
                    *slot = (line, bits);
                }
                count += 1;
            }
        }
        if count <= met.len() {
            self.classify_marks(columns, low_walls, met[..count].iter().copied())
        } else {
            let spans = CrossedSpans::new(from, to)
                .map(|(line, lo, hi)| (line, marks[line as usize] & mask(lo as u32, hi as u32)));
            self.classify_marks(columns, low_walls, spans)
        }
    }

    /// What the marks a line crosses, `bits` of each row (or column) `line`, do to it.
    #[inline]
    fn classify_marks(&self, columns: bool, low_walls: &[u64], met: impl Iterator<Item = (i32, u64)>) -> Finding {
        let cell = |line: i32, i: i32| if columns { GridPos::new(line, i) } else { GridPos::new(i, line) };
        let mut worst = Blocker::Clear;
        let mut low_wall_seen = false;
        for (line, mut bits) in met {
            if bits != 0 {
                for f in self.quiet.iter().flatten() {
                    let (first, across) = if columns { (f.origin.x, f.origin.y) } else { (f.origin.y, f.origin.x) };
                    if line >= first && line < first + f.side {
                        bits &= !mask(across as u32, (across + f.side - 1) as u32);
                    }
                }
            }
            low_wall_seen |= low_walls[line as usize] & bits != 0;
            // A low wall already found outranks anything short of a wall.
            while bits != 0 && worst < Blocker::LowWall {
                worst = worst.max((self.classify_cell)(cell(line, bits.trailing_zeros() as i32)));
                bits &= bits - 1;
            }
        }
        Finding { blocker: worst, both_ways: !low_wall_seen }
    }

    /// Maps wider (or taller) than 64 squares.
    fn classify_wide(&mut self, from: GridPos, to: GridPos) -> Finding {
        let (walls, marks, hints, classify_cell) = (self.walls, self.marks, &mut self.hints, &self.classify_cell);
        let mut worst = Blocker::Clear;
        for_each_crossed_run(from, to, |run| {
            if walls.any(run) {
                walls.for_each_in(run, |c| {
                    hints.add(c);
                    false
                });
                worst = Blocker::Wall;
                return false;
            }
            if worst < Blocker::LowWall && marks.any(run) {
                marks.for_each_in(run, |c| {
                    worst = worst.max(classify_cell(c));
                    worst < Blocker::LowWall
                });
            }
            true
        });
        // Whether low walls were looked at is not kept track of here.
        Finding { blocker: worst, both_ways: worst == Blocker::Wall }
    }

    /// A line along grid lines: most often nothing solid lies on both sides anywhere.
    #[inline(never)]
    fn classify_face_line(&self, from: GridPos, to: GridPos) -> Finding {
        let (columns, line, a, b) =
            if from.y == to.y { (false, from.y, from.x, to.x) } else { (true, from.x, from.y, to.y) };
        let count = if columns { self.walls.width() } else { self.walls.height() };
        if let (Some(walls), Some(marks)) = (self.walls.single_words(columns), self.marks.single_words(columns))
            && a != b
            && line >= 1
            && line < count
        {
            let m = mask(a.min(b) as u32, (a.max(b) - 1) as u32);
            let (l, r) = (line as usize - 1, line as usize);
            if (walls[l] | marks[l]) & (walls[r] | marks[r]) & m == 0 {
                return Finding::both_ways(Blocker::Clear);
            }
            if walls[l] & walls[r] & m != 0 {
                return Finding::both_ways(Blocker::Wall);
            }
            // Only where something solid may lie on both sides, square by square.
            let mut both = (walls[l] | marks[l]) & (walls[r] | marks[r]) & m;
            let cell = |side: usize, i: i32| {
                if columns { GridPos::new(side as i32, i) } else { GridPos::new(i, side as i32) }
            };
            let mut worst = Blocker::Clear;
            while both != 0 {
                let i = both.trailing_zeros() as i32;
                both &= both - 1;
                let (p, q) = ((self.classify_cell)(cell(l, i)), (self.classify_cell)(cell(r, i)));
                if p >= Blocker::LowWall && q >= Blocker::LowWall {
                    worst = worst.max(p.min(q));
                }
            }
            // Low walls may have counted one way and not the other.
            return Finding { blocker: worst, both_ways: false };
        }
        Finding::one_way(classify_line(from, to, &self.classify_cell))
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

#[cfg(test)]
mod reference {
    use super::*;

    /// The survey as first written: lines walked square by square, corners in a `Vec`.
    pub fn survey(
        field: &Battlefield,
        occupancy: Option<(&Occupancy, [usize; 2])>,
        attacker: Footprint,
        target: Footprint,
        detail: bool,
    ) -> LineSurvey {
        let shape = field.variant.shape();
        let lines = if shape == Shape::Square { 4 } else { 2 };
        if !detail && open_between(field, occupancy, attacker, target) {
            return LineSurvey { total: false, best: LineScore::default(), lines, best_lines: vec![] };
        }
        let classify_cell = |c: GridPos| classify(field, occupancy, attacker, target, c);
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
                            blockers[k] = hex_line_cells(a, t, nudge)
                                .into_iter()
                                .map(&classify_cell)
                                .max()
                                .unwrap_or(Blocker::Clear);
                        }
                        let score = score_of(&blockers);
                        let centre = |p: GridPos| [p.x as f32 + 0.5 * (p.y & 1) as f32, p.y as f32];
                        let drawn = || {
                            blockers
                                .iter()
                                .map(|&blocker| SightLine { from: centre(a), to: centre(t), blocker })
                                .collect()
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::TerrainMap;
    use crate::rules::roster::{Roster, UnitView};
    use proptest::prelude::*;

    fn unit(id: usize, footprint: Footprint) -> (UnitView, String) {
        let view = UnitView {
            id: format!("u{id:02}"),
            side: 0,
            footprint,
            speed_ft: 30,
            threat: None,
            ranged: true,
            able: true,
        };
        (view, if id.is_multiple_of(2) { "blue" } else { "red" }.to_string())
    }

    /// A random map (walls, `low_walls` squares in a hundred low walls, rubble) with
    /// creatures on it.
    fn scene(
        seed: u64,
        w: i32,
        h: i32,
        units: usize,
        variant: RulesVariant,
        low_walls: u64,
    ) -> (Battlefield, Roster, Occupancy) {
        let mut state = seed | 1;
        let mut next = move |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let cells = (0..w * h)
            .map(|_| match next(100) {
                0..12 => Terrain::Wall,
                n if n < 12 + low_walls => Terrain::LowWall,
                n if n < 15 + low_walls => Terrain::Difficult,
                _ => Terrain::Floor,
            })
            .collect();
        let terrain = TerrainMap::new(w, h, cells);
        let roster = Roster::new(
            (0..units)
                .map(|i| {
                    let side = [1, 1, 2, 1, 3][next(5) as usize];
                    let x = next((w - side + 1).max(1) as u64) as i32;
                    let y = next((h - side + 1).max(1) as u64) as i32;
                    unit(i, Footprint::new(GridPos::new(x, y), side))
                })
                .collect(),
        );
        let occupancy = Occupancy::build(&terrain, &roster);
        (Battlefield { terrain, variant }, roster, occupancy)
    }

    #[test]
    fn lines_along_a_corridor_and_through_a_wall() {
        let terrain = TerrainMap::from_rows(&["#####", ".....", "#.#..", "....."]).unwrap();
        let field = Battlefield { terrain, variant: RulesVariant::D20Classic };
        let roster = Roster::new(vec![]);
        let occupancy = Occupancy::build(&field.terrain, &roster);
        let at = |x, y| Footprint::single(GridPos::new(x, y));
        // Down the corridor of row 1: no cover (lines along the wall's face do not count).
        let s = survey(&field, Some((&occupancy, [0, 1])), at(0, 1), at(4, 1), true);
        assert_eq!((s.total, s.best), (false, LineScore::default()));
        assert_eq!(s.best_lines.len(), 4);
        // From (0, 3) to (4, 1) past the wall at (2, 2): the best corner keeps one line blocked.
        let s = survey(&field, Some((&occupancy, [0, 1])), at(0, 3), at(4, 1), false);
        assert!(!s.total);
        assert_eq!(s, reference::survey(&field, Some((&occupancy, [0, 1])), at(0, 3), at(4, 1), false));
    }

    #[test]
    fn a_memo_keeps_a_line_for_both_directions() {
        let (a, b) = (Footprint::new(GridPos::new(3, 4), 2), Footprint::single(GridPos::new(9, 1)));
        let mut memo = LineMemo::new(a, b);
        let mut slots = std::collections::HashSet::new();
        for from in (0..=2).flat_map(|y| (0..=2).map(move |x| a.origin.offset(x, y))) {
            for to in square_corners(b.origin) {
                let slot = memo.slot(from, to, false);
                assert_eq!(memo.slot(to, from, true), slot, "the same segment either way");
                assert!(slot < LineMemo::INLINE && slots.insert(slot), "one slot per segment");
            }
        }
        let (p, q) = (a.origin, b.origin);
        assert_eq!(memo.get(memo.slot(p, q, false), false), None);
        memo.put(memo.slot(p, q, false), false, Finding { blocker: Blocker::LowWall, both_ways: false });
        assert_eq!(memo.get(memo.slot(p, q, false), false), Some(Blocker::LowWall));
        assert_eq!(memo.get(memo.slot(q, p, true), true), None, "a low wall may not count the other way");
        memo.put(memo.slot(q, p, true), true, Finding::both_ways(Blocker::Wall));
        assert_eq!(memo.get(memo.slot(p, q, false), false), Some(Blocker::Wall));
        memo.reset(b, a);
        assert_eq!(memo.get(memo.slot(q, p, false), false), None);
    }

    #[test]
    fn a_low_wall_near_one_end_covers_one_way_only() {
        // The low wall beside the left creature covers it from the right one (within 30 ft
        // of it, and nearer to it than the attacker), not the other way (35 ft from the target).
        let terrain = TerrainMap::from_rows(&["..........", ".=........", "..........", ".........."]).unwrap();
        let field = Battlefield { terrain, variant: RulesVariant::D20Classic };
        let roster = Roster::new(vec![
            unit(0, Footprint::single(GridPos::new(0, 1))),
            unit(1, Footprint::single(GridPos::new(8, 2))),
        ]);
        let occupancy = Occupancy::build(&field.terrain, &roster);
        let threat = crate::rules::ThreatMap::build(&field, &roster);
        let view = RulesView { field: &field, roster: &roster, occupancy: &occupancy, threat: &threat };
        let all = cover_all_pairs(&view);
        let (there, back) = (cover_between(&view, 0, 1, false), cover_between(&view, 1, 0, false));
        assert_eq!((there.cover, back.cover), (CoverKind::None, CoverKind::Cover));
        assert_eq!(all[0][1].as_ref(), Some(&there));
        assert_eq!(all[1][0].as_ref(), Some(&back));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        /// The all-pairs answer is each pair's own answer, and the reference survey's: total
        /// cover reused or not, lines shared by both directions or not.
        #[test]
        fn all_pairs_match_pair_by_pair(
            seed in any::<u64>(),
            w in 2i32..30,
            h in 2i32..30,
            units in 2usize..12,
            v in 0usize..5,
            low_walls in prop_oneof![Just(5u64), 0u64..40],
        ) {
            let variant = RulesVariant::ALL[v];
            let (field, roster, occupancy) = scene(seed, w, h, units, variant, low_walls);
            let threat = crate::rules::ThreatMap::build(&field, &roster);
            let view = RulesView { field: &field, roster: &roster, occupancy: &occupancy, threat: &threat };
            let all = cover_all_pairs(&view);
            for (a, row) in all.iter().enumerate() {
                prop_assert!(row[a].is_none());
                for t in (0..roster.len()).filter(|&t| t != a) {
                    let got = row[t].as_ref().unwrap();
                    let want = cover_between(&view, a, t, false);
                    prop_assert_eq!(got, &want, "{} -> {}", a, t);
                    let reference = rate(variant, &reference::survey(&field, Some((&occupancy, [a, t])), roster.get(a).footprint, roster.get(t).footprint, false), AttackReach::of(&view, a, t));
                    prop_assert_eq!(got, &reference, "{} -> {}", a, t);
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Every pair of creatures, and creatures at made-up places (on walls, partly off
        /// the map), surveyed as first written and as now: the same, line for line.
        #[test]
        fn surveys_match_the_reference(
            seed in any::<u64>(),
            w in 2i32..40,
            h in 2i32..40,
            units in 2usize..10,
            v in 0usize..5,
            extra in proptest::collection::vec((-3i32..42, -3i32..42, 1i32..4), 0..4),
            low_walls in prop_oneof![Just(5u64), 0u64..40],
        ) {
            let variant = RulesVariant::ALL[v];
            let (field, roster, occupancy) = scene(seed, w, h, units, variant, low_walls);
            let mut spots: Vec<(usize, Footprint)> = roster.units.iter().map(|u| u.footprint).enumerate().collect();
            spots.extend(extra.iter().map(|&(x, y, s)| (0, Footprint::new(GridPos::new(x, y), s))));
            for (i, &(ai, a)) in spots.iter().enumerate() {
                for (j, &(ti, t)) in spots.iter().enumerate() {
                    if i == j {
                        continue;
                    }
                    for detail in [false, true] {
                        let ignore = [ai, if ti == ai { (ai + 1) % units } else { ti }];
                        let fast = survey(&field, Some((&occupancy, ignore)), a, t, detail);
                        let slow = reference::survey(&field, Some((&occupancy, ignore)), a, t, detail);
                        prop_assert_eq!(&fast, &slow, "{:?} -> {:?}", a, t);
                    }
                }
            }
        }
    }
}
