//! How the tactical AI plays a line out: from the battle's snapshot in a scratch world, the
//! acting unit giving the candidate's command and fighting on by its behaviour, then the
//! others by their rollout policy (greedy, or the lines their side chose last) to the
//! playout's horizon; and the score of where it ends (what each side has left, and the
//! battle won or lost).

use super::behaviours::Behaviour;
use super::{first_things, greedy};
use crate::combat::command::Command;
use crate::combat::{Battle, BattleWorld};
use crate::grid::Footprint;
use crate::rules::movement::squares_searched;

/// Plays on through `actor`'s opportunity after its turn has come round `turns` times (or
/// `cap` commands): `actor` gives `opening`, then fights by `behaviour`, its allies by the
/// lines they chose last, the foes greedily; scores what `actor`'s side has left against
/// the rest.
pub(super) fn for_turns(
    scratch: &mut BattleWorld,
    (actor, opening, behaviour): (usize, &Command, Behaviour),
    plan: &[Option<Behaviour>],
    turns: u32,
    cap: u32,
) -> (f64, u32) {
    // Each time the actor's turn comes round again is one cycle of everyone's answers; the
    // playout ends as the last cycle's opportunity does (so a line that waits for the foes
    // to come is weighed with the blows it strikes when they have).
    let (mut cycles, mut was_acting) = (0, true);
    let mut commands = 0;
    let mut opened = false;
    let fight = Fight::of(&scratch.read(), actor);
    let last_round = scratch.clock().round + turns + 1;
    while !scratch.is_over() && commands < cap {
        let Some(now) = scratch.actor() else { break };
        if now != actor && was_acting && cycles >= turns {
            break;
        }
        if now == actor && !was_acting {
            cycles += 1;
        }
        if scratch.clock().round > last_round || !scratch.read().fighters.at(actor).in_fight() {
            break;
        }
        was_acting = now == actor;
        let cmd = {
            let b = scratch.read();
            match (now == actor, opened) {
                (true, false) => opening.clone(),
                (true, true) => behaviour.command(&b, now),
                (false, _) if fight.beyond(&b, now) => standing_by(&b, now),
                (false, _) if b.fighters.side[now] == b.fighters.side[actor] => match plan.get(now) {
                    Some(Some(line)) => line.command(&b, now),
                    _ => greedy(&b, now),
                },
                (false, _) => greedy(&b, now),
            }
        };
        opened |= now == actor;
        give(scratch, now, cmd);
        commands += 1;
    }
    (standing(&scratch.read(), actor), commands)
}

/// Plays the scratch battle on from its snapshot to its end (or `cap` commands): `actor`
/// gives `opening` and fights by `behaviour` through that opportunity, then every unit
/// plays as the greedy AI (its allies as `allies` says); if `far_stand` (a large battle,
/// whose playouts stop short of the end), but a unit too far from the actor to touch its
/// fight before the actor's next turn, which gives only what cannot wait (as in the short
/// playouts): its walk across the board would cost a whole-board search a command and
/// change little that the playout reaches.
/// Scores what `actor`'s side has left against the rest, and [`WON`] for the battle won
/// (less for lost); in a large battle, played out on a part of it (`part`), where the part
/// won is not the battle won, what is left alone. Returns the score and what the playout
/// cost: its commands, and in a large battle their [`work`], which `cap` then bounds.
pub(super) fn to_the_end(
    scratch: &mut BattleWorld,
    (actor, opening, behaviour): (usize, &Command, Behaviour),
    allies: Allies,
    cap: u32,
    far_stand: bool,
) -> (f64, u32) {
    let (mut commands, mut opened, mut opening_over) = (0, false, false);
    let fight = far_stand.then(|| Fight::of(&scratch.read(), actor));
    let (searched, units) = (squares_searched(), scratch.read().fighters.len());
    let cost = |commands: u32| match far_stand {
        true => work(commands, squares_searched() - searched, units),
        false => commands,
    };
    while !scratch.is_over() && cost(commands) < cap {
        let Some(now) = scratch.actor() else { break };
        opening_over |= opened && now != actor;
        let cmd = {
            let b = scratch.read();
            match (now == actor && !opening_over, opened) {
                (true, false) => opening.clone(),
                (true, true) => behaviour.command(&b, now),
                (false, _) if fight.is_some_and(|fight| fight.beyond(&b, now)) => standing_by(&b, now),
                (false, _) if allies == Allies::Holding && b.fighters.side[now] == b.fighters.side[actor] => {
                    Behaviour::Hold.command(&b, now)
                }
                (false, _) => greedy(&b, now),
            }
        };
        opened |= now == actor;
        give(scratch, now, cmd);
        commands += 1;
    }
    let b = scratch.read();
    let won = match b.winner.as_ref() {
        _ if far_stand => 0.0,
        Some(Some(side)) if *side == b.fighters.side[actor].0 => WON,
        Some(Some(_)) => -WON,
        _ => 0.0,
    };
    (standing(&b, actor) + won, cost(commands))
}

/// What `commands` among `units` cost, whose movement searches covered `squares`, in
/// commands of a skirmish's crowd: a large battle's commands differ in cost far more than
/// a skirmish's. Each weighs more with every unit in the battle (each unit's threat, the
/// foes each greedy choice looks over), and a unit walking up from afar searches a window
/// of the board a command where one already in the fight hardly searches at all. The
/// weights are fitted to the time of Great melee's decisions under d20-classic and
/// four-actions (a command among eight units and 48 squares searched cost about alike).
pub(super) fn work(commands: u32, squares: u64, units: usize) -> u32 {
    let crowd = commands * (units as u32 + CROWD) / (SKIRMISH_UNITS + CROWD);
    crowd + (squares / SQUARES_A_COMMAND) as u32
}

/// The units of a skirmish, whose commands [`work`] counts as one each.
const SKIRMISH_UNITS: u32 = 8;

/// What a command costs whatever the crowd, in units' worth of it.
const CROWD: u32 = 32;

/// The squares of movement search that cost about what a skirmish's command does.
const SQUARES_A_COMMAND: u64 = 48;

/// What winning the battle adds to a playout's score (in units standing): a line that
/// wins with fewer left beats one that loses with more.
pub(super) const WON: f64 = 2.0;

/// How the acting unit's allies fight in a playout to the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Allies {
    /// As the greedy AI, as every foe does.
    Greedy,
    /// Holding their ground with the actor until anyone on either side is engaged (the
    /// *hold* behaviour), then closing and striking: the line of a side that holds together.
    Holding,
}

/// `now` gives `cmd` in a playout, rolling from its own stream of the dice; a command the
/// rules refuse ends its turn instead.
pub(super) fn give(scratch: &mut BattleWorld, now: usize, cmd: Command) {
    scratch.set_roller(Some(now));
    if scratch.execute(cmd).is_err() {
        let _ = scratch.execute(Command::EndTurn);
    }
}

/// How far apart two units can be and still meet before the actor's next turn: the fastest
/// unit's double move, and a reach.
fn within_a_turn(b: &Battle) -> u32 {
    let fastest = b.fighters.iter().map(|f| f.stats().def.speed_ft).max().unwrap_or(30);
    fastest * 2 + 10
}

/// The acting unit's fight: where the actor stood as the playout began, and how far from
/// there a unit may stand and still touch it before the actor's next turn. It stays there
/// whatever the actor does in the playout: were it to follow the actor, a line that walks
/// the actor away from its fight would leave every unit beyond it standing, and so stop the
/// battle it left (and the losses it would have seen there).
#[derive(Clone, Copy)]
pub(super) struct Fight {
    at: Footprint,
    pub within: u32,
}

impl Fight {
    pub(super) fn of(b: &Battle, actor: usize) -> Fight {
        Fight { at: b.fighters.at(actor).footprint(), within: within_a_turn(b) }
    }

    /// Whether `now` stands too far from the fight to touch it before the actor's next turn.
    pub(super) fn beyond(&self, b: &Battle, now: usize) -> bool {
        b.variant.range_metric().footprint_ft(b.fighters.at(now).footprint(), self.at) > self.within
    }
}

/// What a unit far from the actor's fight gives in a playout: only what cannot wait (a
/// declaration, standing up, a reload), so a large battle's playout costs what a small one
/// does.
fn standing_by(b: &Battle, now: usize) -> Command {
    first_things(b, now).unwrap_or(Command::EndTurn)
}

/// What `actor`'s side has left less what its foes have: a unit in the fight counts one and
/// its share of hit points left; one down but alive a quarter; the dead nothing.
pub(super) fn standing(b: &Battle, actor: usize) -> f64 {
    let side = &b.fighters.side[actor];
    b.fighters
        .iter()
        .map(|f| {
            let worth = if f.in_fight() {
                let h = f.health();
                1.0 + h.hp.max(0) as f64 / h.max.max(1) as f64
            } else if f.alive() {
                0.25
            } else {
                0.0
            };
            if f.side() == side { worth } else { -worth }
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::RulesVariant;

    /// The fight the far units stand out of stays where the acting unit stood as the playout
    /// began: when the actor's line walks it away (here its longest move on Great melee),
    /// the units near that square still count as in the fight, though some now stand too
    /// far from the actor itself; were the fight to follow the actor, walking away would
    /// stop the battle it left.
    #[test]
    fn the_fight_stays_where_the_actor_stood_when_the_playout_began() {
        for v in [RulesVariant::D20Classic, RulesVariant::FourActions] {
            let mut battle = BattleWorld::shipped("great-melee.ron", v, 7);
            let actor = battle.actor().expect("someone acts");
            let (fight, start, away) = {
                let b = battle.read();
                let start = b.fighters.at(actor).footprint();
                let range = b.move_range(actor, crate::rules::MoveMode::Move, u32::MAX / 4);
                let metric = b.variant.range_metric();
                let (away, _, _) = range
                    .destinations(&b.view())
                    .into_iter()
                    .filter(|&(_, cost, _)| {
                        cost <= crate::rules::movement::allowance_ft(&b.view(), actor, crate::rules::MoveMode::Move)
                    })
                    .max_by_key(|&(p, _, _)| metric.footprint_ft(Footprint::new(p, start.side), start))
                    .expect("somewhere to go");
                (Fight::of(&b, actor), start, away)
            };
            battle.execute(Command::Move { to: away }).expect("the move is legal");
            let b = battle.read();
            let metric = b.variant.range_metric();
            let distances = |u: usize| {
                let at = b.fighters.at(u).footprint();
                (metric.footprint_ft(at, start), metric.footprint_ft(at, b.fighters.at(actor).footprint()))
            };
            let mut left_behind = 0;
            for u in (0..b.fighters.len()).filter(|&u| u != actor) {
                let (start_ft, actor_ft) = distances(u);
                assert_eq!(fight.beyond(&b, u), start_ft > fight.within, "{v}: {}", b.fighters.combatant[u].id);
                left_behind += usize::from(start_ft <= fight.within && actor_ft > fight.within);
            }
            assert!(left_behind > 0, "{v}: the move leaves some of the fight farther than that from the actor");
        }
    }

    /// In a battle too large for playouts to its end (Great melee's 40 units), the units that
    /// stay too far from the acting unit to touch its fight give only what cannot wait: over
    /// a playout capped at 80 commands' work (`work`: about 40 commands among 40 units), none
    /// that stands beyond that distance and the acting unit's own double move takes a step,
    /// while the acting unit and its neighbours fight on.
    #[test]
    fn in_a_large_battle_the_units_far_from_the_fight_stand_in_the_playout() {
        for v in [RulesVariant::D20Classic, RulesVariant::FourActions] {
            let battle = BattleWorld::shipped("great-melee.ron", v, 7);
            let actor = battle.actor().expect("someone acts");
            let (far, opening, before) = {
                let b = battle.read();
                let metric = b.variant.range_metric();
                let me = b.fighters.at(actor);
                let beyond = within_a_turn(&b) + 2 * me.stats().def.speed_ft + 10;
                let far: Vec<usize> = (0..b.fighters.len())
                    .filter(|&u| metric.footprint_ft(b.fighters.at(u).footprint(), me.footprint()) > beyond)
                    .collect();
                let before: Vec<_> = (0..b.fighters.len()).map(|u| b.fighters.position[u].0).collect();
                (far, greedy(&b, actor), before)
            };
            assert!(far.len() >= 5, "{v}: several units stand that far ({} of them)", far.len());
            let snapshot = battle.snapshot_quiet();
            let mut scratch = BattleWorld::scratch(v, &[]);
            scratch.restore(&snapshot);
            let (_, work) = to_the_end(&mut scratch, (actor, &opening, Behaviour::Greedy), Allies::Greedy, 80, true);
            assert!(work >= 80, "{v}: the playout runs to its cap ({work})");
            let b = scratch.read();
            for &u in &far {
                assert_eq!(b.fighters.position[u].0, before[u], "{v}: {} walked", b.fighters.combatant[u].id);
            }
            let moved = (0..b.fighters.len()).filter(|&u| b.fighters.position[u].0 != before[u]).count();
            assert!(moved > 0, "{v}: the units near the fight played on");
        }
    }
}
