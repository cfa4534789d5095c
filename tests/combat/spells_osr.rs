//! osr-segments spells in a mage duel, from source 003: the spells of one segment go off
//! together within a group, higher segments' first; a caster who makes a free attack loses
//! its spell.

use super::spells::{cast, damage_to, spoiled};
use super::*;
use fivefoot::combat::variants::osr_segments;

/// osr-segments: both mages declare a magic missile and announce each other.
fn osr_mage_duel(seed: u64) -> BattleWorld {
    let mut b = battle(
        vec![unit("blue_mage", "blue", (1, 1), "war_mage", None), unit("red_mage", "red", (8, 6), "war_mage", None)],
        RulesVariant::OsrSegments,
        seed,
    );
    let spell = || Command::Declare { intent: Intent::Cast { spell: "magic_missile".into() } };
    let turn = major_action_left;
    while b.clock().round == 1
        && !b
            .events()
            .iter()
            .any(|e| matches!(e, CombatEvent::PhaseStarted { name, .. } if name == "spells by segment"))
    {
        let a = b.actor().unwrap();
        let foe = if b.read().fighters.combatant[a].id == "blue_mage" { "red_mage" } else { "blue_mage" };
        let cmd = if major(&b).declaring {
            spell()
        } else if turn(&b) {
            cast("magic_missile", foe, false)
        } else {
            Command::EndTurn
        };
        b.execute(cmd).unwrap();
    }
    b
}

#[test]
fn osr_spells_of_one_segment_go_off_together_within_a_group_and_high_before_low() {
    let (mut together, mut high_first) = (0, 0);
    for seed in 0..40 {
        let b = osr_mage_duel(seed);
        let tie = osr_segments::round(&b.read()).high.iter().all(|(_, high)| *high);
        let (hurt_blue, hurt_red) = (damage_to(&b, "blue_mage") > 0, damage_to(&b, "red_mage") > 0);
        if tie {
            together += 1;
            assert!(hurt_blue && hurt_red, "seed {seed}: both HIGH, both missiles fly in segment 1");
            assert!(spoiled(&b, "blue_mage").is_empty() && spoiled(&b, "red_mage").is_empty());
        } else {
            high_first += 1;
            let blue_high = osr_segments::round(&b.read()).high.iter().any(|(s, high)| s == "blue" && *high);
            let (low, high) = if blue_high { ("red_mage", "blue_mage") } else { ("blue_mage", "red_mage") };
            assert!(damage_to(&b, low) > 0 && damage_to(&b, high) == 0, "seed {seed}: the HIGH group's goes first");
            assert_eq!(spoiled(&b, low), vec!["concentration broken (hurt)".to_string()], "seed {seed}");
        }
    }
    assert!(together > 0 && high_first > 0, "ties {together}, others {high_first}");
}

#[test]
fn osr_a_caster_making_a_free_attack_loses_its_spell() {
    let mut seen = 0;
    for seed in 0..40 {
        let mut b = battle(
            vec![
                unit("mage", "blue", (2, 3), "war_mage", None),
                unit("gob", "red", (3, 3), "goblin", None),
                unit("far", "red", (8, 6), "goblin", None),
            ],
            RulesVariant::OsrSegments,
            seed,
        );
        let turn = major_action_left;
        while b.clock().round == 1 {
            let a = b.actor().unwrap();
            let mage_casting = b.read().fighters.spells[b.index_of("mage").unwrap()].casting.is_some();
            let cmd = match b.read().fighters.combatant[a].id.as_str() {
                "mage" if major(&b).declaring => {
                    Command::Declare { intent: Intent::Cast { spell: "magic_missile".into() } }
                }
                "mage" if turn(&b) => cast("magic_missile", "far", false),
                // The goblin walks away from the casting mage, who takes its free attack.
                "gob" if turn(&b) && mage_casting => Command::Move { to: (6, 3).into() },
                _ => Command::EndTurn,
            };
            b.execute(cmd).unwrap();
        }
        let free_attack = count(&b, |e| matches!(e, CombatEvent::AttackOfOpportunity { by, .. } if by == "mage"));
        if free_attack == 0 {
            continue; // the goblin's turn came before the mage announced its target
        }
        seen += 1;
        assert!(spoiled(&b, "mage").contains(&"concentration broken (made a free attack)".to_string()), "seed {seed}");
        assert_eq!(damage_to(&b, "far"), 0, "seed {seed}: the missile never flies");
    }
    assert!(seen >= 3, "{seen}");
}
