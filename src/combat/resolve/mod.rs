//! Checking and resolving commands, as the drivers and the checks call them over the
//! battle: what each costs in the variant's action economy, movement with attacks of
//! opportunity square by square, the attack routine and an attack's terms weighed (its roll
//! and critical are the `SwingSchedule`'s systems, its damage and harm the
//! `HarmSchedule`'s), conditions gained and lost, and death.

mod actions;
mod economy;
mod harm;
pub mod magic;
mod movement;
mod reactions;
mod strike;
mod validate;

pub(crate) use super::battle::Maneuver;
pub(crate) use actions::maneuver_checked;
pub(crate) use economy::{take_move, take_standard};
pub(crate) use harm::{Grapplers, apply_damage, death_check, kill, release, release_both, set_condition};
pub use movement::{Leg, Then, Walk};
pub(crate) use movement::{beside, charge_walk, drag_beside, straight_run};
pub(crate) use reactions::{opportunity, provoke_threateners};
pub use reactions::{reaction_allowance, reactions_allowed};
pub(crate) use strike::{A_COMBATANT, attack_routine, charge_attack, deal_damage, foresee, held_attack, id, in_fight};
pub(crate) use strike::{check, refresh, seat, with_dice_and_log};

use economy::*;
use reactions::*;
use strike::*;

use super::attack::{self, AttackContext, AttackKind};
use super::battle::{Battle, Taken};
use super::command::{Command, RuleError};
use super::event::CombatEvent;
use super::fighter::Modifier;
use super::struck::{
    AttackedSchedule, Distracted, DistractedSchedule, Harm, HarmSchedule, Swing, SwingSchedule, UnderAttack, WeaponBlow,
};
use super::time::Budget;
use crate::grid::{Footprint, GridPos};
use crate::level::WeaponKind;
use crate::rules::{self, Condition, MoveMode, PathPlan};
use crate::variants::RulesVariant;

/// What a legal command would do, without doing it.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub command: Command,
    /// The budget left afterwards.
    pub budget_after: Budget,
    /// For movement: the path, its cost and the attacks of opportunity it provokes.
    pub path: Option<PathPlan>,
    /// For attacks: the first attack's roll.
    pub attack: Option<attack::AttackProfile>,
    /// Attack penalty slot (four-actions secondary/tertiary, ap-phases nth action).
    pub kind: AttackKind,
}

fn err(b: &Battle, actor: usize, cmd: &Command, reason: impl Into<String>) -> RuleError {
    RuleError { unit: b.fighters.combatant[actor].id.clone(), action: cmd.name().into(), reason: reason.into() }
}
