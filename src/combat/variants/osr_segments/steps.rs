//! osr-segments' clock: the systems that open each step of a round (its windows of time),
//! one a step: the step moves on, then declarations (a new round), the group initiative
//! with the fast actions, the multi-attack routines, the HIGH and LOW groups, and the
//! spells going off segment by segment (each segment's spells a strike for the harm
//! driver). Each system reads and changes only what its step names.

use super::super::prelude::*;
use super::round::{Declaration, OsrRound, OsrStep, in_high_group};
use crate::combat::battle::Derived;
use crate::combat::battle::store::Record;
use crate::combat::fighter::{Bonuses, Spells};
use crate::combat::schedule::TimeMoves;
use crate::combat::schedule::clock::round_cap;
use crate::combat::schedule::{Strike, StrikeStack};
use crate::combat::time::Clock;
use crate::rules::{Battlefield, Conditions, Dice, Side, Wielded};
use bevy::ecs::schedule::ScheduleConfigs;
use bevy::ecs::system::ScheduleSystem;
use bevy::prelude::{IntoScheduleConfigs, Query, Res, ResMut};

/// The systems of osr-segments' windows of time, in order, with `derive` (which brings
/// the derived maps up to date when something changed since) before the multi-attacks.
pub(super) fn add_steps(app: &mut App, derive: ScheduleConfigs<ScheduleSystem>) {
    app.add_systems(
        ClockSchedule,
        (
            next_step,
            surprise_and_delay_end,
            open_declarations,
            roll_group_initiative,
            derive,
            multi_attacks,
            group_acts,
            spells_go_off,
        )
            .chain()
            .in_set(ClockStep::Window),
    );
}

/// The round moves on to its next step; every fighter has its one free attack a segment
/// again.
fn next_step(mut round: ResMut<OsrRound>, mut reactions: Query<&mut Reactions>, mut time: ResMut<TimeMoves>) {
    time.window_due = false;
    round.step = match round.step {
        OsrStep::Declare => OsrStep::FastActions,
        OsrStep::FastActions => OsrStep::MultiFirst,
        OsrStep::MultiFirst => OsrStep::High,
        OsrStep::High => OsrStep::Low,
        OsrStep::Low => OsrStep::MultiRest,
        OsrStep::MultiRest => OsrStep::Spells,
        OsrStep::Spells => OsrStep::Declare,
    };
    for mut r in &mut reactions {
        r.used = 0;
    }
}

/// Whether a fighter may act in the round's steps: able to, and not surprised.
fn may_act(conditions: &Conditions) -> bool {
    conditions.can_act() && !conditions.has(Condition::Surprised)
}

/// Within a group, quicker weapons first (speed factor); `members` come in id order, and
/// ties keep it.
fn by_weapon_speed(mut members: Vec<(Entity, u32)>) -> Vec<Entity> {
    members.sort_by_key(|&(_, speed)| speed);
    members.into_iter().map(|(e, _)| e).collect()
}

/// Each combatant with what `fighters` reads of it, in id order.
fn in_id_order<'a, D: bevy::ecs::query::QueryData>(
    seats: &'a Combatants,
    fighters: &'a Query<D>,
) -> impl Iterator<Item = (Entity, bevy::ecs::query::ROQueryItem<'a, 'a, D>)> {
    seats.0.iter().filter_map(|&e| Some((e, fighters.get(e).ok()?)))
}

type RoundFighters<'w, 's> = Query<
    'w,
    's,
    (&'static Wielded, &'static Conditions, &'static mut Reactions, &'static mut Bonuses, &'static mut Declaration),
>;

/// As a new round opens after the first, surprise ends, and so does a delay.
fn surprise_and_delay_end(
    seats: Res<Combatants>,
    round: Res<OsrRound>,
    clock: Res<Clock>,
    mut fighters: Query<(&Combatant, &mut Conditions)>,
    mut log: ResMut<EventLog>,
) {
    if round.step != OsrStep::Declare || clock.round == 0 {
        return;
    }
    let mut each = fighters.iter_many_mut(&seats.0);
    while let Some((who, mut conditions)) = each.fetch_next() {
        for condition in [Condition::Surprised, Condition::Delayed] {
            if conditions.remove(condition) {
                log.push(CombatEvent::ConditionLost { unit: who.id.clone(), condition });
            }
        }
    }
}

/// A new round: everyone declares anew and effects lasting the round end; those able
/// declare, quickest weapon first.
fn open_declarations(
    seats: Res<Combatants>,
    round: Res<OsrRound>,
    mut fighters: RoundFighters,
    mut clock: ResMut<Clock>,
    mut record: ResMut<Record>,
    mut log: ResMut<EventLog>,
) {
    if round.step != OsrStep::Declare {
        return;
    }
    let mut each = fighters.iter_many_mut(&seats.0);
    while let Some((.., mut reactions, mut bonuses, mut declared)) = each.fetch_next() {
        clock::new_round(&mut reactions);
        *declared = Declaration::default();
        bonuses.clear();
    }
    clock.round += 1;
    round_cap(&mut clock, &mut record, &mut log);
    let r = clock.round;
    log.push(CombatEvent::RoundStarted { round: r });
    log.push(CombatEvent::PhaseStarted { round: r, phase: 0, name: "declarations".into() });
    let declaring = in_id_order(&seats, &fighters).filter(|(_, (_, conditions, ..))| may_act(conditions));
    clock.queue = by_weapon_speed(declaring.map(|(e, (wielded, ..))| (e, wielded.def.speed_factor)).collect());
}

/// Once all have declared, group initiative: a d6 a side, the highest HIGH (a tie puts
/// both HIGH). Then the fast actions: the declared chargers act, and the dying bleed (their
/// turn, once a round, comes here).
fn roll_group_initiative(
    seats: Res<Combatants>,
    mut round: ResMut<OsrRound>,
    fighters: Query<(&Side, &Wielded, &Conditions, &Declaration)>,
    mut dice: ResMut<Dice>,
    mut clock: ResMut<Clock>,
    mut log: ResMut<EventLog>,
) {
    if round.step != OsrStep::FastActions {
        return;
    }
    let mut sides: Vec<String> = fighters.iter_many(&seats.0).map(|(side, ..)| side.0.clone()).collect();
    sides.sort();
    sides.dedup();
    let rolls: Vec<(String, i32)> = sides.into_iter().map(|s| (s, dice.roll(6) as i32)).collect();
    let best = rolls.iter().map(|r| r.1).max().unwrap_or(0);
    round.high = rolls.iter().map(|(s, r)| (s.clone(), *r == best)).collect();
    for (side, roll) in rolls {
        let group = if roll == best { "HIGH" } else { "LOW" }.to_string();
        log.push(CombatEvent::GroupInitiative { side, roll, group });
    }
    let r = clock.round;
    log.push(CombatEvent::PhaseStarted { round: r, phase: 1, name: "fast actions (charge, flee)".into() });
    let acting = in_id_order(&seats, &fighters).filter(|(_, (_, _, conditions, declared))| {
        let charging = matches!(declared.intent, Some(Intent::Charge { .. }));
        (may_act(conditions) && charging) || (conditions.has(Condition::Dying) && conditions.alive())
    });
    clock.queue = by_weapon_speed(acting.map(|(e, (_, wielded, ..))| (e, wielded.def.speed_factor)).collect());
}

/// Fighters with the multi-attack ability in melee make their first routine before the
/// groups act, and those who attacked finish their remaining attacks after the LOW group.
fn multi_attacks(
    seats: Res<Combatants>,
    round: Res<OsrRound>,
    fighters: Query<(&Stats, &Wielded, &Conditions, &Declaration)>,
    field: Res<Battlefield>,
    derived: Res<Derived>,
    mut clock: ResMut<Clock>,
    mut log: ResMut<EventLog>,
) {
    let first = match round.step {
        OsrStep::MultiFirst => true,
        OsrStep::MultiRest => false,
        _ => return,
    };
    let view = derived.view(&field);
    // The derived maps name fighters by their place in id order.
    let members: Vec<(Entity, u32)> = (seats.0.iter().enumerate())
        .filter_map(|(seat, &e)| Some((seat, e, fighters.get(e).ok()?)))
        .filter(|&(seat, _, (stats, wielded, conditions, declared))| {
            may_act(conditions)
                && super::round::multi_attacker(stats, wielded)
                && crate::rules::movement::in_melee(&view, seat)
                && if first { !declared.acted } else { declared.attacked }
        })
        .map(|(_, e, (_, wielded, ..))| (e, wielded.def.speed_factor))
        .collect();
    if !members.is_empty() {
        let name = if first { "multi-attacks (first routine)" } else { "multi-attacks (remaining)" };
        log.push(CombatEvent::PhaseStarted { round: clock.round, phase: if first { 1 } else { 4 }, name: name.into() });
    }
    clock.queue = by_weapon_speed(members);
}

/// The HIGH group acts, then the LOW group (the delayed always with the LOW): each who has
/// not yet taken its major action, quickest weapon first.
fn group_acts(
    seats: Res<Combatants>,
    round: Res<OsrRound>,
    fighters: Query<(&Side, &Wielded, &Conditions, &Declaration)>,
    mut clock: ResMut<Clock>,
    mut log: ResMut<EventLog>,
) {
    let high = match round.step {
        OsrStep::High => true,
        OsrStep::Low => false,
        _ => return,
    };
    let name = if high { "HIGH group" } else { "LOW group" };
    log.push(CombatEvent::PhaseStarted { round: clock.round, phase: if high { 2 } else { 3 }, name: name.into() });
    let members = in_id_order(&seats, &fighters).filter(|(_, (side, _, conditions, declared))| {
        may_act(conditions) && !declared.acted && in_high_group(conditions, declared, side, &round) == high
    });
    clock.queue = by_weapon_speed(members.map(|(e, (_, wielded, ..))| (e, wielded.def.speed_factor)).collect());
}

/// Step 7: the spells still being cast go off in the segment their casting time says, the
/// HIGH group's before the LOW group's in the same segment (the delayed count as LOW);
/// spells of one group in one segment go off together; nobody acts. Each segment's spells
/// wait on the strike stack, the first on top, for the harm driver: a spell that hurts a
/// caster whose segment has not come yet breaks that one.
fn spells_go_off(
    round: Res<OsrRound>,
    seats: Res<Combatants>,
    fighters: Query<(&Spells, &Side, &Conditions, &Declaration)>,
    mut clock: ResMut<Clock>,
    mut log: ResMut<EventLog>,
    mut stack: ResMut<StrikeStack>,
) {
    if round.step != OsrStep::Spells {
        return;
    }
    let mut timed: Vec<((u32, bool), Entity)> = in_id_order(&seats, &fighters)
        .filter_map(|(e, (spells, side, conditions, declared))| {
            let sp = spell(&spells.casting.as_ref()?.spell)?;
            Some(((sp.segments, !in_high_group(conditions, declared, side, &round)), e))
        })
        .collect();
    if fighters.iter_many(&seats.0).any(|(spells, ..)| spells.casting.is_some()) {
        log.push(CombatEvent::PhaseStarted { round: clock.round, phase: 5, name: "spells by segment".into() });
    }
    timed.sort_by_key(|&(key, _)| key);
    let segments = timed.chunk_by(|x, y| x.0 == y.0).rev();
    stack.0.extend(segments.map(|batch| Strike::Segment { casters: batch.iter().map(|&(_, c)| c).collect() }));
    clock.queue = vec![];
}
