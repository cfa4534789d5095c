//! four-actions' Dash at double speed: "A dash is a short sprint or a tactical movement,
//! allowing the creature to move double its speed, but it must be in a straight line, or at
//! one-and-a-half speed without the restriction on direction, it cannot be done within
//! Difficult Terrain." A human fighter's speed is 30 ft: 60 ft straight, 45 ft otherwise.

use super::*;

fn runner(rows: &[&str]) -> BattleWorld {
    let mut b = battle_on(
        rows,
        vec![unit("hero", "blue", (0, 1), "human_fighter", None), unit("gob", "red", (15, 3), "goblin", None)],
        RulesVariant::FourActions,
        3,
    );
    until(&mut b, "hero", |_| true);
    b
}

#[test]
fn a_four_actions_dash_runs_double_speed_in_a_straight_line_only() {
    let open = ["................", "................", "................", "................"];
    let mut b = runner(&open);
    // 12 squares east = 60 ft, twice the speed, in a straight line: allowed, and the path is
    // that line.
    let plan = b.validate(&Command::Dash { to: (12, 1).into() }).unwrap();
    let path = plan.path.unwrap();
    assert_eq!(path.cost_ft, 60);
    assert_eq!(path.squares, (1..=12).map(|x| GridPos::new(x, 1)).collect::<Vec<_>>());
    b.execute(Command::Dash { to: (12, 1).into() }).unwrap();
    assert_eq!(b.read().fighters.position[b.index_of("hero").unwrap()].0, GridPos::new(12, 1));
    // 13 squares (65 ft) is beyond double speed.
    let b = runner(&open);
    assert!(b.fork(false).validate(&Command::Dash { to: (13, 1).into() }).is_err(), "65 ft");
    // A wall on the line: no straight run, and 60 ft around it is more than one-and-a-half
    // speed. Positive control above: the same run without the wall.
    let walled = ["................", "......#.........", "................", "................"];
    let b = runner(&walled);
    assert!(b.validate(&Command::Dash { to: (12, 1).into() }).is_err(), "the wall breaks the line");
    // Difficult ground on the line breaks it too.
    let rough = ["................", "......~.........", "................", "................"];
    let b = runner(&rough);
    assert!(b.validate(&Command::Dash { to: (12, 1).into() }).is_err(), "difficult terrain on the line");
    // Without the straight line only one-and-a-half speed: 9 squares (45 ft) around the wall.
    let b = runner(&walled);
    assert!(b.validate(&Command::Dash { to: (8, 1).into() }).is_ok(), "45 ft, any direction");
}
