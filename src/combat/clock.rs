//! The combat clock's shared moves: initiative rolled or scored (`Initiatives`, what the
//! variants' systems that start a battle take), the order, and a fighter's reactions back
//! as a round begins. Time moves on only by the
//! rules schedule's clock (`schedule::clock`), where each variant opens its own windows
//! (rounds, phases, segment steps) with systems of its own.

pub use super::time::{Budget, Clock};

use super::battle::{Combatants, EventLog};
use super::event::CombatEvent;
use super::fighter::Initiative;
use crate::rules::{Awareness, Combatant, Dice, Stats};
use bevy::ecs::system::SystemParam;
use bevy::prelude::{Entity, Query, Res, ResMut};

/// What the systems that start a battle (the clock schedule's `Begin` step) roll
/// initiative with: each combatant's name, scores, awareness and initiative in seat (id)
/// order, the seeded dice, the log, and the clock that keeps the order.
#[derive(SystemParam)]
pub struct Initiatives<'w, 's> {
    seats: Res<'w, Combatants>,
    fighters: Query<'w, 's, (&'static Combatant, &'static Stats, &'static Awareness, &'static mut Initiative)>,
    dice: ResMut<'w, Dice>,
    log: ResMut<'w, EventLog>,
    clock: ResMut<'w, Clock>,
}

impl Initiatives<'_, '_> {
    /// An initiative that is a score, not a roll (`note` says which, in the log's words);
    /// ties are broken once by the seeded dice.
    pub(crate) fn fixed(&mut self, score: impl Fn(&Stats) -> i32, note: &str) {
        let mut each = self.fighters.iter_many_mut(&self.seats.0);
        while let Some((who, stats, _, mut initiative)) = each.fetch_next() {
            let total = score(stats);
            let tie = self.dice.roll(1000) as i64;
            *initiative = Initiative { order: total as i64 * 10_000 + tie, shown: total };
            self.log.push(CombatEvent::Initiative { unit: who.id.clone(), roll: None, total, note: note.into() });
        }
        self.sort();
    }

    /// Everyone rolls d20 initiative, those aware of their foes at `bonus_for_aware`.
    pub(crate) fn roll_d20(&mut self, bonus_for_aware: i32) {
        let mut each = self.fighters.iter_many_mut(&self.seats.0);
        while let Some((who, stats, awareness, mut initiative)) = each.fetch_next() {
            let (rolled, event) =
                d20_initiative(&mut self.dice, &who.id, stats.dex_mod(), awareness.aware, bonus_for_aware);
            *initiative = rolled;
            self.log.push(event);
        }
        self.sort();
    }

    fn sort(&mut self) {
        let fighters = &self.fighters;
        let orders = self.seats.0.iter().filter_map(|&e| Some((e, fighters.get(e).ok()?.3.order)));
        self.clock.order = initiative_order(orders);
    }
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

/// The combatants, given in id order with their initiative, in initiative order: highest
/// first; ties (there are none after the dice) in id order.
pub(crate) fn initiative_order(orders: impl Iterator<Item = (Entity, i64)>) -> Vec<Entity> {
    let mut orders: Vec<(Entity, i64)> = orders.collect();
    orders.sort_by_key(|&(_, order)| std::cmp::Reverse(order));
    orders.into_iter().map(|(e, _)| e).collect()
}

/// A fighter's reactions as a round begins: none taken this round, nobody struck yet.
pub(crate) fn new_round(r: &mut super::fighter::Reactions) {
    r.this_round = 0;
    r.free_attacked_by.clear();
}
