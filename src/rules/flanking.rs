//! Flanking. d20-classic and ap-phases: you and an ally both threaten the foe and the
//! line between your squares' centres crosses opposite borders (or corners) of its
//! space. four-actions: the two of you stand in mirror-image squares through the foe's
//! centre. osr-segments and hex-phases have no flanking rule. `flanking_squares` turns
//! the question round for the editor: where could this unit stand to flank a foe?

use super::RulesView;
use super::roster::indices;
use crate::grid::{Footprint, GridPos};
use crate::variants::FlankingRule;

/// Whether `attacker` flanks `target`, and with which allies (in roster order).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Flanking {
    pub flanking: bool,
    pub partners: Vec<usize>,
}

/// Who flanks `target` together with `attacker`.
pub fn flanking(view: &RulesView, attacker: usize, target: usize) -> Flanking {
    let rule = view.field.variant.flanking();
    let roster = view.roster;
    let a = roster.get(attacker);
    let t = roster.get(target);
    if rule == FlankingRule::None
        || attacker == target
        || !roster.are_foes(attacker, target)
        || a.ranged
        || !a.able
        || !view.threat.threatens(attacker, t.footprint)
    {
        return Flanking::default();
    }
    let partners: Vec<usize> = indices(roster.allies_of(attacker))
        .filter(|&p| p != attacker)
        .filter(|&p| {
            let u = roster.get(p);
            u.able && !u.ranged && view.threat.threatens(p, t.footprint)
        })
        .filter(|&p| {
            let pf = roster.get(p).footprint;
            match rule {
                FlankingRule::OppositeBorders => opposite_borders(a.footprint, pf, t.footprint),
                FlankingRule::MirrorSquares => mirror_squares(a.footprint, pf, t.footprint),
                FlankingRule::None => false,
            }
        })
        .collect();
    Flanking { flanking: !partners.is_empty(), partners }
}

/// Where `unit` could stand to flank each of its foes, as the variant rules it: every
/// place (footprint top-left) it fits, from which it would threaten that foe, opposite an
/// ally already threatening it. Pairs of (place, foe), by foe then row-major; empty for a
/// unit that threatens nothing or fights at range, and under variants without flanking.
pub fn flanking_squares(view: &RulesView, unit: usize) -> Vec<(GridPos, usize)> {
    let rule = view.field.variant.flanking();
    let roster = view.roster;
    let u = roster.get(unit);
    let Some(band) = u.threat.filter(|_| rule != FlankingRule::None && u.able && !u.ranged) else {
        return vec![];
    };
    let side = u.footprint.side;
    let r = (band.max_ft / 5) as i32 + 1;
    let mut out = vec![];
    for foe in indices(roster.foes_of(unit)) {
        let t = roster.get(foe).footprint;
        let partners: Vec<Footprint> = indices(roster.allies_of(unit))
            .filter(|&p| p != unit && roster.get(p).able && !roster.get(p).ranged && view.threat.threatens(p, t))
            .map(|p| roster.get(p).footprint)
            .collect();
        if partners.is_empty() {
            continue;
        }
        for y in t.origin.y - r - (side - 1)..=t.origin.y + t.side - 1 + r {
            for x in t.origin.x - r - (side - 1)..=t.origin.x + t.side - 1 + r {
                let here = Footprint::new(GridPos::new(x, y), side);
                if !view.can_stand(unit, here)
                    || !super::threat::threatened_squares(view.field, here, band).iter().any(|&c| t.contains(c))
                {
                    continue;
                }
                let flanks = partners.iter().any(|&pf| match rule {
                    FlankingRule::OppositeBorders => opposite_borders(here, pf, t),
                    FlankingRule::MirrorSquares => mirror_squares(here, pf, t),
                    FlankingRule::None => false,
                });
                if flanks {
                    out.push((here.origin, foe));
                }
            }
        }
    }
    out
}

/// Whether a line between the centre of some square of `a` and some square of `b`
/// passes through opposite borders (or opposite corners) of `target`'s space.
pub fn opposite_borders(a: Footprint, b: Footprint, target: Footprint) -> bool {
    a.cells().any(|p| b.cells().any(|q| line_crosses_opposite_borders(p, q, target)))
}

/// Whether two footprints hold squares that are mirror images through `target`'s centre.
pub fn mirror_squares(a: Footprint, b: Footprint, target: Footprint) -> bool {
    // In doubled coordinates a square's centre is (2x+1, 2y+1) and the target's centre is
    // (2·ox + side, 2·oy + side).
    let (cx, cy) = (2 * target.origin.x + target.side, 2 * target.origin.y + target.side);
    a.cells().any(|p| {
        let (px, py) = (2 * p.x + 1, 2 * p.y + 1);
        let mirror = GridPos::new((2 * cx - px - 1) / 2, (2 * cy - py - 1) / 2);
        b.contains(mirror) && !target.contains(p)
    })
}

/// The segment between the centres of squares `p` and `q` enters `target`'s box through
/// one border and leaves through the opposite one (a corner counts for both its borders).
fn line_crosses_opposite_borders(p: GridPos, q: GridPos, target: Footprint) -> bool {
    // Doubled coordinates keep everything integral: centres are odd, borders even.
    let (x0, y0) = (2 * p.x + 1, 2 * p.y + 1);
    let (x1, y1) = (2 * q.x + 1, 2 * q.y + 1);
    let (lx, ly) = (2 * target.origin.x, 2 * target.origin.y);
    let (hx, hy) = (lx + 2 * target.side, ly + 2 * target.side);
    let (dx, dy) = (x1 - x0, y1 - y0);
    // Liang–Barsky clipping with exact fractions t = num/den.
    let mut t_in = (0i64, 1i64);
    let mut t_out = (1i64, 1i64);
    for (d, lo, hi, s0) in [(dx, lx, hx, x0), (dy, ly, hy, y0)] {
        let (d, lo, hi, s0) = (d as i64, lo as i64, hi as i64, s0 as i64);
        if d == 0 {
            if s0 <= lo || s0 >= hi {
                return false;
            }
            continue;
        }
        let (mut a, mut b) = ((lo - s0, d), (hi - s0, d));
        if d < 0 {
            a = (-(lo - s0), -d);
            b = (-(hi - s0), -d);
            std::mem::swap(&mut a, &mut b);
        }
        if frac_lt(t_in, a) {
            t_in = a;
        }
        if frac_lt(b, t_out) {
            t_out = b;
        }
    }
    if !frac_lt(t_in, t_out) {
        return false; // misses, or only touches a corner
    }
    let at = |t: (i64, i64)| (x0 as i64 * t.1 + dx as i64 * t.0, y0 as i64 * t.1 + dy as i64 * t.0, t.1);
    let borders = |(x, y, den): (i64, i64, i64)| {
        let on = |v: i64, b: i32| v == b as i64 * den;
        (on(x, lx), on(x, hx), on(y, ly), on(y, hy))
    };
    let (in_l, in_r, in_t, in_b) = borders(at(t_in));
    let (out_l, out_r, out_t, out_b) = borders(at(t_out));
    (in_l && out_r) || (in_r && out_l) || (in_t && out_b) || (in_b && out_t)
}

fn frac_lt(a: (i64, i64), b: (i64, i64)) -> bool {
    a.0 * b.1 < b.0 * a.1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(x: i32, y: i32) -> Footprint {
        Footprint::single(GridPos::new(x, y))
    }

    #[test]
    fn opposite_sides_and_corners_flank() {
        let t = one(5, 5);
        assert!(opposite_borders(one(4, 5), one(6, 5), t));
        assert!(opposite_borders(one(5, 4), one(5, 6), t));
        assert!(opposite_borders(one(4, 4), one(6, 6), t));
        assert!(opposite_borders(one(6, 4), one(4, 6), t));
    }

    #[test]
    fn a_knights_move_apart_does_not_flank() {
        let t = one(5, 5);
        assert!(!opposite_borders(one(4, 4), one(6, 5), t));
        assert!(!opposite_borders(one(4, 5), one(5, 6), t));
        assert!(!opposite_borders(one(4, 4), one(6, 4), t));
    }

    #[test]
    fn reach_attackers_flank_from_where_they_stand() {
        let t = one(5, 5);
        assert!(opposite_borders(one(3, 5), one(6, 5), t));
        assert!(opposite_borders(one(3, 3), one(6, 6), t));
        assert!(opposite_borders(one(3, 4), one(7, 6), t));
    }

    #[test]
    fn a_large_target_is_flanked_across_its_whole_space() {
        let ogre = Footprint::new(GridPos::new(5, 5), 2);
        assert!(opposite_borders(one(4, 5), one(7, 6), ogre));
        assert!(opposite_borders(one(5, 4), one(6, 7), ogre));
        assert!(opposite_borders(one(4, 4), one(7, 7), ogre));
        assert!(!opposite_borders(one(4, 5), one(5, 7), ogre));
    }

    #[test]
    fn mirror_squares_are_exact_opposites() {
        let t = one(5, 5);
        assert!(mirror_squares(one(4, 5), one(6, 5), t));
        assert!(mirror_squares(one(4, 4), one(6, 6), t));
        assert!(!mirror_squares(one(4, 4), one(6, 5), t));
        // A Large foe: mirror through the centre of its 2×2 space.
        let ogre = Footprint::new(GridPos::new(5, 5), 2);
        assert!(mirror_squares(one(4, 5), one(7, 6), ogre));
        assert!(!mirror_squares(one(4, 5), one(7, 5), ogre));
    }
}
