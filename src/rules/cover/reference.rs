//! The cover survey as first written (lines walked square by square), kept as the
//! oracle the fast survey is checked against.

use super::*;
use crate::grid::hex_line_cells;

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
