//! Work is not lost to a crash: while a level has unsaved edits, the editor writes it every
//! 30 s to a recovery file beside it (`.NAME.ron.recovery`, which the menu does not list;
//! a new level's is `levels/.new-level.ron.recovery`), removed when the level is saved,
//! under whatever name. Opening the level again, or starting a new one, offers the
//! recovered edits back (restore or discard).

use super::session::EditorDoc;
use super::{Document, cli};
use crate::level::save_atomic;
use bevy::prelude::*;
use std::path::PathBuf;
use std::time::Duration;

/// How long unsaved edits wait before they are written to the recovery file.
pub const AUTOSAVE_EVERY: Duration = Duration::from_secs(30);

impl EditorDoc {
    /// Where this level's unsaved edits are kept: beside the file it saves to.
    pub fn recovery_path(&self) -> PathBuf {
        let path = self.path.clone().unwrap_or_else(|| PathBuf::from(self.save_as.trim()));
        let name = path.file_name().map_or("new-level.ron".into(), |n| n.to_string_lossy().into_owned());
        path.with_file_name(format!(".{name}.recovery"))
    }

    /// Writes the level as it stands to the recovery file.
    pub fn autosave(&mut self) -> Result<PathBuf, String> {
        let file = self.recovery_path();
        save_atomic(self.doc.level(), &file).map_err(|e| e.to_string())?;
        if let Some(old) = self.kept_at.replace(file.clone()).filter(|old| *old != file) {
            let _ = std::fs::remove_file(old); // the level is now to be saved elsewhere
        }
        Ok(file)
    }

    /// Notes a recovery file left by a session that ended with unsaved edits, if it holds a
    /// level different from the one opened, and says so.
    pub fn look_for_recovery(&mut self) {
        let file = self.recovery_path();
        if let Ok(level) = cli::read_level(&file)
            && level != *self.doc.level()
        {
            self.status = Some(format!("unsaved edits from an earlier session were found in {}", file.display()));
            self.recovered = Some(level);
        }
    }

    /// Takes the recovered edits up: the level as recovered, unsaved, with a fresh history.
    pub fn restore_recovered(&mut self) {
        if let Some(level) = self.recovered.take() {
            self.doc = Document::new(level);
            self.status = Some("recovered edits restored (not saved yet)".into());
        }
    }

    /// Throws the recovered edits away, file and all.
    pub fn discard_recovered(&mut self) {
        self.recovered = None;
        self.clear_recovery();
        self.status = None;
    }

    /// Removes the recovery file (the level was saved): the one for where it is saved now
    /// and the one last written, if that was elsewhere.
    pub fn clear_recovery(&mut self) {
        let _ = std::fs::remove_file(self.recovery_path());
        if let Some(old) = self.kept_at.take() {
            let _ = std::fs::remove_file(old);
        }
    }
}

/// Every 30 s of unsaved edits (and only when the level changed since the last time),
/// writes the recovery file.
pub fn autosave(time: Res<Time<Real>>, mut doc: ResMut<EditorDoc>, mut last: Local<Option<(Duration, Option<u64>)>>) {
    if !doc.dirty() {
        *last = None;
        return;
    }
    let now = time.elapsed();
    // The clock starts at the first unsaved edit; a level is known by its revision.
    let (since, written) = last.get_or_insert((now, None));
    if now.saturating_sub(*since) < AUTOSAVE_EVERY || *written == Some(doc.doc.revision()) {
        return;
    }
    let result = doc.autosave();
    match result {
        Ok(_) => *last = Some((now, Some(doc.doc.revision()))),
        Err(e) => doc.status = Some(format!("cannot keep a recovery copy: {e}")),
    }
}
