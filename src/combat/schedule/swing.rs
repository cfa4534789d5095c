//! An attack roll, as every variant has it: the systems of the [`SwingSchedule`], run for
//! each attack once its terms are weighed (the attack modifier systems). The die (d20 or
//! 3d6) is rolled against the number to reach, and the attack logged with every term; a
//! hit on a natural roll in the weapon's threat range is a threat, which the variant's data
//! makes a critical outright (four-actions), confirmed by a second roll that would hit (the
//! d20 family), or nothing (osr-segments, hex-phases: no criticals).

use crate::combat::battle::store::Record;
use crate::combat::battle::{Criticals, EventLog};
use crate::combat::event::CombatEvent;
use crate::combat::struck::{Swing, SwingSchedule, SwingStep, Swings};
use crate::combat::{AttackDie, AttackKind};
use crate::rules::{Battlefield, Combatant, Dice, Wielded};
use bevy::prelude::*;

pub(super) fn add_swing(app: &mut App) {
    app.add_schedule(super::rule_schedule(SwingSchedule)).init_resource::<Swing>();
    app.configure_sets(SwingSchedule, (SwingStep::Roll, SwingStep::Critical).chain().in_set(Swings));
    app.add_systems(
        SwingSchedule,
        (
            attack_rolled.in_set(SwingStep::Roll),
            threat_confirmed.run_if(|swing: Res<Swing>| swing.threat).in_set(SwingStep::Critical),
        ),
    );
}

/// The attack's die rolled against the number to reach, logged with every term by name.
fn attack_rolled(
    mut swing: ResMut<Swing>,
    field: Res<Battlefield>,
    fighters: Query<(&Combatant, &Wielded)>,
    mut dice: ResMut<Dice>,
    mut log: ResMut<EventLog>,
    mut record: ResMut<Record>,
) {
    let (Ok((attacker, wielded)), Ok((target, _))) = (fighters.get(swing.attacker), fighters.get(swing.target)) else {
        return;
    };
    let Some(p) = swing.profile.as_ref() else { return };
    let bonus = p.bonus();
    let rolls: Vec<i32> = match p.die {
        AttackDie::ThreeD6 => (0..3).map(|_| dice.roll(6) as i32).collect(),
        AttackDie::D20 { .. } => vec![dice.roll(20) as i32],
    };
    let natural: i32 = rolls.iter().sum();
    let hit = p.die.hits(natural, bonus, p.target_number);
    let numbers = field.variant.numbers();
    let threat = hit
        && matches!(p.die, AttackDie::D20 { .. })
        && numbers.rules.criticals != Criticals::None
        && natural >= wielded.def.crit_range as i32;
    let kind = match &swing.kind {
        AttackKind::Opportunity => numbers.opportunity_attack.as_str(),
        AttackKind::Secondary => "secondary attack on",
        AttackKind::Tertiary => "tertiary attack on",
        AttackKind::Iterative(_) => "iterative attack on",
        _ if swing.charge => "charges",
        _ => "attacks",
    };
    record.stats.attacks += 1;
    log.push(CombatEvent::Attack {
        attacker: attacker.id.clone(),
        target: target.id.clone(),
        kind: kind.into(),
        die: p.die.name().into(),
        rolls,
        modifiers: p.modifiers.clone(),
        total: natural + bonus,
        target_number: p.target_number,
        hit,
        critical: threat,
    });
    if hit {
        record.stats.hits += 1;
    }
    (swing.hit, swing.threat) = (hit, threat);
}

/// A threat is a critical: outright, or confirmed by a second roll that would hit.
fn threat_confirmed(
    mut swing: ResMut<Swing>,
    field: Res<Battlefield>,
    fighters: Query<&Combatant>,
    mut dice: ResMut<Dice>,
    mut log: ResMut<EventLog>,
    mut record: ResMut<Record>,
) {
    let critical = if field.variant.numbers().rules.criticals == Criticals::Confirmed {
        let (Ok(attacker), Ok(target)) = (fighters.get(swing.attacker), fighters.get(swing.target)) else { return };
        let Some(p) = swing.profile.as_ref() else { return };
        let (bonus, target_number) = (p.bonus(), p.target_number);
        let roll = dice.roll(20) as i32;
        let confirmed = p.die.hits(roll, bonus, target_number);
        log.push(CombatEvent::Confirm {
            attacker: attacker.id.clone(),
            target: target.id.clone(),
            roll,
            total: roll + bonus,
            target_number,
            confirmed,
        });
        confirmed
    } else {
        true
    };
    if critical {
        record.stats.criticals += 1;
    }
    swing.critical = critical;
}
