//! What a fighter took in a strike, counted by its variant: an attack action (ap-phases),
//! an attack of opportunity or a held action (d20-classic's immediate action; a held action
//! moves its taker in the order). The shared rules note each as they make the strike (in
//! the `TakenInStrike` resource); once the strike is made, the harm driver runs the
//! [`TakenSchedule`], where each variant's systems in [`CountTaken`] count what they count,
//! over the components they name, and the notes are then forgotten.

use crate::combat::battle::{Combatants, Taken, TakenInStrike};
use crate::combat::clock::initiative_order;
use crate::combat::fighter::Initiative;
use crate::combat::time::Clock;
use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;

/// The schedule run after each strike that took something a variant counts.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TakenSchedule;

/// Every system of the [`TakenSchedule`]: the variant's counting, then the notes forgotten.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AfterStrike;

impl AfterStrike {
    pub fn name(self) -> &'static str {
        "strikes: taken"
    }
}

/// The variant's systems that count what a strike took.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CountTaken;

pub(super) fn add_taken(app: &mut App) {
    app.add_schedule(super::rule_schedule(TakenSchedule)).init_resource::<TakenInStrike>();
    app.configure_sets(TakenSchedule, CountTaken.in_set(AfterStrike));
    app.add_systems(TakenSchedule, forget_taken.after(CountTaken).in_set(AfterStrike));
}

/// The strike's notes are counted: forgotten.
fn forget_taken(mut taken: ResMut<TakenInStrike>) {
    taken.0.clear();
}

/// Once a strike is made: the variant counts what it took, if it took anything.
pub(crate) fn count_taken(world: &mut World) {
    if !world.resource::<TakenInStrike>().0.is_empty() {
        world.run_schedule(TakenSchedule);
    }
}

/// Each taker of a held action in the strike goes to `key` of its trigger's place in the
/// initiative order (its readied action moved it), and the order is sorted again
/// (`clock::initiative_order`, over the combatants in id order): the takers moved, in
/// order.
pub(crate) fn held_action_takers_move(
    taken: &TakenInStrike,
    seats: &Combatants,
    initiatives: &mut Query<&mut Initiative>,
    clock: &mut Clock,
    key: impl Fn(i64) -> i64,
) -> Vec<Entity> {
    let order_of = |initiatives: &Query<&mut Initiative>, e: Entity| initiatives.get(e).map_or(i64::MIN, |i| i.order);
    let mut moved = Vec::new();
    for &t in &taken.0 {
        let Taken::HeldAction { by, trigger } = t else { continue };
        let new = key(order_of(initiatives, trigger));
        let Ok(mut held) = initiatives.get_mut(by) else { continue };
        held.order = new;
        clock.order = initiative_order(seats.0.iter().map(|&e| (e, order_of(initiatives, e))));
        moved.push(by);
    }
    moved
}
