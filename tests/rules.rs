//! Rules-core tests built from the sources' and the rules-notes' own cases: reach and
//! threat, flanking, cover, movement costs and attacks of opportunity, level loading.

use fivefoot::grid::{GridPos, Terrain};
use fivefoot::level::{Catalogue, Level, LevelDef, LevelError, MapDef, UnitDef, save_atomic};
use fivefoot::rules::{
    self, CoverKind, MoveMode, RulesView, Snapshot, components::roster_of_level, cover, movement_range,
};
use fivefoot::variant::RulesVariant;
use std::path::Path;

fn unit(id: &str, side: &str, at: (i32, i32), creature: &str) -> UnitDef {
    UnitDef {
        id: id.into(),
        side: side.into(),
        at,
        creature: creature.into(),
        weapon: None,
        size: None,
        hp: None,
        aware: None,
    }
}

fn armed(id: &str, side: &str, at: (i32, i32), creature: &str, weapon: &str) -> UnitDef {
    UnitDef { weapon: Some(weapon.into()), ..unit(id, side, at, creature) }
}

fn open_rows(w: usize, h: usize) -> Vec<String> {
    vec![".".repeat(w); h]
}

fn level(rows: Vec<String>, units: Vec<UnitDef>) -> Level {
    let def = LevelDef {
        name: "test".into(),
        rules: RulesVariant::D20Classic,
        map: MapDef { rows },
        units,
        death_saves: None,
    };
    Level::from_def(def, &Catalogue::builtin()).expect("test level is valid")
}

fn snapshot(rows: Vec<String>, units: Vec<UnitDef>, variant: RulesVariant) -> Snapshot {
    let lvl = level(rows, units);
    let roster = roster_of_level(&lvl.def.units, &Catalogue::builtin(), lvl.def.rules);
    Snapshot::new(rules::Battlefield { terrain: lvl.terrain, variant }, roster)
}

fn idx(view: &RulesView, id: &str) -> usize {
    view.roster.index_of(id).unwrap()
}

fn threatened(s: &Snapshot, id: &str) -> Vec<(i32, i32)> {
    let v = s.view();
    v.threat.squares_of(idx(&v, id)).iter().map(|p| (p.x, p.y)).collect()
}

fn path(s: &Snapshot, id: &str, to: (i32, i32), mode: MoveMode) -> Result<rules::PathPlan, String> {
    let v = s.view();
    let i = idx(&v, id);
    let range = movement_range(&v, i, mode, rules::allowance_ft(&v, i, mode));
    range.plan_to(&v, GridPos::new(to.0, to.1)).map_err(|r| r.0)
}

fn provokers(s: &Snapshot, plan: &rules::PathPlan) -> Vec<(String, (i32, i32))> {
    plan.provokes.iter().map(|p| (s.roster.get(p.by).id.clone(), (p.from.x, p.from.y))).collect()
}

fn cover_of(s: &Snapshot, a: &str, t: &str) -> rules::CoverResult {
    let v = s.view();
    rules::cover_between(&v, idx(&v, a), idx(&v, t), false)
}

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
    let mut app = fivefoot::query::rules_app(&lvl, &Catalogue::builtin(), RulesVariant::D20Classic);
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

// ---------------------------------------------------------------- flanking

#[test]
fn allies_on_opposite_borders_flank_in_the_d20_family() {
    for variant in [RulesVariant::D20Classic, RulesVariant::ApPhases] {
        let s = snapshot(
            open_rows(9, 9),
            vec![
                unit("a", "blue", (3, 4), "human_fighter"),
                unit("b", "blue", (5, 4), "human_fighter"),
                unit("t", "red", (4, 4), "goblin"),
            ],
            variant,
        );
        let v = s.view();
        let f = rules::flanking(&v, idx(&v, "a"), idx(&v, "t"));
        assert!(f.flanking, "{variant}");
        assert_eq!(f.partners, vec![idx(&v, "b")]);
    }
}

#[test]
fn opposite_corners_flank_but_a_knights_move_does_not() {
    let s = snapshot(
        open_rows(9, 9),
        vec![
            unit("a", "blue", (3, 3), "human_fighter"),
            unit("b", "blue", (5, 5), "human_fighter"),
            unit("c", "blue", (5, 4), "human_fighter"),
            unit("t", "red", (4, 4), "goblin"),
        ],
        RulesVariant::D20Classic,
    );
    let v = s.view();
    let f = rules::flanking(&v, idx(&v, "a"), idx(&v, "t"));
    assert_eq!(f.partners, vec![idx(&v, "b")], "c stands a knight's move from a");
    let f = rules::flanking(&v, idx(&v, "c"), idx(&v, "t"));
    assert!(!f.flanking);
}

#[test]
fn a_reach_weapon_user_flanks_from_where_it_stands() {
    let s = snapshot(
        open_rows(9, 9),
        vec![
            unit("pike", "blue", (2, 4), "spearman"),
            unit("b", "blue", (5, 4), "human_fighter"),
            unit("t", "red", (4, 4), "goblin"),
        ],
        RulesVariant::D20Classic,
    );
    let v = s.view();
    assert!(rules::flanking(&v, idx(&v, "b"), idx(&v, "t")).flanking);
    assert!(rules::flanking(&v, idx(&v, "pike"), idx(&v, "t")).flanking);
}

#[test]
fn an_ally_that_does_not_threaten_gives_no_flank() {
    let s = snapshot(
        open_rows(9, 9),
        vec![
            unit("a", "blue", (3, 4), "human_fighter"),
            unit("bow", "blue", (5, 4), "human_archer"),
            unit("t", "red", (4, 4), "goblin"),
        ],
        RulesVariant::D20Classic,
    );
    let v = s.view();
    assert!(!rules::flanking(&v, idx(&v, "a"), idx(&v, "t")).flanking, "a bow threatens nothing");
    assert!(!rules::flanking(&v, idx(&v, "bow"), idx(&v, "t")).flanking, "ranged weapons cannot flank");
}

#[test]
fn four_actions_flanks_only_from_mirror_squares() {
    let s = snapshot(
        open_rows(9, 9),
        vec![
            unit("a", "blue", (3, 3), "human_fighter"),
            unit("b", "blue", (5, 5), "human_fighter"),
            unit("t", "red", (4, 4), "goblin"),
        ],
        RulesVariant::FourActions,
    );
    let v = s.view();
    assert!(rules::flanking(&v, idx(&v, "a"), idx(&v, "t")).flanking);
    // A Large foe: flanked through the centre of its 2×2 space.
    let s = snapshot(
        open_rows(9, 9),
        vec![
            unit("a", "blue", (2, 4), "human_fighter"),
            unit("b", "blue", (5, 3), "human_fighter"),
            unit("t", "red", (3, 3), "ogre"),
        ],
        RulesVariant::FourActions,
    );
    let v = s.view();
    assert!(rules::flanking(&v, idx(&v, "a"), idx(&v, "t")).flanking);
    let s = snapshot(
        open_rows(9, 9),
        vec![
            unit("a", "blue", (2, 4), "human_fighter"),
            unit("b", "blue", (5, 4), "human_fighter"),
            unit("t", "red", (3, 3), "ogre"),
        ],
        RulesVariant::FourActions,
    );
    let v = s.view();
    assert!(!rules::flanking(&v, idx(&v, "a"), idx(&v, "t")).flanking, "same row of a 2×2 foe is not a mirror image");
}

#[test]
fn osr_and_hex_phases_have_no_flanking() {
    for variant in [RulesVariant::OsrSegments, RulesVariant::HexPhases] {
        let s = snapshot(
            open_rows(9, 9),
            vec![
                unit("a", "blue", (3, 4), "human_fighter"),
                unit("b", "blue", (5, 4), "human_fighter"),
                unit("t", "red", (4, 4), "goblin"),
            ],
            variant,
        );
        let v = s.view();
        assert!(!rules::flanking(&v, idx(&v, "a"), idx(&v, "t")).flanking, "{variant}");
    }
}

// ---------------------------------------------------------------- cover

fn corridor() -> Vec<String> {
    vec!["##########".into(), "..........".into(), "##########".into()]
}

#[test]
fn a_plain_corridor_gives_no_cover() {
    let s = snapshot(
        corridor(),
        vec![unit("bow", "blue", (0, 1), "human_archer"), unit("t", "red", (7, 1), "goblin")],
        RulesVariant::D20Classic,
    );
    let c = cover_of(&s, "bow", "t");
    assert_eq!((c.cover, c.ac_bonus, c.can_target), (CoverKind::None, 0, true));
}

#[test]
fn a_wall_square_between_gives_cover_and_a_wall_line_total_cover() {
    let rows = vec![".....".into(), ".....".into(), "..#..".into(), ".....".into(), ".....".into()];
    let s = snapshot(
        rows,
        vec![unit("bow", "blue", (0, 2), "human_archer"), unit("t", "red", (4, 2), "goblin")],
        RulesVariant::D20Classic,
    );
    let c = cover_of(&s, "bow", "t");
    assert_eq!((c.cover, c.ac_bonus, c.can_target), (CoverKind::Cover, 4, true));
    assert_eq!(c.survey.blocked, 2, "two of four corner lines cross the wall");

    let rows = vec!["..#..".into(), "..#..".into(), "..#..".into(), "..#..".into(), "..#..".into()];
    let s = snapshot(
        rows,
        vec![unit("bow", "blue", (0, 2), "human_archer"), unit("t", "red", (4, 2), "goblin")],
        RulesVariant::D20Classic,
    );
    let c = cover_of(&s, "bow", "t");
    assert_eq!((c.cover, c.can_target), (CoverKind::Total, false));
}

#[test]
fn cover_is_rated_in_each_variants_terms() {
    let rows = vec![".....".into(), ".....".into(), "..#..".into(), ".....".into(), ".....".into()];
    let units = vec![unit("bow", "blue", (0, 2), "human_archer"), unit("t", "red", (4, 2), "goblin")];
    let rate = |v| {
        let c = cover_of(&snapshot(rows.clone(), units.clone(), v), "bow", "t");
        (c.cover, c.ac_bonus, c.can_target)
    };
    assert_eq!(rate(RulesVariant::ApPhases), (CoverKind::Cover, 4, true));
    assert_eq!(
        rate(RulesVariant::FourActions),
        (CoverKind::Cover, 0, false),
        "creatures with cover cannot be targeted"
    );
    assert_eq!(rate(RulesVariant::OsrSegments), (CoverKind::Cover, 4, true), "50% of corners: 4");
    // On hexes the wall stands square on the centre line: line of sight is blocked.
    assert_eq!(rate(RulesVariant::HexPhases), (CoverKind::Total, 0, false), "blocked line of sight: no attack");
}

#[test]
fn osr_cover_grows_with_the_fraction_of_blocked_corners() {
    let survey = |blocked, walls| cover::LineSurvey {
        total: false,
        best: cover::LineScore { blocked, walls, creatures: 0 },
        lines: 4,
        best_lines: vec![],
    };
    let osr = |b| cover::rate(RulesVariant::OsrSegments, &survey(b, b), cover::AttackReach::Ranged);
    assert_eq!(osr(1).ac_bonus, 2);
    assert_eq!(osr(2).ac_bonus, 4);
    assert_eq!(osr(3).ac_bonus, 7);
    assert!(!osr(2).breaks_line_of_effect && osr(3).breaks_line_of_effect, "over 50% breaks line of effect");
    let total = cover::LineSurvey { total: true, ..survey(4, 4) };
    assert_eq!(cover::rate(RulesVariant::OsrSegments, &total, cover::AttackReach::Ranged).cover, CoverKind::Total);
}

#[test]
fn a_low_wall_covers_only_a_near_target_and_not_from_an_attacker_closer_to_it() {
    let mut rows = vec![".".repeat(20); 5];
    rows[2].replace_range(3..4, "=");
    // Target right behind the low wall, attacker farther away: cover.
    let s = snapshot(
        rows.clone(),
        vec![unit("bow", "blue", (0, 2), "human_archer"), unit("t", "red", (4, 2), "goblin")],
        RulesVariant::D20Classic,
    );
    assert_eq!(cover_of(&s, "bow", "t").cover, CoverKind::Cover);
    // Attacker right at the wall, target away from it: the attacker is closer, no cover.
    let s = snapshot(
        rows.clone(),
        vec![unit("bow", "blue", (2, 2), "human_archer"), unit("t", "red", (9, 2), "goblin")],
        RulesVariant::D20Classic,
    );
    assert_eq!(cover_of(&s, "bow", "t").cover, CoverKind::None);
    // Target more than 30 ft from the wall: no cover.
    let mut rows = vec![".".repeat(20); 5];
    rows[2].replace_range(9..10, "=");
    let s = snapshot(
        rows,
        vec![unit("bow", "blue", (0, 2), "human_archer"), unit("t", "red", (18, 2), "goblin")],
        RulesVariant::D20Classic,
    );
    assert_eq!(cover_of(&s, "bow", "t").cover, CoverKind::None);
}

#[test]
fn a_low_wall_lets_four_actions_target_with_plus_4() {
    let mut rows = vec![".".repeat(8); 5];
    rows[2].replace_range(3..4, "=");
    let s = snapshot(
        rows,
        vec![unit("bow", "blue", (0, 2), "human_archer"), unit("t", "red", (4, 2), "goblin")],
        RulesVariant::FourActions,
    );
    let c = cover_of(&s, "bow", "t");
    assert_eq!((c.cover, c.ac_bonus, c.can_target), (CoverKind::Cover, 4, true));
}

#[test]
fn creatures_give_soft_cover_against_ranged_and_reach_but_not_adjacent_melee() {
    let units = vec![
        unit("bow", "blue", (0, 2), "human_archer"),
        unit("pike", "blue", (2, 4), "spearman"),
        unit("sword", "blue", (3, 3), "human_fighter"),
        unit("friend", "blue", (2, 2), "human_fighter"),
        unit("t", "red", (4, 2), "goblin"),
        unit("u", "red", (2, 3), "goblin"),
    ];
    let s = snapshot(open_rows(8, 6), units, RulesVariant::D20Classic);
    let c = cover_of(&s, "bow", "t");
    assert_eq!((c.cover, c.ac_bonus), (CoverKind::Soft, 4), "soft cover: +4 AC against ranged");
    assert_eq!(cover_of(&s, "sword", "t").cover, CoverKind::None, "adjacent melee ignores creatures");
    // The pike reaches t at (4, 2) two diagonals away, past the sword at (3, 3).
    let c = cover_of(&s, "pike", "t");
    assert_eq!((c.cover, c.ac_bonus), (CoverKind::Soft, 0), "d20: soft cover counts for reach, +4 only against ranged");
}

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

// ---------------------------------------------------------------- the search against a reference

#[path = "rules/clauses.rs"]
mod clauses;

mod search_oracle {
    use super::*;
    use fivefoot::grid::TerrainMap;
    use fivefoot::rules::movement::reference;
    use proptest::prelude::*;

    fn cell() -> impl Strategy<Value = char> {
        prop_oneof![6 => Just('.'), 2 => Just('#'), 1 => Just('~'), 1 => Just('=')]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn movement_costs_match_a_generic_dijkstra(cells in proptest::collection::vec(cell(), 100), gx in 0i32..10, gy in 0i32..10) {
            let mut cells = cells;
            cells[0] = '.';
            let rows: Vec<String> = cells.chunks(10).map(|c| c.iter().collect()).collect();
            let s = snapshot(rows.clone(), vec![unit("hero", "blue", (0, 0), "human_fighter")], RulesVariant::D20Classic);
            let v = s.view();
            let range = movement_range(&v, 0, MoveMode::Move, 10_000);
            let map = TerrainMap::from_rows(&rows).unwrap();
            let goal = GridPos::new(gx, gy);
            let expected = pathfinding::prelude::dijkstra(&(GridPos::new(0, 0), 0u8), |&s| reference::successors(&map, s), |&(p, _)| p == goal)
                .map(|(_, c)| c);
            let ours = if map.get(goal) == Terrain::Wall { None } else { range.cost_to(goal) };
            prop_assert_eq!(ours, expected);
        }
    }
}

// ---------------------------------------------------------------- levels

fn parse(text: &str) -> Result<Level, LevelError> {
    Level::parse(text, Path::new("levels/bad.ron"), &Catalogue::builtin())
}

/// The issue's own example level.
const GOOD: &str = include_str!("fixtures/ogre-bridge.ron");

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
    let weapons = include_str!("../assets/weapons.ron");
    let spells = include_str!("../assets/spells.ron");
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
                    rules::Battlefield { terrain: lvl.terrain.clone(), variant: v },
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
