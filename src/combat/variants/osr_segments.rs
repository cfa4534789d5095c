//! osr-segments (source 003): 1-minute rounds of 10 segments; declarations, then a d6
//! group initiative per side (ties: both HIGH); fast actions, multi-attacks, HIGH then
//! LOW; descending AC against AAC0; free attacks.

use super::{SlotAction, Tool, add_badges, say};
use crate::combat::Battle;
#[allow(unused_imports)]
use crate::combat::command::{Command, Intent, Stance};
use crate::variant::RulesVariant;
use bevy::prelude::App;

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
    let c = &b.clock;
    let groups: Vec<String> =
        c.osr_high.iter().map(|(s, h)| format!("{s} {}", if *h { "HIGH" } else { "LOW" })).collect();
    format!("Round {} (1 min, 10 segments) | {:?} | {} | {who} acts", c.round, c.osr_step, groups.join(", "))
}

pub(super) fn budget_words(b: &Battle, actor: usize) -> Vec<String> {
    let bud = &b.clock.budget;
    let _ = actor;
    let mut parts = vec![];
    say(&mut parts, bud.declaring, "declare: fight, charge or delay");
    say(&mut parts, bud.major && !bud.declaring, "major action");
    say(&mut parts, bud.fast_only, "(fast actions only)");
    say(&mut parts, bud.attacks_only, "(attack routine only)");
    parts
}

/// The line under a token.
pub fn badge(b: &Battle, i: usize) -> String {
    let f = &b.fighters[i];
    let group = if b.clock.osr_high.is_empty() {
        ""
    } else if crate::combat::clock::osr_is_high(b, i) {
        "HIGH"
    } else {
        "LOW"
    };
    let declared = match &f.declared {
        Some(Intent::Charge { target }) => format!(" charge {target}"),
        Some(Intent::Delay) => " delay".into(),
        _ => String::new(),
    };
    format!("{group}{declared}").trim().to_string()
}
