//! What the tactical AI names its lines in its reasons and on the overlay: a strike the
//! search picked itself, the intents it weighs where a round opens with declarations, a
//! standing order, and a side holding its ground together where it acts as one group.

use super::*;
use fivefoot::combat::ai::{Ai, AiKind, Difficulty, ScoredSquare, Tactical};

/// Plays `commands` commands of `level` under `v` from `seed`, blue by `brain` and red by
/// greedy, showing each blue decision to `seen` (the command, and whether the round was
/// asking for declarations when it was made).
fn blue_tactical_against_greedy(
    level: &str,
    v: RulesVariant,
    seed: u64,
    commands: usize,
    brain: &mut Tactical,
    mut seen: impl FnMut(&Tactical, &Command, bool),
) {
    let path = format!("{}/levels/{level}.ron", env!("CARGO_MANIFEST_DIR"));
    let lvl = Level::load(path, &Catalogue::builtin()).unwrap();
    let mut b = BattleWorld::new(&lvl, &Catalogue::builtin(), v, seed, BattleOptions::default());
    for _ in 0..commands {
        let Some(actor) = b.actor() else { break };
        let blue = b.read().fighters.side[actor].0 == "blue";
        let declaring = b.read().budget().declaring();
        let cmd = if blue { brain.decide(&mut b, actor) } else { AiKind::Greedy.make().decide(&mut b, actor) };
        if blue {
            seen(brain, &cmd, declaring);
        }
        if b.execute(cmd).is_err() {
            b.execute(Command::EndTurn).unwrap();
        }
    }
}

/// Plays as `blue_tactical_against_greedy` with a normal tactical AI, showing `seen` each
/// blue decision that chose a line, with its command and reason.
fn blue_choices(
    level: &str,
    v: RulesVariant,
    seed: u64,
    commands: usize,
    mut seen: impl FnMut(&ScoredSquare, &Command, &str),
) {
    let mut brain = Tactical::new(Difficulty::Normal);
    blue_tactical_against_greedy(level, v, seed, commands, &mut brain, |brain, cmd, _| {
        if let Some(chosen) = brain.scored().iter().find(|s| s.chosen) {
            seen(chosen, cmd, brain.reason().unwrap());
        }
    });
}

/// A strike at a foe of the search's own choosing (not the weakest foe greedy strikes) is
/// named as such, in the reason and on the overlay, not as "close and strike": on
/// *archers-walls* under d20-classic the first blue archer shoots the swordsman charging in
/// rather than the archer greedy would pick.
#[test]
fn a_strike_the_search_chose_is_called_a_strike() {
    let mut strikes = 0;
    blue_choices("archers-walls", RulesVariant::D20Classic, 2, 40, |chosen, cmd, why| {
        let struck = chosen.line == "strike";
        assert_eq!(why.contains(": strike at "), struck, "{why} / {chosen:?}");
        // A strike, or a way of fighting chosen before it.
        let striking = matches!(cmd, Command::Attack { .. } | Command::FullAttack { .. } | Command::Stance { .. });
        assert!(!struck || striking, "{cmd:?}");
        strikes += usize::from(struck);
    });
    assert!(strikes > 0, "some blue unit chose a strike of its own");
}

/// osr-segments opens each round with declarations, and what a unit declares decides its
/// round ("declared intents" in the issue): the tactical AI weighs each intent it may
/// declare (to fight, a delay, a charge at each foe) rather than taking greedy's, says what
/// it declared, and sometimes declares other than greedy would.
#[test]
fn the_tactical_ai_weighs_each_intent_it_may_declare() {
    let (mut weighed, mut own) = (0, 0);
    let mut brain = Tactical::new(Difficulty::Normal);
    blue_tactical_against_greedy(
        "hex-mirror",
        RulesVariant::OsrSegments,
        1,
        150,
        &mut brain,
        |brain, cmd, declaring| {
            if !declaring {
                return;
            }
            assert!(matches!(cmd, Command::Declare { .. }), "{cmd:?}");
            let why = brain.reason().unwrap();
            assert!(why.contains(": declares "), "{why}");
            let lines: Vec<&str> = brain.scored().iter().map(|s| s.line.as_str()).collect();
            if lines.len() > 1 {
                weighed += 1;
                assert!(lines.iter().any(|l| l.starts_with("declare ")), "{lines:?}");
            }
            own += usize::from(brain.scored().iter().any(|s| s.chosen && s.line.starts_with("declare ")));
        },
    );
    assert!(weighed > 0 && own > 0, "declarations weighed {weighed} times, its own chosen {own} times");
}

/// Greedy never tries a combat maneuver; the tactical AI weighs each one the variant allows
/// on each foe in reach (four-actions: "the creature makes an [Athletics] check against its
/// target's Reflex save, if successful the target drops a held object"), and on
/// *melee-ring* it trips, disarms, shoves or grapples some foes, named as such in its reason
/// and on the overlay.
#[test]
fn the_tactical_ai_weighs_the_maneuvers_the_variant_allows() {
    let mut tried = 0;
    blue_choices("melee-ring", RulesVariant::FourActions, 4, 150, |chosen, cmd, why| {
        let maneuver = matches!(
            cmd,
            Command::Trip { .. } | Command::Disarm { .. } | Command::Shove { .. } | Command::Grapple { .. }
        );
        assert_eq!(chosen.line == cmd.name(), maneuver, "{cmd:?} / {chosen:?}");
        if maneuver {
            assert!(why.contains(&format!(": {} ", cmd.name())), "{why}");
            tried += 1;
        }
    });
    assert!(tried > 0, "some blue unit tried a maneuver");
}

/// hex-phases lets a fighter give a standing order to abort to a dodge when attacked (+3
/// DCV, giving up its next action), which greedy leaves to the default (dodge at half hit
/// points or fewer). The search weighs the other order as a line of its own: given, it is
/// named in the reason, and the opportunity goes on at once with the line it was weighed
/// with, never a second order in the same opportunity.
#[test]
fn a_standing_order_to_dodge_is_weighed_named_and_followed_by_its_line() {
    let mut brain = Tactical::new(Difficulty::Normal);
    let (mut orders, mut after_order) = (0, false);
    blue_tactical_against_greedy("melee-ring", RulesVariant::HexPhases, 1, 120, &mut brain, |brain, cmd, _| {
        let why = brain.reason().unwrap();
        if after_order {
            assert!(!matches!(cmd, Command::AbortOrder { .. }), "a second order: {why}");
            assert!(why.contains("goes on (after its standing order)"), "{why}");
        }
        after_order = matches!(cmd, Command::AbortOrder { .. });
        if let Command::AbortOrder { on } = cmd {
            let named = if *on { ": dodge when attacked (a standing order" } else { ": never dodge (a standing order" };
            assert!(why.contains(named), "{why}");
            orders += 1;
        }
    });
    assert!(orders > 0, "some blue unit gave a standing order");
}

/// osr-segments' sides act as groups (source 003: "Each group will roll a d6. The group
/// with the highest roll acts first during HIGH group initiative"), so a side that holds its
/// ground holds together: a unit weighs holding with its allies holding too, and once one chooses
/// it before the fight begins, the rest of its side waits with it that round rather than
/// walk in alone. On *melee-ring* (seed 4, red the tactical side) the red wolf chooses to
/// hold and the sword and champion wait with it, named so. Under d20-classic, where each
/// fighter acts on its own initiative, a hold binds nobody else: the red champion holds
/// an attack and the wolf weighs its own line.
#[test]
fn where_the_side_acts_as_one_group_its_units_hold_together() {
    let waits = |cmd: &Command| matches!(cmd, Command::EndTurn | Command::Hold { target: None });
    let path = format!("{}/levels/melee-ring.ron", env!("CARGO_MANIFEST_DIR"));
    let lvl = Level::load(path, &Catalogue::builtin()).unwrap();
    for (v, seed) in [(RulesVariant::OsrSegments, 4), (RulesVariant::D20Classic, 1)] {
        let mut brain = Tactical::new(Difficulty::Normal);
        let mut b = BattleWorld::new(&lvl, &Catalogue::builtin(), v, seed, BattleOptions::default());
        let (mut chosen, mut holds, mut with_side) = (None::<(u32, String)>, 0, 0);
        for _ in 0..60 {
            let Some(actor) = b.actor() else { break };
            let cmd = if b.read().fighters.side[actor].0 == "red" {
                let cmd = brain.decide(&mut b, actor);
                let why = brain.reason().unwrap().to_string();
                let (round, who) = (b.clock().round, b.read().fighters.combatant[actor].id.clone());
                if why.starts_with(&format!("{who}: hold (")) {
                    chosen = Some((round, who.clone()));
                    holds += 1;
                }
                if why.contains("holds its ground with its side this round") {
                    let (when, chooser) = chosen.clone().expect("a unit of the side chose to hold first");
                    assert_eq!(when, round, "{v}: {why}");
                    assert!(why.ends_with(&format!("as {chooser} chose")), "{v}: {why}");
                    assert!(waits(&cmd), "{v}: {cmd:?}");
                    with_side += 1;
                }
                cmd
            } else {
                AiKind::Greedy.make().decide(&mut b, actor)
            };
            if b.execute(cmd).is_err() {
                b.execute(Command::EndTurn).unwrap();
            }
        }
        assert!(holds > 0, "{v}: some red unit chose to hold");
        match v {
            RulesVariant::OsrSegments => assert_eq!(with_side, 2, "{v}: the sword and the champion held with the wolf"),
            _ => assert_eq!(with_side, 0, "{v}: no unit held for another's choice"),
        }
    }
}
