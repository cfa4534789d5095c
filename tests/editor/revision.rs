//! The level's revision: every change to the level takes a new number and nothing else
//! does, undo and redo give a level its own number back, and the unsaved-changes mark and
//! the editor's caches go by it. An idle frame of the editor, board and overlay included,
//! marks nothing changed; an edit does, and the window's title follows.

use super::*;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use fivefoot::control::plugin::Pointer;
use fivefoot::editor::overlay::{EditorLayers, EditorOverlayPlugin};
use fivefoot::editor::tools::EditorTools;
use fivefoot::editor::{EditorAction, EditorDoc, board::EditorBoardPlugin, file::EditorFilePlugin};
use fivefoot::grid::GridPos;
use fivefoot::input::Bindings;
use fivefoot::level::GenerateSpec;

fn wall_at(d: &mut Document, at: (i32, i32)) -> Result<(), String> {
    d.apply(&Edit::Paint { terrain: Terrain::Wall, area: Area::Cells(vec![at]) }, cat())
}

#[test]
fn every_change_to_the_level_takes_a_new_revision_and_undo_gives_the_old_one_back() {
    let mut d = doc(6, 4);
    let r0 = d.revision();
    assert_ne!(Document::blank(6, 4, false).unwrap().revision(), r0, "another document, another number");
    wall_at(&mut d, (1, 1)).unwrap();
    let r1 = d.revision();
    assert_ne!(r1, r0);
    // Nothing changed in the level: the same revision.
    wall_at(&mut d, (1, 1)).unwrap();
    assert!(d.apply(&Edit::MoveUnit { id: "nobody".into(), to: (0, 0) }, cat()).is_err());
    assert_eq!(d.revision(), r1, "a refusal and a no-op leave the level as it was");
    d.apply(&Edit::SetSymmetry(Symmetry::LeftRight), cat()).unwrap();
    let rs = d.revision();
    assert!(![r0, r1].contains(&rs), "the symmetry is saved with the level: a new revision");
    wall_at(&mut d, (0, 0)).unwrap();
    let r2 = d.revision();
    assert!(![r0, r1, rs].contains(&r2));
    d.apply(&Edit::Undo, cat()).unwrap();
    assert_eq!(d.revision(), rs, "undo gives the level back with its own revision");
    d.apply(&Edit::Undo, cat()).unwrap();
    assert_eq!((d.revision(), d.symmetry()), (r1, Symmetry::None), "undoing the symmetry");
    d.apply(&Edit::Undo, cat()).unwrap();
    assert_eq!(d.revision(), r0);
    d.apply(&Edit::Redo, cat()).unwrap();
    assert_eq!(d.revision(), r1, "and so does redo");
    // The same level reached by other steps is a new revision: only undo and redo reuse one.
    d.apply(&Edit::Paint { terrain: Terrain::Floor, area: Area::Cells(vec![(1, 1)]) }, cat()).unwrap();
    assert_eq!(d.level(), doc(6, 4).level());
    assert!(![r0, r1, r2].contains(&d.revision()));
    let before = d.revision();
    d.apply(&Edit::Generate(GenerateSpec::default()), cat()).unwrap();
    assert_ne!(d.revision(), before, "a generated map");
    // A copy keeps the number; both then go their own ways.
    let mut copy = d.clone();
    assert_eq!(copy.revision(), d.revision());
    copy.apply(&Edit::SetName("copy".into()), cat()).unwrap();
    d.apply(&Edit::SetName("copy".into()), cat()).unwrap();
    assert_ne!(copy.revision(), d.revision());
    assert_eq!(copy, d, "equal documents, whatever their numbers");
}

#[test]
fn unsaved_changes_follow_edits_undo_redo_and_save() {
    let (dir, file) = saved_blank("revision", "level.ron", (6, 4));
    let mut ed = EditorDoc::new(doc(6, 4), Some(file.clone()));
    assert!(!ed.dirty(), "as opened");
    assert!(ed.apply(&Edit::Paint { terrain: Terrain::Wall, area: Area::Cells(vec![(2, 2)]) }));
    assert!(ed.dirty());
    assert!(ed.dirty(), "asked again, the same answer");
    ed.apply(&Edit::Undo);
    assert!(!ed.dirty(), "undone back to the file");
    ed.apply(&Edit::Redo);
    assert!(ed.dirty());
    // Painted back by hand: the level is the file's again, so nothing is unsaved.
    ed.apply(&Edit::Paint { terrain: Terrain::Floor, area: Area::Cells(vec![(2, 2)]) });
    assert!(!ed.dirty(), "edited back to what was saved");
    ed.apply(&Edit::SetSymmetry(Symmetry::Point));
    assert!(ed.dirty(), "the symmetry is saved with the level");
    ed.apply(&Edit::SetName("Renamed".into()));
    assert!(ed.dirty());
    ed.save().unwrap();
    assert!(!ed.dirty(), "saved");
    ed.apply(&Edit::Undo);
    assert!(ed.dirty(), "undone past the save");
    ed.apply(&Edit::Redo);
    assert!(!ed.dirty(), "redone to the save");
    // A level never saved has unsaved changes, edited or not.
    assert!(EditorDoc::new(doc(3, 3), None).dirty());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The editor with its board, overlay and file plugins too, every rules layer on.
fn editor_app(doc: Document) -> App {
    let mut app = editor_base(EditorDoc::new(doc, None), Bindings::default());
    app.add_plugins(AssetPlugin::default())
        .init_asset::<Image>()
        .add_plugins((EditorBoardPlugin, EditorOverlayPlugin, EditorFilePlugin))
        .insert_resource(EditorLayers::ALL);
    app.world_mut().spawn((Window::default(), PrimaryWindow));
    app.update();
    app.update();
    app
}

/// The editor puts its panels' edges on entering (the camera and the pointer tell a panel
/// from the board by them) and takes them away when it is left.
#[test]
fn the_editor_puts_its_panel_edges_while_it_is_shown() {
    use fivefoot::view::camera::PanelEdges;
    let mut app = editor_app(doc(8, 6));
    assert_eq!(app.world().get_resource::<PanelEdges>(), Some(&fivefoot::editor::board::PANEL_EDGES));
    app.world_mut().resource_mut::<NextState<fivefoot::game::Screen>>().set(fivefoot::game::Screen::Menu);
    app.update();
    assert_eq!(app.world().get_resource::<PanelEdges>(), None, "gone with the editor");
}

/// When the document was last marked changed.
fn marked(app: &App) -> bevy::ecs::change_detection::Tick {
    app.world().resource_ref::<EditorDoc>().last_changed()
}

fn title(app: &mut App) -> String {
    app.world_mut().query_filtered::<&Window, With<PrimaryWindow>>().single(app.world()).unwrap().title.clone()
}

#[test]
fn an_idle_frame_marks_the_document_unchanged_and_an_edit_marks_it() {
    let mut d = doc(8, 6);
    d.apply(&Edit::place("g", "goblin", "red", (1, 1)), cat()).unwrap();
    d.apply(&Edit::place("f", "goblin", "blue", (5, 3)), cat()).unwrap();
    let mut app = editor_app(d);
    app.world_mut().resource_mut::<EditorTools>().selected = Some("g".into());
    assert_eq!(title(&mut app), "Fivefoot editor: new level, not saved yet *");
    let before = marked(&app);
    for x in 0..4 {
        // The pointer moves; the level does not.
        app.world_mut().resource_mut::<Pointer>().cell = Some(GridPos::new(x, 2));
        app.update();
        assert_eq!(marked(&app), before, "frame {x} marked the document changed");
    }
    let revision = app.world().resource::<EditorDoc>().doc.revision();
    app.world_mut().resource_mut::<EditorDoc>().path = Some("levels/mine.ron".into());
    app.update();
    assert_eq!(title(&mut app), "Fivefoot editor: levels/mine.ron *", "the title follows a change");
    let before = marked(&app);
    app.world_mut().write_message(EditorAction::DeleteSelected);
    app.update();
    assert_ne!(marked(&app), before, "an edit marks it");
    assert_ne!(app.world().resource::<EditorDoc>().doc.revision(), revision);
    let before = marked(&app);
    app.update();
    assert_eq!(marked(&app), before);
}

#[test]
fn the_layers_kept_for_a_subject_are_those_worked_out_afresh_wherever_the_pointer_goes() {
    use fivefoot::editor::layers::{SubjectWork, editor_preview_kept};
    use fivefoot::editor::overlay::{battle_of, editor_preview};
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/skirmish.ron");
    let def = fivefoot::editor::cli::read_level(&path).unwrap();
    let battle = battle_of(&def, def.rules).unwrap();
    let ids: Vec<String> = battle.read().fighters.iter().map(|f| f.id().to_string()).collect();
    let mut work = SubjectWork::default();
    let mut shown = 0;
    for selected in [Some(ids[0].as_str()), Some(ids[1].as_str()), None, Some(ids[0].as_str())] {
        for hover in (0..8).map(|x| Some(GridPos::new(x, x / 2))).chain([None]) {
            let kept = editor_preview_kept(&battle, EditorLayers::ALL, hover, selected, &mut work);
            let fresh = editor_preview(&battle, EditorLayers::ALL, hover, selected);
            assert_eq!(kept, fresh, "{selected:?} at {hover:?}");
            shown += usize::from(!fresh.play.range.is_empty());
        }
    }
    assert!(shown > 20, "the control: a subject's range was shown ({shown} times)");
}
