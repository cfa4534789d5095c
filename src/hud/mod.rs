//! Panels over the board: the clock as the variant has it (round, phase or group, who
//! acts), and the combat log with every roll and modifier. Reads the battle; never
//! changes it.

use crate::combat::plugin::{BattleRes, CombatEventMsg};
use crate::combat::{Battle, clock};
use crate::variant::RulesVariant;
use bevy::prelude::*;

/// How many log lines the panel shows.
pub const LOG_LINES: usize = 14;

pub struct HudPlugin;

impl Plugin for HudPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<CombatLog>()
            .add_systems(Startup, spawn_panels)
            .add_systems(Update, (collect_log, show_log, show_clock).chain());
    }
}

/// Every event line so far, newest last.
#[derive(Resource, Default)]
pub struct CombatLog {
    pub lines: Vec<String>,
}

#[derive(Component)]
struct LogText;

#[derive(Component)]
struct ClockText;

fn spawn_panels(mut commands: Commands) {
    commands.spawn((
        Node {
            position_type: PositionType::Absolute,
            right: px(8),
            top: px(60),
            width: px(430),
            padding: UiRect::all(px(8)),
            ..default()
        },
        BackgroundColor(Color::srgba(0.0, 0.0, 0.0, 0.72)),
        children![(LogText, Text::new(""), TextFont::from_font_size(13.0), TextColor(Color::srgb(0.9, 0.9, 0.85)))],
    ));
    commands.spawn((
        ClockText,
        Node { position_type: PositionType::Absolute, top: px(8), right: px(12), ..default() },
        Text::new(""),
        TextFont::from_font_size(18.0),
        TextColor(Color::srgb(1.0, 0.9, 0.5)),
    ));
}

fn collect_log(mut events: MessageReader<CombatEventMsg>, mut log: ResMut<CombatLog>) {
    for e in events.read() {
        log.lines.push(e.0.describe());
    }
}

fn show_log(log: Res<CombatLog>, mut q: Query<&mut Text, With<LogText>>) {
    if !log.is_changed() {
        return;
    }
    let start = log.lines.len().saturating_sub(LOG_LINES);
    for mut t in &mut q {
        t.0 = log.lines[start..].join("\n");
    }
}

/// The clock in the variant's own words.
pub fn clock_line(b: &Battle) -> String {
    let who = b.actor().map_or("-".to_string(), |a| b.fighters[a].id.clone());
    let c = &b.clock;
    match b.variant {
        RulesVariant::ApPhases => {
            let phase = c.phase.clamp(1, 7);
            let pips: Vec<String> = b
                .fighters
                .iter()
                .enumerate()
                .filter(|(_, f)| f.in_fight())
                .map(|(i, f)| format!("{} {}", f.id, "*".repeat(c.ap.get(i).copied().unwrap_or(0) as usize)))
                .collect();
            format!(
                "Round {} | phase {phase}/7 {} | {who} acts\n{}",
                c.round,
                clock::AP_PHASES[phase as usize - 1],
                pips.join("  ")
            )
        }
        RulesVariant::HexPhases => format!("Turn {} | phase {}/4 | {who} acts", c.round, c.phase),
        RulesVariant::OsrSegments => {
            let groups: Vec<String> =
                c.osr_high.iter().map(|(s, h)| format!("{s} {}", if *h { "HIGH" } else { "LOW" })).collect();
            format!("Round {} (1 min) | {:?} | {} | {who} acts", c.round, c.osr_step, groups.join(", "))
        }
        _ => {
            let order: Vec<&str> = c.order.iter().map(|&i| b.fighters[i].id.as_str()).collect();
            format!("Round {} | {who} acts\ninitiative: {}", c.round, order.join(" > "))
        }
    }
}

fn show_clock(res: Option<Res<BattleRes>>, mut q: Query<&mut Text, With<ClockText>>) {
    let Some(res) = res else { return };
    if !res.is_changed() {
        return;
    }
    let line = match &res.battle.winner {
        Some(Some(w)) => format!("{w} wins after {} rounds", res.battle.clock.round),
        Some(None) => "Draw".to_string(),
        None => clock_line(&res.battle),
    };
    for mut t in &mut q {
        t.0 = line.clone();
    }
}
