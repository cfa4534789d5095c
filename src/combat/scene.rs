//! Setting a scene: a battle's world changed from outside the rules, by a test, a scenario,
//! the comparison's mirrors or a preview. A fighter's component is reached by its seat (its
//! place in id order), a resource by its type, and a wound is dealt by the harm pipeline.
//! Every change marks the derived maps stale; they are brought up to date when the scene is
//! done, so the battle can be read at once. Nothing here is a rule: the rules run in the
//! schedule, on the same world.

use super::battle::store::Record;
use super::battle::{BattleOptions, Combatants, Derived, EventLog, finish, with_taken};
use super::resolve::{apply_damage, refresh};
use super::time::Clock;
use super::world::BattleWorld;
use crate::rules::Dice;
use bevy::ecs::component::Mutable;
use bevy::prelude::*;

/// A battle's world, open to be set up; its derived maps are brought up to date when it is
/// dropped.
pub struct Scene<'a> {
    battle: &'a mut BattleWorld,
}

impl BattleWorld {
    /// The battle's world, to set a scene in.
    pub fn scene(&mut self) -> Scene<'_> {
        Scene { battle: self }
    }
}

impl Scene<'_> {
    fn world(&mut self) -> &mut World {
        self.battle.world_mut()
    }

    /// The entity of the fighter in seat `i`.
    pub fn entity(&self, i: usize) -> Entity {
        self.battle.world().resource::<Combatants>().0[i]
    }

    /// Component `C` of the fighter in seat `i`, to change.
    pub fn fighter<C: Component<Mutability = Mutable>>(&mut self, i: usize) -> Mut<'_, C> {
        let e = self.entity(i);
        self.invalidate();
        let missing = || panic!("fighter {i} has no {}", std::any::type_name::<C>());
        self.world().get_mut::<C>(e).unwrap_or_else(missing)
    }

    /// Does `work` to component `C` of every fighter, in id order.
    pub fn each<C: Component<Mutability = Mutable>>(&mut self, mut work: impl FnMut(&mut C)) {
        for i in 0..self.battle.world().resource::<Combatants>().0.len() {
            work(&mut self.fighter::<C>(i));
        }
    }

    /// Resource `R` of the battle (the clock, the dice, a variant's own state), to change.
    pub fn resource<R: Resource + Component<Mutability = Mutable>>(&mut self) -> Mut<'_, R> {
        self.invalidate();
        self.world().resource_mut::<R>()
    }

    /// The battle's clock.
    pub fn clock(&mut self) -> Mut<'_, Clock> {
        self.resource::<Clock>()
    }

    /// The battle's dice.
    pub fn dice(&mut self) -> Mut<'_, Dice> {
        self.resource::<Dice>()
    }

    /// The battle's settings.
    pub fn options(&mut self) -> &mut BattleOptions {
        &mut self.resource::<Record>().into_inner().options
    }

    /// The attacks of opportunity noted while a command is only foreseen (`Some` while it
    /// is).
    pub(crate) fn foreseen(&mut self) -> &mut Option<Vec<super::battle::Provoked>> {
        &mut self.world().resource_mut::<Record>().into_inner().foreseen
    }

    /// Ends the battle, once, with `winner` (none: a draw) and why.
    pub fn finish(&mut self, winner: Option<String>, reason: &str) {
        with_taken(self.world(), |world, clock: &mut Clock| {
            with_taken(world, |world, log: &mut EventLog| {
                finish(&mut world.resource_mut::<Record>().into_inner().winner, clock, log, winner, reason);
            })
        });
    }

    /// Damage from outside an attack roll (a trap, a scenario, a test): `amount` hit points
    /// from the fighter in seat `by` to the one in seat `t`, dealt by the harm pipeline with
    /// everything that follows from it (dropping, broken concentration).
    pub fn wound(&mut self, by: usize, t: usize, amount: i32) {
        let (by, t) = (self.entity(by), self.entity(t));
        apply_damage(self.world(), by, t, amount, false, "wound".into(), vec![], vec![]);
    }

    /// Marks the derived maps stale, to be rebuilt when the scene is done.
    fn invalidate(&mut self) {
        self.world().resource_mut::<Derived>().stale = true;
    }
}

impl Drop for Scene<'_> {
    fn drop(&mut self) {
        refresh(self.world());
    }
}
