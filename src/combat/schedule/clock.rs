//! Time in the rules schedule. When the acting fighter is done (the variant's own system
//! in the clock stage says so), time moves: the clock stage runs the [`ClockSchedule`]
//! until someone's opportunity is open or the battle is over. Each run either calls the
//! next fighter up ([`ClockStep::NextUp`]: `call_next` passes over those who cannot act and
//! stops at one who may, or at a dying one, whose turn its variant's system then takes in
//! [`ClockStep::DyingTurn`]) and opens its opportunity ([`ClockStep::Opens`]: its fresh
//! budget, its turn's start, what its variant gives back), or, once the queue is empty,
//! lets the variant's systems in
//! [`ClockStep::Window`] open the next round, phase or step. The first run starts the
//! battle ([`ClockStep::Begin`]: the variant's systems roll initiative).

use crate::combat::battle::store::Record;
use crate::combat::battle::{self, Derived, EventLog};
use crate::combat::clock;
use crate::combat::event::CombatEvent;
use crate::combat::fighter::{Bonuses, Economy, Reactions};
use crate::combat::time::Clock;
use crate::rules::{Awareness, Combatant, Condition, Conditions, Side};
use bevy::ecs::schedule::ScheduleLabel;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

/// The schedule that moves time on: each run calls the next fighter up or opens the next
/// window of time.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ClockSchedule;

/// The steps of a run of the clock schedule, in order.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClockStep {
    /// The battle starts (the first run only): whether a surprise round (phase) comes,
    /// then the variant's systems roll or score initiative and set who starts surprised.
    Begin,
    /// The next fighter in the queue who may act is called.
    NextUp,
    /// A dying fighter was called: its variant's system in [`super::DyingTurn`] takes its
    /// turn, where it falls in the window open now.
    DyingTurn,
    /// The fighter called gets its fresh budget, and its opportunity opens: its turn
    /// starts (effects lasting until then end) and it regains what its variant gives back.
    Opens,
    /// The queue is empty: the variant opens its next window of time.
    Window,
}

impl ClockStep {
    pub const ALL: [ClockStep; 5] =
        [ClockStep::Begin, ClockStep::NextUp, ClockStep::DyingTurn, ClockStep::Opens, ClockStep::Window];

    pub fn name(self) -> &'static str {
        match self {
            ClockStep::Begin => "clock: begin",
            ClockStep::NextUp => "clock: next up",
            ClockStep::DyingTurn => "clock: dying turn",
            ClockStep::Opens => "clock: opens",
            ClockStep::Window => "clock: window",
        }
    }
}

/// The parts of the [`ClockStep::Opens`] step, in order: the fresh budget, then the
/// turn's start (common), then what the variant gives back.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opening {
    Budget,
    TurnStarts,
    GivenBack,
}

/// Whether time is moving, and where it is in doing so.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct TimeMoves {
    pub moving: bool,
    /// The queue ran out: a new window of time is to open.
    pub window_due: bool,
    /// Windows opened while looking for someone to act.
    pub windows: u32,
    /// The battle is starting: the [`ClockStep::Begin`] step is due.
    pub beginning: bool,
}

impl TimeMoves {
    /// The acting fighter is done: once the command is settled (no walk under way, no
    /// reaction waiting), time moves on to the next.
    pub fn start(&mut self) {
        *self = TimeMoves { moving: true, ..TimeMoves::default() };
    }

    /// The battle begins: initiative, its first window opens, then time moves to the
    /// first to act.
    pub fn begin(&mut self) {
        *self = TimeMoves { moving: true, window_due: true, windows: 0, beginning: true };
    }
}

pub(super) fn add_clock(app: &mut App) {
    app.add_schedule(super::rule_schedule(ClockSchedule)).init_resource::<TimeMoves>().init_resource::<Called>();
    app.init_resource::<FreshBudget>();
    app.configure_sets(
        ClockSchedule,
        (
            ClockStep::Begin.run_if(|t: Res<TimeMoves>| t.beginning),
            ClockStep::NextUp.run_if(|t: Res<TimeMoves>| t.moving && !t.window_due),
            ClockStep::DyingTurn.run_if(|called: Res<Called>| matches!(*called, Called::Dying(_))),
            ClockStep::Opens.run_if(|called: Res<Called>| matches!(*called, Called::Acts(_))),
            ClockStep::Window.run_if(|t: Res<TimeMoves>| t.window_due),
        )
            .chain(),
    );
    app.configure_sets(
        ClockSchedule,
        (Opening::Budget, Opening::TurnStarts, Opening::GivenBack).chain().in_set(ClockStep::Opens),
    );
    app.add_systems(
        ClockSchedule,
        (
            (surprise_round_due, clock_at_zero.after(RollsInitiative)).in_set(ClockStep::Begin),
            call_next.in_set(ClockStep::NextUp),
            (weigh_fresh_budget, give_fresh_budget).chain().in_set(Opening::Budget),
            turn_starts.in_set(Opening::TurnStarts),
        ),
    );
    app.configure_sets(ClockSchedule, RollsInitiative.after(surprise_round_due).in_set(ClockStep::Begin));
    app.configure_sets(ClockSchedule, super::DyingTurn.in_set(ClockStep::DyingTurn));
}

/// The variant's systems in the [`ClockStep::Begin`] step that roll or score initiative
/// and set who starts surprised: after the common check for a surprise round, before the
/// clock is set at its zero.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RollsInitiative;

/// A surprise round (phase) comes if some are aware of their foes and some are not, where
/// the variant has one.
fn surprise_round_due(awareness: Query<&Awareness>, record: Res<Record>, mut clock: ResMut<Clock>) {
    let (mut some_aware, mut some_unaware) = (false, false);
    for a in &awareness {
        some_aware |= a.aware;
        some_unaware |= !a.aware;
    }
    clock.surprise_pending = some_aware && some_unaware && record.variant.numbers().rules.surprise_round;
}

/// The surprise round (phase) is round 0; the fight proper opens on round 1. The battle has
/// begun.
fn clock_at_zero(mut clock: ResMut<Clock>, mut time: ResMut<TimeMoves>) {
    clock.round = 0;
    clock.phase = 0;
    clock.actor = None;
    time.beginning = false;
}

/// The budget the fighter called gets, as its variant weighs it (a formula of the
/// variant's, which the action bar's costs ask too), until it is given.
#[derive(Resource, Default)]
struct FreshBudget(Option<crate::combat::time::Budget>);

/// Weighs the called fighter's fresh budget, reading the battle as the checks do.
fn weigh_fresh_budget(called: Res<Called>, check: battle::store::BattleCheck, mut fresh: ResMut<FreshBudget>) {
    let Called::Acts(e) = *called else { return };
    let battle = check.battle();
    fresh.0 = battle.fighters.seat_of(e).map(|i| battle.fresh_budget_of(i));
}

/// Gives the called fighter the budget weighed for it.
fn give_fresh_budget(called: Res<Called>, mut fresh: ResMut<FreshBudget>, mut economies: Query<&mut Economy>) {
    let (Called::Acts(e), Some(budget)) = (*called, fresh.0.take()) else { return };
    if let Ok(mut economy) = economies.get_mut(e) {
        economy.budget = budget;
    }
}

/// A fighter's turn starts: the bonuses lasting until then end, it has acted (for
/// surprise), and a held action not taken by now is lost. (Variants without turns, whose
/// opportunities are phases or segments, take this system out.)
pub(crate) fn turn_starts(
    called: Res<Called>,
    mut fighters: Query<(&Combatant, &mut Bonuses, &mut Awareness, &mut Reactions)>,
    mut log: ResMut<EventLog>,
) {
    let Called::Acts(e) = *called else { return };
    let Ok((who, mut bonuses, mut awareness, mut reactions)) = fighters.get_mut(e) else { return };
    log.push(CombatEvent::TurnStarted { unit: who.id.clone() });
    bonuses.clear();
    awareness.has_acted = true;
    reactions.held = None;
}

/// Those unaware of their foes start the battle `condition` (d20-classic: flat-footed;
/// osr-segments, and hex-phases through its surprise phase: surprised).
pub(crate) fn unaware_are(condition: Condition, fighters: &mut Query<(&Awareness, &mut Conditions)>) {
    for (awareness, mut conditions) in fighters {
        if !awareness.aware {
            conditions.add(condition);
        }
    }
}

/// At the start of its turn the fighter called has its reactions back, and stops being
/// `condition` (d20-classic: flat-footed; four-actions: surprised): what the variant's
/// system in [`Opening::GivenBack`] does.
pub(crate) fn reactions_back_and_no_longer(
    condition: Condition,
    called: &Called,
    fighters: &mut Query<(&Combatant, &mut Reactions, &mut Conditions)>,
    log: &mut EventLog,
    derived: &mut Derived,
) {
    let Some(e) = called.opening() else { return };
    let Ok((who, mut reactions, mut conditions)) = fighters.get_mut(e) else { return };
    reactions.used = 0;
    battle::change_condition(&who.id, &mut conditions, condition, false, log, derived);
}

/// Whom the clock called on its last run: a fighter whose opportunity opens, or a dying
/// one whose turn (its save, check or bleeding) comes.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub enum Called {
    #[default]
    Nobody,
    Acts(Entity),
    Dying(Entity),
}

impl Called {
    /// The fighter whose opportunity opens now, if one does.
    pub fn opening(&self) -> Option<Entity> {
        let Called::Acts(e) = *self else { return None };
        Some(e)
    }
}

/// Calls the next fighter up: passes over the fallen and those who cannot act, stops at a
/// dying one (whose turn the clock then takes), and opens the window of time when the
/// queue is empty. Ends the battle when a side is out of the fight, or when more than 64
/// windows open with nobody able to act.
fn call_next(
    fighters: Query<(&Side, &Conditions)>,
    mut clock: ResMut<Clock>,
    mut record: ResMut<Record>,
    mut log: ResMut<EventLog>,
    mut time: ResMut<TimeMoves>,
    mut called: ResMut<Called>,
) {
    let record = &mut *record;
    *called = Called::Nobody;
    if record.winner.is_none()
        && let Some((winner, reason)) = battle::decided(fighters.iter())
    {
        battle::finish(&mut record.winner, &mut clock, &mut log, winner, reason);
    }
    while record.winner.is_none() {
        if clock.queue.is_empty() {
            time.windows += 1;
            if time.windows <= 64 {
                time.window_due = true;
                return;
            }
            battle::finish(&mut record.winner, &mut clock, &mut log, None, "nobody can act");
            break;
        }
        let next = clock.queue.remove(0);
        let Ok((_, conditions)) = fighters.get(next) else { continue };
        if !conditions.alive() || (!conditions.in_fight() && !conditions.has(Condition::Dying)) {
            continue;
        }
        if !conditions.in_fight() {
            *called = Called::Dying(next);
            return;
        }
        if conditions.can_act() {
            clock.actor = Some(next);
            *called = Called::Acts(next);
            break;
        }
    }
    time.moving = false;
}

/// The clock: runs the clock schedule until time stands again, making the strikes a window
/// of time pushed (with the harm driver) after each run. Whom a run called (a dying
/// fighter, whose turn it took, or one whose opportunity it opened) is then forgotten.
pub(crate) fn run_the_clock(world: &mut World) {
    world.resource_mut::<Clock>().actor = None;
    while world.resource::<TimeMoves>().moving {
        world.run_schedule(ClockSchedule);
        // What a window of time sets going that harms (osr-segments' spells going off) is
        // made now, strike by strike, before time moves on.
        while !world.resource::<super::StrikeStack>().0.is_empty() {
            super::make_strike(world);
        }
        *world.resource_mut::<Called>() = Called::Nobody;
    }
}

/// What a window of time opening changes of the battle as a whole: the clock (its round,
/// phase and queue), the record and log (a round past the cap ends the battle), and whether
/// a window is still due. Each variant's system that opens its windows takes it.
#[derive(SystemParam)]
pub(crate) struct WindowOpens<'w> {
    clock: ResMut<'w, Clock>,
    record: ResMut<'w, Record>,
    log: ResMut<'w, EventLog>,
    time: ResMut<'w, TimeMoves>,
}

impl<'w> WindowOpens<'w> {
    /// The window is open (no longer due): the clock, record and log to open it with.
    pub(crate) fn open(mut self) -> (ResMut<'w, Clock>, ResMut<'w, Record>, ResMut<'w, EventLog>) {
        self.time.window_due = false;
        (self.clock, self.record, self.log)
    }
}

/// d20-classic's and four-actions' window of time: a surprise round for those aware of
/// their foes (in initiative order; four-actions' plugin reorders it), then round after
/// round in initiative order, everyone's reactions back at the start of each.
pub(crate) fn next_round(mut fighters: Query<(&Awareness, &mut Reactions)>, window: WindowOpens) {
    let (mut clock, mut record, mut log) = window.open();
    if clock.surprise_pending {
        clock.surprise_pending = false;
        clock.surprise = true;
        log.push(CombatEvent::RoundStarted { round: 0 });
        log.push(CombatEvent::PhaseStarted { round: 0, phase: 0, name: "surprise round".into() });
        let aware = |e: Entity| fighters.get(e).is_ok_and(|(a, _)| a.aware);
        clock.queue = clock.order.iter().copied().filter(|&e| aware(e)).collect();
        return;
    }
    clock.surprise = false;
    clock.round += 1;
    for (_, mut reactions) in &mut fighters {
        clock::new_round(&mut reactions);
    }
    round_cap(&mut clock, &mut record, &mut log);
    log.push(CombatEvent::RoundStarted { round: clock.round });
    clock.queue = clock.order.clone();
}

/// A round past the battle's cap ends it in a draw.
pub(crate) fn round_cap(clock: &mut Clock, record: &mut Record, log: &mut EventLog) {
    if clock.round > record.options.round_cap {
        crate::combat::battle::finish(&mut record.winner, clock, log, None, "round cap reached");
    }
}
