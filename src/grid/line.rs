//! Lines for cover and line of effect. On squares, lines run between square corners
//! (lattice points) and block only when they cross a square's interior: touching a
//! corner point or running along a face does not count. On hexes, lines run between
//! hex centres, nudged to either side so that lines along a hex edge are decided fairly.

use super::GridPos;
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

/// The four corners of a square, as lattice points.
pub fn square_corners(p: GridPos) -> [GridPos; 4] {
    [p, p.offset(1, 0), p.offset(0, 1), p.offset(1, 1)]
}

/// Hexes on the line between two hex centres, nudged by `nudge` (a small signed number)
/// so that a line running along hex edges falls to one side. Includes both ends.
pub fn hex_line_cells(a: GridPos, b: GridPos, nudge: f64) -> Vec<GridPos> {
    let n = hex_steps(a, b);
    let (aq, ar, as_) = hex_cube(a);
    let (bq, br, bs) = hex_cube(b);
    // An asymmetric nudge, so that ties on every edge direction break the same way.
    let (aq, ar, as_) = (aq as f64 + nudge, ar as f64 + 2.0 * nudge, as_ as f64 - 3.0 * nudge);
    let (bq, br, bs) = (bq as f64 + nudge, br as f64 + 2.0 * nudge, bs as f64 - 3.0 * nudge);
    let mut out = Vec::with_capacity(n as usize + 1);
    for i in 0..=n {
        let t = if n == 0 { 0.0 } else { i as f64 / n as f64 };
        let (q, r) = cube_round(aq + (bq - aq) * t, ar + (br - ar) * t, as_ + (bs - as_) * t);
        let cell = hex_from_cube(q, r);
        if out.last() != Some(&cell) {
            out.push(cell);
        }
    }
    out
}

fn cube_round(q: f64, r: f64, s: f64) -> (i32, i32) {
    let (mut rq, mut rr, rs) = (q.round(), r.round(), s.round());
    let (dq, dr, ds) = ((rq - q).abs(), (rr - r).abs(), (rs - s).abs());
    if dq > dr && dq > ds {
        rq = -rr - rs;
    } else if dr > ds {
        rr = -rq - rs;
    }
    (rq as i32, rr as i32)
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
