//! Where grid cells sit in the world: square cells or odd-r pointy-top hexes, row 0 at
//! the top. Pure geometry, so the picking of squares under the cursor is testable
//! without a window.

use crate::grid::{Footprint, GridPos, Shape, hex_steps};
use bevy::math::Vec2;

/// Pixel size of one 5-ft square (or hex width) in world units.
pub const TILE: f32 = 48.0;

/// The mapping between grid cells and world positions for one board.
#[derive(Clone, Copy, Debug, PartialEq, bevy::prelude::Resource)]
pub struct BoardLayout {
    pub shape: Shape,
    pub width: i32,
    pub height: i32,
    /// Width of a cell (square side, or hex width across flats).
    pub tile: f32,
}

impl BoardLayout {
    pub fn new(shape: Shape, width: i32, height: i32) -> Self {
        Self { shape, width, height, tile: TILE }
    }

    /// Height of a cell's image (hexes are taller than wide).
    pub fn tile_height(&self) -> f32 {
        match self.shape {
            Shape::Square => self.tile,
            Shape::Hex => (self.tile * 2.0 / 3f32.sqrt()).round(),
        }
    }

    /// Vertical distance between rows.
    pub fn row_step(&self) -> f32 {
        match self.shape {
            Shape::Square => self.tile,
            Shape::Hex => self.tile_height() * 0.75,
        }
    }

    /// World position of a cell's centre. The board is centred on the origin.
    pub fn world(&self, p: GridPos) -> Vec2 {
        let shift = if self.shape == Shape::Hex && p.y.rem_euclid(2) == 1 { 0.5 } else { 0.0 };
        let x = (p.x as f32 + shift) * self.tile;
        let y = -(p.y as f32) * self.row_step();
        Vec2::new(x, y) - self.origin_offset()
    }

    /// Where a label centred at `at`, `half_width` wide each side, must go to stay on the
    /// board: moved in from the edges it would run past.
    pub fn keep_on_board(&self, at: Vec2, half_width: f32) -> Vec2 {
        let first = self.world(GridPos::new(0, 0));
        let last = self.world(GridPos::new(self.width - 1, self.height - 1));
        let hex_shift = if self.shape == Shape::Hex { self.tile / 2.0 } else { 0.0 };
        let (left, right) = (first.x - self.tile / 2.0 + half_width, last.x + self.tile / 2.0 + hex_shift - half_width);
        let (top, bottom) = (first.y + self.tile_height() / 2.0 - 8.0, last.y - self.tile_height() / 2.0 + 8.0);
        let x = if left <= right { at.x.clamp(left, right) } else { (left + right) / 2.0 };
        Vec2::new(x, at.y.clamp(bottom, top.max(bottom)))
    }

    /// World position of a footprint's centre.
    pub fn footprint_centre(&self, fp: Footprint) -> Vec2 {
        let n = (fp.side * fp.side) as f32;
        fp.cells().map(|c| self.world(c)).sum::<Vec2>() / n
    }

    /// World position of a point in grid units, as the cover survey draws its lines:
    /// square corners (cell (x, y) spans x..x+1, y..y+1), or hex centres.
    pub fn grid_point(&self, g: [f32; 2]) -> Vec2 {
        let o = self.world(GridPos::new(0, 0));
        match self.shape {
            Shape::Square => o + Vec2::new((g[0] - 0.5) * self.tile, -(g[1] - 0.5) * self.tile),
            Shape::Hex => o + Vec2::new(g[0] * self.tile, -g[1] * self.row_step()),
        }
    }

    /// Size of the whole board in world units.
    pub fn extent(&self) -> Vec2 {
        let extra = if self.shape == Shape::Hex { 0.5 } else { 0.0 };
        Vec2::new(
            (self.width as f32 + extra) * self.tile,
            (self.height - 1) as f32 * self.row_step() + self.tile_height(),
        )
    }

    fn origin_offset(&self) -> Vec2 {
        let e = self.extent();
        // Centre of cell (0, 0) sits half a tile in from the top-left corner.
        Vec2::new(e.x / 2.0 - self.tile / 2.0, -(e.y / 2.0 - self.tile_height() / 2.0))
    }

    /// The cell under a world position, if it is on the board.
    pub fn cell_at(&self, world: Vec2) -> Option<GridPos> {
        let local = world + self.origin_offset();
        let guess_y = (-local.y / self.row_step()).round() as i32;
        let mut best: Option<(f32, GridPos)> = None;
        for y in guess_y - 1..=guess_y + 1 {
            let shift = if self.shape == Shape::Hex && y.rem_euclid(2) == 1 { 0.5 } else { 0.0 };
            let x = (local.x / self.tile - shift).round() as i32;
            for x in x - 1..=x + 1 {
                let p = GridPos::new(x, y);
                let d = self.world(p).distance_squared(world);
                if best.is_none_or(|(bd, _)| d < bd) {
                    best = Some((d, p));
                }
            }
        }
        let (d, p) = best?;
        let inside = match self.shape {
            Shape::Square => {
                let c = self.world(p);
                (world.x - c.x).abs() <= self.tile / 2.0 && (world.y - c.y).abs() <= self.tile / 2.0
            }
            Shape::Hex => d <= (self.tile_height() / 2.0).powi(2),
        };
        (inside && p.x >= 0 && p.y >= 0 && p.x < self.width && p.y < self.height).then_some(p)
    }
}

/// Hex neighbours in the layout really are one tile apart (a sanity check for tests).
pub fn hex_neighbours_touch(layout: &BoardLayout, a: GridPos, b: GridPos) -> bool {
    hex_steps(a, b) == 1 && (layout.world(a).distance(layout.world(b)) - layout.tile).abs() < 0.5
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_round_trip_through_the_world() {
        let l = BoardLayout::new(Shape::Square, 10, 6);
        for p in [GridPos::new(0, 0), GridPos::new(9, 5), GridPos::new(3, 2)] {
            assert_eq!(l.cell_at(l.world(p)), Some(p));
            assert_eq!(l.cell_at(l.world(p) + Vec2::new(20.0, -20.0)), Some(p));
        }
        assert!(l.world(GridPos::new(0, 0)).y > l.world(GridPos::new(0, 1)).y, "row 0 is at the top");
        assert_eq!(l.cell_at(l.world(GridPos::new(0, 0)) - Vec2::new(30.0, 0.0)), None);
    }

    #[test]
    fn grid_points_put_square_corners_and_hex_centres_in_place() {
        let l = BoardLayout::new(Shape::Square, 10, 6);
        let c = l.world(GridPos::new(2, 3));
        assert_eq!(l.grid_point([2.5, 3.5]), c);
        assert_eq!(l.grid_point([2.0, 3.0]), c + Vec2::new(-l.tile / 2.0, l.tile / 2.0));
        let h = BoardLayout::new(Shape::Hex, 10, 6);
        assert_eq!(h.grid_point([3.5, 1.0]), h.world(GridPos::new(3, 1)));
        assert_eq!(h.grid_point([3.0, 2.0]), h.world(GridPos::new(3, 2)));
    }

    #[test]
    fn hexes_round_trip_and_odd_rows_shift_right() {
        let l = BoardLayout::new(Shape::Hex, 10, 6);
        for y in 0..6 {
            for x in 0..10 {
                let p = GridPos::new(x, y);
                assert_eq!(l.cell_at(l.world(p)), Some(p));
            }
        }
        assert!(l.world(GridPos::new(0, 1)).x > l.world(GridPos::new(0, 0)).x);
        for (dx, dy) in crate::grid::HEX_DIRS_ODD {
            assert!(hex_neighbours_touch(&l, GridPos::new(3, 3), GridPos::new(3 + dx, 3 + dy)));
        }
    }
}
