//! A fighter dropping (reduced to 0 hit points or fewer), as every variant has it: the
//! systems of the [`DroppedSchedule`], over the dropping fighter's own components. Its
//! grapple is released for both grapplers; then the variant's systems run ([`WhenDropped`]:
//! ap-phases' advanced action lost); then it falls unconscious and prone, dying where the
//! variant's data says so (`rules.dropped`), and is dead at the variant's threshold
//! (`rules.death`).

use super::grapple::{Grapplers, release_both};
use crate::combat::battle::{Derived, EventLog, Seats, change_condition};
use crate::combat::resolve::death_check;
use crate::combat::struck::{DroppedSchedule, Dropping, Drops, WhenDropped};
use crate::rules::{Battlefield, Combatant, Condition, Conditions, Health, Stats};
use crate::variants::Dropped;
use bevy::prelude::*;

pub(super) fn add_dropped(app: &mut App) {
    app.add_schedule(super::rule_schedule(DroppedSchedule)).init_resource::<Dropping>();
    app.configure_sets(DroppedSchedule, WhenDropped.in_set(Drops));
    app.add_systems(
        DroppedSchedule,
        (grapple_released.before(WhenDropped), (falls, dead_or_dying).chain().after(WhenDropped)).in_set(Drops),
    );
}

/// A fighter dropping lets go of its grapple, and is let go of.
fn grapple_released(
    dropping: Res<Dropping>,
    seats: Res<Seats>,
    mut fighters: Grapplers,
    mut log: ResMut<EventLog>,
    mut derived: ResMut<Derived>,
) {
    let Some(&me) = seats.0.get(dropping.unit) else { return };
    let other = fighters.get(me).ok().and_then(|(.., grapple, _)| grapple.with).and_then(|o| seats.0.get(o).copied());
    release_both(me, other, &mut fighters, &mut log, &mut derived);
}

/// It falls unconscious and prone, and dying as the variant has it; a first save failed
/// by the blow (massive damage) counts.
fn falls(
    dropping: Res<Dropping>,
    seats: Res<Seats>,
    field: Res<Battlefield>,
    mut fighters: Query<(&Combatant, &mut Health, &mut Conditions)>,
    mut log: ResMut<EventLog>,
    mut derived: ResMut<Derived>,
) {
    let Some(Ok((who, mut health, mut conditions))) = seats.0.get(dropping.unit).map(|&e| fighters.get_mut(e)) else {
        return;
    };
    let dying = match field.variant.numbers().rules.dropped {
        Dropped::Unconscious => false,
        Dropped::DyingBelowZero => health.hp < 0,
        Dropped::Dying => true,
    };
    let falls_into = [Condition::Unconscious, Condition::Prone].into_iter().chain(dying.then_some(Condition::Dying));
    for condition in falls_into {
        change_condition(&who.id, &mut conditions, condition, true, &mut log, &mut derived);
    }
    health.death_fails = u32::from(dropping.first_save_failed);
}

/// Dead at the variant's threshold, else dying below 0 where that is its rule.
fn dead_or_dying(
    dropping: Res<Dropping>,
    seats: Res<Seats>,
    field: Res<Battlefield>,
    mut fighters: Query<(&Combatant, &Health, &Stats, &mut Conditions)>,
    mut log: ResMut<EventLog>,
    mut derived: ResMut<Derived>,
) {
    let Some(Ok((who, health, stats, mut conditions))) = seats.0.get(dropping.unit).map(|&e| fighters.get_mut(e))
    else {
        return;
    };
    let rules = &field.variant.numbers().rules;
    death_check(rules, who, health, stats, &mut conditions, &mut log, &mut derived);
}
