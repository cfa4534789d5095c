//! The rules schedule as Bevy builds it: its stages in order and none empty, each variant's
//! plugin adding or replacing systems where its source differs, attacks of opportunity made
//! by the strikes stage between a walk's legs, and unordered rule systems refused.

use super::*;
use bevy::ecs::schedule::{IntoScheduleConfigs, Schedules, SystemSet};
use bevy::prelude::App;
use fivefoot::combat::engine::Engine;
use fivefoot::combat::schedule::{RulesSchedule, RulesSchedulePlugin, RulesStage};
use fivefoot::combat::variants::{ap_phases, osr_segments};

/// What `name` calls the events from `before` on, in order (the events it names).
fn named_after<'a>(
    b: &'a BattleWorld,
    before: usize,
    name: impl Fn(&'a CombatEvent) -> Option<&'a str>,
) -> Vec<&'a str> {
    b.events()[before..].iter().filter_map(name).collect()
}

/// Resolves `cmd`: how many passes of the schedule it took, and where its events begin.
fn resolved(b: &mut BattleWorld, cmd: Command) -> (u32, usize) {
    let before = b.events().len();
    let refused = format!("{cmd:?} is legal here");
    b.execute(cmd).expect(&refused);
    (b.passes(), before)
}

/// Each set of `v`'s schedule listing by name, with its systems' names in run order.
pub(super) fn systems(v: RulesVariant) -> BTreeMap<String, Vec<String>> {
    Engine::new(v)
        .listing()
        .sets
        .into_iter()
        .map(|s| (s.name, s.systems.into_iter().map(|system| system.name).collect()))
        .collect()
}

#[test]
fn every_variant_runs_its_stages_in_order_and_none_is_empty() {
    for v in RulesVariant::ALL {
        let listing = Engine::new(v).listing();
        let names: Vec<&str> = listing.sets.iter().map(|s| s.name.as_str()).collect();
        // hex-phases has no dying turns, and an empty step is not listed.
        let dying_turn = (v != RulesVariant::HexPhases).then_some("clock: dying turn");
        let expected: Vec<&str> = [
            "intake",
            "validate",
            "resolve",
            "walk",
            "strikes",
            "settle",
            "derive",
            "clock",
            "clock: begin",
            "clock: next up",
        ]
        .into_iter()
        .chain(dying_turn)
        .chain(["clock: opens", "clock: window"])
        // hex-phases' fighters may abort to a dodge as they are attacked, and d20-classic's
        // shots into a grapple may stray.
        .chain([RulesVariant::HexPhases, RulesVariant::D20Classic].contains(&v).then_some("strikes: before an attack"))
        // Every variant rolls its attacks by the same systems.
        .chain(["strikes: attack roll"])
        // Combat maneuvers are checked by the variant's rule where it has them.
        .chain(
            [RulesVariant::ApPhases, RulesVariant::FourActions, RulesVariant::D20Classic]
                .contains(&v)
                .then_some("strikes: maneuver check"),
        )
        // Casting provokes in the d20 family and four-actions; what the attacks do to the
        // caster's hold on the spell is the variant's.
        .chain(
            [RulesVariant::ApPhases, RulesVariant::FourActions, RulesVariant::D20Classic]
                .contains(&v)
                .then_some("strikes: casting"),
        )
        // osr-segments' casters lose concentration when they make a free attack.
        .chain((v == RulesVariant::OsrSegments).then_some("strikes: free attack made"))
        // Every variant's fighters are hurt, drop and die by the harm pipeline.
        .chain(["harm"])
        .chain(["strikes: taken"])
        // osr-segments watches each step (its immediate attacks) and follows a walk up
        // (allies passed are jostled).
        .chain(if v == RulesVariant::OsrSegments { vec!["walk: step", "walk: over"] } else { vec![] })
        // d20-classic and four-actions have foes counter spells as they go off.
        .chain([RulesVariant::D20Classic, RulesVariant::FourActions].contains(&v).then_some("strikes: counterspells"))
        // What must hold after every command.
        .chain(["invariants"])
        .chain(["attack modifiers", "damage modifiers"])
        .collect();
        assert_eq!(names, expected, "{v:?}");
        for set in &listing.sets {
            assert!(!set.systems.is_empty(), "{v:?}: the {} stage is empty", set.name);
        }
        assert_eq!(listing.variant, v.id());
    }
}

/// Each variant's plugin registers what it keeps of its own; a battle starts with it, and
/// only the variant that registered it finds it there. A combatant's part of the economy
/// is its `Economy` component: one a combatant, each its own.
#[test]
fn each_plugin_registers_its_own_state() {
    let own = |v: RulesVariant| Engine::new(v).listing().own;
    assert_eq!(own(RulesVariant::ApPhases), ["ActionPoints (each combatant)", "PhaseAction (budget)"]);
    assert_eq!(own(RulesVariant::FourActions), ["QuickAction (budget)"]);
    assert_eq!(own(RulesVariant::D20Classic), ["ImmediateAction (each combatant)", "SwiftAction (budget)"]);
    assert_eq!(
        own(RulesVariant::OsrSegments),
        ["OsrRound (battle)", "Declaration (each combatant)", "MajorAction (budget)"]
    );
    assert_eq!(own(RulesVariant::HexPhases), ["Abort (each combatant)", "PhaseActions (budget)"]);
    assert!(
        Engine::new(RulesVariant::ApPhases).listing().to_text().contains("own state: ActionPoints (each combatant)")
    );
    let units =
        || vec![unit("hero", "blue", (1, 1), "human_fighter", None), unit("gob", "red", (3, 1), "goblin", None)];
    let mut ap = battle(units(), RulesVariant::ApPhases, 1);
    let (hero, gob) = (ap.index_of("hero").unwrap(), ap.index_of("gob").unwrap());
    assert!((0..2).all(|i| ap.read().economy::<ap_phases::ActionPoints>(i).is_some()), "every combatant has its part");
    assert!(ap.read().economy::<osr_segments::Declaration>(hero).is_none(), "another variant's part is not there");
    ap.scene().fighter::<fivefoot::combat::kept::ActionPoints>(hero).ap = 0;
    assert_ne!(ap_phases::points(&ap.read(), gob).ap, 0, "each combatant's part is its own");
    let four = battle(units(), RulesVariant::FourActions, 1);
    assert!(four.read().economy::<ap_phases::ActionPoints>(hero).is_none(), "four-actions keeps no part a combatant");
    assert!(four.read().own::<osr_segments::OsrRound>().is_none(), "nor any state of the battle");
}

#[test]
fn every_system_sits_in_a_stage_and_each_resolve_system_in_its_slot() {
    for v in RulesVariant::ALL {
        let engine = Engine::new(v);
        assert_eq!(engine.systems_outside_stages(), Vec::<String>::new(), "{v:?}");
        let listing = engine.listing();
        let resolve = listing.sets.iter().find(|s| s.name == "resolve").unwrap();
        assert_eq!(resolve.places.len(), resolve.systems.len());
        let slot_of = |system: &str| {
            resolve.systems.iter().position(|s| s.name == system).map(|i| resolve.places[i].clone()).unwrap()
        };
        assert_eq!(slot_of("set_out"), "Movement");
        let walk = listing.sets.iter().find(|s| s.name == "walk").unwrap();
        assert_eq!(walk.systems.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["walk_on"], "{v:?}");
        let settle = listing.sets.iter().find(|s| s.name == "settle").unwrap();
        let last = settle.systems.iter().position(|s| s.name == "end_if_decided").unwrap();
        assert_eq!(settle.places[last], "", "{v:?}: victory is in the settle stage, in no slot");
    }
    assert_eq!(Engine::new(RulesVariant::ApPhases).listing().sets[2].places[0], "TakeOver");
    // Positive control: a system added outside every stage is found.
    let mut app = App::empty();
    app.add_plugins(RulesSchedulePlugin);
    app.add_systems(RulesSchedule, writes_the_battle.after(RulesStage::Clock));
    let world = app.world_mut();
    let mut schedule = world.resource_mut::<Schedules>().remove(RulesSchedule).expect("the rules schedule");
    schedule.initialize(world).expect("it builds");
    let stages: Vec<_> = RulesStage::ALL.iter().map(|s| s.intern()).collect();
    assert_eq!(fivefoot::combat::listing::systems_outside(&schedule, &stages).len(), 1);
}

#[test]
fn no_two_variants_run_the_same_systems() {
    let all: Vec<_> = RulesVariant::ALL.iter().map(|&v| (v, systems(v))).collect();
    for (i, (a, sa)) in all.iter().enumerate() {
        for (b, sb) in &all[i + 1..] {
            assert_ne!(sa, sb, "{a:?} and {b:?} have the same schedule");
        }
    }
}

#[test]
fn a_variant_plugin_replaces_the_common_system_where_its_source_differs() {
    let common = "charge_straight".to_string();
    let ap = systems(RulesVariant::ApPhases);
    // ap-phases: a charge is an advanced action of 2 AP, declared now.
    assert!(ap["resolve"].contains(&"ap_phases::declare_charge".to_string()), "{:?}", ap["resolve"]);
    assert!(!ap["resolve"].contains(&common));
    assert!(systems(RulesVariant::D20Classic)["resolve"].contains(&common));
    // osr-segments has no defensive action of its own: the slot is emptied, not filled.
    assert!(!systems(RulesVariant::OsrSegments)["resolve"].iter().any(|s| s.contains("defen")));
    assert!(systems(RulesVariant::FourActions)["resolve"].contains(&"schedule::take_defensive_action".to_string()));
}

#[test]
fn leaving_two_threatening_foes_stops_the_walk_for_each_attack_of_opportunity() {
    let units = vec![
        unit("hero", "a", (4, 3), "human_fighter", Some("longsword")),
        unit("gob1", "b", (3, 3), "goblin", Some("short_sword")),
        unit("gob2", "b", (5, 3), "goblin", Some("short_sword")),
    ];
    let mut b = battle(units, RulesVariant::D20Classic, 4);
    until(&mut b, "hero", |_| true);
    let (passes, before) = resolved(&mut b, Command::Move { to: GridPos::new(4, 6) });
    let strikers = named_after(&b, before, |e| match e {
        CombatEvent::AttackOfOpportunity { by, .. } => Some(by.as_str()),
        _ => None,
    });
    assert_eq!(strikers, ["gob1", "gob2"]);
    assert_eq!(passes, 3, "one pass for the command, one more after each attack");
    // The walk's end comes after both attacks, and the hero stands where it was going.
    let moved = b.events()[before..].iter().position(|e| matches!(e, CombatEvent::Moved { .. })).expect("moved");
    let last_aoo =
        b.events()[before..].iter().rposition(|e| matches!(e, CombatEvent::AttackOfOpportunity { .. })).expect("aoo");
    assert!(moved > last_aoo);
    assert_eq!(b.read().fighters.position[b.index_of("hero").unwrap()].0, GridPos::new(4, 6));
    // Positive control: a move provoking nothing runs once.
    until(&mut b, "hero", |_| true);
    b.execute(Command::Move { to: GridPos::new(4, 7) }).expect("a legal move");
    assert_eq!(b.passes(), 1);
}

#[test]
fn a_charge_walks_through_the_strikes_stage_and_strikes_at_its_end() {
    let units = vec![
        unit("hero", "a", (1, 3), "human_fighter", Some("longsword")),
        unit("gob1", "b", (1, 2), "goblin", Some("short_sword")),
        unit("gob2", "b", (6, 3), "goblin", Some("short_sword")),
    ];
    let mut b = battle(units, RulesVariant::D20Classic, 2);
    until(&mut b, "hero", |_| true);
    let (passes, before) = resolved(&mut b, Command::Charge { target: "gob2".into() });
    let kinds = named_after(&b, before, |e| match e {
        CombatEvent::AttackOfOpportunity { .. } => Some("aoo"),
        CombatEvent::Moved { .. } => Some("moved"),
        CombatEvent::Attack { attacker, .. } if attacker == "hero" => Some("charge attack"),
        _ => None,
    });
    assert_eq!(kinds, ["aoo", "moved", "charge attack"]);
    assert_eq!(passes, 2);
}

/// ap-phases: a charge declared in phase 2 completes in phase 3 when its turn ends, and its
/// walk stops for the attack of opportunity like any other.
#[test]
fn an_ap_phases_charge_completed_by_ending_the_turn_walks_through_the_strikes_stage() {
    let units = vec![
        unit("hero", "a", (1, 3), "human_fighter", Some("longsword")),
        unit("gob1", "b", (1, 2), "goblin", Some("short_sword")),
        unit("gob2", "b", (6, 3), "goblin", Some("short_sword")),
    ];
    let mut b = battle(units, RulesVariant::ApPhases, 5);
    until(&mut b, "hero", |b| b.clock().phase == 2);
    b.execute(Command::Charge { target: "gob2".into() }).expect("a charge declared");
    until(&mut b, "hero", |b| b.clock().phase == 3);
    let (passes, before) = resolved(&mut b, Command::EndTurn);
    let kinds = named_after(&b, before, |e| match e {
        CombatEvent::AttackOfOpportunity { by, .. } if by == "gob1" => Some("aoo"),
        CombatEvent::Moved { unit, kind, .. } if unit == "hero" && kind == "charge" => Some("charge"),
        CombatEvent::Attack { attacker, .. } if attacker == "hero" => Some("attack"),
        _ => None,
    });
    assert_eq!(kinds, ["aoo", "charge", "attack"]);
    // The charge's last AP (the strikes stage, which sets it out and stops at the attack
    // of opportunity), the attack of opportunity, then the walk with the charge's attack.
    assert_eq!(passes, 3);
    assert_ne!(b.actor(), b.index_of("hero"), "time moved on once the charge was over");
}

/// A held attack is a reaction too: the walk stops on the square that came into the
/// holder's reach, the strikes stage makes the attack, and the walk goes on.
#[test]
fn a_held_attack_stops_the_walk_and_is_made_by_the_strikes_stage() {
    let rows = ["##########", "..........", "..........", "##########"];
    let units = vec![unit("hero", "blue", (4, 1), "human_fighter", None), unit("gob", "red", (7, 2), "goblin", None)];
    let mut b = battle_on(&rows, units, RulesVariant::D20Classic, 12);
    until(&mut b, "hero", |_| true);
    b.execute(Command::Hold { target: Some("gob".into()) }).unwrap();
    b.execute(Command::EndTurn).unwrap();
    until(&mut b, "gob", |_| true);
    let (passes, before) = resolved(&mut b, Command::Move { to: GridPos::new(1, 2) });
    let kinds = named_after(&b, before, |e| match e {
        CombatEvent::Action { action, .. } if action == "held attack" => Some("held"),
        CombatEvent::Attack { attacker, .. } if attacker == "hero" => Some("attack"),
        CombatEvent::Moved { .. } => Some("moved"),
        _ => None,
    });
    assert_eq!(kinds, ["held", "attack", "moved"]);
    // One pass for the command, one after the held attack, and one where leaving the
    // hero's reach provokes (no attack comes: its immediate action is spent).
    assert_eq!(passes, 3);
}

/// osr-segments' immediate attack is the variant's reaction to a step: the walk stops on
/// the square that came into the hero's reach and the strikes stage makes the attack.
#[test]
fn an_osr_immediate_attack_is_made_by_the_strikes_stage() {
    let mut seen = 0;
    for seed in 0..20 {
        let units =
            vec![unit("hero", "blue", (2, 3), "human_fighter", None), unit("gob", "red", (6, 3), "goblin", None)];
        let mut b = battle(units, RulesVariant::OsrSegments, seed);
        for _ in 0..20 {
            let a = b.actor().expect("battle on");
            let id = b.read().fighters.combatant[a].id.clone();
            let budget = major(&b);
            if budget.declaring {
                b.execute(Command::Declare { intent: Intent::Fight }).unwrap();
            } else if id == "hero" {
                break; // the hero's group went first
            } else if budget.major && !budget.fast_only {
                let before = b.events().len();
                b.execute(Command::Move { to: GridPos::new(3, 3) }).expect("a legal move");
                let kinds = named_after(&b, before, |e| match e {
                    CombatEvent::Action { action, .. } if action == "immediate attack" => Some("immediate"),
                    CombatEvent::Moved { .. } => Some("moved"),
                    _ => None,
                });
                assert_eq!(kinds, ["immediate", "moved"], "seed {seed}");
                assert!(b.passes() >= 2, "seed {seed}: the walk stopped for the reaction");
                seen += 1;
                break;
            } else {
                b.execute(Command::EndTurn).unwrap();
            }
        }
    }
    assert!(seen > 2, "the goblin's group went first in {seen} of 20");
}

fn writes_the_battle(_: &mut bevy::prelude::World) {}
fn also_writes_the_battle(_: &mut bevy::prelude::World) {}

fn builds(order: bool) -> bool {
    let mut app = App::empty();
    app.add_plugins(RulesSchedulePlugin);
    if order {
        app.add_systems(RulesSchedule, (writes_the_battle, also_writes_the_battle).chain().after(RulesStage::Clock));
    } else {
        app.add_systems(RulesSchedule, (writes_the_battle, also_writes_the_battle).after(RulesStage::Clock));
    }
    let world = app.world_mut();
    let mut schedule = world.resource_mut::<Schedules>().remove(RulesSchedule).expect("the rules schedule");
    schedule.initialize(world).is_ok()
}

#[test]
fn two_rule_systems_writing_the_battle_in_no_set_order_do_not_build() {
    assert!(!builds(false), "an unordered pair must be refused: its order would decide the battle");
    assert!(builds(true));
}

#[test]
fn the_checks_read_the_battle_and_write_nothing() {
    use bevy::ecs::system::{IntoSystem, System};
    use fivefoot::combat::schedule::judge_command;
    let mut world = bevy::prelude::World::new();
    let mut check = IntoSystem::into_system(judge_command);
    let access = check.initialize(&mut world);
    assert!(!access.combined_access().has_any_write(), "a check writes nothing");
    // It reads what its queries and resources name, never the whole world.
    let listing = fivefoot::combat::listing::system_listing("judge_command", &access, false, &world);
    assert!(!listing.reads.contains(&"World".to_string()), "{:?}", listing.reads);
    for part in ["Position", "Conditions", "Wielded", "Clock", "Derived", "ActionPoints", "Turn"] {
        assert!(listing.reads.iter().any(|r| r == part), "the check reads {part}: {:?}", listing.reads);
    }
    // Positive control: a rule that changes the dice writes.
    let mut rule = IntoSystem::into_system(|_: bevy::prelude::ResMut<fivefoot::rules::Dice>| {});
    assert!(rule.initialize(&mut world).combined_access().has_any_write());
}

fn reads_health_writes_dice(
    _: bevy::prelude::Query<&fivefoot::rules::Health>,
    _: bevy::prelude::ResMut<fivefoot::rules::Dice>,
) {
}
fn takes_the_world(_: &mut bevy::prelude::World) {}

/// The listing's access is Bevy's own: a system's parameters come out as the types they
/// name (a query's component read, a resource written), an exclusive system as the whole
/// `World`, and every listed rule system of every variant has access Bevy computed.
#[test]
fn the_schedule_listing_shows_what_bevy_says_each_system_accesses() {
    use bevy::ecs::schedule::Schedule;
    use fivefoot::combat::listing::access_by_key;
    let mut world = bevy::prelude::World::new();
    let mut schedule = Schedule::new(RulesSchedule);
    schedule.add_systems((reads_health_writes_dice, takes_the_world).chain());
    let access = access_by_key(&mut schedule, &mut world);
    let by_name = |name: &str| access.values().find(|s| s.name.ends_with(name)).cloned().unwrap();
    let narrow = by_name("reads_health_writes_dice");
    assert_eq!((narrow.reads, narrow.writes), (vec!["Health".to_string()], vec!["Dice".to_string()]));
    let whole = by_name("takes_the_world");
    assert_eq!(whole.writes, ["World"]);
    for v in RulesVariant::ALL {
        let listing = Engine::new(v).listing();
        // The derive stage reads each combatant's own components through a query of its
        // own and writes only the derived maps.
        let derive = listing.sets.iter().find(|s| s.name == "derive").unwrap();
        let maps = derive.systems.iter().find(|s| s.name.ends_with("derive_maps")).unwrap();
        assert_eq!(maps.writes, ["Derived"], "{v:?}");
        for component in ["Body", "Combatant", "Conditions", "Position", "Reach", "Side", "Stats", "Wielded"] {
            assert!(maps.reads.iter().any(|r| r == component), "{v:?}: derive_maps reads {component}");
        }
        assert!(!maps.reads.iter().any(|r| r == "Health" || r == "Economy"), "{v:?}: only what the maps need");
        // A stance and a held attack change only the fighter's own Bonuses or Reactions.
        let resolve = listing.sets.iter().find(|s| s.name == "resolve").unwrap();
        let own_orders =
            [("take_stance", "Bonuses"), ("hold_attack", "Reactions"), ("take_defensive_action", "Bonuses")];
        for (name, component) in own_orders {
            let Some(system) = resolve.systems.iter().find(|s| s.name.ends_with(name)) else {
                assert!(name == "take_defensive_action", "{v:?} has no {name}");
                continue; // osr-segments has no defensive action
            };
            let (mut writes, mut expected) = (system.writes.clone(), vec![component.to_string(), "EventLog".into()]);
            writes.sort();
            expected.sort();
            assert_eq!(writes, expected, "{v:?}: {name}");
            assert!(system.reads.iter().any(|r| r == "Combatant"), "{v:?}: {name} names the fighter");
            assert!(
                !system.reads.iter().any(|r| r == "Health" || r == "Position"),
                "{v:?}: {name}: {:?}",
                system.reads
            );
        }
        // The end of the battle reads who is still in the fight from each fighter's side
        // and conditions; the clock's check reads the actor's conditions and economy.
        let find = |set: &str, name: &str| {
            let stage = listing.sets.iter().find(|s| s.name == set).unwrap();
            stage.systems.iter().find(|s| s.name.ends_with(name)).cloned().unwrap()
        };
        // The variants' orders and costs change the actor's own part of the economy alone: a
        // component of the variant's own type.
        let orders = ["declare_charge", "begin_total_defense", "forfeit_other_actions", "spend_action_point"];
        let orders = orders.iter().chain(&["give_abort_order", "declare_intent", "take_major_action"]);
        let settle = listing.sets.iter().find(|s| s.name == "settle").unwrap();
        let found: Vec<_> = resolve
            .systems
            .iter()
            .chain(&settle.systems)
            .filter(|s| orders.clone().any(|o| s.name.ends_with(o)))
            .collect();
        let expected = match v {
            RulesVariant::ApPhases => 4,
            RulesVariant::OsrSegments => 2,
            RulesVariant::HexPhases => 1,
            _ => 0,
        };
        assert_eq!(found.len(), expected, "{v:?}");
        let own = match v {
            RulesVariant::ApPhases => "ActionPoints",
            RulesVariant::OsrSegments => "Declaration",
            _ => "Abort",
        };
        for system in found {
            let wide = system.writes.iter().any(|w| w != own && w != "EventLog");
            assert!(!wide && system.writes.contains(&own.into()), "{v:?}: {} writes {:?}", system.name, system.writes);
        }
        let spend = find("resolve", "spend_budget");
        assert_eq!(spend.writes, ["Economy"], "{v:?}: a command's cost changes the actor's economy only");
        let end = find("settle", "end_if_decided");
        assert_eq!(end.writes, ["Clock", "EventLog", "Record", "Turn"], "{v:?}");
        assert!(end.reads.contains(&"Side".into()) && end.reads.contains(&"Conditions".into()), "{v:?}");
        let clock = listing.sets.iter().find(|s| s.name == "clock").unwrap();
        let spent = clock.systems.iter().find(|s| !s.name.ends_with("run_the_clock")).unwrap();
        assert_eq!(spent.writes, ["TimeMoves"], "{v:?}");
        let mut reads = spent.reads.clone();
        reads.sort();
        assert_eq!(reads, ["Conditions", "Economy", "Turn"], "{v:?}: {}", spent.name);
        // Forty or more systems a variant, each listed once whatever the sets it runs in.
        let names: std::collections::BTreeSet<&str> =
            listing.sets.iter().flat_map(|set| &set.systems).map(|s| s.name.as_str()).collect();
        assert!(names.len() >= 40, "{v:?}: {} systems", names.len());
        // The attack modifiers are read-only systems over the pending attack they are given:
        // eight or more a variant (hex-phases' DCV is gathered part by part, its combat value
        // and its shield, before the 10 is added), two in three reading a combatant component
        // of their own.
        let modifiers = listing.sets.iter().find(|s| s.name == "attack modifiers").unwrap();
        assert!(modifiers.systems.len() >= 8, "{v:?}: {} attack modifiers", modifiers.systems.len());
        if v == RulesVariant::HexPhases {
            let last: Vec<&str> = modifiers.systems.iter().rev().take(3).map(|m| m.name.as_str()).collect();
            assert_eq!(
                last,
                ["hex_phases::ten_plus_dcv", "hex_phases::shield", "hex_phases::defensive_combat_value"],
                "the DCV's parts, then the 10"
            );
        }
        let combatant = ["Stats", "Body", "Wielded", "Conditions", "Bonuses", "Reactions", "Grapple"];
        let reading = modifiers.systems.iter().filter(|m| m.reads.iter().any(|r| combatant.contains(&r.as_str())));
        assert!(reading.count() * 3 >= modifiers.systems.len() * 2, "{v:?}: {:?}", modifiers.systems);
        for m in &modifiers.systems {
            assert!(m.writes.is_empty(), "{v:?}: attack modifier {} writes {:?}", m.name, m.writes);
        }
        // The damage modifiers likewise: the wielder's Strength (none in hex-phases), its own
        // damage bonuses and the untrained penalty, each over components of its own.
        let damage = listing.sets.iter().find(|s| s.name == "damage modifiers").unwrap();
        assert_eq!(damage.systems.len(), if v == RulesVariant::HexPhases { 2 } else { 3 }, "{v:?}");
        assert!(damage.systems.iter().all(|m| m.writes.is_empty() && !m.reads.is_empty()), "{v:?}: {damage:?}");
        for set in listing.sets.into_iter().filter(|s| !s.name.ends_with("modifiers")) {
            for system in set.systems {
                assert!(!system.reads.contains(&"?".into()), "{v:?}: {} has no access listed", system.name);
                assert!(
                    !(system.reads.is_empty() && system.writes.is_empty()),
                    "{v:?}: {} accesses nothing",
                    system.name
                );
            }
        }
    }
}

/// Only the three named drivers take the whole world, under every variant: the walk, the
/// strikes with their harm, and the clock (which takes a dying fighter's turn, opens an
/// opportunity and makes what a window of time set going). A new system taking the world
/// fails this. The check of a command, moves, attacks, maneuvers, standing up, reloading,
/// escapes, ap-phases' advanced actions going on, osr-segments' delay and spells going off,
/// calling the next fighter up, announcing a spell and every window of time are narrow
/// systems and must not appear.
#[test]
fn only_the_named_drivers_take_the_whole_world() {
    let expected = ["make_strike", "run_the_clock", "walk_on"];
    for v in RulesVariant::ALL {
        let listing = Engine::new(v).listing();
        let mut whole: Vec<String> = listing
            .sets
            .iter()
            .flat_map(|set| &set.systems)
            .filter(|s| s.reads.iter().chain(&s.writes).any(|t| t == "World"))
            .map(|s| s.name.rsplit("::").next().unwrap_or(&s.name).trim_end_matches(')').to_string())
            .collect();
        whole.sort_unstable();
        assert_eq!(whole, expected, "{v:?}");
    }
}

/// The combatants' component types, as the listing names them.
const COMBATANT_STATE: [&str; 20] = [
    "Combatant",
    "Side",
    "Position",
    "Body",
    "Reach",
    "Stats",
    "Wielded",
    "Health",
    "Awareness",
    "Conditions",
    "Bonuses",
    "Reactions",
    "Grapple",
    "Spells",
    "Initiative",
    "Economy",
    "ActionPoints",
    "ImmediateAction",
    "Declaration",
    "Abort",
];

/// Each rule system changes at most three kinds of a combatant's state, and enough of them
/// read a combatant through a query of their own that the listing shows the rules one by
/// one. A system that writes four kinds fails this (the positive control below).
#[test]
fn no_rule_system_changes_more_than_three_kinds_of_combatant_state() {
    for v in RulesVariant::ALL {
        let listing = Engine::new(v).listing();
        let systems: Vec<_> = listing.sets.iter().flat_map(|set| &set.systems).collect();
        let kinds = |names: &[String]| names.iter().filter(|n| COMBATANT_STATE.contains(&n.as_str())).count();
        for system in &systems {
            assert!(kinds(&system.writes) <= 3, "{v:?}: {} writes {:?}", system.name, system.writes);
        }
        let readers = systems.iter().filter(|s| kinds(&s.reads) + kinds(&s.writes) > 0).count();
        assert!(readers >= 24, "{v:?}: only {readers} systems read a combatant");
    }
    let wide = ["Conditions", "Reactions", "Bonuses", "Economy"].map(String::from);
    assert_eq!(wide.iter().filter(|n| COMBATANT_STATE.contains(&n.as_str())).count(), 4);
}

/// The validate stage lists the check by its name, piped into the turn, with what it reads
/// (the combatants' components and the battle's resources, never the whole world) and the
/// turn the only thing written.
#[test]
fn the_listing_shows_the_check_piped_into_the_turn() {
    for v in RulesVariant::ALL {
        let listing = Engine::new(v).listing();
        let validate = listing.sets.iter().find(|s| s.name == "validate").expect("a validate stage");
        let [check] = &validate.systems[..] else { panic!("{v:?}: one check, {:?}", validate.systems) };
        assert_eq!(check.name, "judge_command → take_verdict", "{v:?}");
        assert_eq!(check.writes, ["Turn"], "{v:?}");
        assert!(check.reads.iter().any(|r| r == "Position") && !check.reads.iter().any(|r| r == "World"));
    }
}
