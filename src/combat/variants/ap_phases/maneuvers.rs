//! ap-phases' combat maneuvers: the combat maneuver check against CMD, and what a
//! maneuver failed by 10 or more does to its maker.

use super::super::prelude::*;
use super::ActionPoints;
use crate::combat::battle::store::Record;
use crate::combat::schedule::{Attempt, ManeuverTried};
use crate::rules::{Dice, Wielded};
use bevy::prelude::{Entity, World};

/// A maneuver: a combat maneuver check (CMB, −5 for each attack action before it this
/// round) against the target's CMD; it is an attack action, counted.
pub(super) fn check_against_cmd(
    mut tried: ResMut<ManeuverTried>,
    fighters: Query<(&Combatant, &Stats, &Body)>,
    mut points: Query<&mut ActionPoints>,
    mut dice: ResMut<Dice>,
    mut log: ResMut<EventLog>,
) {
    let Some(&Attempt { by, target, kind, .. }) = tried.attempt() else { return };
    let (Ok(maker), Ok(foe), Ok(mut points)) = (fighters.get(by), fighters.get(target), points.get_mut(by)) else {
        return;
    };
    tried.margin = Some(attack_action_against_cmd(&mut dice, &mut log, maker, foe, kind, &mut points));
}

/// ap-phases' grapple, its second AP in: the same check (`check_against_cmd`), on the
/// battle's world.
pub(super) fn grapple_check(world: &mut World, a: Entity, t: Entity) -> i32 {
    let mut points = world.get::<ActionPoints>(a).expect(resolve::A_COMBATANT).clone();
    let margin = resolve::with_dice_and_log(world, |world, dice, log| {
        let (maker, foe) = (super::combatant_parts(world, a), super::combatant_parts(world, t));
        attack_action_against_cmd(dice, log, maker, foe, Maneuver::Grapple, &mut points)
    });
    *world.get_mut::<ActionPoints>(a).expect(resolve::A_COMBATANT) = points;
    margin
}

/// The check: by how much the maker won (below 0: lost).
fn attack_action_against_cmd(
    dice: &mut Dice,
    log: &mut EventLog,
    (maker, maker_stats, maker_body): (&Combatant, &Stats, &Body),
    (foe, foe_stats, foe_body): (&Combatant, &Stats, &Body),
    kind: Maneuver,
    points: &mut ActionPoints,
) -> i32 {
    let what = if kind == Maneuver::Shove { "bull rush" } else { kind.name() };
    // An attack action: −5 for each taken before it this round.
    let cmb = super::grapple::cmb_of(maker_stats, maker_body) - 5 * points.attack_actions as i32;
    points.attack_actions += 1;
    let modifiers = vec![Modifier::new("combat maneuver bonus", cmb)];
    let cmd = super::grapple::cmd_of(foe_stats, foe_body);
    super::grapple::maneuver_roll(dice, log, (&maker.id, &foe.id), what, modifiers, cmd)
}

/// ap-phases: a maneuver failed by 10 or more turns on its maker. "Trip … If you fail by 10
/// or more, you are knocked prone instead"; "Disarm … If you fail your combat maneuver by 10
/// or more, you drop any weapon you were using to disarm your foe."
pub(crate) fn lost_by_ten_backfires(
    taken: Res<TakenInStrike>,
    record: Res<Record>,
    mut makers: Query<(&Combatant, &mut Conditions, &mut Wielded)>,
    mut log: ResMut<EventLog>,
    mut derived: ResMut<Derived>,
) {
    for &t in &taken.0 {
        let Taken::LostManeuver { by, kind, margin } = t else { continue };
        let Ok((who, mut conditions, mut wielded)) = makers.get_mut(by) else { continue };
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
