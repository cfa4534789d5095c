//! Combat engine tests built from the sources' own statements, per variant, plus
//! determinism (same seed, same events), replays and whole battles on every level.

use fivefoot::combat::command::Intent;
use fivefoot::combat::{AttackKind, Battle, BattleOptions, CombatEvent, Command, attack, clock, sim};
use fivefoot::grid::GridPos;
use fivefoot::level::{Catalogue, Level, LevelDef, MapDef, UnitDef};
use fivefoot::rules::Condition;
use fivefoot::variant::RulesVariant;
use std::collections::BTreeMap;

fn unit(id: &str, side: &str, at: (i32, i32), creature: &str, weapon: Option<&str>) -> UnitDef {
    UnitDef {
        id: id.into(),
        side: side.into(),
        at,
        creature: creature.into(),
        weapon: weapon.map(String::from),
        size: None,
        hp: Some(200),
        aware: None,
    }
}

fn level(units: Vec<UnitDef>) -> Level {
    let def = LevelDef {
        name: "test".into(),
        rules: RulesVariant::D20Classic,
        map: MapDef { rows: vec![".".repeat(10); 8] },
        units,
        death_saves: None,
    };
    Level::from_def(def, &Catalogue::builtin()).unwrap()
}

fn battle(units: Vec<UnitDef>, v: RulesVariant, seed: u64) -> Battle {
    Battle::new(&level(units), &Catalogue::builtin(), v, seed, BattleOptions::default())
}

fn battle_on(rows: &[&str], units: Vec<UnitDef>, v: RulesVariant, seed: u64) -> Battle {
    let def = LevelDef {
        name: "test".into(),
        rules: v,
        map: MapDef { rows: rows.iter().map(|r| r.to_string()).collect() },
        units,
        death_saves: None,
    };
    let level = Level::from_def(def, &Catalogue::builtin()).unwrap();
    Battle::new(&level, &Catalogue::builtin(), v, seed, BattleOptions::default())
}

/// Ends turns until `id` acts and `ready` holds.
fn until(b: &mut Battle, id: &str, ready: impl Fn(&Battle) -> bool) {
    for _ in 0..500 {
        let a = b.actor().expect("battle on");
        if b.fighters[a].id == id && ready(b) {
            return;
        }
        b.execute(Command::EndTurn).unwrap();
    }
    panic!("{id} never got its chance");
}

fn attack_events(b: &Battle) -> Vec<(String, Vec<(String, i32)>)> {
    b.events
        .iter()
        .filter_map(|e| match e {
            CombatEvent::Attack { attacker, modifiers, .. } => {
                Some((attacker.clone(), modifiers.iter().map(|m| (m.source.clone(), m.value)).collect()))
            }
            _ => None,
        })
        .collect()
}

#[path = "combat/sources.rs"]
mod sources;

#[path = "combat/turns.rs"]
mod turns;

#[path = "combat/hex.rs"]
mod hex;

#[path = "combat/targets.rs"]
mod targets;

#[path = "combat/invariants.rs"]
mod invariants;

#[path = "combat/spells.rs"]
mod spells;

#[path = "combat/clauses_ap.rs"]
mod clauses_ap;

#[path = "combat/clauses_four.rs"]
mod clauses_four;

#[path = "combat/clauses_d20.rs"]
mod clauses_d20;

#[path = "combat/clauses_osr.rs"]
mod clauses_osr;

#[path = "combat/clauses_hex.rs"]
mod clauses_hex;

fn has_mod(mods: &[(String, i32)], source: &str, value: i32) -> bool {
    mods.iter().any(|(s, v)| s == source && *v == value)
}

// ---------------------------------------------------------------- ap-phases (000)

#[test]
fn a_fast_human_with_a_greatsword_attacks_no_earlier_than_the_slow_phase() {
    let mut b = battle(
        vec![
            unit("hero", "blue", (3, 3), "human_fighter", Some("greatsword")),
            unit("gob", "red", (4, 3), "goblin", None),
        ],
        RulesVariant::ApPhases,
        1,
    );
    let hero = b.index_of("hero").unwrap();
    assert_eq!(clock::ap_earliest_attack_phase(&b, hero), 6, "the slow phase is the sixth");
    until(&mut b, "hero", |b| b.clock.phase == 4);
    let e = b.validate(&Command::Attack { target: "gob".into() }).unwrap_err();
    assert!(e.reason.contains("slow"), "{e}");
    until(&mut b, "hero", |b| b.clock.phase == 6);
    b.validate(&Command::Attack { target: "gob".into() }).unwrap();
    // A dagger (fast weapon) strikes from the fast phase.
    let mut b = battle(
        vec![unit("hero", "blue", (3, 3), "human_fighter", Some("dagger")), unit("gob", "red", (4, 3), "goblin", None)],
        RulesVariant::ApPhases,
        1,
    );
    assert_eq!(clock::ap_earliest_attack_phase(&b, b.index_of("hero").unwrap()), 4);
    until(&mut b, "hero", |b| b.clock.phase == 4);
    b.validate(&Command::Attack { target: "gob".into() }).unwrap();
}

#[test]
fn the_second_attack_action_in_a_round_is_at_minus_5_and_the_third_at_minus_10() {
    let mut b = battle(
        vec![unit("hero", "blue", (3, 3), "human_fighter", Some("dagger")), unit("gob", "red", (4, 3), "goblin", None)],
        RulesVariant::ApPhases,
        3,
    );
    for phase in [4, 5, 6] {
        until(&mut b, "hero", |b| b.clock.phase == phase);
        b.execute(Command::Attack { target: "gob".into() }).unwrap();
    }
    let hero: Vec<_> = attack_events(&b).into_iter().filter(|(a, _)| a == "hero").map(|(_, m)| m).collect();
    assert_eq!(hero.len(), 3);
    assert!(!hero[0].iter().any(|(s, _)| s == "earlier attack actions"));
    assert!(has_mod(&hero[1], "earlier attack actions", -5));
    assert!(has_mod(&hero[2], "earlier attack actions", -10));
    assert_eq!(b.clock.ap[b.index_of("hero").unwrap()], 0, "three actions spent all 3 AP");
}

#[test]
fn only_aware_creatures_act_in_the_surprise_round_with_2_ap() {
    let mut units =
        vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (7, 3), "goblin", None)];
    units[1].aware = Some(false);
    let b = battle(units, RulesVariant::ApPhases, 1);
    assert!(b.clock.surprise);
    assert_eq!(b.clock.ap[b.index_of("hero").unwrap()], 2);
    assert_eq!(b.clock.ap[b.index_of("gob").unwrap()], 0);
}

// ---------------------------------------------------------------- four-actions (001)

#[test]
fn primary_secondary_and_tertiary_attacks_take_0_5_and_10() {
    let mut b = battle(
        vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (4, 3), "goblin", None)],
        RulesVariant::FourActions,
        2,
    );
    until(&mut b, "hero", |_| true);
    for _ in 0..3 {
        b.execute(Command::Attack { target: "gob".into() }).unwrap();
    }
    let hero: Vec<_> = attack_events(&b).into_iter().filter(|(a, _)| a == "hero").map(|(_, m)| m).collect();
    assert_eq!(hero.len(), 3);
    assert!(!hero[0].iter().any(|(s, _)| s.contains("attack") && s != "base attack bonus"));
    assert!(has_mod(&hero[1], "secondary attack", -5));
    assert!(has_mod(&hero[2], "tertiary attack", -10));
}

#[test]
fn everyone_is_surprised_until_its_first_turn_and_flanking_makes_the_foe_surprised() {
    let mut b = battle(
        vec![
            unit("a", "blue", (3, 3), "human_fighter", None),
            unit("b", "blue", (5, 3), "human_fighter", None),
            unit("gob", "red", (4, 3), "goblin", None),
        ],
        RulesVariant::FourActions,
        5,
    );
    assert!(b.fighters.iter().filter(|f| !f.has_acted).all(|f| f.has(Condition::Surprised)));
    // Once everyone has acted, only flanking makes the goblin Surprised against a and b.
    let gob = b.index_of("gob").unwrap();
    for _ in 0..3 {
        b.execute(Command::EndTurn).unwrap();
    }
    assert!(!b.fighters[gob].has(Condition::Surprised));
    b.refresh();
    let a = b.index_of("a").unwrap();
    let p = attack::profile(&b, &b.view(), a, gob, &AttackKind::Primary, &Default::default());
    assert!(p.modifiers.iter().any(|m| m.source == "flanking: target surprised" && m.value == 2), "{:?}", p.modifiers);
    assert!(!p.modifiers.iter().any(|m| m.source == "flanking"), "no +2 flanking bonus in four-actions");
}

// ---------------------------------------------------------------- d20-classic (002)

#[test]
fn a_full_attack_at_base_attack_plus_11_makes_three_attacks_at_11_6_1() {
    let mut b = battle(
        vec![unit("champ", "blue", (3, 3), "champion", None), unit("ogre", "red", (4, 3), "ogre", None)],
        RulesVariant::D20Classic,
        4,
    );
    until(&mut b, "champ", |_| true);
    b.execute(Command::FullAttack { target: "ogre".into() }).unwrap();
    let champ: Vec<_> = attack_events(&b).into_iter().filter(|(a, _)| a == "champ").map(|(_, m)| m).collect();
    assert_eq!(champ.len(), 3);
    assert!(has_mod(&champ[0], "base attack bonus", 11));
    assert!(has_mod(&champ[1], "iterative attack", -5));
    assert!(has_mod(&champ[2], "iterative attack", -10));
}

#[test]
fn a_5_ft_step_replaces_the_move_action_and_a_full_round_action_needs_the_whole_turn() {
    let mut b = battle(
        vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (6, 3), "goblin", None)],
        RulesVariant::D20Classic,
        4,
    );
    until(&mut b, "hero", |_| true);
    b.execute(Command::Step { to: (4, 3).into() }).unwrap();
    assert!(b.validate(&Command::Move { to: (5, 4).into() }).is_err(), "no move after a 5-ft step");
    assert!(b.validate(&Command::FullAttack { target: "gob".into() }).is_err());
    assert!(b.validate(&Command::Attack { target: "gob".into() }).is_err(), "the goblin is still 10 ft away");
}

#[test]
fn a_charge_needs_10_ft_of_straight_line_and_leaves_the_charger_at_minus_2_ac() {
    let mut b = battle(
        vec![unit("hero", "blue", (1, 3), "human_fighter", None), unit("gob", "red", (6, 3), "goblin", None)],
        RulesVariant::D20Classic,
        6,
    );
    until(&mut b, "hero", |_| true);
    let hero = b.index_of("hero").unwrap();
    b.execute(Command::Charge { target: "gob".into() }).unwrap();
    assert_eq!(b.fighters[hero].pos, (5, 3).into());
    assert!(b.fighters[hero].defense.contains(&("charging".into(), -2)));
    let charged = b.events.iter().any(|e| matches!(e, CombatEvent::Attack { kind, .. } if kind == "charges"));
    assert!(charged);
}

#[test]
fn leaving_a_threatened_square_draws_one_attack_of_opportunity_per_round() {
    let mut b = battle(
        vec![
            unit("hero", "blue", (3, 3), "human_fighter", None),
            unit("gob", "red", (4, 3), "goblin", None),
            unit("pal", "blue", (4, 4), "human_fighter", None),
        ],
        RulesVariant::D20Classic,
        7,
    );
    until(&mut b, "hero", |_| true);
    b.execute(Command::Move { to: (1, 1).into() }).unwrap();
    let aoo = |b: &Battle| b.events.iter().filter(|e| matches!(e, CombatEvent::AttackOfOpportunity { .. })).count();
    assert_eq!(aoo(&b), 1);
    until(&mut b, "pal", |_| true);
    b.execute(Command::Move { to: (7, 6).into() }).unwrap();
    assert_eq!(aoo(&b), 1, "the goblin's one immediate action is spent until its next turn");
}

#[test]
fn dying_ends_in_stabilising_or_three_failed_death_saves_in_a_row() {
    let (mut deaths, mut stable) = (0, 0);
    for seed in 0..40 {
        let mut b = battle(
            vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (7, 3), "goblin", None)],
            RulesVariant::D20Classic,
            seed,
        );
        // "In death, all are equal" (d% 51+, 61+, 71+) lets both ends come up in 40 seeds.
        b.options.death_saves = fivefoot::level::DeathSaves::AllAreEqual;
        let hero = b.index_of("hero").unwrap();
        b.fighters[hero].hp = -2;
        b.fighters[hero].add(Condition::Unconscious);
        b.fighters[hero].add(Condition::Dying);
        for _ in 0..10 {
            if !b.fighters[hero].has(Condition::Dying) {
                break;
            }
            fivefoot::combat::resolve::dying_turn(&mut b, hero);
        }
        let saves: Vec<bool> = b
            .events
            .iter()
            .filter_map(|e| if let CombatEvent::Save { success, .. } = e { Some(*success) } else { None })
            .collect();
        // A success stabilises at once, so the log is some failures (fewer than three) and
        // one success, or exactly three failures and death.
        let fails = saves.iter().take_while(|s| !**s).count();
        if b.fighters[hero].has(Condition::Dead) {
            assert_eq!(saves, [false, false, false], "seed {seed}");
            assert_eq!(b.fighters[hero].death_fails, 3);
            deaths += 1;
        } else {
            assert!(b.fighters[hero].has(Condition::Stabilized), "seed {seed}");
            assert!(fails < 3 && saves.len() == fails + 1, "seed {seed}: {saves:?}");
            assert!(!b.fighters[hero].has(Condition::Dying));
            stable += 1;
        }
    }
    assert!(deaths > 0 && stable > 0, "both ends came up: {deaths} deaths, {stable} stabilised");
}

// ---------------------------------------------------------------- osr-segments (003)

#[test]
fn group_initiative_ties_put_both_groups_high() {
    let mut tied = 0;
    let mut split = 0;
    for seed in 0..60 {
        let mut b = battle(
            vec![unit("hero", "blue", (1, 3), "human_fighter", None), unit("gob", "red", (8, 3), "goblin", None)],
            RulesVariant::OsrSegments,
            seed,
        );
        // Group initiative is rolled once everyone has declared.
        while b.clock.budget.declaring {
            b.execute(Command::Declare { intent: Intent::Fight }).unwrap();
        }
        let groups: Vec<(i32, String)> = b
            .events
            .iter()
            .filter_map(|e| {
                if let CombatEvent::GroupInitiative { roll, group, .. } = e {
                    Some((*roll, group.clone()))
                } else {
                    None
                }
            })
            .take(2)
            .collect();
        assert_eq!(groups.len(), 2);
        if groups[0].0 == groups[1].0 {
            tied += 1;
            assert!(groups.iter().all(|(_, g)| g == "HIGH"), "seed {seed}: {groups:?}");
        } else {
            split += 1;
            assert_eq!(groups.iter().filter(|(_, g)| g == "HIGH").count(), 1, "seed {seed}: {groups:?}");
        }
    }
    assert!(tied > 0 && split > 0);
}

#[test]
fn osr_attacks_use_aac0_against_descending_ac() {
    let mut b = battle(
        vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (4, 3), "goblin", None)],
        RulesVariant::OsrSegments,
        1,
    );
    b.refresh();
    let (h, g) = (b.index_of("hero").unwrap(), b.index_of("gob").unwrap());
    let p = attack::profile(&b, &b.view(), h, g, &AttackKind::Primary, &Default::default());
    // AAC0 = 20 − 1 = 19; goblin AC 16 ascending = 4 descending; need 19 − 4 = 15.
    assert_eq!(p.target_number, 15);
    assert!(p.modifiers.iter().any(|m| m.source == "Strength" && m.value == 3));
    assert_eq!(p.hit_chance, 0.45, "d20 + 3 ≥ 15: 12..20 hit");
}

#[test]
fn the_surprised_cannot_make_free_attacks() {
    // The control: an aware goblin makes its free attack on the hero leaving it.
    for aware in [false, true] {
        let mut units =
            vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (4, 3), "goblin", None)];
        units[1].aware = Some(aware);
        let mut b = battle(units, RulesVariant::OsrSegments, 9);
        assert_eq!(b.fighters[b.index_of("gob").unwrap()].has(Condition::Surprised), !aware);
        until(&mut b, "hero", |b| b.clock.budget.major && !b.clock.budget.fast_only && !b.clock.budget.declaring);
        b.execute(Command::Move { to: (1, 3).into() }).unwrap();
        let free = b.events.iter().any(|e| matches!(e, CombatEvent::AttackOfOpportunity { by, .. } if by == "gob"));
        assert_eq!(free, aware, "aware: {aware}");
    }
}

// ---------------------------------------------------------------- hex-phases (004)

#[test]
fn three_d6_plus_ocv_against_10_plus_dcv_hits_62_5_percent_at_equal_values() {
    let mut b = battle(
        vec![unit("w1", "blue", (3, 3), "wolf", None), unit("w2", "red", (4, 3), "wolf", None)],
        RulesVariant::HexPhases,
        1,
    );
    b.refresh();
    let p = attack::profile(&b, &b.view(), 0, 1, &AttackKind::Primary, &Default::default());
    assert_eq!(p.modifiers.iter().map(|m| m.value).sum::<i32>() + 10, p.target_number, "OCV = DCV");
    assert_eq!(p.hit_chance, 0.625);
}

#[test]
fn hex_initiative_is_combat_value_with_ties_broken_once() {
    let b = battle(
        vec![
            unit("w1", "blue", (1, 3), "wolf", None),
            unit("w2", "red", (8, 3), "wolf", None),
            unit("ogre", "red", (5, 5), "ogre", None),
        ],
        RulesVariant::HexPhases,
        1,
    );
    let first = b.fighters[b.clock.order[0]].id.clone();
    assert_ne!(first, "ogre", "the ogre (Dex 8, CV 3) acts after the wolves (CV 5)");
    assert_eq!(b.fighters[b.clock.order[2]].id, "ogre");
    let again = battle(
        vec![
            unit("w1", "blue", (1, 3), "wolf", None),
            unit("w2", "red", (8, 3), "wolf", None),
            unit("ogre", "red", (5, 5), "ogre", None),
        ],
        RulesVariant::HexPhases,
        1,
    );
    assert_eq!(b.clock.order, again.clock.order);
}

#[test]
fn a_hex_phase_allows_attack_and_move_or_two_moves() {
    let mut b = battle(
        vec![unit("w1", "blue", (1, 3), "wolf", None), unit("w2", "red", (8, 3), "wolf", None)],
        RulesVariant::HexPhases,
        2,
    );
    until(&mut b, "w1", |b| b.clock.phase == 1);
    b.execute(Command::Move { to: (4, 3).into() }).unwrap();
    b.execute(Command::Move { to: (7, 3).into() }).unwrap();
    assert_ne!(b.actor().map(|a| b.fighters[a].id.clone()), Some("w1".to_string()), "two moves end the phase");
    // Phase 2, beside the foe: an attack action, then a move action.
    until(&mut b, "w1", |b| b.clock.phase == 2);
    let w1 = b.index_of("w1").unwrap();
    b.execute(Command::Attack { target: "w2".into() }).unwrap();
    assert_eq!(b.actor(), Some(w1), "a move action is left after the attack");
    b.execute(Command::Move { to: (5, 3).into() }).unwrap();
    assert_eq!(b.fighters[w1].pos, (5, 3).into());
    assert_ne!(b.actor(), Some(w1), "attack and move end the phase");
}

// ---------------------------------------------------------------- determinism, replay, sims

fn events_json(b: &Battle) -> String {
    serde_json::to_string(&b.events).unwrap()
}

#[test]
fn the_same_seed_gives_the_same_battle_byte_for_byte() {
    let cat = Catalogue::builtin();
    let lvl = Level::load(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/skirmish.ron"), &cat).unwrap();
    for v in RulesVariant::ALL {
        let ais = BTreeMap::new();
        let (a, _) = sim::run_battle(&lvl, &cat, v, 42, &ais, &BattleOptions::default());
        let (b, _) = sim::run_battle(&lvl, &cat, v, 42, &ais, &BattleOptions::default());
        let (c, _) = sim::run_battle(&lvl, &cat, v, 43, &ais, &BattleOptions::default());
        assert_eq!(events_json(&a), events_json(&b), "{v}");
        assert_ne!(events_json(&a), events_json(&c), "{v}: another seed, another battle");
    }
}

/// A batch spread over several threads reports and logs the same bytes as one thread:
/// battles are shared out as threads come free, their outcomes folded in battle order.
#[test]
fn a_batch_on_three_threads_gives_the_same_report_and_log_as_on_one() {
    let cat = Catalogue::builtin();
    let lvl = Level::load(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/skirmish.ron"), &cat).unwrap();
    for v in [RulesVariant::D20Classic, RulesVariant::OsrSegments] {
        let spec = sim::SimSpec {
            rules: v,
            seed: 9,
            battles: 12,
            ais: BTreeMap::new(),
            options: BattleOptions::default(),
            check: true,
        };
        let run = |threads: usize| {
            let (mut log, mut seen) = (Vec::new(), vec![]);
            let report = sim::run_batch_on(&lvl, &cat, &spec, Some(&mut log), &mut |n| seen.push(n), threads).unwrap();
            (serde_json::to_string(&report).unwrap(), log, seen)
        };
        let (one, one_log, one_seen) = run(1);
        let (three, three_log, three_seen) = run(3);
        assert_eq!(one, three, "{v}: the report");
        assert!(one_log == three_log, "{v}: the log, byte for byte");
        assert_eq!(one_seen, (1..=12).collect::<Vec<u32>>(), "progress in battle order");
        assert_eq!(three_seen, one_seen);
        let battles = String::from_utf8(one_log).unwrap().lines().filter(|l| l.contains("\"type\":\"battle\"")).count();
        assert_eq!(battles, 12);
    }
}

#[test]
fn a_replayed_log_reproduces_the_final_state() {
    let cat = Catalogue::builtin();
    for (level, v) in RulesVariant::ALL
        .into_iter()
        .map(|v| ("ogre-ruins", v))
        .chain(RulesVariant::ALL.into_iter().map(|v| ("mage-duel", v)))
    {
        let path = format!("{}/levels/{level}.ron", env!("CARGO_MANIFEST_DIR"));
        let lvl = Level::load(path, &cat).unwrap();
        let (played, commands) = sim::run_battle(&lvl, &cat, v, 7, &BTreeMap::new(), &BattleOptions::default());
        if level == "mage-duel" {
            assert!(played.stats.spells_cast > 0, "{v}: the mages cast");
        }
        let mut replay = Battle::new(&lvl, &cat, v, 7, BattleOptions::default());
        replay.replay(&commands).unwrap();
        assert_eq!(events_json(&played), events_json(&replay), "{v}");
        let state = |b: &Battle| {
            b.fighters.iter().map(|f| (f.id.clone(), f.pos, f.hp, f.conditions.clone())).collect::<Vec<_>>()
        };
        assert_eq!(state(&played), state(&replay), "{v}");
    }
}

#[test]
fn every_shipped_level_runs_to_completion_under_every_variant() {
    let cat = Catalogue::builtin();
    for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/levels")).unwrap() {
        let path = entry.unwrap().path();
        let lvl = Level::load(&path, &cat).unwrap();
        for v in RulesVariant::ALL {
            for seed in 0..3 {
                let (b, _) = sim::run_battle(&lvl, &cat, v, seed, &BTreeMap::new(), &BattleOptions::default());
                assert!(b.is_over(), "{} under {v}, seed {seed}", path.display());
                assert!(b.stats.attacks > 0, "{} under {v}, seed {seed}: nobody attacked", path.display());
            }
        }
    }
}

// ---------------------------------------------------------------- held actions, trips, stances

fn count<F: Fn(&CombatEvent) -> bool>(b: &Battle, f: F) -> usize {
    b.events.iter().filter(|e| f(e)).count()
}

#[test]
fn an_attack_of_opportunity_rules_out_a_held_action_until_the_next_turn() {
    // The goblin leaves the fighter's square-side (an attack of opportunity) and walks on
    // through the fighter's reach: the held attack may not follow in the same round.
    let mut b = battle(
        vec![unit("hero", "blue", (4, 3), "human_fighter", None), unit("gob", "red", (5, 3), "goblin", None)],
        RulesVariant::D20Classic,
        11,
    );
    until(&mut b, "hero", |_| true);
    b.execute(Command::Hold { target: None }).unwrap();
    b.execute(Command::EndTurn).unwrap();
    until(&mut b, "gob", |_| true);
    b.execute(Command::Move { to: (5, 1).into() }).unwrap();
    assert_eq!(count(&b, |e| matches!(e, CombatEvent::AttackOfOpportunity { by, .. } if by == "hero")), 1);
    assert_eq!(count(&b, |e| matches!(e, CombatEvent::Action { action, .. } if action == "held attack")), 0);
}

#[test]
fn a_held_attack_strikes_a_foe_entering_reach_and_then_rules_out_attacks_of_opportunity() {
    // A 10-ft corridor: the goblin must pass alongside the fighter.
    let rows = ["##########", "..........", "..........", "##########"];
    let mut b = battle_on(
        &rows,
        vec![unit("hero", "blue", (4, 1), "human_fighter", None), unit("gob", "red", (7, 2), "goblin", None)],
        RulesVariant::D20Classic,
        12,
    );
    until(&mut b, "hero", |_| true);
    b.execute(Command::Hold { target: Some("gob".into()) }).unwrap();
    b.execute(Command::EndTurn).unwrap();
    until(&mut b, "gob", |_| true);
    // In through the fighter's reach and out again on the far side.
    b.execute(Command::Move { to: (1, 2).into() }).unwrap();
    assert_eq!(count(&b, |e| matches!(e, CombatEvent::Action { action, .. } if action == "held attack")), 1);
    assert_eq!(count(&b, |e| matches!(e, CombatEvent::AttackOfOpportunity { .. })), 0, "the immediate action is spent");
    // The holder's place in the order is now just after the goblin's.
    let order: Vec<String> = b.clock.order.iter().map(|&i| b.fighters[i].id.clone()).collect();
    assert_eq!(order, vec!["gob".to_string(), "hero".to_string()]);
}

#[test]
fn a_trip_knocks_prone_and_in_d20_classic_provokes_first() {
    let mut tripped = 0;
    for seed in 0..30 {
        let mut b = battle(
            vec![unit("ogre", "blue", (3, 3), "ogre", None), unit("gob", "red", (5, 3), "goblin", None)],
            RulesVariant::D20Classic,
            seed,
        );
        until(&mut b, "ogre", |_| true);
        b.execute(Command::Trip { target: "gob".into() }).unwrap();
        let provoked = count(&b, |e| matches!(e, CombatEvent::AttackOfOpportunity { by, .. } if by == "gob"));
        assert_eq!(provoked, 1, "seed {seed}: the defender gets an attack of opportunity");
        let gob = b.index_of("gob").unwrap();
        if b.fighters[gob].has(Condition::Prone) {
            tripped += 1;
            b.refresh();
            let ogre = b.index_of("ogre").unwrap();
            let p = attack::profile(&b, &b.view(), ogre, gob, &AttackKind::Primary, &Default::default());
            assert!(p.modifiers.iter().any(|m| m.source == "target prone" && m.value == 4));
        }
    }
    assert!(tripped > 5, "an ogre trips goblins often: {tripped}/30");
}

#[test]
fn standing_up_in_a_threatened_square_provokes() {
    let mut b = battle(
        vec![unit("hero", "blue", (4, 3), "human_fighter", None), unit("gob", "red", (5, 3), "goblin", None)],
        RulesVariant::D20Classic,
        5,
    );
    until(&mut b, "hero", |_| true);
    let hero = b.index_of("hero").unwrap();
    b.fighters[hero].add(Condition::Prone);
    b.execute(Command::Stand).unwrap();
    assert!(!b.fighters[hero].has(Condition::Prone));
    assert_eq!(
        count(&b, |e| matches!(e, CombatEvent::AttackOfOpportunity { trigger, .. } if trigger == "stands up")),
        1
    );
}

#[test]
fn reckless_fighting_costs_4_ac_and_defensive_fighting_4_on_attacks() {
    let mut b = battle(
        vec![unit("hero", "blue", (4, 3), "human_fighter", None), unit("gob", "red", (5, 3), "goblin", None)],
        RulesVariant::D20Classic,
        5,
    );
    until(&mut b, "hero", |_| true);
    b.execute(Command::Stance { stance: fivefoot::combat::command::Stance::Reckless }).unwrap();
    b.refresh();
    let (h, g) = (b.index_of("hero").unwrap(), b.index_of("gob").unwrap());
    let p = attack::profile(&b, &b.view(), g, h, &AttackKind::Primary, &Default::default());
    assert!(p.modifiers.iter().any(|m| m.source == "reckless" && m.value == 4), "{:?}", p.modifiers);
    b.execute(Command::Stance { stance: fivefoot::combat::command::Stance::Defensive }).unwrap();
    b.refresh();
    let p = attack::profile(&b, &b.view(), h, g, &AttackKind::Primary, &Default::default());
    assert!(p.modifiers.iter().any(|m| m.source == "fighting defensively" && m.value == -4));
}

#[test]
fn a_level_chooses_its_death_saves() {
    let mut def =
        level(vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (7, 3), "goblin", None)])
            .def;
    def.death_saves = Some(fivefoot::level::DeathSaves::Brutality);
    let lvl = Level::from_def(def, &Catalogue::builtin()).unwrap();
    let b = Battle::new(&lvl, &Catalogue::builtin(), RulesVariant::D20Classic, 1, BattleOptions::default());
    assert_eq!(b.options.death_saves, fivefoot::level::DeathSaves::Brutality);
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/ogre-bridge.ron")).unwrap();
    let text =
        text.replace("    rules: \"d20-classic\",", "    rules: \"d20-classic\",\n    death_saves: \"all-are-equal\",");
    let lvl = Level::parse(&text, std::path::Path::new("x.ron"), &Catalogue::builtin()).unwrap();
    assert_eq!(lvl.def.death_saves, Some(fivefoot::level::DeathSaves::AllAreEqual));
}

#[test]
fn a_shove_pushes_the_foe_straight_back_and_a_disarm_leaves_it_unarmed() {
    let (mut pushed, mut disarmed) = (0, 0);
    for seed in 0..30 {
        let mut b = battle(
            vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (4, 3), "goblin", None)],
            RulesVariant::D20Classic,
            seed,
        );
        until(&mut b, "hero", |_| true);
        b.execute(Command::Shove { target: "gob".into() }).unwrap();
        assert_eq!(count(&b, |e| matches!(e, CombatEvent::AttackOfOpportunity { by, .. } if by == "gob")), 1);
        let gob = b.index_of("gob").unwrap();
        let pos = b.fighters[gob].pos;
        if pos != (4, 3).into() {
            pushed += 1;
            assert_eq!(pos.y, 3, "straight back");
            assert!(pos.x > 4);
        }
        let mut b = battle(
            vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (4, 3), "goblin", None)],
            RulesVariant::D20Classic,
            seed,
        );
        until(&mut b, "hero", |_| true);
        b.execute(Command::Disarm { target: "gob".into() }).unwrap();
        let gob = b.index_of("gob").unwrap();
        if b.fighters[gob].weapon_id == "unarmed" {
            disarmed += 1;
            b.refresh();
            assert!(b.view().threat.squares_of(gob).is_empty(), "unarmed, it threatens nothing");
        }
    }
    assert!(pushed > 3 && disarmed > 3, "pushed {pushed}, disarmed {disarmed}");
}

#[test]
fn a_four_actions_dash_covers_one_and_a_half_speed_but_not_through_difficult_terrain() {
    let rows = ["..........", "..........", "....~.....", ".........."];
    let mut b = battle_on(
        &rows,
        vec![unit("hero", "blue", (0, 0), "human_fighter", None), unit("gob", "red", (9, 3), "goblin", None)],
        RulesVariant::FourActions,
        3,
    );
    until(&mut b, "hero", |_| true);
    assert!(b.validate(&Command::Dash { to: (9, 0).into() }).is_ok(), "45 ft");
    assert!(b.validate(&Command::Dash { to: (9, 1).into() }).is_ok());
    let e = b.validate(&Command::Dash { to: (4, 2).into() }).unwrap_err();
    assert!(e.reason.contains("difficult"), "{e}");
    assert!(b.validate(&Command::Move { to: (9, 0).into() }).is_err(), "an advance covers only 30 ft");
}

#[test]
fn a_successful_tumble_provokes_nothing_and_a_failed_one_provokes_every_foe_passed() {
    let (mut clean, mut caught) = (0, 0);
    for seed in 0..30 {
        let mut b = battle(
            vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (4, 3), "goblin", None)],
            RulesVariant::FourActions,
            seed,
        );
        until(&mut b, "hero", |_| true);
        b.execute(Command::Tumble { to: (3, 1).into() }).unwrap();
        let ok = b
            .events
            .iter()
            .any(|e| matches!(e, CombatEvent::Save { kind, success: true, .. } if kind == "Agility (tumble)"));
        let aoo = count(&b, |e| matches!(e, CombatEvent::AttackOfOpportunity { .. }));
        if ok {
            clean += 1;
            assert_eq!(aoo, 0, "seed {seed}");
        } else {
            caught += 1;
            assert_eq!(aoo, 1, "seed {seed}");
        }
    }
    assert!(clean > 0 && caught > 0);
}

#[test]
fn osr_multi_attackers_strike_before_the_groups_and_again_after_them() {
    let mut b = battle(
        vec![unit("champ", "blue", (3, 3), "champion", None), unit("ogre", "red", (4, 3), "ogre", None)],
        RulesVariant::OsrSegments,
        2,
    );
    // Play round 1 with the greedy AI.
    while b.clock.round == 1 && !b.is_over() {
        let a = b.actor().unwrap();
        let cmd = fivefoot::combat::Ai::decide(&mut fivefoot::combat::Greedy, &mut b, a);
        if b.execute(cmd).is_err() {
            b.execute(Command::EndTurn).unwrap();
        }
    }
    let phases: Vec<String> = b
        .events
        .iter()
        .filter_map(
            |e| if let CombatEvent::PhaseStarted { round: 1, name, .. } = e { Some(name.clone()) } else { None },
        )
        .collect();
    let first = phases.iter().position(|p| p.starts_with("multi-attacks (first")).expect("a first multi-attack step");
    let rest =
        phases.iter().position(|p| p.starts_with("multi-attacks (remaining")).expect("a closing multi-attack step");
    let high = phases.iter().position(|p| p == "HIGH group").unwrap();
    assert!(first < high && high < rest, "{phases:?}");
    let champ_attacks = count(&b, |e| matches!(e, CombatEvent::Attack { attacker, .. } if attacker == "champ"));
    assert_eq!(champ_attacks, 2, "two attack routines in the round");
}

#[test]
fn a_grapple_holds_both_in_place_until_one_breaks_free() {
    let mut held = 0;
    for seed in 0..30 {
        for v in [RulesVariant::D20Classic, RulesVariant::FourActions] {
            let mut b = battle(
                vec![unit("ogre", "blue", (2, 3), "ogre", None), unit("gob", "red", (4, 3), "goblin", None)],
                v,
                seed,
            );
            until(&mut b, "ogre", |_| true);
            b.execute(Command::Grapple { target: "gob".into() }).unwrap();
            let gob = b.index_of("gob").unwrap();
            if !b.fighters[gob].has(Condition::Grappled) {
                continue;
            }
            held += 1;
            let ogre = b.index_of("ogre").unwrap();
            assert!(b.fighters[ogre].has(Condition::Grappled), "{v}: both are grappled");
            until(&mut b, "gob", |_| true);
            let e = b.validate(&Command::Move { to: (6, 6).into() }).unwrap_err();
            assert!(e.reason.contains("grappled"), "{e}");
            b.refresh();
            assert!(b.view().threat.squares_of(gob).is_empty(), "the grappled threaten nothing");
            // d20-classic: the defender "can attack normally with unarmed attacks, daggers";
            // four-actions: both are Restrained, "Unable to move or attack".
            let strike = b.validate(&Command::Attack { target: "ogre".into() });
            match v {
                RulesVariant::FourActions => assert!(strike.unwrap_err().reason.contains("restrained")),
                _ => assert!(strike.is_ok(), "{v}: but may strike the grappler"),
            }
            b.execute(Command::Escape).unwrap();
            let freed = !b.fighters[gob].has(Condition::Grappled);
            assert_eq!(freed, !b.fighters[ogre].has(Condition::Grappled), "{v}: a grapple ends for both");
        }
    }
    assert!(held > 5, "an ogre grapples goblins often: {held}");
}

#[test]
fn a_crossbow_must_be_reloaded_between_shots() {
    let mut b = battle(
        vec![unit("xbow", "blue", (1, 3), "crossbowman", None), unit("gob", "red", (8, 3), "goblin", None)],
        RulesVariant::D20Classic,
        4,
    );
    until(&mut b, "xbow", |_| true);
    b.execute(Command::Attack { target: "gob".into() }).unwrap();
    b.execute(Command::EndTurn).unwrap();
    until(&mut b, "xbow", |_| true);
    let e = b.validate(&Command::Attack { target: "gob".into() }).unwrap_err();
    assert!(e.reason.contains("not loaded"), "{e}");
    b.execute(Command::Reload).unwrap();
    b.validate(&Command::Attack { target: "gob".into() })
        .expect("loaded again (a move action), the standard action fires");
    // ap-phases: loading is complex, so a threatening foe gets its attack of opportunity.
    let mut b = battle(
        vec![unit("xbow", "blue", (1, 3), "crossbowman", None), unit("gob", "red", (2, 3), "goblin", None)],
        RulesVariant::ApPhases,
        4,
    );
    until(&mut b, "xbow", |b| b.clock.phase == 2);
    let x = b.index_of("xbow").unwrap();
    b.fighters[x].loaded = false; // fired last round
    b.execute(Command::Reload).unwrap();
    assert!(
        b.events.iter().any(|e| matches!(e, CombatEvent::AttackOfOpportunity { trigger, .. } if trigger == "reloads"))
    );
}

#[test]
fn osr_crossbows_fire_only_with_the_low_group() {
    let mut b = battle(
        vec![unit("xbow", "blue", (1, 3), "crossbowman", None), unit("gob", "red", (8, 3), "goblin", None)],
        RulesVariant::OsrSegments,
        4,
    );
    until(&mut b, "xbow", |b| b.clock.budget.major && !b.clock.budget.fast_only && !b.clock.budget.declaring);
    let allowed = b.validate(&Command::Attack { target: "gob".into() });
    assert_eq!(allowed.is_ok(), b.clock.osr_step == fivefoot::combat::clock::OsrStep::Low, "{allowed:?}");
}

#[test]
fn ap_total_defense_takes_two_consecutive_ap_and_gives_plus_4_or_plus_2_after_attacking() {
    let mut b = battle(
        vec![unit("hero", "blue", (3, 3), "human_fighter", Some("dagger")), unit("gob", "red", (6, 3), "goblin", None)],
        RulesVariant::ApPhases,
        3,
    );
    until(&mut b, "hero", |b| b.clock.phase == 2);
    b.execute(Command::Defend).unwrap();
    let hero = b.index_of("hero").unwrap();
    assert!(b.fighters[hero].defense.is_empty(), "declared, not complete");
    until(&mut b, "gob", |b| b.clock.phase == 4); // the hero's phase-3 opportunity completed it
    assert_eq!(b.fighters[hero].defense, vec![("total defense".to_string(), 4)]);
    assert_eq!(b.clock.ap[hero], 1);
    // After an attack action earlier in the round, only +2.
    let mut b = battle(
        vec![unit("hero", "blue", (3, 3), "human_fighter", Some("dagger")), unit("gob", "red", (4, 3), "goblin", None)],
        RulesVariant::ApPhases,
        3,
    );
    until(&mut b, "hero", |b| b.clock.phase == 4);
    b.execute(Command::Attack { target: "gob".into() }).unwrap();
    until(&mut b, "hero", |b| b.clock.phase == 5);
    b.execute(Command::Defend).unwrap();
    until(&mut b, "gob", |b| b.clock.phase == 7);
    let hero = b.index_of("hero").unwrap();
    assert_eq!(b.fighters[hero].defense, vec![("total defense".to_string(), 2)]);
}

#[test]
fn a_delayed_d20_fighter_acts_last_from_then_on() {
    let mut b = battle(
        vec![
            unit("a", "blue", (1, 1), "human_fighter", None),
            unit("b", "blue", (1, 3), "human_fighter", None),
            unit("gob", "red", (8, 3), "goblin", None),
        ],
        RulesVariant::D20Classic,
        6,
    );
    let first = b.fighters[b.actor().unwrap()].id.clone();
    b.execute(Command::Delay).unwrap();
    let order: Vec<String> = b.clock.order.iter().map(|&i| b.fighters[i].id.clone()).collect();
    assert_eq!(order.last(), Some(&first));
    // It still gets its turn this round, after the others.
    let mut seen = vec![];
    while b.clock.round == 1 {
        seen.push(b.fighters[b.actor().unwrap()].id.clone());
        b.execute(Command::EndTurn).unwrap();
    }
    assert_eq!(seen.last(), Some(&first), "{seen:?}");
}

#[test]
fn massive_damage_calls_for_a_fortitude_save_against_10_plus_the_attackers_hit_dice() {
    let mut saw = false;
    for seed in 0..40 {
        let mut units =
            vec![unit("champ", "blue", (3, 3), "champion", None), unit("gob", "red", (4, 3), "goblin", None)];
        units[1].hp = Some(20); // a greatsword hit of 10+ is half its hit points
        let mut b = battle(units, RulesVariant::D20Classic, seed);
        until(&mut b, "champ", |_| true);
        b.execute(Command::Attack { target: "gob".into() }).unwrap();
        for e in &b.events {
            if let CombatEvent::Save { kind, dc, success, .. } = e
                && kind.contains("massive damage")
            {
                saw = true;
                assert_eq!(*dc, 10 + 11, "DC 10 + the champion's 11 Hit Dice");
                let gob = b.index_of("gob").unwrap();
                if !success {
                    assert!(
                        b.fighters[gob].hp <= 0 && b.fighters[gob].death_fails >= 1,
                        "dropped, first death save failed"
                    );
                }
            }
        }
    }
    assert!(saw);
}

#[test]
fn the_combat_plugin_plays_one_command_an_update_and_mirrors_the_battle_onto_components() {
    use bevy::prelude::*;
    use fivefoot::combat::plugin::{BattleRes, CombatEventMsg, CombatPlugin};
    let lvl = Level::load(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/skirmish.ron"), &Catalogue::builtin()).unwrap();
    let mut app = fivefoot::query::rules_app(&lvl, &Catalogue::builtin(), RulesVariant::D20Classic);
    app.add_plugins(CombatPlugin);
    let battle = Battle::new(&lvl, &Catalogue::builtin(), RulesVariant::D20Classic, 9, BattleOptions::default());
    app.insert_resource(BattleRes::new(battle, vec![]));
    let mut cursor = app.world().resource::<Messages<CombatEventMsg>>().get_cursor();
    let mut seen = 0;
    for _ in 0..3000 {
        app.update();
        let msgs = app.world().resource::<Messages<CombatEventMsg>>();
        seen += cursor.read(msgs).count();
        if app.world().resource::<BattleRes>().battle.is_over() {
            break;
        }
    }
    let world = app.world_mut();
    let events = world.resource::<BattleRes>().battle.events.len();
    assert!(world.resource::<BattleRes>().battle.is_over(), "the AI plays the battle out");
    assert_eq!(seen, events, "every event reaches the view as a message");
    let fighters: Vec<(String, fivefoot::grid::GridPos, i32)> =
        world.resource::<BattleRes>().battle.fighters.iter().map(|f| (f.id.clone(), f.pos, f.hp)).collect();
    let mut q = world.query::<(&fivefoot::rules::Combatant, &fivefoot::rules::Position, &fivefoot::rules::Health)>();
    for (c, pos, health) in q.iter(world) {
        let f = fighters.iter().find(|f| f.0 == c.id).unwrap();
        assert_eq!((pos.0, health.hp), (f.1, f.2), "{}", c.id);
    }
}

/// hex-phases: the wolf (CV 5) acts before the ogre (CV 3) in every phase.
fn hex_wolf_and_ogre(ogre_aborts: Option<bool>, wolf_aborts: Option<bool>) -> Battle {
    let mut b = battle(
        vec![unit("wolf", "blue", (2, 3), "wolf", None), unit("ogre", "red", (3, 3), "ogre", None)],
        RulesVariant::HexPhases,
        4,
    );
    let (w, o) = (b.index_of("wolf").unwrap(), b.index_of("ogre").unwrap());
    b.fighters[o].abort_order = ogre_aborts;
    b.fighters[w].abort_order = wolf_aborts;
    assert_eq!(b.actor(), Some(w), "the wolf acts first");
    b
}

fn dodge_modifiers(b: &Battle, attacker: &str) -> Vec<i32> {
    b.events
        .iter()
        .filter_map(|e| match e {
            CombatEvent::Attack { attacker: a, modifiers, .. } if a == attacker => {
                Some(modifiers.iter().filter(|m| m.source == "dodge").map(|m| m.value).sum())
            }
            _ => None,
        })
        .collect()
}

#[test]
fn hex_abort_before_acting_dodges_and_gives_up_this_phase() {
    let mut plain = hex_wolf_and_ogre(Some(false), None);
    plain.execute(Command::Attack { target: "ogre".into() }).unwrap();
    let mut aborting = hex_wolf_and_ogre(Some(true), None);
    let before = aborting.events.len();
    aborting.execute(Command::Attack { target: "ogre".into() }).unwrap();
    // The dodge's +3 DCV counts against the roll.
    assert_eq!(dodge_modifiers(&aborting, "wolf"), vec![-3]);
    assert_eq!(dodge_modifiers(&plain, "wolf"), vec![0]);
    assert!(aborting.events[before..].iter().any(
        |e| matches!(e, CombatEvent::Action { unit, action, .. } if unit == "ogre" && action == "aborts to a dodge")
    ));
    // The ogre gave up its action in phase 1: once the wolf is done, phase 2 begins with the wolf.
    aborting.execute(Command::EndTurn).unwrap();
    assert_eq!(aborting.clock.phase, 2);
    assert_eq!(aborting.fighters[aborting.actor().unwrap()].id, "wolf");
    let ogre_turns_in_phase_1 = aborting.events[before..]
        .iter()
        .take_while(|e| !matches!(e, CombatEvent::PhaseStarted { .. }))
        .filter(|e| matches!(e, CombatEvent::TurnStarted { unit } if unit == "ogre"))
        .count();
    assert_eq!(ogre_turns_in_phase_1, 0);
    // And it cannot abort again before its next action: the wolf's attack in phase 2 meets
    // the same dodge (+3 DCV until the ogre acts, not a second one) and no new abort.
    let before = aborting.events.len();
    aborting.execute(Command::Attack { target: "ogre".into() }).unwrap(); // phase 2: the wolf attacks
    assert!(
        !aborting.events[before..]
            .iter()
            .any(|e| matches!(e, CombatEvent::Action { action, .. } if action == "aborts to a dodge"))
    );
    assert_eq!(dodge_modifiers(&aborting, "wolf")[1..], [-3]);
    aborting.execute(Command::EndTurn).unwrap(); // the wolf ends; the ogre acts
    assert_eq!(aborting.fighters[aborting.actor().unwrap()].id, "ogre");
}

#[test]
fn hex_abort_after_acting_gives_up_the_next_phase() {
    let mut b = hex_wolf_and_ogre(Some(false), Some(true));
    b.execute(Command::EndTurn).unwrap(); // the wolf has acted in phase 1
    assert_eq!(b.fighters[b.actor().unwrap()].id, "ogre");
    b.execute(Command::Attack { target: "wolf".into() }).unwrap();
    assert!(b.events.iter().any(|e| matches!(e, CombatEvent::Action { unit, detail, .. } if unit == "wolf" && detail.contains("phase 2 of turn 1"))));
    if b.actor().is_some_and(|a| b.fighters[a].id == "ogre") {
        b.execute(Command::EndTurn).unwrap();
    }
    // Phase 2: the wolf has no action, so the ogre acts first.
    assert_eq!(b.clock.phase, 2);
    assert_eq!(b.fighters[b.actor().unwrap()].id, "ogre");
    assert!(
        b.events.iter().any(
            |e| matches!(e, CombatEvent::Action { unit, action, .. } if unit == "wolf" && action == "has no action")
        )
    );
}

#[test]
fn the_abort_order_is_a_free_action_of_hex_phases_only() {
    let mut b = hex_wolf_and_ogre(None, None);
    b.execute(Command::AbortOrder { on: true }).unwrap();
    assert_eq!(b.fighters[b.index_of("wolf").unwrap()].abort_order, Some(true));
    assert!(b.clock.budget.fresh, "nothing was spent");
    assert!(b.validate(&Command::AbortOrder { on: true }).unwrap_err().reason.contains("already on"));
    let mut d = battle(
        vec![unit("a", "blue", (2, 3), "wolf", None), unit("b", "red", (3, 3), "wolf", None)],
        RulesVariant::D20Classic,
        1,
    );
    assert!(d.validate(&Command::AbortOrder { on: true }).unwrap_err().reason.contains("no aborting"));
}

#[test]
fn osr_rounds_open_with_declarations_before_group_initiative() {
    let mut b = battle(
        vec![unit("hero", "blue", (1, 3), "human_fighter", None), unit("gob", "red", (8, 3), "goblin", None)],
        RulesVariant::OsrSegments,
        3,
    );
    assert!(b.clock.budget.declaring);
    assert!(!b.events.iter().any(|e| matches!(e, CombatEvent::GroupInitiative { .. })), "no roll before declarations");
    let err = b.validate(&Command::Move { to: (2, 3).into() }).unwrap_err();
    assert!(err.reason.contains("first declares"), "{}", err.reason);
    while b.clock.budget.declaring {
        b.execute(Command::Declare { intent: Intent::Fight }).unwrap();
    }
    let declared =
        b.events.iter().filter(|e| matches!(e, CombatEvent::Action { action, .. } if action == "declares")).count();
    assert_eq!(declared, 2);
    assert!(b.events.iter().any(|e| matches!(e, CombatEvent::GroupInitiative { .. })));
    // Declarations belong to the start of the round only.
    let err = b.validate(&Command::Declare { intent: Intent::Delay }).unwrap_err();
    assert!(err.reason.contains("start of the round"), "{}", err.reason);
}

#[test]
fn osr_a_charge_must_be_declared_and_a_declared_delay_acts_low_without_the_condition() {
    // Undeclared: no charge in the fast-action step (nobody acts in it at all).
    let mut b = battle(
        vec![unit("hero", "blue", (1, 3), "human_fighter", None), unit("gob", "red", (8, 3), "goblin", None)],
        RulesVariant::OsrSegments,
        5,
    );
    while b.clock.budget.declaring {
        b.execute(Command::Declare { intent: Intent::Fight }).unwrap();
    }
    let a = b.actor().unwrap();
    assert!(!b.clock.budget.fast_only, "nobody declared a fast action");
    let who = b.fighters[a].id.clone();
    let foe = if who == "hero" { "gob" } else { "hero" };
    let err = b.validate(&Command::Charge { target: foe.into() }).unwrap_err();
    assert!(err.reason.contains("must be declared"), "{}", err.reason);

    // Declared: the hero charges first, in the fast-action step, whatever the groups.
    let mut b = battle(
        vec![unit("hero", "blue", (1, 3), "human_fighter", None), unit("gob", "red", (8, 3), "goblin", None)],
        RulesVariant::OsrSegments,
        5,
    );
    while b.clock.budget.declaring {
        let me = b.fighters[b.actor().unwrap()].id.clone();
        let intent = if me == "hero" { Intent::Charge { target: "gob".into() } } else { Intent::Delay };
        b.execute(Command::Declare { intent }).unwrap();
    }
    assert!(b.clock.budget.fast_only);
    assert_eq!(b.fighters[b.actor().unwrap()].id, "hero");
    b.execute(Command::Charge { target: "gob".into() }).unwrap();
    assert!(b.events.iter().any(|e| matches!(e, CombatEvent::Attack { attacker, .. } if attacker == "hero")));
    // The goblin declared a delay: it acts with the LOW group, and is not "delayed".
    let gob = b.index_of("gob").unwrap();
    assert!(!fivefoot::combat::clock::osr_is_high(&b, gob));
    assert!(!b.fighters[gob].has(Condition::Delayed));
}

// ---------------------------------------------------------------- four-actions grapple contest (001)

use fivefoot::combat::command::GrappleFollowUp;

/// four-actions: the hero has seized the goblin (both Restrained, the hero with the upper
/// hand); the hero acts.
fn hero_holds_the_goblin(seed: u64) -> Battle {
    let mut b = battle(
        vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (4, 3), "goblin", None)],
        RulesVariant::FourActions,
        seed,
    );
    let (h, g) = (b.index_of("hero").unwrap(), b.index_of("gob").unwrap());
    for (x, y) in [(h, g), (g, h)] {
        b.fighters[x].add(Condition::Grappled);
        b.fighters[x].grappling = Some(y);
    }
    b.fighters[h].holds_grapple = true;
    b.invalidate();
    until(&mut b, "hero", |_| true);
    b
}

/// The two rolls of a grapple contest: (actor's total, other's total, other's kind).
fn contest(b: &Battle, from: usize) -> (i32, i32, String) {
    let saves: Vec<(i32, String)> = b.events[from..]
        .iter()
        .filter_map(|e| match e {
            CombatEvent::Save { roll, bonus, kind, .. } if kind.starts_with("Athletics (grapple contest") => {
                Some((roll + bonus, kind.clone()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(saves.len(), 2, "one roll each: {saves:?}");
    assert!(saves[0].1.contains("standard action"), "{saves:?}");
    (saves[0].0, saves[1].0, saves[1].1.clone())
}

#[test]
fn the_winner_of_a_grapple_contest_keeps_hold_and_makes_a_primary_attack() {
    let (mut won, mut lost) = (0, 0);
    for seed in 0..40 {
        let mut b = hero_holds_the_goblin(seed);
        let from = b.events.len();
        b.execute(Command::Wrestle { follow_up: GrappleFollowUp::Attack }).unwrap();
        let (hero, gob, _) = contest(&b, from);
        let (h, g) = (b.index_of("hero").unwrap(), b.index_of("gob").unwrap());
        let attacks: Vec<_> = attack_events(&b)[..].iter().filter(|(a, _)| a == "hero").cloned().collect();
        if hero != gob {
            assert_eq!(b.fighters[g].reactions_used, 1, "seed {seed}: the goblin contests with its reaction");
        }
        if hero > gob {
            won += 1;
            assert_eq!(attacks.len(), 1, "seed {seed}: the follow-up attack");
            assert!(!attacks[0].1.iter().any(|(s, _)| s.contains("secondary") || s.contains("tertiary")));
            assert!(b.fighters[g].has(Condition::Grappled) || !b.fighters[g].in_fight(), "seed {seed}: still held");
            assert!(b.fighters[h].holds_grapple);
        } else if hero < gob {
            lost += 1;
            assert!(attacks.is_empty(), "seed {seed}: no follow-up for the loser");
            // The held goblin won: it chooses to break free.
            assert!(!b.fighters[g].has(Condition::Grappled) && !b.fighters[h].has(Condition::Grappled));
        }
    }
    assert!(won > 3 && lost > 3, "won {won}, lost {lost}");
}

#[test]
fn a_held_creature_that_wins_the_contest_ends_the_grapple_and_one_that_loses_stays_held() {
    let (mut free, mut held) = (0, 0);
    for seed in 0..40 {
        let mut b = hero_holds_the_goblin(seed);
        b.execute(Command::EndTurn).unwrap();
        until(&mut b, "gob", |_| true);
        let from = b.events.len();
        b.execute(Command::Wrestle { follow_up: GrappleFollowUp::End }).unwrap();
        let (gob, hero, how) = contest(&b, from);
        assert!(how.contains("reaction"), "{how}");
        let g = b.index_of("gob").unwrap();
        if gob > hero {
            free += 1;
            assert!(!b.fighters[g].has(Condition::Grappled), "seed {seed}");
        } else {
            held += 1;
            assert!(b.fighters[g].has(Condition::Grappled), "seed {seed}: the grapple is maintained");
        }
    }
    assert!(free > 3 && held > 3, "free {free}, held {held}");
}

#[test]
fn a_tied_grapple_contest_maintains_the_grapple_and_ends_the_turn() {
    let mut ties = 0;
    for seed in 0..200 {
        let mut b = hero_holds_the_goblin(seed);
        let from = b.events.len();
        b.execute(Command::Wrestle { follow_up: GrappleFollowUp::Attack }).unwrap();
        let (hero, gob, _) = contest(&b, from);
        if hero != gob {
            continue;
        }
        ties += 1;
        let h = b.index_of("hero").unwrap();
        assert!(b.fighters[h].has(Condition::Grappled), "seed {seed}: maintained");
        assert!(attack_events(&b).iter().all(|(a, _)| a != "hero"), "seed {seed}: no follow-up");
        assert_ne!(b.actor(), Some(h), "seed {seed}: the hero can act no further (its quick action is lost)");
    }
    assert!(ties > 0, "some seed ties");
}

#[test]
fn a_grappler_that_wins_may_trip_or_push_instead_and_a_foe_without_a_reaction_still_resists() {
    let (mut tripped, mut pushed) = (0, 0);
    for seed in 0..30 {
        let mut b = hero_holds_the_goblin(seed);
        let g = b.index_of("gob").unwrap();
        b.fighters[g].reactions_used = 1; // spent already this round
        let from = b.events.len();
        b.execute(Command::Wrestle { follow_up: GrappleFollowUp::Trip }).unwrap();
        let (hero, gob, how) = contest(&b, from);
        assert!(how.contains("no reaction left"), "{how}");
        assert_eq!(b.fighters[g].has(Condition::Prone), hero > gob, "seed {seed}");
        tripped += usize::from(hero > gob);

        let mut b = hero_holds_the_goblin(seed);
        let from = b.events.len();
        b.execute(Command::Wrestle { follow_up: GrappleFollowUp::Push }).unwrap();
        let (hero, gob, _) = contest(&b, from);
        let (h, g) = (b.index_of("hero").unwrap(), b.index_of("gob").unwrap());
        if hero > gob {
            pushed += 1;
            assert_eq!((b.fighters[h].pos, b.fighters[g].pos), ((4, 3).into(), (5, 3).into()), "seed {seed}");
            assert!(b.fighters[g].has(Condition::Grappled), "the pair moved together, still locked");
        }
    }
    assert!(tripped > 3 && pushed > 3, "tripped {tripped}, pushed {pushed}");
    // Outside a grapple there is nothing to wrestle.
    let mut b = battle(
        vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (4, 3), "goblin", None)],
        RulesVariant::FourActions,
        1,
    );
    until(&mut b, "hero", |_| true);
    let e = b.validate(&Command::Wrestle { follow_up: GrappleFollowUp::Maintain }).unwrap_err();
    assert!(e.reason.contains("not in a grapple"), "{e}");
    let mut d = battle(
        vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (4, 3), "goblin", None)],
        RulesVariant::D20Classic,
        1,
    );
    assert!(d.validate(&Command::Wrestle { follow_up: GrappleFollowUp::Maintain }).is_err(), "four-actions only");
}

#[test]
fn the_greedy_ai_strikes_from_inside_its_grapple_and_tries_to_break_free_of_a_foes() {
    use fivefoot::combat::{Ai, Greedy};
    let mut b = hero_holds_the_goblin(3);
    let h = b.actor().unwrap();
    assert_eq!(Greedy.decide(&mut b, h), Command::Wrestle { follow_up: GrappleFollowUp::Attack });
    b.execute(Command::EndTurn).unwrap();
    until(&mut b, "gob", |_| true);
    let g = b.actor().unwrap();
    assert_eq!(Greedy.decide(&mut b, g), Command::Wrestle { follow_up: GrappleFollowUp::End });
}

// ---------------------------------------------------------------- ap-phases complex actions (000)

/// Makes `id` helpless: down and unconscious (`dying`: below 0 hit points and dying).
fn knock_out(b: &mut Battle, id: &str, dying: bool) {
    let i = b.index_of(id).unwrap();
    b.fighters[i].add(Condition::Unconscious);
    b.fighters[i].add(Condition::Prone);
    if dying {
        b.fighters[i].hp = -1;
        b.fighters[i].add(Condition::Dying);
    }
    // No AP and no opportunity left this round, as if it had dropped before it opened.
    b.clock.ap[i] = 0;
    b.clock.queue.retain(|&q| q != i);
    b.invalidate();
}

fn action_events<'a>(b: &'a Battle, unit_id: &str, name: &str) -> Vec<&'a str> {
    b.events
        .iter()
        .filter_map(|e| match e {
            CombatEvent::Action { unit, action, detail } if unit == unit_id && action == name => Some(detail.as_str()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_coup_de_grace_hits_automatically_for_a_confirmed_critical_then_fortitude_dc_10_plus_damage_or_die() {
    let (mut died, mut lived) = (0, 0);
    for seed in 0..30 {
        let mut b = battle(
            vec![
                unit("hero", "blue", (3, 3), "human_fighter", Some("dagger")),
                unit("champ", "red", (4, 3), "champion", None),
                unit("gob", "red", (9, 7), "goblin", None),
            ],
            RulesVariant::ApPhases,
            seed,
        );
        until(&mut b, "hero", |b| b.clock.phase == 2);
        knock_out(&mut b, "champ", false);
        b.execute(Command::CoupDeGrace { target: "champ".into() }).unwrap();
        until(&mut b, "gob", |b| b.clock.phase == 5);
        assert_eq!(action_events(&b, "hero", "coup de grace").len(), 2, "seed {seed}: begun, then delivered");
        assert!(attack_events(&b).iter().all(|(a, _)| a != "hero"), "seed {seed}: no attack roll");
        let damage = b
            .events
            .iter()
            .find_map(|e| match e {
                CombatEvent::Damage { attacker, dice, total, .. } if attacker == "hero" => Some((dice.clone(), *total)),
                _ => None,
            })
            .expect("the blow lands");
        assert_eq!(damage.0, "1d4 x2 critical", "seed {seed}");
        let save = b.events.iter().find_map(|e| match e {
            CombatEvent::Save { unit, kind, dc, success, .. } if unit == "champ" && kind.contains("coup de grace") => {
                Some((*dc, *success))
            }
            _ => None,
        });
        let (dc, success) = save.expect("the champion survives the damage and saves");
        assert_eq!(dc, 10 + damage.1, "seed {seed}");
        let c = b.index_of("champ").unwrap();
        assert_eq!(b.fighters[c].has(Condition::Dead), !success, "seed {seed}");
        if success { lived += 1 } else { died += 1 }
    }
    assert!(died > 0 && lived > 0, "died {died}, lived {lived}");
    // Only a helpless foe.
    let mut b = battle(
        vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (4, 3), "goblin", None)],
        RulesVariant::ApPhases,
        1,
    );
    until(&mut b, "hero", |b| b.clock.phase == 2);
    let e = b.validate(&Command::CoupDeGrace { target: "gob".into() }).unwrap_err();
    assert!(e.reason.contains("not helpless"), "{e}");
}

#[test]
fn first_aid_stabilises_a_dying_ally_on_a_dc_15_heal_check_and_not_on_a_failure() {
    let (mut saved, mut failed) = (0, 0);
    for seed in 0..30 {
        let mut b = battle(
            vec![
                unit("hero", "blue", (3, 3), "human_fighter", None),
                unit("pal", "blue", (2, 3), "human_fighter", None),
                unit("gob", "red", (9, 7), "goblin", None),
            ],
            RulesVariant::ApPhases,
            seed,
        );
        until(&mut b, "hero", |b| b.clock.phase == 2);
        knock_out(&mut b, "pal", true);
        b.execute(Command::FirstAid { target: "pal".into() }).unwrap();
        until(&mut b, "gob", |b| b.clock.phase == 4);
        let heal = b.events.iter().find_map(|e| match e {
            CombatEvent::Save { unit, kind, roll, bonus, dc, success }
                if unit == "hero" && kind.starts_with("Heal") =>
            {
                Some((*roll + *bonus, *dc, *success))
            }
            _ => None,
        });
        let (total, dc, success) = heal.expect("the check is made once the 2 AP are spent");
        assert_eq!(dc, 15);
        assert_eq!(success, total >= 15);
        let p = b.index_of("pal").unwrap();
        assert_eq!(b.fighters[p].has(Condition::Stabilized), success, "seed {seed}");
        assert_eq!(b.fighters[p].has(Condition::Dying), !success, "seed {seed}");
        if success { saved += 1 } else { failed += 1 }
    }
    assert!(saved > 0 && failed > 0, "saved {saved}, failed {failed}");
}

#[test]
fn complex_actions_provoke_in_every_phase_their_consecutive_ap_are_spent() {
    // The champion (Combat Reflexes) may take one attack of opportunity a phase.
    let mut b = battle(
        vec![
            unit("hero", "blue", (3, 3), "human_fighter", None),
            unit("pal", "blue", (2, 3), "human_fighter", None),
            unit("champ", "red", (4, 3), "champion", None),
        ],
        RulesVariant::ApPhases,
        5,
    );
    until(&mut b, "hero", |b| b.clock.phase == 2);
    knock_out(&mut b, "pal", true);
    let h = b.index_of("hero").unwrap();
    b.execute(Command::FirstAid { target: "pal".into() }).unwrap();
    assert_eq!(b.clock.ap[h], 2, "the first AP goes in when declared");
    // The second AP goes in on the hero's next opportunity, by ending the turn (anything
    // else would abandon it).
    while b.clock.phase < 4 {
        if b.actor() == Some(h) {
            assert!(b.clock.budget.continuing, "phase {}: the first aid is under way", b.clock.phase);
        }
        b.execute(Command::EndTurn).unwrap();
    }
    assert_eq!(b.clock.ap[h], 1, "2 AP, in phases 2 and 3");
    let mut phase = 0;
    let mut provoked_in = vec![];
    for e in &b.events {
        match e {
            CombatEvent::PhaseStarted { phase: p, .. } => phase = *p,
            CombatEvent::AttackOfOpportunity { by, trigger, .. } if by == "champ" && trigger == "gives first aid" => {
                provoked_in.push(phase)
            }
            _ => {}
        }
    }
    assert_eq!(provoked_in, vec![2, 3], "an attack of opportunity in each phase AP were spent");
    assert!(b.events.iter().any(|e| matches!(e, CombatEvent::Save { kind, .. } if kind.starts_with("Heal"))));
}

#[test]
fn a_coup_de_grace_begun_late_in_the_round_finishes_with_the_first_ap_of_the_next() {
    let mut b = battle(
        vec![
            unit("hero", "blue", (3, 3), "human_fighter", None),
            unit("champ", "red", (4, 3), "champion", None),
            unit("gob", "red", (9, 7), "goblin", None),
        ],
        RulesVariant::ApPhases,
        2,
    );
    until(&mut b, "hero", |b| b.clock.phase == 6);
    knock_out(&mut b, "champ", false);
    let h = b.index_of("hero").unwrap();
    b.execute(Command::CoupDeGrace { target: "champ".into() }).unwrap();
    let delivered = |b: &Battle| action_events(b, "hero", "coup de grace").len() == 2;
    while !delivered(&b) {
        if b.actor() == Some(h) {
            assert!(b.clock.budget.continuing, "the hero's AP go into the coup de grace");
        }
        b.execute(Command::EndTurn).unwrap();
    }
    let mut when = (0, 0);
    for e in &b.events {
        match e {
            CombatEvent::PhaseStarted { round, phase, .. } => when = (*round, *phase),
            CombatEvent::Action { unit, action, detail }
                if unit == "hero" && action == "coup de grace" && detail.contains("automatic hit") =>
            {
                break;
            }
            _ => {}
        }
    }
    assert_eq!(when, (2, 2), "phases 6 and 7, then the first a fighter acts in round 2");
    assert_eq!(b.clock.ap[h], 2, "round 2's first AP finished it");
}

#[test]
fn the_greedy_ai_finishes_a_helpless_foe_only_when_no_foe_in_the_fight_is_at_hand() {
    use fivefoot::combat::{Ai, Greedy};
    let mut b = battle(
        vec![
            unit("hero", "blue", (3, 3), "human_fighter", None),
            unit("gob", "red", (4, 3), "goblin", None),
            unit("far", "red", (9, 7), "goblin", None),
        ],
        RulesVariant::ApPhases,
        1,
    );
    until(&mut b, "hero", |b| b.clock.phase == 2);
    knock_out(&mut b, "gob", true);
    let h = b.actor().unwrap();
    assert_eq!(Greedy.decide(&mut b, h), Command::CoupDeGrace { target: "gob".into() });
    // With a goblin still fighting beside it, it fights that one instead.
    let f = b.index_of("far").unwrap();
    b.fighters[f].pos = (3, 4).into();
    b.invalidate();
    assert_ne!(Greedy.decide(&mut b, h), Command::CoupDeGrace { target: "gob".into() });
    // A dying friend beside it comes first: first aid.
    let mut b = battle(
        vec![
            unit("hero", "blue", (3, 3), "human_fighter", None),
            unit("pal", "blue", (3, 4), "human_fighter", None),
            unit("gob", "red", (4, 3), "goblin", None),
            unit("far", "red", (9, 7), "goblin", None),
        ],
        RulesVariant::ApPhases,
        1,
    );
    until(&mut b, "hero", |b| b.clock.phase == 2);
    knock_out(&mut b, "gob", true);
    knock_out(&mut b, "pal", true);
    let h = b.actor().unwrap();
    assert_eq!(Greedy.decide(&mut b, h), Command::FirstAid { target: "pal".into() });
}

#[test]
fn a_dying_fighter_gets_its_dying_turn_every_round_under_every_variant_that_has_dying() {
    for v in [RulesVariant::D20Classic, RulesVariant::FourActions, RulesVariant::ApPhases, RulesVariant::OsrSegments] {
        for seed in 0..4 {
            let mut b = battle(
                vec![
                    unit("down", "blue", (1, 1), "human_fighter", None),
                    unit("up", "blue", (1, 6), "human_fighter", None),
                    unit("foe", "red", (8, 6), "goblin", None),
                ],
                v,
                seed,
            );
            let down = b.index_of("down").unwrap();
            // Dropped before the battle: at −1 hit points, dying.
            b.fighters[down].hp = -1;
            for c in [Condition::Unconscious, Condition::Dying, Condition::Prone] {
                b.fighters[down].add(c);
            }
            let dying_turns = |b: &Battle| {
                count(b, |e| match e {
                    CombatEvent::Save { unit, kind, .. } => unit == "down" && !kind.contains("initiative"),
                    CombatEvent::Action { unit, action, .. } => unit == "down" && action == "bleeds",
                    _ => false,
                })
            };
            // Every round that begins with it dying (and alive) holds one dying turn.
            for _ in 0..4 {
                let round = b.clock.round;
                let dying = b.fighters[down].has(Condition::Dying) && b.fighters[down].alive();
                let before = dying_turns(&b);
                while b.clock.round == round {
                    b.execute(Command::EndTurn).unwrap();
                }
                if dying {
                    assert!(dying_turns(&b) > before, "{v} seed {seed}: no dying turn in round {round}");
                }
            }
        }
    }
}

#[test]
fn ap_an_advanced_action_goes_on_by_ending_the_turn_or_is_abandoned_for_another_action() {
    let units = || {
        vec![unit("hero", "blue", (3, 3), "human_fighter", Some("dagger")), unit("gob", "red", (6, 3), "goblin", None)]
    };
    // Ending the turn goes on with it: total defense completes.
    let mut b = battle(units(), RulesVariant::ApPhases, 3);
    until(&mut b, "hero", |b| b.clock.phase == 2);
    b.execute(Command::Defend).unwrap();
    let hero = b.index_of("hero").unwrap();
    until(&mut b, "hero", |b| b.clock.budget.continuing);
    assert!(
        fivefoot::control::vocabulary::budget_line(&b).contains("under way"),
        "{}",
        fivefoot::control::vocabulary::budget_line(&b)
    );
    b.execute(Command::EndTurn).unwrap();
    assert_eq!(b.fighters[hero].defense, vec![("total defense".to_string(), 4)]);
    // Any other action abandons it: "it may be wise to abandon an advanced action".
    let mut b = battle(units(), RulesVariant::ApPhases, 3);
    until(&mut b, "hero", |b| b.clock.phase == 2);
    b.execute(Command::Defend).unwrap();
    until(&mut b, "hero", |b| b.clock.budget.continuing);
    let ap = b.clock.ap[hero];
    b.execute(Command::Move { to: (3, 0).into() }).unwrap();
    assert!(b.clock.advanced[hero].is_none());
    assert!(b.fighters[hero].defense.is_empty(), "no total defense");
    assert!(
        b.events
            .iter()
            .any(|e| matches!(e, CombatEvent::Spoiled { unit, reason, .. } if unit == "hero" && reason == "abandoned"))
    );
    assert_eq!(b.clock.ap[hero], ap - 1, "the move took this phase's AP instead");
}

/// hex-phases: "an attack action and a move action, or two move actions" a phase. A wolf
/// too far to strike this phase used to spend both moves and stop 10 ft from its foe,
/// handing it the first blow; it now ends the phase within one move of striking (and out
/// of the foe's own move + attack), then moves and attacks in the next phase.
#[test]
fn a_hex_phases_ai_too_far_to_strike_stops_within_one_move_and_strikes_next_phase() {
    use fivefoot::combat::ai::{Ai, Greedy};
    let rows = [".............", ".............", "............."];
    let mut b = battle_on(
        &rows,
        vec![unit("vet", "blue", (0, 1), "veteran", None), unit("wolf", "red", (12, 1), "wolf", None)],
        RulesVariant::HexPhases,
        5,
    );
    let wolf = b.index_of("wolf").unwrap();
    // (phase, commands, where the wolf ended) for each of the wolf's opportunities.
    let mut turns: Vec<(u32, Vec<Command>, (i32, i32))> = vec![];
    while turns.len() < 2 {
        let a = b.actor().expect("battle on");
        if a != wolf {
            b.execute(Command::EndTurn).unwrap(); // the veteran waits
            continue;
        }
        let phase = b.clock.phase;
        let mut done = vec![];
        while b.actor() == Some(wolf) {
            let c = Greedy.decide(&mut b, wolf);
            done.push(c.clone());
            b.execute(c).unwrap();
        }
        let p = b.fighters[wolf].pos;
        turns.push((phase, done, (p.x, p.y)));
    }
    // Wolf: speed 50 ft, a move action half of it: 5 hexes. From (12, 1) the hex beside the
    // veteran, (1, 1), is 11 hexes away: out of reach this phase. One move takes it to
    // (7, 1); within one move of (1, 1) is (6, 1), 30 ft from the veteran (whose own half
    // move of 15 ft and 5-ft reach cannot touch it).
    let (_, first, end) = &turns[0];
    assert_eq!(*end, (6, 1), "stopped at striking distance: {first:?}");
    assert!(!first.iter().any(|c| matches!(c, Command::Attack { .. })));
    let (_, second, end) = &turns[1];
    assert_eq!(*end, (1, 1), "closed in: {second:?}");
    assert!(
        matches!(second.as_slice(), [Command::Move { .. }, Command::Attack { target }, ..] if target == "vet"),
        "moved and struck: {second:?}"
    );
}

/// "Allies' squares can be moved through, not ended in" (rules-notes): a mover dropped by
/// an attack of opportunity while leaving an ally's square is put back on the last square
/// of its path where it could have stopped, never left sharing the ally's square.
#[test]
fn a_mover_dropped_in_an_allys_square_ends_on_the_last_square_it_could_stop_in() {
    // The only way east runs through the ally's square (1, 1), which the goblin threatens;
    // (0, 1) is out of its reach.
    let rows = ["##.##", ".....", "#####"];
    let mut dropped_there = 0;
    for v in [RulesVariant::D20Classic, RulesVariant::ApPhases, RulesVariant::FourActions, RulesVariant::OsrSegments] {
        for seed in 0..60 {
            let mut hero = unit("hero", "blue", (0, 1), "human_fighter", None);
            hero.hp = Some(1);
            let mut b = battle_on(
                &rows,
                vec![
                    hero,
                    unit("ally", "blue", (1, 1), "human_fighter", None),
                    unit("gob", "red", (2, 0), "goblin", None),
                ],
                v,
                seed,
            );
            until(&mut b, "hero", |b| b.clock.budget.fresh);
            let hero = b.index_of("hero").unwrap();
            if b.execute(Command::Move { to: GridPos::new(4, 1) }).is_err() {
                continue;
            }
            let f = &b.fighters[hero];
            assert_ne!(f.pos, GridPos::new(1, 1), "{v} seed {seed}: left on the ally's square");
            if !f.in_fight() && f.pos != GridPos::new(4, 1) {
                // Dropped on the way: back where it could have stopped, its start.
                assert_eq!(f.pos, GridPos::new(0, 1), "{v} seed {seed}");
                dropped_there += 1;
            }
        }
    }
    assert!(dropped_there > 0, "some attack of opportunity dropped the hero on the ally's square");
}

#[path = "combat/training.rs"]
mod training;

#[path = "combat/dash.rs"]
mod dash;

#[path = "combat/osr_moves.rs"]
mod osr_moves;

#[path = "combat/focus.rs"]
mod focus;
