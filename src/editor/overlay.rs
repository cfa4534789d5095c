//! The rules while you build: the play screen's overlays over the level being edited,
//! under the play-test's variant. The level as it stands is set up as a battle that has
//! not started (`Battle::new_paused`); `layers::editor_preview` works out the layers
//! (threat, reach, cover, flanking, movement) and this paints them: cells with play's
//! colours (`overlay::cell_colours`) plus the flanking places and the squares where
//! leaving provokes, and lines for cover and the path. Each layer toggles on its own; a
//! level with problems shows none. The work is kept by the level's revision: the battle
//! is set up again only when the level or the variant changes, the cells painted again
//! only when what they show might have, and what depends on the subject alone is kept
//! while it stays the subject (`layers::SubjectWork`).

use super::edit::Symmetry;
use super::session::{EditorDoc, Problems};
use super::tools::EditorTools;
use crate::combat::{BattleOptions, BattleWorld};
use crate::control::plugin::Pointer;
use crate::game::Screen;
use crate::grid::{Footprint, GridPos};
use crate::level::{Catalogue, Level, LevelDef};
use crate::overlay::{Preview, cell_colours};
use crate::variants::RulesVariant;
use crate::view::layout::BoardLayout;
use bevy::prelude::*;

pub use super::layers::{CoverLine, EditorLayers, EditorPreview, editor_preview};
use super::layers::{SubjectWork, editor_preview_kept};

/// The overlay as last worked out, and what it was worked out for.
#[derive(Resource, Default)]
struct Shown {
    /// The level's revision, variant, layers, hovered square and selected unit the cells
    /// were painted for.
    key: Option<(u64, ShownFor)>,
    /// The level's revision and the variant `battle` was set up from (`None` there: it
    /// could not be).
    battle_for: Option<(u64, RulesVariant)>,
    battle: Option<BattleWorld>,
    /// What the layers worked out about the subject, on `battle`.
    work: SubjectWork,
    preview: EditorPreview,
}

type ShownFor = (RulesVariant, EditorLayers, Option<GridPos>, Option<String>);

#[derive(Component)]
struct EditorOverlayCell(GridPos);

pub struct EditorOverlayPlugin;

impl Plugin for EditorOverlayPlugin {
    fn build(&self, app: &mut App) {
        let in_editor = || in_state(Screen::Editor).and_then(resource_exists::<BoardLayout>);
        app.init_resource::<EditorLayers>()
            .init_resource::<Shown>()
            .init_resource::<crate::view::art::CellMasks>()
            .add_systems(
                Update,
                (spawn_cells, update_overlay).chain().after(super::session::EditorSet).run_if(in_editor()),
            );
        // Lines need the gizmos (a window); the headless benches go without.
        app.add_systems(
            Update,
            (draw_lines.after(update_overlay), draw_symmetry)
                .run_if(in_editor().and_then(resource_exists::<GizmoConfigStore>)),
        );
        app.add_systems(OnExit(Screen::Editor), |mut shown: ResMut<Shown>| *shown = Shown::default());
    }
}

/// A battle set up from the level as it stands, for its rules layers.
pub fn battle_of(level: &LevelDef, variant: RulesVariant) -> Option<BattleWorld> {
    let cat = Catalogue::builtin_ref();
    let level = Level::from_def(level.clone(), cat).ok()?;
    Some(BattleWorld::new_paused(&level, cat, variant, 1, BattleOptions::default()))
}

/// One translucent cell sprite per board square, made again when the board changes size.
fn spawn_cells(
    mut commands: Commands,
    layout: Res<BoardLayout>,
    cells: Query<Entity, With<EditorOverlayCell>>,
    mut images: ResMut<Assets<Image>>,
    mut masks: ResMut<crate::view::art::CellMasks>,
    mut shown: ResMut<Shown>,
) {
    if !layout.is_changed() && !cells.is_empty() {
        return;
    }
    for e in &cells {
        commands.entity(e).despawn();
    }
    shown.key = None; // paint the new cells
    crate::overlay::spawn_cell_grid(
        &mut commands,
        (&mut masks, &mut images),
        &layout,
        4.0,
        Screen::Editor,
        EditorOverlayCell,
    );
}

/// Where leaving provokes an attack of opportunity (the movement layer).
const LEAVING_PROVOKES: Color = Color::srgba(1.0, 0.1, 0.5, 0.6);
/// Where the subject would flank a foe.
const FLANKING: Color = Color::srgba(0.8, 0.35, 1.0, 0.55);

/// The colour of every cell: play's layers, then the squares where leaving provokes, the
/// flanking places, and the path over all.
pub fn editor_cell_colours(p: &EditorPreview, width: i32, height: i32) -> Vec<Option<Color>> {
    let without_path = Preview { path: None, ..p.play.clone() };
    let mut out = cell_colours(&without_path, width, height);
    let mut put = |c: GridPos, colour: Color| {
        if c.x >= 0 && c.y >= 0 && c.x < width && c.y < height {
            out[(c.y * width + c.x) as usize] = Some(colour);
        }
    };
    for &c in &p.leaving_provokes {
        put(c, LEAVING_PROVOKES);
    }
    for &(at, _) in &p.flanking {
        for c in Footprint::new(at, p.subject_side.max(1)).cells() {
            put(c, FLANKING);
        }
    }
    if p.play.path.is_some() {
        let path = Preview { path: p.play.path.clone(), ..Preview::default() };
        for (k, c) in cell_colours(&path, width, height).into_iter().enumerate() {
            if c.is_some() {
                out[k] = c;
            }
        }
    }
    out
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
    let (level, revision) = (&doc.doc.level(), doc.doc.revision());
    let variant = tools.playtest_rules.unwrap_or(level.rules);
    let hover = if pointer.over_ui || !layers.follow_pointer() { None } else { pointer.cell };
    let about_one = layers.cover || layers.flanking || layers.movement;
    let selected = tools.selected.as_ref().filter(|_| about_one);
    let same = |(r, (v, l, h, s)): &(u64, ShownFor)| {
        (*r, *v, *l, *h, s.as_ref()) == (revision, variant, *layers, hover, selected)
    };
    if shown.key.as_ref().is_some_and(same) {
        return;
    }
    let key = (variant, *layers, hover, selected.cloned());
    let shown = &mut *shown;
    let want = layers.any();
    if want && shown.battle_for != Some((revision, variant)) {
        // A unit the loader refuses leaves nothing sound to show; one side alone is fine.
        let sound = super::check::errors(&problems.0).all(|p| p.unit.is_none() && p.message == super::check::TWO_SIDES);
        shown.battle = if sound { battle_of(level, variant) } else { None };
        shown.battle_for = Some((revision, variant));
        shown.work.clear();
    }
    shown.preview = match shown.battle.as_mut() {
        Some(b) if want => editor_preview_kept(b, *layers, key.2, key.3.as_deref(), &mut shown.work),
        _ => EditorPreview::default(),
    };
    shown.key = Some((revision, key));
    let colours = editor_cell_colours(&shown.preview, layout.width, layout.height);
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

/// The cover lines, coloured as play colours a line by what it meets (clear, a creature,
/// a low wall, a wall) and here by the cover it gives (none, soft, cover, total); and the
/// path, as play draws it.
fn draw_lines(mut gizmos: Gizmos, shown: Res<Shown>, layout: Res<BoardLayout>) {
    let p = &shown.preview;
    for line in &p.cover {
        let colour = crate::overlay::line_colour(line.cover as usize);
        gizmos.line_2d(layout.footprint_centre(line.from), layout.footprint_centre(line.to), colour);
    }
    if let Some(path) = &p.play.path
        && let Some(b) = shown.battle.as_ref().map(BattleWorld::read)
        && let Some(f) = p.subject.and_then(|s| b.fighters.get(s))
    {
        let side = f.footprint().side;
        let mut at = layout.footprint_centre(f.footprint());
        for &q in &path.squares {
            let next = layout.footprint_centre(Footprint::new(q, side));
            gizmos.line_2d(at, next, Color::srgb(0.4, 1.0, 1.0));
            at = next;
        }
    }
}

/// The symmetry painting and placing follow, while one is on: its axis (left-right,
/// top-bottom) or its centre (point), halfway between a corner cell and its image.
fn draw_symmetry(mut gizmos: Gizmos, doc: Res<EditorDoc>, layout: Res<BoardLayout>) {
    let symmetry = doc.doc.symmetry();
    let (w, h) = (layout.width, layout.height);
    let Some(image) = symmetry.mirror((0, 0), w, h, layout.shape) else { return };
    let corner = layout.world(GridPos::new(0, 0));
    let mid = (corner + layout.world(GridPos::new(image.0, image.1))) / 2.0;
    let half = layout.extent() / 2.0 + Vec2::splat(layout.tile / 2.0);
    let colour = Color::srgba(1.0, 0.3, 0.9, 0.8);
    match symmetry {
        Symmetry::None => {}
        Symmetry::LeftRight => gizmos.line_2d(Vec2::new(mid.x, -half.y), Vec2::new(mid.x, half.y), colour),
        Symmetry::TopBottom => gizmos.line_2d(Vec2::new(-half.x, mid.y), Vec2::new(half.x, mid.y), colour),
        Symmetry::Point => {
            gizmos.circle_2d(mid, layout.tile * 0.6, colour);
            gizmos.line_2d(mid - Vec2::X * layout.tile, mid + Vec2::X * layout.tile, colour);
            gizmos.line_2d(mid - Vec2::Y * layout.tile, mid + Vec2::Y * layout.tile, colour);
        }
    }
}
