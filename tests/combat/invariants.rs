//! Invariants of whole battles on random arenas under every variant (proptest): the threat
//! map leaves each creature's own squares out and matches a from-scratch recomputation; a
//! command `validate` accepts, `execute` carries out; a move draws at most one attack of
//! opportunity per foe; every battle ends within the round cap; the same seed gives the
//! same log.

use super::*;
use fivefoot::combat::{Ai, Greedy};
use fivefoot::grid::GridPos;
use fivefoot::rules::Conditions;
use fivefoot::rules::Health;
use fivefoot::rules::Position;
use fivefoot::rules::threatened_squares;
use proptest::prelude::*;
use std::collections::BTreeSet;

const ROUND_CAP: u32 = 12;

/// Checks the threat map against one computed from nothing but the roster and the field.
fn check_threat(b: &mut BattleWorld) -> Result<(), TestCaseError> {
    let read = b.read();
    let view = read.view();
    for (i, u) in view.roster.units.iter().enumerate() {
        let own: BTreeSet<GridPos> = u.footprint.cells().collect();
        let got: BTreeSet<GridPos> = view.threat.squares_of(i).iter().copied().collect();
        prop_assert!(got.is_disjoint(&own), "{} threatens its own square", u.id);
        let want: BTreeSet<GridPos> = match u.threat {
            Some(band) if u.able => threatened_squares(view.field, u.footprint, band).into_iter().collect(),
            _ => BTreeSet::new(),
        };
        prop_assert_eq!(got, want, "{}", u.id);
    }
    Ok(())
}

/// Plays a battle with the greedy AI on both sides, checking every command on the way.
fn play(level: &Level, v: RulesVariant, seed: u64) -> Result<BattleWorld, TestCaseError> {
    let options = BattleOptions { round_cap: ROUND_CAP, ..BattleOptions::default() };
    let mut b = BattleWorld::new(level, &Catalogue::builtin(), v, seed, options);
    let mut ai = Greedy;
    let mut steps = 0;
    while !b.is_over() {
        let Some(actor) = b.actor() else { break };
        check_threat(&mut b)?;
        let cmd = ai.decide(&mut b, actor);
        let before = b.events().len();
        if b.validate(&cmd).is_ok() {
            let done = b.execute(cmd.clone());
            prop_assert!(done.is_ok(), "{v}: validated but refused: {cmd:?}: {done:?}");
        } else {
            let _ = b.execute(Command::EndTurn);
        }
        if matches!(cmd, Command::Move { .. }) {
            let mut by = BTreeSet::new();
            for e in &b.events()[before..] {
                if let CombatEvent::AttackOfOpportunity { by: who, trigger, .. } = e
                    && (trigger == "moves out of a threatened square" || trigger == "leaves melee")
                {
                    prop_assert!(by.insert(who.clone()), "{v}: {who} struck twice for one move");
                }
            }
        }
        steps += 1;
        prop_assert!(steps < 20_000, "{v}: no end in sight");
    }
    prop_assert!(b.is_over(), "{v}: the battle stopped without ending");
    prop_assert!(b.clock().round <= ROUND_CAP + 1, "{v}: round {} past the cap", b.clock().round);
    Ok(b)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
    #[test]
    fn battles_on_random_arenas_keep_the_invariants(
        seed in 0u64..100_000, w in 10usize..18, h in 8usize..14, units in 4usize..9, vi in 0usize..5
    ) {
        let v = RulesVariant::ALL[vi];
        let mut def = fivefoot::level::arena(w, h, units, seed);
        def.rules = v;
        let level = Level::from_def(def, &Catalogue::builtin()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let first = play(&level, v, seed)?;
        prop_assert!(first.events().iter().any(|e| matches!(e, CombatEvent::Attack { .. })), "{}: nobody fought", v);
        let again = play(&level, v, seed)?;
        prop_assert_eq!(events_json(&first), events_json(&again), "{}: same seed, same log", v);
    }
}

/// Each common invariant is a system over the components it names, and names what broke:
/// two fighters on one square, one on a wall or off the map, hit points over the maximum, a
/// dead fighter acting. ap-phases and hex-phases list and check their own (at most 3 AP; at
/// most two moves a phase), and no other variant has any.
#[test]
fn a_broken_invariant_is_named_by_the_system_that_checks_it() {
    use fivefoot::combat::engine::Engine;
    let units =
        || vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (6, 3), "goblin", None)];
    let rows = ["#########", "#.......#", "#.......#", "#.......#", "#.......#", "#########"];
    for v in RulesVariant::ALL {
        let mut b = battle_on(&rows, units(), v, 1);
        assert_eq!(b.check_invariants(None).err(), None, "{v:?}: the control holds");
        let (hero, gob) = (b.index_of("hero").unwrap(), b.index_of("gob").unwrap());
        b.scene().fighter::<Position>(gob).0 = GridPos::new(3, 3);
        let broken = b.check_invariants(None).unwrap_err();
        assert!(broken.contains("share (3, 3)"), "{v:?}: {broken}");
        b.scene().fighter::<Position>(gob).0 = GridPos::new(0, 3);
        let broken = b.check_invariants(None).unwrap_err();
        assert_eq!(broken, "gob stands on a wall at (0, 3)", "{v:?}");
        b.scene().fighter::<Position>(gob).0 = GridPos::new(-1, 3);
        let broken = b.check_invariants(None).unwrap_err();
        assert_eq!(broken, "gob stands off the map at (-1, 3)", "{v:?}");
        b.scene().fighter::<Position>(gob).0 = GridPos::new(6, 3);
        let max = b.read().fighters.health[hero].max;
        b.scene().fighter::<Health>(hero).hp = max + 1;
        let broken = b.check_invariants(None).unwrap_err();
        assert_eq!(broken, format!("hero has {} of {max} hit points", max + 1), "{v:?}");
        b.scene().fighter::<Health>(hero).hp = max;
        let actor = b.actor().expect("someone acts at the start");
        b.scene().fighter::<Conditions>(actor).add(Condition::Dead);
        let broken = b.check_invariants(None).unwrap_err();
        let id = b.read().fighters.combatant[actor].id.clone();
        assert_eq!(broken, format!("{id}, dead, is acting"), "{v:?}");
        b.scene().fighter::<Conditions>(actor).remove(Condition::Dead);
        assert_eq!(b.check_invariants(None).err(), None, "{v:?}: whole again");
        // The variants' own: a fourth action point (ap-phases), a third move action in one
        // phase (hex-phases); elsewhere neither is anything to break.
        match v {
            RulesVariant::ApPhases => {
                b.scene().fighter::<fivefoot::combat::kept::ActionPoints>(hero).ap = 4;
                let broken = b.check_invariants(None).unwrap_err();
                assert_eq!(broken, "hero has 4 action points, more than 3");
            }
            RulesVariant::HexPhases => {
                let mut scene = b.scene();
                let mut economy = scene.fighter::<fivefoot::combat::fighter::Economy>(actor);
                economy.budget.own_mut::<fivefoot::combat::kept::PhaseActions>().moves_used = 3;
                drop(scene);
                let broken = b.check_invariants(None).unwrap_err();
                assert_eq!(broken, format!("{id}: 3 move actions in one phase"));
            }
            _ => {}
        }
        let listing = Engine::new(v).listing();
        let invariants = listing.sets.iter().find(|s| s.name == "invariants").expect("listed");
        let names: Vec<&str> = invariants.systems.iter().map(|s| s.name.as_str()).collect();
        let own = match v {
            RulesVariant::ApPhases => Some("ap_phases::at_most_three_action_points"),
            RulesVariant::HexPhases => Some("hex_phases::at_most_two_moves_a_phase"),
            _ => None,
        };
        let mut expected = vec![
            "schedule::fighters_stand_apart_on_open_squares",
            "schedule::hit_points_within_maximum",
            "schedule::the_one_acting_lives",
        ];
        expected.extend(own);
        assert_eq!(names, expected, "{v:?}");
        for system in &invariants.systems {
            assert!(system.writes == ["Broken"], "{v:?}: {} writes {:?}", system.name, system.writes);
        }
    }
}
