//! ap-phases in the rules schedule: an advanced action under way goes on when the turn
//! ends (a charge sets out, leg by leg); charges, total defense, casting, coup de grace and
//! first aid are advanced actions begun now; holding an attack forfeits the round's other
//! actions; every action spends an AP; the opportunity ends once the phase's action is
//! taken; a round runs seven action phases.

use super::super::prelude::*;
use super::advanced::{complex_action, complex_trigger};
use super::{ActionPoints, Advanced, AdvancedKind, PhaseAction};
use super::{advanced_name, next_action_phase};
use crate::combat::fighter::Economy;
use crate::combat::schedule::{
    AdvancedActions, Announcing, SpellsUnderWay, Strike, StrikeStack, Turn, declare_maneuver, maneuver_strike, named,
    remove_rule_systems, stand,
};
use bevy::prelude::Res;

pub struct ApPhasesPlugin;

impl Plugin for ApPhasesPlugin {
    fn build(&self, app: &mut App) {
        keep_each::<ActionPoints>(app);
        app.insert_resource(AdvancedActions(super::advanced::advanced_action_goes_on));
        own_budget::<PhaseAction>(app);
        modifiers::add_d20_family(app);
        // Strength to damage, one and a half times with two hands.
        app.add_modifier(modifiers::strength_with_two_hands)
            .add_modifier(modifiers::damage_bonuses)
            .add_modifier(modifiers::untrained_damage);
        for slot in [Slot::Charge, Slot::Defend, Slot::Escape, Slot::Cast] {
            replace_slot(app, slot);
        }
        // Standing up is as in every variant; its maneuvers are not.
        remove_rule_systems(app, declare_maneuver);
        app.add_systems(
            RulesSchedule,
            (
                go_on_with_advanced_action.in_set(Slot::TakeOver),
                declare_charge.in_set(Slot::Charge),
                begin_total_defense.in_set(Slot::Defend),
                maneuver_or_begin_grapple.before(stand).in_set(Slot::Maneuver),
                super::grapple::escape_with_maneuver_check.in_set(Slot::Escape),
                (provoke_complex_action, super::grapple::begin_continued_grapple).chain().in_set(Slot::Own),
                (begin_complex_action, cast_under_way).chain().before(spend_action_point).in_set(Slot::AfterCommand),
                forfeit_other_actions.in_set(Slot::Held),
                begin_casting.in_set(Slot::Cast),
                spend_action_point.in_set(Slot::AfterCommand),
                pass_turn_when(phase_action_taken).in_set(Passing::Spent),
            ),
        );
        app.add_systems(InvariantsSchedule, super::at_most_three_action_points.in_set(OwnInvariants));
        app.add_systems(
            HarmSchedule,
            (
                super::advanced::concentration_when_hurt.in_set(HarmStep::CasterHurt),
                super::advanced::advanced_action_lost.in_set(HarmStep::WhenDropped),
            ),
        );
        app.add_systems(CastingSchedule, super::super::concentration_while_casting.in_set(HoldOnSpell));
        app.add_systems(ManeuverSchedule, super::maneuvers::check_against_cmd.in_set(ManeuverCheck));
        // Its opportunities are action phases, not turns.
        remove_clock_systems(app, crate::combat::schedule::clock::turn_starts);
        app.add_systems(
            ClockSchedule,
            (
                initiative_is_dexterity.in_set(RollsInitiative),
                advanced_action_continues.in_set(Opening::GivenBack),
                next_action_phase.in_set(ClockStep::Window),
                stabilising_check.run_if(|clock: Res<Clock>| clock.phase == 2).in_set(DyingTurn),
            ),
        );
        app.add_systems(
            TakenSchedule,
            (attack_actions_counted, super::lost_by_ten_backfires).chain().in_set(CountTaken),
        );
    }
}

/// A dying character, in the first phase that has actions, makes a Constitution check to
/// stabilise (d20 + its Constitution modifier + its negative hit points against 10), and
/// loses a hit point if it fails.
fn stabilising_check(turns: DyingTurns) {
    let check = |stats: &Stats, health: &mut Health, dice: &mut crate::rules::Dice| {
        let save = Logged::save("Constitution (stabilise)", dice.roll(20) as i32, stats.con_mod() + health.hp, 10);
        save_or_bleed(save, health, Dying::Stabilizes)
    };
    turns.take(check);
}

/// Attack actions are counted for the round: each after the first is at −5.
fn attack_actions_counted(taken: Res<TakenInStrike>, mut counts: Query<&mut ActionPoints>) {
    for &t in &taken.0 {
        if let Taken::AttackAction { by } = t
            && let Ok(mut points) = counts.get_mut(by)
        {
            points.attack_actions += 1;
        }
    }
}

/// Initiative is the Dexterity score; ties are broken once, now, by the seeded dice.
fn initiative_is_dexterity(mut initiatives: Initiatives) {
    initiatives.fixed(|stats| stats.def.abilities.dex, "(Dexterity score)");
}

/// An advanced action under way goes on (ending the turn) unless the fighter abandons it
/// for another action.
fn advanced_action_continues(called: Res<Called>, mut fighters: Query<(&ActionPoints, &mut Economy)>) {
    if let Some(e) = called.opening()
        && let Ok((points, mut economy)) = fighters.get_mut(e)
        && points.advanced.is_some()
    {
        economy.budget.own_mut::<PhaseAction>().continuing = true;
    }
}

/// Ending the turn goes on with the advanced action under way, if an AP is left for it:
/// its next AP waits on the strike stack (`Strike::Advanced`, beneath the attacks of
/// opportunity a complex one draws first). Any other action abandons it ("it may be wise to
/// abandon an advanced action").
fn go_on_with_advanced_action(
    turn: Res<Turn>,
    mut fighters: Query<(&Combatant, &Economy, &mut ActionPoints)>,
    mut log: ResMut<EventLog>,
    mut stack: ResMut<StrikeStack>,
) {
    let Some((me, plan)) = turn.accepted() else { return };
    let Ok((who, economy, mut points)) = fighters.get_mut(me) else { return };
    if !economy.budget.own::<PhaseAction>().continuing {
        return;
    }
    if plan.command != Command::EndTurn {
        if let Some(adv) = points.advanced.take() {
            let action = advanced_name(&adv.action);
            log.push(CombatEvent::Spoiled { unit: who.id.clone(), action, reason: "abandoned".into() });
        }
        return;
    }
    if points.ap == 0 {
        return;
    }
    // Out of its maker's hands while the attacks it drew are made: dropping now loses it
    // as "struck down first", not as an action under way.
    let Some(adv) = points.advanced.take() else { return };
    let trigger = complex_trigger(&adv.action);
    stack.0.push(Strike::Advanced { by: me, action: adv });
    if let Some(trigger) = trigger {
        stack.0.push(Strike::Provoked { mover: me, trigger: trigger.into() });
    }
}

/// A charge is an advanced action of 2 AP: declared now, run at its completion.
fn declare_charge(turn: Res<Turn>, mut fighters: Query<(&Combatant, &mut ActionPoints)>, mut log: ResMut<EventLog>) {
    let Some((me, plan)) = turn.accepted() else { return };
    let Command::Charge { target } = &plan.command else { return };
    let Ok((who, mut points)) = fighters.get_mut(me) else { return };
    points.ap -= 1;
    points.advanced = Some(Advanced { action: AdvancedKind::Charge { target: target.clone() }, spent: 1, needed: 2 });
    let detail = format!("declared at {target} (2 AP)");
    log.push(CombatEvent::Action { unit: who.id.clone(), action: "charge".into(), detail });
}

/// Total defense is an advanced action of 2 AP.
fn begin_total_defense(
    turn: Res<Turn>,
    mut fighters: Query<(&Combatant, &mut ActionPoints)>,
    mut log: ResMut<EventLog>,
) {
    let Some((me, _)) = turn.accepted() else { return };
    let Ok((who, mut points)) = fighters.get_mut(me) else { return };
    points.ap = points.ap.saturating_sub(1);
    points.advanced = Some(Advanced { action: AdvancedKind::TotalDefense, spent: 1, needed: 2 });
    log.push(CombatEvent::Action {
        unit: who.id.clone(),
        action: "total defense".into(),
        detail: "begun (2 AP)".into(),
    });
}

/// Coup de grace and first aid are complex advanced actions: beginning one provokes every
/// threatening foe, whose attacks wait on the strike stack.
fn provoke_complex_action(turn: Res<Turn>, mut stack: ResMut<StrikeStack>) {
    let Some((me, plan)) = turn.accepted() else { return };
    if let Some((_, _, trigger, _)) = complex_action(&plan.command) {
        stack.0.push(Strike::Provoked { mover: me, trigger: trigger.into() });
    }
}

/// Once the attacks it drew are made: the complex action is begun, its first AP in, unless
/// they struck its maker down.
fn begin_complex_action(
    turn: Res<Turn>,
    mut fighters: Query<(&Combatant, &Conditions, &mut ActionPoints)>,
    mut log: ResMut<EventLog>,
) {
    let Some((me, plan)) = turn.accepted() else { return };
    let Some((action, name, _, needed)) = complex_action(&plan.command) else { return };
    let Ok((who, conditions, mut points)) = fighters.get_mut(me) else { return };
    let unit = who.id.clone();
    if !conditions.in_fight() {
        log.push(CombatEvent::Spoiled { unit, action: name.into(), reason: "struck down first".into() });
        return;
    }
    let target = match &action {
        AdvancedKind::CoupDeGrace { target } | AdvancedKind::FirstAid { target } => target.clone(),
        _ => String::new(),
    };
    points.advanced = Some(Advanced { action, spent: 1, needed });
    log.push(CombatEvent::Action { unit, action: name.into(), detail: format!("begun on {target} ({needed} AP)") });
}

/// "Initiate a Grapple (Attack; 2 AP)" is begun now (its first AP went in) and checked
/// with its second AP; the other maneuvers wait on the strike stack, as in every variant.
fn maneuver_or_begin_grapple(
    turn: Res<Turn>,
    combatants: Query<(Entity, &Combatant)>,
    mut points: Query<&mut ActionPoints>,
    mut log: ResMut<EventLog>,
    mut stack: ResMut<StrikeStack>,
) {
    let Some((me, plan)) = turn.accepted() else { return };
    let Command::Grapple { target } = &plan.command else {
        stack.0.extend(maneuver_strike(plan, me, |id| named(&combatants, id)));
        return;
    };
    let (Some(_), Ok((_, who)), Ok(mut mine)) = (named(&combatants, target), combatants.get(me), points.get_mut(me))
    else {
        return;
    };
    let action = AdvancedKind::Grapple { target: target.clone() };
    mine.advanced = Some(Advanced { action, spent: 1, needed: 2 });
    let detail = format!("begun on {target} (2 AP)");
    log.push(CombatEvent::Action { unit: who.id.clone(), action: "grapple".into(), detail });
}

/// "Once you ready an action, you forfeit all other actions this round."
fn forfeit_other_actions(turn: Res<Turn>, mut points: Query<&mut ActionPoints>) {
    let Some((me, _)) = turn.accepted() else { return };
    if let Ok(mut points) = points.get_mut(me) {
        points.ap = 1;
    }
}

/// "Cast a Standard-Action Spell (Complex; 2 AP)": begun now, its first AP in; the
/// attacks of opportunity it draws, and the concentration they break, wait on the strike
/// stack (`Strike::Spell`, left under way).
fn begin_casting(mut announcing: Announcing, mut stack: ResMut<StrikeStack>) {
    let Some(cast) = announcing.cast() else { return };
    announcing.announce(&cast, "begins casting");
    stack.0.push(cast.strike(false));
}

/// A spell begun and kept through the attacks it drew is under way: its second AP, at the
/// end of the turn, completes it (`go_on_with_advanced_action`).
fn cast_under_way(turn: Res<Turn>, mut under_way: ResMut<SpellsUnderWay>, mut points: Query<&mut ActionPoints>) {
    let Some((_, plan)) = turn.accepted() else { return };
    let Command::Cast { spell, target, defensive } = &plan.command else { return };
    for caster in under_way.0.drain(..) {
        if let Ok(mut points) = points.get_mut(caster) {
            let action = AdvancedKind::Cast { spell: spell.clone(), target: target.clone(), defensive: *defensive };
            points.advanced = Some(Advanced { action, spent: 1, needed: 2 });
        }
    }
}

/// Every action spends an AP; those that are advanced actions spent theirs already.
fn spend_action_point(turn: Res<Turn>, mut points: Query<&mut ActionPoints>) {
    let Some((me, plan)) = turn.accepted() else { return };
    let spent_already = matches!(
        plan.command,
        Command::EndTurn
            | Command::Delay
            | Command::Charge { .. }
            | Command::Defend
            | Command::Stance { .. }
            | Command::AbortOrder { .. }
            | Command::Declare { .. }
            | Command::Wrestle { follow_up: crate::combat::command::GrappleFollowUp::End }
    );
    if !spent_already && let Ok(mut points) = points.get_mut(me) {
        points.ap = points.ap.saturating_sub(1);
    }
}

/// One action a phase.
fn phase_action_taken(budget: &Budget) -> bool {
    !budget.own::<PhaseAction>().left
}
