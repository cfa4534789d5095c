//! Modifiers as systems: each term of an attack roll or a damage roll is a read-only system
//! over the components it names, adding its term, by name, to the roll being weighed (a
//! [`PendingAttack`] or a [`PendingDamage`]). A variant's plugin adds them in the order its
//! source reads them ([`ModifiersApp`]), and a house rule removes or replaces one. They run
//! from a registry resource, in order, over `&World` (`Modifiers::weigh`): a rule holding
//! the battle in a driver can weigh an attack in the middle of its work, which a schedule
//! cannot; `fivefoot schedule` lists them with the access Bevy computed for each.

mod attack;
mod damage;

pub use attack::*;
pub use damage::*;

use bevy::ecs::query::FilteredAccessSet;
use bevy::ecs::system::{InMut, ReadOnlySystem};
use bevy::prelude::*;
use std::any::TypeId;
use std::sync::Mutex;

/// A roll its modifiers weigh, and what the listing calls them.
pub trait Weighing: Send + Sync + 'static {
    const NAME: &'static str;
}

struct Entry<P: Weighing> {
    of: TypeId,
    name: String,
    access: FilteredAccessSet,
    system: Box<dyn ReadOnlySystem<In = InMut<'static, P>, Out = ()>>,
}

/// The modifier systems of one kind of roll, in the order they run.
#[derive(Resource)]
pub struct Modifiers<P: Weighing>(Mutex<Vec<Entry<P>>>);

impl<P: Weighing> Default for Modifiers<P> {
    fn default() -> Self {
        Modifiers(Mutex::new(Vec::new()))
    }
}

/// The attack roll's modifiers.
pub type AttackModifiers = Modifiers<PendingAttack>;
/// The damage roll's modifiers.
pub type DamageModifiers = Modifiers<PendingDamage>;

impl<P: Weighing> Modifiers<P> {
    /// Runs every modifier on `roll`, in order, over `world`.
    pub fn weigh(world: &World, roll: &mut P) {
        let Some(modifiers) = world.get_resource::<Modifiers<P>>() else { return };
        let mut entries = modifiers.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        for entry in entries.iter_mut() {
            if let Err(e) = entry.system.run_readonly(roll, world) {
                panic!("{} {} could not run: {e}", P::NAME, entry.name);
            }
        }
    }

    /// Each modifier's name and access as Bevy computed it, in order.
    pub fn listing(&self) -> Vec<(String, FilteredAccessSet)> {
        let entries = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        entries.iter().map(|e| (e.name.clone(), e.access.clone())).collect()
    }
}

/// How a plugin adds, replaces or removes modifiers.
pub trait ModifiersApp {
    /// Adds `system` after the modifiers of its roll already there.
    fn add_modifier<P: Weighing, M, S>(&mut self, system: S) -> &mut Self
    where
        S: IntoSystem<InMut<'static, P>, (), M> + 'static,
        S::System: ReadOnlySystem;

    /// Puts `new` in the place of `old` (a house rule changing one term).
    fn replace_modifier<P: Weighing, Old: 'static, M, S>(&mut self, old: Old, new: S) -> &mut Self
    where
        S: IntoSystem<InMut<'static, P>, (), M> + 'static,
        S::System: ReadOnlySystem;

    /// Takes `old` out of `P`'s modifiers (a house rule switching one term off).
    fn remove_modifier<P: Weighing, Old: 'static>(&mut self, old: Old) -> &mut Self;
}

fn entry<P: Weighing, M, S>(world: &mut World, system: S) -> Entry<P>
where
    S: IntoSystem<InMut<'static, P>, (), M> + 'static,
    S::System: ReadOnlySystem,
{
    let mut system = IntoSystem::into_system(system);
    let access = system.initialize(world);
    let name = system.name().to_string();
    Entry { of: TypeId::of::<S>(), name, access, system: Box::new(system) }
}

/// The modifiers of `P` in `app`, to change.
fn entries_mut<P: Weighing>(app: &mut App) -> Mut<'_, Modifiers<P>> {
    app.world_mut().init_resource::<Modifiers<P>>();
    app.world_mut().resource_mut::<Modifiers<P>>()
}

/// The index of `Old` among `entries`; panics if it is not there, which is a plugin applied
/// where it does not belong (or before the plugin that adds it).
fn place_of<P: Weighing, Old: 'static>(entries: &[Entry<P>]) -> usize {
    entries.iter().position(|e| e.of == TypeId::of::<Old>()).unwrap_or_else(|| {
        panic!("no {} system {} to change: add the variant's plugin first", P::NAME, std::any::type_name::<Old>())
    })
}

impl ModifiersApp for App {
    fn add_modifier<P: Weighing, M, S>(&mut self, system: S) -> &mut Self
    where
        S: IntoSystem<InMut<'static, P>, (), M> + 'static,
        S::System: ReadOnlySystem,
    {
        let new = entry(self.world_mut(), system);
        entries_mut::<P>(self).0.get_mut().unwrap_or_else(|p| p.into_inner()).push(new);
        self
    }

    fn replace_modifier<P: Weighing, Old: 'static, M, S>(&mut self, _old: Old, new: S) -> &mut Self
    where
        S: IntoSystem<InMut<'static, P>, (), M> + 'static,
        S::System: ReadOnlySystem,
    {
        let new = entry(self.world_mut(), new);
        let mut modifiers = entries_mut::<P>(self);
        let entries = modifiers.0.get_mut().unwrap_or_else(|p| p.into_inner());
        let at = place_of::<P, Old>(entries);
        entries[at] = new;
        self
    }

    fn remove_modifier<P: Weighing, Old: 'static>(&mut self, _old: Old) -> &mut Self {
        let mut modifiers = entries_mut::<P>(self);
        let entries = modifiers.0.get_mut().unwrap_or_else(|p| p.into_inner());
        let at = place_of::<P, Old>(entries);
        entries.remove(at);
        self
    }
}
