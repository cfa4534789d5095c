//! The level editor's model: every tool as edits, symmetry, unique ids, resizing with an
//! anchor, refusals that change nothing, and undo that gives back the level exactly.

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
        id.prop_map(|id| Edit::RemoveUnit { id: id.into() }),
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
