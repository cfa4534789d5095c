//! Held actions, trips, stances, shoves, disarms, dashes, tumbles, grapples, crossbows,
//! total defense, delay and massive damage, as each variant has them.

use super::*;
use fivefoot::combat::variants::{ap_phases, osr_segments};
use fivefoot::rules::Conditions;
use fivefoot::rules::Wielded;

#[test]
fn an_attack_of_opportunity_rules_out_a_held_action_until_the_next_turn() {
    // The goblin leaves the fighter's square-side (an attack of opportunity) and walks on
    // through the fighter's reach: the held attack may not follow in the same round.
    let mut b = battle(
        vec![unit("hero", "blue", (4, 3), "human_fighter", None), unit("gob", "red", (5, 3), "goblin", None)],
        RulesVariant::D20Classic,
        11,
    );
    until(&mut b, "hero", |_| true);
    b.execute(Command::Hold { target: None }).unwrap();
    b.execute(Command::EndTurn).unwrap();
    until(&mut b, "gob", |_| true);
    b.execute(Command::Move { to: (5, 1).into() }).unwrap();
    assert_eq!(count(&b, |e| matches!(e, CombatEvent::AttackOfOpportunity { by, .. } if by == "hero")), 1);
    assert_eq!(count(&b, |e| matches!(e, CombatEvent::Action { action, .. } if action == "held attack")), 0);
}

#[test]
fn a_held_attack_strikes_a_foe_entering_reach_and_then_rules_out_attacks_of_opportunity() {
    // A 10-ft corridor: the goblin must pass alongside the fighter.
    let rows = ["##########", "..........", "..........", "##########"];
    let mut b = battle_on(
        &rows,
        vec![unit("hero", "blue", (4, 1), "human_fighter", None), unit("gob", "red", (7, 2), "goblin", None)],
        RulesVariant::D20Classic,
        12,
    );
    until(&mut b, "hero", |_| true);
    b.execute(Command::Hold { target: Some("gob".into()) }).unwrap();
    b.execute(Command::EndTurn).unwrap();
    until(&mut b, "gob", |_| true);
    // In through the fighter's reach and out again on the far side.
    b.execute(Command::Move { to: (1, 2).into() }).unwrap();
    assert_eq!(count(&b, |e| matches!(e, CombatEvent::Action { action, .. } if action == "held attack")), 1);
    assert_eq!(count(&b, |e| matches!(e, CombatEvent::AttackOfOpportunity { .. })), 0, "the immediate action is spent");
    // The holder's place in the order is now just after the goblin's.
    let order: Vec<String> = b.clock().order.iter().map(|&i| b.read().fighters.combatant[i].id.clone()).collect();
    assert_eq!(order, vec!["gob".to_string(), "hero".to_string()]);
}

#[test]
fn a_trip_knocks_prone_and_in_d20_classic_provokes_first() {
    let mut tripped = 0;
    for seed in 0..30 {
        let mut b = battle(
            vec![unit("ogre", "blue", (3, 3), "ogre", None), unit("gob", "red", (5, 3), "goblin", None)],
            RulesVariant::D20Classic,
            seed,
        );
        until(&mut b, "ogre", |_| true);
        b.execute(Command::Trip { target: "gob".into() }).unwrap();
        let provoked = count(&b, |e| matches!(e, CombatEvent::AttackOfOpportunity { by, .. } if by == "gob"));
        assert_eq!(provoked, 1, "seed {seed}: the defender gets an attack of opportunity");
        let gob = b.index_of("gob").unwrap();
        if b.read().fighters.conditions[gob].has(Condition::Prone) {
            tripped += 1;
            let ogre = b.index_of("ogre").unwrap();
            let p = b.attack_profile(ogre, gob, &AttackKind::Primary, &Default::default());
            assert!(p.modifiers.iter().any(|m| m.source == "target prone" && m.value == 4));
        }
    }
    assert!(tripped > 5, "an ogre trips goblins often: {tripped}/30");
}

#[test]
fn standing_up_in_a_threatened_square_provokes() {
    let mut b = battle(
        vec![unit("hero", "blue", (4, 3), "human_fighter", None), unit("gob", "red", (5, 3), "goblin", None)],
        RulesVariant::D20Classic,
        5,
    );
    until(&mut b, "hero", |_| true);
    let hero = b.index_of("hero").unwrap();
    b.scene().fighter::<Conditions>(hero).add(Condition::Prone);
    b.execute(Command::Stand).unwrap();
    assert!(!b.read().fighters.conditions[hero].has(Condition::Prone));
    assert_eq!(
        count(&b, |e| matches!(e, CombatEvent::AttackOfOpportunity { trigger, .. } if trigger == "stands up")),
        1
    );
}

/// d20-classic: "Reckless Fighting: This is an option when attacking to take a -4 dodge
/// penalty to AC and gain a +2 circumstance bonus to damage." "Defensive Fighting: … a -4
/// circumstance penalty to attack and gain a +2 circumstance bonus to AC." An option when
/// attacking, not an action: a full attack may follow it; one or the other, once a turn.
#[test]
fn reckless_fighting_costs_4_ac_and_defensive_fighting_4_on_attacks() {
    use fivefoot::combat::command::Stance;
    let fresh = || {
        let mut b = battle(
            vec![unit("hero", "blue", (4, 3), "human_fighter", None), unit("gob", "red", (5, 3), "goblin", None)],
            RulesVariant::D20Classic,
            5,
        );
        until(&mut b, "hero", |_| true);
        b
    };
    let mut b = fresh();
    b.execute(Command::Stance { stance: Stance::Reckless }).unwrap();
    let (h, g) = (b.index_of("hero").unwrap(), b.index_of("gob").unwrap());
    let p = b.attack_profile(g, h, &AttackKind::Primary, &Default::default());
    assert!(p.modifiers.iter().any(|m| m.source == "target reckless" && m.value == 4), "{:?}", p.modifiers);
    let again = b.read().check_command(&Command::Stance { stance: Stance::Defensive }).unwrap_err().to_string();
    assert!(again.contains("one way of fighting a turn"), "{again}");
    let mut b = fresh();
    b.execute(Command::Stance { stance: Stance::Defensive }).unwrap();
    let p = b.attack_profile(h, g, &AttackKind::Primary, &Default::default());
    assert!(p.modifiers.iter().any(|m| m.source == "fighting defensively" && m.value == -4));
    b.execute(Command::FullAttack { target: "gob".into() }).expect("a full attack after choosing to fight defensively");
}

#[test]
fn a_level_chooses_its_death_saves() {
    let mut def =
        level(vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (7, 3), "goblin", None)])
            .def;
    def.death_saves = Some(fivefoot::level::DeathSaves::Brutality);
    let lvl = Level::from_def(def, &Catalogue::builtin()).unwrap();
    let b = BattleWorld::new(&lvl, &Catalogue::builtin(), RulesVariant::D20Classic, 1, BattleOptions::default());
    assert_eq!(b.read().options.death_saves, fivefoot::level::DeathSaves::Brutality);
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/ogre-bridge.ron")).unwrap();
    let text =
        text.replace("    rules: \"d20-classic\",", "    rules: \"d20-classic\",\n    death_saves: \"all-are-equal\",");
    let lvl = Level::parse(&text, std::path::Path::new("x.ron"), &Catalogue::builtin()).unwrap();
    assert_eq!(lvl.def.death_saves, Some(fivefoot::level::DeathSaves::AllAreEqual));
}

#[test]
fn a_shove_pushes_the_foe_straight_back_and_a_disarm_leaves_it_unarmed() {
    let (mut pushed, mut disarmed) = (0, 0);
    for seed in 0..30 {
        let mut b = battle(
            vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (4, 3), "goblin", None)],
            RulesVariant::D20Classic,
            seed,
        );
        until(&mut b, "hero", |_| true);
        b.execute(Command::Shove { target: "gob".into() }).unwrap();
        assert_eq!(count(&b, |e| matches!(e, CombatEvent::AttackOfOpportunity { by, .. } if by == "gob")), 1);
        let gob = b.index_of("gob").unwrap();
        let pos = b.read().fighters.position[gob].0;
        if pos != (4, 3).into() {
            pushed += 1;
            assert_eq!(pos.y, 3, "straight back");
            assert!(pos.x > 4);
        }
        // A disarm needs a free hand: a champion with a longsword and no shield.
        let mut b = battle(
            vec![
                unit("hero", "blue", (3, 3), "champion", Some("longsword")),
                unit("gob", "red", (4, 3), "goblin", None),
            ],
            RulesVariant::D20Classic,
            seed,
        );
        until(&mut b, "hero", |_| true);
        b.execute(Command::Disarm { target: "gob".into() }).unwrap();
        let gob = b.index_of("gob").unwrap();
        if b.read().fighters.wielded[gob].id == "unarmed" {
            disarmed += 1;
            assert!(b.read().view().threat.squares_of(gob).is_empty(), "unarmed, it threatens nothing");
        }
    }
    assert!(pushed > 3 && disarmed > 3, "pushed {pushed}, disarmed {disarmed}");
}

/// d20-classic: "To initiate a disarm, the aggressor must have a free hand or a disarming
/// weapon." A fighter with a shield, a champion with a greatsword or a wolf with its bite has
/// none; the same champion with a longsword has one. Four-actions' disarm asks for no free
/// hand.
#[test]
fn a_d20_disarm_needs_a_free_hand() {
    let tries = |hero: UnitDef, v: RulesVariant| {
        let mut b = battle(vec![hero, unit("gob", "red", (4, 3), "goblin", None)], v, 1);
        until(&mut b, "hero", |_| true);
        b.validate(&Command::Disarm { target: "gob".into() }).map_err(|e| e.reason)
    };
    let shielded = || unit("hero", "blue", (3, 3), "human_fighter", None);
    let two_handed = unit("hero", "blue", (3, 3), "champion", Some("greatsword"));
    let wolf = unit("hero", "blue", (3, 3), "wolf", None);
    for hero in [shielded(), two_handed, wolf] {
        let refused = tries(hero, RulesVariant::D20Classic).unwrap_err();
        assert!(refused.contains("a disarm needs a free hand"), "{refused}");
    }
    assert!(tries(unit("hero", "blue", (3, 3), "champion", Some("longsword")), RulesVariant::D20Classic).is_ok());
    assert!(tries(shielded(), RulesVariant::FourActions).is_ok());
}

#[test]
fn a_four_actions_dash_covers_one_and_a_half_speed_but_not_through_difficult_terrain() {
    let rows = ["..........", "..........", "....~.....", ".........."];
    let mut b = battle_on(
        &rows,
        vec![unit("hero", "blue", (0, 0), "human_fighter", None), unit("gob", "red", (9, 3), "goblin", None)],
        RulesVariant::FourActions,
        3,
    );
    until(&mut b, "hero", |_| true);
    assert!(b.validate(&Command::Dash { to: (9, 0).into() }).is_ok(), "45 ft");
    assert!(b.validate(&Command::Dash { to: (9, 1).into() }).is_ok());
    let e = b.validate(&Command::Dash { to: (4, 2).into() }).unwrap_err();
    assert!(e.reason.contains("difficult"), "{e}");
    assert!(b.validate(&Command::Move { to: (9, 0).into() }).is_err(), "an advance covers only 30 ft");
}

#[test]
fn a_successful_tumble_provokes_nothing_and_a_failed_one_provokes_every_foe_passed() {
    let (mut clean, mut caught) = (0, 0);
    for seed in 0..30 {
        let mut b = battle(
            vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (4, 3), "goblin", None)],
            RulesVariant::FourActions,
            seed,
        );
        until(&mut b, "hero", |_| true);
        b.execute(Command::Tumble { to: (3, 1).into() }).unwrap();
        let ok = b
            .events()
            .iter()
            .any(|e| matches!(e, CombatEvent::Save { kind, success: true, .. } if kind == "Agility (tumble)"));
        let aoo = count(&b, |e| matches!(e, CombatEvent::AttackOfOpportunity { .. }));
        if ok {
            clean += 1;
            assert_eq!(aoo, 0, "seed {seed}");
        } else {
            caught += 1;
            assert_eq!(aoo, 1, "seed {seed}");
        }
    }
    assert!(clean > 0 && caught > 0);
}

#[test]
fn osr_multi_attackers_strike_before_the_groups_and_again_after_them() {
    let mut b = battle(
        vec![unit("champ", "blue", (3, 3), "champion", None), unit("ogre", "red", (4, 3), "ogre", None)],
        RulesVariant::OsrSegments,
        2,
    );
    // Play round 1 with the greedy AI.
    while b.clock().round == 1 && !b.is_over() {
        let a = b.actor().unwrap();
        let cmd = fivefoot::combat::Ai::decide(&mut fivefoot::combat::Greedy, &mut b, a);
        if b.execute(cmd).is_err() {
            b.execute(Command::EndTurn).unwrap();
        }
    }
    let phases: Vec<String> = b
        .events()
        .iter()
        .filter_map(
            |e| if let CombatEvent::PhaseStarted { round: 1, name, .. } = e { Some(name.clone()) } else { None },
        )
        .collect();
    let first = phases.iter().position(|p| p.starts_with("multi-attacks (first")).expect("a first multi-attack step");
    let rest =
        phases.iter().position(|p| p.starts_with("multi-attacks (remaining")).expect("a closing multi-attack step");
    let high = phases.iter().position(|p| p == "HIGH group").unwrap();
    assert!(first < high && high < rest, "{phases:?}");
    let champ_attacks = count(&b, |e| matches!(e, CombatEvent::Attack { attacker, .. } if attacker == "champ"));
    assert_eq!(champ_attacks, 2, "two attack routines in the round");
}

#[test]
fn a_grapple_holds_both_in_place_until_one_breaks_free() {
    let mut held = 0;
    for seed in 0..30 {
        for v in [RulesVariant::D20Classic, RulesVariant::FourActions] {
            let mut b = battle(
                vec![unit("ogre", "blue", (2, 3), "ogre", None), unit("gob", "red", (4, 3), "goblin", None)],
                v,
                seed,
            );
            until(&mut b, "ogre", |_| true);
            b.execute(Command::Grapple { target: "gob".into() }).unwrap();
            let gob = b.index_of("gob").unwrap();
            if !b.read().fighters.conditions[gob].has(Condition::Grappled) {
                continue;
            }
            held += 1;
            let ogre = b.index_of("ogre").unwrap();
            assert!(b.read().fighters.conditions[ogre].has(Condition::Grappled), "{v}: both are grappled");
            until(&mut b, "gob", |_| true);
            let e = b.validate(&Command::Move { to: (6, 6).into() }).unwrap_err();
            assert!(e.reason.contains("grappled"), "{e}");
            assert!(b.read().view().threat.squares_of(gob).is_empty(), "the grappled threaten nothing");
            // d20-classic: the defender "can attack normally with unarmed attacks, daggers";
            // four-actions: both are Restrained, "Unable to move or attack".
            let strike = b.validate(&Command::Attack { target: "ogre".into() });
            match v {
                RulesVariant::FourActions => assert!(strike.unwrap_err().reason.contains("restrained")),
                _ => assert!(strike.is_ok(), "{v}: but may strike the grappler"),
            }
            b.execute(Command::Escape).unwrap();
            let freed = !b.read().fighters.conditions[gob].has(Condition::Grappled);
            assert_eq!(
                freed,
                !b.read().fighters.conditions[ogre].has(Condition::Grappled),
                "{v}: a grapple ends for both"
            );
        }
    }
    assert!(held > 5, "an ogre grapples goblins often: {held}");
}

#[test]
fn a_crossbow_must_be_reloaded_between_shots() {
    let mut b = battle(
        vec![unit("xbow", "blue", (1, 3), "crossbowman", None), unit("gob", "red", (8, 3), "goblin", None)],
        RulesVariant::D20Classic,
        4,
    );
    until(&mut b, "xbow", |_| true);
    b.execute(Command::Attack { target: "gob".into() }).unwrap();
    b.execute(Command::EndTurn).unwrap();
    until(&mut b, "xbow", |_| true);
    let e = b.validate(&Command::Attack { target: "gob".into() }).unwrap_err();
    assert!(e.reason.contains("not loaded"), "{e}");
    b.execute(Command::Reload).unwrap();
    b.validate(&Command::Attack { target: "gob".into() })
        .expect("loaded again (a move action), the standard action fires");
    // ap-phases: loading is complex, so a threatening foe gets its attack of opportunity.
    let mut b = battle(
        vec![unit("xbow", "blue", (1, 3), "crossbowman", None), unit("gob", "red", (2, 3), "goblin", None)],
        RulesVariant::ApPhases,
        4,
    );
    until(&mut b, "xbow", |b| b.clock().phase == 2);
    let x = b.index_of("xbow").unwrap();
    b.scene().fighter::<Wielded>(x).loaded = false; // fired last round
    b.execute(Command::Reload).unwrap();
    assert!(
        b.events()
            .iter()
            .any(|e| matches!(e, CombatEvent::AttackOfOpportunity { trigger, .. } if trigger == "reloads"))
    );
}

#[test]
fn osr_crossbows_fire_only_with_the_low_group() {
    let mut b = battle(
        vec![unit("xbow", "blue", (1, 3), "crossbowman", None), unit("gob", "red", (8, 3), "goblin", None)],
        RulesVariant::OsrSegments,
        4,
    );
    until(&mut b, "xbow", major_action_left);
    let allowed = b.validate(&Command::Attack { target: "gob".into() });
    assert_eq!(allowed.is_ok(), osr_segments::round(&b.read()).step == osr_segments::OsrStep::Low, "{allowed:?}");
}

#[test]
fn ap_total_defense_takes_two_consecutive_ap_and_gives_plus_4_or_plus_2_after_attacking() {
    let mut b = battle(
        vec![unit("hero", "blue", (3, 3), "human_fighter", Some("dagger")), unit("gob", "red", (6, 3), "goblin", None)],
        RulesVariant::ApPhases,
        3,
    );
    until(&mut b, "hero", |b| b.clock().phase == 2);
    b.execute(Command::Defend).unwrap();
    let hero = b.index_of("hero").unwrap();
    assert!(b.read().fighters.bonuses[hero].defense.is_empty(), "declared, not complete");
    until(&mut b, "gob", |b| b.clock().phase == 4); // the hero's phase-3 opportunity completed it
    assert_eq!(b.read().fighters.bonuses[hero].defense, vec![("total defense".to_string(), 4)]);
    assert_eq!(ap_phases::points(&b.read(), hero).ap, 1);
    // After an attack action earlier in the round, only +2.
    let mut b = battle(
        vec![unit("hero", "blue", (3, 3), "human_fighter", Some("dagger")), unit("gob", "red", (4, 3), "goblin", None)],
        RulesVariant::ApPhases,
        3,
    );
    until(&mut b, "hero", |b| b.clock().phase == 4);
    b.execute(Command::Attack { target: "gob".into() }).unwrap();
    until(&mut b, "hero", |b| b.clock().phase == 5);
    b.execute(Command::Defend).unwrap();
    until(&mut b, "gob", |b| b.clock().phase == 7);
    let hero = b.index_of("hero").unwrap();
    assert_eq!(b.read().fighters.bonuses[hero].defense, vec![("total defense".to_string(), 2)]);
}

#[test]
fn a_delayed_d20_fighter_acts_last_from_then_on() {
    let mut b = battle(
        vec![
            unit("a", "blue", (1, 1), "human_fighter", None),
            unit("b", "blue", (1, 3), "human_fighter", None),
            unit("gob", "red", (8, 3), "goblin", None),
        ],
        RulesVariant::D20Classic,
        6,
    );
    let first = b.read().fighters.combatant[b.actor().unwrap()].id.clone();
    b.execute(Command::Delay).unwrap();
    let order: Vec<String> = b.clock().order.iter().map(|&i| b.read().fighters.combatant[i].id.clone()).collect();
    assert_eq!(order.last(), Some(&first));
    // It still gets its turn this round, after the others.
    let mut seen = vec![];
    while b.clock().round == 1 {
        seen.push(b.read().fighters.combatant[b.actor().unwrap()].id.clone());
        b.execute(Command::EndTurn).unwrap();
    }
    assert_eq!(seen.last(), Some(&first), "{seen:?}");
}

#[test]
fn massive_damage_calls_for_a_fortitude_save_against_10_plus_the_attackers_hit_dice() {
    let mut saw = false;
    for seed in 0..40 {
        let mut units =
            vec![unit("champ", "blue", (3, 3), "champion", None), unit("gob", "red", (4, 3), "goblin", None)];
        units[1].hp = Some(20); // a greatsword hit of 10+ is half its hit points
        let mut b = battle(units, RulesVariant::D20Classic, seed);
        until(&mut b, "champ", |_| true);
        b.execute(Command::Attack { target: "gob".into() }).unwrap();
        for e in b.events().iter() {
            if let CombatEvent::Save { kind, dc, success, .. } = e
                && kind.contains("massive damage")
            {
                saw = true;
                assert_eq!(*dc, 10 + 11, "DC 10 + the champion's 11 Hit Dice");
                let gob = b.index_of("gob").unwrap();
                if !success {
                    assert!(
                        b.read().fighters.health[gob].hp <= 0 && b.read().fighters.health[gob].death_fails >= 1,
                        "dropped, first death save failed"
                    );
                }
            }
        }
    }
    assert!(saw);
}

#[test]
fn the_combat_plugin_plays_the_battle_out_and_sends_every_event_to_the_view() {
    use bevy::prelude::*;
    use fivefoot::combat::plugin::{BattleRes, CombatEventMsg, CombatPlugin};
    let lvl = Level::load(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/skirmish.ron"), &Catalogue::builtin()).unwrap();
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin, fivefoot::rules::RulesPlugin, CombatPlugin));
    let battle = BattleWorld::new(&lvl, &Catalogue::builtin(), RulesVariant::D20Classic, 9, BattleOptions::default());
    let mut alone = battle.fork(false);
    app.insert_resource(BattleRes::new(battle, vec![], Default::default()));
    let mut cursor = app.world().resource::<Messages<CombatEventMsg>>().get_cursor();
    let mut seen = 0;
    for _ in 0..3000 {
        app.update();
        let msgs = app.world().resource::<Messages<CombatEventMsg>>();
        seen += cursor.read(msgs).count();
        if app.world().resource::<BattleRes>().battle.is_over() {
            break;
        }
    }
    let played = &app.world().resource::<BattleRes>().battle;
    assert!(played.is_over(), "the AI plays the battle out");
    assert_eq!(seen, played.events().len(), "every event reaches the view as a message");
    // The window's battle is the same battle the engine plays alone from the same start.
    alone.run(&mut |_| None);
    assert_eq!(played.events(), alone.events());
}
