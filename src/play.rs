//! The game window: `cargo run` opens the title menu (the default skirmish selected),
//! `fivefoot play [LEVEL] …` goes straight into a skirmish, `fivefoot edit [LEVEL]` into
//! the level editor. Assembles the plugins.
#![deny(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::combat::plugin::{CombatPlugin, Pace};
use crate::control::plugin::ControlPlugin;
use crate::game::{GamePlugin, GameSetup, Screen};
use crate::hud::HudPlugin;
use crate::input::{BindingsPlugin, load_bindings};
use crate::level::{Catalogue, Level};
use crate::overlay::OverlayPlugin;
use crate::rules::RulesPlugin;
use crate::variants::RulesVariant;
use crate::view::ViewPlugin;
use crate::view::screenshot::{AutoScreenshot, ScreenshotPlugin};
use bevy::diagnostic::FrameTimeDiagnosticsPlugin;
use bevy::prelude::*;
use std::path::{Path, PathBuf};

/// The level `cargo run --release` opens.
pub const DEFAULT_LEVEL: &str = "levels/skirmish.ron";

/// How to start a game.
#[derive(Clone, Debug, Default)]
pub struct PlayOptions {
    /// `None`: open the title menu.
    pub level: Option<PathBuf>,
    pub rules: Option<RulesVariant>,
    /// The side the player commands (default: the level's first side).
    pub side: Option<String>,
    /// Let the AI play every side.
    pub watch: bool,
    pub seed: u64,
    pub screenshot: Option<PathBuf>,
    pub frames: u32,
    /// Commands per second while the AI plays.
    pub pace: f32,
    /// Pin the pointer over this square (screenshots, demos).
    pub hover: Option<(i32, i32)>,
    /// Start with every overlay layer on.
    pub all_layers: bool,
    /// Print the mean CPU frame time on exit.
    pub frame_report: bool,
    /// Open the level editor on this document (and file) instead of the menu or a level.
    pub editor: Option<crate::editor::EditorDoc>,
    /// The window's size in pixels (default 1280x800).
    pub window: Option<(u32, u32)>,
    /// The house rules asked for (none: each level's own).
    pub house_rules: Vec<crate::variants::HouseRule>,
    /// The AI asked for a side (`--ai SIDE=KIND`); other sides play as the level says.
    pub ais: std::collections::BTreeMap<String, crate::combat::AiKind>,
    /// Open the variants side by side on this level instead (`compare --window`).
    pub compare: Option<crate::compare::window::CompareSetup>,
}

/// The house rules asked for on the command line; none: each level's own.
fn picked(asked: &[crate::variants::HouseRule]) -> Option<Vec<crate::variants::HouseRule>> {
    (!asked.is_empty()).then(|| asked.to_vec())
}

/// A window size on the command line: WIDTHxHEIGHT, from 640x480 to 7680x4320.
pub fn parse_window(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s.split_once('x').ok_or_else(|| format!("expected WIDTHxHEIGHT, got \"{s}\""))?;
    let (w, h): (u32, u32) =
        (w.trim().parse().map_err(|e| format!("{e}"))?, h.trim().parse().map_err(|e| format!("{e}"))?);
    if !(640..=7680).contains(&w) || !(480..=4320).contains(&h) {
        return Err(format!("{w}x{h} is outside 640x480 to 7680x4320"));
    }
    Ok((w, h))
}

/// Finds the default level from the working directory or the source tree.
pub fn default_level() -> PathBuf {
    let here = PathBuf::from(DEFAULT_LEVEL);
    if here.exists() { here } else { Path::new(env!("CARGO_MANIFEST_DIR")).join(DEFAULT_LEVEL) }
}

/// Whether a window can open here. With only the X11 backend built in, that takes a
/// `DISPLAY`; without one the windowing library would panic.
pub fn display_available() -> Result<(), String> {
    if cfg!(target_os = "linux") && std::env::var_os("DISPLAY").is_none_or(|d| d.is_empty()) {
        return Err(
            "the game needs a display (DISPLAY is not set); `fivefoot sim` and `fivefoot query` work without one"
                .into(),
        );
    }
    Ok(())
}

/// Reads the level `play LEVEL` goes straight into and the side the player commands,
/// so that bad input is reported before any window or renderer starts.
fn straight_into(path: &Path, opts: &PlayOptions) -> Result<GameSetup, String> {
    let level = Level::load(path, &Catalogue::builtin()).map_err(|e| e.to_string())?;
    let side = if opts.watch {
        None
    } else {
        Some(opts.side.clone().unwrap_or_else(|| level.def.person_side().unwrap_or_default().to_string()))
    };
    let sides = crate::game::summarise(&level).sides;
    if sides.len() < 2 {
        return Err(format!("{}: {}", path.display(), crate::editor::check::TWO_SIDES));
    }
    if let Some(s) = &side
        && !sides.iter().any(|(name, _)| name == s)
    {
        let names: Vec<&str> = sides.iter().map(|(s, _)| s.as_str()).collect();
        return Err(format!("{}: no side \"{s}\" (sides: {})", path.display(), names.join(", ")));
    }
    if let Some(s) = opts.ais.keys().find(|s| !sides.iter().any(|(name, _)| name == *s)) {
        let names: Vec<&str> = sides.iter().map(|(s, _)| s.as_str()).collect();
        return Err(format!("{}: --ai names no side \"{s}\" (sides: {})", path.display(), names.join(", ")));
    }
    Ok(GameSetup {
        level: path.to_path_buf(),
        rules: opts.rules,
        side,
        seed: opts.seed,
        house_rules: picked(&opts.house_rules),
        ais: opts.ais.clone(),
    })
}

/// Opens the game window; returns when it closes. Bad input and a missing display are
/// reported before anything starts.
pub fn run(opts: PlayOptions) -> Result<AppExit, String> {
    display_available()?;
    let straight = opts.level.as_deref().map(|path| straight_into(path, &opts)).transpose()?;
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: "Fivefoot".into(),
            resolution: opts.window.unwrap_or((1280, 800)).into(),
            ..default()
        }),
        ..default()
    }))
    .add_plugins((FrameTimeDiagnosticsPlugin::default(), bevy_egui::EguiPlugin::default()))
    .insert_resource(ClearColor(Color::srgb(0.08, 0.09, 0.10)))
    .insert_resource(bevy::winit::WinitSettings::continuous())
    .insert_resource(Pace::per_second(opts.pace));

    let (bindings, problem) = load_bindings();
    if let Some(problem) = problem {
        eprintln!("fivefoot: {problem}");
    }
    app.add_plugins((BindingsPlugin { bindings }, RulesPlugin, CombatPlugin, ControlPlugin, GamePlugin)).add_plugins((
        ViewPlugin,
        OverlayPlugin,
        HudPlugin,
        ScreenshotPlugin,
        crate::editor::EditorPlugin,
        crate::editor::EditorViewPlugin,
        crate::compare::window::CompareWindowPlugin,
    ));

    if let Some(setup) = opts.compare {
        app.insert_resource(setup);
        app.insert_state(Screen::Compare);
    } else if let Some(doc) = opts.editor {
        app.insert_resource(GameSetup {
            level: default_level(),
            rules: None,
            side: None,
            seed: opts.seed,
            house_rules: None,
            ais: Default::default(),
        });
        app.insert_resource(doc);
        app.insert_resource(crate::editor::tools::EditorTools {
            playtest_house_rules: opts.house_rules.clone(),
            ..Default::default()
        });
        app.insert_state(Screen::Editor);
        if opts.all_layers {
            app.insert_resource(crate::editor::overlay::EditorLayers::ALL);
        }
    } else if let Some(setup) = straight {
        app.insert_resource(setup);
        app.insert_state(Screen::Skirmish);
    } else {
        app.insert_resource(GameSetup {
            level: default_level(),
            rules: opts.rules,
            side: None,
            seed: opts.seed,
            house_rules: picked(&opts.house_rules),
            ais: opts.ais.clone(),
        });
        app.init_state::<Screen>();
    }
    if let Some(path) = opts.screenshot {
        app.insert_resource(AutoScreenshot { path, after_frames: opts.frames.max(1) });
    }
    if let Some((x, y)) = opts.hover {
        app.insert_resource(crate::view::camera::PinnedPointer(crate::grid::GridPos::new(x, y)));
    }
    if opts.all_layers {
        app.insert_resource(crate::overlay::Layers { enemy_threat: true, range: true, lines: true });
    }
    if opts.frame_report {
        app.init_resource::<MainScheduleClock>()
            .add_systems(First, |mut c: ResMut<MainScheduleClock>| c.started = Some(std::time::Instant::now()))
            .add_systems(Last, report_frame_time);
    }
    Ok(app.run())
}

/// When the main schedule of this frame began (the game's own systems: rules, AI, input,
/// overlays, HUD layout), to tell our CPU time from the renderer's.
#[derive(Resource, Default)]
struct MainScheduleClock {
    started: Option<std::time::Instant>,
}

fn summary(samples: &[f64]) -> String {
    let n = samples.len() as f64;
    let mean = samples.iter().sum::<f64>() / n;
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    let p95 = sorted.get(((n * 0.95) as usize).min(sorted.len().saturating_sub(1))).copied().unwrap_or(0.0);
    format!("mean {mean:.2} ms, 95th percentile {p95:.2} ms")
}

/// On exit, prints the mean and 95th-percentile frame time (after the first 60 frames),
/// and the part of it spent in the game's own systems.
fn report_frame_time(
    time: Res<Time<Real>>,
    clock: Res<MainScheduleClock>,
    thinking: Res<crate::combat::plugin::AiThinking>,
    mut samples: Local<Vec<f64>>,
    mut ours: Local<Vec<f64>>,
    mut exits: MessageReader<AppExit>,
    frames: Res<bevy::diagnostic::FrameCount>,
) {
    if frames.0 > 60 {
        samples.push(time.delta_secs_f64() * 1000.0);
        if let Some(t) = clock.started {
            ours.push(t.elapsed().as_secs_f64() * 1000.0);
        }
    }
    if exits.read().next().is_some() && !samples.is_empty() {
        eprintln!("frame time over {} frames: {}", samples.len(), summary(&samples));
        if !ours.is_empty() {
            eprintln!("  of which the main schedule (game systems, First..Last): {}", summary(&ours));
        }
        eprintln!("  the slowest AI decision: {:.2} ms (one decision a frame at most)", thinking.max_ms);
    }
}
