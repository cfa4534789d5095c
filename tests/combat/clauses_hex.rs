//! hex-phases (source 004) clauses from its own words: the initiative score kept while
//! unconscious, 3d6 + OCV against 10 + DCV at unequal values, one opportunity per opponent
//! per phase, the 1-hex step's limits, delay and ready moving a place in the order, and a
//! readied action lost at the next action. Hexes are odd-r: an odd row's neighbours of
//! (x, y) are (x±1, y), (x, y±1) and (x+1, y±1); an even row's (x±1, y), (x−1, y±1) and
//! (x, y±1). CV = round(Dex / 3): goblin and wolf (Dex 15) 5, champion (Dex 14) 5, fighter
//! (Dex 13) 4, ogre (Dex 8) 3.

use super::*;
use fivefoot::rules::Conditions;

fn hex(units: Vec<UnitDef>, seed: u64) -> BattleWorld {
    battle(units, RulesVariant::HexPhases, seed)
}

/// Plays the current phase: each fighter does what `act` says for it, then ends its turn.
/// Returns who acted, in order.
fn play_phase(b: &mut BattleWorld, mut act: impl FnMut(&mut BattleWorld, &str)) -> Vec<String> {
    let phase = (b.clock().round, b.clock().phase);
    let mut actors = vec![];
    while (b.clock().round, b.clock().phase) == phase {
        let a = b.actor().expect("battle on");
        let id = b.read().fighters.combatant[a].id.clone();
        actors.push(id.clone());
        act(b, &id);
        if b.actor() == Some(a) && (b.clock().round, b.clock().phase) == phase {
            b.execute(Command::EndTurn).unwrap();
        }
    }
    actors
}

fn ids(b: &BattleWorld, order: &[Entity]) -> Vec<String> {
    order.iter().map(|&e| b.read().fighters.combatant[e].id.clone()).collect()
}

fn opportunities_by(b: &BattleWorld, by_id: &str) -> Vec<String> {
    b.events()
        .iter()
        .filter_map(|e| match e {
            CombatEvent::AttackOfOpportunity { by, target, .. } if by == by_id => Some(target.clone()),
            _ => None,
        })
        .collect()
}

fn to(x: i32, y: i32) -> Command {
    Command::Move { to: GridPos::new(x, y) }
}

/// "Even if you can't take actions (for example, because you're unconscious or paralysed),
/// you retain your Initiative score for the duration of the combat." The fighter, knocked
/// out for a turn, is skipped but keeps its score and place between the wolf and the ogre;
/// awake again, it acts there.
#[test]
fn hex_an_unconscious_fighter_keeps_its_initiative_score() {
    let mut b = hex(
        vec![
            unit("wolf", "red", (1, 1), "wolf", None),
            unit("hero", "blue", (8, 1), "human_fighter", None),
            unit("ogre", "blue", (1, 5), "ogre", None),
        ],
        1,
    );
    let order = ids(&b, &b.clock().order);
    assert_eq!(order, ["wolf", "hero", "ogre"], "CV 5, 4, 3");
    let hero = b.index_of("hero").unwrap();
    let score = b.read().fighters.initiative[hero].order;
    b.scene().fighter::<Conditions>(hero).add(Condition::Unconscious);
    for _ in 0..5 {
        let acted = play_phase(&mut b, |_, _| {});
        assert_eq!(acted, ["wolf", "ogre"], "the unconscious do not act");
    }
    assert_eq!(b.read().fighters.initiative[hero].order, score);
    assert_eq!(ids(&b, &b.clock().order), order);
    b.scene().fighter::<Conditions>(hero).remove(Condition::Unconscious);
    assert_eq!(play_phase(&mut b, |_, _| {}), ["wolf", "hero", "ogre"], "awake, in its old place");
}

/// "The attacker rolls 3d6 and adds their OCV … The target number is 10 plus the defender's
/// DCV" at unequal values. OCV = CV + base attack / 2, DCV = CV + shield. The fighter
/// (OCV 4 plus 0) needs 16 against the goblin (DCV 5 plus 1): 12 or more on 3d6, 81/216; the
/// goblin (OCV 5 plus 0) needs 16 against the fighter (DCV 4 + 2): 11 or more, 108/216. Every roll
/// hits exactly when 3d6 + OCV reaches 16.
#[test]
fn hex_unequal_ocv_and_dcv_set_the_roll_needed() {
    let (mut hits, mut misses) = (0, 0);
    for seed in 0..30 {
        let mut b = hex(
            vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (4, 3), "goblin", None)],
            seed,
        );
        let (h, g) = (b.index_of("hero").unwrap(), b.index_of("gob").unwrap());
        for (a, t, ocv, chance) in [(h, g, 4, 81.0 / 216.0), (g, h, 5, 108.0 / 216.0)] {
            let p = b.attack_profile(a, t, &AttackKind::Primary, &Default::default());
            assert_eq!(p.target_number, 16);
            assert_eq!(p.bonus(), ocv);
            assert_eq!(p.hit_chance, chance);
        }
        play_phase(&mut b, |b, id| {
            let foe = if id == "hero" { "gob" } else { "hero" };
            b.execute(Command::Attack { target: foe.into() }).unwrap();
        });
        for e in b.events().iter() {
            if let CombatEvent::Attack { attacker, rolls, total, target_number, hit, .. } = e {
                let ocv = if attacker == "hero" { 4 } else { 5 };
                assert_eq!(rolls.len(), 3);
                assert_eq!(*total, rolls.iter().sum::<i32>() + ocv);
                assert_eq!(*target_number, 16);
                assert_eq!(*hit, *total >= 16, "{e:?}");
                if *hit {
                    hits += 1;
                } else {
                    misses += 1;
                }
            }
        }
    }
    assert!(hits > 0 && misses > 0, "{hits} hits, {misses} misses");
}

/// The champion (Combat Reflexes: more than one attack of opportunity a phase) at (4,3);
/// the hero at (3,3) and the pal at (5,3) beside it.
fn champion_between_two() -> BattleWorld {
    hex(
        vec![
            unit("hero", "blue", (3, 3), "human_fighter", None),
            unit("pal", "blue", (5, 3), "human_fighter", None),
            unit("champ", "red", (4, 3), "champion", None),
        ],
        3,
    )
}

/// "Moving out of more than one hex threatened by the same opponent in the same Phase doesn't
/// count as more than one opportunity for that opponent." The hero's only 3-hex path to (6,2)
/// leaves (3,3), (4,2) and (5,2), all beside the champion: one attack. The control: the pal
/// leaving it in the same phase draws a second (Combat Reflexes allows it).
#[test]
fn hex_leaving_several_hexes_of_one_foe_in_a_move_is_one_opportunity() {
    let mut b = champion_between_two();
    play_phase(&mut b, |b, id| match id {
        "hero" => b.execute(to(6, 2)).unwrap(),
        "pal" => b.execute(to(7, 3)).unwrap(),
        _ => {}
    });
    let path = b.events().iter().find_map(|e| match e {
        CombatEvent::Moved { unit, path, .. } if unit == "hero" => Some(path.clone()),
        _ => None,
    });
    assert_eq!(path, Some(vec![GridPos::new(4, 2), GridPos::new(5, 2), GridPos::new(6, 2)]));
    let mut o = opportunities_by(&b, "champ");
    o.sort();
    assert_eq!(o, ["hero", "pal"]);
}

/// The same clause over two move actions in one phase: the hero leaves (3,3) for (4,2), then
/// (4,2) for (4,1), each time out of a hex the champion threatens: still one opportunity.
#[test]
fn hex_leaving_one_foe_twice_in_a_phase_is_one_opportunity() {
    let mut b = champion_between_two();
    play_phase(&mut b, |b, id| {
        if id == "hero" {
            b.execute(to(4, 2)).unwrap();
            b.execute(to(4, 1)).unwrap();
        }
    });
    assert_eq!(opportunities_by(&b, "champ"), ["hero"]);
}

/// "You can't take more than one 1-hex step in a Phase, and you can't take a 1-hex step in
/// the same Phase when you move any distance." The control: a step in a phase of its own.
#[test]
fn hex_one_1_hex_step_a_phase_and_none_with_a_move() {
    let units =
        || vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (8, 6), "goblin", None)];
    let step = |x, y| Command::Step { to: GridPos::new(x, y) };
    let mut b = hex(units(), 4);
    until(&mut b, "hero", |_| true);
    b.execute(step(2, 3)).unwrap();
    assert!(b.validate(&step(1, 3)).is_err(), "a second step");
    assert!(b.validate(&to(1, 3)).is_err(), "a move after a step");
    let mut b = hex(units(), 4);
    until(&mut b, "hero", |_| true);
    b.execute(to(2, 3)).unwrap();
    assert!(b.validate(&step(1, 3)).is_err(), "a step after a move");
    // The next phase, a step again.
    b.execute(Command::EndTurn).unwrap();
    until(&mut b, "hero", |_| true);
    b.validate(&step(1, 3)).unwrap();
}

/// "By choosing to delay, you take no action on your own Initiative score and wait to act
/// later … thus fixing your new initiative score at that point." The wolf (first) delays to
/// the end of phase 1 and acts last from then on; the control: phase 1 opened in CV order.
#[test]
fn hex_a_delay_moves_the_delayer_to_where_it_acted() {
    let mut b = hex(
        vec![
            unit("wolf", "red", (1, 1), "wolf", None),
            unit("hero", "blue", (8, 1), "human_fighter", None),
            unit("ogre", "red", (1, 5), "ogre", None),
        ],
        5,
    );
    assert_eq!(ids(&b, &b.clock().order), ["wolf", "hero", "ogre"]);
    let mut delayed = false;
    let acted = play_phase(&mut b, |b, id| {
        if id == "wolf" && !delayed {
            delayed = true;
            b.execute(Command::Delay).unwrap();
        }
    });
    assert_eq!(acted, ["wolf", "hero", "ogre", "wolf"]);
    assert_eq!(play_phase(&mut b, |_, _| {}), ["hero", "ogre", "wolf"]);
    assert_eq!(ids(&b, &b.clock().order), ["hero", "ogre", "wolf"]);
}

/// A goblin at (7,3) closes on the hero at (3,3), who readied an attack for it in phase 1;
/// the wolf (as quick as the goblin) stays away.
fn readied_hero(seed: u64) -> BattleWorld {
    let mut b = hex(
        vec![
            unit("gob", "red", (7, 3), "goblin", None),
            unit("hero", "blue", (3, 3), "human_fighter", None),
            unit("wolf", "red", (8, 7), "wolf", None),
        ],
        seed,
    );
    play_phase(&mut b, |b, id| {
        if id == "hero" {
            b.execute(Command::Hold { target: Some("gob".into()) }).unwrap();
        }
    });
    b
}

fn held_attacks(b: &BattleWorld) -> usize {
    b.events().iter().filter(|e| matches!(e, CombatEvent::Action { action, .. } if action == "held attack")).count()
}

/// "Your Initiative score changes: for the rest of the encounter, your Initiative is when you
/// took the readied action, and you act immediately ahead of the character whose action
/// triggered your readied action." Before, the hero (CV 4) is behind the goblin (CV 5).
#[test]
fn hex_a_readied_action_puts_the_reader_just_ahead_of_its_trigger() {
    let mut b = readied_hero(6);
    let place = |b: &BattleWorld, id: &str| {
        b.clock().order.iter().position(|&i| b.read().fighters.combatant[i].id == id).unwrap()
    };
    assert!(place(&b, "hero") > place(&b, "gob"), "the control: CV order");
    play_phase(&mut b, |b, id| {
        if id == "gob" {
            b.execute(to(4, 3)).unwrap();
        }
    });
    assert_eq!(held_attacks(&b), 1);
    assert_eq!(place(&b, "hero") + 1, place(&b, "gob"), "{:?}", ids(&b, &b.clock().order));
}

/// "If you take your readied action in the next Phase, before your regular turn comes up,
/// … you do not get your regular action that Phase."
#[test]
fn hex_a_readied_action_taken_before_the_readers_turn_replaces_its_action_that_phase() {
    let mut b = readied_hero(6);
    let acted = play_phase(&mut b, |b, id| {
        if id == "gob" {
            b.execute(to(4, 3)).unwrap();
        }
    });
    assert_eq!(held_attacks(&b), 1);
    assert!(!acted.contains(&"hero".to_string()), "{acted:?}");
}

/// "If you come to your next action and have not yet performed your readied action, you
/// don't get to take the readied action." The goblin closing in phase 2 before the hero's
/// action is struck (the control); closing in phase 3, after it, it is not.
#[test]
fn hex_a_readied_action_not_taken_by_the_next_action_is_lost() {
    for late in [false, true] {
        let mut b = readied_hero(7);
        if late {
            play_phase(&mut b, |_, _| {});
        }
        play_phase(&mut b, |b, id| {
            if id == "gob" {
                b.execute(to(4, 3)).unwrap();
            }
        });
        assert_eq!(held_attacks(&b), usize::from(!late), "late: {late}");
    }
}
