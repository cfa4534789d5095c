//! The end of a walk. A walk that arrives (at its path's end, or with its mover out of the
//! fight) waits in [`Walking`] while the walk driver runs the [`WalkOverSchedule`]: the
//! variant's systems in [`AfterWalk`] read the walk there (osr-segments: allies passed are
//! jostled). Then the walk is ended: its mover off a square it could only pass through,
//! the move logged, and what follows it (a charge's attack, a held foe dragged along).

use super::{Walking, with_moves};
use bevy::ecs::schedule::{LogLevel, Schedule, ScheduleBuildSettings, ScheduleLabel, SingleThreadedExecutor};
use bevy::prelude::*;

/// The schedule run as each walk is over.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct WalkOverSchedule;

/// The variant's systems that follow a walk that is over, before it is ended.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AfterWalk;

impl AfterWalk {
    pub fn name(self) -> &'static str {
        "walk: over"
    }
}

pub(super) fn add_walk_over(app: &mut App) {
    let mut schedule = Schedule::new(WalkOverSchedule);
    schedule.set_executor(SingleThreadedExecutor::new());
    schedule.set_build_settings(ScheduleBuildSettings { ambiguity_detection: LogLevel::Error, ..default() });
    app.add_schedule(schedule);
}

/// If the walk under way has arrived: the variant follows it up (the [`WalkOverSchedule`]),
/// and it is ended.
pub(crate) fn end_walk_if_arrived(world: &mut World) {
    if !world.resource::<Walking>().0.as_ref().is_some_and(|walk| walk.arrived()) {
        return;
    }
    world.run_schedule(WalkOverSchedule);
    with_moves(world, |b, moves| moves.end_arrived(b));
}
