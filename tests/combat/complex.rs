//! ap-phases complex actions (coup de grace, first aid), dying turns, advanced actions, and
//! the AI's choices around them.

use super::*;
use fivefoot::combat::variants::ap_phases;
use fivefoot::rules::Conditions;
use fivefoot::rules::Health;
use fivefoot::rules::Position;

// ---------------------------------------------------------------- ap-phases complex actions (000)

/// Makes `id` helpless: down and unconscious (`dying`: below 0 hit points and dying).
fn knock_out(b: &mut BattleWorld, id: &str, dying: bool) {
    let i = b.index_of(id).unwrap();
    b.scene().fighter::<Conditions>(i).add(Condition::Unconscious);
    b.scene().fighter::<Conditions>(i).add(Condition::Prone);
    if dying {
        b.scene().fighter::<Health>(i).hp = -1;
        b.scene().fighter::<Conditions>(i).add(Condition::Dying);
    }
    // No AP and no opportunity left this round, as if it had dropped before it opened.
    b.scene().fighter::<fivefoot::combat::kept::ActionPoints>(i).ap = 0;
    let e = b.read().fighters.entity(i);
    b.scene().clock().queue.retain(|&q| q != e);
}

fn action_events<'a>(b: &'a BattleWorld, unit_id: &str, name: &str) -> Vec<&'a str> {
    b.events()
        .iter()
        .filter_map(|e| match e {
            CombatEvent::Action { unit, action, detail } if unit == unit_id && action == name => Some(detail.as_str()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_coup_de_grace_hits_automatically_for_a_confirmed_critical_then_fortitude_dc_10_plus_damage_or_die() {
    let (mut died, mut lived) = (0, 0);
    for seed in 0..30 {
        let mut b = battle(
            vec![
                unit("hero", "blue", (3, 3), "human_fighter", Some("dagger")),
                unit("champ", "red", (4, 3), "champion", None),
                unit("gob", "red", (9, 7), "goblin", None),
            ],
            RulesVariant::ApPhases,
            seed,
        );
        until(&mut b, "hero", |b| b.clock().phase == 2);
        knock_out(&mut b, "champ", false);
        b.execute(Command::CoupDeGrace { target: "champ".into() }).unwrap();
        until(&mut b, "gob", |b| b.clock().phase == 5);
        assert_eq!(action_events(&b, "hero", "coup de grace").len(), 2, "seed {seed}: begun, then delivered");
        assert!(attack_events(&b).iter().all(|(a, _)| a != "hero"), "seed {seed}: no attack roll");
        let damage = b
            .events()
            .iter()
            .find_map(|e| match e {
                CombatEvent::Damage { attacker, dice, total, .. } if attacker == "hero" => Some((dice.clone(), *total)),
                _ => None,
            })
            .expect("the blow lands");
        assert_eq!(damage.0, "1d4 x2 critical", "seed {seed}");
        let save = b.events().iter().find_map(|e| match e {
            CombatEvent::Save { unit, kind, dc, success, .. } if unit == "champ" && kind.contains("coup de grace") => {
                Some((*dc, *success))
            }
            _ => None,
        });
        let (dc, success) = save.expect("the champion survives the damage and saves");
        assert_eq!(dc, 10 + damage.1, "seed {seed}");
        let c = b.index_of("champ").unwrap();
        assert_eq!(b.read().fighters.conditions[c].has(Condition::Dead), !success, "seed {seed}");
        if success { lived += 1 } else { died += 1 }
    }
    assert!(died > 0 && lived > 0, "died {died}, lived {lived}");
    // Only a helpless foe.
    let mut b = battle(
        vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (4, 3), "goblin", None)],
        RulesVariant::ApPhases,
        1,
    );
    until(&mut b, "hero", |b| b.clock().phase == 2);
    let e = b.validate(&Command::CoupDeGrace { target: "gob".into() }).unwrap_err();
    assert!(e.reason.contains("not helpless"), "{e}");
}

#[test]
fn first_aid_stabilises_a_dying_ally_on_a_dc_15_heal_check_and_not_on_a_failure() {
    let (mut saved, mut failed) = (0, 0);
    for seed in 0..30 {
        let mut b = battle(
            vec![
                unit("hero", "blue", (3, 3), "human_fighter", None),
                unit("pal", "blue", (2, 3), "human_fighter", None),
                unit("gob", "red", (9, 7), "goblin", None),
            ],
            RulesVariant::ApPhases,
            seed,
        );
        until(&mut b, "hero", |b| b.clock().phase == 2);
        knock_out(&mut b, "pal", true);
        b.execute(Command::FirstAid { target: "pal".into() }).unwrap();
        until(&mut b, "gob", |b| b.clock().phase == 4);
        let heal = b.events().iter().find_map(|e| match e {
            CombatEvent::Save { unit, kind, roll, bonus, dc, success }
                if unit == "hero" && kind.starts_with("Heal") =>
            {
                Some((*roll + *bonus, *dc, *success))
            }
            _ => None,
        });
        let (total, dc, success) = heal.expect("the check is made once the 2 AP are spent");
        assert_eq!(dc, 15);
        assert_eq!(success, total >= 15);
        let p = b.index_of("pal").unwrap();
        assert_eq!(b.read().fighters.conditions[p].has(Condition::Stabilized), success, "seed {seed}");
        assert_eq!(b.read().fighters.conditions[p].has(Condition::Dying), !success, "seed {seed}");
        if success { saved += 1 } else { failed += 1 }
    }
    assert!(saved > 0 && failed > 0, "saved {saved}, failed {failed}");
}

#[test]
fn complex_actions_provoke_in_every_phase_their_consecutive_ap_are_spent() {
    // The champion (Combat Reflexes) may take one attack of opportunity a phase.
    let mut b = battle(
        vec![
            unit("hero", "blue", (3, 3), "human_fighter", None),
            unit("pal", "blue", (2, 3), "human_fighter", None),
            unit("champ", "red", (4, 3), "champion", None),
        ],
        RulesVariant::ApPhases,
        5,
    );
    until(&mut b, "hero", |b| b.clock().phase == 2);
    knock_out(&mut b, "pal", true);
    let h = b.index_of("hero").unwrap();
    b.execute(Command::FirstAid { target: "pal".into() }).unwrap();
    assert_eq!(ap_phases::points(&b.read(), h).ap, 2, "the first AP goes in when declared");
    // The second AP goes in on the hero's next opportunity, by ending the turn (anything
    // else would abandon it).
    while b.clock().phase < 4 {
        if b.actor() == Some(h) {
            assert!(
                b.read().budget().own::<ap_phases::PhaseAction>().continuing,
                "phase {}: the first aid is under way",
                b.clock().phase
            );
        }
        b.execute(Command::EndTurn).unwrap();
    }
    assert_eq!(ap_phases::points(&b.read(), h).ap, 1, "2 AP, in phases 2 and 3");
    let mut phase = 0;
    let mut provoked_in = vec![];
    for e in b.events().iter() {
        match e {
            CombatEvent::PhaseStarted { phase: p, .. } => phase = *p,
            CombatEvent::AttackOfOpportunity { by, trigger, .. } if by == "champ" && trigger == "gives first aid" => {
                provoked_in.push(phase)
            }
            _ => {}
        }
    }
    assert_eq!(provoked_in, vec![2, 3], "an attack of opportunity in each phase AP were spent");
    assert!(b.events().iter().any(|e| matches!(e, CombatEvent::Save { kind, .. } if kind.starts_with("Heal"))));
}

#[test]
fn a_coup_de_grace_begun_late_in_the_round_finishes_with_the_first_ap_of_the_next() {
    let mut b = battle(
        vec![
            unit("hero", "blue", (3, 3), "human_fighter", None),
            unit("champ", "red", (4, 3), "champion", None),
            unit("gob", "red", (9, 7), "goblin", None),
        ],
        RulesVariant::ApPhases,
        2,
    );
    until(&mut b, "hero", |b| b.clock().phase == 6);
    knock_out(&mut b, "champ", false);
    let h = b.index_of("hero").unwrap();
    b.execute(Command::CoupDeGrace { target: "champ".into() }).unwrap();
    let delivered = |b: &BattleWorld| action_events(b, "hero", "coup de grace").len() == 2;
    while !delivered(&b) {
        if b.actor() == Some(h) {
            assert!(
                b.read().budget().own::<ap_phases::PhaseAction>().continuing,
                "the hero's AP go into the coup de grace"
            );
        }
        b.execute(Command::EndTurn).unwrap();
    }
    let mut when = (0, 0);
    for e in b.events().iter() {
        match e {
            CombatEvent::PhaseStarted { round, phase, .. } => when = (*round, *phase),
            CombatEvent::Action { unit, action, detail }
                if unit == "hero" && action == "coup de grace" && detail.contains("automatic hit") =>
            {
                break;
            }
            _ => {}
        }
    }
    assert_eq!(when, (2, 2), "phases 6 and 7, then the first a fighter acts in round 2");
    assert_eq!(ap_phases::points(&b.read(), h).ap, 2, "round 2's first AP finished it");
}

#[test]
fn the_greedy_ai_finishes_a_helpless_foe_only_when_no_foe_in_the_fight_is_at_hand() {
    use fivefoot::combat::{Ai, Greedy};
    let mut b = battle(
        vec![
            unit("hero", "blue", (3, 3), "human_fighter", None),
            unit("gob", "red", (4, 3), "goblin", None),
            unit("far", "red", (9, 7), "goblin", None),
        ],
        RulesVariant::ApPhases,
        1,
    );
    until(&mut b, "hero", |b| b.clock().phase == 2);
    knock_out(&mut b, "gob", true);
    let h = b.actor().unwrap();
    assert_eq!(Greedy.decide(&mut b, h), Command::CoupDeGrace { target: "gob".into() });
    // With a goblin still fighting beside it, it fights that one instead.
    let f = b.index_of("far").unwrap();
    b.scene().fighter::<Position>(f).0 = (3, 4).into();
    assert_ne!(Greedy.decide(&mut b, h), Command::CoupDeGrace { target: "gob".into() });
    // A dying friend beside it comes first: first aid.
    let mut b = battle(
        vec![
            unit("hero", "blue", (3, 3), "human_fighter", None),
            unit("pal", "blue", (3, 4), "human_fighter", None),
            unit("gob", "red", (4, 3), "goblin", None),
            unit("far", "red", (9, 7), "goblin", None),
        ],
        RulesVariant::ApPhases,
        1,
    );
    until(&mut b, "hero", |b| b.clock().phase == 2);
    knock_out(&mut b, "gob", true);
    knock_out(&mut b, "pal", true);
    let h = b.actor().unwrap();
    assert_eq!(Greedy.decide(&mut b, h), Command::FirstAid { target: "pal".into() });
}

#[test]
fn a_dying_fighter_gets_its_dying_turn_every_round_under_every_variant_that_has_dying() {
    for v in [RulesVariant::D20Classic, RulesVariant::FourActions, RulesVariant::ApPhases, RulesVariant::OsrSegments] {
        for seed in 0..4 {
            let mut b = battle(
                vec![
                    unit("down", "blue", (1, 1), "human_fighter", None),
                    unit("up", "blue", (1, 6), "human_fighter", None),
                    unit("foe", "red", (8, 6), "goblin", None),
                ],
                v,
                seed,
            );
            let down = b.index_of("down").unwrap();
            // Dropped before the battle: at −1 hit points, dying.
            b.scene().fighter::<Health>(down).hp = -1;
            for c in [Condition::Unconscious, Condition::Dying, Condition::Prone] {
                b.scene().fighter::<Conditions>(down).add(c);
            }
            let dying_turns = |b: &BattleWorld| {
                count(b, |e| match e {
                    CombatEvent::Save { unit, kind, .. } => unit == "down" && !kind.contains("initiative"),
                    CombatEvent::Action { unit, action, .. } => unit == "down" && action == "bleeds",
                    _ => false,
                })
            };
            // Every round that begins with it dying (and alive) holds one dying turn.
            for _ in 0..4 {
                let round = b.clock().round;
                let dying = b.read().fighters.conditions[down].has(Condition::Dying)
                    && b.read().fighters.conditions[down].alive();
                let before = dying_turns(&b);
                while b.clock().round == round {
                    b.execute(Command::EndTurn).unwrap();
                }
                if dying {
                    assert!(dying_turns(&b) > before, "{v} seed {seed}: no dying turn in round {round}");
                }
            }
        }
    }
}

#[test]
fn ap_an_advanced_action_goes_on_by_ending_the_turn_or_is_abandoned_for_another_action() {
    let units = || {
        vec![unit("hero", "blue", (3, 3), "human_fighter", Some("dagger")), unit("gob", "red", (6, 3), "goblin", None)]
    };
    // Ending the turn goes on with it: total defense completes.
    let mut b = battle(units(), RulesVariant::ApPhases, 3);
    until(&mut b, "hero", |b| b.clock().phase == 2);
    b.execute(Command::Defend).unwrap();
    let hero = b.index_of("hero").unwrap();
    until(&mut b, "hero", |b| b.read().budget().own::<ap_phases::PhaseAction>().continuing);
    assert!(
        fivefoot::control::vocabulary::budget_line(&b.read()).contains("under way"),
        "{}",
        fivefoot::control::vocabulary::budget_line(&b.read())
    );
    b.execute(Command::EndTurn).unwrap();
    assert_eq!(b.read().fighters.bonuses[hero].defense, vec![("total defense".to_string(), 4)]);
    // Any other action abandons it: "it may be wise to abandon an advanced action".
    let mut b = battle(units(), RulesVariant::ApPhases, 3);
    until(&mut b, "hero", |b| b.clock().phase == 2);
    b.execute(Command::Defend).unwrap();
    until(&mut b, "hero", |b| b.read().budget().own::<ap_phases::PhaseAction>().continuing);
    let ap = ap_phases::points(&b.read(), hero).ap;
    // Foreseeing the move (the path preview's warning) plays it on a copy: the advanced
    // action, the action points and the budget here stay as they were.
    let (points, budget, events) =
        (ap_phases::points(&b.read(), hero).clone(), b.read().budget().clone(), b.events().len());
    b.provocations(&Command::Move { to: (3, 0).into() });
    assert_eq!((ap_phases::points(&b.read(), hero), b.read().budget(), b.events().len()), (&points, &budget, events));
    b.execute(Command::Move { to: (3, 0).into() }).unwrap();
    assert!(ap_phases::points(&b.read(), hero).advanced.is_none());
    assert!(b.read().fighters.bonuses[hero].defense.is_empty(), "no total defense");
    assert!(
        b.events()
            .iter()
            .any(|e| matches!(e, CombatEvent::Spoiled { unit, reason, .. } if unit == "hero" && reason == "abandoned"))
    );
    assert_eq!(ap_phases::points(&b.read(), hero).ap, ap - 1, "the move took this phase's AP instead");
}

/// hex-phases: "an attack action and a move action, or two move actions" a phase. A wolf
/// too far to strike this phase used to spend both moves and stop 10 ft from its foe,
/// handing it the first blow; it now ends the phase within one move of striking (and out
/// of the foe's own move + attack), then moves and attacks in the next phase.
#[test]
fn a_hex_phases_ai_too_far_to_strike_stops_within_one_move_and_strikes_next_phase() {
    use fivefoot::combat::ai::{Ai, Greedy};
    let rows = [".............", ".............", "............."];
    let mut b = battle_on(
        &rows,
        vec![unit("vet", "blue", (0, 1), "veteran", None), unit("wolf", "red", (12, 1), "wolf", None)],
        RulesVariant::HexPhases,
        5,
    );
    let wolf = b.index_of("wolf").unwrap();
    // (phase, commands, where the wolf ended) for each of the wolf's opportunities.
    let mut turns: Vec<(u32, Vec<Command>, (i32, i32))> = vec![];
    while turns.len() < 2 {
        let a = b.actor().expect("battle on");
        if a != wolf {
            b.execute(Command::EndTurn).unwrap(); // the veteran waits
            continue;
        }
        let phase = b.clock().phase;
        let mut done = vec![];
        while b.actor() == Some(wolf) {
            let c = Greedy.decide(&mut b, wolf);
            done.push(c.clone());
            b.execute(c).unwrap();
        }
        let p = b.read().fighters.position[wolf].0;
        turns.push((phase, done, (p.x, p.y)));
    }
    // Wolf: speed 50 ft, a move action half of it: 5 hexes. From (12, 1) the hex beside the
    // veteran, (1, 1), is 11 hexes away: out of reach this phase. One move takes it to
    // (7, 1); within one move of (1, 1) is (6, 1), 30 ft from the veteran (whose own half
    // move of 15 ft and 5-ft reach cannot touch it).
    let (_, first, end) = &turns[0];
    assert_eq!(*end, (6, 1), "stopped at striking distance: {first:?}");
    assert!(!first.iter().any(|c| matches!(c, Command::Attack { .. })));
    let (_, second, end) = &turns[1];
    assert_eq!(*end, (1, 1), "closed in: {second:?}");
    assert!(
        matches!(second.as_slice(), [Command::Move { .. }, Command::Attack { target }, ..] if target == "vet"),
        "moved and struck: {second:?}"
    );
}

/// "Allies' squares can be moved through, not ended in" (rules-notes): a mover dropped by
/// an attack of opportunity while leaving an ally's square is put back on the last square
/// of its path where it could have stopped, never left sharing the ally's square.
#[test]
fn a_mover_dropped_in_an_allys_square_ends_on_the_last_square_it_could_stop_in() {
    // The only way east runs through the ally's square (1, 1), which the goblin threatens;
    // (0, 1) is out of its reach.
    let rows = ["##.##", ".....", "#####"];
    let mut dropped_there = 0;
    for v in [RulesVariant::D20Classic, RulesVariant::ApPhases, RulesVariant::FourActions, RulesVariant::OsrSegments] {
        for seed in 0..60 {
            let mut hero = unit("hero", "blue", (0, 1), "human_fighter", None);
            hero.hp = Some(1);
            let mut b = battle_on(
                &rows,
                vec![
                    hero,
                    unit("ally", "blue", (1, 1), "human_fighter", None),
                    unit("gob", "red", (2, 0), "goblin", None),
                ],
                v,
                seed,
            );
            until(&mut b, "hero", |b| b.read().budget().fresh);
            let hero = b.index_of("hero").unwrap();
            if b.execute(Command::Move { to: GridPos::new(4, 1) }).is_err() {
                continue;
            }
            let read = b.read();
            let f = read.fighters.at(hero);
            assert_ne!(f.pos(), GridPos::new(1, 1), "{v} seed {seed}: left on the ally's square");
            if !f.in_fight() && f.pos() != GridPos::new(4, 1) {
                // Dropped on the way: back where it could have stopped, its start.
                assert_eq!(f.pos(), GridPos::new(0, 1), "{v} seed {seed}");
                dropped_there += 1;
            }
        }
    }
    assert!(dropped_there > 0, "some attack of opportunity dropped the hero on the ally's square");
}
