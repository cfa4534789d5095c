//! ap-phases' combat maneuvers: the combat maneuver check against CMD, and what a
//! maneuver failed by 10 or more does to its maker.

use super::super::prelude::*;
use super::{points, points_mut};
use crate::combat::battle::store::Record;
use crate::rules::Wielded;

/// A maneuver: a combat maneuver check (CMB, −5 for each attack action before it this
/// round) against the target's CMD.
pub(crate) fn maneuver_check(b: &mut Battle, a: usize, t: usize, kind: Maneuver) -> Option<i32> {
    let what = if kind == Maneuver::Shove { "bull rush" } else { kind.name() };
    // An attack action: −5 for each taken before it this round.
    let cmb = super::grapple::cmb(b, a) - 5 * points(b, a).attack_actions as i32;
    points_mut(b, a).attack_actions += 1;
    Some(super::grapple::combat_maneuver(b, a, t, what, cmb, &[]))
}

/// ap-phases: a maneuver failed by 10 or more turns on its maker. "Trip … If you fail by 10
/// or more, you are knocked prone instead"; "Disarm … If you fail your combat maneuver by 10
/// or more, you drop any weapon you were using to disarm your foe."
pub(crate) fn lost_by_ten_backfires(
    taken: Res<TakenInStrike>,
    seats: Res<Seats>,
    record: Res<Record>,
    mut makers: Query<(&Combatant, &mut Conditions, &mut Wielded)>,
    mut log: ResMut<EventLog>,
    mut derived: ResMut<Derived>,
) {
    for &t in &taken.0 {
        let Taken::LostManeuver { by, kind, margin } = t else { continue };
        let Some(Ok((who, mut conditions, mut wielded))) = seats.0.get(by).map(|&e| makers.get_mut(e)) else {
            continue;
        };
        if margin > -10 {
            continue;
        }
        match kind {
            Maneuver::Trip => {
                change_condition(&who.id, &mut conditions, Condition::Prone, true, &mut log, &mut derived);
            }
            Maneuver::Disarm if wielded.id != "unarmed" => {
                wielded.def = std::sync::Arc::clone(&record.unarmed);
                wielded.id = "unarmed".into();
                derived.stale = true;
                log.push(CombatEvent::Action {
                    unit: who.id.clone(),
                    action: "is disarmed".into(),
                    detail: "fails by 10 or more and drops its own weapon".into(),
                });
            }
            _ => {}
        }
    }
}
