//! The same seed gives the same battle byte for byte, on one thread or three; a replayed log
//! gives the same final state; every shipped level runs to its end under every variant.

use super::*;

// ---------------------------------------------------------------- determinism, replay, sims

#[test]
fn the_same_seed_gives_the_same_battle_byte_for_byte() {
    let cat = Catalogue::builtin();
    let lvl = Level::load(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/skirmish.ron"), &cat).unwrap();
    for v in RulesVariant::ALL {
        let ais = BTreeMap::new();
        let (a, _) = sim::run_battle(&lvl, &cat, v, 42, &ais, &BattleOptions::default());
        let (b, _) = sim::run_battle(&lvl, &cat, v, 42, &ais, &BattleOptions::default());
        let (c, _) = sim::run_battle(&lvl, &cat, v, 43, &ais, &BattleOptions::default());
        assert_eq!(events_json(&a), events_json(&b), "{v}");
        assert_ne!(events_json(&a), events_json(&c), "{v}: another seed, another battle");
    }
}

/// A batch spread over several threads reports and logs the same bytes as one thread:
/// battles are shared out as threads come free, their outcomes folded in battle order.
#[test]
fn a_batch_on_three_threads_gives_the_same_report_and_log_as_on_one() {
    let cat = Catalogue::builtin();
    let lvl = Level::load(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/skirmish.ron"), &cat).unwrap();
    for v in [RulesVariant::D20Classic, RulesVariant::OsrSegments] {
        let spec = sim::SimSpec {
            rules: v,
            seed: 9,
            battles: 12,
            ais: BTreeMap::new(),
            options: BattleOptions::default(),
            check: true,
            swap_sides: false,
        };
        let run = |threads: usize| {
            let (mut log, mut seen) = (Vec::new(), vec![]);
            let report = sim::run_batch_on(&lvl, &cat, &spec, Some(&mut log), &mut |n| seen.push(n), threads).unwrap();
            (serde_json::to_string(&report).unwrap(), log, seen)
        };
        let (one, one_log, one_seen) = run(1);
        let (three, three_log, three_seen) = run(3);
        assert_eq!(one, three, "{v}: the report");
        assert!(one_log == three_log, "{v}: the log, byte for byte");
        assert_eq!(one_seen, (1..=12).collect::<Vec<u32>>(), "progress in battle order");
        assert_eq!(three_seen, one_seen);
        let battles = String::from_utf8(one_log).unwrap().lines().filter(|l| l.contains("\"type\":\"battle\"")).count();
        assert_eq!(battles, 12);
    }
}

#[test]
fn a_replayed_log_reproduces_the_final_state() {
    let cat = Catalogue::builtin();
    for (level, v) in RulesVariant::ALL
        .into_iter()
        .map(|v| ("ogre-ruins", v))
        .chain(RulesVariant::ALL.into_iter().map(|v| ("mage-duel", v)))
    {
        let path = format!("{}/levels/{level}.ron", env!("CARGO_MANIFEST_DIR"));
        let lvl = Level::load(path, &cat).unwrap();
        let (played, commands) = sim::run_battle(&lvl, &cat, v, 7, &BTreeMap::new(), &BattleOptions::default());
        if level == "mage-duel" {
            assert!(played.stats().spells_cast > 0, "{v}: the mages cast");
        }
        let mut replay = BattleWorld::new(&lvl, &cat, v, 7, BattleOptions::default());
        replay.replay(&sim::commands_of(&commands)).unwrap();
        assert_eq!(events_json(&played), events_json(&replay), "{v}");
        let state = |b: &BattleWorld| {
            b.read()
                .fighters
                .iter()
                .map(|f| (f.id().to_string(), f.pos(), f.health().hp, f.conditions().0.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(state(&played), state(&replay), "{v}");
    }
}

#[test]
fn every_shipped_level_runs_to_completion_under_every_variant() {
    let cat = Catalogue::builtin();
    for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/levels")).unwrap() {
        let path = entry.unwrap().path();
        let lvl = Level::load(&path, &cat).unwrap();
        for v in RulesVariant::ALL {
            for seed in 0..3 {
                let (b, _) = sim::run_battle(&lvl, &cat, v, seed, &BTreeMap::new(), &BattleOptions::default());
                assert!(b.is_over(), "{} under {v}, seed {seed}", path.display());
                assert!(b.stats().attacks > 0, "{} under {v}, seed {seed}: nobody attacked", path.display());
            }
        }
    }
}
