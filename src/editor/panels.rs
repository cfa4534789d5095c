//! The editor's egui panels: a top bar (file, undo, redo, save, play-test, menu, the last
//! message), the tools on the left (tool, brush size, terrain, symmetry, the unit palette
//! from the creature catalogue and the side to place on), and on the right the level's
//! properties (name, rules, house rules, death saves), its size, the play-test settings
//! (`playtest`) and the live list of problems. Every change to the level goes through an
//! `Edit`. The panels read the document through `ResMut` without writing it, so a frame
//! marks `EditorDoc` changed only when something in it did change (a click, a typed name,
//! an edit).

use super::board::{EDITOR_PANELS, EditorCamera};
use super::edit::size_of;
use super::session::{EditorAction, EditorDoc, Problems};
use super::tools::{EditorTools, Tool};
use super::{Anchor, Edit, Symmetry};
use crate::game::Screen;
use crate::grid::Terrain;
use crate::level::{Catalogue, DeathSaves, SideDef};
use crate::variants::RulesVariant;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub struct EditorPanelsPlugin;

impl Plugin for EditorPanelsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<PanelState>()
            .init_resource::<super::simulate::BalanceRun>()
            .add_systems(Update, super::simulate::poll_balance)
            .add_systems(
                EguiPrimaryContextPass,
                panels.run_if(in_state(Screen::Editor).and_then(resource_exists::<EditorDoc>)),
            );
    }
}

/// What the panels hold between frames: text being typed, the size to resize to.
#[derive(Resource, Default)]
struct PanelState {
    name: Option<String>,
    /// The selected unit's id as being typed.
    unit_id: Option<String>,
    /// The side to rename, and its new name as typed.
    rename_side: (String, String),
    new_side: String,
    /// The map's size when the new size was typed, and the new size.
    size: Option<((i32, i32), (i32, i32))>,
    anchor: Anchor,
}

/// The document as the panels hold it: reading it leaves it unmarked; only writing (an
/// edit, a click that changes it) marks it changed for the systems that watch it.
type Doc<'w> = Mut<'w, EditorDoc>;

fn colour32(c: Color) -> egui::Color32 {
    let s = c.to_srgba();
    egui::Color32::from_rgb((s.red * 255.0) as u8, (s.green * 255.0) as u8, (s.blue * 255.0) as u8)
}

fn terrain_colour(t: Terrain) -> egui::Color32 {
    match t {
        Terrain::Floor => egui::Color32::from_rgb(107, 120, 97),
        Terrain::Wall => egui::Color32::from_rgb(87, 77, 71),
        Terrain::Difficult => egui::Color32::from_rgb(140, 115, 71),
        Terrain::LowWall => egui::Color32::from_rgb(158, 153, 140),
    }
}

fn panels(
    mut contexts: EguiContexts,
    doc: ResMut<EditorDoc>,
    mut tools: ResMut<EditorTools>,
    mut state: ResMut<PanelState>,
    problems: Res<Problems>,
    mut cam: ResMut<EditorCamera>,
    mut layers: ResMut<super::overlay::EditorLayers>,
    mut actions: MessageWriter<EditorAction>,
    mut balance: ResMut<super::simulate::BalanceRun>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut doc: Doc = doc.into();
    let mut root = egui::Ui::new(
        ctx.clone(),
        "editor".into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()),
    );
    let [_, _, top, bottom] = EDITOR_PANELS;
    if doc.recovered.is_some() {
        egui::Window::new("Unsaved edits found")
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .show(ctx, |ui| {
                ui.label("A session that ended without saving left edits to this level.");
                ui.horizontal(|ui| {
                    if ui.button("Restore them").clicked() {
                        doc.restore_recovered();
                    }
                    if ui.button("Discard them").clicked() {
                        doc.discard_recovered();
                    }
                });
            });
    }
    super::watch::disk_changed_window(ctx, &mut doc);
    egui::Panel::top("editor-top").exact_size(top).show(&mut root, |ui| {
        ui.horizontal_centered(|ui| {
            top_bar(ui, &mut doc, &mut actions);
            ui.separator();
            ui.label("Rules:");
            ui.toggle_value(&mut layers.threat, "Threat").on_hover_text("every square the units threaten, by how many");
            ui.toggle_value(&mut layers.reach, "Reach")
                .on_hover_text("the squares the unit under the pointer threatens");
            super::layers::layer_toggles(ui, &mut layers);
        });
    });
    // The last word (saved, refused…) has a line of its own, so it is never cut off.
    egui::Panel::bottom("editor-status").exact_size(bottom).show(&mut root, |ui| {
        ui.horizontal_centered(|ui| match &doc.status {
            Some(s) => ui
                .add(egui::Label::new(egui::RichText::new(s).color(egui::Color32::from_rgb(255, 200, 120))).truncate()),
            None => ui.weak("ready"),
        });
    });
    egui::Panel::left("editor-tools").exact_size(super::board::PANEL_EDGES.0[0]).show(&mut root, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| {
            tool_panel(ui, &mut doc, &mut tools, &mut state);
            clip_panel(ui, &tools, &mut actions);
        });
    });
    egui::Panel::right("editor-level").exact_size(super::board::PANEL_EDGES.0[1]).show(&mut root, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| {
            level_panel(ui, &mut doc, &mut tools, &mut state);
            ui.separator();
            sides_panel(ui, &mut doc, &mut tools, &mut state);
            ui.separator();
            problem_panel(ui, &problems, &mut tools, &mut cam);
            ui.separator();
            let (rules, seed) = (tools.playtest_rules, tools.playtest_seed);
            super::simulate::simulate_panel(ui, &mut balance, &doc, &problems, rules, seed);
        });
    });
    Ok(())
}

fn top_bar(ui: &mut egui::Ui, doc: &mut Doc, actions: &mut MessageWriter<EditorAction>) {
    // Short labels, their keys on hover, so the bar fits 1280 px with the rules layers.
    ui.strong("Level editor");
    let star = if doc.dirty() { " *" } else { "" };
    match doc.path.as_ref() {
        Some(p) => {
            let name = p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned());
            ui.label(format!("{name}{star}")).on_hover_text(p.display().to_string());
        }
        None => {
            ui.label(format!("(not saved yet){star}"));
        }
    }
    ui.separator();
    if ui.add_enabled(doc.doc.can_undo(), egui::Button::new("Undo")).on_hover_text("Ctrl+Z").clicked() {
        actions.write(EditorAction::Undo);
    }
    if ui.add_enabled(doc.doc.can_redo(), egui::Button::new("Redo")).on_hover_text("Ctrl+Y").clicked() {
        actions.write(EditorAction::Redo);
    }
    if ui.button("Save").on_hover_text("Ctrl+S").clicked() {
        actions.write(EditorAction::Save);
    }
    if doc.path.is_none() {
        let mut typed = doc.save_as.clone();
        let field = egui::TextEdit::singleline(&mut typed).desired_width(130.0);
        if ui.add(field).on_hover_text("the file Save writes").changed() {
            doc.save_as = typed;
        }
    }
    if ui.button("File…").on_hover_text("save as another file, or open one (Ctrl+Shift+S, Ctrl+O)").clicked() {
        actions.write(EditorAction::ShowFile);
    }
    super::generate::open_button(ui);
    if ui.button("Play-test").on_hover_text("F5").clicked() {
        actions.write(EditorAction::PlayTest);
    }
    if ui.button("Menu").clicked() {
        actions.write(EditorAction::Menu);
    }
}

fn tool_panel(ui: &mut egui::Ui, doc: &mut Doc, tools: &mut EditorTools, state: &mut PanelState) {
    ui.heading("Tools");
    ui.horizontal_wrapped(|ui| {
        for t in Tool::ALL {
            if ui.selectable_label(tools.tool == t, t.label()).clicked() {
                tools.tool = t;
            }
        }
    });
    ui.horizontal(|ui| {
        ui.label("Brush size");
        for n in [1, 3, 5] {
            if ui.selectable_label(tools.brush == n, n.to_string()).clicked() {
                tools.brush = n;
            }
        }
    });
    ui.separator();
    ui.strong("Terrain");
    for t in Terrain::ALL {
        ui.horizontal(|ui| {
            ui.colored_label(terrain_colour(t), "##");
            if ui.selectable_label(tools.terrain == t, format!("{} '{}'", t.name(), t.to_char())).clicked() {
                tools.terrain = t;
                if matches!(tools.tool, Tool::Units | Tool::Eraser | Tool::Eyedropper) {
                    tools.tool = Tool::Brush;
                }
            }
        });
    }
    ui.separator();
    ui.horizontal(|ui| {
        ui.strong("Symmetry");
        let (now, hex) = (doc.doc.symmetry(), doc.doc.level().rules.shape() == crate::grid::Shape::Hex);
        let text = if hex && !now.is_none() { format!("{} (hex-exact)", now.label()) } else { now.label().into() };
        egui::ComboBox::from_id_salt("symmetry").selected_text(text).show_ui(ui, |ui| {
            for s in [Symmetry::None, Symmetry::LeftRight, Symmetry::TopBottom, Symmetry::Point] {
                if ui.selectable_label(now == s, s.label()).clicked() && s != now {
                    doc.apply(&Edit::SetSymmetry(s));
                }
            }
        });
    });
    ui.separator();
    ui.strong("Units (click to place, drag to move, right-click or Delete to remove)");
    let cat = Catalogue::builtin_ref();
    egui::Grid::new("palette").striped(true).show(ui, |ui| {
        ui.label("creature");
        ui.label("size");
        ui.label("speed");
        ui.label("reach");
        ui.end_row();
        for (id, c) in &cat.creatures {
            let picked = tools.tool == Tool::Units && &tools.creature == id;
            if ui.selectable_label(picked, c.name.as_str()).on_hover_text(id.as_str()).clicked() {
                tools.creature = id.clone();
                tools.tool = Tool::Units;
            }
            ui.label(format!("{:?}", c.size));
            ui.label(format!("{} ft", c.speed_ft));
            ui.label(format!("{} ft", c.natural_reach_ft(c.size)));
            ui.end_row();
        }
    });
    ui.horizontal_wrapped(|ui| {
        ui.label("Side:");
        for s in sides_of(doc.doc.level(), &tools.side) {
            let text =
                egui::RichText::new(s.as_str()).color(colour32(crate::view::colour_of(&doc.doc.level().sides, &s)));
            if ui.radio(tools.side == s, text).clicked() {
                tools.side = s;
            }
        }
    });
    ui.horizontal(|ui| {
        ui.add(egui::TextEdit::singleline(&mut state.new_side).hint_text("new side").desired_width(90.0));
        if ui.button("Add side").clicked() && !state.new_side.trim().is_empty() {
            tools.side = state.new_side.trim().to_string();
            state.new_side.clear();
        }
    });
    if let Some(u) = tools.selected.as_ref().and_then(|id| doc.doc.level().units.iter().find(|u| &u.id == id)) {
        ui.separator();
        let u = u.clone();
        let sides = sides_of(doc.doc.level(), &tools.side);
        if let Some(renamed) = selected_unit(ui, doc, &u, &sides, &mut state.unit_id) {
            tools.selected = Some(renamed);
        }
    }
}

/// The selection and the clip: copy, cut, paste, turn, mirror.
fn clip_panel(ui: &mut egui::Ui, tools: &EditorTools, actions: &mut MessageWriter<EditorAction>) {
    ui.separator();
    let sel = tools.selection.map(|(a, b)| super::clipboard::corners(a, b));
    ui.label(match sel {
        Some(((x0, y0), (x1, y1))) => format!("Selection: {}x{} at ({x0}, {y0})", x1 - x0 + 1, y1 - y0 + 1),
        None => "Selection: none (drag with Select)".into(),
    });
    ui.horizontal_wrapped(|ui| {
        let buttons = [
            ("Copy (Ctrl+C)", EditorAction::Copy, sel.is_some()),
            ("Cut (Ctrl+X)", EditorAction::Cut, sel.is_some()),
            ("Paste (Ctrl+V)", EditorAction::Paste, tools.clip.is_some()),
            ("Rotate (R)", EditorAction::RotateClip, tools.clip.is_some()),
            ("Flip (F)", EditorAction::FlipClip, tools.clip.is_some()),
        ];
        for (label, action, enabled) in buttons {
            if ui.add_enabled(enabled, egui::Button::new(label)).clicked() {
                actions.write(action);
            }
        }
    });
    if let Some(c) = &tools.clip {
        ui.label(format!("Clip: {}x{}, {} units", c.width, c.height, c.units.len()));
    }
}

/// The sides to choose from: blue and red, every side with units, and `extra`.
fn sides_of(level: &crate::level::LevelDef, extra: &str) -> Vec<String> {
    let mut sides: Vec<String> = vec!["blue".into(), "red".into()];
    for s in level.units.iter().map(|u| u.side.as_str()).chain([extra]) {
        if !sides.iter().any(|k| k == s) {
            sides.push(s.to_string());
        }
    }
    sides
}

/// The selected unit: its id, creature, side and weapon can be changed (one edit each).
/// Returns its new id when it was renamed.
fn selected_unit(
    ui: &mut egui::Ui,
    doc: &mut Doc,
    u: &crate::level::UnitDef,
    sides: &[String],
    typed_id: &mut Option<String>,
) -> Option<String> {
    let cat = Catalogue::builtin_ref();
    // Remove on the heading's line: the panel's foot may be below the window's.
    let remove = ui
        .horizontal_wrapped(|ui| {
            ui.strong(format!("Selected: {} at ({}, {}), {:?}", u.id, u.at.0, u.at.1, size_of(u, cat)));
            ui.button("Remove (Delete)").clicked()
        })
        .inner;
    let (mut creature, mut side, mut weapon) = (u.creature.clone(), u.side.clone(), u.weapon.clone());
    let mut renamed = None;
    egui::Grid::new("selected").show(ui, |ui| {
        ui.label("id");
        let typed = typed_id.get_or_insert_with(|| u.id.clone());
        let r = ui.add(egui::TextEdit::singleline(typed).desired_width(140.0));
        if r.lost_focus() && *typed != u.id {
            let to = typed.clone();
            if doc.apply(&Edit::RenameUnit { id: u.id.clone(), to: to.clone() }) {
                renamed = Some(to);
            }
        }
        if !r.has_focus() {
            *typed_id = None;
        }
        ui.end_row();
        ui.label("creature");
        egui::ComboBox::from_id_salt("sel-creature").selected_text(creature.as_str()).show_ui(ui, |ui| {
            for id in cat.creatures.keys() {
                ui.selectable_value(&mut creature, id.clone(), id.as_str());
            }
        });
        ui.end_row();
        ui.label("side");
        egui::ComboBox::from_id_salt("sel-side").selected_text(side.as_str()).show_ui(ui, |ui| {
            for s in sides {
                ui.selectable_value(&mut side, s.clone(), s.as_str());
            }
        });
        ui.end_row();
        ui.label("weapon");
        let own = cat.creature(&creature).map_or(String::new(), |c| c.weapon.clone());
        let shown = weapon.clone().unwrap_or_else(|| format!("{own} (its own)"));
        egui::ComboBox::from_id_salt("sel-weapon").selected_text(shown).show_ui(ui, |ui| {
            ui.selectable_value(&mut weapon, None, format!("{own} (its own)"));
            for id in cat.weapons.keys() {
                ui.selectable_value(&mut weapon, Some(id.clone()), id.as_str());
            }
        });
        ui.end_row();
    });
    if (&creature, &side, &weapon) != (&u.creature, &u.side, &u.weapon) {
        doc.apply(&Edit::ChangeUnit { id: u.id.clone(), creature, side, weapon });
    }
    if remove {
        doc.apply(&Edit::RemoveUnit { id: u.id.clone() });
    }
    renamed
}

/// The sides with units, how many each has, and renaming one.
fn sides_panel(ui: &mut egui::Ui, doc: &mut Doc, tools: &mut EditorTools, state: &mut PanelState) {
    ui.strong("Sides");
    let mut sides: Vec<(String, usize)> = vec![];
    for u in &doc.doc.level().units {
        match sides.iter_mut().find(|(s, _)| *s == u.side) {
            Some((_, n)) => *n += 1,
            None => sides.push((u.side.clone(), 1)),
        }
    }
    for (s, n) in &sides {
        side_row(ui, doc, s, *n);
    }
    if sides.is_empty() {
        return;
    }
    let (from, to) = &mut state.rename_side;
    if !sides.iter().any(|(s, _)| s == from) {
        *from = sides[0].0.clone();
    }
    ui.horizontal(|ui| {
        egui::ComboBox::from_id_salt("rename-side").selected_text(from.as_str()).width(70.0).show_ui(ui, |ui| {
            for (s, _) in &sides {
                ui.selectable_value(from, s.clone(), s.as_str());
            }
        });
        ui.add(egui::TextEdit::singleline(to).hint_text("new name").desired_width(80.0));
        if ui.add_enabled(!to.trim().is_empty(), egui::Button::new("Rename")).clicked() {
            let new = to.trim().to_string();
            if doc.apply(&Edit::RenameSide { from: from.clone(), to: new.clone() }) {
                for s in [&mut tools.side].into_iter().chain(tools.playtest_side.as_mut()) {
                    if s == from {
                        *s = new.clone();
                    }
                }
                to.clear();
            }
        }
    });
}

/// Colours a side can take with one click (and one undo step).
const SIDE_SWATCHES: [(u8, u8, u8); 8] = [
    (56, 115, 217),
    (204, 56, 51),
    (64, 166, 77),
    (217, 179, 38),
    (140, 80, 200),
    (230, 130, 40),
    (40, 170, 180),
    (200, 200, 200),
];

/// One side: its name and units in its colour, swatches to recolour it (the last puts back
/// the colour from its name), whether a person plays it by default, and its AI.
fn side_row(ui: &mut egui::Ui, doc: &mut Doc, side: &str, units: usize) {
    let level = &doc.doc.level();
    let def = level.side(side).cloned().unwrap_or(SideDef { name: side.to_string(), ..SideDef::default() });
    let colour = colour32(crate::view::colour_of(&level.sides, side));
    let mut change = None;
    ui.horizontal_wrapped(|ui| {
        ui.colored_label(colour, format!("{side}: {units}"));
        for (r, g, b) in SIDE_SWATCHES {
            let swatch = egui::Button::new("  ").fill(egui::Color32::from_rgb(r, g, b)).small();
            if ui.add(swatch).on_hover_text("colour the side").clicked() {
                change = Some(SideDef { colour: Some((r, g, b)), ..def.clone() });
            }
        }
        if ui.small_button("auto").on_hover_text("the colour from its name").clicked() {
            change = Some(SideDef { colour: None, ..def.clone() });
        }
        let mut person = def.person;
        if ui
            .checkbox(&mut person, "a person plays it")
            .on_hover_text("by default, in the skirmish menu and `fivefoot play`")
            .changed()
        {
            change = Some(SideDef { person, ..def.clone() });
        }
        if let Some(ai) = playtest::side_ai_picker(ui, side, def.ai) {
            change = Some(SideDef { ai, ..def.clone() });
        }
    });
    if let Some(side) = change {
        doc.apply(&Edit::SetSide(side));
    }
}

fn level_panel(ui: &mut egui::Ui, doc: &mut Doc, tools: &mut EditorTools, state: &mut PanelState) {
    ui.heading("Level");
    // What the panel shows of the level, taken once (not the whole level, every frame).
    let level = &doc.doc.level();
    let (name, rules, death_saves) = (level.name.clone(), level.rules, level.death_saves);
    let mut house_rules = level.house_rules.clone();
    let (w, h) = (level.map.rows.first().map_or(0, |r| r.chars().count()) as i32, level.map.rows.len() as i32);
    let mut sides: Vec<String> = vec![];
    for u in &level.units {
        if !sides.contains(&u.side) {
            sides.push(u.side.clone());
        }
    }
    ui.horizontal(|ui| {
        ui.label("Name");
        let typed = state.name.get_or_insert_with(|| name.clone());
        let r = ui.add(egui::TextEdit::singleline(typed).desired_width(180.0));
        // One undo step per finished name, not per letter.
        if r.lost_focus() && *typed != name {
            let n = typed.clone();
            doc.apply(&Edit::SetName(n));
        }
        if !r.has_focus() {
            state.name = None;
        }
    });
    ui.horizontal(|ui| {
        ui.label("Rules");
        egui::ComboBox::from_id_salt("level-rules").selected_text(rules.id()).show_ui(ui, |ui| {
            for v in RulesVariant::ALL {
                if ui.selectable_label(rules == v, v.entry()).clicked() && v != rules {
                    doc.apply(&Edit::SetRules(v));
                }
            }
        });
    });
    if crate::game::screens::house_rule_checkboxes(ui, rules, &mut house_rules) {
        doc.apply(&Edit::SetHouseRules(house_rules));
    }
    ui.horizontal(|ui| {
        ui.label("Death saves");
        let label = |d: Option<DeathSaves>| d.map_or("default (stats-matter)".to_string(), String::from);
        egui::ComboBox::from_id_salt("death-saves").selected_text(label(death_saves)).show_ui(ui, |ui| {
            let options =
                [None, Some(DeathSaves::AllAreEqual), Some(DeathSaves::StatsMatter), Some(DeathSaves::Brutality)];
            for d in options {
                if ui.selectable_label(death_saves == d, label(d)).clicked() && d != death_saves {
                    doc.apply(&Edit::SetDeathSaves(d));
                }
            }
        });
    });
    // The size typed, until the map's own size changes (a resize, an undo).
    if state.size.is_some_and(|(was, _)| was != (w, h)) {
        state.size = None;
    }
    let mut size = state.size.map_or((w, h), |(_, s)| s);
    ui.horizontal(|ui| {
        ui.label(format!("Size {w}x{h} ->"));
        ui.add(egui::DragValue::new(&mut size.0).range(1..=super::edit::MAX_SIDE));
        ui.label("x");
        ui.add(egui::DragValue::new(&mut size.1).range(1..=super::edit::MAX_SIDE));
    });
    state.size = Some(((w, h), size));
    ui.horizontal(|ui| {
        ui.label("keep");
        egui::ComboBox::from_id_salt("anchor").selected_text(format!("{:?}", state.anchor)).show_ui(ui, |ui| {
            use Anchor::*;
            for a in [TopLeft, Top, TopRight, Left, Centre, Right, BottomLeft, Bottom, BottomRight] {
                ui.selectable_value(&mut state.anchor, a, format!("{a:?}"));
            }
        });
        let (nw, nh) = size;
        if ui.add_enabled((nw, nh) != (w, h), egui::Button::new("Resize")).clicked() {
            let anchor = state.anchor;
            if doc.apply(&Edit::Resize { width: nw, height: nh, anchor }) {
                doc.status = None;
            }
            state.size = None;
        }
    });
    ui.separator();
    playtest::settings(ui, tools, sides, rules);
}

fn problem_panel(ui: &mut egui::Ui, problems: &Problems, tools: &mut EditorTools, cam: &mut EditorCamera) {
    let errors = super::check::errors(&problems.0).count();
    let warnings = problems.0.len() - errors;
    if errors == 0 {
        ui.colored_label(egui::Color32::from_rgb(140, 220, 140), "No problems: ready to play.");
    } else {
        ui.colored_label(egui::Color32::from_rgb(255, 130, 110), format!("Problems ({errors})"));
    }
    if warnings > 0 {
        ui.colored_label(egui::Color32::from_rgb(255, 190, 90), format!("Warnings ({warnings}): it plays, but"));
    }
    if problems.0.is_empty() {
        return;
    }
    ui.label(egui::RichText::new("the level still saves; click one to find it").weak());
    for p in &problems.0 {
        let text = if p.warning { format!("- warning: {}", p.message) } else { format!("- {}", p.message) };
        let r = ui.add(egui::Label::new(egui::RichText::new(text)).sense(egui::Sense::click()));
        if r.clicked() {
            if let Some(at) = p.at {
                cam.centre_on = Some(at);
            }
            if let Some(u) = &p.unit {
                tools.selected = Some(u.clone());
            }
        }
    }
}

mod playtest;
#[cfg(test)]
mod tests;
