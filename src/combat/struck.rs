//! What befalls a fighter in the middle of a strike, where a variant has a rule for it:
//! it is about to be attacked (hex-phases: it may abort to a dodge), its concentration is
//! tried (it made a free attack: osr-segments), it is hurt (the harm pipeline, the same
//! under every variant: hit points lost, concentration tried, a heavy blow, dropping with
//! its grapple released, unconscious, prone, dying or dead; with ap-phases' and
//! osr-segments' concentration, d20-classic's massive damage and ap-phases' advanced action
//! lost as its variants' steps), or its casting drew its attacks of opportunity (the d20
//! family's concentration, four-actions' interruption). The strike driver, at that point of the
//! strike, puts what happened in the schedule's resource and runs the schedule
//! (`Battle::run_rules`; the rules schedule's plugin adds them); each variant's systems there, in the schedule's one set, read
//! and change only the components they name. A variant with no such rule adds no system,
//! and the schedule is not run.

use bevy::ecs::component::Mutable;
use bevy::ecs::schedule::{ScheduleLabel, Schedules};
use bevy::prelude::*;

/// Runs the small rule schedule `label` over `world` with `given` in its resource, and
/// gives the resource back as its systems left it. A schedule that holds no system (the
/// variant has no such rule) is not run, nor its resource set: `None`.
pub(crate) fn run_with<R>(world: &mut World, label: impl ScheduleLabel, given: R) -> Option<R>
where
    R: Resource + Component<Mutability = Mutable> + Default,
{
    if world.resource::<Schedules>().get(label.intern()).is_none_or(|s| s.systems_len() == 0) {
        return None;
    }
    *world.resource_mut::<R>() = given;
    world.run_schedule(label);
    Some(std::mem::take(&mut *world.resource_mut::<R>()))
}

/// The schedule run just before a fighter is attacked, with [`UnderAttack`].
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct AttackedSchedule;

/// The variant's systems run before an attack is rolled.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BeforeAttack;

impl BeforeAttack {
    pub fn name(self) -> &'static str {
        "strikes: before an attack"
    }
}

/// The fighter about to be attacked, by seat.
#[derive(Resource, Debug, Default)]
pub struct UnderAttack(pub usize);

/// The schedule run when a fighter made a free attack (an attack of opportunity), with
/// [`Distracted`]: the variant's systems that try the concentration of a caster who did.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct DistractedSchedule;

/// The variant's systems that try a caster's concentration: in the [`DistractedSchedule`]
/// for a free attack it made, and as a step of the [`HarmSchedule`] for a wound.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Concentration;

impl Concentration {
    pub fn name(self) -> &'static str {
        "strikes: free attack made"
    }
}

/// The fighter, by seat, who made a free attack, whose concentration is tried.
#[derive(Resource, Debug, Default)]
pub struct Distracted {
    pub unit: usize,
}

/// The schedule run whenever a fighter is hurt, with [`Harm`]: its hit points lost, its
/// concentration tried, the variant's own rules for a heavy blow, and then, if the wound
/// drops it, its grapple released, the variant's systems for dropping ([`HarmStep::WhenDropped`]),
/// and its fall; last, whether it is dead or dying.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct HarmSchedule;

/// Every system of the [`HarmSchedule`], in the order they run.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Harms;

impl Harms {
    pub fn name(self) -> &'static str {
        "harm"
    }
}

/// The steps of harm, in the order they run; a variant puts its own systems in one.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HarmStep {
    /// Hit points (or nonlethal damage) lost, and logged.
    HitPoints,
    /// A caster hurt has its concentration tried ([`Concentration`]'s systems here).
    Concentration,
    /// What a heavy blow does beyond its hit points (d20-classic's massive damage).
    HeavyBlow,
    /// Whether the wound knocks the fighter out or drops it.
    Falls,
    /// The variant's systems for a fighter dropping, once its grapple is released and
    /// before it falls (ap-phases' advanced action lost); run only when it drops.
    WhenDropped,
    /// Dead at the variant's threshold, or dying.
    Death,
}

/// One wound as the [`HarmSchedule`] carries it out: `amount` hit points dealt by `by` to
/// `unit` (both by seat), how it was rolled (for the log), and what its steps found.
#[derive(Resource, Debug, Default)]
pub struct Harm {
    pub by: usize,
    pub unit: usize,
    pub amount: i32,
    pub nonlethal: bool,
    /// The dice rolled, in the log's words ("1d8+2", "wound"), the dice and the flat terms.
    pub dice: String,
    pub rolls: Vec<i32>,
    pub modifiers: Vec<crate::combat::fighter::Modifier>,
    /// Its hit points before the wound.
    pub hp_before: i32,
    /// The blow already failed its first save (d20-classic's massive damage): it drops at
    /// 0 hit points with one failure counted.
    pub first_save_failed: bool,
    /// The wound drops it (set at [`HarmStep::Falls`]).
    pub drops: bool,
}

/// The schedule run once a spell's casting has drawn its attacks of opportunity (or was
/// cast defensively, drawing none), with [`CastingTried`]: whether the caster keeps hold of
/// the spell.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct CastingSchedule;

/// The variant's systems that decide whether a caster keeps hold of its spell.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HoldOnSpell;

impl HoldOnSpell {
    pub fn name(self) -> &'static str {
        "strikes: casting"
    }
}

/// A caster, by seat, whose spell's casting drew attacks of opportunity (`provoked`) and
/// hurt it for `hurt`, or was cast `defensive`ly; a system that takes the spell from it
/// logs why and sets `lost`.
#[derive(Resource, Debug, Default)]
pub struct CastingTried {
    pub caster: usize,
    pub spell: Option<&'static crate::level::SpellDef>,
    pub defensive: bool,
    pub hurt: i32,
    pub lost: bool,
}
