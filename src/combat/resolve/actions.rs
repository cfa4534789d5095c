//! Actions other than moving and attacking: total defense, delay, advanced actions,
//! standing up, reloading and the combat maneuvers (trip, shove, disarm, grapple).

use super::*;

/// The defensive action as most variants have it: its bonus to defence until it lapses.
pub(crate) fn defensive_bonus(b: &mut Battle, a: usize) {
    let id = b.fighters.combatant[a].id.clone();
    let numbers = b.variant.numbers();
    let (name, value) = numbers.defensive_action.clone();
    let detail = format!("{value:+} {}", numbers.defensive_lasts);
    b.fighters.bonuses[a].defense.push((name.clone(), value));
    b.emit(CombatEvent::Action { unit: id, action: name, detail });
}

/// Delaying to the end of the order: the new place is at the end of this round (phase),
/// and it stays (d20-classic, hex-phases).
pub(crate) fn delay_to_end_of_order(b: &mut Battle, a: usize, _plan: &Plan) {
    let id = b.fighters.combatant[a].id.clone();
    let last = b.clock.order.iter().map(|&i| b.fighters.initiative[i].order).min().unwrap_or(0);
    b.fighters.initiative[a].order = last - 1;
    b.clock.order.retain(|&i| i != a);
    b.clock.order.push(a);
    b.clock.queue.push(a);
    b.emit(CombatEvent::Action { unit: id, action: "delay".into(), detail: "acts last from now on".into() });
}

/// Standing up from prone; in a threatened square it provokes where the variant says so.
pub(super) fn stand(b: &mut Battle, a: usize) {
    if provokes(b, crate::variants::Provoking::StandingUp) {
        provoke_threateners(b, a, "stands up");
        if !b.fighters.conditions[a].in_fight() {
            return;
        }
    }
    lose(b, a, Condition::Prone);
}

/// Loading a crossbow: it provokes where the variant says so.
pub(super) fn reload(b: &mut Battle, a: usize) {
    if provokes(b, crate::variants::Provoking::Reloading) {
        provoke_threateners(b, a, "reloads");
        if !b.fighters.conditions[a].in_fight() {
            return;
        }
    }
    b.fighters.wielded[a].loaded = true;
    let id = b.fighters.combatant[a].id.clone();
    let name = b.fighters.wielded[a].def.name.clone();
    b.emit(CombatEvent::Action { unit: id, action: "reloads".into(), detail: name });
}

/// Trip, shove (push, bull rush), disarm or grapple: the variant's check, then what a
/// success does.
pub(super) fn maneuver(b: &mut Battle, a: usize, t: usize, kind: Maneuver) {
    let rules = b.rules();
    let (aid, tid) = (b.fighters.combatant[a].id.clone(), b.fighters.combatant[t].id.clone());
    let Some(margin) = rules.maneuver_check(b, a, t, kind) else { return };
    if margin < 0 {
        rules.maneuver_lost(b, a, kind, margin);
        return;
    }
    let shove = kind == Maneuver::Shove;
    if kind == Maneuver::Trip {
        gain(b, t, Condition::Prone);
    } else if kind == Maneuver::Grapple {
        gain(b, a, Condition::Grappled);
        gain(b, t, Condition::Grappled);
        b.fighters.grapple[a].with = Some(t);
        b.fighters.grapple[t].with = Some(a);
        b.fighters.grapple[a].holds = true;
    } else if shove {
        // 5 ft straight away from the attacker, and 5 more for every 5 the check won by.
        let squares = rules.shove_squares(margin);
        let (fa, ft) = (b.fighters.at(a).footprint(), b.fighters.at(t).footprint());
        let dx = (2 * ft.origin.x + ft.side - 2 * fa.origin.x - fa.side).signum();
        let dy = (2 * ft.origin.y + ft.side - 2 * fa.origin.y - fa.side).signum();
        let mut moved = Vec::new();
        for _ in 0..squares {
            b.refresh();
            let next = b.fighters.position[t].0.offset(dx, dy);
            let fp = Footprint::new(next, ft.side);
            let view = b.view();
            let free =
                fp.cells().all(|c| b.field.terrain.get(c).passable() && view.occupancy.at(c).is_none_or(|u| u == t));
            if !free {
                break;
            }
            b.fighters.position[t].0 = next;
            b.invalidate();
            moved.push(next);
        }
        if !moved.is_empty() {
            let cost = 5 * moved.len() as u32;
            let squares = moved.len();
            b.emit(CombatEvent::Moved { unit: tid, path: moved, cost_ft: cost, kind: "pushed back".into() });
            if rules.pusher_follows() {
                let path: Vec<GridPos> =
                    (1..=squares as i32).map(|k| b.fighters.position[a].0.offset(dx * k, dy * k)).collect();
                if let Some(&end) = path.last() {
                    b.fighters.position[a].0 = end;
                    b.invalidate();
                    b.emit(CombatEvent::Moved { unit: aid, path, cost_ft: cost, kind: "follows the push".into() });
                }
            }
        }
    } else {
        b.fighters.wielded[t].def = std::sync::Arc::clone(&b.unarmed);
        b.fighters.wielded[t].id = "unarmed".into();
        b.invalidate();
        b.emit(CombatEvent::Action { unit: tid, action: "is disarmed".into(), detail: "its weapon drops".into() });
    }
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

/// Whether `what` provokes attacks of opportunity under the battle's variant.
pub(crate) fn provokes(b: &Battle, what: crate::variants::Provoking) -> bool {
    b.variant.numbers().provoked_by.contains(&what)
}
