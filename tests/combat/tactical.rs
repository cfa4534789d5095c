//! The tactical AI: named as the command line names it, deterministic (its playouts' dice
//! come from the decision, never from the battle's own), and able to say why it chose.

use super::*;
use fivefoot::combat::ai::{Ai, AiKind, Difficulty, Tactical};

#[test]
fn an_ai_is_named_greedy_tactical_or_tactical_with_a_difficulty() {
    assert_eq!("greedy".parse::<AiKind>(), Ok(AiKind::Greedy));
    assert_eq!("tactical".parse::<AiKind>(), Ok(AiKind::Tactical(Difficulty::Normal)));
    assert_eq!("Tactical:HARD".parse::<AiKind>(), Ok(AiKind::Tactical(Difficulty::Hard)));
    assert_eq!("tactical:easy".parse::<AiKind>(), Ok(AiKind::Tactical(Difficulty::Easy)));
    let brutal = "tactical:brutal".parse::<AiKind>().unwrap_err();
    assert!(brutal.contains("brutal") && brutal.contains("easy, normal, hard"), "{brutal}");
    let genius = "genius".parse::<AiKind>().unwrap_err();
    assert!(genius.contains("greedy, tactical"), "{genius}");
    for kind in AiKind::ALL {
        assert_eq!(kind.to_string().parse::<AiKind>(), Ok(kind), "{kind} names itself back");
    }
}

fn short_skirmish(v: RulesVariant) -> BattleWorld {
    let lvl = Level::load(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/skirmish.ron"), &Catalogue::builtin()).unwrap();
    let options = BattleOptions { round_cap: 2, ..BattleOptions::default() };
    BattleWorld::new(&lvl, &Catalogue::builtin(), v, 7, options)
}

#[test]
fn the_tactical_ai_plays_the_same_battle_from_the_same_seed_and_gives_its_reasons() {
    for v in [RulesVariant::D20Classic, RulesVariant::FourActions] {
        let play = || {
            let mut b = short_skirmish(v);
            let mut reasons = vec![];
            let mut brain = Tactical::new(Difficulty::Easy);
            while !b.is_over() {
                let Some(actor) = b.actor() else { break };
                let cmd = if b.read().fighters.side[actor].0 == "blue" {
                    let cmd = brain.decide(&mut b, actor);
                    reasons.push(brain.reason().expect("every decision has its reason").to_string());
                    cmd
                } else {
                    fivefoot::combat::Greedy.decide(&mut b, actor)
                };
                if b.execute(cmd).is_err() {
                    let _ = b.execute(Command::EndTurn);
                }
            }
            (b.events().to_vec(), reasons)
        };
        let (events, reasons) = play();
        assert_eq!(play(), (events, reasons.clone()), "{v:?}: the same seed, the same battle");
        assert!(!reasons.is_empty());
        let blue = ["archer", "fighter", "pikeman", "sergeant"];
        assert!(reasons.iter().all(|r| blue.iter().any(|u| r.starts_with(&format!("{u}: ")))), "{reasons:#?}");
    }
}

#[test]
fn deciding_leaves_the_battle_as_it_was() {
    let mut b = short_skirmish(RulesVariant::D20Classic);
    let actor = b.actor().unwrap();
    let before = (b.events().to_vec(), format!("{:?}", b.read().fighters), b.seed());
    let mut brain = Tactical::new(Difficulty::Normal);
    let first = brain.decide(&mut b, actor);
    assert_eq!(
        (b.events().to_vec(), format!("{:?}", b.read().fighters), b.seed()),
        before,
        "the playouts ran elsewhere"
    );
    assert_eq!(brain.decide(&mut b, actor), first, "and asking again gives the same answer");
    // The battle's dice were not touched: the command rolls as in a battle never asked.
    let mut unasked = short_skirmish(RulesVariant::D20Classic);
    let (a, c) = (b.execute(first.clone()), unasked.execute(first));
    assert_eq!(a, c);
    assert_eq!(b.events(), unasked.events());
}
