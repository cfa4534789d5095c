//! osr-segments' round: its steps (declarations, fast actions, multi-attacks, the HIGH
//! and LOW groups, spells by segment), the state it keeps of its own (the step, each
//! side's group, who has declared what and taken its major action), and the window
//! system that opens each step.

use super::super::prelude::*;
use super::spells_step;
use crate::rules::Side;

/// The steps of a round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum OsrStep {
    #[default]
    Declare,
    FastActions,
    /// Fighters with the multi-attack ability in melee strike first…
    MultiFirst,
    High,
    Low,
    /// …and finish their remaining attacks after the LOW group.
    MultiRest,
    /// Step 7: spells go off by segment.
    Spells,
}

/// osr-segments' own state of a round: its step and each side's group.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OsrRound {
    pub step: OsrStep,
    /// Each side's group initiative (true = HIGH).
    pub high: Vec<(String, bool)>,
}

/// osr-segments' part of a combatant's economy in a round: what it declared, and whether
/// it has taken its major action (and attacked with it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Declaration {
    pub intent: Option<Intent>,
    pub acted: bool,
    pub attacked: bool,
}

/// osr-segments' own part of a budget: the round's major action, and what the step
/// allows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MajorAction {
    pub major: bool,
    /// Only fast actions (charge, flee) now.
    pub fast_only: bool,
    /// Only the multi-attack routine now.
    pub attacks_only: bool,
    /// The round's declarations are being made; only a declaration now.
    pub declaring: bool,
}

/// The round as it stands (empty in a battle of another variant).
pub fn round<'b>(b: &'b Battle) -> &'b OsrRound {
    static NONE: OsrRound = OsrRound { step: OsrStep::Declare, high: vec![] };
    b.own::<OsrRound>().unwrap_or(&NONE)
}

pub fn round_mut<'b>(b: &'b mut Battle) -> &'b mut OsrRound {
    b.own_mut::<OsrRound>()
}

/// Fighter `i`'s declaration this round (none in a battle of another variant).
pub fn declaration<'b>(b: &'b Battle, i: usize) -> &'b Declaration {
    static NONE: Declaration = Declaration { intent: None, acted: false, attacked: false };
    b.economy::<Declaration>(i).unwrap_or(&NONE)
}

pub fn declaration_mut<'b>(b: &'b mut Battle, i: usize) -> &'b mut Declaration {
    b.economy_mut::<Declaration>(i)
}

/// The multi-attack ability (two attack routines a round) for fighters of
/// base attack +7 or more, as fighters of 7th level gain extra attacks in the OSR tables.
pub fn osr_multi_attacker(b: &Battle, i: usize) -> bool {
    b.fighters.stats[i].def.base_attack >= 7 && !b.fighters.wielded[i].def.is_ranged()
}

pub(super) fn osr_can_act(b: &Battle, i: usize) -> bool {
    b.fighters.conditions[i].can_act() && !b.fighters.conditions[i].has(Condition::Surprised)
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

/// Within a group, quicker weapons first (speed factor), ties by id order.
pub(super) fn osr_sorted(b: &Battle, mut v: Vec<usize>) -> Vec<usize> {
    v.sort_by_key(|&i| (b.fighters.wielded[i].def.speed_factor, i));
    v
}

/// Opens the round's next step (its window of time): who may act in it, and in what order.
pub(super) fn next_step_of_round(b: &mut Battle) {
    let n = b.fighters.len();
    let next = match round(b).step {
        OsrStep::Declare => OsrStep::FastActions,
        OsrStep::FastActions => OsrStep::MultiFirst,
        OsrStep::MultiFirst => OsrStep::High,
        OsrStep::High => OsrStep::Low,
        OsrStep::Low => OsrStep::MultiRest,
        OsrStep::MultiRest => OsrStep::Spells,
        OsrStep::Spells => OsrStep::Declare,
    };
    round_mut(b).step = next;
    b.fighters.reactions.each_mut(|r| r.used = 0); // one free attack per segment
    match next {
        OsrStep::Declare => {
            // A new round: surprise ends after the first, groups are rolled anew.
            if b.clock.round >= 1 {
                for i in 0..n {
                    for c in [Condition::Surprised, Condition::Delayed] {
                        if b.fighters.conditions[i].remove(c) {
                            let id = b.fighters.combatant[i].id.clone();
                            b.emit(CombatEvent::ConditionLost { unit: id, condition: c });
                        }
                    }
                }
            }
            b.clock.round += 1;
            round_reset(b);
            let r = b.clock.round;
            b.emit(CombatEvent::RoundStarted { round: r });
            for i in 0..n {
                *declaration_mut(b, i) = Declaration::default();
            }
            b.fighters.bonuses.each_mut(|bonuses| bonuses.clear());
            b.emit(CombatEvent::PhaseStarted { round: r, phase: 0, name: "declarations".into() });
            b.clock.queue = osr_sorted(b, (0..n).filter(|&i| osr_can_act(b, i)).collect());
        }
        OsrStep::FastActions => {
            // Group initiative, once all have declared: a d6 per side; the highest is
            // HIGH, a tie puts both HIGH.
            let rolls: Vec<(String, i32)> = b.sides_all().into_iter().map(|s| (s, b.dice.roll(6) as i32)).collect();
            let best = rolls.iter().map(|r| r.1).max().unwrap_or(0);
            round_mut(b).high = rolls.iter().map(|(s, r)| (s.clone(), *r == best)).collect();
            for (side, roll) in rolls {
                let group = if roll == best { "HIGH" } else { "LOW" }.to_string();
                b.emit(CombatEvent::GroupInitiative { side, roll, group });
            }
            let r = b.clock.round;
            b.emit(CombatEvent::PhaseStarted { round: r, phase: 1, name: "fast actions (charge, flee)".into() });
            // Declared chargers act; the dying bleed (their turn, once a round, comes here).
            let chargers = (0..n)
                .filter(|&i| {
                    let f = b.fighters.at(i);
                    (osr_can_act(b, i) && matches!(declaration(b, i).intent, Some(Intent::Charge { .. })))
                        || (f.has(Condition::Dying) && f.alive())
                })
                .collect();
            b.clock.queue = osr_sorted(b, chargers);
        }
        OsrStep::MultiFirst | OsrStep::MultiRest => {
            let first = next == OsrStep::MultiFirst;
            b.refresh();
            let in_melee = |i: usize| crate::rules::movement::in_melee(&b.view(), i);
            let members: Vec<usize> = (0..n)
                .filter(|&i| {
                    osr_can_act(b, i)
                        && osr_multi_attacker(b, i)
                        && in_melee(i)
                        && if first { !declaration(b, i).acted } else { declaration(b, i).attacked }
                })
                .collect();
            if !members.is_empty() {
                let r = b.clock.round;
                let name = if first { "multi-attacks (first routine)" } else { "multi-attacks (remaining)" };
                b.emit(CombatEvent::PhaseStarted { round: r, phase: if first { 1 } else { 4 }, name: name.into() });
            }
            b.clock.queue = osr_sorted(b, members);
        }
        OsrStep::Spells => {
            let order: Vec<usize> = (0..n).filter(|&i| b.fighters.spells[i].casting.is_some()).collect();
            if !order.is_empty() {
                let r = b.clock.round;
                b.emit(CombatEvent::PhaseStarted { round: r, phase: 5, name: "spells by segment".into() });
                spells_step(b, &order);
            }
            b.clock.queue = vec![];
        }
        OsrStep::High | OsrStep::Low => {
            let high = next == OsrStep::High;
            let r = b.clock.round;
            b.emit(CombatEvent::PhaseStarted {
                round: r,
                phase: if high { 2 } else { 3 },
                name: if high { "HIGH group".into() } else { "LOW group".into() },
            });
            let members = (0..n)
                .filter(|&i| osr_can_act(b, i) && !declaration(b, i).acted && osr_is_high(b, i) == high)
                .collect();
            b.clock.queue = osr_sorted(b, members);
        }
    }
}
