//! The level editor's model: every tool as edits, symmetry, unique ids, resizing with an
//! anchor, refusals that change nothing, undo that gives back the level exactly, and a
//! gesture (one drag) as one undo step. Then the editor screen headless: mouse gestures
//! and keys through the app, saving with problems, and the play-test round trip.

use fivefoot::editor::{Anchor, Area, Document, Edit, Symmetry};
use fivefoot::grid::Terrain;
use fivefoot::level::{Catalogue, Level};
use proptest::prelude::*;

fn cat() -> &'static Catalogue {
    Catalogue::builtin_ref()
}

fn doc(w: i32, h: i32) -> Document {
    Document::blank(w, h, false).unwrap()
}

fn rows(d: &Document) -> Vec<&str> {
    d.level.map.rows.iter().map(String::as_str).collect()
}

fn paint(d: &mut Document, terrain: Terrain, area: Area) {
    d.apply(&Edit::Paint { terrain, area }, cat()).unwrap();
}

#[test]
fn terrain_tools_paint_rectangles_outlines_lines_brushes_and_fills() {
    let mut d = doc(7, 5);
    paint(&mut d, Terrain::Wall, Area::RectOutline { from: (0, 0), to: (6, 4) });
    assert_eq!(rows(&d), ["#######", "#.....#", "#.....#", "#.....#", "#######"]);
    paint(&mut d, Terrain::LowWall, Area::Line { from: (1, 1), to: (5, 3) });
    // Bresenham's squares from (1, 1) to (5, 3): (1,1) (2,2) (3,2) (4,3) (5,3).
    assert_eq!(rows(&d)[1..4], ["#=....#", "#.==..#", "#...==#"]);
    d.apply(&Edit::Fill { terrain: Terrain::Difficult, at: (5, 1) }, cat()).unwrap();
    // The fill stops at walls and low walls: the region above the line only.
    assert_eq!(rows(&d)[1..4], ["#=~~~~#", "#.==~~#", "#...==#"]);
    let mut d = doc(5, 5);
    paint(&mut d, Terrain::Wall, Area::Brush { at: (2, 2), size: 3 });
    assert_eq!(rows(&d), [".....", ".###.", ".###.", ".###.", "....."]);
    paint(&mut d, Terrain::Floor, Area::Cells(vec![(2, 2), (9, 9)]));
    assert_eq!(rows(&d)[2], ".#.#.", "an eraser paints floor; squares off the map are ignored");
}

#[test]
fn symmetry_mirrors_painting_and_placing() {
    let mut d = doc(6, 4);
    d.apply(&Edit::SetSymmetry(Symmetry::LeftRight), cat()).unwrap();
    paint(&mut d, Terrain::Wall, Area::Cells(vec![(1, 0)]));
    assert_eq!(rows(&d)[0], ".#..#.");
    d.apply(&Edit::SetSymmetry(Symmetry::Point), cat()).unwrap();
    let place =
        Edit::PlaceUnit { id: "g".into(), creature: "goblin".into(), side: "red".into(), at: (0, 1), weapon: None };
    d.apply(&place, cat()).unwrap();
    let placed: Vec<(&str, (i32, i32))> = d.level.units.iter().map(|u| (u.id.as_str(), u.at)).collect();
    assert_eq!(placed, [("g", (0, 1)), ("g_mirror", (5, 2))]);
}

#[test]
fn unit_ids_are_made_unique_and_impossible_edits_change_nothing() {
    let mut d = doc(5, 3);
    let place =
        |at| Edit::PlaceUnit { id: "g".into(), creature: "goblin".into(), side: "red".into(), at, weapon: None };
    d.apply(&place((0, 0)), cat()).unwrap();
    d.apply(&place((2, 0)), cat()).unwrap();
    assert_eq!(d.level.units[1].id, "g_2");
    let before = d.clone();
    // On a unit, on a wall, off the map, an unknown creature: refused, nothing changed.
    assert!(d.apply(&place((0, 0)), cat()).unwrap_err().contains("overlap"));
    paint(&mut d, Terrain::Wall, Area::Cells(vec![(4, 2)]));
    let after_wall = d.clone();
    assert!(d.apply(&place((4, 2)), cat()).unwrap_err().contains("wall"));
    assert!(d.apply(&place((7, 0)), cat()).unwrap_err().contains("outside"));
    let ogre =
        Edit::PlaceUnit { id: "o".into(), creature: "dragon".into(), side: "red".into(), at: (1, 1), weapon: None };
    assert!(d.apply(&ogre, cat()).unwrap_err().contains("unknown creature"));
    assert!(d.apply(&Edit::Paint { terrain: Terrain::Wall, area: Area::Cells(vec![(0, 0)]) }, cat()).is_err());
    assert_eq!(d, after_wall);
    d.apply(&Edit::Undo, cat()).unwrap();
    assert_eq!(d, {
        let mut b = before.clone();
        b.apply(&Edit::Paint { terrain: Terrain::Wall, area: Area::Cells(vec![(4, 2)]) }, cat()).unwrap();
        b.apply(&Edit::Undo, cat()).unwrap();
        b
    });
}

#[test]
fn a_resize_keeps_units_where_they_were_by_its_anchor_or_names_those_that_would_fall_off() {
    let mut d = doc(4, 2);
    paint(&mut d, Terrain::Wall, Area::Cells(vec![(0, 0)]));
    let place =
        Edit::PlaceUnit { id: "g".into(), creature: "goblin".into(), side: "red".into(), at: (3, 1), weapon: None };
    d.apply(&place, cat()).unwrap();
    d.apply(&Edit::Resize { width: 6, height: 4, anchor: Anchor::Centre }, cat()).unwrap();
    assert_eq!(rows(&d), ["......", ".#....", "......", "......"]);
    assert_eq!(d.level.units[0].at, (4, 2));
    let err = d.apply(&Edit::Resize { width: 3, height: 3, anchor: Anchor::TopLeft }, cat()).unwrap_err();
    assert!(err.contains("fall off") && err.contains('g'), "{err}");
    assert!(d.apply(&Edit::Resize { width: 65, height: 4, anchor: Anchor::TopLeft }, cat()).is_err());
}

#[test]
fn every_shipped_level_opens_in_the_editor_and_an_edited_copy_still_loads() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("levels");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let def = fivefoot::editor::cli::read_level(&path).unwrap();
        let mut d = Document::new(def);
        d.apply(&Edit::SetName("edited".into()), cat()).unwrap();
        Level::from_def(d.level.clone(), cat()).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}

/// A hostile or mistaken edit file: a rectangle or line a billion squares long is refused at
/// once (found by the edit-script fuzz target, which it used to keep busy for minutes), and
/// changes nothing; the same rectangle within reach paints.
#[test]
fn an_area_far_off_any_map_is_refused_at_once() {
    let mut d = doc(8, 6);
    let before = d.clone();
    for area in [
        Area::Rect { from: (0, 0), to: (1 << 30, 1 << 30) },
        Area::Line { from: (-(1 << 30), 0), to: (3, 3) },
        Area::RectOutline { from: (0, 0), to: (500, 2) },
    ] {
        let e = d.apply(&Edit::Paint { terrain: Terrain::Wall, area }, cat()).unwrap_err();
        assert!(e.contains("far off any map"), "{e}");
        assert_eq!(d, before);
    }
    paint(&mut d, Terrain::Wall, Area::Rect { from: (0, 0), to: (100, 1) });
    assert_eq!(rows(&d)[..2], ["########", "########"]);
}

fn edit() -> impl Strategy<Value = Edit> {
    let cell = (-1i32..9, -1i32..7);
    let terrain = prop::sample::select(Terrain::ALL.to_vec());
    let id = prop::sample::select(vec!["a", "b", "c"]);
    prop_oneof![
        (terrain.clone(), cell.clone(), cell.clone())
            .prop_map(|(terrain, from, to)| Edit::Paint { terrain, area: Area::Rect { from, to } }),
        (terrain.clone(), cell.clone(), cell.clone())
            .prop_map(|(terrain, from, to)| Edit::Paint { terrain, area: Area::Line { from, to } }),
        (terrain, cell.clone()).prop_map(|(terrain, at)| Edit::Fill { terrain, at }),
        (id.clone(), cell.clone(), any::<bool>()).prop_map(|(id, at, red)| Edit::PlaceUnit {
            id: id.into(),
            creature: if red { "goblin" } else { "ogre" }.into(),
            side: if red { "red" } else { "blue" }.into(),
            at,
            weapon: None,
        }),
        (id.clone(), cell).prop_map(|(id, to)| Edit::MoveUnit { id: id.into(), to }),
        id.clone().prop_map(|id| Edit::RemoveUnit { id: id.into() }),
        (id.clone(), id.clone()).prop_map(|(id, to)| Edit::RenameUnit { id: id.into(), to: to.into() }),
        Just(Edit::RenameSide { from: "red".into(), to: "blue".into() }),
        (id, any::<bool>()).prop_map(|(id, big)| Edit::ChangeUnit {
            id: id.into(),
            creature: if big { "ogre" } else { "wolf" }.into(),
            side: "green".into(),
            weapon: None,
        }),
        (1i32..10, 1i32..8).prop_map(|(width, height)| Edit::Resize { width, height, anchor: Anchor::Centre }),
        prop::sample::select(vec![Symmetry::None, Symmetry::LeftRight, Symmetry::TopBottom, Symmetry::Point])
            .prop_map(Edit::SetSymmetry),
        Just(Edit::Undo),
        Just(Edit::Redo),
    ]
}

proptest! {
    /// Any sequence of edits (undos and redos among them), then undo until nothing is left
    /// to undo, gives back the original level exactly; as many redos give back where it
    /// ended.
    #[test]
    fn undoing_every_edit_gives_back_the_original_level_exactly(edits in prop::collection::vec(edit(), 1..40)) {
        let original = doc(8, 6);
        let mut d = original.clone();
        for e in &edits {
            let _ = d.apply(e, cat());
        }
        let end = (d.level.clone(), d.symmetry);
        let mut undone = 0;
        while d.can_undo() {
            d.apply(&Edit::Undo, cat()).unwrap();
            undone += 1;
        }
        prop_assert_eq!(&d.level, &original.level);
        prop_assert_eq!(d.symmetry, original.symmetry);
        for _ in 0..undone {
            d.apply(&Edit::Redo, cat()).unwrap();
        }
        prop_assert_eq!((d.level.clone(), d.symmetry), end);
    }
}

#[test]
fn a_whole_brush_drag_undoes_at_once() {
    let mut d = doc(6, 3);
    let original = d.clone();
    d.begin_group();
    for x in 0..4 {
        paint(&mut d, Terrain::Wall, Area::Brush { at: (x, 1), size: 1 });
    }
    d.end_group();
    assert_eq!(rows(&d)[1], "####..");
    assert_eq!(d.undo_depth(), 1, "the drag is one step");
    d.apply(&Edit::Undo, cat()).unwrap();
    assert_eq!(d.level, original.level);
    assert!(!d.can_undo());
    d.apply(&Edit::Redo, cat()).unwrap();
    assert_eq!(rows(&d)[1], "####..", "and one redo brings all of it back");
    // A gesture that changes nothing leaves no step; the next edit is a step of its own.
    d.begin_group();
    paint(&mut d, Terrain::Wall, Area::Cells(vec![(0, 1)]));
    d.end_group();
    assert_eq!(d.undo_depth(), 1);
    paint(&mut d, Terrain::Difficult, Area::Cells(vec![(5, 0)]));
    paint(&mut d, Terrain::Difficult, Area::Cells(vec![(5, 2)]));
    assert_eq!(d.undo_depth(), 3);
}

#[test]
fn a_placed_unit_changes_creature_side_and_weapon_where_it_fits() {
    let mut d = doc(5, 3);
    for (id, at) in [("g", (0, 0)), ("h", (1, 1))] {
        let e = Edit::PlaceUnit { id: id.into(), creature: "goblin".into(), side: "red".into(), at, weapon: None };
        d.apply(&e, cat()).unwrap();
    }
    let change = |creature: &str, side: &str, weapon: Option<&str>| Edit::ChangeUnit {
        id: "g".into(),
        creature: creature.into(),
        side: side.into(),
        weapon: weapon.map(String::from),
    };
    let before = d.clone();
    // A Large ogre at (0, 0) would cover h at (1, 1); an unknown weapon, a blank side: refused.
    assert!(d.apply(&change("ogre", "blue", None), cat()).unwrap_err().contains("overlap"));
    assert!(d.apply(&change("wolf", "blue", Some("spear_of_nothing")), cat()).unwrap_err().contains("unknown weapon"));
    assert!(d.apply(&change("wolf", " ", None), cat()).unwrap_err().contains("side"));
    assert_eq!(d, before, "refusals change nothing");
    d.apply(&change("wolf", "blue", Some("longsword")), cat()).unwrap();
    let g = &d.level.units[0];
    assert_eq!((g.creature.as_str(), g.side.as_str(), g.weapon.as_deref()), ("wolf", "blue", Some("longsword")));
    d.apply(&Edit::Undo, cat()).unwrap();
    assert_eq!(d.level, before.level);
}

#[test]
fn units_and_sides_are_renamed_without_ever_sharing_an_id() {
    let mut d = doc(5, 3);
    for (id, side, at) in [("a", "red", (0, 0)), ("b", "red", (2, 0)), ("c", "blue", (4, 0))] {
        let e = Edit::PlaceUnit { id: id.into(), creature: "goblin".into(), side: side.into(), at, weapon: None };
        d.apply(&e, cat()).unwrap();
    }
    let before = d.clone();
    let rename = |id: &str, to: &str| Edit::RenameUnit { id: id.into(), to: to.into() };
    assert!(d.apply(&rename("a", "b"), cat()).unwrap_err().contains("already"));
    assert!(d.apply(&rename("a", " "), cat()).is_err());
    assert!(d.apply(&rename("zz", "y"), cat()).unwrap_err().contains("no unit"));
    assert!(d.apply(&Edit::RenameSide { from: "green".into(), to: "x".into() }, cat()).is_err());
    assert_eq!(d, before, "refusals change nothing");
    d.apply(&rename("a", "leader"), cat()).unwrap();
    d.apply(&Edit::RenameSide { from: "red".into(), to: "orcs".into() }, cat()).unwrap();
    let units: Vec<(&str, &str)> = d.level.units.iter().map(|u| (u.id.as_str(), u.side.as_str())).collect();
    assert_eq!(units, [("leader", "orcs"), ("b", "orcs"), ("c", "blue")]);
    d.apply(&Edit::Undo, cat()).unwrap();
    d.apply(&Edit::Undo, cat()).unwrap();
    assert_eq!(d.level, before.level);
}

#[test]
fn a_clip_is_copied_turned_mirrored_and_pasted_as_edits() {
    use fivefoot::editor::clipboard::{copy, cut_edits};
    let mut d = doc(6, 4);
    paint(&mut d, Terrain::Wall, Area::Cells(vec![(0, 0)]));
    paint(&mut d, Terrain::Difficult, Area::Cells(vec![(2, 0)]));
    let e = Edit::PlaceUnit { id: "o".into(), creature: "ogre".into(), side: "red".into(), at: (1, 1), weapon: None };
    d.apply(&e, cat()).unwrap();
    // The 3x3 from (0, 0): "#.~" over two rows of floor, the Large ogre at (1, 1) inside.
    let clip = copy(&d.level, cat(), (2, 2), (0, 0)).unwrap();
    assert_eq!((clip.width, clip.height, clip.units.len()), (3, 3, 1));
    let turned = clip.rotated(cat());
    // A quarter clockwise: the wall goes to the top-right corner, the rubble to the bottom-right.
    assert_eq!((turned.terrain[2], turned.terrain[8]), (Terrain::Wall, Terrain::Difficult));
    assert_eq!(turned.units[0].at, (0, 1));
    assert_eq!(clip.flipped(cat()).terrain[..3], [Terrain::Difficult, Terrain::Floor, Terrain::Wall]);
    assert_eq!(clip.flipped(cat()).units[0].at, (0, 1));
    assert_eq!(clip.rotated(cat()).rotated(cat()).rotated(cat()).rotated(cat()), clip);
    // Pasted at (3, 1): terrain and a second ogre, its id made unique.
    let before = d.clone();
    d.begin_group();
    for e in clip.paste_edits((3, 1)) {
        d.apply(&e, cat()).unwrap();
    }
    d.end_group();
    assert_eq!(rows(&d), ["#.~...", "...#.~", "......", "......"]);
    assert_eq!(d.level.units[1].id, "o_2");
    assert_eq!(d.level.units[1].at, (4, 2));
    d.apply(&Edit::Undo, cat()).unwrap();
    assert_eq!(d.level, before.level, "one paste, one undo step");
    // A cut takes the units wholly inside and leaves floor.
    for e in cut_edits(&d.level, cat(), (0, 0), (2, 2)) {
        d.apply(&e, cat()).unwrap();
    }
    assert_eq!(rows(&d)[0], "......");
    assert!(d.level.units.is_empty());
}

mod screen {
    use super::*;
    use bevy::prelude::*;
    use bevy::state::app::StatesPlugin;
    use fivefoot::combat::plugin::{BattleRes, CombatPlugin};
    use fivefoot::control::plugin::{ControlPlugin, Pointer};
    use fivefoot::editor::session::Problems;
    use fivefoot::editor::tools::{EditorTools, Tool};
    use fivefoot::editor::{EditorAction, EditorDoc, EditorPlugin};
    use fivefoot::game::{GamePlugin, PlayTest, Screen};
    use fivefoot::grid::GridPos;
    use fivefoot::input::{Bindings, BindingsPlugin};
    use fivefoot::rules::{Combatant, RulesPlugin};
    use leafwing_input_manager::prelude::Buttonlike;

    fn editor_app(doc: Document, path: Option<std::path::PathBuf>) -> App {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, StatesPlugin, bevy::input::InputPlugin))
            .add_plugins((BindingsPlugin { bindings: Bindings::default() }, RulesPlugin, CombatPlugin, ControlPlugin))
            .add_plugins((GamePlugin, EditorPlugin))
            .insert_resource(EditorDoc::new(doc, path))
            .insert_state(Screen::Editor);
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
        let ids: Vec<String> = doc_of(&app).level.units.iter().map(|u| u.id.clone()).collect();
        assert_eq!(ids, ["goblin", "goblin_2"]);
        // Drag the first from (1, 1) to (2, 3): one move.
        point(&mut app, 1, 1);
        MouseButton::Left.press(app.world_mut());
        app.update();
        point(&mut app, 2, 3);
        app.update();
        MouseButton::Left.release(app.world_mut());
        app.update();
        assert_eq!(doc_of(&app).level.units[0].at, (2, 3));
        assert_eq!(app.world().resource::<EditorTools>().selected.as_deref(), Some("goblin"));
        point(&mut app, 4, 2);
        tap(&mut app, MouseButton::Right);
        assert_eq!(doc_of(&app).level.units.len(), 1);
        tap(&mut app, KeyCode::Delete);
        assert!(doc_of(&app).level.units.is_empty(), "Delete removes the selected unit");
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
        assert_eq!(saved, doc_of(&app).level);
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
        let mut b = battle_of(&d.level, d.level.rules).expect("a sound level sets up");
        let both = EditorLayers { threat: true, reach: true };
        let p = editor_preview(&mut b, both, Some(GridPos::new(1, 2)));
        // The goblin threatens the 8 squares round it; the ogre (Large, 10-ft reach) many more.
        assert_eq!(p.hovered_threat.len(), 8, "{:?}", p.hovered_threat);
        assert!(p.enemy_threat.len() > 8 + 12, "{}", p.enemy_threat.len());
        assert!(p.enemy_threat.iter().all(|&(_, n)| n >= 1));
        let threat_only = editor_preview(&mut b, EditorLayers { threat: true, reach: false }, Some(GridPos::new(1, 2)));
        assert!(threat_only.hovered_threat.is_empty());
        let reach_only = editor_preview(&mut b, EditorLayers { threat: false, reach: true }, Some(GridPos::new(1, 2)));
        assert!(reach_only.enemy_threat.is_empty() && reach_only.hovered_threat.len() == 8);
        // A unit on a wall: no battle to show.
        let mut broken = d.level.clone();
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
        assert_eq!(ed.doc.level.name, "Crossroads skirmish");
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
        assert_eq!(doc_of(&app).level.name, "mine");
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
        let dir = std::env::temp_dir().join(format!("fivefoot-recovery-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("ford.ron");
        fivefoot::level::save_atomic(&doc(5, 3).level, &file).unwrap();
        let open =
            || EditorDoc::new(Document::new(fivefoot::editor::cli::read_level(&file).unwrap()), Some(file.clone()));
        let mut ed = open();
        assert!(ed.recovered.is_none());
        ed.apply(&Edit::SetName("Ford".into()));
        let kept = ed.autosave().unwrap();
        assert_eq!(kept, dir.join(".ford.ron.recovery"));
        // The session ends without saving; the next one finds the edits and restores them.
        let mut again = open();
        assert_eq!(again.recovered.as_ref().map(|l| l.name.as_str()), Some("Ford"));
        again.restore_recovered();
        assert_eq!(again.doc.level.name, "Ford");
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
        assert_eq!(fourth.doc.level.name, "Ford");
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
        let first = doc_of(&app).level.clone();
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
        assert_eq!(count, edited.level.units.len());
        let res = app.world().resource::<BattleRes>();
        assert_eq!(res.battle.level_name, "Crossroads, edited", "the level as it stands, not as saved");
        assert!(res.human_sides.is_empty(), "AI against AI by default");

        tap(&mut app, KeyCode::Escape);
        app.update();
        assert_eq!(screen(&app), Screen::Editor);
        assert!(!app.world().contains_resource::<BattleRes>());
        assert!(!app.world().contains_resource::<PlayTest>());
        assert!(!scratch.exists(), "the scratch copy is gone");
        assert_eq!(doc_of(&app).level, edited.level);
        assert_eq!(doc_of(&app).undo_depth(), 2, "the undo history survived");
        assert_eq!(app.world().resource::<EditorTools>().selected.as_deref(), Some("fighter"));
        app.world_mut().write_message(EditorAction::Undo);
        app.update();
        app.world_mut().write_message(EditorAction::Undo);
        app.update();
        assert_eq!(doc_of(&app).level, first, "undone back to the file as opened");
    }
}

/// The editor's Simulate panel runs the balance check on a worker thread and, once done,
/// holds the same reports as the check run directly.
#[test]
fn the_simulate_panel_runs_the_balance_check_off_the_main_thread() {
    use bevy::prelude::*;
    use fivefoot::editor::balance::{BalanceSpec, check_balance};
    use fivefoot::editor::simulate::{BalanceRun, poll_balance};
    use fivefoot::variants::RulesVariant;
    let level = Level::load(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/twin-bridges.ron"), cat()).unwrap();
    let mut app = App::new();
    app.add_plugins(MinimalPlugins).init_resource::<BalanceRun>().add_systems(Update, poll_balance);
    app.update();
    {
        let mut run = app.world_mut().resource_mut::<BalanceRun>();
        run.battles = 20;
        run.start(level.clone(), vec![RulesVariant::D20Classic], 4);
        assert!(run.progress().is_some(), "under way");
    }
    for _ in 0..600 {
        app.update();
        if app.world().resource::<BalanceRun>().result.is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let run = app.world().resource::<BalanceRun>();
    assert!(run.progress().is_none(), "done");
    let (name, reports) = run.result.clone().expect("an answer within 6 s");
    assert_eq!(name, "Twin bridges");
    let spec = BalanceSpec { battles: 20, variants: vec![RulesVariant::D20Classic], seed: 4, threads: 1 };
    assert_eq!(reports.unwrap(), check_balance(&level, cat(), &spec, &mut |_| {}).unwrap());
}

/// "Loading a level and saving it unchanged gives the same file": the hand-written levels
/// keep their comments and layout byte for byte; after an edit the save rewrites the file.
#[test]
fn a_level_saved_unchanged_is_the_same_file_byte_for_byte() {
    use fivefoot::editor::session::EditorDoc;
    let dir = std::env::temp_dir().join(format!("fivefoot-resave-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["skirmish.ron", "hex-field.ron", "twin-bridges.ron"] {
        let file = dir.join(name);
        let original =
            std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("levels").join(name)).unwrap();
        std::fs::write(&file, &original).unwrap();
        let mut ed =
            EditorDoc::new(Document::new(fivefoot::editor::cli::read_level(&file).unwrap()), Some(file.clone()));
        ed.save().unwrap();
        assert_eq!(std::fs::read(&file).unwrap(), original, "{name}");
        // The control: a real change is written.
        assert!(ed.apply(&Edit::SetName("Renamed".into())));
        ed.save().unwrap();
        assert_ne!(std::fs::read(&file).unwrap(), original, "{name}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// "If the open file changes on disk, reload it (or ask when there are unsaved edits)."
#[test]
fn a_file_changed_on_disk_is_reloaded_or_offered_when_there_are_unsaved_edits() {
    use fivefoot::editor::session::EditorDoc;
    use fivefoot::editor::watch::DiskChange;
    let dir = std::env::temp_dir().join(format!("fivefoot-watch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("level.ron");
    let text = include_str!("../levels/skirmish.ron");
    std::fs::write(&file, text).unwrap();
    let mut ed = EditorDoc::new(Document::new(fivefoot::editor::cli::read_level(&file).unwrap()), Some(file.clone()));
    assert_eq!(ed.check_disk(), DiskChange::None, "the control: nothing changed");
    // Changed on disk, no unsaved edits: loaded.
    std::fs::write(&file, text.replace("Crossroads skirmish", "Crossroads at dusk")).unwrap();
    assert_eq!(ed.check_disk(), DiskChange::Reloaded);
    assert_eq!(ed.doc.level.name, "Crossroads at dusk");
    assert!(!ed.dirty());
    // Changed again under an unsaved edit: asked, the edit kept meanwhile.
    assert!(ed.apply(&Edit::SetName("Mine".into())));
    std::fs::write(&file, text.replace("Crossroads skirmish", "Theirs")).unwrap();
    assert_eq!(ed.check_disk(), DiskChange::Asking);
    assert_eq!(ed.doc.level.name, "Mine");
    assert_eq!(ed.disk_changed.as_ref().map(|l| l.name.as_str()), Some("Theirs"));
    assert_eq!(ed.check_disk(), DiskChange::None, "asked once");
    ed.keep_own();
    assert_eq!(ed.check_disk(), DiskChange::None, "not offered again");
    assert_eq!(ed.doc.level.name, "Mine");
    // And once more, this time taking the file's version.
    std::fs::write(&file, text.replace("Crossroads skirmish", "Theirs again")).unwrap();
    assert_eq!(ed.check_disk(), DiskChange::Asking);
    let theirs = ed.disk_changed.clone().unwrap();
    ed.load_from_disk(theirs);
    assert_eq!(ed.doc.level.name, "Theirs again");
    assert!(!ed.dirty());
    std::fs::remove_dir_all(&dir).unwrap();
}
