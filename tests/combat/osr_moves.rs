//! osr-segments movement clauses: allies passing each other, and immediate attacks on a foe
//! coming into reach. "Allied creatures can move past each other using the same space. This
//! does cause some jostling, so any concentration (i.e. spell casting) will be broken."

use super::spells::spoiled;
use super::*;

/// The mage declares a magic missile; when the hero's group turn comes it moves to `to`.
fn hero_moves_past_a_casting_mage(to: (i32, i32), seed: u64) -> BattleWorld {
    let mut b = battle(
        vec![
            unit("hero", "blue", (3, 3), "human_fighter", None),
            unit("mage", "blue", (4, 3), "war_mage", None),
            unit("gob", "red", (9, 7), "goblin", None),
        ],
        RulesVariant::OsrSegments,
        seed,
    );
    for _ in 0..50 {
        let a = b.actor().expect("battle on");
        let id = b.read().fighters.combatant[a].id.clone();
        let c = major(&b);
        let cmd = if c.declaring && id == "mage" {
            Command::Declare { intent: Intent::Cast { spell: "magic_missile".into() } }
        } else if id == "hero" && c.major && !c.fast_only && !c.declaring {
            b.execute(Command::Move { to: to.into() }).unwrap();
            return b;
        } else {
            Command::EndTurn
        };
        b.execute(cmd).unwrap();
    }
    panic!("the hero never moved");
}

#[test]
fn an_ally_passing_through_a_casters_square_breaks_its_concentration_in_osr_segments() {
    for seed in 0..6 {
        // Through the mage's square (4, 3) to (5, 3).
        let b = hero_moves_past_a_casting_mage((5, 3), seed);
        let path = b.events().iter().rev().find_map(|e| match e {
            CombatEvent::Moved { unit, path, .. } if unit == "hero" => Some(path.clone()),
            _ => None,
        });
        assert_eq!(path, Some(vec![GridPos::new(4, 3), GridPos::new(5, 3)]), "seed {seed}");
        assert_eq!(spoiled(&b, "mage"), vec!["concentration broken (jostled by hero passing)".to_string()]);
        // The walk is followed up once it is over, and then ended: the jostling is logged
        // before the move.
        let at = |found: fn(&CombatEvent) -> bool| b.events().iter().rposition(found).expect("logged");
        assert!(
            at(|e| matches!(e, CombatEvent::Spoiled { .. })) < at(|e| matches!(e, CombatEvent::Moved { .. })),
            "seed {seed}"
        );
        // Positive control: a move that passes nobody leaves the casting alone.
        let b = hero_moves_past_a_casting_mage((3, 5), seed);
        assert!(spoiled(&b, "mage").is_empty(), "seed {seed}");
    }
}

/// The goblin's group acts first and the goblin walks up to the hero; returns the battle
/// after that move, or `None` when the hero's group won the initiative.
fn goblin_walks_up(seed: u64, hero_declares: Intent) -> Option<BattleWorld> {
    let mut b = battle(
        vec![unit("hero", "blue", (2, 3), "human_fighter", None), unit("gob", "red", (6, 3), "goblin", None)],
        RulesVariant::OsrSegments,
        seed,
    );
    for _ in 0..20 {
        let a = b.actor().expect("battle on");
        let id = b.read().fighters.combatant[a].id.clone();
        let c = major(&b);
        if c.declaring {
            let intent = if id == "hero" { hero_declares.clone() } else { Intent::Fight };
            b.execute(Command::Declare { intent }).unwrap();
        } else if id == "hero" {
            return None;
        } else if c.major && !c.fast_only {
            b.execute(Command::Move { to: (3, 3).into() }).unwrap();
            return Some(b);
        } else {
            b.execute(Command::EndTurn).unwrap();
        }
    }
    panic!("the goblin never moved");
}

/// "Immediate Attack … allows a creature to use a primary attack routine instantaneously as
/// the trigger occurs … Creatures using an immediate attack must have an available major
/// action": the hero, declared to fight and not yet acted, strikes the goblin coming into
/// its reach, and that is its major action for the round.
#[test]
fn an_osr_fighter_with_its_major_action_left_strikes_a_foe_coming_into_reach() {
    let mut seen = 0;
    for seed in 0..20 {
        let Some(mut b) = goblin_walks_up(seed, Intent::Fight) else { continue };
        seen += 1;
        let strike = b.events().iter().position(
            |e| matches!(e, CombatEvent::Action { unit, action, .. } if unit == "hero" && action == "immediate attack"),
        );
        let strike = strike.unwrap_or_else(|| panic!("seed {seed}: no immediate attack"));
        assert!(
            matches!(&b.events()[strike + 1], CombatEvent::Attack { attacker, target, .. } if attacker == "hero" && target == "gob")
        );
        // Its major action is spent: no group turn for the hero this round.
        let round = b.clock().round;
        while b.clock().round == round && b.actor().is_some() {
            let a = b.actor().unwrap();
            assert!(
                b.read().fighters.combatant[a].id != "hero" || major(&b).declaring,
                "seed {seed}: the hero acts again"
            );
            b.execute(Command::EndTurn).unwrap();
        }
        // Positive control: declared to delay (another major action), no immediate attack.
        if let Some(b) = goblin_walks_up(seed, Intent::Delay) {
            assert!(
                !b.events()
                    .iter()
                    .any(|e| matches!(e, CombatEvent::Action { action, .. } if action == "immediate attack"))
            );
        }
    }
    assert!(seen > 2, "the goblin's group went first in {seen} of 20");
}

/// After its major action a fighter may still make one positioning move of 10 ft, and its
/// budget line says so until it has.
#[test]
fn the_budget_line_offers_the_positioning_move_left_after_the_major_action() {
    let units = vec![unit("hero", "blue", (1, 1), "human_fighter", None), unit("gob", "red", (8, 6), "goblin", None)];
    let mut b = battle(units, RulesVariant::OsrSegments, 3);
    until(&mut b, "hero", major_action_left);
    let line = |b: &BattleWorld| fivefoot::control::vocabulary::budget_line(&b.read());
    assert!(line(&b).contains("major action") && !line(&b).contains("positioning"), "{}", line(&b));
    b.execute(Command::Move { to: (3, 1).into() }).unwrap();
    assert_eq!(
        b.read().fighters.combatant[b.actor().unwrap()].id,
        "hero",
        "the positioning move keeps its opportunity open"
    );
    assert_eq!(line(&b), "a positioning move (10 ft)");
    b.execute(Command::Step { to: (4, 1).into() }).unwrap();
    // The step spent what was left: time moved on to the next fighter.
    let hero_acts = b.actor().is_some_and(|a| b.read().fighters.combatant[a].id == "hero");
    assert!(!hero_acts, "nothing left after the positioning move: {}", line(&b));
}
