//! ap-phases' advanced actions: those that take more than one action point, spent in
//! consecutive phases (charge, total defense, casting a standard-action spell), and the
//! complex ones that provoke in every phase their AP are spent (coup de grace, first aid,
//! casting).

use super::super::prelude::*;
use super::FIRST_AID_DC;
use super::{ActionPoints, Advanced, AdvancedKind, points, points_mut};
use crate::combat::resolve::{Walk, deal_damage, gain, kill, lose};
use crate::level::ability_mod;
use crate::rules::Dice;

/// The complex advanced actions: what each is called, what a foe sees it do (the trigger
/// of its attacks of opportunity) and the AP it needs.
pub(super) fn complex_action(cmd: &Command) -> Option<(AdvancedKind, &'static str, &'static str, u8)> {
    match cmd {
        Command::CoupDeGrace { target } => {
            Some((AdvancedKind::CoupDeGrace { target: target.clone() }, "coup de grace", "delivers a coup de grace", 3))
        }
        Command::FirstAid { target } => {
            Some((AdvancedKind::FirstAid { target: target.clone() }, "first aid", "gives first aid", 2))
        }
        _ => None,
    }
}

/// Whether an advanced action is complex (provokes in every phase AP go into it), and
/// what a foe sees it do.
pub(super) fn complex_trigger(action: &AdvancedKind) -> Option<&'static str> {
    match action {
        AdvancedKind::Charge { .. } | AdvancedKind::TotalDefense => None,
        // Casting is complex too, but provokes through `combat::magic`, which follows
        // the provocation with a concentration check (and skips it when cast defensively).
        AdvancedKind::Cast { .. } => None,
        AdvancedKind::CoupDeGrace { .. } => Some("delivers a coup de grace"),
        AdvancedKind::FirstAid { .. } => Some("gives first aid"),
        AdvancedKind::Grapple { .. } | AdvancedKind::ContinueGrapple { .. } => None,
    }
}

/// Whether `a` may deliver a coup de grace to `t` (`coup`) or give it first aid, as the
/// board stands. Call [`Battle::refresh`] first.
pub(super) fn complex_target(b: &Battle, a: usize, t: usize, coup: bool) -> Result<(), String> {
    let (fa, ft) = (b.fighters.at(a), b.fighters.at(t));
    if !ft.alive() {
        return Err(format!("{} is dead", ft.id()));
    }
    let apart = b.variant.range_metric().footprint_ft(fa.footprint(), ft.footprint());
    if coup {
        if ft.side() == fa.side() {
            return Err(format!("{} is not a foe", ft.id()));
        }
        // Helpless here: unconscious, which covers the dying and the stabilised.
        if !ft.has(Condition::Unconscious) {
            return Err(format!("{} is not helpless", ft.id()));
        }
        if fa.wielded().def.is_ranged() {
            if apart > 5 {
                return Err(format!("with a ranged weapon, {} must be adjacent", ft.id()));
            }
            if fa.wielded().def.reload && !fa.wielded().loaded {
                return Err(format!("the {} is not loaded", fa.wielded().def.name.to_lowercase()));
            }
        } else if !b.view().threat.threatens(a, ft.footprint()) {
            return Err(format!("{} is not within reach", ft.id()));
        }
    } else {
        if a == t || ft.side() != fa.side() {
            return Err(format!("{} is not an ally", ft.id()));
        }
        if !ft.has(Condition::Dying) {
            return Err(format!("{} is not dying", ft.id()));
        }
        if apart > 5 {
            return Err(format!("{} is not adjacent", ft.id()));
        }
    }
    Ok(())
}

/// Whether a coup de grace or first aid on `target` is legal for `a` now (its cost is
/// `spend`'s).
pub(crate) fn check_complex(b: &Battle, a: usize, cmd: &Command, target: &str) -> Result<(), String> {
    let t = b.index_of(target).ok_or_else(|| format!("no unit \"{target}\""))?;
    complex_target(b, a, t, matches!(cmd, Command::CoupDeGrace { .. }))
}

/// The coup de grace, its 3 AP spent: an automatic hit and a confirmed critical; a foe
/// that survives the damage makes a Fortitude save (DC 10 + the damage dealt) or dies.
pub(crate) fn coup_de_grace(b: &mut Battle, a: usize, target: &str) {
    let id = b.fighters.combatant[a].id.clone();
    let Some(t) = b.index_of(target) else { return };
    b.refresh();
    if let Err(reason) = complex_target(b, a, t, true) {
        b.emit(CombatEvent::Spoiled { unit: id, action: "coup de grace".into(), reason });
        return;
    }
    b.emit(CombatEvent::Action {
        unit: id,
        action: "coup de grace".into(),
        detail: format!("on {target}: an automatic hit and a confirmed critical"),
    });
    b.stats.attacks += 1;
    b.stats.hits += 1;
    b.stats.criticals += 1;
    let f = &mut b.fighters.wielded[a];
    if f.def.reload {
        f.loaded = false;
    }
    let melee = !f.def.is_ranged();
    let (attacker, target) = (b.fighters.entity(a), b.fighters.entity(t));
    let dealt = b.in_world(|world| deal_damage(world, attacker, target, true, melee)).unwrap_or(0);
    if !b.fighters.conditions[t].alive() {
        return;
    }
    let bonus = b.fighters.stats[t].fortitude();
    if !b.check(t, "Fortitude (coup de grace)", bonus, 10 + dealt) {
        kill(b, t);
    }
}

/// First aid, its 2 AP spent: a Heal check (d20 + Wisdom) against DC 15 stabilises a
/// dying ally.
pub(crate) fn first_aid(b: &mut Battle, a: usize, target: &str) {
    let id = b.fighters.combatant[a].id.clone();
    let Some(t) = b.index_of(target) else { return };
    b.refresh();
    if let Err(reason) = complex_target(b, a, t, false) {
        b.emit(CombatEvent::Spoiled { unit: id, action: "first aid".into(), reason });
        return;
    }
    let bonus = ability_mod(b.fighters.stats[a].def.abilities.wis);
    if b.check(a, format!("Heal (Wisdom), first aid on {target}"), bonus, FIRST_AID_DC) {
        lose(b, t, Condition::Dying);
        gain(b, t, Condition::Stabilized);
    }
}

/// ap-phases: the casting's last AP: it provokes again (unless cast defensively), then
/// the spell takes effect if its target is still there to be reached.
pub(crate) fn complete_advanced(b: &mut Battle, c: usize, spell_id: &str, target: &str, defensive: bool) {
    let Some(sp) = spell(spell_id) else { return };
    let caster = b.fighters.entity(c);
    if !defensive {
        let Some(hurt) = b.in_world(|world| magic::provoked_by_casting(world, caster, sp)).flatten() else { return };
        let Battle { fighters, dice, events, .. } = b;
        let (who, stats) = (&fighters.combatant[c], &fighters.stats[c]);
        if !super::super::concentration_keeps_hold(dice, events, who, stats, sp, false, hurt) {
            return;
        }
    }
    b.refresh();
    let reached = b
        .index_of(target)
        .ok_or_else(|| format!("no unit \"{target}\""))
        .and_then(|t| reaches(b, c, t, sp).map(|()| b.fighters.entity(t)));
    b.in_world(|world| match reached {
        Ok(t) => take_effect(world, caster, sp, t),
        Err(reason) => lost(world, caster, sp, reason),
    });
}

/// A caster hurt between a spell's two AP: the d20 family's concentration against 10 +
/// damage + spell level (`concentration_keeps_hold`), or the spell is lost.
pub(super) fn concentration_when_hurt(
    harm: Res<Harm>,
    mut fighters: Query<(&Combatant, &Conditions, &Health, &Stats, &mut ActionPoints)>,
    mut dice: ResMut<Dice>,
    mut log: ResMut<EventLog>,
) {
    let damage = harm.amount;
    let Ok((who, conditions, health, stats, mut points)) = fighters.get_mut(harm.unit) else { return };
    let Some(Advanced { action: AdvancedKind::Cast { spell: id, .. }, .. }) = &points.advanced else { return };
    let Some(sp) = magic::spell(id) else { return };
    if !conditions.in_fight() || health.hp <= 0 {
        return; // dropping loses it anyway
    }
    if !super::super::concentration_keeps_hold(&mut dice, &mut log, who, stats, sp, false, damage) {
        points.advanced = None;
    }
}

/// A fighter dropped: an advanced action in progress is lost ("or the action is lost").
pub(super) fn advanced_action_lost(
    harm: Res<Harm>,
    mut fighters: Query<(&Combatant, &mut ActionPoints)>,
    mut log: ResMut<EventLog>,
) {
    let Ok((who, mut points)) = fighters.get_mut(harm.unit) else { return };
    if let Some(adv) = points.advanced.take() {
        let action = super::advanced_name(&adv.action);
        log.push(CombatEvent::Spoiled { unit: who.id.clone(), action, reason: "it dropped".into() });
    }
}

/// ap-phases: an advanced action spends its next AP (consecutively) and, once all are in,
/// completes (a charge then sets out: its walk is returned). A complex one provoked first
/// (`go_on_with_advanced_action`); if that struck its maker down, the action is lost.
pub(crate) fn advanced_action_goes_on(b: &mut Battle, i: usize, mut adv: Advanced) -> Option<Walk> {
    if let Some(trigger) = complex_trigger(&adv.action)
        && !b.fighters.conditions[i].in_fight()
    {
        let unit = b.fighters.combatant[i].id.clone();
        b.emit(CombatEvent::Spoiled { unit, action: trigger.into(), reason: "struck down first".into() });
        return None;
    }
    points_mut(b, i).ap -= 1;
    adv.spent += 1;
    if adv.spent < adv.needed {
        points_mut(b, i).advanced = Some(adv);
        return None;
    }
    let id = b.fighters.combatant[i].id.clone();
    match adv.action {
        AdvancedKind::Charge { target } => {
            let Some(t) = b.index_of(&target).filter(|&t| b.fighters.conditions[t].in_fight()) else {
                b.emit(CombatEvent::Spoiled {
                    unit: id,
                    action: "charge".into(),
                    reason: format!("{target} is out of the fight"),
                });
                return None;
            };
            b.refresh();
            match resolve::charge_path(b, i, t) {
                Ok(path) => {
                    b.fighters.bonuses[i].offense.retain(|(n, _)| n != "charge");
                    // An attack action (nothing in the charge itself counts them).
                    points_mut(b, i).attack_actions += 1;
                    let (me, foe) = (b.fighters.entity(i), b.fighters.entity(t));
                    return Some(resolve::charge_walk(b.variant, me, b.fighters.position[i].0, foe, &path));
                }
                Err(reason) => b.emit(CombatEvent::Spoiled { unit: id, action: "charge".into(), reason }),
            }
        }
        AdvancedKind::Cast { spell, target, defensive } => complete_advanced(b, i, &spell, &target, defensive),
        AdvancedKind::TotalDefense => {
            let bonus = if points(b, i).attack_actions > 0 { 2 } else { 4 };
            b.fighters.bonuses[i].defense.push(("total defense".into(), bonus));
            b.emit(CombatEvent::Action {
                unit: id,
                action: "total defense".into(),
                detail: format!("+{bonus} dodge bonus to AC"),
            });
        }
        AdvancedKind::CoupDeGrace { target } => coup_de_grace(b, i, &target),
        AdvancedKind::FirstAid { target } => first_aid(b, i, &target),
        AdvancedKind::Grapple { target } => super::grapple::complete_grapple(b, i, &target),
        AdvancedKind::ContinueGrapple { follow_up } => return super::grapple::complete_continue(b, i, follow_up),
    }
    None
}
