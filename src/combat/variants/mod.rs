//! The five rule variants, one module each. A module owns what makes its source feel
//! like itself: the clock's windows (rounds, phases, segments, steps: who may act and in
//! what order), the budget a combatant gets when its opportunity opens, what each action
//! costs in that budget or why it may not be taken, its numbers (`assets/rules/<id>.ron`,
//! read by the engine), and the resolution of actions only it has (four-actions' grapple
//! contest, ap-phases' complex advanced actions). What the variants share (walking with
//! attacks of opportunity, attack rolls, damage, dying) stays in `combat::resolve`; how a
//! variant is shown and commanded (its action bar, clock words, badges) is in
//! `control::vocabulary`.

pub mod ap_phases;
pub mod d20_classic;
pub mod four_actions;
pub mod hex_phases;
pub mod osr_segments;

/// What every variant module works with.
mod prelude {
    pub(super) use super::VariantRules;
    pub(super) use crate::combat::Fighter;
    pub(super) use crate::combat::clock;
    pub(super) use crate::combat::clock::{
        AP_PHASES, Budget, OsrStep, osr_can_act, osr_is_high, osr_multi_attacker, osr_sorted, post_turn_recovery,
        round_reset,
    };
    pub(super) use crate::combat::command::{Command, Intent};
    pub(super) use crate::combat::event::CombatEvent;
    pub(super) use crate::combat::resolve::{check_death, gain, lose};
    pub(super) use crate::combat::resolve::{take_move, take_standard};
    pub(super) use crate::combat::{AttackKind, Battle};
    pub(super) use crate::rules::Condition;
}

use crate::combat::clock::{self, Budget};
use crate::combat::command::Command;
use crate::combat::{AttackKind, Battle, Fighter};
use crate::variants::RulesVariant;
use serde::Deserialize;
use std::sync::OnceLock;

/// What a variant plugs into the engine where its source differs from the others: its
/// action economy (what an action costs, the budget an opportunity opens with, when nothing
/// is left), its clock (how the next window of time opens), and which optional rules exist.
/// The engine asks [`rules`] for the active variant's and calls it; it names no variant.
pub(crate) trait VariantRules: Sync {
    /// What `cmd` costs from `budget`, the budget after it and the attack slot it uses, or
    /// why it may not be taken.
    fn spend(&self, b: &Battle, actor: usize, budget: &Budget, cmd: &Command) -> Result<(Budget, AttackKind), String>;
    /// The budget a fighter gets when its opportunity opens.
    fn fresh_budget(&self, b: &Battle, i: usize) -> Budget;
    /// Opens the next window of time (round, phase, segment step) and fills the queue.
    fn open_window(&self, b: &mut Battle) {
        clock::turn_based_window(b);
    }
    /// Nothing is left to do in this opportunity.
    fn exhausted(&self, budget: &Budget) -> bool;
    /// Its combatants declare intentions at the start of the round.
    fn declarations(&self) -> bool {
        false
    }
    /// A caster may cast defensively.
    fn defensive_casting(&self) -> bool {
        false
    }
    /// A standing order to abort to a dodge when attacked.
    fn aborting(&self) -> bool {
        false
    }
    /// Grapples and escapes.
    fn grapples(&self) -> bool {
        false
    }
    /// Whether `reactor` (able, armed for melee) may still react to `mover` under this
    /// variant's budget of reactions; `allowance` is its reactions per window.
    fn may_react(&self, b: &Battle, reactor: usize, mover: usize, allowance: u32) -> bool;
    /// After each square a mover steps onto, coming from `from` (osr-segments: immediate
    /// attacks on a foe coming into reach).
    fn after_step(&self, _b: &mut Battle, _mover: usize, _from: crate::grid::GridPos) {}
    /// After a walk over `passed` (osr-segments: allies passed break concentration).
    fn after_walk(&self, _b: &mut Battle, _mover: usize, _passed: &[crate::grid::GridPos]) {}
    /// A fighter just dropped is dying (rather than merely unconscious).
    fn dying_when_dropped(&self, _f: &Fighter) -> bool {
        false
    }
    /// Past the point of death.
    fn dead(&self, f: &Fighter) -> bool;
    /// Alive, not stable, and dying again (hit points below 0 where that means dying).
    fn dying_below_zero(&self) -> bool {
        false
    }
    /// A dying fighter's turn: its death save, stabilising check or bleeding.
    fn dying_turn(&self, _b: &mut Battle, _i: usize) {}
    /// How a d20 roll in the weapon's threat range becomes a critical hit.
    fn criticals(&self) -> Criticals {
        Criticals::None
    }
    /// The Strength a melee (or thrown) hit adds to damage: its name in the log and value.
    fn damage_strength(&self, f: &Fighter) -> Option<(&'static str, i32)> {
        Some(("Strength", f.str_mod()))
    }
}

/// The d20 family's damage Strength (d20-classic, ap-phases): "add 1.5× your Strength
/// modifier (round down)" with a weapon in two hands, the modifier otherwise.
pub(crate) fn strength_with_two_hands(f: &Fighter) -> (&'static str, i32) {
    if f.weapon.hands == crate::level::Hands::Two {
        ("Strength x1.5", (f.str_mod() as f64 * 1.5).floor() as i32)
    } else {
        ("Strength", f.str_mod())
    }
}

/// How criticals work in a variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Criticals {
    /// No critical hits.
    None,
    /// A threat is a critical: the dice are multiplied, flat bonuses added once
    /// (four-actions).
    OnThreat,
    /// A threat is confirmed by a second roll that would hit; dice and flat bonuses are
    /// multiplied (d20-classic, ap-phases).
    Confirmed,
}

/// The registry: each variant's rules.
pub(crate) fn rules(v: RulesVariant) -> &'static dyn VariantRules {
    match v {
        RulesVariant::ApPhases => &ap_phases::ApPhases,
        RulesVariant::FourActions => &four_actions::FourActions,
        RulesVariant::D20Classic => &d20_classic::D20Classic,
        RulesVariant::OsrSegments => &osr_segments::OsrSegments,
        RulesVariant::HexPhases => &hex_phases::HexPhases,
    }
}

/// Numbers a variant's rules use, from `assets/rules/<id>.ron`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantNumbers {
    /// Attack bonus for flanking (0 where flanking works otherwise).
    pub flanking: i32,
    pub charge_attack: i32,
    pub charge_damage: i32,
    pub charge_damage_two_handed: i32,
    /// AC (DCV) change while charging, until the next turn.
    pub charge_defense: i32,
    /// The defensive action: its name and bonus.
    pub defensive_action: (String, i32),
    pub secondary_attack: i32,
    pub tertiary_attack: i32,
    /// Per iterative attack after the first.
    pub iterative_step: i32,
    /// Per attack action after the first in a round.
    pub attack_action_step: i32,
    /// Attack and AC changes for fighting defensively.
    pub fighting_defensively: (i32, i32),
    /// AC and damage changes for fighting recklessly.
    pub reckless: (i32, i32),
    /// DCV gained by aborting to a dodge.
    pub abort_dodge: i32,
    /// Attack and damage change for fighting with a weapon one is not trained in (0 where
    /// training makes no difference).
    #[serde(default)]
    pub untrained_penalty: i32,
    /// The charge's attack bonus lasts until the end of the round for melee attacks on the
    /// foe charged (ap-phases); otherwise it is the charge's own attack only.
    #[serde(default)]
    pub charge_attack_lasts_round: bool,
    /// Percent chance that a ranged attack on one of two creatures locked in a grapple goes
    /// to the other instead.
    #[serde(default)]
    pub grapple_miss_percent: u32,
}

/// The numbers of a variant (parsed once; the files ship inside the binary).
pub fn numbers(v: RulesVariant) -> &'static VariantNumbers {
    static ALL: OnceLock<Vec<VariantNumbers>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        RulesVariant::ALL
            .iter()
            .map(|&v| {
                let text = match v {
                    RulesVariant::ApPhases => include_str!("../../../assets/rules/ap-phases.ron"),
                    RulesVariant::FourActions => include_str!("../../../assets/rules/four-actions.ron"),
                    RulesVariant::D20Classic => include_str!("../../../assets/rules/d20-classic.ron"),
                    RulesVariant::OsrSegments => include_str!("../../../assets/rules/osr-segments.ron"),
                    RulesVariant::HexPhases => include_str!("../../../assets/rules/hex-phases.ron"),
                };
                ron::from_str(text).unwrap_or_else(|e| panic!("assets/rules/{}.ron: {e}", v.id()))
            })
            .collect()
    });
    &all[RulesVariant::ALL.iter().position(|&x| x == v).expect("every variant is in ALL")]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_has_its_numbers() {
        assert_eq!(numbers(RulesVariant::D20Classic).defensive_action, ("full defense".to_string(), 4));
        assert_eq!(numbers(RulesVariant::FourActions).tertiary_attack, -10);
        assert_eq!(numbers(RulesVariant::ApPhases).attack_action_step, -5);
        assert_eq!(numbers(RulesVariant::HexPhases).abort_dodge, 3);
        assert_eq!(numbers(RulesVariant::OsrSegments).charge_defense, -1);
    }
}
