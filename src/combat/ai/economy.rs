//! The actions and options a turn leaves over, spent where they pay, by the attack forecasts
//! the hit-chance panel shows. Before its first strike of a turn a unit weighs each way of
//! spending them that its variant allows: four-actions' focus (a quick action, "+1 bonus on
//! Attack and Damage rolls … for 1 round", at the cost of the quick action's attack at −10)
//! and guard (a move action, "+2 bonus on AC … for 1 round", at the cost of the move
//! action's attack at −5); d20-classic's defensive and reckless fighting ("an option when
//! attacking": −4 to attack for +2 AC, −4 AC for +2 damage) and ap-phases' fighting
//! defensively. Each is worth the damage its strikes are expected to deal this turn less the
//! damage its foes are expected to deal it before its next turn: each foe that can strike it
//! from where it stands (in reach, or in range with a line of fire) and for whom it is the
//! weakest foe it can strike (as the greedy AI chooses), with every attack that foe's turn
//! gives it. Before a turn ends with them unspent, a guard and a focus (whose +1 is on the
//! attacks of opportunity and the held attack it makes before its next turn). The greedy AI
//! spends none of them: it attacks with every action it has.

use crate::combat::attack::{self, AttackContext, AttackKind};
use crate::combat::command::{Command, Stance};
use crate::combat::fighter::{FOCUS, GUARD};
use crate::combat::odds::attack_odds;
use crate::combat::{Battle, Budget};

/// An action to take before the one a line gives, and why, in a reason's words.
pub(super) struct Spare {
    pub command: Command,
    pub why: String,
}

/// What `actor` should do before `next`, the command its line gives, with actions and
/// options that would otherwise be spent poorly or not at all; none where nothing pays.
pub(super) fn before(b: &Battle, actor: usize, next: &Command) -> Option<Spare> {
    match next {
        Command::Attack { target } | Command::FullAttack { target } => {
            let t = b.index_of(target)?;
            before_strikes(b, actor, t, next)
        }
        Command::EndTurn | Command::Hold { .. } if !super::foes_of(b, actor).is_empty() => {
            // Only with what the held attack leaves: a guard with the move action spent would
            // take the standard action the attack is held with.
            let leaves_next = |c: &Command| {
                b.spend_from(actor, b.budget(), c).is_ok_and(|left| b.spend_from(actor, &left, next).is_ok())
            };
            let mut spares = edges(b, actor).into_iter().map(|e| e.command);
            spares.find(|c| matches!(c, Command::Guard | Command::Focus) && leaves_next(c)).map(|c| {
                let why = if c == Command::Guard {
                    "guards with an action left (+2 AC until its next turn)"
                } else {
                    "focuses with the quick action left (+1 on its attacks of opportunity)"
                };
                Spare { command: c, why: why.to_string() }
            })
        }
        _ => None,
    }
}

/// An action or option taken before striking, and what it changes until the next turn.
#[derive(Clone)]
struct Edge {
    command: Command,
    attack: i32,
    damage: i32,
    defence: i32,
}

impl Edge {
    fn is_stance(&self) -> bool {
        matches!(self.command, Command::Stance { .. })
    }

    fn describe(&self) -> String {
        let terms = [(self.attack, "to attack"), (self.damage, "damage"), (self.defence, "AC")];
        let changes: Vec<String> =
            terms.iter().filter(|(v, _)| *v != 0).map(|(v, what)| format!("{v:+} {what}")).collect();
        let what = match &self.command {
            Command::Stance { stance: Stance::Defensive } => "fights defensively",
            Command::Stance { stance: Stance::Reckless } => "fights recklessly",
            Command::Guard => "guards",
            _ => "focuses",
        };
        format!("{what} first ({})", changes.join(", "))
    }
}

/// The edges `actor` may take now before striking: each its variant allows and that
/// changes something; a stance only before the turn's first strike and when none is taken.
fn edges(b: &Battle, actor: usize) -> Vec<Edge> {
    let n = b.variant.numbers();
    let mut all = vec![
        Edge { command: Command::Focus, attack: 1, damage: 1, defence: 0 },
        Edge { command: Command::Guard, attack: 0, damage: 0, defence: 2 },
    ];
    let bonuses = &b.fighters.bonuses[actor];
    // Each once a turn: a second guard would take the standard action for a bonus the rules
    // let stack, but the source gives "a +2 bonus", not one per guard.
    all.retain(|e| !bonuses.has(if e.command == Command::Guard { GUARD } else { FOCUS }));
    if b.budget().fresh && !bonuses.in_a_stance() {
        let (attack, defence) = n.fighting_defensively;
        let defensive = Command::Stance { stance: Stance::Defensive };
        all.push(Edge { command: defensive, attack, damage: 0, defence });
        let (defence, damage) = n.reckless;
        all.push(Edge { command: Command::Stance { stance: Stance::Reckless }, attack: 0, damage, defence });
    }
    all.retain(|e| (e.attack, e.damage, e.defence) != (0, 0, 0) && b.allows(&e.command));
    all
}

/// Before striking `t` with `strike`: the first edge of the best way of spending what the
/// turn leaves over, if taking any beats taking none.
fn before_strikes(b: &Battle, actor: usize, t: usize, strike: &Command) -> Option<Spare> {
    let edges = edges(b, actor);
    if edges.is_empty() {
        return None;
    }
    let mut harm = IncomingHarm::new(b, actor);
    let mut best: Option<(f64, Vec<Edge>)> = None;
    let plain = strikes_worth(b, actor, t, b.budget().clone(), strike, (0, 0)) - harm.at(0);
    for mask in 1u32..(1 << edges.len()) {
        let plan: Vec<Edge> = (0..edges.len()).filter(|i| mask & (1 << i) != 0).map(|i| edges[i].clone()).collect();
        if plan.iter().filter(|e| e.is_stance()).count() > 1 {
            continue;
        }
        let mut budget = b.budget().clone();
        if !plan.iter().all(|e| b.spend_from(actor, &budget, &e.command).map(|left| budget = left).is_ok()) {
            continue;
        }
        let sum = |f: fn(&Edge) -> i32| plan.iter().map(f).sum::<i32>();
        let bonus = (sum(|e| e.attack), sum(|e| e.damage));
        let worth = strikes_worth(b, actor, t, budget, strike, bonus) - harm.at(sum(|e| e.defence));
        if best.as_ref().is_none_or(|(w, _)| worth > *w) {
            best = Some((worth, plan));
        }
    }
    let (worth, plan) = best?;
    // A hair's gain is not worth an action: a tenth of a hit point at least.
    (worth > plain + 0.1).then(|| Spare {
        command: plan[0].command.clone(),
        why: format!(
            "{} ({:+.1} hit points expected, dealt less taken, by its next turn)",
            plan[0].describe(),
            worth - plain
        ),
    })
}

/// The attack slots `who`'s `strike` takes from `budget`, one after another, until the
/// budget runs out (a full attack's iterative attacks among them).
fn slots(b: &Battle, who: usize, mut budget: Budget, strike: &Command) -> Vec<AttackKind> {
    let mut kinds = Vec::new();
    // A turn holds a few attacks at most; the bound only guards against a budget that
    // never runs out.
    while kinds.len() < 8 {
        let Ok((left, slot)) = b.spend_with_slot(who, &budget, strike) else { break };
        kinds.push(slot);
        if matches!(strike, Command::FullAttack { .. }) {
            let (weapon, base_attack) = (&b.fighters.wielded[who].def, b.fighters.stats[who].def.base_attack);
            kinds.extend((1..attack::full_attack_swings(b.variant, weapon, base_attack)).map(AttackKind::Iterative));
        }
        budget = left;
    }
    kinds
}

/// The damage `actor` is expected to deal `t` with the strikes `strike` can still make from
/// `budget` this turn, each with `bonus` (to attack, to damage) more.
fn strikes_worth(b: &Battle, actor: usize, t: usize, budget: Budget, strike: &Command, bonus: (i32, i32)) -> f64 {
    let ctx = AttackContext::default();
    let mut total = 0.0;
    for slot in slots(b, actor, budget, strike) {
        let f = attack::forecast(b, actor, t, &slot, &ctx);
        if !f.profile.legal {
            break;
        }
        let p = &f.profile;
        total += attack_odds(p.die, p.bonus() + bonus.0, p.target_number, f.dice, f.flat + bonus.1, f.criticals)
            .expected_damage;
    }
    total
}

/// The attacks `actor`'s foes are expected to make on it before its next turn, found once:
/// each foe that can strike it from where it stands (a bow's shot as well as a blow) and
/// for whom it is the weakest foe it can strike (the greedy AI's choice), with every attack
/// a fresh turn gives that foe; weighed at any change of `actor`'s AC.
struct IncomingHarm {
    attacks: Vec<attack::Forecast>,
    by_defence: Vec<(i32, f64)>,
}

impl IncomingHarm {
    fn new(b: &Battle, actor: usize) -> IncomingHarm {
        let ctx = AttackContext::default();
        let ours: Vec<usize> = super::behaviours::side_in_fight(b, actor).collect();
        let mut attacks = Vec::new();
        for f in super::foes_of(b, actor) {
            let can_strike = |u: usize| attack::legality(b, f, u).is_ok();
            let weakest = ours.iter().copied().filter(|&u| can_strike(u)).min_by_key(|&u| (b.fighters.health[u].hp, u));
            if weakest != Some(actor) {
                continue;
            }
            let id = b.fighters.combatant[actor].id.clone();
            let strike = if b.variant.numbers().ai.full_attack {
                Command::FullAttack { target: id }
            } else {
                Command::Attack { target: id }
            };
            for slot in slots(b, f, b.fresh_budget_of(f), &strike) {
                let forecast = attack::forecast(b, f, actor, &slot, &ctx);
                if !forecast.profile.legal {
                    break;
                }
                attacks.push(forecast);
            }
        }
        IncomingHarm { attacks, by_defence: Vec::new() }
    }

    /// The damage expected with `defence` more on `actor`'s AC.
    fn at(&mut self, defence: i32) -> f64 {
        if let Some(&(_, harm)) = self.by_defence.iter().find(|(d, _)| *d == defence) {
            return harm;
        }
        let harm = self.attacks.iter().map(|f| f.odds_against(f.profile.target_number + defence).expected_damage).sum();
        self.by_defence.push((defence, harm));
        harm
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::BattleWorld;
    use crate::variants::RulesVariant;

    /// What the unit acting in `b` spends before `next`, one after another, spending each,
    /// while its turn lasts.
    fn spent_before(b: &mut BattleWorld, next: &Command) -> Vec<Command> {
        let actor = b.actor().unwrap();
        let mut spent = Vec::new();
        while b.actor() == Some(actor)
            && let Some(spare) = before(&b.read(), actor, next)
        {
            b.execute(spare.command.clone()).unwrap();
            spent.push(spare.command);
        }
        spent
    }

    /// An archer's foes harm it with their bows as well as their blows: at the start of the
    /// archers' duel (d20-classic), no foe stands within reach of a red unit, yet the blue
    /// archers have lines of fire, so the harm the red units expect is more than none (a
    /// stance's −4 AC is not free).
    #[test]
    fn the_harm_a_unit_expects_counts_the_foes_that_can_shoot_it() {
        let battle = BattleWorld::shipped("archers-walls.ron", RulesVariant::D20Classic, 1);
        let b = battle.read();
        let view = b.view();
        let (red, blue): (Vec<usize>, Vec<usize>) = (0..b.fighters.len()).partition(|&u| b.fighters.side[u].0 == "red");
        for &r in &red {
            assert!(blue.iter().all(|&f| !view.threat.threatens(f, b.fighters.at(r).footprint())));
        }
        let expected: f64 = red.iter().map(|&r| IncomingHarm::new(&b, r).at(0)).sum();
        assert!(expected > 1.0, "{expected}");
        // More AC, less harm.
        let guarded: f64 = red.iter().map(|&r| IncomingHarm::new(&b, r).at(4)).sum();
        assert!(guarded < expected, "{guarded} vs {expected}");
    }

    /// Four-actions: "Guard" is a move action, and an attack is held with the standard action.
    /// Before a held attack a unit guards while its move action is unspent; once it has moved,
    /// a guard would take the standard action the attack is held with, so it only focuses. A
    /// turn ending with the standard action unspent guards with it.
    #[test]
    fn a_guard_before_a_held_attack_leaves_it_the_action_the_attack_is_held_with() {
        let fresh = || BattleWorld::shipped("melee-ring.ron", RulesVariant::FourActions, 5);
        let hold = Command::Hold { target: None };
        let mut battle = fresh();
        let walk = super::super::greedy(&battle.read(), battle.actor().unwrap());
        assert!(matches!(walk, Command::Move { .. }), "{walk:?}");
        assert_eq!(spent_before(&mut battle, &hold), vec![Command::Focus, Command::Guard]);
        assert!(battle.read().allows(&hold));
        let mut battle = fresh();
        battle.execute(walk.clone()).unwrap();
        assert_eq!(spent_before(&mut battle, &hold), vec![Command::Focus]);
        assert!(battle.read().allows(&hold));
        let mut battle = fresh();
        battle.execute(walk).unwrap();
        assert_eq!(spent_before(&mut battle, &Command::EndTurn), vec![Command::Focus, Command::Guard]);
    }
}
