//! The house rules' plugins: each takes out or replaces the systems of the one rule it
//! changes, so it follows the variant's plugin that added them (`Engine::app`). Which
//! variants a house rule applies to, and its words, are `variants::HouseRule`'s.

use super::modifiers::{self, ModifiersApp, PendingAttack, Weighed};
use super::schedule::{Slot, remove_rule_systems};
use crate::variants::{HouseRule, RulesVariant};
use bevy::ecs::system::InMut;
use bevy::prelude::*;

/// One house rule, under the variant whose plugin came before it.
pub struct HouseRulePlugin {
    pub rule: HouseRule,
    pub variant: RulesVariant,
}

impl Plugin for HouseRulePlugin {
    /// Each house rule is a plugin of its own, named as the house rule.
    fn name(&self) -> &str {
        self.rule.id()
    }

    fn build(&self, app: &mut App) {
        if let Err(e) = self.rule.check(self.variant) {
            panic!("{e}: the caller checks house rules first (`HouseRule::check_all`)");
        }
        match self.rule {
            HouseRule::NoFlanking => {
                app.remove_modifier::<PendingAttack, _>(modifiers::flanking);
            }
            HouseRule::DoubleCover => {
                app.replace_modifier(modifiers::cover, double_cover);
            }
            HouseRule::NoChargeBonus => {
                app.remove_modifier::<PendingAttack, _>(modifiers::charge);
            }
            HouseRule::NoRangePenalty => {
                app.remove_modifier::<PendingAttack, _>(modifiers::range);
            }
            HouseRule::NoDelay => remove_rule_systems(app, Slot::Delay),
            HouseRule::NoReadiedAttacks => {
                remove_rule_systems(app, Slot::Hold);
                remove_rule_systems(app, Slot::Held);
            }
        }
    }
}

/// Cover, at twice its bonus.
fn double_cover(InMut(at): Weighed) {
    let bonus = 2 * at.cover_bonus;
    if bonus > 0 {
        let term = format!("{} x2 (house rule)", at.variant.numbers().cover_term);
        at.push(&term, -bonus);
    }
}
