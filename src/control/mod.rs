//! Player control, the pure part: the tools a player aims with (move, step, attack,
//! charge…), the action bar of what the acting unit may do now in this variant (with the
//! reason when it may not), and the mapping from a click on a square to an engine
//! command. No ECS here: `plugin` wires it to the pointer and the key bindings.

pub mod plugin;

use crate::combat::command::{Intent, Stance};
use crate::combat::{Battle, Command};
use crate::grid::GridPos;
use crate::variant::RulesVariant;

/// What a click on the board does for the selected unit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Tool {
    /// Move (click a square) or attack (click a foe): the default.
    #[default]
    Move,
    Step,
    Dash,
    Tumble,
    Attack,
    FullAttack,
    Charge,
    Trip,
    Shove,
    Disarm,
    Grapple,
    /// osr-segments: declare a charge at a foe.
    DeclareCharge,
}

impl Tool {
    /// Whether the tool aims at a foe rather than a square.
    pub fn aims_at_foe(self) -> bool {
        matches!(
            self,
            Tool::Attack
                | Tool::FullAttack
                | Tool::Charge
                | Tool::Trip
                | Tool::Shove
                | Tool::Disarm
                | Tool::Grapple
                | Tool::DeclareCharge
        )
    }

    /// The command this tool makes against a square or a foe.
    pub fn command(self, to: GridPos, foe: &str) -> Command {
        let target = foe.to_string();
        match self {
            Tool::Move => Command::Move { to },
            Tool::Step => Command::Step { to },
            Tool::Dash => Command::Dash { to },
            Tool::Tumble => Command::Tumble { to },
            Tool::Attack => Command::Attack { target },
            Tool::FullAttack => Command::FullAttack { target },
            Tool::Charge => Command::Charge { target },
            Tool::Trip => Command::Trip { target },
            Tool::Shove => Command::Shove { target },
            Tool::Disarm => Command::Disarm { target },
            Tool::Grapple => Command::Grapple { target },
            Tool::DeclareCharge => Command::Declare { intent: Intent::Charge { target } },
        }
    }
}

/// What an action-bar button does when pressed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SlotAction {
    /// Pick a tool, then click the board.
    Aim(Tool),
    /// Do it at once.
    Now(Command),
}

/// One button of the action bar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionSlot {
    pub label: &'static str,
    pub action: SlotAction,
    /// `Err(reason)` when the action is not possible now.
    pub state: Result<(), String>,
}

/// The actions a variant offers, in action-bar order.
pub fn offered(variant: RulesVariant) -> Vec<(&'static str, SlotAction)> {
    use SlotAction::{Aim, Now};
    let mut v: Vec<(&'static str, SlotAction)> = vec![("Move", Aim(Tool::Move))];
    let step = match variant {
        RulesVariant::FourActions => "Side step",
        RulesVariant::HexPhases => "1-hex step",
        RulesVariant::OsrSegments => "Position (10 ft)",
        _ => "5-ft step",
    };
    v.push((step, Aim(Tool::Step)));
    v.push(("Attack", Aim(Tool::Attack)));
    match variant {
        RulesVariant::D20Classic => v.extend([
            ("Full attack", Aim(Tool::FullAttack)),
            ("Charge", Aim(Tool::Charge)),
            ("Trip", Aim(Tool::Trip)),
            ("Shove", Aim(Tool::Shove)),
            ("Disarm", Aim(Tool::Disarm)),
            ("Grapple", Aim(Tool::Grapple)),
            ("Full defense", Now(Command::Defend)),
            ("Fight defensively", Now(Command::Stance { stance: Stance::Defensive })),
            ("Fight recklessly", Now(Command::Stance { stance: Stance::Reckless })),
        ]),
        RulesVariant::FourActions => v.extend([
            ("Dash", Aim(Tool::Dash)),
            ("Tumble", Aim(Tool::Tumble)),
            ("Charge", Aim(Tool::Charge)),
            ("Trip", Aim(Tool::Trip)),
            ("Push", Aim(Tool::Shove)),
            ("Grapple", Aim(Tool::Grapple)),
            ("Guard", Now(Command::Guard)),
            ("Defend", Now(Command::Defend)),
            ("Focus", Now(Command::Focus)),
        ]),
        RulesVariant::ApPhases => v.extend([
            ("Charge", Aim(Tool::Charge)),
            ("Trip", Aim(Tool::Trip)),
            ("Bull rush", Aim(Tool::Shove)),
            ("Disarm", Aim(Tool::Disarm)),
            ("Total defense", Now(Command::Defend)),
            ("Fight defensively", Now(Command::Stance { stance: Stance::Defensive })),
        ]),
        RulesVariant::OsrSegments => v.extend([
            ("Declare: fight", Now(Command::Declare { intent: Intent::Fight })),
            ("Declare: charge", Aim(Tool::DeclareCharge)),
            ("Declare: delay", Now(Command::Declare { intent: Intent::Delay })),
            ("Charge", Aim(Tool::Charge)),
        ]),
        RulesVariant::HexPhases => v.extend([
            ("Dodge", Now(Command::Defend)),
            ("Abort when attacked", Now(Command::AbortOrder { on: true })),
            ("Never abort", Now(Command::AbortOrder { on: false })),
        ]),
    }
    v.extend([
        ("Hold attack", Now(Command::Hold { target: None })),
        ("Reload", Now(Command::Reload)),
        ("Stand up", Now(Command::Stand)),
        ("Escape grapple", Now(Command::Escape)),
    ]);
    if variant != RulesVariant::FourActions {
        v.push(("Delay", Now(Command::Delay)));
    }
    v.push(("End turn", Now(Command::EndTurn)));
    v
}

/// The action bar for whoever acts now: every action the variant offers, each either
/// possible or carrying the reason it is not.
pub fn action_bar(b: &mut Battle) -> Vec<ActionSlot> {
    let Some(actor) = b.actor() else { return vec![] };
    let foes: Vec<String> =
        b.fighters.iter().filter(|f| f.side != b.fighters[actor].side && f.in_fight()).map(|f| f.id.clone()).collect();
    let here = b.fighters[actor].pos;
    offered(b.variant)
        .into_iter()
        .map(|(label, action)| {
            let state = match &action {
                SlotAction::Now(cmd) => b.validate(cmd).map(|_| ()).map_err(|e| e.reason),
                SlotAction::Aim(tool) if tool.aims_at_foe() => {
                    let probe = tool.command(here, foes.first().map_or("", |s| s.as_str()));
                    b.affordable(&probe).and_then(|()| {
                        let mut last = "no foe in the fight".to_string();
                        for foe in &foes {
                            match b.validate(&tool.command(here, foe)) {
                                Ok(_) => return Ok(()),
                                Err(e) => last = e.reason,
                            }
                        }
                        Err(if foes.len() > 1 { format!("no foe can be targeted ({last})") } else { last })
                    })
                }
                SlotAction::Aim(tool) => b.affordable(&tool.command(here, "")),
            };
            ActionSlot { label, action, state }
        })
        .collect()
}

/// The command a click on `cell` gives the acting fighter with `tool` in hand. A click on
/// a foe with a movement tool attacks it (a full attack where the variant has one and it
/// is legal); a click on the ground with a foe tool moves there.
pub fn command_for_click(b: &mut Battle, tool: Tool, cell: GridPos) -> Result<Command, String> {
    let actor = b.actor().ok_or("nobody is acting")?;
    let foe = b
        .fighters
        .iter()
        .find(|f| f.alive() && f.footprint().contains(cell) && f.side != b.fighters[actor].side)
        .map(|f| f.id.clone());
    let candidates: Vec<Command> = match (&foe, tool.aims_at_foe()) {
        (Some(foe), true) => vec![tool.command(cell, foe)],
        (Some(foe), false) => {
            let mut v = vec![];
            if b.variant == RulesVariant::D20Classic {
                v.push(Tool::FullAttack.command(cell, foe));
            }
            v.push(Tool::Attack.command(cell, foe));
            v
        }
        (None, true) => vec![Tool::Move.command(cell, "")],
        (None, false) => vec![tool.command(cell, "")],
    };
    let mut reason = String::new();
    for cmd in candidates {
        match b.validate(&cmd) {
            Ok(_) => return Ok(cmd),
            Err(e) => {
                if reason.is_empty() {
                    reason = e.to_string();
                }
            }
        }
    }
    Err(reason)
}

/// What the acting fighter may still do, in the variant's words.
pub fn budget_line(b: &Battle) -> String {
    let Some(actor) = b.actor() else { return String::new() };
    let bud = &b.clock.budget;
    let mut parts: Vec<String> = vec![];
    fn say(parts: &mut Vec<String>, on: bool, s: &str) {
        if on {
            parts.push(s.to_string());
        }
    }
    match b.variant {
        RulesVariant::D20Classic => {
            say(&mut parts, bud.fresh, "full-round");
            say(&mut parts, bud.standard, "standard");
            say(&mut parts, bud.move_action, "move");
            say(&mut parts, bud.swift, "swift");
            say(&mut parts, !bud.moved && !bud.stepped, "5-ft step");
        }
        RulesVariant::FourActions => {
            say(&mut parts, bud.standard, "standard");
            say(&mut parts, bud.move_action, "move");
            say(&mut parts, bud.quick, "quick");
        }
        RulesVariant::ApPhases => {
            let ap = b.clock.ap.get(actor).copied().unwrap_or(0);
            parts.push(format!("{ap} AP"));
            say(&mut parts, bud.phase_action, "an action this phase");
        }
        RulesVariant::OsrSegments => {
            say(&mut parts, bud.declaring, "declare: fight, charge or delay");
            say(&mut parts, bud.major && !bud.declaring, "major action");
            say(&mut parts, bud.fast_only, "(fast actions only)");
            say(&mut parts, bud.attacks_only, "(attack routine only)");
        }
        RulesVariant::HexPhases => {
            say(&mut parts, bud.fresh, "full-phase");
            say(&mut parts, !bud.attack_used, "attack");
            parts.push(format!("{} move(s)", 2u8.saturating_sub(bud.moves_used)));
        }
    }
    if bud.single_action {
        parts.push("surprise: one action".into());
    }
    if parts.is_empty() { "nothing left".into() } else { parts.join(", ") }
}
