//! The components only a battle's combatants have (beyond those of `rules::components`):
//! bonuses lasting until its next turn, reactions and held attacks, grapples, spells,
//! initiative and its part of its variant's action economy; and the modifiers they carry.

use super::time::Budget;
use bevy::ecs::entity::{EntityMapper, MapEntities};
use bevy::prelude::{Component, Entity};
use serde::Serialize;
use std::collections::BTreeSet;

/// Bonuses lasting until its next turn, by name.
#[derive(Component, Debug, Default, PartialEq, Eq)]
pub struct Bonuses {
    pub defense: Vec<(String, i32)>,
    pub offense: Vec<(String, i32)>,
    pub damage: Vec<(String, i32)>,
}

clone_in_place!(Bonuses { defense, offense, damage });

/// The names the bonuses of a stance, a guard, a focus and hex-phases' dodge go by (in the
/// log's words).
pub const FIGHTING_DEFENSIVELY: &str = "fighting defensively";
pub const RECKLESS: &str = "reckless";
pub const GUARD: &str = "guard";
pub const FOCUS: &str = "focus";
pub const DODGE: &str = "dodge";

impl Bonuses {
    /// Whether a bonus of this name stands, to attack, AC or damage.
    pub fn has(&self, name: &str) -> bool {
        self.offense.iter().chain(&self.defense).chain(&self.damage).any(|(n, _)| n == name)
    }

    /// Whether the fighter has chosen how to fight until its next turn: defensively or
    /// recklessly.
    pub fn in_a_stance(&self) -> bool {
        self.has(FIGHTING_DEFENSIVELY) || self.has(RECKLESS)
    }

    /// Ends the bonuses that last "until your next turn".
    pub fn clear(&mut self) {
        self.defense.clear();
        self.offense.clear();
        self.damage.clear();
    }
}

/// Its reactions, and what it holds ready to react with.
#[derive(Component, Debug, Default, PartialEq, Eq)]
pub struct Reactions {
    /// Reactions used (attacks of opportunity, free attacks) in the current window (a phase,
    /// a segment, or until its next turn, as the variant has it).
    pub used: u32,
    /// Reactions used this round.
    pub this_round: u32,
    /// A held (readied) attack: on this foe, or on any foe entering its reach.
    pub held: Option<Option<String>>,
    /// The foe it charged and the round it did (ap-phases: the charge's attack bonus lasts
    /// the round against that foe).
    pub charged: Option<(Entity, u32)>,
    /// osr-segments: foes it has drawn a free attack from this round.
    pub free_attacked_by: BTreeSet<String>,
}

impl Clone for Reactions {
    fn clone(&self) -> Self {
        Reactions {
            used: self.used,
            this_round: self.this_round,
            held: self.held.clone(),
            charged: self.charged,
            free_attacked_by: self.free_attacked_by.clone(),
        }
    }
    /// In place; the set (which copies anew) only when it differs.
    fn clone_from(&mut self, source: &Self) {
        self.used = source.used;
        self.this_round = source.this_round;
        self.held.clone_from(&source.held);
        self.charged = source.charged;
        crate::copy_if_changed(&mut self.free_attacked_by, &source.free_attacked_by);
    }
}

/// A grapple it is locked in.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Grapple {
    /// Who it is locked in a grapple with.
    pub with: Option<Entity>,
    /// It has the upper hand: it seized the foe, or won the last contest and kept hold
    /// (four-actions).
    pub holds: bool,
    /// It pins the foe it holds (ap-phases), and so has no Dexterity to AC itself.
    pub pinning: bool,
}

impl MapEntities for Reactions {
    fn map_entities<E: EntityMapper>(&mut self, mapper: &mut E) {
        if let Some((foe, _)) = &mut self.charged {
            foe.map_entities(mapper);
        }
    }
}

impl MapEntities for Grapple {
    fn map_entities<E: EntityMapper>(&mut self, mapper: &mut E) {
        self.with.map_entities(mapper);
    }
}

/// Its spells.
#[derive(Component, Debug, Default, PartialEq, Eq)]
pub struct Spells {
    /// Spells it may still cast this battle (four-actions: Spell Quantity left).
    pub left: u32,
    /// osr-segments: the spell it is casting this round, going off in the spells step
    /// unless its concentration breaks first.
    pub casting: Option<Casting>,
}

clone_in_place!(Spells { left, casting });

/// Its place in the initiative order.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Initiative {
    /// Sort key for the initiative order (higher acts first); ties already broken.
    pub order: i64,
    /// The initiative roll or score shown to players.
    pub shown: i32,
}

/// Its action economy: the budget left in its opportunity (the actions the variants share
/// and the variant's own part of a budget: a quick or swift action, a phase's action…; set
/// fresh when its opportunity opens). What its variant keeps of it from one opportunity to
/// the next is a component of the variant's own (`combat::kept`): ap-phases' action points
/// and advanced action, d20-classic's immediate action, osr-segments' declaration,
/// hex-phases' abort.
#[derive(Component, Debug, Default, PartialEq)]
pub struct Economy {
    pub budget: Budget,
}

clone_in_place!(Economy { budget });

/// A spell being cast (osr-segments: announced in the caster's group turn).
#[derive(Debug, PartialEq, Eq)]
pub struct Casting {
    pub spell: String,
    pub target: String,
}

clone_in_place!(Casting { spell, target });

pub use super::kept::Immediate;

/// A roll-relevant modifier by name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Modifier {
    pub source: String,
    pub value: i32,
}

impl Modifier {
    pub fn new(source: impl Into<String>, value: i32) -> Modifier {
        Modifier { source: source.into(), value }
    }
}
