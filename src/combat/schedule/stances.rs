//! What a command does to the acting fighter's own components alone: its cost to its
//! `Economy`, a stance (fighting defensively or recklessly, guarding, focusing) or the
//! defensive action to its `Bonuses`, a held attack to its `Reactions`, a delay to its
//! `Initiative` and the clock's order. Each is a system over exactly those, its `Combatant`
//! for the log's name and the event log.

use super::Turn;
use crate::combat::battle::{Combatants, EventLog};
use crate::combat::command::{Command, Stance};
use crate::combat::event::CombatEvent;
use crate::combat::fighter::{Bonuses, FIGHTING_DEFENSIVELY, FOCUS, GUARD, RECKLESS, Reactions};
use crate::combat::resolve::Plan;
use crate::rules::{Battlefield, Combatant};
use bevy::prelude::*;

/// The acting fighter's entity and seat (its place in id order, for the rules that name
/// fighters so) and the accepted command, while one is being carried out.
pub(crate) fn acting_seated<'a>(turn: &'a Turn, seats: &Combatants) -> Option<(Entity, usize, &'a Plan)> {
    let (actor, plan) = turn.accepted()?;
    Some((actor, seats.seat_of(actor)?, plan))
}

/// What the command costs: the acting fighter's budget becomes what the check said would be
/// left of it.
pub(super) fn spend_budget(turn: Res<Turn>, mut economies: Query<&mut crate::combat::fighter::Economy>) {
    let Some((me, plan)) = turn.accepted() else { return };
    if let Ok(mut economy) = economies.get_mut(me) {
        economy.budget.clone_from(&plan.budget_after);
    }
}

/// Fighting defensively or recklessly (the variant's numbers), guarding (+2 AC) or focusing
/// (+1 on attack and damage rolls), until the fighter's next turn.
pub(super) fn take_stance(
    turn: Res<Turn>,
    field: Res<Battlefield>,
    mut fighters: Query<(&Combatant, &mut Bonuses)>,
    mut log: ResMut<EventLog>,
) {
    let Some((me, plan)) = turn.accepted() else { return };
    let Ok((who, mut bonuses)) = fighters.get_mut(me) else { return };
    let unit = who.id.clone();
    let numbers = field.variant.numbers();
    let (action, detail) = match &plan.command {
        Command::Stance { stance: Stance::Defensive } => {
            let (attack, ac) = numbers.fighting_defensively;
            bonuses.offense.push((FIGHTING_DEFENSIVELY.into(), attack));
            bonuses.defense.push((FIGHTING_DEFENSIVELY.into(), ac));
            ("fights defensively".to_string(), format!("{attack:+} on attacks, {ac:+} AC"))
        }
        Command::Stance { stance: Stance::Reckless } => {
            let (ac, damage) = numbers.reckless;
            bonuses.defense.push((RECKLESS.into(), ac));
            bonuses.damage.push((RECKLESS.into(), damage));
            ("fights recklessly".to_string(), format!("{ac:+} AC, {damage:+} damage"))
        }
        Command::Guard => {
            bonuses.defense.push((GUARD.into(), 2));
            ("guard".to_string(), "+2 AC for 1 round".to_string())
        }
        Command::Focus => {
            bonuses.offense.push((FOCUS.into(), 1));
            bonuses.damage.push((FOCUS.into(), 1));
            ("focus".to_string(), "+1 on attack and damage rolls for 1 round".to_string())
        }
        _ => return,
    };
    log.push(CombatEvent::Action { unit, action, detail });
}

/// The variant's defensive action (total defense, full defense, dodge…): its bonus to AC
/// (DCV) for as long as the variant says.
pub(crate) fn take_defensive_action(
    turn: Res<Turn>,
    field: Res<Battlefield>,
    mut fighters: Query<(&Combatant, &mut Bonuses)>,
    mut log: ResMut<EventLog>,
) {
    let Some((me, _)) = turn.accepted() else { return };
    let Ok((who, mut bonuses)) = fighters.get_mut(me) else { return };
    let numbers = field.variant.numbers();
    let (name, value) = numbers.defensive_action.clone();
    let detail = format!("{value:+} {}", numbers.defensive_lasts);
    bonuses.defense.push((name.clone(), value));
    log.push(CombatEvent::Action { unit: who.id.clone(), action: name, detail });
}

/// Holding an attack for when a foe (this one, or the first) comes into reach.
pub(super) fn hold_attack(
    turn: Res<Turn>,
    mut fighters: Query<(&Combatant, &mut Reactions)>,
    mut log: ResMut<EventLog>,
) {
    let Some((me, plan)) = turn.accepted() else { return };
    let Command::Hold { target } = &plan.command else { return };
    let Ok((who, mut reactions)) = fighters.get_mut(me) else { return };
    reactions.held = Some(target.clone());
    let on = target.clone().unwrap_or_else(|| "the first foe".into());
    log.push(CombatEvent::Action {
        unit: who.id.clone(),
        action: "holds an attack".into(),
        detail: format!("for when {on} comes into reach"),
    });
}

/// Delaying to the end of the order (d20-classic, hex-phases): the fighter's initiative
/// goes below everyone's in this round's (phase's) order, and it acts last from now on.
pub(crate) fn delay_to_end_of_order(
    turn: Res<Turn>,
    mut fighters: Query<(&Combatant, &mut crate::combat::fighter::Initiative)>,
    mut clock: ResMut<crate::combat::time::Clock>,
    mut log: ResMut<EventLog>,
) {
    let Some((me, _)) = turn.accepted() else { return };
    let last = clock.order.iter().filter_map(|&e| fighters.get(e).ok()).map(|(_, init)| init.order).min();
    let Ok((who, mut initiative)) = fighters.get_mut(me) else { return };
    initiative.order = last.unwrap_or(0) - 1;
    let unit = who.id.clone();
    clock.order.retain(|&e| e != me);
    clock.order.push(me);
    clock.queue.push(me);
    log.push(CombatEvent::Action { unit, action: "delay".into(), detail: "acts last from now on".into() });
}
