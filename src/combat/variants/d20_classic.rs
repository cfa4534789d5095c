//! d20-classic (source 002): move, standard, swift, free and full-round actions and one
//! immediate action a round (attacks of opportunity, counterspells and readied actions
//! exclude each other); iterative attacks, criticals with confirmation, death saves.

use super::Criticals;
use super::prelude::*;
use crate::level::DeathSaves;

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

/// This variant's rules, as the engine calls them.
pub(crate) struct D20Classic;

impl VariantRules for D20Classic {
    fn spend(&self, b: &Battle, actor: usize, budget: &Budget, cmd: &Command) -> Result<(Budget, AttackKind), String> {
        spend(b, actor, budget, cmd)
    }
    fn fresh_budget(&self, b: &Battle, i: usize) -> Budget {
        fresh_budget(b, i)
    }
    fn exhausted(&self, budget: &Budget) -> bool {
        !budget.standard && !budget.move_action
    }
    fn defensive_casting(&self) -> bool {
        true
    }
    fn grapples(&self) -> bool {
        true
    }
    fn may_react(&self, b: &Battle, reactor: usize, _mover: usize, allowance: u32) -> bool {
        // After a held action, no attacks of opportunity until its next turn.
        let f = &b.fighters[reactor];
        f.reactions_used < allowance
            && !matches!(
                f.immediate,
                Some(crate::combat::fighter::Immediate::HeldAction | crate::combat::fighter::Immediate::Counterspell)
            )
    }
    fn dying_when_dropped(&self, _f: &Fighter) -> bool {
        true
    }
    fn dead(&self, f: &Fighter) -> bool {
        f.death_fails >= 3
    }
    fn dying_turn(&self, b: &mut Battle, i: usize) {
        let id = b.fighters[i].id.clone();
        let f = &b.fighters[i];
        let (roll, bonus, dc, kind) = match b.options.death_saves {
            DeathSaves::AllAreEqual => {
                let roll = b.dice.roll(100) as i32;
                (roll, 0, 51 + 10 * f.death_fails as i32, "death save (d%)")
            }
            DeathSaves::StatsMatter => {
                let dc = 10 + f.def.hit_dice as i32 - f.con_mod();
                (b.dice.roll(20) as i32, f.fortitude(), dc, "death save (Fortitude)")
            }
            DeathSaves::Brutality => {
                let dc = 10 + f.dropping_damage;
                (b.dice.roll(20) as i32, f.fortitude(), dc, "death save (Fortitude, brutality)")
            }
        };
        let success = roll + bonus >= dc;
        b.emit(CombatEvent::Save { unit: id, kind: kind.into(), roll, bonus, dc, success });
        if success {
            lose(b, i, Condition::Dying);
            gain(b, i, Condition::Stabilized);
        } else {
            b.fighters[i].death_fails += 1;
            check_death(b, i);
        }
    }
    fn criticals(&self) -> Criticals {
        Criticals::Confirmed
    }
    fn damage_strength(&self, f: &Fighter) -> Option<(&'static str, i32)> {
        Some(super::strength_with_two_hands(f))
    }
}
