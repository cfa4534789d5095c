//! Time in the rules schedule. When the acting fighter is done (the variant's own system
//! in the clock stage says so), time moves: the clock stage runs the [`ClockSchedule`]
//! until someone's opportunity is open or the battle is over. Each run either calls the
//! next fighter up ([`ClockStep::NextUp`]: `clock::tick` until one in the queue may act,
//! passing over those who cannot and making a dying one's death save on the way) or, once
//! the queue is empty, lets the variant's own system in [`ClockStep::Window`] open the next
//! round, phase or step.

use crate::combat::battle::store::{Record, lend};
use crate::combat::battle::{EventLog, Seats};
use crate::combat::clock::{self, Tick};
use crate::combat::event::CombatEvent;
use crate::combat::fighter::Reactions;
use crate::combat::time::Clock;
use crate::rules::Awareness;
use bevy::ecs::schedule::{LogLevel, Schedule, ScheduleBuildSettings, ScheduleLabel, SingleThreadedExecutor};
use bevy::prelude::*;

/// The schedule that moves time on: each run calls the next fighter up or opens the next
/// window of time.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ClockSchedule;

/// The steps of a run of the clock schedule, in order.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClockStep {
    /// The next fighter in the queue who may act: its opportunity opens.
    NextUp,
    /// The queue is empty: the variant opens its next window of time.
    Window,
}

impl ClockStep {
    pub const ALL: [ClockStep; 2] = [ClockStep::NextUp, ClockStep::Window];

    pub fn name(self) -> &'static str {
        match self {
            ClockStep::NextUp => "clock: next up",
            ClockStep::Window => "clock: window",
        }
    }
}

/// Whether time is moving, and where it is in doing so.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct TimeMoves {
    pub moving: bool,
    /// The queue ran out: a new window of time is to open.
    pub window_due: bool,
    /// Windows opened while looking for someone to act.
    pub windows: u32,
}

impl TimeMoves {
    /// The acting fighter is done: once the command is settled (no walk under way, no
    /// reaction waiting), time moves on to the next.
    pub fn start(&mut self) {
        *self = TimeMoves { moving: true, window_due: false, windows: 0 };
    }

    /// The battle begins: its first window opens, then time moves to the first to act.
    pub fn begin(&mut self) {
        *self = TimeMoves { moving: true, window_due: true, windows: 0 };
    }
}

pub(super) fn add_clock(app: &mut App) {
    let mut schedule = Schedule::new(ClockSchedule);
    schedule.set_executor(SingleThreadedExecutor::new());
    schedule.set_build_settings(ScheduleBuildSettings { ambiguity_detection: LogLevel::Error, ..default() });
    app.add_schedule(schedule).init_resource::<TimeMoves>();
    app.configure_sets(
        ClockSchedule,
        (
            ClockStep::NextUp.run_if(|t: Res<TimeMoves>| t.moving && !t.window_due),
            ClockStep::Window.run_if(|t: Res<TimeMoves>| t.window_due),
        )
            .chain(),
    );
    app.add_systems(ClockSchedule, call_next.in_set(ClockStep::NextUp));
}

/// Calls the next fighter up, passing over those who cannot act, until one may or the
/// window is used up.
fn call_next(world: &mut World) {
    world.resource_scope(|world, mut time: Mut<TimeMoves>| {
        let mut battle = lend(world);
        let mut windows = time.windows;
        loop {
            match clock::tick(&mut battle, &mut windows) {
                Tick::OpenWindow => time.window_due = true,
                Tick::Again => continue,
                Tick::Settled => time.moving = false,
            }
            break;
        }
        time.windows = windows;
    })
}

/// Runs the clock schedule until time stands again.
pub(crate) fn run_the_clock(world: &mut World) {
    world.resource_mut::<crate::combat::time::Clock>().actor = None;
    while world.resource::<TimeMoves>().moving {
        world.run_schedule(ClockSchedule);
    }
}

/// d20-classic's and four-actions' window of time: a surprise round for those aware of
/// their foes (in initiative order; four-actions' plugin reorders it), then round after
/// round in initiative order, everyone's reactions back at the start of each.
pub(crate) fn next_round(
    seats: Res<Seats>,
    mut fighters: Query<(&Awareness, &mut Reactions)>,
    mut clock: ResMut<Clock>,
    mut record: ResMut<Record>,
    mut log: ResMut<EventLog>,
    mut time: ResMut<TimeMoves>,
) {
    time.window_due = false;
    if clock.surprise_pending {
        clock.surprise_pending = false;
        clock.surprise = true;
        log.push(CombatEvent::RoundStarted { round: 0 });
        log.push(CombatEvent::PhaseStarted { round: 0, phase: 0, name: "surprise round".into() });
        let aware = |i: usize| seats.0.get(i).and_then(|&e| fighters.get(e).ok()).is_some_and(|(a, _)| a.aware);
        clock.queue = clock.order.iter().copied().filter(|&i| aware(i)).collect();
        return;
    }
    clock.surprise = false;
    clock.round += 1;
    let mut each = fighters.iter_many_mut(&seats.0);
    while let Some((_, mut reactions)) = each.fetch_next() {
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
