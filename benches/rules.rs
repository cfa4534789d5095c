//! Rules-core benchmarks on a 64×64 arena with 40 units: the threat map, cover for every
//! pair, and one unit's movement range with attack-of-opportunity annotation, timed side
//! by side with the `pathfinding` crate's Dijkstra over the same grid and costs.

use criterion::{Criterion, criterion_group, criterion_main};
use fivefoot::grid::{GridPos, SQUARE_DIRS};
use fivefoot::level::{Catalogue, Level, arena};
use fivefoot::rules::movement::reference;
use fivefoot::rules::{
    Battlefield, MoveMode, RulesView, Snapshot, ThreatMap, components::roster_of_level, cover::cover_all_pairs,
    cover_between, movement_range,
};
use fivefoot::variants::RulesVariant;
use std::hint::black_box;

fn snapshot() -> Snapshot {
    let cat = Catalogue::builtin();
    let level = Level::from_def(arena(64, 64, 40, 7), &cat).unwrap();
    let roster = roster_of_level(&level.def.units, &cat, level.def.rules);
    Snapshot::new(Battlefield::new(level.terrain, RulesVariant::D20Classic), roster)
}

/// A successor function as lean as the project's own search: no allocation (an iterator
/// over the eight directions), the same costs, and the same creatures (foes block, allies
/// may be passed), so `pathfinding` is timed on equal terms.
fn lean_successors<'a>(
    view: &'a RulesView<'a>,
    mover: usize,
    (p, parity): (GridPos, u8),
) -> impl Iterator<Item = ((GridPos, u8), u32)> + 'a {
    let map = &view.field.terrain;
    let side = view.roster.get(mover).side;
    SQUARE_DIRS.iter().filter_map(move |&(dx, dy)| {
        let n = p.offset(dx, dy);
        if !map.get(n).passable() {
            return None;
        }
        if view.occupancy.at(n).is_some_and(|u| view.roster.get(u).side != side) {
            return None;
        }
        let diagonal = dx != 0 && dy != 0;
        if diagonal && (!map.get(p.offset(dx, 0)).passable() || !map.get(p.offset(0, dy)).passable()) {
            return None;
        }
        let base = if diagonal && parity == 1 { 10 } else { 5 };
        let cost = if map.get(n).costs_double() { if diagonal { base + 10 } else { 10 } } else { base };
        Some(((n, if diagonal { 1 - parity } else { parity }), cost))
    })
}

fn benches(c: &mut Criterion) {
    let snap = snapshot();
    let view = snap.view();

    c.bench_function("threat_map_64x64_40_units", |b| {
        b.iter(|| ThreatMap::build(black_box(view.field), black_box(view.roster)))
    });
    // As the rules system does it after a move: rebuilt in place, reusing its memory.
    let mut threat = ThreatMap::build(view.field, view.roster);
    c.bench_function("threat_map_rebuild_in_place", |b| {
        b.iter(|| threat.rebuild(black_box(view.field), black_box(view.roster)))
    });

    c.bench_function("cover_all_pairs_40_units", |b| {
        b.iter(|| cover_all_pairs(black_box(&view)).iter().flatten().flatten().filter(|c| c.can_target).count())
    });
    c.bench_function("cover_each_pair_separately_40_units", |b| {
        b.iter(|| {
            let mut n = 0;
            for a in 0..view.roster.len() {
                for t in 0..view.roster.len() {
                    if a != t && cover_between(&view, a, t, false).can_target {
                        n += 1;
                    }
                }
            }
            n
        })
    });

    // A Medium fighter (speed 30) and the whole reachable grid, ours against `pathfinding`.
    let mover = view.roster.units.iter().position(|u| u.speed_ft == 30 && u.footprint.side == 1).unwrap();
    let start = view.roster.get(mover).footprint.origin;
    let terrain = &view.field.terrain;
    let mut group = c.benchmark_group("movement_range");
    group.bench_function("fivefoot_speed_30_with_aoo", |b| {
        b.iter(|| movement_range(black_box(&view), mover, MoveMode::Move, 30))
    });
    group.bench_function("pathfinding_dijkstra_reach_speed_30", |b| {
        b.iter(|| {
            pathfinding::directed::dijkstra::dijkstra_reach(&(start, 0u8), |&s| reference::successors(terrain, s))
                .take_while(|item| item.total_cost <= 30)
                .count()
        })
    });
    group.bench_function("pathfinding_lean_successors_speed_30", |b| {
        b.iter(|| {
            pathfinding::directed::dijkstra::dijkstra_reach(&(start, 0u8), |&s| lean_successors(&view, mover, s))
                .take_while(|item| item.total_cost <= 30)
                .count()
        })
    });
    group.bench_function("fivefoot_whole_map_with_aoo", |b| {
        b.iter(|| movement_range(black_box(&view), mover, MoveMode::Move, u32::MAX / 2))
    });
    group.bench_function("pathfinding_dijkstra_all_whole_map", |b| {
        b.iter(|| pathfinding::prelude::dijkstra_all(&(start, 0u8), |&s| reference::successors(terrain, s)))
    });
    group.bench_function("pathfinding_lean_successors_whole_map", |b| {
        b.iter(|| pathfinding::prelude::dijkstra_all(&(start, 0u8), |&s| lean_successors(&view, mover, s)))
    });
    group.finish();
}

criterion_group!(rules, benches);
criterion_main!(rules);
