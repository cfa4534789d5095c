//! The combat engine in the ECS: the battle as a resource, one system that advances the
//! combat clock (one command per update, from the side's AI or the player's queue), and
//! a system that mirrors the battle onto the combatant components the view reads.

use super::Battle;
use super::ai::{Ai, Greedy};
use super::command::Command;
use super::event::CombatEvent;
use crate::rules::{Combatant, Conditions, Health, Position, RulesSet};
use bevy::prelude::*;
use std::collections::{BTreeMap, VecDeque};

/// The battle being fought.
#[derive(Resource)]
pub struct BattleRes {
    pub battle: Battle,
    /// Events not yet read by the view/HUD.
    pub cursor: usize,
    ais: BTreeMap<String, Box<dyn Ai + Send + Sync>>,
    /// Sides a person plays: their commands come from `PlayerCommands`.
    pub human_sides: Vec<String>,
}

impl BattleRes {
    pub fn new(battle: Battle, human_sides: Vec<String>) -> Self {
        BattleRes { battle, cursor: 0, ais: BTreeMap::new(), human_sides }
    }
}

/// Commands a person has given, oldest first.
#[derive(Resource, Default)]
pub struct PlayerCommands(pub VecDeque<Command>);

/// Emitted for every combat event as it happens.
#[derive(Message, Clone, Debug)]
pub struct CombatEventMsg(pub CombatEvent);

/// Holds the clock while something (an animation) wants the world to wait.
#[derive(Resource, Default)]
pub struct ClockHold(pub u32);

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
            .init_resource::<ClockHold>()
            .add_message::<CombatEventMsg>()
            .add_systems(Update, advance_clock.in_set(RulesSet::Clock).run_if(resource_exists::<BattleRes>))
            .add_systems(Update, mirror_components.in_set(RulesSet::Resolve).run_if(resource_exists::<BattleRes>));
    }
}

/// The only system that moves combat time forward: one command per update.
fn advance_clock(
    mut res: ResMut<BattleRes>,
    mut player: ResMut<PlayerCommands>,
    hold: Res<ClockHold>,
    pace: Option<ResMut<Pace>>,
    time: Res<Time>,
    mut out: MessageWriter<CombatEventMsg>,
) {
    let ready = pace.is_none_or(|mut p| p.0.tick(time.delta()).just_finished());
    // Reading does not mark the battle changed; only a command does.
    if ready
        && hold.0 == 0
        && !res.battle.is_over()
        && let Some(actor) = res.battle.actor()
    {
        let res = &mut *res;
        let side = res.battle.fighters[actor].side.clone();
        let cmd = if res.human_sides.contains(&side) {
            player.0.pop_front()
        } else {
            let brain = res.ais.entry(side).or_insert_with(|| Box::new(Greedy));
            Some(brain.decide(&mut res.battle, actor))
        };
        if let Some(cmd) = cmd
            && res.battle.execute(cmd).is_err()
        {
            let _ = res.battle.execute(Command::EndTurn);
        }
    }
    let (from, to) = (res.cursor, res.battle.events.len());
    if from < to {
        for e in &res.battle.events[from..to] {
            out.write(CombatEventMsg(e.clone()));
        }
        res.bypass_change_detection().cursor = to;
    }
}

/// Copies positions, hit points and conditions from the battle onto the components.
fn mirror_components(res: Res<BattleRes>, mut q: Query<(&Combatant, &mut Position, &mut Health, &mut Conditions)>) {
    if !res.is_changed() {
        return;
    }
    for (c, mut pos, mut health, mut cond) in &mut q {
        if let Some(i) = res.battle.index_of(&c.id) {
            let f = &res.battle.fighters[i];
            pos.set_if_neq(Position(f.pos));
            health.set_if_neq(Health { hp: f.hp, max: f.max_hp, nonlethal: f.nonlethal });
            cond.set_if_neq(Conditions(f.conditions.clone()));
        }
    }
}
