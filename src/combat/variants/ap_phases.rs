//! ap-phases (source 000): 3 action points a round (2 in the surprise round), seven
//! action phases from declaration to very slow, weapon speed deciding the earliest attack
//! phase, advanced actions over consecutive AP.

use super::prelude::*;

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

/// What an action costs this variant's combatant, or why it may not be taken: the
/// budget after it, and the attack's penalty slot.
pub(crate) fn spend(b: &Battle, actor: usize, budget: &Budget, cmd: &Command) -> Result<(Budget, AttackKind), String> {
    let mut n = budget.clone();
    n.fresh = false;
    let kind = AttackKind::Primary;
    let ap = b.clock.ap[actor];
    let phase = b.clock.phase;
    match cmd {
        Command::EndTurn | Command::Delay => return Ok((Budget::default(), kind)),
        // Fight defensively: a free action at the start of the round of actions.
        Command::Stance { stance: crate::combat::command::Stance::Defensive } => return Ok((n, kind)),
        Command::Grapple { .. } | Command::Escape | Command::Wrestle { .. } => {
            return Err("no grapple rules here".into());
        }
        Command::Stance { .. } | Command::Guard | Command::Focus | Command::Dash { .. } | Command::Tumble { .. } => {
            return Err("ap-phases has no such action".into());
        }
        _ if !budget.phase_action => return Err("one action per phase".into()),
        _ => {}
    }
    let cost = match cmd {
        Command::Charge { .. } | Command::Defend => 2,
        _ => 1,
    };
    if ap < 1 {
        return Err("no action points left this round".into());
    }
    if cost > 1 && !b.clock.surprise && ap < 1 {
        return Err(format!("needs {cost} AP"));
    }
    if matches!(
        cmd,
        Command::Attack { .. }
            | Command::FullAttack { .. }
            | Command::Trip { .. }
            | Command::Shove { .. }
            | Command::Disarm { .. }
    ) {
        let earliest = clock::ap_earliest_attack_phase(b, actor);
        if phase < earliest {
            return Err(format!(
                "attacks with a {} begin in the {} phase (phase {earliest}); this is phase {phase}",
                b.fighters[actor].weapon.name,
                clock::AP_PHASES[earliest as usize - 1]
            ));
        }
        n.phase_action = false;
        return Ok((n, AttackKind::NthAction(b.clock.attack_actions[actor] as u32 + 1)));
    }
    n.phase_action = false;
    Ok((n, kind))
}

/// Opens the next window of this variant's clock (a round, phase or step): who may act
/// in it, and in what order.
pub(crate) fn open_window(b: &mut Battle) {
    let n = b.fighters.len();
    if b.clock.phase == 0 || b.clock.phase >= 7 {
        if b.clock.surprise_pending {
            b.clock.surprise_pending = false;
            b.clock.surprise = true;
        } else {
            b.clock.round += 1;
            b.clock.surprise = false;
        }
        b.clock.phase = 1;
        round_reset(b);
        let r = b.clock.round;
        b.emit(CombatEvent::RoundStarted { round: r });
        // Effects lasting "until the start of your next round of actions" end.
        for f in &mut b.fighters {
            f.start_turn();
            f.held = None;
        }
        for i in 0..n {
            let f = &b.fighters[i];
            b.clock.ap[i] = if !f.can_act() {
                0
            } else if b.clock.surprise {
                if f.aware { 2 } else { 0 }
            } else {
                3
            };
            b.clock.attack_actions[i] = 0;
        }
    } else {
        b.clock.phase += 1;
    }
    let (r, p) = (b.clock.round, b.clock.phase);
    b.emit(CombatEvent::PhaseStarted { round: r, phase: p, name: AP_PHASES[p as usize - 1].into() });
    for f in &mut b.fighters {
        f.reactions_used = 0;
    }
    // The declaration phase takes only thought-speed actions; nobody acts in it here.
    b.clock.queue =
        if p == 1 { vec![] } else { b.clock.order.iter().copied().filter(|&i| b.clock.ap[i] > 0).collect() };
}

/// What a combatant may do when its opportunity opens.
pub(crate) fn fresh_budget(_b: &Battle, _i: usize) -> Budget {
    Budget { phase_action: true, fresh: true, ..Budget::default() }
}
