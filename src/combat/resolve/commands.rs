//! What each kind of command does once checked: one function per slot of the rules
//! schedule, taking the acting fighter and the command's plan. The schedule's systems
//! call these (`combat::schedule`).

use super::*;
use crate::level::SpellDef;

/// The command spends what its plan says.
pub(crate) fn spend_budget(b: &mut Battle, actor: usize, plan: &Plan) {
    b.fighters.economy[actor].budget = plan.budget_after.clone();
}

/// An attack, a full attack, or reloading a crossbow.
pub(crate) fn attack_or_reload(b: &mut Battle, actor: usize, plan: &Plan) {
    match &plan.command {
        Command::Attack { target } | Command::FullAttack { target } => {
            let t = b.index_of(target).expect("validated");
            let full = matches!(plan.command, Command::FullAttack { .. });
            attack_routine(b, actor, t, plan.kind.clone(), full, &AttackContext::default());
        }
        Command::Reload => reload(b, actor),
        _ => {}
    }
}

/// The defensive action: a bonus to defence, from the variant's numbers.
pub(crate) fn take_defensive_action(b: &mut Battle, actor: usize, _plan: &Plan) {
    defensive_bonus(b, actor);
}

/// A combat maneuver on a foe, or standing up from prone.
pub(crate) fn maneuver_or_stand(b: &mut Battle, actor: usize, plan: &Plan) {
    let (target, kind) = match &plan.command {
        Command::Trip { target } => (target, Maneuver::Trip),
        Command::Grapple { target } => (target, Maneuver::Grapple),
        Command::Shove { target } => (target, Maneuver::Shove),
        Command::Disarm { target } => (target, Maneuver::Disarm),
        Command::Stand => return stand(b, actor),
        _ => return,
    };
    let t = b.index_of(target).expect("validated");
    maneuver(b, actor, t, kind);
}

/// Breaking free of a grapple: an opposed check.
pub(crate) fn escape_by_opposed_check(b: &mut Battle, actor: usize, _plan: &Plan) {
    opposed_escape(b, actor);
}

/// Holding an attack for when a foe comes into reach.
pub(crate) fn hold_attack(b: &mut Battle, actor: usize, plan: &Plan) {
    let Command::Hold { target } = &plan.command else { return };
    b.fighters.reactions[actor].held = Some(target.clone());
    let id = b.fighters.combatant[actor].id.clone();
    let on = target.clone().unwrap_or_else(|| "the first foe".into());
    b.emit(CombatEvent::Action {
        unit: id,
        action: "holds an attack".into(),
        detail: format!("for when {on} comes into reach"),
    });
}

/// Fighting defensively or recklessly, guarding, focusing.
pub(crate) fn take_stance(b: &mut Battle, actor: usize, plan: &Plan) {
    let id = b.fighters.combatant[actor].id.clone();
    match &plan.command {
        Command::Stance { stance } => {
            let f = &mut b.fighters.bonuses[actor];
            let detail = match stance {
                super::super::command::Stance::Defensive => {
                    let (attack, ac) = b.variant.numbers().fighting_defensively;
                    f.offense.push(("fighting defensively".into(), attack));
                    f.defense.push(("fighting defensively".into(), ac));
                    format!("{attack:+} on attacks, {ac:+} AC")
                }
                super::super::command::Stance::Reckless => {
                    let (ac, damage) = b.variant.numbers().reckless;
                    f.defense.push(("reckless".into(), ac));
                    f.damage.push(("reckless".into(), damage));
                    format!("{ac:+} AC, {damage:+} damage")
                }
            };
            let how = if *stance == super::super::command::Stance::Defensive { "defensively" } else { "recklessly" };
            b.emit(CombatEvent::Action { unit: id, action: format!("fights {how}"), detail });
        }
        Command::Guard => {
            b.fighters.bonuses[actor].defense.push(("guard".into(), 2));
            b.emit(CombatEvent::Action { unit: id, action: "guard".into(), detail: "+2 AC for 1 round".into() });
        }
        Command::Focus => {
            b.fighters.bonuses[actor].offense.push(("focus".into(), 1));
            b.fighters.bonuses[actor].damage.push(("focus".into(), 1));
            b.emit(CombatEvent::Action {
                unit: id,
                action: "focus".into(),
                detail: "+1 on attack and damage rolls for 1 round".into(),
            });
        }
        _ => {}
    }
}

/// Casting a spell at once.
pub(crate) fn cast_at_once(b: &mut Battle, actor: usize, plan: &Plan) {
    if let Some((t, sp, defensive)) = spell_of(b, actor, plan) {
        magic::cast_now(b, actor, sp, t, defensive);
    }
}

/// The foe a targeted command names (validated, so present).
pub(crate) fn target_of(b: &Battle, plan: &Plan) -> Option<usize> {
    match &plan.command {
        Command::Attack { target }
        | Command::FullAttack { target }
        | Command::Charge { target }
        | Command::Trip { target }
        | Command::Grapple { target }
        | Command::Shove { target }
        | Command::Disarm { target } => b.index_of(target),
        _ => None,
    }
}

/// A cast's target, spell and whether it is cast defensively.
pub(crate) fn spell_of(b: &Battle, actor: usize, plan: &Plan) -> Option<(usize, &'static SpellDef, bool)> {
    let Command::Cast { spell, target, defensive } = &plan.command else { return None };
    let (t, sp) = magic::check(b, actor, spell, target).ok()?;
    Some((t, sp, *defensive))
}
