//! The rules run in the middle of a strike, as the listing shows them: hex-phases' abort to
//! a dodge before an attack, ap-phases' and osr-segments' concentration, ap-phases' advanced
//! action lost on dropping, and what the attacks a casting drew do to the caster's hold on
//! its spell (the d20 family's concentration, four-actions' interruption). Each is a system of the variant's plugin over the components it
//! names, never the whole world; a variant without the rule lists no such step.

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

#[test]
fn the_rules_in_the_middle_of_a_strike_are_narrow_systems_of_their_variants() {
    assert_eq!(
        set(RulesVariant::HexPhases, "strikes: before an attack"),
        owned(&[("hex_phases::abort_to_dodge", &["Abort", "Bonuses", "Clock", "EventLog"])])
    );
    assert_eq!(
        set(RulesVariant::ApPhases, "harm: concentration"),
        owned(&[("ap_phases::concentration_when_hurt", &["ActionPoints", "Dice", "EventLog"])])
    );
    assert_eq!(
        set(RulesVariant::OsrSegments, "harm: concentration"),
        owned(&[("osr_segments::concentration_broken", &["Declaration", "EventLog", "Spells"])])
    );
    assert_eq!(
        set(RulesVariant::ApPhases, "harm: dropped"),
        owned(&[("ap_phases::advanced_action_lost", &["ActionPoints", "EventLog"])])
    );
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
    for v in RulesVariant::ALL {
        for (name, with) in [
            ("strikes: before an attack", [RulesVariant::HexPhases].as_slice()),
            ("harm: concentration", &[RulesVariant::ApPhases, RulesVariant::OsrSegments]),
            ("harm: dropped", &[RulesVariant::ApPhases]),
            ("strikes: casting", &[RulesVariant::ApPhases, RulesVariant::FourActions, RulesVariant::D20Classic]),
        ] {
            assert_eq!(!set(v, name).is_empty(), with.contains(&v), "{v:?}: {name}");
        }
    }
}
