//! osr-segments (source 003) clauses from its own words: a delay announced in HIGH or in
//! LOW, natural 20s and 1s against descending AC, one free attack per segment and per
//! opponent per round, the space a long weapon needs. Each expected number is worked out
//! here from the catalogue; each negative case has its positive control.

use super::*;
use fivefoot::combat::fighter::Bonuses;
use fivefoot::combat::fighter::Economy;
use fivefoot::combat::fighter::Reactions;
use fivefoot::combat::variants::osr_segments;
use osr_segments::{OsrStep, osr_is_high};

/// Every combatant declares "fight" except those `special` names, who declare its intent.
fn declare(b: &mut BattleWorld, special: &[(&str, Intent)]) {
    while major(b).declaring {
        let me = b.read().fighters.combatant[b.actor().unwrap()].id.clone();
        let intent = special.iter().find(|(id, _)| *id == me).map_or(Intent::Fight, |(_, i)| i.clone());
        b.execute(Command::Declare { intent }).unwrap();
    }
}

/// The first seed from which `blue` rolls HIGH and `red` LOW (`blue_high`), or the
/// reverse, with everyone declaring as `special` says.
fn battle_with_groups(units: &[UnitDef], blue_high: bool, special: &[(&str, Intent)]) -> BattleWorld {
    for seed in 0..200 {
        let mut b = battle(units.to_vec(), RulesVariant::OsrSegments, seed);
        declare(&mut b, special);
        let high = |side: &str| osr_segments::round(&b.read()).high.iter().any(|(s, h)| s == side && *h);
        if high("blue") == blue_high && high("red") != blue_high {
            return b;
        }
    }
    panic!("no seed gave blue {}", if blue_high { "HIGH" } else { "LOW" });
}

fn free_attacks_by(b: &BattleWorld, by_id: &str) -> Vec<String> {
    b.events()
        .iter()
        .filter_map(|e| match e {
            CombatEvent::AttackOfOpportunity { by, target, .. } if by == by_id => Some(target.clone()),
            _ => None,
        })
        .collect()
}

/// "If you are in HIGH initiative, you lose all actions until LOW initiative … You also gain
/// the delayed condition for the rest of the round." The control: without the delay the
/// HIGH hero takes its major action in the HIGH step.
#[test]
fn osr_a_delay_announced_in_high_waits_for_low_with_the_delayed_condition() {
    let units = [unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (4, 3), "goblin", None)];
    for delay in [false, true] {
        let mut b = battle_with_groups(&units, true, &[]);
        until(&mut b, "hero", group_turn);
        assert_eq!(osr_segments::round(&b.read()).step, OsrStep::High, "blue rolled HIGH");
        let hero = b.index_of("hero").unwrap();
        if !delay {
            b.execute(Command::Attack { target: "gob".into() }).unwrap();
            assert!(b.events().iter().any(|e| matches!(e, CombatEvent::Attack { attacker, .. } if attacker == "hero")));
            continue;
        }
        b.execute(Command::Delay).unwrap();
        assert!(b.read().fighters.conditions[hero].has(Condition::Delayed));
        assert!(!osr_is_high(&b.read(), hero), "the delayed always have LOW initiative");
        // Nothing more in HIGH: the next time the hero acts, the LOW step is on, its major
        // action intact.
        until(&mut b, "hero", |_| true);
        assert_eq!(osr_segments::round(&b.read()).step, OsrStep::Low);
        assert_eq!(b.clock().round, 1);
        assert!(group_turn(&b), "the major action is kept for LOW");
        b.execute(Command::Attack { target: "gob".into() }).unwrap();
        // "for the rest of the round": the next round's declarations find it gone.
        until(&mut b, "hero", |b| b.clock().round == 2);
        assert!(!b.read().fighters.conditions[hero].has(Condition::Delayed));
    }
}

/// "If you announce a delay during LOW initiative, you lose your major action that
/// round." The control: the LOW hero that does not delay attacks.
#[test]
fn osr_a_delay_announced_in_low_loses_the_major_action() {
    let units = [unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (4, 3), "goblin", None)];
    for delay in [false, true] {
        let mut b = battle_with_groups(&units, false, &[]);
        until(&mut b, "hero", group_turn);
        assert_eq!(osr_segments::round(&b.read()).step, OsrStep::Low, "blue rolled LOW");
        if !delay {
            assert!(b.validate(&Command::Attack { target: "gob".into() }).is_ok());
            continue;
        }
        b.execute(Command::Delay).unwrap();
        assert!(b.events().iter().any(
            |e| matches!(e, CombatEvent::Action { unit, detail, .. } if unit == "hero" && detail.contains("loses its major action"))
        ));
        // The hero's next opportunity is the next round's declaration.
        until(&mut b, "hero", |_| true);
        assert_eq!(b.clock().round, 2);
        assert!(major(&b).declaring);
        assert!(!b.events().iter().any(|e| matches!(e, CombatEvent::Attack { attacker, .. } if attacker == "hero")));
    }
}

/// "A natural 1 rolled on the d20 always misses and a natural 20 rolled always hits."
/// The goblin (base attack +1: AAC0 19) attacks the fighter (AC 18 ascending = 2
/// descending): it needs 19 − 2 = 17. Against 30 more AC only a natural 20 hits; against
/// 30 less, every roll but a natural 1 hits (the control: every other roll follows the
/// modifier).
#[test]
fn osr_a_natural_20_always_hits_and_a_natural_1_always_misses() {
    for (ac_change, natural) in [(30, 20), (-30, 1)] {
        let mut seen = false;
        for seed in 0..400 {
            let mut b = battle(
                vec![unit("gob", "red", (3, 3), "goblin", None), unit("hero", "blue", (4, 3), "human_fighter", None)],
                RulesVariant::OsrSegments,
                seed,
            );
            until(&mut b, "gob", group_turn);
            let hero = b.index_of("hero").unwrap();
            b.scene().fighter::<Bonuses>(hero).defense = vec![("test".into(), ac_change)];
            b.execute(Command::Attack { target: "hero".into() }).unwrap();
            let Some((rolls, total, target_number, hit)) = b.events().iter().find_map(|e| match e {
                CombatEvent::Attack { attacker, rolls, total, target_number, hit, .. } if attacker == "gob" => {
                    Some((rolls.clone(), *total, *target_number, *hit))
                }
                _ => None,
            }) else {
                panic!("seed {seed}: no attack")
            };
            assert_eq!(target_number, 17, "AAC0 19 − AC 2");
            assert_eq!(total, rolls[0] - ac_change, "Strength +0, the AC change as a modifier");
            if rolls[0] == natural {
                assert_eq!(hit, natural == 20, "natural {natural} against {ac_change:+} AC");
                seen = true;
                break;
            }
            assert_eq!(hit, ac_change < 0, "roll {} against {ac_change:+} AC", rolls[0]);
        }
        assert!(seen, "no natural {natural} came up");
    }
}

/// "Thus, a character that needs a "20" to hit an AC -1, but has a +2 modifier to their
/// attack—they will hit on a roll of 18, 19, or 20": modifiers add to the d20 against the
/// number needed. The fighter (AAC0 19, Str 16: +3) attacking the goblin (AC 16 ascending =
/// 4 descending) needs 19 − 4 = 15 and adds 3: it hits on 12 or more. Rolls of 12 to 14 hit
/// only through the modifier; rolls under 12 miss (the control).
#[test]
fn osr_modifiers_add_to_the_d20_against_aac0_minus_ac() {
    let (mut helped, mut missed) = (0, 0);
    for seed in 0..200 {
        let mut b = battle(
            vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (4, 3), "goblin", None)],
            RulesVariant::OsrSegments,
            seed,
        );
        until(&mut b, "hero", group_turn);
        b.execute(Command::Attack { target: "gob".into() }).unwrap();
        let (rolls, modifiers, total, target_number, hit) = b
            .events()
            .iter()
            .find_map(|e| match e {
                CombatEvent::Attack { attacker, rolls, modifiers, total, target_number, hit, .. }
                    if attacker == "hero" =>
                {
                    Some((rolls.clone(), modifiers.clone(), *total, *target_number, *hit))
                }
                _ => None,
            })
            .expect("the hero's attack");
        let mods: Vec<(String, i32)> = modifiers.iter().map(|m| (m.source.clone(), m.value)).collect();
        assert_eq!(mods, [("Strength".to_string(), 3)]);
        assert_eq!((total, target_number), (rolls[0] + 3, 15));
        let n = rolls[0];
        assert_eq!(hit, n == 20 || (n != 1 && n >= 12), "roll {n}");
        if (12..15).contains(&n) {
            helped += 1;
        } else if n < 12 {
            missed += 1;
        }
        if helped > 0 && missed > 0 {
            return;
        }
    }
    panic!("{helped} rolls of 12-14, {missed} under 12");
}

/// Found while checking the report that an `offense` of +30 did not turn a roll of 15 into a
/// hit: osr-segments' attack profile (src/combat/attack.rs) reads the target's `defense` but
/// not the attacker's `offense`, where the other variants read both. No osr-segments action
/// writes `offense` today (stances and focus are refused), so no battle shows it; the source
/// counts every modifier the GM relays. The goblin needs 17 (see the natural 20 test): with
/// +30, a 15 should hit.
#[test]
fn osr_an_attack_bonus_in_offense_counts() {
    let mut b = battle(
        vec![unit("gob", "red", (3, 3), "goblin", None), unit("hero", "blue", (4, 3), "human_fighter", None)],
        RulesVariant::OsrSegments,
        1,
    );
    until(&mut b, "gob", group_turn);
    let (g, h) = (b.index_of("gob").unwrap(), b.index_of("hero").unwrap());
    b.scene().fighter::<Bonuses>(g).offense = vec![("test".into(), 30)];
    let p = b.attack_profile(g, h, &AttackKind::Primary, &Default::default());
    assert_eq!(p.target_number, 17);
    assert_eq!(p.bonus(), 30, "{:?}", p.modifiers);
}

/// "Only one free attack may be taken per segment by any creature (thus, if two opponents
/// flee at the same time, the attacker must choose which to attack)." Both fighters leave
/// the goblin in the HIGH step: one free attack. The control: the second fighter declared a
/// delay and leaves in the LOW step, a later segment: a free attack on each.
#[test]
fn osr_one_free_attack_per_segment() {
    let units = [
        unit("hero", "blue", (3, 3), "human_fighter", None),
        unit("pal", "blue", (5, 3), "human_fighter", None),
        unit("gob", "red", (4, 3), "goblin", None),
    ];
    for pal_delays in [false, true] {
        let special = if pal_delays { vec![("pal", Intent::Delay)] } else { vec![] };
        let mut b = battle_with_groups(&units, true, &special);
        until(&mut b, "hero", group_turn);
        assert_eq!(osr_segments::round(&b.read()).step, OsrStep::High);
        b.execute(Command::Move { to: (1, 3).into() }).unwrap();
        until(&mut b, "pal", group_turn);
        assert_eq!(osr_segments::round(&b.read()).step, if pal_delays { OsrStep::Low } else { OsrStep::High });
        b.execute(Command::Move { to: (7, 3).into() }).unwrap();
        let free = free_attacks_by(&b, "gob");
        if pal_delays {
            assert_eq!(free, ["hero", "pal"], "two segments, two free attacks");
        } else {
            assert_eq!(free, ["hero"], "one segment, one free attack");
        }
    }
}

/// "Creatures drawing a free attack can only be subject to one free attack … per opponent
/// per round." A creature has one major action (one move) a round, so to leave the
/// goblin's melee twice in a round the test gives the hero a second major action in a new
/// segment (as a new step opens: the goblin's free attack of the segment is back). The
/// hero, attacked once this round, is not attacked again; the control: the fighter the
/// goblin has not attacked this round is.
#[test]
fn osr_one_free_attack_per_opponent_per_round() {
    let units = [
        unit("hero", "blue", (3, 3), "human_fighter", None),
        unit("pal", "blue", (4, 4), "human_fighter", None),
        unit("gob", "red", (4, 3), "goblin", None),
    ];
    let mut b = battle_with_groups(&units, true, &[]);
    until(&mut b, "hero", group_turn);
    let (hero, gob) = (b.index_of("hero").unwrap(), b.index_of("gob").unwrap());
    b.execute(Command::Move { to: (2, 3).into() }).unwrap();
    assert_eq!(free_attacks_by(&b, "gob"), ["hero"]);
    // Back in, and out again, in later segments of the same round.
    for to in [(3, 2), (1, 2)] {
        b.scene().fighter::<Reactions>(gob).used = 0;
        b.scene().fighter::<Economy>(hero).budget.own_mut::<osr_segments::MajorAction>().major = true;
        b.scene().fighter::<fivefoot::combat::kept::Declaration>(hero).acted = false;
        assert_eq!(b.actor(), Some(hero));
        b.execute(Command::Move { to: to.into() }).unwrap();
    }
    assert_eq!(free_attacks_by(&b, "gob"), ["hero"], "once per opponent per round");
    until(&mut b, "pal", group_turn);
    assert_eq!(b.clock().round, 1);
    b.scene().fighter::<Reactions>(gob).used = 0;
    b.execute(Command::Move { to: (6, 5).into() }).unwrap();
    assert_eq!(free_attacks_by(&b, "gob"), ["hero", "pal"], "the control: another opponent");
}

/// "Any weapon requiring more than 4-ft. of space to use requires at least one open adjacent
/// square." The greatsword needs 6 ft: walled in with the goblin on its only open side, the
/// fighter cannot swing it. Controls: one more open square, or a longsword (4 ft).
#[test]
fn osr_a_weapon_needing_more_than_4_ft_needs_an_open_adjacent_square() {
    let closed = ["###..", "#....", "###.."];
    let open = ["###..", ".....", "###.."];
    for (rows, weapon, allowed) in
        [(&closed, "greatsword", false), (&open, "greatsword", true), (&closed, "longsword", true)]
    {
        let mut b = battle_on(
            &rows[..],
            vec![
                unit("hero", "blue", (1, 1), "human_fighter", Some(weapon)),
                unit("gob", "red", (2, 1), "goblin", None),
            ],
            RulesVariant::OsrSegments,
            1,
        );
        until(&mut b, "hero", group_turn);
        let r = b.validate(&Command::Attack { target: "gob".into() });
        if allowed {
            assert!(r.is_ok(), "{weapon} in {rows:?}: {r:?}");
        } else {
            let e = r.unwrap_err();
            assert!(e.reason.contains("space"), "{e}");
        }
    }
}
