//! The editor screen's state in the ECS, headless: the document being edited (with where it
//! saves), the editor's actions (undo, redo, save, delete, play-test) from keys and
//! buttons, and the trip to the skirmish and back for a play-test. Drawing and panels live
//! in `board` and `panels`; this part runs in tests without a window.

use super::check::{self, Problem};
use super::clipboard;
use super::tools::{self, EditorTools, Gesture};
use super::{Document, Edit};
use crate::game::{GameSetup, MenuNotice, PlayTest, Screen};
use crate::input::{GameAction, Presses};
use crate::level::{Catalogue, LevelDef, save_atomic};
use bevy::prelude::*;
use std::path::PathBuf;

/// The level being edited: the document with its undo history, where Ctrl+S writes it and
/// what was last written there. It outlives a play-test.
#[derive(Resource, Clone, Debug)]
pub struct EditorDoc {
    pub doc: Document,
    /// Where Ctrl+S saves (`None`: a new level not saved yet; see `save_as`).
    pub path: Option<PathBuf>,
    /// The level as last opened or saved, and its revision in `doc`, to tell unsaved
    /// changes (`dirty`).
    pub(super) saved: Option<(LevelDef, u64)>,
    /// `dirty`'s last answer where the revisions alone do not tell.
    dirty_memo: DirtyMemo,
    /// The file name typed for a level with no file yet.
    pub save_as: String,
    /// The last thing to tell the designer (saved, refused, …).
    pub status: Option<String>,
    /// Unsaved edits found in a recovery file, offered back (`recovery`).
    pub recovered: Option<LevelDef>,
    /// The recovery file last written, wherever the level was to be saved then (the name
    /// typed for a new level may change before it is saved).
    pub(super) kept_at: Option<PathBuf>,
    /// What the file held when last read or written (`watch`).
    pub on_disk: Option<LevelDef>,
    /// A newer version of the file, changed on disk under unsaved edits, waiting for the
    /// designer to load it or keep their own (`watch`).
    pub disk_changed: Option<LevelDef>,
}

impl EditorDoc {
    pub fn new(doc: Document, path: Option<PathBuf>) -> EditorDoc {
        let saved = path.as_ref().map(|_| (doc.level().clone(), doc.revision()));
        let mut ed = EditorDoc {
            on_disk: saved.as_ref().map(|(level, _)| level.clone()),
            doc,
            path,
            saved,
            dirty_memo: DirtyMemo::default(),
            save_as: "levels/new-level.ron".into(),
            status: None,
            recovered: None,
            kept_at: None,
            disk_changed: None,
        };
        // A file's own recovery file, or a new level's (`levels/.new-level.ron.recovery`).
        ed.look_for_recovery();
        ed
    }

    /// Unsaved changes: the level is not the one last opened or saved. The revisions tell
    /// at once when it is; otherwise the levels are compared, once per revision (a level
    /// edited back by other steps to what was saved is clean).
    pub fn dirty(&self) -> bool {
        let Some((saved, at)) = &self.saved else { return true };
        let now = self.doc.revision();
        if now == *at {
            return false;
        }
        let mut memo = self.dirty_memo.0.lock().unwrap_or_else(|e| e.into_inner());
        match *memo {
            Some((n, a, dirty)) if (n, a) == (now, *at) => dirty,
            _ => {
                let dirty = saved != self.doc.level();
                *memo = Some((now, *at, dirty));
                dirty
            }
        }
    }

    /// Notes the level as it stands as saved (written, or read from its file).
    pub(super) fn mark_saved(&mut self) {
        self.saved = Some((self.doc.level().clone(), self.doc.revision()));
        self.on_disk = Some(self.doc.level().clone());
    }

    /// Applies an edit, noting a refusal in the status line instead of failing.
    pub fn apply(&mut self, edit: &Edit) -> bool {
        match self.doc.apply(edit, Catalogue::builtin_ref()) {
            Ok(()) => true,
            Err(why) => {
                self.status = Some(why);
                false
            }
        }
    }

    /// Saves atomically where the level lives (or to the typed name); always allowed,
    /// problems and all. A level saved unchanged to its own file leaves the file as it is,
    /// byte for byte (comments and layout kept).
    pub fn save(&mut self) -> Result<PathBuf, String> {
        let path = self.path.clone().unwrap_or_else(|| PathBuf::from(self.save_as.trim()));
        if path.as_os_str().is_empty() {
            return Err("type a file name to save to".into());
        }
        if !self.dirty() && self.path.as_ref() == Some(&path) && path.exists() {
            self.clear_recovery();
            self.recovered = None;
            return Ok(path);
        }
        // A new folder for the level is made, but only inside one that is there: a mistyped
        // path does not grow a tree of folders.
        let mut made = None;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty() && !d.is_dir()) {
            let above = dir.parent().filter(|up| !up.as_os_str().is_empty());
            if let Some(up) = above.filter(|up| !up.is_dir()) {
                return Err(format!("{}: no such folder (save into a folder that exists)", up.display()));
            }
            std::fs::create_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            made = Some(dir.to_path_buf());
        }
        if let Err(e) = save_atomic(self.doc.level(), &path) {
            if let Some(dir) = made {
                let _ = std::fs::remove_dir(dir); // the folder made for it, empty again
            }
            return Err(e.to_string());
        }
        self.mark_saved();
        self.disk_changed = None;
        self.path = Some(path.clone());
        self.clear_recovery();
        self.recovered = None;
        Ok(path)
    }
}

/// `EditorDoc::dirty`'s answer for (revision, saved revision), shared by readers of the
/// resource (hence the lock).
#[derive(Debug, Default)]
struct DirtyMemo(std::sync::Mutex<Option<(u64, u64, bool)>>);

impl Clone for DirtyMemo {
    fn clone(&self) -> DirtyMemo {
        DirtyMemo(std::sync::Mutex::new(*self.0.lock().unwrap_or_else(|e| e.into_inner())))
    }
}

/// Asks the editor to open this level file when it next comes up (the title menu's entry).
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct OpenInEditor(pub PathBuf);

/// What the designer asked for, by key or by button.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum EditorAction {
    Undo,
    Redo,
    Save,
    /// Remove the selected unit.
    DeleteSelected,
    /// Play the level as it stands.
    PlayTest,
    /// Back to the title menu (the document is kept).
    Menu,
    /// Copy the selection into the clip.
    Copy,
    /// Copy the selection, then clear it (units removed, floor painted).
    Cut,
    /// Take up the paste tool with the clip.
    Paste,
    /// Turn the clip a quarter clockwise.
    RotateClip,
    /// Mirror the clip left to right.
    FlipClip,
    /// Bring up the File window (save as, open).
    ShowFile,
    /// Save to this file, which becomes the level's (`file`).
    SaveAs(PathBuf),
    /// Open this level file; with unsaved edits, ask first.
    Open(PathBuf),
    /// Open this level file, dropping unsaved edits.
    OpenDiscarding(PathBuf),
}

/// The problems of the level as it stands, recomputed when it changes.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Problems(pub Vec<Problem>);

/// The editor's input and edits run in this set; drawing follows it.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EditorSet;

/// The editor's state and input, without drawing.
pub struct EditorPlugin;

impl Plugin for EditorPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<EditorTools>()
            .init_resource::<Gesture>()
            .init_resource::<Problems>()
            .init_resource::<super::file::FileMenu>()
            .init_resource::<crate::control::plugin::Pointer>()
            .add_message::<EditorAction>()
            .add_systems(OnEnter(Screen::Editor), enter_editor)
            .add_systems(
                OnExit(Screen::Editor),
                |doc: Option<ResMut<EditorDoc>>, edited: Option<ResMut<crate::game::EditedLevels>>| {
                    if let Some(mut d) = doc {
                        d.doc.end_group();
                        // The menu selects it, and lists it even if it lives outside levels/.
                        if let (Some(path), Some(mut edited)) = (d.path.clone(), edited) {
                            edited.note(path);
                        }
                    }
                },
            )
            .add_systems(
                Update,
                (
                    editor_keys,
                    tools::gestures,
                    run_actions,
                    refresh_problems,
                    super::recovery::autosave,
                    super::watch::watch_file,
                )
                    .chain()
                    .in_set(EditorSet)
                    // The square under the pointer as of this frame, not the last.
                    .after(crate::view::camera::track_pointer)
                    .run_if(in_state(Screen::Editor).and_then(resource_exists::<EditorDoc>)),
            );
    }
}

/// Opens what was asked for (a file from the menu), or keeps the document as it was (back
/// from a play-test), or starts a blank map.
fn enter_editor(
    mut commands: Commands,
    open: Option<Res<OpenInEditor>>,
    doc: Option<Res<EditorDoc>>,
    playtest: Option<Res<PlayTest>>,
    mut next: ResMut<NextState<Screen>>,
) {
    if let Some(p) = playtest {
        let _ = std::fs::remove_file(&p.file);
        commands.remove_resource::<PlayTest>();
    }
    if let Some(open) = open {
        commands.remove_resource::<OpenInEditor>();
        // The level already being edited comes back as it was, unsaved changes and history.
        if doc.as_ref().is_some_and(|d| d.path.as_ref().is_some_and(|p| same_file(p, &open.0))) {
            return;
        }
        match super::cli::read_level(&open.0) {
            Ok(level) => {
                let mut fresh = EditorDoc::new(Document::new(level), Some(open.0.clone()));
                if let Some(old) = doc.filter(|d| d.dirty()) {
                    fresh.status = Some(keep_unsaved(&old));
                }
                commands.insert_resource(fresh);
            }
            Err(e) => {
                commands.insert_resource(MenuNotice(Some(format!("cannot edit: {e}"))));
                next.set(Screen::Menu);
            }
        }
        return;
    }
    if doc.is_none() {
        let blank = Document::blank(24, 16, false).expect("24x16 is a valid size");
        commands.insert_resource(EditorDoc::new(blank, None));
    }
}

pub(super) fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// Where the unsaved changes of a level the editor is leaving for another go: a recovery
/// file in the temporary folder, named after the level. Returns what to tell the designer.
pub fn keep_unsaved(old: &EditorDoc) -> String {
    let stem =
        old.path.as_ref().and_then(|p| p.file_stem()).map_or("new-level".into(), |s| s.to_string_lossy().into_owned());
    let file = std::env::temp_dir().join(format!("fivefoot-unsaved-{stem}.ron"));
    match save_atomic(old.doc.level(), &file) {
        Ok(()) => format!("the unsaved changes to {stem} were kept in {}", file.display()),
        Err(e) => format!("the unsaved changes to {stem} could not be kept: {e}"),
    }
}

/// The editor's bound actions (`assets/bindings.ron`, rebindable like play's): by default
/// Ctrl+Z undo, Ctrl+Y or Ctrl+Shift+Z redo, Ctrl+S save, Ctrl+Shift+S or Ctrl+O the File
/// window (save as, open), Delete removes the selected unit, F5 play-tests, Ctrl+C / Ctrl+X
/// / Ctrl+V copy, cut and paste, R and F turn and mirror the clip. Not while a text field has
/// the keyboard (no key counts as a press then: `input::TextFocus`).
fn editor_keys(presses: Res<Presses>, mut actions: MessageWriter<EditorAction>) {
    let bound = [
        (GameAction::Undo, EditorAction::Undo),
        (GameAction::Redo, EditorAction::Redo),
        (GameAction::Save, EditorAction::Save),
        (GameAction::FileWindow, EditorAction::ShowFile),
        (GameAction::DeleteSelected, EditorAction::DeleteSelected),
        (GameAction::PlayTest, EditorAction::PlayTest),
        (GameAction::Copy, EditorAction::Copy),
        (GameAction::Cut, EditorAction::Cut),
        (GameAction::Paste, EditorAction::Paste),
        (GameAction::RotateClip, EditorAction::RotateClip),
        (GameAction::FlipClip, EditorAction::FlipClip),
    ];
    for (game, editor) in bound {
        for _ in 0..presses.count(game) {
            actions.write(editor.clone());
        }
    }
}

fn run_actions(
    mut actions: MessageReader<EditorAction>,
    mut doc: ResMut<EditorDoc>,
    mut tools: ResMut<EditorTools>,
    mut gesture: ResMut<Gesture>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
    mut menu: ResMut<super::file::FileMenu>,
) {
    for action in actions.read() {
        match action {
            EditorAction::ShowFile
            | EditorAction::SaveAs(_)
            | EditorAction::Open(_)
            | EditorAction::OpenDiscarding(_) => {
                *gesture = Gesture::default();
                super::file::run_file_action(action, &mut doc, &mut menu);
            }
            EditorAction::Undo | EditorAction::Redo => {
                *gesture = Gesture::default();
                let edit = if *action == EditorAction::Undo { Edit::Undo } else { Edit::Redo };
                if doc.apply(&edit) {
                    doc.status = None;
                }
            }
            EditorAction::Save => {
                doc.status = Some(match doc.save() {
                    Ok(path) => format!("saved {}", path.display()),
                    Err(e) => format!("not saved: {e}"),
                });
            }
            EditorAction::DeleteSelected => {
                if let Some(id) = tools.selected.take() {
                    doc.apply(&Edit::RemoveUnit { id });
                }
            }
            EditorAction::PlayTest => match start_playtest(doc.doc.level(), &tools) {
                Ok((setup, playtest)) => {
                    doc.doc.end_group();
                    *gesture = Gesture::default();
                    commands.insert_resource(setup);
                    commands.insert_resource(playtest);
                    next.set(Screen::Skirmish);
                }
                Err(e) => doc.status = Some(e),
            },
            EditorAction::Menu => {
                doc.doc.end_group();
                next.set(Screen::Menu);
            }
            EditorAction::Copy | EditorAction::Cut => {
                let cat = Catalogue::builtin_ref();
                let Some((a, b)) = tools.selection else {
                    doc.status = Some("select a rectangle first (the Select tool)".into());
                    continue;
                };
                tools.clip = clipboard::copy(doc.doc.level(), cat, a, b);
                if *action == EditorAction::Cut {
                    let edits = clipboard::cut_edits(doc.doc.level(), cat, a, b);
                    tools::apply_lenient(&mut doc, edits);
                }
            }
            EditorAction::Paste => {
                if tools.clip.is_some() {
                    tools.tool = tools::Tool::Paste;
                } else {
                    doc.status = Some("nothing copied yet".into());
                }
            }
            EditorAction::RotateClip | EditorAction::FlipClip => {
                let cat = Catalogue::builtin_ref();
                let turn = *action == EditorAction::RotateClip;
                tools.clip = tools.clip.as_ref().map(|c| if turn { c.rotated(cat) } else { c.flipped(cat) });
            }
        }
    }
    // The selected unit may have gone (undo, delete): forget it.
    if let Some(id) = &tools.selected
        && !doc.doc.level().units.iter().any(|u| &u.id == id)
    {
        tools.selected = None;
    }
}

/// The skirmish a play-test starts: the level as it stands written to a scratch file, the
/// chosen variant, the designer's side (or none: AI against AI). Refused while the level
/// has problems, naming the first.
fn start_playtest(level: &LevelDef, tools: &EditorTools) -> Result<(GameSetup, PlayTest), String> {
    if let Some(p) = check::errors(&check::problems(level, Catalogue::builtin_ref())).next() {
        return Err(format!("cannot play-test: {}", p.message));
    }
    let file = std::env::temp_dir().join(format!("fivefoot-playtest-{}.ron", std::process::id()));
    save_atomic(level, &file).map_err(|e| format!("cannot play-test: {e}"))?;
    let side = tools.playtest_side.clone().filter(|s| level.units.iter().any(|u| &u.side == s));
    let setup = GameSetup {
        level: file.clone(),
        rules: tools.playtest_rules,
        side,
        seed: tools.playtest_seed,
        house_rules: (!tools.playtest_house_rules.is_empty()).then(|| tools.playtest_house_rules.clone()),
        ais: Default::default(),
    };
    Ok((setup, PlayTest { file }))
}

/// Works the problems out again when the level's revision changes.
fn refresh_problems(doc: Res<EditorDoc>, mut problems: ResMut<Problems>, mut seen: Local<Option<u64>>) {
    let revision = doc.doc.revision();
    if *seen == Some(revision) {
        return;
    }
    problems.set_if_neq(Problems(check::problems(doc.doc.level(), Catalogue::builtin_ref())));
    *seen = Some(revision);
}
