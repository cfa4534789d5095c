//! Breaking free of a grapple by an opposed check (d20-classic, osr-segments, hex-phases): a
//! system over the two grapplers' own components, their `Grapple` and `Conditions` the only
//! ones it changes, with the dice and the log. The end of a grapple for both, which the
//! variants' own escapes and a spoilt drag share, is `resolve::release_both`.

use super::Turn;
use crate::combat::Command;
use crate::combat::battle::{Derived, EventLog};
use crate::combat::event::CombatEvent;
use crate::rules::{Body, Dice, Stats};
use bevy::prelude::*;

pub(crate) use crate::combat::resolve::{Grapplers, release_both};

/// Escaping: d20 + base attack + Strength + the size modifier (−4 a category, Large +4)
/// against the holder's; the higher total wins, ties to the higher bonus, and a win ends
/// the grapple for both. Held by nobody, the escape just lets go.
pub(crate) fn escape_by_opposed_check(
    turn: Res<Turn>,
    mut fighters: Grapplers,
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
    let Ok([(mine, my_stats, my_body, ..), (theirs, their_stats, their_body, ..)]) = fighters.get_many([me, other])
    else {
        return;
    };
    let bonus = |stats: &Stats, body: &Body| {
        stats.def.base_attack + stats.str_mod() - 4 * body.size.size_modifier().clamp(-2, 2)
    };
    let (ri, ro) = (dice.roll(20) as i32, dice.roll(20) as i32);
    let (bi, bo) = (bonus(my_stats, my_body), bonus(their_stats, their_body));
    let success = (ri + bi, bi) > (ro + bo, bo);
    log.push(CombatEvent::Save {
        unit: mine.id.clone(),
        kind: format!("escape vs {}'s grapple {}", theirs.id, ro + bo),
        roll: ri,
        bonus: bi,
        dc: ro + bo + 1,
        success,
    });
    if success {
        release_both(me, Some(other), &mut fighters, &mut log, &mut derived);
    }
}
