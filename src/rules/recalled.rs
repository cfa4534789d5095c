//! What a decision of an AI that plays lines out (`combat::ai::tactical`) has worked out,
//! kept for the decision's length: its playouts restore the same battle again and again,
//! and until the dice part them they ask the same questions of the same stances. A movement
//! range or a cover reads nothing but the battlefield and the roster
//! as the rules see it (where each unit stands, whether it can act, what it threatens, how
//! fast it moves, whether it shoots), so an answer kept for the same question is the one
//! worked out afresh. One [`Recalling`] marks the decision; each table of answers ([`Memo`],
//! these two and the AI's own) keeps what was asked during it and forgets what an earlier
//! one asked. Outside a decision nothing is kept.

use super::{CoverResult, MoveMode, MoveRange, ReachBand, RulesView};
use crate::grid::Footprint;
use crate::variants::RulesVariant;
use bevy::platform::collections::HashMap;
use std::cell::{Cell, RefCell};
use std::hash::Hash;
use std::sync::Arc;
use std::thread::LocalKey;

/// The battle as a movement range or a cover reads it: the variant, the map (by its
/// fingerprint), and every unit's stance (where it stands, whether it can act, what it
/// threatens, how fast it moves, whether it shoots).
#[derive(PartialEq, Eq, Hash)]
pub(crate) struct Stances {
    variant: RulesVariant,
    map: u64,
    units: Vec<(Footprint, bool, Option<ReachBand>, u32, bool)>,
}

impl Stances {
    pub(crate) fn of(view: &RulesView) -> Stances {
        Stances {
            variant: view.field.variant,
            map: view.field.terrain.fingerprint(),
            units: view.roster.units.iter().map(|u| (u.footprint, u.able, u.threat, u.speed_ft, u.ranged)).collect(),
        }
    }
}

/// A table's questions at most in one decision: past it what is kept is let go.
const KEPT_AT_MOST: usize = 20_000;

thread_local! {
    /// The decision under way on this thread (0: none), and the last one begun.
    static DECISION: Cell<u64> = const { Cell::new(0) };
    static BEGUN: Cell<u64> = const { Cell::new(0) };
    static RANGES: Memo<(Stances, usize, MoveMode, u32), Arc<MoveRange>> = const { Memo::new() };
    static COVERS: Memo<(Stances, usize, usize), CoverResult> = const { Memo::new() };
}

/// While it lives, this thread keeps the answers its tables are asked for: it must live no
/// longer than a decision (each question names its map, so the whole battle's and the part
/// its lines are played out on, `combat::part`, never share an answer).
pub struct Recalling;

impl Recalling {
    pub fn begin() -> Recalling {
        let decision = BEGUN.with(|b| b.get() + 1);
        BEGUN.with(|b| b.set(decision));
        DECISION.with(|d| d.set(decision));
        Recalling
    }
}

impl Drop for Recalling {
    fn drop(&mut self) {
        DECISION.with(|d| d.set(0));
    }
}

/// A table of answers, each kept by its question, for the decision that asked them.
pub(crate) struct Memo<Q, A> {
    kept: RefCell<(u64, HashMap<Q, A>)>,
}

impl<Q, A> Memo<Q, A> {
    pub(crate) const fn new() -> Memo<Q, A> {
        Memo { kept: RefCell::new((0, HashMap::new())) }
    }
}

impl<Q: Eq + Hash, A> Memo<Q, A> {
    /// How many answers it keeps for the decision under way.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        let kept = self.kept.borrow();
        if kept.0 == DECISION.with(Cell::get) { kept.1.len() } else { 0 }
    }
}

/// The answer `memo` keeps for the question, else `work`'s, kept; `work`'s alone outside a
/// decision.
pub(crate) fn recall<Q: Eq + Hash + 'static, A: Clone + 'static>(
    memo: &'static LocalKey<Memo<Q, A>>,
    question: impl FnOnce() -> Q,
    work: impl FnOnce() -> A,
) -> A {
    let decision = DECISION.with(Cell::get);
    if decision == 0 {
        return work();
    }
    let question = question();
    let known = memo.with(|m| {
        let mut kept = m.kept.borrow_mut();
        if kept.0 != decision {
            *kept = (decision, HashMap::new());
        }
        kept.1.get(&question).cloned()
    });
    if let Some(answer) = known {
        return answer;
    }
    let answer = work();
    memo.with(|m| {
        let mut kept = m.kept.borrow_mut();
        if kept.0 == decision {
            if kept.1.len() >= KEPT_AT_MOST {
                kept.1.clear();
            }
            kept.1.insert(question, answer.clone());
        }
    });
    answer
}

/// [`super::movement_range`], kept while a [`Recalling`] lives.
pub fn movement_range(view: &RulesView, mover: usize, mode: MoveMode, budget_ft: u32) -> Arc<MoveRange> {
    recall(
        &RANGES,
        || (Stances::of(view), mover, mode, budget_ft),
        || Arc::new(super::movement_range(view, mover, mode, budget_ft)),
    )
}

/// [`super::cover_between`] without its detail, kept while a [`Recalling`] lives.
pub fn cover_between(view: &RulesView, attacker: usize, target: usize) -> CoverResult {
    recall(&COVERS, || (Stances::of(view), attacker, target), || super::cover_between(view, attacker, target, false))
}
