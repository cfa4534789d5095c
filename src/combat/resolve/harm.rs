//! What damage does: hit points lost, conditions gained and lost, grapples released,
//! dropping, dying (each variant's death saves) and death.

use super::*;
use crate::combat::battle::{Derived, EventLog, change_condition};
use crate::combat::fighter::Grapple;
use crate::rules::{Combatant, Conditions, Health, Stats};
use crate::variants::{Dropped, RuleChoices};

/// Damage from outside an attack roll (a trap, a scenario, a test): `amount` hit points
/// from `by` to `t`, with everything that follows from it (dropping, broken concentration).
pub fn wound(b: &mut Battle, by: usize, t: usize, amount: i32) {
    apply_damage(b, by, t, amount, false, "wound".into(), vec![], vec![]);
}

pub(crate) fn apply_damage(
    b: &mut Battle,
    a: usize,
    t: usize,
    amount: i32,
    nonlethal: bool,
    dice: String,
    rolls: Vec<i32>,
    modifiers: Vec<Modifier>,
) {
    let before = b.fighters.health[t].hp;
    if nonlethal {
        b.fighters.health[t].nonlethal += amount;
    } else {
        b.fighters.health[t].hp -= amount;
    }
    let hp_after = b.fighters.health[t].hp;
    let (aid, tid) = (b.fighters.combatant[a].id.clone(), b.fighters.combatant[t].id.clone());
    b.emit(CombatEvent::Damage {
        attacker: aid,
        target: tid.clone(),
        dice,
        rolls,
        modifiers,
        total: amount,
        nonlethal,
        hp_after,
    });
    b.run_rules(DistractedSchedule, Distracted { unit: t, by: Distraction::Hurt(amount) });
    // Massive damage: half of maximum HP or more in one hit.
    let mut auto_fail = false;
    if b.variant.numbers().rules.massive_damage
        && !nonlethal
        && amount * 2 >= b.fighters.health[t].max
        && before > 0
        && hp_after > 0
    {
        let dc = 10 + b.fighters.stats[a].def.hit_dice as i32;
        let bonus = b.fighters.stats[t].fortitude();
        if !b.check(t, "Fortitude (massive damage)", bonus, dc) {
            b.fighters.health[t].hp = 0;
            auto_fail = true;
        }
    }
    if b.fighters.health[t].nonlethal >= b.fighters.health[t].hp
        && b.fighters.health[t].hp > 0
        && gain(b, t, Condition::Unconscious)
    {
        return;
    }
    if b.fighters.health[t].hp <= 0 && before > 0 || auto_fail {
        b.fighters.health[t].dropping_damage = amount;
        drop_fighter(b, t, auto_fail);
    } else if b.fighters.health[t].hp <= 0 {
        check_death(b, t);
    }
}

/// Fighter `i` gains condition `c`, logged; whether it did (it had it already).
pub(crate) fn gain(b: &mut Battle, i: usize, c: Condition) -> bool {
    change(b, i, c, true)
}

/// Fighter `i` loses condition `c`, logged, if it had it.
pub(crate) fn lose(b: &mut Battle, i: usize, c: Condition) {
    change(b, i, c, false);
}

fn change(b: &mut Battle, i: usize, c: Condition, gained: bool) -> bool {
    let Battle { fighters, events, derived, .. } = b;
    let unit = fighters.combatant[i].id.clone();
    crate::combat::battle::change_condition(&unit, &mut fighters.conditions[i], c, gained, events, derived)
}

/// Ends `i`'s grapple for both: the one it is locked with lets go first
/// (`lets_go`).
pub(crate) fn release(b: &mut Battle, i: usize) {
    let Battle { fighters, events, derived, .. } = b;
    let other = fighters.grapple[i].with;
    for who in [other, Some(i)].into_iter().flatten() {
        let unit = &fighters.combatant[who].id;
        lets_go(unit, &mut fighters.grapple[who], &mut fighters.conditions[who], events, derived);
    }
}

/// One grappler's part in a grapple's end: it neither holds nor pins, is held by nobody,
/// and is no longer pinned or grappled (each condition lost is logged).
pub(crate) fn lets_go(
    unit: &str,
    grapple: &mut Grapple,
    conditions: &mut Conditions,
    log: &mut EventLog,
    derived: &mut Derived,
) {
    *grapple = Grapple::default();
    for condition in [Condition::Pinned, Condition::Grappled] {
        change_condition(unit, conditions, condition, false, log, derived);
    }
}

/// A fighter reduced to 0 or fewer hit points: the systems of the `DroppedSchedule`.
pub(super) fn drop_fighter(b: &mut Battle, t: usize, first_save_failed: bool) {
    b.run_rules(DroppedSchedule, Dropping { unit: t, first_save_failed });
}

/// Death: no longer dying or stable, dead.
pub(crate) fn kill(b: &mut Battle, t: usize) {
    let Battle { fighters, events, derived, .. } = b;
    dies(&fighters.combatant[t], &mut fighters.conditions[t], events, derived);
}

/// `who` dies: no longer dying or stable, dead.
fn dies(who: &Combatant, conditions: &mut Conditions, log: &mut EventLog, derived: &mut Derived) {
    for (condition, gained) in [(Condition::Dying, false), (Condition::Stabilized, false), (Condition::Dead, true)] {
        change_condition(&who.id, conditions, condition, gained, log, derived);
    }
}

/// Whether a fighter down is dead or dying (`death_check`): death thresholds are −Con
/// (four-actions, ap-phases), −10 (osr-segments, hex-phases) or three failed saves.
pub(crate) fn check_death(b: &mut Battle, t: usize) {
    let Battle { fighters, events, derived, variant, .. } = b;
    let (who, health, stats) = (&fighters.combatant[t], &fighters.health[t], &fighters.stats[t]);
    death_check(&variant.numbers().rules, who, health, stats, &mut fighters.conditions[t], events, derived);
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
