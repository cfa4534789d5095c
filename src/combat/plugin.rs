//! The combat engine in the window: the battle as a resource and one system that advances
//! the combat clock (one command per update, from the side's AI or the player's queue),
//! each command resolved through the rules schedule in the battle's own world
//! (`combat::world`). The view reads the battle there; its token entities only name its
//! fighters.

use super::BattleWorld;
use super::ai::{Ai, AiKind, ScoredSquare};
use super::command::Command;
use super::event::CombatEvent;
use crate::rules::RulesSet;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use std::collections::{BTreeMap, VecDeque};

/// The battle being fought.
#[derive(Resource)]
pub struct BattleRes {
    pub battle: BattleWorld,
    /// Events not yet read by the view/HUD.
    pub cursor: usize,
    ais: BTreeMap<String, Box<dyn Ai + Send + Sync>>,
    /// Which AI plays each side (greedy where none is named).
    kinds: BTreeMap<String, AiKind>,
    /// Sides a person plays: their commands come from `PlayerCommands`.
    pub human_sides: Vec<String>,
    /// An AI decision being worked out on another thread.
    thinking: Option<Thinking>,
    /// Every order played so far, with the unit it was given to, in order.
    pub orders: Vec<(String, Command)>,
    /// The candidates the AI weighed for the last command it played (the debug overlay).
    pub ai_squares: Vec<ScoredSquare>,
    /// Orders to give again, each unit's in its own order (a variant switch's "same
    /// orders"): a unit with one waiting is given it when it comes up, before anyone
    /// decides anything.
    replay: BTreeMap<String, VecDeque<Command>>,
}

/// A decision in flight: for whom, against which state, and the task computing it.
struct Thinking {
    actor: usize,
    events: usize,
    task: Task<Decided>,
}

/// An AI's answer: for which side, the AI (handed back), its command, why, and how long
/// it took in milliseconds.
type Decided = (String, Box<dyn Ai + Send + Sync>, Command, Option<String>, f64, Vec<ScoredSquare>);

/// Emitted when an AI's command is played: who gave it and why, in the AI's words.
#[derive(Message, Clone, Debug)]
pub struct AiReason {
    pub unit: String,
    pub reason: String,
}

impl BattleRes {
    pub fn new(battle: BattleWorld, human_sides: Vec<String>, kinds: BTreeMap<String, AiKind>) -> Self {
        BattleRes {
            battle,
            cursor: 0,
            ais: BTreeMap::new(),
            kinds,
            human_sides,
            thinking: None,
            orders: Vec::new(),
            replay: BTreeMap::new(),
            ai_squares: Vec::new(),
        }
    }

    /// The same battle, giving `orders` again as their units come up.
    pub fn replaying(mut self, orders: &[(String, Command)]) -> Self {
        for (unit, command) in orders {
            self.replay.entry(unit.clone()).or_default().push_back(command.clone());
        }
        self
    }

    /// The next order waiting for `unit`, if any.
    fn replayed(&mut self, unit: &str) -> Option<Command> {
        let queue = self.replay.get_mut(unit)?;
        let command = queue.pop_front();
        if queue.is_empty() {
            self.replay.remove(unit);
        }
        command
    }

    /// The AI that plays `side`.
    pub fn ai_of(&self, side: &str) -> AiKind {
        self.kinds.get(side).copied().unwrap_or_default()
    }

    /// The AI is working out a move.
    pub fn is_thinking(&self) -> bool {
        self.thinking.is_some()
    }
}

/// Commands a person has given, oldest first.
#[derive(Resource, Default)]
pub struct PlayerCommands(pub VecDeque<Command>);

/// Emitted for every combat event as it happens.
#[derive(Message, Clone, Debug)]
pub struct CombatEventMsg(pub CombatEvent);

/// In a window: how often the clock may move (one command per tick). Headless runs have
/// no pace and never wait.
#[derive(Resource)]
pub struct Pace(pub Timer);

impl Pace {
    pub fn per_second(commands: f32) -> Pace {
        Pace(Timer::from_seconds(1.0 / commands.max(0.1), TimerMode::Repeating))
    }
}

pub struct CombatPlugin;

impl Plugin for CombatPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<PlayerCommands>()
            .init_resource::<SkipAi>()
            .init_resource::<AiThinking>()
            .add_message::<CombatEventMsg>()
            .add_message::<CommandRefused>()
            .add_message::<TurnEndedByItself>()
            .add_message::<AiReason>()
            .add_systems(Update, advance_clock.in_set(RulesSet::Clock).run_if(resource_exists::<BattleRes>));
    }
}

/// Finish the AI's moves at once (until a person's turn comes, or the battle ends).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SkipAi(pub bool);

/// How long the AI took to decide, in milliseconds: the last decision and the slowest.
/// One decision is made per frame at most, so this is the longest the AI can hold a frame.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct AiThinking {
    pub last_ms: f64,
    pub max_ms: f64,
}

/// A person's unit had its opportunity end by itself: the command it was given used what
/// it had left (a full attack, a reload that takes the round, a last action point), so
/// the next key goes to whoever acts next.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct TurnEndedByItself {
    pub unit: String,
    /// The command that used the rest of it, in the action bar's words.
    pub after: String,
}

impl TurnEndedByItself {
    /// The line the log and the HUD show.
    pub fn describe(&self) -> String {
        format!("{}'s turn ends by itself: {} used what it had left", self.unit, self.after)
    }
}

/// A command a person gave that the rules refused, with the reason.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct CommandRefused(pub String);

/// The only system that moves combat time forward. A person's commands are resolved as
/// soon as they are given; the AI's are worked out off the main thread and played one
/// per tick of `Pace` (while skipping, one a frame), so its thinking never holds a frame.
#[allow(clippy::too_many_arguments)]
fn advance_clock(
    mut res: ResMut<BattleRes>,
    mut player: ResMut<PlayerCommands>,
    pace: Option<ResMut<Pace>>,
    mut skip: ResMut<SkipAi>,
    mut thinking: ResMut<AiThinking>,
    mut reasons: MessageWriter<AiReason>,
    time: Res<Time>,
    mut out: MessageWriter<CombatEventMsg>,
    mut refused: MessageWriter<CommandRefused>,
    mut ended: MessageWriter<TurnEndedByItself>,
) {
    let mut ready = pace.is_none_or(|mut p| p.0.tick(time.delta()).just_finished());
    // One AI command a frame at most.
    let mut played = false;
    while !res.battle.is_over() {
        // Only a command may mark the battle changed: read first, borrow mutably after.
        let Some(actor) = res.battle.actor() else { break };
        let side = res.battle.read().fighters.side[actor].0.clone();
        let unit = res.battle.read().fighters.combatant[actor].id.clone();
        // Read first: taking an order marks the battle changed, which only a replay may.
        if res.thinking.is_none()
            && res.replay.contains_key(&unit)
            && let Some(cmd) = res.replayed(&unit)
        {
            match res.battle.execute(cmd.clone()) {
                Ok(()) => res.orders.push((unit, cmd)),
                Err(e) => {
                    refused.write(CommandRefused(format!("the replayed order is skipped: {e}")));
                }
            }
            continue;
        }
        if res.human_sides.contains(&side) {
            if skip.0 {
                skip.0 = false;
            }
            if player.0.is_empty() {
                break;
            }
            let cmd = player.0.pop_front().expect("not empty");
            let before = res.battle.events().len();
            let done = res.battle.execute(cmd.clone());
            if done.is_ok() {
                res.orders.push((unit, cmd.clone()));
            }
            match done {
                Err(e) => {
                    refused.write(CommandRefused(e.to_string()));
                }
                Ok(()) if !matches!(cmd, Command::EndTurn | Command::Delay) && !res.battle.is_over() => {
                    // A new opportunity began (someone else's, or this unit's next one).
                    let next =
                        res.battle.events()[before..].iter().any(|e| matches!(e, CombatEvent::TurnStarted { .. }));
                    if next {
                        let unit = res.battle.read().fighters.combatant[actor].id.clone();
                        ended.write(TurnEndedByItself { unit, after: cmd.name().to_string() });
                    }
                }
                Ok(()) => {}
            }
            continue;
        }
        if !player.0.is_empty() {
            player.0.clear(); // orders given out of turn lapse
        }
        // The AI thinks on another thread, on the battle's snapshot (without its event log)
        // restored in a scratch world there, so a slow decision never holds a frame; the
        // answer is played when it is ready.
        if res.thinking.is_some() {
            let r = res.bypass_change_detection();
            let Some((side, brain, cmd, why, ms, scored)) = r.thinking.as_mut().and_then(|p| check_ready(&mut p.task))
            else {
                break;
            };
            let pending = r.thinking.take().expect("in flight");
            r.ais.insert(side, brain);
            thinking.last_ms = ms;
            thinking.max_ms = thinking.max_ms.max(ms);
            // A stale answer (the battle moved on meanwhile) is dropped and asked again.
            if pending.actor == actor && pending.events == r.battle.events().len() {
                if let Some(reason) = why {
                    let unit = r.battle.read().fighters.combatant[actor].id.clone();
                    reasons.write(AiReason { unit, reason });
                }
                // The overlay keeps the last decision that weighed anything (a greedy foe's
                // or a held line's command weighs nothing), so it can be read while others act.
                if !scored.is_empty() {
                    res.ai_squares = scored;
                }
                let played = match res.battle.execute(cmd.clone()) {
                    Ok(()) => Some(cmd),
                    Err(_) => res.battle.execute(Command::EndTurn).ok().map(|()| Command::EndTurn),
                };
                res.orders.extend(played.map(|cmd| (unit, cmd)));
            }
            if played {
                break;
            }
            played = true;
            ready = false; // the next decision waits for the next tick
            continue;
        }
        if !(ready || skip.0) {
            break;
        }
        let r = res.bypass_change_detection();
        let kind = r.ai_of(&side);
        let brain = r.ais.remove(&side).unwrap_or_else(|| kind.make());
        let snapshot = r.battle.snapshot_quiet();
        let task = AsyncComputeTaskPool::get().spawn(async move {
            let mut brain = brain;
            let started = std::time::Instant::now();
            let mut copy = BattleWorld::scratch(snapshot.variant(), snapshot.house_rules());
            copy.restore(&snapshot);
            let cmd = brain.decide(&mut copy, actor);
            let why = brain.reason().map(str::to_string);
            let scored = brain.scored().to_vec();
            (side, brain, cmd, why, started.elapsed().as_secs_f64() * 1000.0, scored)
        });
        r.thinking = Some(Thinking { actor, events: r.battle.events().len(), task });
        break;
    }
    if res.battle.is_over() && skip.0 {
        skip.0 = false;
    }
    let (from, to) = (res.cursor, res.battle.events().len());
    if from < to {
        for e in &res.battle.events()[from..to] {
            out.write(CombatEventMsg(e.clone()));
        }
        res.bypass_change_detection().cursor = to;
    }
}
