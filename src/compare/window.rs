//! `fivefoot compare LEVEL --window` (and the title menu's "Compare variants"): one board
//! per variant spec, side by side, each its own battle in its own World from the same
//! level and seed, played AI against AI in step: one command on every board at each tick
//! of the pace, or one at a time while paused. The boards share one camera, so panning
//! and zooming move them all; the square under the pointer is marked on every board, and
//! the side panel says, for the selected unit under each variant, whether foes threaten
//! it there, its cover from it, and what walking there costs. The boards are drawn from
//! each battle one way after every step (`boards`); nothing reads the drawing back.

use super::VariantSpec;
use crate::combat::{Ai, AiKind, BattleWorld, Command};
use crate::game::Screen;
use crate::level::{Catalogue, Level};
use crate::view::camera::PanelEdges;
use crate::view::layout::BoardLayout;
use bevy::prelude::*;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// What the side-by-side window shows.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct CompareSetup {
    pub level: PathBuf,
    pub specs: Vec<VariantSpec>,
    pub seed: u64,
    /// The AI of a side (greedy where none is named, or the level's).
    pub ais: BTreeMap<String, AiKind>,
    /// Open the batch window at once and play this many battles a variant in it.
    pub batch: Option<u32>,
}

/// One board: a spec's battle, its AIs, and where it sits in the world.
pub struct Board {
    pub spec: VariantSpec,
    pub battle: BattleWorld,
    brains: BTreeMap<String, Box<dyn Ai + Send + Sync>>,
    kinds: BTreeMap<String, AiKind>,
    /// The board's own layout (squares or hexes), centred on `centre`.
    pub layout: BoardLayout,
    pub centre: Vec2,
}

impl Board {
    /// World position of a cell's centre on this board.
    pub fn world(&self, p: crate::grid::GridPos) -> Vec2 {
        self.layout.world(p) + self.centre
    }

    /// Plays the next command, the acting unit's AI's; whether one was played.
    pub fn step(&mut self) -> bool {
        let Some(actor) = self.battle.actor().filter(|_| !self.battle.is_over()) else { return false };
        let side = self.battle.read().fighters.side[actor].0.clone();
        let kind = self.kinds.get(&side).copied().unwrap_or_default();
        let brain = self.brains.entry(side).or_insert_with(|| kind.make());
        let cmd = brain.decide(&mut self.battle, actor);
        if self.battle.execute(cmd).is_err() {
            let _ = self.battle.execute(Command::EndTurn);
        }
        true
    }
}

/// The boards of the window, and how play goes.
#[derive(Resource)]
pub struct Boards {
    pub boards: Vec<Board>,
    pub level_name: String,
    /// The level's sides, for their colours.
    pub sides: Vec<crate::level::SideDef>,
    /// The sides with units, in name order (as the batch reports them).
    pub side_names: Vec<String>,
    pub seed: u64,
    pub running: bool,
    /// Commands a second on every board while running.
    pub pace: Timer,
    /// Steps taken: commands given on each board.
    pub steps: u32,
    /// The square under the pointer (the same on every board), and the selected unit.
    pub pointer: Option<crate::grid::GridPos>,
    pub selected: Option<String>,
}

impl Boards {
    /// The boards of `setup`, laid out in a grid round the origin: 2 or 3 a row.
    pub fn new(setup: &CompareSetup) -> Result<Boards, String> {
        let catalogue = Catalogue::builtin();
        let level = Level::load(&setup.level, &catalogue).map_err(|e| e.to_string())?;
        let mut kinds = level.def.side_ais();
        kinds.extend(setup.ais.clone());
        let mut boards: Vec<Board> = setup
            .specs
            .iter()
            .map(|spec| {
                let battle = BattleWorld::new(&level, &catalogue, spec.rules, setup.seed, spec.options_on(&level));
                let layout = BoardLayout::new(spec.rules.shape(), level.terrain.width(), level.terrain.height());
                Board {
                    spec: spec.clone(),
                    battle,
                    brains: BTreeMap::new(),
                    kinds: kinds.clone(),
                    layout,
                    centre: Vec2::ZERO,
                }
            })
            .collect();
        arrange(&mut boards);
        Ok(Boards {
            boards,
            level_name: level.def.name.clone(),
            sides: level.def.sides.clone(),
            side_names: crate::combat::sim::sides_of(&level),
            seed: setup.seed,
            running: true,
            pace: Timer::from_seconds(0.5, TimerMode::Repeating),
            steps: 0,
            pointer: None,
            selected: None,
        })
    }

    /// The AI of each side on the boards: the level's, overridden by the setup's.
    pub fn ais(&self) -> BTreeMap<String, AiKind> {
        self.boards.first().map(|b| b.kinds.clone()).unwrap_or_default()
    }

    /// Starts every board again from `setup` (another seed: another battle of the batch),
    /// keeping the pace, the pointer and the selected unit, and plays on.
    pub fn restart(&mut self, setup: &CompareSetup) -> Result<(), String> {
        let mut fresh = Boards::new(setup)?;
        fresh.pace = self.pace.clone();
        fresh.pointer = self.pointer;
        fresh.selected = self.selected.take();
        *self = fresh;
        Ok(())
    }

    /// One command on every board still being fought; whether any was.
    pub fn step(&mut self) -> bool {
        let mut any = false;
        for b in &mut self.boards {
            any |= b.step();
        }
        if any {
            self.steps += 1;
        }
        any
    }

    /// The layout the camera frames and keeps in view: a square board as large as the
    /// grid of boards.
    pub fn bounds(&self) -> BoardLayout {
        let (lo, hi) = self.boards.iter().fold((Vec2::splat(f32::MAX), Vec2::splat(f32::MIN)), |(lo, hi), b| {
            let half = (b.layout.extent() + Vec2::new(b.layout.tile, b.layout.tile_height() + HEADER)) / 2.0;
            (lo.min(b.centre - half), hi.max(b.centre + half))
        });
        let size = (hi - lo).max(Vec2::splat(crate::view::layout::TILE)) / crate::view::layout::TILE;
        BoardLayout::new(crate::grid::Shape::Square, size.x.ceil() as i32, size.y.ceil() as i32)
    }
}

/// Room above each board for its header, in world units.
pub const HEADER: f32 = 56.0;

/// Places the boards in rows of two or three, the grid centred on the origin.
fn arrange(boards: &mut [Board]) {
    let n = boards.len();
    let cols = match n {
        0..=3 => n.max(1),
        4 => 2,
        _ => 3,
    };
    let rows = n.div_ceil(cols);
    let tile = crate::view::layout::TILE;
    let cell = boards
        .iter()
        .fold(Vec2::ZERO, |m, b| m.max(b.layout.extent() + Vec2::new(b.layout.tile, b.layout.tile_height())));
    let step = cell + Vec2::new(tile * 1.5, HEADER + tile * 0.5);
    let whole = Vec2::new(step.x * cols as f32, step.y * rows as f32);
    for (k, b) in boards.iter_mut().enumerate() {
        let (c, r) = ((k % cols) as f32, (k / cols) as f32);
        b.centre = Vec2::new(-whole.x / 2.0 + step.x * (c + 0.5), whole.y / 2.0 - step.y * (r + 0.5) - HEADER / 2.0);
    }
}

/// The compare screen's panels, drawn as wide as their room.
pub const PANEL_EDGES: PanelEdges = PanelEdges::play(0.0);

pub struct CompareWindowPlugin;

impl Plugin for CompareWindowPlugin {
    fn build(&self, app: &mut App) {
        crate::view::camera::panel_edges_while(app, Screen::Compare, PANEL_EDGES);
        app.init_resource::<crate::view::art::CellMasks>()
            .add_systems(OnEnter(Screen::Compare), (start_boards, super::live::open_if_asked).chain())
            .add_systems(OnExit(Screen::Compare), |mut commands: Commands| {
                commands.remove_resource::<Boards>();
                commands.remove_resource::<BoardLayout>();
                commands.remove_resource::<super::live::LiveBatch>();
            })
            .add_systems(
                Update,
                (play_in_step, super::live::toggle, super::boards::point_and_select, super::boards::draw_boards)
                    .chain()
                    .run_if(in_state(Screen::Compare).and_then(resource_exists::<Boards>)),
            )
            .add_systems(
                bevy_egui::EguiPrimaryContextPass,
                (super::boards::panels, super::live::batch_window)
                    .chain()
                    .run_if(in_state(Screen::Compare).and_then(resource_exists::<Boards>)),
            );
    }
}

/// Sets the boards up from the `CompareSetup`; a level that fails to load goes back to the
/// menu with its error.
fn start_boards(world: &mut World) {
    let Some(setup) = world.get_resource::<CompareSetup>().cloned() else {
        world.resource_mut::<NextState<Screen>>().set(Screen::Menu);
        return;
    };
    match Boards::new(&setup) {
        Ok(boards) => {
            world.insert_resource(boards.bounds());
            world.insert_resource(crate::view::SideColours(boards.sides.clone()));
            world.insert_resource(boards);
            world.run_system_cached(super::boards::spawn_boards).ok();
        }
        Err(e) => {
            world.insert_resource(crate::game::MenuNotice(Some(e)));
            world.resource_mut::<NextState<Screen>>().set(Screen::Menu);
        }
    }
}

/// Space pauses and resumes; `.` steps once while paused; `]` / `[` change the
/// pace; Esc goes back to the menu. Running, every board plays one command a tick.
fn play_in_step(
    mut boards: ResMut<Boards>,
    keys: Res<ButtonInput<KeyCode>>,
    time: Res<Time>,
    typing: Res<crate::input::TextFocus>,
    mut next: ResMut<NextState<Screen>>,
) {
    if !typing.0 {
        if keys.just_pressed(KeyCode::Space) {
            boards.running = !boards.running;
        }
        if keys.just_pressed(KeyCode::Escape) {
            next.set(Screen::Menu);
        }
        let secs = boards.pace.duration().as_secs_f32();
        if keys.just_pressed(KeyCode::BracketRight) {
            boards.pace.set_duration(std::time::Duration::from_secs_f32((secs / 1.5).max(0.02)));
        }
        if keys.just_pressed(KeyCode::BracketLeft) {
            boards.pace.set_duration(std::time::Duration::from_secs_f32((secs * 1.5).min(4.0)));
        }
        if !boards.running && keys.just_pressed(KeyCode::Period) {
            boards.step();
        }
    }
    if boards.running && boards.pace.tick(time.delta()).just_finished() && !boards.step() {
        boards.running = false;
    }
}
