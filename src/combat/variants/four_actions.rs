//! four-actions (source 001): a standard, a move and a quick action and one reaction a
//! round; primary, secondary and tertiary attacks; everyone Surprised until their first
//! turn, and flanking makes the target Surprised.

use super::{SlotAction, Tool, add_badges, say};
use crate::combat::Battle;
#[allow(unused_imports)]
use crate::combat::command::{Command, Intent, Stance};
use crate::variant::RulesVariant;
use bevy::prelude::App;

/// This variant's systems, each running only while it is the active variant.
pub fn plugin(app: &mut App) {
    add_badges(app, RulesVariant::FourActions, badge);
}

/// The action bar after "Move", before the shared actions.
pub(super) fn actions() -> Vec<(&'static str, SlotAction)> {
    use SlotAction::{Aim, Now};
    vec![
        ("Side step", Aim(Tool::Step)),
        ("Attack", Aim(Tool::Attack)),
        ("Dash", Aim(Tool::Dash)),
        ("Tumble", Aim(Tool::Tumble)),
        ("Charge", Aim(Tool::Charge)),
        ("Trip", Aim(Tool::Trip)),
        ("Push", Aim(Tool::Shove)),
        ("Grapple", Aim(Tool::Grapple)),
        ("Guard", Now(Command::Guard)),
        ("Defend", Now(Command::Defend)),
        ("Focus", Now(Command::Focus)),
    ]
}

pub(super) fn clock_line(b: &Battle, who: &str) -> String {
    let c = &b.clock;
    let order: Vec<&str> = c.order.iter().map(|&i| b.fighters[i].id.as_str()).collect();
    format!("Round {} | {who} acts | initiative: {}", c.round, order.join(" > "))
}

pub(super) fn budget_words(b: &Battle, actor: usize) -> Vec<String> {
    let bud = &b.clock.budget;
    let _ = actor;
    let mut parts = vec![];
    say(&mut parts, bud.standard, "standard");
    say(&mut parts, bud.move_action, "move");
    say(&mut parts, bud.quick, "quick");
    parts
}

/// The line under a token.
pub fn badge(b: &Battle, i: usize) -> String {
    let f = &b.fighters[i];
    if f.reactions_used == 0 { "reaction ready".into() } else { "reaction used".into() }
}
