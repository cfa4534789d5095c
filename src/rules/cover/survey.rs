//! The survey: every line from the attacker's best corner (or hex centre) to the target,
//! and what each one crosses, with a memo of lines already classified.

use super::*;

pub(super) fn union_box(a: Footprint, b: Footprint) -> (GridPos, GridPos) {
    let min = GridPos::new(a.origin.x.min(b.origin.x), a.origin.y.min(b.origin.y));
    let max = GridPos::new(
        (a.origin.x + a.side).max(b.origin.x + b.side) - 1,
        (a.origin.y + a.side).max(b.origin.y + b.side) - 1,
    );
    (min, max)
}

/// Nothing that could block or cover lies in the box spanned by the two footprints (no
/// wall, low wall or third creature): every line is clear, no survey needed.
pub(super) fn open_between(
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
pub(super) fn classify(
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
pub(super) fn survey_with(
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
                        // A wall is the worst a line can meet: the walk stops there.
                        hex_line_all(a, t, nudge, |c| {
                            blockers[k] = blockers[k].max(classify_cell(c));
                            blockers[k] != Blocker::Wall
                        });
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
pub(super) struct LineMemo {
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
    pub(super) const INLINE: usize = 81;
    const FORWARD: u8 = 4;
    const BACKWARD: u8 = 8;

    pub(super) fn new(first: Footprint, second: Footprint) -> Self {
        let mut memo =
            LineMemo { ends: [first, second], codes: [0; Self::INLINE], spill: vec![], walls: WallHints::new() };
        memo.reset(first, second);
        memo
    }

    /// Forgets everything, for the lines from `first` to `second`.
    pub(super) fn reset(&mut self, first: Footprint, second: Footprint) {
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
    pub(super) fn slot(&self, from: GridPos, to: GridPos, backward: bool) -> usize {
        let (p, q) = if backward { (to, from) } else { (from, to) };
        let [f, s] = self.ends;
        let (nf, ns) = (f.side + 1, s.side + 1);
        let i = (p.y - f.origin.y) * nf + (p.x - f.origin.x);
        let j = (q.y - s.origin.y) * ns + (q.x - s.origin.x);
        (i * ns * ns + j) as usize
    }

    pub(super) fn codes(&self) -> &[u8] {
        if self.spill.is_empty() { &self.codes } else { &self.spill }
    }

    #[inline]
    pub(super) fn get(&self, slot: usize, backward: bool) -> Option<Blocker> {
        let code = self.codes()[slot];
        let way = if backward { Self::BACKWARD } else { Self::FORWARD };
        (code & way != 0).then(|| Blocker::from_code(code & 3))
    }

    #[inline]
    pub(super) fn put(&mut self, slot: usize, backward: bool, found: Finding) {
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
pub(super) fn consider(
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

pub(super) fn classify_line(from: GridPos, to: GridPos, classify_cell: &impl Fn(GridPos) -> Blocker) -> Blocker {
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
