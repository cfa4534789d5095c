//! Harm, as every variant has it: the systems of the [`HarmSchedule`], over the hurt
//! fighter's own components, run for each wound. A weapon's damage is rolled first (its
//! dice for its wielder's size, multiplied on a critical, with the flat terms the damage
//! modifier systems weighed). The fighter loses its hit points (or takes nonlethal damage),
//! logged with every die and term; its variant tries its concentration and weighs a heavy
//! blow; nonlethal damage at its hit points knocks it out; reduced to 0 or fewer it drops:
//! its grapple is released for both grapplers, the variant's systems run
//! ([`HarmStep::WhenDropped`]: ap-phases' advanced action lost), and it falls unconscious
//! and prone, dying where the variant's data says so (`rules.dropped`); last, it is dead at
//! the variant's threshold (`rules.death`), or dying below 0 where that is the rule.

use super::grapple::{Grapplers, release_both};
use crate::combat::battle::store::Record;
use crate::combat::battle::{Criticals, Derived, EventLog, change_condition};
use crate::combat::event::CombatEvent;
use crate::combat::fighter::Modifier;
use crate::combat::resolve::death_check;
use crate::combat::struck::{Harm, HarmSchedule, HarmStep, Harms, WeaponBlow};
use crate::rules::{Battlefield, Body, Combatant, Condition, Conditions, Dice, Health, Stats, Wielded};
use crate::variants::Dropped;
use bevy::prelude::*;

pub(super) fn add_harm(app: &mut App) {
    app.add_schedule(super::rule_schedule(HarmSchedule)).init_resource::<Harm>();
    use HarmStep::*;
    app.configure_sets(
        HarmSchedule,
        (DamageRoll, HitPoints, CasterHurt, HeavyBlow, Drops, WhenDropped, Fall, Death).chain().in_set(Harms),
    );
    app.configure_sets(HarmSchedule, HarmStep::WhenDropped.run_if(dropping));
    app.add_systems(
        HarmSchedule,
        (
            damage_rolled.run_if(|harm: Res<Harm>| harm.weapon.is_some()).in_set(HarmStep::DamageRoll),
            hit_points_lost.in_set(HarmStep::HitPoints),
            (knocked_out_by_nonlethal, drops_or_not, grapple_released.run_if(dropping)).chain().in_set(HarmStep::Drops),
            falls.run_if(dropping).in_set(HarmStep::Fall),
            dead_or_dying.in_set(HarmStep::Death),
        ),
    );
}

/// Whether the wound being carried out drops its fighter.
fn dropping(harm: Res<Harm>) -> bool {
    harm.drops
}

/// The wound's hit points (or nonlethal damage) lost, logged with its dice and terms.
fn hit_points_lost(mut harm: ResMut<Harm>, mut fighters: Query<(&Combatant, &mut Health)>, mut log: ResMut<EventLog>) {
    let Ok(attacker) = fighters.get(harm.by).map(|(who, _)| who.id.clone()) else { return };
    let Ok((who, mut health)) = fighters.get_mut(harm.unit) else { return };
    harm.hp_before = health.hp;
    if harm.nonlethal {
        health.nonlethal += harm.amount;
    } else {
        health.hp -= harm.amount;
    }
    log.push(CombatEvent::Damage {
        attacker,
        target: who.id.clone(),
        dice: std::mem::take(&mut harm.dice),
        rolls: std::mem::take(&mut harm.rolls),
        modifiers: std::mem::take(&mut harm.modifiers),
        total: harm.amount,
        nonlethal: harm.nonlethal,
        hp_after: health.hp,
    });
}

/// Nonlethal damage reaching its hit points knocks a fighter still standing out.
fn knocked_out_by_nonlethal(
    harm: Res<Harm>,
    mut fighters: Query<(&Combatant, &Health, &mut Conditions)>,
    mut log: ResMut<EventLog>,
    mut derived: ResMut<Derived>,
) {
    let Ok((who, health, mut conditions)) = fighters.get_mut(harm.unit) else {
        return;
    };
    if health.nonlethal >= health.hp && health.hp > 0 {
        change_condition(&who.id, &mut conditions, Condition::Unconscious, true, &mut log, &mut derived);
    }
}

/// A wound that takes it from above 0 hit points to 0 or fewer (or fails its first save
/// outright) drops it, and how hard it dropped is kept.
fn drops_or_not(mut harm: ResMut<Harm>, mut fighters: Query<&mut Health>) {
    let Ok(mut health) = fighters.get_mut(harm.unit) else { return };
    harm.drops = health.hp <= 0 && harm.hp_before > 0 || harm.first_save_failed;
    if harm.drops {
        health.dropping_damage = harm.amount;
    }
}

/// A fighter dropping lets go of its grapple, and is let go of.
fn grapple_released(harm: Res<Harm>, mut fighters: Grapplers, mut log: ResMut<EventLog>, mut derived: ResMut<Derived>) {
    let me = harm.unit;
    let other = fighters.get(me).ok().and_then(|(.., grapple, _)| grapple.with);
    release_both(me, other, &mut fighters, &mut log, &mut derived);
}

/// It falls unconscious and prone, and dying as the variant has it; a first save failed
/// by the blow (massive damage) counts.
fn falls(
    harm: Res<Harm>,
    field: Res<Battlefield>,
    mut fighters: Query<(&Combatant, &mut Health, &mut Conditions)>,
    mut log: ResMut<EventLog>,
    mut derived: ResMut<Derived>,
) {
    let Ok((who, mut health, mut conditions)) = fighters.get_mut(harm.unit) else {
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
    health.death_fails = u32::from(harm.first_save_failed);
}

/// At 0 hit points or fewer: dead at the variant's threshold, else dying below 0 where
/// that is its rule.
fn dead_or_dying(
    harm: Res<Harm>,
    field: Res<Battlefield>,
    mut fighters: Query<(&Combatant, &Health, &Stats, &mut Conditions)>,
    mut log: ResMut<EventLog>,
    mut derived: ResMut<Derived>,
) {
    let Ok((who, health, stats, mut conditions)) = fighters.get_mut(harm.unit) else {
        return;
    };
    if health.hp <= 0 {
        let rules = &field.variant.numbers().rules;
        death_check(rules, who, health, stats, &mut conditions, &mut log, &mut derived);
    }
}

/// A weapon's damage: its dice for its wielder's size, rolled once, or its multiplier's
/// times on a critical; the flat terms added once (four-actions: "roll and add the
/// appropriate modifiers"), or with each roll on a confirmed critical; at least 1.
fn damage_rolled(
    mut harm: ResMut<Harm>,
    field: Res<Battlefield>,
    fighters: Query<(&Wielded, &Body)>,
    mut dice: ResMut<Dice>,
    mut record: ResMut<Record>,
) {
    let Ok((wielded, body)) = fighters.get(harm.by) else { return };
    let Some(WeaponBlow { critical, terms }) = harm.weapon.take() else { return };
    let weapon = &wielded.def;
    let expr = weapon.damage.scaled_for(body.size);
    let mult = if critical { weapon.crit_mult } else { 1 };
    let multiply_flat = field.variant.numbers().rules.criticals == Criticals::Confirmed;
    let flat: i32 = terms.iter().map(|m| m.value).sum();
    let (mut rolls, mut total) = (Vec::new(), 0i32);
    for k in 0..mult {
        let r = dice.roll_many(expr.count, expr.sides);
        total += r.iter().map(|&x| x as i32).sum::<i32>();
        rolls.extend(r.into_iter().map(|x| x as i32));
        if k == 0 || multiply_flat {
            total += flat;
        }
    }
    let total = total.max(1);
    harm.modifiers = if critical && multiply_flat {
        terms.iter().map(|m| Modifier::new(format!("{} x{mult}", m.source), m.value * mult as i32)).collect()
    } else {
        terms
    };
    harm.dice = if mult > 1 { format!("{}d{} x{mult} critical", expr.count, expr.sides) } else { expr.to_string() };
    record.stats.damage_dealt += total as u64;
    (harm.amount, harm.nonlethal, harm.rolls) = (total, weapon.nonlethal, rolls);
}
