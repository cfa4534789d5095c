//! Where a battle's state lives: in its `World` ([`crate::combat::BattleWorld`]), for the
//! whole battle. Each combatant is an entity with its components (`fighters`), seated in id
//! order (`Seats`), and the battlefield, clock, dice, event log, counters, outcome, the
//! variant's own state and the derived roster, occupancy and threat map are resources.
//! `BattleWorld::lend` takes the world whole ([`lend`]), to set a scene; the rules, the
//! checks and anyone else read it from a shared world ([`read`]).

use super::fighters::{ChangingReads, Fighter, Fighters, FixedReads};
use super::{Battle, BattleOptions, BattleStats, Provoked, VariantRules, Whole};
use crate::combat::event::CombatEvent;
use crate::combat::kept::KeptReads;
use crate::combat::time::Clock;
use crate::level::WeaponDef;
use crate::rules::{Battlefield, Dice, MoveMode, MoveRange, Occupancy, Roster, ThreatMap};
use crate::variants::RulesVariant;
use bevy::ecs::system::SystemParam;
use bevy::ecs::world::unsafe_world_cell::UnsafeWorldCell;
use bevy::prelude::*;
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;
use std::sync::{Arc, Mutex};

/// One part of a battle's state, in its world: lent with the whole world, to change, or
/// read from a world shared with others.
pub enum Held<'w, T> {
    /// Reached through a world lent whole (`lend`): the battle is the one way to it.
    Lent(NonNull<T>, PhantomData<&'w mut T>),
    Read(&'w T),
}

impl<'w, T> Held<'w, T> {
    fn lent(value: &'w mut T) -> Self {
        Held::Lent(NonNull::from(value), PhantomData)
    }
}

impl<T> Deref for Held<'_, T> {
    type Target = T;
    #[inline]
    fn deref(&self) -> &T {
        match self {
            // SAFETY: made from a `&'w mut T` (`Held::lent`) that only this `Held` keeps; a
            // shared borrow of it rules out a `&mut T` it gave out.
            Held::Lent(value, _) => unsafe { value.as_ref() },
            Held::Read(value) => value,
        }
    }
}

impl<T> DerefMut for Held<'_, T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        match self {
            // SAFETY: as `deref`, and this `Held` is borrowed uniquely.
            Held::Lent(value, _) => unsafe { value.as_mut() },
            Held::Read(_) => unreachable!("a battle read from a shared world is only ever seen as `&Battle`"),
        }
    }
}

impl<T: PartialEq> PartialEq for Held<'_, T> {
    fn eq(&self, other: &Self) -> bool {
        T::eq(self, other)
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for Held<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        T::fmt(self, f)
    }
}

/// The entities of the combatants, in id order. A fighter's place in it (its seat) is how
/// the grid rules name it; everything else names it by entity.
#[derive(Resource, Default)]
pub struct Seats(pub Vec<Entity>);

impl Seats {
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
/// The movement ranges searched over these maps are kept until they are rebuilt: an AI's
/// choice of square, its check and the command's own check search one range once.
#[derive(Resource, Debug, Default)]
pub struct Derived {
    pub roster: Roster,
    pub occupancy: Occupancy,
    pub threat: ThreatMap,
    pub stale: bool,
    ranges: Mutex<Vec<Arc<MoveRange>>>,
}

/// The movement ranges kept: the last few searched.
const RANGES_KEPT: usize = 4;

impl Clone for Derived {
    fn clone(&self) -> Self {
        Derived {
            roster: self.roster.clone(),
            occupancy: self.occupancy.clone(),
            threat: self.threat.clone(),
            stale: self.stale,
            ranges: Mutex::default(),
        }
    }

    /// Field by field, reusing what the maps have allocated (a playout's restore).
    fn clone_from(&mut self, source: &Self) {
        self.roster.clone_from(&source.roster);
        self.occupancy.clone_from(&source.occupancy);
        self.threat.clone_from(&source.threat);
        self.stale = source.stale;
        self.forget_ranges();
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
        self.forget_ranges();
    }

    /// Where `mover` can go with one movement of `mode` within `budget_ft` over these maps
    /// (`rules::movement_range`), searched once while they stand and shared, not copied.
    pub fn move_range(&self, field: &Battlefield, mover: usize, mode: MoveMode, budget_ft: u32) -> Arc<MoveRange> {
        let mut ranges = self.ranges.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(kept) = ranges.iter().find(|r| (r.mover, r.mode, r.budget_ft) == (mover, mode, budget_ft)) {
            return kept.clone();
        }
        let range = Arc::new(crate::rules::movement_range(&self.view(field), mover, mode, budget_ft));
        if ranges.len() == RANGES_KEPT {
            ranges.remove(0);
        }
        ranges.push(range.clone());
        range
    }

    fn forget_ranges(&mut self) {
        self.ranges.get_mut().unwrap_or_else(|poisoned| poisoned.into_inner()).clear();
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
        static SETUPS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        Record {
            setup: SETUPS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
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

/// The battle in `world`, lent whole from outside the schedule (`BattleWorld::lend`: a test
/// or a tool setting a scene). While it is lent, it is the one way into the world's battle,
/// and `Battle::world` shows the world to read-only systems (the attack modifiers).
pub(crate) fn lend(world: &mut World) -> Battle<'_, '_> {
    // SAFETY: `world` is borrowed uniquely for the battle's whole life.
    unsafe { lend_cell(world.as_unsafe_world_cell()) }
}

/// The battle in the world of `cell`, lent whole (`lend`).
///
/// # Safety
/// `cell` was made from a `&mut World` that nothing else uses while the battle lives.
pub(super) unsafe fn lend_cell<'w, 's>(cell: UnsafeWorldCell<'w>) -> Battle<'w, 's> {
    // SAFETY: as the caller promises, the world is the battle's alone; each resource is
    // reached once here (distinct types), each component through its own column, and the
    // whole world shown only while the battle is borrowed shared (`Battle::world`).
    unsafe {
        let seats = &cell.get_resource::<Seats>().unwrap_or_else(|| missing("Seats")).0[..];
        let Resources { record, field, dice, clock, events, derived } = resources(cell);
        Battle {
            level_name: Held::lent(&mut record.level_name),
            field: Held::lent(field),
            variant: record.variant,
            fighters: Fighters::lent(seats, cell),
            dice: Held::lent(dice),
            options: Held::lent(&mut record.options),
            clock: Held::lent(clock),
            events: Held::lent(events),
            stats: Held::lent(&mut record.stats),
            winner: Held::lent(&mut record.winner),
            unarmed: Held::lent(&mut record.unarmed),
            derived: Held::lent(derived),
            foreseen: Held::lent(&mut record.foreseen),
            rules_of: record.rules_of,
            world: Whole::Lent(cell),
        }
    }
}

/// The battle's parts held by a pointer into the world, reached anew once the world was
/// given whole to a rule (`Battle::in_world`). Its columns reach the world at each use, and the
/// seats they hold are only ever read, so they stay.
///
/// # Safety
/// As `lend_cell`'s, for the cell `b` was lent from; no reference `b` gave out is alive.
pub(super) unsafe fn hold_anew<'w>(b: &mut Battle<'w, '_>, cell: UnsafeWorldCell<'w>) {
    // SAFETY: as the caller promises; each resource is reached once here.
    let Resources { record, field, dice, clock, events, derived } = unsafe { resources(cell) };
    b.level_name = Held::lent(&mut record.level_name);
    b.field = Held::lent(field);
    b.dice = Held::lent(dice);
    b.options = Held::lent(&mut record.options);
    b.clock = Held::lent(clock);
    b.events = Held::lent(events);
    b.stats = Held::lent(&mut record.stats);
    b.winner = Held::lent(&mut record.winner);
    b.unarmed = Held::lent(&mut record.unarmed);
    b.derived = Held::lent(derived);
    b.foreseen = Held::lent(&mut record.foreseen);
}

/// The resources a lent battle holds, each reached once.
struct Resources<'w> {
    record: &'w mut Record,
    field: &'w mut Battlefield,
    dice: &'w mut Dice,
    clock: &'w mut Clock,
    events: &'w mut EventLog,
    derived: &'w mut Derived,
}

/// # Safety
/// `cell` may reach each of these resources mutably, and nothing else reaches them while
/// the references live.
unsafe fn resources<'w>(cell: UnsafeWorldCell<'w>) -> Resources<'w> {
    // SAFETY: as the caller promises; the types are distinct, so no two references alias.
    unsafe {
        Resources {
            record: cell.get_resource_mut::<Record>().unwrap_or_else(|| missing("Record")).into_inner(),
            field: cell.get_resource_mut::<Battlefield>().unwrap_or_else(|| missing("Battlefield")).into_inner(),
            dice: cell.get_resource_mut::<Dice>().unwrap_or_else(|| missing("Dice")).into_inner(),
            clock: cell.get_resource_mut::<Clock>().unwrap_or_else(|| missing("Clock")).into_inner(),
            events: cell.get_resource_mut::<EventLog>().unwrap_or_else(|| missing("EventLog")).into_inner(),
            derived: cell.get_resource_mut::<Derived>().unwrap_or_else(|| missing("Derived")).into_inner(),
        }
    }
}

fn missing(what: &str) -> ! {
    panic!("the world holds a battle (`store::furnish`): no {what}")
}

/// Puts a battle's resources into `world`, in place of any there (the combatants are seated
/// apart, `seat`, in the seats already there).
pub(crate) fn furnish(world: &mut World, field: Battlefield, dice: Dice, record: Record) {
    if !world.contains_resource::<Seats>() {
        world.insert_resource(Seats::default());
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
        level_name: Held::Read(&record.level_name),
        field: Held::Read(world.resource::<Battlefield>()),
        variant: record.variant,
        fighters: Fighters::read(&world.resource::<Seats>().0, world),
        dice: Held::Read(world.resource::<Dice>()),
        options: Held::Read(&record.options),
        clock: Held::Read(world.resource::<Clock>()),
        events: Held::Read(world.resource::<EventLog>()),
        stats: Held::Read(&record.stats),
        winner: Held::Read(&record.winner),
        unarmed: Held::Read(&record.unarmed),
        derived: Held::Read(world.resource::<Derived>()),
        foreseen: Held::Read(&record.foreseen),
        rules_of: record.rules_of,
        world: Whole::Read(world),
    })
}

/// What a check reads of a battle, each part through a query or resource of its own: the
/// combatants' components, the battle's resources and the variants' own state. Nothing is
/// changed, and the whole world is never reached.
#[derive(SystemParam)]
pub struct BattleCheck<'w, 's> {
    seats: Res<'w, Seats>,
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
            level_name: Held::Read(&record.level_name),
            field: Held::Read(self.field.into_inner()),
            variant: record.variant,
            fighters: Fighters::queried(seats, self.fixed, self.changing),
            dice: Held::Read(self.dice.into_inner()),
            options: Held::Read(&record.options),
            clock: Held::Read(self.clock.into_inner()),
            events: Held::Read(self.events.into_inner()),
            stats: Held::Read(&record.stats),
            winner: Held::Read(&record.winner),
            unarmed: Held::Read(&record.unarmed),
            derived: Held::Read(self.derived.into_inner()),
            foreseen: Held::Read(&record.foreseen),
            rules_of: record.rules_of,
            world: Whole::Checked(self.kept),
        })
    }
}

/// Seats `fighters` in `world` in their order, reusing the entities of the seats there
/// (their components overwritten) and spawning or despawning to match.
pub(crate) fn seat(world: &mut World, fighters: Vec<Fighter>) {
    let mut seats = std::mem::take(&mut world.resource_mut::<Seats>().0);
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
    world.resource_mut::<Seats>().0 = seats;
}
