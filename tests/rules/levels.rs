//! Levels from RON: the example level, hit point bounds, errors naming file, line and column, unknown creatures, terrain and fields, shipped levels.

use super::*;

// ---------------------------------------------------------------- levels

fn parse(text: &str) -> Result<Level, LevelError> {
    Level::parse(text, Path::new("levels/bad.ron"), &Catalogue::builtin())
}

/// The issue's own example level.
const GOOD: &str = include_str!("../fixtures/ogre-bridge.ron");

#[test]
fn the_issue_example_level_loads() {
    let lvl = parse(GOOD).unwrap();
    assert_eq!(lvl.def.units[1].weapon.as_deref(), Some("greatclub"));
    assert!(!lvl.def.units[1].is_aware());
    assert_eq!(lvl.terrain.get(GridPos::new(3, 2)), Terrain::LowWall);
    assert_eq!(lvl.terrain.get(GridPos::new(4, 1)), Terrain::Difficult);
}

fn error_of(text: &str) -> String {
    parse(text).unwrap_err().to_string()
}

#[test]
fn hit_points_beyond_the_bound_are_refused_at_load() {
    // The control: a unit's own hit points within the bound load.
    let ok = GOOD.replace("creature: \"human_fighter\")", "creature: \"human_fighter\", hp: 1000000)");
    assert_eq!(parse(&ok).unwrap().def.units[0].hp, Some(1_000_000));
    let big = GOOD.replace("creature: \"human_fighter\")", "creature: \"human_fighter\", hp: 1073741824)");
    let e = error_of(&big);
    assert!(e.contains("levels/bad.ron:13:") && e.contains("hero") && e.contains("1 to 1000000"), "{e}");
    // A catalogue creature with 2^30 hit points is refused, naming the creature.
    let weapons = include_str!("../../assets/weapons.ron");
    let spells = include_str!("../../assets/spells.ron");
    let creature = |hp: i64| {
        format!(
            r#"{{"titan": (name: "T", size: Medium, speed_ft: 30, abilities: (str: 10, dex: 10, con: 10, int: 10, wis: 10, cha: 10), base_attack: 0, hit_dice: 1, hp: {hp}, weapon: "dagger")}}"#
        )
    };
    assert!(Catalogue::parse(&creature(30), weapons, spells).is_ok());
    let e = Catalogue::parse(&creature(1 << 30), weapons, spells).unwrap_err();
    assert!(e.contains("titan") && e.contains("1073741824 hit points"), "{e}");
}

#[test]
fn syntax_errors_name_file_line_and_column() {
    let text = GOOD.replace("creature: \"human_fighter\")", "creature: \"human_fighter\"");
    let e = error_of(&text);
    assert!(e.starts_with("levels/bad.ron:"), "{e}");
    let e = error_of("(\n    name: \"x\",\n    rules: \"d20-modern\",\n    map: (rows: [\".\"]),\n    units: [],\n)");
    assert!(e.starts_with("levels/bad.ron:3:"), "{e}");
}

#[test]
fn unknown_creatures_and_weapons_name_the_unit_and_position() {
    let e = error_of(&GOOD.replace("\"ogre\"", "\"ogar\""));
    assert!(e.starts_with("levels/bad.ron:14:58:"), "{e}");
    assert!(e.contains("unit \"brute\"") && e.contains("unknown creature \"ogar\""), "{e}");
    let e = error_of(&GOOD.replace("\"greatclub\"", "\"greatclob\""));
    assert!(e.contains("unit \"brute\"") && e.contains("unknown weapon \"greatclob\""), "{e}");
}

#[test]
fn unknown_terrain_and_ragged_rows_point_at_the_character() {
    let e = error_of(&GOOD.replace("#..=.....#", "#..=..x..#"));
    assert!(e.starts_with("levels/bad.ron:8:20:"), "{e}");
    assert!(e.contains("'x'") && e.contains("(6, 2)"), "{e}");
    let e = error_of(&GOOD.replace("#..=.....#", "#..=....#"));
    assert!(e.contains("row 2 has 9 squares"), "{e}");
}

#[test]
fn units_on_walls_outside_the_map_or_on_each_other_are_refused() {
    let e = error_of(&GOOD.replace("at: (2, 1)", "at: (0, 1)"));
    assert!(e.contains("unit \"hero\"") && e.contains("wall at (0, 1)"), "{e}");
    assert!(e.starts_with("levels/bad.ron:13:40:"), "{e}");
    let e = error_of(&GOOD.replace("at: (2, 1)", "at: (12, 1)"));
    assert!(e.contains("outside the 10×4 map"), "{e}");
    // The ogre is 2×2: at (7, 1) its footprint reaches the wall column.
    let e = error_of(&GOOD.replace("at: (5, 1)", "at: (8, 1)"));
    assert!(e.contains("unit \"brute\"") && e.contains("wall"), "{e}");
    let e = error_of(&GOOD.replace("at: (2, 1)", "at: (6, 2)"));
    assert!(e.contains("overlaps unit \"brute\"") || e.contains("overlaps unit \"hero\""), "{e}");
    let e = error_of(&GOOD.replace("id: \"brute\"", "id: \"hero\""));
    assert!(e.contains("duplicate unit id"), "{e}");
}

#[test]
fn unknown_fields_are_refused_rather_than_ignored() {
    let e = error_of(&GOOD.replace("aware: false", "awake: false"));
    assert!(e.starts_with("levels/bad.ron:14:"), "{e}");
}

#[test]
fn levels_round_trip_through_an_atomic_save() {
    let lvl = parse(GOOD).unwrap();
    let dir = std::env::temp_dir().join(format!("fivefoot-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bridge.ron");
    save_atomic(&lvl.def, &path).unwrap();
    let again = Level::load(&path, &Catalogue::builtin()).unwrap();
    assert_eq!(again.def, lvl.def);
    assert_eq!(again.terrain, lvl.terrain);
    // Nothing but the saved file is left behind.
    let names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, vec![std::ffi::OsString::from("bridge.ron")]);
    // A save into a missing folder fails cleanly and leaves the old file alone.
    assert!(save_atomic(&lvl.def, dir.join("missing/x.ron")).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_shipped_level_loads_under_every_variant() {
    let cat = Catalogue::builtin();
    let mut n = 0;
    for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/levels")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "ron") {
            let lvl = Level::load(&path, &cat).unwrap_or_else(|e| panic!("{e}"));
            for v in RulesVariant::ALL {
                let s = Snapshot::new(
                    rules::Battlefield::new(lvl.terrain.clone(), v),
                    roster_of_level(&lvl.def.units, &cat, v),
                );
                // The snapshot stands every unit where the level puts it, on open ground,
                // alone in its squares, on its own side.
                assert_eq!(s.roster.len(), lvl.def.units.len(), "{}", path.display());
                for u in &lvl.def.units {
                    let at = GridPos::new(u.at.0, u.at.1);
                    let i = s.occupancy.at(at).unwrap_or_else(|| panic!("{} {v}: nobody at {at:?}", u.id));
                    let view = s.roster.get(i);
                    assert_eq!(view.id, u.id, "{} {v}", path.display());
                    assert_eq!(s.roster.sides[view.side], u.side);
                    for c in view.footprint.cells() {
                        assert_ne!(lvl.terrain.get(c), Terrain::Wall, "{} {v}: {} on a wall", path.display(), u.id);
                        assert_eq!(s.occupancy.at(c), Some(i), "{} {v}: {} shares {c:?}", path.display(), u.id);
                    }
                }
            }
            n += 1;
        }
    }
    assert!(n >= 3, "at least three levels ship");
}

#[test]
fn hex_lines_along_an_edge_give_partial_cover_and_walls_on_both_sides_block_sight() {
    // (0, 2) to (1, 1) runs along the edge between hexes (0, 1) and (1, 2).
    let with_walls = |walls: &[(usize, usize)]| {
        let mut rows = vec![".".repeat(7); 6];
        for &(x, y) in walls {
            rows[y].replace_range(x..x + 1, "#");
        }
        let s = snapshot(
            rows,
            vec![unit("bow", "blue", (0, 2), "human_archer"), unit("t", "red", (1, 1), "goblin")],
            RulesVariant::HexPhases,
        );
        let c = cover_of(&s, "bow", "t");
        (c.cover, c.ac_bonus, c.can_target)
    };
    assert_eq!(with_walls(&[]), (CoverKind::None, 0, true));
    assert_eq!(with_walls(&[(0, 1)]), (CoverKind::Cover, 2, true), "partial blocking: +2 DCV");
    assert_eq!(with_walls(&[(1, 2)]), (CoverKind::Cover, 2, true));
    assert_eq!(with_walls(&[(0, 1), (1, 2)]), (CoverKind::Total, 0, false));
}

/// Levels carry a schema `version`: 1, or none (also 1); a newer one is refused, naming
/// where it is written; the editor's new levels write it.
#[test]
fn a_level_version_newer_than_known_is_refused_by_line_and_column() {
    assert_eq!(parse(GOOD).unwrap().def.version, None, "no version: still loads (as version 1)");
    let one = GOOD.replacen("    name:", "    version: 1,\n    name:", 1);
    assert_eq!(parse(&one).unwrap().def.version, Some(1));
    let future = GOOD.replacen("    name:", "    version: 2,\n    name:", 1);
    let e = error_of(&future);
    assert!(e.starts_with("levels/bad.ron:2:14:") && e.contains("version 2") && e.contains("reads version 1"), "{e}");
    let blank = fivefoot::editor::Document::blank(4, 3, false).unwrap().into_level();
    assert_eq!(blank.version, Some(fivefoot::level::LEVEL_VERSION));
    let dir = std::env::temp_dir().join(format!("fivefoot-version-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    save_atomic(&blank, dir.join("new.ron")).unwrap();
    let text = std::fs::read_to_string(dir.join("new.ron")).unwrap();
    assert!(text.contains("\n(\n    version: 1,\n    name:"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}
