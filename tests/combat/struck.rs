//! The rules run in the middle of a strike, as the listing shows them: hex-phases' abort to
//! a dodge and d20-classic's shot into a grapple before an attack; the attack roll; the
//! harm pipeline with ap-phases' and osr-segments' concentration, d20-classic's massive
//! damage and ap-phases' advanced action lost on dropping; osr-segments' concentration
//! broken by a free attack; what the attacks a casting drew do to the caster's hold on its
//! spell (the d20 family's concentration, four-actions' interruption); and each variant's
//! check of a combat maneuver. Each is a system over the components it names, never the
//! whole world; a variant without the rule lists no such step.

use super::*;
use fivefoot::combat::engine::Engine;

/// The systems of `set` under `v`, each with what it writes (sorted), as Bevy computed it.
fn set(v: RulesVariant, set: &str) -> Vec<(String, Vec<String>)> {
    let listing = Engine::new(v).listing();
    let Some(found) = listing.sets.into_iter().find(|s| s.name == set) else { return vec![] };
    found
        .systems
        .into_iter()
        .map(|s| {
            assert!(!s.reads.iter().chain(&s.writes).any(|t| t == "World"), "{v:?}: {} takes the world", s.name);
            let mut writes = s.writes;
            writes.sort();
            (s.name, writes)
        })
        .collect()
}

fn owned(pairs: &[(&str, &[&str])]) -> Vec<(String, Vec<String>)> {
    pairs.iter().map(|(n, w)| (n.to_string(), w.iter().map(|s| s.to_string()).collect())).collect()
}

/// An attack roll, a maneuver's check and a wound name their fighters by entity (a grapple
/// names the other grappler by entity too, and the strike stack its strikers): their
/// systems reach them through their own queries, never through the seats.
#[test]
fn an_attack_and_a_wound_name_their_fighters_by_entity() {
    for v in RulesVariant::ALL {
        let listing = Engine::new(v).listing();
        for name in ["strikes: before an attack", "strikes: attack roll", "strikes: maneuver check", "harm"] {
            for system in listing.sets.iter().filter(|s| s.name == name).flat_map(|s| &s.systems) {
                assert!(!system.reads.iter().any(|t| t == "Combatants"), "{v:?}: {} reads the seats", system.name);
            }
        }
    }
}

/// Carrying a command out, settling it, calling the next fighter up and taking a dying
/// one's turn name fighters by entity too (the command in flight, the clock, the strike
/// stack, a walk): none of those systems reads the seats but four-actions' grapple contest
/// (the grid rules weigh its push by seat) and a held action's move in the initiative order
/// (sorted again in id order).
#[test]
fn a_command_and_the_clock_name_their_fighters_by_entity() {
    let sets = ["resolve", "settle", "clock: next up", "clock: dying turn", "strikes: casting", "strikes: taken"];
    let by_seat = [
        "four_actions::grapple_contest",
        "d20_classic::held_action_goes_after_trigger",
        "hex_phases::held_action_goes_before_trigger",
    ];
    for v in RulesVariant::ALL {
        let listing = Engine::new(v).listing();
        for system in listing.sets.iter().filter(|s| sets.contains(&s.name.as_str())).flat_map(|s| &s.systems) {
            let reads_seats = system.reads.iter().any(|t| t == "Combatants");
            assert_eq!(reads_seats, by_seat.contains(&system.name.as_str()), "{v:?}: {}", system.name);
        }
    }
}

#[test]
fn the_rules_in_the_middle_of_a_strike_are_narrow_systems_of_their_variants() {
    assert_eq!(
        set(RulesVariant::HexPhases, "strikes: before an attack"),
        owned(&[("hex_phases::abort_to_dodge", &["Abort", "Bonuses", "Clock", "EventLog"])])
    );
    assert_eq!(
        set(RulesVariant::D20Classic, "strikes: before an attack"),
        owned(&[("d20_classic::shot_into_grapple", &["Dice", "EventLog", "UnderAttack"])])
    );
    // An attack roll is the same systems under every variant: the die, then a threat made
    // a critical, neither with a combatant component to change.
    for v in RulesVariant::ALL {
        assert_eq!(
            set(v, "strikes: attack roll"),
            owned(&[
                ("schedule::attack_rolled", &["Dice", "EventLog", "Record", "Swing"]),
                ("schedule::threat_confirmed", &["Dice", "EventLog", "Record", "Swing"]),
            ]),
            "{v:?}"
        );
    }
    assert_eq!(
        set(RulesVariant::OsrSegments, "strikes: free attack made"),
        owned(&[("osr_segments::concentration_broken", &["Declaration", "EventLog", "Spells"])])
    );
    // Harm is the same systems under every variant, over the hurt fighter's own components
    // (a weapon's damage rolled first), with each variant's own steps where its source has
    // them: ap-phases' and osr-segments' concentration after the hit points are lost,
    // d20-classic's massive damage before the fighter may fall, and ap-phases' advanced
    // action lost after the dropping fighter's grapple is released and before it falls.
    let rolled = ("schedule::damage_rolled", ["Dice", "Harm", "Record"].as_slice());
    let lost = ("schedule::hit_points_lost", ["EventLog", "Harm", "Health"].as_slice());
    let knocked_out = ("schedule::knocked_out_by_nonlethal", ["Conditions", "Derived", "EventLog"].as_slice());
    let drops = ("schedule::drops_or_not", ["Harm", "Health"].as_slice());
    let released = ("schedule::grapple_released", ["Conditions", "Derived", "EventLog", "Grapple"].as_slice());
    let falls = ("schedule::falls", ["Conditions", "Derived", "EventLog", "Health"].as_slice());
    let dead_or_dying = ("schedule::dead_or_dying", ["Conditions", "Derived", "EventLog"].as_slice());
    let common = |own: &[(&'static str, &'static [&'static str])],
                  after_release: Option<(&'static str, &'static [&'static str])>| {
        let mut steps = vec![rolled, lost];
        steps.extend(own.iter().copied());
        steps.extend([knocked_out, drops, released]);
        steps.extend(after_release);
        steps.extend([falls, dead_or_dying]);
        owned(&steps)
    };
    let hurt_ap = ("ap_phases::concentration_when_hurt", ["ActionPoints", "Dice", "EventLog"].as_slice());
    let advanced_lost = ("ap_phases::advanced_action_lost", ["ActionPoints", "EventLog"].as_slice());
    let hurt_osr = ("osr_segments::concentration_broken_when_hurt", ["Declaration", "EventLog", "Spells"].as_slice());
    let massive = ("d20_classic::massive_damage", ["Dice", "EventLog", "Harm", "Health"].as_slice());
    assert_eq!(set(RulesVariant::ApPhases, "harm"), common(&[hurt_ap], Some(advanced_lost)));
    assert_eq!(set(RulesVariant::OsrSegments, "harm"), common(&[hurt_osr], None));
    assert_eq!(set(RulesVariant::D20Classic, "harm"), common(&[massive], None));
    for v in [RulesVariant::FourActions, RulesVariant::HexPhases] {
        assert_eq!(set(v, "harm"), common(&[], None), "{v:?}");
    }
    for v in [RulesVariant::ApPhases, RulesVariant::D20Classic] {
        assert_eq!(
            set(v, "strikes: casting"),
            owned(&[("concentration_while_casting", &["CastingTried", "Dice", "EventLog"])])
        );
    }
    assert_eq!(
        set(RulesVariant::FourActions, "strikes: casting"),
        owned(&[("four_actions::interrupted_by_a_reaction", &["CastingTried", "EventLog"])])
    );
    assert_eq!(
        set(RulesVariant::ApPhases, "strikes: maneuver check"),
        owned(&[("ap_phases::check_against_cmd", &["ActionPoints", "Dice", "EventLog", "ManeuverTried"])])
    );
    assert_eq!(
        set(RulesVariant::D20Classic, "strikes: maneuver check"),
        owned(&[("d20_classic::touch_attack_then_opposed_check", &["Dice", "EventLog", "ManeuverTried"])])
    );
    assert_eq!(
        set(RulesVariant::FourActions, "strikes: maneuver check"),
        owned(&[("four_actions::athletics_against_reflex", &["Dice", "EventLog", "ManeuverTried", "StrikeStack"])])
    );
    for v in RulesVariant::ALL {
        for (name, with) in [
            ("strikes: before an attack", [RulesVariant::HexPhases, RulesVariant::D20Classic].as_slice()),
            ("strikes: free attack made", &[RulesVariant::OsrSegments]),
            ("strikes: maneuver check", &[RulesVariant::ApPhases, RulesVariant::FourActions, RulesVariant::D20Classic]),
            ("strikes: casting", &[RulesVariant::ApPhases, RulesVariant::FourActions, RulesVariant::D20Classic]),
        ] {
            assert_eq!(!set(v, name).is_empty(), with.contains(&v), "{v:?}: {name}");
        }
    }
}

/// Where each step of a maneuver lands in the log: d20-classic's trip "provokes an attack
/// of opportunity from the target" before its touch attack; four-actions' failed maneuver
/// draws the target's reaction after the Reflex save that beat it, and a won one draws
/// none (the control); ap-phases' check against CMD draws nothing.
#[test]
fn a_maneuver_draws_its_attacks_where_the_sources_put_them() {
    let position = |b: &BattleWorld, f: &dyn Fn(&CombatEvent) -> bool| b.events().iter().position(f);
    let drawn = |trigger: &'static str| move |e: &CombatEvent| matches!(e, CombatEvent::AttackOfOpportunity { trigger: t, .. } if t == trigger);
    let units =
        || vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (4, 3), "goblin", None)];
    let mut b = battle(units(), RulesVariant::D20Classic, 3);
    until(&mut b, "hero", |b| b.read().fighters.awareness[b.index_of("gob").unwrap()].has_acted);
    let from = b.events().len();
    b.execute(Command::Trip { target: "gob".into() }).unwrap();
    let aoo = position(&b, &drawn("tries a trip")).expect("the goblin strikes first");
    let touch = position(&b, &|e| matches!(e, CombatEvent::Attack { kind, .. } if kind == "trip (touch attack) on"));
    assert!(aoo >= from && touch.is_some_and(|t| t > aoo), "{:?}", &b.events()[from..]);
    let (mut failed, mut won) = (false, false);
    for seed in 1..60 {
        let mut b = battle(units(), RulesVariant::FourActions, seed);
        until(&mut b, "hero", |_| true);
        let from = b.events().len();
        b.execute(Command::Trip { target: "gob".into() }).unwrap();
        let save = position(&b, &|e| matches!(e, CombatEvent::Save { kind, .. } if kind.contains("Athletics")));
        let save = save.expect("a Reflex save against the hero's Athletics");
        let beaten = matches!(&b.events()[save], CombatEvent::Save { success: true, .. });
        match position(&b, &drawn("fails a trip")) {
            Some(reaction) => assert!(beaten && reaction > save && save >= from, "seed {seed}"),
            None => assert!(!beaten || !b.read().fighters.conditions[1].can_act(), "seed {seed}"),
        }
        failed |= beaten;
        won |= !beaten;
    }
    assert!(failed && won, "both outcomes were seen");
    let mut b = battle(units(), RulesVariant::ApPhases, 3);
    until(&mut b, "hero", |b| b.validate(&Command::Trip { target: "gob".into() }).is_ok());
    b.execute(Command::Trip { target: "gob".into() }).unwrap();
    assert_eq!(count(&b, |e| matches!(e, CombatEvent::Attack { kind, .. } if kind == "trip (combat maneuver) on")), 1);
    assert_eq!(count(&b, |e| matches!(e, CombatEvent::AttackOfOpportunity { .. })), 0);
}

/// What a command would provoke is asked of the same pipeline, the attacks noted instead of
/// rolled: a d20-classic trip names its target ("tries a trip"); casting next to a foe
/// names the foe ("casts a spell") where casting provokes (d20-classic) and nobody where it
/// does not (hex-phases), nor when the spell is cast defensively (the controls).
#[test]
fn the_preview_of_a_maneuver_or_a_casting_names_who_would_strike() {
    let units =
        || vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (4, 3), "goblin", None)];
    let mut b = battle(units(), RulesVariant::D20Classic, 3);
    until(&mut b, "hero", |b| b.read().fighters.awareness[b.index_of("gob").unwrap()].has_acted);
    let seen = b.provocations(&Command::Trip { target: "gob".into() });
    let gob = b.index_of("gob").unwrap();
    assert_eq!(seen.iter().map(|p| (p.by, p.trigger.as_str())).collect::<Vec<_>>(), [(gob, "tries a trip")]);
    let casters = || vec![unit("mage", "blue", (3, 3), "war_mage", None), unit("gob", "red", (4, 3), "goblin", None)];
    let cast = |defensive| Command::Cast { spell: "magic_missile".into(), target: "gob".into(), defensive };
    for (v, defensive, drawn) in
        [(RulesVariant::D20Classic, false, 1), (RulesVariant::D20Classic, true, 0), (RulesVariant::HexPhases, false, 0)]
    {
        let mut b = battle(casters(), v, 3);
        until(&mut b, "mage", |b| b.validate(&cast(defensive)).is_ok());
        let seen = b.provocations(&cast(defensive));
        assert_eq!(seen.len(), drawn, "{v:?}, defensive {defensive}: {seen:?}");
        assert!(seen.iter().all(|p| p.trigger == "casts a spell"), "{seen:?}");
    }
}
