//! hex-phases in the player's words: its action bar, its clock and budget, its badges.

use super::prelude::*;
use crate::combat::variants::hex_phases::abort;

/// This variant's systems, each running only while it is the active variant.
pub fn plugin(app: &mut App) {
    add_badges(app, RulesVariant::HexPhases, badge);
}

/// The action bar after "Move", before the shared actions.
pub(super) fn actions() -> Vec<(&'static str, SlotAction)> {
    use SlotAction::{Aim, Now};
    vec![
        ("1-hex step", Aim(Tool::Step)),
        ("Attack", Aim(Tool::Attack)),
        ("Dodge", Now(Command::Defend)),
        ("Abort when attacked", Now(Command::AbortOrder { on: true })),
        ("Never abort", Now(Command::AbortOrder { on: false })),
    ]
}

pub(super) fn clock_line(b: &Battle, who: &str) -> String {
    let c = &b.clock;
    let phases: Vec<String> = (1..=4).map(|p| if p == c.phase { format!("[{p}]") } else { p.to_string() }).collect();
    let surprise = if c.surprise { " (surprise phase)" } else { "" };
    format!("Turn {} | phase {}{surprise} | {who} acts", c.round, phases.join(" "))
}

pub(super) fn budget_words(_b: &Battle, _actor: usize, bud: &Budget) -> Vec<String> {
    let mut parts = vec![];
    say(&mut parts, bud.fresh, "full-phase");
    let used = bud.own::<crate::combat::variants::hex_phases::PhaseActions>();
    say(&mut parts, !used.attack_used, "attack");
    for _ in used.moves_used..2 {
        parts.push("move".into());
    }
    parts
}

/// The line under a token.
pub fn badge(b: &Battle, i: usize) -> String {
    let f = b.fighters.at(i);
    let abort = abort(b, i);
    if abort.skip.is_some() {
        "aborted: no next action".into()
    } else if abort.locked {
        "aborted".into()
    } else if abort.order.unwrap_or(f.health().hp * 2 <= f.health().max) {
        "will abort".into()
    } else {
        String::new()
    }
}
