//! Generated arenas: a seeded, valid level of any size with scattered walls, rubble and
//! low walls and two sides of mixed creatures. Benchmarks and stress tests use them.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use super::{LevelDef, MapDef, UnitDef};
use crate::variants::RulesVariant;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A `width`×`height` arena with `units` combatants split between "blue" and "red".
pub fn arena(width: usize, height: usize, units: usize, seed: u64) -> LevelDef {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut grid: Vec<Vec<char>> = (0..height)
        .map(|y| {
            (0..width)
                .map(|x| {
                    if x == 0 || y == 0 || x + 1 == width || y + 1 == height {
                        return '#';
                    }
                    match rng.random_range(0..100) {
                        0..8 => '#',
                        8..13 => '~',
                        13..16 => '=',
                        _ => '.',
                    }
                })
                .collect()
        })
        .collect();
    const ROSTER: [&str; 8] =
        ["human_fighter", "spearman", "goblin", "human_archer", "ogre", "wolf", "glaive_guard", "veteran"];
    let mut placed = Vec::with_capacity(units);
    let mut attempts = 0;
    while placed.len() < units && attempts < 100_000 {
        attempts += 1;
        let n = placed.len();
        let creature = ROSTER.get(n % ROSTER.len()).copied().unwrap_or("goblin");
        let side_len = if creature == "ogre" { 2 } else { 1 };
        let blue = n % 2 == 0;
        // Blue starts on the left half, red on the right.
        let half = width / 2;
        let x0 = if blue { 1 } else { half };
        // Too small an arena to hold this creature inside its walls: try the next draw.
        if x0 + side_len + 1 > width || side_len + 2 > height {
            continue;
        }
        let x = rng.random_range(x0..(x0 + half).saturating_sub(1 + side_len).max(x0 + 1));
        let y = rng.random_range(1..height - side_len);
        let fits = (0..side_len)
            .all(|dy| (0..side_len).all(|dx| grid.get(y + dy).and_then(|row| row.get(x + dx)) == Some(&'.')));
        if !fits {
            continue;
        }
        for dy in 0..side_len {
            for dx in 0..side_len {
                if let Some(c) = grid.get_mut(y + dy).and_then(|row| row.get_mut(x + dx)) {
                    *c = 'U'; // reserved for this unit
                }
            }
        }
        placed.push(UnitDef {
            id: format!("{}{:02}", if blue { "b" } else { "r" }, n),
            side: if blue { "blue" } else { "red" }.into(),
            at: (x as i32, y as i32),
            creature: creature.into(),
            weapon: None,
            size: None,
            hp: None,
            aware: None,
        });
    }
    let rows = grid.into_iter().map(|r| r.into_iter().map(|c| if c == 'U' { '.' } else { c }).collect()).collect();
    LevelDef {
        version: None,
        name: format!("Arena {width}×{height} ({units} units, seed {seed})"),
        rules: RulesVariant::D20Classic,
        map: MapDef { rows },
        units: placed,
        death_saves: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{Catalogue, Level};

    #[test]
    fn arenas_are_valid_and_reproducible() {
        let a = arena(64, 64, 40, 7);
        assert_eq!(a, arena(64, 64, 40, 7));
        assert_eq!(a.units.len(), 40);
        Level::from_def(a, &Catalogue::builtin()).expect("a generated arena is a valid level");
    }
}
