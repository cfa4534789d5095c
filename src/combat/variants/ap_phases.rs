//! ap-phases (source 000): 3 action points a round (2 in the surprise round), seven
//! action phases from declaration to very slow, weapon speed deciding the earliest attack
//! phase, advanced actions over consecutive AP.

use super::{SlotAction, Tool, add_badges, say};
use crate::combat::Battle;
#[allow(unused_imports)]
use crate::combat::command::{Command, Intent, Stance};
use crate::variant::RulesVariant;
use bevy::prelude::App;

/// This variant's systems, each running only while it is the active variant.
pub fn plugin(app: &mut App) {
    add_badges(app, RulesVariant::ApPhases, badge);
}

/// The action bar after "Move", before the shared actions.
pub(super) fn actions() -> Vec<(&'static str, SlotAction)> {
    use SlotAction::{Aim, Now};
    vec![
        ("5-ft step", Aim(Tool::Step)),
        ("Attack", Aim(Tool::Attack)),
        ("Charge", Aim(Tool::Charge)),
        ("Trip", Aim(Tool::Trip)),
        ("Bull rush", Aim(Tool::Shove)),
        ("Disarm", Aim(Tool::Disarm)),
        ("Total defense", Now(Command::Defend)),
        ("Fight defensively", Now(Command::Stance { stance: Stance::Defensive })),
    ]
}

pub(super) fn clock_line(b: &Battle, who: &str) -> String {
    let c = &b.clock;
    let phase = c.phase.clamp(1, 7);
    let track: Vec<String> = crate::combat::clock::AP_PHASES
        .iter()
        .enumerate()
        .map(|(k, name)| if k + 1 == phase as usize { format!("[{name}]") } else { name.to_string() })
        .collect();
    format!("Round {} | {} | {who} acts", c.round, track.join(" > "))
}

pub(super) fn budget_words(b: &Battle, actor: usize) -> Vec<String> {
    let mut parts = vec![format!("{} AP", b.clock.ap.get(actor).copied().unwrap_or(0))];
    say(&mut parts, b.clock.budget.phase_action, "an action this phase");
    parts
}

/// The line under a token.
pub fn badge(b: &Battle, i: usize) -> String {
    let ap = b.clock.ap.get(i).copied().unwrap_or(0) as usize;
    let pips = format!("AP {}{}", "*".repeat(ap), "-".repeat(3usize.saturating_sub(ap)));
    match b.clock.advanced.get(i).and_then(|a| a.as_ref()) {
        Some(adv) => {
            let what = match &adv.action {
                crate::combat::clock::AdvancedKind::Charge { target } => format!("charging {target}"),
                crate::combat::clock::AdvancedKind::TotalDefense => "total defense".into(),
            };
            format!("{pips} {what} {}/{} AP", adv.spent, adv.needed)
        }
        None => pips,
    }
}
