//! Fivefoot: tabletop combat rules as ECS systems on a 5-ft grid.
//!
//! Commands go in, the rules check and resolve them against the grid, events come out;
//! the view, the AI, the log, replays and tests all read the same events. See
//! `shared/DESIGN.md` for the architecture.

/// `Clone` for a struct whose `clone_from` goes field by field, so that copying into a value
/// that already holds strings and lists reuses their memory (a snapshot's restore, a
/// playout's start). `#[derive(Clone)]` would allocate anew.
macro_rules! clone_in_place {
    ($ty:ident { $($field:tt),* $(,)? }) => {
        impl Clone for $ty {
            fn clone(&self) -> Self {
                $ty { $($field: self.$field.clone()),* }
            }
            fn clone_from(&mut self, source: &Self) {
                $(self.$field.clone_from(&source.$field);)*
            }
        }
    };
}

/// Makes `target` a copy of `source` only when they differ: for what copies anew whatever
/// it held (a `BTreeSet`), so that an unchanged one costs a comparison, not an allocation.
pub(crate) fn copy_if_changed<T: Clone + PartialEq>(target: &mut T, source: &T) {
    if target != source {
        target.clone_from(source);
    }
}

pub mod combat;
pub mod compare;
pub mod control;
pub mod editor;
pub mod game;
pub mod grid;
pub mod hud;
pub mod input;
pub mod level;
pub mod overlay;
pub mod play;
pub mod query;
pub mod rules;
pub mod stats;
pub mod variants;
pub mod view;

pub use variants::RulesVariant;
