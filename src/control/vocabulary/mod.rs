//! The game's vocabulary for commanding and reading a battle, per rule variant: the tools a
//! player aims with, the action bar's tables, the clock and budget in each variant's own
//! words, and the badge each unit wears. The rules themselves live in `combat`; this reads
//! them and names them.

mod ap_phases;
mod d20_classic;
mod four_actions;
mod hex_phases;
mod osr_segments;

mod prelude {
    pub(super) use super::{SlotAction, Tool, add_badges, say};
    pub(super) use crate::combat::command::{Command, Intent, Stance};
    pub(super) use crate::combat::{Battle, Budget};
    pub(super) use crate::variants::RulesVariant;
    pub(super) use bevy::prelude::{App, Entity};
}

use crate::combat::command::{Command, Intent};
use crate::combat::plugin::BattleRes;
use crate::combat::{Battle, Budget};
use crate::grid::GridPos;
use crate::rules::{Combatant, RulesSet};
use crate::variants::RulesVariant;
use bevy::prelude::*;

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
    /// Cast a spell (by catalogue id) at a foe, or on a friend for a healing spell;
    /// `defensive`: cast defensively (d20-classic, ap-phases).
    Cast {
        spell: &'static str,
        defensive: bool,
    },
    /// ap-phases: deliver a coup de grace to a helpless foe.
    CoupDeGrace,
    /// ap-phases: give first aid to a dying ally.
    FirstAid,
    /// ap-phases: continue a grapple by moving, the held foe dragged along.
    Drag,
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
                | Tool::CoupDeGrace
        ) || matches!(self, Tool::Cast { spell, .. } if !crate::combat::magic::spell(spell).is_some_and(|s| s.on_friends()))
    }

    /// What the player holds, in words.
    pub fn describe(self) -> String {
        match self {
            Tool::Cast { spell, defensive } => {
                let name = crate::combat::magic::spell(spell).map_or(spell, |s| s.name.as_str());
                if defensive { format!("cast {name} defensively") } else { format!("cast {name}") }
            }
            Tool::DeclareCharge => "declare a charge".into(),
            Tool::FullAttack => "full attack".into(),
            Tool::CoupDeGrace => "coup de grace".into(),
            Tool::FirstAid => "first aid".into(),
            Tool::Drag => "continue grapple: move".into(),
            other => format!("{other:?}").to_lowercase(),
        }
    }

    /// Whether the tool aims at a friend rather than a foe or a square: first aid, or a
    /// healing spell (on a friend or the caster itself).
    pub fn aims_at_friend(self) -> bool {
        matches!(self, Tool::FirstAid)
            || matches!(self, Tool::Cast { spell, .. } if crate::combat::magic::spell(spell).is_some_and(|s| s.on_friends()))
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
            Tool::Cast { spell, defensive } => Command::Cast { spell: spell.into(), target, defensive },
            Tool::CoupDeGrace => Command::CoupDeGrace { target },
            Tool::FirstAid => Command::FirstAid { target },
            Tool::Drag => Command::Wrestle { follow_up: crate::combat::command::GrappleFollowUp::Move { to } },
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

/// The actions a variant offers, in action-bar order.
pub fn actions(v: RulesVariant) -> Vec<(&'static str, SlotAction)> {
    let mut list = own_actions(v);
    list.extend(shared_actions(v));
    list
}

/// "Move", then the variant's own actions.
pub fn own_actions(v: RulesVariant) -> Vec<(&'static str, SlotAction)> {
    let mut list = vec![("Move", SlotAction::Aim(Tool::Move))];
    list.extend(match v {
        RulesVariant::ApPhases => ap_phases::actions(),
        RulesVariant::FourActions => four_actions::actions(),
        RulesVariant::D20Classic => d20_classic::actions(),
        RulesVariant::OsrSegments => osr_segments::actions(),
        RulesVariant::HexPhases => hex_phases::actions(),
    });
    list
}

/// The spells a caster may cast, as actions: osr-segments declares them first;
/// d20-classic and ap-phases can also cast defensively.
pub fn spell_actions(v: RulesVariant, known: &[String]) -> Vec<(String, SlotAction)> {
    use SlotAction::{Aim, Now};
    let mut list = vec![];
    for sp in known.iter().filter_map(|id| crate::combat::magic::spell(id)) {
        let cast = |defensive| Aim(Tool::Cast { spell: sp.id.as_str(), defensive });
        if v == RulesVariant::OsrSegments {
            let intent = Intent::Cast { spell: sp.id.clone() };
            list.push((format!("Declare: {}", sp.name.to_lowercase()), Now(Command::Declare { intent })));
        }
        list.push((sp.name.clone(), cast(false)));
        if matches!(v, RulesVariant::D20Classic | RulesVariant::ApPhases) {
            list.push((format!("{} (defensively)", sp.name), cast(true)));
        }
    }
    list
}

/// The actions every variant shares, after its own and the spells.
pub fn shared_actions(v: RulesVariant) -> Vec<(&'static str, SlotAction)> {
    use SlotAction::Now;
    let mut list = vec![];
    list.extend([
        ("Hold attack", Now(Command::Hold { target: None })),
        ("Reload", Now(Command::Reload)),
        ("Stand up", Now(Command::Stand)),
        ("Escape grapple", Now(Command::Escape)),
    ]);
    if v != RulesVariant::FourActions {
        list.push(("Delay", Now(Command::Delay)));
    }
    list.push(("End turn", Now(Command::EndTurn)));
    list
}

/// The clock in the variant's own words.
pub fn clock_line(b: &Battle) -> String {
    if let Some(winner) = b.winner {
        let result = winner.as_ref().map_or("a draw".to_string(), |side| format!("{side} wins"));
        return format!("{} | the battle is over: {result}", round_label(b));
    }
    let who = b.actor().map_or("nobody".to_string(), |a| b.fighters.combatant[a].id.clone());
    match b.variant {
        RulesVariant::ApPhases => ap_phases::clock_line(b, &who),
        RulesVariant::FourActions => four_actions::clock_line(b, &who),
        RulesVariant::D20Classic => d20_classic::clock_line(b, &who),
        RulesVariant::OsrSegments => osr_segments::clock_line(b, &who),
        RulesVariant::HexPhases => hex_phases::clock_line(b, &who),
    }
}

/// Per fighter in the fight, in the clock's order: its index and a note in the variant's
/// words (AP pips, initiative, a declaration still to make…).
pub fn initiative_rows(b: &Battle) -> Vec<(usize, String)> {
    let c = &b.clock;
    let order: Vec<Entity> =
        if c.order.is_empty() { b.fighters.indices().map(|i| b.fighters.entity(i)).collect() } else { c.order.clone() };
    let order = match b.variant {
        RulesVariant::OsrSegments => osr_segments::initiative_order(b, order),
        _ => order,
    };
    order
        .into_iter()
        .filter_map(|e| b.fighters.seat_of(e))
        .filter(|&i| b.fighters.conditions[i].alive())
        .map(|i| {
            let note = match b.variant {
                RulesVariant::ApPhases => ap_phases::initiative_note(b, i),
                RulesVariant::OsrSegments => osr_segments::initiative_note(b, i),
                _ => format!("init {}", b.fighters.initiative[i].shown),
            };
            (i, note)
        })
        .collect()
}

/// What a caster's spells are counted in.
pub fn spells_unit(v: RulesVariant) -> &'static str {
    if v == RulesVariant::FourActions { "SQ" } else { "spells" }
}

/// What the variant's rounds are called ("turns" of four phases in hex-phases).
pub fn rounds_word(v: RulesVariant) -> &'static str {
    if v == RulesVariant::HexPhases { "turns" } else { "rounds" }
}

/// "Round 3", or "Round 0 (surprise round: only the aware act)"; hex-phases counts turns.
fn round_label(b: &Battle) -> String {
    let c = &b.clock;
    if b.variant == RulesVariant::HexPhases {
        return format!("Turn {}", c.round);
    }
    let surprise = if c.surprise { " (surprise round: only the aware act)" } else { "" };
    format!("Round {}{surprise}", c.round)
}

/// The clock of the turn-based variants: the round, who acts, the initiative order.
fn initiative_clock_line(b: &Battle, who: &str) -> String {
    let order: Vec<&str> = b.clock.order.iter().map(|&e| b.fighters.combatant[e].id.as_str()).collect();
    format!("{} | {who} acts | initiative: {}", round_label(b), order.join(" > "))
}

/// What the acting fighter may still do, in the variant's words.
pub fn budget_line(b: &Battle) -> String {
    let Some(actor) = b.actor() else { return String::new() };
    let mut parts = budget_words(b, actor, &b.fighters.economy[actor].budget);
    if b.budget().single_action {
        parts.push("surprise: one action".into());
    }
    if parts.is_empty() { "nothing left".into() } else { parts.join(", ") }
}

/// The parts of `budget` fighter `actor` may still spend, in the variant's words.
fn budget_words(b: &Battle, actor: usize, budget: &Budget) -> Vec<String> {
    match b.variant {
        RulesVariant::ApPhases => ap_phases::budget_words(b, actor, budget),
        RulesVariant::FourActions => four_actions::budget_words(b, actor, budget),
        RulesVariant::D20Classic => d20_classic::budget_words(b, actor, budget),
        RulesVariant::OsrSegments => osr_segments::budget_words(b, actor, budget),
        RulesVariant::HexPhases => hex_phases::budget_words(b, actor, budget),
    }
}

/// What `cmd` takes of fighter `actor`'s turn from its start (osr-segments: its group's turn,
/// the intent declared; ap-phases: a phase it may strike in), in the variant's words, or why
/// a turn cannot pay for it.
pub fn action_cost(world: &mut crate::combat::BattleWorld, actor: usize, cmd: &Command) -> String {
    // ap-phases: as in the phase its weapon first strikes, the round's AP whole; put back after.
    let was = (world.variant() == RulesVariant::ApPhases).then(|| ap_phases::ready_to_act(world, actor));
    let cost = {
        let b = world.read();
        let mut fresh = b.fresh_budget_of(actor);
        if b.variant == RulesVariant::OsrSegments {
            osr_segments::as_group_turn(&mut fresh);
        }
        match b.spend_from(actor, &fresh, cmd) {
            Ok(left) => cost_line(&b, actor, &fresh, &left),
            Err(why) => format!("not in one turn: {why}"),
        }
    };
    if let Some(was) = was {
        ap_phases::as_it_was(world, actor, was);
    }
    cost
}

/// What an action costs, spent from `before` and leaving `after`, in the variant's words:
/// the parts of the budget it uses up ("standard", "move", "this phase's action (1 AP)"),
/// and the whole turn's only where nothing else goes ("full-round"); "free" where nothing is.
fn cost_line(b: &Battle, actor: usize, before: &Budget, after: &Budget) -> String {
    let words = |budget: &Budget, fresh: bool| {
        let mut budget = budget.clone();
        budget.fresh &= fresh;
        budget_words(b, actor, &budget)
    };
    let gone = |fresh: bool| {
        let mut left = words(after, fresh);
        let mut gone = Vec::new();
        for word in words(before, fresh) {
            match left.iter().position(|w| *w == word) {
                Some(k) => {
                    left.remove(k);
                }
                None => gone.push(word),
            }
        }
        gone
    };
    let mut parts = gone(false);
    if parts.is_empty() {
        parts = gone(true);
    }
    if parts.is_empty() { "free".into() } else { parts.join(" + ") }
}

/// The words `on` switches in: a helper for budget lines.
fn say(parts: &mut Vec<String>, on: bool, s: &str) {
    if on {
        parts.push(s.to_string());
    }
}

/// A short line under a unit's token with its state under the active variant
/// (AP left, HIGH/LOW group and declaration, abort order, reaction…).
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct VariantBadge(pub String);

/// Each unit's badge in its variant's words (AP pips, a reaction ready…).
pub struct BadgesPlugin;

impl Plugin for BadgesPlugin {
    fn build(&self, app: &mut App) {
        ap_phases::plugin(app);
        four_actions::plugin(app);
        d20_classic::plugin(app);
        osr_segments::plugin(app);
        hex_phases::plugin(app);
    }
}

/// Run condition: the battle is under this variant.
pub fn variant_is(v: RulesVariant) -> impl FnMut(Option<Res<BattleRes>>) -> bool + Clone {
    move |res: Option<Res<BattleRes>>| res.is_some_and(|r| r.battle.variant() == v)
}

/// Adds the badge system of one variant, running in `RulesSet::Derive` while it is active.
fn add_badges(app: &mut App, v: RulesVariant, badge: fn(&Battle, usize) -> String) {
    app.add_systems(
        Update,
        (move |res: Res<BattleRes>,
               mut commands: Commands,
               mut q: Query<(Entity, &Combatant, Option<&mut VariantBadge>)>| {
            if !res.is_changed() {
                return;
            }
            for (e, c, current) in &mut q {
                let Some(i) = res.battle.index_of(&c.id) else { continue };
                let text = if res.battle.read().fighters.conditions[i].in_fight() {
                    badge(&res.battle.read(), i)
                } else {
                    String::new()
                };
                match current {
                    Some(mut b) => {
                        b.set_if_neq(VariantBadge(text));
                    }
                    None => {
                        commands.entity(e).insert(VariantBadge(text));
                    }
                }
            }
        })
        .in_set(RulesSet::Derive)
        .run_if(variant_is(v)),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_variant_offers_its_own_actions() {
        let labels = |v| actions(v).into_iter().map(|(l, _)| l).collect::<Vec<_>>();
        assert!(labels(RulesVariant::D20Classic).contains(&"Full attack"));
        assert!(labels(RulesVariant::FourActions).contains(&"Guard"));
        assert!(!labels(RulesVariant::FourActions).contains(&"Delay"));
        assert!(labels(RulesVariant::OsrSegments).contains(&"Declare: charge"));
        assert!(labels(RulesVariant::HexPhases).contains(&"Abort when attacked"));
        assert!(labels(RulesVariant::ApPhases).contains(&"Total defense"));
        for v in RulesVariant::ALL {
            assert_eq!(labels(v).first(), Some(&"Move"));
            assert_eq!(labels(v).last(), Some(&"End turn"));
        }
    }
}
