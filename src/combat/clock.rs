//! The combat clock's shared moves: initiative rolled or scored, the order, rounds in
//! initiative order with a surprise round first (the turn-based variants), a fighter's
//! turn starting, and [`tick`], which gives the next fighter its opportunity. Time moves
//! on only by `tick`, run by the rules schedule's clock (`schedule::clock`); each variant
//! opens its own windows (rounds, phases, segment steps) with its own system there.

pub use super::time::{Budget, Clock};

use super::battle::Battle;
use super::event::CombatEvent;
use crate::rules::Condition;

/// Rolls initiative and readies the clock; the engine then opens the first window.
pub fn start(b: &mut Battle) {
    let some_aware = b.fighters.iter().any(|f| f.awareness().aware);
    let some_unaware = b.fighters.iter().any(|f| !f.awareness().aware);
    let rules = b.rules();
    b.clock.surprise_pending = some_aware && some_unaware && rules.surprise_round();
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
    let n = b.fighters.len();
    for i in 0..n {
        let roll = b.dice.roll(20) as i32;
        let modifier = b.fighters.stats[i].dex_mod();
        let bonus = if b.fighters.awareness[i].aware { bonus_for_aware } else { 0 };
        let total = roll + modifier + bonus;
        // Ties: the higher initiative modifier first, then the dice.
        let tie = b.dice.roll(1000) as i64;
        b.fighters.initiative[i].order = (total as i64 * 100 + (modifier as i64 + 50)) * 10_000 + tie;
        b.fighters.initiative[i].shown = total;
        let id = b.fighters.combatant[i].id.clone();
        let note = if bonus > 0 {
            format!("(d20 {roll} {modifier:+} Dex +{bonus} surprise round)")
        } else {
            format!("(d20 {roll} {modifier:+} Dex)")
        };
        b.emit(CombatEvent::Initiative { unit: id, roll: Some(roll), total, note });
    }
    sort_order(b);
}

pub(crate) fn sort_order(b: &mut Battle) {
    let mut order: Vec<usize> = (0..b.fighters.len()).collect();
    order.sort_by(|&x, &y| b.fighters.initiative[y].order.cmp(&b.fighters.initiative[x].order).then(x.cmp(&y)));
    b.clock.order = order;
}

/// d20-classic and four-actions: a surprise round for the aware, then rounds in
/// initiative order.
pub(crate) fn next_round(b: &mut Battle) {
    if b.clock.surprise_pending {
        b.clock.surprise_pending = false;
        b.clock.surprise = true;
        b.emit(CombatEvent::RoundStarted { round: 0 });
        b.emit(CombatEvent::PhaseStarted { round: 0, phase: 0, name: "surprise round".into() });
        b.clock.queue = b.rules().surprise_queue(b);
        return;
    }
    if b.clock.surprise {
        b.rules().after_surprise_round(b);
    }
    b.clock.surprise = false;
    b.clock.round += 1;
    round_reset(b);
    let r = b.clock.round;
    b.emit(CombatEvent::RoundStarted { round: r });
    b.clock.queue = b.clock.order.clone();
}

pub(crate) fn round_reset(b: &mut Battle) {
    b.fighters.reactions.each_mut(new_round);
    if b.clock.round > b.options.round_cap {
        b.finish(None, "round cap reached");
    }
}

/// A fighter's reactions as a round begins: none taken this round, nobody struck yet.
pub(crate) fn new_round(r: &mut super::fighter::Reactions) {
    r.this_round = 0;
    r.free_attacked_by.clear();
}

/// The budget a fighter gets when its opportunity opens.
fn fresh_budget(b: &Battle, i: usize) -> Budget {
    b.rules().fresh_budget(b, i)
}

/// What one tick of the clock came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tick {
    /// Nobody is left to act in this window: the variant opens the next.
    OpenWindow,
    /// The next in the queue could not act (fallen, dying, stunned…): tick again.
    Again,
    /// Someone's opportunity is open, or the battle is over.
    Settled,
}

/// One tick of moving time on: the next fighter in the queue gets its opportunity, or a
/// dying one its death save or bleeding; an empty queue calls for the next window of time.
/// Ends the battle when a side is out of the fight, or when `windows` (the windows opened
/// while looking for someone to act) passes 64.
pub fn tick(b: &mut Battle, windows: &mut u32) -> Tick {
    if b.is_over() || b.check_victory() {
        return Tick::Settled;
    }
    if b.clock.queue.is_empty() {
        *windows += 1;
        if *windows > 64 {
            b.finish(None, "nobody can act");
            return Tick::Settled;
        }
        return Tick::OpenWindow;
    }
    let i = b.clock.queue.remove(0);
    if !b.fighters.conditions[i].alive() {
        return Tick::Again;
    }
    // A dying fighter's turn is its death save (turn-based variants) or bleeding.
    if !b.fighters.conditions[i].in_fight() {
        if b.rules().dying_acts_now(b) && b.fighters.conditions[i].has(Condition::Dying) {
            super::resolve::dying_turn(b, i);
        }
        return Tick::Again;
    }
    if !b.fighters.conditions[i].can_act() {
        return Tick::Again;
    }
    b.clock.actor = Some(i);
    b.fighters.economy[i].budget = fresh_budget(b, i);
    b.rules().opportunity_opens(b, i);
    Tick::Settled
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
