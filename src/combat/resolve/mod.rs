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

pub use actions::continue_advanced;
pub(crate) use economy::{take_move, take_standard};
pub(crate) use harm::{apply_damage, check_death, gain, kill, lose, release};
pub use harm::{dying_turn, wound};
pub(crate) use movement::straight_run;
pub(crate) use reactions::provoke_threateners;
pub(crate) use strike::{attack_routine, deal_damage};

use actions::*;
use economy::*;
use harm::*;
use movement::*;
use reactions::*;
use strike::*;

use super::attack::{self, AttackContext, AttackKind};
use super::clock::{self, Advanced, AdvancedKind, Budget, OsrStep};
use super::command::{Command, GrappleFollowUp, RuleError};
use super::event::CombatEvent;
use super::fighter::Modifier;
use super::{Battle, magic, variants};
use crate::grid::{Footprint, GridPos};
use crate::level::{Hands, WeaponKind};
use crate::rules::{self, Condition, MoveMode, PathPlan};
use crate::variants::RulesVariant;

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
        if self.clock.budget.continuing {
            // ap-phases: ending the turn goes on with the advanced action under way; any
            // other action abandons it ("it may be wise to abandon an advanced action").
            if cmd == Command::EndTurn {
                self.clock.budget = Budget::default();
                continue_advanced(self, actor);
                if !self.is_over() {
                    clock::advance(self);
                }
                return Ok(());
            }
            if let Some(adv) = self.clock.advanced[actor].take() {
                let unit = self.fighters[actor].id.clone();
                let action = variants::ap_phases::advanced_name(&adv.action);
                self.emit(CombatEvent::Spoiled { unit, action, reason: "abandoned".into() });
            }
        }
        self.clock.budget = plan.budget_after.clone();
        match &cmd {
            Command::Move { .. } => {
                let path = plan.path.clone().expect("a move has a path");
                walk(self, actor, &path, "move", None);
            }
            Command::Step { .. } => {
                let path = plan.path.clone().expect("a step has a path");
                let kind = match self.variant {
                    RulesVariant::OsrSegments => "positioning move",
                    RulesVariant::HexPhases => "1-hex step",
                    RulesVariant::FourActions => "side step",
                    _ => "5-ft step",
                };
                walk(self, actor, &path, kind, None);
            }
            Command::Attack { target } | Command::FullAttack { target } => {
                let t = self.index_of(target).expect("validated");
                let full = matches!(cmd, Command::FullAttack { .. });
                attack_routine(self, actor, t, plan.kind.clone(), full, &AttackContext::default());
            }
            Command::Charge { target } => {
                let t = self.index_of(target).expect("validated");
                if self.variant == RulesVariant::ApPhases {
                    self.clock.ap[actor] -= 1;
                    self.clock.advanced[actor] =
                        Some(Advanced { action: AdvancedKind::Charge { target: target.clone() }, spent: 1, needed: 2 });
                    let id = self.fighters[actor].id.clone();
                    self.emit(CombatEvent::Action {
                        unit: id,
                        action: "charge".into(),
                        detail: format!("declared at {target} (2 AP)"),
                    });
                } else {
                    charge(self, actor, t, plan.path.clone().expect("charge path"));
                }
            }
            Command::Defend => defend(self, actor),
            Command::Delay => delay(self, actor),
            Command::Stand => stand(self, actor),
            Command::Trip { target } => {
                let t = self.index_of(target).expect("validated");
                maneuver(self, actor, t, Maneuver::Trip);
            }
            Command::Grapple { target } => {
                let t = self.index_of(target).expect("validated");
                maneuver(self, actor, t, Maneuver::Grapple);
            }
            Command::Escape => escape(self, actor),
            Command::Wrestle { follow_up } => variants::four_actions::wrestle(self, actor, *follow_up),
            Command::CoupDeGrace { .. } | Command::FirstAid { .. } => {
                variants::ap_phases::begin_complex(self, actor, &cmd)
            }
            Command::Reload => reload(self, actor),
            Command::Shove { target } | Command::Disarm { target } => {
                let t = self.index_of(target).expect("validated");
                let kind = if matches!(cmd, Command::Shove { .. }) { Maneuver::Shove } else { Maneuver::Disarm };
                maneuver(self, actor, t, kind);
            }
            Command::Dash { .. } => {
                let path = plan.path.clone().expect("a dash has a path");
                walk(self, actor, &path, "dash", None);
            }
            Command::Tumble { .. } => {
                let mut path = plan.path.clone().expect("a tumble has a path");
                let foes: std::collections::BTreeSet<usize> = path.provokes.iter().map(|p| p.by).collect();
                let dc = 5 + 5 * foes.len() as i32;
                let (roll, bonus) = (self.dice.roll(20) as i32, self.fighters[actor].dex_mod());
                let success = roll + bonus >= dc;
                let id = self.fighters[actor].id.clone();
                self.emit(CombatEvent::Save { unit: id, kind: "Agility (tumble)".into(), roll, bonus, dc, success });
                if success {
                    path.provokes.clear();
                }
                walk(self, actor, &path, "tumble", None);
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
                if self.variant == RulesVariant::ApPhases {
                    // "Once you ready an action, you forfeit all other actions this round."
                    self.clock.ap[actor] = 1;
                }
            }
            Command::Stance { stance } => {
                let id = self.fighters[actor].id.clone();
                let f = &mut self.fighters[actor];
                let detail = match stance {
                    super::command::Stance::Defensive => {
                        let (attack, ac) = super::variants::numbers(self.variant).fighting_defensively;
                        f.offense.push(("fighting defensively".into(), attack));
                        f.defense.push(("fighting defensively".into(), ac));
                        format!("{attack:+} on attacks, {ac:+} AC")
                    }
                    super::command::Stance::Reckless => {
                        let (ac, damage) = super::variants::numbers(self.variant).reckless;
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
                match self.variant {
                    RulesVariant::ApPhases => magic::begin_advanced(self, actor, sp, t, *defensive),
                    RulesVariant::OsrSegments => magic::announce(self, actor, sp, t),
                    _ => magic::cast_now(self, actor, sp, t, *defensive),
                }
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
        if self.variant == RulesVariant::ApPhases
            && !matches!(
                cmd,
                Command::EndTurn
                    | Command::Delay
                    | Command::Charge { .. }
                    | Command::Defend
                    | Command::Stance { .. }
                    | Command::AbortOrder { .. }
                    | Command::Declare { .. }
            )
        {
            self.clock.ap[actor] = self.clock.ap[actor].saturating_sub(1);
        }
        if self.check_victory() {
            return Ok(());
        }
        let still_up = self.fighters[actor].can_act();
        if self.variant == RulesVariant::OsrSegments
            && matches!(
                cmd,
                Command::Move { .. } | Command::Attack { .. } | Command::FullAttack { .. } | Command::Charge { .. }
            )
        {
            self.clock.acted[actor] = true; // its major action for the round
            if matches!(cmd, Command::Attack { .. } | Command::FullAttack { .. } | Command::Charge { .. }) {
                self.clock.attacked[actor] = true;
            }
        }
        if matches!(cmd, Command::EndTurn | Command::Delay | Command::Declare { .. })
            || !still_up
            || exhausted(self, &self.clock.budget)
        {
            clock::advance(self);
        }
        Ok(())
    }
}
