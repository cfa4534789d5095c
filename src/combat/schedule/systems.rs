//! The common systems of the rules schedule: taking a command in, checking it without
//! changing anything, the common rule in each resolve slot, the walk and the strikes, the
//! end of the battle, the derived state, and the clock.

use super::{
    CastingSchedule, CastingTried, RulesSchedule, RulesStage, Slot, SpellsUnderWay, Strike, StrikeStack, Turn,
};
use super::{Walking, with_moves};
use crate::combat::Command;
use crate::combat::attack::AttackContext;
use crate::combat::battle::Maneuver;
use crate::combat::battle::store::BattleCheck;
use crate::combat::battle::store::Record;
use crate::combat::battle::{self, Combatants, Derived, EventLog};
use crate::combat::event::CombatEvent;
use crate::combat::resolve::{self, Walk, magic};
use crate::combat::slot::UnfilledSlots;
use crate::combat::time::Clock;
use crate::level::SpellDef;
use crate::rules::components::RosterQuery;
use crate::rules::{Battlefield, Combatant, Condition, Conditions, Position, Roster, Side, Wielded, unit_view};
use crate::variants::Provoking;
use bevy::ecs::schedule::ScheduleConfigs;
use bevy::ecs::system::ScheduleSystem;
use bevy::prelude::*;

pub(super) fn add_common(app: &mut App) {
    app.add_systems(
        RulesSchedule,
        (
            (take_command, derive_maps.run_if(derived_is_stale)).chain().in_set(RulesStage::Intake),
            judge_command
                .pipe(take_verdict)
                .run_if(|turn: Res<Turn>| matches!(*turn, Turn::Taken(_)))
                .in_set(RulesStage::Validate),
            super::stances::spend_budget.in_set(Slot::Spend),
            set_out.in_set(Slot::Movement),
            walk_on
                .run_if(|walking: Res<Walking>, stack: Res<StrikeStack>| walking.0.is_some() && stack.0.is_empty())
                .in_set(RulesStage::Walk),
            make_strike.run_if(|stack: Res<StrikeStack>| !stack.0.is_empty()).in_set(RulesStage::Strikes),
            attack_or_reload.in_set(Slot::Attack),
            charge_straight.in_set(Slot::Charge),
            super::stances::take_defensive_action.in_set(Slot::Defend),
            (declare_maneuver, stand).chain().in_set(Slot::Maneuver),
            (stand_up, load_crossbow).chain().before(Slot::AfterCommand).in_set(RulesStage::Settle),
            super::grapple::escape_by_opposed_check.in_set(Slot::Escape),
            super::stances::hold_attack.in_set(Slot::Hold),
            super::stances::take_stance.in_set(Slot::Stance),
            super::casting::cast_at_once.in_set(Slot::Cast),
            end_if_decided.after(Slot::AfterCommand).in_set(RulesStage::Settle),
            derive_maps.run_if(derived_is_stale).in_set(RulesStage::Derive),
        ),
    );
}

/// `derive_maps`, when something moved since the maps were last worked out: for a clock
/// step that reads them after time has moved (osr-segments' multi-attacks).
pub(crate) fn derive_maps_if_stale() -> ScheduleConfigs<ScheduleSystem> {
    derive_maps.run_if(derived_is_stale).into_configs()
}

/// Something moved since occupancy and threat were last worked out.
fn derived_is_stale(derived: Res<Derived>) -> bool {
    derived.stale
}

/// Takes the given command in.
fn take_command(mut turn: ResMut<Turn>) {
    if !matches!(*turn, Turn::Ordered(_)) {
        return;
    }
    let Turn::Ordered(command) = std::mem::take(&mut *turn) else { return };
    *turn = Turn::Taken(command);
}

/// The roster, occupancy and threat map as the combatants stand, from each one's own
/// components (`rules::unit_view`), in seat (id) order: before the checks, and after a
/// command has moved anything.
fn derive_maps(seats: Res<Combatants>, combatants: RosterQuery, field: Res<Battlefield>, mut derived: ResMut<Derived>) {
    let units = combatants
        .iter_many(&seats.0)
        .map(|(c, side, pos, body, reach, stats, wielded, conditions)| {
            (unit_view(field.variant, c, pos, body, reach, stats, wielded, conditions), side.0.clone())
        })
        .collect();
    derived.rebuild(&field, Roster::new(units));
}

/// Whether the command taken in is legal now, what it costs and where it goes: a check
/// over the battle as it stands, reading each part through a query or resource of its own
/// (`BattleCheck`) and changing nothing.
pub fn judge_command(turn: Res<Turn>, check: BattleCheck, unfilled: Option<Res<UnfilledSlots>>) -> Option<Turn> {
    let Turn::Taken(command) = &*turn else { return None };
    let battle = check.battle();
    Some(match (battle.check_with(command, unfilled.as_deref(), false), battle.clock.actor) {
        (Ok(plan), Some(actor)) => Turn::Accepted { actor, plan },
        (Err(e), _) => Turn::Refused(e),
        (Ok(_), None) => unreachable!("a command is checked only for the fighter acting now"),
    })
}

/// The check's verdict on the command becomes the turn's.
fn take_verdict(In(verdict): In<Option<Turn>>, mut turn: ResMut<Turn>) {
    if let Some(verdict) = verdict {
        *turn = verdict;
    }
}

/// A move or a 5-ft step sets out along its planned path, from where the mover stands;
/// the walk stage walks it.
fn set_out(turn: Res<Turn>, positions: Query<&Position>, field: Res<Battlefield>, mut walking: ResMut<Walking>) {
    let Some((me, plan)) = turn.accepted() else { return };
    let (Some(path), Ok(at)) = (plan.path.as_ref(), positions.get(me)) else { return };
    let kind = match plan.command {
        Command::Step { .. } => field.variant.numbers().step_name.as_str(),
        _ => "move",
    };
    walking.0 = Some(Walk::new(me, at.0, path, kind, None));
}

/// A charge sets out on its straight line; its attack follows the walk.
fn charge_straight(
    turn: Res<Turn>,
    combatants: Query<(Entity, &Combatant)>,
    positions: Query<&Position>,
    field: Res<Battlefield>,
    mut walking: ResMut<Walking>,
) {
    let Some((me, plan)) = turn.accepted() else { return };
    let (Command::Charge { target }, Some(path), Ok(at)) = (&plan.command, plan.path.as_ref(), positions.get(me))
    else {
        return;
    };
    let Some(t) = named(&combatants, target) else { return };
    walking.0 = Some(resolve::charge_walk(field.variant, me, at.0, t, path));
}

/// The combatant called `id` (ids are unique, so the order of the search does not matter).
pub(crate) fn named(combatants: &Query<(Entity, &Combatant)>, id: &str) -> Option<Entity> {
    combatants.iter().find_map(|(e, c)| (c.id == id).then_some(e))
}

/// An attack or a full attack waits on the strike stack; loading a crossbow draws the
/// attacks of opportunity the variant says it provokes, and is done once they are made
/// (`load_crossbow`).
fn attack_or_reload(
    turn: Res<Turn>,
    combatants: Query<(Entity, &Combatant)>,
    field: Res<Battlefield>,
    mut stack: ResMut<StrikeStack>,
) {
    let Some((me, plan)) = turn.accepted() else { return };
    let strike = match &plan.command {
        Command::Attack { target } | Command::FullAttack { target } => {
            let Some(target) = named(&combatants, target) else { return };
            let full = matches!(plan.command, Command::FullAttack { .. });
            Strike::Routine { by: me, target, kind: plan.kind.clone(), full }
        }
        Command::Reload => match provoked(&field, Provoking::Reloading, me, "reloads") {
            Some(strike) => strike,
            None => return,
        },
        _ => return,
    };
    stack.0.push(strike);
}

/// The attacks of opportunity `mover` draws by doing `what` (`trigger` in the log's
/// words), where the variant says it provokes.
fn provoked(field: &Battlefield, what: Provoking, mover: Entity, trigger: &str) -> Option<Strike> {
    field.variant.numbers().provoked_by.contains(&what).then(|| Strike::Provoked { mover, trigger: trigger.into() })
}

/// A combat maneuver on a foe waits on the strike stack.
pub(crate) fn declare_maneuver(
    turn: Res<Turn>,
    combatants: Query<(Entity, &Combatant)>,
    mut stack: ResMut<StrikeStack>,
) {
    let Some((me, plan)) = turn.accepted() else { return };
    stack.0.extend(maneuver_strike(plan, me, |id| named(&combatants, id)));
}

/// The strike a combat maneuver on a foe makes (`named` finds the foe a command names).
pub(crate) fn maneuver_strike(
    plan: &crate::combat::resolve::Plan,
    actor: Entity,
    named: impl Fn(&str) -> Option<Entity>,
) -> Option<Strike> {
    let (target, kind) = match &plan.command {
        Command::Trip { target } => (target, Maneuver::Trip),
        Command::Grapple { target } => (target, Maneuver::Grapple),
        Command::Shove { target } => (target, Maneuver::Shove),
        Command::Disarm { target } => (target, Maneuver::Disarm),
        _ => return None,
    };
    Some(Strike::Maneuver { by: actor, target: named(target)?, kind, hp_before: None })
}

/// Standing up from prone draws the attacks of opportunity the variant says it provokes;
/// the fighter is up once they are made (`stand_up`).
pub(crate) fn stand(turn: Res<Turn>, field: Res<Battlefield>, mut stack: ResMut<StrikeStack>) {
    let Some((me, plan)) = turn.accepted() else { return };
    if plan.command == Command::Stand {
        stack.0.extend(provoked(&field, Provoking::StandingUp, me, "stands up"));
    }
}

/// A fighter standing up is no longer prone, if the attacks it drew left it in the fight.
fn stand_up(
    turn: Res<Turn>,
    mut fighters: Query<(&Combatant, &mut Conditions)>,
    mut log: ResMut<EventLog>,
    mut derived: ResMut<Derived>,
) {
    let Some((me, plan)) = turn.accepted() else { return };
    let Ok((who, mut conditions)) = fighters.get_mut(me) else { return };
    if plan.command == Command::Stand && conditions.in_fight() {
        battle::change_condition(&who.id, &mut conditions, Condition::Prone, false, &mut log, &mut derived);
    }
}

/// A fighter loading its crossbow has it loaded, if the attacks it drew left it in the
/// fight.
fn load_crossbow(
    turn: Res<Turn>,
    mut fighters: Query<(&Combatant, &Conditions, &mut Wielded)>,
    mut log: ResMut<EventLog>,
) {
    let Some((me, plan)) = turn.accepted() else { return };
    let Ok((who, conditions, mut wielded)) = fighters.get_mut(me) else { return };
    if plan.command == Command::Reload && conditions.in_fight() {
        wielded.loaded = true;
        let detail = wielded.def.name.clone();
        log.push(CombatEvent::Action { unit: who.id.clone(), action: "reloads".into(), detail });
    }
}

/// The walk driver: once the strikes at its stop are made, a walk goes on to its next stop
/// or its end.
fn walk_on(world: &mut World) {
    with_moves(world, |world, moves| moves.go_on(world));
    super::follow_walk(world);
}

/// The harm driver: the strike on top of the stack is made, each attack rolled with its
/// modifiers, its critical and its damage, each maneuver checked, and the harm done
/// (conditions, dropping, dying, death); then the variant counts what it took
/// (`taken::count_taken`).
pub(crate) fn make_strike(world: &mut World) {
    strike_on_top(world);
    super::taken::count_taken(world);
}

/// The strike on top of the stack, made, on the world (the shared rules it calls name
/// fighters by entity).
fn strike_on_top(world: &mut World) {
    let Some(strike) = world.resource_mut::<StrikeStack>().0.pop() else { return };
    match strike {
        Strike::Opportunity { by, mover, trigger } => resolve::opportunity(world, by, mover, &trigger),
        Strike::Routine { by, target, kind, full } => {
            resolve::attack_routine(world, by, target, kind, full, &AttackContext::default())
        }
        Strike::Provoked { mover, trigger } => resolve::provoke_threateners(world, mover, &trigger),
        Strike::HeldAttack { by, mover } => resolve::held_attack(world, by, mover),
        Strike::Charge { by, target } => resolve::charge_attack(world, by, target),
        Strike::Segment { casters } => magic::go_off_together(world, &casters),
        Strike::Spell { caster, target, spell, defensive, goes_off, hp_before } => {
            cast(world, (caster, target), spell, defensive, goes_off, hp_before)
        }
        Strike::Advanced { by, action } => {
            let Some(&super::AdvancedActions(goes_on)) = world.get_resource() else { return };
            with_moves(world, |world, moves| {
                if let Some(walk) = goes_on(world, by, action) {
                    moves.set_out(world, walk);
                }
            });
            super::follow_walk(world);
        }
        Strike::Maneuver { by, target, kind, hp_before } => {
            super::maneuver::make_maneuver(world, by, target, kind, hp_before)
        }
        Strike::ToStep { by, mover } => {
            if let Some(&super::ReactionsToSteps(react)) = world.get_resource() {
                react(world, by, mover);
            }
        }
    }
}

/// A spell cast (`Strike::Spell`). The attacks of opportunity casting draws are made first,
/// each counted as it is made (a d20-classic foe that took one has spent the immediate
/// action a counterspell needs); then, if the caster kept hold of it, the spell goes off
/// unless countered, or is left under way.
fn cast(
    world: &mut World,
    (caster, target): (Entity, Entity),
    spell: String,
    defensive: bool,
    goes_off: bool,
    hp_before: Option<i32>,
) {
    let Some(sp) = magic::spell(&spell) else { return };
    let provokes =
        !defensive && world.resource::<Battlefield>().variant.numbers().provoked_by.contains(&Provoking::Casting);
    if provokes && hp_before.is_none() {
        let waiting = |hp| Strike::Spell { caster, target, spell, defensive, goes_off, hp_before: Some(hp) };
        let drawn = Strike::Provoked { mover: caster, trigger: "casts a spell".into() };
        super::after_attacks_drawn(world, caster, waiting, drawn);
        return;
    }
    let survives = keeps_hold(world, caster, sp, defensive, hp_before);
    if survives && !goes_off {
        world.resource_mut::<SpellsUnderWay>().0.push(caster);
    } else if survives && !super::countered(world, caster, sp) {
        magic::take_effect(world, caster, sp, target);
    }
}

/// Whether `caster` keeps hold of its spell `sp` once its casting's attacks of opportunity
/// are made (it was `hp_before` when they were drawn; none drawn if `None`): not if they
/// dropped it, else as the variant's systems in the [`CastingSchedule`] decide.
fn keeps_hold(
    world: &mut World,
    caster: Entity,
    sp: &'static SpellDef,
    defensive: bool,
    hp_before: Option<i32>,
) -> bool {
    let mut hurt = 0;
    if let Some(before) = hp_before {
        if !crate::combat::resolve::in_fight(world, caster) {
            magic::lost(world, caster, sp, "the caster dropped".into());
            return false;
        }
        hurt = before - world.get::<crate::rules::Health>(caster).map_or(before, |h| h.hp);
    }
    let tried = CastingTried { caster, spell: Some(sp), defensive, hurt, lost: false };
    crate::combat::battle::run_with(world, CastingSchedule, tried).is_none_or(|tried| !tried.lost)
}

/// A side out of the fight ends the battle: read from each fighter's side and conditions,
/// written to the battle's record, its clock and its log.
fn end_if_decided(
    fighters: Query<(&Side, &Conditions)>,
    mut record: ResMut<Record>,
    mut clock: ResMut<Clock>,
    mut log: ResMut<EventLog>,
    mut turn: ResMut<Turn>,
) {
    if let Some((winner, reason)) = battle::decided(fighters.iter()) {
        battle::finish(&mut record.winner, &mut clock, &mut log, winner, reason);
        *turn = Turn::Decided;
    }
}
