//! The rules made visible on the board: the hovered unit's threatened squares, the enemy
//! threat layer shaded by threateners, the selected unit's movement range, the path to
//! the hovered square with its cost and a marker naming each foe whose attack of
//! opportunity it provokes, and, against a hovered foe, the cover lines and flanking
//! partners. `compute_preview` is pure (a battle in, a `Preview` out); the systems only
//! paint it.

pub mod ai_squares;
mod labels;

use crate::combat::attack::AttackProfile;
use crate::combat::plugin::BattleRes;
use crate::combat::{BattleWorld, Command};
use crate::control::plugin::{Pointer, Selection, human_actor};
use crate::control::{Tool, plan_for_click};
use crate::game::Screen;
use crate::grid::{Footprint, GridPos};
use crate::input::{GameAction, Presses};
use crate::rules::cover::CoverResult;
use crate::rules::{self, MoveMode, Position};
use crate::view::art::CellMasks;
use crate::view::layout::BoardLayout;
use bevy::prelude::*;

/// Which optional layers are on.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layers {
    /// Every square the player's foes threaten (everyone's when watching), shaded by how many.
    pub enemy_threat: bool,
    /// The selected unit's movement range for the tool in hand.
    pub range: bool,
    /// Cover and flanking lines against the hovered foe.
    pub lines: bool,
}

impl Default for Layers {
    fn default() -> Self {
        Layers { enemy_threat: false, range: true, lines: true }
    }
}

/// A move the player is aiming.
#[derive(Clone, Debug, PartialEq)]
pub struct PathPreview {
    pub command: Command,
    pub squares: Vec<GridPos>,
    pub cost_ft: u32,
    /// Where each attack of opportunity happens and who makes it.
    pub provokes: Vec<(GridPos, String)>,
}

/// An attack the player is aiming.
#[derive(Clone, Debug, PartialEq)]
pub struct AttackPreview {
    pub attacker: usize,
    /// Where the attack is made from: where the attacker stands, or where its charge ends.
    /// The terms, the chance, the cover lines and the flanking lines are all from here.
    pub from: Footprint,
    pub target: usize,
    pub command: Command,
    pub profile: AttackProfile,
    pub cover: CoverResult,
    pub flanking_partners: Vec<usize>,
}

/// Everything the board shows beyond terrain and tokens.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Preview {
    pub hovered_unit: Option<usize>,
    /// Squares the hovered unit threatens.
    pub hovered_threat: Vec<GridPos>,
    /// Squares the player's foes threaten, with how many threaten each.
    pub enemy_threat: Vec<(GridPos, u32)>,
    /// Where the selected unit can go with the tool in hand, and whether it provokes (with a
    /// foe tool: the squares of the foes it can be used on).
    pub range: Vec<(GridPos, bool)>,
    pub path: Option<PathPreview>,
    pub attack: Option<AttackPreview>,
    /// Attacks of opportunity the aimed action draws other than those along its path
    /// (firing or casting in melee, a maneuver…): who makes each and what provokes it. They
    /// happen where the actor stands.
    pub provokes: Vec<(String, String)>,
    /// Why the hovered square or foe cannot be acted on.
    pub refusal: Option<String>,
    /// A foe behind total cover from the actor: the corner-rule lines that prove it.
    pub total_cover: Option<(usize, CoverResult)>,
    /// A foe hovered that the tool in hand cannot be used on now, not behind total cover:
    /// the cover it has from the actor where it stands, its lines drawn on the lines layer
    /// (where cover would come from before the actor closes or takes aim).
    pub far_cover: Option<(usize, CoverResult)>,
    /// Where the acting unit stands, for markers of what its action provokes.
    pub actor_at: Option<GridPos>,
}

/// Works out the preview for a battle, the player's sides, the selection, the hovered
/// square and the layers. Never changes the battle.
pub fn compute_preview(
    battle: &BattleWorld,
    humans: &[String],
    sel: &Selection,
    hover: Option<GridPos>,
    layers: Layers,
) -> Preview {
    let mut out = Preview::default();
    let b = battle.read();
    let hovered = hover.and_then(|c| {
        (0..b.fighters.len()).find(|&i| b.fighters.conditions[i].alive() && b.fighters.at(i).footprint().contains(c))
    });
    {
        let view = b.view();
        if let Some(i) = hovered {
            out.hovered_unit = Some(i);
            out.hovered_threat = view.threat.squares_of(i).to_vec();
        }
        if layers.enemy_threat {
            // The player's foes; when only watching, everyone.
            let foes: rules::UnitMask = (0..b.fighters.len())
                .filter(|&i| !humans.contains(&b.fighters.side[i].0) && b.fighters.conditions[i].in_fight())
                .fold(0, |m, i| m | rules::roster::bit(i));
            for y in 0..b.field.terrain.height() {
                for x in 0..b.field.terrain.width() {
                    let p = GridPos::new(x, y);
                    let n = (view.threat.threateners(p) & foes).count_ones();
                    if n > 0 {
                        out.enemy_threat.push((p, n));
                    }
                }
            }
        }
    }
    let actor = b.actor().filter(|&i| !b.is_over() && humans.contains(&b.fighters.side[i].0));
    let Some(actor) = actor.filter(|&a| sel.unit == Some(a)) else { return out };
    let aims_at_units = sel.tool.aims_at_foe() || sel.tool.aims_at_friend();
    if layers.range && aims_at_units {
        // With a foe tool in hand, the foes it can be used on now (a charge's reach, a
        // trip's, a bow's, a spell's…); with a healing spell, the friends it reaches.
        let friendly = sel.tool.aims_at_friend();
        let units: Vec<usize> = (0..b.fighters.len())
            .filter(|&t| b.fighters.conditions[t].alive() && (b.fighters.side[t] == b.fighters.side[actor]) == friendly)
            .collect();
        for t in units {
            let cmd = sel.tool.command(b.fighters.position[t].0, &b.fighters.combatant[t].id.clone());
            if battle.validate(&cmd).is_ok() {
                out.range.extend(b.fighters.at(t).footprint().cells().map(|c| (c, false)));
            }
        }
    }
    if layers.range && !aims_at_units {
        let mode = if sel.tool == Tool::Step { MoveMode::Step } else { MoveMode::Move };
        let probe = sel.tool.command(b.fighters.position[actor].0, "");
        if b.affordable(&probe).is_ok() {
            let view = b.view();
            let mut allowance = rules::allowance_ft(&view, actor, mode);
            let speed = b.fighters.stats[actor].def.speed_ft;
            match sel.tool {
                Tool::Dash => allowance = speed * 3 / 2,
                Tool::Tumble => allowance = speed / 2,
                _ if mode == MoveMode::Move && b.fighters.conditions[actor].has(crate::rules::Condition::Prone) => {
                    allowance /= 2
                }
                _ => {}
            }
            let range = rules::movement_range(&view, actor, mode, allowance);
            let here = b.fighters.position[actor].0;
            out.range = range
                .destinations(&view)
                .into_iter()
                .filter(|(p, _, _)| *p != here)
                .map(|(p, _, n)| (p, n > 0))
                .collect();
        }
    }
    let Some(cell) = hover else { return out };
    if b.fighters.at(actor).footprint().contains(cell) {
        return out;
    }
    out.actor_at = Some(b.fighters.position[actor].0);
    match plan_for_click(battle, sel.tool, cell) {
        Ok(plan) => {
            let cmd = plan.command.clone();
            // Every attack of opportunity the action draws, as the rules resolve it; those
            // along the path are marked where they happen.
            let on_path: Vec<usize> = plan.path.iter().flat_map(|p| p.provokes.iter().map(|x| x.by)).collect();
            out.provokes = battle
                .provocations(&cmd)
                .into_iter()
                .filter(|p| !on_path.contains(&p.by))
                .map(|p| (b.fighters.combatant[p.by].id.clone(), p.trigger))
                .collect();
            if let Some(path) = &plan.path {
                out.path = Some(PathPreview {
                    command: cmd.clone(),
                    squares: path.squares.clone(),
                    cost_ft: path.cost_ft,
                    provokes: path.provokes.iter().map(|p| (p.from, b.fighters.combatant[p.by].id.clone())).collect(),
                });
            }
            if let Some(profile) = plan.attack
                && let Some(t) = hovered
            {
                // A charge's attack is made where the charge ends: its lines are seen from
                // there, on a fork of the battle with the charger moved (as its terms were).
                let end = plan.path.as_ref().and_then(|p| p.squares.last().copied());
                let charge_from = end.filter(|_| matches!(cmd, Command::Charge { .. }));
                let fork = charge_from.map(|end| {
                    let mut fork = battle.fork(true);
                    fork.scene().fighter::<Position>(actor).0 = end;
                    fork
                });
                let read = fork.as_ref().map_or_else(|| battle.read(), BattleWorld::read);
                let view = read.view();
                out.attack = Some(AttackPreview {
                    attacker: actor,
                    from: read.fighters.at(actor).footprint(),
                    target: t,
                    command: cmd,
                    profile,
                    cover: rules::cover_between(&view, actor, t, true),
                    flanking_partners: rules::flanking(&view, actor, t).partners,
                });
            }
        }
        Err(why) => {
            out.refusal = Some(why);
            // A foe the tool cannot be used on now: behind total cover, the blocked lines
            // that say so; otherwise the cover it has from here.
            if let Some(t) = hovered.filter(|&t| b.fighters.side[t] != b.fighters.side[actor])
                && (sel.tool.aims_at_foe() || sel.tool == Tool::Move)
            {
                let cover = rules::cover_between(&b.view(), actor, t, true);
                if !cover.can_target && cover.cover == rules::CoverKind::Total {
                    out.total_cover = Some((t, cover));
                } else {
                    out.far_cover = Some((t, cover));
                }
            }
        }
    }
    out
}

pub struct OverlayPlugin;

impl Plugin for OverlayPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(ai_squares::AiSquaresPlugin);
        app.init_resource::<Layers>().init_resource::<Preview>().init_resource::<CellMasks>().add_systems(
            Update,
            (toggle_layers, update_preview, spawn_cells, paint_cells, label_preview, draw_lines)
                .chain()
                .after(crate::rules::RulesSet::Derive)
                .run_if(resource_exists::<BattleRes>.and_then(resource_exists::<BoardLayout>)),
        );
    }
}

/// Each press toggles a layer, so two taps inside one frame leave it as it was.
pub fn toggle_layers(presses: Res<Presses>, mut layers: ResMut<Layers>) {
    let odd = |action| presses.count(action) % 2 == 1;
    if odd(GameAction::ToggleThreatLayer) {
        layers.enemy_threat = !layers.enemy_threat;
    }
    if odd(GameAction::ToggleRangeLayer) {
        layers.range = !layers.range;
    }
    if odd(GameAction::ToggleLinesLayer) {
        layers.lines = !layers.lines;
    }
}

fn update_preview(
    res: Res<BattleRes>,
    sel: Res<Selection>,
    pointer: Res<Pointer>,
    layers: Res<Layers>,
    mut preview: ResMut<Preview>,
) {
    if !(res.is_changed() || sel.is_changed() || pointer.is_changed() || layers.is_changed()) {
        return;
    }
    let hover = if pointer.over_ui { None } else { pointer.cell };
    let humans = res.human_sides.clone();
    let p = compute_preview(&res.battle, &humans, &sel, hover, *layers);
    preview.set_if_neq(p);
}

/// A translucent square (or hex) over one board cell.
#[derive(Component)]
struct OverlayCell(GridPos);

fn spawn_cells(
    mut commands: Commands,
    layout: Res<BoardLayout>,
    cells: Query<(), With<OverlayCell>>,
    mut images: ResMut<Assets<Image>>,
    mut masks: ResMut<CellMasks>,
) {
    if !cells.is_empty() {
        return;
    }
    spawn_cell_grid(&mut commands, (&mut masks, &mut images), &layout, 5.0, Screen::Skirmish, OverlayCell);
}

const PATH: Color = Color::srgba(0.35, 0.95, 1.0, 0.55);
const AOO: Color = Color::srgba(1.0, 0.15, 0.1, 0.75);
const HOVER_THREAT: Color = Color::srgba(1.0, 0.6, 0.1, 0.45);
const RANGE: Color = Color::srgba(0.3, 0.55, 1.0, 0.30);
const RANGE_PROVOKES: Color = Color::srgba(1.0, 0.75, 0.2, 0.30);

/// The colour each cell gets, by priority: path, AoO markers, the hovered unit's threat,
/// movement range, enemy threat.
pub fn cell_colours(p: &Preview, width: i32, height: i32) -> Vec<Option<Color>> {
    let mut out = vec![None; (width * height).max(0) as usize];
    let mut put = |c: GridPos, colour: Color| {
        if c.x >= 0 && c.y >= 0 && c.x < width && c.y < height {
            out[(c.y * width + c.x) as usize] = Some(colour);
        }
    };
    for &(c, n) in &p.enemy_threat {
        put(c, Color::srgba(0.9, 0.1, 0.1, (0.12 + 0.12 * n as f32).min(0.6)));
    }
    for &(c, provokes) in &p.range {
        put(c, if provokes { RANGE_PROVOKES } else { RANGE });
    }
    for &c in &p.hovered_threat {
        put(c, HOVER_THREAT);
    }
    if let Some(path) = &p.path {
        for &c in &path.squares {
            put(c, PATH);
        }
        for &(c, _) in &path.provokes {
            put(c, AOO);
        }
    }
    if let Some(at) = p.actor_at.filter(|_| !p.provokes.is_empty()) {
        put(at, AOO);
    }
    out
}

fn paint_cells(
    preview: Res<Preview>,
    layout: Res<BoardLayout>,
    mut cells: Query<(&OverlayCell, &mut Sprite, &mut Visibility)>,
    added: Query<(), Added<OverlayCell>>,
) {
    if !preview.is_changed() && added.is_empty() {
        return;
    }
    let colours = cell_colours(&preview, layout.width, layout.height);
    for (cell, mut sprite, mut vis) in &mut cells {
        let c = colours.get((cell.0.y * layout.width + cell.0.x) as usize).copied().flatten();
        match c {
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

/// Words on the board: the path's cost, and who makes each attack of opportunity.
#[derive(Component)]
struct PreviewLabel;

fn label_preview(
    mut commands: Commands,
    preview: Res<Preview>,
    layout: Res<BoardLayout>,
    res: Res<BattleRes>,
    old: Query<Entity, With<PreviewLabel>>,
) {
    if !preview.is_changed() {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    const FONT: f32 = 15.0;
    // Labels keep clear of each other and of the tokens' names.
    let read = res.battle.read();
    let names = read.fighters.iter().filter(|f| f.alive()).map(|f| {
        // As the view writes a token's name (`view::spawn_tokens`).
        let font = (layout.tile * f.size().side() as f32 * 0.86 * 0.26).clamp(10.0, 22.0);
        labels::text_box(layout.footprint_centre(f.footprint()), f.id().chars().count(), font)
    });
    let mut placer = labels::LabelPlacer::new(names);
    let mut label = |at: Vec2, text: String, colour: Color| {
        let size = labels::text_box(at, text.chars().count(), FONT).size();
        // Kept on the board.
        let at = layout.keep_on_board(placer.place(at, size), size.x / 2.0);
        commands.spawn((
            PreviewLabel,
            Text2d::new(text),
            TextFont::from_font_size(FONT),
            TextColor(colour),
            Transform::from_translation(at.extend(30.0)),
            DespawnOnExit(Screen::Skirmish),
        ));
    };
    let aoo_colour = Color::srgb(1.0, 0.55, 0.5);
    if let Some(at) = preview.actor_at {
        // Stacked above the actor, so they cover neither it nor the squares beside it.
        for (i, (by, why)) in preview.provokes.iter().enumerate() {
            let lift = layout.tile * 0.65 + 16.0 * i as f32;
            label(layout.world(at) + Vec2::new(0.0, lift), format!("AoO: {by} ({why})"), aoo_colour);
        }
    }
    if let Some((t, _)) = &preview.total_cover
        && let Some(fp) = read.fighters.get(*t).map(|f| f.footprint())
    {
        let above = layout.footprint_centre(fp) + Vec2::new(0.0, layout.tile * 0.6);
        label(above, "total cover".into(), Color::srgb(1.0, 0.35, 0.3));
    }
    let Some(path) = &preview.path else { return };
    if let Some(&last) = path.squares.last() {
        let aoo = if path.provokes.is_empty() { String::new() } else { format!(", {} AoO", path.provokes.len()) };
        label(
            layout.world(last) + Vec2::new(0.0, layout.tile * 0.55),
            format!("{} ft{aoo}", path.cost_ft),
            Color::WHITE,
        );
    }
    for (i, (from, by)) in path.provokes.iter().enumerate() {
        let lift = -layout.tile * 0.3 - 14.0 * i as f32;
        label(layout.world(*from) + Vec2::new(0.0, lift), format!("AoO: {by}"), aoo_colour);
    }
}

fn draw_lines(
    mut gizmos: Gizmos,
    preview: Res<Preview>,
    layers: Res<Layers>,
    layout: Res<BoardLayout>,
    res: Res<BattleRes>,
) {
    if let Some(path) = &preview.path
        && let Some(actor) = human_actor(&res)
    {
        let side = res.battle.read().fighters.body[actor].size.side();
        let mut at = layout.footprint_centre(res.battle.read().fighters.at(actor).footprint());
        for &p in &path.squares {
            let next = layout.footprint_centre(Footprint::new(p, side));
            gizmos.line_2d(at, next, Color::srgb(0.4, 1.0, 1.0));
            at = next;
        }
    }
    if !layers.lines {
        return;
    }
    let standing = preview.total_cover.as_ref().or(preview.far_cover.as_ref()).map(|(_, c)| c);
    let cover = preview.attack.as_ref().map(|a| &a.cover).or(standing);
    for line in cover.map_or(&[][..], |c| c.lines.as_slice()) {
        let colour = line_colour(line.blocker as usize);
        gizmos.line_2d(layout.grid_point(line.from), layout.grid_point(line.to), colour);
    }
    let Some(attack) = &preview.attack else { return };
    let b = res.battle.read();
    let target = layout.footprint_centre(b.fighters.at(attack.target).footprint());
    let me = layout.footprint_centre(attack.from);
    for &partner in &attack.flanking_partners {
        let p = layout.footprint_centre(b.fighters.at(partner).footprint());
        let purple = Color::srgb(0.85, 0.4, 1.0);
        gizmos.line_2d(me, target, purple);
        gizmos.line_2d(target, p, purple);
        gizmos.circle_2d(p, layout.tile * 0.5, purple);
    }
}

/// One hidden, tintable cell sprite over every square of the board at height `z`, each
/// tagged by `marker` and gone when `screen` is left: what an overlay paints.
pub fn spawn_cell_grid<M: Component>(
    commands: &mut Commands,
    (masks, images): (&mut CellMasks, &mut Assets<Image>),
    layout: &BoardLayout,
    z: f32,
    screen: Screen,
    marker: impl Fn(GridPos) -> M,
) {
    let mask = masks.get(images, layout.shape, layout.tile, layout.tile_height());
    let size = Vec2::new(layout.tile, layout.tile_height());
    for y in 0..layout.height {
        for x in 0..layout.width {
            let p = GridPos::new(x, y);
            commands.spawn((
                marker(p),
                Sprite { image: mask.clone(), custom_size: Some(size), color: Color::NONE, ..default() },
                Transform::from_translation(layout.world(p).extend(z)),
                Visibility::Hidden,
                DespawnOnExit(screen),
            ));
        }
    }
}

/// The colour of a line of sight by how much stands in its way, from 0 (nothing: green)
/// to 3 (a wall, or total cover: red): a `Blocker` or a `CoverKind` in its order, which
/// runs from nothing to a wall. Play and the editor's cover layer share it.
pub fn line_colour(severity: usize) -> Color {
    match severity {
        0 => Color::srgb(0.3, 1.0, 0.4),
        1 => Color::srgb(1.0, 0.9, 0.2),
        2 => Color::srgb(1.0, 0.55, 0.1),
        _ => Color::srgb(1.0, 0.2, 0.2),
    }
}

#[cfg(test)]
mod tests {
    use super::line_colour;
    use crate::rules::CoverKind;
    use crate::rules::cover::Blocker;

    /// A line's colour is read off the order of `Blocker` and `CoverKind`: both run from
    /// nothing in the way (green) to a wall (red), and the middle ones differ.
    #[test]
    fn blockers_and_cover_share_the_palette_in_order() {
        let blockers =
            [Blocker::Clear, Blocker::Creature, Blocker::LowWall, Blocker::Wall].map(|b| line_colour(b as usize));
        let cover =
            [CoverKind::None, CoverKind::Soft, CoverKind::Cover, CoverKind::Total].map(|c| line_colour(c as usize));
        assert_eq!(blockers, cover);
        assert_eq!(blockers[0], bevy::prelude::Color::srgb(0.3, 1.0, 0.4), "nothing in the way: green");
        assert_eq!(blockers[3], bevy::prelude::Color::srgb(1.0, 0.2, 0.2), "a wall: red");
        assert!(blockers.windows(2).all(|w| w[0] != w[1]));
    }
}
