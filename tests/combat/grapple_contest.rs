//! The four-actions grapple contest: who keeps hold, who breaks free, what the winner may do.

use super::*;

// ---------------------------------------------------------------- four-actions grapple contest (001)

use fivefoot::combat::command::GrappleFollowUp;
use fivefoot::combat::fighter::Grapple;
use fivefoot::combat::fighter::Reactions;
use fivefoot::rules::Conditions;

/// four-actions: the hero has seized the goblin (both Restrained, the hero with the upper
/// hand); the hero acts.
fn hero_holds_the_goblin(seed: u64) -> BattleWorld {
    let mut b = battle(
        vec![unit("hero", "blue", (3, 3), "human_fighter", None), unit("gob", "red", (4, 3), "goblin", None)],
        RulesVariant::FourActions,
        seed,
    );
    let (h, g) = (b.index_of("hero").unwrap(), b.index_of("gob").unwrap());
    for (x, y) in [(h, g), (g, h)] {
        b.scene().fighter::<Conditions>(x).add(Condition::Grappled);
        let with = b.read().fighters.entity(y);
        b.scene().fighter::<Grapple>(x).with = Some(with);
    }
    b.scene().fighter::<Grapple>(h).holds = true;
    until(&mut b, "hero", |_| true);
    b
}

/// The two rolls of a grapple contest: (actor's total, other's total, other's kind).
fn contest(b: &BattleWorld, from: usize) -> (i32, i32, String) {
    let saves: Vec<(i32, String)> = b.events()[from..]
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
        let from = b.events().len();
        b.execute(Command::Wrestle { follow_up: GrappleFollowUp::Attack }).unwrap();
        let (hero, gob, _) = contest(&b, from);
        let (h, g) = (b.index_of("hero").unwrap(), b.index_of("gob").unwrap());
        let attacks: Vec<_> = attack_events(&b)[..].iter().filter(|(a, _)| a == "hero").cloned().collect();
        if hero != gob {
            assert_eq!(b.read().fighters.reactions[g].used, 1, "seed {seed}: the goblin contests with its reaction");
        }
        if hero > gob {
            won += 1;
            assert_eq!(attacks.len(), 1, "seed {seed}: the follow-up attack");
            assert!(!attacks[0].1.iter().any(|(s, _)| s.contains("secondary") || s.contains("tertiary")));
            assert!(
                b.read().fighters.conditions[g].has(Condition::Grappled) || !b.read().fighters.conditions[g].in_fight(),
                "seed {seed}: still held"
            );
            assert!(b.read().fighters.grapple[h].holds);
        } else if hero < gob {
            lost += 1;
            assert!(attacks.is_empty(), "seed {seed}: no follow-up for the loser");
            // The held goblin won: it chooses to break free.
            assert!(
                !b.read().fighters.conditions[g].has(Condition::Grappled)
                    && !b.read().fighters.conditions[h].has(Condition::Grappled)
            );
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
        let from = b.events().len();
        b.execute(Command::Wrestle { follow_up: GrappleFollowUp::End }).unwrap();
        let (gob, hero, how) = contest(&b, from);
        assert!(how.contains("reaction"), "{how}");
        let g = b.index_of("gob").unwrap();
        if gob > hero {
            free += 1;
            assert!(!b.read().fighters.conditions[g].has(Condition::Grappled), "seed {seed}");
        } else {
            held += 1;
            assert!(b.read().fighters.conditions[g].has(Condition::Grappled), "seed {seed}: the grapple is maintained");
        }
    }
    assert!(free > 3 && held > 3, "free {free}, held {held}");
}

#[test]
fn a_tied_grapple_contest_maintains_the_grapple_and_ends_the_turn() {
    let mut ties = 0;
    for seed in 0..200 {
        let mut b = hero_holds_the_goblin(seed);
        let from = b.events().len();
        b.execute(Command::Wrestle { follow_up: GrappleFollowUp::Attack }).unwrap();
        let (hero, gob, _) = contest(&b, from);
        if hero != gob {
            continue;
        }
        ties += 1;
        let h = b.index_of("hero").unwrap();
        assert!(b.read().fighters.conditions[h].has(Condition::Grappled), "seed {seed}: maintained");
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
        b.scene().fighter::<Reactions>(g).used = 1; // spent already this round
        let from = b.events().len();
        b.execute(Command::Wrestle { follow_up: GrappleFollowUp::Trip }).unwrap();
        let (hero, gob, how) = contest(&b, from);
        assert!(how.contains("no reaction left"), "{how}");
        assert_eq!(b.read().fighters.conditions[g].has(Condition::Prone), hero > gob, "seed {seed}");
        tripped += usize::from(hero > gob);

        let mut b = hero_holds_the_goblin(seed);
        let from = b.events().len();
        b.execute(Command::Wrestle { follow_up: GrappleFollowUp::Push }).unwrap();
        let (hero, gob, _) = contest(&b, from);
        let (h, g) = (b.index_of("hero").unwrap(), b.index_of("gob").unwrap());
        if hero > gob {
            pushed += 1;
            assert_eq!(
                (b.read().fighters.position[h].0, b.read().fighters.position[g].0),
                ((4, 3).into(), (5, 3).into()),
                "seed {seed}"
            );
            assert!(b.read().fighters.conditions[g].has(Condition::Grappled), "the pair moved together, still locked");
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
    let d = battle(
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
