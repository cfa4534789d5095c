//! Combat engine tests built from the sources' own statements, per variant, plus
//! determinism (same seed, same events), replays and whole battles on every level.

use bevy::prelude::Entity;
use fivefoot::combat::command::Intent;
use fivefoot::combat::{AttackKind, BattleOptions, BattleWorld, CombatEvent, Command, sim};
use fivefoot::grid::GridPos;
use fivefoot::level::{Catalogue, Level, UnitDef};
use fivefoot::rules::Condition;
use fivefoot::variants::RulesVariant;
use std::collections::BTreeMap;

mod common;

/// A unit with 200 hit points (so a test's blows do not end it early) and `weapon`.
fn unit(id: &str, side: &str, at: (i32, i32), creature: &str, weapon: Option<&str>) -> UnitDef {
    UnitDef { weapon: weapon.map(String::from), hp: Some(200), ..common::unit(id, side, at, creature) }
}

fn level(units: Vec<UnitDef>) -> Level {
    common::level(&common::open_rows(10, 8), units, RulesVariant::D20Classic)
}

fn battle(units: Vec<UnitDef>, v: RulesVariant, seed: u64) -> BattleWorld {
    BattleWorld::new(&level(units), &Catalogue::builtin(), v, seed, BattleOptions::default())
}

fn battle_on(rows: &[&str], units: Vec<UnitDef>, v: RulesVariant, seed: u64) -> BattleWorld {
    BattleWorld::new(&common::level(rows, units, v), &Catalogue::builtin(), v, seed, BattleOptions::default())
}

/// osr-segments: the acting fighter's major action and what the round's step allows.
fn major(b: &BattleWorld) -> fivefoot::combat::variants::osr_segments::MajorAction {
    b.read().budget().own()
}

/// osr-segments: the acting fighter may take its major action (not declaring, not in the
/// fast-action step).
fn major_action_left(b: &BattleWorld) -> bool {
    let m = major(b);
    m.major && !m.fast_only && !m.declaring
}

/// osr-segments: the acting fighter may take its major action in a group step (HIGH or
/// LOW), not the multi-attackers' steps.
fn group_turn(b: &BattleWorld) -> bool {
    major_action_left(b) && !major(b).attacks_only
}

/// Ends turns until `id` acts and `ready` holds.
fn until(b: &mut BattleWorld, id: &str, ready: impl Fn(&BattleWorld) -> bool) {
    for _ in 0..500 {
        let a = b.actor().expect("battle on");
        if b.read().fighters.combatant[a].id == id && ready(b) {
            return;
        }
        b.execute(Command::EndTurn).unwrap();
    }
    panic!("{id} never got its chance");
}

fn attack_events(b: &BattleWorld) -> Vec<(String, Vec<(String, i32)>)> {
    b.events()
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

#[path = "combat/spells_osr.rs"]
mod spells_osr;

#[path = "combat/clauses_ap.rs"]
mod clauses_ap;

#[path = "combat/clauses_four.rs"]
mod clauses_four;

#[path = "combat/push.rs"]
mod push;

#[path = "combat/clauses_d20.rs"]
mod clauses_d20;

#[path = "combat/clauses_osr.rs"]
mod clauses_osr;

#[path = "combat/clauses_hex.rs"]
mod clauses_hex;

fn has_mod(mods: &[(String, i32)], source: &str, value: i32) -> bool {
    mods.iter().any(|(s, v)| s == source && *v == value)
}

fn count<F: Fn(&CombatEvent) -> bool>(b: &BattleWorld, f: F) -> usize {
    b.events().iter().filter(|e| f(e)).count()
}

fn events_json(b: &BattleWorld) -> String {
    serde_json::to_string(b.events()).unwrap()
}

#[path = "combat/variants.rs"]
mod variants;

#[path = "combat/determinism.rs"]
mod determinism;

#[path = "combat/actions.rs"]
mod actions;

#[path = "combat/orders.rs"]
mod orders;

#[path = "combat/grapple_contest.rs"]
mod grapple_contest;

#[path = "combat/complex.rs"]
mod complex;

#[path = "combat/training.rs"]
mod training;

#[path = "combat/dash.rs"]
mod dash;

#[path = "combat/osr_moves.rs"]
mod osr_moves;

#[path = "combat/focus.rs"]
mod focus;

#[path = "combat/schedule.rs"]
mod schedule;

#[path = "combat/clock_steps.rs"]
mod clock_steps;

#[path = "combat/house_rules.rs"]
mod house_rules;

#[path = "combat/grapple_ap.rs"]
mod grapple_ap;

#[path = "combat/snapshots.rs"]
mod snapshots;

#[path = "combat/tactical.rs"]
mod tactical;

#[path = "combat/tactical_lines.rs"]
mod tactical_lines;

#[path = "combat/tactical_shooters.rs"]
mod tactical_shooters;

#[path = "combat/reach_and_guard.rs"]
mod reach_and_guard;

#[path = "combat/spare_actions.rs"]
mod spare_actions;

#[path = "combat/forecast.rs"]
mod forecast;

/// What befalls a fighter in the middle of a strike (attacked, distracted, dropped): each
/// variant's rule a narrow system in its own small schedule.
#[path = "combat/struck.rs"]
mod struck;
