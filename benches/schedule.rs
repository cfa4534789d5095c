//! The design check for rules as scheduled systems: what one command costs when it runs
//! through a Bevy `Schedule` of chained rule sets (intake, validate, resolve, reactions,
//! damage, dying, derive, clock) holding 20 systems over 8 combatant entities, under the
//! single-threaded and the multi-threaded executor; the same schedule with empty system
//! bodies (the scheduling alone); and putting a battle back for an AI playout by restoring
//! a snapshot into the same entities against despawning and spawning them again. The
//! derive systems call the real rules (`Occupancy::build`, `ThreatMap::rebuild`).

use bevy::ecs::schedule::{
    LogLevel, MultiThreadedExecutor, Schedule, ScheduleBuildSettings, ScheduleLabel, SingleThreadedExecutor,
};
use bevy::prelude::*;
use criterion::{Criterion, criterion_group, criterion_main};
use fivefoot::grid::{Footprint, GridPos, TerrainMap};
use fivefoot::level::Catalogue;
use fivefoot::rules::{Battlefield, Occupancy, Roster, ThreatMap, UnitView};
use fivefoot::variants::RulesVariant;
use rand::{Rng, SeedableRng};
use std::hint::black_box;

#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
struct Rules;

#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Stage {
    Intake,
    Validate,
    Resolve,
    Reactions,
    Damage,
    Dying,
    Derive,
    Clock,
}

#[derive(Component, Clone, Copy)]
struct Pos(GridPos);
#[derive(Component, Clone, Copy)]
struct Side(u8);
#[derive(Component, Clone, Copy)]
struct Health(i32);
#[derive(Component, Clone, Copy)]
struct Id(u8);
#[derive(Component, Clone, Copy)]
struct Budget(u8);

#[derive(Resource)]
struct Field(Battlefield);
#[derive(Resource, Default)]
struct Derived(Occupancy, ThreatMap, Option<Roster>);
#[derive(Resource)]
struct Dice(rand_chacha::ChaCha8Rng);
#[derive(Resource, Default)]
struct Log(Vec<u32>);
#[derive(Resource, Default)]
struct Stack(Vec<(u8, GridPos)>);
#[derive(Resource, Default)]
struct Pending(Option<(u8, GridPos)>, bool, Vec<(u8, i32)>);
#[derive(Resource, Default)]
struct Clock(u32, u8);

fn world() -> World {
    let mut w = World::new();
    let rows: Vec<String> = (0..16).map(|y| if y == 7 { "..##....##......".into() } else { ".".repeat(16) }).collect();
    w.insert_resource(Field(Battlefield::new(TerrainMap::from_rows(&rows).unwrap(), RulesVariant::D20Classic)));
    w.insert_resource(Dice(rand_chacha::ChaCha8Rng::seed_from_u64(7)));
    w.init_resource::<Derived>();
    w.init_resource::<Log>();
    w.init_resource::<Stack>();
    w.init_resource::<Pending>();
    w.init_resource::<Clock>();
    for i in 0..8u8 {
        let at = GridPos::new(2 + (i as i32 % 4) * 3, if i < 4 { 5 } else { 9 });
        w.spawn((Pos(at), Side(i / 4), Health(20), Id(i), Budget(2)));
    }
    w
}

/// Twenty rule systems, each doing a small real job, chained by stage.
fn schedule(single_threaded: bool, empty: bool) -> Schedule {
    let mut s = Schedule::new(Rules);
    if single_threaded {
        s.set_executor(SingleThreadedExecutor::new());
    } else {
        s.set_executor(MultiThreadedExecutor::new());
    }
    s.set_build_settings(ScheduleBuildSettings { ambiguity_detection: LogLevel::Error, ..default() });
    use Stage::*;
    s.configure_sets((Intake, Validate, Resolve, Reactions, Damage, Dying, Derive, Clock).chain());
    if empty {
        fn nothing() {}
        for (i, set) in [Intake, Validate, Resolve, Reactions, Damage, Dying, Derive, Clock].into_iter().enumerate() {
            let n = [1, 5, 2, 2, 1, 2, 3, 4][i];
            for _ in 0..n {
                s.add_systems(nothing.in_set(set));
            }
        }
        return s;
    }
    s.add_systems(intake.in_set(Intake));
    s.add_systems((v_actor, v_alive, v_budget, v_bounds, v_free).in_set(Validate));
    s.add_systems((step, leave_square).chain().in_set(Resolve));
    s.add_systems((find_reactions, resolve_reactions).chain().in_set(Reactions));
    s.add_systems(apply_damage.in_set(Damage));
    s.add_systems((mark_dying, mark_dead).chain().in_set(Dying));
    s.add_systems((roster, occupancy, threat).chain().in_set(Derive));
    s.add_systems((spend, next_actor, advance_round, log_event).chain().in_set(Clock));
    s
}

fn intake(mut p: ResMut<Pending>, mut stack: ResMut<Stack>) {
    if let Some(c) = p.0.take() {
        stack.0.push(c);
        p.1 = true;
    }
}
fn v_actor(stack: Res<Stack>, q: Query<&Id>) {
    black_box(stack.0.last().is_some_and(|(u, _)| q.iter().any(|i| i.0 == *u)));
}
fn v_alive(q: Query<&Health>) {
    black_box(q.iter().all(|h| h.0 > -10));
}
fn v_budget(q: Query<&Budget>) {
    black_box(q.iter().map(|b| b.0 as u32).sum::<u32>());
}
fn v_bounds(stack: Res<Stack>, f: Res<Field>) {
    black_box(stack.0.last().is_some_and(|(_, to)| f.0.terrain.in_bounds(*to)));
}
fn v_free(stack: Res<Stack>, d: Res<Derived>) {
    black_box(stack.0.last().map(|(_, to)| d.0.at(*to).is_none()));
}
fn step(mut stack: ResMut<Stack>, mut q: Query<(&Id, &mut Pos)>) {
    if let Some((u, to)) = stack.0.pop() {
        for (id, mut p) in &mut q {
            if id.0 == u {
                p.0 = to;
            }
        }
    }
}
fn leave_square(q: Query<&Pos>, mut p: ResMut<Pending>) {
    p.1 = q.iter().count() > 0;
}
fn find_reactions(p: Res<Pending>, d: Res<Derived>, q: Query<(&Id, &Pos)>, mut out: Local<Vec<u8>>) {
    out.clear();
    if p.1 {
        for (id, pos) in &q {
            if d.1.threateners(pos.0) != 0 {
                out.push(id.0);
            }
        }
    }
    black_box(&*out);
}
fn resolve_reactions(mut dice: ResMut<Dice>, mut p: ResMut<Pending>) {
    let roll: i32 = dice.0.random_range(1..=20);
    if roll > 10 {
        p.2.push((0, roll - 10));
    }
}
fn apply_damage(mut p: ResMut<Pending>, mut q: Query<(&Id, &mut Health)>) {
    for (u, dmg) in p.2.drain(..) {
        for (id, mut h) in &mut q {
            if id.0 == u {
                h.0 = (h.0 - dmg).max(-10);
            }
        }
    }
}
fn mark_dying(q: Query<&Health>) {
    black_box(q.iter().filter(|h| h.0 < 0).count());
}
fn mark_dead(mut q: Query<&mut Health>) {
    for mut h in &mut q {
        if h.0 <= -10 {
            h.0 = 20;
        }
    }
}
fn roster(mut d: ResMut<Derived>, q: Query<(&Id, &Pos, &Side)>) {
    let weapon = Catalogue::builtin_ref().weapon("longsword").expect("a longsword");
    let none = Default::default();
    let mut units: Vec<(UnitView, String)> = q
        .iter()
        .map(|(id, p, s)| {
            let view = UnitView::new(&format!("u{}", id.0), Footprint::new(p.0, 1), 30, 5, weapon, &none);
            (view, s.0.to_string())
        })
        .collect();
    units.sort_by(|a, b| a.0.id.cmp(&b.0.id));
    d.2 = Some(Roster::new(units));
}
fn occupancy(mut d: ResMut<Derived>, f: Res<Field>) {
    let Some(r) = d.2.take() else { return };
    d.0 = Occupancy::build(&f.0.terrain, &r);
    d.2 = Some(r);
}
fn threat(mut d: ResMut<Derived>, f: Res<Field>) {
    let Some(r) = d.2.take() else { return };
    d.1.rebuild(&f.0, &r);
    d.2 = Some(r);
}
fn spend(mut q: Query<&mut Budget>) {
    if let Some(mut b) = q.iter_mut().next() {
        b.0 = b.0.saturating_sub(1).max(1);
    }
}
fn next_actor(mut c: ResMut<Clock>) {
    c.1 = (c.1 + 1) % 8;
}
fn advance_round(mut c: ResMut<Clock>) {
    if c.1 == 0 {
        c.0 += 1;
    }
}
fn log_event(mut log: ResMut<Log>, c: Res<Clock>) {
    log.0.push(c.0 * 8 + c.1 as u32);
    if log.0.len() > 1024 {
        log.0.clear();
    }
}

fn one_command(w: &mut World, s: &mut Schedule, k: &mut i32) {
    *k += 1;
    let to = GridPos::new(2 + (*k % 12), 4 + (*k % 3));
    w.resource_mut::<Pending>().0 = Some(((*k % 8) as u8, to));
    s.run(w);
}

type Snapshot = Vec<(Pos, Side, Health, Id, Budget)>;

fn snapshot(w: &mut World) -> Snapshot {
    let mut v: Snapshot =
        w.query::<(&Pos, &Side, &Health, &Id, &Budget)>().iter(w).map(|(a, b, c, d, e)| (*a, *b, *c, *d, *e)).collect();
    v.sort_by_key(|c| c.3.0);
    v
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("rules schedule, one command (20 systems, 8 combatants)");
    for (name, kind, empty) in [
        ("single-threaded executor", true, false),
        ("multi-threaded executor", false, false),
        ("single-threaded, empty systems (scheduling alone)", true, true),
        ("multi-threaded, empty systems (scheduling alone)", false, true),
    ] {
        let mut w = world();
        let mut s = schedule(kind, empty);
        let mut k = 0;
        one_command(&mut w, &mut s, &mut k);
        g.bench_function(name, |b| b.iter(|| one_command(&mut w, &mut s, &mut k)));
    }
    g.finish();

    let mut g = c.benchmark_group("putting a battle back for a playout (8 combatants)");
    let mut w = world();
    let saved = snapshot(&mut w);
    g.bench_function("restore the snapshot into the same entities", |b| {
        b.iter(|| {
            let mut q = w.query::<(&Id, &mut Pos, &mut Side, &mut Health, &mut Budget)>();
            for (id, mut p, mut s, mut h, mut bu) in q.iter_mut(&mut w) {
                let c = &saved[id.0 as usize];
                (*p, *s, *h, *bu) = (c.0, c.1, c.2, c.4);
            }
        })
    });
    g.bench_function("despawn and spawn again", |b| {
        b.iter(|| {
            let all: Vec<Entity> = w.query_filtered::<Entity, With<Id>>().iter(&w).collect();
            for e in all {
                w.despawn(e);
            }
            w.spawn_batch(saved.iter().copied());
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
