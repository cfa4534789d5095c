//! Spells: who may cast what on whom (known, left, range, line of effect), the casting
//! every variant shares (spend, provoke as the variant has it, be countered, take
//! effect), and the spells' effects. How a variant casts differently (ap-phases' two-AP
//! complex action, osr-segments' incantations going off by segment, four-actions' focus
//! check, the d20 family's defensive casting, counterspells) lives in its module.

use super::strike::{A_COMBATANT, id, in_fight, refresh, seat};
use super::{apply_damage, provoke_threateners, set_condition};
use crate::combat::battle::Battle;
use crate::combat::battle::store::{self, EventLog, Record};
use crate::combat::event::CombatEvent;
use crate::combat::fighter::{Modifier, Spells};
use crate::level::{Catalogue, SpellDef, SpellEffect};
use crate::rules::{Battlefield, Condition, Conditions, Dice, Health, Stats};
use bevy::prelude::{Entity, World};

/// A spell of the shipped catalogue.
pub fn spell(id: &str) -> Option<&'static SpellDef> {
    Catalogue::builtin_ref().spell(id)
}

/// What casting `spell` takes from the caster's spells, as the variant counts them.
pub(crate) fn cost(b: &Battle, spell: &SpellDef) -> u32 {
    b.variant.numbers().rules.spell_cost.of(spell.level)
}

/// Whether `caster` may cast `spell_id` on `target` now (its budget aside): the spell and
/// its target resolved, or why not.
pub fn check(b: &Battle, caster: usize, spell_id: &str, target: &str) -> Result<(usize, &'static SpellDef), String> {
    let f = b.fighters.at(caster);
    let sp = spell(spell_id).ok_or_else(|| format!("no spell \"{spell_id}\""))?;
    if !f.stats().knows(&sp.id) {
        return Err(format!("{} does not know {}", f.id(), sp.name));
    }
    if f.spells().left < cost(b, sp) {
        return Err(format!("no spells left ({} spent)", sp.name));
    }
    if f.has(Condition::Grappled) && b.variant.numbers().grappled_cannot_cast {
        return Err("grappled: no free hand for the gestures".into());
    }
    let t = b.index_of(target).ok_or_else(|| format!("no unit \"{target}\""))?;
    reaches(b, caster, t, sp)?;
    Ok((t, sp))
}

/// Whether a spell from `caster` reaches `t` where they stand: a friend (or itself) for a
/// healing spell, a foe otherwise; touch within natural reach; range; line of effect.
pub fn reaches(b: &Battle, caster: usize, t: usize, sp: &SpellDef) -> Result<(), String> {
    let (f, ft) = (b.fighters.at(caster), b.fighters.at(t));
    let friend = f.side() == ft.side();
    if sp.on_friends() {
        if !friend || !ft.alive() {
            return Err(format!("{} is cast on a living friend", sp.name));
        }
    } else if friend || !ft.in_fight() {
        return Err(format!("{} is not a foe in the fight", ft.id()));
    }
    if t == caster {
        return Ok(());
    }
    let metric = b.variant.range_metric();
    let distance = metric.footprint_ft(f.footprint(), ft.footprint());
    let range = sp.range_ft.unwrap_or(f.reach().natural_ft);
    if distance > range {
        let what = if sp.range_ft.is_some() { format!("range {range} ft") } else { "touch".into() };
        return Err(format!("{} is {distance} ft away ({what})", ft.id()));
    }
    if sp.range_ft.is_some() && !line_of_effect(b, caster, t) {
        return Err(format!("no line of effect to {}", ft.id()));
    }
    Ok(())
}

/// A spell's line of effect from `a` to `t`: no total cover, as the variant rates it
/// (osr-segments: cover over 50% breaks it). Creatures in between do not block it.
fn line_of_effect(b: &Battle, a: usize, t: usize) -> bool {
    let view = b.view();
    let (fa, ft) = (b.fighters.at(a).footprint(), b.fighters.at(t).footprint());
    crate::rules::cover::line_of_effect(view.field, view.occupancy, (a, fa), (t, ft))
}

/// Spells whose segment has come go off together: each of `casters` still casting releases
/// its spell (one broken by an earlier segment's spell has none to release), then each
/// takes effect, in order, if its target is still there to be reached.
pub(crate) fn go_off_together(world: &mut World, casters: &[Entity]) {
    let going_off: Vec<(Entity, crate::combat::fighter::Casting)> = casters
        .iter()
        .filter_map(|&c| world.get_mut::<Spells>(c)?.casting.take().map(|casting| (c, casting)))
        .collect();
    for (c, casting) in going_off {
        let Some(sp) = spell(&casting.spell) else { continue };
        let detail = format!("segment {}", sp.segments);
        let went_off = CombatEvent::Action { unit: id(world, c), action: format!("{} goes off", sp.name), detail };
        world.resource_mut::<EventLog>().push(went_off);
        refresh(world);
        let reached = {
            let b = store::read(world);
            let Some(t) = b.index_of(&casting.target) else { continue };
            reaches(&b, seat(&b, c), t, sp).map(|()| b.fighters.entity(t))
        };
        match reached {
            Ok(t) => take_effect(world, c, sp, t),
            Err(reason) => lost(world, c, sp, reason),
        }
    }
}

/// The spell fizzles: it is spent all the same.
pub(crate) fn lost(world: &mut World, c: Entity, sp: &SpellDef, reason: String) {
    let spoilt = spoiled(id(world, c), sp, reason);
    world.resource_mut::<EventLog>().push(spoilt);
}

/// What the log says of `unit`'s spell `sp` lost, and why.
pub(crate) fn spoiled(unit: String, sp: &SpellDef, reason: String) -> CombatEvent {
    CombatEvent::Spoiled { unit, action: sp.name.to_lowercase(), reason }
}

/// Provokes every threatening foe for casting: how much it hurt the caster, or `None`
/// when it dropped (the spell is then lost).
pub(crate) fn provoked_by_casting(world: &mut World, c: Entity, sp: &SpellDef) -> Option<i32> {
    let before = world.get::<Health>(c).expect(A_COMBATANT).hp;
    provoke_threateners(world, c, "casts a spell");
    if !in_fight(world, c) {
        lost(world, c, sp, "the caster dropped".into());
        return None;
    }
    Some(before - world.get::<Health>(c).expect(A_COMBATANT).hp)
}

/// The spell's effect on its target.
pub(crate) fn take_effect(world: &mut World, c: Entity, sp: &SpellDef, t: Entity) {
    let level = world.get::<Stats>(c).expect(A_COMBATANT).caster_level();
    match &sp.effect {
        SpellEffect::Missiles { dice, bonus, max } => {
            let missiles = (level as u32).div_ceil(2).clamp(1, *max);
            for k in 1..=missiles {
                let rolls = roll(world, dice);
                let total = rolls.iter().sum::<i32>() + bonus;
                world.resource_mut::<Record>().stats.damage_dealt += total as u64;
                let label = format!("{dice} {} {k}", sp.name.to_lowercase());
                let terms = vec![Modifier::new(sp.name.to_lowercase(), *bonus)];
                apply_damage(world, c, t, total, false, label, rolls, terms);
            }
        }
        SpellEffect::Heal { dice, max_bonus } => {
            let rolls = roll(world, dice);
            let bonus = level.min(*max_bonus);
            let total = rolls.iter().sum::<i32>() + bonus;
            let from_zero = world.resource::<Battlefield>().variant.numbers().rules.healed_from_zero;
            let mut health = world.get_mut::<Health>(t).expect(A_COMBATANT);
            let from = if from_zero { health.hp.max(0) } else { health.hp };
            health.hp = (from + total).min(health.max);
            let (hp_after, nonlethal) = (health.hp, health.nonlethal);
            let (by, unit) = (id(world, c), id(world, t));
            world.resource_mut::<EventLog>().push(CombatEvent::Healed {
                unit,
                by,
                dice: dice.to_string(),
                rolls,
                modifiers: vec![Modifier::new("caster level", bonus)],
                total,
                hp_after,
            });
            if hp_after > 0 {
                for cond in [Condition::Dying, Condition::Stabilized] {
                    set_condition(world, t, cond, false);
                }
                if nonlethal < hp_after {
                    set_condition(world, t, Condition::Unconscious, false);
                }
                world.get_mut::<Health>(t).expect(A_COMBATANT).death_fails = 0;
            } else if world.get::<Conditions>(t).expect(A_COMBATANT).has(Condition::Dying) {
                // Not enough to wake it, but any healing stabilises the dying.
                set_condition(world, t, Condition::Dying, false);
                set_condition(world, t, Condition::Stabilized, true);
            }
        }
    }
}

/// The dice of a spell's effect, rolled one by one.
fn roll(world: &mut World, dice: &crate::level::DiceExpr) -> Vec<i32> {
    world.resource_mut::<Dice>().roll_many(dice.count, dice.sides).into_iter().map(|r| r as i32).collect()
}
