//! `fivefoot play`: open a window on a level (the default skirmish unless named).

use crate::combat::plugin::{BattleRes, CombatPlugin, Pace};
use crate::combat::{Battle, BattleOptions};
use crate::hud::HudPlugin;
use crate::level::{Catalogue, Level, LevelError};
use crate::rules::{self, Dice, RulesPlugin};
use crate::variant::RulesVariant;
use crate::view::screenshot::{AutoScreenshot, ScreenshotPlugin};
use crate::view::{LevelName, ViewPlugin};
use bevy::prelude::*;
use std::path::{Path, PathBuf};

/// The level `cargo run --release` opens.
pub const DEFAULT_LEVEL: &str = "levels/skirmish.ron";

/// How to start a game.
#[derive(Clone, Debug, Default)]
pub struct PlayOptions {
    pub level: Option<PathBuf>,
    pub rules: Option<RulesVariant>,
    pub side: Option<String>,
    pub seed: u64,
    pub screenshot: Option<PathBuf>,
    pub frames: u32,
    /// Commands per second while the AI plays.
    pub pace: f32,
}

/// Finds the default level from the working directory or the source tree.
pub fn default_level() -> PathBuf {
    let here = PathBuf::from(DEFAULT_LEVEL);
    if here.exists() { here } else { Path::new(env!("CARGO_MANIFEST_DIR")).join(DEFAULT_LEVEL) }
}

/// Opens the game window; returns when it closes.
pub fn run(opts: PlayOptions) -> Result<AppExit, LevelError> {
    let catalogue = Catalogue::builtin();
    let path = opts.level.clone().unwrap_or_else(default_level);
    let level = Level::load(&path, &catalogue)?;
    let variant = opts.rules.unwrap_or(level.def.rules);

    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: format!("Fivefoot — {}", level.def.name),
            resolution: (1280, 800).into(),
            ..default()
        }),
        ..default()
    }))
    .insert_resource(ClearColor(Color::srgb(0.08, 0.09, 0.10)))
    .insert_resource(bevy::winit::WinitSettings::continuous())
    .insert_resource(Dice::seeded(opts.seed))
    .insert_resource(LevelName(level.def.name.clone()))
    .add_plugins((RulesPlugin, CombatPlugin, ViewPlugin, HudPlugin, ScreenshotPlugin));
    rules::spawn_level(app.world_mut(), &level, &catalogue, variant);
    // Until the player's controls land, both sides are played by the AI at a readable pace.
    let battle = Battle::new(&level, &catalogue, variant, opts.seed, BattleOptions::default());
    app.insert_resource(BattleRes::new(battle, vec![])).insert_resource(Pace::per_second(opts.pace));
    if let Some(path) = opts.screenshot {
        app.insert_resource(AutoScreenshot { path, after_frames: opts.frames.max(1) });
    }
    Ok(app.run())
}
