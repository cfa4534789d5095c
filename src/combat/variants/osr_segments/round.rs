//! osr-segments' round: its steps (declarations, fast actions, multi-attacks, the HIGH
//! and LOW groups, spells by segment), the state it keeps of its own (the step, each
//! side's group, who has declared what and taken its major action), and the window
//! system that opens each step.

use super::super::prelude::*;
use crate::rules::Side;

pub use crate::combat::kept::{Declaration, MajorAction, OsrRound, OsrStep};

/// The round as it stands (empty in a battle of another variant).
pub fn round<'b>(b: &'b Battle) -> &'b OsrRound {
    static NONE: OsrRound = OsrRound { step: OsrStep::Declare, high: vec![] };
    b.own::<OsrRound>().unwrap_or(&NONE)
}

/// Fighter `i`'s declaration this round (none in a battle of another variant).
pub fn declaration<'b>(b: &'b Battle, i: usize) -> &'b Declaration {
    static NONE: Declaration = Declaration { intent: None, acted: false, attacked: false };
    b.economy::<Declaration>(i).unwrap_or(&NONE)
}

/// The multi-attack ability (two attack routines a round) for fighters of
/// base attack +7 or more, as fighters of 7th level gain extra attacks in the OSR tables.
pub fn osr_multi_attacker(b: &Battle, i: usize) -> bool {
    multi_attacker(&b.fighters.stats[i], &b.fighters.wielded[i])
}

/// Whether a fighter of these `stats` wielding `wielded` has the multi-attack ability.
pub(super) fn multi_attacker(stats: &crate::rules::Stats, wielded: &crate::rules::Wielded) -> bool {
    stats.def.base_attack >= 7 && !wielded.def.is_ranged()
}

/// Whether a fighter acts in the HIGH group this round (the delayed always act LOW).
pub fn osr_is_high(b: &Battle, i: usize) -> bool {
    in_high_group(&b.fighters.conditions[i], declaration(b, i), &b.fighters.side[i], round(b))
}

/// Whether a fighter of `side`, with its `conditions` and `declaration`, acts in the HIGH
/// group of `round`.
pub(super) fn in_high_group(conditions: &Conditions, declaration: &Declaration, side: &Side, round: &OsrRound) -> bool {
    !conditions.has(Condition::Delayed)
        && declaration.intent != Some(Intent::Delay)
        && round.high.iter().any(|(s, h)| *h && *s == side.0)
}
