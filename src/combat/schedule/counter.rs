//! Counterspells. As an announced spell goes off, the harm driver runs the
//! [`CounterSchedule`]: the variant's system in [`Countering`] (d20-classic, four-actions)
//! has each foe who may counter it try, in id order, until one succeeds. What the variants
//! share, the spell going off and its caster, which foes can act, have the spells to spend
//! and reach the caster (the spell's range, or natural reach, and line of effect), the
//! logged identification check, the spells spent and the outcome logged, is
//! [`Counterspelling`]; who is able, the DC, the skill and what countering spends and rolls
//! are each variant's.

use crate::combat::battle::store::Record;
use crate::combat::battle::{Combatants, Derived, EventLog, rolled_check};
use crate::combat::event::CombatEvent;
use crate::combat::fighter::Spells;
use crate::combat::magic::spoiled;
use crate::grid::Footprint;
use crate::level::SpellDef;
use crate::rules::cover::line_of_effect;
use crate::rules::{Battlefield, Body, Combatant, Conditions, Dice, Position, Reach, Side, Stats};
use bevy::ecs::schedule::{IntoScheduleConfigs, ScheduleLabel};
use bevy::ecs::system::ScheduleSystem;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

/// The schedule run as a spell goes off, where foes may counter it.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct CounterSchedule;

/// The variant's system that has foes counter a spell going off.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Countering;

impl Countering {
    pub fn name(self) -> &'static str {
        "strikes: counterspells"
    }
}

/// The spell going off and its caster, while foes may counter it; and whether one has.
#[derive(Resource, Debug)]
pub struct SpellGoingOff {
    pub caster: Entity,
    pub spell: Option<&'static SpellDef>,
    pub countered: bool,
}

impl Default for SpellGoingOff {
    fn default() -> Self {
        SpellGoingOff { caster: Entity::PLACEHOLDER, spell: None, countered: false }
    }
}

pub(super) fn add_counter(app: &mut App) {
    app.add_schedule(super::rule_schedule(CounterSchedule)).init_resource::<SpellGoingOff>();
}

/// A variant's counterspell system, in [`Countering`] after the derived maps are brought up
/// to date (line of effect is read from the occupancy as the casting's attacks left it).
pub(crate) fn add_counterspell<M>(app: &mut App, counterspell: impl IntoScheduleConfigs<ScheduleSystem, M>) {
    app.add_systems(CounterSchedule, (super::derive_maps_if_stale(), counterspell).chain().in_set(Countering));
}

/// Whether foes counter `caster`'s spell `sp` as it goes off (the [`CounterSchedule`]).
pub(crate) fn countered(world: &mut World, caster: Entity, sp: &'static SpellDef) -> bool {
    let going_off = SpellGoingOff { caster, spell: Some(sp), countered: false };
    crate::combat::battle::run_with(world, CounterSchedule, going_off).is_some_and(|g| g.countered)
}

/// What countering a spell reads and changes of the battle, beside the variant's own parts
/// (d20-classic's immediate action, four-actions' reactions).
#[derive(SystemParam)]
pub(crate) struct Counterspelling<'w, 's> {
    going_off: ResMut<'w, SpellGoingOff>,
    seats: Res<'w, Combatants>,
    field: Res<'w, Battlefield>,
    derived: Res<'w, Derived>,
    fighters: Query<
        'w,
        's,
        (&'static Combatant, &'static Side, &'static Position, &'static Body, &'static Reach, &'static Conditions),
    >,
    stats: Query<'w, 's, &'static Stats>,
    spells: Query<'w, 's, &'static mut Spells>,
    dice: ResMut<'w, Dice>,
    log: ResMut<'w, EventLog>,
    record: ResMut<'w, Record>,
}

impl Counterspelling<'_, '_> {
    /// The spell going off and its caster's entity, if it is not countered yet.
    pub(crate) fn spell(&self) -> Option<(Entity, &'static SpellDef)> {
        let sp = self.going_off.spell.filter(|_| !self.going_off.countered)?;
        Some((self.going_off.caster, sp))
    }

    /// What the spell costs a foe who counters it, as the variant has spells cost.
    fn cost(&self, sp: &SpellDef) -> u32 {
        self.field.variant.numbers().rules.spell_cost.of(sp.level)
    }

    /// The caster's foes, in id order, that can act, have the spells to spend and reach the
    /// caster: within the spell's range (or their natural reach, if more) and with line of
    /// effect.
    pub(crate) fn foes_in_reach(&self) -> Vec<Entity> {
        let Some((caster, sp)) = self.spell() else { return vec![] };
        // The grid rules name fighters by their place in id order.
        let Some(c) = self.seats.seat_of(caster) else { return vec![] };
        let Ok((_, side, at, body, ..)) = self.fighters.get(caster) else { return vec![] };
        let theirs = Footprint::new(at.0, body.size.side());
        let view = self.derived.view(&self.field);
        let metric = self.field.variant.range_metric();
        self.seats
            .0
            .iter()
            .enumerate()
            .filter(|&(r, &e)| {
                let Ok((_, s, at, body, reach, conditions)) = self.fighters.get(e) else { return false };
                let mine = Footprint::new(at.0, body.size.side());
                let range = sp.range_ft.unwrap_or(reach.natural_ft).max(reach.natural_ft);
                let able = s != side
                    && conditions.can_act()
                    && self.spells.get(e).is_ok_and(|spells| spells.left >= self.cost(sp))
                    && metric.footprint_ft(mine, theirs) <= range;
                able && line_of_effect(view.field, view.occupancy, (r, mine), (c, theirs))
            })
            .map(|(_, &e)| e)
            .collect()
    }

    /// `e`'s stats.
    pub(crate) fn stats_of(&self, e: Entity) -> Option<&Stats> {
        self.stats.get(e).ok()
    }

    /// A d20 check of `e`'s, `kind` in the log's words: `bonus` against `dc`, logged.
    pub(crate) fn check(&mut self, e: Entity, kind: String, bonus: i32, dc: i32) -> bool {
        let unit = self.fighters.get(e).map(|(who, ..)| who.id.clone()).unwrap_or_default();
        rolled_check(&mut self.dice, &mut self.log, unit, kind, bonus, dc)
    }

    /// `r` identifies the spell going off with `skill` (its casting check against `dc`).
    pub(crate) fn identifies(&mut self, r: Entity, skill: &str, dc: i32) -> bool {
        let Some((caster, sp)) = self.spell() else { return false };
        let cid = self.fighters.get(caster).map(|(who, ..)| who.id.clone()).unwrap_or_default();
        let bonus = self.stats_of(r).map_or(0, Stats::casting_check);
        self.check(r, format!("{skill} (identify {cid}'s {})", sp.name), bonus, dc)
    }

    /// `r` spends the spells countering takes.
    pub(crate) fn spend(&mut self, r: Entity) {
        let Some((_, sp)) = self.spell() else { return };
        let cost = self.cost(sp);
        if let Ok(mut spells) = self.spells.get_mut(r) {
            spells.left -= cost;
        }
    }

    /// `r` tried to counter the spell, and `success`: logged, and if it succeeded the spell
    /// is countered (lost). Whether it was.
    pub(crate) fn tried(&mut self, r: Entity, success: bool) -> bool {
        let Some((caster, sp)) = self.spell() else { return false };
        let name = |e: Entity| self.fighters.get(e).map(|(who, ..)| who.id.clone()).unwrap_or_default();
        let (rid, cid) = (name(r), name(caster));
        self.record.stats.counterspells += 1;
        let detail = if success {
            format!("{cid}'s {} is countered", sp.name)
        } else {
            format!("{cid}'s {} goes through", sp.name)
        };
        self.log.push(CombatEvent::Action { unit: rid, action: "counterspells".into(), detail });
        if success {
            self.log.push(spoiled(cid, sp, "countered".into()));
            self.going_off.countered = true;
        }
        success
    }
}
