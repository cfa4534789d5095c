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
    pub(super) use crate::combat::battle::{Combatants, EventLog};
    pub(super) use crate::combat::battle::{Derived, Taken, TakenInStrike, change_condition};
    pub(super) use crate::combat::clock;
    pub(super) use crate::combat::clock::Budget;
    pub(super) use crate::combat::clock::Initiatives;
    pub(super) use crate::combat::command::{Command, Intent};
    pub(super) use crate::combat::event::CombatEvent;
    pub(super) use crate::combat::fighter::Grapple;
    pub(super) use crate::combat::fighter::Immediate;
    pub(super) use crate::combat::fighter::Initiative;
    pub(super) use crate::combat::fighter::Modifier;
    pub(super) use crate::combat::fighter::Reactions;
    pub(super) use crate::combat::magic::{self, lost, reaches, spell, take_effect};
    pub(super) use crate::combat::modifiers::{self, ModifiersApp, Weighed};
    pub(super) use crate::combat::resolve::{self, Maneuver};
    pub(super) use crate::combat::resolve::{take_move, take_standard};
    pub(super) use crate::combat::schedule::clock::{Called, reactions_back_and_no_longer, unaware_are};
    pub(super) use crate::combat::schedule::taken::{CountTaken, TakenSchedule, held_action_takers_move};
    pub(super) use crate::combat::schedule::{AimedManeuvers, Attempt, ManeuverCheck, ManeuverSchedule, ManeuverTried};
    pub(super) use crate::combat::schedule::{Broken, InvariantsSchedule, OwnInvariants};
    pub(super) use crate::combat::schedule::{
        ClockSchedule, ClockStep, Opening, Passing, RollsInitiative, RulesSchedule, Slot, Turn, acting_seated,
        keep_each, keep_for_battle, own_budget, pass_turn_when, remove_clock_systems, replace_slot,
    };
    pub(super) use crate::combat::schedule::{Counterspelling, add_counterspell};
    pub(super) use crate::combat::schedule::{Dying, DyingTurn, DyingTurns, Logged, save_or_bleed};
    pub(super) use crate::combat::struck::{
        AttackedSchedule, BeforeAttack, CastingSchedule, CastingTried, Concentration, Distracted, DistractedSchedule,
        Harm, HarmSchedule, HarmStep, HoldOnSpell, UnderAttack,
    };
    pub(super) use crate::combat::time::Clock;
    pub(super) use crate::combat::{AttackKind, Battle};
    pub(super) use crate::level::SpellDef;
    pub(super) use crate::rules::Awareness;
    pub(super) use crate::rules::Combatant;
    pub(super) use crate::rules::Condition;
    pub(super) use crate::rules::PathPlan;
    pub(super) use crate::rules::RulesView;
    pub(super) use crate::rules::{Battlefield, Body, Conditions, Health, Stats, Wielded};
    pub(super) use bevy::app::{App, Plugin};
    pub(super) use bevy::ecs::schedule::IntoScheduleConfigs;
    pub(super) use bevy::ecs::system::InMut;
    pub(super) use bevy::ecs::system::{Query, Res, ResMut};
    pub(super) use bevy::prelude::Entity;
}

pub(crate) use crate::combat::battle::VariantRules;
use crate::combat::battle::{EventLog, rolled_check};
use crate::combat::magic;
use crate::combat::struck::CastingTried;
use crate::level::SpellDef;
use crate::rules::{Combatant, Dice, Stats};
use crate::variants::RulesVariant;
pub use crate::variants::{Provoking, VariantNumbers};
use bevy::prelude::{Query, ResMut};

/// The d20 family's hold on a spell in melee (d20-classic, ap-phases): cast defensively, a
/// concentration check (d20 + caster level + casting ability) against 15 + twice the spell
/// level; else, hurt by the attacks of opportunity the casting drew, one against 10 +
/// damage + spell level. Whether `who` keeps the spell; one lost is logged.
pub(crate) fn concentration_keeps_hold(
    dice: &mut Dice,
    log: &mut EventLog,
    who: &Combatant,
    stats: &Stats,
    sp: &SpellDef,
    defensive: bool,
    hurt: i32,
) -> bool {
    let level = sp.level as i32;
    let (dc, why, lost) = if defensive {
        (15 + 2 * level, "casting defensively".to_string(), "concentration failed while casting defensively")
    } else if hurt > 0 {
        (10 + hurt + level, format!("hurt for {hurt} while casting"), "concentration broken by the wound")
    } else {
        return true;
    };
    let kind = format!("concentration ({why})");
    if rolled_check(dice, log, who.id.clone(), kind, stats.casting_check(), dc) {
        return true;
    }
    log.push(magic::spoiled(who.id.clone(), sp, lost.into()));
    false
}

/// The d20 family's casters keep hold of a spell by concentration
/// (`concentration_keeps_hold`).
pub(crate) fn concentration_while_casting(
    mut tried: ResMut<CastingTried>,
    fighters: Query<(&Combatant, &Stats)>,
    mut dice: ResMut<Dice>,
    mut log: ResMut<EventLog>,
) {
    let Some(sp) = tried.spell else { return };
    let Ok((who, stats)) = fighters.get(tried.caster) else { return };
    tried.lost = !concentration_keeps_hold(&mut dice, &mut log, who, stats, sp, tried.defensive, tried.hurt);
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

    /// Dropping, death, healing, full attacks, shoves and spell costs are each variant's
    /// choice of way, read from its numbers file.
    #[test]
    fn each_variant_chooses_its_ways_of_dying_attacking_shoving_and_casting() {
        use crate::variants::{DeathAt, Dropped, FullAttack, ShoveDistance, SpellCost};
        let rules = |v: RulesVariant| &v.numbers().rules;
        let dying: Vec<(Dropped, DeathAt)> =
            RulesVariant::ALL.iter().map(|&v| (rules(v).dropped, rules(v).death)).collect();
        assert_eq!(
            dying,
            [
                (Dropped::DyingBelowZero, DeathAt::NegativeConstitution),
                (Dropped::DyingBelowZero, DeathAt::NegativeConstitution),
                (Dropped::Dying, DeathAt::ThreeFailedSaves),
                (Dropped::Dying, DeathAt::NegativeTen),
                (Dropped::Unconscious, DeathAt::NegativeTen),
            ],
            "in the order of RulesVariant::ALL"
        );
        // Dead at the negative of the Constitution score (four-actions: "If negative HP is
        // full, the creature dies"), at −10, or after three failed death saves.
        assert!(
            DeathAt::NegativeConstitution.reached(-12, 12, 0) && !DeathAt::NegativeConstitution.reached(-11, 12, 0)
        );
        assert!(DeathAt::NegativeTen.reached(-10, 30, 0) && !DeathAt::NegativeTen.reached(-9, 3, 2));
        assert!(DeathAt::ThreeFailedSaves.reached(-1, 10, 3) && !DeathAt::ThreeFailedSaves.reached(-30, 10, 2));
        assert!(rules(RulesVariant::D20Classic).healed_from_zero);
        assert!(RulesVariant::ALL.iter().filter(|&&v| rules(v).healed_from_zero).count() == 1);
        // +11/+6/+1 is three attacks; +1 to +5 one; +16 four, at most.
        assert_eq!(rules(RulesVariant::D20Classic).full_attack, FullAttack::Iterative);
        assert_eq!([1, 5, 6, 11, 16, 20].map(|bab| FullAttack::Iterative.attacks(bab)), [1, 1, 2, 3, 4, 4]);
        assert_eq!(FullAttack::One.attacks(20), 1);
        // four-actions: "a success moves both the pusher and the target up to half speed";
        // elsewhere 5 ft and 5 more for every 5 the check won by.
        assert_eq!(rules(RulesVariant::FourActions).shove, ShoveDistance::HalfSpeed);
        assert_eq!(ShoveDistance::HalfSpeed.feet(30, 12), 15);
        assert_eq!(ShoveDistance::HalfSpeed.feet(25, 0), 10);
        assert_eq!([0, 4, 5, 12].map(|margin| ShoveDistance::ByMargin.feet(30, margin)), [5, 5, 10, 15]);
        // four-actions: Spell Quantity equal to the Spell Order; a slot elsewhere.
        assert_eq!(rules(RulesVariant::FourActions).spell_cost, SpellCost::SpellOrder);
        assert_eq!((SpellCost::SpellOrder.of(3), SpellCost::Slot.of(3)), (3, 1));
    }
}
