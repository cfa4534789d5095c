//! four-actions (source 001): a standard, a move and a quick action and one reaction a
//! round; primary, secondary and tertiary attacks; everyone Surprised until their first
//! turn, and flanking makes the target Surprised.

use super::prelude::*;

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

/// four-actions: rounds in initiative order, a surprise round first for the aware.
pub(super) fn clock_line(b: &Battle, who: &str) -> String {
    super::initiative_clock_line(b, who)
}

pub(super) fn budget_words(b: &Battle, _actor: usize) -> Vec<String> {
    let bud = &b.clock.budget;
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
            if budget.move_action {
                n.move_action = false;
            } else if budget.standard {
                n.standard = false; // trade-down
            } else {
                return Err("no move or standard action left".into());
            }
            n.moved = true;
        }
        Command::Step { .. } => {
            if budget.quick {
                n.quick = false;
            } else if budget.standard {
                n.standard = false;
            } else {
                return Err("a side step is a quick action, and none is left".into());
            }
        }
        Command::Attack { .. } | Command::FullAttack { .. } => {
            if budget.standard {
                n.standard = false;
            } else if budget.move_action {
                n.move_action = false;
                return Ok((n, AttackKind::Secondary));
            } else if budget.quick {
                n.quick = false;
                return Ok((n, AttackKind::Tertiary));
            } else {
                return Err("no action left to attack with".into());
            }
        }
        Command::Charge { .. } => {
            if !(budget.standard && budget.move_action) {
                return Err("a charge needs a standard action (the dash) and a move action".into());
            }
            n.standard = false;
            n.move_action = false;
            n.moved = true;
        }
        Command::Defend => {
            if !budget.standard {
                return Err("defending takes the standard action".into());
            }
            n.standard = false;
        }
        Command::Delay => return Err("four-actions has no delay (wait with a standard action instead)".into()),
        Command::Stand | Command::Reload => take_move(budget, &mut n)?,
        Command::Trip { .. } | Command::Hold { .. } => take_standard(budget, &mut n)?,
        Command::Guard => take_move(budget, &mut n)?,
        Command::Focus => {
            if budget.quick {
                n.quick = false;
            } else if budget.standard {
                n.standard = false;
            } else {
                return Err("focus is a quick action, and none is left".into());
            }
        }
        Command::Stance { .. } => return Err("four-actions has no stances (guard, defend or focus instead)".into()),
        // "Spellcasting is a Standard Action."
        Command::Shove { .. }
        | Command::Disarm { .. }
        | Command::Grapple { .. }
        | Command::Escape
        | Command::Cast { .. } => take_standard(budget, &mut n)?,
        Command::Dash { .. } => {
            take_standard(budget, &mut n)?;
            n.moved = true;
        }
        Command::Tumble { .. } => {
            take_move(budget, &mut n)?;
            n.moved = true;
        }
        Command::EndTurn => n = Budget::default(),
    };
    Ok((n, kind))
}

/// What a combatant may do when its opportunity opens.
pub(crate) fn fresh_budget(b: &Battle, i: usize) -> Budget {
    let restrained = b.fighters[i].has(Condition::Grappled);
    Budget { standard: true, move_action: !restrained, quick: true, fresh: true, ..Budget::default() }
}
