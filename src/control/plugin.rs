//! Player control in the ECS: the square under the pointer, the selected unit and the
//! tool in hand, the action bar for the acting unit, and the systems that turn bound
//! inputs (clicks, keys, action-bar buttons) into commands on `PlayerCommands`.

use super::{ActionSlot, SlotAction, Tool, action_bar, command_for_click};
use crate::combat::Command;
use crate::combat::plugin::{BattleRes, PlayerCommands};
use crate::grid::GridPos;
use crate::input::{GameAction, Presses};
use bevy::prelude::*;

/// Where the pointer is.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct Pointer {
    /// The board square under it.
    pub cell: Option<GridPos>,
    /// It is over a panel, not the board.
    pub over_ui: bool,
}

/// The unit shown as selected, and what a click does with it.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Selection {
    /// Battle index of the selected fighter.
    pub unit: Option<usize>,
    pub tool: Tool,
}

/// The last thing the player should be told (why a command was refused…).
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Feedback(pub Option<String>);

/// The acting unit's action bar, when it is the player's.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct ActionBar(pub Vec<ActionSlot>);

/// The acting unit's opportunity as the player sees it: when it began (the battle's event
/// count then), and whether the end-turn key was pressed once without anything done since.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct TurnWatch {
    pub actor: Option<usize>,
    pub events_at_start: usize,
    pub confirm_end: bool,
}

/// What the end-turn key asks when the acting unit has done nothing yet.
pub const END_TURN_UNUSED: &str = "End the turn without acting? Press End turn again to confirm.";

/// An action-bar button was pressed (by click or shortcut).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlotPressed(pub usize);

/// Wires the player's inputs to commands. Needs `BindingsPlugin` (the input map) and a
/// `BattleRes` to act on.
pub struct ControlPlugin;

impl Plugin for ControlPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(super::vocabulary::BadgesPlugin)
            .init_resource::<Pointer>()
            .init_resource::<Selection>()
            .init_resource::<Feedback>()
            .init_resource::<ActionBar>()
            .init_resource::<TurnWatch>()
            .add_message::<SlotPressed>()
            .add_systems(
                Update,
                (follow_turns, read_input, press_slots, refresh_action_bar)
                    .chain()
                    .in_set(crate::rules::RulesSet::Intake)
                    .run_if(resource_exists::<BattleRes>),
            );
    }
}

/// The fighter acting now, if a person plays its side.
pub fn human_actor(res: &BattleRes) -> Option<usize> {
    let b = res.battle.read();
    b.actor().filter(|&i| !b.is_over() && res.human_sides.contains(&b.fighters.side[i].0))
}

/// When one of the player's units begins to act, select it with the default tool and note
/// where its opportunity began.
fn follow_turns(res: Res<BattleRes>, mut sel: ResMut<Selection>, mut watch: ResMut<TurnWatch>) {
    if !res.is_changed() {
        return;
    }
    let now = human_actor(&res);
    if now != watch.actor {
        if let Some(i) = now {
            sel.set_if_neq(Selection { unit: Some(i), tool: Tool::Move });
        }
        *watch = TurnWatch { actor: now, events_at_start: res.battle.events().len(), confirm_end: false };
    }
}

fn read_input(
    input: Res<Presses>,
    pointer: Res<Pointer>,
    mut watch: ResMut<TurnWatch>,
    res: Res<BattleRes>,
    mut sel: ResMut<Selection>,
    mut queue: ResMut<PlayerCommands>,
    mut feedback: ResMut<Feedback>,
    mut slots: MessageWriter<SlotPressed>,
) {
    let actor = human_actor(&res);
    if input.pressed(GameAction::Cancel) {
        sel.tool = Tool::Move;
        feedback.0 = None;
    }
    for &action in crate::input::ALL_ACTIONS {
        if let Some(slot) = action.slot()
            && input.pressed(action)
        {
            slots.write(SlotPressed(slot));
        }
    }
    if input.pressed(GameAction::EndTurn) && actor.is_some() {
        // The key is easy to hit by accident (or twice): an unused opportunity asks once.
        // Ending the turn goes on with an action under way (ap-phases): that is acting.
        let going_on = {
            let read = res.battle.read();
            read.budget().continuing()
        };
        let acted = res.battle.events().len() > watch.events_at_start || going_on;
        if acted || watch.confirm_end {
            queue.0.push_back(Command::EndTurn);
            feedback.0 = None;
            // The same unit may be up again next (another phase): a new opportunity.
            watch.actor = None;
        } else {
            watch.confirm_end = true;
            feedback.0 = Some(END_TURN_UNUSED.to_string());
        }
    }
    if input.pressed(GameAction::CycleUnit) {
        let b = res.battle.read();
        let mine: Vec<usize> = (0..b.fighters.len())
            .filter(|&i| b.fighters.conditions[i].in_fight() && res.human_sides.contains(&b.fighters.side[i].0))
            .collect();
        if !mine.is_empty() {
            let next = sel.unit.and_then(|u| mine.iter().position(|&m| m == u)).map_or(0, |k| (k + 1) % mine.len());
            sel.unit = Some(mine[next]);
        }
    }
    if input.pressed(GameAction::Select)
        && !pointer.over_ui
        && let Some(cell) = pointer.cell
    {
        let b = res.battle.read();
        let clicked = (0..b.fighters.len())
            .find(|&i| b.fighters.conditions[i].alive() && b.fighters.at(i).footprint().contains(cell));
        // "Yours": on the acting unit's side on your turn, else on any side you play.
        let own = clicked.filter(|&i| match actor {
            Some(a) => b.fighters.side[i] == b.fighters.side[a],
            None => res.human_sides.contains(&b.fighters.side[i].0),
        });
        match (actor, own) {
            // Clicking one of your own units selects it to look at.
            (_, Some(i)) if (Some(i) != actor || sel.tool == Tool::Move) && !sel.tool.aims_at_friend() => {
                sel.unit = Some(i);
                feedback.0 = None;
            }
            (Some(_), _) => {
                // Asking the rules does not change the battle.
                match command_for_click(&res.battle, sel.tool, cell) {
                    Ok(cmd) => {
                        queue.0.push_back(cmd);
                        sel.tool = Tool::Move;
                        feedback.0 = None;
                    }
                    Err(why) => feedback.0 = Some(why),
                }
            }
            (None, _) => {
                if clicked.is_some() {
                    sel.unit = clicked;
                }
            }
        }
    }
}

fn press_slots(
    mut pressed: MessageReader<SlotPressed>,
    bar: Res<ActionBar>,
    mut sel: ResMut<Selection>,
    mut queue: ResMut<PlayerCommands>,
    mut feedback: ResMut<Feedback>,
) {
    for SlotPressed(i) in pressed.read() {
        let Some(slot) = bar.0.get(*i) else { continue };
        match (&slot.state, &slot.action) {
            (Err(why), _) => feedback.0 = Some(format!("{}: {why}", slot.label)),
            (Ok(()), SlotAction::Aim(tool)) => {
                sel.tool = *tool;
                feedback.0 = None;
            }
            (Ok(()), SlotAction::Now(cmd)) => {
                queue.0.push_back(cmd.clone());
                sel.tool = Tool::Move;
                feedback.0 = None;
            }
        }
    }
}

/// Recomputes the action bar whenever the battle moves on.
fn refresh_action_bar(res: Res<BattleRes>, mut bar: ResMut<ActionBar>, mut last_events: Local<usize>) {
    let n = res.battle.events().len();
    if n == *last_events && !bar.0.is_empty() {
        return;
    }
    *last_events = n;
    let slots = if human_actor(&res).is_some() { action_bar(&res.battle) } else { vec![] };
    bar.set_if_neq(ActionBar(slots));
}
