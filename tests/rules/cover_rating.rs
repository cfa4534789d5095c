//! Cover and its rating per variant: walls, low walls, soft cover from creatures, osr fractions, four-actions targeting.

use super::*;

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
