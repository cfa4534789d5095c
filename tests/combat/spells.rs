//! Spells, per variant, from the sources: d20-classic casting provokes unless cast
//! defensively, is countered as an immediate action and the three-way exclusivity holds;
//! ap-phases casting is complex and takes two consecutive AP; four-actions spends Spell
//! Quantity, reactions interrupt it or counter it; osr-segments incantations are declared,
//! go off by segment in the spells step and are lost when the caster is hurt first;
//! hex-phases casting takes the attack action.

use super::*;
use fivefoot::combat::fighter::Immediate;
use fivefoot::combat::fighter::Reactions;
use fivefoot::combat::variants::ap_phases::points;
use fivefoot::combat::variants::d20_classic;
use fivefoot::rules::Conditions;
use fivefoot::rules::Health;
use fivefoot::rules::Position;

pub(super) fn cast(spell: &str, target: &str, defensive: bool) -> Command {
    Command::Cast { spell: spell.into(), target: target.into(), defensive }
}

fn provoked_by_casting(b: &BattleWorld) -> usize {
    count(b, |e| matches!(e, CombatEvent::AttackOfOpportunity { trigger, .. } if trigger == "casts a spell"))
}

pub(super) fn damage_to(b: &BattleWorld, who: &str) -> i32 {
    b.events()
        .iter()
        .filter_map(|e| match e {
            CombatEvent::Damage { target, total, .. } if target == who => Some(*total),
            _ => None,
        })
        .sum()
}

pub(super) fn spoiled(b: &BattleWorld, who: &str) -> Vec<String> {
    b.events()
        .iter()
        .filter_map(|e| match e {
            CombatEvent::Spoiled { unit, reason, .. } if unit == who => Some(reason.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn d20_casting_in_a_threatened_square_provokes_unless_cast_defensively() {
    let units =
        || vec![unit("mage", "blue", (2, 3), "war_mage", None), unit("brute", "red", (3, 3), "human_fighter", None)];
    let mut b = battle(units(), RulesVariant::D20Classic, 5);
    until(&mut b, "mage", |b| b.clock().round >= 2);
    b.execute(cast("magic_missile", "brute", false)).unwrap();
    assert_eq!(provoked_by_casting(&b), 1, "the threatening brute strikes first");
    let mage = b.index_of("mage").unwrap();
    assert_eq!(b.read().fighters.spells[mage].left, 2, "a slot is spent");
    assert!(!b.read().budget().standard, "casting takes the standard action");

    let mut b = battle(units(), RulesVariant::D20Classic, 5);
    until(&mut b, "mage", |b| b.clock().round >= 2);
    b.execute(cast("magic_missile", "brute", true)).unwrap();
    assert_eq!(provoked_by_casting(&b), 0, "cast defensively, nothing is provoked");
    let check = b.events().iter().find_map(|e| match e {
        CombatEvent::Save { kind, dc, success, .. } if kind.contains("casting defensively") => Some((*dc, *success)),
        _ => None,
    });
    let (dc, success) = check.expect("a concentration check");
    assert_eq!(dc, 17, "DC 15 + twice the spell level");
    assert_eq!(damage_to(&b, "brute") > 0, success, "the missile flies only if concentration holds");
}

#[test]
fn magic_missile_never_misses_and_deals_1d4_plus_1_at_first_level() {
    for seed in 0..20 {
        let mut b = battle(
            vec![unit("mage", "blue", (1, 1), "war_mage", None), unit("gob", "red", (8, 6), "goblin", None)],
            RulesVariant::D20Classic,
            seed,
        );
        until(&mut b, "mage", |_| true);
        b.execute(cast("magic_missile", "gob", false)).unwrap();
        let dealt = damage_to(&b, "gob");
        assert!((2..=5).contains(&dealt), "seed {seed}: {dealt}");
        assert_eq!(count(&b, |e| matches!(e, CombatEvent::Attack { .. })), 0, "no attack roll");
    }
}

#[test]
fn spells_need_range_and_line_of_effect_and_a_known_spell() {
    let rows = ["..........", "..........", "....#.....", "....#.....", "....#.....", ".........."];
    let mut b = battle_on(
        &rows,
        vec![
            unit("mage", "blue", (2, 3), "war_mage", None),
            unit("hidden", "red", (6, 3), "goblin", None),
            unit("priest", "blue", (2, 5), "acolyte", None),
        ],
        RulesVariant::D20Classic,
        1,
    );
    until(&mut b, "mage", |_| true);
    let e = b.validate(&cast("magic_missile", "hidden", false)).unwrap_err();
    assert!(e.reason.contains("no line of effect"), "{e}");
    let e = b.validate(&cast("cure_light_wounds", "priest", false)).unwrap_err();
    assert!(e.reason.contains("does not know"), "{e}");
    let e = b.validate(&cast("magic_missile", "priest", false)).unwrap_err();
    assert!(e.reason.contains("not a foe"), "{e}");
    until(&mut b, "priest", |_| true);
    let e = b.validate(&cast("cure_light_wounds", "mage", false)).unwrap_err();
    assert!(e.reason.contains("touch"), "cure light wounds is a touch spell: {e}");
    b.validate(&cast("cure_light_wounds", "priest", false)).expect("a caster may touch itself");
}

#[test]
fn cure_light_wounds_brings_a_dying_friend_back() {
    let mut b = battle(
        vec![
            unit("priest", "blue", (2, 3), "acolyte", None),
            unit("hurt", "blue", (3, 3), "human_fighter", None),
            unit("gob", "red", (9, 7), "goblin", None),
        ],
        RulesVariant::D20Classic,
        2,
    );
    until(&mut b, "priest", |_| true);
    let hurt = b.index_of("hurt").unwrap();
    b.scene().fighter::<Health>(hurt).hp = -2;
    for c in [Condition::Unconscious, Condition::Dying, Condition::Prone] {
        b.scene().fighter::<Conditions>(hurt).add(c);
    }
    b.execute(cast("cure_light_wounds", "hurt", false)).unwrap();
    let healed = b.events().iter().find_map(|e| match e {
        CombatEvent::Healed { unit, total, hp_after, .. } if unit == "hurt" => Some((*total, *hp_after)),
        _ => None,
    });
    let (total, hp_after) = healed.expect("a heal event");
    assert!((2..=9).contains(&total), "1d8 + caster level 1: {total}");
    assert_eq!(hp_after, total, "d20-classic: the dying are at 0 hit points, healing counts from 0");
    let now = &b.read().fighters.conditions[hurt];
    assert!(!now.has(Condition::Dying) && !now.has(Condition::Unconscious));
    assert!(now.has(Condition::Prone), "still on the ground");
}

/// Seeds of a d20-classic duel where the red mage identifies and counters blue's spell.
fn countered_duel(seed: u64) -> Option<BattleWorld> {
    let mut b = battle(
        vec![
            unit("blue_mage", "blue", (1, 3), "war_mage", None),
            unit("red_mage", "red", (8, 3), "war_mage", None),
            unit("red_guard", "red", (8, 5), "human_fighter", None),
        ],
        RulesVariant::D20Classic,
        seed,
    );
    until(&mut b, "blue_mage", |b| b.clock().round >= 2);
    b.execute(cast("magic_missile", "red_guard", false)).unwrap();
    let countered = count(&b, |e| matches!(e, CombatEvent::Action { action, .. } if action == "counterspells")) > 0;
    countered.then_some(b)
}

#[test]
fn d20_counterspell_is_an_immediate_action_that_rules_out_attacks_of_opportunity() {
    let mut seen = 0;
    for seed in 0..40 {
        let Some(mut b) = countered_duel(seed) else { continue };
        seen += 1;
        assert_eq!(damage_to(&b, "red_guard"), 0, "seed {seed}: countered, the missile never flies");
        assert_eq!(spoiled(&b, "blue_mage"), vec!["countered".to_string()]);
        let (blue, red) = (b.index_of("blue_mage").unwrap(), b.index_of("red_mage").unwrap());
        assert_eq!(
            (b.read().fighters.spells[blue].left, b.read().fighters.spells[red].left),
            (2, 2),
            "both spend a slot"
        );
        assert_eq!(d20_classic::immediate(&b.read(), red), Some(Immediate::Counterspell));
        // "you cannot use any other type of immediate action until the start of your next
        // turn": the blue mage walks away from the red mage without drawing an attack.
        let red_pos = b.read().fighters.position[red].0;
        // Nor a held action: coming into its reach does not set off its held attack.
        let held_attacks = |immediate: Option<Immediate>| {
            let mut held = b.fork(false);
            held.scene().fighter::<Reactions>(red).held = Some(None);
            held.scene().fighter::<fivefoot::combat::kept::ImmediateAction>(red).0 = immediate;
            held.scene().fighter::<Position>(blue).0 = (red_pos.x - 4, red_pos.y).into();
            held.execute(Command::Move { to: (red_pos.x - 1, red_pos.y).into() }).unwrap();
            count(&held, |e| matches!(e, CombatEvent::Action { action, .. } if action == "held attack"))
        };
        assert_eq!(held_attacks(Some(Immediate::Counterspell)), 0, "seed {seed}");
        assert_eq!(held_attacks(None), 1, "seed {seed}: had it not countered, the held attack would strike");
        b.scene().fighter::<Position>(blue).0 = (red_pos.x - 1, red_pos.y).into();
        b.execute(Command::Move { to: (red_pos.x - 4, red_pos.y).into() }).unwrap();
        assert_eq!(
            count(&b, |e| matches!(e, CombatEvent::AttackOfOpportunity { by, .. } if by == "red_mage")),
            0,
            "seed {seed}"
        );
    }
    assert!(seen >= 5, "the red mage identifies the spell about half the time: {seen}");
}

#[test]
fn d20_an_attack_of_opportunity_rules_out_a_counterspell() {
    for seed in 0..20 {
        let mut b = battle(
            vec![
                unit("blue_mage", "blue", (3, 3), "war_mage", None),
                unit("red_mage", "red", (4, 3), "war_mage", None),
                unit("red_guard", "red", (8, 5), "human_fighter", None),
            ],
            RulesVariant::D20Classic,
            seed,
        );
        until(&mut b, "blue_mage", |b| b.clock().round >= 2);
        b.execute(cast("magic_missile", "red_guard", false)).unwrap();
        let aoo = count(&b, |e| matches!(e, CombatEvent::AttackOfOpportunity { by, .. } if by == "red_mage"));
        let identify = count(
            &b,
            |e| matches!(e, CombatEvent::Save { unit, kind, .. } if unit == "red_mage" && kind.starts_with("Spellcraft")),
        );
        assert_eq!(aoo, 1, "seed {seed}: the adjacent mage takes its attack of opportunity");
        assert_eq!(identify, 0, "seed {seed}: and so may not counter");
    }
}

#[test]
fn ap_casting_is_complex_two_consecutive_ap_provoking_in_each_phase() {
    let mut completed = 0;
    for seed in 0..40 {
        let mut b = battle(
            // A champion (Combat Reflexes) with a dagger: wounds a caster can concentrate through.
            vec![
                unit("mage", "blue", (2, 3), "war_mage", None),
                unit("champ", "red", (3, 3), "champion", Some("dagger")),
            ],
            RulesVariant::ApPhases,
            seed,
        );
        until(&mut b, "mage", |b| b.clock().phase == 2 && b.clock().round >= 2);
        let mage = b.index_of("mage").unwrap();
        b.execute(cast("magic_missile", "champ", false)).unwrap();
        assert_eq!(points(&b.read(), mage).ap, 2, "1 AP now");
        assert_eq!(provoked_by_casting(&b), 1, "provokes as the first AP is spent");
        assert_eq!(damage_to(&b, "champ"), 0, "not cast yet");
        if !spoiled(&b, "mage").is_empty() {
            // Hurt, and concentration (DC 10 + damage + 1) failed: the spell is lost.
            assert!(
                points(&b.read(), mage).advanced.is_none(),
                "seed {seed}: {:?}",
                &b.events()[b.events().len() - 6..]
            );
            continue;
        }
        until(&mut b, "champ", |b| b.clock().phase == 4);
        assert_eq!(points(&b.read(), mage).ap, 1, "seed {seed}: the second AP went on it in the next phase");
        assert_eq!(provoked_by_casting(&b), 2, "and provoked again (the champion has Combat Reflexes)");
        let went_off = damage_to(&b, "champ") > 0;
        assert_eq!(went_off, spoiled(&b, "mage").is_empty(), "the spell goes off unless it was lost");
        completed += usize::from(went_off);
    }
    assert!(completed >= 1, "two concentration checks in a row pass now and then: {completed}");
}

#[test]
fn four_actions_spends_spell_quantity_and_a_hurting_reaction_interrupts_the_spell() {
    let mut interrupted = 0;
    for seed in 0..20 {
        let mut b = battle(
            vec![unit("mage", "blue", (2, 3), "war_mage", None), unit("brute", "red", (3, 3), "human_fighter", None)],
            RulesVariant::FourActions,
            seed,
        );
        until(&mut b, "mage", |b| b.clock().round >= 2);
        let mage = b.index_of("mage").unwrap();
        let hp = b.read().fighters.health[mage].hp;
        b.execute(cast("magic_missile", "brute", false)).unwrap();
        if spoiled(&b, "mage") == ["no spellcasting focus presented"] {
            continue; // the focus check failed: no casting to interrupt (tests/combat/focus.rs)
        }
        assert_eq!(b.read().fighters.spells[mage].left, 2, "SQ 3 less the Spell Order 1");
        assert_eq!(provoked_by_casting(&b), 1, "casting provokes a reaction");
        if b.read().fighters.health[mage].hp < hp {
            interrupted += 1;
            assert_eq!(damage_to(&b, "brute"), 0, "seed {seed}: interrupted");
            assert!(spoiled(&b, "mage")[0].contains("interrupted"));
        } else {
            assert!(damage_to(&b, "brute") > 0, "seed {seed}");
        }
    }
    assert!(interrupted > 3, "{interrupted}");
}

#[test]
fn four_actions_counterspell_needs_the_school_a_reaction_and_a_caster_level_check() {
    let mut tried = 0;
    for seed in 0..40 {
        let mut b = battle(
            vec![
                unit("blue_mage", "blue", (1, 3), "war_mage", None),
                unit("red_mage", "red", (8, 3), "war_mage", None),
                unit("red_priest", "red", (8, 5), "acolyte", None),
            ],
            RulesVariant::FourActions,
            seed,
        );
        until(&mut b, "blue_mage", |b| b.clock().round >= 2);
        b.execute(cast("magic_missile", "red_priest", false)).unwrap();
        let who_identified: Vec<String> = b
            .events()
            .iter()
            .filter_map(|e| match e {
                CombatEvent::Save { unit, kind, .. } if kind.starts_with("Magical Aptitude") => Some(unit.clone()),
                _ => None,
            })
            .collect();
        assert!(!who_identified.contains(&"red_priest".to_string()), "a conjurer has no evocation to counter with");
        let check = b.events().iter().find_map(|e| match e {
            CombatEvent::Save { kind, success, dc, .. } if kind == "caster level (counterspell)" => {
                Some((*success, *dc))
            }
            _ => None,
        });
        let Some((success, dc)) = check else { continue };
        tried += 1;
        assert_eq!(dc, 10 + 1 + 3, "Spell DC: 10 + Spell Order + the caster's Intelligence");
        let red = b.index_of("red_mage").unwrap();
        assert_eq!(b.read().fighters.reactions[red].used, 1, "the counter is its reaction");
        assert_eq!(b.read().fighters.spells[red].left, 2, "and costs it the Spell Order in SQ");
        assert_eq!(damage_to(&b, "red_priest") == 0, success, "seed {seed}");
    }
    assert!(tried >= 5, "{tried}");
}

#[test]
fn osr_spells_are_declared_and_go_off_by_segment_unless_the_caster_is_hurt_first() {
    let units = || {
        vec![
            unit("mage", "blue", (1, 1), "war_mage", None),
            unit("priest", "red", (8, 6), "acolyte", None),
            unit("hurt", "red", (8, 5), "human_fighter", None),
        ]
    };
    let mut b = battle(units(), RulesVariant::OsrSegments, 3);
    until(&mut b, "mage", major_action_left);
    let e = b.validate(&cast("magic_missile", "priest", false)).unwrap_err();
    assert!(e.reason.contains("not declared"), "{e}");

    // Both declare: the mage's missile (1 segment) beats the priest's cure (5 segments),
    // whatever the groups, and breaks it.
    let mut b = battle(units(), RulesVariant::OsrSegments, 3);
    until(&mut b, "mage", |b| major(b).declaring);
    b.execute(Command::Declare { intent: Intent::Cast { spell: "magic_missile".into() } }).unwrap();
    until(&mut b, "priest", |b| major(b).declaring);
    b.execute(Command::Declare { intent: Intent::Cast { spell: "cure_light_wounds".into() } }).unwrap();
    // Each announces its target in its group's turn (whichever comes first).
    let mut announced = 0;
    while announced < 2 {
        let a = b.actor().unwrap();
        let turn = group_turn(&b);
        match b.read().fighters.combatant[a].id.as_str() {
            "mage" if turn => b.execute(cast("magic_missile", "priest", false)).unwrap(),
            "priest" if turn => b.execute(cast("cure_light_wounds", "hurt", false)).unwrap(),
            _ => b.execute(Command::EndTurn).unwrap(),
        }
        if turn && a != b.index_of("hurt").unwrap() {
            announced += 1;
            assert_eq!(damage_to(&b, "priest"), 0, "announced, not yet gone off");
        }
        assert_eq!(b.clock().round, 1);
    }
    until(&mut b, "mage", |b| b.clock().round == 2);
    assert!(damage_to(&b, "priest") > 0, "the missile went off in segment 1");
    assert_eq!(spoiled(&b, "priest"), vec!["concentration broken (hurt)".to_string()]);
    assert_eq!(count(&b, |e| matches!(e, CombatEvent::Healed { .. })), 0);
    let priest = b.index_of("priest").unwrap();
    assert_eq!(b.read().fighters.spells[priest].left, 2, "lost as if cast");
    let step = b
        .events()
        .iter()
        .position(|e| matches!(e, CombatEvent::PhaseStarted { name, .. } if name == "spells by segment"));
    let hit = b.events().iter().position(|e| matches!(e, CombatEvent::Damage { target, .. } if target == "priest"));
    assert!(step.unwrap() < hit.unwrap(), "spells go off in the spells step, after the groups");
}

#[test]
fn hex_casting_takes_the_attack_action() {
    let mut b = battle(
        vec![unit("mage", "blue", (1, 1), "war_mage", None), unit("gob", "red", (8, 6), "goblin", None)],
        RulesVariant::HexPhases,
        1,
    );
    until(&mut b, "mage", |b| b.read().budget().fresh && !b.read().budget().single_action);
    b.execute(cast("magic_missile", "gob", false)).unwrap();
    let e = b.validate(&Command::Attack { target: "gob".into() }).unwrap_err();
    assert!(e.reason.contains("attack action"), "{e}");
}

#[test]
fn osr_a_declared_spell_is_lost_when_the_caster_is_hurt_before_announcing_it() {
    let mut b = battle(
        vec![unit("mage", "blue", (1, 1), "war_mage", None), unit("gob", "red", (8, 6), "goblin", None)],
        RulesVariant::OsrSegments,
        3,
    );
    until(&mut b, "mage", |b| major(b).declaring);
    b.execute(Command::Declare { intent: Intent::Cast { spell: "magic_missile".into() } }).unwrap();
    // Casting begins in segment 1: a wound before the mage's group turn breaks it.
    let (mage, gob) = (b.index_of("mage").unwrap(), b.index_of("gob").unwrap());
    b.scene().wound(gob, mage, 2);
    assert_eq!(spoiled(&b, "mage"), vec!["concentration broken (hurt)".to_string()]);
    assert_eq!(b.read().fighters.spells[mage].left, 2, "lost as if cast");
    let mut turns = 0;
    while b.clock().round == 1 {
        let a = b.actor().unwrap();
        if a == mage {
            turns += 1;
        }
        b.execute(Command::EndTurn).unwrap();
    }
    assert_eq!(turns, 0, "and its major action with it: no group turn this round");
}

#[test]
fn ap_a_spell_under_way_calls_for_concentration_when_hurt_and_is_lost_when_the_caster_drops() {
    let mut checked = 0;
    for seed in 0..10 {
        let mut b = battle(
            vec![unit("mage", "blue", (1, 1), "war_mage", None), unit("gob", "red", (8, 6), "goblin", None)],
            RulesVariant::ApPhases,
            seed,
        );
        until(&mut b, "mage", |b| b.clock().phase == 2 && b.clock().round >= 2);
        b.execute(cast("magic_missile", "gob", false)).unwrap();
        let (mage, gob) = (b.index_of("mage").unwrap(), b.index_of("gob").unwrap());
        assert!(points(&b.read(), mage).advanced.is_some(), "1 AP of 2 spent");
        b.scene().wound(gob, mage, 3);
        let check = b.events().iter().rev().find_map(|e| match e {
            CombatEvent::Save { kind, dc, success, .. } if kind.starts_with("concentration") => Some((*dc, *success)),
            _ => None,
        });
        let (dc, held) = check.expect("a concentration check");
        assert_eq!(dc, 10 + 3 + 1, "10 + damage + spell level");
        assert_eq!(points(&b.read(), mage).advanced.is_some(), held, "seed {seed}");
        checked += 1;
        if held {
            // Dropped before the second AP: the casting is lost, not finished rounds later.
            let hp = b.read().fighters.health[mage].hp;
            b.scene().wound(gob, mage, hp + 1);
            assert!(
                points(&b.read(), mage).advanced.is_none(),
                "seed {seed}: {:?}",
                &b.events()[b.events().len() - 6..]
            );
            assert!(spoiled(&b, "mage").iter().any(|r| r == "it dropped"), "seed {seed}");
        }
    }
    assert_eq!(checked, 10);
}

#[test]
fn healing_too_little_to_wake_the_dying_still_stabilises_and_d20_heals_from_0() {
    for v in [RulesVariant::D20Classic, RulesVariant::ApPhases] {
        let mut b = battle(
            vec![
                unit("priest", "blue", (2, 3), "acolyte", None),
                unit("hurt", "blue", (3, 3), "human_fighter", None),
                unit("gob", "red", (9, 7), "goblin", None),
            ],
            v,
            2,
        );
        until(&mut b, "priest", |b| v != RulesVariant::ApPhases || b.clock().phase >= 2);
        let hurt = b.index_of("hurt").unwrap();
        b.scene().fighter::<Health>(hurt).hp = -9;
        for c in [Condition::Unconscious, Condition::Dying, Condition::Prone] {
            b.scene().fighter::<Conditions>(hurt).add(c);
        }
        b.execute(cast("cure_light_wounds", "hurt", false)).unwrap();
        // ap-phases: the spell goes off with its second AP, in the next phase.
        for _ in 0..20 {
            if b.events().iter().any(|e| matches!(e, CombatEvent::Healed { .. })) {
                break;
            }
            b.execute(Command::EndTurn).unwrap();
        }
        let read = b.read();
        let (f, hp) = (read.fighters.at(hurt), read.fighters.health[hurt].hp);
        assert!(!f.has(Condition::Dying), "{v}");
        if v == RulesVariant::D20Classic {
            assert!(hp > 0 && !f.has(Condition::Unconscious), "d20-classic: healed from 0, awake ({hp})");
        } else {
            assert!(hp <= 0 && f.has(Condition::Stabilized), "ap-phases: still down but stable ({hp})");
        }
    }
}

#[test]
fn only_d20_classic_and_ap_phases_cast_defensively() {
    for v in RulesVariant::ALL {
        let mut b = battle(
            vec![unit("mage", "blue", (1, 1), "war_mage", None), unit("gob", "red", (8, 6), "goblin", None)],
            v,
            1,
        );
        until(&mut b, "mage", |b| !major(b).declaring);
        let e = b.validate(&cast("magic_missile", "gob", true));
        let has_it = matches!(v, RulesVariant::D20Classic | RulesVariant::ApPhases);
        assert_eq!(e.as_ref().is_err_and(|e| e.reason.contains("no defensive casting")), !has_it, "{v}: {e:?}");
    }
}

#[test]
fn a_grappled_caster_has_no_hand_free_in_d20_classic_and_four_actions() {
    for v in RulesVariant::ALL {
        let mut b = battle(
            vec![unit("mage", "blue", (1, 1), "war_mage", None), unit("gob", "red", (8, 6), "goblin", None)],
            v,
            1,
        );
        until(&mut b, "mage", |b| !major(b).declaring);
        let mage = b.index_of("mage").unwrap();
        b.scene().fighter::<Conditions>(mage).add(Condition::Grappled);
        let no_hands = matches!(v, RulesVariant::D20Classic | RulesVariant::FourActions);
        match b.validate(&cast("magic_missile", "gob", false)) {
            Err(e) if e.reason.contains("grappled") => assert!(no_hands, "{v}: {e}"),
            other => assert!(!no_hands, "{v}: {other:?}"),
        }
    }
}
