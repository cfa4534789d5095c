//! One frame of the game's own systems on the 64×64 Great melee (40 units) with every
//! overlay layer on, headless: rules derivation, the combat clock and AI hand-off, the
//! player's controls, and the overlays recomputed and repainted because the pointer moved
//! to another square (the worst case: most frames recompute nothing). Rendering, egui
//! layout and the window are left out: this is the CPU time the game itself needs of a
//! 16.7 ms frame.

use bevy::gizmos::AppGizmoBuilder;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use criterion::{Criterion, criterion_group, criterion_main};
use fivefoot::combat::plugin::{BattleRes, CombatPlugin};
use fivefoot::combat::{BattleOptions, BattleWorld};
use fivefoot::control::plugin::{ControlPlugin, Pointer, Selection};
use fivefoot::grid::GridPos;
use fivefoot::input::{Bindings, BindingsPlugin};
use fivefoot::level::{Catalogue, Level};
use fivefoot::overlay::{Layers, OverlayPlugin};
use fivefoot::rules::RulesPlugin;
use fivefoot::variants::RulesVariant;
use fivefoot::view::layout::BoardLayout;

fn game_app(v: RulesVariant) -> App {
    let cat = Catalogue::builtin();
    let level = Level::load(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/great-melee.ron"), &cat).unwrap();
    let battle = BattleWorld::new(&level, &cat, v, 7, BattleOptions::default());
    let actor = battle.actor().expect("someone acts first");
    let side = battle.read().fighters.side[actor].0.clone();
    let (w, h) = (battle.read().field.terrain.width(), battle.read().field.terrain.height());
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, bevy::input::InputPlugin, AssetPlugin::default()))
        .init_asset::<Image>()
        .init_asset::<bevy::gizmos::GizmoAsset>()
        .init_resource::<bevy::gizmos::config::GizmoConfigStore>()
        .init_gizmo_group::<bevy::gizmos::config::DefaultGizmoConfigGroup>()
        .add_plugins((
            BindingsPlugin { bindings: Bindings::default() },
            RulesPlugin,
            CombatPlugin,
            ControlPlugin,
            OverlayPlugin,
        ))
        .insert_resource(BoardLayout::new(v.shape(), w, h))
        .insert_resource(Layers { enemy_threat: true, range: true, lines: true })
        .insert_resource(Selection { unit: Some(actor), ..default() });
    // The player's side acts: the frame waits on the player, as when a human looks around.
    app.insert_resource(BattleRes::new(battle, vec![side], Default::default()));
    app.update();
    // Not measuring nothing: the layers are computed and the overlay squares painted.
    let p = app.world().resource::<fivefoot::overlay::Preview>();
    assert!(!p.enemy_threat.is_empty() && !p.range.is_empty(), "the layers are on");
    app
}

fn frames(c: &mut Criterion) {
    let mut group = c.benchmark_group("frame_64x64_40_units_all_layers");
    for v in [RulesVariant::D20Classic, RulesVariant::HexPhases] {
        let mut app = game_app(v);
        let (w, h) = {
            let l = app.world().resource::<BoardLayout>();
            (l.width, l.height)
        };
        let mut k = 0i32;
        group.bench_function(format!("{}_pointer_moving", v.id()), |b| {
            b.iter(|| {
                k = (k + 7) % (w * h);
                app.world_mut().resource_mut::<Pointer>().cell = Some(GridPos::new(k % w, k / w));
                app.update();
            })
        });
    }
    group.finish();
}

criterion_group!(frame_benches, frames);
criterion_main!(frame_benches);
