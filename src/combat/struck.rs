//! What befalls a fighter in the middle of a strike, each a small schedule of narrow
//! systems the strike driver runs at that point (`Battle::run_rules`: it puts what happened
//! in the schedule's resource, runs the schedule, and takes the resource back):
//! - an attack is about to be made (hex-phases: its target may abort to a dodge;
//!   d20-classic: a shot into a grapple may stray to the other grappler);
//! - it is rolled (common systems: the die, then a threat made a critical as the variant's
//!   data has it);
//! - a fighter is hurt (common systems: a weapon's damage rolled, hit points lost,
//!   knocked out, dropping with its grapple released, falling, dead or dying; the
//!   variants' own steps: ap-phases' and osr-segments' concentration, d20-classic's
//!   massive damage, ap-phases' advanced action lost);
//! - it made a free attack (osr-segments: its concentration breaks);
//! - its casting drew attacks of opportunity (the d20 family's concentration, four-actions'
//!   interruption).
//!
//! A variant's systems there read and change only the components they name; a schedule
//! that holds no system (no variant rule) is not run.

use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;

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

/// An attack about to be rolled: its `attacker` and `target`. A system here may change the
/// target (d20-classic's shot into a grapple that strays to the other grappler).
#[derive(Resource, Debug)]
pub struct UnderAttack {
    pub attacker: Entity,
    pub target: Entity,
}

impl Default for UnderAttack {
    fn default() -> Self {
        UnderAttack { attacker: Entity::PLACEHOLDER, target: Entity::PLACEHOLDER }
    }
}

/// The schedule run for each attack roll once its terms are weighed, with [`Swing`]: the
/// die rolled against the number to reach and logged with every term, then a threat
/// confirmed or taken as a critical as the variant's data has it.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SwingSchedule;

/// Every system of the [`SwingSchedule`], in the order they run.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swings;

impl Swings {
    pub fn name(self) -> &'static str {
        "strikes: attack roll"
    }
}

/// The steps of an attack roll, in order.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SwingStep {
    /// The die rolled and the attack logged.
    Roll,
    /// A threat made a critical, or not.
    Critical,
}

/// One attack roll as the [`SwingSchedule`] carries it out: who attacks whom, which attack
/// of the turn it is and whether it ends a charge, its weighed terms, and what the roll
/// came to.
#[derive(Resource, Debug)]
pub struct Swing {
    pub attacker: Entity,
    pub target: Entity,
    pub kind: crate::combat::AttackKind,
    pub charge: bool,
    pub profile: Option<crate::combat::attack::AttackProfile>,
    /// The natural roll that hit is a threat (set at [`SwingStep::Roll`]).
    pub threat: bool,
    pub hit: bool,
    pub critical: bool,
}

impl Swing {
    /// `attacker`'s attack on `target`, weighed as `profile`, not yet rolled.
    pub fn new(
        attacker: Entity,
        target: Entity,
        kind: crate::combat::AttackKind,
        charge: bool,
        profile: Option<crate::combat::attack::AttackProfile>,
    ) -> Swing {
        Swing { attacker, target, kind, charge, profile, threat: false, hit: false, critical: false }
    }
}

impl Default for Swing {
    fn default() -> Self {
        Swing::new(Entity::PLACEHOLDER, Entity::PLACEHOLDER, Default::default(), false, None)
    }
}

/// The schedule run when a fighter made a free attack (an attack of opportunity), with
/// [`Distracted`]: the variant's systems that try the concentration of a caster who did.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct DistractedSchedule;

/// The variant's systems that try the concentration of a caster who made a free attack (a
/// wound's are the [`HarmSchedule`]'s [`HarmStep::CasterHurt`]).
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Concentration;

impl Concentration {
    pub fn name(self) -> &'static str {
        "strikes: free attack made"
    }
}

/// The fighter who made a free attack, whose concentration is tried.
#[derive(Resource, Debug)]
pub struct Distracted {
    pub unit: Entity,
}

impl Default for Distracted {
    fn default() -> Self {
        Distracted { unit: Entity::PLACEHOLDER }
    }
}

/// The schedule run whenever a fighter is hurt, with [`Harm`]: a weapon's damage rolled,
/// the hit points lost, a caster's concentration tried, the variant's own rules for a heavy
/// blow, knocked out by nonlethal damage or dropping (its grapple released), the variant's
/// systems for dropping ([`HarmStep::WhenDropped`]), its fall; last, dead or dying.
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
    /// A weapon's damage rolled (run only for a weapon's blow).
    DamageRoll,
    /// Hit points (or nonlethal damage) lost, and logged.
    HitPoints,
    /// A caster hurt has its concentration tried (ap-phases, osr-segments).
    CasterHurt,
    /// What a heavy blow does beyond its hit points (d20-classic's massive damage).
    HeavyBlow,
    /// Whether the wound knocks the fighter out or drops it; a fighter dropping lets go of
    /// its grapple.
    Drops,
    /// The variant's systems for a fighter dropping, once its grapple is released and
    /// before it falls (ap-phases' advanced action lost); run only when it drops.
    WhenDropped,
    /// A fighter dropping falls unconscious and prone, dying as the variant has it.
    Fall,
    /// Dead at the variant's threshold, or dying.
    Death,
}

/// One wound as the [`HarmSchedule`] carries it out: `amount` hit points dealt by `by` to
/// `unit`, how it was rolled (for the log), and what its steps found. A weapon's blow comes
/// with its `weapon` roll still to make, which sets the rest.
#[derive(Resource, Debug)]
pub struct Harm {
    pub by: Entity,
    pub unit: Entity,
    pub weapon: Option<WeaponBlow>,
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
    /// The wound drops it (set at [`HarmStep::Drops`]).
    pub drops: bool,
}

impl Harm {
    /// A wound from `by` to `unit`: `amount` hit points, or a weapon's blow still to roll.
    pub fn new(by: Entity, unit: Entity, weapon: Option<WeaponBlow>, amount: i32) -> Harm {
        Harm {
            by,
            unit,
            weapon,
            amount,
            nonlethal: false,
            dice: String::new(),
            rolls: Vec::new(),
            modifiers: Vec::new(),
            hp_before: 0,
            first_save_failed: false,
            drops: false,
        }
    }
}

impl Default for Harm {
    fn default() -> Self {
        Harm::new(Entity::PLACEHOLDER, Entity::PLACEHOLDER, None, 0)
    }
}

/// A weapon's blow before its damage is rolled: whether it is a critical, and its flat
/// terms as the damage modifier systems weighed them.
#[derive(Debug, Default)]
pub struct WeaponBlow {
    pub critical: bool,
    pub terms: Vec<crate::combat::fighter::Modifier>,
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

/// A caster whose spell's casting drew attacks of opportunity (`provoked`) and
/// hurt it for `hurt`, or was cast `defensive`ly; a system that takes the spell from it
/// logs why and sets `lost`.
#[derive(Resource, Debug)]
pub struct CastingTried {
    pub caster: Entity,
    pub spell: Option<&'static crate::level::SpellDef>,
    pub defensive: bool,
    pub hurt: i32,
    pub lost: bool,
}

impl Default for CastingTried {
    fn default() -> Self {
        CastingTried { caster: Entity::PLACEHOLDER, spell: None, defensive: false, hurt: 0, lost: false }
    }
}
