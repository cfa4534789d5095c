//! What befalls a fighter in the middle of a strike, where a variant has a rule for it:
//! it is about to be attacked (hex-phases: it may abort to a dodge), its concentration is
//! tried (hurt, or it made a free attack: ap-phases, osr-segments), it dropped (as every
//! variant has it: the grapple released, unconscious, prone, dying or dead; and ap-phases'
//! advanced action lost), or its casting drew its attacks of opportunity (the d20
//! family's concentration, four-actions' interruption). The harm driver, at that point of the
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

/// The schedule run when something may break a caster's concentration, with
/// [`Distracted`].
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct DistractedSchedule;

/// The variant's systems that try a caster's concentration.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Concentration;

impl Concentration {
    pub fn name(self) -> &'static str {
        "harm: concentration"
    }
}

/// What may break a fighter's concentration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Distraction {
    /// Hurt for this many hit points.
    Hurt(i32),
    /// It made a free attack (an attack of opportunity).
    #[default]
    FreeAttack,
}

impl Distraction {
    /// In the log's words.
    pub fn words(self) -> &'static str {
        match self {
            Distraction::Hurt(_) => "hurt",
            Distraction::FreeAttack => "made a free attack",
        }
    }
}

/// The fighter, by seat, whose concentration is tried, and by what.
#[derive(Resource, Debug, Default)]
pub struct Distracted {
    pub unit: usize,
    pub by: Distraction,
}

/// The schedule run when a fighter drops (reduced to 0 hit points or fewer), with
/// [`Dropping`]: its grapple released, then the variant's systems ([`WhenDropped`]), then
/// it falls (unconscious, prone, dying as the variant's data has it) and may be dead.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct DroppedSchedule;

/// Every system of the [`DroppedSchedule`], in the order they run.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Drops;

impl Drops {
    pub fn name(self) -> &'static str {
        "harm: dropped"
    }
}

/// The variant's systems for a fighter dropping, once its grapple is released and before
/// it falls.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WhenDropped;

/// The fighter dropping, by seat, and whether the blow already failed its first save
/// (d20-classic's massive damage).
#[derive(Resource, Debug, Default)]
pub struct Dropping {
    pub unit: usize,
    pub first_save_failed: bool,
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
