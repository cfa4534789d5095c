//! The tactical AI's shooters: a bow's shot is a strike like a blow, so a shooter that can
//! already shoot the foe its line goes for shoots rather than walks, and one that has moved
//! once shoots from where it came to rather than spend the shot on a second move.

use super::tactical::next_deed;
use super::*;
use fivefoot::combat::ai::Behaviour;

/// `id` with `hp` hit points.
fn with_hp(id: &str, side: &str, at: (i32, i32), creature: &str, hp: i32) -> UnitDef {
    UnitDef { hp: Some(hp), ..unit(id, side, at, creature, None) }
}

/// "Focus fire": the weakest foe, out of every foe's reach and in the archer's line of fire,
/// is shot from where the archer stands, under every variant. (A shooter threatens no one,
/// so the line took it for a unit with no foe in reach and walked it a square nearer first,
/// and where a second move was to be had, walked it again instead of shooting.)
#[test]
fn a_shooter_focusing_fire_shoots_the_weakest_foe_from_where_it_stands() {
    for v in RulesVariant::ALL {
        let units = vec![
            unit("bow", "blue", (1, 3), "human_archer", None),
            with_hp("big", "red", (9, 1), "human_fighter", 40),
            with_hp("small", "red", (9, 5), "human_fighter", 3),
        ];
        let mut b = battle(units, v, 3);
        let cmd = next_deed(&mut b, "bow", &mut |b, a| Behaviour::FocusFire.command(&b.read(), a));
        let target = match &cmd {
            Command::Attack { target } | Command::FullAttack { target } => target.as_str(),
            other => panic!("{v}: a shot, not {other:?}"),
        };
        assert_eq!(target, "small", "{v}");
        assert!(b.validate(&cmd).is_ok(), "{v}: {cmd:?}");
    }
}

/// "Hold cover": an archer that has moved this turn to a square no foe threatens, from which
/// it can shoot, shoots, though a low wall a few squares off would give it cover: a second
/// move would take the shot. Under every variant that lets it shoot in the same turn after a
/// move (in ap-phases the move ends its opportunity in that phase; in osr-segments moving is
/// its major action).
#[test]
fn a_shooter_holding_cover_shoots_after_its_move_rather_than_moving_on() {
    let rows = ["............", "............", ".....=......", ".....=......", ".....=......", "............"];
    let mut shot_after_a_move = 0;
    for v in RulesVariant::ALL {
        let units =
            vec![unit("bow", "blue", (1, 0), "human_archer", None), unit("foe", "red", (11, 3), "human_archer", None)];
        let mut b = battle_on(&rows, units, v, 4);
        // To the archer's first deed; it moves into the open instead.
        let _ = next_deed(&mut b, "bow", &mut |b, a| Behaviour::HoldCover.command(&b.read(), a));
        let me = b.index_of("bow").unwrap();
        b.execute(Command::Move { to: GridPos::new(2, 0) }).unwrap();
        let shots = [Command::Attack { target: "foe".into() }, Command::FullAttack { target: "foe".into() }];
        if b.actor() != Some(me) || !shots.iter().any(|s| b.read().allows(s)) {
            continue;
        }
        shot_after_a_move += 1;
        let cmd = Behaviour::HoldCover.command(&b.read(), me);
        assert!(matches!(cmd, Command::Attack { .. } | Command::FullAttack { .. }), "{v}: a shot, not {cmd:?}");
        assert!(b.validate(&cmd).is_ok(), "{v}: {cmd:?}");
    }
    assert!(shot_after_a_move >= 3, "{shot_after_a_move} variants");
}
