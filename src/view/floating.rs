//! Floating numbers: damage rises from the target and fades, healing too, a miss says
//! so, and so does a spell lost. The view's
//! reaction to combat events, testable without a window.

use super::layout::BoardLayout;
use crate::combat::CombatEvent;
use crate::combat::plugin::{BattleRes, CombatEventMsg};
use bevy::prelude::*;

/// How long a floating number lives, in seconds.
pub const LIFETIME: f32 = 1.4;

/// A rising, fading label over a unit.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct FloatingText {
    pub text: String,
    pub start: Vec2,
    pub age: f32,
}

pub struct FloatingPlugin;

impl Plugin for FloatingPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            (spawn_floating, rise_and_fade)
                .chain()
                .after(crate::rules::RulesSet::Derive)
                .run_if(resource_exists::<BattleRes>.and_then(resource_exists::<BoardLayout>)),
        );
    }
}

/// What an event shows over its target: text, colour and the unit it floats over.
pub fn floating_for(e: &CombatEvent) -> Option<(String, Color, &str)> {
    match e {
        CombatEvent::Damage { target, total, nonlethal, .. } => {
            let colour = if *nonlethal { Color::srgb(0.6, 0.8, 1.0) } else { Color::srgb(1.0, 0.3, 0.25) };
            Some((format!("-{total}"), colour, target.as_str()))
        }
        CombatEvent::Attack { target, hit: false, .. } => {
            Some(("miss".into(), Color::srgb(0.8, 0.8, 0.8), target.as_str()))
        }
        CombatEvent::Healed { unit, total, .. } => {
            Some((format!("+{total}"), Color::srgb(0.35, 1.0, 0.45), unit.as_str()))
        }
        // A spell countered, interrupted or broken off; a charge or coup de grace spoiled.
        CombatEvent::Spoiled { unit, action, .. } => {
            Some((format!("{action} lost"), Color::srgb(0.75, 0.6, 1.0), unit.as_str()))
        }
        _ => None,
    }
}

fn spawn_floating(
    mut commands: Commands,
    mut events: MessageReader<CombatEventMsg>,
    res: Res<BattleRes>,
    layout: Res<BoardLayout>,
) {
    let mut stacked: Vec<(String, f32)> = vec![];
    for CombatEventMsg(e) in events.read() {
        let Some((text, colour, unit)) = floating_for(e) else { continue };
        let Some(i) = res.battle.index_of(unit) else { continue };
        // Several numbers on one unit in one frame stack upwards.
        let n = stacked.iter().filter(|(u, _)| u == unit).count() as f32;
        stacked.push((unit.to_string(), 0.0));
        let start = layout.footprint_centre(res.battle.read().fighters.at(i).footprint())
            + Vec2::new(0.0, layout.tile * 0.3 + 16.0 * n);
        commands.spawn((
            FloatingText { text: text.clone(), start, age: 0.0 },
            Text2d::new(text),
            TextFont::from_font_size(22.0),
            TextColor(colour),
            Transform::from_translation(start.extend(40.0)),
            DespawnOnExit(crate::game::Screen::Skirmish),
        ));
    }
}

fn rise_and_fade(
    mut commands: Commands,
    time: Res<Time>,
    mut q: Query<(Entity, &mut FloatingText, &mut Transform, &mut TextColor)>,
) {
    for (e, mut f, mut t, mut colour) in &mut q {
        f.age += time.delta_secs();
        if f.age >= LIFETIME {
            commands.entity(e).despawn();
            continue;
        }
        t.translation.y = f.start.y + 30.0 * f.age;
        colour.0 = colour.0.with_alpha(1.0 - f.age / LIFETIME);
    }
}
