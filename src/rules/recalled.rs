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
use bevy::platform::collections::HashMap;
use std::cell::RefCell;
use std::sync::Arc;

/// The battle as a movement range or a cover reads it, besides the map: the variant and the
/// map's size (the map itself is the decision's), and every unit's stance (where it
/// stands, whether it can act, what it threatens, how fast it moves, whether it shoots).
#[derive(PartialEq, Eq, Hash)]
pub(crate) struct Stances {
    variant: RulesVariant,
    size: (i32, i32),
    units: Vec<(Footprint, bool, Option<ReachBand>, u32, bool)>,
}

impl Stances {
    pub(crate) fn of(view: &RulesView) -> Stances {
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
    recall(
        |k| &mut k.ranges,
        || (Stances::of(view), mover, mode, budget_ft),
        || Arc::new(super::movement_range(view, mover, mode, budget_ft)),
    )
}

/// [`super::cover_between`] without its detail, kept while a [`Recalling`] lives.
pub fn cover_between(view: &RulesView, attacker: usize, target: usize) -> CoverResult {
    recall(
        |k| &mut k.covers,
        || (Stances::of(view), attacker, target),
        || super::cover_between(view, attacker, target, false),
    )
}

/// The answer kept for the question, else `work`'s, kept; `work`'s alone outside a
/// decision.
fn recall<Q: Eq + std::hash::Hash, A: Clone>(
    answers: fn(&mut Kept) -> &mut HashMap<Q, A>,
    question: impl FnOnce() -> Q,
    work: impl FnOnce() -> A,
) -> A {
    if KEPT.with(|kept| kept.borrow().is_none()) {
        return work();
    }
    let question = question();
    if let Some(answer) = KEPT.with(|kept| kept.borrow_mut().as_mut().and_then(|k| answers(k).get(&question).cloned()))
    {
        return answer;
    }
    let answer = work();
    KEPT.with(|kept| {
        if let Some(k) = kept.borrow_mut().as_mut() {
            let answers = answers(k);
            if answers.len() >= KEPT_AT_MOST {
                answers.clear();
            }
            answers.insert(question, answer.clone());
        }
    });
    answer
}
