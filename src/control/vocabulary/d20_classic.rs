//! d20-classic in the player's words: its action bar, its clock and budget, its badges.

use super::prelude::*;
use crate::combat::fighter::Immediate;
use crate::combat::variants::d20_classic::{SwiftAction, immediate};

/// This variant's systems, each running only while it is the active variant.
pub fn plugin(app: &mut App) {
    add_badges(app, RulesVariant::D20Classic, badge);
}

/// The action bar after "Move", before the shared actions.
pub(super) fn actions() -> Vec<(&'static str, SlotAction)> {
    use SlotAction::{Aim, Now};
    vec![
        ("5-ft step", Aim(Tool::Step)),
        ("Attack", Aim(Tool::Attack)),
        ("Full attack", Aim(Tool::FullAttack)),
        ("Charge", Aim(Tool::Charge)),
        ("Trip", Aim(Tool::Trip)),
        ("Shove", Aim(Tool::Shove)),
        ("Disarm", Aim(Tool::Disarm)),
        ("Grapple", Aim(Tool::Grapple)),
        ("Full defense", Now(Command::Defend)),
        ("Fight defensively", Now(Command::Stance { stance: Stance::Defensive })),
        ("Fight recklessly", Now(Command::Stance { stance: Stance::Reckless })),
    ]
}

/// d20-classic: rounds in initiative order (delays and held actions move a unit for good).
pub(super) fn clock_line(b: &Battle, who: &str) -> String {
    super::initiative_clock_line(b, who)
}

pub(super) fn budget_words(_b: &Battle, _actor: usize, bud: &Budget) -> Vec<String> {
    let mut parts = vec![];
    say(&mut parts, bud.fresh, "full-round");
    say(&mut parts, bud.standard, "standard");
    say(&mut parts, bud.move_action, "move");
    say(&mut parts, bud.own::<SwiftAction>().left, "swift");
    say(&mut parts, !bud.moved && !bud.stepped, "5-ft step");
    parts
}

/// The line under a token.
pub fn badge(b: &Battle, i: usize) -> String {
    let f = b.fighters.at(i);
    match immediate(b, i) {
        Some(Immediate::AttackOfOpportunity) => "immediate: AoO used".into(),
        Some(Immediate::HeldAction) => "immediate: held action used".into(),
        Some(Immediate::Counterspell) => "immediate: counterspell used".into(),
        None if f.health().death_fails > 0 => format!("death saves failed: {}", f.health().death_fails),
        None => String::new(),
    }
}
