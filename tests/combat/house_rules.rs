//! Each house rule changes what its source's rule does, under every variant it names, and
//! changes the rules schedule's listing there; elsewhere it is refused.

use super::common;
use fivefoot::combat::attack::{AttackContext, AttackProfile};
use fivefoot::combat::command::Intent;
use fivefoot::combat::engine::Engine;
use fivefoot::combat::{AttackKind, BattleOptions, BattleWorld, Command};
use fivefoot::level::{Catalogue, UnitDef};
use fivefoot::rules::Condition;
use fivefoot::variants::{HouseRule, RulesVariant};

/// Open ground with a low wall at (8, 2), between the archer's row and the goblin's.
const FIELD: [&str; 3] = [
    "........................................",
    "........................................",
    "........=...............................",
];

fn units() -> Vec<UnitDef> {
    vec![
        common::unit("archer", "blue", (0, 0), "human_archer"),
        common::unit("a", "blue", (20, 1), "human_fighter"),
        common::unit("b", "blue", (22, 1), "human_fighter"),
        common::unit("ogre", "red", (30, 0), "ogre"),
        common::unit("gob", "red", (10, 2), "goblin"),
        common::unit("brute", "red", (21, 1), "goblin"),
    ]
}

/// The battle on `FIELD` under `v` and `house_rules`, set up but not started.
fn field(v: RulesVariant, house_rules: &[HouseRule]) -> BattleWorld {
    let options = BattleOptions { house_rules: house_rules.to_vec(), ..BattleOptions::default() };
    BattleWorld::new_paused(&common::level(&FIELD, units(), v), &Catalogue::builtin(), v, 1, options)
}

/// `attacker`'s attack on `target` on `FIELD`, the fight under way (nobody surprised).
fn weigh(
    v: RulesVariant,
    house_rules: &[HouseRule],
    attacker: &str,
    target: &str,
    ctx: AttackContext,
) -> AttackProfile {
    let mut b = field(v, house_rules);
    b.scene().each(|c: &mut fivefoot::rules::Conditions| {
        c.remove(Condition::Surprised);
        c.remove(Condition::FlatFooted);
    });
    let (a, t) = (b.index_of(attacker).unwrap(), b.index_of(target).unwrap());
    b.attack_profile(a, t, &AttackKind::Primary, &ctx)
}

fn term(p: &AttackProfile, source: &str) -> Option<i32> {
    p.modifiers.iter().find(|m| m.source == source).map(|m| m.value)
}

#[test]
fn no_flanking_takes_the_flanking_bonus_and_four_actions_surprise_away() {
    // d20-classic and ap-phases: +2 flanking; four-actions: flanking makes the foe Surprised.
    for (v, source, value) in [
        (RulesVariant::D20Classic, "flanking", 2),
        (RulesVariant::ApPhases, "flanking", 2),
        (RulesVariant::FourActions, "flanking: target surprised", 2),
    ] {
        let ruled = weigh(v, &[], "a", "brute", AttackContext::default());
        assert_eq!(term(&ruled, source), Some(value), "{v:?}: {:?}", ruled.modifiers);
        let house = weigh(v, &[HouseRule::NoFlanking], "a", "brute", AttackContext::default());
        assert_eq!(term(&house, source), None, "{v:?}: {:?}", house.modifiers);
        assert!(house.hit_chance < ruled.hit_chance, "{v:?}: a flanked foe is hit less often without the rule");
    }
}

#[test]
fn double_cover_doubles_the_cover_term_in_each_variants_words() {
    // d20 family and osr-segments: cover +4 to AC; hex-phases: partial cover +2 DCV.
    for v in RulesVariant::ALL {
        let word = v.numbers().cover_term.clone();
        let ruled = weigh(v, &[], "archer", "gob", AttackContext::default());
        let cover = term(&ruled, &word).unwrap_or_else(|| panic!("{v:?}: {:?}", ruled.modifiers));
        let house = weigh(v, &[HouseRule::DoubleCover], "archer", "gob", AttackContext::default());
        assert_eq!(term(&house, &word), None, "{v:?}");
        assert_eq!(term(&house, &format!("{word} x2 (house rule)")), Some(2 * cover), "{v:?}: {:?}", house.modifiers);
        assert!(house.hit_chance <= ruled.hit_chance, "{v:?}");
    }
}

#[test]
fn no_charge_bonus_leaves_a_charge_at_its_plain_attack() {
    // ap-phases, four-actions and osr-segments: +2 to hit on a charge.
    let charge = AttackContext { charge: true };
    for v in HouseRule::NoChargeBonus.applies_to() {
        let ruled = weigh(*v, &[], "a", "brute", charge.clone());
        assert_eq!(term(&ruled, "charge"), Some(2), "{v:?}: {:?}", ruled.modifiers);
        let house = weigh(*v, &[HouseRule::NoChargeBonus], "a", "brute", charge.clone());
        assert_eq!(term(&house, "charge"), None, "{v:?}");
    }
}

#[test]
fn no_range_penalty_lets_a_long_shot_go_without_its_increments() {
    // −2 for each full range increment past the first (the d20 family, osr-segments).
    for v in HouseRule::NoRangePenalty.applies_to() {
        let ruled = weigh(*v, &[], "archer", "ogre", AttackContext::default());
        assert_eq!(term(&ruled, "range"), Some(-2), "{v:?}: {:?}", ruled.modifiers);
        let house = weigh(*v, &[HouseRule::NoRangePenalty], "archer", "ogre", AttackContext::default());
        assert_eq!(term(&house, "range"), None, "{v:?}");
        assert!(house.hit_chance > ruled.hit_chance, "{v:?}");
    }
}

/// Whether the fighter acting first (all fight in melee) may give `cmd`, under
/// `house_rules`.
fn allowed(v: RulesVariant, house_rules: &[HouseRule], cmd: Command) -> Result<(), String> {
    let options = BattleOptions { house_rules: house_rules.to_vec(), ..BattleOptions::default() };
    let melee = units().into_iter().filter(|u| u.id != "archer").collect();
    let mut b = BattleWorld::new(&common::level(&FIELD, melee, v), &Catalogue::builtin(), v, 3, options);
    // osr-segments: everyone declares first.
    let fight = Command::Declare { intent: Intent::Fight };
    while b.validate(&fight).is_ok() {
        b.execute(fight.clone()).unwrap();
    }
    b.validate(&cmd).map(|_| ()).map_err(|e| e.reason)
}

#[test]
fn no_delay_and_no_readied_attacks_refuse_what_their_rule_allowed() {
    for v in HouseRule::NoDelay.applies_to() {
        assert_eq!(allowed(*v, &[], Command::Delay), Ok(()), "{v:?}: delaying is in the source");
        let refused = allowed(*v, &[HouseRule::NoDelay], Command::Delay).unwrap_err();
        assert!(refused.contains("house rule"), "{v:?}: {refused}");
    }
    for v in HouseRule::NoReadiedAttacks.applies_to() {
        let hold = Command::Hold { target: None };
        assert_eq!(allowed(*v, &[], hold.clone()), Ok(()), "{v:?}: holding an attack is in the source");
        let refused = allowed(*v, &[HouseRule::NoReadiedAttacks], hold).unwrap_err();
        assert!(refused.contains("house rule"), "{v:?}: {refused}");
    }
}

#[test]
fn each_house_rule_changes_the_listing_where_it_applies_and_is_refused_elsewhere() {
    for rule in HouseRule::ALL {
        for v in RulesVariant::ALL {
            if !rule.applies_to().contains(&v) {
                let refused = rule.check(v).unwrap_err();
                assert!(refused.contains(rule.id()) && refused.contains(v.id()), "{refused}");
                continue;
            }
            let plain = Engine::new(v).listing();
            let house = Engine::with_house_rules(v, &[rule]).listing();
            assert_eq!(house.house_rules, [rule.id()]);
            let systems = |l: &fivefoot::combat::listing::ScheduleListing| -> Vec<String> {
                l.sets.iter().flat_map(|s| s.systems.iter().map(|x| x.name.clone())).collect()
            };
            let (before, after) = (systems(&plain), systems(&house));
            assert!(before.iter().any(|name| !after.contains(name)), "{v:?} + {rule}: no system taken out or replaced");
        }
    }
}

#[test]
fn a_level_names_its_house_rules_and_a_bad_one_is_an_error_at_its_place() {
    use fivefoot::level::Level;
    use fivefoot::variants::house_rules_in_force;
    let text = |rules: &str| {
        format!(
            r#"(name: "hr", rules: "d20-classic", house_rules: [{rules}], map: (rows: ["....", "...."]),
            units: [(id: "a", side: "blue", at: (0, 0), creature: "goblin"), (id: "b", side: "red", at: (3, 1), creature: "goblin")])"#
        )
    };
    let path = std::path::Path::new("hr.ron");
    let level = Level::parse(&text(r#""no-flanking", "no-delay""#), path, &Catalogue::builtin()).unwrap();
    let named = &level.def.house_rules;
    assert_eq!(
        house_rules_in_force(&[], named, RulesVariant::D20Classic),
        Ok(vec![HouseRule::NoFlanking, HouseRule::NoDelay])
    );
    // Under another variant the level keeps those that apply there.
    assert_eq!(house_rules_in_force(&[], named, RulesVariant::HexPhases), Ok(vec![HouseRule::NoDelay]));
    // Those asked for replace the level's, and must apply.
    assert_eq!(
        house_rules_in_force(&[HouseRule::DoubleCover], named, RulesVariant::HexPhases),
        Ok(vec![HouseRule::DoubleCover])
    );
    assert!(house_rules_in_force(&[HouseRule::NoFlanking], named, RulesVariant::HexPhases).is_err());
    let bad = Level::parse(&text(r#""no-dice""#), path, &Catalogue::builtin()).unwrap_err().to_string();
    assert!(bad.starts_with("hr.ron:1:") && bad.contains("no-dice"), "{bad}");
}
