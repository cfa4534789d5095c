//! A battle as plain data ([`Snapshot`]), and the copier that takes one from a battle's world
//! and puts one into a world in place ([`Copier`]): each fighter's components reached at
//! once through one query, the resources through one system state, everything copied in
//! place (`clone_from`, reusing what strings and lists have allocated). When the two sides
//! hold the same battle (the same setup), the components fixed for a battle (who, side, size,
//! reach, catalogue entry) and the battlefield are not copied at all.

use super::battle::store::Record;
use super::battle::{Combatants, Derived, EventLog, Fighter, FighterInPlay, FighterParts};
use super::kept::Kept;
use super::schedule::OwnState;
use super::time::Clock;
use crate::rules::{Battlefield, Dice};
use crate::variants::{HouseRule, RulesVariant};
use bevy::ecs::entity::{EntityHashMap, MapEntities};
use bevy::ecs::system::{ParamSet, SystemState};
use bevy::prelude::*;

/// A battle as plain data: its combatants in id order and its resources, with the derived
/// maps as they were. Restored into any world of the same variant and house rules.
pub struct Snapshot {
    pub(crate) fighters: Vec<Fighter>,
    /// The combatants' entities in the world it was taken from, in id order: what the
    /// entities its parts name stand for (each the fighter in the same place).
    pub(crate) entities: Vec<Entity>,
    pub(crate) field: Battlefield,
    pub(crate) dice: Dice,
    pub(crate) clock: Clock,
    pub(crate) events: EventLog,
    /// What the variant keeps of its own (`combat::kept`).
    pub(crate) kept: Kept,
    pub(crate) derived: Derived,
    pub(crate) record: Record,
}

clone_in_place!(Snapshot { fighters, entities, field, dice, clock, events, kept, derived, record });

impl Snapshot {
    /// The rules variant of the battle.
    pub fn variant(&self) -> RulesVariant {
        self.record.variant
    }

    /// The house rules in force in the battle.
    pub fn house_rules(&self) -> &[HouseRule] {
        &self.record.options.house_rules
    }
}

/// What a restore writes, reached at once.
type Writing = (
    Res<'static, Combatants>,
    ParamSet<'static, 'static, (Query<'static, 'static, FighterParts>, Query<'static, 'static, FighterInPlay>)>,
    ResMut<'static, Battlefield>,
    ResMut<'static, Dice>,
    ResMut<'static, Clock>,
    ResMut<'static, EventLog>,
    ResMut<'static, Derived>,
    ResMut<'static, Record>,
);

/// The queries and system state that copy a battle out of one world and into another,
/// made once per world (kept by its engine) and kept up to date with its archetypes.
pub struct Copier {
    parts: QueryState<FighterParts>,
    in_play: QueryState<FighterInPlay>,
    writing: SystemState<Writing>,
    /// The entities of the last snapshot put that named other entities, each mapped to the
    /// combatant in the same place here (kept to be filled again in place).
    reseat: EntityHashMap<Entity>,
}

impl Copier {
    pub fn new(world: &mut World) -> Copier {
        Copier {
            parts: QueryState::new(world),
            in_play: QueryState::new(world),
            writing: SystemState::new(world),
            reseat: EntityHashMap::default(),
        }
    }

    /// Brings the queries up to date after the world changed (combatants seated, a
    /// command run).
    pub fn refresh(&mut self, world: &World) {
        self.parts.update_archetypes(world);
        self.in_play.update_archetypes(world);
    }

    /// A snapshot of the battle in `world`, without its event log.
    pub fn take(&self, world: &World) -> Snapshot {
        let fighters = world.resource::<Combatants>().0.iter().map(|&e| Fighter::from_parts(self.parts_of(world, e)));
        let mut kept = Kept::default();
        world.resource::<OwnState>().take(world, &mut kept);
        Snapshot {
            fighters: fighters.collect(),
            entities: world.resource::<Combatants>().0.clone(),
            field: world.resource::<Battlefield>().clone(),
            dice: world.resource::<Dice>().clone(),
            clock: world.resource::<Clock>().clone(),
            events: EventLog::default(),
            kept,
            derived: world.resource::<Derived>().clone(),
            record: world.resource::<Record>().clone(),
        }
    }

    /// Makes `snapshot` a snapshot of the battle in `world`, without its event log, in place.
    pub fn take_into(&self, world: &World, snapshot: &mut Snapshot) {
        let record = world.resource::<Record>();
        let seats = &world.resource::<Combatants>().0;
        let same = snapshot.record.setup == record.setup && snapshot.fighters.len() == seats.len();
        if same {
            for (copy, &e) in snapshot.fighters.iter_mut().zip(seats) {
                let in_play = self.in_play.get_manual(world, e).expect("every seat holds a fighter, whole");
                copy.copy_from_play(in_play);
            }
        } else {
            snapshot.fighters.truncate(seats.len());
            for (i, &e) in seats.iter().enumerate() {
                match snapshot.fighters.get_mut(i) {
                    Some(copy) => copy.copy_from_parts(self.parts_of(world, e)),
                    None => snapshot.fighters.push(Fighter::from_parts(self.parts_of(world, e))),
                }
            }
            snapshot.field.clone_from(world.resource::<Battlefield>());
        }
        snapshot.entities.clone_from(seats);
        snapshot.dice.clone_from(world.resource::<Dice>());
        snapshot.clock.clone_from(world.resource::<Clock>());
        snapshot.events.clear();
        world.resource::<OwnState>().take(world, &mut snapshot.kept);
        snapshot.derived.clone_from(world.resource::<Derived>());
        snapshot.record.clone_from(record);
    }

    /// Puts the battle of `snapshot` in `world`, whose seats are as many as its fighters,
    /// in place of the one there.
    pub fn put(&mut self, world: &mut World, snapshot: &Snapshot) {
        let (seats, mut fighters, mut field, mut dice, mut clock, mut events, mut derived, mut record) =
            self.writing.get_mut(world).expect("the world holds a battle (`store::furnish`)");
        debug_assert_eq!(seats.0.len(), snapshot.fighters.len(), "restored into as many seats");
        if record.setup == snapshot.record.setup {
            let mut in_play = fighters.p1();
            for (fighter, &e) in snapshot.fighters.iter().zip(&seats.0) {
                fighter.copy_into_play(in_play.get_mut(e).expect("every seat holds a fighter, whole"));
            }
            debug_assert!(
                snapshot
                    .fighters
                    .iter()
                    .zip(&seats.0)
                    .all(|(f, &e)| fighters.p0().get(e).is_ok_and(|p| f.fixed_as(&p))),
                "who a fighter is, its side, size, reach and catalogue entry never change in a battle"
            );
        } else {
            let mut parts = fighters.p0();
            for (fighter, &e) in snapshot.fighters.iter().zip(&seats.0) {
                fighter.copy_into_parts(parts.get_mut(e).expect("every seat holds a fighter, whole"));
            }
            field.clone_from(&snapshot.field);
        }
        dice.clone_from(&snapshot.dice);
        clock.clone_from(&snapshot.clock);
        if seats.0 != snapshot.entities {
            // What names a fighter by entity (the clock, a grapple, a charge) names the one in
            // the same place here.
            let reseat = &mut self.reseat;
            reseat.clear();
            reseat.extend(snapshot.entities.iter().copied().zip(seats.0.iter().copied()));
            clock.map_entities(reseat);
            let mut in_play = fighters.p1();
            for &e in &seats.0 {
                let mut fighter = in_play.get_mut(e).expect("every seat holds a fighter, whole");
                if fighter.grapple.with.is_some() {
                    fighter.grapple.map_entities(reseat);
                }
                if fighter.reactions.charged.is_some() {
                    fighter.reactions.map_entities(reseat);
                }
            }
        }
        events.clone_from(&snapshot.events);
        derived.clone_from(&snapshot.derived);
        record.clone_from(&snapshot.record);
        let own = *world.resource::<OwnState>();
        own.put(world, &snapshot.kept);
    }

    fn parts_of<'w, 's>(&'s self, world: &'w World, entity: Entity) -> super::battle::FighterPartsReadOnlyItem<'w, 's> {
        self.parts
            .get_manual(world, entity)
            .expect("every seat holds a fighter, whole, and the query knows its archetype")
    }
}
