//! Player control, the pure part: the tools a player aims with (move, step, attack,
//! charge…), the action bar of what the acting unit may do now in this variant (with the
//! reason when it may not), and the mapping from a click on a square to an engine
//! command. No ECS here: `plugin` wires it to the pointer and the key bindings.

pub mod plugin;
pub mod vocabulary;

pub use vocabulary::{SlotAction, Tool};

use vocabulary as variants;

use crate::combat::resolve::Plan;
use crate::combat::{BattleWorld, Command};
use crate::grid::GridPos;

/// One button of the action bar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionSlot {
    pub label: String,
    pub action: SlotAction,
    /// `Err(reason)` when the action is not possible now.
    pub state: Result<(), String>,
    /// For an action taken at once: the attacks of opportunity it would draw, as "who
    /// (what provokes it)".
    pub provokes: Vec<String>,
}

/// The action bar for whoever acts now: every action the variant offers, each either
/// possible or carrying the reason it is not.
pub fn action_bar(battle: &BattleWorld) -> Vec<ActionSlot> {
    let Some(actor) = battle.actor() else { return vec![] };
    let b = battle.read();
    let side = b.fighters.side[actor].0.clone();
    let units = |keep: &dyn Fn(crate::combat::FighterRef) -> bool| -> Vec<String> {
        b.fighters.iter().filter(|&f| keep(f)).map(|f| f.id().to_string()).collect()
    };
    let foes = units(&|f| f.side().0 != side && f.in_fight());
    // A coup de grace is for the foes already down.
    let down_foes = units(&|f| f.side().0 != side && f.alive() && !f.in_fight());
    let friends = units(&|f| f.side().0 == side && f.alive());
    let here = b.fighters.position[actor].0;
    let known = b.fighters.stats[actor].def.spellcasting.as_ref().map(|m| m.spells.clone()).unwrap_or_default();
    let v = b.variant;
    let static_labels = |list: Vec<(&'static str, SlotAction)>| list.into_iter().map(|(l, a)| (l.to_string(), a));
    static_labels(variants::own_actions(v))
        .chain(variants::spell_actions(v, &known))
        .chain(static_labels(variants::shared_actions(v)))
        .map(|(label, action)| {
            let state = match &action {
                SlotAction::Now(cmd) => battle.validate(cmd).map(|_| ()).map_err(|e| e.reason),
                SlotAction::Aim(tool) if tool.aims_at_foe() || tool.aims_at_friend() => {
                    let (units, none) = match tool {
                        _ if tool.aims_at_friend() => (&friends, "no ally in the battle"),
                        Tool::CoupDeGrace => (&down_foes, "no helpless foe"),
                        _ => (&foes, "no foe in the fight"),
                    };
                    let probe = tool.command(here, units.first().map_or("", |s| s.as_str()));
                    b.affordable(&probe).and_then(|()| {
                        let mut last = none.to_string();
                        for unit in units {
                            match battle.validate(&tool.command(here, unit)) {
                                Ok(_) => return Ok(()),
                                Err(e) => last = e.reason,
                            }
                        }
                        Err(if units.len() > 1 { format!("none can be targeted ({last})") } else { last })
                    })
                }
                // Moving with a held foe: for the one who holds a grapple and may continue it.
                SlotAction::Aim(Tool::Drag) => {
                    let hold = Command::Wrestle { follow_up: crate::combat::command::GrappleFollowUp::Maintain };
                    battle.validate(&hold).map(|_| ()).map_err(|e| e.reason)
                }
                SlotAction::Aim(tool) => b.affordable(&tool.command(here, "")),
            };
            let provokes = match (&action, &state) {
                (SlotAction::Now(cmd), Ok(())) => battle
                    .provocations(cmd)
                    .into_iter()
                    .map(|p| format!("{} ({})", b.fighters.combatant[p.by].id, p.trigger))
                    .collect(),
                _ => vec![],
            };
            ActionSlot { label, action, state, provokes }
        })
        .collect()
}

/// The command a click on `cell` gives the acting fighter with `tool` in hand. A click on
/// a foe with a movement tool attacks it (a full attack where the variant has one and it
/// is legal); a click on the ground with a foe tool moves there.
pub fn command_for_click(b: &BattleWorld, tool: Tool, cell: GridPos) -> Result<Command, String> {
    plan_for_click(b, tool, cell).map(|plan| plan.command)
}

/// [`command_for_click`] with the rules' plan for it (path, provocations, attack roll), so
/// a preview need not ask twice.
pub fn plan_for_click(battle: &BattleWorld, tool: Tool, cell: GridPos) -> Result<Plan, String> {
    let b = battle.read();
    let actor = b.actor().ok_or("nobody is acting")?;
    let side = b.fighters.side[actor].0.clone();
    if tool.aims_at_friend() {
        // First aid or a healing spell: on the friend (or, for a spell, the caster) clicked.
        let friend = b.fighters.iter().find(|f| f.alive() && f.footprint().contains(cell) && f.side().0 == side);
        let target = friend.map(|f| f.id().to_string()).ok_or("click an ally")?;
        return battle.validate(&tool.command(cell, &target)).map_err(|e| e.to_string());
    }
    let foe = b
        .fighters
        .iter()
        .find(|f| f.alive() && f.footprint().contains(cell) && f.side().0 != side)
        .map(|f| f.id().to_string());
    let candidates: Vec<Command> = match (&foe, tool.aims_at_foe()) {
        (Some(foe), true) => vec![tool.command(cell, foe)],
        (Some(foe), false) => {
            let mut v = vec![];
            if b.variant.numbers().ai.full_attack {
                v.push(Tool::FullAttack.command(cell, foe));
            }
            v.push(Tool::Attack.command(cell, foe));
            v
        }
        (None, true) => vec![Tool::Move.command(cell, "")],
        (None, false) => vec![tool.command(cell, "")],
    };
    // Refused every way, the plainest way's reason is the one to give (a foe out of reach,
    // not that a full attack needs the whole turn): the candidates end with it.
    let mut reason = String::new();
    for cmd in candidates {
        match battle.validate(&cmd) {
            Ok(plan) => return Ok(plan),
            Err(e) => reason = e.to_string(),
        }
    }
    Err(reason)
}

pub use vocabulary::{action_cost, budget_line};
