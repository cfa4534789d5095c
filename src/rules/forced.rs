//! Forced movement: the straight line a push (shove, bull rush) takes a creature along,
//! square by square, as far as its feet allow and no further than the first square it
//! cannot enter.

use super::RulesView;
use crate::grid::{Footprint, GridPos};

/// The squares (footprint origins) `mover` passes through when forced one square at a time
/// in direction `dir` (each of `dx`, `dy` in −1..=1, not both 0), for up to `budget_ft` and
/// at most `max_squares` squares.
///
/// Each square costs what a move into it does: 5 ft, a second diagonal 10 ft, double into
/// difficult terrain or a low wall. The line stops short, as any move does, before a square
/// where the mover's footprint would be off the map, on a wall or on another creature (ally
/// or foe: nobody ends a move in an occupied square), and before a diagonal past a wall's
/// corner. So the mover never ends anywhere it could not stand.
pub fn forced_line(view: &RulesView, mover: usize, dir: (i32, i32), budget_ft: u32, max_squares: usize) -> ForcedLine {
    let (dx, dy) = dir;
    let side = view.roster.get(mover).footprint.side;
    let terrain = &view.field.terrain;
    let no_wall = |p: GridPos| Footprint::new(p, side).cells().all(|c| terrain.get(c).passable());
    let diagonal = dx != 0 && dy != 0;
    let mut here = view.roster.get(mover).footprint.origin;
    let (mut spent, mut diagonals) = (0, 0);
    let mut line = ForcedLine::default();
    while line.squares.len() < max_squares && (dx, dy) != (0, 0) {
        let next = here.offset(dx, dy);
        let fp = Footprint::new(next, side);
        if !view.can_stand(mover, fp) {
            break;
        }
        if diagonal && (!no_wall(here.offset(dx, 0)) || !no_wall(here.offset(0, dy))) {
            break; // no cutting past a wall's corner
        }
        let base = if diagonal && diagonals % 2 == 1 { 10 } else { 5 };
        let costly = fp.cells().any(|c| terrain.get(c).costs_double());
        let cost = if costly { base + if diagonal { 10 } else { 5 } } else { base };
        if spent + cost > budget_ft {
            break;
        }
        spent += cost;
        diagonals += u32::from(diagonal);
        here = next;
        line.squares.push(next);
    }
    line.feet = spent;
    line
}

/// Where a forced movement took its mover, and the feet it covered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ForcedLine {
    pub squares: Vec<GridPos>,
    pub feet: u32,
}
