//! The board on screen: the terrain as a bevy_ecs_tilemap (squares, or odd-r hexes for
//! hex-phases) drawn from art generated at start-up, unit tokens sized by footprint in
//! side colours with names and HP bars, a legend, and a camera that frames the board.
//! Reads the rules; never changes them.

pub mod art;
pub mod camera;
pub mod floating;
pub mod layout;
pub mod screenshot;

use crate::combat::plugin::BattleRes;
use crate::combat::{Battle, FighterRef};
use crate::control::vocabulary::VariantBadge;
use crate::game::Screen;
use crate::grid::{Shape, Terrain};
use crate::rules::{Body, Combatant, Condition, Side};
use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;
use layout::BoardLayout;

/// Draws the battlefield held in the rules resources.
pub struct ViewPlugin;

impl Plugin for ViewPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<SideColours>()
            .add_plugins((TilemapPlugin, camera::CameraPlugin, floating::FloatingPlugin))
            .add_systems(Startup, spawn_camera)
            .add_systems(OnEnter(Screen::Skirmish), spawn_board.after(crate::game::SkirmishSetup))
            .add_systems(
                Update,
                (
                    spawn_tokens,
                    place_tokens,
                    glide_tokens,
                    update_hp_bars,
                    show_token_state,
                    mark_selected,
                    hide_small_text,
                )
                    .chain()
                    .after(crate::rules::RulesSet::Derive),
            );
    }
}

/// Colour of a side's tokens (blue, red, then a fixed palette by name order).
/// The sides' colours in the running skirmish (set up with it): the level's own where it
/// gives them, else [`side_colour`].
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct SideColours(pub Vec<crate::level::SideDef>);

impl SideColours {
    pub fn of(&self, side: &str) -> Color {
        colour_of(&self.0, side)
    }
}

/// A side's colour: the one `sides` gives it, else [`side_colour`].
pub fn colour_of(sides: &[crate::level::SideDef], side: &str) -> Color {
    match sides.iter().find(|s| s.name == side).and_then(|s| s.colour) {
        Some((r, g, b)) => Color::srgb_u8(r, g, b),
        None => side_colour(side),
    }
}

/// The colour a side has unless its level chooses one: blue, red, green and yellow, and
/// others one picked from the name.
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

/// The tile of a terrain kind in the atlas `art::terrain_atlas` draws.
pub fn terrain_index(t: Terrain) -> u32 {
    match t {
        Terrain::Floor => 0,
        Terrain::Wall => 1,
        Terrain::Difficult => 2,
        Terrain::LowWall => 3,
    }
}

fn spawn_board(mut commands: Commands, res: Option<Res<BattleRes>>, mut images: ResMut<Assets<Image>>) {
    let Some(res) = res else { return };
    let b = res.battle.read();
    let field = b.field;
    let layout = spawn_tilemap(
        &mut commands,
        &mut images,
        &field.terrain,
        field.variant.shape(),
        DespawnOnExit(Screen::Skirmish),
    );
    commands.insert_resource(layout);
}

/// Spawns `terrain` as a tilemap laid out for `shape` (the map and every tile carry
/// `marker`, so their screen can despawn them) and returns the layout. The play screen and
/// the level editor draw their boards with it.
pub fn spawn_tilemap(
    commands: &mut Commands,
    images: &mut Assets<Image>,
    terrain: &crate::grid::TerrainMap,
    shape: Shape,
    marker: impl Bundle + Clone,
) -> BoardLayout {
    spawn_tilemap_at(commands, images, terrain, shape, marker, Vec2::ZERO)
}

/// [`spawn_tilemap`] with the board centred on `centre` instead of the origin (the
/// variant comparison's boards side by side).
pub fn spawn_tilemap_at(
    commands: &mut Commands,
    images: &mut Assets<Image>,
    terrain: &crate::grid::TerrainMap,
    shape: Shape,
    marker: impl Bundle + Clone,
    centre: Vec2,
) -> BoardLayout {
    let layout = BoardLayout::new(shape, terrain.width(), terrain.height());
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
                .insert(marker.clone())
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
    commands.entity(map).insert(marker);
    commands.entity(map).insert(TilemapBundle {
        grid_size,
        map_type,
        size: map_size,
        storage,
        tile_size,
        texture: TilemapTexture::Single(texture),
        anchor,
        transform: Transform::from_translation((want - local + centre).extend(0.0)),
        ..default()
    });
    layout
}

/// The level's display name.
#[derive(Resource, Clone, Debug)]
pub struct LevelName(pub String);

/// A unit's token on the board.
#[derive(Component)]
pub struct Token {
    pub unit: Entity,
}

/// Where a token is heading; it glides there.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct TokenGoal(pub Vec2);

#[derive(Component)]
struct HpBar {
    unit: Entity,
    width: f32,
}

/// Short condition names under a token.
#[derive(Component)]
struct ConditionBadge {
    unit: Entity,
}

/// A token's name or badge: hidden when zoomed out too far to read.
#[derive(Component)]
struct TokenText;

/// Names and badges show only while a square is at least 26 pixels across on screen:
/// smaller, they are unreadable and cover the board (zoom in, or hover a unit, to read
/// it in the side panel).
fn hide_small_text(
    camera: Query<&Projection, (With<Camera2d>, Changed<Projection>)>,
    layout: Option<Res<BoardLayout>>,
    added: Query<(), Added<TokenText>>,
    all_cameras: Query<&Projection, With<Camera2d>>,
    mut texts: Query<&mut Visibility, With<TokenText>>,
) {
    if camera.is_empty() && added.is_empty() {
        return;
    }
    let Ok(Projection::Orthographic(o)) = all_cameras.single() else { return };
    let tile = layout.map_or(layout::TILE, |l| l.tile);
    let readable = tile / o.scale >= 26.0;
    for mut v in &mut texts {
        v.set_if_neq(if readable { Visibility::Inherited } else { Visibility::Hidden });
    }
}

/// The ring round the acting unit.
#[derive(Component)]
struct ActingRing;

fn spawn_tokens(
    mut commands: Commands,
    layout: Option<Res<BoardLayout>>,
    mut images: ResMut<Assets<Image>>,
    mut disc: Local<Option<Handle<Image>>>,
    new_units: Query<(Entity, &Combatant, &Side)>,
    tokens: Query<&Token>,
    colours: Res<SideColours>,
    res: Option<Res<BattleRes>>,
) {
    let (Some(layout), Some(res)) = (layout, res) else { return };
    if new_units.is_empty() || !tokens.is_empty() {
        return;
    }
    let disc = disc.get_or_insert_with(|| images.add(art::token_disc(128))).clone();
    let b = res.battle.read();
    for (unit, c, side) in &new_units {
        let Some(f) = fighter_of(&b, c) else { continue };
        let size = layout.tile * f.size().side() as f32 * 0.86;
        let bar_w = size * 0.8;
        let at = layout.footprint_centre(f.footprint());
        commands.spawn((
            Token { unit },
            TokenGoal(at),
            DespawnOnExit(Screen::Skirmish),
            Sprite {
                image: disc.clone(),
                color: colours.of(&side.0),
                custom_size: Some(Vec2::splat(size)),
                ..default()
            },
            Transform::from_translation(at.extend(10.0)),
            children![
                (
                    TokenText,
                    Text2d::new(c.id.clone()),
                    TextFont::from_font_size(name_font_size(&c.id, size)),
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
                (
                    ConditionBadge { unit },
                    TokenText,
                    Text2d::new(""),
                    TextFont::from_font_size(12.0),
                    TextColor(Color::srgb(1.0, 0.85, 0.4)),
                    Transform::from_xyz(0.0, size * 0.5 + 6.0, 3.0),
                ),
            ],
        ));
    }
    commands.spawn((
        ActingRing,
        DespawnOnExit(Screen::Skirmish),
        Sprite {
            image: disc,
            color: Color::srgba(1.0, 0.9, 0.3, 0.9),
            custom_size: Some(Vec2::splat(layout.tile)),
            ..default()
        },
        Transform::from_xyz(0.0, 0.0, 9.0),
        Visibility::Hidden,
    ));
}

/// The fighter a token's unit stands for, as the battle has it.
fn fighter<'a, 'w>(b: &'a Battle<'w, 'w>, units: &Query<&Combatant>, unit: Entity) -> Option<FighterRef<'a, 'w, 'w>> {
    fighter_of(b, units.get(unit).ok()?)
}

/// The fighter a combatant names, as the battle has it.
fn fighter_of<'a, 'w>(b: &'a Battle<'w, 'w>, c: &Combatant) -> Option<FighterRef<'a, 'w, 'w>> {
    b.index_of(&c.id).map(|i| b.fighters.at(i))
}

/// Sets each token's goal when the battle moves on (and places new tokens at once).
fn place_tokens(
    layout: Option<Res<BoardLayout>>,
    res: Option<Res<BattleRes>>,
    units: Query<&Combatant>,
    new_tokens: Query<(), Added<Token>>,
    mut tokens: Query<(&Token, &mut TokenGoal)>,
) {
    let (Some(layout), Some(res)) = (layout, res) else { return };
    if !res.is_changed() && new_tokens.is_empty() {
        return; // nothing happened this frame
    }
    let b = res.battle.read();
    for (token, mut goal) in &mut tokens {
        if let Some(f) = fighter(&b, &units, token.unit) {
            goal.set_if_neq(TokenGoal(layout.footprint_centre(f.footprint())));
        }
    }
}

/// Tokens glide to their goals (about 12 squares a second) instead of jumping.
pub fn glide_tokens(
    time: Res<Time>,
    layout: Option<Res<BoardLayout>>,
    mut tokens: Query<(&TokenGoal, &mut Transform)>,
) {
    let step = layout.map_or(48.0, |l| l.tile) * 12.0 * time.delta_secs();
    for (goal, mut t) in &mut tokens {
        let at = t.translation.truncate();
        if at != goal.0 {
            let d = goal.0 - at;
            let next = if d.length() <= step { goal.0 } else { at + d.normalize() * step };
            t.translation.x = next.x;
            t.translation.y = next.y;
        }
    }
}

fn update_hp_bars(
    res: Option<Res<BattleRes>>,
    units: Query<&Combatant>,
    added: Query<(), Added<HpBar>>,
    mut bars: Query<(&HpBar, &mut Sprite, &mut Transform)>,
) {
    let Some(res) = res else { return };
    if !res.is_changed() && added.is_empty() {
        return;
    }
    let b = res.battle.read();
    for (bar, mut sprite, mut transform) in &mut bars {
        if let Some(f) = fighter(&b, &units, bar.unit) {
            let frac = (f.health().hp.max(0) as f32 / f.health().max.max(1) as f32).clamp(0.0, 1.0);
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

/// The short name of a condition shown under a token.
pub fn condition_badge(c: Condition) -> &'static str {
    match c {
        Condition::Prone => "prone",
        Condition::Surprised => "surprised",
        Condition::FlatFooted => "flat-footed",
        Condition::Unconscious => "down",
        Condition::Stunned => "stunned",
        Condition::Dying => "dying",
        Condition::Stabilized => "stable",
        Condition::Dead => "dead",
        Condition::Grappled => "grappled",
        Condition::Delayed => "delayed",
        Condition::Pinned => "pinned",
    }
}

/// A condition in two or three letters, for badges with no room for words (the panel
/// beside the board spells them out for the hovered unit).
pub fn condition_code(c: Condition) -> &'static str {
    match c {
        Condition::Prone => "Pr",
        Condition::Surprised => "Sur",
        Condition::FlatFooted => "FF",
        Condition::Unconscious => "Dn",
        Condition::Stunned => "Stn",
        Condition::Dying => "Dy",
        Condition::Stabilized => "Stb",
        Condition::Dead => "X",
        Condition::Grappled => "Gr",
        Condition::Delayed => "Dl",
        Condition::Pinned => "Pin",
    }
}

/// A character's width on a token, in font sizes (names and badges).
const EM: f32 = 0.6;

/// The font size of a token's name: a quarter of the token, shrunk (to 7 px at least) until
/// the name fits within the token's own width, so two neighbours' names never run together.
pub fn name_font_size(name: &str, token_px: f32) -> f32 {
    let wanted = (token_px * 0.26).clamp(10.0, 22.0);
    let fits = token_px / (name.chars().count().max(1) as f32 * EM);
    wanted.min(fits).max(7.0)
}

/// The badge under a token of `squares_wide` squares: the conditions and the variant's note
/// in words when they fit the token's width, else in codes, shrunk until they fit, so a
/// badge never reaches over a neighbour or past the board's edge. Returns the text and
/// its font size.
pub fn badge_text(conditions: &[Condition], variant_note: &str, squares_wide: i32, tile: f32) -> (String, f32) {
    const FONT: f32 = 12.0;
    let room = tile * squares_wide as f32 * 1.05;
    let words: Vec<&str> = conditions
        .iter()
        .map(|&c| condition_badge(c))
        .chain((!variant_note.is_empty()).then_some(variant_note))
        .collect();
    let full = words.join(" | ");
    if full.chars().count() as f32 * FONT * EM <= room {
        return (full, FONT);
    }
    // The variant's note with its long words cut to four letters ("reac. ready").
    let note: Vec<String> =
        variant_note
            .split(' ')
            .map(|w| {
                if w.chars().count() > 5 {
                    format!("{}.", w.chars().take(4).collect::<String>())
                } else {
                    w.to_string()
                }
            })
            .collect();
    let codes: Vec<String> = conditions
        .iter()
        .map(|&c| condition_code(c).to_string())
        .chain((!variant_note.is_empty()).then(|| note.join(" ")))
        .collect();
    let short = codes.join(" ");
    let font = (room / (short.chars().count().max(1) as f32 * EM)).clamp(6.0, FONT);
    (short, font)
}

/// The fallen are greyed out; the dead leave the board; conditions show as badges.
fn show_token_state(
    res: Option<Res<BattleRes>>,
    units: Query<(&Combatant, &Side, Option<&VariantBadge>)>,
    badges_changed: Query<(), Changed<VariantBadge>>,
    added: Query<(), Added<ConditionBadge>>,
    layout: Option<Res<BoardLayout>>,
    mut tokens: Query<(&Token, &mut Sprite, &mut Visibility)>,
    mut badges: Query<(&ConditionBadge, &mut Text2d, &mut TextFont)>,
    colours: Res<SideColours>,
) {
    let Some(res) = res else { return };
    if !res.is_changed() && badges_changed.is_empty() && added.is_empty() {
        return;
    }
    let b = res.battle.read();
    for (token, mut sprite, mut vis) in &mut tokens {
        if let Ok((c, side, _)) = units.get(token.unit)
            && let Some(f) = fighter_of(&b, c)
        {
            *vis = if f.has(Condition::Dead) { Visibility::Hidden } else { Visibility::Inherited };
            sprite.color =
                if f.has(Condition::Unconscious) { Color::srgb(0.35, 0.35, 0.35) } else { colours.of(&side.0) };
        }
    }
    let tile = layout.map_or(layout::TILE, |l| l.tile);
    for (badge, mut text, mut font) in &mut badges {
        if let Ok((c, _, variant)) = units.get(badge.unit)
            && let Some(f) = fighter_of(&b, c)
        {
            let conditions: Vec<Condition> =
                f.conditions().0.iter().copied().filter(|&c| c != Condition::Dead).collect();
            let note = variant.map_or("", |v| v.0.as_str());
            let (words, size) = badge_text(&conditions, note, f.size().side(), tile);
            text.0 = words;
            font.font_size = FontSize::Px(size);
        }
    }
}

/// A ring under the unit acting now.
fn mark_selected(
    res: Option<Res<crate::combat::plugin::BattleRes>>,
    units: Query<(&Combatant, &Body)>,
    tokens: Query<(&Token, &Transform), Without<ActingRing>>,
    mut ring: Query<(&mut Transform, &mut Sprite, &mut Visibility), With<ActingRing>>,
    layout: Option<Res<BoardLayout>>,
) {
    let (Some(res), Some(layout)) = (res, layout) else { return };
    let Ok((mut rt, mut sprite, mut vis)) = ring.single_mut() else { return };
    let b = res.battle.read();
    let actor = res.battle.actor().map(|i| b.fighters.combatant[i].id.as_str());
    let found = tokens.iter().find_map(|(tok, t)| {
        let (c, body) = units.get(tok.unit).ok()?;
        (Some(c.id.as_str()) == actor).then_some((t.translation, body.size.side()))
    });
    match found {
        Some((at, side)) => {
            rt.translation.x = at.x;
            rt.translation.y = at.y;
            sprite.custom_size = Some(Vec2::splat(layout.tile * side as f32 * 1.02));
            vis.set_if_neq(Visibility::Inherited);
        }
        None => {
            vis.set_if_neq(Visibility::Hidden);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_fits_within_its_token() {
        // A short name keeps the full size; a long one shrinks to the token's width.
        assert!((name_font_size("r_wolf", 44.0) - 11.44).abs() < 1e-4);
        let size = name_font_size("b_champion", 44.0);
        assert!(size < 11.44 && 10.0 * size * 0.6 <= 44.0 + 1e-3, "{size}");
        // Never below 7 px, however long.
        assert_eq!(name_font_size("a_very_long_name_indeed", 44.0), 7.0);
    }

    #[test]
    fn a_badge_fits_under_its_token_in_words_or_in_codes() {
        // Room for "prone" under one 48-px square: words.
        assert_eq!(badge_text(&[Condition::Prone], "", 1, 48.0), ("prone".to_string(), 12.0));
        // "prone | down | dying" is too wide for one square: codes, still at full size.
        let (text, size) = badge_text(&[Condition::Prone, Condition::Unconscious, Condition::Dying], "", 1, 48.0);
        assert_eq!(text, "Pr Dn Dy");
        assert!(size <= 12.0 && text.chars().count() as f32 * size * 0.6 <= 48.0 * 1.05);
        // The variant's note is cut short; a Large token has room for more words.
        let (text, _) = badge_text(&[Condition::Surprised], "reaction ready", 1, 48.0);
        assert_eq!(text, "Sur reac. ready");
        let (text, _) = badge_text(&[Condition::Prone, Condition::Dying], "", 2, 48.0);
        assert_eq!(text, "prone | dying");
        let (text, _) = badge_text(&[Condition::Prone, Condition::Dying], "", 1, 48.0);
        assert_eq!(text, "Pr Dy");
    }
}
