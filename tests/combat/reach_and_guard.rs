//! Behaviours of the tactical AI's portfolio, each on a small field where the right move
//! is clear: a reach weapon keeping a foe at its reach ring, a unit shielding its side's
//! caster, a swordsman closing under cover, and a unit waiting for the foes with an attack
//! held for them.

use super::tactical::{next_deed, next_such};
use super::*;
use fivefoot::combat::ai::Behaviour;

/// "Spear users keep foes at the reach ring": a longspear cannot strike the goblin beside
/// it, so it steps back ("a five-foot step ... provokes no attacks of opportunity") to
/// where the goblin stands in its reach, and strikes from there; under every variant whose
/// step may be taken in melee and whose longspear cannot strike beside it. Greedy, for
/// contrast, walks to such a square with a move, drawing the goblin's attack.
#[test]
fn a_longspear_steps_back_to_strike_a_foe_too_close() {
    let mut checked = 0;
    for v in RulesVariant::ALL.into_iter().filter(|v| v.grid().step.in_melee) {
        let units = vec![unit("pike", "blue", (4, 3), "spearman", None), unit("gob", "red", (5, 3), "goblin", None)];
        let mut b = battle(units, v, 5);
        let pike = b.index_of("pike").unwrap();
        let gap = b.read().reach_band(b.read().fighters.at(pike)).and_then(|band| band.inner_ft);
        if gap.is_none() {
            continue; // this variant's longspear strikes a foe beside it
        }
        let keep = |b: &mut BattleWorld, a| Behaviour::KeepReach.command(&b.read(), a);
        let cmd = next_deed(&mut b, "pike", &mut { keep });
        assert!(matches!(cmd, Command::Step { .. }), "{v}: a step back, not {cmd:?}");
        let plain = Behaviour::Greedy.command(&b.read(), pike);
        assert!(matches!(plain, Command::Move { .. }), "{v}: greedy walks off: {plain:?}");
        let before = b.stats().attacks_of_opportunity;
        b.execute(cmd.clone()).unwrap();
        assert_eq!(b.stats().attacks_of_opportunity, before, "{v}: {cmd:?} drew an attack of opportunity");
        let strike = next_deed(&mut b, "pike", &mut { keep });
        assert!(
            matches!(&strike, Command::Attack { target } | Command::FullAttack { target } if target == "gob"),
            "{v}: from the ring it strikes the goblin: {strike:?}"
        );
        checked += 1;
    }
    assert!(checked >= 2, "the rule was checked under {checked} variants");
}

/// "Protecting wounded and casters": a goblin is closing on the side's mage, another stands
/// nearer the fighter. Greedy closes with the nearer goblin; the guard closes on the one by
/// the mage, and strikes it once in reach; with no ally in need it is close-and-strike.
#[test]
fn the_guard_goes_for_the_foe_nearest_its_caster() {
    for v in RulesVariant::ALL {
        let units = vec![
            unit("mage", "blue", (1, 1), "war_mage", None),
            unit("fighter", "blue", (6, 5), "human_fighter", None),
            unit("raider", "red", (2, 2), "goblin", None),
            unit("other", "red", (8, 5), "goblin", None),
        ];
        let mut b = battle(units, v, 5);
        let guard = |b: &mut BattleWorld, a| Behaviour::Guard.command(&b.read(), a);
        let cmd = next_deed(&mut b, "fighter", &mut { guard });
        let fighter = b.index_of("fighter").unwrap();
        let plain = Behaviour::Greedy.command(&b.read(), fighter);
        let Command::Move { to } = cmd else { panic!("{v}: the guard moves: {cmd:?}") };
        let at = |id: &str| b.read().fighters.position[b.index_of(id).unwrap()].0;
        let (raider, other) = (at("raider"), at("other"));
        let gap = |p: GridPos, q: GridPos| (p.x - q.x).abs().max((p.y - q.y).abs());
        assert!(gap(to, raider) < gap(at("fighter"), raider), "{v}: towards the raider: {to:?}");
        assert!(
            !matches!(&plain, Command::Move { to: p } if gap(*p, raider) < gap(*p, other)),
            "{v}: greedy goes for the nearer goblin: {plain:?}"
        );
        // No ally in need: the guard has no one to shield and closes and strikes.
        let alone =
            vec![unit("fighter", "blue", (6, 5), "human_fighter", None), unit("other", "red", (8, 5), "goblin", None)];
        let mut b = battle(alone, v, 5);
        let cmd = next_deed(&mut b, "fighter", &mut { guard });
        let fighter = b.index_of("fighter").unwrap();
        assert_eq!(cmd, Behaviour::Greedy.command(&b.read(), fighter), "{v}");
    }
}

/// "Melee units avoid standing in a foe archer's open line": a swordsman far from a foe
/// archer, a low wall off the straight way between them. Closing in, the swordsman
/// ends its move behind the low wall, with cover from the archer, nearer than it was;
/// greedy, for contrast, closes in the open.
#[test]
fn a_swordsman_closes_on_an_archer_by_the_square_with_cover() {
    let rows = [
        "....................",
        "....................",
        "....................",
        "....................",
        "....................",
        ".......=............",
        ".......=............",
    ];
    for v in RulesVariant::ALL {
        let units = vec![
            unit("blade", "blue", (2, 3), "human_fighter", None),
            unit("bow", "red", (18, 3), "human_archer", None),
        ];
        let mut b = battle_on(&rows, units, v, 4);
        let (me, bow) = (b.index_of("blade").unwrap(), b.index_of("bow").unwrap());
        let advance = |b: &mut BattleWorld, a| Behaviour::CoveredAdvance.command(&b.read(), a);
        let cmd = next_deed(&mut b, "blade", &mut { advance });
        let Command::Move { to } = cmd else { panic!("{v}: it moves: {cmd:?}") };
        let plain = Behaviour::Greedy.command(&b.read(), me);
        let start = b.read().fighters.position[me].0;
        let cover_at = |b: &mut BattleWorld, p: GridPos| {
            b.scene().fighter::<fivefoot::rules::Position>(me).0 = p;
            let read = b.read();
            fivefoot::rules::cover_between(&read.view(), bow, me, false).cover
        };
        assert!((to.x - 18).abs() < (start.x - 18).abs(), "{v}: nearer the archer: {to:?}");
        assert_ne!(cover_at(&mut b, to), fivefoot::rules::CoverKind::None, "{v}: behind the low wall at {to:?}");
        let Command::Move { to: open } = plain else { panic!("{v}: greedy moves: {plain:?}") };
        assert_eq!(cover_at(&mut b, open), fivefoot::rules::CoverKind::None, "{v}: greedy closes in the open");
    }
}

/// Held actions (d20-classic's readied attack, four-actions' hold, hex-phases' held action):
/// a unit waiting for the foes to come holds an attack for the first foe to come into its
/// reach, where the variant has one, and that attack lands before the foe's own; where the
/// variant has none it ends its turn. Greedy, for contrast, goes out to meet the goblin.
#[test]
fn a_unit_waiting_for_the_foes_holds_an_attack_for_the_first_to_come() {
    let mut held = 0;
    for v in RulesVariant::ALL {
        let units =
            vec![unit("hero", "blue", (2, 3), "human_fighter", None), unit("gob", "red", (7, 3), "goblin", None)];
        let mut b = battle(units, v, 5);
        let hero = b.index_of("hero").unwrap();
        let wait = |b: &mut BattleWorld, a| Behaviour::Hold.command(&b.read(), a);
        let cmd = next_such(&mut b, "hero", &mut { wait }, |c| matches!(c, Command::Hold { .. } | Command::EndTurn));
        let plain = Behaviour::Greedy.command(&b.read(), hero);
        assert!(matches!(plain, Command::Move { .. } | Command::Charge { .. }), "{v}: greedy goes out: {plain:?}");
        if !b.read().allows(&Command::Hold { target: None }) {
            assert_eq!(cmd, Command::EndTurn, "{v}: no held action here, so it waits");
            continue;
        }
        assert_eq!(cmd, Command::Hold { target: None }, "{v}");
        // The goblin comes on as greedy plays it; the hero waits as it did.
        let gob_struck = |b: &BattleWorld| {
            b.events().iter().position(|e| matches!(e, CombatEvent::Attack { attacker, .. } if attacker == "gob"))
        };
        for _ in 0..60 {
            if gob_struck(&b).is_some() || b.is_over() {
                break;
            }
            let a = b.actor().expect("battle on");
            let cmd = if a == hero { wait(&mut b, a) } else { fivefoot::combat::ai::greedy(&b.read(), a) };
            if b.execute(cmd).is_err() {
                b.execute(Command::EndTurn).unwrap();
            }
        }
        let held_at = b.events().iter().position(
            |e| matches!(e, CombatEvent::Action { unit, action, detail } if unit == "hero" && action == "held attack" && detail == "triggered by gob"),
        );
        let held_at = held_at.unwrap_or_else(|| panic!("{v}: the held attack struck the goblin as it came"));
        assert!(gob_struck(&b).is_none_or(|g| held_at < g), "{v}: the held attack lands before the goblin's");
        held += 1;
    }
    assert!(held >= 3, "held attacks were checked under {held} variants");
}

/// Four-actions: "Creatures with Cover cannot be targeted." A spearman with a goblin in its
/// reach but an ally between them cannot thrust past the ally. A line with nothing of its own
/// to do here (hold, as the fight has begun) falls back on closing and striking, and then,
/// rather than end its turn, moves to a square with a clear line (by a step where one will
/// do) and strikes from there. Greedy, for contrast, ends its turn where it stands.
#[test]
fn a_spearman_shielded_from_its_foe_by_an_ally_moves_to_a_clear_line() {
    let v = RulesVariant::FourActions;
    let units = vec![
        unit("pike", "blue", (2, 3), "spearman", None),
        unit("ally", "blue", (3, 3), "human_fighter", None),
        unit("gob", "red", (4, 3), "goblin", None),
    ];
    let mut b = battle(units, v, 5);
    let line = |b: &mut BattleWorld, a| Behaviour::Hold.command(&b.read(), a);
    let first = next_such(&mut b, "pike", &mut { line }, |_| true);
    let pike = b.index_of("pike").unwrap();
    let refused = b.read().check_command(&Command::Attack { target: "gob".into() }).unwrap_err().to_string();
    assert!(refused.contains("cannot be targeted"), "the ally shields the goblin: {refused}");
    assert_eq!(Behaviour::Greedy.command(&b.read(), pike), Command::EndTurn, "greedy waits where it stands");
    assert!(matches!(first, Command::Step { .. } | Command::Move { .. }), "to a clear line: {first:?}");
    b.execute(first.clone()).unwrap();
    let strike = line(&mut b, pike);
    assert!(
        matches!(&strike, Command::Attack { target } | Command::FullAttack { target } if target == "gob"),
        "from {first:?} it strikes the goblin: {strike:?}"
    );
    assert!(b.read().allows(&strike), "{strike:?} is legal there");
}
