//! The editor's board on screen: the document's terrain drawn with the play screen's
//! tilemap (`view::spawn_tilemap`), unit tokens in side colours sized by footprint (the
//! selected one ringed, those with problems ringed red, with warnings orange), the
//! squares the tool in hand would touch, and the camera framed between the panels, kept
//! as it was across a play-test. The map and the tokens are looked at again only when the
//! level's revision changes (or the selection, the problems, the board's layout).

use super::edit::size_of;
use super::session::{EditorDoc, Problems};
use super::tools::{EditorTools, Gesture, GestureKind, Tool, stroke_cells};
use crate::control::plugin::Pointer;
use crate::game::Screen;
use crate::grid::{Footprint, GridPos, Shape, TerrainMap};
use crate::level::{Catalogue, LevelDef};
use crate::view::art::CellMasks;
use crate::view::camera::{PanelEdges, SIDE_GAP};
use crate::view::layout::BoardLayout;
use crate::view::{art, colour_of, spawn_tilemap, terrain_index};
use bevy::prelude::*;
use bevy::transform::TransformSystems;
use bevy_ecs_tilemap::prelude::{TilePos, TileTextureIndex};

/// Room the editor's panels take round the board, in logical pixels: left, right, top,
/// bottom.
pub const EDITOR_PANELS: [f32; 4] = [290.0, 320.0, 40.0, 26.0];

/// The editor's panels as drawn: both side panels `SIDE_GAP` narrower than their room.
pub const PANEL_EDGES: PanelEdges = {
    let [l, r, t, b] = EDITOR_PANELS;
    PanelEdges([l - SIDE_GAP, r - SIDE_GAP, t, b])
};

/// What the board shows now, to redraw only what changed.
#[derive(Resource, Default)]
struct Drawn {
    /// The rows and shape drawn, and the revision of the level they were last checked for.
    map: Option<(Vec<String>, Shape, u64)>,
    units: Option<DrawnUnits>,
    /// The revision of the level the tokens were last checked for.
    units_revision: Option<u64>,
    cursor: Vec<(i32, i32)>,
}

/// The camera as the designer left it, restored after a play-test; and a pending reframe.
#[derive(Resource, Default)]
pub struct EditorCamera {
    saved: Option<(Vec3, f32)>,
    /// Frame the board (or restore `saved`) at the end of this frame.
    pending: bool,
    /// Centre the view on this square (a problem clicked in the validation panel).
    pub centre_on: Option<(i32, i32)>,
}

#[derive(Component, Clone)]
struct EditorTile;

#[derive(Component)]
struct EditorToken;

#[derive(Component)]
struct EditorCursor;

pub struct EditorBoardPlugin;

impl Plugin for EditorBoardPlugin {
    fn build(&self, app: &mut App) {
        crate::view::camera::panel_edges_while(app, Screen::Editor, PANEL_EDGES);
        app.init_resource::<Drawn>()
            .init_resource::<CellMasks>()
            .init_resource::<EditorCamera>()
            .add_systems(OnEnter(Screen::Editor), |mut cam: ResMut<EditorCamera>| cam.pending = true)
            .add_systems(OnExit(Screen::Editor), leave)
            .add_systems(
                Update,
                (draw_map, draw_units, draw_cursor)
                    .chain()
                    .after(super::session::EditorSet)
                    .run_if(in_state(Screen::Editor).and_then(resource_exists::<EditorDoc>)),
            )
            .add_systems(PostUpdate, place_camera.before(TransformSystems::Propagate).run_if(in_state(Screen::Editor)));
    }
}

/// The shape a level is drawn in: hexes under hex-phases.
fn shape_of(level: &LevelDef) -> Shape {
    level.rules.shape()
}

fn leave(
    mut commands: Commands,
    mut drawn: ResMut<Drawn>,
    mut cam: ResMut<EditorCamera>,
    playtest: Option<Res<crate::game::PlayTest>>,
    camera: Query<(&Projection, &Transform), With<Camera2d>>,
) {
    *drawn = Drawn::default();
    // Kept for the way back from a play-test; a level opened later is framed afresh.
    cam.saved = None;
    if playtest.is_some()
        && let Ok((Projection::Orthographic(o), t)) = camera.single()
    {
        cam.saved = Some((t.translation, o.scale));
    }
    // The skirmish frames its own board when its layout is added.
    commands.remove_resource::<BoardLayout>();
}

fn draw_map(
    mut commands: Commands,
    doc: Res<EditorDoc>,
    mut drawn: ResMut<Drawn>,
    mut images: ResMut<Assets<Image>>,
    old: Query<Entity, With<EditorTile>>,
    mut tiles: Query<(&TilePos, &mut TileTextureIndex), With<EditorTile>>,
    mut cam: ResMut<EditorCamera>,
) {
    let (level, revision) = (&doc.doc.level(), doc.doc.revision());
    if drawn.map.as_ref().is_some_and(|(_, _, r)| *r == revision) {
        return;
    }
    let shape = shape_of(level);
    if let Some((rows, s, r)) = drawn.map.as_mut()
        && *rows == level.map.rows
        && *s == shape
    {
        *r = revision; // a change to something else: the units, the name
        return;
    }
    let Ok(terrain) = TerrainMap::from_rows(&level.map.rows) else { return };
    let same_size = drawn.map.as_ref().is_some_and(|(rows, s, _)| {
        *s == shape
            && rows.len() == level.map.rows.len()
            && rows.first().map(|r| r.len()) == level.map.rows.first().map(|r| r.len())
    });
    if same_size {
        let h = terrain.height();
        for (pos, mut index) in &mut tiles {
            let t = terrain_index(terrain.get(GridPos::new(pos.x as i32, h - 1 - pos.y as i32)));
            index.set_if_neq(TileTextureIndex(t));
        }
    } else {
        for e in &old {
            commands.entity(e).despawn();
        }
        let marker = (EditorTile, DespawnOnExit(Screen::Editor));
        let layout = spawn_tilemap(&mut commands, &mut images, &terrain, shape, marker);
        commands.insert_resource(layout);
        // A new board (or a resized one) is framed whole; coming back from a play-test
        // restores the saved view instead.
        cam.pending = true;
    }
    drawn.map = Some((level.map.rows.clone(), shape, revision));
}

/// The units, the sides' colours, the selection and the flagged units last drawn.
type DrawnUnits = (Vec<crate::level::UnitDef>, Vec<crate::level::SideDef>, Option<String>, Vec<(Option<String>, bool)>);

fn draw_units(
    mut commands: Commands,
    doc: Res<EditorDoc>,
    tools: Res<EditorTools>,
    problems: Res<Problems>,
    layout: Option<Res<BoardLayout>>,
    mut drawn: ResMut<Drawn>,
    mut disc: Local<Option<Handle<Image>>>,
    mut images: ResMut<Assets<Image>>,
    old: Query<Entity, With<EditorToken>>,
) {
    let Some(layout) = layout else { return };
    let (level, revision) = (&doc.doc.level(), doc.doc.revision());
    let selection_same = drawn.units.as_ref().is_some_and(|(_, _, selected, _)| *selected == tools.selected);
    let looked = drawn.units_revision == Some(revision) && selection_same;
    if looked && !problems.is_changed() && !layout.is_changed() {
        return;
    }
    let flagged: Vec<(Option<String>, bool)> = problems.0.iter().map(|p| (p.unit.clone(), p.warning)).collect();
    let same = drawn.units.as_ref().is_some_and(|(units, sides, selected, f)| {
        units == &level.units && sides == &level.sides && selected == &tools.selected && *f == flagged
    });
    drawn.units_revision = Some(revision);
    if same && !layout.is_changed() {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    let disc = disc.get_or_insert_with(|| images.add(art::token_disc(128))).clone();
    let cat = Catalogue::builtin_ref();
    for u in &level.units {
        let side = size_of(u, cat).side();
        let size = layout.tile * side as f32 * 0.86;
        let at = layout.footprint_centre(Footprint::new(u.pos(), side));
        let problem = problems.0.iter().find(|p| p.unit.as_deref() == Some(u.id.as_str()));
        let ring = if let Some(p) = problem {
            Some(if p.warning { Color::srgb(1.0, 0.6, 0.1) } else { Color::srgb(1.0, 0.15, 0.1) })
        } else if tools.selected.as_deref() == Some(u.id.as_str()) {
            Some(Color::srgb(1.0, 0.9, 0.3))
        } else {
            None
        };
        let mut token = commands.spawn((
            EditorToken,
            DespawnOnExit(Screen::Editor),
            Sprite {
                image: disc.clone(),
                color: colour_of(&level.sides, &u.side),
                custom_size: Some(Vec2::splat(size)),
                ..default()
            },
            Transform::from_translation(at.extend(10.0)),
            children![(
                Text2d::new(u.id.clone()),
                TextFont::from_font_size((size * 0.24).clamp(9.0, 20.0)),
                TextColor(Color::WHITE),
                Transform::from_xyz(0.0, 0.0, 1.0),
            )],
        ));
        if let Some(colour) = ring {
            token.with_child((
                Sprite { image: disc.clone(), color: colour, custom_size: Some(Vec2::splat(size * 1.18)), ..default() },
                Transform::from_xyz(0.0, 0.0, -0.5),
            ));
        }
    }
    drawn.units = Some((level.units.clone(), level.sides.clone(), tools.selected.clone(), flagged));
}

/// Marks the squares the tool in hand would touch: the brush under the pointer, the
/// rectangle or line being dragged, the footprint of the unit to place.
fn draw_cursor(
    mut commands: Commands,
    doc: Res<EditorDoc>,
    tools: Res<EditorTools>,
    gesture: Res<Gesture>,
    pointer: Res<Pointer>,
    layout: Option<Res<BoardLayout>>,
    mut drawn: ResMut<Drawn>,
    mut masks: ResMut<CellMasks>,
    mut images: ResMut<Assets<Image>>,
    old: Query<Entity, With<EditorCursor>>,
) {
    let Some(layout) = layout else { return };
    let cat = Catalogue::builtin_ref();
    let mut want: Vec<(i32, i32)> = match (&gesture.kind, pointer.cell) {
        (Some(GestureKind::Shape(..) | GestureKind::Select), _) => gesture.preview(),
        (Some(GestureKind::MoveUnit(id)), Some(p)) => {
            let u = doc.doc.level().units.iter().find(|u| &u.id == id);
            u.map_or(vec![], |u| {
                let to = GridPos::new(u.at.0 + p.x - gesture.start.0, u.at.1 + p.y - gesture.start.1);
                Footprint::new(to, size_of(u, cat).side()).cells().map(|c| (c.x, c.y)).collect()
            })
        }
        (_, Some(p)) if !pointer.over_ui => match tools.tool {
            Tool::Brush | Tool::Eraser => stroke_cells((p.x, p.y), (p.x, p.y), tools.brush),
            Tool::Units => {
                let side = cat.creature(&tools.creature).map_or(1, |c| c.size.side());
                Footprint::new(p, side).cells().map(|c| (c.x, c.y)).collect()
            }
            Tool::Paste => tools.clip.as_ref().map_or(vec![], |c| c.footprint((p.x, p.y))),
            _ => vec![(p.x, p.y)],
        },
        _ => vec![],
    };
    // Painting and placing mirror under the symmetry: so does the preview.
    if !matches!(gesture.kind, Some(GestureKind::MoveUnit(_) | GestureKind::Select)) {
        let (w, h, s) = (layout.width, layout.height, doc.doc.symmetry());
        let shape = shape_of(doc.doc.level());
        want = want.into_iter().flat_map(|c| super::edit::mirrored(c, 1, s, (w, h, shape))).collect();
        want.sort_unstable();
        want.dedup();
    }
    // The selection, when not being dragged out again, in its own colour.
    let mut selected: Vec<(i32, i32)> = match (&gesture.kind, tools.selection) {
        (Some(GestureKind::Select), _) | (_, None) => vec![],
        (_, Some((a, b))) => super::edit::cells(&super::Area::Rect { from: a, to: b }),
    };
    let on_board = |&(x, y): &(i32, i32)| x >= 0 && y >= 0 && x < layout.width && y < layout.height;
    want.retain(on_board);
    selected.retain(|c| on_board(c) && !want.contains(c));
    let split = want.len();
    want.extend(selected);
    if drawn.cursor == want && !layout.is_changed() {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    let image = masks.get(&mut images, layout.shape, layout.tile, layout.tile_height());
    for (k, &(x, y)) in want.iter().enumerate() {
        let colour = if k < split { Color::srgba(1.0, 1.0, 1.0, 0.35) } else { Color::srgba(0.3, 0.6, 1.0, 0.3) };
        commands.spawn((
            EditorCursor,
            DespawnOnExit(Screen::Editor),
            Sprite {
                image: image.clone(),
                color: colour,
                custom_size: Some(Vec2::new(layout.tile, layout.tile_height())),
                ..default()
            },
            Transform::from_translation(layout.world(GridPos::new(x, y)).extend(5.0)),
        ));
    }
    drawn.cursor = want;
}

/// Frames a new board between the panels, or puts the camera back where the designer left
/// it before a play-test; centres on a square when asked.
fn place_camera(
    layout: Option<Res<BoardLayout>>,
    mut cam: ResMut<EditorCamera>,
    mut camera: Query<(&mut Projection, &mut Transform), With<Camera2d>>,
    windows: Query<&Window>,
) {
    // The play camera frames a layout the frame after it is added: act after it.
    let Some(layout) = layout.filter(|l| !l.is_added()) else { return };
    let Ok((mut projection, mut transform)) = camera.single_mut() else { return };
    let Projection::Orthographic(o) = &mut *projection else { return };
    let [l, r, t, b] = EDITOR_PANELS;
    if cam.pending {
        cam.pending = false;
        if let Some((at, scale)) = cam.saved.take() {
            transform.translation = at;
            o.scale = scale;
        } else {
            let window = windows.iter().next().map_or(Vec2::new(1280.0, 800.0), |w| w.size());
            let extent = layout.extent() + Vec2::new(layout.tile, layout.tile_height());
            let usable = Vec2::new(window.x - l - r, window.y - t - b).max(Vec2::splat(100.0));
            o.scale = (extent.x / usable.x).max(extent.y / usable.y).max(0.25);
            let shift = Vec2::new((r - l) / 2.0, (t - b) / 2.0) * o.scale;
            transform.translation.x = shift.x;
            transform.translation.y = shift.y;
        }
    }
    if let Some((x, y)) = cam.centre_on.take() {
        let window = windows.iter().next().map_or(Vec2::new(1280.0, 800.0), |w| w.size());
        let c = layout.world(GridPos::new(x, y));
        let at = transform.translation.truncate();
        let pan = pan_to_show(c, at, o.scale, window, [l, r, t, b], layout.tile);
        transform.translation.x += pan.x;
        transform.translation.y += pan.y;
    }
}

/// How far to pan a camera at `at` (world units, `scale` world units a pixel) so that the
/// world point `c` shows between the panels `[l, r, t, b]` of a `window`, at least a square and
/// a half (`tile`) from their edges: nothing if it shows already, so the board stays where
/// the designer put it; otherwise just far enough, never more than to centre it.
fn pan_to_show(c: Vec2, at: Vec2, scale: f32, window: Vec2, [l, r, t, b]: [f32; 4], tile: f32) -> Vec2 {
    // The point on screen (pixels, y down), and the room it must show in.
    let on_screen = Vec2::new(window.x / 2.0 + (c.x - at.x) / scale, window.y / 2.0 - (c.y - at.y) / scale);
    let (lo, hi) = (Vec2::new(l, t), Vec2::new(window.x - r, window.y - b).max(Vec2::new(l, t)));
    let margin = (Vec2::splat(1.5 * tile / scale)).min((hi - lo) / 2.0);
    let (lo, hi) = (lo + margin, hi - margin);
    let wanted = on_screen.clamp(lo, hi.max(lo));
    let off = on_screen - wanted;
    Vec2::new(off.x, -off.y) * scale
}

#[cfg(test)]
mod tests {
    use super::pan_to_show;
    use bevy::math::Vec2;

    const WINDOW: Vec2 = Vec2::new(1280.0, 800.0);
    const PANELS: [f32; 4] = [290.0, 320.0, 40.0, 26.0];

    #[test]
    fn a_square_already_in_view_leaves_the_camera_where_it_is() {
        // The camera at the origin, one world unit a pixel: the screen's centre shows (0, 0).
        let pan = pan_to_show(Vec2::new(-100.0, 50.0), Vec2::ZERO, 1.0, WINDOW, PANELS, 32.0);
        assert_eq!(pan, Vec2::ZERO);
    }

    #[test]
    fn a_square_under_the_right_panel_is_brought_just_inside_it() {
        // x = 600 shows at 1240 px, under the right panel (which starts at 960 px).
        let c = Vec2::new(600.0, 0.0);
        let pan = pan_to_show(c, Vec2::ZERO, 1.0, WINDOW, PANELS, 32.0);
        assert_eq!(pan.y, 0.0);
        // Afterwards it shows a square and a half inside the panel's edge, not centred.
        let shown = WINDOW.x / 2.0 + (c.x - pan.x);
        assert_eq!(shown, 960.0 - 48.0);
        // Zoomed out twice as far it shows at 940 px, four pixels past the room (960 less 24,
        // a square and a half at this zoom): four pixels, eight world units, of pan.
        let pan2 = pan_to_show(c, Vec2::ZERO, 2.0, WINDOW, PANELS, 32.0);
        assert_eq!(pan2, Vec2::new(8.0, 0.0));
    }

    #[test]
    fn a_square_above_the_view_pans_the_camera_up() {
        // y = 500 is above the top of the window (world y grows upward).
        let pan = pan_to_show(Vec2::new(0.0, 500.0), Vec2::ZERO, 1.0, WINDOW, PANELS, 32.0);
        assert_eq!(pan.x, 0.0);
        assert!(pan.y > 0.0);
        let shown_y = WINDOW.y / 2.0 - (500.0 - pan.y);
        assert_eq!(shown_y, 40.0 + 48.0);
    }
}
