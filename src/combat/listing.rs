//! The rules schedule as Bevy sees it, for `fivefoot schedule`: each stage in run order,
//! each system in it with the component and resource types Bevy computed that it reads and
//! writes. Order and membership come from the built schedule; access from a second copy of
//! the same plugins, listed before it is built (building moves the systems, and their
//! access, out of the graph), so the schedule in use is never initialised twice.

use bevy::ecs::component::ComponentId;
use bevy::ecs::query::{ComponentAccessKind, FilteredAccessSet};
use bevy::ecs::schedule::{InternedSystemSet, Schedule, SystemKey};
use bevy::ecs::system::System;
use bevy::prelude::*;
use serde::Serialize;
use std::collections::HashMap;

/// The schedule of one variant, stage by stage.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScheduleListing {
    pub variant: String,
    pub house_rules: Vec<String>,
    pub sets: Vec<StageListing>,
    /// What the variant keeps of its own, as its plugin registered it: `ActionPoints
    /// (each combatant)`, `PhaseAction (budget)`.
    #[serde(skip)]
    pub own: Vec<String>,
}

/// One stage (or clock step) and its systems in run order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StageListing {
    pub name: String,
    pub systems: Vec<SystemListing>,
    /// In the resolve stage, each system's slot (same order as `systems`).
    #[serde(skip)]
    pub places: Vec<String>,
}

/// A system and the types Bevy says it accesses: components and resources by their short
/// type names, sorted; a system with access to the whole world reads and writes `World`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SystemListing {
    pub name: String,
    pub reads: Vec<String>,
    pub writes: Vec<String>,
}

impl StageListing {
    /// The systems' names, in run order.
    pub fn names(&self) -> Vec<&str> {
        self.systems.iter().map(|s| s.name.as_str()).collect()
    }
}

impl ScheduleListing {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a listing is plain strings")
    }

    /// One stage a line, its systems indented under it, each with what it reads and writes.
    pub fn to_text(&self) -> String {
        let mut out = format!("rules schedule of {}\n", self.variant);
        if !self.house_rules.is_empty() {
            out.push_str(&format!("house rules: {}\n", self.house_rules.join(", ")));
        }
        if !self.own.is_empty() {
            out.push_str(&format!("own state: {}\n", self.own.join(", ")));
        }
        for (n, set) in self.sets.iter().enumerate() {
            out.push_str(&format!("{}. {}\n", n + 1, set.name));
            for (i, system) in set.systems.iter().enumerate() {
                match set.places.get(i) {
                    Some(slot) => out.push_str(&format!("     {slot:<13} {}\n", system.name)),
                    None => out.push_str(&format!("     {}\n", system.name)),
                }
                for (what, types) in [("reads", &system.reads), ("writes", &system.writes)] {
                    if !types.is_empty() {
                        out.push_str(&format!("         {what} {}\n", types.join(", ")));
                    }
                }
            }
        }
        out.pop();
        out
    }
}

/// Each system's listing, by its key in the schedule.
pub type Access = HashMap<SystemKey, SystemListing>;

/// What each system of `copy` (a schedule made for the listing, never run) accesses, by
/// key: `System::initialize` on each gives its `FilteredAccessSet`, as Bevy computes it
/// for its ambiguity checks and executor.
///
/// A plugin that removed systems (`remove_systems_in_set`) has built the schedule to find
/// them, and building moves the systems out of the graph into the executable, where their
/// access is private. A rebuild moves them back before it sorts the graph; two systems
/// ordered each before the other make that sort fail, so every system stays in the graph.
pub fn access_by_key(copy: &mut Schedule, world: &mut World) -> Access {
    copy.add_systems((listing_cycle_a.before(listing_cycle_b), listing_cycle_b.before(listing_cycle_a)));
    let cycle = copy.initialize(world);
    debug_assert!(cycle.is_err(), "the cycle keeps the systems in the graph");
    let graph = copy.graph_mut();
    let keys: Vec<SystemKey> = graph.systems.iter().map(|(key, _, _)| key).collect();
    let mut out = HashMap::new();
    for key in keys {
        let Some(system) = graph.systems.get_mut(key) else { continue };
        if system.name().to_string().contains("listing_cycle_") {
            continue;
        }
        let access = System::initialize(system, world);
        let listed = system_listing(&system.name().to_string(), &access, System::is_exclusive(system), world);
        out.insert(key, listed);
    }
    out
}

/// A system's listing from the access Bevy computed for it (`System::initialize`), its
/// component and resource ids named by `world`.
pub fn system_listing(name: &str, access: &FilteredAccessSet, exclusive: bool, world: &World) -> SystemListing {
    let combined = access.combined_access();
    let (mut reads, mut writes) = (Vec::new(), Vec::new());
    match combined.try_iter_access() {
        // An exclusive system (`&mut World`) lists no access: it has all of it.
        _ if exclusive => writes.push("World".into()),
        Ok(kinds) => {
            for kind in kinds {
                match kind {
                    ComponentAccessKind::Shared(id) => reads.push(type_name(world, id)),
                    ComponentAccessKind::Exclusive(id) => writes.push(type_name(world, id)),
                    ComponentAccessKind::Archetypal(_) => {}
                }
            }
        }
        // Access defined by what it leaves out: the whole world (`&World`, `EntityMut` of
        // everything).
        Err(unbounded) => {
            if unbounded.writes_inverted {
                writes.push("World".into());
            } else {
                reads.push("World".into());
            }
        }
    }
    reads.sort();
    reads.dedup();
    writes.sort();
    writes.dedup();
    SystemListing { name: short_name(name), reads, writes }
}

fn listing_cycle_a() {}
fn listing_cycle_b() {}

/// A component's or resource's type name without its path or generic arguments' paths.
fn type_name(world: &World, id: ComponentId) -> String {
    let full = world.components().get_name(id).map_or_else(|| format!("{id:?}"), |n| n.to_string());
    short_type(&full)
}

/// `fivefoot::rules::components::Health` → `Health`; `bevy_ecs::X<a::B>` → `X<B>`.
fn short_type(full: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    for c in full.chars() {
        if c.is_alphanumeric() || c == '_' || c == ':' {
            word.push(c);
        } else {
            out.push_str(word.rsplit("::").next().unwrap_or(&word));
            word.clear();
            out.push(c);
        }
    }
    out.push_str(word.rsplit("::").next().unwrap_or(&word));
    out
}

/// The systems of `set` in a built `schedule`, in run order, with their access from
/// `access` (by the same keys: both schedules were made by the same plugins in the same
/// order).
pub fn list_set(schedule: &Schedule, set: InternedSystemSet, name: &str, access: &Access) -> StageListing {
    let members = schedule.graph().systems_in_set(set).ok();
    let systems = schedule
        .systems()
        .expect("initialised in Engine::new")
        .filter(|(key, _)| members.is_some_and(|m| m.contains(key)))
        .map(|(key, system)| {
            let name = short_name(&system.name().to_string());
            match access.get(&key) {
                Some(listed) if listed.name == name => listed.clone(),
                // Not the same system under this key: the two copies differ, so say nothing
                // rather than something wrong.
                _ => SystemListing { name, reads: vec!["?".into()], writes: vec!["?".into()] },
            }
        })
        .collect();
    StageListing { name: name.into(), systems, places: vec![] }
}

/// The systems of an initialised `schedule` in none of `sets`.
pub fn systems_outside(schedule: &Schedule, sets: &[InternedSystemSet]) -> Vec<String> {
    let Ok(systems) = schedule.systems() else { return vec![] };
    systems
        .filter(|(key, _)| !sets.iter().any(|set| schedule.graph().systems_in_set(*set).is_ok_and(|m| m.contains(key))))
        .map(|(_, system)| short_name(&system.name().to_string()))
        .collect()
}

/// A system's name as its module and function, without the crate's path:
/// `schedule::take_stance`, `ap_phases::declare_charge`, `call_next` (the schedule's own).
pub fn short_name(full: &str) -> String {
    // A piped pair (the check piped into the turn) shows both: `judge_command → take_verdict`.
    if let Some((first, then)) = full.strip_prefix("Pipe(").and_then(|s| s.strip_suffix(')')?.split_once(", ")) {
        return format!("{} → {}", short_name(first), short_name(then));
    }
    let name = full.strip_prefix("fivefoot::combat::").unwrap_or(full);
    let name = name.strip_prefix("variants::").unwrap_or(name);
    let name = name.strip_prefix("schedule::systems::").unwrap_or(name);
    let name = name.strip_prefix("schedule::clock::").unwrap_or(name);
    let parts: Vec<&str> = name.split("::").collect();
    match parts.as_slice() {
        [first, .., last] if parts.len() > 2 => format!("{first}::{last}"),
        _ => name.to_string(),
    }
}
