//! ap-phases' combat maneuvers: the combat maneuver check against CMD, and what a
//! maneuver failed by 10 or more does to its maker.

use super::super::prelude::*;
use super::{points, points_mut};

/// A maneuver: a combat maneuver check (CMB, −5 for each attack action before it this
/// round) against the target's CMD.
pub(crate) fn maneuver_check(b: &mut Battle, a: usize, t: usize, kind: Maneuver) -> Option<i32> {
    let what = kind.name();
    let (aid, tid) = (b.fighters.combatant[a].id.clone(), b.fighters.combatant[t].id.clone());
    let shove = kind == Maneuver::Shove;
    let f = b.fighters.at(a);
    let size = |i: usize| -b.fighters.body[i].size.size_modifier().clamp(-2, 2);
    let cmb = f.stats().def.base_attack + f.stats().str_mod() + size(a) - 5 * points(b, a).attack_actions as i32;
    let g = b.fighters.at(t);
    let cmd = 10 + g.stats().def.base_attack + g.stats().str_mod() + g.stats().dex_mod() + size(t);
    points_mut(b, a).attack_actions += 1;
    let roll = b.dice.roll(20) as i32;
    b.emit(CombatEvent::Attack {
        attacker: aid.clone(),
        target: tid.clone(),
        kind: format!("{} (combat maneuver) on", if shove { "bull rush" } else { what }),
        die: "d20".into(),
        rolls: vec![roll],
        modifiers: vec![Modifier::new("combat maneuver bonus", cmb)],
        total: roll + cmb,
        target_number: cmd,
        hit: roll + cmb >= cmd,
        critical: false,
    });
    Some(roll + cmb - cmd)
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
