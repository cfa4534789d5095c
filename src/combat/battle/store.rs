//! Where a battle's state lives: in its `World` ([`crate::combat::BattleWorld`]), for the
//! whole battle. Each combatant is an entity with its components (`fighters`), seated in id
//! order (`Seats`), and the battlefield, clock, dice, event log, counters, outcome, the
//! variant's own state and the derived roster, occupancy and threat map are resources. The
//! rule systems reach it through the [`InPlay`] system parameter and the checks through
//! [`InPlayRead`]; from outside the schedule it is lent (`BattleWorld::lend`) or read
//! (`BattleWorld::read`) from the world itself.

use super::fighters::{Fighter, Fighters, InPlayFighters, SeenFighters};
use super::{Battle, BattleOptions, BattleStats, Provoked, VariantRules};
use crate::combat::event::CombatEvent;
use crate::combat::own::Own;
use crate::combat::time::Clock;
use crate::level::WeaponDef;
use crate::rules::{Battlefield, Dice, Occupancy, Roster, ThreatMap};
use crate::variants::RulesVariant;
use bevy::ecs::system::{SystemParam, SystemState};
use bevy::prelude::*;
use std::ops::{Deref, DerefMut};
use std::sync::Arc;

/// One part of a battle's state, lent by its world: to change, or only to read.
pub enum Held<'w, T> {
    InPlay(&'w mut T),
    /// Lent for reading only, to a check (`InPlayRead`).
    Seen(&'w T),
}

impl<T> Deref for Held<'_, T> {
    type Target = T;
    #[inline]
    fn deref(&self) -> &T {
        match self {
            Held::InPlay(value) => value,
            Held::Seen(value) => value,
        }
    }
}

impl<T> DerefMut for Held<'_, T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        match self {
            Held::InPlay(value) => value,
            Held::Seen(_) => unreachable!("a battle lent for reading is only ever seen as `&Battle`"),
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

/// The entities of the combatants, in id order: a fighter's index is its seat.
#[derive(Resource, Default)]
pub struct Seats(pub Vec<Entity>);

/// Everything that has happened, in order.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct EventLog(pub Vec<CombatEvent>);

/// Roster, occupancy and threat as of the last `refresh`; `stale` once anything moved.
#[derive(Resource, Debug, Default)]
pub struct Derived {
    pub roster: Roster,
    pub occupancy: Occupancy,
    pub threat: ThreatMap,
    pub stale: bool,
}

impl Clone for Derived {
    fn clone(&self) -> Self {
        Derived {
            roster: self.roster.clone(),
            occupancy: self.occupancy.clone(),
            threat: self.threat.clone(),
            stale: self.stale,
        }
    }

    /// Field by field, reusing what the maps have allocated (a playout's restore).
    fn clone_from(&mut self, source: &Self) {
        self.roster.clone_from(&source.roster);
        self.occupancy.clone_from(&source.occupancy);
        self.threat.clone_from(&source.threat);
        self.stale = source.stale;
    }
}

impl Derived {
    /// Takes `roster` up, with the occupancy and threat map that follow from it.
    pub fn rebuild(&mut self, field: &Battlefield, roster: Roster) {
        self.occupancy = Occupancy::build(&field.terrain, &roster);
        self.threat.rebuild(field, &roster);
        self.roster = roster;
        self.stale = false;
    }
}

/// The rest of a battle in play: what it is fought under (its variant and the variant's
/// rules, copied in with each battle and never changed by a command; its level, options and
/// unarmed strike) and its record so far (counters, outcome, and while a command is only
/// foreseen, the attacks of opportunity it would draw).
#[derive(Resource, Clone)]
pub(crate) struct Record {
    pub(crate) variant: RulesVariant,
    pub(crate) rules_of: fn(RulesVariant) -> &'static dyn VariantRules,
    pub(crate) level_name: String,
    pub(crate) options: BattleOptions,
    pub(crate) unarmed: Arc<WeaponDef>,
    pub(crate) stats: BattleStats,
    pub(crate) winner: Option<Option<String>>,
    pub(crate) foreseen: Option<Vec<Provoked>>,
}

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

/// A system parameter of a battle's parts: its fighters through `$fighters` and each
/// resource through `$res` (`ResMut` for the rules, `Res` for the checks).
macro_rules! battle_param {
    ($(#[$doc:meta])* $name:ident, $fighters:ident, $res:ident) => {
        $(#[$doc])*
        #[derive(SystemParam)]
        pub struct $name<'w, 's> {
            fighters: $fighters<'w, 's>,
            field: $res<'w, Battlefield>,
            dice: $res<'w, Dice>,
            clock: $res<'w, Clock>,
            events: $res<'w, EventLog>,
            own: $res<'w, Own>,
            derived: $res<'w, Derived>,
            record: $res<'w, Record>,
        }
    };
}

battle_param!(
    /// The battle in play, as the rule systems take it from the engine's world.
    InPlay,
    InPlayFighters,
    ResMut
);

battle_param!(
    /// The battle in play, lent for reading only: to the checks of the validate stage and
    /// to the clock's look at what is left of a budget.
    InPlayRead,
    SeenFighters,
    Res
);

/// A `Battle` of a system parameter's parts, each lent as `Held::$lent` (and the fighters'
/// columns as `Column::$lent`); `$($borrow)*` is `mut` for the rules' `InPlay` and nothing for the
/// checks' `InPlayRead`.
macro_rules! lent_battle {
    ($param:ident, $lent:ident, $($borrow:tt)*) => {{
        let record = $param.record.into_inner();
        Battle {
            level_name: Held::$lent(&$($borrow)* record.level_name),
            field: Held::$lent($param.field.into_inner()),
            variant: record.variant,
            fighters: $param.fighters.lend(),
            dice: Held::$lent($param.dice.into_inner()),
            options: Held::$lent(&$($borrow)* record.options),
            clock: Held::$lent($param.clock.into_inner()),
            events: Held::$lent($param.events.into_inner()),
            stats: Held::$lent(&$($borrow)* record.stats),
            winner: Held::$lent(&$($borrow)* record.winner),
            own: Held::$lent($param.own.into_inner()),
            unarmed: Held::$lent(&$($borrow)* record.unarmed),
            derived: Held::$lent($param.derived.into_inner()),
            foreseen: Held::$lent(&$($borrow)* record.foreseen),
            rules_of: record.rules_of,
        }
    }};
}

impl<'w, 's> InPlay<'w, 's> {
    /// The battle, for the rules to work on.
    pub fn battle(self) -> Battle<'w, 's> {
        lent_battle!(self, InPlay, mut)
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

impl<'w, 's> InPlayRead<'w, 's> {
    /// The battle, for the checks to read.
    pub fn battle(self) -> BattleRead<'w, 's> {
        BattleRead(lent_battle!(self, Seen,))
    }
}

/// The engine's way into its world's battle: a cached `InPlay` (its resources and query
/// looked up once).
pub type Gate = SystemState<InPlay<'static, 'static>>;

/// Puts a battle's resources into `world`, in place of any there (the combatants are seated
/// apart, `seat`, in the seats already there).
pub(crate) fn furnish(world: &mut World, field: Battlefield, dice: Dice, record: Record, own: Own) {
    if !world.contains_resource::<Seats>() {
        world.insert_resource(Seats::default());
    }
    world.insert_resource(field);
    world.insert_resource(dice);
    world.insert_resource(Clock::default());
    world.insert_resource(EventLog::default());
    world.insert_resource(own);
    world.insert_resource(Derived { stale: true, ..Derived::default() });
    world.insert_resource(record);
}

/// The battle in `world`, to read: its components straight from their entities and its
/// resources as they are (no system state needed, so a shared `&World` will do).
pub(crate) fn read(world: &World) -> BattleRead<'_, '_> {
    let record = world.resource::<Record>();
    BattleRead(Battle {
        level_name: Held::Seen(&record.level_name),
        field: Held::Seen(world.resource::<Battlefield>()),
        variant: record.variant,
        fighters: Fighters::read(&world.resource::<Seats>().0, world),
        dice: Held::Seen(world.resource::<Dice>()),
        options: Held::Seen(&record.options),
        clock: Held::Seen(world.resource::<Clock>()),
        events: Held::Seen(world.resource::<EventLog>()),
        stats: Held::Seen(&record.stats),
        winner: Held::Seen(&record.winner),
        own: Held::Seen(world.resource::<Own>()),
        unarmed: Held::Seen(&record.unarmed),
        derived: Held::Seen(world.resource::<Derived>()),
        foreseen: Held::Seen(&record.foreseen),
        rules_of: record.rules_of,
    })
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
