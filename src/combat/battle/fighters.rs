//! The combatants of a battle, one column per component, in id order (a fighter's index is
//! its seat): each column reaches that component of each seated entity in the battle's
//! world, to read. A reader indexes a column by seat (`b.fighters.health[t].hp`) or by entity
//! (`b.fighters.grapple[e]`) to read one component of one fighter, and takes a
//! [`FighterRef`] to ask about a whole fighter. Nothing changes a fighter through a column:
//! the rules change the world's components by entity. Here too: how a level's unit becomes a
//! [`Fighter`].

use crate::combat::fighter::{Bonuses, Economy, Grapple, Initiative, Reactions, Spells};
use crate::grid::{Footprint, GridPos, Size};
use crate::level::{Catalogue, DiceExpr, UnitDef};
use crate::rules::{
    Awareness, Body, Combatant, CombatantBundle, Condition, Conditions, Health, Position, Reach, Side, Stats, Wielded,
};
use bevy::ecs::component::ComponentId;
use bevy::prelude::*;
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

/// The combatants' components, one column each, and what is made of the same list: a
/// whole fighter as a bundle, the world's queries that read the columns, and the getters
/// of a [`FighterRef`].
macro_rules! fighter_columns {
    (
        fixed { $($fixed:ident: $fixed_component:ty,)* }
        changing { $($changing:ident: $changing_component:ty,)* }
    ) => {
        fighter_columns!(@all [$($fixed: $fixed_component,)* $($changing: $changing_component,)*]
            [$($fixed: $fixed_component,)*] [$($changing: $changing_component,)*]);
    };
    (
        @all [$($column:ident: $component:ty,)*]
        [$($fixed:ident: $fixed_component:ty,)*]
        [$($changing:ident: $changing_component:ty,)*]
    ) => {
        /// The combatants, in id order, one column per component.
        pub struct Fighters<'w, 's> {
            $(pub $column: Column<'w, 's, $component>,)*
        }

        /// One combatant, whole: what a level's unit becomes and what a new seat holds.
        #[derive(Bundle, Clone, Debug)]
        pub struct Fighter {
            $(pub $column: $component,)*
        }

        /// Each column's component id in one world, looked up once (`ColumnIds::register`,
        /// when the engine is built) rather than each time a battle is read.
        #[derive(Resource, Clone, Copy, Debug)]
        pub struct ColumnIds {
            $($column: Option<ComponentId>,)*
        }

        impl ColumnIds {
            /// Registers every column's component in `world` and keeps their ids there.
            pub(crate) fn register(world: &mut World) {
                let ids = ColumnIds { $($column: Some(world.register_component::<$component>()),)* };
                world.insert_resource(ids);
            }

            /// The ids kept in `world`, else looked up now.
            fn of(world: &World) -> ColumnIds {
                world.get_resource::<ColumnIds>().copied().unwrap_or_else(|| ColumnIds {
                    $($column: world.components().component_id::<$component>(),)*
                })
            }
        }

        impl<'w> Fighters<'w, 'w> {
            /// The fighters seated in `world`, to read from outside any system.
            pub fn read(seats: &'w [Entity], world: &'w World) -> Self {
                let ids = ColumnIds::of(world);
                Fighters { $($column: Column::Read { seats, world, id: ids.$column },)* }
            }
        }


        /// A query of each component fixed for the battle, to read (half of what the checks
        /// read of the combatants: a system parameter holds at most sixteen).
        #[derive(bevy::ecs::system::SystemParam)]
        pub struct FixedReads<'w, 's> {
            $($fixed: Query<'w, 's, &'static $fixed_component>,)*
        }

        /// A query of each component that changes in play, to read.
        #[derive(bevy::ecs::system::SystemParam)]
        pub struct ChangingReads<'w, 's> {
            $($changing: Query<'w, 's, &'static $changing_component>,)*
        }

        impl<'w, 's> Fighters<'w, 's> {
            /// The fighters in `seats`, read through a system's own queries.
            pub(super) fn queried(seats: &'w [Entity], fixed: FixedReads<'w, 's>, changing: ChangingReads<'w, 's>) -> Self {
                Fighters {
                    $($fixed: Column::Queried { seats, query: fixed.$fixed },)*
                    $($changing: Column::Queried { seats, query: changing.$changing },)*
                }
            }
        }

        impl Fighters<'_, '_> {
            /// A copy of fighter `i`, whole.
            pub fn fighter(&self, i: usize) -> Fighter {
                Fighter { $($column: self.$column[i].clone(),)* }
            }
        }

        /// Every component of one combatant, reached from its entity at once: what a
        /// snapshot copies, one lookup a fighter.
        #[derive(bevy::ecs::query::QueryData)]
        #[query_data(mutable)]
        pub struct FighterParts {
            $(pub $column: &'static mut $component,)*
        }

        impl Fighter {
            /// A copy of the fighter whose parts these are.
            pub fn from_parts(parts: FighterPartsReadOnlyItem<'_, '_>) -> Fighter {
                Fighter { $($column: parts.$column.clone(),)* }
            }

            /// Makes this a copy of the fighter whose parts these are, in place (reusing
            /// what each component has allocated).
            pub fn copy_from_parts(&mut self, parts: FighterPartsReadOnlyItem<'_, '_>) {
                $(self.$column.clone_from(parts.$column);)*
            }

            /// Makes the fighter whose parts these are a copy of this one, in place.
            pub fn copy_into_parts(&self, mut parts: FighterPartsItem<'_, '_>) {
                $(parts.$column.clone_from(&self.$column);)*
            }

            /// Its components fixed for a battle are those of the fighter whose parts these
            /// are.
            pub fn fixed_as(&self, parts: &FighterPartsReadOnlyItem<'_, '_>) -> bool {
                true $(&& self.$fixed == *parts.$fixed)*
            }

            /// [`Fighter::copy_from_parts`] of the components that change in play only
            /// (the copy already holds this fighter of this battle).
            pub fn copy_from_play(&mut self, parts: FighterInPlayReadOnlyItem<'_, '_>) {
                $(self.$changing.clone_from(parts.$changing);)*
            }

            /// [`Fighter::copy_into_parts`] of the components that change in play only
            /// (the entity already holds this fighter of this battle).
            pub fn copy_into_play(&self, mut parts: FighterInPlayItem<'_, '_>) {
                $(parts.$changing.clone_from(&self.$changing);)*
            }
        }

        /// The components of one combatant that change in play, reached at once.
        #[derive(bevy::ecs::query::QueryData)]
        #[query_data(mutable)]
        pub struct FighterInPlay {
            $(pub $changing: &'static mut $changing_component,)*
        }

        impl<'a> FighterRef<'a, '_, '_> {
            $(pub fn $column(&self) -> &'a $component {
                &self.all.$column[self.i]
            })*
        }

        impl std::fmt::Debug for FighterRef<'_, '_, '_> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct("Fighter")$(.field(stringify!($column), self.$column()))*.finish()
            }
        }
    };
}

// Who a combatant is, its side, size, natural reach and catalogue entry are fixed for the
// battle: no rule changes them (a restore into a world holding the same battle skips them,
// and checks that in debug builds).
fighter_columns! {
    fixed {
        combatant: Combatant,
        side: Side,
        body: Body,
        reach: Reach,
        stats: Stats,
    }
    changing {
        position: Position,
        wielded: Wielded,
        health: Health,
        awareness: Awareness,
        conditions: Conditions,
        bonuses: Bonuses,
        reactions: Reactions,
        grapple: Grapple,
        spells: Spells,
        initiative: Initiative,
        economy: Economy,
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

impl Fighter {
    /// A fighter from a level's unit (the level was validated): the components every
    /// combatant has, as a headless world of the level would spawn them, and a battle's own,
    /// with `economy` as its variant starts a combatant's.
    pub fn from_unit(unit: &UnitDef, catalogue: &Catalogue, economy: Economy) -> Option<Fighter> {
        let CombatantBundle { combatant, side, position, body, reach, wielded, health, awareness, conditions, stats } =
            CombatantBundle::from_level(unit, catalogue)?;
        let spells = Spells { left: stats.def.spellcasting.as_ref().map_or(0, |m| m.slots), casting: None };
        Some(Fighter {
            combatant,
            side,
            position,
            body,
            reach,
            stats,
            wielded,
            health,
            awareness,
            conditions,
            bonuses: Bonuses::default(),
            reactions: Reactions::default(),
            grapple: Grapple::default(),
            spells,
            initiative: Initiative::default(),
            economy,
        })
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
