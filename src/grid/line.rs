//! Lines for cover and line of effect. On squares, lines run between square corners
//! (lattice points) and block only when they cross a square's interior: touching a
//! corner point or running along a face does not count. On hexes, lines run between
//! hex centres, nudged to either side so that lines along a hex edge are decided fairly.

use super::GridPos;
use super::bits::Run;
use super::distance::{hex_cube, hex_from_cube, hex_steps};

/// Calls `visit` with every square whose open interior the segment between two lattice
/// points crosses, in order from `a` to `b`. Stops early when `visit` returns `false`.
/// Returns `false` if stopped early.
pub fn for_each_crossed_cell(a: GridPos, b: GridPos, mut visit: impl FnMut(GridPos) -> bool) -> bool {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    if dx == 0 || dy == 0 {
        // Along a grid line: it runs on faces and crosses no interior.
        return true;
    }
    let (sx, sy) = (dx.signum(), dy.signum());
    let (nx, ny) = (dx.abs() as i64, dy.abs() as i64);
    let mut cx = if sx < 0 { a.x - 1 } else { a.x };
    let mut cy = if sy < 0 { a.y - 1 } else { a.y };
    let (mut ix, mut iy) = (0i64, 0i64);
    while ix < nx || iy < ny {
        if !visit(GridPos::new(cx, cy)) {
            return false;
        }
        // Next crossing of a vertical line at t = (ix+1)/nx, of a horizontal one at (iy+1)/ny.
        let tx = (ix + 1) * ny;
        let ty = (iy + 1) * nx;
        if tx < ty {
            cx += sx;
            ix += 1;
        } else if ty < tx {
            cy += sy;
            iy += 1;
        } else {
            cx += sx;
            cy += sy;
            ix += 1;
            iy += 1;
        }
    }
    true
}

/// The squares whose open interior the segment between two lattice points crosses (the
/// same squares as [`for_each_crossed_cell`]), as runs: one row at a time for a line at
/// most 45° from the horizontal, one column at a time for a steeper one, so that each run
/// holds at least one square. Runs come in increasing row (or column) order. Stops early
/// when `visit` returns `false`, and then returns `false`.
#[inline]
pub fn for_each_crossed_run(a: GridPos, b: GridPos, mut visit: impl FnMut(Run) -> bool) -> bool {
    if crossed_runs_are_columns(a, b) {
        for_each_crossed_span(a, b, |x, lo, hi| visit(Run::Col { x, lo, hi }))
    } else {
        for_each_crossed_span(a, b, |y, lo, hi| visit(Run::Row { y, lo, hi }))
    }
}

/// Whether [`for_each_crossed_run`] walks the segment a column (rather than a row) at a
/// time: it is steeper than 45°.
#[inline]
pub fn crossed_runs_are_columns(a: GridPos, b: GridPos) -> bool {
    (b.y - a.y).abs() > (b.x - a.x).abs()
}

/// [`for_each_crossed_run`] without the wrapping: `visit(line, lo, hi)` gets the row (or
/// column, when [`crossed_runs_are_columns`]) and the first and last squares along it.
#[inline(always)]
pub fn for_each_crossed_span(a: GridPos, b: GridPos, mut visit: impl FnMut(i32, i32, i32) -> bool) -> bool {
    CrossedSpans::new(a, b).all(|(line, lo, hi)| visit(line, lo, hi))
}

/// The spans of [`for_each_crossed_span`] as an iterator of `(line, lo, hi)`.
#[derive(Clone, Debug)]
pub struct CrossedSpans {
    /// The u of the end with the smaller v, which the spans are counted from.
    u: i32,
    /// Count u downwards from there.
    flip: bool,
    /// Next strip, and the end of the strips.
    w: i32,
    end: i32,
    /// Where the segment meets strip w's lower edge, as offset q + r/dv from u, and its
    /// step from one strip to the next.
    q: u64,
    r: u64,
    step_q: u64,
    step_r: u64,
    dv: u64,
}

impl CrossedSpans {
    #[inline(always)]
    pub fn new(a: GridPos, b: GridPos) -> Self {
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        let (u, v, du, dv) = if crossed_runs_are_columns(a, b) { (a.y, a.x, dy, dx) } else { (a.x, a.y, dx, dy) };
        // Walk from the end with the smaller v; count unit intervals along u away from
        // that end's u (so that every numerator is non-negative), mirroring if du < 0.
        let (u, v, du, dv) = if dv < 0 { (u + du, v + dv, -du, -dv) } else { (u, v, du, dv) };
        let (ud, dv64) = (u64::from(du.unsigned_abs()), u64::from(dv.unsigned_abs()).max(1));
        let step_q = div(ud, dv64);
        // Along a grid line (du or dv zero) there is nothing to cross.
        let end = if du == 0 || dv == 0 { v } else { v + dv };
        CrossedSpans { u, flip: du < 0, w: v, end, q: 0, r: 0, step_q, step_r: ud - step_q * dv64, dv: dv64 }
    }
}

impl Iterator for CrossedSpans {
    type Item = (i32, i32, i32);

    #[inline(always)]
    fn next(&mut self) -> Option<(i32, i32, i32)> {
        if self.w >= self.end {
            return None;
        }
        // Open interval (n/dv, (n+du)/dv): unit intervals floor(n/dv) ..= ceil((n+du)/dv) − 1.
        let lo = self.q as i32;
        self.q += self.step_q;
        self.r += self.step_r;
        if self.r >= self.dv {
            self.r -= self.dv;
            self.q += 1;
        }
        let hi = self.q as i32 - i32::from(self.r == 0);
        let w = self.w;
        self.w += 1;
        Some(if self.flip { (w, self.u - hi - 1, self.u - lo - 1) } else { (w, self.u + lo, self.u + hi) })
    }
}

/// `n / d`, in 32 bits when they suffice (a 64-bit division is several times slower on
/// some processors).
#[inline(always)]
fn div(n: u64, d: u64) -> u64 {
    if (n | d) >> 32 == 0 { u64::from(n as u32 / d as u32) } else { n / d }
}

/// For a segment along a grid line (horizontal or vertical), calls `visit` with the two
/// squares on either side of each unit edge it runs along. A line along a face between
/// two walls runs inside solid wall; along a single wall's face it does not.
/// Returns `false` if `visit` stopped early (or immediately for a non-axis segment).
pub fn for_each_face_pair(a: GridPos, b: GridPos, mut visit: impl FnMut(GridPos, GridPos) -> bool) -> bool {
    if a.y == b.y && a.x != b.x {
        for x in a.x.min(b.x)..a.x.max(b.x) {
            if !visit(GridPos::new(x, a.y - 1), GridPos::new(x, a.y)) {
                return false;
            }
        }
    } else if a.x == b.x && a.y != b.y {
        for y in a.y.min(b.y)..a.y.max(b.y) {
            if !visit(GridPos::new(a.x - 1, y), GridPos::new(a.x, y)) {
                return false;
            }
        }
    }
    true
}

/// Whether the segment between two lattice points crosses the interior of `cell`.
pub fn segment_crosses_cell(a: GridPos, b: GridPos, cell: GridPos) -> bool {
    !for_each_crossed_cell(a, b, |c| c != cell)
}

/// [`segment_crosses_cell`] in constant time: the cell must lie within the segment's
/// bounding box (whose opposite corners are the segment's ends, so that the line's part
/// inside the box is the segment) and the line must pass strictly between its corners.
#[inline]
pub fn segment_crosses_cell_at_once(a: GridPos, b: GridPos, cell: GridPos) -> bool {
    let inside = |c: i32, e0: i32, e1: i32| c >= e0.min(e1) && c < e0.max(e1);
    if !inside(cell.x, a.x, b.x) || !inside(cell.y, a.y, b.y) {
        return false;
    }
    // Which side of the line each corner lies on: dx·(y − ay) − dy·(x − ax).
    let (dx, dy) = (i64::from(b.x - a.x), i64::from(b.y - a.y));
    let c = dx * i64::from(cell.y - a.y) - dy * i64::from(cell.x - a.x);
    let corners = [c, c - dy, c + dx, c + dx - dy];
    corners.iter().any(|&k| k < 0) && corners.iter().any(|&k| k > 0)
}

/// The four corners of a square, as lattice points.
pub fn square_corners(p: GridPos) -> [GridPos; 4] {
    [p, p.offset(1, 0), p.offset(0, 1), p.offset(1, 1)]
}

/// Hexes on the line between two hex centres, nudged by `nudge` (a small signed number)
/// so that a line running along hex edges falls to one side. Includes both ends.
pub fn hex_line_cells(a: GridPos, b: GridPos, nudge: f64) -> Vec<GridPos> {
    let mut out = Vec::with_capacity(hex_steps(a, b) as usize + 1);
    hex_line_all(a, b, nudge, |c| {
        out.push(c);
        true
    });
    out
}

/// Whether `f` holds for every hex of [`hex_line_cells`]`(a, b, nudge)`, in order,
/// stopping at the first that fails; no allocation.
pub fn hex_line_all(a: GridPos, b: GridPos, nudge: f64, mut f: impl FnMut(GridPos) -> bool) -> bool {
    let n = hex_steps(a, b);
    let (aq, ar, as_) = hex_cube(a);
    let (bq, br, bs) = hex_cube(b);
    // An asymmetric nudge, so that ties on every edge direction break the same way.
    let (aq, ar, as_) = (aq as f64 + nudge, ar as f64 + 2.0 * nudge, as_ as f64 - 3.0 * nudge);
    let (bq, br, bs) = (bq as f64 + nudge, br as f64 + 2.0 * nudge, bs as f64 - 3.0 * nudge);
    let mut last = None;
    for i in 0..=n {
        let t = if n == 0 { 0.0 } else { i as f64 / n as f64 };
        let (q, r) = cube_round(aq + (bq - aq) * t, ar + (br - ar) * t, as_ + (bs - as_) * t);
        let cell = hex_from_cube(q, r);
        if last != Some(cell) {
            last = Some(cell);
            if !f(cell) {
                return false;
            }
        }
    }
    true
}

fn cube_round(q: f64, r: f64, s: f64) -> (i32, i32) {
    let (mut rq, mut rr, rs) = (round(q), round(r), round(s));
    let (dq, dr, ds) = ((rq - q).abs(), (rr - r).abs(), (rs - s).abs());
    if dq > dr && dq > ds {
        rq = -rr - rs;
    } else if dr > ds {
        rr = -rq - rs;
    }
    (rq as i32, rr as i32)
}

/// `x` to the nearest whole number, halves away from zero: [`f64::round`] for the sizes a
/// map has, without the library call (the fraction left by truncating is exact).
#[inline]
fn round(x: f64) -> f64 {
    let whole = x as i64 as f64;
    let fraction = x - whole;
    if fraction >= 0.5 {
        whole + 1.0
    } else if fraction <= -0.5 {
        whole - 1.0
    } else {
        whole
    }
}

/// Squares on a straight line from `a` to `b` (a Bresenham walk), start excluded.
pub fn straight_line(a: GridPos, b: GridPos) -> Vec<GridPos> {
    let (dx, dy) = ((b.x - a.x).abs(), -(b.y - a.y).abs());
    let (sx, sy) = ((b.x - a.x).signum(), (b.y - a.y).signum());
    let (mut x, mut y, mut e) = (a.x, a.y, dx + dy);
    let mut out = Vec::new();
    while (x, y) != (b.x, b.y) {
        let e2 = 2 * e;
        if e2 >= dy {
            e += dy;
            x += sx;
        }
        if e2 <= dx {
            e += dx;
            y += sy;
        }
        out.push(GridPos::new(x, y));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crossed(a: (i32, i32), b: (i32, i32)) -> Vec<(i32, i32)> {
        let mut v = vec![];
        for_each_crossed_cell(a.into(), b.into(), |c| {
            v.push((c.x, c.y));
            true
        });
        v
    }

    #[test]
    fn rounding_is_the_library_s_halves_away_from_zero() {
        let mut x = -300.0;
        while x <= 300.0 {
            for nudge in [0.0, 1e-6, -1e-6, 1e-12] {
                assert_eq!(round(x + nudge), (x + nudge).round(), "{}", x + nudge);
            }
            x += 0.125;
        }
    }

    #[test]
    fn lines_along_faces_cross_nothing() {
        assert!(crossed((0, 0), (5, 0)).is_empty());
        assert!(crossed((3, 1), (3, 7)).is_empty());
    }

    #[test]
    fn a_diagonal_through_lattice_points_crosses_only_the_diagonal_cells() {
        assert_eq!(crossed((0, 0), (3, 3)), vec![(0, 0), (1, 1), (2, 2)]);
        assert_eq!(crossed((3, 3), (0, 0)), vec![(2, 2), (1, 1), (0, 0)]);
    }

    #[test]
    fn a_shallow_line_crosses_nx_plus_ny_minus_gcd_cells() {
        let cells = crossed((0, 0), (4, 2));
        assert_eq!(cells.len(), 4 + 2 - 2);
        assert_eq!(cells, vec![(0, 0), (1, 0), (2, 1), (3, 1)]);
        let cells = crossed((0, 0), (3, 1));
        assert_eq!(cells, vec![(0, 0), (1, 0), (2, 0)]);
        assert!(segment_crosses_cell((0, 0).into(), (3, 1).into(), (1, 0).into()));
        assert!(!segment_crosses_cell((0, 0).into(), (3, 1).into(), (1, 1).into()));
    }

    fn crossed_by_runs(a: (i32, i32), b: (i32, i32)) -> Vec<(i32, i32)> {
        let mut v = vec![];
        for_each_crossed_run(a.into(), b.into(), |run| {
            assert!(run.cells().count() >= 1, "an empty run");
            v.extend(run.cells().map(|c| (c.x, c.y)));
            true
        });
        v.sort();
        v
    }

    #[test]
    fn runs_hold_the_crossed_squares() {
        assert!(crossed_by_runs((0, 0), (5, 0)).is_empty());
        assert_eq!(crossed_by_runs((0, 0), (4, 2)), vec![(0, 0), (1, 0), (2, 1), (3, 1)]);
        assert_eq!(crossed_by_runs((4, 2), (0, 0)), vec![(0, 0), (1, 0), (2, 1), (3, 1)]);
        assert_eq!(crossed_by_runs((3, 3), (0, 0)), vec![(0, 0), (1, 1), (2, 2)]);
        let mut rows = vec![];
        for_each_crossed_run(GridPos::new(0, 0), GridPos::new(5, 2), |r| {
            rows.push(r);
            true
        });
        assert_eq!(rows, vec![Run::Row { y: 0, lo: 0, hi: 2 }, Run::Row { y: 1, lo: 2, hi: 4 }]);
        let mut cols = vec![];
        for_each_crossed_run(GridPos::new(1, 6), GridPos::new(0, 0), |r| {
            cols.push(r);
            true
        });
        assert_eq!(cols, vec![Run::Col { x: 0, lo: 0, hi: 5 }]);
    }

    proptest::proptest! {
        #[test]
        fn runs_cross_what_the_cell_walk_crosses(ax in -20i32..20, ay in -20i32..20, bx in -20i32..20, by in -20i32..20) {
            let mut expected = crossed((ax, ay), (bx, by));
            expected.sort();
            proptest::prop_assert_eq!(crossed_by_runs((ax, ay), (bx, by)), expected);
        }

        #[test]
        fn crossing_is_decided_at_once_as_by_walking(
            ax in -9i32..9, ay in -9i32..9, bx in -9i32..9, by in -9i32..9, cx in -10i32..10, cy in -10i32..10,
        ) {
            let (a, b, c) = (GridPos::new(ax, ay), GridPos::new(bx, by), GridPos::new(cx, cy));
            proptest::prop_assert_eq!(segment_crosses_cell_at_once(a, b, c), segment_crosses_cell(a, b, c));
        }
    }

    #[test]
    fn hex_lines_connect_their_ends() {
        let line = hex_line_cells(GridPos::new(0, 0), GridPos::new(4, 3), 1e-6);
        assert_eq!(line.first(), Some(&GridPos::new(0, 0)));
        assert_eq!(line.last(), Some(&GridPos::new(4, 3)));
        for w in line.windows(2) {
            assert_eq!(hex_steps(w[0], w[1]), 1);
        }
    }
}
