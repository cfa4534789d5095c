//! Saving the level under another name and opening another level file, from inside the
//! editor: the File window (a path field with Save as and Open; Ctrl+Shift+S and Ctrl+O
//! bring it up). Saving as writes atomically, and the editor then lives at the new path:
//! the top bar and the window's title name it, the recovery file of unsaved edits sits
//! beside it and the watcher looks at it. Opening over unsaved edits asks first.

use super::Document;
use super::session::{EditorAction, EditorDoc};
use crate::game::Screen;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use std::path::PathBuf;

/// The File window: shown or not, the path typed, and a file waiting to be opened once
/// the designer says what to do with unsaved edits.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct FileMenu {
    pub shown: bool,
    pub path: String,
    pub confirm_open: Option<PathBuf>,
}

impl EditorDoc {
    /// Saves atomically to `path`, which becomes where the level lives (Ctrl+S saves
    /// there from now on). The recovery file of the old path goes: its edits are saved.
    pub fn save_as(&mut self, path: PathBuf) -> Result<PathBuf, String> {
        if path.as_os_str().is_empty() {
            return Err("type a file name to save to".into());
        }
        if self.path.as_ref().is_some_and(|own| super::session::same_file(own, &path)) {
            return self.save(); // its own file: as Ctrl+S (unchanged, the bytes stay)
        }
        // Saved as Ctrl+S saves, to the new path; nothing counts as saved there yet. The old
        // path's recovery file goes only once the edits are safe in the new file.
        let old_recovery = self.recovery_path();
        let (old_path, old_saved) = (self.path.replace(path), self.saved.take());
        match self.save() {
            Ok(path) => {
                let _ = std::fs::remove_file(old_recovery);
                Ok(path)
            }
            Err(e) => {
                (self.path, self.saved) = (old_path, old_saved);
                Err(e)
            }
        }
    }

    /// Opens the level in `path` in place of this one (unsaved edits are dropped: ask
    /// first). Recovered edits of that file are offered as when the editor starts on it.
    pub fn open(&mut self, path: PathBuf) -> Result<(), String> {
        let level = super::cli::read_level(&path)?;
        let mut fresh = EditorDoc::new(Document::new(level), Some(path.clone()));
        fresh.save_as = self.save_as.clone();
        if fresh.status.is_none() {
            fresh.status = Some(format!("opened {}", path.display()));
        }
        *self = fresh;
        Ok(())
    }
}

/// Carries out the File actions; the others are `session::run_actions`'.
pub fn run_file_action(action: &EditorAction, doc: &mut EditorDoc, menu: &mut FileMenu) {
    match action {
        EditorAction::ShowFile => {
            menu.shown = true;
            let here = doc.path.clone().unwrap_or_else(|| PathBuf::from(doc.save_as.trim()));
            menu.path = here.display().to_string();
        }
        EditorAction::SaveAs(path) => {
            doc.status = Some(match doc.save_as(path.clone()) {
                Ok(path) => {
                    menu.shown = false;
                    format!("saved as {}", path.display())
                }
                Err(e) => format!("not saved: {e}"),
            });
        }
        EditorAction::Open(path) if doc.dirty() => {
            menu.shown = true;
            menu.confirm_open = Some(path.clone());
        }
        EditorAction::Open(path) | EditorAction::OpenDiscarding(path) => {
            if matches!(action, EditorAction::OpenDiscarding(_)) {
                doc.discard_recovered(); // the edits given up do not come back on the next start
            }
            menu.confirm_open = None;
            match doc.open(path.clone()) {
                Ok(()) => menu.shown = false,
                Err(e) => doc.status = Some(format!("not opened: {e}")),
            }
        }
        _ => {}
    }
}

pub struct EditorFilePlugin;

impl Plugin for EditorFilePlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            EguiPrimaryContextPass,
            file_window.run_if(in_state(Screen::Editor).and_then(resource_exists::<EditorDoc>)),
        )
        .add_systems(Update, window_title.run_if(resource_exists::<EditorDoc>))
        .add_systems(OnExit(Screen::Editor), |mut windows: Query<&mut Window, With<PrimaryWindow>>| {
            for mut w in &mut windows {
                w.title = "Fivefoot".into();
            }
        });
    }
}

/// The window's title names the level's file (and `*` for unsaved edits).
fn window_title(doc: Res<EditorDoc>, screen: Res<State<Screen>>, mut windows: Query<&mut Window, With<PrimaryWindow>>) {
    if *screen.get() != Screen::Editor || !(doc.is_changed() || screen.is_changed()) {
        return;
    }
    let file = doc.path.as_ref().map_or("new level, not saved yet".to_string(), |p| p.display().to_string());
    let title = format!("Fivefoot editor: {file}{}", if doc.dirty() { " *" } else { "" });
    for mut w in &mut windows {
        if w.title != title {
            w.title = title.clone();
        }
    }
}

/// The File window: the path, Save as, Open, and the question over unsaved edits.
fn file_window(
    mut contexts: EguiContexts,
    mut menu: ResMut<FileMenu>,
    doc: Res<EditorDoc>,
    mut actions: MessageWriter<EditorAction>,
) -> Result {
    if !menu.shown {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let menu = &mut *menu;
    let mut open = true;
    // Below the top bar (its Undo, Redo and Save stay in reach), over the board.
    let below_bar = [super::board::EDITOR_PANELS[0] + 12.0, super::board::EDITOR_PANELS[2] + 12.0];
    let window = egui::Window::new("File").collapsible(false).resizable(false).default_pos(below_bar);
    window.open(&mut open).show(ctx, |ui| {
        ui.label(format!("Now: {}", doc.path.as_ref().map_or("(not saved yet)".into(), |p| p.display().to_string())));
        ui.horizontal(|ui| {
            ui.label("Path");
            ui.add(egui::TextEdit::singleline(&mut menu.path).desired_width(320.0));
        });
        let path = PathBuf::from(menu.path.trim());
        ui.horizontal(|ui| {
            if ui.button("Save as (Ctrl+Shift+S)").clicked() {
                actions.write(EditorAction::SaveAs(path.clone()));
            }
            if ui.button("Open (Ctrl+O)").clicked() {
                actions.write(EditorAction::Open(path.clone()));
            }
        });
        if let Some(waiting) = menu.confirm_open.clone() {
            ui.separator();
            ui.colored_label(egui::Color32::from_rgb(255, 200, 120), "This level has unsaved edits.");
            ui.horizontal(|ui| {
                if ui.button("Save them, then open").clicked() {
                    actions.write(EditorAction::Save);
                    actions.write(EditorAction::Open(waiting.clone()));
                }
                if ui.button("Discard them and open").clicked() {
                    actions.write(EditorAction::OpenDiscarding(waiting.clone()));
                }
                if ui.button("Cancel").clicked() {
                    menu.confirm_open = None;
                }
            });
        }
    });
    if !open {
        menu.shown = false;
        menu.confirm_open = None;
    }
    Ok(())
}
