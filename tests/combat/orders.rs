//! Orders given ahead: hex-phases aborts to a dodge, osr-segments declarations.

use super::*;
use fivefoot::combat::variants::osr_segments;

/// hex-phases: the wolf (CV 5) acts before the ogre (CV 3) in every phase.
fn hex_wolf_and_ogre(ogre_aborts: Option<bool>, wolf_aborts: Option<bool>) -> BattleWorld {
    let mut b = battle(
        vec![unit("wolf", "blue", (2, 3), "wolf", None), unit("ogre", "red", (3, 3), "ogre", None)],
        RulesVariant::HexPhases,
        4,
    );
    let (w, o) = (b.index_of("wolf").unwrap(), b.index_of("ogre").unwrap());
    b.scene().fighter::<fivefoot::combat::kept::Abort>(o).order = ogre_aborts;
    b.scene().fighter::<fivefoot::combat::kept::Abort>(w).order = wolf_aborts;
    assert_eq!(b.actor(), Some(w), "the wolf acts first");
    b
}

fn dodge_modifiers(b: &BattleWorld, attacker: &str) -> Vec<i32> {
    b.events()
        .iter()
        .filter_map(|e| match e {
            CombatEvent::Attack { attacker: a, modifiers, .. } if a == attacker => {
                Some(modifiers.iter().filter(|m| m.source == "target dodge").map(|m| m.value).sum())
            }
            _ => None,
        })
        .collect()
}

#[test]
fn hex_abort_before_acting_dodges_and_gives_up_this_phase() {
    let mut plain = hex_wolf_and_ogre(Some(false), None);
    plain.execute(Command::Attack { target: "ogre".into() }).unwrap();
    let mut aborting = hex_wolf_and_ogre(Some(true), None);
    let before = aborting.events().len();
    aborting.execute(Command::Attack { target: "ogre".into() }).unwrap();
    // The dodge's +3 DCV counts against the roll.
    assert_eq!(dodge_modifiers(&aborting, "wolf"), vec![-3]);
    assert_eq!(dodge_modifiers(&plain, "wolf"), vec![0]);
    assert!(aborting.events()[before..].iter().any(
        |e| matches!(e, CombatEvent::Action { unit, action, .. } if unit == "ogre" && action == "aborts to a dodge")
    ));
    // The ogre gave up its action in phase 1: once the wolf is done, phase 2 begins with the wolf.
    aborting.execute(Command::EndTurn).unwrap();
    assert_eq!(aborting.clock().phase, 2);
    assert_eq!(aborting.read().fighters.combatant[aborting.actor().unwrap()].id, "wolf");
    let ogre_turns_in_phase_1 = aborting.events()[before..]
        .iter()
        .take_while(|e| !matches!(e, CombatEvent::PhaseStarted { .. }))
        .filter(|e| matches!(e, CombatEvent::TurnStarted { unit } if unit == "ogre"))
        .count();
    assert_eq!(ogre_turns_in_phase_1, 0);
    // And it cannot abort again before its next action: the wolf's attack in phase 2 meets
    // the same dodge (+3 DCV until the ogre acts, not a second one) and no new abort.
    let before = aborting.events().len();
    aborting.execute(Command::Attack { target: "ogre".into() }).unwrap(); // phase 2: the wolf attacks
    assert!(
        !aborting.events()[before..]
            .iter()
            .any(|e| matches!(e, CombatEvent::Action { action, .. } if action == "aborts to a dodge"))
    );
    assert_eq!(dodge_modifiers(&aborting, "wolf")[1..], [-3]);
    aborting.execute(Command::EndTurn).unwrap(); // the wolf ends; the ogre acts
    assert_eq!(aborting.read().fighters.combatant[aborting.actor().unwrap()].id, "ogre");
}

#[test]
fn hex_abort_after_acting_gives_up_the_next_phase() {
    let mut b = hex_wolf_and_ogre(Some(false), Some(true));
    b.execute(Command::EndTurn).unwrap(); // the wolf has acted in phase 1
    assert_eq!(b.read().fighters.combatant[b.actor().unwrap()].id, "ogre");
    b.execute(Command::Attack { target: "wolf".into() }).unwrap();
    assert!(b.events().iter().any(|e| matches!(e, CombatEvent::Action { unit, detail, .. } if unit == "wolf" && detail.contains("phase 2 of turn 1"))));
    if b.actor().is_some_and(|a| b.read().fighters.combatant[a].id == "ogre") {
        b.execute(Command::EndTurn).unwrap();
    }
    // Phase 2: the wolf has no action, so the ogre acts first.
    assert_eq!(b.clock().phase, 2);
    assert_eq!(b.read().fighters.combatant[b.actor().unwrap()].id, "ogre");
    assert!(
        b.events().iter().any(
            |e| matches!(e, CombatEvent::Action { unit, action, .. } if unit == "wolf" && action == "has no action")
        )
    );
}

#[test]
fn the_abort_order_is_a_free_action_of_hex_phases_only() {
    let mut b = hex_wolf_and_ogre(None, None);
    b.execute(Command::AbortOrder { on: true }).unwrap();
    assert_eq!(fivefoot::combat::variants::hex_phases::abort(&b.read(), b.index_of("wolf").unwrap()).order, Some(true));
    assert!(b.read().budget().fresh, "nothing was spent");
    assert!(b.validate(&Command::AbortOrder { on: true }).unwrap_err().reason.contains("already on"));
    let d = battle(
        vec![unit("a", "blue", (2, 3), "wolf", None), unit("b", "red", (3, 3), "wolf", None)],
        RulesVariant::D20Classic,
        1,
    );
    assert!(d.validate(&Command::AbortOrder { on: true }).unwrap_err().reason.contains("no aborting"));
}

#[test]
fn osr_rounds_open_with_declarations_before_group_initiative() {
    let mut b = battle(
        vec![unit("hero", "blue", (1, 3), "human_fighter", None), unit("gob", "red", (8, 3), "goblin", None)],
        RulesVariant::OsrSegments,
        3,
    );
    assert!(major(&b).declaring);
    assert!(
        !b.events().iter().any(|e| matches!(e, CombatEvent::GroupInitiative { .. })),
        "no roll before declarations"
    );
    let err = b.validate(&Command::Move { to: (2, 3).into() }).unwrap_err();
    assert!(err.reason.contains("first declares"), "{}", err.reason);
    while major(&b).declaring {
        b.execute(Command::Declare { intent: Intent::Fight }).unwrap();
    }
    let declared =
        b.events().iter().filter(|e| matches!(e, CombatEvent::Action { action, .. } if action == "declares")).count();
    assert_eq!(declared, 2);
    assert!(b.events().iter().any(|e| matches!(e, CombatEvent::GroupInitiative { .. })));
    // Declarations belong to the start of the round only.
    let err = b.validate(&Command::Declare { intent: Intent::Delay }).unwrap_err();
    assert!(err.reason.contains("start of the round"), "{}", err.reason);
}

#[test]
fn osr_a_charge_must_be_declared_and_a_declared_delay_acts_low_without_the_condition() {
    // Undeclared: no charge in the fast-action step (nobody acts in it at all).
    let mut b = battle(
        vec![unit("hero", "blue", (1, 3), "human_fighter", None), unit("gob", "red", (8, 3), "goblin", None)],
        RulesVariant::OsrSegments,
        5,
    );
    while major(&b).declaring {
        b.execute(Command::Declare { intent: Intent::Fight }).unwrap();
    }
    let a = b.actor().unwrap();
    assert!(!major(&b).fast_only, "nobody declared a fast action");
    let who = b.read().fighters.combatant[a].id.clone();
    let foe = if who == "hero" { "gob" } else { "hero" };
    let err = b.validate(&Command::Charge { target: foe.into() }).unwrap_err();
    assert!(err.reason.contains("must be declared"), "{}", err.reason);

    // Declared: the hero charges first, in the fast-action step, whatever the groups.
    let mut b = battle(
        vec![unit("hero", "blue", (1, 3), "human_fighter", None), unit("gob", "red", (8, 3), "goblin", None)],
        RulesVariant::OsrSegments,
        5,
    );
    while major(&b).declaring {
        let me = b.read().fighters.combatant[b.actor().unwrap()].id.clone();
        let intent = if me == "hero" { Intent::Charge { target: "gob".into() } } else { Intent::Delay };
        b.execute(Command::Declare { intent }).unwrap();
    }
    assert!(major(&b).fast_only);
    assert_eq!(b.read().fighters.combatant[b.actor().unwrap()].id, "hero");
    b.execute(Command::Charge { target: "gob".into() }).unwrap();
    assert!(b.events().iter().any(|e| matches!(e, CombatEvent::Attack { attacker, .. } if attacker == "hero")));
    // The goblin declared a delay: it acts with the LOW group, and is not "delayed".
    let gob = b.index_of("gob").unwrap();
    assert!(!osr_segments::osr_is_high(&b.read(), gob));
    assert!(!b.read().fighters.conditions[gob].has(Condition::Delayed));
}
