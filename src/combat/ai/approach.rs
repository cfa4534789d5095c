//! Where a unit can attack from and how one move gets it nearer: its movement range,
//! the squares within its reach of a foe, the attack positions it may take, and the
//! approach the greedy AI (and every behaviour that closes) walks.

use super::foes_of;
use crate::combat::Battle;
use crate::grid::{BitGrid, Footprint, GridPos};
use crate::rules::{self, MoveMode};
use std::cell::RefCell;
use std::sync::Arc;

/// Where one move action can take `actor` (the battle's derived maps must be fresh).
pub(crate) fn one_move(b: &Battle, actor: usize) -> Arc<rules::MoveRange> {
    let allowance = rules::allowance_ft(&b.view(), actor, MoveMode::Move);
    b.move_range(actor, MoveMode::Move, allowance)
}

/// Whether one move can take `actor` to a square with a foe within its reach (line of
/// effect aside). No movement search when the box a move can cover meets none of the boxes
/// from which the band reaches a foe: no square of the move is within reach then.
/// Within a tactical decision the same question is answered once (`recall`).
pub(super) fn can_reach_with_a_move(b: &Battle, actor: usize) -> bool {
    let foes = foes_of(b, actor);
    super::recall::reach(b, actor, &foes, || reaching_with_a_move(b, actor, &foes))
}

fn reaching_with_a_move(b: &Battle, actor: usize, foes: &[usize]) -> bool {
    let view = b.view();
    let Some(band) = b.reach_band(b.fighters.at(actor)) else {
        return false;
    };
    let me = b.fighters.at(actor).footprint();
    let allowance = rules::allowance_ft(&view, actor, MoveMode::Move);
    let (lo, hi) = rules::movement::search_window(&view.field.terrain, me, allowance);
    let near = foes.iter().any(|&t| {
        let (a, z) = band.origins_near(b.fighters.at(t).footprint(), me.side);
        a.x <= hi.x && lo.x <= z.x && a.y <= hi.y && lo.y <= z.y
    });
    near && searched_reach(b, &view, actor, foes, band, allowance)
}

/// Whether a square of `actor`'s move (the movement search with `allowance`) has one of
/// `foes` within `band`.
fn searched_reach(
    b: &Battle,
    view: &rules::RulesView,
    actor: usize,
    foes: &[usize],
    band: rules::ReachBand,
    allowance: u32,
) -> bool {
    let within = within_band(b, view, actor, foes, band, false);
    let range = b.move_range(actor, MoveMode::Move, allowance);
    range.destinations(view).iter().any(|&(p, _, _)| within.contains(p))
}

/// Every square from which `actor`, standing there, has a cell of one of `foes` within
/// `band` (and, if `line`, a line of effect to it): found from the foes' side, over the
/// squares near each foe ([`rules::ReachBand::origins_near`]).
fn within_band(
    b: &Battle,
    view: &rules::RulesView,
    actor: usize,
    foes: &[usize],
    band: rules::ReachBand,
    line: bool,
) -> BitGrid {
    let terrain = &view.field.terrain;
    let mut squares = BitGrid::new(terrain.width(), terrain.height());
    let side = b.fighters.body[actor].size.side();
    for &t in foes {
        let tf = b.fighters.at(t).footprint();
        let (lo, hi) = band.origins_near(tf, side);
        for y in lo.y..=hi.y {
            for x in lo.x..=hi.x {
                let p = GridPos::new(x, y);
                let fp = Footprint::new(p, side);
                if terrain.in_bounds(p)
                    && !squares.contains(p)
                    && tf.cells().any(|c| {
                        band.covers(b.variant, fp, c) && (!line || rules::cover::has_line_of_effect(view.field, fp, c))
                    })
                {
                    squares.insert(p);
                }
            }
        }
    }
    squares
}

/// Where one move should take the actor: a square from which it can attack (fewest
/// provocations, then cheapest); failing that, the farthest square it can reach along
/// the cheapest path to such a square; failing that, the square closest to a foe.
/// Within a tactical decision the same question is answered once (`recall`).
pub(crate) fn best_approach(b: &Battle, actor: usize, foes: &[usize]) -> Option<GridPos> {
    super::recall::way(b, actor, foes, || approach_searching(b, actor, foes, false))
}

/// [`best_approach`]; with `whole`, the search for the whole way covers the whole board, and
/// is made even where no attack position is open to end a move on (the answer is the same:
/// it finds none, and past the nearest one nothing is asked of it).
fn approach_searching(b: &Battle, actor: usize, foes: &[usize], whole: bool) -> Option<GridPos> {
    let view = b.view();
    let allowance = rules::allowance_ft(&view, actor, MoveMode::Move);
    let range = one_move(b, actor);
    let me = b.fighters.at(actor);
    let side = me.size().side();
    let metric = b.variant.range_metric();
    let here = me.footprint();
    let squares = AttackSquares::new(b, &view, actor, foes);
    let can_attack_from = |p: GridPos| squares.contain(b, &view, actor, foes, Footprint::new(p, side));
    let reachable = range.destinations(&view);
    // hex-phases: after a move, a second move leaves no attack this phase ("an attack action
    // and a move action, or two move actions"). Ending it beside the foe, or a hex or two
    // short, only hands the foe the first blow; within one move of an attack position the
    // phase is better ended there, so the next phase is move + attack.
    let last_move = b.variant.numbers().ai.second_move_may_wait && b.budget().moves_taken() >= 1;
    // The squares in the order of preference (each once, so the first that will do is the
    // best of them): a shooter's squares are tested one by one, and most often the first
    // few will do.
    let mut preferred: Vec<((u32, u32), GridPos)> =
        reachable.iter().map(|&(p, cost, provokes)| ((provokes, cost), p)).collect();
    preferred.sort_unstable();
    let striking = preferred.into_iter().find(|&(_, p)| can_attack_from(p));
    if let Some((_, p)) = striking {
        return if last_move { None } else { Some(p) };
    }
    // Plan the whole way to the nearest attack position and go as far as one move allows
    // (with the phase's last move, only as far as striking distance). The search stops at
    // the cost of the nearest position it finds: it finds every square up to that cost as a
    // search of the whole board does, so the position, its path and the costs along it are
    // the same, found sooner. Behind a crowded front every square to strike from may be
    // taken, or walled off by the foes' own line: no search can end on one then, and the
    // whole board would be searched for nothing. A flood over the squares the mover fits
    // finds that for far less (for a shooter, whose squares are asked one by one, it would
    // ask too many: it is not made).
    let open = whole || !squares.listed() || rules::movement::may_end_on_any(&view, actor, can_attack_from);
    let found = open
        .then(|| {
            let range = match whole {
                true => b.move_range(actor, MoveMode::Move, u32::MAX / 4),
                false => Arc::new(rules::movement::movement_range_to_first(
                    &view,
                    actor,
                    MoveMode::Move,
                    u32::MAX / 4,
                    can_attack_from,
                )),
            };
            let mut candidates = range.destinations(&view);
            candidates.sort_unstable_by_key(|&(p, cost, provokes)| (cost, provokes, p));
            let &(goal, goal_cost, _) = candidates.iter().find(|(p, _, _)| can_attack_from(*p))?;
            Some((range, goal, goal_cost))
        })
        .flatten();
    if let Some((whole, goal, goal_cost)) = found
        && let Ok(plan) = whole.plan_to(&view, goal)
    {
        let ends: std::collections::BTreeSet<GridPos> = reachable.iter().map(|(p, _, _)| *p).collect();
        // Asked only of squares a move may end on (`ends`): its cost in the whole way's search.
        let at_striking_distance =
            |p: &GridPos| whole.cost_to(*p).is_some_and(|c| goal_cost.saturating_sub(c) <= allowance);
        if last_move && let Some(p) = plan.squares.iter().find(|p| ends.contains(p) && at_striking_distance(p)) {
            return Some(*p);
        }
        if let Some(p) = plan.squares.iter().rev().find(|p| ends.contains(p)) {
            return Some(*p);
        }
    }
    let now = foes.iter().map(|&t| metric.footprint_ft(here, b.fighters.at(t).footprint())).min().unwrap_or(0);
    reachable
        .into_iter()
        .map(|(p, cost, _)| {
            let fp = Footprint::new(p, side);
            let dist =
                foes.iter().map(|&t| metric.footprint_ft(fp, b.fighters.at(t).footprint())).min().unwrap_or(u32::MAX);
            ((dist, cost), p)
        })
        .filter(|((dist, _), _)| *dist < now)
        .min()
        .map(|(_, p)| p)
}

/// Where the actor could attack one of `foes` from, for one decision. With a melee weapon the
/// squares are found once, from the foes' side: each square within its reach band of a foe's
/// square, with a line of effect to it ([`attack_position`]'s own test, made over a box round
/// each foe square that holds every square the band reaches). A ranged weapon's squares are
/// asked one by one (each answer kept, as the search and the choice ask the same squares).
enum AttackSquares {
    Listed(BitGrid),
    /// The squares asked about, and those of them it could shoot from.
    Asked(RefCell<(BitGrid, BitGrid)>),
}

impl AttackSquares {
    fn new(b: &Battle, view: &rules::RulesView, actor: usize, foes: &[usize]) -> AttackSquares {
        let me = b.fighters.at(actor);
        let terrain = &view.field.terrain;
        let none = || BitGrid::new(terrain.width(), terrain.height());
        if me.wielded().def.is_ranged() {
            return AttackSquares::Asked(RefCell::new((none(), none())));
        }
        match b.reach_band(me) {
            Some(band) => AttackSquares::Listed(within_band(b, view, actor, foes, band, true)),
            None => AttackSquares::Listed(none()),
        }
    }

    /// Whether the squares were found at once (not asked one by one).
    fn listed(&self) -> bool {
        matches!(self, AttackSquares::Listed(_))
    }

    /// Whether the actor could attack one of `foes` standing on `fp`.
    fn contain(&self, b: &Battle, view: &rules::RulesView, actor: usize, foes: &[usize], fp: Footprint) -> bool {
        match self {
            AttackSquares::Listed(squares) => squares.contains(fp.origin),
            AttackSquares::Asked(asked) => {
                let (ref mut seen, ref mut yes) = *asked.borrow_mut();
                if !seen.contains(fp.origin) {
                    seen.insert(fp.origin);
                    if attack_position(b, view, actor, foes, fp) {
                        yes.insert(fp.origin);
                    }
                }
                yes.contains(fp.origin)
            }
        }
    }
}

/// Whether the actor, standing on `fp`, could attack one of `foes` with its weapon.
pub(crate) fn attack_position(
    b: &Battle,
    view: &rules::RulesView,
    actor: usize,
    foes: &[usize],
    fp: Footprint,
) -> bool {
    let me = b.fighters.at(actor);
    let metric = b.variant.range_metric();
    if me.wielded().def.is_ranged() {
        let max = me.wielded().def.range_increment_ft * 10;
        foes.iter().any(|&t| {
            let tf = b.fighters.at(t).footprint();
            let d = metric.footprint_ft(fp, tf);
            d > 5 && d <= max && {
                if matches!(b.variant.grid().cover, crate::variants::CoverRule::NoTargetingPastWalls { .. }) {
                    // Any cover but a low wall's forbids the shot there.
                    let reach = rules::AttackReach::Ranged;
                    let c = rules::cover::cover_at(view.field, view.occupancy, (actor, fp), (t, tf), reach, false);
                    c.can_target
                } else {
                    // Elsewhere only total cover does, and one clear line disproves it.
                    tf.cells().any(|c| rules::cover::has_line_of_effect(view.field, fp, c))
                }
            }
        })
    } else {
        let Some(band) = b.reach_band(me) else { return false };
        foes.iter().any(|&t| {
            let tf = b.fighters.at(t).footprint();
            tf.cells().any(|c| band.covers(b.variant, fp, c) && rules::cover::has_line_of_effect(view.field, fp, c))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::{BattleWorld, Command};
    use crate::variants::RulesVariant;

    /// The movement search itself, with no bound in front of it.
    fn searched(b: &Battle, actor: usize) -> bool {
        let view = b.view();
        let Some(band) = b.reach_band(b.fighters.at(actor)) else { return false };
        let allowance = rules::allowance_ft(&view, actor, MoveMode::Move);
        searched_reach(b, &view, actor, &foes_of(b, actor), band, allowance)
    }

    /// Plays a battle on each of `files` under every variant from `seed`, each command by
    /// `next` (its turn ended if the rules refuse it), and every `every` commands of the first
    /// `commands` shows `check` the battle and each unit still in the fight.
    fn over_battles(
        files: &[&str],
        seed: u64,
        (commands, every): (usize, usize),
        next: impl Fn(&Battle, usize) -> Command,
        mut check: impl FnMut(&str, RulesVariant, &Battle, usize),
    ) {
        for file in files {
            for v in RulesVariant::ALL {
                let mut battle = BattleWorld::shipped(file, v, seed);
                for command in 0..commands {
                    let Some(actor) = battle.actor() else { break };
                    if command % every == 0 {
                        let b = battle.read();
                        for unit in (0..b.fighters.len()).filter(|&u| b.fighters.conditions[u].in_fight()) {
                            check(file, v, &b, unit);
                        }
                    }
                    let cmd = next(&battle.read(), actor);
                    if battle.execute(cmd).is_err() {
                        let _ = battle.execute(Command::EndTurn);
                    }
                }
            }
        }
    }

    /// Over battles played on by greedy (a large board and a small one, every variant), the
    /// bound that skips the search never says no where the search finds a square in reach,
    /// and it does skip some searches (units far apart on the large board).
    #[test]
    fn reaching_a_foe_with_a_move_is_what_the_movement_search_finds() {
        let mut skipped = 0;
        let greedy = |b: &Battle, actor| super::super::greedy(b, actor);
        over_battles(&["great-melee.ron", "pike-ford.ron"], 5, (160, 8), greedy, |file, v, b, unit| {
            let (bounded, full) = (can_reach_with_a_move(b, unit), searched(b, unit));
            assert_eq!(bounded, full, "{file} {v}: unit {unit}");
            skipped += usize::from(!full);
        });
        assert!(skipped > 0, "some unit could not reach a foe with one move");
    }

    /// Over battles played on by greedy (a large board and a small one, every variant), the
    /// approach found with the search stopped at the nearest attack position, and none made
    /// where no attack position is open to end a move on, is the one the whole board's search
    /// gives; and some searches are left out (units with no weapon to strike with, or behind
    /// a crowded front).
    #[test]
    fn an_approach_is_the_same_with_its_searches_cut_short() {
        let mut left_out = 0;
        // Greedy, but disarming where the variant allows it: a unit left with no weapon has
        // no square to strike from anywhere.
        let disarming = |b: &Battle, actor| {
            let foe = foes_of(b, actor).into_iter().find_map(|t| {
                let disarm = Command::Disarm { target: b.fighters.combatant[t].id.clone() };
                b.allows(&disarm).then_some(disarm)
            });
            foe.unwrap_or_else(|| super::super::greedy(b, actor))
        };
        over_battles(&["great-melee.ron", "melee-ring.ron"], 3, (400, 4), disarming, |file, v, b, unit| {
            let (view, foes) = (b.view(), foes_of(b, unit));
            let searched = approach_searching(b, unit, &foes, true);
            assert_eq!(approach_searching(b, unit, &foes, false), searched, "{file} {v}: unit {unit}");
            let squares = AttackSquares::new(b, &view, unit, &foes);
            let side = b.fighters.at(unit).size().side();
            let from = |p: GridPos| squares.contain(b, &view, unit, &foes, Footprint::new(p, side));
            left_out += usize::from(!rules::movement::may_end_on_any(&view, unit, from));
        });
        assert!(left_out > 0, "some unit had no open square to attack from");
    }

    /// An approach recalled within a decision is the one a new search finds, and so are
    /// whether one move reaches a foe, the move's range and the cover against each foe
    /// (`rules::recalled`): over battles played on by greedy disarming where it
    /// can (shooters, reach weapons, Large creatures, every variant), each unit's answers
    /// with those of the whole battle kept are the ones worked out afresh, and some are
    /// answered from what was kept.
    #[test]
    fn an_approach_recalled_is_the_one_searched_afresh() {
        let disarming = |b: &Battle, actor| {
            let foe = foes_of(b, actor).into_iter().find_map(|t| {
                let disarm = Command::Disarm { target: b.fighters.combatant[t].id.clone() };
                b.allows(&disarm).then_some(disarm)
            });
            foe.unwrap_or_else(|| super::super::greedy(b, actor))
        };
        let (mut asked, mut kept, mut recalling) = (0, 0, None);
        let files = ["archers-walls.ron", "pike-ford.ron", "ogre-pit.ron", "hex-mirror.ron"];
        over_battles(&files, 11, (200, 1), disarming, |file, v, b, unit| {
            if recalling.as_ref().is_none_or(|(on, _)| *on != (file.to_string(), v)) {
                // One battle's ways at a time: the last let go before the next are kept.
                kept += super::super::recall::kept();
                drop(recalling.take());
                recalling = Some(((file.to_string(), v), super::super::recall::Recalling::begin()));
            }
            let foes = foes_of(b, unit);
            assert_eq!(best_approach(b, unit, &foes), approach_searching(b, unit, &foes, false), "{file} {v}: {unit}");
            assert_eq!(can_reach_with_a_move(b, unit), reaching_with_a_move(b, unit, &foes), "{file} {v}: {unit}");
            // What the rules keep: the move's range and the cover against each foe.
            let view = b.view();
            let allowance = rules::allowance_ft(&view, unit, MoveMode::Move);
            let fresh = rules::movement_range(&view, unit, MoveMode::Move, allowance);
            assert_eq!(one_move(b, unit).destinations(&view), fresh.destinations(&view), "{file} {v}: {unit}");
            for &t in &foes {
                assert_eq!(b.cover_between(unit, t), rules::cover_between(&view, unit, t, false), "{file} {v}: {unit}");
            }
            asked += 2;
        });
        kept += super::super::recall::kept();
        assert!(kept > 0 && kept < asked, "{kept} ways kept of {asked} asked");
    }
}
