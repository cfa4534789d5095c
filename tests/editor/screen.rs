//! The editor screen in a headless app: gestures and keys as edits, the problems panel,
//! the rules layers, the menu's way in, recovery, the clipboard and the play-test round trip.

use super::*;
use bevy::prelude::*;
use fivefoot::combat::plugin::BattleRes;
use fivefoot::control::plugin::Pointer;
use fivefoot::editor::session::Problems;
use fivefoot::editor::tools::{EditorTools, Tool};
use fivefoot::editor::{EditorAction, EditorDoc};
use fivefoot::game::{PlayTest, Screen};
use fivefoot::grid::GridPos;
use fivefoot::input::Bindings;
use fivefoot::rules::Combatant;
use leafwing_input_manager::prelude::Buttonlike;

fn editor_app(doc: Document, path: Option<std::path::PathBuf>) -> App {
    editor_app_bound(doc, path, Bindings::default())
}

fn editor_app_bound(doc: Document, path: Option<std::path::PathBuf>, bindings: Bindings) -> App {
    let mut app = editor_base(EditorDoc::new(doc, path), bindings);
    app.update();
    app
}

fn tap(app: &mut App, input: impl Buttonlike) {
    input.press(app.world_mut());
    app.update();
    input.release(app.world_mut());
    app.update();
}

fn ctrl(app: &mut App, key: KeyCode) {
    KeyCode::ControlLeft.press(app.world_mut());
    tap(app, key);
    KeyCode::ControlLeft.release(app.world_mut());
    app.update();
}

fn point(app: &mut App, x: i32, y: i32) {
    *app.world_mut().resource_mut::<Pointer>() = Pointer { cell: Some(GridPos::new(x, y)), over_ui: false };
}

fn doc_of(app: &App) -> &Document {
    &app.world().resource::<EditorDoc>().doc
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

#[test]
fn a_brush_drag_with_the_mouse_is_one_undo_step_and_ctrl_z_undoes_it() {
    let mut app = editor_app(doc(6, 3), None);
    app.world_mut().resource_mut::<EditorTools>().terrain = Terrain::Wall;
    point(&mut app, 0, 1);
    MouseButton::Left.press(app.world_mut());
    app.update();
    for x in 1..4 {
        point(&mut app, x, 1);
        app.update();
    }
    MouseButton::Left.release(app.world_mut());
    app.update();
    assert_eq!(rows(doc_of(&app))[1], "####..");
    assert_eq!(doc_of(&app).undo_depth(), 1);
    ctrl(&mut app, KeyCode::KeyZ);
    assert_eq!(rows(doc_of(&app))[1], "......");
    ctrl(&mut app, KeyCode::KeyY);
    assert_eq!(rows(doc_of(&app))[1], "####..", "Ctrl+Y redoes");
    ctrl(&mut app, KeyCode::KeyZ);
    KeyCode::ShiftLeft.press(app.world_mut());
    ctrl(&mut app, KeyCode::KeyZ);
    KeyCode::ShiftLeft.release(app.world_mut());
    assert_eq!(rows(doc_of(&app))[1], "####..", "Ctrl+Shift+Z redoes");
}

#[test]
fn units_are_placed_with_a_click_dragged_to_move_and_removed_with_a_right_click_or_delete() {
    let mut app = editor_app(doc(6, 4), None);
    {
        let mut t = app.world_mut().resource_mut::<EditorTools>();
        t.tool = Tool::Units;
        t.creature = "goblin".into();
        t.side = "red".into();
    }
    point(&mut app, 1, 1);
    tap(&mut app, MouseButton::Left);
    point(&mut app, 4, 2);
    tap(&mut app, MouseButton::Left);
    let ids: Vec<String> = doc_of(&app).level().units.iter().map(|u| u.id.clone()).collect();
    assert_eq!(ids, ["goblin", "goblin_2"]);
    // Drag the first from (1, 1) to (2, 3): one move.
    point(&mut app, 1, 1);
    MouseButton::Left.press(app.world_mut());
    app.update();
    point(&mut app, 2, 3);
    app.update();
    MouseButton::Left.release(app.world_mut());
    app.update();
    assert_eq!(doc_of(&app).level().units[0].at, (2, 3));
    assert_eq!(app.world().resource::<EditorTools>().selected.as_deref(), Some("goblin"));
    point(&mut app, 4, 2);
    tap(&mut app, MouseButton::Right);
    assert_eq!(doc_of(&app).level().units.len(), 1);
    tap(&mut app, KeyCode::Delete);
    assert!(doc_of(&app).level().units.is_empty(), "Delete removes the selected unit");
    assert_eq!(doc_of(&app).undo_depth(), 5);
}

#[test]
fn a_level_with_problems_lists_them_saves_anyway_and_will_not_play_test() {
    let dir = std::env::temp_dir().join(format!("fivefoot-editor-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("one-side.ron");
    let mut d = doc(5, 3);
    let place =
        Edit::PlaceUnit { id: "g".into(), creature: "goblin".into(), side: "red".into(), at: (1, 1), weapon: None };
    d.apply(&place, cat()).unwrap();
    let mut app = editor_app(d, Some(file.clone()));
    app.update();
    let problems = app.world().resource::<Problems>().0.clone();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].message.contains("two sides"));
    ctrl(&mut app, KeyCode::KeyS);
    let saved = fivefoot::editor::cli::read_level(&file).unwrap();
    assert_eq!(&saved, doc_of(&app).level());
    assert!(!app.world().resource::<EditorDoc>().dirty());
    tap(&mut app, KeyCode::F5);
    assert_eq!(screen(&app), Screen::Editor);
    let status = app.world().resource::<EditorDoc>().status.clone().unwrap();
    assert!(status.contains("cannot play-test") && status.contains("two sides"), "{status}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_rules_layers_show_every_units_threat_and_the_reach_of_the_hovered_one() {
    use fivefoot::editor::overlay::{EditorLayers, battle_of, editor_preview};
    let mut d = doc(9, 5);
    for (id, side, at, creature) in [("g", "red", (1, 2), "goblin"), ("o", "blue", (5, 1), "ogre")] {
        let e = Edit::PlaceUnit { id: id.into(), creature: creature.into(), side: side.into(), at, weapon: None };
        d.apply(&e, cat()).unwrap();
    }
    let b = battle_of(d.level(), d.level().rules).expect("a sound level sets up");
    let both = EditorLayers { threat: true, reach: true, ..Default::default() };
    let p = editor_preview(&b, both, Some(GridPos::new(1, 2)), None).play;
    // The goblin threatens the 8 squares round it; the ogre (Large, 10-ft reach) many more.
    assert_eq!(p.hovered_threat.len(), 8, "{:?}", p.hovered_threat);
    assert!(p.enemy_threat.len() > 8 + 12, "{}", p.enemy_threat.len());
    assert!(p.enemy_threat.iter().all(|&(_, n)| n >= 1));
    let threat_only = EditorLayers { threat: true, ..Default::default() };
    let threat_only = editor_preview(&b, threat_only, Some(GridPos::new(1, 2)), None).play;
    assert!(threat_only.hovered_threat.is_empty());
    let reach_only = EditorLayers { reach: true, ..Default::default() };
    let reach_only = editor_preview(&b, reach_only, Some(GridPos::new(1, 2)), None).play;
    assert!(reach_only.enemy_threat.is_empty() && reach_only.hovered_threat.len() == 8);
    // A unit on a wall: no battle to show.
    let mut broken = d.level().clone();
    broken.map.rows[2].replace_range(1..2, "#");
    assert!(battle_of(&broken, broken.rules).is_none());
}

#[test]
fn the_menu_opens_a_level_in_the_editor_keeps_unsaved_work_and_refuses_a_broken_file() {
    use fivefoot::editor::OpenInEditor;
    use fivefoot::game::MenuNotice;
    let levels = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("levels");
    let mut app = editor_app(doc(4, 4), None);
    app.world_mut().resource_mut::<EditorDoc>().apply(&Edit::SetName("scratch".into()));
    // From the menu: the skirmish opens; the blank map's unsaved work is kept aside.
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Menu);
    app.update();
    app.insert_resource(OpenInEditor(levels.join("skirmish.ron")));
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Editor);
    app.update();
    let ed = app.world().resource::<EditorDoc>();
    assert_eq!(ed.doc.level().name, "Crossroads skirmish");
    let status = ed.status.clone().unwrap();
    assert!(status.contains("kept in"), "{status}");
    let kept = status.rsplit(' ').next().unwrap();
    assert_eq!(fivefoot::editor::cli::read_level(std::path::Path::new(kept)).unwrap().name, "scratch");
    // Edited, to the menu and back to the same level: the edit and its history are there.
    app.world_mut().resource_mut::<EditorDoc>().apply(&Edit::SetName("mine".into()));
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Menu);
    app.update();
    app.insert_resource(OpenInEditor(levels.join("skirmish.ron")));
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Editor);
    app.update();
    assert_eq!(doc_of(&app).level().name, "mine");
    assert_eq!(doc_of(&app).undo_depth(), 1);
    // A file that does not parse: back to the menu, which says why.
    let bad = std::env::temp_dir().join(format!("fivefoot-editor-bad-{}.ron", std::process::id()));
    std::fs::write(&bad, "(name: oops").unwrap();
    app.insert_resource(OpenInEditor(bad.clone()));
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Menu);
    app.update();
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Editor);
    app.update();
    app.update();
    assert_eq!(screen(&app), Screen::Menu);
    let notice = app.world().resource::<MenuNotice>().0.clone().unwrap();
    assert!(notice.contains("cannot edit") && notice.contains("fivefoot-editor-bad"), "{notice}");
    std::fs::remove_file(bad).unwrap();
}

#[test]
fn unsaved_edits_kept_in_a_recovery_file_are_offered_back_and_a_save_removes_it() {
    let (dir, file) = saved_blank("recovery", "ford.ron", (5, 3));
    let open = || EditorDoc::new(Document::new(fivefoot::editor::cli::read_level(&file).unwrap()), Some(file.clone()));
    let mut ed = open();
    assert!(ed.recovered.is_none());
    ed.apply(&Edit::SetName("Ford".into()));
    let kept = ed.autosave().unwrap();
    assert_eq!(kept, dir.join(".ford.ron.recovery"));
    // The session ends without saving; the next one finds the edits and restores them.
    let mut again = open();
    assert_eq!(again.recovered.as_ref().map(|l| l.name.as_str()), Some("Ford"));
    again.restore_recovered();
    assert_eq!(again.doc.level().name, "Ford");
    assert!(again.dirty(), "restored, not saved");
    again.save().unwrap();
    assert!(!kept.exists(), "saving removes the recovery file");
    assert!(open().recovered.is_none());
    // Discarding removes it too.
    let mut third = open();
    third.apply(&Edit::SetName("Other".into()));
    third.autosave().unwrap();
    let mut fourth = open();
    assert!(fourth.recovered.is_some());
    fourth.discard_recovered();
    assert!(!kept.exists());
    assert_eq!(fourth.doc.level().name, "Ford");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn select_copy_and_paste_with_the_mouse_and_keys_is_one_undo_step() {
    let mut app = editor_app(doc(6, 3), None);
    app.world_mut()
        .resource_mut::<EditorDoc>()
        .apply(&Edit::Paint { terrain: Terrain::Wall, area: Area::Rect { from: (0, 0), to: (1, 0) } });
    app.world_mut().resource_mut::<EditorTools>().tool = Tool::Select;
    point(&mut app, 0, 0);
    MouseButton::Left.press(app.world_mut());
    app.update();
    point(&mut app, 1, 1);
    app.update();
    MouseButton::Left.release(app.world_mut());
    app.update();
    assert_eq!(app.world().resource::<EditorTools>().selection, Some(((0, 0), (1, 1))));
    ctrl(&mut app, KeyCode::KeyC);
    ctrl(&mut app, KeyCode::KeyV);
    assert_eq!(app.world().resource::<EditorTools>().tool, Tool::Paste);
    tap(&mut app, KeyCode::KeyR);
    point(&mut app, 4, 0);
    tap(&mut app, MouseButton::Left);
    // Turned a quarter: the two walls stand in a column on the right of the clip.
    assert_eq!(rows(doc_of(&app)), ["##...#", ".....#", "......"]);
    assert_eq!(doc_of(&app).undo_depth(), 2);
    ctrl(&mut app, KeyCode::KeyZ);
    assert_eq!(rows(doc_of(&app))[0], "##....");
}

#[test]
fn a_play_test_and_back_keeps_the_undo_history_and_the_selection() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/skirmish.ron");
    let d = Document::new(fivefoot::editor::cli::read_level(&path).unwrap());
    let mut app = editor_app(d, Some(path));
    let first = doc_of(&app).level().clone();
    {
        let mut doc = app.world_mut().resource_mut::<EditorDoc>();
        doc.apply(&Edit::SetName("Crossroads, edited".into()));
        doc.apply(&Edit::Paint { terrain: Terrain::Difficult, area: Area::Cells(vec![(7, 7)]) });
    }
    app.world_mut().resource_mut::<EditorTools>().selected = Some("fighter".into());
    let edited = doc_of(&app).clone();
    assert_eq!(edited.undo_depth(), 2);

    tap(&mut app, KeyCode::F5);
    app.update();
    assert_eq!(screen(&app), Screen::Skirmish);
    let scratch = app.world().resource::<PlayTest>().file.clone();
    let count = app.world_mut().query::<&Combatant>().iter(app.world()).count();
    assert_eq!(count, edited.level().units.len());
    let res = app.world().resource::<BattleRes>();
    assert_eq!(*res.battle.read().level_name, "Crossroads, edited", "the level as it stands, not as saved");
    assert!(res.human_sides.is_empty(), "AI against AI by default");

    tap(&mut app, KeyCode::Escape);
    app.update();
    assert_eq!(screen(&app), Screen::Editor);
    assert!(!app.world().contains_resource::<BattleRes>());
    assert!(!app.world().contains_resource::<PlayTest>());
    assert!(!scratch.exists(), "the scratch copy is gone");
    assert_eq!(doc_of(&app).level(), edited.level());
    assert_eq!(doc_of(&app).undo_depth(), 2, "the undo history survived");
    assert_eq!(app.world().resource::<EditorTools>().selected.as_deref(), Some("fighter"));
    app.world_mut().write_message(EditorAction::Undo);
    app.update();
    app.world_mut().write_message(EditorAction::Undo);
    app.update();
    assert_eq!(doc_of(&app).level(), &first, "undone back to the file as opened");
}

#[test]
fn the_editor_s_keys_are_bindings_a_designer_can_change() {
    let text = "(bindings: [(Undo, [Ctrl(KeyU)]), (PlayTest, [Key(F9)])])";
    let bindings = Bindings::parse(text, std::path::Path::new("mine.ron")).unwrap();
    let mut app = editor_app_bound(doc(6, 3), None, bindings);
    app.world_mut().resource_mut::<EditorTools>().terrain = Terrain::Wall;
    point(&mut app, 0, 1);
    tap(&mut app, MouseButton::Left);
    assert_eq!(rows(doc_of(&app))[1], "#.....");
    ctrl(&mut app, KeyCode::KeyZ);
    assert_eq!(rows(doc_of(&app))[1], "#.....", "Ctrl+Z is no longer undo");
    ctrl(&mut app, KeyCode::KeyU);
    assert_eq!(rows(doc_of(&app))[1], "......", "Ctrl+U is");
    ctrl(&mut app, KeyCode::KeyY);
    assert_eq!(rows(doc_of(&app))[1], "#.....", "an action the file leaves out keeps its default");
    tap(&mut app, KeyCode::F5);
    assert_eq!(screen(&app), Screen::Editor, "F5 is no longer play-test");
}

/// While a text field has the keyboard, no key binding fires: Ctrl+Z typed there undoes
/// nothing and `-` does not zoom. The control: the same keys with the field let go undo
/// and count as a zoom.
#[test]
fn keys_typed_into_a_text_field_drive_nothing_on_the_board() {
    use fivefoot::input::{GameAction, Presses, TextFocus};
    let mut app = editor_app(doc(6, 3), None);
    app.world_mut().resource_mut::<EditorDoc>().apply(&Edit::SetName("typed".into()));
    let zoomed = |app: &mut App| {
        KeyCode::Minus.press(app.world_mut());
        app.update();
        let counted = app.world().resource::<Presses>().pressed(GameAction::ZoomOut);
        KeyCode::Minus.release(app.world_mut());
        app.update();
        counted
    };
    app.insert_resource(TextFocus(true));
    ctrl(&mut app, KeyCode::KeyZ);
    assert_eq!(doc_of(&app).level().name, "typed", "Ctrl+Z went to the field");
    assert!(!zoomed(&mut app), "`-` went to the field");
    app.insert_resource(TextFocus(false));
    ctrl(&mut app, KeyCode::KeyZ);
    assert_eq!(doc_of(&app).level().name, "New level", "undone once the field lets go");
    assert!(zoomed(&mut app));
}

/// Back from the editor, the menu reads its list again with the level just edited in it,
/// even one saved outside `levels/`, and selects it (the one-shot `last` is taken by the
/// menu as it opens).
#[test]
fn the_menu_lists_and_selects_the_level_just_edited() {
    use fivefoot::game::{EditedLevels, menu_level_files};
    let (dir, file) = saved_blank("edited", "elsewhere.ron", (5, 3));
    let mut app = editor_app(doc(5, 3), Some(file.clone()));
    assert!(!menu_level_files(app.world().resource::<EditedLevels>()).contains(&file), "not listed before");
    app.world_mut().write_message(EditorAction::Menu);
    app.update();
    app.update();
    assert_eq!(screen(&app), Screen::Menu);
    let edited = app.world().resource::<EditedLevels>();
    assert_eq!(edited.last, None, "taken by the menu to select it");
    assert_eq!(menu_level_files(edited).last(), Some(&file), "listed after the levels/ files");
    std::fs::remove_dir_all(dir).unwrap();
}
