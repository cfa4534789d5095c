//! hex-phases (source 004): 12-second turns of 4 phases in combat-value order; attack +
//! move, two moves or a full-phase action per phase; 3d6 + OCV against 10 + DCV; delay,
//! ready and abort; post-turn recovery.

use super::prelude::*;
use crate::combat::fighter::{Bonuses, DODGE};
use crate::combat::schedule::TimeMoves;
use crate::combat::schedule::clock::{WindowOpens, round_cap};
use crate::combat::struck::{AttackedSchedule, BeforeAttack, UnderAttack};
use crate::combat::time::Clock;
use crate::rules::{Awareness, Battlefield};

pub use crate::combat::kept::{Abort, PhaseActions};

/// Fighter `i`'s abort as it stands (none in a battle of another variant).
pub fn abort<'b>(b: &'b Battle, i: usize) -> &'b Abort {
    static NONE: Abort = Abort { order: None, locked: false, skip: None };
    b.economy::<Abort>(i).unwrap_or(&NONE)
}

/// A fighter about to be attacked may abort to a dodge (+3 DCV), giving up
/// its action in this phase if its initiative has not come, else its next phase's; it
/// may not abort again until its next action. Whether it does is its standing order, or
/// without one, whether it is down to half its hit points or fewer.
fn abort_to_dodge(
    attacked: Res<UnderAttack>,
    field: Res<Battlefield>,
    mut fighters: Query<(&Combatant, &Health, &Conditions, &mut Bonuses, &mut Abort)>,
    mut clock: ResMut<Clock>,
    mut log: ResMut<EventLog>,
) {
    let Ok((who, health, conditions, mut bonuses, mut abort)) = fighters.get_mut(attacked.target) else { return };
    let wants = abort.when_attacked(health);
    let dodging = bonuses.has(DODGE);
    if !wants || dodging || abort.locked || !conditions.can_act() || conditions.has(Condition::Surprised) {
        return;
    }
    let t = attacked.target;
    if clock.actor == Some(t) {
        return;
    }
    let detail = if clock.queue.contains(&t) {
        clock.queue.retain(|&e| e != t);
        "+3 DCV; gives up its action this phase".to_string()
    } else {
        let (turn, phase) = (clock.round, clock.phase);
        let next = if phase >= 4 { (turn + 1, 1) } else { (turn, phase + 1) };
        abort.skip = Some(next);
        format!("+3 DCV; gives up its action in phase {} of turn {}", next.1, next.0)
    };
    abort.locked = true;
    bonuses.defense.push((DODGE.into(), field.variant.numbers().abort_dodge));
    log.push(CombatEvent::Action { unit: who.id.clone(), action: "aborts to a dodge".into(), detail });
}

/// The standing order: whether to abort to a dodge when attacked.
fn give_abort_order(turn: Res<Turn>, mut fighters: Query<(&Combatant, &mut Abort)>, mut log: ResMut<EventLog>) {
    let Some((me, plan)) = turn.accepted() else { return };
    let Command::AbortOrder { on } = plan.command else { return };
    let Ok((who, mut abort)) = fighters.get_mut(me) else { return };
    abort.order = Some(on);
    let detail = if on { "will abort to a dodge when attacked, giving up its next action" } else { "will not abort" };
    log.push(CombatEvent::Action { unit: who.id.clone(), action: "abort order".into(), detail: detail.into() });
}

/// The surprise phase opens: "characters who are unaware at the start of battle don't get
/// to act in the Surprise Phase"; those aware act in it, in initiative order.
fn open_surprise_phase(awareness: Query<&Awareness>, window: WindowOpens) {
    let (mut clock, _, mut log) = window.open();
    clock.surprise_pending = false;
    clock.surprise = true;
    clock.phase = 0;
    log.push(CombatEvent::PhaseStarted { round: 0, phase: 0, name: "surprise phase".into() });
    clock.queue = clock.order.iter().copied().filter(|&e| awareness.get(e).is_ok_and(|a| a.aware)).collect();
}

/// "... and have a -3 DCV penalty during that Phase": the unaware are Surprised through it.
fn unaware_are_surprised(mut fighters: Query<(&Awareness, &mut Conditions)>) {
    unaware_are(Condition::Surprised, &mut fighters);
}

/// The surprise phase over, nobody is Surprised any more.
fn surprise_phase_ends(
    seats: Res<Combatants>,
    mut fighters: Query<(&Combatant, &mut Conditions)>,
    mut clock: ResMut<Clock>,
    mut log: ResMut<EventLog>,
) {
    clock.surprise = false;
    lose_in_each(&seats, &mut fighters, &mut log, Condition::Surprised, false);
}

/// "After every Phase 4, before the next Turn begins, there is a 'Post-Turn' period which
/// takes no time. At this time most characters automatically get to Take a Recovery": the
/// stunned still in the fight recover.
fn post_turn_recovery(
    seats: Res<Combatants>,
    mut fighters: Query<(&Combatant, &mut Conditions)>,
    clock: Res<Clock>,
    mut log: ResMut<EventLog>,
) {
    log.push(CombatEvent::PhaseStarted { round: clock.round, phase: 5, name: "post-turn recovery".into() });
    lose_in_each(&seats, &mut fighters, &mut log, Condition::Stunned, true);
}

/// Opens the next phase of the 12-second turn (a new turn after the fourth), everyone in
/// combat-value order.
fn next_phase_of_turn(window: WindowOpens) {
    let (mut clock, mut record, mut log) = window.open();
    if clock.phase == 0 || clock.phase >= 4 {
        clock.round += 1;
        clock.phase = 1;
        clock.surprise = false;
        log.push(CombatEvent::RoundStarted { round: clock.round });
        round_cap(&mut clock, &mut record, &mut log);
    } else {
        clock.phase += 1;
    }
    let (r, p) = (clock.round, clock.phase);
    log.push(CombatEvent::PhaseStarted { round: r, phase: p, name: format!("phase {p} of 4") });
    clock.queue = clock.order.clone();
}

/// A new turn: the reactions each fighter counts by the turn start again.
fn reactions_each_turn(mut reactions: Query<&mut Reactions>) {
    for mut reactions in &mut reactions {
        clock::new_round(&mut reactions);
    }
}

/// "An attack of opportunity is a single melee attack, and you can only make one per
/// Phase"; and "moving out of more than one hex threatened by the same opponent in the same
/// Phase doesn't count as more than one opportunity".
fn one_attack_of_opportunity_a_phase(mut reactions: Query<&mut Reactions>) {
    for mut reactions in &mut reactions {
        reactions.used = 0;
        reactions.free_attacked_by.clear();
    }
}

/// An abort in the phase before gave this phase's action up: those who aborted are out of
/// this phase's order.
fn aborted_last_phase(
    seats: Res<Combatants>,
    mut fighters: Query<(&Combatant, &mut Abort)>,
    mut clock: ResMut<Clock>,
    mut log: ResMut<EventLog>,
) {
    let now = (clock.round, clock.phase);
    for &e in &seats.0 {
        let Ok((who, mut abort)) = fighters.get_mut(e) else { continue };
        if abort.skip.is_some_and(|s| s <= now) {
            abort.skip = None;
            clock.queue.retain(|&q| q != e);
            log.push(CombatEvent::Action {
                unit: who.id.clone(),
                action: "has no action".into(),
                detail: "it aborted to a dodge last phase".into(),
            });
        }
    }
}

/// Each fighter (each still in the fight, if `in_fight_only`) loses `condition`, in id
/// order, with a line in the log for each who had it.
fn lose_in_each(
    seats: &Combatants,
    fighters: &mut Query<(&Combatant, &mut Conditions)>,
    log: &mut EventLog,
    condition: Condition,
    in_fight_only: bool,
) {
    for &e in &seats.0 {
        let Ok((who, mut conditions)) = fighters.get_mut(e) else { continue };
        if (!in_fight_only || conditions.in_fight()) && conditions.remove(condition) {
            log.push(CombatEvent::ConditionLost { unit: who.id.clone(), condition });
        }
    }
}

/// The one acting has taken at most two move actions this phase ("an attack action and a
/// move action, or two move actions").
fn at_most_two_moves_a_phase(
    clock: Res<Clock>,
    fighters: Query<(&Combatant, &crate::combat::fighter::Economy)>,
    mut broken: ResMut<Broken>,
) {
    broken.found(|| {
        let (who, economy) = fighters.get(clock.actor?).ok()?;
        let moves = economy.budget.own::<PhaseActions>().moves_used;
        (moves > 2).then(|| format!("{}: {moves} move actions in one phase", who.id))
    });
}

/// This variant's rules, as the engine calls them.
pub(crate) struct HexPhases;

impl VariantRules for HexPhases {
    /// What an action costs this variant's combatant, or why it may not be taken: the
    /// budget after it, and the attack's penalty slot.
    fn spend(&self, b: &Battle, actor: usize, budget: &Budget, cmd: &Command) -> Result<(Budget, AttackKind), String> {
        let mut n = budget.clone();
        n.fresh = false;
        let kind = AttackKind::Primary;
        if let Command::AbortOrder { on } = cmd {
            // A free action: nothing spent.
            return if abort(b, actor).order == Some(*on) {
                Err(format!("the order is already {}", if *on { "on" } else { "off" }))
            } else {
                Ok((budget.clone(), kind))
            };
        }
        let used = budget.own::<PhaseActions>();
        let now = n.own_mut::<PhaseActions>();
        match cmd {
            Command::AbortOrder { .. } | Command::Declare { .. } => {} // settled above
            Command::Move { .. } => {
                let max_moves = if used.attack_used { 1 } else { 2 };
                if budget.stepped {
                    return Err("no moving in a phase with a 1-hex step".into());
                }
                if budget.single_action && !budget.fresh {
                    return Err("the surprise phase allows a single action".into());
                }
                if used.moves_used >= max_moves {
                    return Err("no move action left this phase".into());
                }
                now.moves_used += 1;
                n.moved = true;
            }
            Command::Step { .. } => {
                if budget.moved || budget.stepped {
                    return Err("a 1-hex step is only for a phase without other movement".into());
                }
                n.stepped = true;
            }
            // The source has no magic: casting takes the attack action.
            Command::Attack { .. } | Command::FullAttack { .. } | Command::Defend | Command::Cast { .. } => {
                if used.attack_used || used.moves_used > 1 {
                    return Err("the attack action is spent".into());
                }
                if budget.single_action && !budget.fresh {
                    return Err("the surprise phase allows a single action".into());
                }
                now.attack_used = true;
            }
            Command::Charge { .. } => return Err("hex-phases has no charge (move, then attack)".into()),
            Command::Stand | Command::Reload => {
                let max_moves = if used.attack_used { 1 } else { 2 };
                if used.moves_used >= max_moves {
                    return Err("standing up takes a move action, and none is left".into());
                }
                now.moves_used += 1;
            }
            // Readying is an attack action.
            Command::Hold { .. } => {
                if used.attack_used || used.moves_used > 1 {
                    return Err("the attack action is spent".into());
                }
                now.attack_used = true;
            }
            Command::Trip { .. }
            | Command::Stance { .. }
            | Command::Guard
            | Command::Focus
            | Command::Shove { .. }
            | Command::Disarm { .. }
            | Command::Grapple { .. }
            | Command::Escape
            | Command::Dash { .. }
            | Command::Tumble { .. }
            | Command::Wrestle { .. }
            | Command::CoupDeGrace { .. }
            | Command::FirstAid { .. } => {
                return Err("hex-phases has no such manoeuvre here".into());
            }
            Command::Delay => {
                if !budget.fresh {
                    return Err("delay only before acting".into());
                }
                n = Budget::default();
            }
            Command::EndTurn => n = Budget::default(),
        };
        Ok((n, kind))
    }
    /// What a combatant may do when its opportunity opens.
    fn fresh_budget(&self, b: &Battle, _i: usize) -> Budget {
        Budget { fresh: true, single_action: b.clock.surprise, ..Budget::default() }
    }
    fn may_react(&self, b: &Battle, reactor: usize, mover: usize, allowance: u32) -> bool {
        // None after a dodge; one per foe a phase however often it is left.
        let f = b.fighters.at(reactor);
        f.reactions().used < allowance
            && !f.bonuses().has(DODGE)
            && !f.reactions().free_attacked_by.contains(&b.fighters.combatant[mover].id)
    }
}

/// OCV: combat value + half the base attack bonus (rounded down).
pub fn ocv(stats: &Stats) -> i32 {
    combat_value(stats) + stats.def.base_attack.div_euclid(2)
}

/// The attack roll is 3d6 + OCV against 10 + DCV: OCV, the attacker's own bonuses, the
/// target unaware (−3 DCV) or in partial cover (+2 DCV, `cover_term`), the target's
/// defences; then the DCV itself, the target's combat value and its shield, and the 10.
fn add_attack_modifiers(app: &mut App) {
    app.add_modifier(offensive_combat_value)
        .add_modifier(modifiers::offense)
        .add_modifier(target_unaware)
        .add_modifier(modifiers::cover)
        .add_modifier(modifiers::defense)
        .add_modifier(defensive_combat_value)
        .add_modifier(shield)
        .add_modifier(ten_plus_dcv);
    // Damage is the weapon's dice: no Strength.
    app.add_modifier(modifiers::damage_bonuses).add_modifier(modifiers::untrained_damage);
}

fn offensive_combat_value(InMut(at): Weighed, stats: Query<&Stats>) {
    if let Ok(s) = stats.get(at.attacker) {
        at.push("OCV", ocv(s));
    }
}

/// An unaware target is at −3 DCV.
fn target_unaware(InMut(at): Weighed, conditions: Query<&Conditions>) {
    if conditions.get(at.target).is_ok_and(|c| c.has(Condition::Surprised)) {
        at.push("target unaware (-3 DCV)", 3);
    }
}

/// The target's combat value, the first part of its DCV.
fn defensive_combat_value(InMut(at): Weighed, stats: Query<&Stats>) {
    if let Ok(s) = stats.get(at.target) {
        at.target_number += combat_value(s);
    }
}

/// The target's shield, the second part of its DCV.
fn shield(InMut(at): Weighed, stats: Query<&Stats>) {
    if let Ok(s) = stats.get(at.target) {
        at.target_number += s.def.shield;
    }
}

/// The number to reach: 10 + the DCV its parts came to.
fn ten_plus_dcv(InMut(at): Weighed) {
    let dcv = at.target_number;
    at.target_number = 10 + dcv;
    at.against = format!("10 + DCV {dcv}");
}

/// hex-phases in the rules schedule: delaying holds the phase's action until after the
/// others; the phase ends after an attack and a move, two moves, or the surprise phase's
/// one action.
pub struct HexPhasesPlugin;

impl Plugin for HexPhasesPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(InvariantsSchedule, at_most_two_moves_a_phase.in_set(OwnInvariants));
        keep_each::<Abort>(app);
        own_budget::<PhaseActions>(app);
        add_attack_modifiers(app);
        app.add_systems(
            RulesSchedule,
            (
                crate::combat::schedule::delay_to_end_of_order.in_set(Slot::Delay),
                give_abort_order.in_set(Slot::Orders),
                pass_turn_when(phase_actions_spent).in_set(Passing::Spent),
            ),
        );
        // One rule a system, each only while the window is still to open: the surprise
        // phase first, else its end, the post-turn recovery after phase 4, and the phase
        // (each condition on a chain is tested once, before its first system runs).
        app.add_systems(
            ClockSchedule,
            (initiative_is_combat_value.in_set(RollsInitiative), may_abort_again.in_set(Opening::GivenBack)),
        );
        app.add_systems(TakenSchedule, held_action_goes_before_trigger.in_set(CountTaken));
        app.add_systems(AttackedSchedule, abort_to_dodge.in_set(BeforeAttack));
        app.add_systems(
            ClockSchedule,
            (
                (open_surprise_phase, unaware_are_surprised).chain().run_if(|clock: Res<Clock>| clock.surprise_pending),
                surprise_phase_ends.run_if(|time: Res<TimeMoves>, clock: Res<Clock>| time.window_due && clock.surprise),
                post_turn_recovery
                    .run_if(|time: Res<TimeMoves>, clock: Res<Clock>| time.window_due && clock.phase >= 4),
                (
                    next_phase_of_turn,
                    reactions_each_turn.run_if(|clock: Res<Clock>| clock.phase == 1),
                    one_attack_of_opportunity_a_phase,
                    aborted_last_phase,
                )
                    .chain()
                    .run_if(|time: Res<TimeMoves>| time.window_due),
            )
                .chain()
                .in_set(ClockStep::Window),
        );
    }
}

/// Initiative is the combat value; ties are broken once, now, by the seeded dice.
fn initiative_is_combat_value(mut initiatives: Initiatives) {
    initiatives.fixed(combat_value, "(combat value)");
}

/// A held action's taker goes just before its trigger in the order. "If you take your
/// readied action in the next Phase, before your regular turn comes up, … you do not get
/// your regular action that Phase."
fn held_action_goes_before_trigger(
    taken: Res<TakenInStrike>,
    seats: Res<Combatants>,
    mut initiatives: Query<&mut Initiative>,
    mut clock: ResMut<Clock>,
) {
    for by in held_action_takers_move(&taken, &seats, &mut initiatives, &mut clock, |trigger| trigger + 1) {
        clock.queue.retain(|&e| e != by);
    }
}

/// A fighter whose opportunity opens acts: it may abort again.
fn may_abort_again(called: Res<Called>, mut aborts: Query<&mut Abort>) {
    if let Some(e) = called.opening()
        && let Ok(mut abort) = aborts.get_mut(e)
    {
        abort.locked = false;
    }
}

/// An attack and a move, two moves, or the surprise phase's one action.
fn phase_actions_spent(budget: &Budget) -> bool {
    let used = budget.own::<PhaseActions>();
    (used.attack_used && used.moves_used >= 1) || used.moves_used >= 2 || (budget.single_action && !budget.fresh)
}

/// Combat value: Dexterity / 3, rounded.
pub fn combat_value(stats: &Stats) -> i32 {
    (stats.def.abilities.dex as f64 / 3.0).round() as i32
}
