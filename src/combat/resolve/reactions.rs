//! Attacks of opportunity: who may react to whom, what provokes (leaving, firing or
//! casting in melee).

use super::*;

/// Whether `reactor` may react to `mover` now, under the variant's budget of reactions.
pub(super) fn can_react(b: &Battle, reactor: usize, mover: usize) -> bool {
    let f = b.fighters.at(reactor);
    if !f.can_act() || f.wielded().def.is_ranged() {
        return false;
    }
    let allowance = reaction_allowance(b, reactor);
    b.rules().may_react(b, reactor, mover, allowance)
}

/// An attack of opportunity (free attack) by `reactor` on `mover`, if allowed.
pub(crate) fn opportunity(b: &mut Battle, reactor: usize, mover: usize, trigger: &str) {
    if !can_react(b, reactor, mover) {
        return;
    }
    b.refresh();
    let at = b.fighters.position[mover].0;
    let profile = attack::profile(b, &b.view(), reactor, mover, &AttackKind::Opportunity, &AttackContext::default());
    if !profile.legal {
        return;
    }
    if b.foresee(reactor, trigger) {
        return;
    }
    let (by, target) = (b.fighters.combatant[reactor].id.clone(), b.fighters.combatant[mover].id.clone());
    b.emit(CombatEvent::AttackOfOpportunity { by, target: target.clone(), at, trigger: trigger.into() });
    // osr-segments: "a free attack taken will break concentration (e.g. spell casting)".
    b.run_rules(DistractedSchedule, Distracted { unit: b.fighters.entity(reactor) });
    b.stats.attacks_of_opportunity += 1;
    let f = &mut b.fighters.reactions[reactor];
    f.used += 1;
    f.this_round += 1;
    f.free_attacked_by.insert(target);
    b.took(Taken::AttackOfOpportunity { by: b.fighters.entity(reactor) });
    roll_attack(b, reactor, mover, AttackKind::Opportunity, &AttackContext::default());
}

/// Foes threatening a ranged attacker get their attacks of opportunity first, where the
/// variant says firing provokes.
pub(super) fn ranged_provokes(b: &mut Battle, a: usize) {
    if b.fighters.wielded[a].def.is_ranged() && provokes(b, crate::variants::Provoking::Firing) {
        provoke_threateners(b, a, "fires in melee");
    }
}

/// Every foe threatening `a` gets its attack of opportunity, first to last; stops if `a`
/// drops.
pub(crate) fn provoke_threateners(b: &mut Battle, a: usize, trigger: &str) {
    b.refresh();
    let view = b.view();
    let threateners: Vec<usize> =
        rules::roster::indices(view.threat.threateners_of(b.fighters.at(a).footprint()) & view.roster.foes_of(a))
            .collect();
    for r in threateners {
        opportunity(b, r, a, trigger);
        if !b.fighters.conditions[a].in_fight() {
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
