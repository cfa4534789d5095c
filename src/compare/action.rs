//! The per-action comparison: one attack, charge or walk, in the situation of a battle in play,
//! worked out under every variant at once. Each variant keeps a mirror (its own battle in its
//! own World, set up from the same level) which is put in the live battle's situation (where
//! each unit stands, its conditions and its weapon) and then asked through the functions the
//! game's own previews use: the attack's forecast (`combat::attack::forecast`), the path's
//! plan with the attacks of opportunity it draws, and each of those attacks' forecast; and
//! what it costs from a fresh opportunity in the variant's own economy.

use crate::combat::attack::forecast;
use crate::combat::battle::AttackContext;
use crate::combat::fighter::Bonuses;
use crate::combat::odds::AttackOdds;
use crate::combat::{AttackKind, Battle, BattleOptions, BattleWorld, Command};
use crate::grid::GridPos;
use crate::level::{Catalogue, Level};
use crate::rules::movement::{MoveMode, PathPlan, allowance_ft, movement_range};
use crate::rules::{Conditions, Position, Wielded};
use crate::variants::{HouseRule, Provoking, RulesVariant};

/// One variant's answer for the action.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionRow {
    pub variant: RulesVariant,
    /// Why the variant refuses it, if it does.
    pub refused: Option<String>,
    /// An attack: its odds.
    pub odds: Option<AttackOdds>,
    /// A walk: what it costs in feet.
    pub feet: Option<u32>,
    /// Attacks of opportunity it draws, and their expected damage together.
    pub provoked: usize,
    pub provoked_damage: f64,
    /// An attack: whether its target could still strike back at once (a reaction left).
    pub reply: Option<bool>,
    /// What it costs from a fresh opportunity, in the variant's words ("standard", "this
    /// phase's action (1 AP)", "major action"), or why that budget cannot pay for it.
    pub cost: String,
}

impl ActionRow {
    fn refused(variant: RulesVariant, why: String) -> ActionRow {
        ActionRow {
            variant,
            refused: Some(why),
            odds: None,
            feet: None,
            provoked: 0,
            provoked_damage: 0.0,
            reply: None,
            cost: String::new(),
        }
    }
}

/// A battle per variant, to ask about the live battle's situation.
pub struct Mirrors {
    worlds: Vec<BattleWorld>,
}

impl Mirrors {
    /// One mirror per variant of `level`, each with those of `house_rules` that apply to it.
    pub fn new(level: &Level, catalogue: &Catalogue, house_rules: &[HouseRule]) -> Mirrors {
        let worlds = RulesVariant::ALL
            .into_iter()
            .map(|v| {
                let house_rules = house_rules.iter().copied().filter(|h| h.applies_to().contains(&v)).collect();
                BattleWorld::new_paused(level, catalogue, v, 0, BattleOptions { house_rules, ..Default::default() })
            })
            .collect();
        Mirrors { worlds }
    }

    /// `a`'s attack on `t` under every variant, as things stand in `live`.
    pub fn attack(&mut self, live: &Battle, a: usize, t: usize) -> Vec<ActionRow> {
        self.rows(live, |world| {
            let mut row = attack_row(&world.read(), a, t, &AttackContext::default());
            if row.refused.is_none() {
                let attack = Command::Attack { target: world.read().fighters.combatant[t].id.clone() };
                row.cost = crate::control::action_cost(world, a, &attack);
            }
            row
        })
    }

    /// `a`'s charge at `t` under every variant, as things stand in `live`: each variant's own
    /// charge line from where `a` stands, and its attack (with the charge's bonuses) from
    /// where that line ends.
    pub fn charge(&mut self, live: &Battle, a: usize, t: usize) -> Vec<ActionRow> {
        self.rows(live, |world| {
            let line = match world.read().charge_line(a, t) {
                Ok(line) => line,
                Err(why) => return ActionRow::refused(world.variant(), why),
            };
            let home = world.read().fighters.position[a].0;
            world.scene().fighter::<Position>(a).0 = line.squares.last().copied().unwrap_or(home);
            let mut row = attack_row(&world.read(), a, t, &AttackContext { charge: true });
            world.scene().fighter::<Position>(a).0 = home;
            if row.refused.is_none() {
                (row.provoked, row.provoked_damage) = provoked_along(world, a, &line);
                let numbers = world.variant().numbers();
                row.reply = row.reply.map(|reply| reply && !numbers.charge_target_cannot_react);
                let charge = Command::Charge { target: world.read().fighters.combatant[t].id.clone() };
                row.cost = crate::control::action_cost(world, a, &charge);
            }
            row
        })
    }

    /// `mover`'s walk to `to` with one move under every variant, as things stand in `live`.
    pub fn walk(&mut self, live: &Battle, mover: usize, to: GridPos) -> Vec<ActionRow> {
        self.rows(live, |world| {
            let mut row = walk_row(world, mover, to);
            if row.refused.is_none() {
                row.cost = crate::control::action_cost(world, mover, &Command::Move { to });
            }
            row
        })
    }

    /// `ask` of every mirror, each put in `live`'s situation first: where each unit stands,
    /// its conditions and its weapon; and, in the mirror of `live`'s own variant, the
    /// bonuses its stances gave (a charge's, total defense's…), so that its row answers as
    /// the battle does. Another variant's mirror keeps none: a stance is taken under the
    /// rules of the variant it was taken in.
    fn rows(&mut self, live: &Battle, ask: impl Fn(&mut BattleWorld) -> ActionRow) -> Vec<ActionRow> {
        self.worlds
            .iter_mut()
            .map(|world| {
                let n = world.read().fighters.len();
                let own = world.variant() == live.variant;
                let mut scene = world.scene();
                for i in live.fighters.indices().filter(|&i| i < n) {
                    scene.fighter::<Position>(i).clone_from(&live.fighters.position[i]);
                    scene.fighter::<Conditions>(i).clone_from(&live.fighters.conditions[i]);
                    scene.fighter::<Wielded>(i).clone_from(&live.fighters.wielded[i]);
                    if own {
                        scene.fighter::<Bonuses>(i).clone_from(&live.fighters.bonuses[i]);
                    }
                }
                drop(scene);
                ask(world)
            })
            .collect()
    }
}

/// The foes of `a` that threaten where it stands and could strike it now.
fn foes_threatening(b: &Battle, a: usize) -> Vec<usize> {
    let view = b.view();
    let fa = b.fighters.at(a);
    let mask = view.threat.threateners_of(fa.footprint());
    b.fighters
        .indices()
        .filter(|&i| mask & (1u128 << i) != 0 && b.fighters.side[i] != *fa.side() && b.can_react(i, a))
        .collect()
}

/// The expected damage of each of `by`'s attacks of opportunity on `on`, together.
fn opportunity_damage(b: &Battle, by: &[usize], on: usize) -> f64 {
    by.iter()
        .map(|&p| forecast(b, p, on, &AttackKind::Opportunity, &Default::default()).odds().expected_damage)
        .fold(0.0, |all, d| all + d)
}

/// `a`'s attack on `t` in `b` (in `ctx`: a charge's or not), all but its cost.
fn attack_row(b: &Battle, a: usize, t: usize, ctx: &AttackContext) -> ActionRow {
    let seen = forecast(b, a, t, &AttackKind::Primary, ctx);
    if !seen.profile.legal {
        return ActionRow::refused(b.variant, seen.profile.reason.unwrap_or_default());
    }
    // Firing with foes in reach draws their attacks where the variant says so.
    let fires = !seen.profile.melee && b.variant.numbers().provoked_by.contains(&Provoking::Firing);
    let by: Vec<usize> = if fires { foes_threatening(b, a) } else { vec![] };
    ActionRow {
        variant: b.variant,
        refused: None,
        odds: Some(seen.odds()),
        feet: None,
        provoked: by.len(),
        provoked_damage: opportunity_damage(b, &by, a),
        reply: Some(b.can_react(t, a)),
        cost: String::new(),
    }
}

/// `mover`'s walk to `to` with one move in `world`, all but its cost.
fn walk_row(world: &mut BattleWorld, mover: usize, to: GridPos) -> ActionRow {
    let variant = world.variant();
    let plan = {
        let b = world.read();
        let view = b.view();
        let allowance = allowance_ft(&view, mover, MoveMode::Move);
        movement_range(&view, mover, MoveMode::Move, allowance).plan_to(&view, to)
    };
    let plan = match plan {
        Ok(plan) => plan,
        Err(why) => return ActionRow::refused(variant, why.0),
    };
    let (provoked, damage) = provoked_along(world, mover, &plan);
    ActionRow {
        variant,
        refused: None,
        odds: None,
        feet: Some(plan.cost_ft),
        provoked,
        provoked_damage: damage,
        reply: None,
        cost: String::new(),
    }
}

/// The attacks of opportunity `mover` draws along `plan` from foes that can still react,
/// and their expected damage together: each struck as the mover leaves its square.
fn provoked_along(world: &mut BattleWorld, mover: usize, plan: &PathPlan) -> (usize, f64) {
    let home = world.read().fighters.position[mover].0;
    let (mut provoked, mut damage) = (0, 0.0);
    let reacting: Vec<_> = plan.provokes.iter().filter(|p| world.read().can_react(p.by, mover)).collect();
    for p in reacting {
        world.scene().fighter::<Position>(mover).0 = p.from;
        provoked += 1;
        damage += opportunity_damage(&world.read(), &[p.by], mover);
    }
    world.scene().fighter::<Position>(mover).0 = home;
    (provoked, damage)
}
