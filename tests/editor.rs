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
    d.level().map.rows.iter().map(String::as_str).collect()
}

/// A blank `w` × `h` level saved as `name` in a fresh temporary folder named for `tag`:
/// the folder (to remove) and the file.
fn saved_blank(tag: &str, name: &str, (w, h): (i32, i32)) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("fivefoot-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(name);
    fivefoot::level::save_atomic(doc(w, h).level(), &file).unwrap();
    (dir, file)
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
    d.apply(&Edit::place("g", "goblin", "red", (0, 1)), cat()).unwrap();
    let placed: Vec<(&str, (i32, i32))> = d.level().units.iter().map(|u| (u.id.as_str(), u.at)).collect();
    assert_eq!(placed, [("g", (0, 1)), ("g_blue", (5, 2))]);
    // A Large ogre's 2x2 footprint mirrors as a whole: its copy stands flush with the far edge.
    let mut d = doc(8, 4);
    d.apply(&Edit::SetSymmetry(Symmetry::LeftRight), cat()).unwrap();
    d.apply(&Edit::place("o", "ogre", "red", (0, 1)), cat()).unwrap();
    let placed: Vec<(&str, (i32, i32))> = d.level().units.iter().map(|u| (u.id.as_str(), u.at)).collect();
    assert_eq!(placed, [("o", (0, 1)), ("o_blue", (6, 1))]);
}

/// On a hex map a fill spreads to a hex's six neighbours, and painting mirrors onto the
/// hex that mirrors it (odd rows sit half a hex right).
#[test]
fn on_hexes_fills_spread_to_six_neighbours_and_painting_mirrors_hex_for_hex() {
    let mut d = Document::blank(5, 3, true).unwrap();
    // Walls leave (1, 0) joined to row 1 only through (0, 1), half a hex down and left.
    paint(&mut d, Terrain::Wall, Area::Cells(vec![(0, 0), (2, 0), (1, 1), (2, 1), (3, 1), (4, 1), (3, 0), (4, 0)]));
    assert_eq!(rows(&d), ["#.###", ".####", "....."]);
    d.apply(&Edit::Fill { terrain: Terrain::Difficult, at: (1, 0) }, cat()).unwrap();
    assert_eq!(rows(&d), ["#~###", "~####", "~~~~~"], "down the hex side, then the whole bottom row");
    let mut d = Document::blank(6, 4, true).unwrap();
    d.apply(&Edit::SetSymmetry(Symmetry::LeftRight), cat()).unwrap();
    paint(&mut d, Terrain::Wall, Area::Cells(vec![(1, 0), (1, 1)]));
    // Row 0: (1, 0) mirrors to (4, 0); row 1, shifted: (1, 1) mirrors to (3, 1).
    assert_eq!(rows(&d)[..2], [".#..#.", ".#.#.."]);
    // The last hex of a shifted row has no image: a unit there is refused, and says why.
    let e = d.apply(&Edit::place("g", "goblin", "red", (5, 1)), cat()).unwrap_err();
    assert!(e.contains("mirror image under left-right symmetry"), "{e}");
    assert!(d.level().units.is_empty(), "nothing placed");
}

#[test]
fn unit_ids_are_made_unique_and_impossible_edits_change_nothing() {
    let mut d = doc(5, 3);
    let place = |at| Edit::place("g", "goblin", "red", at);
    d.apply(&place((0, 0)), cat()).unwrap();
    d.apply(&place((2, 0)), cat()).unwrap();
    assert_eq!(d.level().units[1].id, "g_2");
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

/// The level's house rules are an edit like any other: named once each, in order, saved
/// with the level as their names, and given back by undo.
#[test]
fn house_rules_are_set_on_the_level_saved_by_name_and_undone() {
    use fivefoot::variants::HouseRule;
    let mut d = doc(6, 4);
    d.apply(&Edit::place("a", "goblin", "blue", (0, 0)), cat()).unwrap();
    let before = d.clone();
    let rules = vec![HouseRule::NoFlanking, HouseRule::DoubleCover, HouseRule::NoFlanking];
    d.apply(&Edit::SetHouseRules(rules), cat()).unwrap();
    assert_eq!(d.level().house_rules, [HouseRule::NoFlanking, HouseRule::DoubleCover]);
    let (dir, file) = saved_blank("house-rules", "house.ron", (6, 4));
    fivefoot::level::save_atomic(d.level(), &file).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("\"no-flanking\"") && text.contains("\"double-cover\""), "{text}");
    let loaded = Level::load(&file, cat()).unwrap();
    assert_eq!(loaded.def.house_rules, d.level().house_rules);
    std::fs::remove_dir_all(dir).unwrap();
    d.apply(&Edit::Undo, cat()).unwrap();
    assert_eq!(d.level(), before.level());
    assert!(d.level().house_rules.is_empty());
    d.apply(&Edit::Redo, cat()).unwrap();
    assert_eq!(d.level().house_rules, [HouseRule::NoFlanking, HouseRule::DoubleCover]);
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
    assert_eq!(d.level().units[0].at, (4, 2));
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
        Level::from_def(d.level().clone(), cat()).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
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
        let end = (d.level().clone(), d.symmetry());
        let mut undone = 0;
        while d.can_undo() {
            d.apply(&Edit::Undo, cat()).unwrap();
            undone += 1;
        }
        prop_assert_eq!(&d.level(), &original.level());
        prop_assert_eq!(d.symmetry(), original.symmetry());
        for _ in 0..undone {
            d.apply(&Edit::Redo, cat()).unwrap();
        }
        prop_assert_eq!((d.level().clone(), d.symmetry()), end);
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
    assert_eq!(d.level(), original.level());
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
        let e = Edit::place(id, "goblin", "red", at);
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
    let g = &d.level().units[0];
    assert_eq!((g.creature.as_str(), g.side.as_str(), g.weapon.as_deref()), ("wolf", "blue", Some("longsword")));
    d.apply(&Edit::Undo, cat()).unwrap();
    assert_eq!(d.level(), before.level());
}

#[test]
fn units_and_sides_are_renamed_without_ever_sharing_an_id() {
    let mut d = doc(5, 3);
    for (id, side, at) in [("a", "red", (0, 0)), ("b", "red", (2, 0)), ("c", "blue", (4, 0))] {
        let e = Edit::place(id, "goblin", side, at);
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
    let units: Vec<(&str, &str)> = d.level().units.iter().map(|u| (u.id.as_str(), u.side.as_str())).collect();
    assert_eq!(units, [("leader", "orcs"), ("b", "orcs"), ("c", "blue")]);
    d.apply(&Edit::Undo, cat()).unwrap();
    d.apply(&Edit::Undo, cat()).unwrap();
    assert_eq!(d.level(), before.level());
}

#[test]
fn a_side_s_colour_and_who_plays_it_are_edits_that_follow_a_rename_and_undo() {
    use fivefoot::level::SideDef;
    let mut d = doc(5, 3);
    for (id, side, at) in [("a", "red", (0, 0)), ("c", "blue", (4, 0))] {
        let e = Edit::place(id, "goblin", side, at);
        d.apply(&e, cat()).unwrap();
    }
    let before = d.clone();
    assert!(d.apply(&Edit::SetSide(SideDef { name: " ".into(), person: true, ..SideDef::default() }), cat()).is_err());
    assert_eq!(d, before, "a side without a name is refused");
    let red = SideDef { name: "red".into(), colour: Some((140, 80, 200)), person: true, ai: None };
    d.apply(&Edit::SetSide(red.clone()), cat()).unwrap();
    assert_eq!(d.level().side("red"), Some(&red));
    assert_eq!(d.level().person_side(), Some("red"), "the marked side, not the first unit's");
    assert_eq!(before.level().person_side(), Some("red"), "unmarked: the first unit's side");
    d.apply(&Edit::RenameSide { from: "red".into(), to: "orcs".into() }, cat()).unwrap();
    assert_eq!(d.level().side("orcs").map(|s| s.colour), Some(Some((140, 80, 200))), "the colour goes with the name");
    assert_eq!(d.level().person_side(), Some("orcs"));
    // Neither colour nor person: the side leaves the list, and the file stays as it was.
    d.apply(&Edit::SetSide(SideDef { name: "orcs".into(), ..SideDef::default() }), cat()).unwrap();
    assert!(d.level().sides.is_empty());
    for _ in 0..3 {
        d.apply(&Edit::Undo, cat()).unwrap();
    }
    assert_eq!(d.level(), before.level());
    // Written and read back with the level.
    let mut level = before.level().clone();
    level.sides.push(red);
    let text = ron::ser::to_string_pretty(&level, ron::ser::PrettyConfig::default()).unwrap();
    let back: fivefoot::level::LevelDef = fivefoot::level::ron_options().from_str(&text).unwrap();
    assert_eq!(back, level);
    assert!(text.contains("colour: Some((140, 80, 200))") || text.contains("colour: (140, 80, 200)"), "{text}");
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
    let clip = copy(d.level(), cat(), (2, 2), (0, 0)).unwrap();
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
    assert_eq!(d.level().units[1].id, "o_2");
    assert_eq!(d.level().units[1].at, (4, 2));
    d.apply(&Edit::Undo, cat()).unwrap();
    assert_eq!(d.level(), before.level(), "one paste, one undo step");
    // A cut takes the units wholly inside and leaves floor.
    for e in cut_edits(d.level(), cat(), (0, 0), (2, 2)) {
        d.apply(&e, cat()).unwrap();
    }
    assert_eq!(rows(&d)[0], "......");
    assert!(d.level().units.is_empty());
}

/// The editor screen, headless: the game's and the editor's plugins over `doc`, with
/// `bindings`, before its first update (a test adds what else it needs).
fn editor_base(doc: fivefoot::editor::EditorDoc, bindings: fivefoot::input::Bindings) -> bevy::app::App {
    use bevy::prelude::*;
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin, bevy::input::InputPlugin))
        .add_plugins((
            fivefoot::input::BindingsPlugin { bindings },
            fivefoot::rules::RulesPlugin,
            fivefoot::combat::plugin::CombatPlugin,
            fivefoot::control::plugin::ControlPlugin,
        ))
        .add_plugins((fivefoot::game::GamePlugin, fivefoot::editor::EditorPlugin))
        .insert_resource(doc)
        .insert_state(fivefoot::game::Screen::Editor);
    app
}

#[path = "editor/screen.rs"]
mod screen;

#[path = "editor/layers.rs"]
mod layers;

#[path = "editor/file.rs"]
mod file;

#[path = "editor/revision.rs"]
mod revision;

#[path = "editor/symmetry.rs"]
mod symmetry;

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
        run.start(level.clone(), 7, vec![RulesVariant::D20Classic], 4);
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
    let answer = run.result.clone().expect("an answer within 6 s");
    assert_eq!(answer.name, "Twin bridges");
    assert!(!answer.out_of_date(7) && answer.out_of_date(8), "for the revision it ran on");
    let reports = answer.reports;
    let spec = BalanceSpec { battles: 20, variants: vec![RulesVariant::D20Classic], seed: 4, threads: 1 };
    assert_eq!(reports.unwrap(), check_balance(&level, cat(), &spec, &mut |_| {}).unwrap());
}

/// Balance figures are for the level as simulated: an edit makes them out of date, and
/// undoing back to that level makes them current again.
#[test]
fn balance_results_go_out_of_date_with_an_edit_and_back_with_its_undo() {
    use fivefoot::editor::simulate::BalanceAnswer;
    let mut d = doc(6, 4);
    let answer = BalanceAnswer { name: "x".into(), revision: d.revision(), reports: Ok(vec![]), hex_note: None };
    assert!(!answer.out_of_date(d.revision()));
    paint(&mut d, Terrain::Wall, Area::Cells(vec![(1, 1)]));
    assert!(answer.out_of_date(d.revision()), "the level changed since");
    d.apply(&Edit::Undo, cat()).unwrap();
    assert!(!answer.out_of_date(d.revision()), "undone back to the simulated level");
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
    assert_eq!(ed.doc.level().name, "Crossroads at dusk");
    assert!(!ed.dirty());
    // Changed again under an unsaved edit: asked, the edit kept meanwhile.
    assert!(ed.apply(&Edit::SetName("Mine".into())));
    std::fs::write(&file, text.replace("Crossroads skirmish", "Theirs")).unwrap();
    assert_eq!(ed.check_disk(), DiskChange::Asking);
    assert_eq!(ed.doc.level().name, "Mine");
    assert_eq!(ed.disk_changed.as_ref().map(|l| l.name.as_str()), Some("Theirs"));
    assert_eq!(ed.check_disk(), DiskChange::None, "asked once");
    ed.keep_own();
    assert_eq!(ed.check_disk(), DiskChange::None, "not offered again");
    assert_eq!(ed.doc.level().name, "Mine");
    // And once more, this time taking the file's version.
    std::fs::write(&file, text.replace("Crossroads skirmish", "Theirs again")).unwrap();
    assert_eq!(ed.check_disk(), DiskChange::Asking);
    let theirs = ed.disk_changed.clone().unwrap();
    ed.load_from_disk(theirs);
    assert_eq!(ed.doc.level().name, "Theirs again");
    assert!(!ed.dirty());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The fair evaluation levels: mirrored or point-symmetric, and fair under greedy against
/// greedy, so that swapping sides measures an AI and not the level. Each side wins 40–60 %
/// of 200 battles (colours swapped for the second half) under every variant.
#[test]
fn the_symmetric_levels_are_fair_under_greedy_against_greedy() {
    use fivefoot::editor::balance::{BalanceSpec, check_balance};
    use fivefoot::variants::RulesVariant;
    for name in ["melee-ring", "archers-walls", "pike-ford", "ogre-pit", "hex-mirror", "mage-duel", "twin-bridges"] {
        let path = format!("{}/levels/{name}.ron", env!("CARGO_MANIFEST_DIR"));
        let level = Level::load(&path, cat()).unwrap();
        let spec = BalanceSpec { battles: 200, variants: RulesVariant::ALL.to_vec(), seed: 1, threads: 2 };
        for report in check_balance(&level, cat(), &spec, &mut |_| {}).unwrap() {
            for side in &report.sides {
                assert!(
                    (80..=120).contains(&side.wins),
                    "{name} under {}: {} wins {} of 200",
                    report.rules,
                    side.side,
                    side.wins
                );
            }
        }
    }
}
