//! The camera: framing the board between the panels, panning (keys, middle-drag, window
//! edges), zooming (wheel, keys), centring on the selected unit, and finding the board
//! square under the pointer.

use super::layout::BoardLayout;
use crate::control::plugin::{Pointer, Selection};
use crate::input::{GameAction, PlayerInput, Presses};
use bevy::input::mouse::AccumulatedMouseMotion;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use leafwing_input_manager::prelude::ActionState;

/// Room the egui panels take round the board, in logical pixels: left, right, top, bottom.
pub const PANELS: [f32; 4] = [0.0, 390.0, 44.0, 96.0];

/// The gap left between the board's room and a side panel drawn narrower than it (the play
/// screen's right panel, the editor's two side panels).
pub const SIDE_GAP: f32 = 14.0;

/// The panels drawn round the board on the screen shown (left, right, top, bottom, in
/// logical pixels), as wide as they are drawn: each screen with a board puts its own on
/// entering it, so the camera and the pointer tell a panel from the board without knowing
/// any screen's layout. Without it, no panels.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct PanelEdges(pub [f32; 4]);

impl PanelEdges {
    /// The play and compare screens' panels, `PANELS`, with the right one drawn `right_gap`
    /// narrower than the room kept for it.
    pub const fn play(right_gap: f32) -> PanelEdges {
        let [l, r, t, b] = PANELS;
        PanelEdges([l, r - right_gap, t, b])
    }

    /// Whether `p` (window coordinates, from the top left) lies on one of these panels of a
    /// window `size` big.
    pub fn cover(&self, p: Vec2, size: Vec2) -> bool {
        let [l, r, t, b] = self.0;
        p.x < l || p.x > size.x - r || p.y < t || p.y > size.y - b
    }

    /// Whether the window's pointer is over one of these panels now.
    fn cover_pointer(edges: Option<&PanelEdges>, window: &Window) -> bool {
        let edges = edges.copied().unwrap_or_default();
        window.cursor_position().is_some_and(|p| edges.cover(p, window.size()))
    }
}

/// Puts `edges` in while `screen` is shown: in on entering it, away on leaving it.
pub fn panel_edges_while(app: &mut App, screen: crate::game::Screen, edges: PanelEdges) {
    app.add_systems(OnEnter(screen), move |mut commands: Commands| commands.insert_resource(edges))
        .add_systems(OnExit(screen), |mut commands: Commands| commands.remove_resource::<PanelEdges>());
}

pub struct CameraPlugin;

impl Plugin for CameraPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            (frame_new_board.run_if(resource_added::<BoardLayout>), move_camera, track_pointer)
                .chain()
                .run_if(resource_exists::<BoardLayout>),
        );
    }
}

/// Fits the whole board in the window between the panels.
pub fn frame_board(layout: &BoardLayout, window: Vec2, projection: &mut Projection, transform: &mut Transform) {
    let [l, r, t, b] = PANELS;
    let extent = layout.extent() + Vec2::new(layout.tile, layout.tile_height());
    let usable = Vec2::new(window.x - l - r, window.y - t - b).max(Vec2::splat(100.0));
    let scale = (extent.x / usable.x).max(extent.y / usable.y).max(0.25);
    if let Projection::Orthographic(o) = projection {
        o.scale = scale;
    }
    // Shift the camera so the board sits in the middle of the free area.
    let shift = Vec2::new((r - l) / 2.0, (t - b) / 2.0) * scale;
    transform.translation = Vec3::new(shift.x, shift.y, transform.translation.z);
}

fn frame_new_board(
    layout: Res<BoardLayout>,
    mut camera: Query<(&mut Projection, &mut Transform), With<Camera2d>>,
    windows: Query<&Window, With<PrimaryWindow>>,
) {
    if let Ok((mut projection, mut transform)) = camera.single_mut() {
        let window = windows.iter().next().map_or(Vec2::new(1280.0, 800.0), |w| w.size());
        frame_board(&layout, window, &mut projection, &mut transform);
    }
}

#[allow(clippy::too_many_arguments)]
fn move_camera(
    input: Query<&ActionState<GameAction>, With<PlayerInput>>,
    presses: Res<Presses>,
    mut camera: Query<(&mut Projection, &mut Transform), With<Camera2d>>,
    window: Query<&Window, With<PrimaryWindow>>,
    motion: Res<AccumulatedMouseMotion>,
    pointer: Res<Pointer>,
    selection: Res<Selection>,
    res: Option<Res<crate::combat::plugin::BattleRes>>,
    layout: Res<BoardLayout>,
    time: Res<Time>,
    typing: Res<crate::input::TextFocus>,
    keys: Res<ButtonInput<KeyCode>>,
    edges: Option<Res<PanelEdges>>,
) {
    let (Ok(input), Ok((mut projection, mut transform))) = (input.single(), camera.single_mut()) else { return };
    let Projection::Orthographic(o) = &mut *projection else { return };
    let mut pan = Vec2::ZERO;
    // Keys typed into a text field (a level's name, a seed) do not pan, nor a key held in a
    // chord (Ctrl+S saves; it does not also pan down).
    use KeyCode::*;
    let modifiers = keys.any_pressed([ControlLeft, ControlRight, AltLeft, AltRight, SuperLeft, SuperRight]);
    for (action, dir) in [
        (GameAction::PanUp, Vec2::Y),
        (GameAction::PanDown, -Vec2::Y),
        (GameAction::PanLeft, -Vec2::X),
        (GameAction::PanRight, Vec2::X),
    ] {
        if crate::input::board_key_held(input, &action, *typing, modifiers) {
            pan += dir;
        }
    }
    // The window's edges pan too, when the pointer rests on them.
    if let Ok(w) = window.single()
        && let Some(p) = w.cursor_position()
        && w.focused
    {
        const EDGE: f32 = 4.0;
        if p.x <= EDGE {
            pan.x -= 1.0;
        } else if p.x >= w.width() - EDGE {
            pan.x += 1.0;
        }
        if p.y <= EDGE {
            pan.y += 1.0;
        } else if p.y >= w.height() - EDGE {
            pan.y -= 1.0;
        }
    }
    let speed = 700.0 * o.scale * time.delta_secs();
    transform.translation += (pan * speed).extend(0.0);
    if input.pressed(&GameAction::DragPan) && !pointer.over_ui {
        let d = motion.delta;
        transform.translation += Vec3::new(-d.x, d.y, 0.0) * o.scale;
    }
    // The pointer is tracked after the camera moves, so a wheel in the frame the pointer
    // arrives over a panel is tested against the panels here too: it does not zoom.
    let over_panels_now = window.single().is_ok_and(|w| PanelEdges::cover_pointer(edges.as_deref(), w));
    if !pointer.over_ui && !over_panels_now {
        let zoom = presses.count(GameAction::ZoomOut) as i32 - presses.count(GameAction::ZoomIn) as i32;
        o.scale = (o.scale * 1.15f32.powi(zoom)).clamp(0.2, 8.0);
    }
    if presses.pressed(GameAction::CentreCamera)
        && let (Some(res), Some(unit)) = (res, selection.unit)
        && let Some(f) = res.battle.read().fighters.get(unit)
    {
        let c = layout.footprint_centre(f.footprint());
        let [l, r, t, b] = PANELS;
        let shift = Vec2::new((r - l) / 2.0, (t - b) / 2.0) * o.scale;
        transform.translation.x = c.x + shift.x;
        transform.translation.y = c.y + shift.y;
    }
    // However it pans, the middle of the board's part of the window (between the panels)
    // stays over the board, so the board cannot scroll away.
    let [l, r, t, b] = PANELS;
    let shift = Vec2::new((r - l) / 2.0, (t - b) / 2.0) * o.scale;
    let keep = layout.keep_on_board(transform.translation.truncate() - shift, 0.0) + shift;
    transform.translation.x = keep.x;
    transform.translation.y = keep.y;
}

/// Holds the pointer over one square whatever the mouse does (screenshots, demos).
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PinnedPointer(pub crate::grid::GridPos);

/// Finds the board square under the pointer, and whether the pointer is over a panel.
pub fn track_pointer(
    window: Query<&Window, With<PrimaryWindow>>,
    camera: Query<(&Camera, &GlobalTransform), With<Camera2d>>,
    layout: Res<BoardLayout>,
    egui: Option<Res<bevy_egui::input::EguiWantsInput>>,
    mut pointer: ResMut<Pointer>,
    pinned: Option<Res<PinnedPointer>>,
    edges: Option<Res<PanelEdges>>,
) {
    if let Some(p) = pinned {
        pointer.set_if_neq(Pointer { cell: Some(p.0), over_ui: false });
        return;
    }
    // egui counts a panel drawn on the background layer as "over an area" only while a widget
    // there wants the pointer, so the panels' own margins are tested too (a wheel over the
    // log scrolls the log, and does not also zoom the board).
    let in_margins = window.single().is_ok_and(|w| PanelEdges::cover_pointer(edges.as_deref(), w));
    let over_ui = in_margins || egui.is_some_and(|e| e.is_pointer_over_area() || e.wants_pointer_input());
    let cell = (|| {
        let w = window.single().ok()?;
        let (cam, at) = camera.single().ok()?;
        let p = w.cursor_position()?;
        let world = cam.viewport_to_world_2d(at, p).ok()?;
        layout.cell_at(world)
    })();
    pointer.set_if_neq(Pointer { cell, over_ui });
}

#[cfg(test)]
mod tests {
    /// On a 1280×800 window: the play screen's log (right, 376 px drawn), top bar (44) and
    /// action bar (96); the editor's tools (left, 276) and level panel (right, 306); the
    /// compare screen's side panel (390). The board's room between them is not a panel.
    #[test]
    fn the_pointer_is_over_a_panel_where_each_screen_draws_one() {
        use super::PanelEdges;
        let size = bevy::math::Vec2::new(1280.0, 800.0);
        let skirmish = crate::hud::PANEL_EDGES;
        let editor = crate::editor::board::PANEL_EDGES;
        let compare = crate::compare::window::PANEL_EDGES;
        let over = |edges: PanelEdges, x: f32, y: f32| edges.cover(bevy::math::Vec2::new(x, y), size);
        for edges in [skirmish, editor, compare] {
            assert!(!over(edges, 600.0, 400.0), "{edges:?}: the board");
            assert!(over(edges, 1275.0, 400.0), "{edges:?}: the right panel");
            assert!(over(edges, 600.0, 5.0), "{edges:?}: the top bar");
        }
        assert!(over(skirmish, 1280.0 - 370.0, 400.0) && !over(skirmish, 1280.0 - 385.0, 400.0));
        assert!(over(skirmish, 600.0, 800.0 - 90.0) && !over(skirmish, 600.0, 800.0 - 100.0));
        assert!(over(editor, 270.0, 400.0) && !over(editor, 285.0, 400.0), "the tools");
        assert!(over(editor, 1280.0 - 300.0, 400.0) && !over(editor, 1280.0 - 312.0, 400.0));
        assert!(over(compare, 1280.0 - 385.0, 400.0), "the compare side panel, drawn whole");
        assert!(!over(PanelEdges::default(), 1275.0, 5.0), "no panels round a board elsewhere");
    }

    use crate::input::{GameAction, TextFocus, board_key_held};
    use leafwing_input_manager::prelude::ActionState;

    /// A held pan key pans, but not while a text field has the keyboard or a modifier is
    /// held (Ctrl+S saves; it does not also pan down).
    #[test]
    fn a_pan_key_pans_unless_typed_or_part_of_a_chord() {
        let mut state = ActionState::<GameAction>::default();
        state.press(&GameAction::PanDown);
        assert!(board_key_held(&state, &GameAction::PanDown, TextFocus(false), false));
        assert!(!board_key_held(&state, &GameAction::PanDown, TextFocus(true), false), "typing");
        assert!(!board_key_held(&state, &GameAction::PanDown, TextFocus(false), true), "Ctrl+S");
        assert!(!board_key_held(&state, &GameAction::PanUp, TextFocus(false), false), "not held");
    }
}
