//! d20-classic (source 002): move, standard, swift, free and full-round actions and one
//! immediate action a round (attacks of opportunity, counterspells and readied actions
//! exclude each other); iterative attacks, criticals with confirmation, death saves.

use super::prelude::*;

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

pub(super) fn budget_words(b: &Battle, _actor: usize) -> Vec<String> {
    let bud = &b.clock.budget;
    let mut parts = vec![];
    say(&mut parts, bud.fresh, "full-round");
    say(&mut parts, bud.standard, "standard");
    say(&mut parts, bud.move_action, "move");
    say(&mut parts, bud.swift, "swift");
    say(&mut parts, !bud.moved && !bud.stepped, "5-ft step");
    parts
}

/// The line under a token.
pub fn badge(b: &Battle, i: usize) -> String {
    let f = &b.fighters[i];
    match f.immediate {
        Some(crate::combat::fighter::Immediate::AttackOfOpportunity) => "immediate: AoO used".into(),
        Some(crate::combat::fighter::Immediate::HeldAction) => "immediate: held action used".into(),
        Some(crate::combat::fighter::Immediate::Counterspell) => "immediate: counterspell used".into(),
        None if f.death_fails > 0 => format!("death saves failed: {}", f.death_fails),
        None => String::new(),
    }
}

/// What an action costs this variant's combatant, or why it may not be taken: the
/// budget after it, and the attack's penalty slot.
pub(crate) fn spend(
    _b: &Battle,
    _actor: usize,
    budget: &Budget,
    cmd: &Command,
) -> Result<(Budget, AttackKind), String> {
    let mut n = budget.clone();
    n.fresh = false;
    let kind = AttackKind::Primary;
    match cmd {
        Command::AbortOrder { .. } | Command::Declare { .. } => {} // settled above
        Command::Move { .. } => {
            if budget.stepped {
                return Err("no moving in a turn with a 5-ft step".into());
            }
            if budget.single_action && !budget.fresh {
                return Err("the surprise round allows a single action".into());
            }
            if budget.move_action {
                n.move_action = false;
            } else if budget.standard {
                n.standard = false; // a standard action traded for a move
            } else {
                return Err("no move or standard action left".into());
            }
            n.moved = true;
        }
        Command::Step { .. } => {
            if budget.moved || budget.stepped {
                return Err("a 5-ft step is only for a turn without other movement".into());
            }
            if !budget.move_action {
                return Err("a 5-ft step takes the place of the move action, which is spent".into());
            }
            n.move_action = false;
            n.stepped = true;
            if budget.single_action {
                n.standard = false;
            }
        }
        Command::Attack { .. } | Command::Trip { .. } | Command::Hold { .. } => take_standard(budget, &mut n)?,
        Command::FullAttack { .. } | Command::Charge { .. } | Command::Defend => {
            if !budget.fresh || budget.single_action {
                return Err("a full-round action needs the whole turn".into());
            }
            n.standard = false;
            n.move_action = false;
            n.swift = false;
        }
        Command::Delay => {
            if !budget.fresh {
                return Err("delay only before acting".into());
            }
            n = Budget::default();
        }
        Command::Stand | Command::Reload => take_move(budget, &mut n)?,
        // "Casting a Spell: Most spells are standard actions."
        Command::Shove { .. } | Command::Disarm { .. } | Command::Grapple { .. } | Command::Cast { .. } => {
            take_standard(budget, &mut n)?
        }
        // "At the beginning of the defender's turn … as a free action", once a turn.
        Command::Escape => {
            if !budget.fresh {
                return Err("escaping is tried at the beginning of the turn".into());
            }
        }
        Command::Stance { .. } => {}
        Command::Guard | Command::Focus | Command::Dash { .. } | Command::Tumble { .. } => {
            return Err("d20-classic has no such action".into());
        }
        Command::Wrestle { .. } | Command::CoupDeGrace { .. } | Command::FirstAid { .. } => {
            return Err("d20-classic has no such action".into());
        }
        Command::EndTurn => n = Budget::default(),
    };
    Ok((n, kind))
}

/// What a combatant may do when its opportunity opens.
pub(crate) fn fresh_budget(b: &Battle, _i: usize) -> Budget {
    let single = b.clock.surprise;
    Budget { standard: true, move_action: true, swift: true, fresh: true, single_action: single, ..Budget::default() }
}
