//! ap-phases' grapple (source 000). "Initiate a Grapple (Attack; 2 AP)": an advanced
//! action whose combat maneuver check is made when its second AP goes in. "Continue a
//! Grapple (2 AP)": the same, at +5, and a success moves the pair (the foe placed beside
//! the grappler at the end), deals the wielder's damage, pins the foe or keeps hold.
//! "Escape a Grapple": a combat maneuver check against the grappler, at −5 the second time
//! in a round and −10 the third. The one who initiated it may "end the grapple as a free
//! action".

use super::super::prelude::*;
use super::{ActionPoints, Advanced, AdvancedKind};
use crate::combat::battle::Derived;
use crate::combat::command::GrappleFollowUp;
use crate::combat::resolve::{Then, Walk, deal_damage};
use crate::combat::schedule::{Grapplers, release_both};
use crate::rules::Dice;
use crate::rules::Position;
use bevy::prelude::{Entity, World};

/// A combat maneuver check of `who` (attacker, target): d20 + `modifiers` against the
/// target's `cmd`, logged as an attack roll whose number to reach is the CMD. By how much it
/// won (below 0: lost).
pub(super) fn maneuver_roll(
    dice: &mut Dice,
    log: &mut EventLog,
    who: (&str, &str),
    what: &str,
    modifiers: Vec<Modifier>,
    cmd: i32,
) -> i32 {
    let bonus: i32 = modifiers.iter().map(|m| m.value).sum();
    let roll = dice.roll(20) as i32;
    log.push(CombatEvent::Attack {
        attacker: who.0.into(),
        target: who.1.into(),
        kind: format!("{what} (combat maneuver) on"),
        die: "d20".into(),
        rolls: vec![roll],
        modifiers,
        total: roll + bonus,
        target_number: cmd,
        hit: roll + bonus >= cmd,
        critical: false,
    });
    roll + bonus - cmd
}

/// A combatant's combat maneuver defence: 10 + base attack + Strength + Dexterity + size.
pub(super) fn cmd_of(stats: &Stats, body: &Body) -> i32 {
    10 + stats.def.base_attack + stats.str_mod() + stats.dex_mod() - body.size.size_modifier().clamp(-2, 2)
}

/// A combatant's combat maneuver bonus: base attack, Strength and size.
pub(super) fn cmb_of(stats: &Stats, body: &Body) -> i32 {
    stats.def.base_attack + stats.str_mod() - body.size.size_modifier().clamp(-2, 2)
}

/// Whether `a` may continue its grapple with `follow_up` now (its cost is `spend`'s).
pub(super) fn check_continue(b: &Battle, a: usize, follow_up: GrappleFollowUp) -> Result<(), String> {
    let f = b.fighters.at(a);
    if !f.has(Condition::Grappled) || f.grapple().with.is_none() {
        return Err("not in a grapple".into());
    }
    if !f.grapple().holds {
        return Err("only the one who holds the grapple continues it (or escapes it)".into());
    }
    match follow_up {
        GrappleFollowUp::Maintain | GrappleFollowUp::End => Ok(()),
        GrappleFollowUp::Attack if f.wielded().def.hands == crate::level::Hands::Two => {
            Err(format!("a {} is too big to hurt a foe in a grapple", f.wielded().def.name.to_lowercase()))
        }
        GrappleFollowUp::Attack => Ok(()),
        GrappleFollowUp::Pin if f.grapple().pinning => Err("the foe is pinned already".into()),
        GrappleFollowUp::Pin => Ok(()),
        GrappleFollowUp::Move { to } => drag_path(b, a, to).map(|_| ()),
        GrappleFollowUp::Trip | GrappleFollowUp::Push => {
            Err("continuing a grapple moves the foe, deals damage, pins it or keeps hold".into())
        }
    }
}

/// The path of a grappler `a` moving to `to` with the foe it holds ("you can take a move
/// simple action and move the creature you are grappling with you"): a move's worth, and
/// room beside `to` to place the foe.
fn drag_path(b: &Battle, a: usize, to: crate::grid::GridPos) -> Result<crate::rules::PathPlan, String> {
    let foe = b.fighters.grapple[a].with.and_then(|e| b.fighters.seat_of(e)).ok_or("not in a grapple")?;
    let view = b.view();
    let allowance = crate::rules::allowance_ft(&view, a, crate::rules::MoveMode::Move);
    let range = crate::rules::movement_range(&view, a, crate::rules::MoveMode::Move, allowance);
    let path = range.plan_to(&view, to).map_err(|r| r.0)?;
    if path.squares.is_empty() {
        return Err("already there".into());
    }
    let there = crate::grid::Footprint::new(to, b.fighters.at(a).footprint().side);
    resolve::beside(b, there, foe)
        .ok_or_else(|| format!("no room beside {to} for {}", b.fighters.combatant[foe].id))?;
    Ok(path)
}

/// The grapple's second AP: the combat maneuver check (an attack action), if the foe is
/// still in the fight and within reach. On the battle's world, its maker `a` by entity.
pub(super) fn complete_grapple(world: &mut World, a: Entity, target: &str) {
    resolve::refresh(world);
    let reached = {
        let b = crate::combat::battle::store::read(world);
        let me = resolve::seat(&b, a);
        let within = |t: &usize| b.view().threat.threatens(me, b.fighters.at(*t).footprint());
        b.index_of(target).filter(|&t| b.fighters.conditions[t].in_fight() && within(&t)).map(|t| b.fighters.entity(t))
    };
    let Some(t) = reached else {
        let (unit, reason) = (resolve::id(world, a), format!("{target} is out of reach"));
        world.resource_mut::<EventLog>().push(CombatEvent::Spoiled { unit, action: "grapple".into(), reason });
        return;
    };
    let margin = super::maneuvers::grapple_check(world, a, t);
    resolve::maneuver_checked(world, a, t, Maneuver::Grapple, margin);
}

/// Continuing the grapple: ending it is a free action, done at once (both are free);
/// anything else is an advanced action of 2 AP, its first AP in now.
pub(super) fn begin_continued_grapple(
    turn: Res<Turn>,
    mut fighters: Grapplers,
    mut points: Query<&mut ActionPoints>,
    mut log: ResMut<EventLog>,
    mut derived: ResMut<Derived>,
) {
    let Some((me, plan)) = turn.accepted() else { return };
    let Command::Wrestle { follow_up } = plan.command else { return };
    let Ok((who, _, _, grapple, _)) = fighters.get(me) else { return };
    let unit = who.id.clone();
    if follow_up == GrappleFollowUp::End {
        let other = grapple.with;
        log.push(CombatEvent::Action { unit, action: "ends the grapple".into(), detail: "a free action".into() });
        return release_both(me, other, &mut fighters, &mut log, &mut derived);
    }
    let Ok(mut mine) = points.get_mut(me) else { return };
    mine.advanced = Some(Advanced { action: AdvancedKind::ContinueGrapple { follow_up }, spent: 1, needed: 2 });
    log.push(CombatEvent::Action { unit, action: "continue grapple".into(), detail: "begun (2 AP)".into() });
}

/// The continued grapple's second AP: the check at +5; a success deals the wielder's
/// damage, pins the foe (who can then only try to escape, and has no Dexterity to AC; nor
/// has the one pinning it), or keeps hold. On the battle's world, its maker `a` by entity.
pub(super) fn complete_continue(world: &mut World, a: Entity, follow_up: GrappleFollowUp) -> Option<Walk> {
    let grapple = world.get::<Grapple>(a).expect(resolve::A_COMBATANT);
    let Some(t) = grapple.with.filter(|_| grapple.holds) else {
        let (unit, reason) = (resolve::id(world, a), "the grapple is over".into());
        world.resource_mut::<EventLog>().push(CombatEvent::Spoiled { unit, action: "continue grapple".into(), reason });
        return None;
    };
    let margin = resolve::with_dice_and_log(world, |world, dice, log| {
        let ((me, my_stats, my_body), (foe, stats, body)) =
            (super::combatant_parts(world, a), super::combatant_parts(world, t));
        let modifiers = vec![
            Modifier::new("combat maneuver bonus", cmb_of(my_stats, my_body)),
            Modifier::new("continue a grapple", 5),
        ];
        maneuver_roll(dice, log, (&me.id, &foe.id), "continue grapple", modifiers, cmd_of(stats, body))
    });
    if margin < 0 {
        return None;
    }
    match follow_up {
        GrappleFollowUp::Move { to } => {
            resolve::refresh(world);
            let path = {
                let b = crate::combat::battle::store::read(world);
                drag_path(&b, resolve::seat(&b, a), to)
            };
            match path {
                Ok(path) => {
                    let at = world.get::<Position>(a).expect(resolve::A_COMBATANT).0;
                    return Some(Walk::new(a, at, &path, "move", None).then(Then::Drag { foe: t }));
                }
                Err(reason) => {
                    let unit = resolve::id(world, a);
                    world.resource_mut::<EventLog>().push(CombatEvent::Spoiled { unit, action: "drag".into(), reason });
                }
            }
        }
        GrappleFollowUp::Attack => {
            deal_damage(world, a, t, false, true);
        }
        GrappleFollowUp::Pin => {
            world.get_mut::<Grapple>(a).expect(resolve::A_COMBATANT).pinning = true;
            resolve::set_condition(world, t, Condition::Pinned, true);
        }
        _ => {
            let (unit, foe) = (resolve::id(world, a), resolve::id(world, t));
            let kept = CombatEvent::Action { unit, action: "keeps hold".into(), detail: format!("on {foe}") };
            world.resource_mut::<EventLog>().push(kept);
        }
    }
    None
}

/// "Escape a Grapple": a combat maneuver check against the grappler, at −5 the second time
/// this round and −10 the third; a success frees both. A system over the two grapplers'
/// own components and the escaper's action points.
pub(super) fn escape_with_maneuver_check(
    turn: Res<Turn>,
    mut fighters: Grapplers,
    mut points: Query<&mut ActionPoints>,
    mut dice: ResMut<Dice>,
    mut log: ResMut<EventLog>,
    mut derived: ResMut<Derived>,
) {
    let Some((me, plan)) = turn.accepted() else { return };
    if plan.command != Command::Escape {
        return;
    }
    let Ok((_, _, _, grapple, _)) = fighters.get(me) else { return };
    let Some(other) = grapple.with else {
        return release_both(me, None, &mut fighters, &mut log, &mut derived);
    };
    let Ok(mut mine) = points.get_mut(me) else { return };
    let earlier = mine.escapes;
    mine.escapes += 1;
    let Ok([(a, sa, ba, ..), (t, st, bt, ..)]) = fighters.get_many([me, other]) else { return };
    let mut modifiers = vec![Modifier::new("combat maneuver bonus", cmb_of(sa, ba))];
    match earlier {
        0 => {}
        1 => modifiers.push(Modifier::new("second escape this round", -5)),
        _ => modifiers.push(Modifier::new("third escape this round", -10)),
    }
    let (unit, foe) = (a.id.clone(), t.id.clone());
    if maneuver_roll(&mut dice, &mut log, (&unit, &foe), "escape grapple", modifiers, cmd_of(st, bt)) >= 0 {
        log.push(CombatEvent::Action { unit, action: "escapes the grapple".into(), detail: String::new() });
        release_both(me, Some(other), &mut fighters, &mut log, &mut derived);
    }
}
