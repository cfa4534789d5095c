//! ap-phases' advanced actions: those that take more than one action point, spent in
//! consecutive phases (charge, total defense, casting a standard-action spell), and the
//! complex ones that provoke in every phase their AP are spent (coup de grace, first aid,
//! casting).

use super::super::prelude::*;
use super::FIRST_AID_DC;
use super::{ActionPoints, Advanced, AdvancedKind};
use crate::combat::battle::store::Record;
use crate::combat::fighter::Bonuses;
use crate::combat::resolve::{self, Walk, deal_damage, kill, set_condition};
use crate::level::ability_mod;
use crate::rules::{Battlefield, Dice, Position, Wielded};
use bevy::prelude::{Entity, World};

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
/// board stands. The derived maps must be up to date (as between commands).
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
pub(crate) fn coup_de_grace(world: &mut World, a: Entity, target: &str) {
    let Some(t) = complex_target_in(world, a, target, true) else { return };
    log(
        world,
        CombatEvent::Action {
            unit: resolve::id(world, a),
            action: "coup de grace".into(),
            detail: format!("on {target}: an automatic hit and a confirmed critical"),
        },
    );
    let stats = &mut world.resource_mut::<Record>().into_inner().stats;
    stats.attacks += 1;
    stats.hits += 1;
    stats.criticals += 1;
    let mut wielded = world.get_mut::<Wielded>(a).expect(resolve::A_COMBATANT);
    if wielded.def.reload {
        wielded.loaded = false;
    }
    let melee = !wielded.def.is_ranged();
    let dealt = deal_damage(world, a, t, true, melee);
    if !world.get::<Conditions>(t).is_some_and(Conditions::alive) {
        return;
    }
    let bonus = world.get::<Stats>(t).expect(resolve::A_COMBATANT).fortitude();
    if !resolve::check(world, t, "Fortitude (coup de grace)", bonus, 10 + dealt) {
        kill(world, t);
    }
}

/// First aid, its 2 AP spent: a Heal check (d20 + Wisdom) against DC 15 stabilises a
/// dying ally.
pub(crate) fn first_aid(world: &mut World, a: Entity, target: &str) {
    let Some(t) = complex_target_in(world, a, target, false) else { return };
    let bonus = ability_mod(world.get::<Stats>(a).expect(resolve::A_COMBATANT).def.abilities.wis);
    if resolve::check(world, a, format!("Heal (Wisdom), first aid on {target}"), bonus, FIRST_AID_DC) {
        set_condition(world, t, Condition::Dying, false);
        set_condition(world, t, Condition::Stabilized, true);
    }
}

/// The fighter `target` names, if `a` may deliver it a coup de grace (`coup`) or give it
/// first aid now; else why not is logged (`None`, also for an unknown name).
fn complex_target_in(world: &mut World, a: Entity, target: &str, coup: bool) -> Option<Entity> {
    resolve::refresh(world);
    let reached = {
        let b = crate::combat::battle::store::read(world);
        let t = b.index_of(target)?;
        complex_target(&b, resolve::seat(&b, a), t, coup).map(|()| b.fighters.entity(t))
    };
    let action = if coup { "coup de grace" } else { "first aid" };
    reached
        .map_err(|reason| {
            log(world, CombatEvent::Spoiled { unit: resolve::id(world, a), action: action.into(), reason })
        })
        .ok()
}

/// `event`, logged.
fn log(world: &mut World, event: CombatEvent) {
    world.resource_mut::<EventLog>().push(event);
}

/// ap-phases: the casting's last AP: it provokes again (unless cast defensively), then
/// the spell takes effect if its target is still there to be reached.
pub(crate) fn complete_advanced(world: &mut World, c: Entity, spell_id: &str, target: &str, defensive: bool) {
    let Some(sp) = spell(spell_id) else { return };
    if !defensive {
        let Some(hurt) = magic::provoked_by_casting(world, c, sp) else { return };
        let keeps = resolve::with_dice_and_log(world, |world, dice, log| {
            let (who, stats) = (world.get::<Combatant>(c), world.get::<Stats>(c));
            let (who, stats) = (who.expect(resolve::A_COMBATANT), stats.expect(resolve::A_COMBATANT));
            super::super::concentration_keeps_hold(dice, log, who, stats, sp, false, hurt)
        });
        if !keeps {
            return;
        }
    }
    resolve::refresh(world);
    let reached = {
        let b = crate::combat::battle::store::read(world);
        b.index_of(target)
            .ok_or_else(|| format!("no unit \"{target}\""))
            .and_then(|t| reaches(&b, resolve::seat(&b, c), t, sp).map(|()| b.fighters.entity(t)))
    };
    match reached {
        Ok(t) => take_effect(world, c, sp, t),
        Err(reason) => lost(world, c, sp, reason),
    }
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
/// (`go_on_with_advanced_action`); if that struck its maker down, the action is lost. On the
/// battle's world, its maker `i` by entity.
pub(crate) fn advanced_action_goes_on(world: &mut World, i: Entity, mut adv: Advanced) -> Option<Walk> {
    let id = resolve::id(world, i);
    if let Some(trigger) = complex_trigger(&adv.action)
        && !resolve::in_fight(world, i)
    {
        log(world, CombatEvent::Spoiled { unit: id, action: trigger.into(), reason: "struck down first".into() });
        return None;
    }
    let mut points = world.get_mut::<ActionPoints>(i).expect(resolve::A_COMBATANT);
    points.ap -= 1;
    adv.spent += 1;
    if adv.spent < adv.needed {
        points.advanced = Some(adv);
        return None;
    }
    match adv.action {
        AdvancedKind::Charge { target } => {
            let foe = {
                let b = crate::combat::battle::store::read(world);
                b.index_of(&target).filter(|&t| b.fighters.conditions[t].in_fight()).map(|t| b.fighters.entity(t))
            };
            let Some(foe) = foe else {
                let reason = format!("{target} is out of the fight");
                log(world, CombatEvent::Spoiled { unit: id, action: "charge".into(), reason });
                return None;
            };
            resolve::refresh(world);
            let path = {
                let b = crate::combat::battle::store::read(world);
                b.charge_line(resolve::seat(&b, i), resolve::seat(&b, foe))
            };
            match path {
                Ok(path) => {
                    let bonuses = world.get_mut::<Bonuses>(i).expect(resolve::A_COMBATANT);
                    bonuses.into_inner().offense.retain(|(n, _)| n != "charge");
                    // An attack action (nothing in the charge itself counts them).
                    world.get_mut::<ActionPoints>(i).expect(resolve::A_COMBATANT).attack_actions += 1;
                    let at = world.get::<Position>(i).expect(resolve::A_COMBATANT).0;
                    let variant = world.resource::<Battlefield>().variant;
                    return Some(resolve::charge_walk(variant, i, at, foe, &path));
                }
                Err(reason) => log(world, CombatEvent::Spoiled { unit: id, action: "charge".into(), reason }),
            }
        }
        AdvancedKind::Cast { spell, target, defensive } => complete_advanced(world, i, &spell, &target, defensive),
        AdvancedKind::TotalDefense => {
            let attacked = world.get::<ActionPoints>(i).expect(resolve::A_COMBATANT).attack_actions > 0;
            let bonus = if attacked { 2 } else { 4 };
            world.get_mut::<Bonuses>(i).expect(resolve::A_COMBATANT).defense.push(("total defense".into(), bonus));
            log(
                world,
                CombatEvent::Action {
                    unit: id,
                    action: "total defense".into(),
                    detail: format!("+{bonus} dodge bonus to AC"),
                },
            );
        }
        AdvancedKind::CoupDeGrace { target } => coup_de_grace(world, i, &target),
        AdvancedKind::FirstAid { target } => first_aid(world, i, &target),
        AdvancedKind::Grapple { target } => super::grapple::complete_grapple(world, i, &target),
        AdvancedKind::ContinueGrapple { follow_up } => return super::grapple::complete_continue(world, i, follow_up),
    }
    None
}
