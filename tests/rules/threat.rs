//! Reach and threatened squares: rings, Large creatures, the 10-ft diagonal exception, what threatens nothing, the threat map following moves.

use super::*;

// ---------------------------------------------------------------- reach and threat

#[test]
fn a_longspear_threatens_the_16_square_ring_and_not_adjacent_squares() {
    let s = snapshot(open_rows(11, 9), vec![unit("pike", "red", (5, 4), "spearman")], RulesVariant::D20Classic);
    let squares = threatened(&s, "pike");
    assert_eq!(squares.len(), 16);
    // The contract example's exact list, corners included by the 10-ft diagonal exception.
    let mut expected = vec![(3, 2), (4, 2), (5, 2), (6, 2), (7, 2), (3, 3), (7, 3), (3, 4), (7, 4), (3, 5), (7, 5)];
    expected.extend([(3, 6), (4, 6), (5, 6), (6, 6), (7, 6)]);
    assert_eq!(squares, expected);
    assert!(!squares.contains(&(5, 5)), "a reach weapon cannot hit adjacent foes");
}

#[test]
fn a_large_ogre_threatens_32_squares() {
    for variant in
        [RulesVariant::D20Classic, RulesVariant::ApPhases, RulesVariant::FourActions, RulesVariant::OsrSegments]
    {
        let s = snapshot(open_rows(14, 14), vec![unit("ogre", "red", (6, 6), "ogre")], variant);
        let squares = threatened(&s, "ogre");
        assert_eq!(squares.len(), 32, "{variant}");
        assert!(squares.contains(&(4, 4)) && squares.contains(&(9, 9)), "{variant}: corners of the 6×6 box");
        assert!(!squares.contains(&(6, 6)), "{variant}: not its own squares");
    }
}

#[test]
fn the_diagonal_exception_is_only_for_exactly_10_ft() {
    // A Huge creature's 15-ft reach does not reach three diagonals (20 ft).
    let huge = UnitDef { size: Some(fivefoot::grid::Size::Huge), ..unit("giant", "red", (6, 6), "ogre") };
    let s = snapshot(open_rows(16, 16), vec![huge], RulesVariant::D20Classic);
    let squares = threatened(&s, "giant");
    assert!(!squares.contains(&(3, 3)), "three diagonals away is 20 ft");
    assert!(squares.contains(&(3, 5)), "three across and one diagonal is 15 ft");
}

#[test]
fn a_medium_sword_threatens_its_eight_neighbours_and_a_hex_fighter_six() {
    let s = snapshot(open_rows(7, 7), vec![unit("hero", "blue", (3, 3), "human_fighter")], RulesVariant::D20Classic);
    assert_eq!(threatened(&s, "hero").len(), 8);
    let s = snapshot(open_rows(7, 7), vec![unit("hero", "blue", (3, 3), "human_fighter")], RulesVariant::HexPhases);
    let squares = threatened(&s, "hero");
    assert_eq!(squares, vec![(3, 2), (4, 2), (2, 3), (4, 3), (3, 4), (4, 4)], "odd rows are shifted right");
    let s = snapshot(open_rows(7, 7), vec![unit("hero", "blue", (3, 2), "human_fighter")], RulesVariant::HexPhases);
    assert_eq!(threatened(&s, "hero"), vec![(2, 1), (3, 1), (2, 2), (4, 2), (2, 3), (3, 3)]);
}

#[test]
fn bows_unarmed_strikes_and_walls_threaten_nothing() {
    let s = snapshot(
        vec!["#######".into(), "#.....#".into(), "#.....#".into(), "#######".into()],
        vec![
            unit("archer", "blue", (1, 1), "human_archer"),
            armed("brawler", "blue", (5, 1), "human_fighter", "unarmed"),
            unit("wolf", "red", (3, 2), "wolf"),
        ],
        RulesVariant::D20Classic,
    );
    assert!(threatened(&s, "archer").is_empty(), "a longbow threatens nothing");
    assert!(threatened(&s, "brawler").is_empty(), "an unarmed strike threatens nothing");
    // A bite is a natural weapon: the wolf threatens its open neighbours, never walls.
    assert_eq!(threatened(&s, "wolf"), vec![(2, 1), (3, 1), (4, 1), (2, 2), (4, 2)]);
}

#[test]
fn the_threat_map_follows_moves_in_the_ecs() {
    use bevy::prelude::*;
    let lvl = level(
        open_rows(9, 9),
        vec![unit("hero", "blue", (1, 1), "human_fighter"), unit("orc", "red", (6, 6), "human_fighter")],
    );
    let mut app = crate::common::rules_app(&lvl, RulesVariant::D20Classic);
    let before = rules::view_of(app.world()).unwrap().threat.threateners(GridPos::new(2, 2));
    assert_eq!(before.count_ones(), 1);
    let mut q = app.world_mut().query::<(&rules::Combatant, &mut rules::Position)>();
    for (c, mut pos) in q.iter_mut(app.world_mut()) {
        if c.id == "hero" {
            pos.0 = GridPos::new(5, 5);
        }
    }
    app.update();
    let view = rules::view_of(app.world()).unwrap();
    assert_eq!(view.threat.threateners(GridPos::new(2, 2)), 0);
    assert_eq!(view.threat.threateners(GridPos::new(6, 5)).count_ones(), 2);
    assert_eq!(view.roster.get(view.roster.index_of("hero").unwrap()).footprint.origin, GridPos::new(5, 5));
}
