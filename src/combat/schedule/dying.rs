//! A dying fighter's turn. When the clock calls a dying fighter (`call_next`), the
//! [`ClockStep::DyingTurn`](super::ClockStep::DyingTurn) step runs its variant's system in
//! [`DyingTurn`]: a death save (d20-classic), a stabilising check (ap-phases), a Fortitude
//! save (four-actions) or bleeding (osr-segments), each with the run condition of the window
//! its turn falls in. What they share, the fighter called and what a turn's outcome does to
//! it (stable, or worse and perhaps dead), is [`DyingTurns`].

use crate::combat::battle::{Derived, EventLog, change_condition};
use crate::combat::event::CombatEvent;
use crate::combat::schedule::clock::Called;
use crate::rules::{Battlefield, Combatant, Condition, Conditions, Dice, Health, Stats};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

/// The variant's system that takes a dying fighter's turn.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DyingTurn;

/// What a dying fighter's turn came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dying {
    /// It stabilises: no longer dying.
    Stabilizes,
    /// It is no better: if past the point of death, it dies.
    Worsens,
    /// It holds on as it was.
    Holds,
}

/// The dying fighter the clock called, and what its turn reads and changes: its stats,
/// hit points and conditions, the dice, the log and the derived maps.
#[derive(SystemParam)]
pub(crate) struct DyingTurns<'w, 's> {
    called: Res<'w, Called>,
    fighters: Query<'w, 's, (&'static Combatant, &'static Stats, &'static mut Health, &'static mut Conditions)>,
    dice: ResMut<'w, Dice>,
    log: ResMut<'w, EventLog>,
    derived: ResMut<'w, Derived>,
    field: Res<'w, Battlefield>,
}

impl DyingTurns<'_, '_> {
    /// Takes the called fighter's turn: `turn` rolls (or bleeds) and changes its hit points,
    /// and says what was logged and what it came to; past the point of death (its
    /// variant's `rules.death`), a fighter that worsened dies.
    pub(crate) fn take(mut self, turn: impl FnOnce(&Stats, &mut Health, &mut Dice) -> (Logged, Dying)) {
        let Called::Dying(e) = *self.called else { return };
        let Ok((who, stats, mut health, mut conditions)) = self.fighters.get_mut(e) else { return };
        let (logged, came_to) = turn(stats, &mut health, &mut self.dice);
        let unit = who.id.clone();
        self.log.push(match logged {
            Logged::Save { kind, roll, bonus, dc, success } => {
                CombatEvent::Save { unit: unit.clone(), kind: kind.into(), roll, bonus, dc, success }
            }
            Logged::Bleeds => {
                CombatEvent::Action { unit: unit.clone(), action: "bleeds".into(), detail: "1 hp".into() }
            }
        });
        let mut change = |condition: Condition, gained: bool| {
            change_condition(&unit, &mut conditions, condition, gained, &mut self.log, &mut self.derived);
        };
        match came_to {
            Dying::Stabilizes => {
                change(Condition::Dying, false);
                change(Condition::Stabilized, true);
            }
            Dying::Worsens
                if self.field.variant.numbers().rules.death.reached(
                    health.hp,
                    stats.def.abilities.con,
                    health.death_fails,
                ) =>
            {
                change(Condition::Dying, false);
                change(Condition::Stabilized, false);
                change(Condition::Dead, true);
            }
            Dying::Worsens | Dying::Holds => {}
        }
    }
}

/// What a dying turn logs: a save (its kind in the log's words, the d20 or d% roll, the
/// bonus and the DC) or a hit point bled.
pub(crate) enum Logged {
    Save { kind: &'static str, roll: i32, bonus: i32, dc: i32, success: bool },
    Bleeds,
}

impl Logged {
    /// A save of `kind`: `roll + bonus` against `dc`.
    pub(crate) fn save(kind: &'static str, roll: i32, bonus: i32, dc: i32) -> Logged {
        Logged::Save { kind, roll, bonus, dc, success: roll + bonus >= dc }
    }

    /// The save succeeded.
    pub(crate) fn saved(&self) -> bool {
        matches!(self, Logged::Save { success: true, .. })
    }
}

/// A save that, failed, costs a hit point (ap-phases, four-actions): what it logs, and
/// whether the fighter worsened; `on_success` is what a success comes to.
pub(crate) fn save_or_bleed(save: Logged, health: &mut Health, on_success: Dying) -> (Logged, Dying) {
    if save.saved() {
        return (save, on_success);
    }
    health.hp -= 1;
    (save, Dying::Worsens)
}
