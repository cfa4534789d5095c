//! Headless battles: `fivefoot sim` runs AI-vs-AI battles to the end and reports batch
//! statistics as deterministic JSON; `--log` writes every command and event as JSON
//! lines, enough to replay a battle exactly.

use super::ai::AiKind;
use super::command::Command;
use super::event::CombatEvent;
use super::{Battle, BattleOptions};
use crate::level::{Catalogue, Level};
use crate::variant::RulesVariant;
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
}

/// One line of a battle log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LogLine {
    Battle { level: String, rules: String, seed: u64, index: u32 },
    Command { unit: String, command: Command },
    Event { event: CombatEvent },
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
) -> (Battle, Vec<(String, Command)>) {
    let mut battle = Battle::new(level, catalogue, rules, seed, options.clone());
    let commands = battle.run(&mut |side| Some(ais.get(side).copied().unwrap_or_default().make()));
    (battle, commands)
}

/// Runs a batch; `progress` is told after each battle; `log` gets every line.
pub fn run_batch(
    level: &Level,
    catalogue: &Catalogue,
    spec: &SimSpec,
    mut log: Option<&mut dyn Write>,
    progress: &mut dyn FnMut(u32),
) -> std::io::Result<SimReport> {
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
    };
    for i in 0..spec.battles {
        let seed = battle_seed(spec.seed, i);
        let (battle, commands) = run_battle(level, catalogue, spec.rules, seed, &spec.ais, &spec.options);
        let key = battle.winner.clone().flatten().unwrap_or_else(|| "draw".into());
        *wins.entry(key).or_default() += 1;
        rounds += battle.clock.round as u64;
        report.attacks_of_opportunity += battle.stats.attacks_of_opportunity;
        report.attacks += battle.stats.attacks;
        report.hits += battle.stats.hits;
        report.criticals += battle.stats.criticals;
        report.damage_dealt += battle.stats.damage_dealt;
        report.spells_cast += battle.stats.spells_cast;
        report.counterspells += battle.stats.counterspells;
        report.deaths += battle.fighters.iter().filter(|f| !f.alive()).count() as u32;
        if let Some(out) = log.as_deref_mut() {
            write_log(out, &battle, &commands, level, i)?;
        }
        progress(i + 1);
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
    let head =
        LogLine::Battle { level: level.def.name.clone(), rules: b.variant.id().into(), seed: b.dice.seed(), index };
    writeln!(out, "{}", serde_json::to_string(&head).expect("log lines serialise"))?;
    for (unit, command) in commands {
        let line = LogLine::Command { unit: unit.clone(), command: command.clone() };
        writeln!(out, "{}", serde_json::to_string(&line).expect("log lines serialise"))?;
    }
    for event in &b.events {
        let line = LogLine::Event { event: event.clone() };
        writeln!(out, "{}", serde_json::to_string(&line).expect("log lines serialise"))?;
    }
    Ok(())
}

impl Battle {
    /// Replays recorded commands from the start of a battle set up with the same level,
    /// rules and seed. Fails if a command names a unit that is not the one acting.
    pub fn replay(&mut self, commands: &[(String, Command)]) -> Result<(), String> {
        for (unit, cmd) in commands {
            let Some(actor) = self.actor() else { return Err("the battle ended before the log did".into()) };
            if self.fighters[actor].id != *unit {
                return Err(format!("the log has {unit} acting, the battle has {}", self.fighters[actor].id));
            }
            if self.execute(cmd.clone()).is_err() {
                let _ = self.execute(Command::EndTurn);
            }
        }
        Ok(())
    }
}
