//! Save as and Open in the editor screen, headless: the keys bring up the File window, a
//! save as writes atomically and moves the level (and its recovery file and the watcher)
//! to the new path, and opening over unsaved edits asks first.

use super::*;
use bevy::prelude::*;
use fivefoot::editor::file::FileMenu;
use fivefoot::editor::watch::DiskChange;
use fivefoot::editor::{EditorAction, EditorDoc};
use fivefoot::input::Bindings;
use leafwing_input_manager::prelude::Buttonlike;

fn editor_app(doc: EditorDoc) -> App {
    let mut app = editor_base(doc, Bindings::default());
    app.update();
    app
}

fn act(app: &mut App, action: EditorAction) {
    app.world_mut().write_message(action);
    app.update();
}

fn ed(app: &App) -> &EditorDoc {
    app.world().resource::<EditorDoc>()
}

#[test]
fn save_as_moves_the_level_its_recovery_file_and_the_watcher_and_open_asks_over_unsaved_edits() {
    let (dir, first) = saved_blank("save-as", "first.ron", (5, 3));
    let open = |p: &std::path::Path| Document::new(fivefoot::editor::cli::read_level(p).unwrap());
    let mut app = editor_app(EditorDoc::new(open(&first), Some(first.clone())));
    // Ctrl+Shift+S brings up the File window, its path field holding the level's file.
    KeyCode::ShiftLeft.press(app.world_mut());
    KeyCode::ControlLeft.press(app.world_mut());
    KeyCode::KeyS.press(app.world_mut());
    app.update();
    for k in [KeyCode::KeyS, KeyCode::ControlLeft, KeyCode::ShiftLeft] {
        k.release(app.world_mut());
    }
    app.update();
    let menu = app.world().resource::<FileMenu>().clone();
    assert!(menu.shown && menu.path == first.display().to_string(), "{menu:?}");
    // An unsaved edit, kept in the recovery file beside the first file; then save as.
    app.world_mut().resource_mut::<EditorDoc>().apply(&Edit::SetName("Second".into()));
    let old_recovery = app.world_mut().resource_mut::<EditorDoc>().autosave().unwrap();
    let second = dir.join("sub/second.ron");
    act(&mut app, EditorAction::SaveAs(second.clone()));
    assert_eq!(ed(&app).path.as_ref(), Some(&second), "the level lives at the new path");
    assert!(!ed(&app).dirty() && !app.world().resource::<FileMenu>().shown);
    assert_eq!(Level::load(&second, cat()).unwrap().def.name, "Second");
    assert_eq!(fivefoot::editor::cli::read_level(&first).unwrap().name, "New level", "the old file as it was");
    assert!(!old_recovery.exists(), "its edits are saved: the old recovery file goes");
    assert_eq!(ed(&app).recovery_path(), dir.join("sub/.second.ron.recovery"));
    assert!(dir.read_dir().unwrap().all(|e| !e.unwrap().file_name().to_string_lossy().ends_with(".tmp")));
    // The watcher follows: a change to the new file is loaded, one to the old is not.
    let text = std::fs::read_to_string(&second).unwrap();
    std::fs::write(&first, std::fs::read_to_string(&first).unwrap().replace("New level", "Elsewhere")).unwrap();
    assert_eq!(app.world_mut().resource_mut::<EditorDoc>().check_disk(), DiskChange::None);
    std::fs::write(&second, text.replace("Second", "Changed on disk")).unwrap();
    assert_eq!(app.world_mut().resource_mut::<EditorDoc>().check_disk(), DiskChange::Reloaded);
    assert_eq!(ed(&app).doc.level().name, "Changed on disk");
    // Open over unsaved edits: asked, nothing opened until the edits are let go.
    app.world_mut().resource_mut::<EditorDoc>().apply(&Edit::SetName("Mine".into()));
    let discarded = app.world_mut().resource_mut::<EditorDoc>().autosave().unwrap();
    assert!(discarded.exists(), "the unsaved edit is kept for a crash");
    act(&mut app, EditorAction::Open(first.clone()));
    assert_eq!(ed(&app).doc.level().name, "Mine");
    assert_eq!(app.world().resource::<FileMenu>().confirm_open.as_ref(), Some(&first));
    act(&mut app, EditorAction::OpenDiscarding(first.clone()));
    assert_eq!((ed(&app).doc.level().name.as_str(), ed(&app).path.as_ref()), ("Elsewhere", Some(&first)));
    assert!(!ed(&app).dirty() && app.world().resource::<FileMenu>().confirm_open.is_none());
    assert_eq!(ed(&app).doc.undo_depth(), 0, "a fresh history");
    assert!(!discarded.exists(), "edits given up are not offered back on the next start");
    // With no unsaved edits it opens at once; a file that is not there is refused.
    act(&mut app, EditorAction::Open(second.clone()));
    assert_eq!(ed(&app).path.as_ref(), Some(&second));
    act(&mut app, EditorAction::Open(dir.join("missing.ron")));
    assert_eq!(ed(&app).path.as_ref(), Some(&second));
    assert!(ed(&app).status.as_deref().is_some_and(|s| s.contains("not opened")), "{:?}", ed(&app).status);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A new level's unsaved edits go to `.new-level.ron.recovery` beside the name it would
/// be saved under. Saved under another name typed since, that recovery file goes too; and
/// one left by an earlier session is offered when a new level starts (the control: a
/// saved level leaves nothing to offer).
#[test]
fn a_new_level_s_recovery_file_is_removed_by_its_save_and_offered_to_the_next_new_level() {
    let dir = std::env::temp_dir().join(format!("fivefoot-new-recovery-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fresh = || {
        let mut ed = EditorDoc::new(doc(5, 3), None);
        ed.save_as = dir.join("new-level.ron").to_string_lossy().into_owned();
        ed.look_for_recovery();
        ed
    };
    let mut ed = fresh();
    assert!(ed.recovered.is_none());
    ed.apply(&Edit::SetName("Draft".into()));
    let kept = ed.autosave().unwrap();
    assert_eq!(kept, dir.join(".new-level.ron.recovery"));
    // The next new level finds the draft and offers it back.
    let offered = fresh();
    assert_eq!(offered.recovered.as_ref().map(|l| l.name.as_str()), Some("Draft"));
    // Named otherwise, then saved: the draft's recovery file goes with the save.
    ed.save_as = dir.join("mine.ron").to_string_lossy().into_owned();
    ed.save().unwrap();
    assert!(!kept.exists(), "the new level's recovery file is gone once it is saved");
    assert!(!dir.join(".mine.ron.recovery").exists());
    assert!(fresh().recovered.is_none(), "nothing left to offer");
    // A mistyped path grows no tree of folders: the save is refused and says why (one new
    // folder inside an existing one is made: see the save as above).
    ed.save_as = dir.join("mine.rona").join("typo").join("x.ron").to_string_lossy().into_owned();
    ed.path = None;
    let refused = ed.save().unwrap_err();
    assert!(refused.contains("mine.rona") && refused.contains("no such folder"), "{refused}");
    assert!(!dir.join("mine.rona").exists(), "no folder was made");
    std::fs::remove_dir_all(dir).unwrap();
}

/// A save as that fails (here: the name typed is a folder's) changes nothing: the level
/// still lives at its own path with its edits unsaved, and their recovery file stays, so a
/// crash after the failed save loses nothing. No temporary file is left behind.
#[test]
fn a_failed_save_as_keeps_the_level_its_path_and_its_recovery_file() {
    let (dir, first) = saved_blank("save-as-fails", "first.ron", (5, 3));
    let level = fivefoot::editor::cli::read_level(&first).unwrap();
    let mut app = editor_app(EditorDoc::new(Document::new(level), Some(first.clone())));
    app.world_mut().resource_mut::<EditorDoc>().apply(&Edit::SetName("Unsaved".into()));
    let recovery = app.world_mut().resource_mut::<EditorDoc>().autosave().unwrap();
    let folder = dir.join("a-folder");
    std::fs::create_dir(&folder).unwrap();
    act(&mut app, EditorAction::SaveAs(folder.clone()));
    assert_eq!(ed(&app).path.as_ref(), Some(&first), "the level still lives at its own path");
    assert!(ed(&app).dirty(), "its edits are not counted as saved");
    assert!(ed(&app).status.as_deref().is_some_and(|s| s.contains("a-folder")), "{:?}", ed(&app).status);
    assert!(recovery.exists(), "the recovery file of the unsaved edits stays");
    assert_eq!(ed(&app).recovery_path(), recovery);
    assert!(folder.is_dir() && folder.read_dir().unwrap().next().is_none(), "the folder is left as it was");
    assert!(dir.read_dir().unwrap().all(|e| !e.unwrap().file_name().to_string_lossy().ends_with(".tmp")));
    assert_eq!(fivefoot::editor::cli::read_level(&first).unwrap().name, "New level", "the file as it was");
    // The same edits then saved to a good path go there, and the recovery file goes.
    act(&mut app, EditorAction::SaveAs(dir.join("second.ron")));
    assert_eq!(ed(&app).path.as_ref(), Some(&dir.join("second.ron")));
    assert!(!recovery.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
