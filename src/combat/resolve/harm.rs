//! What damage does, as the rules outside the harm pipeline reach it: a wound (carried
//! out by the systems of the `HarmSchedule`: hit points lost, dropping, dying and death),
//! conditions gained and lost, grapples released, and death.

use super::strike::{A_COMBATANT, id};
use super::*;
use crate::combat::battle::{Derived, EventLog, change_condition, run_with, with_taken};
use crate::combat::fighter::Grapple;
use crate::combat::struck::{Harm, HarmSchedule};
use crate::rules::{Body, Combatant, Conditions, Health, Stats};
use crate::variants::{Dropped, RuleChoices};
use bevy::ecs::system::SystemState;
use bevy::prelude::{Entity, Query, ResMut, World};

/// `amount` hit points from `a` to `t` (the dice rolled and terms named), dealt by the
/// harm pipeline on the battle's world.
pub(crate) fn apply_damage(
    world: &mut World,
    a: Entity,
    t: Entity,
    amount: i32,
    nonlethal: bool,
    dice: String,
    rolls: Vec<i32>,
    modifiers: Vec<Modifier>,
) {
    let harm = Harm { nonlethal, dice, rolls, modifiers, ..Harm::new(a, t, None, amount) };
    run_with(world, HarmSchedule, harm);
}

/// Combatant `e` gains condition `c` (loses it, if not `gained`), on the battle's world:
/// logged, and the derived maps marked stale, if that changes its conditions. Whether it did.
pub(crate) fn set_condition(world: &mut World, e: Entity, c: Condition, gained: bool) -> bool {
    let unit = id(world, e);
    with_log_and_maps(world, |world, log, derived| {
        let mut conditions = world.get_mut::<Conditions>(e).expect(A_COMBATANT);
        change_condition(&unit, &mut conditions, c, gained, log, derived)
    })
}

/// Runs `work` over the world with the battle's log and derived maps in hand: a change of
/// conditions is logged and marks the maps stale (`change_condition`).
fn with_log_and_maps<U>(world: &mut World, work: impl FnOnce(&mut World, &mut EventLog, &mut Derived) -> U) -> U {
    with_taken(world, |world, log: &mut EventLog| {
        with_taken(world, |world, derived: &mut Derived| work(world, log, derived))
    })
}

/// Ends `e`'s grapple for both, on the battle's world, as the grapple systems end one
/// ([`release_both`]: the one it is locked with lets go first).
pub(crate) fn release(world: &mut World, e: Entity) {
    let other = world.get::<Grapple>(e).expect(A_COMBATANT).with;
    let mut state = SystemState::<(Grapplers, ResMut<EventLog>, ResMut<Derived>)>::new(world);
    let (mut fighters, mut log, mut derived) =
        state.get_mut(world).expect("the world holds a battle (`store::furnish`)");
    release_both(e, other, &mut fighters, &mut log, &mut derived);
}

/// The grapplers' components that breaking free reads and changes.
pub(crate) type Grapplers<'w, 's> =
    Query<'w, 's, (&'static Combatant, &'static Stats, &'static Body, &'static mut Grapple, &'static mut Conditions)>;

/// Ends the grapple of `me` and `other` for both: neither holds, pins or is grappled (the
/// other lets go first).
pub(crate) fn release_both(
    me: Entity,
    other: Option<Entity>,
    fighters: &mut Grapplers,
    log: &mut EventLog,
    derived: &mut Derived,
) {
    for who in [other, Some(me)].into_iter().flatten() {
        let Ok((combatant, _, _, mut grapple, mut conditions)) = fighters.get_mut(who) else { continue };
        lets_go(&combatant.id, &mut grapple, &mut conditions, log, derived);
    }
}

/// One grappler's part in a grapple's end: it neither holds nor pins, is held by nobody,
/// and is no longer pinned or grappled (each condition lost is logged).
fn lets_go(unit: &str, grapple: &mut Grapple, conditions: &mut Conditions, log: &mut EventLog, derived: &mut Derived) {
    *grapple = Grapple::default();
    for condition in [Condition::Pinned, Condition::Grappled] {
        change_condition(unit, conditions, condition, false, log, derived);
    }
}

/// Death of combatant `e`, on the battle's world: no longer dying or stable, dead.
pub(crate) fn kill(world: &mut World, e: Entity) {
    with_log_and_maps(world, |world, log, derived| {
        if let Ok((who, mut conditions)) = world.query::<(&Combatant, &mut Conditions)>().get_mut(world, e) {
            dies(who, &mut conditions, log, derived);
        }
    })
}

/// `who` dies: no longer dying or stable, dead.
fn dies(who: &Combatant, conditions: &mut Conditions, log: &mut EventLog, derived: &mut Derived) {
    for (condition, gained) in [(Condition::Dying, false), (Condition::Stabilized, false), (Condition::Dead, true)] {
        change_condition(&who.id, conditions, condition, gained, log, derived);
    }
}

/// A fighter down, as the variant's data has it: dead at its threshold (no longer dying or
/// stable), else dying below 0 where that is the rule and it is not stable.
pub(crate) fn death_check(
    rules: &RuleChoices,
    who: &Combatant,
    health: &Health,
    stats: &Stats,
    conditions: &mut Conditions,
    log: &mut EventLog,
    derived: &mut Derived,
) {
    if rules.death.reached(health.hp, stats.def.abilities.con, health.death_fails) {
        dies(who, conditions, log, derived);
    } else if rules.dropped == Dropped::DyingBelowZero && health.hp < 0 && !conditions.has(Condition::Stabilized) {
        change_condition(&who.id, conditions, Condition::Dying, true, log, derived);
    }
}
