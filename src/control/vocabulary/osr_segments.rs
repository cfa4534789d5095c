//! osr-segments in the player's words: its action bar (declarations first), its clock
//! and budget, its badges.

use super::prelude::*;
use crate::combat::variants::osr_segments::{MajorAction, OsrStep, declaration, osr_is_high, round};

/// This variant's systems, each running only while it is the active variant.
pub fn plugin(app: &mut App) {
    add_badges(app, RulesVariant::OsrSegments, badge);
}

/// The action bar after "Move", before the shared actions.
pub(super) fn actions() -> Vec<(&'static str, SlotAction)> {
    use SlotAction::{Aim, Now};
    vec![
        ("Position (10 ft)", Aim(Tool::Step)),
        ("Attack", Aim(Tool::Attack)),
        ("Declare: fight", Now(Command::Declare { intent: Intent::Fight })),
        ("Declare: charge", Aim(Tool::DeclareCharge)),
        ("Declare: delay", Now(Command::Declare { intent: Intent::Delay })),
        ("Charge", Aim(Tool::Charge)),
    ]
}

pub(super) fn clock_line(b: &Battle, who: &str) -> String {
    let groups: Vec<String> =
        round(b).high.iter().map(|(s, h)| format!("{s} {}", if *h { "HIGH" } else { "LOW" })).collect();
    let groups = if groups.is_empty() { "groups rolled after declarations".to_string() } else { groups.join(", ") };
    format!("{} (1 min, 10 segments) | {:?} | {groups} | {who} acts", super::round_label(b), round(b).step)
}

pub(super) fn budget_words(b: &Battle, actor: usize, budget: &Budget) -> Vec<String> {
    let bud = budget.own::<MajorAction>();
    let mut parts = vec![];
    let caster = b.fighters.spells[actor].left > 0;
    say(&mut parts, bud.declaring && !caster, "declare: fight, charge or delay");
    say(&mut parts, bud.declaring && caster, "declare: fight, charge, delay or a spell");
    say(&mut parts, bud.major && !bud.declaring, "major action");
    say(&mut parts, bud.fast_only, "(fast actions only)");
    say(&mut parts, bud.attacks_only, "(attack routine only)");
    let after_acting = !bud.major && !bud.declaring && !bud.fast_only && !bud.attacks_only;
    say(&mut parts, after_acting && !budget.stepped, "a positioning move (10 ft)");
    parts
}

/// A budget as at the fighter's group turn, its intent declared: its major action left.
pub(super) fn as_group_turn(budget: &mut Budget) {
    *budget.own_mut::<MajorAction>() = MajorAction { major: true, ..Default::default() };
}

/// The line under a token.
pub fn badge(b: &Battle, i: usize) -> String {
    let f = b.fighters.at(i);
    let group = if round(b).high.is_empty() {
        ""
    } else if osr_is_high(b, i) {
        "HIGH"
    } else {
        "LOW"
    };
    let declared = match declaration(b, i).intent.as_ref() {
        Some(Intent::Charge { target }) => format!(" charge {target}"),
        Some(Intent::Delay) => " delay".into(),
        Some(Intent::Cast { spell }) => format!(" cast {spell}"),
        _ => f.spells().casting.as_ref().map_or(String::new(), |c| format!(" casting {} on {}", c.spell, c.target)),
    };
    format!("{group}{declared}").trim().to_string()
}

/// Declarations go one unit at a time in their own order: the one declaring, then those
/// still to, then those who have.
fn declaring(b: &Battle) -> bool {
    round(b).step == OsrStep::Declare
}

/// The initiative panel's order: while declaring, the one declaring, then those still to.
pub(super) fn initiative_order(b: &Battle, order: Vec<Entity>) -> Vec<Entity> {
    if !declaring(b) {
        return order;
    }
    let c = &b.clock;
    let first: Vec<Entity> = c.actor.into_iter().chain(c.queue.iter().copied()).collect();
    let rest = order.iter().copied().filter(|e| !first.contains(e));
    first.iter().copied().chain(rest).collect()
}

/// Its line in the initiative panel: its declaration, or whether it has acted.
pub(super) fn initiative_note(b: &Battle, i: usize) -> String {
    let (c, e) = (&b.clock, b.fighters.entity(i));
    let note = if declaring(b) {
        if c.actor == Some(e) {
            "declares now"
        } else if c.queue.contains(&e) {
            "to declare"
        } else {
            "declared"
        }
    } else if declaration(b, i).acted {
        "acted"
    } else {
        ""
    };
    note.to_string()
}
