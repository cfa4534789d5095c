//! What several test binaries build the same way: a unit placed in one line, a level from
//! rows of terrain characters and its units, validated as `fivefoot` would load it, and a
//! headless rules App holding a level as combatant entities.
//! Each binary uses its own share of these.
#![allow(dead_code)]

use fivefoot::level::{Catalogue, Level, LevelDef, MapDef, UnitDef};
use fivefoot::variants::RulesVariant;

/// A unit of `creature` for `side` at `at`, with its catalogue weapon and hit points.
pub fn unit(id: &str, side: &str, at: (i32, i32), creature: &str) -> UnitDef {
    UnitDef::new(id, side, at, creature)
}

/// The same, holding `weapon`.
pub fn armed(id: &str, side: &str, at: (i32, i32), creature: &str, weapon: &str) -> UnitDef {
    UnitDef { weapon: Some(weapon.into()), ..unit(id, side, at, creature) }
}

/// `w` × `h` squares of open floor.
pub fn open_rows(w: usize, h: usize) -> Vec<String> {
    vec![".".repeat(w); h]
}

/// A level named "test" of `rows` and `units` under `rules`; panics if it is not valid.
pub fn level<R: AsRef<str>>(rows: &[R], units: Vec<UnitDef>, rules: RulesVariant) -> Level {
    let def = LevelDef {
        version: None,
        name: "test".into(),
        rules,
        map: MapDef { rows: rows.iter().map(|r| r.as_ref().to_string()).collect() },
        units,
        death_saves: None,
        house_rules: vec![],
        sides: vec![],
        symmetry: Default::default(),
    };
    Level::from_def(def, &Catalogue::builtin()).expect("the test level is valid")
}

/// A headless rules App holding `level` under `variant` as combatant entities, its derived
/// state (roster, occupancy, threat) kept by the rules systems.
pub fn rules_app(level: &Level, variant: RulesVariant) -> bevy::prelude::App {
    use bevy::prelude::*;
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        bevy::state::app::StatesPlugin,
        fivefoot::rules::RulesPlugin,
        fivefoot::rules::CombatantRulesPlugin,
    ));
    fivefoot::rules::spawn_level(app.world_mut(), level, &Catalogue::builtin(), variant);
    app.update();
    app
}
