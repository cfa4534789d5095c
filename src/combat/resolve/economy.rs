//! What each command costs in the variant's action economy, and whether anything is
//! left to do in this opportunity.

use super::*;

/// What a command costs from `budget` under `variant`, and the attack slot it uses.
pub(super) fn spend(b: &Battle, actor: usize, budget: &Budget, cmd: &Command) -> Result<(Budget, AttackKind), String> {
    let rules = b.rules();
    let choices = &b.variant.numbers().rules;
    if let Command::Declare { intent } = cmd {
        if !choices.declarations {
            return Err(format!("{} has no declarations", b.variant.id()));
        }
        if !budget.declaring() {
            return Err("declarations are made at the start of the round".into());
        }
        if let crate::combat::command::Intent::Charge { target } = intent {
            let t = b.index_of(target).ok_or_else(|| format!("no unit \"{target}\""))?;
            if !b.fighters.conditions[t].in_fight() || b.fighters.side[t] == b.fighters.side[actor] {
                return Err(format!("{target} is not a foe in the fight"));
            }
            if b.fighters.wielded[actor].def.is_ranged() {
                return Err("a charge ends in a melee attack".into());
            }
        }
        if let crate::combat::command::Intent::Cast { spell } = intent {
            let f = b.fighters.at(actor);
            let sp = magic::spell(spell).ok_or_else(|| format!("no spell \"{spell}\""))?;
            if !f.stats().knows(spell) {
                return Err(format!("{} does not know {}", f.id(), sp.name));
            }
            if f.spells().left == 0 {
                return Err("no spells left".into());
            }
        }
        return Ok((Budget::default(), AttackKind::Primary));
    }
    if let Command::Cast { defensive: true, .. } = cmd
        && !choices.defensive_casting
    {
        return Err(format!("{} has no defensive casting", b.variant.id()));
    }
    if let Command::AbortOrder { .. } = cmd
        && !choices.aborting
    {
        return Err(format!("{} has no aborting", b.variant.id()));
    }
    let v = b.variant;
    let moving = matches!(
        cmd,
        Command::Move { .. }
            | Command::Step { .. }
            | Command::Charge { .. }
            | Command::Dash { .. }
            | Command::Tumble { .. }
    );
    if moving && b.fighters.conditions[actor].has(Condition::Grappled) {
        return Err("grappled: it cannot move until it breaks free".into());
    }
    if matches!(cmd, Command::Reload) && (!b.fighters.wielded[actor].def.reload || b.fighters.wielded[actor].loaded) {
        return Err("nothing to reload".into());
    }
    if matches!(cmd, Command::Grapple { .. } | Command::Escape) && !choices.grapples {
        return Err(format!("{} has no grapple rules here", v.id()));
    }
    // The rest is each variant's own (src/combat/variants/).
    rules.spend(b, actor, budget, cmd)
}

/// Spends the standard action (in a surprise round, the turn's only action).
pub(crate) fn take_standard(budget: &Budget, n: &mut Budget) -> Result<(), String> {
    if !budget.standard {
        return Err("the standard action is spent".into());
    }
    n.standard = false;
    if budget.single_action {
        n.move_action = false;
    }
    Ok(())
}

/// Spends the move action, or the standard action traded down for one.
pub(crate) fn take_move(budget: &Budget, n: &mut Budget) -> Result<(), String> {
    if budget.move_action {
        n.move_action = false;
    } else if budget.standard {
        n.standard = false;
    } else {
        return Err("no move or standard action left".into());
    }
    Ok(())
}
