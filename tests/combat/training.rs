//! d20-classic clauses about who threatens what and whom a shot finds: the untrained
//! threaten nothing and take -3, a Small reach-weapon wielder loses the corners of its
//! reach, and a shot into a grapple may strike the other grappler. Expected values come
//! from the sources' numbers; each case has its positive control.

use super::sources::{strikes, swing};
use super::*;
use fivefoot::combat::fighter::Grapple;
use fivefoot::grid::GridPos;
use fivefoot::rules::Conditions;
use fivefoot::rules::Position;

/// The squares `id` threatens now (its turn's conditions cleared, so only the rule counts).
fn threatened(b: &mut BattleWorld, id: &str) -> Vec<GridPos> {
    b.scene().each::<Conditions>(|c| {
        c.remove(Condition::FlatFooted);
        c.remove(Condition::Surprised);
    });
    let i = b.index_of(id).unwrap();
    b.read().view().threat.squares_of(i).to_vec()
}

/// "When untrained with a weapon, a character does not threaten squares and suffers a -3
/// training penalty to attack and damage." The war mage is trained in simple weapons only
/// (catalogue); a longsword is martial, its quarterstaff simple.
#[test]
fn the_untrained_threaten_nothing_and_take_3_off_attack_and_damage_in_d20_classic() {
    let pair = |weapon: &str, v: RulesVariant| {
        battle(
            vec![unit("hero", "blue", (3, 3), "war_mage", Some(weapon)), unit("gob", "red", (4, 3), "goblin", None)],
            v,
            5,
        )
    };
    // Untrained: nothing threatened, yet the adjacent goblin can still be struck.
    let mut b = pair("longsword", RulesVariant::D20Classic);
    assert!(threatened(&mut b, "hero").is_empty(), "an untrained wielder threatens no square");
    let (h, g) = (b.index_of("hero").unwrap(), b.index_of("gob").unwrap());
    let p = b.attack_profile(h, g, &AttackKind::Primary, &Default::default());
    assert!(p.legal, "{:?}", p.reason);
    assert!(p.modifiers.iter().any(|m| m.source == "untrained" && m.value == -3));
    // Positive controls: the trained quarterstaff threatens all 8 neighbours with no penalty;
    // ap-phases has no such clause.
    for (weapon, v) in [("quarterstaff", RulesVariant::D20Classic), ("longsword", RulesVariant::ApPhases)] {
        let mut b = pair(weapon, v);
        assert_eq!(threatened(&mut b, "hero").len(), 8, "{weapon} under {v}");
        let p = b.attack_profile(h, g, &AttackKind::Primary, &Default::default());
        assert!(!p.modifiers.iter().any(|m| m.source == "untrained"), "{weapon} under {v}");
    }
    // Damage: Str 10 adds nothing, so a longsword hit deals 1d8 - 3 (at least 1).
    let mut seen = 0;
    for seed in 0..40 {
        let mut b = pair("longsword", RulesVariant::D20Classic);
        *b.scene().dice() = fivefoot::rules::Dice::seeded(seed);
        swing(&mut b, 6);
        for e in strikes(&b, "hero") {
            if let CombatEvent::Damage { rolls, modifiers, total, dice, .. } = e
                && !dice.contains("critical")
            {
                assert_eq!(rolls.len(), 1);
                assert!(modifiers.iter().any(|m| m.source == "untrained" && m.value == -3));
                assert_eq!(total, (rolls[0] - 3).max(1));
                seen += 1;
            }
        }
    }
    assert!(seen > 0, "the untrained mage never hit");
}

/// "If a Medium size creature has a reach weapon, their reach expands out another set of
/// squares. A Small size creature using a reach weapon does the same, but loses the corners
/// of the larger square." A Medium longspear user threatens the 16 squares of its 10-ft
/// ring (corners included by the 10-ft diagonal exception); a Small one 16 - 4 = 12.
#[test]
fn a_small_reach_weapon_wielder_loses_the_corners_of_its_reach_in_d20_classic() {
    let spear = |creature: &str, v: RulesVariant| {
        battle(
            vec![
                unit("hero", "blue", (4, 3), creature, Some("longspear")),
                unit("gob", "red", (9, 7), "goblin", Some("dagger")),
            ],
            v,
            1,
        )
    };
    let corner = GridPos::new(6, 5);
    let edge = GridPos::new(6, 3);
    let mut b = spear("goblin", RulesVariant::D20Classic);
    let small = threatened(&mut b, "hero");
    assert_eq!(small.len(), 12);
    assert!(small.contains(&edge) && !small.contains(&corner));
    // Nor can it strike a foe standing on a corner.
    let (h, g) = (b.index_of("hero").unwrap(), b.index_of("gob").unwrap());
    b.scene().fighter::<Position>(g).0 = corner;
    assert!(!b.attack_profile(h, g, &AttackKind::Primary, &Default::default()).legal);
    // Positive controls: a Medium spearman keeps the corners, and strikes there; ap-phases
    // (no such clause) gives the Small goblin its corners too.
    let mut b = spear("spearman", RulesVariant::D20Classic);
    let medium = threatened(&mut b, "hero");
    assert_eq!(medium.len(), 16);
    assert!(medium.contains(&corner));
    b.scene().fighter::<Position>(g).0 = corner;
    assert!(b.attack_profile(h, g, &AttackKind::Primary, &Default::default()).legal);
    let mut b = spear("goblin", RulesVariant::ApPhases);
    assert_eq!(threatened(&mut b, "hero").len(), 16);
}

/// "Shooting at two grappling characters will create a 50% miss chance on the intended
/// target for the other target": a d100 roll of 50 or less sends the shot to the other.
#[test]
fn a_shot_into_a_grapple_goes_to_the_other_grappler_half_the_time_in_d20_classic() {
    let shot = |v: RulesVariant, seed: u64, grappled: bool| {
        let mut b = battle(
            vec![
                unit("hero", "blue", (1, 3), "human_archer", None),
                unit("gob", "red", (6, 3), "goblin", None),
                unit("ally", "blue", (6, 4), "human_fighter", None),
            ],
            v,
            seed,
        );
        until(&mut b, "hero", |_| true);
        if grappled {
            let (g, a) = (b.index_of("gob").unwrap(), b.index_of("ally").unwrap());
            for (i, other) in [(g, a), (a, g)] {
                b.scene().fighter::<Conditions>(i).add(Condition::Grappled);
                let with = b.read().fighters.entity(other);
                b.scene().fighter::<Grapple>(i).with = Some(with);
            }
        }
        let from = b.events().len();
        b.execute(Command::Attack { target: "gob".into() }).unwrap();
        b.events()[from..].to_vec()
    };
    let (mut strays, mut stays) = (0, 0);
    for seed in 0..40 {
        let events = shot(RulesVariant::D20Classic, seed, true);
        let (roll, went) = events
            .iter()
            .find_map(|e| match e {
                CombatEvent::MissChance { roll, strays, percent: 50, .. } => Some((*roll, *strays)),
                _ => None,
            })
            .expect("a shot into a grapple rolls its miss chance");
        assert!((1..=100).contains(&roll));
        assert_eq!(went, roll <= 50, "d100 {roll}");
        let target = events.iter().find_map(|e| match e {
            CombatEvent::Attack { target, .. } => Some(target.clone()),
            _ => None,
        });
        assert_eq!(target.as_deref(), Some(if went { "ally" } else { "gob" }), "d100 {roll}");
        if went { strays += 1 } else { stays += 1 }
    }
    assert!(strays > 0 && stays > 0, "{strays} went astray, {stays} did not");
    // Positive controls: no grapple, no miss chance; four-actions has no such clause.
    for (v, grappled) in [(RulesVariant::D20Classic, false), (RulesVariant::FourActions, true)] {
        let events = shot(v, 3, grappled);
        assert!(!events.iter().any(|e| matches!(e, CombatEvent::MissChance { .. })), "{v}");
        assert!(events.iter().any(|e| matches!(e, CombatEvent::Attack { target, .. } if target == "gob")), "{v}");
    }
}
