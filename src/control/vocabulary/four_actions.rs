//! four-actions in the player's words: its action bar, its clock and budget, its badges.

use super::prelude::*;
use crate::combat::command::GrappleFollowUp;

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
        // Ending the grapple is the shared "Escape grapple".
        ("Wrestle: attack", Now(Command::Wrestle { follow_up: GrappleFollowUp::Attack })),
        ("Wrestle: trip", Now(Command::Wrestle { follow_up: GrappleFollowUp::Trip })),
        ("Wrestle: push", Now(Command::Wrestle { follow_up: GrappleFollowUp::Push })),
        ("Wrestle: hold on", Now(Command::Wrestle { follow_up: GrappleFollowUp::Maintain })),
    ]
}

/// four-actions: rounds in initiative order, a surprise round first for the aware.
pub(super) fn clock_line(b: &Battle, who: &str) -> String {
    super::initiative_clock_line(b, who)
}

pub(super) fn budget_words(_b: &Battle, _actor: usize, bud: &Budget) -> Vec<String> {
    let mut parts = vec![];
    say(&mut parts, bud.standard, "standard");
    say(&mut parts, bud.move_action, "move");
    say(&mut parts, crate::combat::variants::four_actions::quick_left(bud), "quick");
    parts
}

/// The line under a token.
pub fn badge(b: &Battle, i: usize) -> String {
    let f = b.fighters.at(i);
    if f.reactions().used == 0 { "reaction ready".into() } else { "reaction used".into() }
}
