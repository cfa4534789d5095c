//! Headless battles: `fivefoot sim` runs AI-vs-AI battles to the end and reports batch
//! statistics as deterministic JSON; `--log` writes every command and event as JSON
//! lines, enough to replay a battle exactly.
#![deny(clippy::unwrap_used, clippy::indexing_slicing)]

use super::ai::{Ai, AiKind};
use super::command::Command;
use super::event::CombatEvent;
use super::{Battle, BattleOptions, BattleStats, BattleWorld};
use crate::level::{Catalogue, Level};
use crate::variants::{HouseRule, RulesVariant};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;

/// What to simulate.
#[derive(Clone, Debug)]
pub struct SimSpec {
    pub rules: RulesVariant,
    pub seed: u64,
    pub battles: u32,
    pub ais: BTreeMap<String, AiKind>,
    pub options: BattleOptions,
    /// Check every invariant after every command, and that each battle's commands replay
    /// to the same events.
    pub check: bool,
}

/// Why a batch stopped.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error("cannot write the log: {0}")]
    Log(#[from] std::io::Error),
    #[error("battle {index} (seed {seed}): invariant broken {message}")]
    Invariant { index: u32, seed: u64, message: String },
}

/// Batch statistics; no timings, so equal inputs print equal output.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SimReport {
    pub level: String,
    pub rules: String,
    pub seed: u64,
    pub battles: u32,
    pub wins: BTreeMap<String, u32>,
    pub mean_rounds: f64,
    pub attacks_of_opportunity: u32,
    pub attacks: u32,
    pub hits: u32,
    pub criticals: u32,
    pub damage_dealt: u64,
    pub spells_cast: u32,
    pub counterspells: u32,
    pub deaths: u32,
    /// Commands given in all the battles (each checked with `--check`).
    pub commands: u64,
}

/// One line of a battle log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LogLine {
    Battle {
        level: String,
        rules: String,
        seed: u64,
        index: u32,
        /// Left out when there are none, as in every log before house rules.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        house_rules: Vec<HouseRule>,
    },
    Command {
        unit: String,
        command: Command,
    },
    Event {
        event: CombatEvent,
    },
}

/// The seed of battle `index` in a batch.
pub fn battle_seed(seed: u64, index: u32) -> u64 {
    seed.wrapping_add(index as u64)
}

/// Runs one battle to the end; returns it and the commands that were given.
pub fn run_battle(
    level: &Level,
    catalogue: &Catalogue,
    rules: RulesVariant,
    seed: u64,
    ais: &BTreeMap<String, AiKind>,
    options: &BattleOptions,
) -> (BattleWorld, Vec<(String, Command)>) {
    let mut battle = BattleWorld::new(level, catalogue, rules, seed, options.clone());
    let commands = battle.run(&mut |side| Some(ais.get(side).copied().unwrap_or_default().make()));
    (battle, commands)
}

/// What one battle adds to a batch's report, with its log lines when they are wanted.
struct Outcome {
    commands: u64,
    winner: String,
    rounds: u32,
    stats: super::BattleStats,
    deaths: u32,
    log: Option<Vec<u8>>,
}

fn play_one(
    level: &Level,
    catalogue: &Catalogue,
    spec: &SimSpec,
    index: u32,
    with_log: bool,
) -> Result<Outcome, SimError> {
    let seed = battle_seed(spec.seed, index);
    let (battle, commands) = if spec.check {
        checked_battle(level, catalogue, spec, seed).map_err(|message| SimError::Invariant { index, seed, message })?
    } else {
        run_battle(level, catalogue, spec.rules, seed, &spec.ais, &spec.options)
    };
    let log = with_log.then(|| {
        let mut out = Vec::new();
        write_log(&mut out, &battle.read(), &commands, level, index).expect("writing to memory cannot fail");
        out
    });
    Ok(Outcome {
        commands: commands.len() as u64,
        winner: battle.winner().flatten().unwrap_or_else(|| "draw".into()),
        rounds: battle.clock().round,
        stats: BattleStats::clone(battle.stats()),
        deaths: battle.read().fighters.iter().filter(|f| !f.alive()).count() as u32,
        log,
    })
}

/// A battle with every invariant checked after every command, then replayed from its
/// commands to the same events.
fn checked_battle(
    level: &Level,
    catalogue: &Catalogue,
    spec: &SimSpec,
    seed: u64,
) -> Result<(BattleWorld, Vec<(String, Command)>), String> {
    let mut battle = BattleWorld::new(level, catalogue, spec.rules, seed, spec.options.clone());
    let ais = &spec.ais;
    let commands = battle
        .run_checked(&mut |side| Some(ais.get(side).copied().unwrap_or_default().make()), true)
        .map_err(|(_, e)| e)?;
    let mut again = BattleWorld::new(level, catalogue, spec.rules, seed, spec.options.clone());
    again.replay(&commands).map_err(|e| format!("replaying its commands: {e}"))?;
    if again.events() != battle.events() {
        let at = again.events().iter().zip(battle.events().iter()).position(|(a, b)| a != b).unwrap_or(0);
        return Err(format!("its commands replay to other events, from event {at}"));
    }
    Ok((battle, commands))
}

/// The threads a batch uses by default: one per core.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Runs a batch on every core; `progress` is told after each battle; `log` gets every line.
pub fn run_batch(
    level: &Level,
    catalogue: &Catalogue,
    spec: &SimSpec,
    log: Option<&mut dyn Write>,
    progress: &mut dyn FnMut(u32),
) -> Result<SimReport, SimError> {
    run_batch_on(level, catalogue, spec, log, progress, default_threads())
}

/// Runs a batch on `threads` threads. Battles are shared out as threads come free, and
/// their outcomes folded in battle order, so the report and the log are the same bytes
/// whatever the number of threads.
pub fn run_batch_on(
    level: &Level,
    catalogue: &Catalogue,
    spec: &SimSpec,
    mut log: Option<&mut dyn Write>,
    progress: &mut dyn FnMut(u32),
    threads: usize,
) -> Result<SimReport, SimError> {
    let mut wins: BTreeMap<String, u32> = BTreeMap::new();
    let mut sides: Vec<String> = level.def.units.iter().map(|u| u.side.clone()).collect();
    sides.sort();
    sides.dedup();
    for s in sides {
        wins.insert(s, 0);
    }
    wins.insert("draw".into(), 0);
    let mut rounds = 0u64;
    let mut report = SimReport {
        level: level.def.name.clone(),
        rules: spec.rules.id().into(),
        seed: spec.seed,
        battles: spec.battles,
        wins: BTreeMap::new(),
        mean_rounds: 0.0,
        attacks_of_opportunity: 0,
        attacks: 0,
        hits: 0,
        criticals: 0,
        damage_dealt: 0,
        spells_cast: 0,
        counterspells: 0,
        deaths: 0,
        commands: 0,
    };
    let with_log = log.is_some();
    let mut fold = |i: u32, o: Outcome| -> Result<(), SimError> {
        report.commands += o.commands;
        *wins.entry(o.winner).or_default() += 1;
        rounds += o.rounds as u64;
        report.attacks_of_opportunity += o.stats.attacks_of_opportunity;
        report.attacks += o.stats.attacks;
        report.hits += o.stats.hits;
        report.criticals += o.stats.criticals;
        report.damage_dealt += o.stats.damage_dealt;
        report.spells_cast += o.stats.spells_cast;
        report.counterspells += o.stats.counterspells;
        report.deaths += o.deaths;
        if let (Some(out), Some(lines)) = (log.as_deref_mut(), o.log) {
            out.write_all(&lines)?;
        }
        progress(i + 1);
        Ok(())
    };
    let threads = threads.clamp(1, spec.battles.max(1) as usize);
    if threads == 1 {
        for i in 0..spec.battles {
            fold(i, play_one(level, catalogue, spec, i, with_log)?)?;
        }
    } else {
        let next = std::sync::atomic::AtomicU32::new(0);
        let (tx, rx) = std::sync::mpsc::channel::<(u32, Result<Outcome, SimError>)>();
        std::thread::scope(|scope| -> Result<(), SimError> {
            for _ in 0..threads {
                let (tx, next) = (tx.clone(), &next);
                scope.spawn(move || {
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if i >= spec.battles || tx.send((i, play_one(level, catalogue, spec, i, with_log))).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(tx);
            // Outcomes arrive in any order; fold them in battle order.
            let mut waiting: BTreeMap<u32, Result<Outcome, SimError>> = BTreeMap::new();
            let mut due = 0;
            for (i, outcome) in rx {
                waiting.insert(i, outcome);
                while let Some(o) = waiting.remove(&due) {
                    fold(due, o?)?;
                    due += 1;
                }
            }
            Ok(())
        })?;
    }
    report.wins = wins;
    report.mean_rounds =
        if spec.battles == 0 { 0.0 } else { (rounds as f64 / spec.battles as f64 * 100.0).round() / 100.0 };
    Ok(report)
}

fn write_log(
    out: &mut dyn Write,
    b: &Battle,
    commands: &[(String, Command)],
    level: &Level,
    index: u32,
) -> std::io::Result<()> {
    let head = LogLine::Battle {
        level: level.def.name.clone(),
        rules: b.variant.id().into(),
        seed: b.dice.seed(),
        index,
        house_rules: b.options.house_rules.clone(),
    };
    writeln!(out, "{}", serde_json::to_string(&head).expect("log lines serialise"))?;
    for (unit, command) in commands {
        let line = LogLine::Command { unit: unit.clone(), command: command.clone() };
        writeln!(out, "{}", serde_json::to_string(&line).expect("log lines serialise"))?;
    }
    for event in b.events.iter() {
        let line = LogLine::Event { event: event.clone() };
        writeln!(out, "{}", serde_json::to_string(&line).expect("log lines serialise"))?;
    }
    Ok(())
}

impl BattleWorld {
    /// Replays recorded commands from the start of a battle set up with the same level,
    /// rules and seed. Fails if a command names a unit that is not the one acting.
    pub fn replay(&mut self, commands: &[(String, Command)]) -> Result<(), String> {
        for (unit, cmd) in commands {
            let Some(acting) = self.actor().map(|a| self.read().fighters.combatant[a].id.clone()) else {
                return Err("the battle ended before the log did".into());
            };
            if acting != *unit {
                return Err(format!("the log has {unit} acting, the battle has {acting}"));
            }
            if self.execute(cmd.clone()).is_err() {
                let _ = self.execute(Command::EndTurn);
            }
        }
        Ok(())
    }
}

impl BattleWorld {
    /// Plays the battle to its end with one AI per side (`ais` answers `None` for a side:
    /// the greedy AI plays it).
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
            mark = Some(self.lend().check_invariants(None).map_err(|e| (vec![], format!("at the start: {e}")))?);
        }
        let mut brains: std::collections::BTreeMap<String, Box<dyn Ai>> = std::collections::BTreeMap::new();
        let mut log = Vec::new();
        let mut guard = 0u32;
        while !self.is_over() {
            let Some(actor) = self.actor() else { break };
            let (id, side) = {
                let read = self.read();
                (read.fighters.combatant[actor].id.clone(), read.fighters.side[actor].0.clone())
            };
            let brain =
                brains.entry(side.clone()).or_insert_with(|| ais(&side).unwrap_or_else(|| Box::new(super::ai::Greedy)));
            let cmd = brain.decide(self, actor);
            log.push((id, cmd.clone()));
            if self.execute(cmd.clone()).is_err() {
                let _ = self.execute(Command::EndTurn);
            }
            if check {
                match self.lend().check_invariants(mark) {
                    Ok(now) => mark = Some(now),
                    Err(e) => {
                        let what = format!("after {} {cmd:?}: {e}", log.last().map_or("", |(id, _)| id.as_str()));
                        return Err((log, what));
                    }
                }
            }
            guard += 1;
            if guard > 200_000 {
                self.lend().finish(None, "the engine made no progress");
                break;
            }
        }
        Ok(log)
    }
}
