//! `fivefoot arena`: the arena style's map (walls all round, scattered walls, rubble and
//! low walls) with the two sides placed as they always were, so an arena's seed gives the
//! same level as ever (benchmarks and stress tests use them). Its sides alternate through
//! a roster, so they differ; `generate` with the arena style places two equal sides.

use crate::level::{LevelDef, MapDef, UnitDef};
use crate::variants::RulesVariant;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A `width`×`height` arena with `units` combatants split between "blue" and "red".
pub fn arena(width: usize, height: usize, units: usize, seed: u64) -> LevelDef {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut grid: Vec<Vec<char>> = super::terrain::arena(width as i32, height as i32, &mut rng)
        .rows()
        .iter()
        .map(|r| r.chars().collect())
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
        let id = format!("{}{:02}", if blue { "b" } else { "r" }, n);
        placed.push(UnitDef::new(id, if blue { "blue" } else { "red" }, (x as i32, y as i32), creature));
    }
    let rows = grid.into_iter().map(|r| r.into_iter().map(|c| if c == 'U' { '.' } else { c }).collect()).collect();
    LevelDef {
        version: None,
        name: format!("Arena {width}×{height} ({units} units, seed {seed})"),
        rules: RulesVariant::default(),
        map: MapDef { rows },
        units: placed,
        death_saves: None,
        house_rules: vec![],
        sides: vec![],
        symmetry: Default::default(),
    }
}
