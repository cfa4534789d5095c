//! ap-phases (source 000): 3 action points a round (2 in the surprise round), seven
//! action phases from declaration to very slow, weapon speed deciding the earliest attack
//! phase, advanced actions over consecutive AP. Its complex advanced actions (a coup de
//! grace, first aid) provoke attacks of opportunity in every phase AP are spent on them,
//! and are resolved here once the last AP is spent.

use super::prelude::*;
use crate::combat::fighter::Bonuses;
use crate::combat::schedule::clock::{WindowOpens, round_cap};
use crate::level::{WeaponKind, WeaponSpeed};
use crate::rules::{Awareness, Body, Combatant, Conditions, Stats};
use bevy::prelude::{Entity, World};

mod advanced;
mod grapple;
mod maneuvers;
mod plugin;

pub use crate::combat::kept::{ActionPoints, Advanced, AdvancedKind, PhaseAction};
pub use plugin::ApPhasesPlugin;

pub(crate) use advanced::check_complex;
pub(super) use maneuvers::lost_by_ten_backfires;

/// "Creatures receive 3 action points to use during any standard combat round."
pub const ACTION_POINTS: u8 = 3;

/// "Creatures are limited to using 2 action points during a surprise round."
const SURPRISE_ACTION_POINTS: u8 = 2;

/// The action points an aware fighter able to act has at the start of a round.
fn round_allowance(surprise: bool) -> u8 {
    if surprise { SURPRISE_ACTION_POINTS } else { ACTION_POINTS }
}

/// Names of the action phases.
pub const AP_PHASES: [&str; 7] = ["declaration", "ready missile", "thrown", "fast", "average", "slow", "very slow"];

/// Fighter `i`'s action points in the round as they stand (none in a battle of another
/// variant).
pub fn points<'b>(b: &'b Battle, i: usize) -> &'b ActionPoints {
    static NONE: ActionPoints = ActionPoints { ap: 0, attack_actions: 0, escapes: 0, advanced: None };
    b.economy::<ActionPoints>(i).unwrap_or(&NONE)
}

/// An advanced action in progress, in words.
pub(crate) fn advanced_name(action: &AdvancedKind) -> String {
    match action {
        AdvancedKind::Charge { target } => format!("charging {target}"),
        AdvancedKind::TotalDefense => "total defense".into(),
        AdvancedKind::Cast { spell, target, .. } => format!("casting {spell} on {target}"),
        AdvancedKind::CoupDeGrace { target } => format!("coup de grace on {target}"),
        AdvancedKind::FirstAid { target } => format!("first aid for {target}"),
        AdvancedKind::Grapple { target } => format!("grappling {target}"),
        AdvancedKind::ContinueGrapple { .. } => "continuing a grapple".into(),
    }
}

/// What the opening of an action phase reads and changes of each fighter: its awareness
/// and conditions (who may act, who is dying), its bonuses and reactions (which end or come
/// back with the round) and its action points.
type PhaseFighters<'w, 's> = Query<
    'w,
    's,
    (&'static Awareness, &'static Conditions, &'static mut Bonuses, &'static mut Reactions, &'static mut ActionPoints),
>;

/// Opens the next action phase, and with the first of a round the round itself: 3 action
/// points each (2 in the surprise round, for the aware only), then the seven phases in
/// turn; in each phase those with AP left act in initiative order (nobody in the
/// declaration phase; the dying roll to stabilise in the first phase that has actions).
pub(crate) fn next_action_phase(seats: Res<Combatants>, mut fighters: PhaseFighters, window: WindowOpens) {
    let (mut clock, mut record, mut log) = window.open();
    if clock.phase == 0 || clock.phase >= 7 {
        if clock.surprise_pending {
            clock.surprise_pending = false;
            clock.surprise = true;
        } else {
            clock.round += 1;
            clock.surprise = false;
        }
        clock.phase = 1;
        let mut each = fighters.iter_many_mut(&seats.0);
        while let Some((awareness, conditions, mut bonuses, mut reactions, mut points)) = each.fetch_next() {
            clock::new_round(&mut reactions);
            // Effects lasting "until the start of your next round of actions" end.
            bonuses.clear();
            reactions.held = None;
            let acts = conditions.can_act() && (awareness.aware || !clock.surprise);
            points.ap = if acts { round_allowance(clock.surprise) } else { 0 };
            points.attack_actions = 0;
            points.escapes = 0;
        }
        round_cap(&mut clock, &mut record, &mut log);
        log.push(CombatEvent::RoundStarted { round: clock.round });
    } else {
        clock.phase += 1;
    }
    let (r, p) = (clock.round, clock.phase);
    log.push(CombatEvent::PhaseStarted { round: r, phase: p, name: AP_PHASES[p as usize - 1].into() });
    let mut each = fighters.iter_many_mut(&seats.0);
    while let Some((_, _, _, mut reactions, _)) = each.fetch_next() {
        reactions.used = 0;
    }
    let may_act = |e: Entity| {
        fighters.get(e).is_ok_and(|(_, conditions, _, _, points)| {
            points.ap > 0 || (p == 2 && conditions.has(Condition::Dying) && conditions.alive())
        })
    };
    clock.queue = if p == 1 { vec![] } else { clock.order.iter().copied().filter(|&e| may_act(e)).collect() };
}

/// The Heal check that stabilises a dying creature.
const FIRST_AID_DC: i32 = 15;

/// No fighter has more than its 3 action points.
pub(super) fn at_most_three_action_points(
    seats: Res<Combatants>,
    fighters: Query<(&Combatant, &ActionPoints)>,
    mut broken: ResMut<Broken>,
) {
    broken.found(|| {
        fighters
            .iter_many(&seats.0)
            .find(|(_, points)| points.ap > ACTION_POINTS)
            .map(|(who, points)| format!("{} has {} action points, more than {ACTION_POINTS}", who.id, points.ap))
    });
}

/// This variant's rules, as the engine calls them.
pub(crate) struct ApPhases;

impl VariantRules for ApPhases {
    fn check_own(&self, b: &Battle, actor: usize, cmd: &Command) -> Result<Option<PathPlan>, String> {
        match cmd {
            Command::CoupDeGrace { target } | Command::FirstAid { target } => {
                check_complex(b, actor, cmd, target).map(|()| None)
            }
            Command::Wrestle { follow_up } => grapple::check_continue(b, actor, *follow_up).map(|()| None),
            _ => Err(format!("{} is not an action in these rules", cmd.name())),
        }
    }
    /// What an action costs this variant's combatant, or why it may not be taken: the
    /// budget after it, and the attack's penalty slot.
    fn spend(&self, b: &Battle, actor: usize, budget: &Budget, cmd: &Command) -> Result<(Budget, AttackKind), String> {
        let mut n = budget.clone();
        n.fresh = false;
        n.own_mut::<PhaseAction>().continuing = false;
        let kind = AttackKind::Primary;
        let ap = points(b, actor).ap;
        let phase = b.clock.phase;
        match cmd {
            Command::EndTurn | Command::Delay => return Ok((Budget::default(), kind)),
            // "At the start of your round of actions, you can choose to fight defensively": a
            // free action, before the round's first action point is spent, once.
            Command::Stance { stance: crate::combat::command::Stance::Defensive } => {
                if b.fighters.bonuses[actor].in_a_stance() {
                    return Err("already fighting defensively this round".into());
                }
                if ap < round_allowance(b.clock.surprise) {
                    return Err("fighting defensively is chosen at the start of the round of actions, \
                                before an action point is spent"
                        .into());
                }
                return Ok((n, kind));
            }
            // The one who initiated a grapple may end it as a free action.
            Command::Wrestle { follow_up: crate::combat::command::GrappleFollowUp::End } => return Ok((n, kind)),
            Command::Stance { .. }
            | Command::Guard
            | Command::Focus
            | Command::Dash { .. }
            | Command::Tumble { .. } => {
                return Err("ap-phases has no such action".into());
            }
            _ if !budget.own::<PhaseAction>().left => return Err("one action per phase".into()),
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
                | Command::Grapple { .. }
        ) {
            // "Total Defense … Until the start of your next round of actions, you can't take
            // actions with the attack subtype."
            if b.fighters.bonuses[actor].defense.iter().any(|(name, _)| name == "total defense") {
                return Err("in total defense: no attack actions until its next round of actions".into());
            }
            let earliest = ap_earliest_attack_phase(b, actor);
            if phase < earliest {
                return Err(format!(
                    "attacks with a {} begin in the {} phase (phase {earliest}); this is phase {phase}",
                    b.fighters.wielded[actor].def.name,
                    AP_PHASES[earliest as usize - 1]
                ));
            }
            n.own_mut::<PhaseAction>().left = false;
            return Ok((n, AttackKind::NthAction(points(b, actor).attack_actions as u32 + 1)));
        }
        n.own_mut::<PhaseAction>().left = false;
        Ok((n, kind))
    }
    /// What a combatant may do when its opportunity opens.
    fn fresh_budget(&self, _b: &Battle, _i: usize) -> Budget {
        let mut budget = Budget { fresh: true, ..Budget::default() };
        budget.own_mut::<PhaseAction>().left = true;
        budget
    }
    fn may_react(&self, b: &Battle, reactor: usize, _mover: usize, allowance: u32) -> bool {
        // "only one free action or reaction … during any action phase"
        let f = b.fighters.at(reactor);
        f.reactions().used < 1 && f.reactions().this_round < allowance
    }
}

/// The earliest phase (1–7) a fighter's attack with its wielded weapon may begin.
pub fn ap_earliest_attack_phase(b: &Battle, i: usize) -> u32 {
    let f = b.fighters.at(i);
    // Readied missiles fly in phase 2; thrown weapons from phase 3.
    if matches!(f.wielded().def.kind, WeaponKind::Ranged) {
        return 2;
    }
    // Base action speed from movement: fast at 30, a step better at 45+ (thrown phase,
    // Medium or smaller only), a step worse at 20 or less.
    let base = if f.stats().def.speed_ft >= 45 && f.size() <= crate::grid::Size::Medium {
        3
    } else if f.stats().def.speed_ft <= 20 {
        5
    } else {
        4
    };
    let weapon = match f.wielded().def.speed {
        WeaponSpeed::Fast => 4,
        WeaponSpeed::Average => 5,
        WeaponSpeed::Slow => 6,
        WeaponSpeed::VerySlow => 7,
    };
    base.max(weapon)
}

/// Who a combatant is, its stats and its body: what a combat maneuver check reads of each
/// side.
fn combatant_parts(world: &World, e: Entity) -> (&Combatant, &Stats, &Body) {
    let part = "a combat maneuver names combatants";
    (world.get::<Combatant>(e).expect(part), world.get::<Stats>(e).expect(part), world.get::<Body>(e).expect(part))
}
