//! hex-phases (source 004) from its own words: attacks of opportunity for leaving a
//! threatened hex (one per phase, none after a dodge), the surprise phase (a single action,
//! −3 DCV for the unaware), attack and move in one phase, post-turn recovery.
//! Hexes are odd-r: (4,3)'s neighbours include (3,3) and (5,3). The goblin (Dex 15, CV 5)
//! acts before the fighters (Dex 13, CV 4) in every phase.

use super::*;
use fivefoot::grid::GridPos;
use fivefoot::rules::Conditions;

fn hex(units: Vec<UnitDef>, seed: u64) -> BattleWorld {
    battle(units, RulesVariant::HexPhases, seed)
}

fn two_fighters_and_a_goblin() -> BattleWorld {
    hex(
        vec![
            unit("h1", "blue", (3, 3), "human_fighter", None),
            unit("h2", "blue", (5, 3), "human_fighter", None),
            unit("gob", "red", (4, 3), "goblin", None),
        ],
        2,
    )
}

/// Plays the current phase: each fighter does what `act` says for it, then ends its turn.
fn play_phase(b: &mut BattleWorld, mut act: impl FnMut(&mut BattleWorld, &str)) {
    let phase = (b.clock().round, b.clock().phase);
    while (b.clock().round, b.clock().phase) == phase {
        let a = b.actor().expect("battle on");
        let id = b.read().fighters.combatant[a].id.clone();
        act(b, &id);
        if b.actor() == Some(a) {
            b.execute(Command::EndTurn).unwrap();
        }
    }
}

fn opportunities(b: &BattleWorld) -> Vec<String> {
    b.events()
        .iter()
        .filter_map(|e| match e {
            CombatEvent::AttackOfOpportunity { by, target, .. } if by == "gob" => Some(target.clone()),
            _ => None,
        })
        .collect()
}

fn to(x: i32, y: i32) -> Command {
    Command::Move { to: GridPos::new(x, y) }
}

/// "Moving out of a threatened hex usually provokes an attack of opportunity"; "you can only
/// make one per Phase": two fighters leave the goblin in phase 1, one is attacked; in phase 2
/// a fighter leaving it again is attacked again.
#[test]
fn hex_leaving_a_threatened_hex_provokes_one_attack_of_opportunity_per_phase() {
    let mut b = two_fighters_and_a_goblin();
    play_phase(&mut b, |b, id| match id {
        "h1" => b.execute(to(1, 3)).unwrap(),
        "h2" => b.execute(to(7, 3)).unwrap(),
        _ => {}
    });
    assert_eq!(opportunities(&b).len(), 1, "one per phase: {:?}", opportunities(&b));
    // Phase 2: h1 comes back and leaves again with its second move action.
    play_phase(&mut b, |b, id| {
        if id == "h1" {
            b.execute(to(3, 3)).unwrap();
            b.execute(to(1, 3)).unwrap();
        }
    });
    let o = opportunities(&b);
    assert_eq!(o.len(), 2, "a new phase, a new attack of opportunity: {o:?}");
    assert_eq!(o[1], "h1");
}

/// "you cannot make an attack of opportunity if you have used the dodge manoeuvre".
#[test]
fn hex_a_dodging_fighter_makes_no_attack_of_opportunity() {
    for dodge in [false, true] {
        let mut b = two_fighters_and_a_goblin();
        play_phase(&mut b, |b, id| match id {
            "gob" if dodge => b.execute(Command::Defend).unwrap(),
            "h1" => b.execute(to(1, 3)).unwrap(),
            _ => {}
        });
        assert_eq!(opportunities(&b).len(), usize::from(!dodge), "dodge: {dodge}");
    }
}

/// "a 1-hex step never provokes an attack of opportunity" (the move above is the control).
#[test]
fn hex_a_1_hex_step_out_of_a_threatened_hex_provokes_nothing() {
    let mut b = two_fighters_and_a_goblin();
    play_phase(&mut b, |b, id| {
        if id == "h1" {
            b.execute(Command::Step { to: GridPos::new(2, 3) }).unwrap();
        }
    });
    assert_eq!(b.read().fighters.position[b.index_of("h1").unwrap()].0, GridPos::new(2, 3));
    assert!(opportunities(&b).is_empty());
}

/// "In a normal Phase, you can perform an attack action and a move action, two move
/// actions"; in the Surprise Phase "each take an attack action or a move action", and the
/// unaware "have a -3 DCV penalty during that Phase".
#[test]
fn hex_the_surprise_phase_allows_one_action_at_minus_3_dcv_and_a_normal_phase_attack_and_move() {
    let mut gob = unit("gob", "red", (5, 3), "goblin", None);
    gob.aware = Some(false);
    let mut b = hex(vec![unit("h1", "blue", (4, 3), "human_fighter", None), gob], 4);
    assert_eq!(b.clock().phase, 0, "a surprise phase");
    let (h, g) = (b.index_of("h1").unwrap(), b.index_of("gob").unwrap());
    assert_eq!(b.actor(), Some(h), "only the aware act in it");
    let unaware = b.attack_profile(h, g, &AttackKind::Primary, &Default::default());
    assert!(unaware.modifiers.iter().any(|m| m.source == "target unaware (-3 DCV)" && m.value == 3));
    b.execute(Command::Attack { target: "gob".into() }).unwrap();
    if b.actor() == Some(h) && b.clock().phase == 0 {
        let e = b.validate(&to(3, 3)).unwrap_err();
        assert!(e.reason.contains("single action"), "{}", e.reason);
        b.execute(Command::EndTurn).unwrap();
    }
    // Phase 1: no longer unaware; attack, then move: attack and move; no second move.
    until(&mut b, "h1", |b| b.clock().phase == 1);
    let aware = b.attack_profile(h, g, &AttackKind::Primary, &Default::default());
    assert!(!aware.modifiers.iter().any(|m| m.source.contains("unaware")));
    b.execute(Command::Attack { target: "gob".into() }).unwrap();
    b.execute(to(3, 3)).unwrap();
    assert_eq!(b.read().fighters.position[h].0, GridPos::new(3, 3));
    // Nothing is left: the turn has passed on, or a second move is refused.
    if b.actor() == Some(h) {
        let e = b.validate(&to(2, 3)).unwrap_err();
        assert!(e.reason.contains("no move action left"), "{}", e.reason);
    }
}

/// "After every Phase 4 … Post-Turn … most characters automatically get to Take a Recovery":
/// a Stunned goblin stays stunned through phase 4 and recovers after it.
#[test]
fn hex_post_turn_recovery_comes_after_phase_4() {
    let mut b = two_fighters_and_a_goblin();
    let g = b.index_of("gob").unwrap();
    b.scene().fighter::<Conditions>(g).add(Condition::Stunned);
    for phase in 1..=4 {
        assert_eq!((b.clock().round, b.clock().phase), (1, phase));
        assert!(b.read().fighters.conditions[g].has(Condition::Stunned), "phase {phase}");
        play_phase(&mut b, |_, _| {});
    }
    assert_eq!((b.clock().round, b.clock().phase), (2, 1));
    assert!(!b.read().fighters.conditions[g].has(Condition::Stunned), "recovered in the post-turn");
}
