//! four-actions (source 001) clauses from its own words: the dash provoking and quick
//! actions never provoking, defend, the disarm, trip and push against a Reflex save, a
//! wait lost at the next turn, one reaction per movement, the charge, the side step,
//! focus, prone AC and the restrained. Each expected number is worked out here from the
//! catalogue; each negative case has its positive control.

use super::*;
use fivefoot::combat::fighter::Grapple;
use fivefoot::combat::variants::four_actions;
use fivefoot::rules::Conditions;

fn four(units: Vec<UnitDef>, seed: u64) -> BattleWorld {
    battle(units, RulesVariant::FourActions, seed)
}

fn hero_and_goblin(seed: u64) -> BattleWorld {
    four(vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (4, 3), "goblin", None)], seed)
}

fn reactions_by(b: &BattleWorld, by_id: &str) -> usize {
    b.events().iter().filter(|e| matches!(e, CombatEvent::AttackOfOpportunity { by, .. } if by == by_id)).count()
}

/// "Dashing will provoke Reactions from threatening creatures"; "Quick Actions never provoke
/// Reactions": the side step out of reach provokes nothing, and focus before an advance adds
/// nothing to the advance's one reaction. An advance out of reach is the control that
/// provokes as the dash does.
#[test]
fn four_actions_a_dash_provokes_and_quick_actions_never_do() {
    for (cmds, provokes) in [
        (vec![Command::Dash { to: (0, 3).into() }], true),
        (vec![Command::Move { to: (1, 3).into() }], true),
        (vec![Command::Step { to: (2, 3).into() }], false),
        (vec![Command::Focus, Command::Move { to: (1, 3).into() }], true),
    ] {
        let mut b = hero_and_goblin(1);
        until(&mut b, "hero", |_| true);
        for c in &cmds {
            b.execute(c.clone()).unwrap();
        }
        let hero = b.index_of("hero").unwrap();
        assert!(b.read().fighters.position[hero].0.x < 3, "{cmds:?} left the goblin's reach");
        assert_eq!(reactions_by(&b, "gob"), usize::from(provokes), "{cmds:?}");
    }
}

/// "Defend … grants a +3 bonus to AC and Saving Throws for 1 round." The goblin's attack on
/// the hero meets it (shown as −3); the control, before defending, does not; at the hero's
/// next turn it is gone.
#[test]
fn four_actions_defend_gives_plus_3_ac_for_a_round() {
    let mut b = hero_and_goblin(2);
    until(&mut b, "hero", |_| true);
    let (h, g) = (b.index_of("hero").unwrap(), b.index_of("gob").unwrap());
    let defend = |b: &mut BattleWorld| {
        let p = b.attack_profile(g, h, &AttackKind::Primary, &Default::default());
        p.modifiers.iter().find(|m| m.source == "target defend").map(|m| m.value)
    };
    assert_eq!(defend(&mut b), None, "the control");
    b.execute(Command::Defend).unwrap();
    assert_eq!(defend(&mut b), Some(-3));
    b.execute(Command::EndTurn).unwrap();
    until(&mut b, "hero", |_| true);
    assert_eq!(defend(&mut b), None, "1 round");
}

/// Disarm, trip and push: "[Athletics] check against its target's Reflex save". The hero's
/// Athletics is Str +3 + half its base attack (0) = +3; the goblin's Reflex is 1 HD / 3 (0)
/// plus Dex +2 = +2. On a success the goblin drops its weapon, is knocked prone, or is pushed
/// 5 ft; "On a failure, this provokes a Reaction from the target" (and nothing else happens).
#[test]
fn four_actions_disarm_trip_and_push_against_reflex_and_a_failure_provokes() {
    for (cmd, what) in [
        (Command::Disarm { target: "gob".into() }, "disarm"),
        (Command::Trip { target: "gob".into() }, "trip"),
        (Command::Shove { target: "gob".into() }, "push"),
    ] {
        let (mut won, mut failed) = (0, 0);
        for seed in 0..40 {
            let mut b = hero_and_goblin(seed);
            // After the goblin's first turn: no longer Surprised (which would cost it its Dex).
            until(&mut b, "hero", |b| b.read().fighters.awareness[b.index_of("gob").unwrap()].has_acted);
            b.execute(cmd.clone()).unwrap();
            let (roll, bonus, athletics) = b
                .events()
                .iter()
                .find_map(|e| match e {
                    CombatEvent::Save { unit, kind, roll, bonus, dc, .. }
                        if unit == "gob" && kind.contains("Reflex") =>
                    {
                        Some((*roll, *bonus, *dc))
                    }
                    _ => None,
                })
                .expect("a Reflex save");
            assert_eq!(bonus, 2, "Reflex +2");
            assert!((1 + 3..=20 + 3).contains(&athletics), "d20 + 3: {athletics}");
            let success = athletics >= roll + bonus;
            let read = b.read();
            let g = read.fighters.at(b.index_of("gob").unwrap());
            let done = match what {
                "disarm" => g.wielded().id == "unarmed",
                "trip" => g.has(Condition::Prone),
                // Half the hero's 30 ft: 15 ft, three squares in the open.
                _ => g.pos() == GridPos::new(7, 3),
            };
            assert_eq!(done, success, "{what}, seed {seed}");
            assert_eq!(reactions_by(&b, "gob"), usize::from(!success), "{what}, seed {seed}");
            if success {
                won += 1;
            } else {
                failed += 1;
            }
        }
        assert!(won > 0 && failed > 0, "{what}: {won} won, {failed} failed");
    }
}

/// "Wait … must be completed before the start of the waiting creature's next turn or the
/// action is lost." The hero waits with an attack for the goblin: the goblin closing before
/// the hero's next turn is struck (the control); after it, it is not.
#[test]
fn four_actions_a_wait_not_taken_by_the_next_turn_is_lost() {
    for after_next_turn in [false, true] {
        let mut b = four(
            vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (6, 3), "goblin", None)],
            3,
        );
        until(&mut b, "hero", |_| true);
        b.execute(Command::Hold { target: Some("gob".into()) }).unwrap();
        b.execute(Command::EndTurn).unwrap();
        if after_next_turn {
            until(&mut b, "gob", |_| true);
            b.execute(Command::EndTurn).unwrap();
            until(&mut b, "hero", |_| true); // its next turn starts
            b.execute(Command::EndTurn).unwrap();
        }
        until(&mut b, "gob", |_| true);
        b.execute(Command::Move { to: (4, 3).into() }).unwrap();
        let held =
            b.events().iter().any(|e| matches!(e, CombatEvent::Action { action, .. } if action == "held attack"));
        assert_eq!(held, !after_next_turn);
    }
}

/// "Advance … leaving or moving through the threatened area of any creature will provoke a
/// Reaction, but only once per movement." The champion (Combat Reflexes: 1 + Dex 2 = 3
/// reactions) strikes once at the hero going round it (leaving three of its squares) in one
/// advance, and
/// twice at the hero leaving its reach in each of two advances (the control).
#[test]
fn four_actions_an_advance_provokes_once_per_movement() {
    for (moves, expected) in [(vec![(6, 3)], 1), (vec![(3, 1), (3, 5)], 2)] {
        let mut b = four(
            vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("champ", "red", (4, 3), "champion", None)],
            4,
        );
        until(&mut b, "hero", |_| true);
        for to in &moves {
            b.execute(Command::Move { to: (*to).into() }).unwrap();
        }
        let left: usize = b
            .events()
            .iter()
            .filter_map(|e| match e {
                CombatEvent::Moved { unit, path, .. } if unit == "hero" => Some(path),
                _ => None,
            })
            .map(|path| path[..path.len() - 1].iter().filter(|p| (p.x - 4).abs() <= 1 && (p.y - 3).abs() <= 1).count())
            .sum();
        assert!(left >= 2, "the paths left several threatened squares besides the start: {left}");
        assert_eq!(reactions_by(&b, "champ"), expected, "{moves:?}");
    }
}

/// "Charge … grants a +2 bonus on Attack and Damage rolls, but incurs a -2 penalty on AC for
/// one round", and "prevents the foe targeted with the Charge from taking Reactions against
/// the charger's movement". The charge passes through the rings of two spearmen (longspears
/// threaten 10 ft): the one charged does not react, the other does (the control). A hit deals
/// 1d8 + Str 3 + 2 (a critical doubles only the dice).
#[test]
fn four_actions_a_charge_is_plus_2_to_attack_and_damage_and_minus_2_ac() {
    for seed in 0..60 {
        let mut b = four(
            vec![
                unit("hero", "blue", (1, 3), "human_fighter", None),
                unit("sp1", "red", (6, 3), "spearman", None),
                unit("sp2", "red", (4, 5), "spearman", None),
            ],
            seed,
        );
        until(&mut b, "hero", |_| true);
        b.execute(Command::Charge { target: "sp1".into() }).unwrap();
        let hero = b.index_of("hero").unwrap();
        assert!(b.read().fighters.bonuses[hero].defense.contains(&("charging".into(), -2)));
        assert_eq!(reactions_by(&b, "sp1"), 0, "the charged foe does not react");
        assert_eq!(reactions_by(&b, "sp2"), 1, "the control: another foe does");
        let s: Vec<&CombatEvent> = b
            .events()
            .iter()
            .filter(|e| matches!(e, CombatEvent::Attack { attacker, .. } | CombatEvent::Damage { attacker, .. } if attacker == "hero"))
            .collect();
        let CombatEvent::Attack { kind, modifiers, hit, .. } = s[0] else { panic!("{:?}", s[0]) };
        assert_eq!(kind, "charges");
        assert!(modifiers.iter().any(|m| m.source == "charge" && m.value == 2), "{modifiers:?}");
        if !hit {
            continue;
        }
        let CombatEvent::Damage { rolls, total, modifiers, .. } = s[1] else { panic!("{:?}", s[1]) };
        assert!(modifiers.iter().any(|m| m.source == "charge" && m.value == 2), "{modifiers:?}");
        assert_eq!(*total, rolls.iter().sum::<i32>() + 3 + 2);
        return;
    }
    panic!("the charge never hit");
}

/// "Side Step: … move 5ft in any available direction, this cannot be taken through
/// Difficult Terrain"; it is a quick action, leaving the standard and move actions.
#[test]
fn four_actions_the_side_step_is_5_ft_never_into_difficult_terrain() {
    let rows = ["..........", "..........", "...~......", ".........."];
    let mut b = battle_on(
        &rows,
        vec![unit("hero", "blue", (4, 2), "human_fighter", None), unit("gob", "red", (9, 3), "goblin", None)],
        RulesVariant::FourActions,
        5,
    );
    until(&mut b, "hero", |_| true);
    assert!(b.validate(&Command::Step { to: (6, 2).into() }).is_err(), "10 ft");
    assert!(b.validate(&Command::Step { to: (3, 2).into() }).is_err(), "difficult terrain");
    b.execute(Command::Step { to: (5, 2).into() }).unwrap();
    let read = b.read();
    let bud = read.budget();
    assert!(!four_actions::quick_left(bud) && bud.standard && bud.move_action, "{bud:?}");
}

/// "Focus: Gain a +1 bonus on Attack and Damage rolls … for 1 round": the attack shows +1,
/// a hit deals 1d8 + Str 3 + 1. The control: the attack before focusing has no such bonus.
#[test]
fn four_actions_focus_is_plus_1_to_attack_and_damage() {
    for seed in 0..60 {
        let mut b = hero_and_goblin(seed);
        until(&mut b, "hero", |_| true);
        let (h, g) = (b.index_of("hero").unwrap(), b.index_of("gob").unwrap());
        let before = b.attack_profile(h, g, &AttackKind::Primary, &Default::default());
        assert!(!before.modifiers.iter().any(|m| m.source == "focus"));
        b.execute(Command::Focus).unwrap();
        b.execute(Command::Attack { target: "gob".into() }).unwrap();
        let s: Vec<&CombatEvent> = b
            .events()
            .iter()
            .filter(|e| matches!(e, CombatEvent::Attack { attacker, .. } | CombatEvent::Damage { attacker, .. } if attacker == "hero"))
            .collect();
        let CombatEvent::Attack { modifiers, hit, .. } = s[0] else { panic!() };
        assert!(modifiers.iter().any(|m| m.source == "focus" && m.value == 1), "{modifiers:?}");
        if !hit {
            continue;
        }
        let CombatEvent::Damage { rolls, total, .. } = s[1] else { panic!() };
        assert_eq!(*total, rolls.iter().sum::<i32>() + 3 + 1);
        return;
    }
    panic!("never hit");
}

/// "Prone: … -4 AC against melee attacks, +4 AC against ranged attacks": +4 for the
/// fighter's sword, −4 for the archer's bow. The control: standing, neither.
#[test]
fn four_actions_prone_is_minus_4_ac_in_melee_and_plus_4_against_ranged() {
    let mut b = four(
        vec![
            unit("hero", "blue", (3, 3), "human_fighter", None),
            unit("archer", "blue", (4, 7), "human_archer", None),
            unit("gob", "red", (4, 3), "goblin", None),
        ],
        6,
    );
    let (h, a, g) = (b.index_of("hero").unwrap(), b.index_of("archer").unwrap(), b.index_of("gob").unwrap());
    let prone_mod = |b: &mut BattleWorld, by: usize| {
        let p = b.attack_profile(by, g, &AttackKind::Primary, &Default::default());
        p.modifiers.iter().find(|m| m.source == "target prone").map(|m| m.value)
    };
    assert_eq!((prone_mod(&mut b, h), prone_mod(&mut b, a)), (None, None));
    b.scene().fighter::<Conditions>(g).add(Condition::Prone);
    assert_eq!((prone_mod(&mut b, h), prone_mod(&mut b, a)), (Some(4), Some(-4)));
}

/// "Restrained: Unable to move … subtract the Ability Modifier(s) from AC". The goblin held
/// by the hero cannot advance, and the archer's shot finds it without its Dex +2. The
/// control: free, it advances and keeps its Dex.
#[test]
fn four_actions_the_restrained_cannot_move_and_lose_their_dex_to_ac() {
    for held in [false, true] {
        let b = held_goblin(held);
        let (a, g) = (b.index_of("archer").unwrap(), b.index_of("gob").unwrap());
        let p = b.attack_profile(a, g, &AttackKind::Primary, &Default::default());
        let dex_lost = p.modifiers.iter().any(|m| m.source == "target surprised" && m.value == 2);
        assert_eq!(dex_lost, held, "{:?}", p.modifiers);
        assert_eq!(b.validate(&Command::Move { to: (6, 3).into() }).is_ok(), !held, "advance");
    }
}

/// "Restrained: Unable to move or attack" (and the Primary Attack: "To attack with a weapon
/// the creature must be able to move, and thus cannot be Restrained"): the held goblin's
/// plain attack should be refused (its attack comes through winning the grapple contest).
#[test]
fn four_actions_the_restrained_cannot_attack() {
    for held in [false, true] {
        let b = held_goblin(held);
        assert_eq!(b.validate(&Command::Attack { target: "hero".into() }).is_ok(), !held, "attack");
    }
}

/// The goblin acting, beside the hero, the archer below it; `held`: seized by the hero.
fn held_goblin(held: bool) -> BattleWorld {
    let mut b = four(
        vec![
            unit("hero", "blue", (3, 3), "human_fighter", None),
            unit("archer", "blue", (4, 7), "human_archer", None),
            unit("gob", "red", (4, 3), "goblin", None),
        ],
        7,
    );
    until(&mut b, "gob", |_| true);
    let (h, g) = (b.index_of("hero").unwrap(), b.index_of("gob").unwrap());
    b.scene().fighter::<Conditions>(g).0.remove(&Condition::Surprised);
    if held {
        b.scene().fighter::<Conditions>(g).add(Condition::Grappled);
        let with = b.read().fighters.entity(h);
        b.scene().fighter::<Grapple>(g).with = Some(with);
        b.scene().fighter::<Conditions>(h).add(Condition::Grappled);
        let with = b.read().fighters.entity(g);
        b.scene().fighter::<Grapple>(h).with = Some(with);
        b.scene().fighter::<Grapple>(h).holds = true;
    }
    b
}

/// The hero acting while the goblin has not had its first turn (so the goblin is Surprised).
fn hero_before_the_goblins_first_turn() -> BattleWorld {
    for seed in 0..40 {
        let mut b = hero_and_goblin(seed);
        until(&mut b, "hero", |_| true);
        if !b.read().fighters.awareness[b.index_of("gob").unwrap()].has_acted {
            return b;
        }
    }
    panic!("the goblin always acted first");
}

/// "Surprised: Unable to defend, subtract the Ability Modifier(s) from AC": the goblin (Dex
/// 15, +2) before its first turn is 2 easier to hit; the control: after its first turn, not.
#[test]
fn four_actions_the_surprised_lose_their_dex_to_ac() {
    let mut b = hero_before_the_goblins_first_turn();
    let (h, g) = (b.index_of("hero").unwrap(), b.index_of("gob").unwrap());
    let surprised = |b: &mut BattleWorld| {
        let p = b.attack_profile(h, g, &AttackKind::Primary, &Default::default());
        p.modifiers.iter().find(|m| m.source == "target surprised").map(|m| m.value)
    };
    assert_eq!(surprised(&mut b), Some(2));
    until(&mut b, "hero", |b| b.read().fighters.awareness[b.index_of("gob").unwrap()].has_acted);
    assert_eq!(surprised(&mut b), None);
}

/// "Surprised: … subtract the Ability Modifier(s) from … Reflex": the goblin's Reflex
/// against a trip before its first turn is 1 HD / 3 = 0, without its Dex +2.
#[test]
fn four_actions_the_surprised_lose_their_dex_to_reflex() {
    let mut b = hero_before_the_goblins_first_turn();
    b.execute(Command::Trip { target: "gob".into() }).unwrap();
    let bonus = b.events().iter().find_map(|e| match e {
        CombatEvent::Save { unit, kind, bonus, .. } if unit == "gob" && kind.contains("Reflex") => Some(*bonus),
        _ => None,
    });
    assert_eq!(bonus, Some(0));
}
