//! Battles per second: whole greedy-vs-greedy battles on the 4-vs-4 default skirmish,
//! under each rule variant (target: ≥ 500 battles/s on one core); and what one command
//! costs through the rules schedule: ending the turn, which runs every stage and moves the
//! clock on to the next fighter; and what a playout's start costs: a snapshot of the battle
//! restored into a scratch world (target: ≤ 3 µs on the default skirmish).

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use fivefoot::combat::{BattleOptions, BattleWorld, Command, sim};
use fivefoot::level::{Catalogue, Level};
use fivefoot::variants::RulesVariant;
use std::collections::BTreeMap;

fn battles(c: &mut Criterion) {
    let cat = Catalogue::builtin();
    let level = Level::load(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/skirmish.ron"), &cat).unwrap();
    let ais = BTreeMap::new();
    let mut group = c.benchmark_group("battle_4v4_greedy");
    group.throughput(Throughput::Elements(1));
    for v in RulesVariant::ALL {
        let mut seed = 0u64;
        group.bench_function(v.id(), |b| {
            b.iter(|| {
                seed += 1;
                sim::run_battle(&level, &cat, v, seed, &ais, &BattleOptions::default()).0.clock().round
            })
        });
    }
    group.finish();
}

fn one_command(c: &mut Criterion) {
    let cat = Catalogue::builtin();
    let level = Level::load(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/skirmish.ron"), &cat).unwrap();
    let mut group = c.benchmark_group("end_turn_through_the_rules_schedule");
    for v in RulesVariant::ALL {
        let start = BattleWorld::new(&level, &cat, v, 1, BattleOptions::default());
        group.bench_function(v.id(), |b| {
            b.iter_batched_ref(
                || start.fork(false),
                |battle| battle.execute(Command::EndTurn).is_ok(),
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

fn snapshot_and_restore(c: &mut Criterion) {
    let cat = Catalogue::builtin();
    let level = Level::load(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/skirmish.ron"), &cat).unwrap();
    let mut group = c.benchmark_group("snapshot_and_restore");
    for v in RulesVariant::ALL {
        let battle = BattleWorld::new(&level, &cat, v, 1, BattleOptions::default());
        let mut scratch = BattleWorld::scratch(v, &[]);
        // What an AI decision does: a snapshot kept from one decision to the next, taken
        // again in place, then restored into its scratch world.
        let mut kept = battle.snapshot_quiet();
        group.bench_function(v.id(), |b| {
            b.iter(|| {
                battle.snapshot_quiet_into(&mut kept);
                scratch.restore(&kept);
                scratch.actor()
            })
        });
        // A snapshot made anew each time.
        group.bench_function(format!("{}/fresh", v.id()), |b| {
            b.iter(|| {
                let snapshot = battle.snapshot_quiet();
                scratch.restore(&snapshot);
                scratch.actor()
            })
        });
    }
    group.finish();
}

criterion_group!(sim_benches, battles, one_command, snapshot_and_restore);
criterion_main!(sim_benches);
