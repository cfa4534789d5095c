//! ap-phases' combat maneuvers: the combat maneuver check against CMD, and what a
//! maneuver failed by 10 or more does to its maker.

use super::super::prelude::*;
use super::{points, points_mut};

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
pub(super) fn backfire(b: &mut Battle, a: usize, kind: Maneuver) {
    match kind {
        Maneuver::Trip => {
            gain(b, a, Condition::Prone);
        }
        Maneuver::Disarm if b.fighters.wielded[a].id != "unarmed" => {
            b.fighters.wielded[a].def = std::sync::Arc::clone(&b.unarmed);
            b.fighters.wielded[a].id = "unarmed".into();
            b.invalidate();
            let unit = b.fighters.combatant[a].id.clone();
            b.emit(CombatEvent::Action {
                unit,
                action: "is disarmed".into(),
                detail: "fails by 10 or more and drops its own weapon".into(),
            });
        }
        _ => {}
    }
}
