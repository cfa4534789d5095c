//! What a variant watches of a walk. Where its plugin adds systems to the [`StepSchedule`]
//! (in [`WatchStep`]), every step stops the walk once its held attacks are made: those
//! systems see the walk in [`Walking`] with the square it left, and may push strikes onto
//! the [`StrikeStack`] (osr-segments' immediate attacks on a foe coming into reach), which
//! the harm driver makes with the plugin's [`ReactionsToSteps`] before the walk goes on. A
//! walk that arrives (at its path's end, or with its mover out of the fight) waits while
//! the variant's systems in the [`WalkOverSchedule`] ([`AfterWalk`]) follow it up
//! (osr-segments: allies passed are jostled); then the walk is ended: its mover off a
//! square it could only pass through, the move logged, and what follows it (a charge's
//! attack, a held foe dragged along).

use super::{StrikeStack, Walking, with_moves};
use bevy::ecs::schedule::ScheduleLabel;
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

/// The schedule run at each step of a walk, where the variant watches steps.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct StepSchedule;

/// The variant's systems that watch each step of a walk.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WatchStep;

impl WatchStep {
    pub fn name(self) -> &'static str {
        "walk: step"
    }
}

/// Whether the variant's plugin watches steps (its [`StepSchedule`] has systems): set as
/// the engine is built, so that walks elsewhere never stop at a step.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct StepsWatched(pub bool);

/// How the variant's foes react to a step they were drawn by (a `Strike::ToStep`), as its
/// plugin gives it: the harm driver makes each such strike with it.
#[derive(Resource, Clone, Copy)]
pub struct ReactionsToSteps(pub fn(&mut World, Entity, Entity));

pub(super) fn add_walk_schedules(app: &mut App) {
    app.add_schedule(super::rule_schedule(WalkOverSchedule));
    app.add_schedule(super::rule_schedule(StepSchedule));
    app.init_resource::<StepsWatched>();
}

/// The walk driver's follow-up, once no strike waits: a step the variant watches is shown
/// to its systems (which may push strikes; if they do, the walk waits for them), and the
/// walk goes on; a walk that arrived is followed up by the variant and ended.
pub(crate) fn follow_walk(world: &mut World) {
    while world.resource::<StrikeStack>().0.is_empty() {
        let Some(walk) = world.resource::<Walking>().0.as_ref() else { return };
        if walk.arrived() {
            world.run_schedule(WalkOverSchedule);
            with_moves(world, |world, moves| moves.end_arrived(world));
            return;
        }
        if walk.stepped_from().is_none() || !world.resource::<StepsWatched>().0 {
            return;
        }
        world.run_schedule(StepSchedule);
        if let Some(walk) = world.resource_mut::<Walking>().0.as_mut() {
            walk.step_seen();
        }
        if world.resource::<StrikeStack>().0.is_empty() {
            with_moves(world, |world, moves| moves.go_on(world));
        }
    }
}
