//! Where a battle's state lives: in its `World` ([`crate::combat::BattleWorld`]), for the
//! whole battle. Each combatant is an entity with its components (`fighters`), seated in id
//! order (`Combatants`), and the battlefield, clock, dice, event log, counters, outcome, the
//! variant's own state and the derived roster, occupancy and threat map are resources.
//! The rules change it in the world itself, fighters by entity; anyone reads it through a
//! [`Battle`] over a shared world ([`read`]), and a check through its own queries
//! ([`BattleCheck`]).

use super::Fighter;
use super::fighters::{ChangingReads, Fighters, FixedReads};
use super::{Battle, BattleOptions, BattleStats, Provoked, VariantRules, Whole};
use crate::combat::event::CombatEvent;
use crate::combat::kept::KeptReads;
use crate::combat::time::Clock;
use crate::level::WeaponDef;
use crate::rules::{Battlefield, CoverResult, Dice, MoveMode, MoveRange, Occupancy, Roster, ThreatMap};
use crate::variants::RulesVariant;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use std::ops::{Deref, DerefMut};
use std::sync::{Arc, Mutex};

/// The entities of the combatants, in id order. A fighter's place in it (its seat) is how
/// the grid rules name it; everything else names it by entity.
#[derive(Resource, Default)]
pub struct Combatants(pub Vec<Entity>);

impl Combatants {
    /// The seat of combatant `e`.
    pub fn seat_of(&self, e: Entity) -> Option<usize> {
        seat_among(&self.0, e)
    }
}

/// The place of `e` among the combatants `seated` in id order.
pub(super) fn seat_among(seated: &[Entity], e: Entity) -> Option<usize> {
    seated.iter().position(|&s| s == e)
}

/// Everything that has happened, in order.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct EventLog(pub Vec<CombatEvent>);

/// What a fighter took in the strike being made, that a variant counts against its
/// economy: the shared rules note it (in the `TakenInStrike` resource), and once the
/// strike is made the variant's systems in `schedule::taken` count it (fighters by entity).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Taken {
    /// `by` took an attack action (ap-phases counts them: each after the first is at −5).
    AttackAction { by: Entity },
    /// `by` made an attack of opportunity (d20-classic: its immediate action).
    AttackOfOpportunity { by: Entity },
    /// `by` took its readied action on `trigger` (its place in the order moves).
    HeldAction { by: Entity, trigger: Entity },
    /// `by` took a chance on a combat maneuver and lost it by `margin` (below 0; ap-phases:
    /// one lost by 10 or more turns on its maker).
    LostManeuver { by: Entity, kind: super::Maneuver, margin: i32 },
}

/// What was taken in the strike being made, in order; empty between strikes.
#[derive(Resource, Debug, Default)]
pub struct TakenInStrike(pub Vec<Taken>);

/// Roster, occupancy and threat as of the last `refresh`; `stale` once anything moved.
/// The movement ranges searched over these maps, and the cover between units standing on
/// them, are kept until they are rebuilt: an AI's choice of square or target, its check,
/// the command's own check and the attack's roll search each once.
#[derive(Resource, Debug, Default)]
pub struct Derived {
    pub roster: Roster,
    pub occupancy: Occupancy,
    pub threat: ThreatMap,
    pub stale: bool,
    ranges: Mutex<Vec<Arc<MoveRange>>>,
    covers: Mutex<Vec<(usize, usize, CoverResult)>>,
}

/// The movement ranges kept: the last few searched.
const RANGES_KEPT: usize = 6;

impl Clone for Derived {
    fn clone(&self) -> Self {
        Derived {
            roster: self.roster.clone(),
            occupancy: self.occupancy.clone(),
            threat: self.threat.clone(),
            stale: self.stale,
            ranges: Mutex::default(),
            covers: Mutex::default(),
        }
    }

    /// Field by field, reusing what the maps have allocated (a playout's restore).
    fn clone_from(&mut self, source: &Self) {
        self.roster.clone_from(&source.roster);
        self.occupancy.clone_from(&source.occupancy);
        self.threat.clone_from(&source.threat);
        self.stale = source.stale;
        self.forget_kept();
    }
}

impl Derived {
    /// The rules' view of `field` with these maps; they must be up to date (not `stale`).
    pub fn view<'a>(&'a self, field: &'a Battlefield) -> crate::rules::RulesView<'a> {
        debug_assert!(!self.stale, "the derived maps are brought up to date before they are viewed");
        crate::rules::RulesView { field, roster: &self.roster, occupancy: &self.occupancy, threat: &self.threat }
    }

    /// Takes `roster` up, with the occupancy and threat map that follow from it.
    pub fn rebuild(&mut self, field: &Battlefield, roster: Roster) {
        self.occupancy = Occupancy::build(&field.terrain, &roster);
        self.threat.rebuild(field, &roster);
        self.roster = roster;
        self.stale = false;
        self.forget_kept();
    }

    /// Where `mover` can go with one movement of `mode` within `budget_ft` over these maps
    /// (`rules::movement_range`), searched once while they stand and shared, not copied.
    pub fn move_range(&self, field: &Battlefield, mover: usize, mode: MoveMode, budget_ft: u32) -> Arc<MoveRange> {
        let mut ranges = self.ranges.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(kept) = ranges.iter().find(|r| (r.mover, r.mode, r.budget_ft) == (mover, mode, budget_ft)) {
            return kept.clone();
        }
        let range = crate::rules::recalled::movement_range(&self.view(field), mover, mode, budget_ft);
        if ranges.len() == RANGES_KEPT {
            ranges.remove(0);
        }
        ranges.push(range.clone());
        range
    }

    /// The cover of `target` against `attacker`'s wielded weapon where they stand over these
    /// maps (`rules::cover_between`), surveyed once while they stand.
    pub fn cover_between(&self, field: &Battlefield, attacker: usize, target: usize) -> CoverResult {
        let mut covers = self.covers.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((_, _, kept)) = covers.iter().find(|&&(a, t, _)| (a, t) == (attacker, target)) {
            return kept.clone();
        }
        let cover = crate::rules::recalled::cover_between(&self.view(field), attacker, target);
        covers.push((attacker, target, cover.clone()));
        cover
    }

    fn forget_kept(&mut self) {
        self.ranges.get_mut().unwrap_or_else(|poisoned| poisoned.into_inner()).clear();
        self.covers.get_mut().unwrap_or_else(|poisoned| poisoned.into_inner()).clear();
    }
}

/// The rest of a battle in play: what it is fought under (its variant and the variant's
/// rules, copied in with each battle and never changed by a command; its level, options and
/// unarmed strike) and its record so far (counters, outcome, and while a command is only
/// foreseen, the attacks of opportunity it would draw).
#[derive(Resource)]
pub(crate) struct Record {
    /// Which battle this is: set anew each time a battle is set up (`Record::new`), and
    /// carried by its snapshots. Two worlds or snapshots with the same setup hold the same
    /// combatants and battlefield, whatever happened since.
    pub(crate) setup: u64,
    pub(crate) variant: RulesVariant,
    pub(crate) rules_of: fn(RulesVariant) -> &'static dyn VariantRules,
    pub(crate) level_name: String,
    pub(crate) options: BattleOptions,
    pub(crate) unarmed: Arc<WeaponDef>,
    pub(crate) stats: BattleStats,
    pub(crate) winner: Option<Option<String>>,
    pub(crate) foreseen: Option<Vec<Provoked>>,
}

clone_in_place!(Record { setup, variant, rules_of, level_name, options, unarmed, stats, winner, foreseen });

impl Record {
    /// The record of a battle not yet begun.
    pub(crate) fn new(
        variant: RulesVariant,
        rules_of: fn(RulesVariant) -> &'static dyn VariantRules,
        level_name: String,
        options: BattleOptions,
        unarmed: Arc<WeaponDef>,
    ) -> Record {
        Record {
            setup: Record::new_setup(),
            variant,
            rules_of,
            level_name,
            options,
            unarmed,
            stats: BattleStats::default(),
            winner: None,
            foreseen: None,
        }
    }

    /// A setup no battle has had yet: what a battle set up anew (or made of part of
    /// another) is known by.
    pub(crate) fn new_setup() -> u64 {
        static SETUPS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        SETUPS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    }
}

impl Deref for EventLog {
    type Target = Vec<CombatEvent>;
    fn deref(&self) -> &Vec<CombatEvent> {
        &self.0
    }
}

impl DerefMut for EventLog {
    fn deref_mut(&mut self) -> &mut Vec<CombatEvent> {
        &mut self.0
    }
}

/// A battle that may be read but not changed: it derefs to `&Battle` only.
pub struct BattleRead<'w, 's>(Battle<'w, 's>);

impl<'w, 's> Deref for BattleRead<'w, 's> {
    type Target = Battle<'w, 's>;
    fn deref(&self) -> &Battle<'w, 's> {
        &self.0
    }
}

/// Puts a battle's resources into `world`, in place of any there (the combatants are seated
/// apart, `seat`, in the seats already there).
pub(crate) fn furnish(world: &mut World, field: Battlefield, dice: Dice, record: Record) {
    if !world.contains_resource::<Combatants>() {
        world.insert_resource(Combatants::default());
    }
    world.insert_resource(field);
    world.insert_resource(dice);
    world.insert_resource(Clock::default());
    world.insert_resource(EventLog::default());
    world.insert_resource(Derived { stale: true, ..Derived::default() });
    world.insert_resource(record);
}

/// The battle in `world`, to read: its components straight from their entities and its
/// resources as they are (no system state needed, so a shared `&World` will do).
pub(crate) fn read(world: &World) -> BattleRead<'_, '_> {
    let record = world.resource::<Record>();
    BattleRead(Battle {
        level_name: &record.level_name,
        field: world.resource::<Battlefield>(),
        variant: record.variant,
        fighters: Fighters::read(&world.resource::<Combatants>().0, world),
        dice: world.resource::<Dice>(),
        options: &record.options,
        clock: world.resource::<Clock>(),
        events: world.resource::<EventLog>(),
        stats: &record.stats,
        winner: &record.winner,
        unarmed: &record.unarmed,
        derived: world.resource::<Derived>(),
        rules_of: record.rules_of,
        world: Whole::Read(world),
    })
}

/// What a check reads of a battle, each part through a query or resource of its own: the
/// combatants' components, the battle's resources and the variants' own state. Nothing is
/// changed, and the whole world is never reached.
#[derive(SystemParam)]
pub struct BattleCheck<'w, 's> {
    seats: Res<'w, Combatants>,
    record: Res<'w, Record>,
    field: Res<'w, Battlefield>,
    dice: Res<'w, Dice>,
    clock: Res<'w, Clock>,
    events: Res<'w, EventLog>,
    derived: Res<'w, Derived>,
    fixed: FixedReads<'w, 's>,
    changing: ChangingReads<'w, 's>,
    kept: KeptReads<'w, 's>,
}

impl<'w, 's> BattleCheck<'w, 's> {
    /// The battle these read, to check a command against: it has no world, so the attack
    /// modifiers are not weighed (a check needs only whether an attack is legal).
    pub fn battle(self) -> BattleRead<'w, 's> {
        let record = self.record.into_inner();
        let seats = &self.seats.into_inner().0[..];
        BattleRead(Battle {
            level_name: &record.level_name,
            field: self.field.into_inner(),
            variant: record.variant,
            fighters: Fighters::queried(seats, self.fixed, self.changing),
            dice: self.dice.into_inner(),
            options: &record.options,
            clock: self.clock.into_inner(),
            events: self.events.into_inner(),
            stats: &record.stats,
            winner: &record.winner,
            unarmed: &record.unarmed,
            derived: self.derived.into_inner(),
            rules_of: record.rules_of,
            world: Whole::Checked(self.kept),
        })
    }
}

/// Combatants `fighters` in `world` in their order, reusing the entities of the seats there
/// (their components overwritten) and spawning or despawning to match.
pub(crate) fn seat(world: &mut World, fighters: Vec<Fighter>) {
    let mut seats = std::mem::take(&mut world.resource_mut::<Combatants>().0);
    while seats.len() > fighters.len() {
        let entity = seats.pop().expect("more seats than fighters");
        world.despawn(entity);
    }
    for (i, fighter) in fighters.into_iter().enumerate() {
        match seats.get(i) {
            Some(&entity) => {
                world.entity_mut(entity).insert(fighter);
            }
            None => seats.push(world.spawn(fighter).id()),
        }
    }
    world.resource_mut::<Combatants>().0 = seats;
}
