//! Flanking as each variant has it: opposite borders, mirror squares, reach users, non-threatening allies, none at all.

use super::*;

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
