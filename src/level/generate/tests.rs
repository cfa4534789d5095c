use super::*;
use crate::grid::{Footprint, GridPos};
use crate::level::{UnitDef, to_ron};

fn spec(style: Style, symmetry: Symmetry, hex: bool, seed: u64) -> GenerateSpec {
    GenerateSpec { width: 24, height: 16, hex, style, symmetry, units: 8, seed }
}

fn grid_of(def: &LevelDef) -> Grid {
    let (w, h) = (def.map.rows.first().map_or(0, |r| r.chars().count()) as i32, def.map.rows.len() as i32);
    let mut g = Grid::new(w, h, Terrain::Floor);
    for (y, row) in def.map.rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            g.set((x as i32, y as i32), Terrain::from_char(c).unwrap());
        }
    }
    g
}

fn footprint(u: &UnitDef) -> Footprint {
    let size = u.size.unwrap_or_else(|| Catalogue::builtin_ref().creature(&u.creature).unwrap().size);
    Footprint::new(u.pos(), size.side())
}

/// Whether every unit can walk to a square touching an enemy.
fn connected(def: &LevelDef) -> bool {
    let g = grid_of(def);
    def.units.iter().all(|u| {
        let enemies: Vec<Footprint> = def.units.iter().filter(|e| e.side != u.side).map(footprint).collect();
        g.reaches(def.rules.shape(), u.at, footprint(u).side, &enemies)
    })
}

/// Every square has the same terrain as its image; one with no image on the map is a wall.
fn is_mirror_image(g: &Grid, symmetry: Symmetry, shape: Shape) -> bool {
    g.squares().all(|c| match symmetry.mirror(c, g.w, g.h, shape) {
        Some(m) => g.get(c) == g.get(m),
        None => g.get(c) == Terrain::Wall,
    })
}

#[test]
fn the_same_seed_gives_the_same_bytes_and_another_seed_another_level() {
    for style in Style::ALL {
        let a = to_ron(&generate(&spec(style, Symmetry::LeftRight, false, 11)).unwrap()).unwrap();
        let again = to_ron(&generate(&spec(style, Symmetry::LeftRight, false, 11)).unwrap()).unwrap();
        assert_eq!(a, again, "{style:?}: same seed, same level");
        let b = to_ron(&generate(&spec(style, Symmetry::LeftRight, false, 12)).unwrap()).unwrap();
        assert_ne!(a, b, "{style:?}: another seed, another level");
    }
}

#[test]
fn every_style_symmetry_and_shape_gives_a_valid_connected_level() {
    let cat = Catalogue::builtin_ref();
    for style in Style::ALL {
        for symmetry in Symmetry::ALL {
            for hex in [false, true] {
                for (seed, (w, h), units) in [(1, (24, 16), 8), (2, (8, 8), 4), (3, (64, 40), 40), (4, (13, 11), 6)] {
                    let s = GenerateSpec { width: w, height: h, hex, style, symmetry, units, seed };
                    let def = generate(&s).unwrap_or_else(|e| panic!("{s:?}: {e}"));
                    let level = Level::from_def(def.clone(), cat).unwrap_or_else(|e| panic!("{s:?}: {e}"));
                    let warned = crate::level::warnings(&level, cat);
                    assert!(warned.is_empty(), "{s:?}: `level check` warns {warned:?}\n{}", def.map.rows.join("\n"));
                    assert_eq!(def.units.len(), units, "{s:?}");
                    assert_eq!(def.rules == RulesVariant::HexPhases, hex);
                    assert!(connected(&def), "{s:?}: a unit is sealed off\n{}", def.map.rows.join("\n"));
                }
            }
        }
    }
}

#[test]
fn the_connection_check_sees_a_sealed_unit_and_connect_carves_it_free() {
    let cat = Catalogue::builtin_ref();
    let mut def = generate(&spec(Style::Ruins, Symmetry::LeftRight, false, 5)).unwrap();
    assert!(connected(&def), "the control: a generated level is connected");
    // Wall blue's first unit in: sealed off.
    let (x, y) = def.units[0].at;
    let mut g = grid_of(&def);
    for dx in -1..=1 {
        for dy in -1..=1 {
            if (dx, dy) != (0, 0) {
                g.set((x + dx, y + dy), Terrain::Wall);
            }
        }
    }
    def.map.rows = g.rows();
    assert!(!connected(&def), "a unit boxed in by walls is sealed off");
    sides::connect(&mut g, &def.units, Symmetry::LeftRight, Shape::Square, cat);
    def.map.rows = g.rows();
    assert!(connected(&def), "connect carved it a way out");
}

/// The six neighbours of a hex, as the rules step.
fn hex_neighbours((x, y): (i32, i32)) -> Vec<(i32, i32)> {
    crate::grid::neighbour_offsets(Shape::Hex, GridPos::new(x, y)).iter().map(|(dx, dy)| (x + dx, y + dy)).collect()
}

/// On hexes a mirror image keeps the board's shape: the images of a hex's neighbours are
/// its image's neighbours, on maps of odd and even width and height.
#[test]
fn a_hex_mirror_maps_neighbours_to_neighbours() {
    let sorted = |mut v: Vec<(i32, i32)>| {
        v.sort();
        v
    };
    for (w, h) in [(12, 8), (13, 9), (12, 9), (13, 8)] {
        for symmetry in [Symmetry::LeftRight, Symmetry::TopBottom, Symmetry::Point] {
            let image = |c| symmetry.reflect(c, 1, w, h, Shape::Hex);
            let mut imaged = 0;
            for y in 1..h - 1 {
                for x in 1..w - 1 {
                    let m = image((x, y));
                    assert_eq!(image(m), (x, y), "{symmetry:?} {w}x{h}: a mirror undoes itself");
                    let of_neighbours = sorted(hex_neighbours((x, y)).into_iter().map(image).collect());
                    assert_eq!(of_neighbours, sorted(hex_neighbours(m)), "{symmetry:?} {w}x{h} at ({x}, {y})");
                    imaged += 1;
                }
            }
            assert!(imaged > 0);
        }
    }
    // A Large footprint's hexes mirror top-bottom onto the mirrored footprint's hexes.
    for h in [8, 9] {
        let (at, w) = ((3, 2), 12);
        let image = Symmetry::TopBottom.mirror_footprint(at, 2, w, h, Shape::Hex).unwrap();
        let of_cells = sorted(
            Footprint::new(GridPos::new(at.0, at.1), 2)
                .cells()
                .map(|c| Symmetry::TopBottom.mirror((c.x, c.y), w, h, Shape::Hex).unwrap())
                .collect(),
        );
        let cells = sorted(Footprint::new(GridPos::new(image.0, image.1), 2).cells().map(|c| (c.x, c.y)).collect());
        assert_eq!(of_cells, cells, "height {h}");
    }
    // The control: mirroring columns alike on every row breaks the hex neighbourhood.
    let naive = |(x, y): (i32, i32)| (12 - 1 - x, y);
    let broken = sorted(hex_neighbours((4, 3)).into_iter().map(naive).collect());
    assert_ne!(broken, sorted(hex_neighbours(naive((4, 3)))));
}

#[test]
fn a_symmetry_mirrors_the_terrain() {
    for style in Style::ALL {
        for symmetry in [Symmetry::LeftRight, Symmetry::TopBottom, Symmetry::Point] {
            for ((w, h), hex) in [(24, 16), (13, 9)].into_iter().flat_map(|size| [(size, false), (size, true)]) {
                let s = GenerateSpec { width: w, height: h, symmetry, ..spec(style, symmetry, hex, 9) };
                let g = grid_of(&generate(&s).unwrap());
                assert!(is_mirror_image(&g, symmetry, s.shape()), "{s:?}");
            }
        }
    }
    // The control: without a symmetry the maps are not mirror images.
    for style in [Style::Ruins, Style::Forest, Style::Fortress] {
        let g = grid_of(&generate(&spec(style, Symmetry::None, false, 9)).unwrap());
        let mirrored = |symmetry| is_mirror_image(&g, symmetry, Shape::Square);
        assert!(!mirrored(Symmetry::LeftRight) && !mirrored(Symmetry::Point), "{style:?}");
    }
}

#[test]
fn the_sides_have_the_same_creatures_and_stand_mirrored() {
    for style in Style::ALL {
        for (symmetry, hex) in Symmetry::ALL.into_iter().flat_map(|s| [(s, false), (s, true)]) {
            let s = GenerateSpec { units: 18, ..spec(style, symmetry, hex, 21) };
            let shape = s.shape();
            let def = generate(&s).unwrap();
            let side = |name: &str| {
                let mut v: Vec<&str> =
                    def.units.iter().filter(|u| u.side == name).map(|u| u.creature.as_str()).collect();
                v.sort();
                v
            };
            assert_eq!(side("blue").len(), 9);
            assert_eq!(side("blue"), side("red"), "{s:?}");
            assert!(side("blue").iter().any(|c| *c != side("blue")[0]), "a mix of creatures");
            if symmetry != Symmetry::None {
                for pair in def.units.chunks(2) {
                    let (b, r) = (&pair[0], &pair[1]);
                    assert_eq!((b.side.as_str(), r.side.as_str(), &b.creature), ("blue", "red", &r.creature));
                    assert_eq!(symmetry.mirror_footprint(b.at, footprint(b).side, 24, 16, shape), Some(r.at), "{s:?}");
                }
            }
        }
    }
    // The control: the classic arena's sides alternate through a roster, so they differ.
    let old = arena(24, 16, 8, 21);
    let count = |name: &str| old.units.iter().filter(|u| u.side == name && u.creature == "ogre").count();
    assert_ne!(count("blue"), count("red"));
}

#[test]
fn units_never_stand_on_walls_or_each_other_and_large_ones_fit() {
    for style in Style::ALL {
        let def = generate(&GenerateSpec { units: 36, ..spec(style, Symmetry::Point, false, 3) }).unwrap();
        let g = grid_of(&def);
        let fps: Vec<Footprint> = def.units.iter().map(footprint).collect();
        assert!(fps.iter().any(|f| f.side == 2), "{style:?}: an ogre among them");
        for (i, f) in fps.iter().enumerate() {
            assert!(f.cells().all(|c| g.inside((c.x, c.y)) && g.get((c.x, c.y)) != Terrain::Wall));
            assert!(fps.iter().skip(i + 1).all(|o| !o.overlaps(f)));
        }
    }
}

#[test]
fn impossible_specs_are_errors_not_panics() {
    let ok = spec(Style::Forest, Symmetry::None, false, 1);
    assert!(generate(&ok).is_ok(), "the control");
    assert_eq!(generate(&GenerateSpec { units: 7, ..ok.clone() }), Err(GenerateError::OddUnits(7)));
    assert_eq!(generate(&GenerateSpec { width: 7, ..ok.clone() }), Err(GenerateError::Size { w: 7, h: 16 }));
    assert_eq!(generate(&GenerateSpec { height: 65, ..ok.clone() }), Err(GenerateError::Size { w: 24, h: 65 }));
    assert_eq!(generate(&GenerateSpec { units: 130, ..ok.clone() }), Err(GenerateError::TooManyUnits { count: 130 }));
    let crowded = GenerateSpec { width: 8, height: 8, units: 128, ..ok };
    assert!(matches!(generate(&crowded), Err(GenerateError::NoRoom { wanted: 128, .. })));
}

#[test]
fn the_arena_style_draws_the_classic_arena_map() {
    // The arena style's terrain is the classic arena's, draw for draw.
    let classic = arena(30, 20, 0, 17);
    let s = GenerateSpec {
        width: 30,
        height: 20,
        style: Style::Arena,
        symmetry: Symmetry::None,
        units: 0,
        seed: 17,
        hex: false,
    };
    assert_eq!(generate(&s).unwrap().map.rows, classic.map.rows);
    // The control: another seed, another map.
    assert_ne!(generate(&GenerateSpec { seed: 18, ..s }).unwrap().map.rows, classic.map.rows);
}

#[test]
fn arenas_are_valid_and_reproducible() {
    let a = arena(64, 64, 40, 7);
    assert_eq!(a, arena(64, 64, 40, 7));
    assert_eq!(a.units.len(), 40);
    Level::from_def(a, &Catalogue::builtin()).expect("a generated arena is a valid level");
}

/// The arena's map as `fivefoot arena` drew it before the generator took it over, verbatim.
fn classic_arena_rows(width: usize, height: usize, seed: u64) -> Vec<String> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let grid: Vec<Vec<char>> = (0..height)
        .map(|y| {
            (0..width)
                .map(|x| {
                    if x == 0 || y == 0 || x + 1 == width || y + 1 == height {
                        return '#';
                    }
                    match rng.random_range(0..100) {
                        0..8 => '#',
                        8..13 => '~',
                        13..16 => '=',
                        _ => '.',
                    }
                })
                .collect()
        })
        .collect();
    grid.into_iter().map(|r| r.into_iter().collect()).collect()
}

#[test]
fn the_arena_map_draws_as_it_always_did() {
    for (w, h, seed) in [(64, 64, 1), (16, 12, 3), (4, 4, 9), (100, 7, 42), (24, 16, 7)] {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        assert_eq!(
            terrain::arena(w as i32, h as i32, &mut rng).rows(),
            classic_arena_rows(w, h, seed),
            "{w}x{h} {seed}"
        );
    }
}

#[test]
fn a_fortress_under_point_symmetry_keeps_whole_walls_before_both_sides() {
    let def = generate(&spec(Style::Fortress, Symmetry::Point, false, 1)).unwrap();
    let g = grid_of(&def);
    // The facing wall stands a quarter of the way in, from the top edge to the bottom.
    let at = (g.w / 4).max(2);
    for x in [at, g.w - 1 - at] {
        let walls = |ys: std::ops::Range<i32>| ys.filter(|&y| g.get((x, y)) == Terrain::Wall).count();
        assert!(walls(0..g.h / 2) > 0 && walls(g.h / 2..g.h) > 0, "column {x}:\n{}", def.map.rows.join("\n"));
    }
    // Control: the same map under left-right symmetry has those walls too.
    let lr = grid_of(&generate(&spec(Style::Fortress, Symmetry::LeftRight, false, 1)).unwrap());
    assert!((0..lr.h).any(|y| lr.get((at, y)) == Terrain::Wall));
}

#[test]
fn a_catalogue_without_the_roster_s_creatures_is_an_error_not_an_empty_level() {
    let empty = Catalogue::default();
    let s = spec(Style::Ruins, Symmetry::LeftRight, false, 1);
    assert!(matches!(generate_with(&s, &empty), Err(GenerateError::NoRoom { placed: 0, .. })));
    // Control: asked for no units, the empty catalogue is no obstacle.
    let none = GenerateSpec { units: 0, ..s };
    assert!(generate_with(&none, &empty).is_ok_and(|d| d.units.is_empty()));
}

/// The generator asks the rules' own movement whether a unit can reach the enemy: on hexes
/// a step to the row below goes half a hex aside, which no square step does; walls stop it.
#[test]
fn reaching_moves_as_the_rules_move() {
    let map = crate::grid::TerrainMap::from_rows(&["#.#", ".##", "..#"]).unwrap();
    let foe = [Footprint::new(GridPos::new(1, 2), 1)];
    let from = GridPos::new(1, 0);
    assert!(crate::level::can_reach(&map, Shape::Hex, from, 1, &foe), "down to the left, then beside the foe");
    assert!(!crate::level::can_reach(&map, Shape::Square, from, 1, &foe), "no cutting the walls' corners");
    // Along a corridor to a foe at its end; a wall across it stops the way.
    let open = crate::grid::TerrainMap::from_rows(&["#######", "#.....#", "#######"]).unwrap();
    let walled = crate::grid::TerrainMap::from_rows(&["#######", "#..#..#", "#######"]).unwrap();
    let foe = [Footprint::new(GridPos::new(5, 1), 1)];
    assert!(crate::level::can_reach(&open, Shape::Square, GridPos::new(1, 1), 1, &foe));
    assert!(!crate::level::can_reach(&walled, Shape::Square, GridPos::new(1, 1), 1, &foe));
}
