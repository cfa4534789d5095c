//! The combat engine: a battle's state, its clock under each rule variant, commands
//! checked and resolved into events carrying every die and modifier. Pure and
//! deterministic (one seeded `Dice`, fighters in id order), so the same seed and the
//! same commands give the same events byte for byte. `CombatPlugin` drives it from the
//! ECS; the sim drives it directly, which is what makes thousands of battles a second
//! possible.
//!
//! Why indexing here cannot panic on input: commands and logs name units by id, and
//! `Battle::index_of` turns an unknown id into a `RuleError` before anything is indexed;
//! every other index comes from the clock's queue or a scan of `fighters`, which never
//! shrinks during a battle (the fallen stay, off the board). A square off the map reads as
//! wall (`TerrainMap::get`), so a position from a person is never an index out of range.

pub mod ai;
pub mod attack;
pub mod clock;
pub mod command;
pub mod engine;
pub mod event;
pub mod fighter;
pub mod foresight;
pub mod invariants;
pub mod magic;
pub mod odds;
pub mod plugin;
pub mod resolve;
pub mod schedule;
pub mod sim;
pub mod variants;

pub use ai::{Ai, AiKind, Greedy, Scripted};
pub use attack::{AttackKind, AttackProfile};
pub use clock::{Budget, Clock};
pub use command::{Command, RuleError};
pub use event::CombatEvent;
pub use fighter::{Fighter, Modifier};
pub use odds::AttackDie;

use crate::level::{Catalogue, Level};
use crate::rules::{Battlefield, Dice, Occupancy, Roster, RulesView, ThreatMap, UnitView};
use crate::variants::RulesVariant;
use serde::Serialize;

pub use crate::level::DeathSaves;

/// Settings of one battle.
#[derive(Clone, Debug, PartialEq)]
pub struct BattleOptions {
    pub death_saves: DeathSaves,
    /// Rounds (turns in hex-phases) before the battle is called a draw.
    pub round_cap: u32,
}

impl Default for BattleOptions {
    fn default() -> Self {
        BattleOptions { death_saves: DeathSaves::default(), round_cap: 50 }
    }
}

/// Counters the sim reports.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct BattleStats {
    pub attacks: u32,
    pub hits: u32,
    pub criticals: u32,
    pub attacks_of_opportunity: u32,
    pub damage_dealt: u64,
    pub spells_cast: u32,
    pub counterspells: u32,
}

/// A battle in progress.
#[derive(Clone, Debug)]
pub struct Battle {
    pub level_name: String,
    pub field: Battlefield,
    pub variant: RulesVariant,
    /// Sorted by id; a fighter's index is stable for the whole battle.
    pub fighters: Vec<Fighter>,
    pub dice: Dice,
    pub options: BattleOptions,
    pub clock: Clock,
    pub events: Vec<CombatEvent>,
    pub stats: BattleStats,
    pub winner: Option<Option<String>>,
    /// What a disarmed fighter fights with.
    pub unarmed: crate::level::WeaponDef,
    /// Roster, occupancy and threat as of the last `refresh`; `stale` once anything moved.
    derived: Box<(Roster, Occupancy, ThreatMap)>,
    stale: bool,
    /// While a command is only foreseen ([`Battle::provocations`]): the attacks of
    /// opportunity it would draw, noted instead of rolled.
    foreseen: Option<Vec<foresight::Provoked>>,
}

impl Battle {
    /// Sets up a battle on a validated level.
    pub fn new(
        level: &Level,
        catalogue: &Catalogue,
        variant: RulesVariant,
        seed: u64,
        mut options: BattleOptions,
    ) -> Battle {
        // A level may choose its own d20-classic death saves.
        if let Some(mode) = level.def.death_saves {
            options.death_saves = mode;
        }
        let mut battle = Battle::new_paused(level, catalogue, variant, seed, options);
        clock::start(&mut battle);
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
    ) -> Battle {
        let mut fighters: Vec<Fighter> =
            level.def.units.iter().filter_map(|u| Fighter::from_unit(u, catalogue)).collect();
        fighters.sort_by(|a, b| a.id.cmp(&b.id));
        let mut battle = Battle {
            level_name: level.def.name.clone(),
            field: Battlefield { terrain: level.terrain.clone(), variant },
            variant,
            fighters,
            dice: Dice::seeded(seed),
            options,
            clock: Clock::default(),
            events: vec![],
            stats: BattleStats::default(),
            winner: None,
            unarmed: catalogue.weapon("unarmed").cloned().expect("the catalogue has an unarmed strike"),
            derived: Box::default(),
            stale: true,
            foreseen: None,
        };
        battle.emit(CombatEvent::BattleStarted { level: level.def.name.clone(), rules: variant.id().into(), seed });
        battle
    }

    /// A logged check or save: d20 + `bonus` against `dc` for fighter `i`.
    pub fn check(&mut self, i: usize, kind: impl Into<String>, bonus: i32, dc: i32) -> bool {
        let roll = self.dice.roll(20) as i32;
        let success = roll + bonus >= dc;
        let unit = self.fighters[i].id.clone();
        self.emit(CombatEvent::Save { unit, kind: kind.into(), roll, bonus, dc, success });
        success
    }

    pub fn emit(&mut self, e: CombatEvent) {
        self.events.push(e);
    }

    pub fn index_of(&self, id: &str) -> Option<usize> {
        self.fighters.binary_search_by(|f| f.id.as_str().cmp(id)).ok()
    }

    /// Brings the derived state (roster, occupancy, threat) up to date; the threat map is
    /// rebuilt in place.
    pub fn refresh(&mut self) {
        if self.stale {
            let roster = self.roster();
            let derived = &mut *self.derived;
            derived.1 = Occupancy::build(&self.field.terrain, &roster);
            derived.2.rebuild(&self.field, &roster);
            derived.0 = roster;
            self.stale = false;
        }
    }

    /// The rules' view of the battle as it stands. Call [`Battle::refresh`] first.
    pub fn view(&self) -> RulesView<'_> {
        debug_assert!(!self.stale, "Battle::refresh before Battle::view");
        let d = &*self.derived;
        RulesView { field: &self.field, roster: &d.0, occupancy: &d.1, threat: &d.2 }
    }

    /// The fighters as the grid rules see them. The dead leave the board.
    pub fn roster(&self) -> Roster {
        let units = self
            .fighters
            .iter()
            .map(|f| {
                let mut footprint = f.footprint();
                if !f.alive() {
                    footprint.origin = crate::grid::GridPos::new(-1000, -1000);
                }
                let mut view =
                    UnitView::new(&f.id, footprint, f.def.speed_ft, f.natural_reach_ft, &f.weapon, &f.conditions);
                view.threat = view.threat.and(self.threat_band(f));
                (view, f.side.clone())
            })
            .collect();
        Roster::new(units)
    }

    /// The squares `f`'s weapon reaches under this variant, whether or not it threatens
    /// them.
    pub fn reach_band(&self, f: &Fighter) -> Option<crate::rules::ReachBand> {
        crate::rules::ReachBand::under(self.variant, f.natural_reach_ft, f.size, &f.weapon)
    }

    /// What `f` threatens under this variant.
    pub fn threat_band(&self, f: &Fighter) -> Option<crate::rules::ReachBand> {
        crate::rules::ReachBand::threatened(self.variant, f.natural_reach_ft, f.size, &f.weapon, f.trained())
    }

    /// Forget derived state after positions or conditions change.
    pub fn invalidate(&mut self) {
        self.stale = true;
    }

    /// Sides still with a fighter in the fight, sorted.
    pub fn sides_in_fight(&self) -> Vec<String> {
        let mut sides: Vec<String> = self.fighters.iter().filter(|f| f.in_fight()).map(|f| f.side.clone()).collect();
        sides.sort();
        sides.dedup();
        sides
    }

    /// Every side in the battle, sorted.
    pub fn sides_all(&self) -> Vec<String> {
        let mut sides: Vec<String> = self.fighters.iter().map(|f| f.side.clone()).collect();
        sides.sort();
        sides.dedup();
        sides
    }

    pub fn is_over(&self) -> bool {
        self.winner.is_some()
    }

    /// The fighter whose opportunity it is, if the battle is on.
    pub fn actor(&self) -> Option<usize> {
        self.clock.actor
    }

    /// Plays the battle to its end with one AI per side (missing sides use `fallback`).
    pub fn run(&mut self, ais: &mut dyn FnMut(&str) -> Option<Box<dyn Ai>>) -> Vec<(String, Command)> {
        match self.run_checked(ais, false) {
            Ok(log) | Err((log, _)) => log,
        }
    }

    /// [`Battle::run`], checking every invariant after every command when `check` is on;
    /// the first broken one stops the battle and is returned with the commands so far.
    pub fn run_checked(
        &mut self,
        ais: &mut dyn FnMut(&str) -> Option<Box<dyn Ai>>,
        check: bool,
    ) -> Result<Vec<(String, Command)>, (Vec<(String, Command)>, String)> {
        let mut mark = None;
        if check {
            mark = Some(self.check_invariants(None).map_err(|e| (vec![], format!("at the start: {e}")))?);
        }
        let mut brains: std::collections::BTreeMap<String, Box<dyn Ai>> = std::collections::BTreeMap::new();
        let mut log = Vec::new();
        let mut guard = 0u32;
        while !self.is_over() {
            let Some(actor) = self.actor() else { break };
            let side = self.fighters[actor].side.clone();
            let brain = brains.entry(side.clone()).or_insert_with(|| ais(&side).unwrap_or_else(|| Box::new(Greedy)));
            let cmd = brain.decide(self, actor);
            let id = self.fighters[actor].id.clone();
            log.push((id, cmd.clone()));
            if self.execute(cmd.clone()).is_err() {
                let _ = self.execute(Command::EndTurn);
            }
            if check {
                match self.check_invariants(mark) {
                    Ok(now) => mark = Some(now),
                    Err(e) => {
                        let what = format!("after {} {cmd:?}: {e}", log.last().map_or("", |(id, _)| id.as_str()));
                        return Err((log, what));
                    }
                }
            }
            guard += 1;
            if guard > 200_000 {
                self.finish(None, "the engine made no progress");
                break;
            }
        }
        Ok(log)
    }

    /// Ends the battle.
    pub fn finish(&mut self, winner: Option<String>, reason: &str) {
        if self.winner.is_none() {
            let rounds = self.clock.round;
            self.emit(CombatEvent::BattleEnded { winner: winner.clone(), rounds, reason: reason.into() });
            self.winner = Some(winner);
            self.clock.actor = None;
        }
    }

    /// Checks whether a side has won, and ends the battle if so.
    pub fn check_victory(&mut self) -> bool {
        let sides = self.sides_in_fight();
        if sides.len() <= 1 {
            let winner = sides.into_iter().next();
            let reason =
                if winner.is_some() { "the other side is out of the fight" } else { "nobody is left standing" };
            self.finish(winner, reason);
            true
        } else {
            false
        }
    }
}
