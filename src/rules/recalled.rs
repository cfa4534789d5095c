//! The rules' geometry kept for the length of one decision of an AI that plays lines out
//! (`combat::ai::tactical`): its playouts restore the same battle again and again, and until
//! the dice part them they ask the same movement ranges and the same covers of the same
//! stances. A movement range or a cover reads nothing but the battlefield (the decision's
//! own) and the roster as the rules see it (where each unit stands, whether it can act, what
//! it threatens, how fast it moves, whether it shoots), so an answer kept for the same
//! question is the one worked out afresh. Outside a decision nothing is kept.

use super::{CoverResult, MoveMode, MoveRange, ReachBand, RulesView};
use crate::grid::Footprint;
use crate::variants::RulesVariant;
use std::cell::RefCell;
use bevy::platform::collections::HashMap;
use std::sync::Arc;

/// The battle as a movement range or a cover reads it, besides the map: the variant and the
/// map's size (the map itself is the decision's), and every unit's stance.
#[derive(PartialEq, Eq, Hash)]
struct Stances {
    variant: RulesVariant,
    size: (i32, i32),
    units: Vec<(Footprint, bool, Option<ReachBand>, u32, bool)>,
}

impl Stances {
    fn of(view: &RulesView) -> Stances {
        let terrain = &view.field.terrain;
        Stances {
            variant: view.field.variant,
            size: (terrain.width(), terrain.height()),
            units: view.roster.units.iter().map(|u| (u.footprint, u.able, u.threat, u.speed_ft, u.ranged)).collect(),
        }
    }
}

#[derive(Default)]
struct Kept {
    ranges: HashMap<(Stances, usize, MoveMode, u32), Arc<MoveRange>>,
    covers: HashMap<(Stances, usize, usize), CoverResult>,
}

/// A decision's questions at most: past it what is kept is let go.
const KEPT_AT_MOST: usize = 20_000;

thread_local! {
    static KEPT: RefCell<Option<Kept>> = const { RefCell::new(None) };
}

/// While it lives, this thread keeps the movement ranges and covers it works out: it must
/// live no longer than a decision over one battlefield.
pub struct Recalling;

impl Recalling {
    pub fn begin() -> Recalling {
        KEPT.with(|kept| *kept.borrow_mut() = Some(Kept::default()));
        Recalling
    }
}

impl Drop for Recalling {
    fn drop(&mut self) {
        KEPT.with(|kept| *kept.borrow_mut() = None);
    }
}

/// [`super::movement_range`], kept while a [`Recalling`] lives.
pub fn movement_range(view: &RulesView, mover: usize, mode: MoveMode, budget_ft: u32) -> Arc<MoveRange> {
    let work = || Arc::new(super::movement_range(view, mover, mode, budget_ft));
    if KEPT.with(|kept| kept.borrow().is_none()) {
        return work();
    }
    let question = (Stances::of(view), mover, mode, budget_ft);
    if let Some(range) = KEPT.with(|kept| kept.borrow().as_ref().and_then(|k| k.ranges.get(&question).cloned())) {
        return range;
    }
    let range = work();
    KEPT.with(|kept| {
        if let Some(k) = kept.borrow_mut().as_mut() {
            if k.ranges.len() >= KEPT_AT_MOST {
                k.ranges.clear();
            }
            k.ranges.insert(question, range.clone());
        }
    });
    range
}

/// [`super::cover_between`] without its detail, kept while a [`Recalling`] lives.
pub fn cover_between(view: &RulesView, attacker: usize, target: usize) -> CoverResult {
    let work = || super::cover_between(view, attacker, target, false);
    if KEPT.with(|kept| kept.borrow().is_none()) {
        return work();
    }
    let question = (Stances::of(view), attacker, target);
    if let Some(cover) = KEPT.with(|kept| kept.borrow().as_ref().and_then(|k| k.covers.get(&question).cloned())) {
        return cover;
    }
    let cover = work();
    KEPT.with(|kept| {
        if let Some(k) = kept.borrow_mut().as_mut() {
            if k.covers.len() >= KEPT_AT_MOST {
                k.covers.clear();
            }
            k.covers.insert(question, cover.clone());
        }
    });
    cover
}
