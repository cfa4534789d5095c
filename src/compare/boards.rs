//! Drawing the side-by-side boards: each board's tilemap, tokens and header, drawn from
//! its battle one way after every step; the square under the pointer marked on every
//! board; and the panels (the top bar's controls, and per board the clock, the last line of
//! its log, and what the pointer's square means there for the selected unit).

use super::window::{Board, Boards, HEADER};
use crate::game::Screen;
use crate::grid::GridPos;
use crate::rules::movement::{MoveMode, movement_range};
use crate::view::art;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, egui};

/// A fighter's token on board `board`.
#[derive(Component)]
pub(super) struct BoardToken {
    board: usize,
    fighter: usize,
}

/// A token's hit-point bar, `width` when whole.
#[derive(Component)]
pub(super) struct BoardHp {
    board: usize,
    fighter: usize,
    width: f32,
}

/// A token's name: yellow while its unit is selected.
#[derive(Component)]
pub(super) struct BoardName {
    board: usize,
    fighter: usize,
}

/// A board's header: its spec and clock.
#[derive(Component)]
pub(super) struct BoardHeader(usize);

/// The pointer's square on board `0`.
#[derive(Component)]
pub(super) struct PointerMark(usize);

/// Spawns every board's tilemap, tokens, header and pointer mark.
pub(super) fn spawn_boards(
    mut commands: Commands,
    boards: Res<Boards>,
    mut images: ResMut<Assets<Image>>,
    mut masks: ResMut<art::CellMasks>,
    colours: Res<crate::view::SideColours>,
) {
    let disc = images.add(art::token_disc(128));
    for (k, board) in boards.boards.iter().enumerate() {
        let b = board.battle.read();
        let screen = DespawnOnExit(Screen::Compare);
        crate::view::spawn_tilemap_at(
            &mut commands,
            &mut images,
            &b.field.terrain,
            board.layout.shape,
            screen.clone(),
            board.centre,
        );
        let top = board.centre.y + (board.layout.extent().y + board.layout.tile_height()) / 2.0 + HEADER / 2.0;
        commands.spawn((
            BoardHeader(k),
            DespawnOnExit(Screen::Compare),
            Text2d::new(board.spec.to_string()),
            TextFont::from_font_size(26.0),
            TextColor(Color::WHITE),
            Transform::from_translation(Vec3::new(board.centre.x, top, 20.0)),
        ));
        let (w, h) = (board.layout.tile, board.layout.tile_height());
        let mask = masks.get(&mut images, board.layout.shape, w, h);
        commands.spawn((
            PointerMark(k),
            DespawnOnExit(Screen::Compare),
            Sprite {
                image: mask,
                color: Color::srgba(1.0, 0.9, 0.2, 0.45),
                custom_size: Some(Vec2::new(w, h)),
                ..default()
            },
            Transform::from_translation(board.centre.extend(5.0)),
            Visibility::Hidden,
        ));
        for f in &b.fighters {
            let size = board.layout.tile * f.size().side() as f32 * 0.86;
            let bar = size * 0.8;
            let at = board.layout.footprint_centre(f.footprint()) + board.centre;
            commands.spawn((
                BoardToken { board: k, fighter: f.i },
                DespawnOnExit(Screen::Compare),
                Sprite {
                    image: disc.clone(),
                    color: colours.of(&f.side().0),
                    custom_size: Some(Vec2::splat(size)),
                    ..default()
                },
                Transform::from_translation(at.extend(10.0)),
                children![
                    (
                        BoardName { board: k, fighter: f.i },
                        Text2d::new(f.id().to_string()),
                        TextFont::from_font_size((size * 0.26).clamp(10.0, 22.0)),
                        TextColor(Color::WHITE),
                        Transform::from_xyz(0.0, 0.0, 1.0),
                    ),
                    (
                        Sprite::from_color(Color::srgb(0.1, 0.1, 0.1), Vec2::new(bar + 2.0, 6.0)),
                        Transform::from_xyz(0.0, -size * 0.5 - 2.0, 1.0),
                    ),
                    (
                        BoardHp { board: k, fighter: f.i, width: bar },
                        Sprite::from_color(Color::srgb(0.2, 0.85, 0.3), Vec2::new(bar, 4.0)),
                        Transform::from_xyz(0.0, -size * 0.5 - 2.0, 2.0),
                    ),
                ],
            ));
        }
    }
}

/// Tokens, bars, names and headers as each board's battle stands now.
#[allow(clippy::type_complexity)]
pub(super) fn draw_boards(
    boards: Res<Boards>,
    mut tokens: Query<(&BoardToken, &mut Transform, &mut Visibility, &mut Sprite), Without<BoardHp>>,
    mut bars: Query<(&BoardHp, &mut Sprite, &mut Transform), Without<BoardToken>>,
    mut names: Query<(&BoardName, &mut TextColor)>,
    mut headers: Query<(&BoardHeader, &mut Text2d)>,
    mut marks: Query<(&PointerMark, &mut Transform, &mut Visibility), (Without<BoardToken>, Without<BoardHp>)>,
    colours: Res<crate::view::SideColours>,
) {
    for (token, mut at, mut shown, mut sprite) in &mut tokens {
        let Some(board) = boards.boards.get(token.board) else { continue };
        let b = board.battle.read();
        let Some(f) = b.fighters.get(token.fighter) else { continue };
        *shown = if f.alive() { Visibility::Inherited } else { Visibility::Hidden };
        let goal = board.layout.footprint_centre(f.footprint()) + board.centre;
        at.translation = goal.extend(10.0);
        let colour = colours.of(&f.side().0);
        sprite.color = if f.in_fight() { colour } else { colour.with_alpha(0.45) };
    }
    for (bar, mut sprite, mut at) in &mut bars {
        let Some(board) = boards.boards.get(bar.board) else { continue };
        let b = board.battle.read();
        let Some(f) = b.fighters.get(bar.fighter) else { continue };
        let health = f.health();
        let part = (health.hp.max(0) as f32 / health.max.max(1) as f32).clamp(0.0, 1.0);
        sprite.custom_size = Some(Vec2::new(bar.width * part, 4.0));
        at.translation.x = -bar.width * (1.0 - part) / 2.0;
    }
    let selected = boards.selected.clone();
    for (name, mut colour) in &mut names {
        let Some(board) = boards.boards.get(name.board) else { continue };
        let is = board.battle.read().fighters.get(name.fighter).is_some_and(|f| Some(f.id()) == selected.as_deref());
        colour.0 = if is { Color::srgb(1.0, 0.9, 0.2) } else { Color::WHITE };
    }
    for (header, mut text) in &mut headers {
        let Some(board) = boards.boards.get(header.0) else { continue };
        let line = header_line(board);
        if text.0 != line {
            text.0 = line;
        }
    }
    let pointer = boards.pointer;
    for (mark, mut at, mut shown) in &mut marks {
        let Some(board) = boards.boards.get(mark.0) else { continue };
        match pointer.filter(|&p| board.layout.width > p.x && board.layout.height > p.y && p.x >= 0 && p.y >= 0) {
            Some(p) => {
                at.translation = board.world(p).extend(5.0);
                *shown = Visibility::Inherited;
            }
            None => *shown = Visibility::Hidden,
        }
    }
}

/// A board's state: its clock in its variant's words, or how its battle ended.
fn state_line(board: &Board) -> String {
    match board.battle.winner() {
        Some(Some(w)) => format!("{w} wins"),
        Some(None) => "a draw".to_string(),
        None => crate::control::vocabulary::clock_line(&board.battle.read()),
    }
}

/// A board's header over it: its spec, and the first part of its state (the round or
/// turn), short enough not to run into the next board's.
fn header_line(board: &Board) -> String {
    let state = state_line(board);
    format!("{}: {}", board.spec, state.split(" | ").next().unwrap_or_default())
}

/// The square under the pointer, on whichever board it is over, marks the same square on
/// every board; a click on a unit selects it (by id) on all of them.
pub(super) fn point_and_select(
    mut boards: ResMut<Boards>,
    window: Query<&Window, With<PrimaryWindow>>,
    camera: Query<(&Camera, &GlobalTransform), With<Camera2d>>,
    mouse: Res<ButtonInput<MouseButton>>,
    egui: Option<Res<bevy_egui::input::EguiWantsInput>>,
) {
    if egui.is_some_and(|e| e.is_pointer_over_area() || e.wants_pointer_input()) {
        return;
    }
    let world = (|| {
        let (cam, at) = camera.single().ok()?;
        cam.viewport_to_world_2d(at, window.single().ok()?.cursor_position()?).ok()
    })();
    let cell = world.and_then(|w| boards.boards.iter().find_map(|b| b.layout.cell_at(w - b.centre)));
    if boards.pointer != cell {
        boards.pointer = cell;
    }
    if mouse.just_pressed(MouseButton::Left)
        && let Some(cell) = cell
    {
        let first = boards.boards.first().map(|b| b.battle.read().view().occupancy.at(cell));
        let unit = first
            .flatten()
            .and_then(|i| boards.boards.first().map(|b| b.battle.read().fighters.at(i).id().to_string()));
        boards.selected = unit;
    }
}

/// The side panel's lines on the pointer's square, and what they were worked out for.
#[derive(Default)]
pub(super) struct SquareLines(Option<(GridPos, Option<String>, u32)>, Vec<String>);

/// What the pointer's square means on `board` for the unit `selected`: foes threatening it
/// there, its cover from it, and the walk there.
fn square_line(board: &Board, selected: Option<&str>, cell: GridPos) -> String {
    let b = board.battle.read();
    let view = b.view();
    let Some(me) = selected.and_then(|id| b.index_of(id)) else {
        let threateners = view.threat.threateners(cell).count_ones();
        return format!("({}, {}): threatened by {threateners}", cell.x, cell.y);
    };
    let my_side = view.roster.get(me).side;
    let foes = (0..view.roster.len())
        .filter(|&i| view.roster.get(i).side != my_side && view.threat.threateners(cell) & (1u128 << i) != 0)
        .count();
    let mut parts = vec![format!("({}, {}): {foes} foes threaten", cell.x, cell.y)];
    if let Some(there) = view.occupancy.at(cell).filter(|&t| t != me) {
        let cover = crate::rules::cover_between(&view, me, there, false);
        parts.push(
            format!("{:?} cover for {} (+{})", cover.cover, b.fighters.at(there).id(), cover.ac_bonus).to_lowercase(),
        );
    } else {
        let allowance = crate::rules::movement::allowance_ft(&view, me, MoveMode::Move);
        let range = movement_range(&view, me, MoveMode::Move, allowance);
        match range.plan_to(&view, cell) {
            Ok(plan) => parts.push(format!("walk {} ft, {} AoO", plan.cost_ft, plan.provokes.len())),
            Err(_) => parts.push("out of one move".into()),
        }
    }
    parts.join("; ")
}

/// The top bar (level, seed, steps, play controls) and the side panel, a block per board.
pub(super) fn panels(
    mut contexts: EguiContexts,
    mut boards: ResMut<Boards>,
    mut next: ResMut<NextState<Screen>>,
    mut squares: Local<SquareLines>,
    mut live: Option<ResMut<super::live::LiveBatch>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut root = egui::Ui::new(
        ctx.clone(),
        "compare".into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()),
    );
    egui::Panel::top("compare-top").exact_size(crate::view::camera::PANELS[2]).show(&mut root, |ui| {
        ui.horizontal_centered(|ui| {
            ui.strong(format!("{} — seed {}", boards.level_name, boards.seed));
            ui.label(format!("| {} commands on each board |", boards.steps));
            let label = if boards.running { "Pause (Space)" } else { "Play (Space)" };
            if ui.button(label).clicked() {
                boards.running = !boards.running;
            }
            if ui.add_enabled(!boards.running, egui::Button::new("Step (. key)")).clicked() {
                boards.step();
            }
            let mut per_second = 1.0 / boards.pace.duration().as_secs_f32();
            ui.label("pace");
            if ui.add(egui::Slider::new(&mut per_second, 0.25..=50.0).logarithmic(true).suffix("/s")).changed() {
                boards.pace.set_duration(std::time::Duration::from_secs_f32(1.0 / per_second));
            }
            if let Some(live) = live.as_mut()
                && ui.selectable_label(live.open, "Batch (B)").clicked()
            {
                live.open = !live.open;
            }
            if ui.button("Menu (Esc)").clicked() {
                next.set(Screen::Menu);
            }
        });
    });
    egui::Panel::bottom("compare-keys").exact_size(crate::view::camera::PANELS[3]).show(&mut root, |ui| {
        ui.add_space(6.0);
        ui.label(
            "Space: play or pause · .: one command on every board · [ ]: pace · wheel or = -: zoom all · \
             WASD, arrows or middle-drag: pan all · click a unit: select it on every board · B: batch · Esc: menu",
        );
        ui.weak(
            "Each board is its own battle: the same level and seed, the same AIs, the variant's own rules and dice.",
        );
    });
    egui::Panel::right("compare-side").exact_size(super::window::PANEL_EDGES.0[1]).show(&mut root, |ui| {
        ui.heading("Variants side by side");
        let selected = boards.selected.clone();
        // Worked out again only when the square, the unit or the battles change (a walk's
        // cost takes the pathfinder, five times over).
        let key = boards.pointer.map(|cell| (cell, selected.clone(), boards.steps));
        if squares.0 != key {
            squares.1 = match &key {
                Some((cell, _, _)) => {
                    boards.boards.iter().map(|b| square_line(b, selected.as_deref(), *cell)).collect()
                }
                None => Vec::new(),
            };
            squares.0 = key;
        }
        let lines = &squares.1;
        ui.label(match &selected {
            Some(id) => format!("selected: {id} (click a unit to select)"),
            None => "click a unit to see the pointer's square through its eyes".into(),
        });
        egui::ScrollArea::vertical().show(ui, |ui| {
            for (k, board) in boards.boards.iter().enumerate() {
                ui.separator();
                ui.strong(format!("{}: {}", board.spec, state_line(board)));
                let last = board.battle.events().iter().rev().map(|e| e.describe()).find(|l| !l.is_empty());
                ui.label(last.unwrap_or_default());
                if let Some(line) = lines.get(k) {
                    ui.weak(line);
                }
            }
        });
    });
    Ok(())
}
