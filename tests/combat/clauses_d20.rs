//! d20-classic (source 002) clauses from its own words: the standard action given up for a
//! move (not the reverse), a held action lost at the next turn, a negative Strength
//! multiplied for two hands, the charge's damage bonus, the melee touch attack. Each
//! expected number is worked out here from the catalogue; each negative case has its
//! positive control.

use super::*;
use fivefoot::rules::Stats;

fn d20(units: Vec<UnitDef>, seed: u64) -> BattleWorld {
    battle(units, RulesVariant::D20Classic, seed)
}

/// "Your character's standard action can be given up for another move action, but not vice
/// versa." Two moves make a turn; after an attack (the standard action), the move action
/// left cannot buy a second attack, though it still moves (the control).
#[test]
fn d20_a_standard_action_buys_a_second_move_but_a_move_buys_no_standard_action() {
    let units =
        || vec![unit("hero", "blue", (1, 1), "human_fighter", None), unit("gob", "red", (2, 1), "goblin", None)];
    let mut b =
        d20(vec![unit("hero", "blue", (1, 1), "human_fighter", None), unit("gob", "red", (8, 6), "goblin", None)], 1);
    until(&mut b, "hero", |_| true);
    let hero = b.index_of("hero").unwrap();
    b.execute(Command::Move { to: (1, 4).into() }).unwrap();
    assert!(b.validate(&Command::Move { to: (1, 7).into() }).is_ok(), "the standard action given up for a move");
    b.execute(Command::Move { to: (1, 7).into() }).unwrap();
    assert_eq!(b.read().fighters.position[hero].0, GridPos::new(1, 7));
    assert_ne!(b.actor(), Some(hero), "two moves spend the turn");

    let mut b = d20(units(), 1);
    until(&mut b, "hero", |_| true);
    b.execute(Command::Attack { target: "gob".into() }).unwrap();
    let e = b.validate(&Command::Attack { target: "gob".into() }).unwrap_err();
    assert!(e.reason.contains("standard action is spent"), "{e}");
    assert!(b.validate(&Command::Move { to: (1, 4).into() }).is_ok(), "the move action is still there");
}

/// "If the trigger does not occur before the start of your next turn, the held action is
/// lost." The hero holds an attack for the goblin: the goblin closing before the hero's next
/// turn is struck (the control); after it, it is not.
#[test]
fn d20_a_held_action_not_triggered_by_the_next_turn_is_lost() {
    for after_next_turn in [false, true] {
        let mut b = d20(
            vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (6, 3), "goblin", None)],
            2,
        );
        until(&mut b, "hero", |_| true);
        b.execute(Command::Hold { target: Some("gob".into()) }).unwrap();
        b.execute(Command::EndTurn).unwrap();
        if after_next_turn {
            until(&mut b, "gob", |_| true);
            b.execute(Command::EndTurn).unwrap();
            until(&mut b, "hero", |_| true);
            b.execute(Command::EndTurn).unwrap();
        }
        until(&mut b, "gob", |_| true);
        b.execute(Command::Move { to: (4, 3).into() }).unwrap();
        let held =
            b.events().iter().any(|e| matches!(e, CombatEvent::Action { action, .. } if action == "held attack"));
        assert_eq!(held, !after_next_turn);
    }
}

/// The first plain (not critical) damage `hero` deals with `weapon` at Strength `str`.
fn plain_hit(weapon: &str, str_score: i32) -> (Vec<i32>, i32, Vec<(String, i32)>) {
    for seed in 0..200 {
        let mut b = d20(
            vec![
                unit("hero", "blue", (3, 3), "human_fighter", Some(weapon)),
                unit("gob", "red", (4, 3), "goblin", None),
            ],
            seed,
        );
        let hero = b.index_of("hero").unwrap();
        std::sync::Arc::make_mut(&mut b.scene().fighter::<Stats>(hero).def).abilities.str = str_score;
        until(&mut b, "hero", |_| true);
        b.execute(Command::Attack { target: "gob".into() }).unwrap();
        let hit = b.events().iter().find_map(|e| match e {
            CombatEvent::Attack { attacker, hit, critical, .. } if attacker == "hero" => Some(*hit && !*critical),
            _ => None,
        });
        if hit != Some(true) {
            continue;
        }
        let dmg = b.events().iter().find_map(|e| match e {
            CombatEvent::Damage { attacker, rolls, total, modifiers, .. } if attacker == "hero" => {
                Some((rolls.clone(), *total, modifiers.iter().map(|m| (m.source.clone(), m.value)).collect()))
            }
            _ => None,
        });
        return dmg.expect("a hit deals damage");
    }
    panic!("{weapon} never hit");
}

/// "When a weapon is wielded in two hands, add 1.5× your Strength modifier to damage (round
/// down). … A negative Strength modifier is also multiplied (round down)." Strength 8 (−1):
/// −1 × 1.5 = −1.5, rounded down −2, with a greatsword (2d6); the control, a longsword in one
/// hand, takes −1. (Damage is at least 1.)
#[test]
fn d20_a_negative_strength_is_multiplied_for_two_hands_and_rounded_down() {
    let (rolls, total, mods) = plain_hit("greatsword", 8);
    assert_eq!(rolls.len(), 2);
    assert!(has_mod(&mods, "Strength x1.5", -2), "{mods:?}");
    assert_eq!(total, (rolls.iter().sum::<i32>() - 2).max(1));
    let (rolls, total, mods) = plain_hit("longsword", 8);
    assert!(has_mod(&mods, "Strength", -1), "{mods:?}");
    assert_eq!(total, (rolls[0] - 1).max(1));
}

/// "During a round where your character charges, they gain a +2 circumstance bonus to damage
/// (+4 with a two-handed weapon)". Strength 16 (+3): a longsword charge deals 1d8 + 3 + 2, a
/// greatsword charge 2d6 + 4 (1.5 × 3, rounded down) + 4. The control: a plain attack on a
/// later turn adds no charge bonus.
#[test]
fn d20_a_charge_adds_2_damage_or_4_with_two_hands() {
    for (weapon, strength, bonus) in [("longsword", 3, 2), ("greatsword", 4, 4)] {
        let mut done = false;
        for seed in 0..200 {
            let mut b = d20(
                vec![
                    unit("hero", "blue", (1, 3), "human_fighter", Some(weapon)),
                    unit("gob", "red", (6, 3), "goblin", None),
                ],
                seed,
            );
            until(&mut b, "hero", |_| true);
            b.execute(Command::Charge { target: "gob".into() }).unwrap();
            // The source gives the charge no attack bonus.
            for e in b.events().iter() {
                if let CombatEvent::Attack { attacker, modifiers, .. } = e
                    && attacker == "hero"
                {
                    assert!(!modifiers.iter().any(|m| m.source == "charge"), "{modifiers:?}");
                }
            }
            let Some(CombatEvent::Damage { rolls, total, modifiers, .. }) =
                b.events().iter().find(|e| matches!(e, CombatEvent::Damage { attacker, .. } if attacker == "hero"))
            else {
                continue;
            };
            if modifiers.iter().any(|m| m.source.contains(" x2")) {
                continue; // a confirmed critical; take a plain hit
            }
            assert!(modifiers.iter().any(|m| m.source == "charge" && m.value == bonus), "{weapon}: {modifiers:?}");
            assert_eq!(*total, rolls.iter().sum::<i32>() + strength + bonus, "{weapon}");
            // The control: its next turn's attack carries no charge bonus.
            let seen = b.events().len();
            until(&mut b, "hero", |_| true);
            b.execute(Command::Attack { target: "gob".into() }).unwrap();
            for e in &b.events()[seen..] {
                if let CombatEvent::Damage { attacker, modifiers, .. } = e
                    && attacker == "hero"
                {
                    assert!(!modifiers.iter().any(|m| m.source.starts_with("charge")), "{modifiers:?}");
                }
            }
            done = true;
            break;
        }
        assert!(done, "{weapon}: the charge never hit");
    }
}

/// "Melee Touch Attack … the target does not apply any Shield, Parry, Armor, or natural armor
/// to their AC. Dexterity … still appl[ies]." The trip's touch attack: the goblin's AC 16
/// (10 + armor 2 + shield 1 + Dex 2 + Small 1) becomes 13; the ogre's 17 (10 + armor 4 +
/// natural 5 − Dex 1 − Large 1) becomes 8. The control: a plain attack meets the full AC.
#[test]
fn d20_a_melee_touch_attack_ignores_armor_shield_and_natural_armor() {
    for (foe, ac, touch) in [("goblin", 16, 13), ("ogre", 17, 8)] {
        let mut b =
            d20(vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("foe", "red", (4, 3), foe, None)], 3);
        until(&mut b, "hero", |b| b.read().fighters.awareness[b.index_of("foe").unwrap()].has_acted);
        let (h, f) = (b.index_of("hero").unwrap(), b.index_of("foe").unwrap());
        let plain = b.attack_profile(h, f, &AttackKind::Primary, &Default::default());
        assert_eq!(plain.target_number, ac, "{foe}");
        b.execute(Command::Trip { target: "foe".into() }).unwrap();
        let tn = b.events().iter().find_map(|e| match e {
            CombatEvent::Attack { attacker, kind, target_number, .. } if attacker == "hero" => {
                assert_eq!(kind, "trip (touch attack) on");
                Some(*target_number)
            }
            _ => None,
        });
        assert_eq!(tn, Some(touch), "{foe}");
    }
}
