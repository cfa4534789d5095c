//! What a variant keeps of its own: state that only its source has, held by the shared
//! state as a value of a type the variant's module defines: of the battle (the segment
//! step), of each combatant's economy (`Economy::kept`: action points, a declaration) or of
//! a budget (`Budget::own`: a quick or swift action). The shared rules carry it unseen, copy it with
//! the battle and compare it; only the variant that put it there reads it, by its type.

use std::any::Any;
use std::fmt::Debug;

/// A value a variant keeps in the shared state: plain data that can be copied and
/// compared.
pub trait OwnData: Any + Debug + Send + Sync {
    fn copied(&self) -> Box<dyn OwnData>;
    fn same_as(&self, other: &dyn OwnData) -> bool;
    /// Makes `target` a copy of this value in place, if it is of the same type.
    fn copy_into(&self, target: &mut dyn OwnData) -> bool;
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<T: Any + Clone + Debug + PartialEq + Send + Sync> OwnData for T {
    fn copied(&self) -> Box<dyn OwnData> {
        Box::new(self.clone())
    }
    fn same_as(&self, other: &dyn OwnData) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
    fn copy_into(&self, target: &mut dyn OwnData) -> bool {
        target.as_any_mut().downcast_mut::<T>().map(|t| t.clone_from(self)).is_some()
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// A variant's own part of some shared state; empty until the variant puts its value in.
#[derive(Debug, Default, bevy::prelude::Resource)]
pub struct Own(Option<Box<dyn OwnData>>);

impl Own {
    /// Nothing kept.
    pub const NONE: Own = Own(None);

    pub fn new<T: OwnData>(value: T) -> Own {
        Own(Some(Box::new(value)))
    }

    /// The variant's value, if it put one of type `T` in.
    pub fn get<T: OwnData>(&self) -> Option<&T> {
        self.0.as_ref().and_then(|v| v.as_any().downcast_ref())
    }

    /// The variant's value, put in as `T::default()` if there is none yet. Only the
    /// variant that put a value in asks for it, so a value of another type here is a slip in
    /// the rules' code, not in anything a player or a level did: it panics.
    pub fn get_mut<T: OwnData + Default>(&mut self) -> &mut T {
        let value = self.0.get_or_insert_with(|| Box::new(T::default()));
        if !value.as_any().is::<T>() {
            panic!("a variant asked for its own {} but the state holds {value:?}", std::any::type_name::<T>());
        }
        value.as_any_mut().downcast_mut().expect("checked just above")
    }

    /// A copy of the variant's value, or `T::default()` if there is none.
    pub fn read<T: OwnData + Default + Clone>(&self) -> T {
        self.get::<T>().cloned().unwrap_or_default()
    }
}

impl Clone for Own {
    fn clone(&self) -> Own {
        Own(self.0.as_ref().map(|v| v.copied()))
    }

    /// In place when both hold a value of the same type (a playout's restore allocates
    /// nothing here).
    fn clone_from(&mut self, source: &Own) {
        let in_place = match (&mut self.0, &source.0) {
            (Some(mine), Some(theirs)) => theirs.copy_into(mine.as_mut()),
            _ => false,
        };
        if !in_place {
            *self = source.clone();
        }
    }
}

impl PartialEq for Own {
    fn eq(&self, other: &Own) -> bool {
        match (&self.0, &other.0) {
            (None, None) => true,
            (Some(a), Some(b)) => a.same_as(b.as_ref()),
            _ => false,
        }
    }
}

impl Eq for Own {}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, Default, PartialEq)]
    struct Points(u8);
    #[derive(Clone, Debug, Default, PartialEq)]
    struct Steps(u8);

    #[test]
    fn a_value_is_read_back_by_its_type_only() {
        let mut own = Own::default();
        assert_eq!(own.get::<Points>(), None);
        assert_eq!(own.read::<Points>(), Points(0));
        own.get_mut::<Points>().0 = 3;
        assert_eq!(own.get::<Points>(), Some(&Points(3)));
        assert_eq!(own.get::<Steps>(), None, "another type sees nothing");
    }

    #[test]
    #[should_panic(expected = "asked for its own")]
    fn asking_for_another_type_to_change_is_a_slip() {
        let mut own = Own::new(Points(1));
        own.get_mut::<Steps>();
    }

    #[test]
    fn copies_are_separate_and_compare_by_value() {
        let a = Own::new(Points(2));
        let mut b = a.clone();
        assert_eq!(a, b);
        b.get_mut::<Points>().0 = 5;
        assert_ne!(a, b);
        assert_eq!(a.read::<Points>(), Points(2), "the original is untouched");
        assert_ne!(Own::new(Points(0)), Own::new(Steps(0)), "different types differ");
        assert_ne!(Own::default(), Own::new(Points(0)));
        assert_eq!(Own::default(), Own::default());
    }
}
