//! The combatants of a battle, one column per component, in id order (a fighter's index is
//! its seat): each column reaches that component of each seated entity in the battle's
//! world, to read. A reader indexes a column by seat (`b.fighters.health[t].hp`) or by entity
//! (`b.fighters.grapple[e]`) to read one component of one fighter, and takes a
//! [`FighterRef`] to ask about a whole fighter. Nothing changes a fighter through a column:
//! the rules change the world's components by entity. The components a check reads, each
//! through a query of its own, are here too (`FixedReads`, `ChangingReads`).

use crate::combat::fighter::{Bonuses, Economy, Grapple, Initiative, Reactions, Spells};
use crate::grid::{Footprint, GridPos, Size};
use crate::level::DiceExpr;
use crate::rules::{Awareness, Body, Combatant, Condition, Conditions, Health, Position, Reach, Side, Stats, Wielded};
use bevy::ecs::component::ComponentId;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use std::any::TypeId;
use std::ops::Index;

/// One component of every combatant, in id order. Its component id is looked up once, when
/// the column is made, not at each fighter's turn to be read.
pub enum Column<'w, 's, C: Component> {
    /// Read from a world shared with others (`store::read`).
    Read { seats: &'w [Entity], world: &'w World, id: Option<ComponentId> },
    /// Read through a system's own query of the component (the checks, `store::checked`).
    Queried { seats: &'w [Entity], query: Query<'w, 's, &'static C> },
}

impl<C: Component> Column<'_, '_, C> {
    /// The component in seat `i` of the world.
    #[inline]
    fn seated(&self, i: usize) -> &C {
        self.of(self.seats()[i])
    }

    /// The component of combatant `e`.
    #[inline]
    fn of(&self, e: Entity) -> &C {
        match self {
            Column::Read { world, id, .. } => {
                let ptr = id.and_then(|id| world.get_entity(e).ok()?.get_by_id(id).ok());
                // SAFETY: `id` is `C`'s component id in this world (`ColumnIds`), so the
                // component at `ptr` is a `C`; it is borrowed from `world` shared.
                ptr.map(|ptr| unsafe { ptr.deref::<C>() })
            }
            Column::Queried { query, .. } => query.get(e).ok(),
        }
        .expect("a combatant's entity, with all its components")
    }

    /// The entity in seat `i`.
    fn entity(&self, i: usize) -> Entity {
        self.seats()[i]
    }

    fn len(&self) -> usize {
        self.seats().len()
    }

    fn seats(&self) -> &[Entity] {
        let (Column::Read { seats, .. } | Column::Queried { seats, .. }) = self;
        seats
    }
}

impl<C: Component> Index<usize> for Column<'_, '_, C> {
    type Output = C;
    #[inline]
    fn index(&self, i: usize) -> &C {
        self.seated(i)
    }
}

impl<C: Component> Index<Entity> for Column<'_, '_, C> {
    type Output = C;
    #[inline]
    fn index(&self, e: Entity) -> &C {
        self.of(e)
    }
}

/// A whole fighter, to ask about: its index and a way to each of its components.
#[derive(Clone, Copy)]
pub struct FighterRef<'a, 'w, 's> {
    all: &'a Fighters<'w, 's>,
    /// Its index (its seat).
    pub i: usize,
}

/// The combatants, in id order, one column per component.
pub struct Fighters<'w, 's> {
    pub combatant: Column<'w, 's, Combatant>,
    pub side: Column<'w, 's, Side>,
    pub body: Column<'w, 's, Body>,
    pub reach: Column<'w, 's, Reach>,
    pub stats: Column<'w, 's, Stats>,
    pub position: Column<'w, 's, Position>,
    pub wielded: Column<'w, 's, Wielded>,
    pub health: Column<'w, 's, Health>,
    pub awareness: Column<'w, 's, Awareness>,
    pub conditions: Column<'w, 's, Conditions>,
    pub bonuses: Column<'w, 's, Bonuses>,
    pub reactions: Column<'w, 's, Reactions>,
    pub grapple: Column<'w, 's, Grapple>,
    pub spells: Column<'w, 's, Spells>,
    pub initiative: Column<'w, 's, Initiative>,
    pub economy: Column<'w, 's, Economy>,
}

/// Each column's component id in one world, looked up once (`ColumnIds::register`, when
/// the engine is built) rather than each time a battle is read.
#[derive(Resource, Clone, Copy, Debug)]
pub struct ColumnIds {
    combatant: Option<ComponentId>,
    side: Option<ComponentId>,
    body: Option<ComponentId>,
    reach: Option<ComponentId>,
    stats: Option<ComponentId>,
    position: Option<ComponentId>,
    wielded: Option<ComponentId>,
    health: Option<ComponentId>,
    awareness: Option<ComponentId>,
    conditions: Option<ComponentId>,
    bonuses: Option<ComponentId>,
    reactions: Option<ComponentId>,
    grapple: Option<ComponentId>,
    spells: Option<ComponentId>,
    initiative: Option<ComponentId>,
    economy: Option<ComponentId>,
}

impl ColumnIds {
    /// Registers every column's component in `world` and keeps their ids there.
    pub(crate) fn register(world: &mut World) {
        let ids = ColumnIds {
            combatant: Some(world.register_component::<Combatant>()),
            side: Some(world.register_component::<Side>()),
            body: Some(world.register_component::<Body>()),
            reach: Some(world.register_component::<Reach>()),
            stats: Some(world.register_component::<Stats>()),
            position: Some(world.register_component::<Position>()),
            wielded: Some(world.register_component::<Wielded>()),
            health: Some(world.register_component::<Health>()),
            awareness: Some(world.register_component::<Awareness>()),
            conditions: Some(world.register_component::<Conditions>()),
            bonuses: Some(world.register_component::<Bonuses>()),
            reactions: Some(world.register_component::<Reactions>()),
            grapple: Some(world.register_component::<Grapple>()),
            spells: Some(world.register_component::<Spells>()),
            initiative: Some(world.register_component::<Initiative>()),
            economy: Some(world.register_component::<Economy>()),
        };
        world.insert_resource(ids);
    }

    /// The ids kept in `world`, else looked up now.
    fn of(world: &World) -> ColumnIds {
        world.get_resource::<ColumnIds>().copied().unwrap_or_else(|| {
            let id = |type_id| world.components().get_id(type_id);
            ColumnIds {
                combatant: id(TypeId::of::<Combatant>()),
                side: id(TypeId::of::<Side>()),
                body: id(TypeId::of::<Body>()),
                reach: id(TypeId::of::<Reach>()),
                stats: id(TypeId::of::<Stats>()),
                position: id(TypeId::of::<Position>()),
                wielded: id(TypeId::of::<Wielded>()),
                health: id(TypeId::of::<Health>()),
                awareness: id(TypeId::of::<Awareness>()),
                conditions: id(TypeId::of::<Conditions>()),
                bonuses: id(TypeId::of::<Bonuses>()),
                reactions: id(TypeId::of::<Reactions>()),
                grapple: id(TypeId::of::<Grapple>()),
                spells: id(TypeId::of::<Spells>()),
                initiative: id(TypeId::of::<Initiative>()),
                economy: id(TypeId::of::<Economy>()),
            }
        })
    }
}

/// A query of each component fixed for the battle, to read (half of what the checks read
/// of the combatants: a system parameter holds at most sixteen).
#[derive(SystemParam)]
pub struct FixedReads<'w, 's> {
    combatant: Query<'w, 's, &'static Combatant>,
    side: Query<'w, 's, &'static Side>,
    body: Query<'w, 's, &'static Body>,
    reach: Query<'w, 's, &'static Reach>,
    stats: Query<'w, 's, &'static Stats>,
}

/// A query of each component that changes in play, to read.
#[derive(SystemParam)]
pub struct ChangingReads<'w, 's> {
    position: Query<'w, 's, &'static Position>,
    wielded: Query<'w, 's, &'static Wielded>,
    health: Query<'w, 's, &'static Health>,
    awareness: Query<'w, 's, &'static Awareness>,
    conditions: Query<'w, 's, &'static Conditions>,
    bonuses: Query<'w, 's, &'static Bonuses>,
    reactions: Query<'w, 's, &'static Reactions>,
    grapple: Query<'w, 's, &'static Grapple>,
    spells: Query<'w, 's, &'static Spells>,
    initiative: Query<'w, 's, &'static Initiative>,
    economy: Query<'w, 's, &'static Economy>,
}

impl<'w> Fighters<'w, 'w> {
    /// The fighters seated in `world`, to read from outside any system.
    pub fn read(seats: &'w [Entity], world: &'w World) -> Self {
        let ids = ColumnIds::of(world);
        Fighters {
            combatant: Column::Read { seats, world, id: ids.combatant },
            side: Column::Read { seats, world, id: ids.side },
            body: Column::Read { seats, world, id: ids.body },
            reach: Column::Read { seats, world, id: ids.reach },
            stats: Column::Read { seats, world, id: ids.stats },
            position: Column::Read { seats, world, id: ids.position },
            wielded: Column::Read { seats, world, id: ids.wielded },
            health: Column::Read { seats, world, id: ids.health },
            awareness: Column::Read { seats, world, id: ids.awareness },
            conditions: Column::Read { seats, world, id: ids.conditions },
            bonuses: Column::Read { seats, world, id: ids.bonuses },
            reactions: Column::Read { seats, world, id: ids.reactions },
            grapple: Column::Read { seats, world, id: ids.grapple },
            spells: Column::Read { seats, world, id: ids.spells },
            initiative: Column::Read { seats, world, id: ids.initiative },
            economy: Column::Read { seats, world, id: ids.economy },
        }
    }
}

impl<'w, 's> Fighters<'w, 's> {
    /// The fighters in `seats`, read through a system's own queries.
    pub(super) fn queried(seats: &'w [Entity], fixed: FixedReads<'w, 's>, changing: ChangingReads<'w, 's>) -> Self {
        Fighters {
            combatant: Column::Queried { seats, query: fixed.combatant },
            side: Column::Queried { seats, query: fixed.side },
            body: Column::Queried { seats, query: fixed.body },
            reach: Column::Queried { seats, query: fixed.reach },
            stats: Column::Queried { seats, query: fixed.stats },
            position: Column::Queried { seats, query: changing.position },
            wielded: Column::Queried { seats, query: changing.wielded },
            health: Column::Queried { seats, query: changing.health },
            awareness: Column::Queried { seats, query: changing.awareness },
            conditions: Column::Queried { seats, query: changing.conditions },
            bonuses: Column::Queried { seats, query: changing.bonuses },
            reactions: Column::Queried { seats, query: changing.reactions },
            grapple: Column::Queried { seats, query: changing.grapple },
            spells: Column::Queried { seats, query: changing.spells },
            initiative: Column::Queried { seats, query: changing.initiative },
            economy: Column::Queried { seats, query: changing.economy },
        }
    }
}

/// One component of a whole fighter each.
impl<'a> FighterRef<'a, '_, '_> {
    pub fn combatant(&self) -> &'a Combatant {
        &self.all.combatant[self.i]
    }
    pub fn side(&self) -> &'a Side {
        &self.all.side[self.i]
    }
    pub fn body(&self) -> &'a Body {
        &self.all.body[self.i]
    }
    pub fn reach(&self) -> &'a Reach {
        &self.all.reach[self.i]
    }
    pub fn stats(&self) -> &'a Stats {
        &self.all.stats[self.i]
    }
    pub fn position(&self) -> &'a Position {
        &self.all.position[self.i]
    }
    pub fn wielded(&self) -> &'a Wielded {
        &self.all.wielded[self.i]
    }
    pub fn health(&self) -> &'a Health {
        &self.all.health[self.i]
    }
    pub fn awareness(&self) -> &'a Awareness {
        &self.all.awareness[self.i]
    }
    pub fn conditions(&self) -> &'a Conditions {
        &self.all.conditions[self.i]
    }
    pub fn bonuses(&self) -> &'a Bonuses {
        &self.all.bonuses[self.i]
    }
    pub fn reactions(&self) -> &'a Reactions {
        &self.all.reactions[self.i]
    }
    pub fn grapple(&self) -> &'a Grapple {
        &self.all.grapple[self.i]
    }
    pub fn spells(&self) -> &'a Spells {
        &self.all.spells[self.i]
    }
    pub fn initiative(&self) -> &'a Initiative {
        &self.all.initiative[self.i]
    }
    pub fn economy(&self) -> &'a Economy {
        &self.all.economy[self.i]
    }
}

impl std::fmt::Debug for FighterRef<'_, '_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fighter")
            .field("combatant", self.combatant())
            .field("side", self.side())
            .field("body", self.body())
            .field("reach", self.reach())
            .field("stats", self.stats())
            .field("position", self.position())
            .field("wielded", self.wielded())
            .field("health", self.health())
            .field("awareness", self.awareness())
            .field("conditions", self.conditions())
            .field("bonuses", self.bonuses())
            .field("reactions", self.reactions())
            .field("grapple", self.grapple())
            .field("spells", self.spells())
            .field("initiative", self.initiative())
            .field("economy", self.economy())
            .finish()
    }
}

impl<'w, 's> Fighters<'w, 's> {
    pub fn len(&self) -> usize {
        self.combatant.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Fighter `i`'s entity in the battle's world.
    pub fn entity(&self, i: usize) -> Entity {
        self.combatant.entity(i)
    }

    /// The seat of the fighter that is entity `e`, if it is one.
    pub fn seat_of(&self, e: Entity) -> Option<usize> {
        super::store::seat_among(self.combatant.seats(), e)
    }

    /// Fighter `i`, whole (it must exist).
    pub fn at(&self, i: usize) -> FighterRef<'_, 'w, 's> {
        self.get(i).unwrap_or_else(|| panic!("fighter {i} of {}", self.len()))
    }

    /// Fighter `i`, if there is one.
    pub fn get(&self, i: usize) -> Option<FighterRef<'_, 'w, 's>> {
        (i < self.len()).then_some(FighterRef { all: self, i })
    }

    /// The combatants in id order.
    pub fn iter(&self) -> FightersIter<'_, 'w, 's> {
        FightersIter { all: self, next: self.indices() }
    }

    /// Every combatant's index, in id order.
    pub fn indices(&self) -> std::ops::Range<usize> {
        0..self.len()
    }
}

/// The combatants in id order.
#[derive(Clone)]
pub struct FightersIter<'a, 'w, 's> {
    all: &'a Fighters<'w, 's>,
    next: std::ops::Range<usize>,
}

impl<'a, 'w, 's> Iterator for FightersIter<'a, 'w, 's> {
    type Item = FighterRef<'a, 'w, 's>;
    fn next(&mut self) -> Option<Self::Item> {
        self.next.next().map(|i| FighterRef { all: self.all, i })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.next.size_hint()
    }
}

impl ExactSizeIterator for FightersIter<'_, '_, '_> {}

impl<'a, 'w, 's> IntoIterator for &'a Fighters<'w, 's> {
    type Item = FighterRef<'a, 'w, 's>;
    type IntoIter = FightersIter<'a, 'w, 's>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl std::fmt::Debug for Fighters<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Questions asked of a whole fighter, whatever components they take.
impl<'a> FighterRef<'a, '_, '_> {
    pub fn id(&self) -> &'a str {
        &self.combatant().id
    }
    pub fn pos(&self) -> GridPos {
        self.position().0
    }
    pub fn size(&self) -> Size {
        self.body().size
    }
    pub fn footprint(&self) -> Footprint {
        Footprint::new(self.pos(), self.size().side())
    }
    pub fn has(&self, c: Condition) -> bool {
        self.conditions().has(c)
    }
    /// Still fighting: conscious and alive.
    pub fn in_fight(&self) -> bool {
        self.conditions().in_fight()
    }
    pub fn alive(&self) -> bool {
        self.conditions().alive()
    }
    /// Can take actions now.
    pub fn can_act(&self) -> bool {
        self.conditions().can_act()
    }
    /// Trained with the weapon in hand.
    pub fn trained(&self) -> bool {
        self.stats().trained_with(&self.wielded().def)
    }
    /// Weapon damage dice for its size.
    pub fn damage_dice(&self) -> DiceExpr {
        self.wielded().def.damage.scaled_for(self.size())
    }
    /// d20 armor class before situational modifiers.
    pub fn armor_class(&self) -> i32 {
        self.stats().def.armor_class(self.size())
    }
}
