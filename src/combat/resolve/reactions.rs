//! Attacks of opportunity: who may react to whom, what provokes (leaving, firing or
//! casting in melee).

use super::*;
use crate::combat::battle::run_with;
use crate::combat::battle::store::{self, EventLog, Record, TakenInStrike};
use crate::combat::fighter::Reactions;
use crate::rules::{Battlefield, Wielded};
use bevy::prelude::{Entity, World};

/// Whether `reactor` may react to `mover` now, under the variant's budget of reactions.
pub(super) fn can_react(b: &Battle, reactor: usize, mover: usize) -> bool {
    let f = b.fighters.at(reactor);
    if !f.can_act() || f.wielded().def.is_ranged() {
        return false;
    }
    let allowance = reaction_allowance(b, reactor);
    b.rules().may_react(b, reactor, mover, allowance)
}

/// An attack of opportunity (free attack) by `reactor` on `mover`, if allowed, on the
/// battle's world.
pub(crate) fn opportunity(world: &mut World, reactor: Entity, mover: Entity, trigger: &str) {
    refresh(world);
    let (legal, at, by) = {
        let b = store::read(world);
        let (r, m) = (seat(&b, reactor), seat(&b, mover));
        let legal =
            can_react(&b, r, m) && attack::profile(&b, r, m, &AttackKind::Opportunity, &AttackContext::default()).legal;
        (legal, b.fighters.position[m].0, r)
    };
    if !legal {
        return;
    }
    if foresee(world, by, trigger) {
        return;
    }
    let (by, target) = (id(world, reactor), id(world, mover));
    let aoo = CombatEvent::AttackOfOpportunity { by, target: target.clone(), at, trigger: trigger.into() };
    world.resource_mut::<EventLog>().push(aoo);
    // osr-segments: "a free attack taken will break concentration (e.g. spell casting)".
    run_with(world, DistractedSchedule, Distracted { unit: reactor });
    world.resource_mut::<Record>().stats.attacks_of_opportunity += 1;
    let mut reactions = world.get_mut::<Reactions>(reactor).expect(A_COMBATANT);
    reactions.used += 1;
    reactions.this_round += 1;
    reactions.free_attacked_by.insert(target);
    world.resource_mut::<TakenInStrike>().0.push(Taken::AttackOfOpportunity { by: reactor });
    roll_attack(world, reactor, mover, AttackKind::Opportunity, &AttackContext::default());
}

/// Foes threatening a ranged attacker get their attacks of opportunity first, where the
/// variant says firing provokes.
pub(super) fn ranged_provokes(world: &mut World, a: Entity) {
    let ranged = world.get::<Wielded>(a).expect(A_COMBATANT).def.is_ranged();
    let variant = world.resource::<Battlefield>().variant;
    if ranged && variant.numbers().provoked_by.contains(&crate::variants::Provoking::Firing) {
        provoke_threateners(world, a, "fires in melee");
    }
}

/// Every foe threatening `a` gets its attack of opportunity, first to last; stops if `a`
/// drops.
pub(crate) fn provoke_threateners(world: &mut World, a: Entity, trigger: &str) {
    refresh(world);
    let threateners: Vec<Entity> = {
        let b = store::read(world);
        let view = b.view();
        let me = seat(&b, a);
        let seats = view.threat.threateners_of(b.fighters.at(me).footprint()) & view.roster.foes_of(me);
        rules::roster::indices(seats).map(|r| b.fighters.entity(r)).collect()
    };
    for r in threateners {
        opportunity(world, r, a, trigger);
        if !in_fight(world, a) {
            return;
        }
    }
}

/// How many reactions (attacks of opportunity) a fighter has per window.
pub fn reaction_allowance(b: &Battle, i: usize) -> u32 {
    reactions_allowed(&b.fighters.stats[i])
}

/// The reactions a window allows a combatant of these stats: one, or with Combat Reflexes
/// one plus its Dexterity modifier.
pub fn reactions_allowed(stats: &crate::rules::Stats) -> u32 {
    if stats.has_trait("combat_reflexes") {
        1 + crate::level::ability_mod(stats.def.abilities.dex).max(0) as u32
    } else {
        1
    }
}

impl Battle<'_, '_> {
    /// Whether `reactor` could strike `mover` now with an attack of opportunity or the
    /// variant's reaction: able to act, armed for it, and with a reaction left.
    pub fn can_react(&self, reactor: usize, mover: usize) -> bool {
        can_react(self, reactor, mover)
    }
}
