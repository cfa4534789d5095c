//! The rules while you build: the play screen's overlays over the level being edited,
//! under the play-test's variant. The level as it stands is set up as a battle that has
//! not started (`Battle::new_paused`), and `overlay::compute_preview` and
//! `overlay::cell_colours` (the same as in play) give every placed unit's threatened
//! squares shaded by how many threaten each, and the reach of the unit under the pointer.
//! Each layer toggles on its own; a level with problems shows none.

use super::session::{EditorDoc, Problems};
use super::tools::EditorTools;
use crate::combat::{Battle, BattleOptions};
use crate::control::plugin::{Pointer, Selection};
use crate::game::Screen;
use crate::grid::GridPos;
use crate::level::{Catalogue, Level, LevelDef};
use crate::overlay::{Layers, Preview, cell_colours, compute_preview};
use crate::variants::RulesVariant;
use crate::view::layout::BoardLayout;
use bevy::prelude::*;

/// Which rules layers the editor shows.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EditorLayers {
    /// Every square the placed units threaten, shaded by how many threaten it.
    pub threat: bool,
    /// The squares the unit under the pointer threatens (its reach).
    pub reach: bool,
}

/// The overlay as last worked out, and what it was worked out for.
#[derive(Resource, Default)]
struct Shown {
    /// The level, variant, layers and hovered square the cells were painted for.
    key: Option<(LevelDef, (RulesVariant, EditorLayers, Option<GridPos>))>,
    /// The level and variant `battle` was set up from (`None` there: it could not be).
    battle_for: Option<(LevelDef, RulesVariant)>,
    battle: Option<Battle>,
    preview: Preview,
}

#[derive(Component)]
struct EditorOverlayCell(GridPos);

pub struct EditorOverlayPlugin;

impl Plugin for EditorOverlayPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<EditorLayers>().init_resource::<Shown>().add_systems(
            Update,
            (spawn_cells, update_overlay)
                .chain()
                .after(super::session::EditorSet)
                .run_if(in_state(Screen::Editor).and_then(resource_exists::<BoardLayout>)),
        );
        app.add_systems(OnExit(Screen::Editor), |mut shown: ResMut<Shown>| *shown = Shown::default());
    }
}

/// The rules layers of a level set up as a battle: every unit's threat, the hovered unit's reach.
pub fn editor_preview(battle: &mut Battle, layers: EditorLayers, hover: Option<GridPos>) -> Preview {
    // Nobody is the player: every unit's threat counts, and no unit is acting.
    let play = Layers { enemy_threat: layers.threat, range: false, lines: false };
    let mut p = compute_preview(battle, &[], &Selection::default(), hover, play);
    if !layers.reach {
        p.hovered_threat.clear();
    }
    p
}

/// A battle set up from the level as it stands, for its rules layers.
pub fn battle_of(level: &LevelDef, variant: RulesVariant) -> Option<Battle> {
    let cat = Catalogue::builtin_ref();
    let level = Level::from_def(level.clone(), cat).ok()?;
    Some(Battle::new_paused(&level, cat, variant, 1, BattleOptions::default()))
}

/// One translucent cell sprite per board square, made again when the board changes size.
fn spawn_cells(
    mut commands: Commands,
    layout: Res<BoardLayout>,
    cells: Query<Entity, With<EditorOverlayCell>>,
    mut images: ResMut<Assets<Image>>,
    mut shown: ResMut<Shown>,
) {
    if !layout.is_changed() && !cells.is_empty() {
        return;
    }
    for e in &cells {
        commands.entity(e).despawn();
    }
    shown.key = None; // paint the new cells
    crate::overlay::spawn_cell_grid(&mut commands, &mut images, &layout, 4.0, Screen::Editor, EditorOverlayCell);
}

fn update_overlay(
    doc: Res<EditorDoc>,
    tools: Res<EditorTools>,
    problems: Res<Problems>,
    layers: Res<EditorLayers>,
    pointer: Res<Pointer>,
    layout: Res<BoardLayout>,
    mut shown: ResMut<Shown>,
    mut cells: Query<(&EditorOverlayCell, &mut Sprite, &mut Visibility)>,
) {
    let level = &doc.doc.level;
    let variant = tools.playtest_rules.unwrap_or(level.rules);
    let hover = if pointer.over_ui || !layers.reach { None } else { pointer.cell };
    let key = (variant, *layers, hover);
    if shown.key.as_ref().is_some_and(|(l, k)| l == level && *k == key) {
        return;
    }
    let shown = &mut *shown;
    let want = layers.threat || layers.reach;
    if want && shown.battle_for.as_ref().is_none_or(|(l, v)| l != level || *v != variant) {
        // A unit the loader refuses leaves nothing sound to show; one side alone is fine.
        let sound = problems.0.iter().all(|p| p.unit.is_none() && p.message == super::check::TWO_SIDES);
        shown.battle = if sound { battle_of(level, variant) } else { None };
        shown.battle_for = Some((level.clone(), variant));
    }
    shown.preview = match shown.battle.as_mut() {
        Some(b) if want => editor_preview(b, *layers, hover),
        _ => Preview::default(),
    };
    shown.key = Some((level.clone(), key));
    let colours = cell_colours(&shown.preview, layout.width, layout.height);
    for (cell, mut sprite, mut vis) in &mut cells {
        match colours.get((cell.0.y * layout.width + cell.0.x) as usize).copied().flatten() {
            Some(colour) => {
                sprite.color = colour;
                vis.set_if_neq(Visibility::Inherited);
            }
            None => {
                vis.set_if_neq(Visibility::Hidden);
            }
        }
    }
}
