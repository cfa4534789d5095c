//! Initiative and dying from the sources' own formulas: d20 + Dex with ties to the higher
//! modifier (d20-classic, four-actions), the four-actions ambushers' +4, ap-phases' Dexterity
//! score; d20-classic's three death-save rolls and four-actions' 10 + |negative hp|; where a
//! source is silent, ap-phases' stabilising check and osr-segments' bleeding.
//! The catalogue numbers: human fighter Dex 13 (+1), Con 14 (+2), 1 Hit Die; goblin Dex 15
//! (+2); human archer Dex 16 (+3).

use super::*;
use fivefoot::level::DeathSaves;
use fivefoot::rules::Conditions;
use fivefoot::rules::Health;

fn three(v: RulesVariant, seed: u64) -> BattleWorld {
    battle(
        vec![
            unit("fighter", "blue", (1, 1), "human_fighter", None),
            unit("archer", "blue", (1, 3), "human_archer", None),
            unit("gob", "red", (8, 3), "goblin", None),
        ],
        v,
        seed,
    )
}

fn dex_mod(id: &str) -> i32 {
    match id {
        "fighter" => 1,
        "gob" => 2,
        "archer" => 3,
        _ => unreachable!(),
    }
}

fn initiatives(b: &BattleWorld) -> Vec<(String, Option<i32>, i32)> {
    b.events()
        .iter()
        .filter_map(|e| match e {
            CombatEvent::Initiative { unit, roll, total, .. } => Some((unit.clone(), *roll, *total)),
            _ => None,
        })
        .collect()
}

/// d20-classic: "1d20 and adding your character's initiative bonus", ties by the suggested
/// decimal (the higher bonus first); four-actions: "D20+ DEX … compare the tying creatures'
/// Initiative Modifiers, the higher of the two will go first".
#[test]
fn d20_initiative_is_a_d20_plus_dex_and_a_tie_goes_to_the_higher_modifier() {
    for v in [RulesVariant::D20Classic, RulesVariant::FourActions] {
        let mut ties = 0;
        for seed in 0..200 {
            let b = three(v, seed);
            let ini = initiatives(&b);
            assert_eq!(ini.len(), 3, "{v}");
            for (unit, roll, total) in &ini {
                assert_eq!(*total, roll.unwrap() + dex_mod(unit), "{v} seed {seed}");
            }
            let key = |e: Entity| {
                let id = &b.read().fighters.combatant[e].id;
                (ini.iter().find(|(u, ..)| u == id).unwrap().2, dex_mod(id))
            };
            for w in b.clock().order.windows(2) {
                let (x, y) = (key(w[0]), key(w[1]));
                assert!(x >= y, "{v} seed {seed}: {x:?} before {y:?}");
                ties += usize::from(x.0 == y.0);
            }
        }
        assert!(ties > 0, "{v}: no tie came up to check");
    }
}

/// four-actions: "creatures participating in the Surprise Round gain a +4 bonus on
/// Initiative rolls"; d20-classic, with the same ambush, has no such bonus (the control).
#[test]
fn four_actions_ambushers_roll_initiative_at_plus_4_after_the_surprise_round() {
    for v in [RulesVariant::FourActions, RulesVariant::D20Classic] {
        let mut gob = unit("gob", "red", (8, 3), "goblin", None);
        gob.aware = Some(false);
        let mut b = battle(vec![unit("fighter", "blue", (1, 1), "human_fighter", None), gob], v, 7);
        for _ in 0..5 {
            if initiatives(&b).len() == 2 {
                break;
            }
            b.execute(Command::EndTurn).unwrap(); // the ambusher's surprise round
        }
        let ini = initiatives(&b);
        assert_eq!(ini.len(), 2, "{v}: {ini:?}");
        let bonus = if v == RulesVariant::FourActions { 4 } else { 0 };
        for (unit, roll, total) in ini {
            let aware = if unit == "fighter" { bonus } else { 0 };
            assert_eq!(total, roll.unwrap() + dex_mod(&unit) + aware, "{v}: {unit}");
        }
    }
}

/// ap-phases: "All creatures have an initiative equal to their Dexterity score … highest to
/// lowest": archer 16, goblin 15, fighter 13, no roll.
#[test]
fn ap_initiative_is_the_dexterity_score_highest_first() {
    let b = three(RulesVariant::ApPhases, 3);
    let ini = initiatives(&b);
    for (unit, roll, total) in &ini {
        assert_eq!(*roll, None);
        let dex = match unit.as_str() {
            "archer" => 16,
            "gob" => 15,
            _ => 13,
        };
        assert_eq!(*total, dex, "{unit}");
    }
    let read = b.read();
    let order: Vec<&str> = b.clock().order.iter().map(|&i| read.fighters.combatant[i].id.as_str()).collect();
    assert_eq!(order, ["archer", "gob", "fighter"]);
}

fn dying_fighter(v: RulesVariant, saves: DeathSaves, seed: u64) -> (BattleWorld, usize) {
    let mut b = three(v, seed);
    b.scene().options().death_saves = saves;
    let f = b.index_of("fighter").unwrap();
    b.scene().fighter::<Health>(f).hp = -3;
    b.scene().fighter::<Health>(f).dropping_damage = 7;
    b.scene().fighter::<Conditions>(f).add(Condition::Unconscious);
    b.scene().fighter::<Conditions>(f).add(Condition::Dying);
    (b, f)
}

fn last_save(b: &BattleWorld) -> (i32, i32, i32, bool) {
    b.events()
        .iter()
        .rev()
        .find_map(|e| match e {
            CombatEvent::Save { roll, bonus, dc, success, .. } => Some((*roll, *bonus, *dc, *success)),
            _ => None,
        })
        .expect("a save")
}

/// d20-classic's three death rolls: d% ≥ 51, each failure 10 harder; Fortitude against
/// 10 + Hit Dice − Con modifier = 10 + 1 − 2 = 9; Fortitude against 10 + the damage that
/// dropped the fighter (7) = 17.
#[test]
fn d20_death_saves_use_each_modes_formula() {
    let mut harder = false;
    for seed in 0..40 {
        let (mut b, f) = dying_fighter(RulesVariant::D20Classic, DeathSaves::AllAreEqual, seed);
        b.dying_turn(f);
        let (roll, bonus, dc, ok) = last_save(&b);
        assert_eq!((bonus, dc), (0, 51));
        assert!((1..=100).contains(&roll));
        assert_eq!(ok, roll >= 51);
        if !ok {
            b.dying_turn(f);
            assert_eq!(last_save(&b).2, 61, "one failure: 61 or higher");
            harder = true;
        }
    }
    assert!(harder);
    for (saves, want) in [(DeathSaves::StatsMatter, 9), (DeathSaves::Brutality, 17)] {
        let (mut b, f) = dying_fighter(RulesVariant::D20Classic, saves, 1);
        b.dying_turn(f);
        let (roll, bonus, dc, ok) = last_save(&b);
        assert_eq!(dc, want, "{saves:?}");
        assert_eq!(ok, roll + bonus >= dc);
        assert_eq!(
            b.read().fighters.conditions[f].has(Condition::Stabilized),
            ok,
            "on success, the character stabilizes"
        );
        assert_eq!(b.read().fighters.health[f].death_fails, u32::from(!ok), "on failure, 1 failed death-save");
    }
}

/// four-actions: "each round, roll a Fortitude Save (DC = 10+ current negative HP). Upon
/// failure, increase negative HP by 1": at −3 the DC is 13, a failure leaves −4.
#[test]
fn four_actions_dying_saves_against_10_plus_negative_hp_and_bleeds_on_failure() {
    let (mut seen_fail, mut seen_pass) = (false, false);
    for seed in 0..40 {
        let (mut b, f) = dying_fighter(RulesVariant::FourActions, DeathSaves::default(), seed);
        b.dying_turn(f);
        let (roll, bonus, dc, ok) = last_save(&b);
        assert_eq!(dc, 13);
        assert_eq!(ok, roll + bonus >= 13);
        assert_eq!(b.read().fighters.health[f].hp, if ok { -3 } else { -4 });
        seen_fail |= !ok;
        seen_pass |= ok;
    }
    assert!(seen_fail && seen_pass);
}

/// ap-phases (000 is silent on dying; `docs/rules-notes.md`, "Dying where a source is
/// silent"): in the first phase that has actions, a dying character rolls d20 + its
/// Constitution modifier + its (negative) hit points against 10; a success stabilises, a
/// failure costs a hit point. Outside that phase its turn does not come.
#[test]
fn ap_phases_dying_stabilise_on_d20_plus_con_and_hp_against_10_in_phase_2() {
    let (mut seen_fail, mut seen_pass) = (false, false);
    for seed in 0..40 {
        let (mut b, f) = dying_fighter(RulesVariant::ApPhases, DeathSaves::default(), seed);
        let con = b.read().fighters.stats[f].con_mod();
        b.scene().clock().phase = 3;
        let before = b.events().len();
        b.dying_turn(f);
        assert_eq!(b.events().len(), before, "no dying turn outside phase 2");
        b.scene().clock().phase = 2;
        b.dying_turn(f);
        let (roll, bonus, dc, ok) = last_save(&b);
        assert_eq!((bonus, dc), (con - 3, 10));
        assert_eq!(ok, roll + bonus >= 10);
        let read = b.read();
        assert_eq!(read.fighters.health[f].hp, if ok { -3 } else { -4 });
        assert_eq!(read.fighters.conditions[f].has(Condition::Stabilized), ok);
        assert_eq!(read.fighters.conditions[f].has(Condition::Dying), !ok);
        seen_fail |= !ok;
        seen_pass |= ok;
    }
    assert!(seen_fail && seen_pass);
}

/// osr-segments (003 is silent on dying; `docs/rules-notes.md`, "Dying where a source is
/// silent"): a dying character bleeds a hit point each round, with the fast actions, and
/// dies at −10.
#[test]
fn osr_segments_dying_bleed_a_hit_point_with_the_fast_actions_and_die_at_minus_10() {
    let (mut b, f) = dying_fighter(RulesVariant::OsrSegments, DeathSaves::default(), 1);
    b.scene().fighter::<Health>(f).hp = -8;
    b.dying_turn(f);
    assert_eq!(b.read().fighters.health[f].hp, -8, "no bleeding outside the fast actions");
    b.scene().resource::<fivefoot::combat::kept::OsrRound>().step =
        fivefoot::combat::variants::osr_segments::OsrStep::FastActions;
    b.dying_turn(f);
    assert_eq!(b.read().fighters.health[f].hp, -9);
    assert!(b.read().fighters.conditions[f].has(Condition::Dying));
    b.dying_turn(f);
    let read = b.read();
    assert_eq!(read.fighters.health[f].hp, -10);
    assert!(read.fighters.conditions[f].has(Condition::Dead) && !read.fighters.conditions[f].has(Condition::Dying));
    assert!(b.events().iter().any(|e| matches!(e, CombatEvent::Action { action, .. } if action == "bleeds")));
}
