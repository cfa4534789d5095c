//! osr-segments: "Allied creatures can move past each other using the same space. This
//! does cause some jostling, so any concentration (i.e. spell casting) will be broken."

use super::spells::spoiled;
use super::*;

/// The mage declares a magic missile; when the hero's group turn comes it moves to `to`.
fn hero_moves_past_a_casting_mage(to: (i32, i32), seed: u64) -> Battle {
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
        let id = b.fighters[a].id.clone();
        let c = &b.clock.budget;
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
        let path = b.events.iter().rev().find_map(|e| match e {
            CombatEvent::Moved { unit, path, .. } if unit == "hero" => Some(path.clone()),
            _ => None,
        });
        assert_eq!(path, Some(vec![GridPos::new(4, 3), GridPos::new(5, 3)]), "seed {seed}");
        assert_eq!(spoiled(&b, "mage"), vec!["concentration broken (jostled by hero passing)".to_string()]);
        // Positive control: a move that passes nobody leaves the casting alone.
        let b = hero_moves_past_a_casting_mage((3, 5), seed);
        assert!(spoiled(&b, "mage").is_empty(), "seed {seed}");
    }
}
