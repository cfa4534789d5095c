//! Checking and resolving commands: what each costs in the variant's action economy,
//! movement with attacks of opportunity square by square, attack rolls, critical hits
//! as each source defines them, damage, dropping, dying and death.

mod actions;
mod economy;
mod harm;
mod movement;
mod reactions;
mod strike;
mod validate;

pub(crate) use actions::{Maneuver, defensive_bonus, delay_to_last};
pub(crate) use economy::{take_move, take_standard};
pub(crate) use harm::opposed_escape;
pub(crate) use harm::{apply_damage, check_death, gain, kill, lose, release};
pub use harm::{dying_turn, wound};
pub(crate) use movement::{charge, charge_path, set_initiative, straight_run, walk};
pub(crate) use reactions::{opportunity, provoke_threateners};
pub(crate) use strike::{attack_routine, deal_damage};

use actions::*;
use economy::*;
use reactions::*;
use strike::*;

use super::attack::{self, AttackContext, AttackKind};
use super::clock::{self, Budget};
use super::command::{Command, RuleError};
use super::event::CombatEvent;
use super::fighter::Modifier;
use super::{Battle, magic, variants};
use crate::grid::{Footprint, GridPos};
use crate::level::{Hands, WeaponKind};
use crate::rules::{self, Condition, MoveMode, PathPlan};

/// What a legal command would do, without doing it.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub command: Command,
    /// The budget left afterwards.
    pub budget_after: Budget,
    /// For movement: the path, its cost and the attacks of opportunity it provokes.
    pub path: Option<PathPlan>,
    /// For attacks: the first attack's roll.
    pub attack: Option<attack::AttackProfile>,
    /// Attack penalty slot (four-actions secondary/tertiary, ap-phases nth action).
    pub kind: AttackKind,
}

fn err(b: &Battle, actor: usize, cmd: &Command, reason: impl Into<String>) -> RuleError {
    RuleError { unit: b.fighters[actor].id.clone(), action: cmd.name().into(), reason: reason.into() }
}

impl Battle {
    /// Checks and resolves a command for the fighter acting now.
    pub fn execute(&mut self, cmd: Command) -> Result<(), RuleError> {
        let plan = self.validate(&cmd)?;
        let actor = self.actor().expect("validated");
        let rules = variants::rules(self.variant);
        if rules.command_taken_over(self, actor, &cmd) {
            return Ok(());
        }
        self.clock.budget = plan.budget_after.clone();
        match &cmd {
            Command::Move { .. } => {
                let path = plan.path.clone().expect("a move has a path");
                walk(self, actor, &path, "move", None);
            }
            Command::Step { .. } => {
                let path = plan.path.clone().expect("a step has a path");
                let kind = self.variant.numbers().step_name.as_str();
                walk(self, actor, &path, kind, None);
            }
            Command::Attack { target } | Command::FullAttack { target } => {
                let t = self.index_of(target).expect("validated");
                let full = matches!(cmd, Command::FullAttack { .. });
                attack_routine(self, actor, t, plan.kind.clone(), full, &AttackContext::default());
            }
            Command::Charge { target } => {
                let t = self.index_of(target).expect("validated");
                rules.charge(self, actor, t, plan.path.clone());
            }
            Command::Defend => rules.defend(self, actor),
            Command::Delay => rules.delay(self, actor),
            Command::Stand => stand(self, actor),
            Command::Trip { target } => {
                let t = self.index_of(target).expect("validated");
                maneuver(self, actor, t, Maneuver::Trip);
            }
            Command::Grapple { target } => {
                let t = self.index_of(target).expect("validated");
                maneuver(self, actor, t, Maneuver::Grapple);
            }
            Command::Escape => rules.escape(self, actor),
            Command::Wrestle { .. }
            | Command::CoupDeGrace { .. }
            | Command::FirstAid { .. }
            | Command::Dash { .. }
            | Command::Tumble { .. } => rules.resolve_own(self, actor, &cmd, plan.path.clone()),
            Command::Reload => reload(self, actor),
            Command::Shove { target } | Command::Disarm { target } => {
                let t = self.index_of(target).expect("validated");
                let kind = if matches!(cmd, Command::Shove { .. }) { Maneuver::Shove } else { Maneuver::Disarm };
                maneuver(self, actor, t, kind);
            }
            Command::Hold { target } => {
                self.fighters[actor].held = Some(target.clone());
                let id = self.fighters[actor].id.clone();
                let on = target.clone().unwrap_or_else(|| "the first foe".into());
                self.emit(CombatEvent::Action {
                    unit: id,
                    action: "holds an attack".into(),
                    detail: format!("for when {on} comes into reach"),
                });
                rules.held(self, actor);
            }
            Command::Stance { stance } => {
                let id = self.fighters[actor].id.clone();
                let f = &mut self.fighters[actor];
                let detail = match stance {
                    super::command::Stance::Defensive => {
                        let (attack, ac) = self.variant.numbers().fighting_defensively;
                        f.offense.push(("fighting defensively".into(), attack));
                        f.defense.push(("fighting defensively".into(), ac));
                        format!("{attack:+} on attacks, {ac:+} AC")
                    }
                    super::command::Stance::Reckless => {
                        let (ac, damage) = self.variant.numbers().reckless;
                        f.defense.push(("reckless".into(), ac));
                        f.damage_bonus.push(("reckless".into(), damage));
                        format!("{ac:+} AC, {damage:+} damage")
                    }
                };
                self.emit(CombatEvent::Action {
                    unit: id,
                    action: format!(
                        "fights {}",
                        if *stance == super::command::Stance::Defensive { "defensively" } else { "recklessly" }
                    ),
                    detail,
                });
            }
            Command::Guard => {
                let id = self.fighters[actor].id.clone();
                self.fighters[actor].defense.push(("guard".into(), 2));
                self.emit(CombatEvent::Action { unit: id, action: "guard".into(), detail: "+2 AC for 1 round".into() });
            }
            Command::Focus => {
                let id = self.fighters[actor].id.clone();
                self.fighters[actor].offense.push(("focus".into(), 1));
                self.fighters[actor].damage_bonus.push(("focus".into(), 1));
                self.emit(CombatEvent::Action {
                    unit: id,
                    action: "focus".into(),
                    detail: "+1 on attack and damage rolls for 1 round".into(),
                });
            }
            Command::Cast { spell, target, defensive } => {
                let (t, sp) = magic::check(self, actor, spell, target).expect("validated");
                rules.cast(self, actor, sp, t, *defensive);
            }
            Command::Declare { intent } => {
                self.fighters[actor].declared = Some(intent.clone());
                let id = self.fighters[actor].id.clone();
                self.emit(CombatEvent::Action { unit: id, action: "declares".into(), detail: intent.describe() });
            }
            Command::AbortOrder { on } => {
                self.fighters[actor].abort_order = Some(*on);
                let id = self.fighters[actor].id.clone();
                let detail = if *on {
                    "will abort to a dodge when attacked, giving up its next action"
                } else {
                    "will not abort"
                };
                self.emit(CombatEvent::Action { unit: id, action: "abort order".into(), detail: detail.into() });
            }
            Command::EndTurn => {}
        }
        rules.after_command(self, actor, &cmd);
        if self.check_victory() {
            return Ok(());
        }
        let still_up = self.fighters[actor].can_act();
        if matches!(cmd, Command::EndTurn | Command::Delay | Command::Declare { .. })
            || !still_up
            || exhausted(self, &self.clock.budget)
        {
            clock::advance(self);
        }
        Ok(())
    }
}
