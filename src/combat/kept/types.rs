//! The data each variant keeps of its own, as plain types: each combatant's part of the
//! action economy (components), the battle's part (a resource) and a budget's part. The
//! variant's module re-exports its types and gives them their meaning; they live here, below
//! the shared state that holds them, so that nothing holds them type-erased.

use crate::combat::command::{GrappleFollowUp, Intent};
use bevy::prelude::{Component, Resource};

/// An advanced action in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Advanced {
    pub action: AdvancedKind,
    pub spent: u8,
    pub needed: u8,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AdvancedKind {
    Charge {
        target: String,
    },
    TotalDefense,
    /// A standard-action spell (complex, 2 AP); `defensive`: cast defensively, so no
    /// longer complex.
    Cast {
        spell: String,
        target: String,
        defensive: bool,
    },
    CoupDeGrace {
        target: String,
    },
    FirstAid {
        target: String,
    },
    /// Initiating a grapple (an attack action, 2 AP).
    Grapple {
        target: String,
    },
    /// Continuing a grapple (2 AP), then `follow_up`.
    ContinueGrapple {
        follow_up: GrappleFollowUp,
    },
}

/// ap-phases' part of a combatant's economy in a round: action points left, attack actions
/// taken, and the advanced action under way.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct ActionPoints {
    pub ap: u8,
    pub attack_actions: u8,
    /// Escapes from a grapple tried this round.
    pub escapes: u8,
    pub advanced: Option<Advanced>,
}

/// ap-phases' own part of a budget.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PhaseAction {
    /// One action may be taken in this phase.
    pub left: bool,
    /// An advanced action is under way: ending the turn spends this phase's AP on it;
    /// any other action abandons it.
    pub continuing: bool,
}

/// d20-classic's own part of a budget: the swift action.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SwiftAction {
    pub left: bool,
}

/// d20-classic's part of a combatant's economy: what its immediate action (one a round,
/// until its next turn) went on.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImmediateAction(pub Option<Immediate>);

/// four-actions' own part of a budget: the quick action, beside the standard and move
/// actions every variant of the family has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QuickAction {
    pub left: bool,
}

/// hex-phases' own part of a budget: what of a phase's actions ("an attack action and a
/// move action, or two move actions") is used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PhaseActions {
    pub attack_used: bool,
    pub moves_used: u8,
}

/// hex-phases' part of a combatant's economy: its standing order to abort to a dodge when
/// attacked (`None`: when down to half its hit points or less), whether it has aborted
/// and may not again until its next action, and the (turn, phase) whose action an abort
/// gave up.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Abort {
    pub order: Option<bool>,
    pub locked: bool,
    pub skip: Option<(u32, u32)>,
}

impl Abort {
    /// Whether it aborts to a dodge when attacked: as ordered, or without an order when down
    /// to half its hit points or fewer.
    pub fn when_attacked(&self, health: &crate::rules::Health) -> bool {
        self.order.unwrap_or(health.hp * 2 <= health.max)
    }
}

/// The steps of a round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum OsrStep {
    #[default]
    Declare,
    FastActions,
    /// Fighters with the multi-attack ability in melee strike first…
    MultiFirst,
    High,
    Low,
    /// …and finish their remaining attacks after the LOW group.
    MultiRest,
    /// Step 7: spells go off by segment.
    Spells,
}

/// osr-segments' own state of a round: its step and each side's group.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct OsrRound {
    pub step: OsrStep,
    /// Each side's group initiative (true = HIGH).
    pub high: Vec<(String, bool)>,
}

/// osr-segments' part of a combatant's economy in a round: what it declared, and whether
/// it has taken its major action (and attacked with it).
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct Declaration {
    pub intent: Option<Intent>,
    pub acted: bool,
    pub attacked: bool,
}

/// osr-segments' own part of a budget: the round's major action, and what the step
/// allows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MajorAction {
    pub major: bool,
    /// Only fast actions (charge, flee) now.
    pub fast_only: bool,
    /// Only the multi-attack routine now.
    pub attacks_only: bool,
    /// The round's declarations are being made; only a declaration now.
    pub declaring: bool,
}

/// What an immediate action is spent on (d20-classic keeps which, in each combatant's
/// `Economy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Immediate {
    AttackOfOpportunity,
    HeldAction,
    Counterspell,
}
