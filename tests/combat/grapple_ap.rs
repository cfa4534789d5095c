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
    let mut scene = b.scene();
    for (i, other) in [(h, t), (t, h)] {
        scene.fighter::<fivefoot::rules::Conditions>(i).add(Condition::Grappled);
        let with = scene.entity(other);
        scene.fighter::<fivefoot::combat::fighter::Grapple>(i).with = Some(with);
    }
    scene.fighter::<fivefoot::combat::fighter::Grapple>(h).holds = true;
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
        assert_eq!(read.fighters.grapple[hero].with == Some(read.fighters.entity(gob)), *hit, "seed {seed}");
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

/// "If you're successful, you can either move, deal damage to, or pin the creature you are
/// grappling … If you decide to pin your target, the target gains the pinned condition. You
/// continue to have the grappled condition, but lose your Dexterity bonus to AC until you
/// are no longer pinning the target." Pinned (`docs/rules-notes.md`): it can only try to
/// escape, and has no Dexterity to AC either; a pin ends with the grapple.
#[test]
fn ap_a_pin_holds_the_foe_to_escaping_and_costs_the_pinner_its_dexterity_to_ac() {
    use fivefoot::combat::modifiers::loses_dexterity;
    let mut pinned_once = false;
    for seed in 1..=12 {
        let mut b = ap(seed);
        until(&mut b, "gob", |_| true);
        in_a_grapple(&mut b, "hero", "gob");
        let pin = Command::Wrestle { follow_up: GrappleFollowUp::Pin };
        until(&mut b, "hero", |b| b.validate(&pin).is_ok());
        let (hero, gob) = (b.index_of("hero").unwrap(), b.index_of("gob").unwrap());
        // Against anyone else a grappled creature has no Dexterity to AC already; against
        // the one it grapples with, only a pin takes it.
        let dexterity_lost = |b: &BattleWorld, i: usize| {
            let read = b.read();
            let partner = if i == hero { gob } else { hero };
            loses_dexterity(&read.fighters.conditions[i], &read.fighters.grapple[i], read.fighters.entity(partner))
        };
        assert!(!dexterity_lost(&b, hero) && !dexterity_lost(&b, gob), "control: holding costs no Dexterity");
        b.execute(pin).unwrap();
        until(&mut b, "hero", |_| true);
        b.execute(Command::EndTurn).unwrap();
        let (_, hit) = maneuvers(&b, "continue grapple")[0].clone();
        let pinned = b.read().fighters.conditions[gob].has(Condition::Pinned);
        assert_eq!(pinned, hit, "seed {seed}: a pin only on a success");
        if !pinned {
            continue;
        }
        pinned_once = true;
        assert!(dexterity_lost(&b, hero) && dexterity_lost(&b, gob), "seed {seed}: both lose their Dexterity");
        assert!(b.read().fighters.conditions[hero].has(Condition::Grappled), "the pinner stays grappled");
        assert!(
            b.validate(&Command::Wrestle { follow_up: GrappleFollowUp::Pin }).is_err(),
            "seed {seed}: no second pin"
        );
        // The pinned one's turn: anything but escaping is refused.
        until(&mut b, "gob", |_| true);
        let attack = b.validate(&Command::Attack { target: "hero".into() }).unwrap_err();
        assert!(attack.reason.contains("pinned"), "{attack}");
        assert!(b.validate(&Command::Move { to: GridPos::new(5, 3) }).is_err());
        b.validate(&Command::Escape).expect("a pinned creature may try to escape");
        // The grapple's end frees both, pin and all.
        until(&mut b, "hero", |b| b.validate(&Command::Wrestle { follow_up: GrappleFollowUp::End }).is_ok());
        b.execute(Command::Wrestle { follow_up: GrappleFollowUp::End }).unwrap();
        assert!(!b.read().fighters.conditions[gob].has(Condition::Pinned));
        assert!(!dexterity_lost(&b, hero) && !dexterity_lost(&b, gob));
        b.validate(&Command::EndTurn).unwrap();
        break;
    }
    assert!(pinned_once, "some pin succeeded");
}

/// "Move: If you decide to move your target, immediately after the grapple, you can take a
/// move simple action and move the creature you are grappling with you. At the end of that
/// move action, you can place your target in any space adjacent to you." Here the foe is
/// placed on the free square beside the grappler nearest where it stood
/// (`docs/rules-notes.md`), still held.
#[test]
fn ap_a_grappler_moves_and_places_the_held_foe_beside_it() {
    let rows = ["##########", "#........#", "#........#", "#........#", "#........#", "##########"];
    let mut dragged_once = false;
    for seed in 1..=12 {
        let units =
            vec![unit("hero", "blue", (2, 2), "human_fighter", None), unit("gob", "red", (3, 2), "goblin", None)];
        let mut b = battle_on(&rows, units, RulesVariant::ApPhases, seed);
        until(&mut b, "gob", |_| true);
        in_a_grapple(&mut b, "hero", "gob");
        let to = GridPos::new(6, 3);
        let drag = Command::Wrestle { follow_up: GrappleFollowUp::Move { to } };
        until(&mut b, "hero", |b| b.validate(&drag).is_ok());
        // Out of a move's reach, or a wall: refused.
        let far = Command::Wrestle { follow_up: GrappleFollowUp::Move { to: GridPos::new(30, 3) } };
        assert!(b.validate(&far).is_err());
        assert!(b.validate(&Command::Wrestle { follow_up: GrappleFollowUp::Move { to: GridPos::new(0, 0) } }).is_err());
        b.execute(drag).unwrap();
        until(&mut b, "hero", |_| true);
        b.execute(Command::EndTurn).unwrap();
        let (_, hit) = maneuvers(&b, "continue grapple")[0].clone();
        let (hero, gob) = (b.index_of("hero").unwrap(), b.index_of("gob").unwrap());
        let read = b.read();
        let (hero_at, gob_at) = (read.fighters.position[hero].0, read.fighters.position[gob].0);
        if !hit {
            assert_eq!((hero_at, gob_at), (GridPos::new(2, 2), GridPos::new(3, 2)), "seed {seed}: nobody moves");
            continue;
        }
        dragged_once = true;
        assert_eq!(hero_at, to, "seed {seed}");
        // Beside the grappler, on the free square nearest where the foe stood.
        assert_eq!(gob_at, GridPos::new(5, 2), "seed {seed}");
        assert_eq!(read.fighters.grapple[hero].with, Some(read.fighters.entity(gob)), "still held");
        assert!(read.fighters.conditions[gob].has(Condition::Grappled));
        let dragged: Vec<&str> = b
            .events()
            .iter()
            .filter_map(|e| match e {
                CombatEvent::Moved { unit, kind, .. } if kind == "dragged" => Some(unit.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(dragged, ["gob"], "seed {seed}: the foe is dragged once, after the grappler's move");
        break;
    }
    assert!(dragged_once, "some drag succeeded");
}
