//! The editor's "Generate" window: a style, a seed (or a roll of the dice), a symmetry and
//! a number of units, and the level is replaced by a generated one through one
//! `Edit::Generate`, so one undo brings the old level back. The same edit works in
//! `fivefoot edit --apply` scripts: `Generate((style: Forest, seed: 3, units: 6))`.

use super::session::EditorDoc;
use super::{Edit, Symmetry};
use crate::game::Screen;
use crate::grid::Shape;
use crate::level::generate::{MAX_SIDE, MIN_SIDE, generate_with};
use crate::level::{Catalogue, GenerateSpec, LevelDef, Style};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// The generated level that replaces `old`: it keeps the old level's rules (and death
/// saves) when they suit the generated map's shape.
pub fn generated(old: &LevelDef, spec: &GenerateSpec, catalogue: &Catalogue) -> Result<LevelDef, String> {
    let mut level = generate_with(spec, catalogue).map_err(|e| e.to_string())?;
    if (old.rules.shape() == Shape::Hex) == spec.hex {
        level.rules = old.rules;
        level.death_saves = old.death_saves;
    }
    Ok(level)
}

/// The window's settings between frames.
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct GenerateWindow {
    pub open: bool,
    pub spec: GenerateSpec,
}

/// The window, drawn over the editor.
pub struct EditorGeneratePlugin;

impl Plugin for EditorGeneratePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<GenerateWindow>().add_systems(
            EguiPrimaryContextPass,
            generate_window.run_if(in_state(Screen::Editor).and_then(resource_exists::<EditorDoc>)),
        );
    }
}

fn asked_id() -> egui::Id {
    egui::Id::new("fivefoot-editor-generate-open")
}

/// The button that opens the window (the panels' hook).
pub fn open_button(ui: &mut egui::Ui) {
    if ui.button("Generate…").on_hover_text("replace the level with a generated one").clicked() {
        ui.ctx().data_mut(|d| d.insert_temp(asked_id(), true));
    }
}

/// A fresh seed from the clock, stirred with the last one.
fn roll(last: u64) -> u64 {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    // splitmix64: neighbouring clock readings give unrelated seeds.
    let mut z = nanos ^ last.rotate_left(17) ^ 0x9E37_79B9_7F4A_7C15;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) % 1_000_000
}

fn generate_window(mut contexts: EguiContexts, mut doc: ResMut<EditorDoc>, mut win: ResMut<GenerateWindow>) -> Result {
    let ctx = contexts.ctx_mut()?;
    if ctx.data_mut(|d| d.remove_temp::<bool>(asked_id())).unwrap_or(false) && !win.open {
        // Opened on the level as it stands: its size and shape.
        let level = &doc.doc.level();
        let (w, h) = (level.map.rows.first().map_or(0, |r| r.chars().count()) as i32, level.map.rows.len() as i32);
        win.spec.width = w.clamp(MIN_SIDE, MAX_SIDE);
        win.spec.height = h.clamp(MIN_SIDE, MAX_SIDE);
        win.spec.hex = level.rules.shape() == Shape::Hex;
        win.open = true;
    }
    if !win.open {
        return Ok(());
    }
    let mut open = true;
    let mut go = false;
    let spec = &mut win.spec;
    egui::Window::new("Generate").open(&mut open).collapsible(false).resizable(false).default_pos([430.0, 50.0]).show(
        ctx,
        |ui| {
            egui::Grid::new("generate-grid").num_columns(2).show(ui, |ui| {
                ui.label("Style");
                egui::ComboBox::from_id_salt("generate-style").selected_text(spec.style.label()).show_ui(ui, |ui| {
                    for s in Style::ALL {
                        ui.selectable_value(&mut spec.style, s, s.label());
                    }
                });
                ui.end_row();
                ui.label("Symmetry");
                egui::ComboBox::from_id_salt("generate-symmetry").selected_text(spec.symmetry.label()).show_ui(
                    ui,
                    |ui| {
                        for s in Symmetry::ALL {
                            ui.selectable_value(&mut spec.symmetry, s, s.label());
                        }
                    },
                );
                ui.end_row();
                ui.label("Seed");
                ui.horizontal(|ui| {
                    ui.add(egui::DragValue::new(&mut spec.seed));
                    if ui.button("Roll dice").on_hover_text("a new random seed").clicked() {
                        spec.seed = roll(spec.seed);
                    }
                });
                ui.end_row();
                ui.label("Units");
                ui.add(egui::DragValue::new(&mut spec.units).range(0..=crate::level::MAX_UNITS).speed(2.0))
                    .on_hover_text("both sides together; each side gets the same creatures");
                ui.end_row();
                ui.label("Size");
                ui.horizontal(|ui| {
                    ui.add(egui::DragValue::new(&mut spec.width).range(MIN_SIDE..=MAX_SIDE));
                    ui.label("×");
                    ui.add(egui::DragValue::new(&mut spec.height).range(MIN_SIDE..=MAX_SIDE));
                    ui.checkbox(&mut spec.hex, "hex");
                });
                ui.end_row();
            });
            spec.units -= spec.units % 2;
            ui.label("Replaces the whole level; Undo brings it back.");
            go = ui.button("Generate").clicked();
        },
    );
    if go {
        let spec = win.spec.clone();
        if doc.apply(&Edit::Generate(spec.clone())) {
            doc.status = Some(format!("generated {} (seed {})", spec.style.label(), spec.seed));
        }
    }
    win.open = open;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::Document;
    use crate::variants::RulesVariant;

    #[test]
    fn generating_is_one_step_that_undoes_to_the_level_exactly() {
        let cat = Catalogue::builtin_ref();
        let mut doc = Document::blank(20, 12, false).unwrap();
        doc.apply(&Edit::SetRules(RulesVariant::FourActions), cat).unwrap();
        doc.apply(
            &Edit::PlaceUnit { id: "a".into(), creature: "goblin".into(), side: "x".into(), at: (2, 2), weapon: None },
            cat,
        )
        .unwrap();
        let before = doc.clone();
        let spec = GenerateSpec { style: Style::Fortress, symmetry: Symmetry::Point, seed: 4, ..Default::default() };
        doc.apply(&Edit::Generate(spec.clone()), cat).unwrap();
        assert_ne!(doc.level(), before.level(), "the control: the level was replaced");
        assert_eq!(doc.level().units.len(), 8);
        assert_eq!(doc.symmetry(), Symmetry::Point, "the document paints on under the generator's symmetry");
        assert_eq!(doc.level().rules, RulesVariant::FourActions, "a square map keeps the level's rules");
        assert_eq!(doc.undo_depth(), before.undo_depth() + 1, "one undo step");
        let after = doc.level().clone();
        doc.apply(&Edit::Undo, cat).unwrap();
        assert_eq!((&doc.level(), doc.symmetry()), (&before.level(), before.symmetry()), "undone exactly");
        doc.apply(&Edit::Redo, cat).unwrap();
        assert_eq!(doc.level(), &after);
        // A hex map takes hex-phases.
        doc.apply(&Edit::Generate(GenerateSpec { hex: true, ..spec }), cat).unwrap();
        assert_eq!(doc.level().rules, RulesVariant::HexPhases);
        // An impossible spec changes nothing and says why.
        let level = doc.level().clone();
        let depth = doc.undo_depth();
        let err = doc.apply(&Edit::Generate(GenerateSpec { units: 3, ..Default::default() }), cat).unwrap_err();
        assert!(err.contains("even"), "{err}");
        assert_eq!((doc.level().clone(), doc.undo_depth()), (level, depth));
    }
}
