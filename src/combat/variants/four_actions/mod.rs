//! four-actions (source 001): a standard, a move and a quick action and one reaction a
//! round; primary, secondary and tertiary attacks; everyone Surprised until their first
//! turn, and flanking makes the target Surprised; a grapple lasting as long as each
//! turn's contest (a standard action against a reaction) says, its winner ending it or
//! keeping hold to trip, push or strike.

mod wrestle;

use super::prelude::*;
use crate::combat::clock::{d20_initiative, initiative_order};
use crate::combat::command::GrappleFollowUp;
use crate::combat::fighter::Initiative;
use crate::combat::resolve::straight_run;
use crate::combat::schedule::Strike;
use crate::combat::schedule::clock::next_round;
use crate::combat::schedule::{Announcing, StrikeStack};
use crate::combat::time::Clock;
use crate::grid::{Footprint, GridPos};
use crate::rules::{Awareness, Combatant, Dice, Stats};
use bevy::prelude::{Query, Res, ResMut};
use wrestle::{Contest, contest_follow_up, dash_or_tumble, grapple_contest, push_squares};

pub use crate::combat::kept::QuickAction;

/// Whether the quick action is left in `budget`.
pub fn quick_left(budget: &Budget) -> bool {
    budget.own::<QuickAction>().left
}

/// Spends a quick action (or, traded down, the standard action).
fn take_quick(budget: &Budget, n: &mut Budget, what: &str) -> Result<(), String> {
    if quick_left(budget) {
        n.own_mut::<QuickAction>().left = false;
    } else if budget.standard {
        n.standard = false;
    } else {
        return Err(format!("{what} is a quick action, and none is left"));
    }
    Ok(())
}

/// "A dash … allowing the creature to move double its speed, but it must be in a straight
/// line, or at one-and-a-half speed without the restriction on direction": the straight run
/// to `to`, when one-and-a-half speed does not get there.
pub(crate) fn straight_dash(b: &Battle, a: usize, to: GridPos) -> Option<crate::rules::PathPlan> {
    straight_run(b, a, to, b.fighters.stats[a].def.speed_ft * 2)
}

/// Whether `a` may wrestle now with `follow_up` in mind (its cost is `spend`'s): it must
/// be in a grapple, and the follow-up possible should it win. The derived maps must be up
/// to date (as between commands).
pub(crate) fn check_wrestle(b: &Battle, a: usize, follow_up: GrappleFollowUp) -> Result<(), String> {
    let with = b.fighters.grapple[a].with.filter(|_| b.fighters.conditions[a].has(Condition::Grappled));
    let Some(t) = with.and_then(|e| b.fighters.seat_of(e)) else {
        return Err("not in a grapple".into());
    };
    let (f, foe) = (b.fighters.at(a), b.fighters.at(t));
    match follow_up {
        GrappleFollowUp::Trip if foe.has(Condition::Prone) => Err(format!("{} is already prone", foe.id())),
        GrappleFollowUp::Push
            if push_squares(b.field, b.view().occupancy, (a, f.footprint()), (t, foe.footprint())).is_none() =>
        {
            Err(format!("no room to push {}", foe.id()))
        }
        GrappleFollowUp::Attack if f.wielded().def.reload && !f.wielded().loaded => {
            Err(format!("the {} is not loaded", f.wielded().def.name.to_lowercase()))
        }
        GrappleFollowUp::Attack => {
            let legal = crate::combat::attack::legality(b, a, t);
            legal.map(|_| ()).map_err(|refused| refused.reason.unwrap_or_default())
        }
        GrappleFollowUp::Pin | GrappleFollowUp::Move { .. } => {
            Err("wrestling trips, pushes, attacks or keeps hold (a push moves both)".into())
        }
        _ => Ok(()),
    }
}

/// This variant's rules, as the engine calls them.
pub(crate) struct FourActions;

impl VariantRules for FourActions {
    fn check_own(&self, b: &Battle, actor: usize, cmd: &Command) -> Result<Option<PathPlan>, String> {
        match cmd {
            Command::Wrestle { follow_up } => check_wrestle(b, actor, *follow_up).map(|()| None),
            Command::Dash { to } | Command::Tumble { to } => check_dash_or_tumble(b, actor, cmd, *to).map(Some),
            _ => Err(format!("{} is not an action in these rules", cmd.name())),
        }
    }
    /// What an action costs this variant's combatant, or why it may not be taken: the
    /// budget after it, and the attack's penalty slot.
    fn spend(&self, b: &Battle, actor: usize, budget: &Budget, cmd: &Command) -> Result<(Budget, AttackKind), String> {
        let mut n = budget.clone();
        n.fresh = false;
        let kind = AttackKind::Primary;
        match cmd {
            Command::AbortOrder { .. } | Command::Declare { .. } => {} // settled above
            Command::Move { .. } => {
                take_move(budget, &mut n)?; // a standard action may be traded for a move
                n.moved = true;
            }
            Command::Step { .. } => take_quick(budget, &mut n, "a side step")?,
            Command::Attack { .. } | Command::FullAttack { .. } => {
                // "To attack with a weapon the creature must be able to move, and thus cannot be
                // Restrained": in a grapple, blows come with winning the contest.
                if b.fighters.conditions[actor].has(Condition::Grappled) {
                    return Err("restrained in a grapple: win the grapple contest to strike".into());
                }
                if budget.standard {
                    n.standard = false;
                } else if budget.move_action {
                    n.move_action = false;
                    return Ok((n, AttackKind::Secondary));
                } else if quick_left(budget) {
                    n.own_mut::<QuickAction>().left = false;
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
            Command::Focus => take_quick(budget, &mut n, "focus")?,
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
            Command::Wrestle { .. } => take_standard(budget, &mut n)?,
            Command::CoupDeGrace { .. } | Command::FirstAid { .. } => {
                return Err("four-actions has no such action".into());
            }
            Command::EndTurn => n = Budget::default(),
        };
        Ok((n, kind))
    }
    /// What a combatant may do when its opportunity opens.
    fn fresh_budget(&self, b: &Battle, i: usize) -> Budget {
        let restrained = b.fighters.conditions[i].has(Condition::Grappled);
        let mut budget = Budget { standard: true, move_action: !restrained, fresh: true, ..Budget::default() };
        budget.own_mut::<QuickAction>().left = true;
        budget
    }
    fn may_react(&self, b: &Battle, reactor: usize, _mover: usize, allowance: u32) -> bool {
        b.fighters.reactions[reactor].used < allowance
    }
}

/// Countering: a foe with a spell of the same school and the Spell Quantity identifies it
/// as a free action (Magical Aptitude vs the Spell DC, 10 + Spell Order + the caster's
/// ability), then spends its reaction and the SQ on a caster-level check against the Spell
/// DC: a success negates it.
fn counterspell(mut counter: Counterspelling, mut reactions: Query<&mut Reactions>) {
    let Some((caster, sp)) = counter.spell() else { return };
    let dc = 10 + sp.level as i32 + counter.stats_of(caster).map_or(0, Stats::casting_mod);
    for r in counter.foes_in_reach() {
        let Some(stats) = counter.stats_of(r) else { continue };
        let of_the_school = stats
            .def
            .spellcasting
            .iter()
            .flat_map(|m| &m.spells)
            .any(|s| magic::spell(s).is_some_and(|known| known.school == sp.school));
        let (allowed, caster_level) = (resolve::reactions_allowed(stats), stats.caster_level());
        let reacts = reactions.get(r).is_ok_and(|used| used.used < allowed);
        if !reacts || !of_the_school || !counter.identifies(r, "Magical Aptitude", dc) {
            continue;
        }
        counter.spend(r);
        if let Ok(mut used) = reactions.get_mut(r) {
            used.used += 1;
            used.this_round += 1;
        }
        let success = counter.check(r, "caster level (counterspell)".into(), caster_level, dc);
        if counter.tried(r, success) {
            return;
        }
    }
}

/// A maneuver: an Athletics check (Strength + half the base attack) against the target's
/// Reflex save (without Dexterity while Surprised or Restrained); failure provokes the
/// target's reaction. A push won goes `rules.shove` far.
fn athletics_against_reflex(
    mut tried: ResMut<ManeuverTried>,
    fighters: Query<(&Combatant, &Stats, &Conditions)>,
    mut dice: ResMut<Dice>,
    mut log: ResMut<EventLog>,
    mut stack: ResMut<StrikeStack>,
) {
    let Some(&Attempt { by, target, kind, .. }) = tried.attempt() else { return };
    let (Ok((maker, ms, _)), Ok((foe, ts, tc))) = (fighters.get(by), fighters.get(target)) else { return };
    let what = kind.name();
    let (ra, rt) = (dice.roll(20) as i32, dice.roll(20) as i32);
    let ba = ms.str_mod() + ms.def.base_attack / 2;
    // "Surprised" and "Restrained": "subtract the Ability Modifier(s) from AC, Reflex".
    let loses_dex = tc.has(Condition::Surprised) || tc.has(Condition::Grappled);
    let bt = ts.reflex() - if loses_dex { ts.dex_mod().max(0) } else { 0 };
    let won = ra + ba >= rt + bt;
    log.push(CombatEvent::Save {
        unit: foe.id.clone(),
        kind: format!("Reflex vs {}'s Athletics {}", maker.id, ra + ba),
        roll: rt,
        bonus: bt,
        dc: ra + ba,
        success: !won,
    });
    if won {
        // "moves both the pusher and the target up to half speed": how far is `rules.shove`.
        tried.margin = Some(0);
    } else {
        stack.0.push(Strike::Opportunity { by: target, mover: by, trigger: format!("fails a {what}") });
    }
}

/// Dash (one-and-a-half speed, or double "in a straight line") or tumble (half speed):
/// the path, or why not.
fn check_dash_or_tumble(b: &Battle, actor: usize, cmd: &Command, to: GridPos) -> Result<PathPlan, String> {
    let view = b.view();
    let dash = matches!(cmd, Command::Dash { .. });
    let speed = b.fighters.stats[actor].def.speed_ft;
    let allowance = if dash { speed * 3 / 2 / 5 * 5 } else { speed / 2 / 5 * 5 };
    let range = crate::rules::movement_range(&view, actor, crate::rules::MoveMode::Move, allowance);
    let path = match range.plan_to(&view, to) {
        Ok(path) => path,
        // "double its speed, but it must be in a straight line"
        Err(why) if dash => straight_dash(b, actor, to).ok_or(why.0)?,
        Err(why) => return Err(why.0),
    };
    if path.squares.is_empty() {
        return Err("already there".into());
    }
    let side = b.fighters.body[actor].size.side();
    if dash
        && path.squares.iter().any(|&p| Footprint::new(p, side).cells().any(|c| b.field.terrain.get(c).costs_double()))
    {
        return Err("a dash cannot be made through difficult terrain".into());
    }
    Ok(path)
}

/// four-actions in the rules schedule: escaping is the turn's grapple contest; wrestling,
/// dashing and tumbling are its own actions; a spell needs its focus present; the
/// opportunity ends when standard, move and quick actions are spent.
pub struct FourActionsPlugin;

/// Casting provokes reactions "attempting to interrupt", and one that hurts the caster
/// does: the spell is lost.
fn interrupted_by_a_reaction(mut tried: ResMut<CastingTried>, fighters: Query<&Combatant>, mut log: ResMut<EventLog>) {
    let (Some(sp), hurt) = (tried.spell, tried.hurt) else { return };
    let Ok(who) = fighters.get(tried.caster) else { return };
    if hurt > 0 {
        tried.lost = true;
        log.push(magic::spoiled(who.id.clone(), sp, format!("interrupted by a reaction ({hurt} damage)")));
    }
}

impl Plugin for FourActionsPlugin {
    fn build(&self, app: &mut App) {
        own_budget::<QuickAction>(app);
        app.init_resource::<Contest>();
        app.add_systems(CastingSchedule, interrupted_by_a_reaction.in_set(HoldOnSpell));
        app.add_systems(ManeuverSchedule, athletics_against_reflex.in_set(ManeuverCheck));
        // Flanking ⇒ Surprised: the flanked lose their Dexterity to AC.
        modifiers::add_d20_family(app);
        app.replace_modifier(modifiers::target_flat_footed, target_surprised);
        app.add_modifier(modifiers::strength_to_damage)
            .add_modifier(modifiers::damage_bonuses)
            .add_modifier(modifiers::untrained_damage);
        for slot in [Slot::Escape, Slot::Cast] {
            replace_slot(app, slot);
        }
        app.add_systems(
            RulesSchedule,
            (
                (grapple_contest, contest_follow_up).chain().in_set(Slot::Escape),
                (grapple_contest, contest_follow_up, dash_or_tumble).chain().in_set(Slot::Own),
                cast_with_focus.in_set(Slot::Cast),
                pass_turn_when(actions_spent).in_set(Passing::Spent),
            ),
        );
        app.add_systems(
            ClockSchedule,
            (
                (everyone_surprised, roll_initiative.run_if(|clock: Res<Clock>| !clock.surprise_pending))
                    .chain()
                    .in_set(RollsInitiative),
                surprise_wears_off.in_set(Opening::GivenBack),
                (roll_initiative_after_surprise_round, next_round, ambushers_in_no_particular_order)
                    .chain()
                    .in_set(ClockStep::Window),
                fortitude_while_dying.in_set(DyingTurn),
            ),
        );
        add_counterspell(app, counterspell);
    }
}

/// "Each round, roll a Fortitude Save (DC = 10+ current negative HP). Upon failure,
/// increase negative HP by 1."
fn fortitude_while_dying(turns: DyingTurns) {
    let save = |stats: &Stats, health: &mut Health, dice: &mut Dice| {
        let save = Logged::save("Fortitude (dying)", dice.roll(20) as i32, stats.fortitude(), 10 + health.hp.abs());
        save_or_bleed(save, health, Dying::Holds)
    };
    turns.take(save);
}

/// Everyone is Surprised until its first turn.
fn everyone_surprised(mut conditions: Query<&mut Conditions>) {
    for mut c in &mut conditions {
        c.add(Condition::Surprised);
    }
}

/// Everyone rolls d20 initiative, unless a surprise round (aware fighters only) comes
/// first: initiative is rolled as it ends, its participants at +4.
fn roll_initiative(mut initiatives: Initiatives) {
    initiatives.roll_d20(0);
}

/// At the start of its turn a fighter has its reaction back and is no longer Surprised.
fn surprise_wears_off(
    called: Res<Called>,
    mut fighters: Query<(&Combatant, &mut Reactions, &mut Conditions)>,
    mut log: ResMut<EventLog>,
    mut derived: ResMut<Derived>,
) {
    let condition = Condition::Surprised;
    reactions_back_and_no_longer(condition, &called, &mut fighters, &mut log, &mut derived);
}

/// As the surprise round ends, everyone rolls initiative, those who took part in it at +4.
fn roll_initiative_after_surprise_round(
    seats: Res<Combatants>,
    mut fighters: Query<(&Combatant, &Stats, &Awareness, &mut Initiative)>,
    mut dice: ResMut<Dice>,
    mut clock: ResMut<Clock>,
    mut log: ResMut<EventLog>,
) {
    if !clock.surprise || clock.surprise_pending {
        return;
    }
    let mut orders = Vec::with_capacity(seats.0.len());
    for &e in &seats.0 {
        let Ok((who, stats, awareness, mut initiative)) = fighters.get_mut(e) else { continue };
        let (rolled, event) = d20_initiative(&mut dice, &who.id, stats.dex_mod(), awareness.aware, 4);
        *initiative = rolled;
        orders.push((e, rolled.order));
        log.push(event);
    }
    clock.order = initiative_order(orders.into_iter());
}

/// The surprise round's ambushers act "in no particular order" (here: by id), before
/// anyone has rolled initiative.
fn ambushers_in_no_particular_order(seats: Res<Combatants>, awareness: Query<&Awareness>, mut clock: ResMut<Clock>) {
    if clock.surprise && clock.round == 0 {
        clock.queue = seats.0.iter().copied().filter(|&e| awareness.get(e).is_ok_and(|a| a.aware)).collect();
    }
}

/// "A caster must also present a Spellcasting Focus through which the caster channels their
/// SQ … (this requires a [Magical Aptitude] check against a DC numbering 13+ Spell Order
/// doubled)". Magical Aptitude is d20 + caster level + casting ability, as when a foe
/// identifies a spell. On a failure no spell begins: the action is spent, the Spell
/// Quantity is not. Presented, the spell is announced, and what becomes of it waits on the
/// strike stack.
fn cast_with_focus(
    mut announcing: Announcing,
    stats: Query<&Stats>,
    mut dice: ResMut<Dice>,
    mut stack: ResMut<StrikeStack>,
) {
    let Some(cast) = announcing.cast() else { return };
    // Foreseen, the casting draws what it would should the focus be presented.
    if !announcing.foreseeing() {
        let Ok(stats) = stats.get(cast.caster) else { return };
        let (sp, unit) = (cast.spell, cast.caster_id.clone());
        let bonus = stats.casting_check();
        let (roll, dc) = (dice.roll(20) as i32, 13 + 2 * sp.level as i32);
        let success = roll + bonus >= dc;
        let kind = format!("Magical Aptitude (spellcasting focus, {})", sp.name);
        announcing.log(CombatEvent::Save { unit: unit.clone(), kind, roll, bonus, dc, success });
        if !success {
            let reason = "no spellcasting focus presented".into();
            announcing.log(CombatEvent::Spoiled { unit, action: sp.name.to_lowercase(), reason });
            return;
        }
    }
    announcing.announce(&cast, "casts");
    stack.0.push(cast.strike(true));
}

/// Standard, move and quick actions all spent.
fn actions_spent(budget: &Budget) -> bool {
    !budget.standard && !budget.move_action && !quick_left(budget)
}

/// A target surprised, or flanked (flanking makes it Surprised), loses its Dexterity to AC.
fn target_surprised(InMut(at): Weighed, targets: Query<(&Conditions, &Grapple, &Stats)>) {
    let Ok((conditions, grapple, stats)) = targets.get(at.target) else { return };
    if (at.flanking || modifiers::loses_dexterity(conditions, grapple, at.attacker)) && stats.dex_mod() > 0 {
        let why = if at.flanking { "flanking: target surprised" } else { "target surprised" };
        at.push(why, stats.dex_mod());
    }
}
