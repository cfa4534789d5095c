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

/// `--swap-sides` plays each seed twice with the sides' AIs exchanged, and the report keeps
/// a record per AI: what one wins the other loses, with a Wilson interval around the rate.
#[test]
fn a_batch_with_sides_swapped_keeps_a_record_per_ai() {
    let cat = Catalogue::builtin();
    let lvl = Level::load(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/mage-duel.ron"), &cat).unwrap();
    let spec = |ais: BTreeMap<String, AiKind>| sim::SimSpec {
        rules: RulesVariant::D20Classic,
        seed: 11,
        battles: 6,
        ais,
        options: BattleOptions::default(),
        check: false,
        swap_sides: true,
    };
    let greedy = spec(BTreeMap::new());
    assert_eq!((greedy.battle(0), greedy.battle(1), greedy.battle(4)), ((11, false), (11, true), (13, false)));
    let sides = sim::sides_of(&lvl);
    let tactical = spec(BTreeMap::from([("blue".to_string(), AiKind::Tactical(Difficulty::Easy))]));
    let swapped = tactical.ais_for(&sides, true);
    assert_eq!((swapped["blue"], swapped["red"]), (AiKind::Greedy, AiKind::Tactical(Difficulty::Easy)));

    // Greedy against itself: each seed twice is the same battle, so each pair has one winner.
    let mut log = Vec::new();
    let report = sim::run_batch_on(&lvl, &cat, &greedy, Some(&mut log), &mut |_| {}, 1).unwrap();
    let ais = report.ais.expect("sides swapped: a record per AI");
    let g = &ais["greedy"];
    assert_eq!(g.wins, g.losses, "greedy wins what greedy loses");
    assert_eq!(g.wins + g.draws, 6);
    let log = String::from_utf8(log).unwrap();
    let winners: Vec<&str> = log.lines().filter(|l| l.contains("\"battle_ended\"")).collect();
    assert!(winners.chunks(2).all(|pair| pair.len() == 2 && pair[0] == pair[1]), "{winners:?}");

    let report = sim::run_batch_on(&lvl, &cat, &tactical, None, &mut |_| {}, 2).unwrap();
    let ais = report.ais.unwrap();
    let (t, g) = (&ais["tactical:easy"], &ais["greedy"]);
    assert_eq!((t.wins, t.losses, t.draws), (g.losses, g.wins, g.draws));
    assert_eq!(t.wins + t.losses + t.draws, 6);
    let decisive = t.wins + t.losses;
    if decisive > 0 {
        assert!((t.win_rate - f64::from(t.wins) / f64::from(decisive)).abs() < 1e-4);
        assert!(t.ci95[0] <= t.win_rate && t.win_rate <= t.ci95[1]);
    }
    assert!(t.decision_ms.p50 <= t.decision_ms.p99 && t.decision_ms.p99 <= t.decision_ms.max);
    assert!(t.decision_ms.max > 0.0, "the tactical AI's decisions are timed");
}

/// `sim --log` carries the tactical AI's reason with each of its commands, and none with
/// the greedy AI's (so the greedy goldens stay as they are).
#[test]
fn the_log_gives_the_tactical_ais_reasons() {
    let cat = Catalogue::builtin();
    let lvl = Level::load(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/mage-duel.ron"), &cat).unwrap();
    let spec = sim::SimSpec {
        rules: RulesVariant::FourActions,
        seed: 3,
        battles: 1,
        ais: BTreeMap::from([("red".to_string(), AiKind::Tactical(Difficulty::Easy))]),
        options: BattleOptions::default(),
        check: true,
        swap_sides: false,
    };
    let mut log = Vec::new();
    sim::run_batch_on(&lvl, &cat, &spec, Some(&mut log), &mut |_| {}, 1).unwrap();
    let lines: Vec<serde_json::Value> =
        String::from_utf8(log).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let commands: Vec<&serde_json::Value> = lines.iter().filter(|l| l["type"] == "command").collect();
    let red = |l: &serde_json::Value| l["unit"].as_str().unwrap().starts_with("red");
    let (reds, blues): (Vec<_>, Vec<_>) = commands.into_iter().partition(|l| red(l));
    assert!(!reds.is_empty() && !blues.is_empty());
    assert!(reds.iter().all(|l| l["reason"].as_str().is_some_and(|r| r.contains(':'))), "{reds:?}");
    assert!(blues.iter().all(|l| l.get("reason").is_none()));
}
