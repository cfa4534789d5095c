//! The action bar: each variant's own actions, the grapple contest, coup de grace and first aid, each with the reason when it may not be taken; clicks mapped to commands.

use super::*;
use fivefoot::combat::fighter::Grapple;
use fivefoot::rules::Conditions;
use fivefoot::rules::Health;

pub(super) fn hero_acting(mut b: BattleWorld) -> BattleWorld {
    for _ in 0..6 {
        if b.read().fighters.combatant[b.actor().unwrap()].id == "hero" {
            return b;
        }
        b.execute(Command::EndTurn).unwrap();
    }
    panic!("the hero never acted");
}

#[test]
fn the_action_bar_offers_each_variant_its_own_actions_and_says_why_not() {
    let b = hero_acting(duel(RulesVariant::D20Classic));
    let bar = action_bar(&b);
    let get = |label: &str| bar.iter().find(|s| s.label == label).unwrap_or_else(|| panic!("no {label}"));
    assert!(get("Full attack").state.is_ok(), "the goblin is adjacent");
    assert!(get("End turn").state.is_ok());
    let reload = get("Reload").state.clone().unwrap_err();
    assert!(reload.contains("nothing to reload"), "{reload}");
    assert!(!bar.iter().any(|s| s.label == "Guard"), "guard is four-actions'");

    let b = hero_acting(duel(RulesVariant::FourActions));
    let bar = action_bar(&b);
    assert!(bar.iter().any(|s| s.label == "Guard" && s.action == SlotAction::Now(Command::Guard)));
    assert!(!bar.iter().any(|s| s.label == "Delay"), "four-actions has no delay");
    assert!(!bar.iter().any(|s| s.label == "Full attack"));

    // After attacking in d20-classic the standard action is gone: no second attack.
    let mut b = hero_acting(duel(RulesVariant::D20Classic));
    b.execute(Command::Attack { target: "gob".into() }).unwrap();
    let bar = action_bar(&b);
    let attack = bar.iter().find(|s| s.label == "Attack").unwrap();
    assert!(attack.state.is_err());
}

#[test]
fn the_action_bar_offers_the_grapple_contest_and_says_why_not() {
    use fivefoot::combat::command::GrappleFollowUp;
    let state = |bar: &[fivefoot::control::ActionSlot], label: &str| {
        bar.iter().find(|s| s.label == label).unwrap_or_else(|| panic!("no {label}")).state.clone()
    };
    // four-actions: wrestling is for those in a grapple.
    let mut b = hero_acting(duel(RulesVariant::FourActions));
    let bar = action_bar(&b);
    for label in ["Wrestle: attack", "Wrestle: trip", "Wrestle: push", "Wrestle: hold on"] {
        let why = state(&bar, label).unwrap_err();
        assert!(why.contains("not in a grapple"), "{label}: {why}");
    }
    assert!(!bar.iter().any(|s| s.label == "Coup de grace" || s.label == "First aid"), "ap-phases' own");
    let (h, g) = (b.index_of("hero").unwrap(), b.index_of("gob").unwrap());
    for (x, y) in [(h, g), (g, h)] {
        b.scene().fighter::<Conditions>(x).add(Condition::Grappled);
        let with = b.read().fighters.entity(y);
        b.scene().fighter::<Grapple>(x).with = Some(with);
    }
    let bar = action_bar(&b);
    assert_eq!(state(&bar, "Wrestle: attack"), Ok(()));
    let slot = bar.iter().find(|s| s.label == "Wrestle: attack").unwrap();
    assert_eq!(slot.action, SlotAction::Now(Command::Wrestle { follow_up: GrappleFollowUp::Attack }));
}

#[test]
fn the_action_bar_offers_a_coup_de_grace_for_a_helpless_foe_and_first_aid_for_a_dying_ally() {
    let state = |bar: &[fivefoot::control::ActionSlot], label: &str| {
        bar.iter().find(|s| s.label == label).unwrap_or_else(|| panic!("no {label}")).state.clone()
    };
    let l = level(
        &OPEN,
        vec![
            unit("hero", "blue", (2, 3), "human_fighter"),
            unit("pal", "blue", (1, 3), "human_fighter"),
            unit("gob", "red", (3, 3), "goblin"),
            unit("pike", "red", (7, 3), "spearman"),
        ],
        RulesVariant::ApPhases,
    );
    let mut b =
        hero_acting(BattleWorld::new(&l, &Catalogue::builtin(), RulesVariant::ApPhases, 7, BattleOptions::default()));
    let bar = action_bar(&b);
    assert!(!bar.iter().any(|s| s.label.starts_with("Wrestle")), "four-actions' own");
    assert!(state(&bar, "Coup de grace").unwrap_err().contains("no helpless foe"));
    assert!(state(&bar, "First aid").unwrap_err().contains("not dying"));
    for id in ["gob", "pal"] {
        let i = b.index_of(id).unwrap();
        b.scene().fighter::<Health>(i).hp = -1;
        for c in [Condition::Unconscious, Condition::Prone, Condition::Dying] {
            b.scene().fighter::<Conditions>(i).add(c);
        }
    }
    let bar = action_bar(&b);
    assert_eq!(state(&bar, "Coup de grace"), Ok(()));
    assert_eq!(state(&bar, "First aid"), Ok(()));
    assert_eq!(
        command_for_click(&b, Tool::CoupDeGrace, GridPos::new(3, 3)),
        Ok(Command::CoupDeGrace { target: "gob".into() })
    );
    assert_eq!(
        command_for_click(&b, Tool::FirstAid, GridPos::new(1, 3)),
        Ok(Command::FirstAid { target: "pal".into() })
    );
    assert!(command_for_click(&b, Tool::FirstAid, GridPos::new(3, 3)).unwrap_err().contains("ally"));
}

#[test]
fn clicks_map_to_commands_per_variant() {
    let b = hero_acting(duel(RulesVariant::D20Classic));
    let foe = GridPos::new(3, 3);
    assert_eq!(command_for_click(&b, Tool::Move, foe), Ok(Command::FullAttack { target: "gob".into() }));
    assert_eq!(command_for_click(&b, Tool::Attack, foe), Ok(Command::Attack { target: "gob".into() }));
    assert_eq!(command_for_click(&b, Tool::Move, GridPos::new(2, 5)), Ok(Command::Move { to: GridPos::new(2, 5) }));
    assert_eq!(command_for_click(&b, Tool::Step, GridPos::new(1, 3)), Ok(Command::Step { to: GridPos::new(1, 3) }));
    let far = command_for_click(&b, Tool::Step, GridPos::new(0, 3)).unwrap_err();
    assert!(far.contains("hero cannot step"), "{far}");
    let b = hero_acting(duel(RulesVariant::HexPhases));
    assert_eq!(command_for_click(&b, Tool::Move, foe), Ok(Command::Attack { target: "gob".into() }));
    // A foe out of reach after a move, clicked with the move tool: the reason is the plain
    // attack's (out of reach), not that a full attack would need the whole turn.
    let mut b = hero_acting(duel(RulesVariant::D20Classic));
    b.execute(Command::Move { to: GridPos::new(1, 5) }).unwrap();
    let why = command_for_click(&b, Tool::Move, GridPos::new(7, 3)).unwrap_err();
    assert!(!why.contains("whole turn") && why.contains("reach"), "{why}");
}
