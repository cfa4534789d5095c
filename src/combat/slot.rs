//! Where in the rules schedule's resolve stage each command is carried out: the slots, in
//! the order they run, and the slots a house rule left with no system (whose commands the
//! checks refuse).

use super::command::Command;
use bevy::prelude::*;

/// The places in the resolve stage, in the order they run. Each runs only for the
/// commands it is about; a variant's plugin fills an empty slot or replaces the common
/// system in one (`schedule::replace_slot`).
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Slot {
    /// Before anything is spent, the variant may act first (ap-phases: an advanced action
    /// under way goes on, or is abandoned).
    TakeOver,
    /// The budget the command leaves.
    Spend,
    Movement,
    Attack,
    Charge,
    Defend,
    Delay,
    Maneuver,
    Escape,
    /// Commands only some variants have (dash, tumble, wrestle, coup de grace, first aid).
    Own,
    Hold,
    /// What a variant does when an attack is held (ap-phases: it forfeits the round's
    /// other actions).
    Held,
    Stance,
    Cast,
    Orders,
    /// What the command spent beyond the budget.
    AfterCommand,
}

impl Slot {
    pub const ORDER: [Slot; 16] = [
        Slot::TakeOver,
        Slot::Spend,
        Slot::Movement,
        Slot::Attack,
        Slot::Charge,
        Slot::Defend,
        Slot::Delay,
        Slot::Maneuver,
        Slot::Escape,
        Slot::Own,
        Slot::Hold,
        Slot::Held,
        Slot::Stance,
        Slot::Cast,
        Slot::Orders,
        Slot::AfterCommand,
    ];

    /// The slot that carries `cmd` out (ending the turn has none): a new command does not
    /// compile until it has a place here.
    pub fn of(cmd: &Command) -> Option<Slot> {
        use Command as C;
        Some(match cmd {
            C::Move { .. } | C::Step { .. } => Slot::Movement,
            C::Attack { .. } | C::FullAttack { .. } | C::Reload => Slot::Attack,
            C::Charge { .. } => Slot::Charge,
            C::Defend => Slot::Defend,
            C::Delay => Slot::Delay,
            C::Trip { .. } | C::Grapple { .. } | C::Shove { .. } | C::Disarm { .. } | C::Stand => Slot::Maneuver,
            C::Escape => Slot::Escape,
            C::Wrestle { .. } | C::CoupDeGrace { .. } | C::FirstAid { .. } | C::Dash { .. } | C::Tumble { .. } => {
                Slot::Own
            }
            C::Hold { .. } => Slot::Hold,
            C::Stance { .. } | C::Guard | C::Focus => Slot::Stance,
            C::Cast { .. } => Slot::Cast,
            C::Declare { .. } | C::AbortOrder { .. } => Slot::Orders,
            C::EndTurn => return None,
        })
    }

    /// Whether this slot runs for `cmd` (the spending slots run for every command).
    pub(crate) fn covers(self, cmd: &Command) -> bool {
        match self {
            Slot::TakeOver | Slot::Spend | Slot::AfterCommand => true,
            Slot::Held => Slot::of(cmd) == Some(Slot::Hold),
            slot => Slot::of(cmd) == Some(slot),
        }
    }
}

/// The resolve slots left with no system in them (a house rule took it out): the checks
/// refuse a command that would be resolved there.
#[derive(Resource, Debug, Default)]
pub struct UnfilledSlots(pub Vec<Slot>);

impl UnfilledSlots {
    /// Whether `cmd` would be resolved by no system.
    pub fn unresolved(&self, cmd: &Command) -> bool {
        Slot::of(cmd).is_some_and(|slot| self.0.contains(&slot))
    }
}
