//! ap-phases (source 000): 3 action points a round (2 in the surprise round), seven
//! action phases from declaration to very slow, weapon speed deciding the earliest attack
//! phase, advanced actions over consecutive AP. Its complex advanced actions (a coup de
//! grace, first aid) provoke attacks of opportunity in every phase AP are spent on them,
//! and are resolved here once the last AP is spent.

use super::Criticals;
use super::prelude::*;
use crate::combat::clock::{Advanced, AdvancedKind};
use crate::combat::resolve::{deal_damage, gain, kill, lose, provoke_threateners};
use crate::level::ability_mod;

/// "Creatures receive 3 action points to use during any standard combat round."
pub const ACTION_POINTS: u8 = 3;

/// An advanced action in progress, in words.
pub(crate) fn advanced_name(action: &AdvancedKind) -> String {
    match action {
        AdvancedKind::Charge { target } => format!("charging {target}"),
        AdvancedKind::TotalDefense => "total defense".into(),
        AdvancedKind::Cast { spell, target, .. } => format!("casting {spell} on {target}"),
        AdvancedKind::CoupDeGrace { target } => format!("coup de grace on {target}"),
        AdvancedKind::FirstAid { target } => format!("first aid for {target}"),
    }
}

/// What an action costs this variant's combatant, or why it may not be taken: the
/// budget after it, and the attack's penalty slot.
pub(crate) fn spend(b: &Battle, actor: usize, budget: &Budget, cmd: &Command) -> Result<(Budget, AttackKind), String> {
    let mut n = budget.clone();
    n.fresh = false;
    n.continuing = false;
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
    // Advanced actions need only their first AP now: the rest follow phase by phase,
    // into the next round if need be.
    if ap < 1 {
        return Err("no action points left this round".into());
    }
    if matches!(
        cmd,
        Command::Attack { .. }
            | Command::FullAttack { .. }
            | Command::Trip { .. }
            | Command::Shove { .. }
            | Command::Disarm { .. }
    ) {
        // "Total Defense … Until the start of your next round of actions, you can't take
        // actions with the attack subtype."
        if b.fighters[actor].defense.iter().any(|(name, _)| name == "total defense") {
            return Err("in total defense: no attack actions until its next round of actions".into());
        }
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
                ACTION_POINTS
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
    // The dying (no AP) roll to stabilise in the first phase that has actions.
    let dying = |i: usize| b.fighters[i].has(Condition::Dying) && b.fighters[i].alive();
    b.clock.queue = if p == 1 {
        vec![]
    } else {
        b.clock.order.iter().copied().filter(|&i| b.clock.ap[i] > 0 || (p == 2 && dying(i))).collect()
    };
}

/// What a combatant may do when its opportunity opens.
pub(crate) fn fresh_budget(_b: &Battle, _i: usize) -> Budget {
    Budget { phase_action: true, fresh: true, ..Budget::default() }
}

/// The complex advanced actions: what each is called, what a foe sees it do (the trigger
/// of its attacks of opportunity) and the AP it needs.
fn complex_action(cmd: &Command) -> Option<(AdvancedKind, &'static str, &'static str, u8)> {
    match cmd {
        Command::CoupDeGrace { target } => {
            Some((AdvancedKind::CoupDeGrace { target: target.clone() }, "coup de grace", "delivers a coup de grace", 3))
        }
        Command::FirstAid { target } => {
            Some((AdvancedKind::FirstAid { target: target.clone() }, "first aid", "gives first aid", 2))
        }
        _ => None,
    }
}

/// Whether an advanced action is complex (provokes in every phase AP go into it), and
/// what a foe sees it do.
fn complex_trigger(action: &AdvancedKind) -> Option<&'static str> {
    match action {
        AdvancedKind::Charge { .. } | AdvancedKind::TotalDefense => None,
        // Casting is complex too, but provokes through `combat::magic`, which follows
        // the provocation with a concentration check (and skips it when cast defensively).
        AdvancedKind::Cast { .. } => None,
        AdvancedKind::CoupDeGrace { .. } => Some("delivers a coup de grace"),
        AdvancedKind::FirstAid { .. } => Some("gives first aid"),
    }
}

/// Whether `a` may deliver a coup de grace to `t` (`coup`) or give it first aid, as the
/// board stands. Call [`Battle::refresh`] first.
fn complex_target(b: &Battle, a: usize, t: usize, coup: bool) -> Result<(), String> {
    let (fa, ft) = (&b.fighters[a], &b.fighters[t]);
    if !ft.alive() {
        return Err(format!("{} is dead", ft.id));
    }
    let apart = b.variant.range_metric().footprint_ft(fa.footprint(), ft.footprint());
    if coup {
        if ft.side == fa.side {
            return Err(format!("{} is not a foe", ft.id));
        }
        // Helpless here: unconscious, which covers the dying and the stabilised.
        if !ft.has(Condition::Unconscious) {
            return Err(format!("{} is not helpless", ft.id));
        }
        if fa.weapon.is_ranged() {
            if apart > 5 {
                return Err(format!("with a ranged weapon, {} must be adjacent", ft.id));
            }
            if fa.weapon.reload && !fa.loaded {
                return Err(format!("the {} is not loaded", fa.weapon.name.to_lowercase()));
            }
        } else if !b.view().threat.threatens(a, ft.footprint()) {
            return Err(format!("{} is not within reach", ft.id));
        }
    } else {
        if a == t || ft.side != fa.side {
            return Err(format!("{} is not an ally", ft.id));
        }
        if !ft.has(Condition::Dying) {
            return Err(format!("{} is not dying", ft.id));
        }
        if apart > 5 {
            return Err(format!("{} is not adjacent", ft.id));
        }
    }
    Ok(())
}

/// Whether a coup de grace or first aid on `target` is legal for `a` now (its cost is
/// `spend`'s).
pub(crate) fn check_complex(b: &Battle, a: usize, cmd: &Command, target: &str) -> Result<(), String> {
    let t = b.index_of(target).ok_or_else(|| format!("no unit \"{target}\""))?;
    complex_target(b, a, t, matches!(cmd, Command::CoupDeGrace { .. }))
}

/// Declares a complex advanced action: threatening foes strike first, then its first AP
/// goes in (`Battle::execute` spends it); the rest follow in the next phases.
pub(crate) fn begin_complex(b: &mut Battle, a: usize, cmd: &Command) {
    let Some((action, name, trigger, needed)) = complex_action(cmd) else { return };
    provoke_threateners(b, a, trigger);
    let id = b.fighters[a].id.clone();
    if !b.fighters[a].in_fight() {
        b.emit(CombatEvent::Spoiled { unit: id, action: name.into(), reason: "struck down first".into() });
        return;
    }
    let target = match &action {
        AdvancedKind::CoupDeGrace { target } | AdvancedKind::FirstAid { target } => target.clone(),
        _ => String::new(),
    };
    b.clock.advanced[a] = Some(Advanced { action, spent: 1, needed });
    b.emit(CombatEvent::Action { unit: id, action: name.into(), detail: format!("begun on {target} ({needed} AP)") });
}

/// Before another AP goes into an advanced action: a complex one provokes every
/// threatening foe. False if that struck the actor down (the action is lost).
pub(crate) fn provoke_complex(b: &mut Battle, a: usize, action: &AdvancedKind) -> bool {
    let Some(trigger) = complex_trigger(action) else { return true };
    provoke_threateners(b, a, trigger);
    if b.fighters[a].in_fight() {
        return true;
    }
    let id = b.fighters[a].id.clone();
    b.emit(CombatEvent::Spoiled { unit: id, action: trigger.into(), reason: "struck down first".into() });
    false
}

/// The coup de grace, its 3 AP spent: an automatic hit and a confirmed critical; a foe
/// that survives the damage makes a Fortitude save (DC 10 + the damage dealt) or dies.
pub(crate) fn coup_de_grace(b: &mut Battle, a: usize, target: &str) {
    let id = b.fighters[a].id.clone();
    let Some(t) = b.index_of(target) else { return };
    b.refresh();
    if let Err(reason) = complex_target(b, a, t, true) {
        b.emit(CombatEvent::Spoiled { unit: id, action: "coup de grace".into(), reason });
        return;
    }
    b.emit(CombatEvent::Action {
        unit: id,
        action: "coup de grace".into(),
        detail: format!("on {target}: an automatic hit and a confirmed critical"),
    });
    b.stats.attacks += 1;
    b.stats.hits += 1;
    b.stats.criticals += 1;
    let f = &mut b.fighters[a];
    if f.weapon.reload {
        f.loaded = false;
    }
    let melee = !f.weapon.is_ranged();
    let dealt = deal_damage(b, a, t, true, melee);
    if !b.fighters[t].alive() {
        return;
    }
    let bonus = b.fighters[t].fortitude();
    if !b.check(t, "Fortitude (coup de grace)", bonus, 10 + dealt) {
        kill(b, t);
    }
}

/// First aid, its 2 AP spent: a Heal check (d20 + Wisdom) against DC 15 stabilises a
/// dying ally.
pub(crate) fn first_aid(b: &mut Battle, a: usize, target: &str) {
    let id = b.fighters[a].id.clone();
    let Some(t) = b.index_of(target) else { return };
    b.refresh();
    if let Err(reason) = complex_target(b, a, t, false) {
        b.emit(CombatEvent::Spoiled { unit: id, action: "first aid".into(), reason });
        return;
    }
    let bonus = ability_mod(b.fighters[a].def.abilities.wis);
    if b.check(a, format!("Heal (Wisdom), first aid on {target}"), bonus, FIRST_AID_DC) {
        lose(b, t, Condition::Dying);
        gain(b, t, Condition::Stabilized);
    }
}

/// The Heal check that stabilises a dying creature.
const FIRST_AID_DC: i32 = 15;

/// This variant's rules, as the engine calls them.
pub(crate) struct ApPhases;

impl VariantRules for ApPhases {
    fn spend(&self, b: &Battle, actor: usize, budget: &Budget, cmd: &Command) -> Result<(Budget, AttackKind), String> {
        spend(b, actor, budget, cmd)
    }
    fn fresh_budget(&self, b: &Battle, i: usize) -> Budget {
        fresh_budget(b, i)
    }
    fn open_window(&self, b: &mut Battle) {
        open_window(b);
    }
    fn exhausted(&self, budget: &Budget) -> bool {
        !budget.phase_action
    }
    fn defensive_casting(&self) -> bool {
        true
    }
    fn may_react(&self, b: &Battle, reactor: usize, _mover: usize, allowance: u32) -> bool {
        // "only one free action or reaction … during any action phase"
        let f = &b.fighters[reactor];
        f.reactions_used < 1 && f.reactions_round < allowance
    }
    fn dying_when_dropped(&self, f: &Fighter) -> bool {
        f.hp < 0
    }
    fn dead(&self, f: &Fighter) -> bool {
        f.hp <= -f.def.abilities.con
    }
    fn dying_below_zero(&self) -> bool {
        true
    }
    fn dying_turn(&self, b: &mut Battle, i: usize) {
        let id = b.fighters[i].id.clone();
        let f = &b.fighters[i];
        let (roll, bonus) = (b.dice.roll(20) as i32, f.con_mod() + f.hp);
        let success = roll + bonus >= 10;
        b.emit(CombatEvent::Save { unit: id, kind: "Constitution (stabilise)".into(), roll, bonus, dc: 10, success });
        if success {
            lose(b, i, Condition::Dying);
            gain(b, i, Condition::Stabilized);
        } else {
            b.fighters[i].hp -= 1;
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
