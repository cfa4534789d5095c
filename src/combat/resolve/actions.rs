//! The combat maneuvers (trip, shove, disarm, grapple): what a success does (the
//! variant's check is its system, `schedule::maneuver`); and which actions provoke under a variant.

use super::*;

/// Trip, shove (push, bull rush), disarm or grapple, checked: won by `margin` (below 0:
/// lost, noted for the variant to count), what a success does.
pub(crate) fn maneuver_checked(b: &mut Battle, a: usize, t: usize, kind: Maneuver, margin: i32) {
    let tid = b.fighters.combatant[t].id.clone();
    if margin < 0 {
        b.took(Taken::LostManeuver { by: b.fighters.entity(a), kind, margin });
        return;
    }
    if kind == Maneuver::Trip {
        gain(b, t, Condition::Prone);
    } else if kind == Maneuver::Grapple {
        gain(b, a, Condition::Grappled);
        gain(b, t, Condition::Grappled);
        b.fighters.grapple[a].with = Some(b.fighters.entity(t));
        b.fighters.grapple[t].with = Some(b.fighters.entity(a));
        b.fighters.grapple[a].holds = true;
    } else if kind == Maneuver::Shove {
        shove(b, a, t, margin);
    } else {
        b.fighters.wielded[t].def = std::sync::Arc::clone(&b.unarmed);
        b.fighters.wielded[t].id = "unarmed".into();
        b.invalidate();
        b.emit(CombatEvent::Action { unit: tid, action: "is disarmed".into(), detail: "its weapon drops".into() });
    }
}

/// A successful shove: the target goes straight away from the pusher as far as the
/// variant's distance takes it, stopped short by whatever is in its way (a wall, a
/// creature, a wall's corner, the map's edge). A pusher that follows (four-actions) goes
/// after it along its own straight line, no further than the target went and stopped short
/// the same way, so it never ends on the target's square or anyone else's.
fn shove(b: &mut Battle, a: usize, t: usize, margin: i32) {
    let (fa, ft) = (b.fighters.at(a).footprint(), b.fighters.at(t).footprint());
    let dx = (2 * ft.origin.x + ft.side - 2 * fa.origin.x - fa.side).signum();
    let dy = (2 * ft.origin.y + ft.side - 2 * fa.origin.y - fa.side).signum();
    let budget = b.variant.numbers().rules.shove.feet(b.fighters.stats[a].def.speed_ft, margin);
    b.refresh();
    let pushed = crate::rules::forced_line(&b.view(), t, (dx, dy), budget, usize::MAX);
    let Some(&end) = pushed.squares.last() else { return };
    let squares = pushed.squares.len();
    b.fighters.position[t].0 = end;
    b.invalidate();
    let tid = b.fighters.combatant[t].id.clone();
    b.emit(CombatEvent::Moved { unit: tid, path: pushed.squares, cost_ft: pushed.feet, kind: "pushed back".into() });
    if !b.variant.numbers().rules.pusher_follows {
        return;
    }
    b.refresh();
    let follow = crate::rules::forced_line(&b.view(), a, (dx, dy), budget, squares);
    let Some(&end) = follow.squares.last() else { return };
    b.fighters.position[a].0 = end;
    b.invalidate();
    let aid = b.fighters.combatant[a].id.clone();
    b.emit(CombatEvent::Moved {
        unit: aid,
        path: follow.squares,
        cost_ft: follow.feet,
        kind: "follows the push".into(),
    });
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
