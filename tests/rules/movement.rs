//! Movement on the grid: diagonal costs, difficult terrain, corners, passing allies, attacks of opportunity along a path, steps, Large footprints.

use super::*;

// ---------------------------------------------------------------- movement

#[test]
fn diagonals_cost_5_then_10_then_5() {
    let s = snapshot(open_rows(10, 10), vec![unit("hero", "blue", (1, 1), "human_fighter")], RulesVariant::D20Classic);
    assert_eq!(path(&s, "hero", (2, 2), MoveMode::Move).unwrap().cost_ft, 5);
    assert_eq!(path(&s, "hero", (3, 3), MoveMode::Move).unwrap().cost_ft, 15);
    assert_eq!(path(&s, "hero", (4, 4), MoveMode::Move).unwrap().cost_ft, 20);
    assert_eq!(path(&s, "hero", (5, 5), MoveMode::Move).unwrap().cost_ft, 30);
    let p = path(&s, "hero", (6, 3), MoveMode::Move).unwrap();
    assert_eq!(p.cost_ft, 30, "5 across, 2 down: 3 straight + 5 + 10");
    assert_eq!(p.squares.len(), 5);
    assert!(path(&s, "hero", (7, 3), MoveMode::Move).unwrap_err().contains("needs 35 ft"));
    let err = path(&s, "hero", (6, 6), MoveMode::Move).unwrap_err();
    assert!(err.contains("needs 35 ft"), "{err}");
}

#[test]
fn difficult_terrain_and_low_walls_cost_double() {
    let rows = vec!["......".into(), ".~~~..".into(), ".=....".into(), "......".into()];
    let s = snapshot(rows, vec![unit("hero", "blue", (0, 0), "human_fighter")], RulesVariant::D20Classic);
    assert_eq!(path(&s, "hero", (1, 1), MoveMode::Move).unwrap().cost_ft, 15, "first diagonal into difficult: 15 ft");
    assert_eq!(path(&s, "hero", (0, 1), MoveMode::Move).unwrap().cost_ft, 5);
    assert_eq!(path(&s, "hero", (1, 2), MoveMode::Move).unwrap().cost_ft, 20, "a low wall costs double: 5 + 5 + 10");
    let s = snapshot(
        vec!["......".into(), "......".into(), "..~...".into(), "......".into()],
        vec![unit("hero", "blue", (0, 0), "human_fighter")],
        RulesVariant::D20Classic,
    );
    // Cheapest: (1, 0), (2, 1), then straight into the difficult square (5 + 5 + 10); the
    // second diagonal straight into it would cost 5 + 20.
    assert_eq!(path(&s, "hero", (2, 2), MoveMode::Move).unwrap().cost_ft, 20);
}

#[test]
fn no_diagonal_past_a_walls_corner() {
    let rows = vec!["....".into(), ".#..".into(), "....".into()];
    let s = snapshot(rows, vec![unit("hero", "blue", (0, 0), "human_fighter")], RulesVariant::D20Classic);
    let p = path(&s, "hero", (1, 0), MoveMode::Move).unwrap();
    assert_eq!(p.cost_ft, 5);
    // (0,0) -> (2,... ) around: from (0,1) to (1,2) cuts the wall's corner, so it goes around.
    let p = path(&s, "hero", (1, 2), MoveMode::Move).unwrap();
    assert_eq!(p.cost_ft, 15, "down, down, right: the diagonal from (0, 1) would cut the wall's corner");
    assert_eq!(p.squares, vec![GridPos::new(0, 1), GridPos::new(0, 2), GridPos::new(1, 2)]);
    let s2 = snapshot(
        vec!["....".into(), ".#..".into(), "....".into()],
        vec![unit("hero", "blue", (0, 1), "human_fighter")],
        RulesVariant::D20Classic,
    );
    assert!(path(&s2, "hero", (1, 2), MoveMode::Step).is_err(), "not even a 5-ft step cuts a corner");
}

#[test]
fn allies_can_be_passed_but_not_ended_on_and_enemies_block() {
    let rows = vec!["#####".into(), ".....".into(), "#####".into()];
    let s = snapshot(
        rows.clone(),
        vec![unit("hero", "blue", (0, 1), "human_fighter"), unit("pal", "blue", (2, 1), "human_fighter")],
        RulesVariant::D20Classic,
    );
    assert_eq!(path(&s, "hero", (3, 1), MoveMode::Move).unwrap().cost_ft, 15);
    assert!(path(&s, "hero", (2, 1), MoveMode::Move).unwrap_err().contains("occupied by pal"));
    let s = snapshot(
        rows,
        vec![unit("hero", "blue", (0, 1), "human_fighter"), unit("orc", "red", (2, 1), "goblin")],
        RulesVariant::D20Classic,
    );
    assert!(path(&s, "hero", (3, 1), MoveMode::Move).unwrap_err().contains("no path"));
}

#[test]
fn walking_in_on_a_reach_weapon_provokes_where_the_ring_is_left() {
    let s = snapshot(
        open_rows(11, 9),
        vec![unit("pike", "red", (5, 4), "spearman"), unit("hero", "blue", (5, 7), "human_fighter")],
        RulesVariant::D20Classic,
    );
    let p = path(&s, "hero", (5, 5), MoveMode::Move).unwrap();
    assert_eq!(p.squares, vec![GridPos::new(5, 6), GridPos::new(5, 5)]);
    assert_eq!(p.cost_ft, 10);
    assert_eq!(provokers(&s, &p), vec![("pike".to_string(), (5, 6))]);
    let step = path(&s, "hero", (5, 6), MoveMode::Step).unwrap();
    assert_eq!((step.cost_ft, step.provokes.len()), (5, 0));
}

#[test]
fn one_attack_of_opportunity_per_foe_per_move() {
    // The hero walks along the ogre's 10-ft threat, leaving several threatened squares.
    let s = snapshot(
        open_rows(12, 10),
        vec![unit("ogre", "red", (5, 4), "ogre"), unit("hero", "blue", (2, 2), "human_fighter")],
        RulesVariant::D20Classic,
    );
    let p = path(&s, "hero", (8, 2), MoveMode::Move).unwrap();
    assert_eq!(p.cost_ft, 30, "six squares east, all in the ogre's reach but the first");
    assert_eq!(
        provokers(&s, &p),
        vec![("ogre".to_string(), (3, 2))],
        "one opportunity, at the first threatened square left"
    );
}

#[test]
fn leaving_two_foes_provokes_both_in_path_order() {
    let s = snapshot(
        open_rows(8, 4),
        vec![
            unit("hero", "blue", (0, 1), "human_fighter"),
            unit("g1", "red", (1, 0), "goblin"),
            unit("g2", "red", (4, 2), "goblin"),
        ],
        RulesVariant::D20Classic,
    );
    let p = path(&s, "hero", (6, 1), MoveMode::Move).unwrap();
    assert_eq!(p.cost_ft, 30);
    let who: Vec<_> = provokers(&s, &p).into_iter().map(|(id, _)| id).collect();
    assert_eq!(who, vec!["g1", "g2"]);
}

#[test]
fn a_5_ft_step_moves_one_square_never_into_difficult_terrain_and_never_provokes() {
    let rows = vec![".....".into(), ".~...".into(), ".....".into()];
    let s = snapshot(
        rows,
        vec![unit("hero", "blue", (0, 0), "human_fighter"), unit("orc", "red", (1, 0), "goblin")],
        RulesVariant::D20Classic,
    );
    let step = path(&s, "hero", (0, 1), MoveMode::Step).unwrap();
    assert_eq!((step.cost_ft, step.provokes.len()), (5, 0));
    assert!(path(&s, "hero", (1, 1), MoveMode::Step).unwrap_err().contains("difficult"));
    assert!(path(&s, "hero", (0, 2), MoveMode::Step).unwrap_err().contains("one square"));
    // The same move as a move action provokes the goblin next door.
    let mv = path(&s, "hero", (0, 1), MoveMode::Move).unwrap();
    assert_eq!(provokers(&s, &mv), vec![("orc".to_string(), (0, 0))]);
}

#[test]
fn cover_from_the_threatener_denies_its_attack_of_opportunity_in_the_d20_family() {
    // The spearman reaches over a low wall; the hero leaving (4, 3) has cover from it.
    let rows = vec![
        ".......".into(),
        ".......".into(),
        ".......".into(),
        ".......".into(),
        "...=...".into(),
        ".......".into(),
        ".......".into(),
    ];
    let units = vec![unit("pike", "red", (3, 5), "spearman"), unit("hero", "blue", (3, 3), "human_fighter")];
    let s = snapshot(rows.clone(), units.clone(), RulesVariant::D20Classic);
    let p = path(&s, "hero", (3, 1), MoveMode::Move).unwrap();
    assert!(p.provokes.is_empty(), "{:?}", provokers(&s, &p));
    // hex-phases has no such rule... but squares differ there; osr-segments lets it strike.
    let s = snapshot(rows, units, RulesVariant::OsrSegments);
    let p = path(&s, "hero", (3, 1), MoveMode::Move).unwrap();
    assert_eq!(provokers(&s, &p), vec![("pike".to_string(), (3, 3))]);
}

#[test]
fn hex_phases_moves_half_speed_a_move_action_over_hexes() {
    let s = snapshot(open_rows(10, 10), vec![unit("hero", "blue", (1, 1), "human_fighter")], RulesVariant::HexPhases);
    assert_eq!(path(&s, "hero", (4, 1), MoveMode::Move).unwrap().cost_ft, 15);
    assert!(path(&s, "hero", (5, 1), MoveMode::Move).unwrap_err().contains("needs 20 ft"));
    let p = path(&s, "hero", (2, 3), MoveMode::Move).unwrap();
    assert_eq!(p.cost_ft, 10, "two hexes down-right on odd-r");
    assert_eq!(path(&s, "hero", (2, 2), MoveMode::Step).unwrap().cost_ft, 5, "(2,2) neighbours odd-row (1,1)");
}

#[test]
fn osr_positioning_moves_cover_10_ft_but_not_in_melee() {
    let s = snapshot(
        open_rows(10, 10),
        vec![unit("hero", "blue", (1, 1), "human_fighter"), unit("orc", "red", (7, 7), "goblin")],
        RulesVariant::OsrSegments,
    );
    assert_eq!(path(&s, "hero", (3, 1), MoveMode::Step).unwrap().cost_ft, 10);
    assert!(path(&s, "hero", (4, 1), MoveMode::Step).is_err());
    let s = snapshot(
        open_rows(10, 10),
        vec![unit("hero", "blue", (1, 1), "human_fighter"), unit("orc", "red", (2, 2), "goblin")],
        RulesVariant::OsrSegments,
    );
    assert!(path(&s, "hero", (0, 0), MoveMode::Step).unwrap_err().contains("melee"));
}

#[test]
fn a_large_creature_needs_room_for_its_whole_footprint() {
    let rows = vec![
        "#######".into(),
        "#.....#".into(),
        "#.....#".into(),
        "###.###".into(),
        "#.....#".into(),
        "#.....#".into(),
        "#######".into(),
    ];
    let s = snapshot(
        rows,
        vec![unit("ogre", "red", (1, 1), "ogre"), unit("hero", "blue", (1, 1 + 3), "human_fighter")],
        RulesVariant::D20Classic,
    );
    let err = path(&s, "ogre", (2, 4), MoveMode::Move).unwrap_err();
    assert!(err.contains("no path"), "a 5-ft gap is too narrow for a 10-ft ogre: {err}");
    assert_eq!(path(&s, "ogre", (4, 1), MoveMode::Move).unwrap().cost_ft, 15);
    assert!(path(&s, "ogre", (5, 1), MoveMode::Move).unwrap_err().contains("wall"));
}

#[test]
fn a_unit_can_stand_on_open_floor_or_its_own_square_but_not_on_a_wall_a_foe_or_off_the_map() {
    let mut rows = open_rows(6, 5);
    rows[2] = "..#...".to_string();
    let s = snapshot(
        rows,
        vec![unit("hero", "blue", (1, 1), "human_fighter"), unit("gob", "red", (4, 3), "goblin")],
        RulesVariant::D20Classic,
    );
    let v = s.view();
    let hero = idx(&v, "hero");
    let at = |x, y| fivefoot::grid::Footprint::new(GridPos::new(x, y), 1);
    assert!(v.can_stand(hero, at(0, 0)), "open floor");
    assert!(v.can_stand(hero, at(1, 1)), "its own square");
    assert!(!v.can_stand(hero, at(2, 2)), "a wall");
    assert!(!v.can_stand(hero, at(4, 3)), "the goblin's square");
    assert!(!v.can_stand(hero, at(6, 0)), "off the map");
    assert!(!v.can_stand(hero, fivefoot::grid::Footprint::new(GridPos::new(1, 1), 2)), "a 2x2 body over the wall");
}
