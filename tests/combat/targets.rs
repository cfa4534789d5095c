//! `validate` refuses every targeted action at an ally, a corpse or a foe out of reach,
//! under every variant; the same actions at a foe in reach are the positive control.

use super::*;
use fivefoot::rules::Conditions;
use fivefoot::rules::Health;

const ROWS: [&str; 8] = [
    "....................",
    "....................",
    "....................",
    "....................",
    "....................",
    "....................",
    "....................",
    "....................",
];

/// The hero at (3,3), a champion with a longsword (a hand free for d20-classic's disarm):
/// the goblin beside it, a friend beside it, a corpse beside it, a foe in charging distance
/// on a clear line, a foe 15 squares off.
fn field(v: RulesVariant) -> BattleWorld {
    let mut b = battle_on(
        &ROWS,
        vec![
            unit("hero", "blue", (3, 3), "champion", Some("longsword")),
            unit("friend", "blue", (2, 3), "human_fighter", None),
            unit("gob", "red", (4, 3), "goblin", None),
            unit("dead", "red", (3, 4), "goblin", None),
            unit("near", "red", (7, 1), "goblin", None),
            unit("far", "red", (18, 7), "goblin", None),
        ],
        v,
        1,
    );
    let d = b.index_of("dead").unwrap();
    b.scene().fighter::<Health>(d).hp = -20;
    b.scene().fighter::<Conditions>(d).add(Condition::Dead);
    until(&mut b, "hero", |b| {
        let c = major(b);
        !c.declaring && (b.variant() != RulesVariant::OsrSegments || (c.major && !c.fast_only))
    });
    b
}

type Make = fn(&str) -> Command;

fn actions() -> Vec<(&'static str, Make, &'static str)> {
    // (name, command at a target, a foe it is legal against in d20-classic)
    vec![
        ("attack", |t| Command::Attack { target: t.into() }, "gob"),
        ("full attack", |t| Command::FullAttack { target: t.into() }, "gob"),
        ("charge", |t| Command::Charge { target: t.into() }, "near"),
        ("trip", |t| Command::Trip { target: t.into() }, "gob"),
        ("shove", |t| Command::Shove { target: t.into() }, "gob"),
        ("disarm", |t| Command::Disarm { target: t.into() }, "gob"),
        ("grapple", |t| Command::Grapple { target: t.into() }, "gob"),
        ("hold", |t| Command::Hold { target: Some(t.into()) }, "gob"),
    ]
}

#[test]
fn targeted_actions_are_refused_at_an_ally_a_corpse_or_out_of_reach_under_every_variant() {
    let mut legal_somewhere = 0;
    for v in RulesVariant::ALL {
        let b = field(v);
        for (name, make, foe) in actions() {
            let control = b.validate(&make(foe));
            for bad in ["friend", "dead", "hero"] {
                let e = b.validate(&make(bad));
                assert!(e.is_err(), "{v}: {name} at {bad} validated");
                // Where the action exists here, the refusal is for the target.
                if control.is_ok() {
                    let reason = e.unwrap_err().reason;
                    assert!(reason.contains("not a foe"), "{v}: {name} at {bad}: {reason}");
                }
            }
            // A held attack waits for a foe to come into reach: it may name a far one.
            if name != "hold" {
                assert!(b.validate(&make("far")).is_err(), "{v}: {name} at a foe 15 squares off");
            }
            match control {
                Ok(_) => legal_somewhere += 1,
                Err(e) if v == RulesVariant::D20Classic => {
                    panic!("d20-classic: the control, {name} at {foe}, was refused: {e:?}")
                }
                Err(_) => {}
            }
        }
    }
    assert!(legal_somewhere >= actions().len(), "{legal_somewhere} controls held");
}

/// osr-segments declares a charge before the round: the same refusals.
#[test]
fn an_osr_charge_is_declared_only_at_a_foe_in_the_fight() {
    let mut b = battle_on(
        &ROWS,
        vec![
            unit("hero", "blue", (3, 3), "champion", Some("longsword")),
            unit("friend", "blue", (2, 3), "human_fighter", None),
            unit("dead", "red", (3, 5), "goblin", None),
            unit("near", "red", (7, 3), "goblin", None),
        ],
        RulesVariant::OsrSegments,
        1,
    );
    let d = b.index_of("dead").unwrap();
    b.scene().fighter::<Conditions>(d).add(Condition::Dead);
    until(&mut b, "hero", |b| major(b).declaring);
    let declare = |t: &str| Command::Declare { intent: Intent::Charge { target: t.into() } };
    assert!(b.validate(&declare("near")).is_ok(), "the control");
    for bad in ["friend", "dead", "hero"] {
        let e = b.validate(&declare(bad)).unwrap_err();
        assert!(e.reason.contains("not a foe"), "{bad}: {}", e.reason);
    }
}
