//! What must hold of the combatants after every command, as systems of the
//! [`InvariantsSchedule`] (run by `Battle::check_invariants`: the sim's `--check`, the golden
//! battles and the command fuzzer), each over the components it names: every living
//! fighter stands on open squares of the map, none shares a square, none has more hit
//! points than its maximum, and the one acting is alive. A variant adds the checks of its
//! own state (ap-phases: at most 3 AP; hex-phases: at most two moves a phase). The first
//! broken one is reported, with the units and squares involved.

use crate::combat::battle::Combatants;
use crate::combat::time::Clock;
use crate::grid::{Footprint, Terrain};
use crate::rules::{Battlefield, Body, Combatant, Conditions, Health, Position};
use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;

/// The schedule of the invariants, with [`Broken`].
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct InvariantsSchedule;

/// Every system of the [`InvariantsSchedule`]; a variant's own checks go in it too.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Invariants;

impl Invariants {
    pub fn name(self) -> &'static str {
        "invariants"
    }
}

/// A variant's own checks, after the common ones.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OwnInvariants;

/// The first invariant found broken, in words.
#[derive(Resource, Debug, Default)]
pub struct Broken(pub Option<String>);

impl Broken {
    /// Keeps `what` unless an earlier check found something already.
    pub fn found(&mut self, what: impl FnOnce() -> Option<String>) {
        if self.0.is_none() {
            self.0 = what();
        }
    }
}

pub(super) fn add_invariants(app: &mut App) {
    app.add_schedule(super::rule_schedule(InvariantsSchedule)).init_resource::<Broken>();
    app.add_systems(
        InvariantsSchedule,
        (fighters_stand_apart_on_open_squares, hit_points_within_maximum, the_one_acting_lives)
            .chain()
            .before(OwnInvariants)
            .in_set(Invariants),
    );
    app.configure_sets(InvariantsSchedule, OwnInvariants.in_set(Invariants));
}

/// Each living fighter's squares are on the map, not walls, and no one else's.
fn fighters_stand_apart_on_open_squares(
    seats: Res<Combatants>,
    field: Res<Battlefield>,
    fighters: Query<(&Combatant, &Position, &Body, &Conditions)>,
    mut broken: ResMut<Broken>,
) {
    broken.found(|| {
        let terrain = &field.terrain;
        let mut taken = std::collections::BTreeMap::new();
        for (who, at, body, conditions) in fighters.iter_many(&seats.0) {
            if !conditions.alive() {
                continue;
            }
            for cell in Footprint::new(at.0, body.size.side()).cells() {
                if !terrain.in_bounds(cell) {
                    return Some(format!("{} stands off the map at {cell}", who.id));
                }
                if terrain.get(cell) == Terrain::Wall {
                    return Some(format!("{} stands on a wall at {cell}", who.id));
                }
                if let Some(other) = taken.insert((cell.x, cell.y), &who.id) {
                    return Some(format!("{} and {other} share {cell}", who.id));
                }
            }
        }
        None
    });
}

/// No fighter has more hit points than its maximum, nor a maximum of none.
fn hit_points_within_maximum(
    seats: Res<Combatants>,
    fighters: Query<(&Combatant, &Health)>,
    mut broken: ResMut<Broken>,
) {
    broken.found(|| {
        fighters
            .iter_many(&seats.0)
            .find(|(_, health)| health.max <= 0 || health.hp > health.max)
            .map(|(who, health)| format!("{} has {} of {} hit points", who.id, health.hp, health.max))
    });
}

/// The fighter whose move it is is alive.
fn the_one_acting_lives(clock: Res<Clock>, fighters: Query<(&Combatant, &Conditions)>, mut broken: ResMut<Broken>) {
    broken.found(|| {
        let (who, conditions) = fighters.get(clock.actor?).ok()?;
        (!conditions.alive()).then(|| format!("{}, dead, is acting", who.id))
    });
}
