//! ap-phases' grapple (source 000), from its own words: "Initiate a Grapple (Attack; 2
//! AP)", "Continue a Grapple (2 AP) … a grapple combat maneuver check with a +5 bonus. If
//! you're successful, you can either move, deal damage to, or pin", "Escape a Grapple … The
//! second time in a round you take this action, you take a –5 penalty on the check. The
//! third time, you take a –10 penalty", and "end the grapple as a free action".

use super::*;
use fivefoot::combat::command::GrappleFollowUp;
use fivefoot::combat::variants::ap_phases::ActionPoints;

fn ap(seed: u64) -> BattleWorld {
    battle(
        vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (4, 3), "goblin", None)],
        RulesVariant::ApPhases,
        seed,
    )
}

fn points(b: &BattleWorld, id: &str) -> ActionPoints {
    let i = b.index_of(id).unwrap();
    b.read().economy::<ActionPoints>(i).cloned().unwrap()
}

/// The combat maneuver rolls named `kind`, each with its terms.
fn maneuvers(b: &BattleWorld, kind: &str) -> Vec<(Vec<(String, i32)>, bool)> {
    b.events()
        .iter()
        .filter_map(|e| match e {
            CombatEvent::Attack { kind: k, modifiers, hit, .. } if k.starts_with(kind) => {
                Some((modifiers.iter().map(|m| (m.source.clone(), m.value)).collect(), *hit))
            }
            _ => None,
        })
        .collect()
}

/// `holder` has `held` in a grapple it initiated.
fn in_a_grapple(b: &mut BattleWorld, holder: &str, held: &str) {
    let (h, t) = (b.index_of(holder).unwrap(), b.index_of(held).unwrap());
    let mut lent = b.lend();
    for (i, other) in [(h, t), (t, h)] {
        lent.fighters.conditions[i].add(Condition::Grappled);
        lent.fighters.grapple[i].with = Some(other);
    }
    lent.fighters.grapple[h].holds = true;
}

#[test]
fn ap_initiating_a_grapple_takes_2_ap_and_its_check_comes_with_the_second() {
    let mut seized = 0;
    for seed in 1..=12 {
        let mut b = ap(seed);
        let grapple = Command::Grapple { target: "gob".into() };
        until(&mut b, "hero", |b| b.validate(&grapple).is_ok());
        let before = points(&b, "hero").ap;
        b.execute(grapple).unwrap();
        assert_eq!(points(&b, "hero").ap, before - 1, "the first AP goes in");
        assert!(maneuvers(&b, "grapple").is_empty(), "no check until the second AP");
        // Its next opportunity: ending the turn puts the second AP in, and the check is made.
        until(&mut b, "hero", |_| true);
        b.execute(Command::EndTurn).unwrap();
        let checks = maneuvers(&b, "grapple");
        assert_eq!(checks.len(), 1, "seed {seed}");
        let (terms, hit) = &checks[0];
        assert_eq!(terms[0].0, "combat maneuver bonus");
        let (hero, gob) = (b.index_of("hero").unwrap(), b.index_of("gob").unwrap());
        let read = b.read();
        assert_eq!(read.fighters.conditions[gob].has(Condition::Grappled), *hit, "seed {seed}");
        assert_eq!(read.fighters.grapple[hero].with == Some(gob), *hit, "seed {seed}");
        seized += usize::from(*hit);
    }
    assert!(seized > 0 && seized < 12, "both outcomes seen: {seized} of 12");
}

#[test]
fn ap_continuing_a_grapple_is_at_plus_5_and_a_success_deals_damage() {
    let mut hurt = 0;
    for seed in 1..=8 {
        let mut b = ap(seed);
        until(&mut b, "gob", |_| true);
        in_a_grapple(&mut b, "hero", "gob");
        // Only the one who holds it continues it; moving the foe is not built.
        assert!(b.validate(&Command::Wrestle { follow_up: GrappleFollowUp::Attack }).is_err());
        let damage = Command::Wrestle { follow_up: GrappleFollowUp::Attack };
        until(&mut b, "hero", |b| b.validate(&damage).is_ok());
        assert!(b.validate(&Command::Wrestle { follow_up: GrappleFollowUp::Push }).is_err());
        b.execute(damage).unwrap();
        until(&mut b, "hero", |_| true);
        b.execute(Command::EndTurn).unwrap();
        let checks = maneuvers(&b, "continue grapple");
        assert_eq!(checks.len(), 1, "seed {seed}");
        let (terms, hit) = &checks[0];
        assert!(terms.contains(&("continue a grapple".into(), 5)), "{terms:?}");
        let damaged = b.events().iter().any(
            |e| matches!(e, CombatEvent::Damage { attacker, target, .. } if attacker == "hero" && target == "gob"),
        );
        assert_eq!(damaged, *hit, "seed {seed}: damage only on a success");
        hurt += usize::from(*hit);
    }
    assert!(hurt > 0, "some continued grapple succeeded");
}

#[test]
fn ap_escaping_is_at_minus_5_the_second_time_in_a_round_and_minus_10_the_third() {
    let mut seen = false;
    for seed in 1..=20 {
        let mut b = battle(
            vec![unit("hero", "blue", (3, 3), "goblin", None), unit("ogre", "red", (4, 3), "ogre", None)],
            RulesVariant::ApPhases,
            seed,
        );
        until(&mut b, "ogre", |_| true);
        in_a_grapple(&mut b, "ogre", "hero");
        let round = b.clock().round + 1;
        until(&mut b, "hero", |b| b.clock().round == round && b.validate(&Command::Escape).is_ok());
        for _ in 0..3 {
            if b.clock().round != round
                || !b.read().fighters.conditions[b.index_of("hero").unwrap()].has(Condition::Grappled)
            {
                break;
            }
            b.execute(Command::Escape).unwrap();
            until(&mut b, "hero", |b| b.clock().round > round || b.validate(&Command::Escape).is_ok());
        }
        let tries = maneuvers(&b, "escape grapple");
        if tries.len() < 3 {
            continue;
        }
        let penalty =
            |n: usize| tries[n].0.iter().filter(|(s, _)| s.contains("escape this round")).map(|t| t.1).sum::<i32>();
        assert_eq!((penalty(0), penalty(1), penalty(2)), (0, -5, -10), "seed {seed}: {tries:?}");
        seen = true;
        break;
    }
    assert!(seen, "three escapes in one round");
}

#[test]
fn ap_the_initiator_ends_the_grapple_as_a_free_action() {
    let mut b = ap(3);
    until(&mut b, "gob", |_| true);
    in_a_grapple(&mut b, "hero", "gob");
    let attack = Command::Attack { target: "gob".into() };
    until(&mut b, "hero", |b| b.validate(&attack).is_ok());
    let before = points(&b, "hero").ap;
    b.execute(Command::Wrestle { follow_up: GrappleFollowUp::End }).unwrap();
    let (hero, gob) = (b.index_of("hero").unwrap(), b.index_of("gob").unwrap());
    assert!(!b.read().fighters.conditions[gob].has(Condition::Grappled));
    assert_eq!(b.read().fighters.grapple[hero].with, None);
    assert_eq!(points(&b, "hero").ap, before, "free: no AP");
    // Control: the phase's action is still there.
    assert_eq!(b.actor(), Some(hero));
    b.validate(&attack).unwrap();
}
