//! The common systems of the rules schedule: taking a command in, checking it without
//! changing anything, the common rule in each resolve slot, the end of the battle, the
//! derived state, and the clock.

use super::{
    Pass, Reaction, ReactionStack, RulesSchedule, RulesStage, Slot, Turn, act, with_accepted_moves, with_moves,
};
use crate::combat::battle::store::Record;
use crate::combat::battle::{self, Derived, EventLog, Seats};
use crate::combat::resolve::{self, Walk};
use crate::combat::time::Clock;
use crate::rules::components::RosterQuery;
use crate::rules::{Battlefield, Conditions, Roster, Side, unit_view};
use bevy::prelude::*;

pub(super) fn add_common(app: &mut App) {
    app.add_systems(
        RulesSchedule,
        (
            (take_command, derive_maps.run_if(derived_is_stale)).chain().in_set(RulesStage::Intake),
            judge_command
                .pipe(take_verdict)
                .run_if(|turn: Res<Turn>| matches!(*turn, Turn::Taken(_)))
                .in_set(RulesStage::Validate),
            super::stances::spend_budget.in_set(Slot::Spend),
            start_walking.in_set(Slot::Movement),
            walk_next_leg
                .run_if(|pass: Res<Pass>| pass.0 > 0)
                .after(Slot::Movement)
                .before(Slot::Attack)
                .in_set(RulesStage::Resolve),
            (make_attack_of_opportunity, make_held_attack, make_step_reaction)
                .chain()
                .run_if(|stack: Res<ReactionStack>| !stack.0.is_empty())
                .in_set(RulesStage::Reactions),
            act(resolve::attack_or_reload).in_set(Slot::Attack),
            charge_straight.in_set(Slot::Charge),
            super::stances::take_defensive_action.in_set(Slot::Defend),
            act(resolve::maneuver_or_stand).in_set(Slot::Maneuver),
            act(resolve::escape_by_opposed_check).in_set(Slot::Escape),
            super::stances::hold_attack.in_set(Slot::Hold),
            super::stances::take_stance.in_set(Slot::Stance),
            act(resolve::cast_at_once).in_set(Slot::Cast),
            end_if_decided.in_set(RulesStage::Victory),
            derive_maps.run_if(derived_is_stale).in_set(RulesStage::Derive),
        ),
    );
}

/// Something moved since occupancy and threat were last worked out.
fn derived_is_stale(derived: Res<Derived>) -> bool {
    derived.stale
}

/// Takes the given command in.
fn take_command(mut turn: ResMut<Turn>) {
    if !matches!(*turn, Turn::Ordered(_)) {
        return;
    }
    let Turn::Ordered(command) = std::mem::take(&mut *turn) else { return };
    *turn = Turn::Taken(command);
}

/// The roster, occupancy and threat map as the combatants stand, from each one's own
/// components (`rules::unit_view`), in seat (id) order: before the checks, and after a
/// command has moved anything.
fn derive_maps(seats: Res<Seats>, combatants: RosterQuery, field: Res<Battlefield>, mut derived: ResMut<Derived>) {
    let units = combatants
        .iter_many(&seats.0)
        .map(|(c, side, pos, body, reach, stats, wielded, conditions)| {
            (unit_view(field.variant, c, pos, body, reach, stats, wielded, conditions), side.0.clone())
        })
        .collect();
    derived.rebuild(&field, Roster::new(units));
}

/// Whether the command taken in is legal now, what it costs and where it goes: a check
/// over the battle as it stands, reading only (`store::read` of the shared world).
pub fn judge_command(world: &World) -> Option<Turn> {
    let Turn::Taken(command) = world.resource::<Turn>() else { return None };
    let battle = battle::store::read(world);
    Some(match (battle.check_command(command), battle.actor()) {
        (Ok(plan), Some(actor)) => Turn::Accepted { actor, plan },
        (Err(e), _) => Turn::Refused(e),
        (Ok(_), None) => unreachable!("a command is checked only for the fighter acting now"),
    })
}

/// The check's verdict on the command becomes the turn's.
fn take_verdict(In(verdict): In<Option<Turn>>, mut turn: ResMut<Turn>) {
    if let Some(verdict) = verdict {
        *turn = verdict;
    }
}

/// A move or a 5-ft step sets out along its planned path, to the first square where the
/// walk stops: leaving it provokes, or entering it draws a held attack or the variant's
/// reaction to a step.
fn start_walking(world: &mut World) {
    with_accepted_moves(world, |battle, actor, plan, moves| {
        let path = plan.path.as_ref().expect("a move has a path");
        let kind = match plan.command {
            crate::combat::Command::Step { .. } => battle.variant.numbers().step_name.clone(),
            _ => "move".into(),
        };
        let walk = Walk::new(battle, actor, path, &kind, None);
        moves.set_out(battle, walk);
    })
}

/// A charge sets out on its straight line; its attack follows the walk.
fn charge_straight(world: &mut World) {
    with_accepted_moves(world, |battle, actor, plan, moves| {
        if let (Some(t), Some(path)) = (resolve::target_of(battle, plan), plan.path.as_ref()) {
            let walk = resolve::charge_walk(battle, actor, t, path);
            moves.set_out(battle, walk);
        }
    })
}

/// Once the reactions at its stop are made, a walk goes on to its next stop or its end.
fn walk_next_leg(world: &mut World) {
    with_moves(world, |battle, moves| moves.go_on(battle));
}

/// The attack of opportunity on top of the stack is made.
fn make_attack_of_opportunity(world: &mut World) {
    if let Some(Reaction::Opportunity { by, mover, trigger }) =
        pop_if(world, |r| matches!(r, Reaction::Opportunity { .. }))
    {
        resolve::opportunity(&mut battle::store::lend(world), by, mover, &trigger);
    }
}

/// The reaction on top of the stack, taken off it if it is `of` that kind.
fn pop_if(world: &mut World, of: impl Fn(&Reaction) -> bool) -> Option<Reaction> {
    let mut stack = world.resource_mut::<ReactionStack>();
    if stack.0.last().is_some_and(of) { stack.0.pop() } else { None }
}

/// The variant's reaction to a step on top of the stack is made (osr-segments: an
/// immediate attack).
fn make_step_reaction(world: &mut World) {
    if let Some(Reaction::ToStep { by, mover }) = pop_if(world, |r| matches!(r, Reaction::ToStep { .. })) {
        let b = &mut battle::store::lend(world);
        b.rules().step_reaction(b, by, mover);
    }
}

/// The held attack on top of the stack is made.
pub(crate) fn make_held_attack(world: &mut World) {
    if let Some(Reaction::HeldAttack { by, mover }) = pop_if(world, |r| matches!(r, Reaction::HeldAttack { .. })) {
        resolve::held_attack(&mut battle::store::lend(world), by, mover);
    }
}

/// A side out of the fight ends the battle: read from each fighter's side and conditions,
/// written to the battle's record, its clock and its log.
fn end_if_decided(
    seats: Res<Seats>,
    fighters: Query<(&Side, &Conditions)>,
    mut record: ResMut<Record>,
    mut clock: ResMut<Clock>,
    mut log: ResMut<EventLog>,
    mut turn: ResMut<Turn>,
) {
    let sides = battle::sides_in_fight(fighters.iter_many(&seats.0));
    if let Some((winner, reason)) = battle::decided(sides) {
        battle::finish(&mut record.winner, &mut clock, &mut log, winner, reason);
        *turn = Turn::Decided;
    }
}
