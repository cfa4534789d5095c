//! The approaches worked out during one tactical decision, kept while it lasts: its
//! playouts begin from the same battle, and until the dice part them (a unit down, a
//! move cut short) their units ask the way from the same squares again. An approach (and
//! whether one move reaches a foe) reads nothing of the battle but where everyone stands
//! and what each can do there (the battlefield and the variant are the decision's own),
//! so the answer kept for the same question is the one a new search would find, and every
//! decision is the same as without it.

use crate::combat::Battle;
use crate::grid::GridPos;
use crate::rules::ReachBand;
use crate::rules::recalled::Stances;
use bevy::platform::collections::HashMap;
use std::cell::RefCell;

/// Everything [`super::best_approach`] reads of the battle besides the battlefield.
#[derive(PartialEq, Eq, Hash)]
struct Question {
    actor: usize,
    foes: Vec<usize>,
    /// It has moved this turn (hex-phases' last move stops at striking distance).
    moved: bool,
    /// Its reach with the weapon in hand, and whether that weapon shoots and how far.
    reach: Option<ReachBand>,
    shoots: (bool, u32),
    /// Every unit as the rules see it.
    stances: Stances,
}

impl Question {
    fn of(b: &Battle, actor: usize, foes: &[usize]) -> Question {
        let me = b.fighters.at(actor);
        let weapon = &me.wielded().def;
        Question {
            actor,
            foes: foes.to_vec(),
            moved: b.budget().moves_taken() >= 1,
            reach: b.reach_band(me),
            shoots: (weapon.is_ranged(), weapon.range_increment_ft),
            stances: Stances::of(&b.view()),
        }
    }
}

/// A decision's questions at most: past it the kept ways are let go (a decision asks a few
/// thousand).
const KEPT_AT_MOST: usize = 50_000;

/// The answers kept: the way toward the foes, and whether one move reaches one.
#[derive(Default)]
struct Kept {
    ways: HashMap<Question, Option<GridPos>>,
    reach: HashMap<Question, bool>,
}

impl Kept {
    fn len(&self) -> usize {
        self.ways.len() + self.reach.len()
    }
}

thread_local! {
    static KEPT: RefCell<Option<Kept>> = const { RefCell::new(None) };
}

/// While it lives (one decision, on this thread), the approaches worked out are kept, and
/// the movement ranges and covers the rules work out (`rules::recalled`).
pub(super) struct Recalling {
    _rules: crate::rules::recalled::Recalling,
}

impl Recalling {
    pub(super) fn begin() -> Recalling {
        KEPT.with(|kept| *kept.borrow_mut() = Some(Kept::default()));
        Recalling { _rules: crate::rules::recalled::Recalling::begin() }
    }
}

impl Drop for Recalling {
    fn drop(&mut self) {
        KEPT.with(|kept| *kept.borrow_mut() = None);
    }
}

/// The approach `work` finds for `actor` toward `foes`, or the one it found for the same
/// question earlier in this decision.
pub(super) fn way(b: &Battle, actor: usize, foes: &[usize], work: impl FnOnce() -> Option<GridPos>) -> Option<GridPos> {
    recall(b, actor, foes, |kept| &mut kept.ways, work)
}

/// Whether one move takes `actor` within reach of one of `foes`, as `work` finds it, or as
/// it found it for the same question earlier in this decision.
pub(super) fn reach(b: &Battle, actor: usize, foes: &[usize], work: impl FnOnce() -> bool) -> bool {
    recall(b, actor, foes, |kept| &mut kept.reach, work)
}

fn recall<T: Copy>(
    b: &Battle,
    actor: usize,
    foes: &[usize],
    answers: fn(&mut Kept) -> &mut HashMap<Question, T>,
    work: impl FnOnce() -> T,
) -> T {
    if KEPT.with(|kept| kept.borrow().is_none()) {
        return work();
    }
    let question = Question::of(b, actor, foes);
    let known = KEPT.with(|kept| kept.borrow_mut().as_mut().and_then(|k| answers(k).get(&question).copied()));
    if let Some(answer) = known {
        return answer;
    }
    let answer = work();
    KEPT.with(|kept| {
        if let Some(k) = kept.borrow_mut().as_mut() {
            if k.len() >= KEPT_AT_MOST {
                *k = Kept::default();
            }
            answers(k).insert(question, answer);
        }
    });
    answer
}

/// How many answers are kept now (none outside a decision).
#[cfg(test)]
pub(super) fn kept() -> usize {
    KEPT.with(|kept| kept.borrow().as_ref().map_or(0, Kept::len))
}
