//! Snapshots: a battle copied out of its world and into another in place, whatever that
//! world held before, plays on exactly as the battle it was taken from.

use super::*;
use fivefoot::combat::fighter::Grapple;
use fivefoot::combat::fighter::Reactions;

fn skirmish() -> Level {
    Level::load(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/skirmish.ron"), &Catalogue::builtin()).unwrap()
}

/// The same eight squares as the skirmish's units, but other creatures, ids and sides.
fn other_eight() -> Level {
    let units = (0..8)
        .map(|i| {
            let creature = if i % 2 == 0 { "goblin" } else { "ogre" };
            common::unit(
                &format!("u{i}"),
                if i < 4 { "north" } else { "south" },
                (1 + i % 4 * 3, 1 + i / 4 * 5),
                creature,
            )
        })
        .collect();
    common::level(&common::open_rows(14, 10), units, RulesVariant::D20Classic)
}

/// Plays `b` out with the built-in AI and returns its log from here on.
fn play_out(mut b: BattleWorld) -> Vec<CombatEvent> {
    let start = b.events().len();
    b.run(&mut |_| None);
    b.events()[start..].to_vec()
}

#[test]
fn a_snapshot_restored_over_another_battle_plays_on_as_the_original() {
    let cat = Catalogue::builtin();
    for v in RulesVariant::ALL {
        let mut original = BattleWorld::new(&skirmish(), &cat, v, 5, BattleOptions::default());
        for _ in 0..6 {
            original.execute(Command::EndTurn).ok();
        }
        let snapshot = original.snapshot_quiet();
        // A scratch world of the variant holding another battle of eight, played a while.
        let mut other = BattleWorld::new(&other_eight(), &cat, v, 9, BattleOptions::default());
        other.execute(Command::EndTurn).ok();
        let mut scratch = other.fork(true);
        scratch.restore(&snapshot);
        assert_eq!(format!("{:?}", scratch.read().fighters), format!("{:?}", original.read().fighters), "{v:?}");
        assert_eq!(scratch.clock().round, original.clock().round);
        assert_eq!(play_out(scratch), play_out(original), "{v:?}: the same battle from here on");
    }
}

#[test]
fn a_kept_snapshot_taken_again_in_place_holds_the_new_battle_whatever_it_held() {
    let cat = Catalogue::builtin();
    let v = RulesVariant::FourActions;
    let first = BattleWorld::new(&other_eight(), &cat, v, 2, BattleOptions::default());
    let mut kept = first.snapshot_quiet();
    let mut battle = BattleWorld::new(&skirmish(), &cat, v, 3, BattleOptions::default());
    let mut scratch = BattleWorld::scratch(v, &[]);
    for step in 0..4 {
        // Another battle, then the same battle further on: the copy is whole each time.
        battle.snapshot_quiet_into(&mut kept);
        scratch.restore(&kept);
        assert_eq!(format!("{:?}", scratch.read().fighters), format!("{:?}", battle.read().fighters), "step {step}");
        let mut original = BattleWorld::new(&skirmish(), &cat, v, 3, BattleOptions::default());
        for _ in 0..step {
            original.execute(Command::EndTurn).ok();
        }
        assert_eq!(play_out(scratch.fork(true)), play_out(original), "step {step}");
        battle.execute(Command::EndTurn).ok();
    }
}

#[test]
fn restoring_rewinds_a_playout_in_the_same_world() {
    let cat = Catalogue::builtin();
    for v in RulesVariant::ALL {
        let battle = BattleWorld::new(&skirmish(), &cat, v, 11, BattleOptions::default());
        let start = battle.snapshot_quiet();
        let mut scratch = BattleWorld::scratch(v, &[]);
        scratch.restore(&start);
        let first = play_out(scratch.fork(true));
        // A playout to the end, then back to the start in the same world: the same battle.
        scratch.run(&mut |_| None);
        assert!(scratch.is_over());
        scratch.restore(&start);
        assert!(!scratch.is_over());
        assert_eq!(play_out(scratch.fork(true)), first, "{v:?}");
        let restored = scratch.read().fighters.iter().map(|f| f.health().hp).collect::<Vec<_>>();
        let at_start = battle.read().fighters.iter().map(|f| f.health().hp).collect::<Vec<_>>();
        assert_eq!(restored, at_start);
    }
}

/// A movement range is searched once while the derived maps stand (an AI's choice of
/// square, its check and the command's own check share it), and searched anew once
/// anyone moves: it is always the range the rules would search now.
#[test]
fn a_movement_range_kept_is_the_one_the_rules_would_search_now() {
    use fivefoot::rules::{MoveMode, movement_range};
    let cat = Catalogue::builtin();
    let mut world = BattleWorld::new(&skirmish(), &cat, RulesVariant::D20Classic, 5, BattleOptions::default());
    let actor = world.actor().expect("someone acts");
    let searched = |world: &mut BattleWorld| {
        let b = world.read();
        let (kept, again) = (b.move_range(actor, MoveMode::Move, 30), b.move_range(actor, MoveMode::Move, 30));
        let fresh = movement_range(&b.view(), actor, MoveMode::Move, 30);
        let view = b.view();
        assert_eq!(kept.destinations(&view), fresh.destinations(&view));
        assert_eq!(again.destinations(&view), fresh.destinations(&view));
        kept.destinations(&view)
    };
    let before = searched(&mut world);
    let (to, _, _) = *before.last().expect("somewhere to go");
    world.execute(Command::Move { to }).expect("a square of its range");
    let after = searched(&mut world);
    assert_ne!(after, before, "moved, it reaches other squares at other costs");
}

/// The clock (whose opportunity it is, the queue, the order), a grapple and a charge name
/// fighters by entity: a snapshot restored into a world whose combatants are other entities
/// names, in each, the fighter in the same place in id order.
#[test]
fn a_snapshot_restored_among_other_entities_names_the_same_fighters() {
    let cat = Catalogue::builtin();
    let ids = |b: &BattleWorld, named: &[Entity]| -> Vec<String> {
        named.iter().map(|&e| b.read().fighters.combatant[e].id.clone()).collect()
    };
    let entities =
        |b: &BattleWorld| -> Vec<Entity> { b.read().fighters.indices().map(|i| b.read().fighters.entity(i)).collect() };
    for v in RulesVariant::ALL {
        let mut original = BattleWorld::new(&skirmish(), &cat, v, 5, BattleOptions::default());
        for _ in 0..3 {
            original.execute(Command::EndTurn).ok();
        }
        // The last two (among those spawned anew below) locked in a grapple, each naming the
        // other by entity; and the last charged the one before it this round.
        let (x, y) = (6, 7);
        let (first, second) = (original.read().fighters.entity(x), original.read().fighters.entity(y));
        original.scene().fighter::<Grapple>(x).with = Some(second);
        original.scene().fighter::<Grapple>(y).with = Some(first);
        let round = original.clock().round;
        original.scene().fighter::<Reactions>(y).charged = Some((first, round));
        let snapshot = original.snapshot_quiet();
        // A world that held eight, then a duel (six despawned): two of its combatants are
        // reused, and six spawned anew are other entities (of a later generation).
        let duel = vec![common::unit("a", "north", (1, 1), "goblin"), common::unit("b", "south", (5, 5), "goblin")];
        let duel =
            BattleWorld::new(&common::level(&common::open_rows(8, 8), duel, v), &cat, v, 1, BattleOptions::default());
        let mut scratch = BattleWorld::new(&other_eight(), &cat, v, 9, BattleOptions::default()).fork(true);
        scratch.restore(&duel.snapshot_quiet());
        scratch.restore(&snapshot);
        assert_ne!(entities(&scratch)[x..], entities(&original)[x..], "{v:?}: the grapplers are other entities");
        assert_eq!(scratch.actor(), original.actor(), "{v:?}");
        assert_eq!(ids(&scratch, &scratch.clock().order), ids(&original, &original.clock().order), "{v:?}");
        assert_eq!(ids(&scratch, &scratch.clock().queue), ids(&original, &original.clock().queue), "{v:?}");
        let grappling = |b: &BattleWorld| -> Vec<Vec<String>> {
            b.read().fighters.iter().map(|f| ids(b, f.grapple().with.as_slice())).collect()
        };
        assert_eq!(grappling(&scratch), grappling(&original), "{v:?}");
        let charged = |b: &BattleWorld| -> Vec<Vec<String>> {
            b.read()
                .fighters
                .iter()
                .map(|f| ids(b, &f.reactions().charged.map(|(e, _)| e).into_iter().collect::<Vec<_>>()))
                .collect()
        };
        assert_eq!(charged(&scratch), charged(&original), "{v:?}");
        assert_eq!(play_out(scratch), play_out(original), "{v:?}: the same battle from here on");
    }
}

/// The cover between two units is surveyed once while the derived maps stand (an AI's
/// choice of target, its check, the command's check and the attack's roll share it), and
/// anew once anyone moves: over a battle among walls, it is always the cover the rules
/// would survey now, and it does change as the archers move.
#[test]
fn the_cover_kept_between_two_units_is_the_one_the_rules_would_survey_now() {
    use fivefoot::rules::cover_between;
    let cat = Catalogue::builtin();
    let level = Level::load(format!("{}/levels/archers-walls.ron", env!("CARGO_MANIFEST_DIR")), &cat).unwrap();
    let mut world = BattleWorld::new(&level, &cat, RulesVariant::D20Classic, 5, BattleOptions::default());
    let mut seen: Vec<Vec<String>> = Vec::new();
    for _ in 0..40 {
        let Some(actor) = world.actor() else { break };
        {
            let b = world.read();
            let n = b.fighters.len();
            let mut now = Vec::new();
            for (a, t) in (0..n).flat_map(|a| (0..n).map(move |t| (a, t))).filter(|(a, t)| a != t) {
                if !b.fighters.conditions[a].alive() || !b.fighters.conditions[t].alive() {
                    continue;
                }
                let (kept, again) = (b.cover_between(a, t), b.cover_between(a, t));
                let fresh = cover_between(&b.view(), a, t, false);
                assert_eq!((&kept, &again), (&fresh, &fresh), "unit {a} on unit {t}");
                now.push(format!("{:?}", kept.cover));
            }
            seen.push(now);
        }
        let cmd = fivefoot::combat::ai::AiKind::Greedy.make().decide(&mut world, actor);
        if world.execute(cmd).is_err() {
            world.execute(Command::EndTurn).ok();
        }
    }
    assert!(seen.windows(2).any(|w| w[0] != w[1]), "some unit's cover changed as the battle went on");
}
