//! The panels drawn over a level with a unit selected and a newer file waiting on disk,
//! frame after frame with no click: the document stays unmarked, so the systems that watch
//! it (the window's title) do not run again for nothing. Then a control: an edit marks it.

use super::*;
use crate::editor::Document;

fn world_with_doc() -> World {
    let mut d = Document::blank(6, 4, false).unwrap();
    d.apply(&Edit::place("g", "goblin", "red", (1, 1)), Catalogue::builtin_ref()).unwrap();
    d.apply(&Edit::place("f", "goblin", "blue", (4, 2)), Catalogue::builtin_ref()).unwrap();
    let mut ed = EditorDoc::new(d, None);
    ed.disk_changed = Some(ed.doc.level().clone());
    let mut world = World::new();
    world.insert_resource(ed);
    world.clear_trackers();
    world
}

/// Draws the panels that hold the document, `frames` times, with no input.
fn draw(world: &mut World, tools: &mut EditorTools, frames: usize) {
    let ctx = egui::Context::default();
    let mut state = PanelState::default();
    let mut doc = world.resource_mut::<EditorDoc>();
    for _ in 0..frames {
        let output = ctx.run_ui(egui::RawInput::default(), |ui| {
            tool_panel(ui, &mut doc, tools, &mut state);
            level_panel(ui, &mut doc, tools, &mut state);
            sides_panel(ui, &mut doc, tools, &mut state);
            super::super::watch::disk_changed_window(ui.ctx(), &mut doc);
        });
        output.drop_without_applying_deltas();
    }
}

#[test]
fn panels_that_only_show_the_document_leave_it_unmarked() {
    let mut world = world_with_doc();
    let mut tools = EditorTools { selected: Some("g".into()), ..EditorTools::default() };
    draw(&mut world, &mut tools, 3);
    assert!(!world.is_resource_changed::<EditorDoc>(), "three idle frames of the panels marked the document changed");
    // The control: writing through the same handle marks it.
    world.resource_mut::<EditorDoc>().apply(&Edit::SetName("Renamed".into()));
    assert!(world.is_resource_changed::<EditorDoc>());
}
