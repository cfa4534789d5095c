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
    pub(super) use crate::combat::attack::{Situation, Terms};
    pub(super) use crate::combat::clock;
    pub(super) use crate::combat::clock::{
        AP_PHASES, Budget, OsrStep, osr_can_act, osr_is_high, osr_multi_attacker, osr_sorted, post_turn_recovery,
        round_reset,
    };
    pub(super) use crate::combat::command::{Command, Intent};
    pub(super) use crate::combat::event::CombatEvent;
    pub(super) use crate::combat::fighter::Modifier;
    pub(super) use crate::combat::fighter::{Casting, Immediate};
    pub(super) use crate::combat::magic::{
        self, Counterspells, begin, cost, lost, reaches, spell, survives_provoking, take_effect,
    };
    pub(super) use crate::combat::odds::AttackDie;
    pub(super) use crate::combat::resolve::walk;
    pub(super) use crate::combat::resolve::{self, Maneuver, check_death, gain, lose, opportunity};
    pub(super) use crate::combat::resolve::{Plan, spell_of, target_of};
    pub(super) use crate::combat::resolve::{take_move, take_standard};
    pub(super) use crate::combat::schedule::{RulesSchedule, RulesStage, Slot, act, pass_turn_when, replace_slot};
    pub(super) use crate::combat::{AttackKind, Battle};
    pub(super) use crate::level::SpellDef;
    pub(super) use crate::rules::Condition;
    pub(super) use crate::rules::PathPlan;
    pub(super) use crate::rules::RulesView;
    pub(super) use bevy::app::{App, Plugin};
    pub(super) use bevy::ecs::schedule::IntoScheduleConfigs;
}

use crate::combat::attack::{self, Situation, Terms};
use crate::combat::clock::{self, Budget};
use crate::combat::command::Command;
use crate::combat::magic::{self, Counterspells};
use crate::combat::odds::AttackDie;
use crate::combat::resolve::Maneuver;
use crate::combat::{AttackKind, Battle, Fighter};
use crate::level::SpellDef;
use crate::rules::PathPlan;
use crate::rules::RulesView;
use crate::variants::RulesVariant;
pub use crate::variants::{Provoking, VariantNumbers};

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
    /// Sets the battle going: initiative, and who starts surprised.
    fn start(&self, b: &mut Battle);
    /// When some combatants are unaware, a surprise round (or phase) for the aware comes
    /// first.
    fn surprise_round(&self) -> bool {
        true
    }
    /// Who acts in the surprise round, in order: the aware, in initiative order.
    fn surprise_queue(&self, b: &Battle) -> Vec<usize> {
        b.clock.order.iter().copied().filter(|&i| b.fighters[i].aware).collect()
    }
    /// Between the surprise round and round 1.
    fn after_surprise_round(&self, _b: &mut Battle) {}
    /// A dying fighter's turn (its save, check or bleeding) falls in the window open now.
    fn dying_acts_now(&self, _b: &Battle) -> bool {
        true
    }
    /// A fighter's opportunity to act opens: by default its turn starts.
    fn opportunity_opens(&self, b: &mut Battle, i: usize) {
        clock::start_turn(b, i);
    }
    /// At the start of a fighter's turn: what it regains, and the condition it loses.
    fn turn_starts(&self, _f: &mut Fighter) -> Option<crate::rules::Condition> {
        None
    }
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
    /// What casting `sp` takes from the caster's spells: a slot.
    fn spell_cost(&self, _sp: &SpellDef) -> u32 {
        1
    }
    /// Provoking while casting, as the variant has it; false if the spell is lost. By
    /// default casting provokes nothing.
    fn casting_provokes(&self, _b: &mut Battle, _c: usize, _sp: &SpellDef, _defensive: bool) -> bool {
        true
    }
    /// How foes counter spells as they are cast, where they can.
    fn counterspells(&self) -> Option<&'static dyn Counterspells> {
        None
    }
    /// The hit points healing counts up from.
    fn healed_from(&self, f: &Fighter) -> i32 {
        f.hp
    }
    /// A caster's concentration breaks (`why`, in the log's words), where spells take
    /// concentration.
    fn break_concentration(&self, _b: &mut Battle, _c: usize, _why: &str) {}
    /// A caster was hurt for `damage` while a spell is under way.
    fn hurt_while_casting(&self, b: &mut Battle, c: usize, _damage: i32) {
        self.break_concentration(b, c, "hurt");
    }
    /// A combat maneuver's check: by how much its maker won (below 0: lost), or `None` when
    /// it is over already (the maker dropped, or lost and paid for it). No maneuvers by
    /// default.
    fn maneuver_check(&self, _b: &mut Battle, _a: usize, _t: usize, _kind: Maneuver) -> Option<i32> {
        None
    }
    /// A maneuver was lost by `margin` (below 0).
    fn maneuver_lost(&self, _b: &mut Battle, _a: usize, _kind: Maneuver, _margin: i32) {}
    /// How many squares a successful shove pushes: one, and one more for every 5 the check
    /// won by.
    fn shove_squares(&self, margin: i32) -> i32 {
        1 + margin / 5
    }
    /// The pusher follows its target.
    fn pusher_follows(&self) -> bool {
        false
    }
    /// A charge is declared now and run at its completion (an advanced action).
    fn charge_completes_later(&self) -> bool {
        false
    }
    /// A fighter dropped: what it had under way is lost.
    fn dropped(&self, _b: &mut Battle, _t: usize) {}
    /// Whether a command only this variant has (dash, tumble, wrestle, coup de grace,
    /// first aid…) is legal now, and the path it takes if it moves; its cost is `spend`'s.
    fn check_own(&self, _b: &Battle, _actor: usize, cmd: &Command) -> Result<Option<PathPlan>, String> {
        Err(format!("{} is not an action in these rules", cmd.name()))
    }
    /// The die rolled to hit: a d20, where a natural 1 misses and a natural 20 hits.
    fn attack_die(&self) -> AttackDie {
        AttackDie::D20 { naturals: true }
    }
    /// Why `a` may not make its attack where it stands, beyond reach, range and cover.
    fn refuses_attack(&self, _b: &Battle, _view: &RulesView, _a: usize, _melee: bool) -> Option<String> {
        None
    }
    /// The attack roll's modifiers (into `m`), the number to reach, and what that number
    /// is, in words: by default the d20 family's roll against AC.
    fn attack_terms(&self, s: &Situation, m: &mut Terms) -> (i32, String) {
        attack::d20_family_terms(s, m, false)
    }
    /// A crossbow may be fired now: it must be loaded.
    fn crossbow_ready(&self, b: &Battle, actor: usize) -> Result<(), String> {
        let f = &b.fighters[actor];
        if f.loaded { Ok(()) } else { Err(format!("the {} is not loaded", f.weapon.name.to_lowercase())) }
    }
    /// Attacks in a full attack: one.
    fn full_attacks(&self, _f: &Fighter) -> u32 {
        1
    }
    /// Half of maximum hit points or more in one hit calls for a Fortitude save.
    fn massive_damage(&self) -> bool {
        false
    }
    /// A readied attack may be taken now.
    fn may_take_held(&self, _f: &Fighter) -> bool {
        true
    }
    /// After `h`'s readied attack on `trigger`: its new place in the order (by default it
    /// keeps its place).
    fn held_action_taken(&self, _b: &mut Battle, _h: usize, _trigger: usize) {}
    /// What must hold of this variant's own state after every command (checked by the
    /// sim's `--check` and the tests).
    fn check_invariants(&self, _b: &Battle) -> Result<(), String> {
        Ok(())
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

/// The d20 family's casting in melee (d20-classic, ap-phases): cast defensively
/// (concentration DC 15 + twice the spell level) or provoke, then concentration DC 10 +
/// damage + spell level if hurt.
pub(crate) fn casting_defensively_or_provoking(b: &mut Battle, c: usize, sp: &SpellDef, defensive: bool) -> bool {
    let level = sp.level as i32;
    if defensive {
        if magic::concentration(b, c, 15 + 2 * level, "casting defensively") {
            return true;
        }
        magic::lost(b, c, sp, "concentration failed while casting defensively".into());
        return false;
    }
    let Some(hurt) = magic::provoked_by_casting(b, c, sp) else { return false };
    if hurt <= 0 || magic::concentration(b, c, 10 + hurt + level, &format!("hurt for {hurt} while casting")) {
        true
    } else {
        magic::lost(b, c, sp, "concentration broken by the wound".into());
        false
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

/// The registry: each variant's plugin, added to an app that has the rules schedule.
pub(crate) fn add_plugin(app: &mut bevy::app::App, v: RulesVariant) {
    match v {
        RulesVariant::ApPhases => app.add_plugins(ap_phases::ApPhasesPlugin),
        RulesVariant::FourActions => app.add_plugins(four_actions::FourActionsPlugin),
        RulesVariant::D20Classic => app.add_plugins(d20_classic::D20ClassicPlugin),
        RulesVariant::OsrSegments => app.add_plugins(osr_segments::OsrSegmentsPlugin),
        RulesVariant::HexPhases => app.add_plugins(hex_phases::HexPhasesPlugin),
    };
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_has_its_numbers() {
        assert_eq!(RulesVariant::D20Classic.numbers().defensive_action, ("full defense".to_string(), 4));
        assert_eq!(RulesVariant::FourActions.numbers().tertiary_attack, -10);
        assert_eq!(RulesVariant::ApPhases.numbers().attack_action_step, -5);
        assert_eq!(RulesVariant::HexPhases.numbers().abort_dodge, 3);
        assert_eq!(RulesVariant::OsrSegments.numbers().charge_defense, -1);
    }
}
