//! The slots a variant fills where its source differs from the others, and the words
//! they are called with: which attack of a turn, the circumstances of an attack and the
//! modifiers gathered for it, the combat maneuvers, how criticals work and how foes
//! counter spells. The defaults are the common rule; a variant overrides only what its
//! source changes.

use super::Battle;
use crate::combat::command::Command;
use crate::combat::time::Budget;
use crate::rules::{PathPlan, RulesView};

/// The details a variant plugs into the shared rule steps where its source differs: what an
/// action costs and the budget an opportunity opens with, initiative and surprise, the
/// attack roll, reactions, maneuvers, spells, dying, and which optional rules exist. (Steps
/// of its own, such as its windows of time or a kind of action done otherwise, are systems
/// in its plugin.) The battle reaches the active variant's through `Battle::rules`; the
/// shared steps name no variant.
pub(crate) trait VariantRules: Sync {
    /// What `cmd` costs from `budget`, the budget after it and the attack slot it uses, or
    /// why it may not be taken.
    fn spend(&self, b: &Battle, actor: usize, budget: &Budget, cmd: &Command) -> Result<(Budget, AttackKind), String>;
    /// The budget a fighter gets when its opportunity opens.
    fn fresh_budget(&self, b: &Battle, i: usize) -> Budget;
    /// Whether `reactor` (able, armed for melee) may still react to `mover` under this
    /// variant's budget of reactions; `allowance` is its reactions per window.
    fn may_react(&self, b: &Battle, reactor: usize, mover: usize, allowance: u32) -> bool;
    /// Whether a command only this variant has (dash, tumble, wrestle, coup de grace,
    /// first aid…) is legal now, and the path it takes if it moves; its cost is `spend`'s.
    fn check_own(&self, _b: &Battle, _actor: usize, cmd: &Command) -> Result<Option<PathPlan>, String> {
        Err(format!("{} is not an action in these rules", cmd.name()))
    }
    /// Why `a` may not make its attack where it stands, beyond reach, range and cover.
    fn refuses_attack(&self, _b: &Battle, _view: &RulesView, _a: usize, _melee: bool) -> Option<String> {
        None
    }
    /// A crossbow may be fired now: it must be loaded.
    fn crossbow_ready(&self, b: &Battle, actor: usize) -> Result<(), String> {
        let f = b.fighters.at(actor);
        if f.wielded().loaded {
            Ok(())
        } else {
            Err(format!("the {} is not loaded", f.wielded().def.name.to_lowercase()))
        }
    }
    /// A readied attack may be taken now. Every holder a step draws is asked before the
    /// first of them strikes, so this reads only the holder's own state.
    fn may_take_held(&self, _b: &Battle, _h: usize) -> bool {
        true
    }
}

pub(crate) use crate::variants::Criticals;

/// The combat maneuvers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Maneuver {
    Trip,
    Shove,
    Disarm,
    Grapple,
}

/// Which attack of a turn this is, for its penalty.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum AttackKind {
    /// The first (or only) attack.
    #[default]
    Primary,
    /// d20-classic iterative attack number `n` (1 = second) at −5 each.
    Iterative(u32),
    /// four-actions secondary (move action, −5) and tertiary (quick action, −10) attacks.
    Secondary,
    Tertiary,
    /// ap-phases: the `n`th attack action this round (cumulative −5 per earlier one).
    NthAction(u32),
    /// An attack of opportunity or free attack.
    Opportunity,
}

/// Extra circumstances of an attack.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AttackContext {
    pub charge: bool,
}
