//! The board on screen: the terrain as a bevy_ecs_tilemap (squares, or odd-r hexes for
//! hex-phases) drawn from art generated at start-up, unit tokens sized by footprint in
//! side colours with names and HP bars, a legend, and a camera that frames the board.
//! Reads the rules; never changes them.

pub mod art;
pub mod layout;
pub mod screenshot;

use crate::grid::{Shape, Terrain};
use crate::rules::{Battlefield, Body, Combatant, Condition, Conditions, Health, Position, Side};
use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;
use layout::BoardLayout;

/// Draws the battlefield held in the rules resources.
pub struct ViewPlugin;

impl Plugin for ViewPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(TilemapPlugin)
            .add_systems(Startup, (spawn_camera, spawn_board, spawn_legend).chain())
            .add_systems(Update, (spawn_tokens, place_tokens, update_hp_bars, show_token_state));
    }
}

/// Colour of a side's tokens (blue, red, then a fixed palette by name order).
pub fn side_colour(side: &str) -> Color {
    match side {
        "blue" => Color::srgb(0.22, 0.45, 0.85),
        "red" => Color::srgb(0.80, 0.22, 0.20),
        "green" => Color::srgb(0.25, 0.65, 0.30),
        "yellow" => Color::srgb(0.85, 0.70, 0.15),
        other => {
            let h = other.bytes().fold(0u32, |h, b| h.wrapping_mul(31).wrapping_add(b as u32));
            Color::hsl((h % 360) as f32, 0.55, 0.5)
        }
    }
}

fn spawn_camera(mut commands: Commands) {
    commands.spawn((Camera2d, Msaa::Off));
}

fn terrain_index(t: Terrain) -> u32 {
    match t {
        Terrain::Floor => 0,
        Terrain::Wall => 1,
        Terrain::Difficult => 2,
        Terrain::LowWall => 3,
    }
}

fn spawn_board(
    mut commands: Commands,
    field: Option<Res<Battlefield>>,
    mut images: ResMut<Assets<Image>>,
    mut camera: Query<(&mut Projection, &mut Transform), With<Camera2d>>,
    windows: Query<&Window>,
) {
    let Some(field) = field else { return };
    let terrain = &field.terrain;
    let layout = BoardLayout::new(field.variant.shape(), terrain.width(), terrain.height());
    let (tw, th) = (layout.tile, layout.tile_height());
    let texture = images.add(art::terrain_atlas(layout.shape, tw as u32, th as u32));

    let map_size = TilemapSize { x: terrain.width() as u32, y: terrain.height() as u32 };
    let map = commands.spawn_empty().id();
    let mut storage = TileStorage::empty(map_size);
    for y in 0..terrain.height() {
        for x in 0..terrain.width() {
            // The tilemap counts rows upwards; levels count them downwards.
            let pos = TilePos { x: x as u32, y: (terrain.height() - 1 - y) as u32 };
            let tile = commands
                .spawn(TileBundle {
                    position: pos,
                    tilemap_id: TilemapId(map),
                    texture_index: TileTextureIndex(terrain_index(terrain.get(crate::grid::GridPos::new(x, y)))),
                    ..default()
                })
                .id();
            storage.set(&pos, tile);
        }
    }
    let map_type = match layout.shape {
        Shape::Square => TilemapType::Square,
        // Odd level rows shift right; counted from the bottom that is odd or even tile rows.
        Shape::Hex if (terrain.height() - 1) % 2 == 0 => TilemapType::Hexagon(HexCoordSystem::RowOdd),
        Shape::Hex => TilemapType::Hexagon(HexCoordSystem::RowEven),
    };
    let tile_size = TilemapTileSize { x: tw, y: th };
    let grid_size = TilemapGridSize { x: tw, y: th };
    let anchor = TilemapAnchor::None;
    let first = TilePos { x: 0, y: map_size.y - 1 };
    let local = first.center_in_world(&map_size, &grid_size, &tile_size, &map_type, &anchor);
    let want = layout.world(crate::grid::GridPos::new(0, 0));
    commands.entity(map).insert(TilemapBundle {
        grid_size,
        map_type,
        size: map_size,
        storage,
        tile_size,
        texture: TilemapTexture::Single(texture),
        anchor,
        transform: Transform::from_translation((want - local).extend(0.0)),
        ..default()
    });

    // Frame the board, leaving room for the legend and the log panel on the right.
    const PANEL: f32 = 446.0;
    if let Ok((mut projection, mut transform)) = camera.single_mut() {
        let window = windows.iter().next().map_or(Vec2::new(1280.0, 800.0), |w| w.size());
        let extent = layout.extent() + Vec2::new(tw, th);
        let usable = Vec2::new(window.x - PANEL, window.y - 80.0).max(Vec2::splat(100.0));
        let scale = (extent.x / usable.x).max(extent.y / usable.y).max(0.25);
        if let Projection::Orthographic(o) = &mut *projection {
            o.scale = scale;
        }
        transform.translation = Vec3::new(PANEL / 2.0 * scale, 0.0, transform.translation.z);
    }
    commands.insert_resource(layout);
}

fn spawn_legend(mut commands: Commands, field: Option<Res<Battlefield>>, level_name: Option<Res<LevelName>>) {
    let variant = field.map_or("-".to_string(), |f| f.variant.to_string());
    let name = level_name.map_or("Fivefoot".to_string(), |n| n.0.clone());
    commands.spawn((
        Node { position_type: PositionType::Absolute, top: px(8), left: px(12), ..default() },
        Text::new(format!("{name}  |  rules: {variant}")),
        TextFont::from_font_size(20.0),
        TextColor(Color::WHITE),
    ));
    commands.spawn((
        Node { position_type: PositionType::Absolute, bottom: px(8), left: px(12), ..default() },
        Text::new("Legend:  floor   # wall   ~ difficult (x2)   = low wall (x2, cover)"),
        TextFont::from_font_size(16.0),
        TextColor(Color::srgb(0.85, 0.85, 0.85)),
    ));
}

/// The level's display name.
#[derive(Resource, Clone, Debug)]
pub struct LevelName(pub String);

/// A unit's token on the board.
#[derive(Component)]
pub struct Token {
    pub unit: Entity,
}

#[derive(Component)]
struct HpBar {
    unit: Entity,
    width: f32,
}

fn spawn_tokens(
    mut commands: Commands,
    layout: Option<Res<BoardLayout>>,
    mut images: ResMut<Assets<Image>>,
    mut disc: Local<Option<Handle<Image>>>,
    new_units: Query<(Entity, &Combatant, &Side, &Body), Added<Combatant>>,
) {
    let Some(layout) = layout else { return };
    let disc = disc.get_or_insert_with(|| images.add(art::token_disc(128))).clone();
    for (unit, c, side, body) in &new_units {
        let size = layout.tile * body.size.side() as f32 * 0.86;
        let bar_w = size * 0.8;
        commands.spawn((
            Token { unit },
            Sprite {
                image: disc.clone(),
                color: side_colour(&side.0),
                custom_size: Some(Vec2::splat(size)),
                ..default()
            },
            Transform::from_xyz(0.0, 0.0, 10.0),
            children![
                (
                    Text2d::new(c.id.clone()),
                    TextFont::from_font_size((size * 0.26).clamp(10.0, 22.0)),
                    TextColor(Color::WHITE),
                    Transform::from_xyz(0.0, 0.0, 1.0),
                ),
                (
                    Sprite::from_color(Color::srgb(0.1, 0.1, 0.1), Vec2::new(bar_w + 2.0, 6.0)),
                    Transform::from_xyz(0.0, -size * 0.5 - 2.0, 1.0),
                ),
                (
                    HpBar { unit, width: bar_w },
                    Sprite::from_color(Color::srgb(0.2, 0.85, 0.3), Vec2::new(bar_w, 4.0)),
                    Transform::from_xyz(0.0, -size * 0.5 - 2.0, 2.0),
                ),
            ],
        ));
    }
}

fn place_tokens(
    layout: Option<Res<BoardLayout>>,
    units: Query<(&Position, &Body)>,
    moved: Query<(), Or<(Changed<Position>, Changed<Body>)>>,
    new_tokens: Query<(), Added<Token>>,
    mut tokens: Query<(&Token, &mut Transform)>,
) {
    let Some(layout) = layout else { return };
    if moved.is_empty() && new_tokens.is_empty() {
        return; // nothing moved this frame
    }
    for (token, mut transform) in &mut tokens {
        if let Ok((pos, body)) = units.get(token.unit) {
            let fp = crate::grid::Footprint::new(pos.0, body.size.side());
            let c = layout.footprint_centre(fp);
            transform.translation.x = c.x;
            transform.translation.y = c.y;
        }
    }
}

fn update_hp_bars(units: Query<&Health>, mut bars: Query<(&HpBar, &mut Sprite, &mut Transform)>) {
    for (bar, mut sprite, mut transform) in &mut bars {
        if let Ok(h) = units.get(bar.unit) {
            let frac = (h.hp.max(0) as f32 / h.max.max(1) as f32).clamp(0.0, 1.0);
            sprite.custom_size = Some(Vec2::new(bar.width * frac, 4.0));
            transform.translation.x = -bar.width * (1.0 - frac) / 2.0;
            sprite.color = if frac > 0.5 {
                Color::srgb(0.2, 0.85, 0.3)
            } else if frac > 0.25 {
                Color::srgb(0.9, 0.75, 0.2)
            } else {
                Color::srgb(0.9, 0.25, 0.2)
            };
        }
    }
}

/// The fallen are greyed out; the dead leave the board.
fn show_token_state(
    units: Query<(&Conditions, &Side), Changed<Conditions>>,
    mut tokens: Query<(&Token, &mut Sprite, &mut Visibility)>,
) {
    for (token, mut sprite, mut vis) in &mut tokens {
        if let Ok((cond, side)) = units.get(token.unit) {
            *vis = if cond.has(Condition::Dead) { Visibility::Hidden } else { Visibility::Inherited };
            sprite.color =
                if cond.has(Condition::Unconscious) { Color::srgb(0.35, 0.35, 0.35) } else { side_colour(&side.0) };
        }
    }
}
