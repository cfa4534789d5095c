//! The file being edited, watched for changes made on disk by someone else (another editor,
//! a script, a version-control checkout): with no unsaved edits the new version is loaded;
//! with unsaved edits the designer chooses between it and their own.

use super::edit::Document;
use super::session::EditorDoc;
use bevy::prelude::*;
use bevy_egui::egui;

/// What a look at the file found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiskChange {
    /// The file holds what was last read or written (or cannot be read just now).
    None,
    /// It changed and there were no unsaved edits: the new version is loaded.
    Reloaded,
    /// It changed under unsaved edits: the new version waits in `disk_changed`.
    Asking,
}

impl EditorDoc {
    /// Reads the file and compares it with what it held when last read or written.
    pub fn check_disk(&mut self) -> DiskChange {
        let Some(path) = self.path.clone() else { return DiskChange::None };
        // A file half-written or briefly missing is looked at again next time.
        let Ok(level) = super::cli::read_level(&path) else { return DiskChange::None };
        if self.on_disk.as_ref() == Some(&level) || self.disk_changed.as_ref() == Some(&level) {
            return DiskChange::None;
        }
        if self.dirty() {
            self.disk_changed = Some(level);
            return DiskChange::Asking;
        }
        self.load_from_disk(level);
        self.status = Some(format!("{} changed on disk: loaded", path.display()));
        DiskChange::Reloaded
    }

    /// Takes the version on disk, dropping unsaved edits (the undo history starts again).
    pub fn load_from_disk(&mut self, level: crate::level::LevelDef) {
        self.doc = Document::new(level);
        self.mark_saved();
        self.disk_changed = None;
    }

    /// Keeps the designer's edits; the version on disk is not offered again until it
    /// changes once more (saving will overwrite it).
    pub fn keep_own(&mut self) {
        self.on_disk = self.disk_changed.take().or(self.on_disk.take());
    }
}

/// Looks at the file once a second.
pub fn watch_file(mut doc: ResMut<EditorDoc>, time: Res<Time>, mut since: Local<f32>) {
    *since += time.delta_secs();
    if *since < 1.0 {
        return;
    }
    *since = 0.0;
    if doc.bypass_change_detection().check_disk() != DiskChange::None {
        doc.set_changed();
    }
}

/// The question, while a newer version on disk waits. The document is marked changed only
/// when the designer answers.
pub fn disk_changed_window(ctx: &egui::Context, doc: &mut Mut<EditorDoc>) {
    if doc.disk_changed.is_none() {
        return;
    }
    egui::Window::new("The file changed on disk")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.label("Someone changed this level's file while you have unsaved edits.");
            ui.horizontal(|ui| {
                if ui.button("Load the file (lose my edits)").clicked()
                    && let Some(level) = doc.disk_changed.clone()
                {
                    doc.load_from_disk(level);
                }
                if ui.button("Keep my edits").clicked() {
                    doc.keep_own();
                }
            });
        });
}
