//! Commands: what a player, the AI or a replay asks a combatant to do. Each is checked
//! by `Battle::validate` (legality, cost, what it would provoke) before it is resolved.

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
    /// Nothing more this turn (or phase).
    EndTurn,
}

impl Command {
    pub fn name(&self) -> &'static str {
        match self {
            Command::Move { .. } => "move",
            Command::Step { .. } => "step",
            Command::Attack { .. } => "attack",
            Command::FullAttack { .. } => "full attack",
            Command::Charge { .. } => "charge",
            Command::Defend => "defend",
            Command::Delay => "delay",
            Command::EndTurn => "end turn",
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
