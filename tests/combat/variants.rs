//! The variants' basics from their sources: ap-phases weapon speed and attack actions,
//! four-actions attack slots and surprise, d20-classic full attacks, steps, charges and dying,
//! osr-segments group initiative and descending AC, hex-phases 3d6 rolls and phases.

use super::*;
use fivefoot::combat::variants::ap_phases;
use fivefoot::rules::Conditions;
use fivefoot::rules::Health;

// ---------------------------------------------------------------- ap-phases (000)

#[test]
fn a_fast_human_with_a_greatsword_attacks_no_earlier_than_the_slow_phase() {
    let mut b = battle(
        vec![
            unit("hero", "blue", (3, 3), "human_fighter", Some("greatsword")),
            unit("gob", "red", (4, 3), "goblin", None),
        ],
        RulesVariant::ApPhases,
        1,
    );
    let hero = b.index_of("hero").unwrap();
    assert_eq!(ap_phases::ap_earliest_attack_phase(&b.read(), hero), 6, "the slow phase is the sixth");
    until(&mut b, "hero", |b| b.clock().phase == 4);
    let e = b.validate(&Command::Attack { target: "gob".into() }).unwrap_err();
    assert!(e.reason.contains("slow"), "{e}");
    until(&mut b, "hero", |b| b.clock().phase == 6);
    b.validate(&Command::Attack { target: "gob".into() }).unwrap();
    // A dagger (fast weapon) strikes from the fast phase.
    let mut b = battle(
        vec![unit("hero", "blue", (3, 3), "human_fighter", Some("dagger")), unit("gob", "red", (4, 3), "goblin", None)],
        RulesVariant::ApPhases,
        1,
    );
    assert_eq!(ap_phases::ap_earliest_attack_phase(&b.read(), b.index_of("hero").unwrap()), 4);
    until(&mut b, "hero", |b| b.clock().phase == 4);
    b.validate(&Command::Attack { target: "gob".into() }).unwrap();
}

#[test]
fn the_second_attack_action_in_a_round_is_at_minus_5_and_the_third_at_minus_10() {
    let mut b = battle(
        vec![unit("hero", "blue", (3, 3), "human_fighter", Some("dagger")), unit("gob", "red", (4, 3), "goblin", None)],
        RulesVariant::ApPhases,
        3,
    );
    for phase in [4, 5, 6] {
        until(&mut b, "hero", |b| b.clock().phase == phase);
        b.execute(Command::Attack { target: "gob".into() }).unwrap();
    }
    let hero: Vec<_> = attack_events(&b).into_iter().filter(|(a, _)| a == "hero").map(|(_, m)| m).collect();
    assert_eq!(hero.len(), 3);
    assert!(!hero[0].iter().any(|(s, _)| s == "earlier attack actions"));
    assert!(has_mod(&hero[1], "earlier attack actions", -5));
    assert!(has_mod(&hero[2], "earlier attack actions", -10));
    assert_eq!(ap_phases::points(&b.read(), b.index_of("hero").unwrap()).ap, 0, "three actions spent all 3 AP");
}

#[test]
fn only_aware_creatures_act_in_the_surprise_round_with_2_ap() {
    let mut units =
        vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (7, 3), "goblin", None)];
    units[1].aware = Some(false);
    let b = battle(units, RulesVariant::ApPhases, 1);
    assert!(b.clock().surprise);
    assert_eq!(ap_phases::points(&b.read(), b.index_of("hero").unwrap()).ap, 2);
    assert_eq!(ap_phases::points(&b.read(), b.index_of("gob").unwrap()).ap, 0);
}

// ---------------------------------------------------------------- four-actions (001)

#[test]
fn primary_secondary_and_tertiary_attacks_take_0_5_and_10() {
    let mut b = battle(
        vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (4, 3), "goblin", None)],
        RulesVariant::FourActions,
        2,
    );
    until(&mut b, "hero", |_| true);
    for _ in 0..3 {
        b.execute(Command::Attack { target: "gob".into() }).unwrap();
    }
    let hero: Vec<_> = attack_events(&b).into_iter().filter(|(a, _)| a == "hero").map(|(_, m)| m).collect();
    assert_eq!(hero.len(), 3);
    assert!(!hero[0].iter().any(|(s, _)| s.contains("attack") && s != "base attack bonus"));
    assert!(has_mod(&hero[1], "secondary attack", -5));
    assert!(has_mod(&hero[2], "tertiary attack", -10));
}

#[test]
fn everyone_is_surprised_until_its_first_turn_and_flanking_makes_the_foe_surprised() {
    let mut b = battle(
        vec![
            unit("a", "blue", (3, 3), "human_fighter", None),
            unit("b", "blue", (5, 3), "human_fighter", None),
            unit("gob", "red", (4, 3), "goblin", None),
        ],
        RulesVariant::FourActions,
        5,
    );
    assert!(b.read().fighters.iter().filter(|f| !f.awareness().has_acted).all(|f| f.has(Condition::Surprised)));
    // Once everyone has acted, only flanking makes the goblin Surprised against a and b.
    let gob = b.index_of("gob").unwrap();
    for _ in 0..3 {
        b.execute(Command::EndTurn).unwrap();
    }
    assert!(!b.read().fighters.conditions[gob].has(Condition::Surprised));
    let a = b.index_of("a").unwrap();
    let p = b.attack_profile(a, gob, &AttackKind::Primary, &Default::default());
    assert!(p.modifiers.iter().any(|m| m.source == "flanking: target surprised" && m.value == 2), "{:?}", p.modifiers);
    assert!(!p.modifiers.iter().any(|m| m.source == "flanking"), "no +2 flanking bonus in four-actions");
}

// ---------------------------------------------------------------- d20-classic (002)

#[test]
fn a_full_attack_at_base_attack_plus_11_makes_three_attacks_at_11_6_1() {
    let mut b = battle(
        vec![unit("champ", "blue", (3, 3), "champion", None), unit("ogre", "red", (4, 3), "ogre", None)],
        RulesVariant::D20Classic,
        4,
    );
    until(&mut b, "champ", |_| true);
    b.execute(Command::FullAttack { target: "ogre".into() }).unwrap();
    let champ: Vec<_> = attack_events(&b).into_iter().filter(|(a, _)| a == "champ").map(|(_, m)| m).collect();
    assert_eq!(champ.len(), 3);
    assert!(has_mod(&champ[0], "base attack bonus", 11));
    assert!(has_mod(&champ[1], "iterative attack", -5));
    assert!(has_mod(&champ[2], "iterative attack", -10));
}

/// "In place of a move action, a five-foot step can be taken" and "A full-round action takes
/// your entire turn": after a step, neither a move nor a full-round action (a charge, full
/// defense).
#[test]
fn a_5_ft_step_replaces_the_move_action_and_a_full_round_action_needs_the_whole_turn() {
    let mut b = battle(
        vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (6, 3), "goblin", None)],
        RulesVariant::D20Classic,
        4,
    );
    until(&mut b, "hero", |_| true);
    b.execute(Command::Step { to: (4, 3).into() }).unwrap();
    assert!(b.validate(&Command::Move { to: (5, 4).into() }).is_err(), "no move after a 5-ft step");
    assert!(b.validate(&Command::Defend).is_err(), "full defense is a full-round action");
    assert!(b.validate(&Command::Charge { target: "gob".into() }).is_err(), "so is a charge");
    assert!(b.validate(&Command::Attack { target: "gob".into() }).is_err(), "the goblin is still 10 ft away");
}

/// "Attack(s): Using your attack, or multiple attacks, takes the place of your standard
/// action slot": a champion (+11/+6/+1) makes all three attacks after a move, and after a
/// 5-ft step; and once they are made, no other standard action is left.
#[test]
fn every_attack_of_the_turn_follows_a_move_or_a_5_ft_step() {
    for (first, foe_at) in
        [(Command::Move { to: (6, 3).into() }, (7, 3)), (Command::Step { to: (4, 3).into() }, (5, 3))]
    {
        let mut b = battle(
            vec![unit("champ", "blue", (3, 3), "champion", None), unit("foe", "red", foe_at, "champion", None)],
            RulesVariant::D20Classic,
            4,
        );
        until(&mut b, "champ", |_| true);
        b.execute(first.clone()).unwrap();
        b.execute(Command::FullAttack { target: "foe".into() }).unwrap();
        let champ: Vec<_> = attack_events(&b).into_iter().filter(|(a, _)| a == "champ").map(|(_, m)| m).collect();
        assert_eq!(champ.len(), 3, "after {first:?}");
        assert!(has_mod(&champ[2], "iterative attack", -10));
        assert!(b.validate(&Command::Grapple { target: "foe".into() }).is_err(), "the standard action is spent");
    }
}

#[test]
fn a_charge_needs_10_ft_of_straight_line_and_leaves_the_charger_at_minus_2_ac() {
    let mut b = battle(
        vec![unit("hero", "blue", (1, 3), "human_fighter", None), unit("gob", "red", (6, 3), "goblin", None)],
        RulesVariant::D20Classic,
        6,
    );
    until(&mut b, "hero", |_| true);
    let hero = b.index_of("hero").unwrap();
    b.execute(Command::Charge { target: "gob".into() }).unwrap();
    assert_eq!(b.read().fighters.position[hero].0, (5, 3).into());
    assert!(b.read().fighters.bonuses[hero].defense.contains(&("charging".into(), -2)));
    let charged = b.events().iter().any(|e| matches!(e, CombatEvent::Attack { kind, .. } if kind == "charges"));
    assert!(charged);
}

#[test]
fn leaving_a_threatened_square_draws_one_attack_of_opportunity_per_round() {
    let mut b = battle(
        vec![
            unit("hero", "blue", (3, 3), "human_fighter", None),
            unit("gob", "red", (4, 3), "goblin", None),
            unit("pal", "blue", (4, 4), "human_fighter", None),
        ],
        RulesVariant::D20Classic,
        7,
    );
    until(&mut b, "hero", |_| true);
    b.execute(Command::Move { to: (1, 1).into() }).unwrap();
    let aoo =
        |b: &BattleWorld| b.events().iter().filter(|e| matches!(e, CombatEvent::AttackOfOpportunity { .. })).count();
    assert_eq!(aoo(&b), 1);
    until(&mut b, "pal", |_| true);
    b.execute(Command::Move { to: (7, 6).into() }).unwrap();
    assert_eq!(aoo(&b), 1, "the goblin's one immediate action is spent until its next turn");
}

#[test]
fn a_mover_felled_by_the_blow_its_leaving_draws_is_not_logged_as_moving() {
    let mut felled = false;
    for seed in 0..40 {
        let mut tried = battle(
            vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (4, 3), "goblin", None)],
            RulesVariant::D20Classic,
            seed,
        );
        until(&mut tried, "gob", |_| true);
        let gob = tried.index_of("gob").unwrap();
        // One hit point left: the hero's attack of opportunity, if it hits, fells it on the
        // square it was leaving.
        tried.scene().fighter::<Health>(gob).hp = 1;
        let before = tried.events().len();
        tried.execute(Command::Move { to: (8, 3).into() }).unwrap();
        let after = &tried.events()[before..];
        let dropped = !tried.read().fighters.at(gob).in_fight();
        let moved = after.iter().any(|e| matches!(e, CombatEvent::Moved { unit, .. } if unit == "gob"));
        assert_eq!(moved, !dropped, "seed {seed}: logged as moving {moved}, felled {dropped}");
        if dropped {
            assert_eq!(tried.read().fighters.position[gob].0, (4, 3).into(), "it falls where it stood");
            felled = true;
        }
    }
    assert!(felled, "in 40 seeds the hero's blow fells the goblin at least once");
}

#[test]
fn dying_ends_in_stabilising_or_three_failed_death_saves_in_a_row() {
    let (mut deaths, mut stable) = (0, 0);
    for seed in 0..40 {
        let mut b = battle(
            vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (7, 3), "goblin", None)],
            RulesVariant::D20Classic,
            seed,
        );
        // "In death, all are equal" (d% 51+, 61+, 71+) lets both ends come up in 40 seeds.
        b.scene().options().death_saves = fivefoot::level::DeathSaves::AllAreEqual;
        let hero = b.index_of("hero").unwrap();
        b.scene().fighter::<Health>(hero).hp = -2;
        b.scene().fighter::<Conditions>(hero).add(Condition::Unconscious);
        b.scene().fighter::<Conditions>(hero).add(Condition::Dying);
        for _ in 0..10 {
            if !b.read().fighters.conditions[hero].has(Condition::Dying) {
                break;
            }
            b.dying_turn(hero);
        }
        let saves: Vec<bool> = b
            .events()
            .iter()
            .filter_map(|e| if let CombatEvent::Save { success, .. } = e { Some(*success) } else { None })
            .collect();
        // A success stabilises at once, so the log is some failures (fewer than three) and
        // one success, or exactly three failures and death.
        let fails = saves.iter().take_while(|s| !**s).count();
        if b.read().fighters.conditions[hero].has(Condition::Dead) {
            assert_eq!(saves, [false, false, false], "seed {seed}");
            assert_eq!(b.read().fighters.health[hero].death_fails, 3);
            deaths += 1;
        } else {
            assert!(b.read().fighters.conditions[hero].has(Condition::Stabilized), "seed {seed}");
            assert!(fails < 3 && saves.len() == fails + 1, "seed {seed}: {saves:?}");
            assert!(!b.read().fighters.conditions[hero].has(Condition::Dying));
            stable += 1;
        }
    }
    assert!(deaths > 0 && stable > 0, "both ends came up: {deaths} deaths, {stable} stabilised");
}

// ---------------------------------------------------------------- osr-segments (003)

#[test]
fn group_initiative_ties_put_both_groups_high() {
    let mut tied = 0;
    let mut split = 0;
    for seed in 0..60 {
        let mut b = battle(
            vec![unit("hero", "blue", (1, 3), "human_fighter", None), unit("gob", "red", (8, 3), "goblin", None)],
            RulesVariant::OsrSegments,
            seed,
        );
        // Group initiative is rolled once everyone has declared.
        while major(&b).declaring {
            b.execute(Command::Declare { intent: Intent::Fight }).unwrap();
        }
        let groups: Vec<(i32, String)> = b
            .events()
            .iter()
            .filter_map(|e| {
                if let CombatEvent::GroupInitiative { roll, group, .. } = e {
                    Some((*roll, group.clone()))
                } else {
                    None
                }
            })
            .take(2)
            .collect();
        assert_eq!(groups.len(), 2);
        if groups[0].0 == groups[1].0 {
            tied += 1;
            assert!(groups.iter().all(|(_, g)| g == "HIGH"), "seed {seed}: {groups:?}");
        } else {
            split += 1;
            assert_eq!(groups.iter().filter(|(_, g)| g == "HIGH").count(), 1, "seed {seed}: {groups:?}");
        }
    }
    assert!(tied > 0 && split > 0);
}

#[test]
fn osr_attacks_use_aac0_against_descending_ac() {
    let b = battle(
        vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (4, 3), "goblin", None)],
        RulesVariant::OsrSegments,
        1,
    );
    let (h, g) = (b.index_of("hero").unwrap(), b.index_of("gob").unwrap());
    let p = b.attack_profile(h, g, &AttackKind::Primary, &Default::default());
    // AAC0 = 20 − 1 = 19; goblin AC 16 ascending = 4 descending; need 19 − 4 = 15.
    assert_eq!(p.target_number, 15);
    assert!(p.modifiers.iter().any(|m| m.source == "Strength" && m.value == 3));
    assert_eq!(p.hit_chance, 0.45, "d20 + 3 ≥ 15: 12..20 hit");
}

#[test]
fn the_surprised_cannot_make_free_attacks() {
    // The control: an aware goblin makes its free attack on the hero leaving it.
    for aware in [false, true] {
        let mut units =
            vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (4, 3), "goblin", None)];
        units[1].aware = Some(aware);
        let mut b = battle(units, RulesVariant::OsrSegments, 9);
        assert_eq!(b.read().fighters.conditions[b.index_of("gob").unwrap()].has(Condition::Surprised), !aware);
        until(&mut b, "hero", major_action_left);
        b.execute(Command::Move { to: (1, 3).into() }).unwrap();
        let free = b.events().iter().any(|e| matches!(e, CombatEvent::AttackOfOpportunity { by, .. } if by == "gob"));
        assert_eq!(free, aware, "aware: {aware}");
    }
}

// ---------------------------------------------------------------- hex-phases (004)

#[test]
fn three_d6_plus_ocv_against_10_plus_dcv_hits_62_5_percent_at_equal_values() {
    let b = battle(
        vec![unit("w1", "blue", (3, 3), "wolf", None), unit("w2", "red", (4, 3), "wolf", None)],
        RulesVariant::HexPhases,
        1,
    );
    let p = b.attack_profile(0, 1, &AttackKind::Primary, &Default::default());
    assert_eq!(p.modifiers.iter().map(|m| m.value).sum::<i32>() + 10, p.target_number, "OCV = DCV");
    assert_eq!(p.hit_chance, 0.625);
}

#[test]
fn hex_initiative_is_combat_value_with_ties_broken_once() {
    let b = battle(
        vec![
            unit("w1", "blue", (1, 3), "wolf", None),
            unit("w2", "red", (8, 3), "wolf", None),
            unit("ogre", "red", (5, 5), "ogre", None),
        ],
        RulesVariant::HexPhases,
        1,
    );
    let first = b.read().fighters.combatant[b.clock().order[0]].id.clone();
    assert_ne!(first, "ogre", "the ogre (Dex 8, CV 3) acts after the wolves (CV 5)");
    assert_eq!(b.read().fighters.combatant[b.clock().order[2]].id, "ogre");
    let again = battle(
        vec![
            unit("w1", "blue", (1, 3), "wolf", None),
            unit("w2", "red", (8, 3), "wolf", None),
            unit("ogre", "red", (5, 5), "ogre", None),
        ],
        RulesVariant::HexPhases,
        1,
    );
    assert_eq!(b.clock().order, again.clock().order);
}

#[test]
fn a_hex_phase_allows_attack_and_move_or_two_moves() {
    let mut b = battle(
        vec![unit("w1", "blue", (1, 3), "wolf", None), unit("w2", "red", (8, 3), "wolf", None)],
        RulesVariant::HexPhases,
        2,
    );
    until(&mut b, "w1", |b| b.clock().phase == 1);
    b.execute(Command::Move { to: (4, 3).into() }).unwrap();
    b.execute(Command::Move { to: (7, 3).into() }).unwrap();
    assert_ne!(
        b.actor().map(|a| b.read().fighters.combatant[a].id.clone()),
        Some("w1".to_string()),
        "two moves end the phase"
    );
    // Phase 2, beside the foe: an attack action, then a move action.
    until(&mut b, "w1", |b| b.clock().phase == 2);
    let w1 = b.index_of("w1").unwrap();
    b.execute(Command::Attack { target: "w2".into() }).unwrap();
    assert_eq!(b.actor(), Some(w1), "a move action is left after the attack");
    b.execute(Command::Move { to: (5, 3).into() }).unwrap();
    assert_eq!(b.read().fighters.position[w1].0, (5, 3).into());
    assert_ne!(b.actor(), Some(w1), "attack and move end the phase");
}
