//! The approaches worked out during one tactical decision, kept while it lasts (in the
//! rules' tables of a decision, `rules::recalled`): its playouts begin from the same
//! battle, and until the dice part them (a unit down, a move cut short) their units ask the
//! way from the same squares again. An approach (and whether one move reaches a foe) reads
//! nothing of the battle but where everyone stands and what each can do there (the
//! battlefield and the variant are the decision's own), so the answer kept for the same
//! question is the one a new search would find, and every decision is the same as without
//! it.

use crate::combat::Battle;
use crate::grid::GridPos;
use crate::rules::ReachBand;
use crate::rules::recalled::{Memo, Stances, recall};

pub(super) use crate::rules::recalled::Recalling;

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

thread_local! {
    /// The way toward the foes, and whether one move reaches one.
    static WAYS: Memo<Question, Option<GridPos>> = const { Memo::new() };
    static REACH: Memo<Question, bool> = const { Memo::new() };
}

/// The approach `work` finds for `actor` toward `foes`, or the one it found for the same
/// question earlier in this decision.
pub(super) fn way(b: &Battle, actor: usize, foes: &[usize], work: impl FnOnce() -> Option<GridPos>) -> Option<GridPos> {
    recall(&WAYS, || Question::of(b, actor, foes), work)
}

/// Whether one move takes `actor` within reach of one of `foes`, as `work` finds it, or as
/// it found it for the same question earlier in this decision.
pub(super) fn reach(b: &Battle, actor: usize, foes: &[usize], work: impl FnOnce() -> bool) -> bool {
    recall(&REACH, || Question::of(b, actor, foes), work)
}

/// How many answers are kept for the decision under way.
#[cfg(test)]
pub(super) fn kept() -> usize {
    WAYS.with(Memo::len) + REACH.with(Memo::len)
}
