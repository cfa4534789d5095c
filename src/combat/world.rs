//! A battle's home: one `World` for the whole battle, built from the common rules plugin and
//! its variant's plugin (`engine`), in which the combatants are entities and everything
//! else of the battle is a resource (`battle::store`). Commands run the rules schedule on
//! that world; the window, the sim, `query`, the AI and the tests hold a [`BattleWorld`]
//! and read the battle from it. A [`Snapshot`] is the battle as plain data, for a playout
//! or a foresight restored into a scratch world of the same variant; worlds are reused per
//! thread (a finished battle's world serves the next battle of its variant on that thread),
//! since building a schedule costs far more than a battle's setup.

use super::battle::store::{self, Record};
use super::battle::{BattleOptions, BattleRead, BattleStats, Combatants, EventLog, Fighter};
use super::command::{Command, RuleError};
use super::engine::Engine;
use super::event::CombatEvent;
use super::fighter::Economy;
use super::resolve::Plan;
use super::snapshot::Snapshot;
use super::time::Clock;
use crate::level::{Catalogue, Level};
use crate::rules::{Battlefield, Dice, Position};
use crate::variants::{HouseRule, RulesVariant};
use bevy::prelude::*;
use std::cell::RefCell;
use std::sync::Arc;

/// One battle, living in its own world.
pub struct BattleWorld {
    /// Always there but while being dropped (its world goes back to the thread's pool).
    engine: Option<Engine>,
}

impl BattleWorld {
    /// Sets up a battle on a validated level and opens its first window of time.
    pub fn new(
        level: &Level,
        catalogue: &Catalogue,
        variant: RulesVariant,
        seed: u64,
        options: BattleOptions,
    ) -> BattleWorld {
        BattleWorld::new_on(take_engine(variant, &options.house_rules), level, catalogue, seed, options)
    }

    /// [`BattleWorld::new`] in the world of `engine`.
    pub(crate) fn new_on(
        engine: Engine,
        level: &Level,
        catalogue: &Catalogue,
        seed: u64,
        mut options: BattleOptions,
    ) -> BattleWorld {
        // A level may choose its own d20-classic death saves.
        if let Some(mode) = level.def.death_saves {
            options.death_saves = mode;
        }
        let mut battle = BattleWorld::paused_on(engine, level, catalogue, seed, options);
        battle.engine_mut().begin();
        battle.settle();
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
    ) -> BattleWorld {
        BattleWorld::paused_on(take_engine(variant, &options.house_rules), level, catalogue, seed, options)
    }

    fn paused_on(mut engine: Engine, level: &Level, catalogue: &Catalogue, seed: u64, options: BattleOptions) -> Self {
        let variant = engine.variant();
        let mut fighters: Vec<Fighter> =
            level.def.units.iter().filter_map(|u| Fighter::from_unit(u, catalogue, Economy::default())).collect();
        fighters.sort_by(|a, b| a.combatant.id.cmp(&b.combatant.id));
        let unarmed = catalogue.weapon("unarmed").cloned().expect("the catalogue has an unarmed strike");
        let house_rules = options.house_rules.clone();
        let record = Record::new(variant, super::variants::rules, level.def.name.clone(), options, Arc::new(unarmed));
        let world = engine.world_mut();
        store::furnish(world, Battlefield::new(level.terrain.clone(), variant), Dice::seeded(seed), record);
        store::seat(world, fighters);
        engine.start_kept();
        engine.refresh_copier();
        let mut battle = BattleWorld { engine: Some(engine) };
        battle.world_mut().resource_mut::<EventLog>().push(CombatEvent::BattleStarted {
            level: level.def.name.clone(),
            rules: variant.id().into(),
            seed,
            house_rules,
        });
        battle.settle();
        battle
    }

    /// A battle on the shipped level `file` (in `levels/`) under `variant` from `seed`, with
    /// the built-in catalogue and no house rules: how tests set one up.
    #[cfg(test)]
    pub(crate) fn shipped(file: &str, variant: RulesVariant, seed: u64) -> BattleWorld {
        let cat = Catalogue::builtin();
        let level =
            Level::load(format!("{}/levels/{file}", env!("CARGO_MANIFEST_DIR")), &cat).expect("a shipped level");
        BattleWorld::new(&level, &cat, variant, seed, BattleOptions::default())
    }

    /// A world of `variant` under `house_rules` from this thread's pool, holding whatever
    /// battle it last held: for [`BattleWorld::restore`].
    pub fn scratch(variant: RulesVariant, house_rules: &[HouseRule]) -> BattleWorld {
        BattleWorld { engine: Some(take_engine(variant, house_rules)) }
    }

    /// The house rules in force.
    pub fn house_rules(&self) -> &[HouseRule] {
        self.engine().house_rules()
    }

    /// The engine whose world held this battle, for another.
    #[cfg(test)]
    pub(crate) fn into_engine(mut self) -> Engine {
        self.engine.take().expect("a battle has its world until it is dropped")
    }

    fn engine(&self) -> &Engine {
        self.engine.as_ref().expect("a battle has its world until it is dropped")
    }

    fn engine_mut(&mut self) -> &mut Engine {
        self.engine.as_mut().expect("a battle has its world until it is dropped")
    }

    /// The world the battle lives in.
    pub fn world(&self) -> &World {
        self.engine().world()
    }

    /// The rules variant it is fought under.
    pub fn variant(&self) -> RulesVariant {
        self.engine().variant()
    }

    /// The battle, to read.
    pub fn read(&self) -> BattleRead<'_, '_> {
        store::read(self.world())
    }

    /// The world the battle lives in, to change (by the rules' drivers, and by a
    /// [`Scene`](super::scene::Scene)).
    pub(crate) fn world_mut(&mut self) -> &mut World {
        self.engine_mut().world_mut()
    }

    /// Dying fighter `i`'s turn (its death save, stabilising check or bleeding), taken as
    /// though the clock had called it now: its variant's system in the clock's
    /// [`DyingTurn`](super::schedule::DyingTurn) step, if its turn falls in the window open
    /// now.
    pub fn dying_turn(&mut self, i: usize) {
        use super::schedule::clock::{Called, ClockSchedule};
        let Some(&e) = self.world().resource::<super::battle::Combatants>().0.get(i) else { return };
        let world = self.engine_mut().world_mut();
        *world.resource_mut::<Called>() = Called::Dying(e);
        world.run_schedule(ClockSchedule);
        *world.resource_mut::<Called>() = Called::Nobody;
        self.settle();
    }

    /// Checks and resolves `cmd` for the fighter acting now.
    /// Should a rule system panic, the battle stays as far as the command had come, in a
    /// world built afresh (a schedule cut short is not fit to run again: its executor would
    /// skip the systems it had reached), and the panic goes on. A world built with extra
    /// systems (`Engine::build`) loses them.
    pub fn execute(&mut self, cmd: Command) -> Result<(), RuleError> {
        let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.engine_mut().execute(cmd)));
        match ran {
            Ok(done) => {
                self.settle();
                done
            }
            Err(panic) => {
                let as_far_as_it_came = self.snapshot();
                self.engine = Some(Engine::with_house_rules(self.variant(), self.house_rules()));
                self.restore(&as_far_as_it_came);
                std::panic::resume_unwind(panic)
            }
        }
    }

    /// Brings the derived maps up to date, so that the battle can be read between commands.
    fn settle(&mut self) {
        super::resolve::refresh(self.world_mut());
    }

    /// Whether `cmd` is legal for the fighter acting now, what it costs and what it would
    /// provoke. A charge's attack is worked out from where the charge ends, on a fork of
    /// the battle with the charger moved there.
    pub fn validate(&self, cmd: &Command) -> Result<Plan, RuleError> {
        let mut plan = self.read().check_command(cmd)?;
        if let (Command::Charge { target }, Some(path)) = (cmd, &plan.path) {
            let (actor, t) = (self.actor().expect("checked"), self.index_of(target).expect("checked"));
            let mut fork = self.fork(true);
            if let Some(&end) = path.squares.last() {
                fork.scene().fighter::<Position>(actor).0 = end;
            }
            let charge = super::battle::AttackContext { charge: true };
            plan.attack = Some(fork.attack_profile(actor, t, &super::AttackKind::Primary, &charge));
        }
        Ok(plan)
    }

    /// The attack `a` would make on `t` now, every modifier by name, without rolling.
    pub fn attack_profile(
        &self,
        a: usize,
        t: usize,
        kind: &super::AttackKind,
        ctx: &super::battle::AttackContext,
    ) -> super::AttackProfile {
        let read = self.read();
        super::attack::profile(&read, a, t, kind, ctx)
    }

    /// [`BattleWorld::attack_profile`] with what the attack comes to on average.
    pub fn attack_forecast(
        &self,
        a: usize,
        t: usize,
        kind: &super::AttackKind,
        ctx: &super::battle::AttackContext,
    ) -> super::attack::Forecast {
        let read = self.read();
        super::attack::forecast(&read, a, t, kind, ctx)
    }

    /// Everything that has happened, in order.
    pub fn events(&self) -> &[CombatEvent] {
        &self.world().resource::<EventLog>().0
    }

    /// The battle's clock.
    pub fn clock(&self) -> &Clock {
        self.world().resource::<Clock>()
    }

    /// The fighter whose opportunity it is, if the battle is on.
    pub fn actor(&self) -> Option<usize> {
        self.clock().actor.and_then(|e| self.world().resource::<super::battle::Combatants>().seat_of(e))
    }

    pub fn is_over(&self) -> bool {
        self.world().resource::<Record>().winner.is_some()
    }

    /// `None` while the battle is on; then `Some(winner)`, `Some(None)` for a draw.
    pub fn winner(&self) -> Option<Option<String>> {
        self.world().resource::<Record>().winner.clone()
    }

    /// Counters the sim reports.
    pub fn stats(&self) -> &BattleStats {
        &self.world().resource::<Record>().stats
    }

    /// The index of the combatant with this id.
    pub fn index_of(&self, id: &str) -> Option<usize> {
        self.read().index_of(id)
    }

    /// How many times the schedule ran for the last command.
    pub fn passes(&self) -> u32 {
        self.engine().passes()
    }

    /// The seed the battle's dice were set with.
    pub fn seed(&self) -> u64 {
        self.world().resource::<Dice>().seed()
    }

    /// How far the battle's dice have rolled (see `Dice::position`).
    pub fn dice_position(&self) -> u64 {
        self.world().resource::<Dice>().position()
    }

    /// Starts the dice afresh from `seed` with a stream per roller (common random numbers
    /// for playouts; `mirrored`: each roll turned over, the antithetic twin of a playout);
    /// `set_roller` names whose stream the next rolls come from.
    pub fn reseed_dice_per_roller(&mut self, seed: u64, mirrored: bool) {
        self.engine_mut().world_mut().resource_mut::<Dice>().reseed_streams(seed, mirrored);
    }

    /// Names whose stream of the dice the next rolls come from (see `reseed_dice_per_roller`).
    pub fn set_roller(&mut self, roller: Option<usize>) {
        self.engine_mut().world_mut().resource_mut::<Dice>().set_roller(roller);
    }

    /// The battle as plain data, its event log included.
    pub fn snapshot(&self) -> Snapshot {
        let mut snapshot = self.snapshot_quiet();
        snapshot.events = self.world().resource::<EventLog>().clone();
        snapshot
    }

    /// The battle as plain data without its event log (for a playout, which reads none of
    /// it).
    pub fn snapshot_quiet(&self) -> Snapshot {
        self.engine().snapshot_quiet()
    }

    /// Makes `snapshot` a quiet snapshot of this battle (as [`BattleWorld::snapshot_quiet`])
    /// in place, reusing what it has allocated: an AI that snapshots every decision keeps
    /// one.
    pub fn snapshot_quiet_into(&self, snapshot: &mut Snapshot) {
        self.engine().snapshot_quiet_into(snapshot);
    }

    /// Puts the battle of `snapshot` in this world in place of the one there (of the same
    /// variant and house rules), derived maps and all: into the entities there when they
    /// are as many, in place, reusing what each part has allocated.
    pub fn restore(&mut self, snapshot: &Snapshot) {
        debug_assert_eq!(snapshot.variant(), self.variant(), "a snapshot goes into a world of its variant");
        debug_assert_eq!(snapshot.house_rules(), self.house_rules(), "… and of its house rules");
        let engine = self.engine_mut();
        let world = engine.world_mut();
        let seated = world.contains_resource::<Record>()
            && world.get_resource::<Combatants>().is_some_and(|s| s.0.len() == snapshot.fighters.len());
        if !seated {
            let (field, dice, record) = (snapshot.field.clone(), snapshot.dice.clone(), snapshot.record.clone());
            store::furnish(world, field, dice, record);
            store::seat(world, snapshot.fighters.clone());
            engine.start_kept();
            engine.refresh_copier();
        }
        engine.put(snapshot);
    }

    /// A battle of its own in a world from this thread's pool, as this one stands (its
    /// event log left out when `quiet`).
    pub fn fork(&self, quiet: bool) -> BattleWorld {
        let snapshot = if quiet { self.snapshot_quiet() } else { self.snapshot() };
        let mut copy = BattleWorld::scratch(self.variant(), self.house_rules());
        copy.restore(&snapshot);
        copy
    }
}

impl Drop for BattleWorld {
    fn drop(&mut self) {
        if let Some(engine) = self.engine.take().filter(Engine::is_plain) {
            give_back(engine);
        }
    }
}

impl std::fmt::Debug for BattleWorld {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BattleWorld").field("variant", &self.variant()).field("events", &self.events().len()).finish()
    }
}

/// Worlds kept per variant on one thread, at most this many.
const POOLED: usize = 4;

thread_local! {
    /// This thread's spare worlds, per variant.
    static POOL: RefCell<Vec<Vec<Engine>>> = RefCell::new(RulesVariant::ALL.iter().map(|_| Vec::new()).collect());
}

fn slot(variant: RulesVariant) -> usize {
    RulesVariant::ALL.iter().position(|v| *v == variant).expect("every variant is in ALL")
}

/// A world of `variant`'s rules under `house_rules`: a spare one of this thread's, or a
/// new one.
fn take_engine(variant: RulesVariant, house_rules: &[HouseRule]) -> Engine {
    let spare = POOL.with(|pool| {
        let spares = &mut pool.borrow_mut()[slot(variant)];
        let at = spares.iter().rposition(|e| e.house_rules() == house_rules)?;
        Some(spares.remove(at))
    });
    spare.unwrap_or_else(|| Engine::with_house_rules(variant, house_rules))
}

/// Keeps `engine` for the next battle of its variant on this thread.
fn give_back(engine: Engine) {
    let _ = POOL.try_with(|pool| {
        let mut pool = pool.borrow_mut();
        let spares = &mut pool[slot(engine.variant())];
        if spares.len() >= POOLED {
            spares.remove(0);
        }
        spares.push(engine);
    });
}
