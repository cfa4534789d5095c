//! The styles' terrain, drawn from the seeded generator over the whole map (a symmetry then
//! copies one half over the other). A style may also name where a side deploys: behind its
//! wall in a symmetric fortress, inside the keep for the defenders of a lone one.

use super::sides::Zone;
use super::{Grid, Style, Symmetry};
use crate::grid::Terrain::{Difficult, Floor, LowWall, Wall};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// A style's map and the deployment zones it asks for (blue's, red's), if any.
pub(crate) struct Drawn {
    pub grid: Grid,
    pub blue: Option<Zone>,
    pub red: Option<Zone>,
}

pub(crate) fn draw(style: Style, symmetry: Symmetry, w: i32, h: i32, rng: &mut ChaCha8Rng) -> Drawn {
    let plain = |grid| Drawn { grid, blue: None, red: None };
    match style {
        Style::Arena => plain(arena(w, h, rng)),
        Style::Ruins => plain(ruins(w, h, rng)),
        Style::Forest => plain(forest(w, h, rng)),
        Style::Fortress if symmetry == Symmetry::None => keep(w, h, rng),
        Style::Fortress => facing_walls(symmetry, w, h, rng),
    }
}

/// The classic arena: walls all round, then each inner square drawn on its own: 8 % wall,
/// 5 % rubble, 3 % low wall. The draws are those `fivefoot arena` has always made.
pub(crate) fn arena(w: i32, h: i32, rng: &mut ChaCha8Rng) -> Grid {
    let mut g = Grid::new(w, h, Floor);
    for y in 0..h {
        for x in 0..w {
            let t = if x == 0 || y == 0 || x + 1 == w || y + 1 == h {
                Wall
            } else {
                match rng.random_range(0..100) {
                    0..8 => Wall,
                    8..13 => Difficult,
                    13..16 => LowWall,
                    _ => Floor,
                }
            };
            g.set((x, y), t);
        }
    }
    g
}

/// A square drawn uniformly from `lo..hi` each way (`hi` exclusive, at least `lo + 1`).
fn spot(rng: &mut ChaCha8Rng, (x0, y0): (i32, i32), (x1, y1): (i32, i32)) -> (i32, i32) {
    (rng.random_range(x0..x1.max(x0 + 1)), rng.random_range(y0..y1.max(y0 + 1)))
}

/// Broken rooms (outlines of wall with stretches fallen to low wall, rubble or nothing, and
/// always a doorway), loose wall fragments, and rubble strewn about.
fn ruins(w: i32, h: i32, rng: &mut ChaCha8Rng) -> Grid {
    let mut g = Grid::new(w, h, Floor);
    let area = w * h;
    for _ in 0..(area / 110 + 2) {
        let (rw, rh) = (rng.random_range(4..=8).min(w - 2), rng.random_range(3..=6).min(h - 2));
        let (x, y) = spot(rng, (1, 1), (w - rw, h - rh));
        let (x2, y2) = (x + rw - 1, y + rh - 1);
        let outline: Vec<(i32, i32)> = g
            .squares()
            .filter(|&(cx, cy)| {
                ((cx == x || cx == x2) && (y..=y2).contains(&cy)) || ((cy == y || cy == y2) && (x..=x2).contains(&cx))
            })
            .collect();
        for &c in &outline {
            let t = match rng.random_range(0..100) {
                0..55 => Wall,
                55..68 => LowWall,
                68..82 => Difficult,
                _ => Floor,
            };
            g.set(c, t);
        }
        // A doorway in the middle of one side.
        let door = match rng.random_range(0..4) {
            0 => ((x + x2) / 2, y),
            1 => ((x + x2) / 2, y2),
            2 => (x, (y + y2) / 2),
            _ => (x2, (y + y2) / 2),
        };
        g.set(door, Floor);
    }
    for _ in 0..(area / 70 + 1) {
        let (x, y) = spot(rng, (0, 0), (w, h));
        let (dx, dy) = if rng.random_bool(0.5) { (1, 0) } else { (0, 1) };
        for i in 0..rng.random_range(2..=4) {
            g.set((x + i * dx, y + i * dy), if rng.random_range(0..5) == 0 { LowWall } else { Wall });
        }
    }
    for c in g.squares().collect::<Vec<_>>() {
        if g.get(c) == Floor && rng.random_range(0..100) < 5 {
            g.set(c, Difficult);
        }
    }
    g
}

/// Clumps of trees: round patches of difficult ground, most with a trunk (wall) at the
/// heart; a few rocks and fallen logs (low walls) between them.
fn forest(w: i32, h: i32, rng: &mut ChaCha8Rng) -> Grid {
    let mut g = Grid::new(w, h, Floor);
    let area = w * h;
    for _ in 0..(area / 75 + 2) {
        let (cx, cy) = spot(rng, (0, 0), (w, h));
        let r = [1, 2, 2, 3].get(rng.random_range(0..4)).copied().unwrap_or(2);
        for c in g.squares().collect::<Vec<_>>() {
            let (dx, dy) = (c.0 - cx, c.1 - cy);
            if dx * dx + dy * dy <= r * r + rng.random_range(0..=r) {
                g.set(c, Difficult);
            }
        }
        if rng.random_range(0..100) < 70 {
            g.set((cx, cy), Wall);
        }
    }
    for _ in 0..(area / 140 + 1) {
        let (x, y) = spot(rng, (0, 0), (w, h));
        g.set((x, y), Wall);
        if rng.random_bool(0.5) {
            g.set((x + 1, y), Wall);
        }
    }
    for _ in 0..(area / 160 + 1) {
        let (x, y) = spot(rng, (0, 0), (w, h));
        let (dx, dy) = if rng.random_bool(0.5) { (1, 0) } else { (0, 1) };
        for i in 0..rng.random_range(2..=3) {
            g.set((x + i * dx, y + i * dy), LowWall);
        }
    }
    g
}

/// One run of fortification through `cells`: wall with stretches of battlement (low wall
/// one can fight over), and up to `gates` gates two squares wide (none at either end);
/// returns where the gates start along the run.
fn rampart(g: &mut Grid, cells: &[(i32, i32)], gates: usize, rng: &mut ChaCha8Rng) -> Vec<i32> {
    let n = cells.len() as i32;
    let mut battlement = 0;
    for &c in cells {
        if battlement == 0 && rng.random_range(0..100) < 12 {
            battlement = rng.random_range(2..=3);
        }
        g.set(c, if battlement > 0 { LowWall } else { Wall });
        battlement = (battlement - 1).max(0);
    }
    // Gates spread along the run: one near the middle, or one a third of the way from each end.
    let at = match gates {
        0 => vec![],
        _ if n < 4 => vec![],
        1 => vec![rng.random_range((n / 2 - 1).max(1)..=(n / 2).min(n - 3))],
        _ if n < 12 => vec![rng.random_range((n / 2 - 1).max(1)..=(n / 2).min(n - 3))],
        _ => vec![n / 3 - 1 + rng.random_range(0..=1), 2 * n / 3 - 1 + rng.random_range(0..=1)],
    };
    for &gate in &at {
        for c in cells.iter().skip(gate as usize).take(2) {
            g.set(*c, Floor);
        }
    }
    at
}

/// Towers flanking each gate of a run: the squares either side of it and the ones just
/// outside them (`out` is a step outwards), solid wall.
fn towers(g: &mut Grid, cells: &[(i32, i32)], gates: &[i32], out: (i32, i32)) {
    for &gate in gates {
        for i in [gate - 1, gate + 2] {
            if let Some(&(x, y)) = usize::try_from(i).ok().and_then(|i| cells.get(i)) {
                g.set((x, y), Wall);
                g.set((x + out.0, y + out.1), Wall);
            }
        }
    }
}

/// Rubble and barricades (low walls) scattered over open ground between `x0..x1`.
fn field_cover(g: &mut Grid, (x0, x1): (i32, i32), rng: &mut ChaCha8Rng) {
    let h = g.h;
    for _ in 0..((x1 - x0) * h / 18 + 1) {
        let (x, y) = spot(rng, (x0, 0), (x1, h));
        let t = if rng.random_bool(0.4) { LowWall } else { Difficult };
        let (dx, dy) = if rng.random_bool(0.5) { (1, 0) } else { (0, 1) };
        for i in 0..rng.random_range(1..=3) {
            let c = (x + i * dx, y + i * dy);
            if g.get(c) == Floor && (x0..x1).contains(&c.0) {
                g.set(c, t);
            }
        }
    }
}

/// A lone keep on the right: a walled court with battlements and gates, held by red; blue
/// comes from the left over ground with some cover.
fn keep(w: i32, h: i32, rng: &mut ChaCha8Rng) -> Drawn {
    let mut g = Grid::new(w, h, Floor);
    let kw = (w * 2 / 5).clamp(5, w - 3);
    let kh = (h * 2 / 3).clamp(5, h);
    let x = w - kw - rng.random_range(0..=1);
    let y = (h - kh) / 2 + rng.random_range(0..=(h - kh).min(1));
    let (x2, y2) = (x + kw - 1, y + kh - 1);
    // The west face first (towards the attackers), then the other three.
    let west: Vec<(i32, i32)> = (y..=y2).map(|cy| (x, cy)).collect();
    let north: Vec<(i32, i32)> = (x + 1..=x2).map(|cx| (cx, y)).collect();
    let south: Vec<(i32, i32)> = (x + 1..=x2).map(|cx| (cx, y2)).collect();
    let east: Vec<(i32, i32)> = (y + 1..y2).map(|cy| (x2, cy)).collect();
    // Gates towards the attackers, maybe one to the north or south, none at the back.
    let side_gate = rng.random_range(0..3);
    for (side, gates) in [(&north, usize::from(side_gate == 0)), (&south, usize::from(side_gate == 1)), (&east, 0)] {
        rampart(&mut g, side, gates, rng);
    }
    let gates = rampart(&mut g, &west, 2, rng);
    towers(&mut g, &west, &gates, (-1, 0));
    // Corner towers stay solid.
    for c in [(x, y), (x, y2), (x2, y), (x2, y2)] {
        g.set(c, Wall);
    }
    field_cover(&mut g, (1, x - 1), rng);
    let court = Zone { x0: x + 1, y0: y + 1, x1: x2, y1: y2 };
    Drawn { grid: g, blue: Some(Zone { x0: 0, y0: 0, x1: (w / 4).max(2), y1: h }), red: Some(court) }
}

/// Two facing walls, one before each side's deployment (the symmetry copies the first):
/// upright under left-right and point symmetry, across under top-bottom.
fn facing_walls(symmetry: Symmetry, w: i32, h: i32, rng: &mut ChaCha8Rng) -> Drawn {
    let across = symmetry == Symmetry::TopBottom;
    // Drawn as if upright on a map transposed under top-bottom, then turned back.
    let (long, short) = if across { (w, h) } else { (h, w) };
    let at = (short / 4).max(2);
    let mut g = Grid::new(short, long, Floor);
    let line: Vec<(i32, i32)> = (0..long).map(|i| (at, i)).collect();
    let gates = rampart(&mut g, &line, 2, rng);
    towers(&mut g, &line, &gates, (1, 0));
    field_cover(&mut g, (at + 2, short - at - 2), rng);
    let mut out = Grid::new(w, h, Floor);
    for (x, y) in g.squares() {
        out.set(if across { (y, x) } else { (x, y) }, g.get((x, y)));
    }
    let blue = if across { Zone { x0: 0, y0: 0, x1: w, y1: at } } else { Zone { x0: 0, y0: 0, x1: at, y1: h } };
    Drawn { grid: out, blue: Some(blue), red: None }
}
