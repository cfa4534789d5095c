//! Checking and resolving commands: what each costs in the variant's action economy,
//! movement with attacks of opportunity square by square, attack rolls, critical hits
//! as each source defines them, damage, dropping, dying and death.

use super::attack::{self, AttackContext, AttackKind};
use super::clock::{self, Advanced, AdvancedKind, Budget, OsrStep};
use super::command::{Command, GrappleFollowUp, RuleError};
use super::event::CombatEvent;
use super::fighter::{Immediate, Modifier};
use super::{Battle, DeathSaves, magic, variants};
use crate::grid::{Footprint, GridPos};
use crate::level::{Hands, WeaponKind};
use crate::rules::{self, Condition, MoveMode, PathPlan};
use crate::variant::RulesVariant;

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

/// What a command costs from `budget` under `variant`, and the attack slot it uses.
fn spend(b: &Battle, actor: usize, budget: &Budget, cmd: &Command) -> Result<(Budget, AttackKind), String> {
    if let Command::Declare { intent } = cmd {
        if b.variant != RulesVariant::OsrSegments {
            return Err(format!("{} has no declarations", b.variant.id()));
        }
        if !budget.declaring {
            return Err("declarations are made at the start of the round".into());
        }
        if let super::command::Intent::Charge { target } = intent {
            let t = b.index_of(target).ok_or_else(|| format!("no unit \"{target}\""))?;
            if !b.fighters[t].in_fight() || b.fighters[t].side == b.fighters[actor].side {
                return Err(format!("{target} is not a foe in the fight"));
            }
            if b.fighters[actor].weapon.is_ranged() {
                return Err("a charge ends in a melee attack".into());
            }
        }
        if let super::command::Intent::Cast { spell } = intent {
            let f = &b.fighters[actor];
            let sp = magic::spell(spell).ok_or_else(|| format!("no spell \"{spell}\""))?;
            if !f.knows(spell) {
                return Err(format!("{} does not know {}", f.id, sp.name));
            }
            if f.spells_left == 0 {
                return Err("no spells left".into());
            }
        }
        return Ok((Budget::default(), AttackKind::Primary));
    }
    if let Command::Cast { defensive: true, .. } = cmd
        && !matches!(b.variant, RulesVariant::D20Classic | RulesVariant::ApPhases)
    {
        return Err(format!("{} has no defensive casting", b.variant.id()));
    }
    if let Command::AbortOrder { on } = cmd {
        // A free action: nothing spent.
        return if b.variant != RulesVariant::HexPhases {
            Err(format!("{} has no aborting", b.variant.id()))
        } else if b.fighters[actor].abort_order == Some(*on) {
            Err(format!("the order is already {}", if *on { "on" } else { "off" }))
        } else {
            Ok((budget.clone(), AttackKind::Primary))
        };
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
    if moving && b.fighters[actor].has(Condition::Grappled) {
        return Err("grappled: it cannot move until it breaks free".into());
    }
    if matches!(cmd, Command::Reload) && (!b.fighters[actor].weapon.reload || b.fighters[actor].loaded) {
        return Err("nothing to reload".into());
    }
    let grapple_rules = matches!(v, RulesVariant::D20Classic | RulesVariant::FourActions);
    if matches!(cmd, Command::Grapple { .. } | Command::Escape) && !grapple_rules {
        return Err(format!("{} has no grapple rules here", v.id()));
    }
    // The rest is each variant's own (src/combat/variants/).
    match v {
        RulesVariant::D20Classic => variants::d20_classic::spend(b, actor, budget, cmd),
        RulesVariant::FourActions => variants::four_actions::spend(b, actor, budget, cmd),
        RulesVariant::ApPhases => variants::ap_phases::spend(b, actor, budget, cmd),
        RulesVariant::OsrSegments => variants::osr_segments::spend(b, actor, budget, cmd),
        RulesVariant::HexPhases => variants::hex_phases::spend(b, actor, budget, cmd),
    }
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

/// Whether anything is left to do in this opportunity.
fn exhausted(b: &Battle, budget: &Budget) -> bool {
    match b.variant {
        RulesVariant::D20Classic => !budget.standard && !budget.move_action,
        RulesVariant::FourActions => !budget.standard && !budget.move_action && !budget.quick,
        RulesVariant::ApPhases => !budget.phase_action,
        RulesVariant::OsrSegments => !budget.major && (budget.stepped || budget.fast_only || budget.attacks_only),
        RulesVariant::HexPhases => {
            (budget.attack_used && budget.moves_used >= 1)
                || budget.moves_used >= 2
                || (budget.single_action && !budget.fresh)
        }
    }
}

impl Battle {
    /// Whether `a` has a charge path to `t` from where it stands (whatever its budget).
    pub fn charge_possible(&self, a: usize, t: usize) -> bool {
        charge_path(self, a, t).is_ok()
    }

    /// Whether the acting fighter's budget allows `cmd` at all, whatever its target or
    /// destination (the action bar's question). `Err` says why not.
    pub fn affordable(&self, cmd: &Command) -> Result<(), String> {
        let actor = self.actor().ok_or("nobody is acting")?;
        spend(self, actor, &self.clock.budget, cmd).map(|_| ())
    }

    /// Whether `cmd` is legal for the fighter acting now, what it costs and what it would
    /// provoke, without changing anything.
    /// The index of `target` if it is a foe of `actor` still in the fight (not an ally, not
    /// a corpse), or why not.
    fn foe(&self, actor: usize, target: &str) -> Result<usize, String> {
        let t = self.index_of(target).ok_or_else(|| format!("no unit \"{target}\""))?;
        if !self.fighters[t].alive() || self.fighters[t].side == self.fighters[actor].side {
            return Err(format!("{target} is not a foe in the fight"));
        }
        Ok(t)
    }

    pub fn validate(&mut self, cmd: &Command) -> Result<Plan, RuleError> {
        let actor = self.actor().ok_or_else(|| RuleError {
            unit: "-".into(),
            action: cmd.name().into(),
            reason: "nobody is acting (the battle is over)".into(),
        })?;
        self.refresh();
        let budget = self.clock.budget.clone();
        let (budget_after, kind) = spend(self, actor, &budget, cmd).map_err(|r| err(self, actor, cmd, r))?;
        let view = self.view();
        let mut plan = Plan { command: cmd.clone(), budget_after, path: None, attack: None, kind: kind.clone() };
        match cmd {
            Command::Move { to } | Command::Step { to } => {
                let mode = if matches!(cmd, Command::Step { .. }) { MoveMode::Step } else { MoveMode::Move };
                let mut allowance = rules::allowance_ft(&view, actor, mode);
                if self.fighters[actor].has(Condition::Prone) && mode == MoveMode::Move {
                    allowance /= 2;
                }
                let range = rules::movement_range(&view, actor, mode, allowance);
                let path = range.plan_to(&view, *to).map_err(|r| err(self, actor, cmd, r.0))?;
                if path.squares.is_empty() {
                    return Err(err(self, actor, cmd, "already there"));
                }
                plan.path = Some(path);
            }
            Command::Attack { target } | Command::FullAttack { target } => {
                let t = self.index_of(target).ok_or_else(|| err(self, actor, cmd, format!("no unit \"{target}\"")))?;
                if !self.fighters[t].alive() || self.fighters[t].side == self.fighters[actor].side {
                    return Err(err(self, actor, cmd, format!("{target} is not a foe in the fight")));
                }
                let f = &self.fighters[actor];
                if f.weapon.reload && self.variant == RulesVariant::OsrSegments {
                    if self.clock.osr_step != OsrStep::Low {
                        return Err(err(
                            self,
                            actor,
                            cmd,
                            "loading and firing a crossbow is a delaying activity: LOW initiative only",
                        ));
                    }
                } else if f.weapon.reload && !f.loaded {
                    return Err(err(self, actor, cmd, format!("the {} is not loaded", f.weapon.name.to_lowercase())));
                }
                let p = attack::profile(self, &view, actor, t, &kind, &AttackContext::default());
                if !p.legal {
                    return Err(err(self, actor, cmd, p.reason.clone().unwrap_or_default()));
                }
                plan.attack = Some(p);
            }
            Command::Charge { target } => {
                let t = self.foe(actor, target).map_err(|r| err(self, actor, cmd, r))?;
                if self.fighters[actor].weapon.is_ranged() {
                    return Err(err(self, actor, cmd, "a charge ends in a melee attack"));
                }
                if self.variant == RulesVariant::ApPhases {
                    // An advanced action: declared now, moved and struck at its completion;
                    // the foe must be within a charge now.
                    charge_path(self, actor, t).map_err(|r| err(self, actor, cmd, r))?;
                    return Ok(plan);
                }
                let path = charge_path(self, actor, t).map_err(|r| err(self, actor, cmd, r))?;
                // The attack as it will be rolled, from the square where the charge ends.
                let end = path.squares.last().copied().unwrap_or(self.fighters[actor].pos);
                plan.attack = Some(self.attack_from(actor, t, end, &AttackContext { charge: true }));
                plan.path = Some(path);
            }
            Command::Dash { to } | Command::Tumble { to } => {
                let speed = self.fighters[actor].def.speed_ft;
                let allowance =
                    if matches!(cmd, Command::Dash { .. }) { speed * 3 / 2 / 5 * 5 } else { speed / 2 / 5 * 5 };
                let range = rules::movement_range(&view, actor, MoveMode::Move, allowance);
                let path = range.plan_to(&view, *to).map_err(|r| err(self, actor, cmd, r.0))?;
                if path.squares.is_empty() {
                    return Err(err(self, actor, cmd, "already there"));
                }
                if matches!(cmd, Command::Dash { .. })
                    && path.squares.iter().any(|&p| {
                        Footprint::new(p, self.fighters[actor].size.side())
                            .cells()
                            .any(|c| self.field.terrain.get(c).costs_double())
                    })
                {
                    return Err(err(self, actor, cmd, "a dash cannot be made through difficult terrain"));
                }
                plan.path = Some(path);
            }
            Command::Reload => {}
            Command::Escape => {
                if !self.fighters[actor].has(Condition::Grappled) {
                    return Err(err(self, actor, cmd, "not grappled"));
                }
            }
            Command::Wrestle { follow_up } => {
                variants::four_actions::check_wrestle(self, actor, *follow_up).map_err(|r| err(self, actor, cmd, r))?;
            }
            Command::CoupDeGrace { target } | Command::FirstAid { target } => {
                variants::ap_phases::check_complex(self, actor, cmd, target).map_err(|r| err(self, actor, cmd, r))?;
            }
            Command::Trip { target }
            | Command::Shove { target }
            | Command::Disarm { target }
            | Command::Grapple { target } => {
                let t = self.foe(actor, target).map_err(|r| err(self, actor, cmd, r))?;
                if self.fighters[actor].weapon.is_ranged() {
                    return Err(err(self, actor, cmd, "a trip needs a melee weapon"));
                }
                if !view.threat.threatens(actor, self.fighters[t].footprint()) {
                    return Err(err(self, actor, cmd, format!("{target} is not within reach")));
                }
                if matches!(cmd, Command::Trip { .. }) && self.fighters[t].has(Condition::Prone) {
                    return Err(err(self, actor, cmd, format!("{target} is already prone")));
                }
                if matches!(cmd, Command::Disarm { .. })
                    && self.fighters[t].weapon.kind != WeaponKind::Melee
                    && !self.fighters[t].weapon.is_ranged()
                {
                    return Err(err(self, actor, cmd, format!("{target} holds no weapon to drop")));
                }
                if self.fighters[t].size as i32 > self.fighters[actor].size as i32 + 1 {
                    return Err(err(self, actor, cmd, format!("{target} is too big to trip")));
                }
            }
            Command::Stand => {
                if !self.fighters[actor].has(Condition::Prone) {
                    return Err(err(self, actor, cmd, "not prone"));
                }
            }
            Command::Hold { target } => {
                if let Some(t) = target {
                    self.foe(actor, t).map_err(|r| err(self, actor, cmd, r))?;
                }
                if self.fighters[actor].weapon.is_ranged() {
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

/// Moves the walker one square on, letting held attacks trigger; false once it is out of
/// the fight or the battle is over.
fn step_onto(b: &mut Battle, mover: usize, next: GridPos, done: &mut Vec<GridPos>) -> bool {
    done.push(next);
    b.fighters[mover].pos = next;
    b.invalidate();
    held_triggers(b, mover);
    b.fighters[mover].in_fight() && !b.is_over()
}

/// Walks `path`, stopping for each attack of opportunity it provokes; a mover who drops
/// stops where it fell, unless that is a square it could only pass through (an ally's):
/// then it is on the last square of its path where it could have stopped. `immune_from`
/// cannot react (four-actions: a charge's target).
fn walk(b: &mut Battle, mover: usize, path: &PathPlan, kind: &str, immune_from: Option<usize>) {
    let start = b.fighters[mover].pos;
    let mut done: Vec<GridPos> = Vec::new();
    let mut squares = path.squares.iter().copied().peekable();
    for p in &path.provokes {
        // Advance to the square being left.
        while b.fighters[mover].pos != p.from {
            let Some(next) = squares.next() else { break };
            if !step_onto(b, mover, next, &mut done) {
                break;
            }
        }
        if !b.fighters[mover].in_fight() || b.is_over() {
            break;
        }
        b.invalidate();
        if Some(p.by) == immune_from {
            continue;
        }
        let trigger =
            if b.variant == RulesVariant::OsrSegments { "leaves melee" } else { "moves out of a threatened square" };
        opportunity(b, p.by, mover, trigger);
        if !b.fighters[mover].in_fight() || b.is_over() {
            break;
        }
    }
    if b.fighters[mover].in_fight() && !b.is_over() {
        for next in squares {
            if !step_onto(b, mover, next, &mut done) {
                break;
            }
        }
    }
    while !done.is_empty() && shares_a_square(b, mover) {
        done.pop();
        b.fighters[mover].pos = done.last().copied().unwrap_or(start);
    }
    b.invalidate();
    let cost = if done.len() == path.squares.len() { path.cost_ft } else { 5 * done.len() as u32 };
    let id = b.fighters[mover].id.clone();
    b.emit(CombatEvent::Moved { unit: id, path: done, cost_ft: cost, kind: kind.into() });
}

/// Whether any other creature still on the board stands on one of `i`'s squares.
fn shares_a_square(b: &Battle, i: usize) -> bool {
    let me = b.fighters[i].footprint();
    b.fighters.iter().enumerate().any(|(j, f)| j != i && f.alive() && f.footprint().overlaps(&me))
}

/// Foes holding an attack strike a mover that has just come into their reach.
fn held_triggers(b: &mut Battle, mover: usize) {
    let holders: Vec<usize> = (0..b.fighters.len())
        .filter(|&h| {
            let f = &b.fighters[h];
            f.side != b.fighters[mover].side
                && f.can_act()
                && f.held.as_ref().is_some_and(|t| t.as_ref().is_none_or(|t| *t == b.fighters[mover].id))
        })
        .collect();
    if holders.is_empty() {
        return;
    }
    b.refresh();
    for h in holders {
        let in_reach = b.view().threat.threatens(h, b.fighters[mover].footprint());
        // d20-classic: a held action is an immediate action, and an attack of
        // opportunity already taken rules it out until the holder's next turn.
        let blocked = b.variant == RulesVariant::D20Classic && b.fighters[h].immediate.is_some();
        if !in_reach || blocked {
            continue;
        }
        b.fighters[h].held = None;
        b.fighters[h].immediate = Some(super::fighter::Immediate::HeldAction);
        let (hid, mid) = (b.fighters[h].id.clone(), b.fighters[mover].id.clone());
        b.emit(CombatEvent::Action { unit: hid, action: "held attack".into(), detail: format!("triggered by {mid}") });
        roll_attack(b, h, mover, AttackKind::Primary, &AttackContext::default());
        // The new place in the order: just after the trigger (d20-classic), just before
        // it (hex-phases); ap-phases and four-actions keep their place.
        let key = b.fighters[mover].initiative;
        match b.variant {
            RulesVariant::D20Classic => set_initiative(b, h, key - 1),
            RulesVariant::HexPhases => set_initiative(b, h, key + 1),
            _ => {}
        }
        b.refresh();
        if !b.fighters[mover].in_fight() {
            return;
        }
    }
}

fn set_initiative(b: &mut Battle, i: usize, key: i64) {
    b.fighters[i].initiative = key;
    let mut order = b.clock.order.clone();
    order.sort_by(|&x, &y| b.fighters[y].initiative.cmp(&b.fighters[x].initiative).then(x.cmp(&y)));
    b.clock.order = order;
}

/// Whether `reactor` may react to `mover` now, under the variant's budget of reactions.
fn can_react(b: &Battle, reactor: usize, mover: usize) -> bool {
    let f = &b.fighters[reactor];
    if !f.can_act() || f.weapon.is_ranged() {
        return false;
    }
    let allowance = clock::reaction_allowance(b, reactor);
    match b.variant {
        // d20-classic: after a held action, no attacks of opportunity until its next turn.
        RulesVariant::D20Classic => {
            f.reactions_used < allowance
                && !matches!(f.immediate, Some(Immediate::HeldAction | Immediate::Counterspell))
        }
        RulesVariant::FourActions => f.reactions_used < allowance,
        RulesVariant::ApPhases => f.reactions_used < 1 && f.reactions_round < allowance,
        RulesVariant::OsrSegments => {
            !f.has(Condition::Surprised) && f.reactions_used < 1 && !f.free_attacked_by.contains(&b.fighters[mover].id)
        }
        RulesVariant::HexPhases => f.reactions_used < allowance && !f.defense.iter().any(|(n, _)| n == "dodge"),
    }
}

/// An attack of opportunity (free attack) by `reactor` on `mover`, if allowed.
fn opportunity(b: &mut Battle, reactor: usize, mover: usize, trigger: &str) {
    if !can_react(b, reactor, mover) {
        return;
    }
    b.refresh();
    let at = b.fighters[mover].pos;
    let profile = attack::profile(b, &b.view(), reactor, mover, &AttackKind::Opportunity, &AttackContext::default());
    if !profile.legal {
        return;
    }
    if let Some(seen) = b.foreseen.as_mut() {
        seen.push(super::foresight::Provoked { by: reactor, trigger: trigger.to_string() });
        return;
    }
    let (by, target) = (b.fighters[reactor].id.clone(), b.fighters[mover].id.clone());
    b.emit(CombatEvent::AttackOfOpportunity { by, target: target.clone(), at, trigger: trigger.into() });
    // osr-segments: "a free attack taken will break concentration (e.g. spell casting)".
    magic::break_concentration(b, reactor, "made a free attack");
    b.stats.attacks_of_opportunity += 1;
    let f = &mut b.fighters[reactor];
    f.reactions_used += 1;
    f.reactions_round += 1;
    f.immediate = Some(super::fighter::Immediate::AttackOfOpportunity);
    f.free_attacked_by.insert(target);
    roll_attack(b, reactor, mover, AttackKind::Opportunity, &AttackContext::default());
}

/// Foes threatening a ranged attacker get their attacks of opportunity first
/// (d20-classic and ap-phases).
fn ranged_provokes(b: &mut Battle, a: usize) {
    if matches!(b.variant, RulesVariant::D20Classic | RulesVariant::ApPhases) && b.fighters[a].weapon.is_ranged() {
        provoke_threateners(b, a, "fires in melee");
    }
}

/// Every foe threatening `a` gets its attack of opportunity, first to last; stops if `a`
/// drops.
pub(super) fn provoke_threateners(b: &mut Battle, a: usize, trigger: &str) {
    b.refresh();
    let view = b.view();
    let threateners: Vec<usize> =
        rules::roster::indices(view.threat.threateners_of(b.fighters[a].footprint()) & view.roster.foes_of(a))
            .collect();
    for r in threateners {
        opportunity(b, r, a, trigger);
        if !b.fighters[a].in_fight() {
            return;
        }
    }
}

/// One attack action (or a full attack) against `t`.
pub(super) fn attack_routine(b: &mut Battle, a: usize, t: usize, kind: AttackKind, full: bool, ctx: &AttackContext) {
    ranged_provokes(b, a);
    if !b.fighters[a].in_fight() {
        return;
    }
    if b.fighters[a].weapon.reload && b.variant != RulesVariant::OsrSegments {
        // One bolt: a full attack with a crossbow is a single shot, then it needs loading.
        b.fighters[a].loaded = false;
        roll_attack(b, a, t, kind, ctx);
        return;
    }
    if let AttackKind::NthAction(_) = kind {
        b.clock.attack_actions[a] += 1;
    }
    let count = if full && b.variant == RulesVariant::D20Classic {
        // +11/+6/+1: one more attack for every full 5 of base attack bonus past +0, at most four.
        let bab = b.fighters[a].def.base_attack;
        (1 + (bab - 1).max(0) / 5).clamp(1, 4) as u32
    } else {
        1
    };
    for n in 0..count {
        if !b.fighters[t].in_fight() || !b.fighters[a].in_fight() {
            break;
        }
        let k = if n == 0 { kind.clone() } else { AttackKind::Iterative(n) };
        b.refresh();
        let p = attack::profile(b, &b.view(), a, t, &k, ctx);
        if !p.legal {
            break;
        }
        roll_attack(b, a, t, k, ctx);
    }
}

/// hex-phases: a fighter about to be attacked may abort to a dodge (+3 DCV), giving up
/// its action in this phase if its initiative has not come, else its next phase's; it
/// may not abort again until its next action. Whether it does is its standing order.
fn abort_to_dodge(b: &mut Battle, t: usize) {
    let f = &b.fighters[t];
    let wants = f.abort_order.unwrap_or(f.hp * 2 <= f.max_hp);
    let dodging = f.defense.iter().any(|(n, _)| n == "dodge");
    if !wants || dodging || f.abort_locked || !f.can_act() || f.has(Condition::Surprised) || b.clock.actor == Some(t) {
        return;
    }
    let detail = if b.clock.queue.contains(&t) {
        b.clock.queue.retain(|&i| i != t);
        "+3 DCV; gives up its action this phase".to_string()
    } else {
        let (turn, phase) = (b.clock.round, b.clock.phase);
        let next = if phase >= 4 { (turn + 1, 1) } else { (turn, phase + 1) };
        b.fighters[t].skip_phase = Some(next);
        format!("+3 DCV; gives up its action in phase {} of turn {}", next.1, next.0)
    };
    b.fighters[t].abort_locked = true;
    b.fighters[t].defense.push(("dodge".into(), super::variants::numbers(b.variant).abort_dodge));
    let id = b.fighters[t].id.clone();
    b.emit(CombatEvent::Action { unit: id, action: "aborts to a dodge".into(), detail });
}

/// Rolls one attack, its critical and its damage.
fn roll_attack(b: &mut Battle, a: usize, t: usize, kind: AttackKind, ctx: &AttackContext) -> bool {
    if b.variant == RulesVariant::HexPhases {
        abort_to_dodge(b, t);
    }
    b.refresh();
    let p = attack::profile(b, &b.view(), a, t, &kind, ctx);
    if !p.legal {
        return false;
    }
    let bonus = p.bonus();
    let rolls: Vec<i32> = match p.die {
        super::AttackDie::ThreeD6 => (0..3).map(|_| b.dice.roll(6) as i32).collect(),
        super::AttackDie::D20 { .. } => vec![b.dice.roll(20) as i32],
    };
    let natural: i32 = rolls.iter().sum();
    let hit = p.die.hits(natural, bonus, p.target_number);
    let weapon = b.fighters[a].weapon.clone();
    let threat = hit
        && matches!(p.die, super::AttackDie::D20 { .. })
        && b.variant != RulesVariant::OsrSegments
        && natural >= weapon.crit_range as i32;
    let kind_name = match &kind {
        AttackKind::Opportunity if b.variant == RulesVariant::OsrSegments => "free attack on",
        AttackKind::Opportunity => "attack of opportunity on",
        AttackKind::Secondary => "secondary attack on",
        AttackKind::Tertiary => "tertiary attack on",
        AttackKind::Iterative(_) => "iterative attack on",
        _ if ctx.charge => "charges",
        _ => "attacks",
    };
    b.stats.attacks += 1;
    let (aid, tid) = (b.fighters[a].id.clone(), b.fighters[t].id.clone());
    b.emit(CombatEvent::Attack {
        attacker: aid.clone(),
        target: tid.clone(),
        kind: kind_name.into(),
        die: p.die.name().into(),
        rolls,
        modifiers: p.modifiers.clone(),
        total: natural + bonus,
        target_number: p.target_number,
        hit,
        critical: threat,
    });
    if !hit {
        return false;
    }
    b.stats.hits += 1;
    // Criticals: d20-classic and ap-phases confirm with a second roll; four-actions
    // multiplies the dice on the threat itself; osr-segments and hex-phases have none.
    let critical = if threat && matches!(b.variant, RulesVariant::D20Classic | RulesVariant::ApPhases) {
        let roll = b.dice.roll(20) as i32;
        let confirmed = p.die.hits(roll, bonus, p.target_number);
        b.emit(CombatEvent::Confirm {
            attacker: aid.clone(),
            target: tid.clone(),
            roll,
            total: roll + bonus,
            target_number: p.target_number,
            confirmed,
        });
        confirmed
    } else {
        threat
    };
    if critical {
        b.stats.criticals += 1;
    }
    deal_damage(b, a, t, critical, p.melee);
    true
}

/// Rolls and applies weapon damage; the damage dealt.
pub(super) fn deal_damage(b: &mut Battle, a: usize, t: usize, critical: bool, melee: bool) -> i32 {
    let fa = &b.fighters[a];
    let dice = fa.damage_dice();
    let weapon = fa.weapon.clone();
    let mut flat: Vec<Modifier> = Vec::new();
    let str_applies = melee || weapon.kind == WeaponKind::Melee;
    if b.variant != RulesVariant::HexPhases && str_applies {
        let s = fa.str_mod();
        let s = if weapon.hands == Hands::Two && matches!(b.variant, RulesVariant::D20Classic | RulesVariant::ApPhases)
        {
            (s as f64 * 1.5).floor() as i32 // "add 1.5× your Strength modifier (round down)"
        } else {
            s
        };
        if s != 0 {
            flat.push(Modifier::new(if weapon.hands == Hands::Two { "Strength x1.5" } else { "Strength" }, s));
        }
    }
    for (name, v) in &fa.damage_bonus {
        flat.push(Modifier::new(name.clone(), *v));
    }
    let mult = if critical { weapon.crit_mult } else { 1 };
    let mut rolls = Vec::new();
    let mut total = 0i32;
    let flat_sum: i32 = flat.iter().map(|m| m.value).sum();
    for k in 0..mult {
        let r = b.dice.roll_many(dice.count, dice.sides);
        total += r.iter().map(|&x| x as i32).sum::<i32>();
        rolls.extend(r.into_iter().map(|x| x as i32));
        // d20-classic and ap-phases multiply flat bonuses with the dice; four-actions adds
        // them once ("roll and add the appropriate modifiers").
        let multiply_flat = matches!(b.variant, RulesVariant::D20Classic | RulesVariant::ApPhases);
        if k == 0 || multiply_flat {
            total += flat_sum;
        }
    }
    let total = total.max(1);
    let dice_label =
        if mult > 1 { format!("{}d{} x{mult} critical", dice.count, dice.sides) } else { dice.to_string() };
    let mods = if critical && matches!(b.variant, RulesVariant::D20Classic | RulesVariant::ApPhases) {
        flat.iter().map(|m| Modifier::new(format!("{} x{mult}", m.source), m.value * mult as i32)).collect()
    } else {
        flat
    };
    b.stats.damage_dealt += total as u64;
    let nonlethal = weapon.nonlethal;
    apply_damage(b, a, t, total, nonlethal, dice_label, rolls, mods);
    total
}

#[allow(clippy::too_many_arguments)]
/// Damage from outside an attack roll (a trap, a scenario, a test): `amount` hit points
/// from `by` to `t`, with everything that follows from it (dropping, broken concentration).
pub fn wound(b: &mut Battle, by: usize, t: usize, amount: i32) {
    apply_damage(b, by, t, amount, false, "wound".into(), vec![], vec![]);
}

pub(super) fn apply_damage(
    b: &mut Battle,
    a: usize,
    t: usize,
    amount: i32,
    nonlethal: bool,
    dice: String,
    rolls: Vec<i32>,
    modifiers: Vec<Modifier>,
) {
    let before = b.fighters[t].hp;
    if nonlethal {
        b.fighters[t].nonlethal += amount;
    } else {
        b.fighters[t].hp -= amount;
    }
    let hp_after = b.fighters[t].hp;
    let (aid, tid) = (b.fighters[a].id.clone(), b.fighters[t].id.clone());
    b.emit(CombatEvent::Damage {
        attacker: aid,
        target: tid.clone(),
        dice,
        rolls,
        modifiers,
        total: amount,
        nonlethal,
        hp_after,
    });
    magic::hurt_while_casting(b, t, amount);
    // d20-classic massive damage: half of maximum HP or more in one hit.
    let mut auto_fail = false;
    if b.variant == RulesVariant::D20Classic
        && !nonlethal
        && amount * 2 >= b.fighters[t].max_hp
        && before > 0
        && hp_after > 0
    {
        let dc = 10 + b.fighters[a].def.hit_dice as i32;
        let bonus = b.fighters[t].fortitude();
        if !b.check(t, "Fortitude (massive damage)", bonus, dc) {
            b.fighters[t].hp = 0;
            auto_fail = true;
        }
    }
    if b.fighters[t].nonlethal >= b.fighters[t].hp && b.fighters[t].hp > 0 && gain(b, t, Condition::Unconscious) {
        return;
    }
    if b.fighters[t].hp <= 0 && before > 0 || auto_fail {
        b.fighters[t].dropping_damage = amount;
        drop_fighter(b, t, auto_fail);
    } else if b.fighters[t].hp <= 0 {
        check_death(b, t);
    }
}

pub(super) fn gain(b: &mut Battle, i: usize, c: Condition) -> bool {
    if b.fighters[i].add(c) {
        let id = b.fighters[i].id.clone();
        b.emit(CombatEvent::ConditionGained { unit: id, condition: c });
        b.invalidate();
        true
    } else {
        false
    }
}

pub(super) fn lose(b: &mut Battle, i: usize, c: Condition) {
    if b.fighters[i].remove(c) {
        let id = b.fighters[i].id.clone();
        b.emit(CombatEvent::ConditionLost { unit: id, condition: c });
        b.invalidate();
    }
}

/// Ends a grapple for both.
pub(super) fn release(b: &mut Battle, i: usize) {
    b.fighters[i].holds_grapple = false;
    if let Some(other) = b.fighters[i].grappling.take() {
        b.fighters[other].grappling = None;
        b.fighters[other].holds_grapple = false;
        lose(b, other, Condition::Grappled);
    }
    lose(b, i, Condition::Grappled);
}

/// Breaking free: d20-classic, opposed grapple checks (d20 + base attack + Strength + size);
/// four-actions, the turn's grapple contest won to end the grapple.
fn escape(b: &mut Battle, i: usize) {
    if b.variant == RulesVariant::FourActions {
        variants::four_actions::wrestle(b, i, GrappleFollowUp::End);
        return;
    }
    let Some(other) = b.fighters[i].grappling else {
        release(b, i);
        return;
    };
    let bonus = |b: &Battle, x: usize| {
        let f = &b.fighters[x];
        f.def.base_attack + f.str_mod() - 4 * f.size.size_modifier().clamp(-2, 2)
    };
    let (ri, ro) = (b.dice.roll(20) as i32, b.dice.roll(20) as i32);
    let (bi, bo) = (bonus(b, i), bonus(b, other));
    let success = (ri + bi, bi) > (ro + bo, bo);
    let (id, oid) = (b.fighters[i].id.clone(), b.fighters[other].id.clone());
    b.emit(CombatEvent::Save {
        unit: id,
        kind: format!("escape vs {oid}'s grapple {}", ro + bo),
        roll: ri,
        bonus: bi,
        dc: ro + bo + 1,
        success,
    });
    if success {
        release(b, i);
    }
}

/// A fighter reduced to 0 or fewer hit points.
fn drop_fighter(b: &mut Battle, t: usize, first_save_failed: bool) {
    release(b, t);
    // ap-phases: an advanced action in progress is lost ("or the action is lost").
    if let Some(adv) = b.clock.advanced.get_mut(t).and_then(Option::take) {
        let unit = b.fighters[t].id.clone();
        let action = variants::ap_phases::advanced_name(&adv.action);
        b.emit(CombatEvent::Spoiled { unit, action, reason: "it dropped".into() });
    }
    gain(b, t, Condition::Unconscious);
    gain(b, t, Condition::Prone);
    let dying = match b.variant {
        RulesVariant::D20Classic => true,
        RulesVariant::FourActions | RulesVariant::ApPhases => b.fighters[t].hp < 0,
        RulesVariant::OsrSegments => true,
        RulesVariant::HexPhases => false,
    };
    if dying {
        gain(b, t, Condition::Dying);
    }
    b.fighters[t].death_fails = u32::from(first_save_failed);
    check_death(b, t);
}

/// Death thresholds: −Con score (four-actions, ap-phases), −10 (osr-segments, hex-phases).
/// Death: no longer dying or stable, dead.
pub(super) fn kill(b: &mut Battle, t: usize) {
    lose(b, t, Condition::Dying);
    lose(b, t, Condition::Stabilized);
    gain(b, t, Condition::Dead);
}

fn check_death(b: &mut Battle, t: usize) {
    let f = &b.fighters[t];
    let dead = match b.variant {
        RulesVariant::D20Classic => f.death_fails >= 3,
        RulesVariant::FourActions | RulesVariant::ApPhases => f.hp <= -f.def.abilities.con,
        RulesVariant::OsrSegments | RulesVariant::HexPhases => f.hp <= -10,
    };
    if dead {
        kill(b, t);
    } else if matches!(b.variant, RulesVariant::FourActions | RulesVariant::ApPhases)
        && f.hp < 0
        && !f.has(Condition::Stabilized)
    {
        gain(b, t, Condition::Dying);
    }
}

/// A dying fighter's turn: its death save, stabilising check or bleeding.
pub fn dying_turn(b: &mut Battle, i: usize) {
    let id = b.fighters[i].id.clone();
    match b.variant {
        RulesVariant::D20Classic => {
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
        RulesVariant::FourActions => {
            let f = &b.fighters[i];
            let dc = 10 + f.hp.abs();
            let (roll, bonus) = (b.dice.roll(20) as i32, f.fortitude());
            let success = roll + bonus >= dc;
            b.emit(CombatEvent::Save { unit: id, kind: "Fortitude (dying)".into(), roll, bonus, dc, success });
            if !success {
                b.fighters[i].hp -= 1;
                check_death(b, i);
            }
        }
        RulesVariant::ApPhases => {
            let f = &b.fighters[i];
            let (roll, bonus) = (b.dice.roll(20) as i32, f.con_mod() + f.hp);
            let success = roll + bonus >= 10;
            b.emit(CombatEvent::Save {
                unit: id,
                kind: "Constitution (stabilise)".into(),
                roll,
                bonus,
                dc: 10,
                success,
            });
            if success {
                lose(b, i, Condition::Dying);
                gain(b, i, Condition::Stabilized);
            } else {
                b.fighters[i].hp -= 1;
                check_death(b, i);
            }
        }
        RulesVariant::OsrSegments => {
            b.fighters[i].hp -= 1;
            b.emit(CombatEvent::Action { unit: id, action: "bleeds".into(), detail: "1 hp".into() });
            check_death(b, i);
        }
        RulesVariant::HexPhases => {}
    }
}

/// A straight, unobstructed charge line (2 squares to twice speed) to the nearest square
/// from which the charger threatens `t`.
fn charge_path(b: &Battle, a: usize, t: usize) -> Result<PathPlan, String> {
    let view = b.view();
    let fa = &b.fighters[a];
    let side = fa.size.side();
    let band = rules::ReachBand::of(fa.natural_reach_ft, &fa.weapon).ok_or("its weapon threatens nothing")?;
    let tf = b.fighters[t].footprint();
    let max_ft = fa.def.speed_ft * 2;
    let start = fa.pos;
    let metric = b.variant.move_metric();
    let mut best: Option<((u32, i32), GridPos, Vec<GridPos>)> = None;
    let centre = |p: GridPos| (2 * p.x + side, 2 * p.y + side);
    let (tx, ty) = (2 * tf.origin.x + tf.side, 2 * tf.origin.y + tf.side);
    let r = (max_ft / 5) as i32 + 1;
    for dy in -r..=r {
        for dx in -r..=r {
            let d = start.offset(dx, dy);
            let fp = Footprint::new(d, side);
            if d == start || !tf.cells().any(|c| band.covers(b.variant, fp, c)) {
                continue;
            }
            let cost = metric.cell_ft(start, d);
            // The closest space, and of equals the one most squarely facing the foe.
            let (cx, cy) = centre(d);
            let key = (cost, (cx - tx).pow(2) + (cy - ty).pow(2));
            if cost < 10 || cost > max_ft || best.as_ref().is_some_and(|(k, _, _)| key >= *k) {
                continue;
            }
            let line = crate::grid::straight_line(start, d);
            let clear = line.iter().all(|&p| {
                Footprint::new(p, side).cells().all(|c| {
                    let terrain = b.field.terrain.get(c);
                    terrain.passable() && !terrain.costs_double() && view.occupancy.at(c).is_none_or(|u| u == a)
                })
            });
            if clear {
                best = Some((key, d, line));
            }
        }
    }
    let ((cost, _), _, squares) =
        best.ok_or_else(|| format!("no straight, clear charge line to {}", b.fighters[t].id))?;
    let provokes = rules::movement::provocations_along(&view, a, &squares);
    Ok(PathPlan { squares, cost_ft: cost, provokes })
}

impl Battle {
    /// The first attack `a` would make on `t` from `from` (a charge's end), its position
    /// put back afterwards.
    fn attack_from(&mut self, a: usize, t: usize, from: GridPos, ctx: &AttackContext) -> attack::AttackProfile {
        let here = self.fighters[a].pos;
        self.fighters[a].pos = from;
        self.invalidate();
        self.refresh();
        let p = attack::profile(self, &self.view(), a, t, &AttackKind::Primary, ctx);
        self.fighters[a].pos = here;
        // The derived state back as it was, for whoever reads the view next.
        self.invalidate();
        self.refresh();
        p
    }
}

/// A charge: the straight move, then the attack with the variant's bonuses.
fn charge(b: &mut Battle, a: usize, t: usize, path: PathPlan) {
    let immune = if b.variant == RulesVariant::FourActions { Some(t) } else { None };
    walk(b, a, &path, "charge", immune);
    if !b.fighters[a].in_fight() {
        return;
    }
    let two_handed = b.fighters[a].weapon.hands == Hands::Two;
    let f = &mut b.fighters[a];
    let nums = super::variants::numbers(b.variant);
    let damage = if two_handed { nums.charge_damage_two_handed } else { nums.charge_damage };
    if damage != 0 {
        f.damage_bonus.push(("charge".into(), damage));
    }
    if nums.charge_defense != 0 {
        f.defense.push(("charging".into(), nums.charge_defense));
    }
    let ctx = AttackContext { charge: true };
    let full = b.variant == RulesVariant::D20Classic; // "they can make their attacks"
    attack_routine(b, a, t, AttackKind::Primary, full, &ctx);
    // The damage bonus lasts for the charge's attacks only.
    b.fighters[a].damage_bonus.retain(|(n, _)| n != "charge");
}

fn defend(b: &mut Battle, a: usize) {
    let id = b.fighters[a].id.clone();
    let (name, value) = super::variants::numbers(b.variant).defensive_action.clone();
    let detail = match b.variant {
        RulesVariant::D20Classic => format!("{value:+} dodge bonus to AC until its next turn"),
        RulesVariant::FourActions => format!("{value:+} to AC and saves for 1 round"),
        RulesVariant::HexPhases => format!("{value:+} DCV until its next phase"),
        RulesVariant::ApPhases => {
            b.clock.ap[a] = b.clock.ap[a].saturating_sub(1);
            b.clock.advanced[a] = Some(Advanced { action: AdvancedKind::TotalDefense, spent: 1, needed: 2 });
            b.emit(CombatEvent::Action { unit: id, action: "total defense".into(), detail: "begun (2 AP)".into() });
            return;
        }
        RulesVariant::OsrSegments => return,
    };
    b.fighters[a].defense.push((name.clone(), value));
    b.emit(CombatEvent::Action { unit: id, action: name, detail });
}

fn delay(b: &mut Battle, a: usize) {
    let id = b.fighters[a].id.clone();
    match b.variant {
        RulesVariant::D20Classic | RulesVariant::HexPhases => {
            // The new place in the order is at the end of this round (phase), and it stays.
            let last = b.clock.order.iter().map(|&i| b.fighters[i].initiative).min().unwrap_or(0);
            b.fighters[a].initiative = last - 1;
            b.clock.order.retain(|&i| i != a);
            b.clock.order.push(a);
            b.clock.queue.push(a);
            b.emit(CombatEvent::Action { unit: id, action: "delay".into(), detail: "acts last from now on".into() });
        }
        RulesVariant::OsrSegments => {
            let was_high = clock::osr_is_high(b, a);
            gain(b, a, Condition::Delayed);
            if was_high && b.clock.osr_step == OsrStep::High {
                b.emit(CombatEvent::Action {
                    unit: id,
                    action: "delay".into(),
                    detail: "acts with the LOW group".into(),
                });
            } else {
                b.clock.acted[a] = true;
                b.emit(CombatEvent::Action {
                    unit: id,
                    action: "delay".into(),
                    detail: "loses its major action".into(),
                });
            }
        }
        _ => {}
    }
}

/// ap-phases: an advanced action spends its next AP (consecutively) and completes. A
/// complex one provokes first, in every phase AP are spent on it.
pub fn continue_advanced(b: &mut Battle, i: usize) {
    let Some(mut adv) = b.clock.advanced[i].take() else { return };
    if b.clock.ap[i] == 0 {
        b.clock.advanced[i] = Some(adv);
        return;
    }
    if !variants::ap_phases::provoke_complex(b, i, &adv.action) {
        return;
    }
    b.clock.ap[i] -= 1;
    adv.spent += 1;
    if adv.spent < adv.needed {
        b.clock.advanced[i] = Some(adv);
        return;
    }
    let id = b.fighters[i].id.clone();
    match adv.action {
        AdvancedKind::Charge { target } => {
            let Some(t) = b.index_of(&target).filter(|&t| b.fighters[t].in_fight()) else {
                b.emit(CombatEvent::Spoiled {
                    unit: id,
                    action: "charge".into(),
                    reason: format!("{target} is out of the fight"),
                });
                return;
            };
            b.refresh();
            match charge_path(b, i, t) {
                Ok(path) => {
                    b.fighters[i].offense.retain(|(n, _)| n != "charge");
                    charge(b, i, t, path);
                    b.clock.attack_actions[i] += 1;
                }
                Err(reason) => b.emit(CombatEvent::Spoiled { unit: id, action: "charge".into(), reason }),
            }
        }
        AdvancedKind::Cast { spell, target, defensive } => magic::complete_advanced(b, i, &spell, &target, defensive),
        AdvancedKind::TotalDefense => {
            let bonus = if b.clock.attack_actions[i] > 0 { 2 } else { 4 };
            b.fighters[i].defense.push(("total defense".into(), bonus));
            b.emit(CombatEvent::Action {
                unit: id,
                action: "total defense".into(),
                detail: format!("+{bonus} dodge bonus to AC"),
            });
        }
        AdvancedKind::CoupDeGrace { target } => variants::ap_phases::coup_de_grace(b, i, &target),
        AdvancedKind::FirstAid { target } => variants::ap_phases::first_aid(b, i, &target),
    }
}

/// Standing up from prone; in a threatened square it provokes (d20-classic, ap-phases,
/// hex-phases).
fn stand(b: &mut Battle, a: usize) {
    if matches!(b.variant, RulesVariant::D20Classic | RulesVariant::ApPhases | RulesVariant::HexPhases) {
        provoke_threateners(b, a, "stands up");
        if !b.fighters[a].in_fight() {
            return;
        }
    }
    lose(b, a, Condition::Prone);
}

/// Loading a crossbow: a complex action in ap-phases and a provoking one in d20-classic
/// and hex-phases ("reload a gun").
fn reload(b: &mut Battle, a: usize) {
    if matches!(b.variant, RulesVariant::D20Classic | RulesVariant::ApPhases | RulesVariant::HexPhases) {
        provoke_threateners(b, a, "reloads");
        if !b.fighters[a].in_fight() {
            return;
        }
    }
    b.fighters[a].loaded = true;
    let id = b.fighters[a].id.clone();
    let name = b.fighters[a].weapon.name.clone();
    b.emit(CombatEvent::Action { unit: id, action: "reloads".into(), detail: name });
}

/// The combat maneuvers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Maneuver {
    Trip,
    Shove,
    Disarm,
    Grapple,
}

/// Trip, shove (push, bull rush) or disarm: d20-classic, a melee touch attack that
/// provokes, then opposed Strength (trip, shove; ±4 a size category) or Dexterity
/// (disarm, −4 if the provoked attack hurt), ties to the higher bonus; four-actions, an
/// Athletics check against the target's Reflex save (failure provokes); ap-phases, a
/// combat maneuver check against the target's CMD.
fn maneuver(b: &mut Battle, a: usize, t: usize, kind: Maneuver) {
    let shove = kind == Maneuver::Shove;
    let what = match kind {
        Maneuver::Trip => "trip",
        Maneuver::Shove => "shove",
        Maneuver::Disarm => "disarm",
        Maneuver::Grapple => "grapple",
    };
    let (aid, tid) = (b.fighters[a].id.clone(), b.fighters[t].id.clone());
    let hp_before = b.fighters[a].hp;
    let margin = match b.variant {
        RulesVariant::D20Classic => {
            opportunity(b, t, a, &format!("tries a {what}"));
            if !b.fighters[a].in_fight() {
                return;
            }
            b.refresh();
            let p = attack::profile(b, &b.view(), a, t, &AttackKind::Primary, &AttackContext::default());
            let f = &b.fighters[t];
            let touch = p.target_number - f.def.armor - f.def.shield - f.def.natural_armor;
            let roll = b.dice.roll(20) as i32;
            let hit = roll + p.bonus() >= touch;
            b.emit(CombatEvent::Attack {
                attacker: aid.clone(),
                target: tid.clone(),
                kind: format!("{what} (touch attack) on"),
                die: "d20".into(),
                rolls: vec![roll],
                modifiers: p.modifiers.clone(),
                total: roll + p.bonus(),
                target_number: touch,
                hit,
                critical: false,
            });
            if !hit {
                return;
            }
            let size = |i: usize| -4 * b.fighters[i].size.size_modifier().clamp(-2, 2);
            let grapple_bonus = |i: usize| b.fighters[i].def.base_attack + b.fighters[i].str_mod() + size(i);
            let (ba, bt) = if kind == Maneuver::Grapple {
                (grapple_bonus(a) + if b.fighters[a].hp < hp_before { -4 } else { 0 }, grapple_bonus(t))
            } else if kind != Maneuver::Disarm {
                (b.fighters[a].str_mod() + size(a), b.fighters[t].str_mod() + size(t))
            } else {
                let hurt = if b.fighters[a].hp < hp_before { -4 } else { 0 };
                (b.fighters[a].dex_mod() + hurt, b.fighters[t].dex_mod())
            };
            let (ra, rt) = (b.dice.roll(20) as i32, b.dice.roll(20) as i32);
            let check = match kind {
                Maneuver::Disarm => "Dexterity",
                Maneuver::Grapple => "grapple",
                _ => "Strength",
            };
            b.emit(CombatEvent::Save {
                unit: tid.clone(),
                kind: format!("opposed {check} vs {aid}'s {}", ra + ba),
                roll: rt,
                bonus: bt,
                dc: ra + ba,
                success: (rt + bt, bt) >= (ra + ba, ba),
            });
            // A tie goes to the higher bonus (the defender if equal).
            if (ra + ba, ba) > (rt + bt, bt) { (ra + ba) - (rt + bt) } else { -1 }
        }
        RulesVariant::FourActions => {
            let (ra, rt) = (b.dice.roll(20) as i32, b.dice.roll(20) as i32);
            let ba = b.fighters[a].str_mod() + b.fighters[a].def.base_attack / 2;
            let bt = b.fighters[t].reflex();
            let won = ra + ba >= rt + bt;
            b.emit(CombatEvent::Save {
                unit: tid.clone(),
                kind: format!("Reflex vs {aid}'s Athletics {}", ra + ba),
                roll: rt,
                bonus: bt,
                dc: ra + ba,
                success: !won,
            });
            if !won {
                opportunity(b, t, a, &format!("fails a {what}"));
                return;
            }
            // "moves both the pusher and the target up to half speed": 5 ft here.
            0
        }
        _ => {
            let f = &b.fighters[a];
            let size = |i: usize| -b.fighters[i].size.size_modifier().clamp(-2, 2);
            let cmb = f.def.base_attack + f.str_mod() + size(a) - 5 * b.clock.attack_actions[a] as i32;
            let g = &b.fighters[t];
            let cmd = 10 + g.def.base_attack + g.str_mod() + g.dex_mod() + size(t);
            b.clock.attack_actions[a] += 1;
            let roll = b.dice.roll(20) as i32;
            b.emit(CombatEvent::Attack {
                attacker: aid.clone(),
                target: tid.clone(),
                kind: format!("{} (combat maneuver) on", if shove { "bull rush" } else { what }),
                die: "d20".into(),
                rolls: vec![roll],
                modifiers: vec![Modifier::new("combat maneuver bonus", cmb)],
                total: roll + cmb,
                target_number: cmd,
                hit: roll + cmb >= cmd,
                critical: false,
            });
            roll + cmb - cmd
        }
    };
    if margin < 0 {
        return;
    }
    if kind == Maneuver::Trip {
        gain(b, t, Condition::Prone);
    } else if kind == Maneuver::Grapple {
        gain(b, a, Condition::Grappled);
        gain(b, t, Condition::Grappled);
        b.fighters[a].grappling = Some(t);
        b.fighters[t].grappling = Some(a);
        b.fighters[a].holds_grapple = true;
    } else if shove {
        // 5 ft straight away from the attacker, and 5 more for every 5 the check won by.
        let squares = 1 + if b.variant == RulesVariant::FourActions { 0 } else { margin / 5 };
        let (fa, ft) = (b.fighters[a].footprint(), b.fighters[t].footprint());
        let dx = (2 * ft.origin.x + ft.side - 2 * fa.origin.x - fa.side).signum();
        let dy = (2 * ft.origin.y + ft.side - 2 * fa.origin.y - fa.side).signum();
        let mut moved = Vec::new();
        for _ in 0..squares {
            b.refresh();
            let next = b.fighters[t].pos.offset(dx, dy);
            let fp = Footprint::new(next, ft.side);
            let view = b.view();
            let free =
                fp.cells().all(|c| b.field.terrain.get(c).passable() && view.occupancy.at(c).is_none_or(|u| u == t));
            if !free {
                break;
            }
            b.fighters[t].pos = next;
            b.invalidate();
            moved.push(next);
        }
        if !moved.is_empty() {
            let cost = 5 * moved.len() as u32;
            b.emit(CombatEvent::Moved { unit: tid, path: moved, cost_ft: cost, kind: "pushed back".into() });
        }
    } else {
        b.fighters[t].weapon = b.unarmed.clone();
        b.fighters[t].weapon_id = "unarmed".into();
        b.invalidate();
        b.emit(CombatEvent::Action { unit: tid, action: "is disarmed".into(), detail: "its weapon drops".into() });
    }
}
