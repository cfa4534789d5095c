//! Commands: what a player, the AI or a replay asks a combatant to do. Each is checked
//! by `BattleWorld::validate` (legality, cost, what it would provoke) before it is resolved.

use crate::grid::GridPos;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// One request for the acting combatant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case")]
pub enum Command {
    /// A move action (advance, move): up to the variant's allowance, provoking.
    Move { to: GridPos },
    /// A 5-ft step / side step / 1-hex step (osr-segments: a positioning move).
    Step { to: GridPos },
    /// A single attack (the variant decides its slot and penalty).
    Attack { target: String },
    /// Every attack the turn allows against one foe (d20-classic iterative attacks).
    FullAttack { target: String },
    /// Charge a foe: move in a straight line and attack.
    Charge { target: String },
    /// Total defense / full defense / defend / dodge: the variant's defensive action.
    Defend,
    /// Act later in the order (the new place persists).
    Delay,
    /// Stand up from prone.
    Stand,
    /// Try to knock a foe prone.
    Trip { target: String },
    /// Push a foe back (d20-classic shove, four-actions push, ap-phases bull rush).
    Shove { target: String },
    /// Make a foe drop its weapon.
    Disarm { target: String },
    /// Seize a foe: both are grappled (d20-classic, four-actions).
    Grapple { target: String },
    /// Try to break free of a grapple.
    Escape,
    /// Load a crossbow.
    Reload,
    /// four-actions: dash at one-and-a-half speed, not through difficult terrain.
    Dash { to: crate::grid::GridPos },
    /// four-actions: tumble at half speed past foes without provoking, on a check.
    Tumble { to: crate::grid::GridPos },
    /// Hold (ready, wait) an attack for when a foe (this one, or any) comes into reach.
    Hold { target: Option<String> },
    /// d20-classic / ap-phases: fight defensively or recklessly until the next turn.
    Stance { stance: Stance },
    /// four-actions: guard (+2 AC for a round, a move action).
    Guard,
    /// four-actions: focus (+1 on attack and damage for a round, a quick action).
    Focus,
    /// osr-segments: what this combatant will do this round, declared before group
    /// initiative is rolled.
    Declare { intent: Intent },
    /// hex-phases: a standing order (a free action) to abort to a dodge when attacked
    /// before this unit's next action, giving that action up.
    AbortOrder { on: bool },
    /// Cast a spell at a foe, or on a friend or itself. `defensive`: d20-classic and
    /// ap-phases cast defensively, a concentration check instead of provoking.
    Cast {
        spell: String,
        target: String,
        #[serde(default)]
        defensive: bool,
    },
    /// Nothing more this turn (or phase).
    EndTurn,
    /// four-actions: the grapple contest of the turn (the standard action against the
    /// other's reaction); the winner ends or maintains the grapple, and maintaining it
    /// may follow up.
    Wrestle { follow_up: GrappleFollowUp },
    /// ap-phases: deliver a coup de grace to a helpless foe (complex, 3 AP).
    CoupDeGrace { target: String },
    /// ap-phases: first aid to stabilise a dying ally (complex, 2 AP).
    FirstAid { target: String },
}

impl Command {
    /// The square it goes to, if it moves.
    pub fn destination(&self) -> Option<GridPos> {
        match self {
            Command::Move { to } | Command::Step { to } | Command::Dash { to } | Command::Tumble { to } => Some(*to),
            _ => None,
        }
    }

    /// The combatant it is aimed at, if any (a foe, or a friend healed or aided).
    pub fn target(&self) -> Option<&str> {
        match self {
            Command::Attack { target }
            | Command::FullAttack { target }
            | Command::Charge { target }
            | Command::Trip { target }
            | Command::Shove { target }
            | Command::Disarm { target }
            | Command::Grapple { target }
            | Command::Cast { target, .. }
            | Command::CoupDeGrace { target }
            | Command::FirstAid { target }
            | Command::Declare { intent: Intent::Charge { target } } => Some(target),
            _ => None,
        }
    }

    /// The same command with the square it goes to moved by `by` (from a part of a battle
    /// to the whole, or back: `BattleWorld`'s `Snapshot::part`).
    pub fn shifted(&self, by: (i32, i32)) -> Command {
        match self {
            Command::Move { to } => Command::Move { to: to.offset(by.0, by.1) },
            Command::Step { to } => Command::Step { to: to.offset(by.0, by.1) },
            Command::Dash { to } => Command::Dash { to: to.offset(by.0, by.1) },
            Command::Tumble { to } => Command::Tumble { to: to.offset(by.0, by.1) },
            other => other.clone(),
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Command::Move { .. } => "move",
            Command::Step { .. } => "step",
            Command::Attack { .. } => "attack",
            Command::FullAttack { .. } => "full attack",
            Command::Charge { .. } => "charge",
            Command::Defend => "defend",
            Command::Delay => "delay",
            Command::Stand => "stand up",
            Command::Trip { .. } => "trip",
            Command::Shove { .. } => "shove",
            Command::Disarm { .. } => "disarm",
            Command::Grapple { .. } => "grapple",
            Command::Escape => "escape",
            Command::Reload => "reload",
            Command::Dash { .. } => "dash",
            Command::Tumble { .. } => "tumble",
            Command::Hold { .. } => "hold an attack",
            Command::Stance { .. } => "change stance",
            Command::Guard => "guard",
            Command::Focus => "focus",
            Command::AbortOrder { .. } => "set the abort order",
            Command::Declare { .. } => "declare",
            Command::Cast { .. } => "cast a spell",
            Command::EndTurn => "end turn",
            Command::Wrestle { .. } => "wrestle",
            Command::CoupDeGrace { .. } => "deliver a coup de grace",
            Command::FirstAid { .. } => "provide first aid",
        }
    }
}

/// An osr-segments declaration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "intent", rename_all = "snake_case")]
pub enum Intent {
    /// Fight as the group initiative allows: attack, move, or nothing.
    Fight,
    /// A fast action: charge this foe before the groups act.
    Charge { target: String },
    /// A declared delay: act on LOW initiative whatever the group's roll, without the
    /// delayed condition.
    Delay,
    /// A spell (an incantation): the target is announced in the caster's group turn and
    /// the spell goes off in the spells step, in the segment its casting time says.
    Cast { spell: String },
}

impl Intent {
    /// In a word or two ("fight", "charge at ogre"), for a label.
    pub fn name(&self) -> String {
        match self {
            Intent::Fight => "fight".into(),
            Intent::Charge { target } => format!("charge at {target}"),
            Intent::Delay => "delay".into(),
            Intent::Cast { spell } => spell.clone(),
        }
    }

    /// In a sentence's words, with what it means for the round.
    pub fn describe(&self) -> String {
        match self {
            Intent::Fight => "to fight (attack or move with its group)".into(),
            Intent::Charge { target } => format!("a charge at {target} (a fast action)"),
            Intent::Delay => "a delay (acts on LOW initiative)".into(),
            Intent::Cast { spell } => format!("to cast {spell} (goes off in the spells step)"),
        }
    }
}

/// How to fight until the next turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stance {
    /// −4 on attacks, +2 to AC.
    Defensive,
    /// −4 to AC, +2 on damage.
    Reckless,
}

/// What the winner of a four-actions grapple contest does with the grapple.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GrappleFollowUp {
    /// Keep hold, and nothing more.
    Maintain,
    /// End the grapple: both are free.
    End,
    /// Keep hold and knock the foe prone.
    Trip,
    /// Keep hold and push the foe 5 ft, moving with it.
    Push,
    /// Keep hold and make a (primary) attack on the foe.
    Attack,
    /// Keep hold and pin the foe (ap-phases).
    Pin,
    /// Keep hold and move to `to`, taking the foe along: it is placed beside the mover at
    /// the end (ap-phases).
    Move { to: GridPos },
}

impl GrappleFollowUp {
    /// Whether the winner keeps hold.
    pub fn maintains(self) -> bool {
        self != GrappleFollowUp::End
    }

    pub fn describe(self) -> &'static str {
        match self {
            GrappleFollowUp::Maintain => "maintains the grapple",
            GrappleFollowUp::End => "ends the grapple",
            GrappleFollowUp::Trip => "maintains the grapple and trips",
            GrappleFollowUp::Push => "maintains the grapple and pushes",
            GrappleFollowUp::Attack => "maintains the grapple and attacks",
            GrappleFollowUp::Pin => "maintains the grapple and pins",
            GrappleFollowUp::Move { .. } => "maintains the grapple and moves",
        }
    }
}

/// Why a command is not legal now.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{unit} cannot {action}: {reason}")]
pub struct RuleError {
    pub unit: String,
    pub action: String,
    pub reason: String,
}
