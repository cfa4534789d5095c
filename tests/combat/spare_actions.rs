//! The tactical AI spends the actions its turn leaves over where they pay. Four-actions:
//! "Focus: Gain a +1 bonus on Attack and Damage rolls … for 1 round" (a quick action), worth
//! more to a fighter beside an ogre than its quick action's attack at −10 ("(Tertiary)
//! Attack … always apply a -10 penalty"); and before a turn ends with them unspent, "Guard …
//! adding a +2 bonus on AC … for 1 round" (a move action) and a focus. The greedy AI attacks
//! with every action it has.

use super::*;
use fivefoot::combat::ai::{Ai, Difficulty, Tactical};
use fivefoot::combat::command::Stance;

/// The commands the tactical AI (normal) gives for `id` through its first opportunity, with
/// their reasons, every other unit ending its turns.
fn first_opportunity(b: &mut BattleWorld, id: &str) -> Vec<(Command, String)> {
    let mut brain = Tactical::new(Difficulty::Normal);
    let mut given = Vec::new();
    for _ in 0..40 {
        let a = b.actor().expect("battle on");
        if b.read().fighters.combatant[a].id != id {
            if !given.is_empty() {
                break;
            }
            b.execute(Command::EndTurn).unwrap();
            continue;
        }
        let cmd = brain.decide(b, a);
        given.push((cmd.clone(), brain.reason().unwrap_or_default().to_string()));
        if b.execute(cmd).is_err() {
            b.execute(Command::EndTurn).unwrap();
        }
    }
    given
}

/// The commands greedy gives for `id` through its first opportunity.
fn greedy_opportunity(b: &mut BattleWorld, id: &str) -> Vec<Command> {
    let me = b.index_of(id).unwrap();
    until(b, id, |_| true);
    let mut given = Vec::new();
    while b.actor() == Some(me) && given.len() < 8 {
        let cmd = fivefoot::combat::ai::greedy(&b.read(), me);
        given.push(cmd.clone());
        if cmd == Command::EndTurn || b.execute(cmd).is_err() {
            break;
        }
    }
    given
}

/// The modifiers of each attack `id` rolled, by source.
fn rolled_with(b: &BattleWorld, id: &str) -> Vec<Vec<(String, i32)>> {
    b.events()
        .iter()
        .filter_map(|e| match e {
            CombatEvent::Attack { attacker, modifiers, .. } if attacker == id => {
                Some(modifiers.iter().map(|m| (m.source.clone(), m.value)).collect())
            }
            _ => None,
        })
        .collect()
}

/// The hero beside `foe`, which holds `weapon` (its own if none).
fn duel(v: RulesVariant, foe: &str, weapon: Option<&str>) -> BattleWorld {
    let hero = common::unit("hero", "blue", (3, 3), "human_fighter");
    let foe = match weapon {
        Some(weapon) => common::armed("foe", "red", (4, 3), foe, weapon),
        None => common::unit("foe", "red", (4, 3), foe),
    };
    battle(vec![hero, foe], v, 5)
}

/// Under four-actions a foe with a weapon to drop is disarmed first (see
/// `a_four_actions_fighter_disarms_a_foe_with_a_weapon_to_drop`): the spare actions are
/// weighed against one that fights with a bite, which nothing can take from it.
const NOTHING_TO_DROP: Option<&str> = Some("bite");

/// The hero's first opportunity beside `foe` (holding `weapon`, or its own) under `v`, as
/// the tactical AI plays it: the battle after it, and each command given with its reason.
fn hero_against(v: RulesVariant, foe: &str, weapon: Option<&str>) -> (BattleWorld, Vec<(Command, String)>) {
    let mut b = duel(v, foe, weapon);
    let given = first_opportunity(&mut b, "hero");
    (b, given)
}

fn commands(given: &[(Command, String)]) -> Vec<Command> {
    given.iter().map(|(c, _)| c.clone()).collect()
}

/// Four-actions, a fighter against another: its attack at −10 is worth less than +1 on its
/// two other strikes, so it focuses first and strikes twice, each roll with the focus.
/// Greedy strikes three times, the last at −10.
#[test]
fn a_fighter_focuses_before_it_strikes_rather_than_attack_at_minus_ten() {
    let (b, given) = hero_against(RulesVariant::FourActions, "human_fighter", NOTHING_TO_DROP);
    let strike = Command::Attack { target: "foe".into() };
    assert_eq!(commands(&given), vec![Command::Focus, strike.clone(), strike.clone()], "{given:#?}");
    assert!(given[0].1.contains("focuses first (+1 to attack, +1 damage)"), "{}", given[0].1);
    let focused = rolled_with(&b, "hero").iter().filter(|m| m.contains(&("focus".to_string(), 1))).count();
    assert_eq!(focused, 2);
    let plain = greedy_opportunity(&mut duel(RulesVariant::FourActions, "human_fighter", NOTHING_TO_DROP), "hero");
    assert_eq!(plain, vec![strike.clone(), strike.clone(), strike], "greedy: {plain:?}");
}

/// Four-actions: "The creature makes an [Athletics] check against its target's Reflex
/// save, if successful the target drops a held object(s)", and nothing here picks it up.
/// Beside a fighter with a longsword, the tactical AI tries that first (greedy only ever
/// strikes), and says so.
#[test]
fn a_four_actions_fighter_disarms_a_foe_with_a_weapon_to_drop() {
    let (_, given) = hero_against(RulesVariant::FourActions, "human_fighter", None);
    assert_eq!(given[0].0, Command::Disarm { target: "foe".into() }, "{given:#?}");
    assert!(given[0].1.starts_with("hero: disarm foe; "), "{}", given[0].1);
    let plain = greedy_opportunity(&mut duel(RulesVariant::FourActions, "human_fighter", None), "hero");
    assert!(plain.iter().all(|c| matches!(c, Command::Attack { .. })), "greedy: {plain:?}");
}

/// Four-actions, a fighter beside a champion, whose three blows a turn fall on it: +2 AC
/// against them is worth more than its own attack at −5, so it guards (once) and focuses,
/// and strikes with its standard action.
#[test]
fn a_fighter_beside_a_champion_guards_rather_than_attack_at_minus_five() {
    let (b, given) = hero_against(RulesVariant::FourActions, "champion", NOTHING_TO_DROP);
    let strike = Command::Attack { target: "foe".into() };
    assert_eq!(commands(&given), vec![Command::Focus, Command::Guard, strike], "{given:#?}");
    assert!(given[1].1.contains("guards first (+2 AC)"), "{}", given[1].1);
    let hero = b.index_of("hero").unwrap();
    assert_eq!(b.read().fighters.bonuses[hero].defense, vec![("guard".to_string(), 2)]);
}

/// d20-classic, "an option when attacking": against a champion a fighter fights
/// defensively (−4 to attack, +2 AC: its blows seldom land either way, the champion's
/// often); against a goblin, recklessly (−4 AC, +2 damage: the goblin's blows seldom land).
/// Against its like, neither. A full attack follows, and it ends its turn beside the foe
/// with its move action unspent.
#[test]
fn a_d20_fighter_fights_defensively_against_a_champion_and_recklessly_against_a_goblin() {
    let full = Command::FullAttack { target: "foe".into() };
    for (foe, stance) in
        [("champion", Some(Stance::Defensive)), ("goblin", Some(Stance::Reckless)), ("human_fighter", None)]
    {
        let (_, given) = hero_against(RulesVariant::D20Classic, foe, None);
        let expected: Vec<Command> = stance
            .map(|stance| Command::Stance { stance })
            .into_iter()
            .chain([full.clone(), Command::EndTurn])
            .collect();
        assert_eq!(commands(&given), expected, "against a {foe}: {given:#?}");
    }
}

/// Where the variant has no focus, guard or way of fighting to choose (hex-phases,
/// osr-segments), the tactical AI asks for none.
#[test]
fn no_variant_without_them_focuses_guards_or_takes_a_stance() {
    for v in [RulesVariant::HexPhases, RulesVariant::OsrSegments] {
        let (_, given) = hero_against(v, "champion", None);
        let spare = |c: &Command| matches!(c, Command::Focus | Command::Guard | Command::Stance { .. });
        assert!(given.iter().all(|(c, _)| !spare(c)), "{v}: {given:#?}");
    }
}
