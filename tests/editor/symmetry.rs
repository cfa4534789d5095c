//! Units under symmetry: a placed unit's mirror image joins the other side with an id that
//! names it, and the pair moves, changes and leaves together, one undo step each time.

use super::*;

fn units(d: &Document) -> Vec<(&str, &str, (i32, i32), &str)> {
    d.level().units.iter().map(|u| (u.id.as_str(), u.side.as_str(), u.at, u.creature.as_str())).collect()
}

fn mirrored_doc() -> Document {
    let mut d = doc(22, 12);
    d.apply(&Edit::SetSymmetry(Symmetry::LeftRight), cat()).unwrap();
    d.apply(&Edit::place("b_fighter", "human_fighter", "blue", (3, 5)), cat()).unwrap();
    d
}

/// The case: under left-right symmetry a blue fighter at (3, 5) on a 22-wide map
/// gets a red `r_fighter` at (18, 5), and the level has two sides, so it checks clean.
#[test]
fn a_mirrored_unit_joins_the_other_side_with_a_matching_id() {
    let d = mirrored_doc();
    assert_eq!(
        units(&d),
        [("b_fighter", "blue", (3, 5), "human_fighter"), ("r_fighter", "red", (18, 5), "human_fighter")]
    );
    let problems = fivefoot::editor::check::problems(d.level(), cat());
    assert!(!problems.iter().any(|p| p.message == fivefoot::editor::check::TWO_SIDES), "{problems:?}");
    // An id without a side's initial takes the side as a suffix; a level that already has
    // a second side sends the image there.
    let mut d = doc(10, 4);
    d.apply(&Edit::place("boss", "ogre", "orcs", (8, 0)), cat()).unwrap();
    d.apply(&Edit::SetSymmetry(Symmetry::LeftRight), cat()).unwrap();
    d.apply(&Edit::place("hero", "human_fighter", "blue", (1, 2)), cat()).unwrap();
    assert_eq!(
        units(&d)[1..],
        [("hero", "blue", (1, 2), "human_fighter"), ("hero_orcs", "orcs", (8, 2), "human_fighter")]
    );
    // A unit on the axis is its own image: one unit.
    let mut d = doc(5, 3);
    d.apply(&Edit::SetSymmetry(Symmetry::LeftRight), cat()).unwrap();
    d.apply(&Edit::place("mid", "goblin", "red", (2, 1)), cat()).unwrap();
    assert_eq!(units(&d), [("mid", "red", (2, 1), "goblin")]);
}

/// Moving a unit moves its mirror image to the image of its new square; removing it
/// removes both; each is one undo step that gives both back.
#[test]
fn a_mirrored_pair_moves_and_leaves_together_in_one_undo_step() {
    let mut d = mirrored_doc();
    let depth = d.undo_depth();
    d.apply(&Edit::MoveUnit { id: "r_fighter".into(), to: (15, 2) }, cat()).unwrap();
    assert_eq!(
        units(&d),
        [("b_fighter", "blue", (6, 2), "human_fighter"), ("r_fighter", "red", (15, 2), "human_fighter")]
    );
    assert_eq!(d.undo_depth(), depth + 1, "one undo step");
    d.apply(&Edit::Undo, cat()).unwrap();
    assert_eq!(units(&d), units(&mirrored_doc()), "undo puts both back");
    d.apply(&Edit::RemoveUnit { id: "b_fighter".into() }, cat()).unwrap();
    assert!(units(&d).is_empty(), "both gone: {:?}", units(&d));
    d.apply(&Edit::Undo, cat()).unwrap();
    assert_eq!(units(&d), units(&mirrored_doc()));
    // A move whose image would land on a wall is refused whole.
    paint(&mut d, Terrain::Wall, Area::Cells(vec![(3, 9)]));
    let before = units(&d).len();
    assert!(
        d.apply(&Edit::MoveUnit { id: "b_fighter".into(), to: (3, 9) }, cat()).is_err(),
        "a wall there, and its image"
    );
    assert_eq!(units(&d).len(), before);
    // Without symmetry a unit moves alone (the control).
    d.apply(&Edit::SetSymmetry(Symmetry::None), cat()).unwrap();
    d.apply(&Edit::MoveUnit { id: "b_fighter".into(), to: (4, 5) }, cat()).unwrap();
    assert_eq!(units(&d)[1].2, (18, 5), "the other stays");
}

/// Changing a unit's creature or weapon changes its image's, keeping the image's side, and
/// a bigger footprint's image stands flush where that footprint mirrors.
#[test]
fn changing_a_mirrored_unit_changes_its_image_too() {
    let mut d = mirrored_doc();
    let change = Edit::ChangeUnit {
        id: "b_fighter".into(),
        creature: "ogre".into(),
        side: "blue".into(),
        weapon: Some("longspear".into()),
    };
    d.apply(&change, cat()).unwrap();
    assert_eq!(units(&d), [("b_fighter", "blue", (3, 5), "ogre"), ("r_fighter", "red", (17, 5), "ogre")]);
    assert_eq!(d.level().units[1].weapon.as_deref(), Some("longspear"));
}

/// The symmetry is saved with the level, and the problems (and `level check`) warn where it
/// does not hold, naming the first places that break it: a unit placed before the symmetry
/// was chosen, and terrain a resize shifted off the axis. A level that holds has no such
/// warning (the control).
#[test]
fn a_level_that_breaks_its_symmetry_is_warned_about_by_name() {
    let symmetry_warnings = |d: &Document| -> Vec<String> {
        let problems = fivefoot::editor::check::problems(d.level(), cat());
        problems.into_iter().filter(|p| p.message.contains("symmetry")).map(|p| p.message).collect()
    };
    let d = mirrored_doc();
    assert_eq!(d.level().symmetry, Symmetry::LeftRight, "kept in the level, so saved with it");
    assert_eq!(symmetry_warnings(&d), Vec::<String>::new());
    let mut d = doc(10, 4);
    d.apply(&Edit::place("lone", "goblin", "red", (1, 1)), cat()).unwrap();
    d.apply(&Edit::SetSymmetry(Symmetry::LeftRight), cat()).unwrap();
    assert_eq!(
        symmetry_warnings(&d),
        ["the level's left-right symmetry does not hold: unit \"lone\" has no goblin at its image (8, 1)"]
    );
    d.apply(&Edit::RemoveUnit { id: "lone".into() }, cat()).unwrap();
    paint(&mut d, Terrain::Wall, Area::Cells(vec![(0, 0)]));
    d.apply(&Edit::Resize { width: 11, height: 4, anchor: Anchor::TopLeft }, cat()).unwrap();
    let warned = symmetry_warnings(&d);
    assert_eq!(warned.len(), 1, "{warned:?}");
    let shifted = "terrain at (0, 0) and (10, 0) differ; terrain at (1, 0) and (9, 0) differ";
    assert!(warned[0].ends_with(shifted), "the wall and its old image, both off the axis now: {warned:?}");
}

/// A square level mirrored left-right is not mirrored once hex-phases lays it out as odd-r
/// hexes (odd rows shift half a hex): the note says so and how to get the hex-exact mirror.
/// Under hex-phases' own rules the editor mirrors hex-exactly, and there is no note.
#[test]
fn the_hex_layout_of_a_square_mirrored_level_is_noted_and_a_hex_level_mirrors_exactly() {
    let note = |d: &Document| {
        let level = fivefoot::level::Level::from_def(d.level().clone(), cat()).unwrap();
        fivefoot::level::hex_layout_note(&level, cat())
    };
    let d = mirrored_doc(); // a fighter on row 5, an odd row
    let said = note(&d).expect("the fighter's image on row 5 is not its hex image");
    assert!(said.contains("odd-r hexes") && said.contains("set the level's rules to hex-phases"), "{said}");
    assert_eq!(note(&doc(22, 12)), None, "no symmetry, no note");
    // The same placement on a hex-phases level: the image is the hex mirror's (odd rows
    // map x to width - 2 - x), the symmetry holds, and there is nothing to note.
    let mut d = doc(22, 12);
    d.apply(&Edit::SetRules(fivefoot::variants::RulesVariant::HexPhases), cat()).unwrap();
    d.apply(&Edit::SetSymmetry(Symmetry::LeftRight), cat()).unwrap();
    d.apply(&Edit::place("b_fighter", "human_fighter", "blue", (3, 5)), cat()).unwrap();
    assert_eq!(d.level().units[1].at, (17, 5));
    assert_eq!(note(&d), None);
    let problems = fivefoot::editor::check::problems(d.level(), cat());
    assert!(!problems.iter().any(|p| p.message.contains("symmetry")), "{problems:?}");
}
