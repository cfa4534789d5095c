//! One frame of the level editor's own systems while painting on the 64×64 Great melee
//! (40 units) with every rules layer on, headless: the brush stroke's edit on the document
//! (one undo step for the whole drag), the live problem list, the board's tiles and tokens
//! brought up to date, the tool preview, and every rules layer (threat, reach, and the
//! selected unit's cover, flanking and movement, with the path to the pointer) worked out
//! again for the changed level. Rendering, egui layout and the window are left out: this is the
//! CPU time the editor itself needs of a frame.

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use criterion::{Criterion, criterion_group, criterion_main};
use fivefoot::combat::plugin::CombatPlugin;
use fivefoot::control::plugin::{ControlPlugin, Pointer};
use fivefoot::editor::overlay::{EditorLayers, EditorOverlayPlugin};
use fivefoot::editor::tools::EditorTools;
use fivefoot::editor::{Document, EditorDoc, EditorPlugin, board::EditorBoardPlugin, cli::read_level};
use fivefoot::game::{GamePlugin, Screen};
use fivefoot::grid::{GridPos, Terrain};
use fivefoot::input::{Bindings, BindingsPlugin};
use fivefoot::rules::RulesPlugin;
use leafwing_input_manager::prelude::Buttonlike;

fn editor_app() -> App {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/great-melee.ron");
    let doc = Document::new(read_level(&path).unwrap());
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, bevy::input::InputPlugin, AssetPlugin::default()))
        .init_asset::<Image>()
        .add_plugins((BindingsPlugin { bindings: Bindings::default() }, RulesPlugin, CombatPlugin, ControlPlugin))
        .add_plugins((GamePlugin, EditorPlugin, EditorBoardPlugin, EditorOverlayPlugin))
        .insert_resource(EditorDoc::new(doc, None))
        .insert_resource(EditorLayers::ALL)
        .insert_state(Screen::Editor);
    app.update();
    app.update();
    app
}

fn painting(c: &mut Criterion) {
    let mut app = editor_app();
    let (w, h) = (64, 64);
    let per_pass = (w - 2) * (h - 2);
    app.world_mut().resource_mut::<EditorTools>().brush = 3;
    // A unit selected: the cover, flanking and movement layers have a subject every frame.
    let first = app.world().resource::<EditorDoc>().doc.level().units[0].id.clone();
    app.world_mut().resource_mut::<EditorTools>().selected = Some(first);
    let mut k = 0i32;
    c.bench_function("editor_frame_64x64_40_units_painting_all_layers", |b| {
        b.iter(|| {
            // A new square every frame; each pass over the map is one drag in the other
            // terrain, so every frame changes the level.
            if k % per_pass == 0 {
                MouseButton::Left.release(app.world_mut());
                app.update();
                let t = if (k / per_pass) % 2 == 0 { Terrain::Difficult } else { Terrain::LowWall };
                app.world_mut().resource_mut::<EditorTools>().terrain = t;
                MouseButton::Left.press(app.world_mut());
            }
            let (x, y) = (1 + k % (w - 2), 1 + (k / (w - 2)) % (h - 2));
            app.world_mut().resource_mut::<Pointer>().cell = Some(GridPos::new(x, y));
            app.update();
            k += 1;
        })
    });
    MouseButton::Left.release(app.world_mut());
    app.update();
    let doc = &app.world().resource::<EditorDoc>().doc;
    assert_eq!(doc.undo_depth() as i32, (k + per_pass - 1) / per_pass, "one undo step per drag");
}

criterion_group!(editor_benches, painting);
criterion_main!(editor_benches);
