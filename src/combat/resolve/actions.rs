//! The combat maneuvers (trip, shove, disarm, grapple): what a success does (the
//! variant's check is its system, `schedule::maneuver`); and which actions provoke under a variant.

use super::strike::{A_COMBATANT, id, refresh, seat};
use super::*;
use crate::combat::battle::store::{self, Derived, EventLog, Record, TakenInStrike};
use crate::combat::fighter::Grapple;
use crate::rules::{Battlefield, Position, Wielded};
use bevy::prelude::{Entity, World};

/// Trip, shove (push, bull rush), disarm or grapple of `a`'s on `t`, checked, on the
/// battle's world: won by `margin` (below 0: lost, noted for the variant to count), what a
/// success does.
pub(crate) fn maneuver_checked(world: &mut World, a: Entity, t: Entity, kind: Maneuver, margin: i32) {
    if margin < 0 {
        world.resource_mut::<TakenInStrike>().0.push(Taken::LostManeuver { by: a, kind, margin });
        return;
    }
    match kind {
        Maneuver::Trip => {
            set_condition(world, t, Condition::Prone, true);
        }
        Maneuver::Grapple => {
            set_condition(world, a, Condition::Grappled, true);
            set_condition(world, t, Condition::Grappled, true);
            let mut holder = world.get_mut::<Grapple>(a).expect(A_COMBATANT);
            holder.with = Some(t);
            holder.holds = true;
            world.get_mut::<Grapple>(t).expect(A_COMBATANT).with = Some(a);
        }
        Maneuver::Shove => shove(world, a, t, margin),
        Maneuver::Disarm => {
            let unarmed = std::sync::Arc::clone(&world.resource::<Record>().unarmed);
            let mut wielded = world.get_mut::<Wielded>(t).expect(A_COMBATANT);
            wielded.def = unarmed;
            wielded.id = "unarmed".into();
            world.resource_mut::<Derived>().stale = true;
            let disarmed = CombatEvent::Action {
                unit: id(world, t),
                action: "is disarmed".into(),
                detail: "its weapon drops".into(),
            };
            world.resource_mut::<EventLog>().push(disarmed);
        }
    }
}

/// A successful shove: the target goes straight away from the pusher as far as the
/// variant's distance takes it, stopped short by whatever is in its way (a wall, a
/// creature, a wall's corner, the map's edge). A pusher that follows (four-actions) goes
/// after it along its own straight line, no further than the target went and stopped short
/// the same way, so it never ends on the target's square or anyone else's.
fn shove(world: &mut World, a: Entity, t: Entity, margin: i32) {
    refresh(world);
    let (pusher, direction, budget, pushed) = {
        let b = store::read(world);
        let (pusher, target) = (seat(&b, a), seat(&b, t));
        let (fa, ft) = (b.fighters.at(pusher).footprint(), b.fighters.at(target).footprint());
        let dx = (2 * ft.origin.x + ft.side - 2 * fa.origin.x - fa.side).signum();
        let dy = (2 * ft.origin.y + ft.side - 2 * fa.origin.y - fa.side).signum();
        let budget = b.variant.numbers().rules.shove.feet(b.fighters.stats[pusher].def.speed_ft, margin);
        (pusher, (dx, dy), budget, crate::rules::forced_line(&b.view(), target, (dx, dy), budget, usize::MAX))
    };
    let squares = pushed.squares.len();
    if !moved_by_force(world, t, pushed, "pushed back") {
        return;
    }
    if !world.resource::<Battlefield>().variant.numbers().rules.pusher_follows {
        return;
    }
    refresh(world);
    let follow = {
        let b = store::read(world);
        crate::rules::forced_line(&b.view(), pusher, direction, budget, squares)
    };
    moved_by_force(world, a, follow, "follows the push");
}

/// `e` goes along the forced line `path` (`kind`, in the log's words), if it goes at all.
fn moved_by_force(world: &mut World, e: Entity, path: crate::rules::ForcedLine, kind: &str) -> bool {
    let Some(&end) = path.squares.last() else { return false };
    world.get_mut::<Position>(e).expect(A_COMBATANT).0 = end;
    world.resource_mut::<Derived>().stale = true;
    let moved = CombatEvent::Moved { unit: id(world, e), path: path.squares, cost_ft: path.feet, kind: kind.into() };
    world.resource_mut::<EventLog>().push(moved);
    true
}

impl Maneuver {
    /// The maneuver in the log's words.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Maneuver::Trip => "trip",
            Maneuver::Shove => "shove",
            Maneuver::Disarm => "disarm",
            Maneuver::Grapple => "grapple",
        }
    }
}
