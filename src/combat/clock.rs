//! The combat clock's shared moves: initiative rolled or scored, the order, a fighter's
//! reactions back as a round begins, and its turn starting. Time moves on only by the
//! rules schedule's clock (`schedule::clock`), where each variant opens its own windows
//! (rounds, phases, segment steps) with systems of its own.

pub use super::time::{Budget, Clock};

use super::battle::Battle;
use super::event::CombatEvent;
use super::fighter::Initiative;
use crate::rules::Dice;

/// Rolls initiative and readies the clock; the engine then opens the first window.
pub fn start(b: &mut Battle) {
    let some_aware = b.fighters.iter().any(|f| f.awareness().aware);
    let some_unaware = b.fighters.iter().any(|f| !f.awareness().aware);
    let rules = b.rules();
    b.clock.surprise_pending = some_aware && some_unaware && b.variant.numbers().rules.surprise_round;
    rules.start(b);
    // The surprise round (phase) is round 0; the fight proper opens on round 1.
    b.clock.round = 0;
    b.clock.phase = 0;
    b.clock.actor = None;
}

/// An initiative that is a score, not a roll; ties are broken once by the seeded dice.
pub(crate) fn fixed_initiative(b: &mut Battle, score: impl Fn(&Battle, usize) -> i32, note: &str) {
    for i in 0..b.fighters.len() {
        let total = score(b, i);
        let tie = b.dice.roll(1000) as i64;
        b.fighters.initiative[i].order = total as i64 * 10_000 + tie;
        b.fighters.initiative[i].shown = total;
        let id = b.fighters.combatant[i].id.clone();
        b.emit(CombatEvent::Initiative { unit: id, roll: None, total, note: note.into() });
    }
    sort_order(b);
}

pub(crate) fn roll_d20_initiative(b: &mut Battle, bonus_for_aware: i32) {
    for i in 0..b.fighters.len() {
        let (dex, aware) = (b.fighters.stats[i].dex_mod(), b.fighters.awareness[i].aware);
        let (initiative, event) = d20_initiative(&mut b.dice, &b.fighters.combatant[i].id, dex, aware, bonus_for_aware);
        b.fighters.initiative[i] = initiative;
        b.emit(event);
    }
    sort_order(b);
}

/// One fighter's d20 initiative: its roll plus its Dexterity modifier (plus `bonus_for_aware`
/// if it is aware of its foes), with the line the log gives it. Ties go to the higher
/// modifier, then to the dice.
pub(crate) fn d20_initiative(
    dice: &mut Dice,
    id: &str,
    dex_mod: i32,
    aware: bool,
    bonus_for_aware: i32,
) -> (Initiative, CombatEvent) {
    let roll = dice.roll(20) as i32;
    let bonus = if aware { bonus_for_aware } else { 0 };
    let total = roll + dex_mod + bonus;
    let tie = dice.roll(1000) as i64;
    let order = (total as i64 * 100 + (dex_mod as i64 + 50)) * 10_000 + tie;
    let note = if bonus > 0 {
        format!("(d20 {roll} {dex_mod:+} Dex +{bonus} surprise round)")
    } else {
        format!("(d20 {roll} {dex_mod:+} Dex)")
    };
    (Initiative { order, shown: total }, CombatEvent::Initiative { unit: id.into(), roll: Some(roll), total, note })
}

pub(crate) fn sort_order(b: &mut Battle) {
    let n = b.fighters.len();
    b.clock.order = initiative_order((0..n).map(|i| b.fighters.initiative[i].order));
}

/// The seats in initiative order, highest first; ties (there are none after the dice)
/// in seat order.
pub(crate) fn initiative_order(orders: impl Iterator<Item = i64>) -> Vec<usize> {
    let orders: Vec<i64> = orders.collect();
    let mut seats: Vec<usize> = (0..orders.len()).collect();
    seats.sort_by(|&x, &y| orders[y].cmp(&orders[x]).then(x.cmp(&y)));
    seats
}

/// A fighter's reactions as a round begins: none taken this round, nobody struck yet.
pub(crate) fn new_round(r: &mut super::fighter::Reactions) {
    r.this_round = 0;
    r.free_attacked_by.clear();
}

/// A fighter's turn starts: effects lasting until then end, and it regains what its
/// variant gives back at the start of a turn.
pub(crate) fn start_turn(b: &mut Battle, i: usize) {
    let rules = b.rules();
    let id = b.fighters.combatant[i].id.clone();
    b.emit(CombatEvent::TurnStarted { unit: id.clone() });
    b.fighters.bonuses[i].clear();
    b.fighters.awareness[i].has_acted = true;
    let lose = rules.turn_starts(&mut b.fighters.reactions[i]);
    // A held action not taken by the start of the holder's next turn is lost.
    b.fighters.reactions[i].held = None;
    if let Some(c) = lose
        && b.fighters.conditions[i].remove(c)
    {
        b.emit(CombatEvent::ConditionLost { unit: id, condition: c });
        b.invalidate();
    }
}
