//! four-actions' push, from source 001's words: "a success moves both the pusher and the
//! target up to half speed". Half the pusher's speed in the open (the control); "up to"
//! stops the target short at a wall, a creature or the map's corner, and the pusher after it
//! no further than the target went, never onto the target's square, anyone else's or a wall.

use super::*;

/// The first seed on which the hero's push on the goblin succeeds (the goblin moves):
/// where the hero and the goblin end, and the feet each was logged as moving.
fn push_until_success(rows: &[&str], units: Vec<UnitDef>) -> ((GridPos, u32), (GridPos, u32)) {
    for seed in 0..80 {
        let mut b = battle_on(rows, units.clone(), RulesVariant::FourActions, seed);
        until(&mut b, "hero", |b| b.read().fighters.awareness[b.index_of("gob").unwrap()].has_acted);
        let before = b.events().len();
        b.execute(Command::Shove { target: "gob".into() }).unwrap();
        let moved = |who: &str| {
            b.events()[before..].iter().find_map(|e| match e {
                CombatEvent::Moved { unit, cost_ft, .. } if unit == who => Some(*cost_ft),
                _ => None,
            })
        };
        let Some(pushed_ft) = moved("gob") else { continue };
        let followed_ft = moved("hero").unwrap_or(0);
        let (h, g) = (b.index_of("hero").unwrap(), b.index_of("gob").unwrap());
        assert_distinct_and_on_floor(&b);
        return ((b.read().fighters.position[h].0, followed_ft), (b.read().fighters.position[g].0, pushed_ft));
    }
    panic!("no push succeeded in 80 seeds");
}

/// Nobody shares a square and nobody stands on a wall.
fn assert_distinct_and_on_floor(b: &BattleWorld) {
    let mut seen: Vec<(GridPos, String)> = Vec::new();
    for f in &b.read().fighters {
        for c in f.footprint().cells() {
            assert!(b.read().field.terrain.get(c).passable(), "{} stands on a wall at {c:?}", f.id());
            if let Some((_, other)) = seen.iter().find(|(at, _)| *at == c) {
                panic!("{} and {other} share {c:?}", f.id());
            }
            seen.push((c, f.id().to_string()));
        }
    }
}

fn hero_pushes_gob_east(extra: Vec<UnitDef>) -> Vec<UnitDef> {
    let mut units = vec![
        unit("hero", "blue", (3, 3), "human_fighter", Some("longsword")),
        unit("gob", "red", (4, 3), "goblin", None),
    ];
    units.extend(extra);
    units
}

const OPEN: [&str; 8] =
    [".........", ".........", ".........", ".........", ".........", ".........", ".........", "........."];

/// The control: in the open a human fighter (speed 30 ft) pushes the goblin its half speed,
/// 15 ft (3 squares), and follows it as far.
#[test]
fn four_actions_a_push_in_the_open_goes_the_full_half_speed_and_the_pusher_follows() {
    let ((hero, hero_ft), (gob, gob_ft)) = push_until_success(&OPEN, hero_pushes_gob_east(vec![]));
    assert_eq!((gob, gob_ft), (GridPos::new(7, 3), 15), "the goblin goes half the pusher's speed");
    assert_eq!((hero, hero_ft), (GridPos::new(6, 3), 15), "the pusher follows as far");
}

/// "up to half speed": a wall 10 ft behind the goblin stops it after 5 ft, and the pusher
/// after 5 ft, behind it.
#[test]
fn four_actions_a_push_into_a_wall_stops_short_of_it() {
    let rows = [".........", ".........", ".........", "......#..", ".........", ".........", ".........", "........."];
    let ((hero, hero_ft), (gob, gob_ft)) = push_until_success(&rows, hero_pushes_gob_east(vec![]));
    assert_eq!((gob, gob_ft), (GridPos::new(5, 3), 5));
    assert_eq!((hero, hero_ft), (GridPos::new(4, 3), 5));
}

/// A creature in the way, the goblin's ally or the hero's, stops the goblin as a wall does.
#[test]
fn four_actions_a_push_into_a_creature_stops_short_of_it() {
    for side in ["red", "blue"] {
        let units = hero_pushes_gob_east(vec![unit("other", side, (6, 3), "goblin", None)]);
        let ((hero, _), (gob, gob_ft)) = push_until_success(&OPEN, units);
        assert_eq!((gob, gob_ft), (GridPos::new(5, 3), 5), "a {side} creature in the way");
        assert_eq!(hero, GridPos::new(4, 3), "a {side} creature in the way");
    }
}

/// A diagonal push into the map's corner: the goblin goes one diagonal (5 ft of the 15 a
/// second diagonal would bring to 15) and stops at the edge; the pusher follows one.
#[test]
fn four_actions_a_push_into_a_corner_stops_at_the_edge() {
    let units = vec![
        unit("hero", "blue", (6, 5), "human_fighter", Some("longsword")),
        unit("gob", "red", (7, 6), "goblin", None),
    ];
    let ((hero, hero_ft), (gob, gob_ft)) = push_until_success(&OPEN, units);
    assert_eq!((gob, gob_ft), (GridPos::new(8, 7), 5), "the map's corner stops the goblin");
    assert_eq!((hero, hero_ft), (GridPos::new(7, 6), 5), "the pusher follows into the square it left");
}

/// A diagonal push in the open costs as a move does: 5 ft, then 10, so 15 ft is two
/// diagonals. The pusher, with reach and off the goblin's line, follows along its own line
/// and stops short of the creature on its second square, never sharing it.
#[test]
fn four_actions_a_pusher_stops_short_on_its_own_line_and_diagonals_cost_5_then_10() {
    let units = vec![
        unit("hero", "blue", (2, 2), "human_fighter", Some("longspear")),
        unit("gob", "red", (4, 3), "goblin", None),
        unit("other", "blue", (4, 4), "human_fighter", None),
    ];
    let ((hero, hero_ft), (gob, gob_ft)) = push_until_success(&OPEN, units);
    assert_eq!((gob, gob_ft), (GridPos::new(6, 5), 15), "two diagonals: 5 + 10 ft");
    assert_eq!((hero, hero_ft), (GridPos::new(3, 3), 5), "the creature at (4, 4) stops the pusher after one");
}
