//! ap-phases (source 000) clauses from its own words: readied missiles in phase 2, one
//! reaction per phase, which subtypes provoke (ranged attacks, moves, not steps), the
//! charge's +2, casting defensively, fighting defensively, the trip, bull rush and disarm
//! against CMD, and a readied action lost at the next round. Each expected number is worked
//! out here from the catalogue; each negative case has its positive control.

use super::*;
use fivefoot::combat::command::Stance;

fn ap(units: Vec<UnitDef>, seed: u64) -> BattleWorld {
    battle(units, RulesVariant::ApPhases, seed)
}

/// Plays `phase` of the current round: each fighter does what `act` says, then ends its
/// turn.
fn play_phase(b: &mut BattleWorld, phase: u32, mut act: impl FnMut(&mut BattleWorld, &str)) {
    while b.clock().phase < phase {
        b.execute(Command::EndTurn).unwrap();
    }
    let round = b.clock().round;
    while (b.clock().round, b.clock().phase) == (round, phase) {
        let a = b.actor().expect("battle on");
        let id = b.read().fighters.combatant[a].id.clone();
        act(b, &id);
        if b.actor() == Some(a) && (b.clock().round, b.clock().phase) == (round, phase) {
            b.execute(Command::EndTurn).unwrap();
        }
    }
}

fn aoo_by(b: &BattleWorld, by_id: &str) -> Vec<(String, String)> {
    b.events()
        .iter()
        .filter_map(|e| match e {
            CombatEvent::AttackOfOpportunity { by, target, trigger, .. } if by == by_id => {
                Some((target.clone(), trigger.clone()))
            }
            _ => None,
        })
        .collect()
}

/// "Characters can loose readied missiles during the second phase of the combat round or
/// any subsequent phase." The archer shoots in phase 2; the control, a dagger (fast), waits
/// for the fast phase (4).
#[test]
fn ap_readied_missiles_fly_from_the_second_phase() {
    for (creature, first) in [("human_archer", 2), ("human_fighter", 4)] {
        let weapon = if creature == "human_fighter" { Some("dagger") } else { None };
        let mut b =
            ap(vec![unit("hero", "blue", (1, 3), creature, weapon), unit("gob", "red", (2, 3), "goblin", None)], 1);
        until(&mut b, "hero", |b| b.clock().phase == 2);
        assert_eq!(b.validate(&Command::Attack { target: "gob".into() }).is_ok(), first == 2, "{creature}");
        until(&mut b, "hero", |b| b.clock().phase == first);
        b.validate(&Command::Attack { target: "gob".into() }).unwrap();
    }
}

/// "In general, only one free action or reaction should be performed by a character during
/// any action phase." The champion (Combat Reflexes: 3 a round) strikes one of two fighters
/// leaving it in the same phase; the control: leaving in two phases, it strikes both.
#[test]
fn ap_one_reaction_per_phase() {
    for same_phase in [true, false] {
        let mut b = ap(
            vec![
                unit("h1", "blue", (3, 3), "human_fighter", None),
                unit("h2", "blue", (5, 3), "human_fighter", None),
                unit("champ", "red", (4, 3), "champion", None),
            ],
            2,
        );
        let h2_phase = if same_phase { 2 } else { 3 };
        for phase in [2, 3] {
            play_phase(&mut b, phase, |b, id| match id {
                "h1" if phase == 2 => b.execute(Command::Move { to: (1, 3).into() }).unwrap(),
                "h2" if phase == h2_phase => b.execute(Command::Move { to: (7, 3).into() }).unwrap(),
                _ => {}
            });
        }
        let n = aoo_by(&b, "champ").len();
        assert_eq!(n, if same_phase { 1 } else { 2 }, "same phase: {same_phase}");
    }
}

/// "[Attack actions] typically provoke attacks of opportunity only if the attack is a ranged
/// attack." The archer shooting from the goblin's reach is struck first; the fighter's melee
/// attack from the same square provokes nothing (the control, and the rule's other half).
#[test]
fn ap_a_ranged_attack_provokes_and_a_melee_attack_does_not() {
    for (creature, weapon, phase, provokes) in
        [("human_archer", None, 2, true), ("human_fighter", Some("dagger"), 4, false)]
    {
        let mut b =
            ap(vec![unit("hero", "blue", (3, 3), creature, weapon), unit("gob", "red", (4, 3), "goblin", None)], 3);
        until(&mut b, "hero", |b| b.clock().phase == phase);
        b.execute(Command::Attack { target: "gob".into() }).unwrap();
        let aoo = aoo_by(&b, "gob");
        assert_eq!(!aoo.is_empty(), provokes, "{creature}: {aoo:?}");
        if provokes {
            assert_eq!(aoo, [("hero".to_string(), "fires in melee".to_string())]);
        }
    }
}

/// "Actions with the move subtype provoke … when you … leave a square in an enemy's
/// threatened area"; "a step … doesn't provoke attacks of opportunity".
#[test]
fn ap_a_move_out_of_reach_provokes_and_a_step_does_not() {
    for (cmd, provokes) in [(Command::Move { to: (1, 3).into() }, true), (Command::Step { to: (2, 3).into() }, false)] {
        let mut b = ap(
            vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (4, 3), "goblin", None)],
            4,
        );
        until(&mut b, "hero", |b| b.clock().phase == 2);
        b.execute(cmd.clone()).unwrap();
        let hero = b.index_of("hero").unwrap();
        assert_ne!(b.read().fighters.position[hero].0, GridPos::new(3, 3), "{cmd:?} moved");
        assert_eq!(aoo_by(&b, "gob").len(), usize::from(provokes), "{cmd:?}");
    }
}

/// The attacks `who` made, as (kind, modifiers).
fn attacks_of(b: &BattleWorld, who: &str) -> Vec<(String, Vec<(String, i32)>)> {
    b.events()
        .iter()
        .filter_map(|e| match e {
            CombatEvent::Attack { attacker, kind, modifiers, .. } if attacker == who => {
                Some((kind.clone(), modifiers.iter().map(|m| (m.source.clone(), m.value)).collect()))
            }
            _ => None,
        })
        .collect()
}

/// "Charge (Move; 2 AP) … At the end of the charge, you gain a +2 bonus on any melee
/// attacks". Declared in phase 2, the charge ends in phase 3 with the attack at +2; the
/// control, a plain attack the next round, has no such bonus.
#[test]
fn ap_a_charge_ends_in_a_melee_attack_at_plus_2() {
    let mut b = ap(
        vec![unit("hero", "blue", (1, 3), "human_fighter", Some("dagger")), unit("gob", "red", (6, 3), "goblin", None)],
        5,
    );
    until(&mut b, "hero", |b| b.clock().phase == 2);
    b.execute(Command::Charge { target: "gob".into() }).unwrap();
    until(&mut b, "hero", |b| b.clock().phase == 3);
    b.execute(Command::EndTurn).unwrap(); // the charge's second AP
    let hero = b.index_of("hero").unwrap();
    assert_eq!(b.read().fighters.position[hero].0, GridPos::new(5, 3), "the closest space from which it can attack");
    let a = attacks_of(&b, "hero");
    assert_eq!(a.len(), 1);
    assert_eq!(a[0].0, "charges");
    assert!(has_mod(&a[0].1, "charge", 2), "{:?}", a[0].1);
    until(&mut b, "hero", |b| b.clock().round == 2 && b.clock().phase == 4);
    b.execute(Command::Attack { target: "gob".into() }).unwrap();
    let a = attacks_of(&b, "hero");
    assert!(!a[1].1.iter().any(|(s, _)| s == "charge"), "the control: {:?}", a[1].1);
}

/// "… a +2 bonus on any melee attacks … you attempt until the end of the round, as long as
/// those attacks … are made against the creature you designated when you charged." The
/// charge ends in phase 3; the attack on the same goblin in phase 4 of that round.
#[test]
fn ap_the_charge_bonus_lasts_the_round_against_the_designated_foe() {
    let mut b = ap(
        vec![unit("hero", "blue", (1, 3), "human_fighter", Some("dagger")), unit("gob", "red", (6, 3), "goblin", None)],
        5,
    );
    until(&mut b, "hero", |b| b.clock().phase == 2);
    b.execute(Command::Charge { target: "gob".into() }).unwrap();
    until(&mut b, "hero", |b| b.clock().phase == 3);
    b.execute(Command::EndTurn).unwrap();
    until(&mut b, "hero", |b| b.clock().phase == 4);
    assert_eq!(b.clock().round, 1);
    b.execute(Command::Attack { target: "gob".into() }).unwrap();
    let a = attacks_of(&b, "hero");
    assert!(has_mod(&a[1].1, "charge", 2), "{:?}", a[1].1);
}

/// "Cast Defensively: … concentration check (DC = 15 + double the spell's level). If you
/// succeed, that spell loses the complex subtype for that casting. If you fail, you lose the
/// spell." Magic missile is level 1: DC 17; the war mage adds caster level 1 + Int 17 (+3).
/// Cast defensively next to the goblin it provokes nothing in either of its 2 AP; the
/// control, cast plainly, provokes in both phases.
#[test]
fn ap_casting_defensively_is_a_dc_17_check_and_no_longer_provokes() {
    let (mut kept, mut lost) = (0, 0);
    for seed in 0..40 {
        for defensive in [false, true] {
            let mut b = ap(
                vec![unit("mage", "blue", (3, 3), "war_mage", None), unit("gob", "red", (4, 3), "goblin", None)],
                seed,
            );
            until(&mut b, "mage", |b| b.clock().phase == 2);
            b.execute(Command::Cast { spell: "magic_missile".into(), target: "gob".into(), defensive }).unwrap();
            until(&mut b, "mage", |b| b.clock().phase == 3);
            b.execute(Command::EndTurn).unwrap();
            let provoked = aoo_by(&b, "gob").len();
            let check = b.events().iter().find_map(|e| match e {
                CombatEvent::Save { kind, roll, bonus, dc, success, .. } if kind.contains("casting defensively") => {
                    Some((*roll, *bonus, *dc, *success))
                }
                _ => None,
            });
            let spoiled = b.events().iter().any(|e| matches!(e, CombatEvent::Spoiled { unit, .. } if unit == "mage"));
            if !defensive {
                assert_eq!(check, None);
                assert!(provoked >= 1, "seed {seed}: complex: casting provokes");
                continue;
            }
            let (roll, bonus, dc, success) = check.expect("a concentration check");
            assert_eq!((bonus, dc), (1 + 3, 15 + 2), "seed {seed}");
            assert_eq!(success, roll + 4 >= 17);
            assert_eq!(provoked, 0, "seed {seed}: not complex, and a failure loses the spell");
            assert_eq!(spoiled, !success, "seed {seed}");
            if success {
                kept += 1;
            } else {
                lost += 1;
            }
        }
        if kept > 0 && lost > 0 {
            return;
        }
    }
    panic!("kept {kept}, lost {lost}");
}

/// "Fight Defensively: … you take a –4 penalty on all attack rolls, but gain a +2 dodge bonus
/// to AC until the start of your next round of actions." The control: the same attack and the
/// goblin's attack on the hero without it.
#[test]
fn ap_fighting_defensively_is_minus_4_to_attack_and_plus_2_ac() {
    for defensive in [false, true] {
        let mut b = ap(
            vec![
                unit("hero", "blue", (3, 3), "human_fighter", Some("dagger")),
                unit("gob", "red", (4, 3), "goblin", None),
            ],
            6,
        );
        until(&mut b, "hero", |b| b.clock().phase == 2);
        if defensive {
            b.execute(Command::Stance { stance: Stance::Defensive }).unwrap();
        }
        until(&mut b, "hero", |b| b.clock().phase == 4);
        b.execute(Command::Attack { target: "gob".into() }).unwrap();
        let a = attacks_of(&b, "hero");
        assert_eq!(has_mod(&a[0].1, "fighting defensively", -4), defensive, "{:?}", a[0].1);
        let (h, g) = (b.index_of("hero").unwrap(), b.index_of("gob").unwrap());
        let p = b.attack_profile(g, h, &AttackKind::Primary, &Default::default());
        let ac = p.modifiers.iter().any(|m| m.source == "target fighting defensively" && m.value == -2);
        assert_eq!(ac, defensive, "{:?}", p.modifiers);
        if defensive {
            // Until the start of its next round of actions.
            until(&mut b, "hero", |b| b.clock().round == 2);
            let p = b.attack_profile(g, h, &AttackKind::Primary, &Default::default());
            assert!(!p.modifiers.iter().any(|m| m.source == "target fighting defensively"));
        }
    }
}

/// "At the start of your round of actions, you can choose to fight defensively": chosen once
/// a round, and not in a later phase once an action point of the round is spent. The control:
/// the same fighter chooses it at the start of the next round.
#[test]
fn ap_fighting_defensively_is_chosen_once_at_the_start_of_the_round_of_actions() {
    let mut b = ap(
        vec![unit("hero", "blue", (3, 3), "human_fighter", Some("dagger")), unit("ogre", "red", (4, 3), "ogre", None)],
        6,
    );
    let defensive = Command::Stance { stance: Stance::Defensive };
    until(&mut b, "hero", |b| b.clock().phase == 2);
    b.execute(defensive.clone()).unwrap();
    let twice = b.execute(defensive.clone()).unwrap_err().to_string();
    assert!(twice.contains("already fighting defensively"), "{twice}");
    // The start of the next round: its first action point not yet spent.
    until(&mut b, "hero", |b| b.clock().round == 2 && b.clock().phase == 4);
    b.execute(Command::Attack { target: "ogre".into() }).unwrap();
    until(&mut b, "hero", |b| b.clock().phase == 5);
    let late = b.execute(defensive.clone()).unwrap_err().to_string();
    assert!(late.contains("start of the round of actions"), "{late}");
    until(&mut b, "hero", |b| b.clock().round == 3);
    assert_eq!(b.read().fighters.combatant[b.actor().unwrap()].id, "hero");
    b.execute(defensive).unwrap();
}

/// Trip, bull rush and disarm: a combat maneuver check against the foe's CMD. The fighter's
/// CMB is base attack 1 + Str 3 = 4; the goblin's CMD is 10 + base attack 1 + Str 0 + Dex 2
/// − 1 (Small) = 12. "Trip … If you succeed, you knock the target prone"; "Bull Rush … push
/// the foe back 5 feet. For every 5 by which your check exceeds your foe's CMD, … 5
/// additional feet"; "Disarm … your foe drops one item". Each failure is the control.
#[test]
fn ap_trip_bull_rush_and_disarm_succeed_against_cmd() {
    for (cmd, what) in [
        (Command::Trip { target: "gob".into() }, "trip"),
        (Command::Shove { target: "gob".into() }, "bull rush"),
        (Command::Disarm { target: "gob".into() }, "disarm"),
    ] {
        let (mut won, mut failed) = (0, 0);
        for seed in 0..40 {
            let mut b = ap(
                vec![
                    unit("hero", "blue", (3, 3), "human_fighter", Some("dagger")),
                    unit("gob", "red", (4, 3), "goblin", None),
                ],
                seed,
            );
            until(&mut b, "hero", |b| b.clock().phase == 4);
            b.execute(cmd.clone()).unwrap();
            let (roll, total, target_number, hit) = b
                .events()
                .iter()
                .find_map(|e| match e {
                    CombatEvent::Attack { attacker, kind, rolls, total, target_number, hit, .. }
                        if attacker == "hero" =>
                    {
                        assert_eq!(kind, &format!("{what} (combat maneuver) on"));
                        Some((rolls[0], *total, *target_number, *hit))
                    }
                    _ => None,
                })
                .expect("a combat maneuver check");
            assert_eq!((total, target_number), (roll + 4, 12), "{what}");
            assert_eq!(hit, roll + 4 >= 12);
            let read = b.read();
            let g = read.fighters.at(b.index_of("gob").unwrap());
            match what {
                "trip" => assert_eq!(g.has(Condition::Prone), hit, "{what} roll {roll}"),
                "bull rush" => {
                    let pushed = if hit { 1 + (roll + 4 - 12) / 5 } else { 0 };
                    assert_eq!(g.pos(), GridPos::new(4 + pushed, 3), "{what} roll {roll}");
                }
                _ => assert_eq!(g.wielded().id == "unarmed", hit, "{what} roll {roll}"),
            }
            if hit {
                won += 1;
            } else {
                failed += 1;
            }
        }
        assert!(won > 0 && failed > 0, "{what}: {won} won, {failed} failed");
    }
}

/// "Ready a Simple Action … If you don't take the action you readied as a reaction by the
/// start of your round of actions, you lose that reaction." The hero holds an attack for the
/// goblin: the goblin closing in the same round is struck (the control); closing in the next
/// round, it is not.
#[test]
fn ap_a_readied_attack_not_taken_by_the_next_round_is_lost() {
    for next_round in [false, true] {
        let mut b = ap(
            vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (6, 3), "goblin", None)],
            7,
        );
        until(&mut b, "hero", |b| b.clock().phase == 2);
        b.execute(Command::Hold { target: Some("gob".into()) }).unwrap();
        let round = if next_round { 2 } else { 1 };
        until(&mut b, "gob", |b| b.clock().round == round && b.clock().phase >= 3);
        b.execute(Command::Move { to: (4, 3).into() }).unwrap();
        let held =
            b.events().iter().any(|e| matches!(e, CombatEvent::Action { action, .. } if action == "held attack"));
        assert_eq!(held, !next_round, "goblin closes in round {round}");
    }
}

/// "Trip … If you fail by 10 or more, you are knocked prone instead"; "Disarm … If you fail
/// your combat maneuver by 10 or more, you drop any weapon you were using to disarm your
/// foe." The goblin's CMB is base attack 1 + Str 0 − 1 (Small) = 0; the fighter's CMD is
/// 10 + base attack 1 + Str 3 + Dex 1 = 15: a roll of 5 or less fails by 10. A failure by
/// less (6 to 14) changes nothing, the control.
#[test]
fn ap_a_trip_or_disarm_failed_by_10_turns_on_the_goblin() {
    for (cmd, what) in
        [(Command::Trip { target: "hero".into() }, "trip"), (Command::Disarm { target: "hero".into() }, "disarm")]
    {
        let (mut backfired, mut merely_failed) = (0, 0);
        for seed in 0..40 {
            let mut b = ap(
                vec![unit("gob", "red", (4, 3), "goblin", None), unit("hero", "blue", (3, 3), "human_fighter", None)],
                seed,
            );
            until(&mut b, "gob", |b| b.clock().phase == 4);
            b.execute(cmd.clone()).unwrap();
            let roll = b.events().iter().find_map(|e| match e {
                CombatEvent::Attack { attacker, rolls, total, target_number, .. } if attacker == "gob" => {
                    assert_eq!((*total - rolls[0], *target_number), (0, 15), "{what}");
                    Some(rolls[0])
                }
                _ => None,
            });
            let Some(roll) = roll else { continue };
            let read = b.read();
            let g = read.fighters.at(b.index_of("gob").unwrap());
            let turned = match what {
                "trip" => g.has(Condition::Prone),
                _ => g.wielded().id == "unarmed",
            };
            assert_eq!(turned, roll <= 5, "{what} roll {roll}");
            if roll <= 5 {
                backfired += 1;
            } else {
                merely_failed += 1;
            }
        }
        assert!(backfired > 0 && merely_failed > 0, "{what}: {backfired} backfired, {merely_failed} failed by less");
    }
}
