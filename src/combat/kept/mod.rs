//! What a variant keeps of its own, each in a type of its own, never type-erased: each
//! combatant's part of the action economy is a component its plugin gives every combatant
//! (ap-phases' `ActionPoints`, d20-classic's `ImmediateAction`, osr-segments' `Declaration`,
//! hex-phases' `Abort`), the battle's part is a resource (osr-segments' `OsrRound`), and a
//! budget's part is the variant's case of [`BudgetPart`]. The types are defined here
//! (`types`), below the shared state that holds them, and re-exported by their variant's
//! module, which gives them meaning. A plugin registers its types (`schedule::keep_each`,
//! `keep_for_battle`, `own_budget`); a battle starts with their defaults, and a snapshot
//! copies them in a [`Kept`].

mod types;

pub use types::{
    Abort, ActionPoints, Advanced, AdvancedKind, Declaration, Immediate, ImmediateAction, MajorAction, OsrRound,
    OsrStep, PhaseAction, PhaseActions, QuickAction, SwiftAction,
};

use bevy::ecs::component::Mutable;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use std::fmt::Debug;

/// A copy of what the variant keeps of its own: each combatant's part, in seat (id) order,
/// in the list of its type; and the battle's part. The lists of other variants stay empty.
#[derive(Debug, Default, PartialEq)]
pub struct Kept {
    pub(crate) points: Vec<ActionPoints>,
    pub(crate) immediates: Vec<ImmediateAction>,
    pub(crate) declarations: Vec<Declaration>,
    pub(crate) aborts: Vec<Abort>,
    pub(crate) round: Option<OsrRound>,
}

impl Clone for Kept {
    fn clone(&self) -> Kept {
        let mut copy = Kept::default();
        copy.clone_from(self);
        copy
    }

    /// In place, reusing what the lists have allocated (a playout's restore).
    fn clone_from(&mut self, source: &Kept) {
        self.points.clone_from(&source.points);
        self.immediates.clone_from(&source.immediates);
        self.declarations.clone_from(&source.declarations);
        self.aborts.clone_from(&source.aborts);
        self.round.clone_from(&source.round);
    }
}

/// A combatant's part of a variant's action economy: a component of the variant's, copied
/// in a snapshot's list of its type.
pub trait KeptByEach: Component<Mutability = Mutable> + Clone + Default + Debug {
    fn copies(kept: &Kept) -> &Vec<Self>;
    fn copies_mut(kept: &mut Kept) -> &mut Vec<Self>;
    /// Combatant `e`'s part, read through the checks' own query of this type.
    fn read<'a>(reads: &'a KeptReads, e: Entity) -> Option<&'a Self>;
}

/// A variant's state of the battle: a resource of the variant's, copied in a snapshot.
pub trait KeptByBattle: Resource + Component<Mutability = Mutable> + Clone + Default + Debug {
    fn copy(kept: &Kept) -> &Option<Self>;
    fn copy_mut(kept: &mut Kept) -> &mut Option<Self>;
    /// The battle's part, read by the checks as a resource of theirs.
    fn read<'a>(reads: &'a KeptReads) -> Option<&'a Self>;
}

/// What the checks read of every variant's own state, each type through a query or a
/// resource of its own (a variant that keeps none of a type has none to read).
#[derive(SystemParam)]
pub struct KeptReads<'w, 's> {
    points: Query<'w, 's, &'static ActionPoints>,
    immediates: Query<'w, 's, &'static ImmediateAction>,
    declarations: Query<'w, 's, &'static Declaration>,
    aborts: Query<'w, 's, &'static Abort>,
    round: Option<Res<'w, OsrRound>>,
}

impl KeptByEach for ActionPoints {
    fn read<'a>(reads: &'a KeptReads, e: Entity) -> Option<&'a Self> {
        reads.points.get(e).ok()
    }
    fn copies(kept: &Kept) -> &Vec<Self> {
        &kept.points
    }
    fn copies_mut(kept: &mut Kept) -> &mut Vec<Self> {
        &mut kept.points
    }
}

impl KeptByEach for ImmediateAction {
    fn read<'a>(reads: &'a KeptReads, e: Entity) -> Option<&'a Self> {
        reads.immediates.get(e).ok()
    }
    fn copies(kept: &Kept) -> &Vec<Self> {
        &kept.immediates
    }
    fn copies_mut(kept: &mut Kept) -> &mut Vec<Self> {
        &mut kept.immediates
    }
}

impl KeptByEach for Declaration {
    fn read<'a>(reads: &'a KeptReads, e: Entity) -> Option<&'a Self> {
        reads.declarations.get(e).ok()
    }
    fn copies(kept: &Kept) -> &Vec<Self> {
        &kept.declarations
    }
    fn copies_mut(kept: &mut Kept) -> &mut Vec<Self> {
        &mut kept.declarations
    }
}

impl KeptByEach for Abort {
    fn read<'a>(reads: &'a KeptReads, e: Entity) -> Option<&'a Self> {
        reads.aborts.get(e).ok()
    }
    fn copies(kept: &Kept) -> &Vec<Self> {
        &kept.aborts
    }
    fn copies_mut(kept: &mut Kept) -> &mut Vec<Self> {
        &mut kept.aborts
    }
}

impl KeptByBattle for OsrRound {
    fn read<'a>(reads: &'a KeptReads) -> Option<&'a Self> {
        reads.round.as_deref()
    }
    fn copy(kept: &Kept) -> &Option<Self> {
        &kept.round
    }
    fn copy_mut(kept: &mut Kept) -> &mut Option<Self> {
        &mut kept.round
    }
}

/// How a battle starts one kept type, and how a snapshot takes and puts it.
#[derive(Clone, Copy)]
pub(crate) struct KeptType {
    pub(crate) name: &'static str,
    /// Given the combatants' seats (their entities, in id order).
    pub(crate) start: fn(&mut World, &[Entity]),
    pub(crate) take: fn(&World, &[Entity], &mut Kept),
    pub(crate) put: fn(&mut World, &[Entity], &Kept),
}

impl KeptType {
    pub(crate) fn each<T: KeptByEach>() -> KeptType {
        KeptType { name: type_name_of::<T>(), start: start_each::<T>, take: take_each::<T>, put: put_each::<T> }
    }

    pub(crate) fn battle<T: KeptByBattle>() -> KeptType {
        KeptType { name: type_name_of::<T>(), start: start_battle::<T>, take: take_battle::<T>, put: put_battle::<T> }
    }
}

/// A type's name without its path.
pub(crate) fn type_name_of<T>() -> &'static str {
    let full = std::any::type_name::<T>();
    full.rsplit("::").next().unwrap_or(full)
}

/// Every combatant seated starts with the default.
fn start_each<T: KeptByEach>(world: &mut World, seats: &[Entity]) {
    for &e in seats {
        world.entity_mut(e).insert(T::default());
    }
}

fn take_each<T: KeptByEach>(world: &World, seats: &[Entity], kept: &mut Kept) {
    let copies = T::copies_mut(kept);
    copies.truncate(seats.len());
    for (i, &e) in seats.iter().enumerate() {
        let part = world.get::<T>(e).expect("the variant's plugin gave every combatant its part");
        match copies.get_mut(i) {
            Some(copy) => copy.clone_from(part),
            None => copies.push(part.clone()),
        }
    }
}

fn put_each<T: KeptByEach>(world: &mut World, seats: &[Entity], kept: &Kept) {
    for (copy, &e) in T::copies(kept).iter().zip(seats) {
        // Every seat got its part when seated (`start_each`), so restoring never changes
        // an entity's archetype under the snapshot copier's queries.
        world.get_mut::<T>(e).expect("the variant's plugin gave every combatant its part").clone_from(copy);
    }
}

fn start_battle<T: KeptByBattle>(world: &mut World, _: &[Entity]) {
    world.insert_resource(T::default());
}

fn take_battle<T: KeptByBattle>(world: &World, _: &[Entity], kept: &mut Kept) {
    // In place when both are there (a playout's snapshot taken again allocates nothing).
    match (T::copy_mut(kept), world.get_resource::<T>()) {
        (Some(copy), Some(state)) => copy.clone_from(state),
        (copy, state) => *copy = state.cloned(),
    }
}

fn put_battle<T: KeptByBattle>(world: &mut World, _: &[Entity], kept: &Kept) {
    match (T::copy(kept), world.get_resource_mut::<T>()) {
        (Some(copy), Some(mut state)) => state.clone_from(copy),
        (Some(copy), None) => world.insert_resource(copy.clone()),
        (None, _) => {}
    }
}

/// A variant's own part of a budget: a quick or swift action, a phase's action… One case
/// a variant, so that a budget stays plain data.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BudgetPart {
    #[default]
    None,
    ApPhases(PhaseAction),
    FourActions(QuickAction),
    D20Classic(SwiftAction),
    OsrSegments(MajorAction),
    HexPhases(PhaseActions),
}

/// A variant's type of budget part: its case of [`BudgetPart`].
pub trait OwnBudget: Copy + Default {
    fn of(part: &BudgetPart) -> Option<&Self>;
    fn of_mut(part: &mut BudgetPart) -> Option<&mut Self>;
    fn into_part(self) -> BudgetPart;
}

impl OwnBudget for PhaseAction {
    fn of(part: &BudgetPart) -> Option<&Self> {
        if let BudgetPart::ApPhases(p) = part { Some(p) } else { None }
    }
    fn of_mut(part: &mut BudgetPart) -> Option<&mut Self> {
        if let BudgetPart::ApPhases(p) = part { Some(p) } else { None }
    }
    fn into_part(self) -> BudgetPart {
        BudgetPart::ApPhases(self)
    }
}

impl OwnBudget for QuickAction {
    fn of(part: &BudgetPart) -> Option<&Self> {
        if let BudgetPart::FourActions(p) = part { Some(p) } else { None }
    }
    fn of_mut(part: &mut BudgetPart) -> Option<&mut Self> {
        if let BudgetPart::FourActions(p) = part { Some(p) } else { None }
    }
    fn into_part(self) -> BudgetPart {
        BudgetPart::FourActions(self)
    }
}

impl OwnBudget for SwiftAction {
    fn of(part: &BudgetPart) -> Option<&Self> {
        if let BudgetPart::D20Classic(p) = part { Some(p) } else { None }
    }
    fn of_mut(part: &mut BudgetPart) -> Option<&mut Self> {
        if let BudgetPart::D20Classic(p) = part { Some(p) } else { None }
    }
    fn into_part(self) -> BudgetPart {
        BudgetPart::D20Classic(self)
    }
}

impl OwnBudget for MajorAction {
    fn of(part: &BudgetPart) -> Option<&Self> {
        if let BudgetPart::OsrSegments(p) = part { Some(p) } else { None }
    }
    fn of_mut(part: &mut BudgetPart) -> Option<&mut Self> {
        if let BudgetPart::OsrSegments(p) = part { Some(p) } else { None }
    }
    fn into_part(self) -> BudgetPart {
        BudgetPart::OsrSegments(self)
    }
}

impl OwnBudget for PhaseActions {
    fn of(part: &BudgetPart) -> Option<&Self> {
        if let BudgetPart::HexPhases(p) = part { Some(p) } else { None }
    }
    fn of_mut(part: &mut BudgetPart) -> Option<&mut Self> {
        if let BudgetPart::HexPhases(p) = part { Some(p) } else { None }
    }
    fn into_part(self) -> BudgetPart {
        BudgetPart::HexPhases(self)
    }
}

impl BudgetPart {
    /// The variant's part (its default while none is set).
    pub fn get<T: OwnBudget>(&self) -> T {
        T::of(self).copied().unwrap_or_default()
    }

    /// The variant's part, set to its default first if another (or none) is there.
    pub fn get_mut<T: OwnBudget>(&mut self) -> &mut T {
        if T::of(self).is_none() {
            *self = T::default().into_part();
        }
        match T::of_mut(self) {
            Some(part) => part,
            None => unreachable!("just set to the type's own case"),
        }
    }
}
