//! The damage modifiers: each flat term added to a damage roll's dice is a read-only system
//! over the components it names (`strike::deal_damage` weighs them, and the harm pipeline
//! rolls the damage): the wielder's Strength (one-and-a-half times with two hands in the
//! d20 family), its own damage bonuses and the variant's penalty for an untrained weapon.

use super::Weighing;
use crate::combat::fighter::{Bonuses, Modifier};
use crate::level::{Hands, WeaponKind};
use crate::rules::{Stats, Wielded};
use crate::variants::RulesVariant;
use bevy::ecs::system::InMut;
use bevy::prelude::*;

/// The listing's name for the damage modifiers, as a set of systems.
pub const DAMAGE_MODIFIERS: &str = "damage modifiers";

/// The damage roll being weighed: whose blow, and the flat terms gathered so far.
#[derive(Clone, Debug)]
pub struct PendingDamage {
    pub variant: RulesVariant,
    pub attacker: Entity,
    pub target: Entity,
    /// A melee attack (a thrown melee weapon adds Strength too).
    pub melee: bool,
    pub terms: Vec<Modifier>,
}

impl PendingDamage {
    /// Adds a term, unless it is nothing.
    pub fn push(&mut self, source: &str, value: i32) {
        if value != 0 {
            self.terms.push(Modifier::new(source, value));
        }
    }
}

impl Weighing for PendingDamage {
    const NAME: &'static str = DAMAGE_MODIFIERS;
}

/// The damage under weighing, as a modifier system takes it.
pub type Dealt<'a> = InMut<'a, PendingDamage>;

/// Whether the wielder's Strength adds to this blow: a melee attack, or a melee weapon thrown.
fn strength_applies(at: &PendingDamage, wielded: &Wielded) -> bool {
    at.melee || wielded.def.kind == WeaponKind::Melee
}

/// Strength to damage.
pub fn strength_to_damage(InMut(at): Dealt, fighters: Query<(&Stats, &Wielded)>) {
    if let Ok((stats, wielded)) = fighters.get(at.attacker)
        && strength_applies(at, wielded)
    {
        at.push("Strength", stats.str_mod());
    }
}

/// Strength to damage, one and a half times with a two-handed weapon (the d20 family).
pub fn strength_with_two_hands(InMut(at): Dealt, fighters: Query<(&Stats, &Wielded)>) {
    let Ok((stats, wielded)) = fighters.get(at.attacker) else { return };
    if !strength_applies(at, wielded) {
        return;
    }
    if wielded.def.hands == Hands::Two {
        at.push("Strength x1.5", (stats.str_mod() as f64 * 1.5).floor() as i32);
    } else {
        at.push("Strength", stats.str_mod());
    }
}

/// The wielder's own damage bonuses, by name.
pub fn damage_bonuses(InMut(at): Dealt, bonuses: Query<&Bonuses>) {
    if let Ok(b) = bonuses.get(at.attacker) {
        for (name, v) in &b.damage {
            at.push(name, *v);
        }
    }
}

/// The variant's penalty for a weapon the wielder is not trained with.
pub fn untrained_damage(InMut(at): Dealt, fighters: Query<(&Stats, &Wielded)>) {
    let penalty = at.variant.numbers().untrained_penalty;
    if let Ok((stats, wielded)) = fighters.get(at.attacker)
        && !stats.trained_with(&wielded.def)
    {
        at.push("untrained", penalty);
    }
}
