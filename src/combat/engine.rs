//! The engine: a `World` with the rules schedule of one variant built in it (the common
//! [`RulesSchedulePlugin`] and the variant's own plugin), home to one battle at a time
//! (`world::BattleWorld`), so everything that resolves a command (the window, the sim, the
//! AI's foresight, the tests) runs this one schedule; and the listing of that schedule.

use super::command::{Command, RuleError};
use super::house_rules::HouseRulePlugin;
use super::listing::{Access, ScheduleListing, StageListing, access_by_key, list_set, system_listing, systems_outside};
use super::modifiers::{Modifiers, PendingAttack, PendingDamage, Weighing};
use super::schedule::UnfilledSlots;
use super::schedule::clock::run_the_clock;
use super::schedule::{
    AfterStrike, AfterWalk, AttackedSchedule, BeforeAttack, CastingSchedule, ClockSchedule, ClockStep, Concentration,
    CounterSchedule, Countering, DistractedSchedule, HarmSchedule, Harms, HoldOnSpell, OwnState, Pass, Passing,
    RulesSchedule, RulesSchedulePlugin, RulesStage, Slot, StepSchedule, StepsWatched, StrikeStack, SwingSchedule,
    Swings, TakenSchedule, TimeMoves, Turn, WalkOverSchedule, Walking, WatchStep, unsettled,
};
use super::schedule::{Invariants, InvariantsSchedule, ManeuverCheck, ManeuverSchedule};
use super::snapshot::{Copier, Snapshot};
use crate::variants::{HouseRule, RulesVariant};
use bevy::app::App;
use bevy::ecs::change_detection::CheckChangeTicks;
use bevy::ecs::schedule::ScheduleLabel;
use bevy::ecs::schedule::{InternedScheduleLabel, InternedSystemSet, Schedule, Schedules};
use bevy::prelude::*;

/// A `World` with the rules schedule of one variant built in it.
pub struct Engine {
    world: World,
    schedule: Schedule,
    variant: RulesVariant,
    /// The house rules whose plugins followed the variant's.
    house_rules: Vec<HouseRule>,
    /// Only the variant's and house rules' own systems: fit to serve another battle under
    /// the same rules.
    plain: bool,
    /// What copies the battle out of the world and into it (snapshots and restores): kept
    /// up to date with the world's archetypes after every change to it.
    copier: Copier,
}

/// The last change-tick check the world made: the rules schedule, held outside the
/// world's `Schedules`, takes it after each command.
#[derive(Resource, Default)]
struct TickCheck(Option<CheckChangeTicks>);

impl Engine {
    pub fn new(variant: RulesVariant) -> Engine {
        Engine::with_house_rules(variant, &[])
    }

    /// The engine of `variant` with `house_rules`' plugins after the variant's, each of
    /// which must apply to it (`HouseRule::check`).
    pub fn with_house_rules(variant: RulesVariant, house_rules: &[HouseRule]) -> Engine {
        Engine { plain: true, ..Engine::build_with(variant, house_rules, |_| {}) }
    }

    /// The house rules in force.
    pub fn house_rules(&self) -> &[HouseRule] {
        &self.house_rules
    }

    /// Built with the variant's own systems only (not `build`'s extras).
    pub fn is_plain(&self) -> bool {
        self.plain
    }

    pub fn variant(&self) -> RulesVariant {
        self.variant
    }

    /// The world of the battle it holds.
    pub fn world(&self) -> &World {
        &self.world
    }

    pub(crate) fn world_mut(&mut self) -> &mut World {
        &mut self.world
    }

    /// The app of `variant`'s rules: the common rules plugin, the variant's plugin, the
    /// house rules' plugins, then `more`; its schedules not built.
    fn app(variant: RulesVariant, house_rules: &[HouseRule], more: impl FnOnce(&mut App)) -> App {
        let mut app = App::empty();
        app.add_plugins(RulesSchedulePlugin);
        super::variants::add_plugin(&mut app, variant);
        for &rule in house_rules {
            app.add_plugins(HouseRulePlugin { rule, variant });
        }
        more(&mut app);
        app.finish();
        app.cleanup();
        app
    }

    /// The engine of `variant`, with `more` added to its app after the variant's plugin.
    #[cfg(test)]
    fn build(variant: RulesVariant, more: impl FnOnce(&mut App)) -> Engine {
        Engine::build_with(variant, &[], more)
    }

    fn build_with(variant: RulesVariant, house_rules: &[HouseRule], more: impl FnOnce(&mut App)) -> Engine {
        let mut world = std::mem::take(Engine::app(variant, house_rules, more).world_mut());
        let mut schedule = world
            .resource_mut::<Schedules>()
            .remove(RulesSchedule)
            .expect("RulesSchedulePlugin adds the rules schedule");
        schedule.initialize(&mut world).expect("the rules schedule builds: every pair of rule systems is ordered");
        let mut clock = world.resource_mut::<Schedules>().remove(ClockSchedule).expect("the clock schedule");
        clock.initialize(&mut world).expect("the clock schedule builds: every pair of its systems is ordered");
        world.resource_mut::<Schedules>().insert(clock);
        for (label, ..) in inner_schedules() {
            let mut part = world.resource_mut::<Schedules>().remove(label).expect("the rules plugin adds it");
            part.initialize(&mut world).expect("every pair of its systems is ordered");
            world.resource_mut::<Schedules>().insert(part);
        }
        let watched = world.resource::<Schedules>().get(StepSchedule).is_some_and(|s| s.systems_len() > 0);
        world.insert_resource(StepsWatched(watched));
        // Without a window of time the clock would never find anyone to act; without its
        // economy's check nobody's opportunity would end.
        let windows = world
            .resource::<Schedules>()
            .get(ClockSchedule)
            .map_or(0, |clock| clock.graph().systems_in_set(ClockStep::Window.intern()).map_or(0, |s| s.len()));
        let spent = schedule.graph().systems_in_set(Passing::Spent.intern()).map_or(0, |s| s.len());
        assert!(windows >= 1 && spent == 1, "{} must add its window systems and one clock system", variant.id());
        // A command whose slot was left without a system (a house rule took it out) is
        // refused by the checks.
        let unfilled = Slot::ORDER
            .into_iter()
            .filter(|slot| schedule.graph().systems_in_set(slot.intern()).is_ok_and(|s| s.is_empty()))
            .collect();
        world.insert_resource(UnfilledSlots(unfilled));
        world.init_resource::<TickCheck>();
        world.add_observer(|check: On<CheckChangeTicks>, mut last: ResMut<TickCheck>| last.0 = Some(*check));
        super::battle::ColumnIds::register(&mut world);
        let copier = Copier::new(&mut world);
        Engine { world, schedule, variant, house_rules: house_rules.to_vec(), plain: false, copier }
    }

    /// A snapshot of the battle in the world, without its event log.
    pub(crate) fn snapshot_quiet(&self) -> Snapshot {
        self.copier.take(&self.world)
    }

    /// Makes `snapshot` a snapshot of the battle in the world, without its event log, in
    /// place.
    pub(crate) fn snapshot_quiet_into(&self, snapshot: &mut Snapshot) {
        self.copier.take_into(&self.world, snapshot);
    }

    /// Puts the battle of `snapshot` in the world, whose seats are as many as its
    /// fighters, in place of the one there.
    pub(crate) fn put(&mut self, snapshot: &Snapshot) {
        self.copier.put(&mut self.world, snapshot);
    }

    /// Brings the copier up to date after the world changed from outside the schedule
    /// (combatants seated).
    pub(crate) fn refresh_copier(&mut self) {
        self.copier.refresh(&self.world);
    }

    /// Opens the battle's first window of time and moves time to the first fighter to act.
    pub fn begin(&mut self) {
        self.world.resource_mut::<TimeMoves>().begin();
        run_the_clock(&mut self.world);
    }

    /// Checks and resolves `cmd` for the fighter acting now in the world's battle: runs the
    /// schedule as many passes as it takes.
    pub fn execute(&mut self, cmd: Command) -> Result<(), RuleError> {
        *self.world.resource_mut::<Turn>() = Turn::Ordered(cmd);
        // One pass carries the command out; each further pass makes the next reaction on
        // the stack, or walks a move's next leg once they are made.
        self.world.resource_mut::<Pass>().0 = 0;
        loop {
            self.schedule.run(&mut self.world);
            if !unsettled(self.world.resource::<Walking>(), self.world.resource::<StrikeStack>()) {
                break;
            }
            self.world.resource_mut::<Pass>().0 += 1;
        }
        if let Some(check) = self.world.resource_mut::<TickCheck>().0.take() {
            self.schedule.check_change_ticks(check);
        }
        self.copier.refresh(&self.world);
        match std::mem::take(&mut *self.world.resource_mut::<Turn>()) {
            Turn::Refused(e) => Err(e),
            _ => Ok(()),
        }
    }

    /// What the variant keeps of its own (its plugin registered it): the battle's part and
    /// each seated combatant's, started with their defaults.
    pub(crate) fn start_kept(&mut self) {
        let own = *self.world.resource::<OwnState>();
        own.start(&mut self.world);
    }

    /// How many times the schedule ran for the last command: one, and one more for each
    /// reaction its walk stopped for (an attack of opportunity, a held attack, a reaction
    /// to a step).
    pub fn passes(&self) -> u32 {
        self.world.resource::<Pass>().0 + 1
    }

    /// The schedule as Bevy built it: each stage in run order with its systems in run
    /// order, named from the built schedule (with, in the resolve stage, each one's slot),
    /// and each system's access as Bevy computes it, from a copy of the same plugins
    /// listed before it is built.
    pub fn listing(&self) -> ScheduleListing {
        let mut copy = Engine::app(self.variant, &self.house_rules, |_| {});
        let world = copy.world_mut();
        let mut schedules = world.remove_resource::<Schedules>().expect("the rules plugin adds its schedules");
        // Keys are per schedule: the rules' and the clock's are looked up apart.
        let access: Access = access_by_key(schedules.get_mut(RulesSchedule).expect("the rules schedule"), world);
        let clock_access = access_by_key(schedules.get_mut(ClockSchedule).expect("the clock schedule"), world);
        let clock = self.world.resource::<Schedules>().get(ClockSchedule).expect("the clock schedule");
        let mut sets: Vec<StageListing> = RulesStage::ALL
            .iter()
            .map(|stage| list_set(&self.schedule, stage.intern(), stage.name(), &access))
            .collect();
        // A step the variant leaves empty (hex-phases has no dying turns) is not listed.
        sets.extend(
            ClockStep::ALL
                .iter()
                .map(|step| list_set(clock, step.intern(), step.name(), &clock_access))
                .filter(|step| !step.systems.is_empty()),
        );
        // Those the variant leaves empty are not listed.
        for (label, set, name) in inner_schedules() {
            let access = access_by_key(schedules.get_mut(label).expect("the rules plugin adds it"), world);
            let built = self.world.resource::<Schedules>().get(label).expect("the rules plugin adds it");
            sets.extend(Some(list_set(built, set, name, &access)).filter(|set| !set.systems.is_empty()));
        }
        // Each system of the stages that hold slots (resolve, settle) with its slot.
        let slots: Vec<StageListing> = Slot::ORDER
            .iter()
            .map(|slot| list_set(&self.schedule, slot.intern(), &format!("{slot:?}"), &access))
            .collect();
        for stage in sets
            .iter_mut()
            .filter(|s| [RulesStage::Resolve, RulesStage::Settle].map(|s| s.name()).contains(&s.name.as_str()))
        {
            stage.places = stage
                .systems
                .iter()
                .map(|system| slots.iter().find(|s| s.systems.contains(system)).map_or("", |s| s.name.as_str()).into())
                .collect();
        }
        sets.push(self.modifiers_listing::<PendingAttack>());
        sets.push(self.modifiers_listing::<PendingDamage>());
        let own = self.world.resource::<OwnState>().names();
        let house_rules = self.house_rules.iter().map(|r| r.id().to_string()).collect();
        ScheduleListing { variant: self.variant.id().into(), house_rules, sets, own }
    }

    /// The modifier systems of a kind of roll, in the order each roll and preview run them,
    /// with the access Bevy computed for each when it was added.
    fn modifiers_listing<P: Weighing>(&self) -> StageListing {
        let modifiers = self.world.get_resource::<Modifiers<P>>().map(Modifiers::listing).unwrap_or_default();
        let systems = modifiers.iter().map(|(name, access)| system_listing(name, access, false, &self.world)).collect();
        StageListing { name: P::NAME.into(), systems, places: vec![] }
    }

    /// Systems of the rules and clock schedules that sit in none of their stages or steps
    /// (and so would run in no defined order): none, in every variant.
    pub fn systems_outside_stages(&self) -> Vec<String> {
        let clock = self.world.resource::<Schedules>().get(ClockSchedule).expect("the clock schedule");
        let stages: Vec<InternedSystemSet> = RulesStage::ALL.iter().map(|s| s.intern()).collect();
        let steps: Vec<InternedSystemSet> = ClockStep::ALL.iter().map(|s| s.intern()).collect();
        let mut out = systems_outside(&self.schedule, &stages);
        out.extend(systems_outside(clock, &steps));
        for (label, set, _) in inner_schedules() {
            let inner = self.world.resource::<Schedules>().get(label).expect("the rules plugin adds it");
            out.extend(systems_outside(inner, &[set]));
        }
        out
    }
}

/// The schedules a rule driver runs within a stage, besides the clock's: each with the set
/// that holds its systems and the name it is listed by, in the order listed.
fn inner_schedules() -> [(InternedScheduleLabel, InternedSystemSet, &'static str); 11] {
    [
        (AttackedSchedule.intern(), BeforeAttack.intern(), BeforeAttack.name()),
        (SwingSchedule.intern(), Swings.intern(), Swings.name()),
        (ManeuverSchedule.intern(), ManeuverCheck.intern(), ManeuverCheck.name()),
        (CastingSchedule.intern(), HoldOnSpell.intern(), HoldOnSpell.name()),
        (DistractedSchedule.intern(), Concentration.intern(), Concentration.name()),
        (HarmSchedule.intern(), Harms.intern(), Harms.name()),
        (TakenSchedule.intern(), AfterStrike.intern(), AfterStrike.name()),
        (StepSchedule.intern(), WatchStep.intern(), WatchStep.name()),
        (WalkOverSchedule.intern(), AfterWalk.intern(), AfterWalk.name()),
        (CounterSchedule.intern(), Countering.intern(), Countering.name()),
        (InvariantsSchedule.intern(), Invariants.intern(), Invariants.name()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::battle::EventLog;
    use crate::combat::event::CombatEvent;
    use crate::combat::time::Clock;
    use crate::combat::world::BattleWorld;
    use crate::combat::{BattleOptions, Command};
    use crate::level::{Catalogue, Level};

    /// A rule system that panics on an attack, after the attack was made.
    fn broken_rule(turn: Res<Turn>) {
        if turn.accepted().is_some_and(|(_, plan)| matches!(plan.command, Command::Attack { .. })) {
            panic!("a broken rule");
        }
    }

    /// What a rule system saw of the world while an attack was resolved.
    #[derive(Resource, Default)]
    struct Seen {
        ids: Vec<String>,
        entities: usize,
        actor: Option<usize>,
        hp: Vec<i32>,
        standard_left: Option<bool>,
    }

    /// A rule system that looks at the combatants as entities, each component on its own,
    /// and at the clock as a resource, once the resolve stage is over.
    fn look_at_the_world(
        turn: Res<Turn>,
        seats: Res<crate::combat::battle::Combatants>,
        fighters: Query<&crate::rules::Combatant>,
        health: Query<&crate::rules::Health>,
        economy: Query<&crate::combat::fighter::Economy>,
        clock: Res<Clock>,
        mut seen: ResMut<Seen>,
    ) {
        if turn.accepted().is_some_and(|(_, plan)| matches!(plan.command, Command::Attack { .. })) {
            seen.ids = seats.0.iter().map(|&e| fighters.get(e).expect("a seated fighter").id.clone()).collect();
            seen.entities = fighters.iter().count();
            seen.actor = clock.actor.and_then(|e| seats.0.iter().position(|&s| s == e));
            seen.hp = seats.0.iter().map(|&e| health.get(e).expect("a seated fighter").hp).collect();
            seen.standard_left = clock.actor.map(|e| economy.get(e).expect("its economy").budget.standard);
        }
    }

    fn duel_level(units: &str) -> Level {
        let text = format!(r#"(name: "duel", rules: "d20-classic", map: (rows: ["....", "...."]), units: [{units}])"#);
        Level::parse(&text, std::path::Path::new("duel.ron"), &Catalogue::builtin()).expect("the duel parses")
    }

    fn duel_on(engine: Engine, units: &str, options: BattleOptions) -> BattleWorld {
        BattleWorld::new_on(engine, &duel_level(units), &Catalogue::builtin(), 1, options)
    }

    const TWO: &str = r#"(id: "a", side: "blue", at: (1, 0), creature: "human_fighter"),
        (id: "b", side: "red", at: (2, 0), creature: "human_fighter"),"#;
    const THREE: &str = r#"(id: "z", side: "blue", at: (1, 0), creature: "human_fighter"),
        (id: "x", side: "red", at: (2, 0), creature: "goblin"),
        (id: "y", side: "red", at: (1, 1), creature: "goblin"),"#;

    #[test]
    fn the_combatants_are_entities_of_the_battles_world_and_the_clock_a_resource() {
        let variant = RulesVariant::D20Classic;
        let mut engine = Engine::build(variant, |app| {
            app.init_resource::<Seen>();
            app.add_systems(RulesSchedule, look_at_the_world.after(RulesStage::Resolve).before(RulesStage::Walk));
        });
        for units in [THREE, TWO, THREE] {
            let mut battle = duel_on(engine, units, BattleOptions::default());
            let actor = battle.actor().expect("the battle is on");
            let target = {
                let read = battle.read();
                read.fighters.iter().find(|f| *f.side() != read.fighters.side[actor]).unwrap().id().to_string()
            };
            battle.execute(Command::Attack { target }).expect("an attack in reach");
            let seen = battle.world().resource::<Seen>();
            let read = battle.read();
            let ids: Vec<String> = read.fighters.iter().map(|f| f.id().to_string()).collect();
            assert_eq!(seen.ids, ids, "one entity a combatant, seated in id order");
            assert_eq!(seen.entities, ids.len(), "no entity left over from a bigger battle");
            assert_eq!(seen.actor, Some(actor), "the clock in play was this battle's");
            let hp: Vec<i32> = read.fighters.indices().map(|i| read.fighters.health[i].hp).collect();
            assert_eq!(seen.hp, hp, "each fighter's Health component was the battle's, the blow already struck");
            assert_eq!(seen.standard_left, Some(false), "the attack spent the actor's standard action, on its entity");
            assert!(!read.budget().standard);
            assert_eq!(battle.world().resource::<EventLog>().0, battle.events(), "the log is the world's resource");
            engine = battle.into_engine();
            engine.world_mut().resource_mut::<Seen>().entities = 0;
        }
    }

    #[test]
    fn a_world_serves_battles_of_any_size_in_turn_as_a_fresh_one_would() {
        let variant = RulesVariant::FourActions;
        let mut shared = Engine::new(variant);
        // A cap of one round: the battle's own options end it once everyone has ended a turn.
        let options = BattleOptions { round_cap: 1, ..BattleOptions::default() };
        for units in [TWO, THREE, TWO] {
            let mut on_shared = duel_on(shared, units, options.clone());
            let mut on_fresh = duel_on(Engine::new(variant), units, options.clone());
            let before = on_shared.events().len();
            while !on_shared.is_over() {
                let a = on_shared.execute(Command::EndTurn);
                let b = on_fresh.execute(Command::EndTurn);
                assert_eq!(a, b);
                assert!(on_shared.events().len() < before + 100, "the round cap ends the battle");
            }
            assert!(on_fresh.is_over());
            assert_eq!(on_shared.events(), on_fresh.events());
            assert_eq!(on_shared.clock().round, 2, "every turn of round 1 was taken");
            shared = on_shared.into_engine();
        }
    }

    #[test]
    fn a_panicking_rule_leaves_the_battle_as_far_as_it_came() {
        let variant = RulesVariant::D20Classic;
        let engine = Engine::build(variant, |app| {
            app.add_systems(RulesSchedule, broken_rule.after(RulesStage::Strikes).before(RulesStage::Settle));
        });
        let mut battle = duel_on(engine, TWO, BattleOptions::default());
        // A command that is not an attack goes through.
        battle.execute(Command::Stance { stance: crate::combat::command::Stance::Defensive }).ok();
        let events = battle.events().len();
        let actor = battle.actor().expect("the battle is on");
        let target = battle.read().fighters.combatant[1 - actor].id.clone();
        let attack = Command::Attack { target };
        let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| battle.execute(attack))).is_err();
        assert!(panicked, "the broken rule panics");
        // The battle is as far as the attack had come, and its world takes the next
        // command: the turn passes to the other fighter.
        assert!(
            battle.events()[events..].iter().any(|e| matches!(e, CombatEvent::Attack { .. })),
            "the attack was rolled"
        );
        let before = battle.events().len();
        assert!(battle.execute(Command::EndTurn).is_ok());
        assert_eq!(battle.actor(), Some(1 - actor), "the turn passed");
        assert!(battle.events()[before..].iter().any(|e| matches!(e, CombatEvent::TurnStarted { .. })));
    }
}
