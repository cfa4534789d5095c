//! Time under each variant as its plugin builds it: how the battle starts (initiative),
//! what opens a fighter's opportunity, the windows of time, when an opportunity is spent,
//! and what a strike took that the variant counts; each variant's own systems where its
//! source differs.

use super::schedule::systems;
use super::*;

#[test]
fn each_variant_keeps_time_with_its_own_systems() {
    // Each variant opens its own windows of time; the two turn-based ones share rounds.
    let window = |v| systems(v)["clock: window"].clone();
    assert_eq!(window(RulesVariant::ApPhases), ["ap_phases::next_action_phase"]);
    assert_eq!(
        window(RulesVariant::OsrSegments),
        [
            "osr_segments::next_step",
            "osr_segments::surprise_and_delay_end",
            "osr_segments::open_declarations",
            "osr_segments::roll_group_initiative",
            "derive_maps",
            "osr_segments::multi_attacks",
            "osr_segments::group_acts",
            "osr_segments::spells_go_off"
        ]
    );
    assert_eq!(
        window(RulesVariant::HexPhases),
        [
            "hex_phases::open_surprise_phase",
            "hex_phases::unaware_are_surprised",
            "hex_phases::surprise_phase_ends",
            "hex_phases::post_turn_recovery",
            "hex_phases::next_phase_of_turn",
            "hex_phases::reactions_each_turn",
            "hex_phases::one_attack_of_opportunity_a_phase",
            "hex_phases::aborted_last_phase"
        ]
    );
    assert_eq!(window(RulesVariant::D20Classic), ["next_round"]);
    // four-actions: initiative is rolled only as the surprise round ends, and the ambushers
    // act in no particular order (by id) before it.
    assert_eq!(
        window(RulesVariant::FourActions),
        [
            "four_actions::roll_initiative_after_surprise_round",
            "next_round",
            "four_actions::ambushers_in_no_particular_order"
        ]
    );
    // Each variant starts the battle with its own initiative: rolled, scored, or by group
    // each round (osr-segments, whose battle starts at the step before declarations).
    let begin = |v| systems(v)["clock: begin"].clone();
    let initiative = [
        (RulesVariant::ApPhases, "ap_phases::initiative_is_dexterity"),
        (RulesVariant::FourActions, "four_actions::roll_initiative"),
        (RulesVariant::D20Classic, "d20_classic::roll_initiative"),
        (RulesVariant::OsrSegments, "osr_segments::round_starts_at_low"),
        (RulesVariant::HexPhases, "hex_phases::initiative_is_combat_value"),
    ];
    for (v, system) in initiative {
        let begin = begin(v);
        assert_eq!(begin.first().map(String::as_str), Some("surprise_round_due"), "{v:?}");
        assert_eq!(begin.last().map(String::as_str), Some("clock_at_zero"), "{v:?}");
        assert!(begin.contains(&system.to_string()), "{v:?}: {begin:?}");
    }
    // A turn starts in the turn-based variants (its bonuses end, a held action is lost);
    // ap-phases' and osr-segments' opportunities are phases and steps, and their plugins
    // take that system out. What a fighter gets back is each variant's own.
    let opens = |v| systems(v)["clock: opens"].clone();
    let common = ["weigh_fresh_budget", "give_fresh_budget"];
    assert_eq!(opens(RulesVariant::ApPhases), [&common[..], &["ap_phases::advanced_action_continues"]].concat());
    assert_eq!(opens(RulesVariant::OsrSegments), common);
    assert_eq!(
        opens(RulesVariant::D20Classic),
        [&common[..], &["turn_starts", "d20_classic::flat_footed_no_more", "d20_classic::immediate_action_back"]]
            .concat()
    );
    assert_eq!(
        opens(RulesVariant::FourActions),
        [&common[..], &["turn_starts", "four_actions::surprise_wears_off"]].concat()
    );
    assert_eq!(opens(RulesVariant::HexPhases), [&common[..], &["turn_starts", "hex_phases::may_abort_again"]].concat());
    // A dying fighter's turn is each variant's own: d20-classic's death save, ap-phases'
    // stabilising check, four-actions' Fortitude save, osr-segments' bleeding; hex-phases
    // has none, and lists no such step.
    let dying = |v| systems(v).get("clock: dying turn").cloned().unwrap_or_default();
    assert_eq!(dying(RulesVariant::D20Classic), ["d20_classic::death_save"]);
    assert_eq!(dying(RulesVariant::ApPhases), ["ap_phases::stabilising_check"]);
    assert_eq!(dying(RulesVariant::FourActions), ["four_actions::fortitude_while_dying"]);
    assert_eq!(dying(RulesVariant::OsrSegments), ["osr_segments::bleeds"]);
    assert!(dying(RulesVariant::HexPhases).is_empty());
    // Only osr-segments watches a walk's steps (a foe coming into reach is struck by an
    // immediate attack, once the threat map follows the step) and follows a walk up.
    let osr = systems(RulesVariant::OsrSegments);
    assert_eq!(osr["walk: step"], ["derive_maps", "osr_segments::immediate_attacks_drawn"]);
    assert_eq!(osr["walk: over"], ["osr_segments::jostle"]);
    for v in RulesVariant::ALL.into_iter().filter(|&v| v != RulesVariant::OsrSegments) {
        let sets = systems(v);
        assert!(!sets.contains_key("walk: step") && !sets.contains_key("walk: over"), "{v:?}");
    }
    // d20-classic and four-actions have foes counter a spell as it goes off, each by its
    // own system, once the derived maps follow the casting's attacks (line of effect).
    let counter = |v| systems(v).get("strikes: counterspells").cloned().unwrap_or_default();
    assert_eq!(counter(RulesVariant::D20Classic), ["derive_maps", "d20_classic::counterspell"]);
    assert_eq!(counter(RulesVariant::FourActions), ["derive_maps", "four_actions::counterspell"]);
    for v in [RulesVariant::ApPhases, RulesVariant::OsrSegments, RulesVariant::HexPhases] {
        assert!(counter(v).is_empty(), "{v:?}");
    }
    // What a strike took is counted where the variant counts it: ap-phases its attack
    // actions (and a maneuver lost by 10 or more turns on its maker), d20-classic its immediate action (an attack of opportunity or a held action,
    // which also moves its taker after its trigger), hex-phases a held action (its taker goes
    // before its trigger); the others count nothing.
    let taken = |v| systems(v)["strikes: taken"].clone();
    assert_eq!(
        taken(RulesVariant::ApPhases),
        ["ap_phases::attack_actions_counted", "ap_phases::lost_by_ten_backfires", "schedule::forget_taken"]
    );
    assert_eq!(
        taken(RulesVariant::D20Classic),
        [
            "d20_classic::immediate_action_spent",
            "d20_classic::held_action_goes_after_trigger",
            "schedule::forget_taken"
        ]
    );
    assert_eq!(
        taken(RulesVariant::HexPhases),
        ["hex_phases::held_action_goes_before_trigger", "schedule::forget_taken"]
    );
    assert_eq!(taken(RulesVariant::FourActions), ["schedule::forget_taken"]);
    assert_eq!(taken(RulesVariant::OsrSegments), ["schedule::forget_taken"]);
    // Each variant ends an opportunity by its own action economy.
    let clocks: Vec<Vec<String>> = RulesVariant::ALL.iter().map(|&v| systems(v)["clock"].clone()).collect();
    for (i, c) in clocks.iter().enumerate() {
        assert_eq!(clocks.iter().filter(|d| *d == c).count(), 1, "{:?} shares its clock", RulesVariant::ALL[i]);
    }
}
