//! Attack and damage clauses from the sources' own numbers: d20-classic and four-actions
//! criticals, 1.5× Strength with two hands, nonlethal damage, reckless and defensive fighting,
//! grappled = flat-footed, a ranged attack in melee provoking. Each expected value is worked
//! out here from the catalogue's numbers, each negative case has its positive control.

use super::*;
use fivefoot::combat::command::Stance;
use fivefoot::combat::fighter::Bonuses;
use fivefoot::combat::fighter::Grapple;
use fivefoot::rules::Conditions;
use fivefoot::rules::Health;

/// The attacks, confirmations and damage `who` dealt, in order, over many turns of `b`.
pub(super) fn strikes(b: &BattleWorld, who: &str) -> Vec<CombatEvent> {
    b.events()
        .iter()
        .filter(|e| match e {
            CombatEvent::Attack { attacker, .. }
            | CombatEvent::Confirm { attacker, .. }
            | CombatEvent::Damage { attacker, .. } => attacker == who,
            _ => false,
        })
        .cloned()
        .collect()
}

/// `hero` attacks `gob` on each of its turns for `turns` turns.
pub(super) fn swing(b: &mut BattleWorld, turns: usize) {
    for _ in 0..turns {
        until(b, "hero", |_| true);
        let _ = b.execute(Command::Attack { target: "gob".into() });
        if b.actor().is_none() {
            return; // the battle is over
        }
        b.execute(Command::EndTurn).unwrap();
    }
}

fn sum(rolls: &[i32]) -> i32 {
    rolls.iter().sum()
}

/// Human fighter: Str 16 (+3), base attack +1, longsword 1d8, threat 19-20, ×2.
#[test]
fn a_d20_critical_threat_on_19_is_confirmed_and_doubles_dice_and_strength() {
    let (mut confirmed, mut unconfirmed, mut plain_18) = (0, 0, 0);
    for seed in 0..40 {
        let mut b = battle(
            vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (4, 3), "goblin", None)],
            RulesVariant::D20Classic,
            seed,
        );
        swing(&mut b, 12);
        let s = strikes(&b, "hero");
        for (i, e) in s.iter().enumerate() {
            let CombatEvent::Attack { rolls, total, target_number, hit, critical, .. } = e else { continue };
            let natural = rolls[0];
            // "falls within your weapon's critical threat range, and the attack roll meets or
            // exceeds the target's AC"
            assert_eq!(*critical, *hit && natural >= 19, "seed {seed}: {e:?}");
            if !hit {
                continue;
            }
            let bonus = total - natural;
            if !critical {
                let CombatEvent::Damage { rolls, total, .. } = &s[i + 1] else { panic!("{:?}", s[i + 1]) };
                assert_eq!(rolls.len(), 1, "one d8 on a plain hit");
                assert_eq!(*total, (rolls[0] + 3).max(1), "1d8 + 3");
                plain_18 += usize::from(natural == 18);
                continue;
            }
            // "roll the attack again using the same modifiers"
            let CombatEvent::Confirm { roll, total: ct, confirmed: ok, .. } = &s[i + 1] else {
                panic!("{:?}", s[i + 1])
            };
            assert_eq!(*ct, roll + bonus, "same modifiers as the attack");
            assert_eq!(*ok, *roll == 20 || (*roll != 1 && *ct >= *target_number));
            let CombatEvent::Damage { rolls, total, .. } = &s[i + 2] else { panic!("{:?}", s[i + 2]) };
            if *ok {
                // ×2: the d8 twice and the +3 Strength twice: 2d8 + 6.
                assert_eq!(rolls.len(), 2);
                assert_eq!(*total, sum(rolls) + 6);
                confirmed += 1;
            } else {
                assert_eq!(rolls.len(), 1, "a failed confirmation is a normal hit");
                assert_eq!(*total, rolls[0] + 3);
                unconfirmed += 1;
            }
        }
        if confirmed > 0 && unconfirmed > 0 && plain_18 > 0 {
            return;
        }
    }
    panic!("not every case came up: {confirmed} confirmed, {unconfirmed} unconfirmed, {plain_18} plain 18s");
}

/// four-actions: a roll in the critical range "adds a multiple of the Weapon Damage Dice"
/// at once (no confirmation), and the modifiers are added once: 2d8 + 3.
#[test]
fn a_four_actions_critical_multiplies_the_dice_on_the_threat_and_adds_strength_once() {
    let (mut crits, mut plain) = (0, 0);
    for seed in 0..40 {
        let mut b = battle(
            vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (4, 3), "goblin", None)],
            RulesVariant::FourActions,
            seed,
        );
        swing(&mut b, 12);
        let s = strikes(&b, "hero");
        assert!(!s.iter().any(|e| matches!(e, CombatEvent::Confirm { .. })), "no confirmation roll");
        for (i, e) in s.iter().enumerate() {
            let CombatEvent::Attack { rolls, hit: true, critical, .. } = e else { continue };
            assert_eq!(*critical, rolls[0] >= 19);
            let CombatEvent::Damage { rolls: d, total, .. } = &s[i + 1] else { panic!("{:?}", s[i + 1]) };
            if *critical {
                assert_eq!(d.len(), 2, "1d8 becomes 2d8");
                assert_eq!(*total, sum(d) + 3);
                crits += 1;
            } else {
                assert_eq!(d.len(), 1);
                assert_eq!(*total, (d[0] + 3).max(1));
                plain += 1;
            }
        }
        if crits > 0 && plain > 0 {
            return;
        }
    }
    panic!("{crits} criticals, {plain} plain hits");
}

/// The first damage event `hero` dealt with a hit that was not a critical.
fn plain_damage(v: RulesVariant, creature: &str, weapon: &str) -> (Vec<i32>, i32) {
    for seed in 0..60 {
        let mut b = battle(
            vec![unit("hero", "blue", (3, 3), creature, Some(weapon)), unit("gob", "red", (4, 3), "goblin", None)],
            v,
            seed,
        );
        swing(&mut b, 6);
        let s = strikes(&b, "hero");
        for (i, e) in s.iter().enumerate() {
            if let CombatEvent::Attack { hit: true, critical: false, .. } = e
                && let CombatEvent::Damage { rolls, total, .. } = &s[i + 1]
            {
                return (rolls.clone(), *total);
            }
        }
    }
    panic!("{creature} with {weapon} never hit");
}

/// "When a weapon is wielded in two hands, add 1.5× your Strength modifier to damage
/// (round down)": Str 16 (+3) gives +4 with a greatsword (2d6), +3 with a longsword.
#[test]
fn two_hands_add_one_and_a_half_strength_rounded_down_in_d20_classic() {
    let (rolls, total) = plain_damage(RulesVariant::D20Classic, "human_fighter", "greatsword");
    assert_eq!(rolls.len(), 2);
    assert_eq!(total, sum(&rolls) + 4, "3 × 1.5 = 4.5, rounded down");
    // Positive control: the same fighter with one hand on a longsword adds +3.
    let (rolls, total) = plain_damage(RulesVariant::D20Classic, "human_fighter", "longsword");
    assert_eq!(total, rolls[0] + 3);
    // four-actions has no such clause: the greatsword adds Str +3.
    let (rolls, total) = plain_damage(RulesVariant::FourActions, "human_fighter", "greatsword");
    assert_eq!(total, sum(&rolls) + 3);
}

/// "If your character's NLD is equal to or greater than your character's current HP total,
/// they are rendered unconscious"; hit points are untouched. The unarmed strike deals
/// nonlethal damage (weapons catalogue); the control, a longsword, takes hit points.
#[test]
fn nonlethal_damage_knocks_out_without_touching_hit_points() {
    for (weapon, nonlethal) in [("unarmed", true), ("longsword", false)] {
        let mut b = battle(
            vec![
                unit("hero", "blue", (3, 3), "human_fighter", Some(weapon)),
                unit("gob", "red", (4, 3), "goblin", None),
            ],
            RulesVariant::D20Classic,
            2,
        );
        let (h, g) = (b.index_of("hero").unwrap(), b.index_of("gob").unwrap());
        b.scene().fighter::<Health>(g).hp = 4; // a hit of 1d3 + 3 is at least 4
        // Unarmed, the fighter threatens nothing; locked in a grapple the two strike each other.
        for (x, y) in [(h, g), (g, h)] {
            b.scene().fighter::<Conditions>(x).add(Condition::Grappled);
            let with = b.read().fighters.entity(y);
            b.scene().fighter::<Grapple>(x).with = Some(with);
        }
        for _ in 0..30 {
            if b.events().iter().any(|e| matches!(e, CombatEvent::Damage { attacker, .. } if attacker == "hero")) {
                break;
            }
            swing(&mut b, 1);
        }
        let dmg = b.events().iter().find_map(|e| match e {
            CombatEvent::Damage { attacker, nonlethal, total, .. } if attacker == "hero" => Some((*nonlethal, *total)),
            _ => None,
        });
        let (flag, total) = dmg.unwrap_or_else(|| panic!("{weapon}: never hit"));
        assert_eq!(flag, nonlethal, "{weapon}");
        if nonlethal {
            assert_eq!(b.read().fighters.health[g].hp, 4, "hit points untouched");
            assert_eq!(b.read().fighters.health[g].nonlethal, total);
            assert!(b.read().fighters.conditions[g].has(Condition::Unconscious), "NLD {total} >= HP 4");
            assert!(!b.read().fighters.conditions[g].has(Condition::Dying));
        } else {
            assert_eq!(b.read().fighters.health[g].hp, 4 - total, "the control: a longsword takes hit points");
            assert_eq!(b.read().fighters.health[g].nonlethal, 0);
        }
    }
}

/// "Reckless Fighting … -4 dodge penalty to AC and gain a +2 circumstance bonus to damage";
/// "Defensive Fighting … -4 … to attack and … +2 circumstance bonus to AC".
#[test]
fn reckless_fighting_adds_2_damage_and_defensive_fighting_2_ac() {
    for seed in 0..60 {
        let mut b = battle(
            vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (4, 3), "goblin", None)],
            RulesVariant::D20Classic,
            seed,
        );
        until(&mut b, "hero", |_| true);
        b.execute(Command::Stance { stance: Stance::Reckless }).unwrap();
        let _ = b.execute(Command::Attack { target: "gob".into() });
        let s = strikes(&b, "hero");
        let Some(CombatEvent::Damage { rolls, total, modifiers, .. }) = s.get(1) else { continue };
        if rolls.len() != 1 {
            continue; // a confirmed critical doubles the +2 as well; take a plain hit
        }
        assert!(modifiers.iter().any(|m| m.source == "reckless" && m.value == 2), "{modifiers:?}");
        assert_eq!(*total, rolls[0] + 3 + 2, "1d8 + Str 3 + reckless 2");
        // Defensive fighting: the goblin's attack on the hero meets +2 AC, shown as -2.
        let (h, g) = (b.index_of("hero").unwrap(), b.index_of("gob").unwrap());
        let before = b.attack_profile(g, h, &AttackKind::Primary, &Default::default());
        assert!(!before.modifiers.iter().any(|m| m.source == "target fighting defensively"), "control");
        b.scene().fighter::<Bonuses>(h).defense.clear();
        b.execute(Command::EndTurn).unwrap();
        until(&mut b, "hero", |_| true);
        b.execute(Command::Stance { stance: Stance::Defensive }).unwrap();
        let after = b.attack_profile(g, h, &AttackKind::Primary, &Default::default());
        assert!(
            after.modifiers.iter().any(|m| m.source == "target fighting defensively" && m.value == -2),
            "{:?}",
            after.modifiers
        );
        return;
    }
    panic!("the reckless hero never hit");
}

/// "The defender and aggressor … are flat-footed against every opponent except to each
/// other": the goblin (Dex 15, +2) loses its +2 against the archer, not against its grappler.
#[test]
fn the_grappled_are_flat_footed_against_all_but_each_other() {
    let mut b = battle(
        vec![
            unit("hero", "blue", (3, 3), "human_fighter", None),
            unit("archer", "blue", (3, 5), "human_archer", None),
            unit("gob", "red", (4, 3), "goblin", None),
        ],
        RulesVariant::D20Classic,
        1,
    );
    let (h, a, g) = (b.index_of("hero").unwrap(), b.index_of("archer").unwrap(), b.index_of("gob").unwrap());
    b.scene().each::<Conditions>(|c| {
        c.remove(Condition::FlatFooted);
        c.remove(Condition::Surprised);
    });
    let flat = |b: &BattleWorld, by: usize| {
        b.attack_profile(by, g, &AttackKind::Primary, &Default::default())
            .modifiers
            .iter()
            .find(|m| m.source == "target flat-footed")
            .map(|m| m.value)
    };
    assert_eq!(flat(&b, a), None, "control: a free goblin keeps its Dexterity");
    b.scene().fighter::<Conditions>(g).add(Condition::Grappled);
    let with = b.read().fighters.entity(h);
    b.scene().fighter::<Grapple>(g).with = Some(with);
    b.scene().fighter::<Conditions>(h).add(Condition::Grappled);
    let with = b.read().fighters.entity(g);
    b.scene().fighter::<Grapple>(h).with = Some(with);
    assert_eq!(flat(&b, a), Some(2), "Dex 15: +2 lost against the archer");
    assert_eq!(flat(&b, h), None, "not against its grappler");
}

/// "Ranged Attack … If in a threatened square, this will provoke an attack of opportunity."
#[test]
fn a_ranged_attack_from_a_threatened_square_provokes() {
    for (gob_at, provokes) in [((4, 3), true), ((7, 3), false)] {
        let mut b = battle(
            vec![unit("hero", "blue", (3, 3), "human_archer", None), unit("gob", "red", gob_at, "goblin", None)],
            RulesVariant::D20Classic,
            4,
        );
        until(&mut b, "hero", |_| true);
        let before = b.events().len();
        b.execute(Command::Attack { target: "gob".into() }).unwrap();
        let aoo = b.events()[before..].iter().any(
            |e| matches!(e, CombatEvent::AttackOfOpportunity { by, target, .. } if by == "gob" && target == "hero"),
        );
        assert_eq!(aoo, provokes, "goblin at {gob_at:?}");
    }
}

/// ap-phases: "Total Defense … Until the start of your next round of actions, you can't
/// take actions with the attack subtype"; the control fights on without it.
#[test]
fn ap_total_defense_forbids_attack_actions_until_the_next_round() {
    for defend in [false, true] {
        let mut b = battle(
            vec![
                unit("hero", "blue", (3, 3), "human_fighter", Some("dagger")),
                unit("gob", "red", (4, 3), "goblin", None),
            ],
            RulesVariant::ApPhases,
            3,
        );
        if defend {
            until(&mut b, "hero", |b| b.clock().phase == 2);
            b.execute(Command::Defend).unwrap();
        }
        until(&mut b, "hero", |b| b.clock().phase == 4);
        let attack = b.validate(&Command::Attack { target: "gob".into() });
        if defend {
            assert!(attack.unwrap_err().reason.contains("total defense"));
            assert!(b.validate(&Command::Trip { target: "gob".into() }).is_err());
            // The next round of actions frees it.
            until(&mut b, "hero", |b| b.clock().round == 2 && b.clock().phase == 4);
            assert!(b.validate(&Command::Attack { target: "gob".into() }).is_ok(), "next round");
        } else {
            assert!(attack.is_ok(), "the control: {attack:?}");
        }
    }
}

/// four-actions "A 20 always hits, a 1 always misses": at −30 every other roll misses, at
/// +30 every other roll hits (the control), while a natural 20 and a natural 1 do not follow.
#[test]
fn a_natural_20_always_hits_and_a_natural_1_always_misses() {
    for v in [RulesVariant::FourActions] {
        for (bonus, natural) in [(-30, 20), (30, 1)] {
            let mut seen = false;
            for seed in 0..300 {
                let mut b = battle(
                    vec![
                        unit("hero", "blue", (3, 3), "goblin", None),
                        unit("gob", "red", (4, 3), "human_fighter", None),
                    ],
                    v,
                    seed,
                );
                let h = b.index_of("hero").unwrap();
                b.scene().fighter::<Bonuses>(h).offense.push(("test".into(), bonus));
                until(&mut b, "hero", |b| !major(b).declaring && (v != RulesVariant::OsrSegments || major(b).major));
                b.scene().fighter::<Bonuses>(h).offense = vec![("test".into(), bonus)];
                let _ = b.execute(Command::Attack { target: "gob".into() });
                for e in b.events().iter() {
                    if let CombatEvent::Attack { attacker, rolls, hit, .. } = e
                        && attacker == "hero"
                    {
                        if rolls[0] == natural {
                            assert_eq!(*hit, natural == 20, "{v}: natural {natural} at {bonus:+}");
                            seen = true;
                        } else {
                            // The control: any other roll follows the (hopeless or sure) bonus.
                            assert_eq!(*hit, bonus > 0, "{v}: roll {} at {bonus:+}", rolls[0]);
                        }
                    }
                }
                if seen {
                    break;
                }
            }
            assert!(seen, "{v}: no natural {natural} came up");
        }
    }
}
