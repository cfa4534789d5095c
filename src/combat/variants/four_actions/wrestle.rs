//! four-actions' own actions as systems. The turn's grapple contest (to wrestle, or to
//! escape) is rolled by one system over the other's reactions and the actor's economy, and
//! what its winner does by the next, over the grapplers' grapple, conditions and positions
//! (a follow-up attack waits on the strike stack). A dash or a tumble sets out on its walk.

use super::super::prelude::*;
use crate::combat::battle::Derived;
use crate::combat::command::GrappleFollowUp;
use crate::combat::fighter::Economy;
use crate::combat::resolve::{Walk, reactions_allowed};
use crate::combat::schedule::{Grapplers, Strike, StrikeStack, Walking, release_both};
use crate::grid::{Footprint, GridPos};
use crate::rules::{Battlefield, Combatant, Dice, Occupancy, Position, Stats};
use bevy::prelude::{Entity, Query, Res, ResMut, Resource};

/// What the turn's grapple contest left to do, for its winner's follow-up.
#[derive(Resource, Debug, Default)]
pub(super) enum Contest {
    #[default]
    Settled,
    /// The grapple ends for `me` and `other` (if it had a partner).
    Release { me: Entity, other: Option<Entity> },
    /// `a` won and keeps hold of `t`, to follow up.
    Won { a: usize, me: Entity, t: usize, them: Entity, follow_up: GrappleFollowUp },
}

/// A creature's Athletics bonus: Strength modifier + half its base attack bonus.
fn athletics(stats: &Stats) -> i32 {
    stats.str_mod() + stats.def.base_attack / 2
}

/// Where a push inside a grapple takes the pair: the foe (`t` at `ft`) 5 ft straight away
/// from the pusher (`a` at `fa`), the pusher after it, both keeping hold. `None` when
/// either has no room.
pub(super) fn push_squares(
    field: &Battlefield,
    occupancy: &Occupancy,
    (a, fa): (usize, Footprint),
    (t, ft): (usize, Footprint),
) -> Option<(GridPos, GridPos)> {
    let dx = (2 * ft.origin.x + ft.side - 2 * fa.origin.x - fa.side).signum();
    let dy = (2 * ft.origin.y + ft.side - 2 * fa.origin.y - fa.side).signum();
    let (to_t, to_a) = (ft.origin.offset(dx, dy), fa.origin.offset(dx, dy));
    let room = |fp: Footprint| {
        fp.cells().all(|c| field.terrain.get(c).passable() && occupancy.at(c).is_none_or(|u| u == a || u == t))
    };
    (room(Footprint::new(to_t, ft.side)) && room(Footprint::new(to_a, fa.side))).then_some((to_t, to_a))
}

/// The turn's grapple contest: the actor's standard action against the other's reaction,
/// opposed Athletics (d20 + Strength + half base attack). Without a reaction left the
/// other resists all the same. The winner ends or maintains the grapple: the actor as its
/// follow-up says (escaping: it ends it), the other keeping hold if it had the upper hand
/// and otherwise breaking free. "Ties result in the Grapple being maintained, and neither
/// creature can act further."
#[allow(clippy::too_many_arguments)]
pub(super) fn grapple_contest(
    turn: Res<Turn>,
    seats: Res<Combatants>,
    fighters: Query<(&Combatant, &Stats, &Grapple)>,
    mut reactions: Query<&mut Reactions>,
    mut economies: Query<&mut Economy>,
    mut dice: ResMut<Dice>,
    mut log: ResMut<EventLog>,
    mut contest: ResMut<Contest>,
) {
    let Some((me, a, plan)) = acting_seated(&turn, &seats) else { return };
    let follow_up = match plan.command {
        Command::Escape => GrappleFollowUp::End,
        Command::Wrestle { follow_up } => follow_up,
        _ => return,
    };
    let Ok((mine, my_stats, grapple)) = fighters.get(me) else { return };
    let Some((t, them)) = grapple.with.and_then(|them| Some((seats.seat_of(them)?, them))) else {
        *contest = Contest::Release { me, other: None };
        return;
    };
    let (Ok((theirs, their_stats, their_grapple)), Ok(mut their_reactions)) =
        (fighters.get(them), reactions.get_mut(them))
    else {
        return;
    };
    let reacts = their_reactions.used < reactions_allowed(their_stats);
    if reacts {
        their_reactions.used += 1;
        their_reactions.this_round += 1;
    }
    let (ra, rt) = (dice.roll(20) as i32, dice.roll(20) as i32);
    let (ba, bt) = (athletics(my_stats), athletics(their_stats));
    let (aid, tid) = (mine.id.clone(), theirs.id.clone());
    let (total_a, total_t) = (ra + ba, rt + bt);
    log.push(CombatEvent::Save {
        unit: aid.clone(),
        kind: format!("Athletics (grapple contest, standard action) vs {tid}"),
        roll: ra,
        bonus: ba,
        dc: total_t,
        success: total_a > total_t,
    });
    let how = if reacts { "reaction" } else { "no reaction left" };
    log.push(CombatEvent::Save {
        unit: tid.clone(),
        kind: format!("Athletics (grapple contest, {how}) vs {aid}"),
        roll: rt,
        bonus: bt,
        dc: total_a,
        success: total_t > total_a,
    });
    match total_a.cmp(&total_t) {
        std::cmp::Ordering::Equal => {
            if let Ok(mut economy) = economies.get_mut(me) {
                economy.budget = Budget::default();
            }
            let detail = format!("a tie with {tid}: neither acts further");
            log.push(CombatEvent::Action { unit: aid, action: "the grapple holds".into(), detail });
        }
        std::cmp::Ordering::Less => {
            let keeps = their_grapple.holds;
            let action = if keeps { GrappleFollowUp::Maintain } else { GrappleFollowUp::End };
            let detail = format!("wins the contest against {aid}");
            log.push(CombatEvent::Action { unit: tid, action: action.describe().into(), detail });
            if !keeps {
                *contest = Contest::Release { me: them, other: Some(me) };
            }
        }
        std::cmp::Ordering::Greater => {
            let detail = format!("wins the contest against {tid}");
            log.push(CombatEvent::Action { unit: aid, action: follow_up.describe().into(), detail });
            *contest = if follow_up.maintains() {
                Contest::Won { a, me, t, them, follow_up }
            } else {
                Contest::Release { me, other: Some(them) }
            };
        }
    }
}

/// What the contest's winner does: the grapple ends, or its winner keeps hold and trips
/// the other, pushes the pair 5 ft (neither move provokes), or strikes (on the strike
/// stack).
pub(super) fn contest_follow_up(
    mut contest: ResMut<Contest>,
    mut fighters: Grapplers,
    mut positions: Query<&mut Position>,
    field: Res<Battlefield>,
    mut derived: ResMut<Derived>,
    mut log: ResMut<EventLog>,
    mut stack: ResMut<StrikeStack>,
) {
    let (a, me, t, them, follow_up) = match std::mem::take(&mut *contest) {
        Contest::Settled => return,
        Contest::Release { me, other } => return release_both(me, other, &mut fighters, &mut log, &mut derived),
        Contest::Won { a, me, t, them, follow_up } => (a, me, t, them, follow_up),
    };
    let Ok([(mine, _, my_body, mut my_grapple, _), (theirs, _, their_body, mut their_grapple, mut conditions)]) =
        fighters.get_many_mut([me, them])
    else {
        return;
    };
    my_grapple.holds = true;
    their_grapple.holds = false;
    let (aid, tid) = (mine.id.clone(), theirs.id.clone());
    match follow_up {
        GrappleFollowUp::Trip => {
            change_condition(&tid, &mut conditions, Condition::Prone, true, &mut log, &mut derived);
        }
        GrappleFollowUp::Push => {
            let (Ok(at_a), Ok(at_t)) = (positions.get(me), positions.get(them)) else { return };
            let (fa, ft) =
                (Footprint::new(at_a.0, my_body.size.side()), Footprint::new(at_t.0, their_body.size.side()));
            debug_assert!(!derived.stale, "the maps were derived for the check, and nothing has moved since");
            let Some((to_t, to_a)) = push_squares(&field, &derived.occupancy, (a, fa), (t, ft)) else {
                let reason = format!("no room to push {tid}");
                log.push(CombatEvent::Spoiled { unit: aid, action: "push".into(), reason });
                return;
            };
            for (who, to) in [(them, to_t), (me, to_a)] {
                if let Ok(mut at) = positions.get_mut(who) {
                    at.0 = to;
                }
            }
            derived.stale = true;
            log.push(CombatEvent::Moved { unit: tid, path: vec![to_t], cost_ft: 5, kind: "pushed back".into() });
            log.push(CombatEvent::Moved { unit: aid, path: vec![to_a], cost_ft: 5, kind: "follow".into() });
        }
        GrappleFollowUp::Attack => {
            stack.0.push(Strike::Routine { by: me, target: them, kind: AttackKind::Primary, full: false });
        }
        GrappleFollowUp::Maintain | GrappleFollowUp::End | GrappleFollowUp::Pin | GrappleFollowUp::Move { .. } => {}
    }
}

/// A dash sets out on its walk; a tumble first rolls Agility against 5 + 5 per foe the
/// path would provoke, and on a success none of them may react.
pub(super) fn dash_or_tumble(
    turn: Res<Turn>,
    fighters: Query<(&Combatant, &Position, &Stats)>,
    mut dice: ResMut<Dice>,
    mut log: ResMut<EventLog>,
    mut walking: ResMut<Walking>,
) {
    let Some((me, plan)) = turn.accepted() else { return };
    let (Some(path), Ok((who, at, stats))) = (plan.path.as_ref(), fighters.get(me)) else { return };
    walking.0 = Some(match plan.command {
        Command::Dash { .. } => Walk::new(me, at.0, path, "dash", None),
        Command::Tumble { .. } => {
            let foes: std::collections::BTreeSet<usize> = path.provokes.iter().map(|p| p.by).collect();
            let dc = 5 + 5 * foes.len() as i32;
            let (roll, bonus) = (dice.roll(20) as i32, stats.dex_mod());
            let success = roll + bonus >= dc;
            let unit = who.id.clone();
            log.push(CombatEvent::Save { unit, kind: "Agility (tumble)".into(), roll, bonus, dc, success });
            let mut path = path.clone();
            if success {
                path.provokes.clear();
            }
            Walk::new(me, at.0, &path, "tumble", None)
        }
        _ => return,
    });
}
