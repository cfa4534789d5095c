//! The editor's rules layers about one unit (cover, flanking, movement) and the warnings of
//! a level that loads but plays badly (a side that cannot reach the other, a unit with no
//! way out), each with a control that draws none.

use super::*;
use fivefoot::editor::check::{self, Problem};
use fivefoot::editor::overlay::{EditorLayers, battle_of, editor_preview};
use fivefoot::grid::GridPos;
use fivefoot::level::{LevelDef, warnings};
use fivefoot::rules::CoverKind;
use fivefoot::variants::RulesVariant;

fn level(rows: &[&str], rules: RulesVariant, units: &[(&str, &str, (i32, i32), &str)]) -> LevelDef {
    let mut def = Document::blank(rows[0].len() as i32, rows.len() as i32, rules == RulesVariant::HexPhases)
        .unwrap()
        .into_level();
    def.map.rows = rows.iter().map(|r| r.to_string()).collect();
    def.rules = rules;
    let mut d = Document::new(def);
    for &(id, side, at, creature) in units {
        let e = Edit::place(id, creature, side, at);
        d.apply(&e, cat()).unwrap();
    }
    d.into_level()
}

fn warned(def: &LevelDef) -> Vec<Problem> {
    let all = check::problems(def, cat());
    assert!(check::errors(&all).next().is_none(), "warnings only: {all:?}");
    assert!(Level::from_def(def.clone(), cat()).is_ok(), "a level with warnings still loads and plays");
    all
}

#[test]
fn cover_flanking_and_movement_follow_the_hovered_or_selected_unit() {
    let rows = [".........", ".........", ".........", ".........", ".........", "#####....", "........."];
    let units = [
        ("a", "blue", (2, 3), "human_fighter"),
        ("b", "blue", (4, 3), "human_fighter"),
        ("g", "red", (5, 3), "goblin"),
        ("h", "red", (2, 6), "goblin"),
    ];
    let def = level(&rows, RulesVariant::D20Classic, &units);
    let b = battle_of(&def, def.rules).unwrap();
    let ids: Vec<String> = b.read().fighters.iter().map(|f| f.id().to_string()).collect();
    let idx = |id: &str| ids.iter().position(|f| f == id).unwrap();
    let (g, h) = (idx("g"), idx("h"));
    let p = editor_preview(&b, EditorLayers::ALL, Some(GridPos::new(2, 3)), None);
    assert_eq!(p.subject, Some(idx("a")), "the hovered unit");
    // Cover: a line to each foe; the goblin below the wall is out of sight, the other not.
    assert_eq!(p.cover.len(), 2, "{:?}", p.cover);
    let cover_of = |foe| p.cover.iter().find(|l| l.foe == foe).unwrap().cover;
    assert_eq!(cover_of(h), CoverKind::Total);
    assert_ne!(cover_of(g), CoverKind::Total);
    // Flanking: opposite the ally b across the goblin, and nowhere beside it.
    assert!(p.flanking.contains(&(GridPos::new(6, 3), g)), "{:?}", p.flanking);
    assert!(!p.flanking.iter().any(|&(at, _)| at == GridPos::new(6, 2) || at == GridPos::new(5, 2)));
    // Movement: its range, and leaving a square beside the goblin provokes.
    assert!(p.play.range.len() > 20, "{}", p.play.range.len());
    assert!(p.leaving_provokes.contains(&GridPos::new(4, 4)));
    assert!(!p.leaving_provokes.contains(&GridPos::new(0, 0)) && !p.leaving_provokes.contains(&GridPos::new(2, 3)));
    // b selected, the pointer on an empty square: the path there, and g strikes as b leaves.
    let p = editor_preview(&b, EditorLayers::ALL, Some(GridPos::new(1, 3)), Some("b"));
    assert_eq!(p.subject, Some(idx("b")));
    let path = p.play.path.clone().expect("a path to the hovered square");
    assert_eq!(path.squares.last(), Some(&GridPos::new(1, 3)));
    assert_eq!(path.provokes, vec![(GridPos::new(4, 3), "g".to_string())]);
    assert!(p.leaving_provokes.contains(&GridPos::new(4, 3)), "b's own square is threatened");
    // Cover from the hovered square: the lines start there.
    assert!(p.cover.iter().all(|l| l.from.origin == GridPos::new(1, 3)));
    // The control: with those layers off, nothing about a unit; with nobody, no subject.
    let off = EditorLayers { threat: true, reach: true, ..Default::default() };
    let q = editor_preview(&b, off, Some(GridPos::new(2, 3)), Some("b"));
    assert!(q.cover.is_empty() && q.flanking.is_empty() && q.play.range.is_empty() && q.play.path.is_none());
    assert!(editor_preview(&b, EditorLayers::ALL, Some(GridPos::new(8, 0)), None).subject.is_none());
    // Under a variant with no flanking rule, no flanking places.
    let osr = battle_of(&def, RulesVariant::OsrSegments).unwrap();
    assert!(editor_preview(&osr, EditorLayers::ALL, Some(GridPos::new(2, 3)), None).flanking.is_empty());
    let all = EditorLayers::ALL;
    assert!(all.threat && all.reach && all.cover && all.flanking && all.movement, "--all-layers turns every one on");
}

#[test]
fn a_unit_walled_in_has_no_way_out_and_a_free_one_is_not_warned() {
    let rows = [".....", "###..", "#.#..", "###.."];
    let units =
        [("hermit", "blue", (1, 2), "goblin"), ("scout", "blue", (3, 2), "goblin"), ("g", "red", (4, 0), "goblin")];
    let p = warned(&level(&rows, RulesVariant::D20Classic, &units));
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(p[0].warning && p[0].unit.as_deref() == Some("hermit") && p[0].message.contains("no way out"), "{p:?}");
    assert_eq!(p[0].at, Some((1, 2)));
    // The control: a door in the wall.
    let open = [".....", "#.#..", "#.#..", "###.."];
    assert!(warned(&level(&open, RulesVariant::D20Classic, &units)).is_empty());
    // Allies round it are passed through: no warning; foes round it box it in.
    let ring = [("c", "blue", (0, 0), "goblin"), ("n1", "blue", (1, 0), "goblin"), ("n2", "blue", (0, 1), "goblin")];
    let mut with_allies = ring.to_vec();
    with_allies.extend([("n3", "blue", (1, 1), "goblin"), ("g", "red", (4, 3), "goblin")]);
    assert!(warned(&level(&[".....", ".....", ".....", "....."], RulesVariant::D20Classic, &with_allies)).is_empty());
    let boxed = [
        ("c", "blue", (0, 0), "goblin"),
        ("f1", "red", (1, 0), "goblin"),
        ("f2", "red", (0, 1), "goblin"),
        ("f3", "red", (1, 1), "goblin"),
    ];
    let p = warned(&level(&[".....", ".....", ".....", "....."], RulesVariant::D20Classic, &boxed));
    assert_eq!(p.iter().map(|p| p.unit.as_deref()).collect::<Vec<_>>(), [Some("c")], "{p:?}");
}

#[test]
fn a_side_that_cannot_reach_the_other_is_warned_on_squares_and_hexes_and_a_joined_map_is_not() {
    let split = ["#######", "#..#..#", "#..#..#", "#######"];
    let joined = ["#######", "#..#..#", "#.....#", "#######"];
    let units = [("b", "blue", (1, 1), "goblin"), ("r", "red", (5, 2), "goblin")];
    for rules in [RulesVariant::D20Classic, RulesVariant::HexPhases] {
        let p = warned(&level(&split, rules, &units));
        let text: Vec<&str> = p.iter().map(|p| p.message.as_str()).collect();
        assert_eq!(text.len(), 2, "{rules:?}: {text:?}");
        assert!(text[0].contains("side \"blue\" cannot reach the other side"), "{text:?}");
        assert!(text[1].contains("side \"red\""), "{text:?}");
        assert!(p.iter().all(|p| p.warning && p.unit.is_none()));
        assert!(warned(&level(&joined, rules, &units)).is_empty(), "{rules:?}: the control");
    }
    // A Large ogre cannot squeeze through a one-square gap, though the goblin can.
    let rooms = |gap: &str| {
        let rows = ["########", "#......#", "#......#", gap, "#......#", "#......#", "########"];
        level(&rows, RulesVariant::D20Classic, &[("ogre", "blue", (1, 1), "ogre"), ("gob", "red", (1, 4), "goblin")])
    };
    let p = warned(&rooms("###.####"));
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(p[0].message.contains("side \"blue\""), "{p:?}");
    assert!(warned(&rooms("###..###")).is_empty(), "a two-square gap lets it through");
}

#[test]
fn every_shipped_level_draws_no_warning() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("levels");
    for entry in std::fs::read_dir(root).unwrap() {
        let path = entry.unwrap().path();
        let level = Level::load(&path, cat()).unwrap();
        assert_eq!(warnings(&level, cat()), vec![], "{}", path.display());
    }
}
