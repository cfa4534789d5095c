//! Where a battle's state lives. While the rules resolve a command it lives in the
//! engine's `World`: each combatant is an entity with its components (`fighters`), seated
//! in id order (`Seats`), and the battlefield, clock, dice, event log, counters, outcome, the
//! variant's own state and the derived roster, occupancy and threat map are resources. The
//! rule systems reach it through the [`InPlay`] system parameter. Between commands it rests
//! as one plain value (an [`OwnedBattle`]) that the window, the sim, the AI and the tests
//! hold, copy and read; the engine moves it into its world for a command and back out
//! (`swap_with_world`), so the state is in one place at any time and never mirrored.

use super::fighters::{Fighters, InPlayFighters, SeenFighters};
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

/// A battle resting between commands, owning its state.
pub type OwnedBattle = Battle<'static, 'static>;

/// One part of a battle's state: owned while the battle rests, lent by the world while it
/// is in play.
pub enum Held<'w, T> {
    Resting(T),
    InPlay(&'w mut T),
    /// Lent for reading only, to a check (`InPlayRead`).
    Seen(&'w T),
}

impl<T> Deref for Held<'_, T> {
    type Target = T;
    #[inline]
    fn deref(&self) -> &T {
        match self {
            Held::Resting(value) => value,
            Held::InPlay(value) => value,
            Held::Seen(value) => value,
        }
    }
}

impl<T> DerefMut for Held<'_, T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        match self {
            Held::Resting(value) => value,
            Held::InPlay(value) => value,
            Held::Seen(_) => unreachable!("a battle lent for reading is only ever seen as `&Battle`"),
        }
    }
}

impl<T: Clone> Clone for Held<'static, T> {
    fn clone(&self) -> Self {
        Held::Resting(T::clone(self))
    }
}

impl<T: Default> Default for Held<'_, T> {
    fn default() -> Self {
        Held::Resting(T::default())
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
#[derive(Resource, Clone, Debug, Default)]
pub struct Derived {
    pub roster: Roster,
    pub occupancy: Occupancy,
    pub threat: ThreatMap,
    pub stale: bool,
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
#[derive(Resource)]
pub(crate) struct Record {
    variant: RulesVariant,
    rules_of: fn(RulesVariant) -> &'static dyn VariantRules,
    level_name: String,
    options: BattleOptions,
    unarmed: Arc<WeaponDef>,
    stats: BattleStats,
    winner: Option<Option<String>>,
    foreseen: Option<Vec<Provoked>>,
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

/// Makes the world ready to hold a battle like `battle` (a spare of the same shape, made on
/// first use, so that nothing is allocated per command), and the gate into it.
pub(crate) fn gate(battle: &OwnedBattle, world: &mut World) -> Gate {
    world.insert_resource(Seats::default());
    world.insert_resource((*battle.field).clone());
    world.insert_resource((*battle.dice).clone());
    world.insert_resource(Clock::default());
    world.insert_resource(EventLog::default());
    world.insert_resource(Own::default());
    world.insert_resource(Derived::default());
    world.insert_resource(Record {
        variant: battle.variant,
        rules_of: battle.rules_of,
        level_name: String::new(),
        options: BattleOptions::default(),
        unarmed: Arc::clone(&battle.unarmed),
        stats: BattleStats::default(),
        winner: None,
        foreseen: None,
    });
    SystemState::new(world)
}

/// Moves a resting battle's state into `world` and the world's into the battle: called
/// once to put the battle in play and once more to take it back. Each part is swapped with
/// the world's spare; each fighter with the component of its seat (seats are made or
/// dropped to match the battle first).
pub(crate) fn swap_with_world(battle: &mut OwnedBattle, world: &mut World, gate: &mut Gate) {
    if world.resource::<Seats>().0.len() != battle.fighters.len() {
        seat(&battle.fighters, world);
    }
    let mut record = world.resource_mut::<Record>();
    (record.variant, record.rules_of) = (battle.variant, battle.rules_of);
    let mut live = gate.get_mut(world).expect("the world holds a battle's parts (made by `gate`)").battle();
    battle.fighters.swap_with(&mut live.fighters);
    swap_part(&mut battle.level_name, &mut live.level_name);
    swap_part(&mut battle.field, &mut live.field);
    swap_part(&mut battle.dice, &mut live.dice);
    swap_part(&mut battle.options, &mut live.options);
    swap_part(&mut battle.clock, &mut live.clock);
    swap_part(&mut battle.events, &mut live.events);
    swap_part(&mut battle.stats, &mut live.stats);
    swap_part(&mut battle.winner, &mut live.winner);
    swap_part(&mut battle.own, &mut live.own);
    swap_part(&mut battle.unarmed, &mut live.unarmed);
    swap_part(&mut battle.derived, &mut live.derived);
    swap_part(&mut battle.foreseen, &mut live.foreseen);
}

fn swap_part<T>(part: &mut Held<'static, T>, spare: &mut Held<'_, T>) {
    std::mem::swap(&mut **part, &mut **spare);
}

/// As many seats as `fighters`, each holding a fighter (a spare, for a newly made seat).
fn seat(fighters: &Fighters, world: &mut World) {
    let mut seats = std::mem::take(&mut world.resource_mut::<Seats>().0);
    while seats.len() > fighters.len() {
        let entity = seats.pop().expect("more seats than fighters");
        world.despawn(entity);
    }
    for i in seats.len()..fighters.len() {
        seats.push(world.spawn(fighters.fighter(i)).id());
    }
    world.resource_mut::<Seats>().0 = seats;
}
