//! Checking a command without changing anything: whose turn, what it costs, a legal
//! target, a path, and what the first attack would roll.

use super::*;
use crate::combat::slot::UnfilledSlots;

impl Battle<'_, '_> {
    /// Whether the acting fighter's budget allows `cmd` at all, whatever its target or
    /// destination (the action bar's question). `Err` says why not.
    pub fn affordable(&self, cmd: &Command) -> Result<(), String> {
        let actor = self.actor().ok_or("nobody is acting")?;
        spend(self, actor, self.budget(), cmd).map(|_| ())
    }

    /// The budget fighter `i` would have at the start of an opportunity now.
    pub fn fresh_budget_of(&self, i: usize) -> Budget {
        self.rules().fresh_budget(self, i)
    }

    /// What would be left of `budget` once fighter `actor` spent it on `cmd`, or why it
    /// cannot pay for it.
    pub fn spend_from(&self, actor: usize, budget: &Budget, cmd: &Command) -> Result<Budget, String> {
        self.spend_with_slot(actor, budget, cmd).map(|(left, _)| left)
    }

    /// What would be left of `budget` once fighter `actor` spent it on `cmd`, with the attack
    /// slot `cmd` would take (a four-actions secondary attack, an iterative one…), or why it
    /// cannot pay for it.
    pub fn spend_with_slot(
        &self,
        actor: usize,
        budget: &Budget,
        cmd: &Command,
    ) -> Result<(Budget, AttackKind), String> {
        spend(self, actor, budget, cmd)
    }

    /// The index of `target` if it is a foe of `actor` still in the fight (not an ally, not
    /// a corpse), or why not.
    pub(super) fn foe(&self, actor: usize, target: &str) -> Result<usize, String> {
        let t = self.index_of(target).ok_or_else(|| format!("no unit \"{target}\""))?;
        if !self.fighters.conditions[t].alive() || self.fighters.side[t] == self.fighters.side[actor] {
            return Err(format!("{target} is not a foe in the fight"));
        }
        Ok(t)
    }

    /// Whether `cmd` is legal for the fighter acting now, what it costs and what it would
    /// provoke, on a battle whose derived maps are up to date; it leaves out a charge's
    /// attack profile, which needs the charger moved (`BattleWorld::validate` adds it).
    pub fn check_command(&self, cmd: &Command) -> Result<Plan, RuleError> {
        let unfilled = self.world().and_then(|w| w.get_resource::<UnfilledSlots>());
        self.check_with(cmd, unfilled, true)
    }

    /// Whether `cmd` is legal for the fighter acting now: [`Battle::check_command`]'s verdict
    /// without the plan's attack profile, whose modifiers are not weighed (what an AI asks
    /// of many commands in one decision), on a battle whose derived maps are up to date (as
    /// any battle read between commands).
    pub fn allows(&self, cmd: &Command) -> bool {
        let unfilled = self.world().and_then(|w| w.get_resource::<UnfilledSlots>());
        self.check_with(cmd, unfilled, false).is_ok()
    }

    /// [`Battle::check_command`], with the commands no rule system carries out (under a
    /// house rule) given: what the check run as a system, which has no world, reads. An
    /// attack's profile is weighed into the plan if `weigh` (and the battle has its world).
    pub fn check_with(&self, cmd: &Command, unfilled: Option<&UnfilledSlots>, weigh: bool) -> Result<Plan, RuleError> {
        let plan = self.check_under_the_rules(cmd, weigh)?;
        if unfilled.is_some_and(|u| u.unresolved(cmd)) {
            let actor = self.actor().unwrap_or_default();
            return Err(err(self, actor, cmd, "switched off by a house rule (no rule system carries it out)"));
        }
        Ok(plan)
    }

    /// [`Battle::check_command`] under the variant's own rules.
    fn check_under_the_rules(&self, cmd: &Command, weigh: bool) -> Result<Plan, RuleError> {
        let actor = self.actor().ok_or_else(|| RuleError {
            unit: "-".into(),
            action: cmd.name().into(),
            reason: "nobody is acting (the battle is over)".into(),
        })?;
        // "the target gains the pinned condition": held down, it can only try to get free.
        if self.fighters.conditions[actor].has(Condition::Pinned)
            && !matches!(cmd, Command::Escape | Command::EndTurn | Command::Delay)
        {
            return Err(err(self, actor, cmd, "pinned: it can only try to escape"));
        }
        let (budget_after, kind) = spend(self, actor, self.budget(), cmd).map_err(|r| err(self, actor, cmd, r))?;
        let view = self.view();
        let mut plan = Plan { command: cmd.clone(), budget_after, path: None, attack: None, kind: kind.clone() };
        match cmd {
            Command::Move { to } | Command::Step { to } => {
                let mode = if matches!(cmd, Command::Step { .. }) { MoveMode::Step } else { MoveMode::Move };
                let mut allowance = rules::allowance_ft(&view, actor, mode);
                if self.fighters.conditions[actor].has(Condition::Prone) && mode == MoveMode::Move {
                    allowance /= 2;
                }
                let range = self.move_range(actor, mode, allowance);
                let path = range.plan_to(&view, *to).map_err(|r| err(self, actor, cmd, r.0))?;
                if path.squares.is_empty() {
                    return Err(err(self, actor, cmd, "already there"));
                }
                plan.path = Some(path);
            }
            Command::Attack { target } | Command::FullAttack { target } => {
                let t = self.index_of(target).ok_or_else(|| err(self, actor, cmd, format!("no unit \"{target}\"")))?;
                if !self.fighters.conditions[t].alive() || self.fighters.side[t] == self.fighters.side[actor] {
                    return Err(err(self, actor, cmd, format!("{target} is not a foe in the fight")));
                }
                if self.fighters.wielded[actor].def.reload {
                    self.rules().crossbow_ready(self, actor).map_err(|r| err(self, actor, cmd, r))?;
                }
                if let Err(refused) = attack::legality(self, actor, t) {
                    return Err(err(self, actor, cmd, refused.reason.unwrap_or_default()));
                }
                // Weighed where the battle has its world and the plan is wanted; a check
                // run as a system, or an AI's question, asks only whether it is legal.
                if weigh && self.world().is_some() {
                    plan.attack = Some(attack::profile(self, actor, t, &kind, &AttackContext::default()));
                }
            }
            Command::Charge { target } => {
                let t = self.foe(actor, target).map_err(|r| err(self, actor, cmd, r))?;
                if self.fighters.wielded[actor].def.is_ranged() {
                    return Err(err(self, actor, cmd, "a charge ends in a melee attack"));
                }
                if self.variant.numbers().rules.charge_completes_later {
                    // Declared now, moved and struck at its completion: the foe must be
                    // within a charge now.
                    self.charge_line(actor, t).map_err(|r| err(self, actor, cmd, r))?;
                    return Ok(plan);
                }
                let path = self.charge_line(actor, t).map_err(|r| err(self, actor, cmd, r))?;
                plan.path = Some(path);
            }
            Command::Reload => {}
            Command::Escape => {
                if !self.fighters.conditions[actor].has(Condition::Grappled) {
                    return Err(err(self, actor, cmd, "not grappled"));
                }
            }
            Command::Wrestle { .. }
            | Command::CoupDeGrace { .. }
            | Command::FirstAid { .. }
            | Command::Dash { .. }
            | Command::Tumble { .. } => {
                plan.path = self.rules().check_own(self, actor, cmd).map_err(|r| err(self, actor, cmd, r))?;
            }
            Command::Trip { target }
            | Command::Shove { target }
            | Command::Disarm { target }
            | Command::Grapple { target } => {
                let t = self.foe(actor, target).map_err(|r| err(self, actor, cmd, r))?;
                if self.fighters.wielded[actor].def.is_ranged() {
                    return Err(err(self, actor, cmd, "a trip needs a melee weapon"));
                }
                if !view.threat.threatens(actor, self.fighters.at(t).footprint()) {
                    return Err(err(self, actor, cmd, format!("{target} is not within reach")));
                }
                if matches!(cmd, Command::Trip { .. }) && self.fighters.conditions[t].has(Condition::Prone) {
                    return Err(err(self, actor, cmd, format!("{target} is already prone")));
                }
                if matches!(cmd, Command::Disarm { .. })
                    && self.fighters.wielded[t].def.kind != WeaponKind::Melee
                    && !self.fighters.wielded[t].def.is_ranged()
                {
                    return Err(err(self, actor, cmd, format!("{target} holds no weapon to drop")));
                }
                if self.fighters.body[t].size as i32 > self.fighters.body[actor].size as i32 + 1 {
                    return Err(err(self, actor, cmd, format!("{target} is too big to trip")));
                }
            }
            Command::Stand => {
                if !self.fighters.conditions[actor].has(Condition::Prone) {
                    return Err(err(self, actor, cmd, "not prone"));
                }
            }
            Command::Hold { target } => {
                if let Some(t) = target {
                    self.foe(actor, t).map_err(|r| err(self, actor, cmd, r))?;
                }
                if self.fighters.wielded[actor].def.is_ranged() {
                    return Err(err(self, actor, cmd, "held attacks here are melee attacks"));
                }
            }
            Command::Cast { spell, target, .. } => {
                magic::check(self, actor, spell, target).map_err(|r| err(self, actor, cmd, r))?;
            }
            Command::Defend
            | Command::Delay
            | Command::EndTurn
            | Command::Stance { .. }
            | Command::Guard
            | Command::AbortOrder { .. }
            | Command::Declare { .. }
            | Command::Focus => {}
        }
        Ok(plan)
    }
}
