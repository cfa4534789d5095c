//! What one AI decision costs: the tactical AI (each difficulty) and the greedy baseline
//! deciding for the unit acting, on the default skirmish once the sides have closed (after
//! 12 greedy commands) and on *Great melee* (64×64, 40 units) after 60. Targets: p99 ≤ 5 ms
//! on the skirmish and ≤ 20 ms on Great melee, one core (`sim --swap-sides` reports the
//! percentiles over whole battles).

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use fivefoot::combat::ai::{AiKind, Difficulty};
use fivefoot::combat::{BattleOptions, BattleWorld};
use fivefoot::level::{Catalogue, Level};
use fivefoot::variants::RulesVariant;

/// The level's battle after `commands` greedy commands.
fn closed(file: &str, v: RulesVariant, commands: usize) -> BattleWorld {
    let cat = Catalogue::builtin();
    let level = Level::load(format!("{}/levels/{file}", env!("CARGO_MANIFEST_DIR")), &cat).unwrap();
    let mut b = BattleWorld::new(&level, &cat, v, 3, BattleOptions::default());
    for _ in 0..commands {
        let Some(actor) = b.actor() else { break };
        let cmd = AiKind::Greedy.make().decide(&mut b, actor);
        if b.execute(cmd).is_err() {
            let _ = b.execute(fivefoot::combat::Command::EndTurn);
        }
    }
    b
}

fn decisions(c: &mut Criterion) {
    let kinds = [
        AiKind::Greedy,
        AiKind::Tactical(Difficulty::Easy),
        AiKind::Tactical(Difficulty::Normal),
        AiKind::Tactical(Difficulty::Hard),
    ];
    for (file, commands, samples) in [("skirmish.ron", 12, 20), ("great-melee.ron", 60, 10)] {
        let mut group = c.benchmark_group(format!("decision_{}", file.trim_end_matches(".ron")));
        group.sample_size(samples);
        for v in [RulesVariant::D20Classic, RulesVariant::FourActions] {
            let mut battle = closed(file, v, commands);
            let actor = battle.actor().expect("the battle goes on");
            for kind in kinds {
                // A fresh AI each time: one that has decided here keeps what it chose to give
                // next (a command put off for a spare action) and would answer from it at once.
                group.bench_function(format!("{v}/{kind}"), |b| {
                    b.iter_batched(|| kind.make(), |mut brain| brain.decide(&mut battle, actor), BatchSize::SmallInput)
                });
            }
        }
        group.finish();
    }
}

criterion_group!(benches, decisions);
criterion_main!(benches);
