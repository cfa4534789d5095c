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
    /// Play each seed twice, the second time with the two sides' AIs exchanged (battle `i`
    /// uses seed + i / 2; the odd battles are the swapped ones).
    pub swap_sides: bool,
}

impl SimSpec {
    /// The seed of battle `index`, and whether the sides' AIs are exchanged in it.
    pub fn battle(&self, index: u32) -> (u64, bool) {
        if self.swap_sides {
            (battle_seed(self.seed, index / 2), index % 2 == 1)
        } else {
            (battle_seed(self.seed, index), false)
        }
    }

    /// Who plays each of `sides` in a battle, by name (`greedy` where none is given),
    /// the first two sides' AIs exchanged when `swapped`.
    pub fn ais_for(&self, sides: &[String], swapped: bool) -> BTreeMap<String, AiKind> {
        let mut ais: BTreeMap<String, AiKind> =
            sides.iter().map(|s| (s.clone(), self.ais.get(s).copied().unwrap_or_default())).collect();
        if swapped && let [a, b, ..] = sides {
            let (x, y) = (self.ais.get(a).copied().unwrap_or_default(), self.ais.get(b).copied().unwrap_or_default());
            ais.insert(a.clone(), y);
            ais.insert(b.clone(), x);
        }
        ais
    }

    /// Whether the report carries a record per AI: when AIs are named or sides swapped.
    fn per_ai(&self) -> bool {
        self.swap_sides || !self.ais.is_empty()
    }
}

/// One decision of a battle: the command given, why (when the AI can say), and how long
/// the AI took over it.
#[derive(Clone, Debug)]
pub struct Decision {
    pub unit: String,
    pub command: Command,
    pub reason: Option<String>,
    pub nanos: u64,
}

/// The commands of a battle's decisions, in order, as a replay takes them.
pub fn commands_of(decisions: &[Decision]) -> Vec<(String, Command)> {
    decisions.iter().map(|d| (d.unit.clone(), d.command.clone())).collect()
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
    /// Each AI's record, keyed by its name as given (`tactical:hard`), when AIs are named or
    /// sides swapped. Its decision times are the one figure that varies from run to run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ais: Option<BTreeMap<String, AiRecord>>,
    /// Each battle in order, for the statistics `compare` draws from a batch.
    #[serde(skip)]
    pub summaries: Vec<BattleSummary>,
}

/// What one battle came to, side by side.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct BattleSummary {
    pub seed: u64,
    /// The winning side, or `draw`.
    pub winner: String,
    pub rounds: u32,
    /// Hit points of damage (lethal and nonlethal) each side's units dealt, by side.
    pub damage_dealt: BTreeMap<String, u64>,
    /// Each side's units out of the fight at the end (dead, dying or unconscious).
    pub lost: BTreeMap<String, u32>,
    pub stats: BattleStats,
}

/// One AI's record over a batch, from its sides' results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AiRecord {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    /// wins / (wins + losses): the share of decisive battles it won.
    pub win_rate: f64,
    /// The 95 % Wilson score interval of `win_rate`.
    pub ci95: [f64; 2],
    /// Wall time per unit decision, in milliseconds.
    pub decision_ms: DecisionTimes,
}

/// Percentiles of the time an AI took per decision.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct DecisionTimes {
    pub p50: f64,
    pub p99: f64,
    pub max: f64,
}

impl DecisionTimes {
    fn of(nanos: &mut [u64]) -> DecisionTimes {
        nanos.sort_unstable();
        let ms = |n: u64| (n as f64 / 1e3).round() / 1e3;
        let at = |q: f64| nanos.get(((nanos.len() as f64 * q).ceil() as usize).saturating_sub(1)).copied().unwrap_or(0);
        DecisionTimes { p50: ms(at(0.5)), p99: ms(at(0.99)), max: ms(nanos.last().copied().unwrap_or(0)) }
    }
}

/// What one AI has gathered so far in a batch.
#[derive(Default)]
struct AiTally {
    wins: u32,
    losses: u32,
    draws: u32,
    nanos: Vec<u64>,
}

impl AiTally {
    fn record(mut self) -> AiRecord {
        let decisive = self.wins + self.losses;
        let (low, high) = crate::stats::wilson(self.wins, decisive);
        let rate = if decisive == 0 { 0.0 } else { f64::from(self.wins) / f64::from(decisive) };
        let round = |x: f64| (x * 1e4).round() / 1e4;
        AiRecord {
            wins: self.wins,
            losses: self.losses,
            draws: self.draws,
            win_rate: round(rate),
            ci95: [round(low), round(high)],
            decision_ms: DecisionTimes::of(&mut self.nanos),
        }
    }
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
        /// Why the AI gave it, when the AI can say (the greedy AI does not).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    Event {
        event: CombatEvent,
    },
}

/// The seed of battle `index` in a batch.
pub fn battle_seed(seed: u64, index: u32) -> u64 {
    seed.wrapping_add(index as u64)
}

/// Runs one battle to the end; returns it and the decisions that were made.
pub fn run_battle(
    level: &Level,
    catalogue: &Catalogue,
    rules: RulesVariant,
    seed: u64,
    ais: &BTreeMap<String, AiKind>,
    options: &BattleOptions,
) -> (BattleWorld, Vec<Decision>) {
    let mut battle = BattleWorld::new(level, catalogue, rules, seed, options.clone());
    let decisions = match battle.run_checked(&mut |side| Some(ais.get(side).copied().unwrap_or_default().make()), false)
    {
        Ok(d) | Err((d, _)) => d,
    };
    (battle, decisions)
}

/// What one battle adds to a batch's report, with its log lines when they are wanted.
struct Outcome {
    commands: u64,
    deaths: u32,
    log: Option<Vec<u8>>,
    summary: BattleSummary,
    /// Each side's AI by name, and the time of each of its decisions.
    ais: BTreeMap<String, (String, Vec<u64>)>,
}

fn play_one(
    level: &Level,
    catalogue: &Catalogue,
    spec: &SimSpec,
    index: u32,
    with_log: bool,
) -> Result<Outcome, SimError> {
    let (seed, swapped) = spec.battle(index);
    let ais = spec.ais_for(&sides_of(level), swapped);
    let (battle, decisions) = if spec.check {
        checked_battle(level, catalogue, spec, &ais, seed).map_err(|message| SimError::Invariant {
            index,
            seed,
            message,
        })?
    } else {
        run_battle(level, catalogue, spec.rules, seed, &ais, &spec.options)
    };
    let log = with_log.then(|| {
        let mut out = Vec::new();
        write_log(&mut out, &battle.read(), &decisions, level, index).expect("writing to memory cannot fail");
        out
    });
    let mut by_side: BTreeMap<String, (String, Vec<u64>)> =
        ais.iter().map(|(side, ai)| (side.clone(), (ai.to_string(), Vec::new()))).collect();
    if spec.per_ai() {
        let read = battle.read();
        for d in &decisions {
            let side = read.fighters.iter().find(|f| f.id() == d.unit).map(|f| f.side().0.clone());
            if let Some((_, nanos)) = side.and_then(|s| by_side.get_mut(&s)) {
                nanos.push(d.nanos);
            }
        }
    }
    let commands = decisions;
    let summary = summarise(&battle, seed);
    Ok(Outcome {
        commands: commands.len() as u64,
        deaths: battle.read().fighters.iter().filter(|f| !f.alive()).count() as u32,
        log,
        summary,
        ais: by_side,
    })
}

/// The summary of a battle that has ended.
fn summarise(battle: &BattleWorld, seed: u64) -> BattleSummary {
    let read = battle.read();
    let side_of = |unit: &str| read.fighters.iter().find(|f| f.id() == unit).map(|f| f.side().0.clone());
    let mut damage_dealt: BTreeMap<String, u64> = BTreeMap::new();
    let mut lost: BTreeMap<String, u32> = BTreeMap::new();
    for f in read.fighters.iter() {
        damage_dealt.entry(f.side().0.clone()).or_default();
        *lost.entry(f.side().0.clone()).or_default() += u32::from(!f.in_fight());
    }
    for event in read.events.iter() {
        if let CombatEvent::Damage { attacker, total, .. } = event
            && let Some(side) = side_of(attacker)
        {
            *damage_dealt.entry(side).or_default() += (*total).max(0) as u64;
        }
    }
    BattleSummary {
        seed,
        winner: battle.winner().flatten().unwrap_or_else(|| "draw".into()),
        rounds: battle.clock().round,
        damage_dealt,
        lost,
        stats: BattleStats::clone(battle.stats()),
    }
}

/// A battle with every invariant checked after every command, then replayed from its
/// commands to the same events.
fn checked_battle(
    level: &Level,
    catalogue: &Catalogue,
    spec: &SimSpec,
    ais: &BTreeMap<String, AiKind>,
    seed: u64,
) -> Result<(BattleWorld, Vec<Decision>), String> {
    let mut battle = BattleWorld::new(level, catalogue, spec.rules, seed, spec.options.clone());
    let decisions = battle
        .run_checked(&mut |side| Some(ais.get(side).copied().unwrap_or_default().make()), true)
        .map_err(|(_, e)| e)?;
    let mut again = BattleWorld::new(level, catalogue, spec.rules, seed, spec.options.clone());
    again.replay(&commands_of(&decisions)).map_err(|e| format!("replaying its commands: {e}"))?;
    if again.events() != battle.events() {
        let at = again.events().iter().zip(battle.events().iter()).position(|(a, b)| a != b).unwrap_or(0);
        return Err(format!("its commands replay to other events, from event {at}"));
    }
    Ok((battle, decisions))
}

/// The sides of a level, in name order.
pub fn sides_of(level: &Level) -> Vec<String> {
    let mut sides: Vec<String> = level.def.units.iter().map(|u| u.side.clone()).collect();
    sides.sort();
    sides.dedup();
    sides
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
    for s in sides_of(level) {
        wins.insert(s, 0);
    }
    let mut tallies: BTreeMap<String, AiTally> = BTreeMap::new();
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
        ais: None,
        summaries: Vec::new(),
    };
    let with_log = log.is_some();
    let mut fold = |i: u32, o: Outcome| -> Result<(), SimError> {
        report.commands += o.commands;
        let (summary, stats) = (&o.summary, &o.summary.stats);
        *wins.entry(summary.winner.clone()).or_default() += 1;
        rounds += summary.rounds as u64;
        report.attacks_of_opportunity += stats.attacks_of_opportunity;
        report.attacks += stats.attacks;
        report.hits += stats.hits;
        report.criticals += stats.criticals;
        report.damage_dealt += stats.damage_dealt;
        report.spells_cast += stats.spells_cast;
        report.counterspells += stats.counterspells;
        report.deaths += o.deaths;
        for (side, (ai, nanos)) in o.ais {
            let t = tallies.entry(ai).or_default();
            match o.summary.winner.as_str() {
                "draw" => t.draws += 1,
                w if w == side => t.wins += 1,
                _ => t.losses += 1,
            }
            t.nanos.extend(nanos);
        }
        report.summaries.push(o.summary);
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
    if spec.per_ai() {
        report.ais = Some(tallies.into_iter().map(|(ai, t)| (ai, t.record())).collect());
    }
    report.mean_rounds =
        if spec.battles == 0 { 0.0 } else { (rounds as f64 / spec.battles as f64 * 100.0).round() / 100.0 };
    Ok(report)
}

fn write_log(
    out: &mut dyn Write,
    b: &Battle,
    decisions: &[Decision],
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
    for d in decisions {
        let line = LogLine::Command { unit: d.unit.clone(), command: d.command.clone(), reason: d.reason.clone() };
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
            Ok(log) | Err((log, _)) => commands_of(&log),
        }
    }

    /// [`Battle::run`], checking every invariant after every command when `check` is on;
    /// the first broken one stops the battle and is returned with the commands so far.
    pub fn run_checked(
        &mut self,
        ais: &mut dyn FnMut(&str) -> Option<Box<dyn Ai>>,
        check: bool,
    ) -> Result<Vec<Decision>, (Vec<Decision>, String)> {
        let mut mark = None;
        if check {
            mark = Some(self.check_invariants(None).map_err(|e| (vec![], format!("at the start: {e}")))?);
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
            let started = std::time::Instant::now();
            let cmd = brain.decide(self, actor);
            let nanos = started.elapsed().as_nanos() as u64;
            log.push(Decision { unit: id, command: cmd.clone(), reason: brain.reason().map(str::to_string), nanos });
            if self.execute(cmd.clone()).is_err() {
                let _ = self.execute(Command::EndTurn);
            }
            if check {
                match self.check_invariants(mark) {
                    Ok(now) => mark = Some(now),
                    Err(e) => {
                        let what = format!("after {} {cmd:?}: {e}", log.last().map_or("", |d| d.unit.as_str()));
                        return Err((log, what));
                    }
                }
            }
            guard += 1;
            if guard > 200_000 {
                self.scene().finish(None, "the engine made no progress");
                break;
            }
        }
        Ok(log)
    }
}
