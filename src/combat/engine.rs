//! The engine: a `World` with the rules schedule of one variant built in it (the common
//! [`RulesSchedulePlugin`] and the variant's own plugin). A battle's state is moved into that
//! world for the length of a command (its fighters become entities, the rest resources:
//! `battle::store`), so everything that resolves a command (the window, the sim,
//! the AI's foresight, the tests) runs this one schedule. Each thread keeps one engine per
//! variant, built on first use. Setting a battle up (`Battle::new`) lives here too: its
//! first window of time opens through the clock schedule.

use super::battle::Fighter;
use super::battle::{
    Battle, BattleOptions, BattleStats, Derived, EventLog, Fighters, Held, OwnedBattle, store, swap_with_world,
};
use super::command::{Command, RuleError};
use super::event::CombatEvent;
use super::listing::{Access, ScheduleListing, StageListing, access_by_key, list_set, systems_outside};
use super::schedule::clock::run_the_clock;
use super::schedule::{
    ClockSchedule, ClockStep, OwnState, Pass, Passing, ReactionStack, RulesSchedule, RulesSchedulePlugin, RulesStage,
    Slot, TimeMoves, Turn, Walking, unsettled,
};
use super::time::Clock;
use crate::level::{Catalogue, Level};
use crate::rules::{Battlefield, Dice};
use crate::variants::RulesVariant;
use bevy::app::App;
use bevy::ecs::change_detection::CheckChangeTicks;
use bevy::ecs::schedule::{InternedSystemSet, Schedule, Schedules};
use bevy::prelude::*;
use std::cell::RefCell;

impl OwnedBattle {
    /// Sets up a battle on a validated level.
    pub fn new(
        level: &Level,
        catalogue: &Catalogue,
        variant: RulesVariant,
        seed: u64,
        mut options: BattleOptions,
    ) -> OwnedBattle {
        // A level may choose its own d20-classic death saves.
        if let Some(mode) = level.def.death_saves {
            options.death_saves = mode;
        }
        let mut battle = Battle::new_paused(level, catalogue, variant, seed, options);
        super::clock::start(&mut battle);
        with_engine(variant, |engine| engine.begin(&mut battle));
        battle
    }

    /// A battle set up but not started: no initiative rolled, nobody acting. For
    /// questions about the standing position.
    pub fn new_paused(
        level: &Level,
        catalogue: &Catalogue,
        variant: RulesVariant,
        seed: u64,
        options: BattleOptions,
    ) -> OwnedBattle {
        let (own, economy) = with_engine(variant, |engine| engine.starting_state());
        let mut fighters: Vec<Fighter> =
            level.def.units.iter().filter_map(|u| Fighter::from_unit(u, catalogue, economy.clone())).collect();
        fighters.sort_by(|a, b| a.combatant.id.cmp(&b.combatant.id));
        let unarmed = catalogue.weapon("unarmed").cloned().expect("the catalogue has an unarmed strike");
        let mut battle = Battle {
            level_name: Held::Resting(level.def.name.clone()),
            field: Held::Resting(Battlefield { terrain: level.terrain.clone(), variant }),
            variant,
            fighters: Fighters::resting(fighters),
            dice: Held::Resting(Dice::seeded(seed)),
            options: Held::Resting(options),
            clock: Held::Resting(Clock::default()),
            events: Held::Resting(EventLog::default()),
            stats: Held::Resting(BattleStats::default()),
            winner: Held::Resting(None),
            own: Held::Resting(own),
            unarmed: Held::Resting(std::sync::Arc::new(unarmed)),
            derived: Held::Resting(Derived { stale: true, ..Derived::default() }),
            foreseen: Held::Resting(None),
            rules_of: super::variants::rules,
        };
        battle.emit(CombatEvent::BattleStarted { level: level.def.name.clone(), rules: variant.id().into(), seed });
        battle
    }

    /// Checks and resolves a command for the fighter acting now, through the rules
    /// schedule on this thread's engine for the battle's variant.
    pub fn execute(&mut self, cmd: Command) -> Result<(), RuleError> {
        execute(self, cmd)
    }
}

/// A `World` with the rules schedule of one variant built in it.
pub struct Engine {
    world: World,
    schedule: Schedule,
    variant: RulesVariant,
    /// The way into the world's battle, made with the world's spare when the first battle
    /// comes in.
    gate: Option<store::Gate>,
}

/// The last change-tick check the world made: the rules schedule, held outside the
/// world's `Schedules`, takes it after each command.
#[derive(Resource, Default)]
struct TickCheck(Option<CheckChangeTicks>);

impl Engine {
    pub fn new(variant: RulesVariant) -> Engine {
        Engine::build(variant, |_| {})
    }

    /// The app of `variant`'s rules: the common rules plugin, the variant's plugin, then
    /// `more`; its schedules not built.
    fn app(variant: RulesVariant, more: impl FnOnce(&mut App)) -> App {
        let mut app = App::empty();
        app.add_plugins(RulesSchedulePlugin);
        super::variants::add_plugin(&mut app, variant);
        more(&mut app);
        app.finish();
        app.cleanup();
        app
    }

    /// The engine of `variant`, with `more` added to its app after the variant's plugin.
    fn build(variant: RulesVariant, more: impl FnOnce(&mut App)) -> Engine {
        let mut world = std::mem::take(Engine::app(variant, more).world_mut());
        let mut schedule = world
            .resource_mut::<Schedules>()
            .remove(RulesSchedule)
            .expect("RulesSchedulePlugin adds the rules schedule");
        schedule.initialize(&mut world).expect("the rules schedule builds: every pair of rule systems is ordered");
        let mut clock = world.resource_mut::<Schedules>().remove(ClockSchedule).expect("the clock schedule");
        clock.initialize(&mut world).expect("the clock schedule builds: every pair of its systems is ordered");
        world.resource_mut::<Schedules>().insert(clock);
        // Without a window of time the clock would never find anyone to act; without its
        // economy's check nobody's opportunity would end.
        let windows = world
            .resource::<Schedules>()
            .get(ClockSchedule)
            .map_or(0, |clock| clock.graph().systems_in_set(ClockStep::Window.intern()).map_or(0, |s| s.len()));
        let spent = schedule.graph().systems_in_set(Passing::Spent.intern()).map_or(0, |s| s.len());
        assert!(windows == 1 && spent == 1, "{} must add one window system and one clock system", variant.id());
        world.init_resource::<TickCheck>();
        world.add_observer(|check: On<CheckChangeTicks>, mut last: ResMut<TickCheck>| last.0 = Some(*check));
        Engine { world, schedule, variant, gate: None }
    }

    /// Opens `battle`'s first window of time and moves time to the first fighter to act.
    pub fn begin(&mut self, battle: &mut OwnedBattle) {
        self.with_battle(battle, |engine| {
            engine.world.resource_mut::<TimeMoves>().begin();
            run_the_clock(&mut engine.world);
        })
    }

    /// Runs `work` with `battle` swapped into the world. Should a rule system panic,
    /// `battle` is handed back as far as the work had come and the panic goes on; the
    /// engine is built afresh, since a schedule cut short is not fit to run again (its
    /// executor would skip the systems it had reached, and a clock schedule taken out to
    /// run would be missing). An engine built with extra systems (`build`) loses them.
    fn with_battle<T>(&mut self, battle: &mut OwnedBattle, work: impl FnOnce(&mut Engine) -> T) -> T {
        let gate = match &mut self.gate {
            Some(gate) => gate,
            gate => gate.insert(store::gate(battle, &mut self.world)),
        };
        swap_with_world(battle, &mut self.world, gate);
        let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(self)));
        let gate = self.gate.as_mut().expect("made before the battle went in");
        swap_with_world(battle, &mut self.world, gate);
        ran.unwrap_or_else(|panic| {
            *self = Engine::new(self.variant);
            std::panic::resume_unwind(panic)
        })
    }

    /// Checks and resolves `cmd` for the fighter acting now in `battle`.
    pub fn execute(&mut self, battle: &mut OwnedBattle, cmd: Command) -> Result<(), RuleError> {
        debug_assert_eq!(battle.variant, self.variant, "a battle runs on its own variant's engine");
        self.with_battle(battle, |engine| engine.run_command(cmd))
    }

    /// Runs the schedule for `cmd` on the battle swapped in, as many passes as it takes.
    fn run_command(&mut self, cmd: Command) -> Result<(), RuleError> {
        *self.world.resource_mut::<Turn>() = Turn::Ordered(cmd);
        // One pass carries the command out; each further pass makes the next reaction on
        // the stack, or walks a move's next leg once they are made.
        self.world.resource_mut::<Pass>().0 = 0;
        loop {
            self.schedule.run(&mut self.world);
            if !unsettled(self.world.resource::<Walking>(), self.world.resource::<ReactionStack>()) {
                break;
            }
            self.world.resource_mut::<Pass>().0 += 1;
        }
        if let Some(check) = self.world.resource_mut::<TickCheck>().0.take() {
            self.schedule.check_change_ticks(check);
        }
        match std::mem::take(&mut *self.world.resource_mut::<Turn>()) {
            Turn::Refused(e) => Err(e),
            _ => Ok(()),
        }
    }

    /// What the variant keeps of its own in a battle, and in each combatant's economy, as
    /// a battle starts them (its plugin registered them).
    pub fn starting_state(&self) -> (super::own::Own, super::fighter::Economy) {
        let own = self.world.resource::<OwnState>();
        (own.fresh(), own.fresh_economy())
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
        let mut copy = Engine::app(self.variant, |_| {});
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
        sets.extend(ClockStep::ALL.iter().map(|step| list_set(clock, step.intern(), step.name(), &clock_access)));
        if let Some(resolve) = sets.iter_mut().find(|s| s.name == RulesStage::Resolve.name()) {
            let slots: Vec<StageListing> = Slot::ORDER
                .iter()
                .map(|slot| list_set(&self.schedule, slot.intern(), &format!("{slot:?}"), &access))
                .collect();
            resolve.places = resolve
                .systems
                .iter()
                .map(|system| slots.iter().find(|s| s.systems.contains(system)).map_or("", |s| s.name.as_str()).into())
                .collect();
        }
        let own = self.world.resource::<OwnState>().names();
        ScheduleListing { variant: self.variant.id().into(), house_rules: vec![], sets, own }
    }

    /// Systems of the rules and clock schedules that sit in none of their stages or steps
    /// (and so would run in no defined order): none, in every variant.
    pub fn systems_outside_stages(&self) -> Vec<String> {
        let clock = self.world.resource::<Schedules>().get(ClockSchedule).expect("the clock schedule");
        let stages: Vec<InternedSystemSet> = RulesStage::ALL.iter().map(|s| s.intern()).collect();
        let steps: Vec<InternedSystemSet> = ClockStep::ALL.iter().map(|s| s.intern()).collect();
        let mut out = systems_outside(&self.schedule, &stages);
        out.extend(systems_outside(clock, &steps));
        out
    }
}

thread_local! {
    /// This thread's engines, one per variant, built on first use.
    static ENGINES: RefCell<Vec<Option<Engine>>> = RefCell::new(RulesVariant::ALL.iter().map(|_| None).collect());
}

/// Runs `work` on this thread's engine for `variant`. Work started while another is under
/// way (which the rules never do) gets an engine of its own.
fn with_engine<T>(variant: RulesVariant, work: impl FnOnce(&mut Engine) -> T) -> T {
    let slot = RulesVariant::ALL.iter().position(|v| *v == variant).expect("every variant is in ALL");
    let taken = ENGINES.with(|e| e.borrow_mut()[slot].take());
    let mut engine = taken.unwrap_or_else(|| Engine::new(variant));
    let result = work(&mut engine);
    ENGINES.with(|e| e.borrow_mut()[slot] = Some(engine));
    result
}

/// Resolves `cmd` in `battle` on this thread's engine for its variant.
pub(crate) fn execute(battle: &mut OwnedBattle, cmd: Command) -> Result<(), RuleError> {
    with_engine(battle.variant, |engine| engine.execute(battle, cmd))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::schedule::{Slot, Turn};

    /// A rule system that panics on an attack, after the attack slot's own system ran.
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
        seats: Res<crate::combat::battle::Seats>,
        fighters: Query<&crate::rules::Combatant>,
        health: Query<&crate::rules::Health>,
        economy: Query<&crate::combat::fighter::Economy>,
        clock: Res<Clock>,
        mut seen: ResMut<Seen>,
    ) {
        if turn.accepted().is_some_and(|(_, plan)| matches!(plan.command, Command::Attack { .. })) {
            seen.ids = seats.0.iter().map(|&e| fighters.get(e).expect("a seated fighter").id.clone()).collect();
            seen.entities = fighters.iter().count();
            seen.actor = clock.actor;
            seen.hp = seats.0.iter().map(|&e| health.get(e).expect("a seated fighter").hp).collect();
            seen.standard_left = clock.actor.map(|i| economy.get(seats.0[i]).expect("its economy").budget.standard);
        }
    }

    fn duel(units: &str, variant: RulesVariant, options: BattleOptions) -> Battle<'static, 'static> {
        let text = format!(r#"(name: "duel", rules: "d20-classic", map: (rows: ["....", "...."]), units: [{units}])"#);
        let catalogue = Catalogue::builtin();
        let level = Level::parse(&text, std::path::Path::new("duel.ron"), &catalogue).expect("the duel parses");
        Battle::new(&level, &catalogue, variant, 1, options)
    }

    const TWO: &str = r#"(id: "a", side: "blue", at: (1, 0), creature: "human_fighter"),
        (id: "b", side: "red", at: (2, 0), creature: "human_fighter"),"#;
    const THREE: &str = r#"(id: "z", side: "blue", at: (1, 0), creature: "human_fighter"),
        (id: "x", side: "red", at: (2, 0), creature: "goblin"),
        (id: "y", side: "red", at: (1, 1), creature: "goblin"),"#;

    #[test]
    fn while_a_command_is_resolved_the_combatants_are_entities_and_the_clock_a_resource() {
        let variant = RulesVariant::D20Classic;
        let mut engine = Engine::build(variant, |app| {
            app.init_resource::<Seen>();
            app.add_systems(RulesSchedule, look_at_the_world.after(RulesStage::Resolve).before(RulesStage::Reactions));
        });
        for units in [THREE, TWO, THREE] {
            let mut battle = duel(units, variant, BattleOptions::default());
            *engine.world.resource_mut::<Seen>() = Seen::default();
            let actor = battle.actor().expect("the battle is on");
            let target =
                battle.fighters.iter().find(|f| *f.side() != battle.fighters.side[actor]).unwrap().id().to_string();
            engine.execute(&mut battle, Command::Attack { target }).expect("an attack in reach");
            let seen = engine.world.resource::<Seen>();
            let ids: Vec<String> = battle.fighters.iter().map(|f| f.id().to_string()).collect();
            assert_eq!(seen.ids, ids, "one entity a combatant, seated in id order");
            assert_eq!(seen.entities, ids.len(), "no entity left over from a bigger battle");
            assert_eq!(seen.actor, Some(actor), "the clock in play was this battle's");
            let hp: Vec<i32> = battle.fighters.indices().map(|i| battle.fighters.health[i].hp).collect();
            assert_eq!(seen.hp, hp, "each fighter's Health component was the battle's, the blow already struck");
            assert_eq!(seen.standard_left, Some(false), "the attack spent the actor's standard action, on its entity");
            assert!(!battle.budget().standard);
            // Between commands the world keeps only a spare: none of what the battle did is
            // left there.
            assert!(engine.world.resource::<crate::combat::battle::EventLog>().0.is_empty());
            assert!(!battle.events.is_empty());
        }
    }

    #[test]
    fn an_engine_serves_battles_of_any_size_in_turn_as_a_fresh_one_would() {
        let variant = RulesVariant::FourActions;
        let mut shared = Engine::new(variant);
        // A cap of one round: the battle's own options, not the world's spare, end it once
        // everyone has ended a turn.
        let options = BattleOptions { round_cap: 1, ..BattleOptions::default() };
        for units in [TWO, THREE, TWO] {
            let (mut on_shared, mut on_fresh) =
                (duel(units, variant, options.clone()), duel(units, variant, options.clone()));
            let mut fresh = Engine::new(variant);
            let before = on_shared.events.len();
            while !on_shared.is_over() {
                let a = shared.execute(&mut on_shared, Command::EndTurn);
                let b = fresh.execute(&mut on_fresh, Command::EndTurn);
                assert_eq!(a, b);
                assert!(on_shared.events.len() < before + 100, "the round cap ends the battle");
            }
            assert!(on_fresh.is_over());
            assert_eq!(on_shared.events, on_fresh.events);
            assert_eq!(on_shared.clock.round, 2, "every turn of round 1 was taken");
        }
    }

    #[test]
    fn a_panicking_rule_hands_the_battle_back() {
        let text = r#"(name: "duel", rules: "d20-classic", map: (rows: ["....", "...."]), units: [
            (id: "a", side: "blue", at: (1, 0), creature: "human_fighter"),
            (id: "b", side: "red", at: (2, 0), creature: "human_fighter"),
        ])"#;
        let catalogue = Catalogue::builtin();
        let level = Level::parse(text, std::path::Path::new("duel.ron"), &catalogue).expect("the duel parses");
        let variant = RulesVariant::D20Classic;
        let mut battle = Battle::new(&level, &catalogue, variant, 1, BattleOptions::default());
        let mut engine = Engine::build(variant, |app| {
            app.add_systems(RulesSchedule, broken_rule.after(Slot::Attack).in_set(RulesStage::Resolve));
        });
        // A command that is not an attack goes through.
        engine.execute(&mut battle, Command::Stance { stance: crate::combat::command::Stance::Defensive }).ok();
        let events = battle.events.len();
        let actor = battle.actor().expect("the battle is on");
        let target = battle.fighters.combatant[1 - actor].id.clone();
        let attack = Command::Attack { target };
        let panicked =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| engine.execute(&mut battle, attack))).is_err();
        assert!(panicked, "the broken rule panics");
        // The caller holds its own battle as far as the attack had come (the engine's spare
        // would not have the attack's events), and the engine takes the next command: the
        // turn passes to the other fighter.
        assert!(
            battle.events[events..].iter().any(|e| matches!(e, CombatEvent::Attack { .. })),
            "the attack was rolled"
        );
        let before = battle.events.len();
        assert!(engine.execute(&mut battle, Command::EndTurn).is_ok());
        assert_eq!(battle.actor(), Some(1 - actor), "the turn passed");
        assert!(battle.events[before..].iter().any(|e| matches!(e, CombatEvent::TurnStarted { .. })));
    }
}
