//! ap-phases in the player's words: its action bar, its clock and budget, its badges (AP
//! pips, an advanced action under way).

use super::prelude::*;
use crate::combat::BattleWorld;
use crate::combat::command::GrappleFollowUp;
use crate::combat::variants::ap_phases::{
    ACTION_POINTS, AP_PHASES, ActionPoints, PhaseAction, advanced_name, ap_earliest_attack_phase, points,
};

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
        ("Grapple", Aim(Tool::Grapple)),
        ("Continue grapple: damage", Now(Command::Wrestle { follow_up: GrappleFollowUp::Attack })),
        ("Continue grapple: move", Aim(Tool::Drag)),
        ("Continue grapple: pin", Now(Command::Wrestle { follow_up: GrappleFollowUp::Pin })),
        ("Continue grapple: hold", Now(Command::Wrestle { follow_up: GrappleFollowUp::Maintain })),
        ("End grapple (free)", Now(Command::Wrestle { follow_up: GrappleFollowUp::End })),
        ("Total defense", Now(Command::Defend)),
        ("Fight defensively", Now(Command::Stance { stance: Stance::Defensive })),
        ("Coup de grace", Aim(Tool::CoupDeGrace)),
        ("First aid", Aim(Tool::FirstAid)),
    ]
}

pub(super) fn clock_line(b: &Battle, who: &str) -> String {
    let c = &b.clock;
    let phase = c.phase.clamp(1, 7);
    let track: Vec<String> = AP_PHASES
        .iter()
        .enumerate()
        .map(|(k, name)| if k + 1 == phase as usize { format!("[{name}]") } else { name.to_string() })
        .collect();
    format!("{} | {} | {who} acts", super::round_label(b), track.join(" > "))
}

pub(super) fn budget_words(b: &Battle, actor: usize, budget: &Budget) -> Vec<String> {
    let mut parts = vec![format!("{} AP", points(b, actor).ap)];
    say(&mut parts, budget.own::<PhaseAction>().left, "this phase's action (1 AP)");
    if budget.own::<PhaseAction>().continuing
        && let Some(adv) = &points(b, actor).advanced
    {
        parts.push(format!(
            "{} under way (end the turn to go on with it; any other action abandons it)",
            advanced_name(&adv.action)
        ));
    }
    parts
}

/// Puts `actor`'s battle in the first phase its weapon strikes in, with the round's AP whole
/// (what an action costs is asked as of a phase it can act in); what they were, to put back.
pub(super) fn ready_to_act(world: &mut BattleWorld, actor: usize) -> (u32, u8) {
    let (was, first) = {
        let b = world.read();
        ((b.clock.phase, points(&b, actor).ap), ap_earliest_attack_phase(&b, actor))
    };
    let mut scene = world.scene();
    scene.clock().phase = first;
    scene.fighter::<ActionPoints>(actor).ap = ACTION_POINTS;
    was
}

/// Puts back what [`ready_to_act`] changed.
pub(super) fn as_it_was(world: &mut BattleWorld, actor: usize, (phase, ap): (u32, u8)) {
    let mut scene = world.scene();
    scene.clock().phase = phase;
    scene.fighter::<ActionPoints>(actor).ap = ap;
}

/// The line under a token.
pub fn badge(b: &Battle, i: usize) -> String {
    let ap = points(b, i).ap as usize;
    let pips = format!("AP {}{}", "*".repeat(ap), "-".repeat(3usize.saturating_sub(ap)));
    match &points(b, i).advanced {
        Some(adv) => {
            format!("{pips} {} {}/{} AP", advanced_name(&adv.action), adv.spent, adv.needed)
        }
        None => pips,
    }
}

/// Its line in the initiative panel: AP pips and the Dexterity that orders each phase.
pub(super) fn initiative_note(b: &Battle, i: usize) -> String {
    let ap = points(b, i).ap as usize;
    format!("{}{}  Dex {}", "*".repeat(ap), "-".repeat(3usize.saturating_sub(ap)), b.fighters.initiative[i].shown)
}
