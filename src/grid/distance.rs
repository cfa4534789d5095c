//! Distances on the grid: the alternating 5/10/5 diagonal count, the OSR straight-line
//! range (center to center, rounded down to 5 ft) and odd-r hex distance.

use super::{Footprint, GridPos};

/// How the cells of a map are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Deserialize)]
pub enum Shape {
    /// 5-ft squares, eight neighbours.
    Square,
    /// Pointy-top hexes, odd rows shifted right by half a hex ("odd-r"), six neighbours.
    Hex,
}

/// How a rule variant measures distance in feet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Deserialize)]
pub enum Metric {
    /// Squares: first diagonal 5 ft, second 10 ft, and so on.
    Alternating,
    /// Squares: straight line center to center, rounded down to the nearest 5 ft.
    Euclid,
    /// Hexes: 5 ft a hex.
    Hex,
}

impl Metric {
    pub const fn shape(self) -> Shape {
        match self {
            Metric::Alternating | Metric::Euclid => Shape::Square,
            Metric::Hex => Shape::Hex,
        }
    }

    /// Feet between two cells of a square grid `dx` columns and `dy` rows apart.
    /// Not meaningful for hexes, where the offset depends on the rows: use [`Metric::cell_ft`].
    pub fn square_ft(self, dx: i32, dy: i32) -> u32 {
        let (dx, dy) = (dx.unsigned_abs(), dy.unsigned_abs());
        let (long, short) = (dx.max(dy), dx.min(dy));
        match self {
            Metric::Alternating => 5 * (long + short / 2),
            Metric::Euclid => 5 * isqrt(dx * dx + dy * dy),
            Metric::Hex => unreachable!("hex distance needs positions, not offsets"),
        }
    }

    /// Feet between two cells.
    pub fn cell_ft(self, a: GridPos, b: GridPos) -> u32 {
        match self {
            Metric::Hex => 5 * hex_steps(a, b),
            _ => self.square_ft(b.x - a.x, b.y - a.y),
        }
    }

    /// Feet from the nearest square of a footprint to a cell (0 inside it).
    pub fn footprint_to_cell_ft(self, fp: Footprint, c: GridPos) -> u32 {
        match self {
            Metric::Hex => fp.cells().map(|f| self.cell_ft(f, c)).min().unwrap_or(0),
            _ => {
                let (gx, gy) = box_gap(fp, Footprint::single(c));
                self.square_ft(gx, gy)
            }
        }
    }

    /// Feet between the nearest squares of two footprints (0 when they overlap).
    pub fn footprint_ft(self, a: Footprint, b: Footprint) -> u32 {
        match self {
            Metric::Hex => a
                .cells()
                .flat_map(|p| b.cells().map(move |q| (p, q)))
                .map(|(p, q)| self.cell_ft(p, q))
                .min()
                .unwrap_or(0),
            _ => {
                let (gx, gy) = box_gap(a, b);
                self.square_ft(gx, gy)
            }
        }
    }

    /// Whether cell `c` lies within `reach_ft` of footprint `fp`. With `diagonal_exception`,
    /// exactly 10 ft of reach also takes the squares two diagonals away (which 5/10 counting
    /// puts at 15 ft), as the d20 family rules.
    pub fn within_reach(self, fp: Footprint, c: GridPos, reach_ft: u32, diagonal_exception: bool) -> bool {
        if self == Metric::Alternating && diagonal_exception && reach_ft == 10 {
            let (gx, gy) = box_gap(fp, Footprint::single(c));
            if gx.abs() == 2 && gy.abs() == 2 {
                return true;
            }
        }
        self.footprint_to_cell_ft(fp, c) <= reach_ft
    }
}

/// Per-axis gap in cells between two boxes (0 when they overlap on that axis).
pub fn box_gap(a: Footprint, b: Footprint) -> (i32, i32) {
    let gap = |a0: i32, a_side: i32, b0: i32, b_side: i32| {
        if b0 >= a0 + a_side {
            b0 - (a0 + a_side - 1)
        } else if a0 >= b0 + b_side {
            a0 - (b0 + b_side - 1)
        } else {
            0
        }
    };
    (gap(a.origin.x, a.side, b.origin.x, b.side), gap(a.origin.y, a.side, b.origin.y, b.side))
}

/// Odd-r offset to cube coordinates (q, r, s).
pub fn hex_cube(p: GridPos) -> (i32, i32, i32) {
    let q = p.x - (p.y - (p.y & 1)) / 2;
    let r = p.y;
    (q, r, -q - r)
}

/// Cube to odd-r offset coordinates.
pub fn hex_from_cube(q: i32, r: i32) -> GridPos {
    GridPos::new(q + (r - (r & 1)) / 2, r)
}

/// Number of hex steps between two odd-r cells.
pub fn hex_steps(a: GridPos, b: GridPos) -> u32 {
    let (aq, ar, as_) = hex_cube(a);
    let (bq, br, bs) = hex_cube(b);
    ((aq - bq).unsigned_abs() + (ar - br).unsigned_abs() + (as_ - bs).unsigned_abs()) / 2
}

fn isqrt(n: u32) -> u32 {
    let mut r = (n as f64).sqrt() as u32;
    while r * r > n {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= n {
        r += 1;
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alternating_diagonals_cost_5_10_5() {
        let m = Metric::Alternating;
        assert_eq!(m.square_ft(1, 1), 5);
        assert_eq!(m.square_ft(2, 2), 15);
        assert_eq!(m.square_ft(3, 3), 20);
        assert_eq!(m.square_ft(4, 4), 30);
        assert_eq!(m.square_ft(3, 1), 15);
        assert_eq!(m.square_ft(0, 6), 30);
        assert_eq!(m.square_ft(-2, 1), 10);
    }

    #[test]
    fn euclid_rounds_down_to_5_ft() {
        let m = Metric::Euclid;
        assert_eq!(m.square_ft(1, 1), 5); // 7.07 ft
        assert_eq!(m.square_ft(2, 2), 10); // 14.1 ft
        assert_eq!(m.square_ft(3, 4), 25);
        assert_eq!(m.square_ft(0, 3), 15);
    }

    #[test]
    fn hex_distance_in_odd_r() {
        let a = GridPos::new(2, 2);
        // The six neighbours of an even row.
        for (dx, dy) in crate::grid::HEX_DIRS_EVEN {
            assert_eq!(hex_steps(a, a.offset(dx, dy)), 1, "{dx},{dy}");
        }
        let b = GridPos::new(2, 3);
        for (dx, dy) in crate::grid::HEX_DIRS_ODD {
            assert_eq!(hex_steps(b, b.offset(dx, dy)), 1, "{dx},{dy}");
        }
        assert_eq!(hex_steps(GridPos::new(0, 0), GridPos::new(3, 0)), 3);
        assert_eq!(hex_steps(GridPos::new(0, 0), GridPos::new(1, 2)), 2);
        assert_eq!(hex_steps(GridPos::new(0, 0), GridPos::new(0, 4)), 4);
        assert_eq!(Metric::Hex.cell_ft(GridPos::new(0, 0), GridPos::new(3, 0)), 15);
        for p in [GridPos::new(3, 5), GridPos::new(-2, 4), GridPos::new(0, 1)] {
            let (q, r, _) = hex_cube(p);
            assert_eq!(hex_from_cube(q, r), p);
        }
    }

    #[test]
    fn footprint_distance_uses_nearest_square() {
        let ogre = Footprint::new(GridPos::new(4, 4), 2);
        let m = Metric::Alternating;
        assert_eq!(m.footprint_to_cell_ft(ogre, GridPos::new(6, 5)), 5);
        assert_eq!(m.footprint_to_cell_ft(ogre, GridPos::new(7, 4)), 10);
        assert_eq!(m.footprint_to_cell_ft(ogre, GridPos::new(2, 2)), 15);
        assert_eq!(m.footprint_to_cell_ft(ogre, GridPos::new(5, 5)), 0);
    }

    #[test]
    fn ten_foot_reach_takes_two_diagonals_only_with_the_exception() {
        let me = Footprint::single(GridPos::new(5, 5));
        let corner = GridPos::new(7, 7);
        assert!(Metric::Alternating.within_reach(me, corner, 10, true));
        assert!(!Metric::Alternating.within_reach(me, corner, 10, false));
        // 15-ft reach does not reach three diagonals (20 ft).
        assert!(!Metric::Alternating.within_reach(me, GridPos::new(8, 8), 15, true));
        assert!(Metric::Alternating.within_reach(me, GridPos::new(8, 6), 15, true));
    }
}
