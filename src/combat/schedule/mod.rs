//! The rules schedule: the stages a command runs through (intake, validate, resolve, walk,
//! strikes, settle, derive, clock), chained, each holding the systems that do its
//! job. The resolve stage is cut into slots, one per kind of action; [`RulesSchedulePlugin`]
//! fills them with the common rules and each variant's `Plugin` adds or replaces systems
//! where its source differs. A slot that moves or attacks only says so: it sets a
//! [`Walking`] under way or pushes a [`Strike`]. The walk stage walks one leg: where
//! leaving a square provokes, or entering one draws a held attack or the variant's reaction
//! to a step, the walk stops and pushes those attacks onto the [`StrikeStack`]. The strikes
//! stage makes the strike on top, one a run, with its damage and harm, and the schedule runs
//! again (a pass) until the walk is over and the stack empty; only then do the settle
//! stage (the command's last slot, and victory) and the clock run. The schedule knows no
//! variant; `combat::engine` builds it for one.

mod casting;
pub mod clock;
mod counter;
pub use counter::{CounterSchedule, Countering, SpellGoingOff};
pub(crate) use counter::{Counterspelling, add_counterspell, countered};
mod dying;
mod harm;
mod invariants;
mod swing;
pub(crate) use casting::Announcing;
pub use casting::SpellsUnderWay;
pub use dying::DyingTurn;
pub(crate) use dying::{Dying, DyingTurns, Logged, save_or_bleed};
pub use invariants::{Broken, Invariants, InvariantsSchedule, OwnInvariants};
mod grapple;
mod maneuver;
pub(crate) use grapple::{Grapplers, release_both};
pub use maneuver::{AimedManeuvers, Attempt, ManeuverCheck, ManeuverSchedule, ManeuverTried};
mod stances;
pub(crate) use stances::{acting_seated, delay_to_end_of_order};
mod systems;
pub mod taken;
mod walked;
pub use crate::combat::slot::{Slot, UnfilledSlots};
pub use crate::combat::struck::{
    AttackedSchedule, BeforeAttack, CastingSchedule, CastingTried, Concentration, Distracted, DistractedSchedule, Harm,
    HarmSchedule, HarmStep, Harms, HoldOnSpell, Swing, SwingSchedule, SwingStep, Swings, UnderAttack,
};
pub use systems::judge_command;
pub(crate) use systems::{declare_maneuver, derive_maps_if_stale, make_strike, maneuver_strike, named, stand};
pub use taken::{AfterStrike, CountTaken, TakenSchedule};
pub(crate) use walked::follow_walk;
pub use walked::{AfterWalk, ReactionsToSteps, StepSchedule, StepsWatched, WalkOverSchedule, WatchStep};

pub use clock::{ClockSchedule, ClockStep, Opening, RollsInitiative, TimeMoves};

use super::battle::{Combatants, with_taken};
use super::clock::Budget;
use super::command::{Command, RuleError};
use super::fighter::Economy;
use super::kept::{Kept, KeptByBattle, KeptByEach, KeptType, OwnBudget, type_name_of};
use super::resolve::Plan;
use bevy::app::App;
use bevy::ecs::schedule::{
    LogLevel, Schedule, ScheduleBuildSettings, ScheduleCleanupPolicy, ScheduleLabel, Schedules, SingleThreadedExecutor,
};
use bevy::ecs::system::System;
use bevy::prelude::*;

/// The schedule a command runs through.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RulesSchedule;

/// The stages of a command, in the order they run.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RulesStage {
    /// The command is taken for the fighter acting now; the derived state is brought up
    /// to date for the checks.
    Intake,
    /// Pure checks: whose turn, the cost in the variant's action economy, target, path.
    Validate,
    /// The command is carried out, slot by slot (see [`Slot`]): a move or a charge is set
    /// under way, an attack pushed onto the [`StrikeStack`].
    Resolve,
    /// The walk under way goes one leg on, once no strike waits (the walk driver).
    Walk,
    /// The strike on top of the [`StrikeStack`] is made, with its critical, damage and harm
    /// (the harm driver): an attack of opportunity, a held attack, the variant's reaction
    /// to a step, a command's attacks or a charge's.
    Strikes,
    /// Once the walk and the strikes are over: what the command spent beyond the budget
    /// (the [`Slot::AfterCommand`] slot), then a side out of the fight ends the battle.
    Settle,
    /// Occupancy and the threat map follow what moved.
    Derive,
    /// Time moves on when the acting fighter is done.
    Clock,
}

impl RulesStage {
    pub const ALL: [RulesStage; 8] = [
        RulesStage::Intake,
        RulesStage::Validate,
        RulesStage::Resolve,
        RulesStage::Walk,
        RulesStage::Strikes,
        RulesStage::Settle,
        RulesStage::Derive,
        RulesStage::Clock,
    ];

    pub fn name(self) -> &'static str {
        match self {
            RulesStage::Intake => "intake",
            RulesStage::Validate => "validate",
            RulesStage::Resolve => "resolve",
            RulesStage::Walk => "walk",
            RulesStage::Strikes => "strikes",
            RulesStage::Settle => "settle",
            RulesStage::Derive => "derive",
            RulesStage::Clock => "clock",
        }
    }
}

/// The clock stage's two steps: the variant says whether the acting fighter is done, then
/// time moves (the [`ClockSchedule`], run until someone can act).
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Passing {
    Spent,
    TimeMoves,
}

/// The command in flight and how far it has come.
#[derive(Resource, Debug, Default)]
pub enum Turn {
    #[default]
    Idle,
    /// Given, not yet taken in.
    Ordered(Command),
    /// Taken in, not yet checked.
    Taken(Command),
    /// Checked and being carried out.
    Accepted {
        actor: Entity,
        plan: Plan,
    },
    /// The battle ended with this command.
    Decided,
    Refused(RuleError),
}

impl Turn {
    /// The acting fighter and the plan of an accepted command.
    pub fn accepted(&self) -> Option<(Entity, &Plan)> {
        match self {
            Turn::Accepted { actor, plan } => Some((*actor, plan)),
            _ => None,
        }
    }
}

/// Which run of the schedule this is for the command in flight: 0 carries the command
/// out, each later one makes the next strike on the stack or, once none is left, walks a
/// move's next leg.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Pass(pub u32);

/// The move under way, between its legs.
#[derive(Resource, Debug, Default)]
pub struct Walking(pub Option<crate::combat::resolve::Walk>);

/// Attacks waiting to be made, the last pushed first: the reactions a walk drew and the
/// attacks a command or a charge makes.
#[derive(Resource, Debug, Default)]
pub struct StrikeStack(pub Vec<Strike>);

/// An attack waiting to be made (fighters by entity).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Strike {
    /// `by` strikes `mover`, which did `trigger` (in the log's words).
    Opportunity { by: Entity, mover: Entity, trigger: String },
    /// `by`'s held attack on `mover`, which came into its reach.
    HeldAttack { by: Entity, mover: Entity },
    /// `by`'s reaction, under the variant's rules, to `mover`'s step.
    ToStep { by: Entity, mover: Entity },
    /// `by`'s attack action on `target` (its routine of attacks if `full`): any attacks of
    /// opportunity firing draws, then each attack while both stand.
    Routine { by: Entity, target: Entity, kind: crate::combat::AttackKind, full: bool },
    /// `by`'s attack at the end of its charge, with the charge's bonuses.
    Charge { by: Entity, target: Entity },
    /// `by`'s combat maneuver on `target`: the attack of opportunity it draws from the
    /// target where the variant says so (`hp_before`, the maker's hit points as it was
    /// pushed, none until then), the variant's check, then what a success does.
    Maneuver { by: Entity, target: Entity, kind: crate::combat::battle::Maneuver, hp_before: Option<i32> },
    /// Every foe threatening `mover` gets its attack of opportunity, first to last, for what
    /// it does (`trigger`, in the log's words: it stands up, it reloads); what it does
    /// comes about in the settle stage, if it is still in the fight.
    Provoked { mover: Entity, trigger: String },
    /// `caster`'s spell on `target`, announced: the attacks of opportunity casting draws
    /// and the concentration they break, as the variant has it; then, if it `goes_off` now,
    /// any counterspell and its effect, or else it is left under way ([`SpellsUnderWay`]).
    /// `hp_before` is the caster's hit points as its casting's attacks of opportunity were
    /// pushed above it (where the variant says casting provokes), none until then.
    Spell { caster: Entity, target: Entity, spell: String, defensive: bool, goes_off: bool, hp_before: Option<i32> },
    /// The spells of `casters` still being cast when their segment comes go off together
    /// (osr-segments' spells step, made as time moves on).
    Segment { casters: Vec<Entity> },
    /// `by`'s advanced action under way (`action`, out of its hands meanwhile) takes its next
    /// action point (ap-phases): the variant completes it once all are in; a charge then
    /// sets out.
    Advanced { by: Entity, action: crate::combat::kept::Advanced },
}

/// A strike that waits for the attacks of opportunity it draws: `waiting`, made of the
/// mover's hit points now (so that it can tell how much those attacks hurt), goes on the
/// stack beneath `drawn`, which is made first.
pub(super) fn after_attacks_drawn(
    world: &mut World,
    mover: Entity,
    waiting: impl FnOnce(i32) -> Strike,
    drawn: Strike,
) {
    let hp = world.get::<crate::rules::Health>(mover).expect("a strike names combatants").hp;
    let stack = &mut world.resource_mut::<StrikeStack>().0;
    stack.push(waiting(hp));
    stack.push(drawn);
}

/// How a variant that has advanced actions (ap-phases) spends an AP on one and completes
/// it, as its plugin gives it: the harm driver calls it for each [`Strike::Advanced`].
#[derive(Resource, Clone, Copy)]
pub struct AdvancedActions(
    pub fn(&mut World, Entity, crate::combat::kept::Advanced) -> Option<crate::combat::resolve::Walk>,
);

/// A rule driver's way to set a fighter walking: the walk goes to its first stop (a square
/// whose leaving provokes, or whose entering draws reactions), and the attacks there are
/// pushed for the strikes stage.
pub struct Moves<'a> {
    walking: &'a mut Walking,
    stack: &'a mut StrikeStack,
    /// The variant watches each step (`walked::StepsWatched`).
    watches_steps: bool,
}

/// The world given to `work` with the walk under way and the reactions waiting taken out.
pub fn with_moves(world: &mut World, work: impl FnOnce(&mut World, &mut Moves)) {
    with_taken(world, |world, walking: &mut Walking| {
        with_taken(world, |world, stack: &mut StrikeStack| {
            let watches_steps = world.get_resource::<walked::StepsWatched>().is_some_and(|w| w.0);
            let mut moves = Moves { walking, stack, watches_steps };
            work(world, &mut moves);
        })
    })
}

impl Moves<'_> {
    /// Walks `walk`'s next leg, from where it stands.
    pub fn set_out(&mut self, world: &mut World, mut walk: crate::combat::resolve::Walk) {
        match walk.leg(world, self.watches_steps) {
            crate::combat::resolve::Leg::Provokes { by, trigger } => {
                self.stack.0.push(Strike::Opportunity { by, mover: walk.mover, trigger });
                self.walking.0 = Some(walk);
            }
            crate::combat::resolve::Leg::Held { by } => {
                // The first holder's attack on top: it is made first.
                let mover = walk.mover;
                self.stack.0.extend(by.into_iter().rev().map(|by| Strike::HeldAttack { by, mover }));
                self.walking.0 = Some(walk);
            }
            crate::combat::resolve::Leg::Stepped => self.walking.0 = Some(walk),
            crate::combat::resolve::Leg::Over => self.arrive(walk),
        }
    }

    /// `walk` is over: it waits in [`Walking`] for the walk driver to end it, once the
    /// variant has followed it up (`walked::follow_walk`).
    fn arrive(&mut self, mut walk: crate::combat::resolve::Walk) {
        walk.arrive();
        self.walking.0 = Some(walk);
    }

    /// Ends the walk that arrived, if one did.
    fn end_arrived(&mut self, world: &mut World) {
        if let Some(walk) = self.walking.0.take_if(|walk| walk.arrived()) {
            self.finish(world, walk);
        }
    }

    /// Ends `walk`; what follows it (a charge's attack) waits on the stack.
    fn finish(&mut self, world: &mut World, walk: crate::combat::resolve::Walk) {
        let mover = walk.mover;
        match walk.finish(world) {
            crate::combat::resolve::Then::Nothing => {}
            crate::combat::resolve::Then::ChargeAttack { target } => {
                self.stack.0.push(Strike::Charge { by: mover, target });
            }
            crate::combat::resolve::Then::Drag { foe } => crate::combat::resolve::drag_beside(world, mover, foe),
        }
    }

    /// Once the reactions at its stop are made: the walk under way goes on, or ends if its
    /// mover fell.
    pub fn go_on(&mut self, world: &mut World) {
        if !self.stack.0.is_empty() {
            return;
        }
        let Some(walk) = self.walking.0.take() else { return };
        if walk.arrived() || (self.watches_steps && walk.stepped_from().is_some()) {
            self.walking.0 = Some(walk);
        } else if walk.survives(world) {
            self.set_out(world, walk);
        } else {
            self.arrive(walk);
        }
    }
}

/// Whether the command has more to resolve: a walk under way or a strike waiting.
pub fn unsettled(walking: &Walking, stack: &StrikeStack) -> bool {
    walking.0.is_some() || !stack.0.is_empty()
}

/// Run condition: a command is being carried out and nothing of it is still waiting.
pub fn carrying_out(turn: Res<Turn>, walking: Res<Walking>, stack: Res<StrikeStack>) -> bool {
    matches!(*turn, Turn::Accepted { .. }) && !unsettled(&walking, &stack)
}

/// A schedule of rule systems, `label`: run on the calling thread (a battle's systems
/// share its world one after another, and the sim runs battles side by side instead), with
/// ambiguity detection set to error, so that every two systems that touch the same data
/// run in an order said outright.
pub(crate) fn rule_schedule(label: impl ScheduleLabel) -> Schedule {
    let mut schedule = Schedule::new(label);
    schedule.set_executor(SingleThreadedExecutor::new());
    schedule.set_build_settings(ScheduleBuildSettings { ambiguity_detection: LogLevel::Error, ..default() });
    schedule
}

/// Sets up the rules schedule with the common systems in every stage and slot.
pub struct RulesSchedulePlugin;

impl Plugin for RulesSchedulePlugin {
    fn build(&self, app: &mut App) {
        app.add_schedule(rule_schedule(RulesSchedule))
            .init_resource::<Turn>()
            .init_resource::<Pass>()
            .init_resource::<Walking>()
            .init_resource::<StrikeStack>()
            .init_resource::<SpellsUnderWay>()
            .init_resource::<OwnState>();
        for pair in RulesStage::ALL.windows(2) {
            app.configure_sets(RulesSchedule, pair[0].before(pair[1]));
        }
        app.configure_sets(RulesSchedule, RulesStage::Settle.run_if(carrying_out));
        app.configure_sets(
            RulesSchedule,
            (
                Passing::Spent.run_if(carrying_out),
                Passing::TimeMoves.run_if(|t: Res<TimeMoves>, walking: Res<Walking>, stack: Res<StrikeStack>| {
                    t.moving && !unsettled(&walking, &stack)
                }),
            )
                .chain()
                .in_set(RulesStage::Clock),
        );
        app.add_systems(RulesSchedule, clock::run_the_clock.in_set(Passing::TimeMoves));
        clock::add_clock(app);
        taken::add_taken(app);
        walked::add_walk_schedules(app);
        counter::add_counter(app);
        app.add_schedule(rule_schedule(AttackedSchedule)).init_resource::<UnderAttack>();
        app.add_schedule(rule_schedule(DistractedSchedule)).init_resource::<Distracted>();
        harm::add_harm(app);
        swing::add_swing(app);
        invariants::add_invariants(app);
        app.add_schedule(rule_schedule(CastingSchedule)).init_resource::<CastingTried>();
        app.add_schedule(rule_schedule(ManeuverSchedule)).init_resource::<ManeuverTried>();
        for slot in Slot::ORDER {
            // The command's last slot waits until its walk and strikes are over (the settle
            // stage); the others run in the command's first pass.
            let stage = if slot == Slot::AfterCommand { RulesStage::Settle } else { RulesStage::Resolve };
            app.configure_sets(
                RulesSchedule,
                slot.in_set(stage).run_if(
                    move |turn: Res<Turn>, pass: Res<Pass>, walking: Res<Walking>, stack: Res<StrikeStack>| {
                        let due = if slot == Slot::AfterCommand { !unsettled(&walking, &stack) } else { pass.0 == 0 };
                        due && turn.accepted().is_some_and(|(_, plan)| slot.covers(&plan.command))
                    },
                ),
            );
        }
        for pair in Slot::ORDER.windows(2) {
            app.configure_sets(RulesSchedule, pair[0].before(pair[1]));
        }
        systems::add_common(app);
    }
}

/// What a variant keeps of its own (`combat::kept`), as its plugin registered it: the
/// battle's part (a resource), each combatant's part of the action economy (a component),
/// and the budget's part; the first two with how a battle starts them and how a snapshot
/// copies them.
#[derive(Resource, Default, Clone, Copy)]
pub struct OwnState {
    battle: Option<KeptType>,
    each: Option<KeptType>,
    budget: Option<&'static str>,
}

impl OwnState {
    /// Starts the battle's and each seated combatant's part with their defaults.
    pub(crate) fn start(&self, world: &mut World) {
        with_taken(world, |world, seats: &mut Combatants| {
            for kept in [self.battle, self.each].into_iter().flatten() {
                (kept.start)(world, &seats.0);
            }
        });
    }

    /// Copies what the variant keeps out of `world`.
    pub(crate) fn take(&self, world: &World, into: &mut Kept) {
        let seats = &world.resource::<Combatants>().0;
        for kept in [self.battle, self.each].into_iter().flatten() {
            (kept.take)(world, seats, into);
        }
    }

    /// Puts a copy of what the variant keeps into `world`.
    pub(crate) fn put(&self, world: &mut World, from: &Kept) {
        with_taken(world, |world, seats: &mut Combatants| {
            for kept in [self.battle, self.each].into_iter().flatten() {
                (kept.put)(world, &seats.0, from);
            }
        });
    }

    /// The names of its types, each with what holds it.
    pub fn names(&self) -> Vec<String> {
        [(self.battle.map(|k| k.name), "battle"), (self.each.map(|k| k.name), "each combatant")]
            .into_iter()
            .chain([(self.budget, "budget")])
            .filter_map(|(name, of)| name.map(|name| format!("{name} ({of})")))
            .collect()
    }
}

/// A variant's plugin registers the state it keeps of its own in a battle: a resource (a
/// battle starts with its default).
pub fn keep_for_battle<T: KeptByBattle>(app: &mut App) {
    app.world_mut().resource_mut::<OwnState>().battle = Some(KeptType::battle::<T>());
}

/// A variant's plugin registers each combatant's part of its action economy: a component
/// every combatant gets (a battle starts each with the default).
pub fn keep_each<T: KeptByEach>(app: &mut App) {
    app.world_mut().resource_mut::<OwnState>().each = Some(KeptType::each::<T>());
}

/// A variant's plugin registers its own part of a budget (set by its `fresh_budget` or
/// its `spend`; its default until then).
pub fn own_budget<T: OwnBudget>(app: &mut App) {
    app.world_mut().resource_mut::<OwnState>().budget = Some(type_name_of::<T>());
}

/// Takes the common system out of `slot`, for a variant whose source does it otherwise;
/// the variant's plugin then adds its own system there.
pub fn replace_slot(app: &mut App, slot: Slot) {
    remove_rule_systems(app, slot);
}

/// Takes the systems in `set` (a slot, or one system) out of the rules schedule, keeping
/// the order of those before and after them. Only what is there already is taken out: a
/// plugin doing this comes after the plugin that added them.
pub fn remove_rule_systems<M>(app: &mut App, set: impl IntoSystemSet<M>) {
    remove_systems(app, RulesSchedule, set);
}

/// Takes the systems in `set` out of the clock schedule, as [`remove_rule_systems`] does
/// out of the rules schedule.
pub fn remove_clock_systems<M>(app: &mut App, set: impl IntoSystemSet<M>) {
    remove_systems(app, ClockSchedule, set);
}

fn remove_systems<M>(app: &mut App, label: impl ScheduleLabel, set: impl IntoSystemSet<M>) {
    let world = app.world_mut();
    let mut schedule = world.resource_mut::<Schedules>().remove(label).expect("RulesSchedulePlugin adds the schedule");
    schedule
        .remove_systems_in_set(set, world, ScheduleCleanupPolicy::RemoveSystemsOnly)
        .expect("the schedule has the set");
    world.resource_mut::<Schedules>().insert(schedule);
}

/// The variant's clock system: once the acting fighter has ended its opportunity, dropped,
/// or `spent` says its budget has nothing left, time moves on. Named after `spent`.
pub fn pass_turn_when<F>(spent: F) -> impl System<In = (), Out = ()>
where
    F: Fn(&Budget) -> bool + Send + Sync + 'static,
{
    IntoSystem::into_system(
        // Runs only while the command is being carried out and its walk is over
        // (`carrying_out`, the Spent set's condition).
        move |fighters: Query<(&crate::rules::Conditions, &Economy)>, turn: Res<Turn>, mut time: ResMut<TimeMoves>| {
            let Some((actor, plan)) = turn.accepted() else { return };
            let Ok((conditions, economy)) = fighters.get(actor) else { return };
            let over = matches!(plan.command, Command::EndTurn | Command::Delay | Command::Declare { .. })
                || !conditions.can_act()
                || spent(&economy.budget);
            if over {
                time.start();
            }
        },
    )
    .with_name(std::any::type_name::<F>())
}
