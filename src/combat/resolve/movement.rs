//! Moving square by square: a walk stops where leaving a square provokes an attack of
//! opportunity, and where stepping in draws a foe's held attack, for the rules schedule's
//! strikes stage to make them; the straight path of a charge; and a held foe dragged along.

use super::strike::{A_COMBATANT, id, in_fight, refresh, seat};
use super::*;
use crate::combat::battle::store::{self, Combatants, Derived, EventLog, Record};
use crate::combat::fighter::{Grapple, Reactions};
use crate::rules::movement::Provocation;
use crate::rules::{Battlefield, Position};
use bevy::prelude::{Entity, World};

/// A walk under way: the mover, its path, how far along it is, the squares it has entered
/// and what follows it. A walk stops where leaving a square provokes attacks of
/// opportunity and where entering one draws held attacks or the variant's reactions to a
/// step; the rules schedule's strikes stage makes them and the walk goes on with
/// [`Walk::leg`] (`schedule::Moves`).
#[derive(Clone, Debug)]
pub struct Walk {
    pub mover: Entity,
    path: PathPlan,
    kind: String,
    /// Cannot react (four-actions: a charge's target).
    immune_from: Option<Entity>,
    start: GridPos,
    /// What follows the walk once it is over.
    then: Then,
    /// The next of the path's provocations to come to.
    next_provocation: usize,
    /// The provocation being walked to.
    heading_for: Option<Provocation>,
    /// The square left by the last step, while the variant's systems that watch steps
    /// (`schedule::WatchStep`) are still to see it, after any held attacks.
    step_from: Option<GridPos>,
    /// Squares of the path not yet entered.
    next_square: usize,
    done: Vec<GridPos>,
    /// Over (at its path's end, or its mover out of the fight), and waiting to be ended.
    arrived: bool,
}

/// What a walk leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Then {
    Nothing,
    /// A charge's attack on this foe, with the charge's bonuses.
    ChargeAttack {
        target: Entity,
    },
    /// This foe, held in a grapple, is placed beside the mover (ap-phases' "move … the
    /// creature you are grappling with you").
    Drag {
        foe: Entity,
    },
}

/// What stops a walk's leg.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Leg {
    /// Leaving the square it stands on provokes `by`'s attack of opportunity.
    Provokes { by: Entity, trigger: String },
    /// Stepping onto the square it stands on drew these foes' held attacks, in order.
    Held { by: Vec<Entity> },
    /// The mover took a step the variant watches (osr-segments: its immediate attacks):
    /// the walk waits until the variant's systems have seen it (`Walk::step_seen`).
    Stepped,
    /// The walk is over (the path's end, the mover out of the fight, or the battle over):
    /// call [`Walk::finish`].
    Over,
}

impl Walk {
    /// `mover`'s walk from `start` along `path`, called `kind` in the log.
    pub fn new(mover: Entity, start: GridPos, path: &PathPlan, kind: &str, immune_from: Option<Entity>) -> Walk {
        Walk {
            mover,
            path: path.clone(),
            kind: kind.into(),
            immune_from,
            start,
            then: Then::Nothing,
            next_provocation: 0,
            heading_for: None,
            step_from: None,
            next_square: 0,
            done: Vec::new(),
            arrived: false,
        }
    }

    /// The same walk, going on to `then` once it is over.
    pub fn then(mut self, then: Then) -> Walk {
        self.then = then;
        self
    }

    /// The walk is over, to be ended once the variant has followed it up.
    pub(crate) fn arrive(&mut self) {
        self.arrived = true;
    }

    /// The walk is over and waits to be ended.
    pub fn arrived(&self) -> bool {
        self.arrived
    }

    /// The square the last step left, while the variant's systems watching steps are to
    /// see it.
    pub fn stepped_from(&self) -> Option<GridPos> {
        self.step_from
    }

    /// The variant's systems have seen the last step.
    pub(crate) fn step_seen(&mut self) {
        self.step_from = None;
    }

    /// The squares the mover entered, in order.
    pub fn passed(&self) -> &[GridPos] {
        &self.done
    }

    /// Whether the walk may go on: its mover still in the fight and the battle not over.
    pub fn survives(&self, world: &World) -> bool {
        in_fight(world, self.mover) && world.resource::<Record>().winner.is_none()
    }

    /// Walks on to the next square whose leaving provokes or whose entering draws a held
    /// attack, or to the end of the path; where the variant `watches_steps`, each step
    /// stops it too, after any held attacks it drew.
    pub fn leg(&mut self, world: &mut World, watches_steps: bool) -> Leg {
        loop {
            if self.step_from.is_some() && watches_steps {
                return Leg::Stepped;
            }
            self.step_from = None;
            if !self.survives(world) {
                return Leg::Over;
            }
            if self.heading_for.is_none()
                && let Some(&p) = self.path.provokes.get(self.next_provocation)
            {
                self.heading_for = Some(p);
                self.next_provocation += 1;
            }
            let at = world.get::<Position>(self.mover).expect(A_COMBATANT).0;
            let arrived = self.heading_for.is_some_and(|p| p.from == at);
            if !arrived && let Some(&next) = self.path.squares.get(self.next_square) {
                // One square on.
                self.next_square += 1;
                self.done.push(next);
                world.get_mut::<Position>(self.mover).expect(A_COMBATANT).0 = next;
                world.resource_mut::<Derived>().stale = true;
                self.step_from = Some(at);
                let by = held_strikers(world, self.mover);
                if !by.is_empty() {
                    return Leg::Held { by };
                }
                continue;
            }
            // At the square being left (or out of squares): its attack of opportunity.
            let Some(p) = self.heading_for.take() else { return Leg::Over };
            world.resource_mut::<Derived>().stale = true;
            let by = world.resource::<Combatants>().0[p.by];
            if Some(by) != self.immune_from {
                let trigger = world.resource::<Battlefield>().variant.numbers().leaving_trigger.clone();
                return Leg::Provokes { by, trigger };
            }
        }
    }

    /// Ends the walk: a mover who drops stops where it fell, unless that is a square it
    /// could only pass through (an ally's): then it is on the last square of its path
    /// where it could have stopped. What follows the walk is the caller's to do.
    pub fn finish(mut self, world: &mut World) -> Then {
        while !self.done.is_empty() && shares_a_square(world, self.mover) {
            self.done.pop();
            world.get_mut::<Position>(self.mover).expect(A_COMBATANT).0 =
                self.done.last().copied().unwrap_or(self.start);
        }
        world.resource_mut::<Derived>().stale = true;
        let cost =
            if self.done.len() == self.path.squares.len() { self.path.cost_ft } else { 5 * self.done.len() as u32 };
        // A mover stopped before it entered any square (felled by the blow its leaving drew,
        // or held where it stood) has not moved, and the log does not say it has.
        if !self.done.is_empty() {
            let moved =
                CombatEvent::Moved { unit: id(world, self.mover), path: self.done, cost_ft: cost, kind: self.kind };
            world.resource_mut::<EventLog>().push(moved);
        }
        self.then
    }
}

/// Whether any other creature still on the board stands on one of `e`'s squares.
fn shares_a_square(world: &World, e: Entity) -> bool {
    let b = store::read(world);
    let i = seat(&b, e);
    let me = b.fighters.at(i).footprint();
    b.fighters.iter().enumerate().any(|(j, f)| j != i && f.alive() && f.footprint().overlaps(&me))
}

/// Foes holding an attack whose reach `mover` has just come into, in id order.
fn held_strikers(world: &mut World, mover: Entity) -> Vec<Entity> {
    // Mostly nobody holds one: asked of each fighter's reactions before anything else.
    let seated = &world.resource::<Combatants>().0;
    if !seated.iter().any(|&e| world.get::<Reactions>(e).is_some_and(|r| r.held.is_some())) {
        return Vec::new();
    }
    // The maps are brought up to date only for a foe holding one for this mover.
    let holders: Vec<usize> = {
        let b = store::read(world);
        let m = seat(&b, mover);
        (0..b.fighters.len()).filter(|&h| holds_for(&b, h, m)).collect()
    };
    if holders.is_empty() {
        return Vec::new();
    }
    refresh(world);
    let b = store::read(world);
    let m = seat(&b, mover);
    holders
        .into_iter()
        .filter(|&h| b.view().threat.threatens(h, b.fighters.at(m).footprint()) && b.rules().may_take_held(&b, h))
        .map(|h| b.fighters.entity(h))
        .collect()
}

/// Whether the fighter in seat `h` is a foe of `mover`'s holding an attack for it (or for
/// whoever comes) and able to make it.
fn holds_for(b: &Battle, h: usize, mover: usize) -> bool {
    let f = b.fighters.at(h);
    *f.side() != b.fighters.side[mover]
        && f.can_act()
        && f.reactions().held.as_ref().is_some_and(|t| t.as_ref().is_none_or(|t| *t == b.fighters.combatant[mover].id))
}

impl Battle<'_, '_> {
    /// `a`'s charge line to `t` from where it stands, whatever its budget: a straight,
    /// unobstructed line (2 squares to twice speed) to the nearest square from which it
    /// threatens `t`, with the attacks of opportunity it draws, or why there is none.
    pub fn charge_line(&self, a: usize, t: usize) -> Result<PathPlan, String> {
        let b = self;
        let view = b.view();
        let fa = b.fighters.at(a);
        let side = fa.size().side();
        let band = b.reach_band(fa).ok_or("its weapon threatens nothing")?;
        let tf = b.fighters.at(t).footprint();
        let max_ft = fa.stats().def.speed_ft * 2;
        let start = fa.pos();
        let metric = b.variant.move_metric();
        let mut best: Option<((u32, i32), GridPos, Vec<GridPos>)> = None;
        let centre = |p: GridPos| (2 * p.x + side, 2 * p.y + side);
        let (tx, ty) = (2 * tf.origin.x + tf.side, 2 * tf.origin.y + tf.side);
        let r = (max_ft / 5) as i32 + 1;
        // Only the squares near the foe, within the charge's reach, in the order of the whole box.
        let (near_lo, near_hi) = band.origins_near(tf, side);
        for y in (start.y - r).max(near_lo.y)..=(start.y + r).min(near_hi.y) {
            for x in (start.x - r).max(near_lo.x)..=(start.x + r).min(near_hi.x) {
                let d = GridPos::new(x, y);
                let fp = Footprint::new(d, side);
                if d == start || !tf.cells().any(|c| band.covers(b.variant, fp, c)) {
                    continue;
                }
                let cost = metric.cell_ft(start, d);
                // The closest space, and of equals the one most squarely facing the foe.
                let (cx, cy) = centre(d);
                let key = (cost, (cx - tx).pow(2) + (cy - ty).pow(2));
                if cost < 10 || cost > max_ft || best.as_ref().is_some_and(|(k, _, _)| key >= *k) {
                    continue;
                }
                let line = crate::grid::straight_line(start, d);
                if clear_line(b, a, &line) {
                    best = Some((key, d, line));
                }
            }
        }
        let ((cost, _), _, squares) =
            best.ok_or_else(|| format!("no straight, clear charge line to {}", b.fighters.combatant[t].id))?;
        let provokes = rules::movement::provocations_along(&view, a, &squares);
        Ok(PathPlan { squares, cost_ft: cost, provokes })
    }
}

/// Whether `a` can run the straight `line`: open squares, no difficult terrain, nobody
/// else in the way.
fn clear_line(b: &Battle, a: usize, line: &[GridPos]) -> bool {
    let view = b.view();
    let side = b.fighters.body[a].size.side();
    line.iter().all(|&p| {
        Footprint::new(p, side).cells().all(|c| {
            let terrain = b.field.terrain.get(c);
            terrain.passable() && !terrain.costs_double() && view.occupancy.at(c).is_none_or(|u| u == a)
        })
    })
}

/// A straight run of `a` to `to` costing at most `max_ft`, or `None` if the line is not
/// clear or too long.
pub(crate) fn straight_run(b: &Battle, a: usize, to: GridPos, max_ft: u32) -> Option<PathPlan> {
    let start = b.fighters.position[a].0;
    let cost = b.variant.move_metric().cell_ft(start, to);
    let squares = crate::grid::straight_line(start, to);
    if squares.is_empty() || cost > max_ft || !clear_line(b, a, &squares) {
        return None;
    }
    let provokes = rules::movement::provocations_along(&b.view(), a, &squares);
    Some(PathPlan { squares, cost_ft: cost, provokes })
}

/// `a`'s charge at `t`: a straight move from `start`, leading to its attack.
pub(crate) fn charge_walk(variant: RulesVariant, a: Entity, start: GridPos, t: Entity, path: &PathPlan) -> Walk {
    let immune = if variant.numbers().charge_target_cannot_react { Some(t) } else { None };
    Walk::new(a, start, path, "charge", immune).then(Then::ChargeAttack { target: t })
}

/// Where a foe held by a mover standing on `mover_at` can be put beside it: the free square
/// (all of the foe's footprint on passable, empty ground, touching the mover's) nearest to
/// where the foe stands now, ties in row order. `None` when there is no room.
pub(crate) fn beside(b: &Battle, mover_at: Footprint, foe: usize) -> Option<GridPos> {
    let view = b.view();
    let foe_at = b.fighters.at(foe).footprint();
    let metric = b.variant.range_metric();
    let shape = b.variant.shape();
    let mut best: Option<(u32, GridPos)> = None;
    for cell in mover_at.cells() {
        for &(dx, dy) in crate::grid::neighbour_offsets(shape, cell).iter() {
            let origin = cell.offset(dx, dy);
            let there = Footprint::new(origin, foe_at.side);
            let free = there.cells().all(|c| {
                !mover_at.contains(c)
                    && view.field.terrain.get(c).passable()
                    && view.occupancy.at(c).is_none_or(|who| who == foe)
            });
            let key = (metric.footprint_ft(there, foe_at), origin);
            if free && best.is_none_or(|(ft, at)| (key.0, (key.1.y, key.1.x)) < (ft, (at.y, at.x))) {
                best = Some(key);
            }
        }
    }
    best.map(|(_, at)| at)
}

/// A walk dragging a held foe is over: if the mover still holds it, the foe is put beside
/// the mover (`beside`); if there is no room, the hold is lost.
pub(crate) fn drag_beside(world: &mut World, mover: Entity, foe: Entity) {
    let g = world.get::<Grapple>(mover).expect(A_COMBATANT);
    if g.with != Some(foe) || !g.holds || !in_fight(world, mover) {
        return;
    }
    refresh(world);
    let to = {
        let b = store::read(world);
        let (m, f) = (seat(&b, mover), seat(&b, foe));
        let (from, side) = (b.fighters.position[f].0, b.fighters.at(f).footprint().side);
        let cost = |to| b.variant.range_metric().footprint_ft(Footprint::new(from, side), Footprint::new(to, side));
        beside(&b, b.fighters.at(m).footprint(), f).map(|to| (to, cost(to)))
    };
    let unit = id(world, foe);
    match to {
        Some((to, cost_ft)) => {
            world.get_mut::<Position>(foe).expect(A_COMBATANT).0 = to;
            world.resource_mut::<Derived>().stale = true;
            let dragged = CombatEvent::Moved { unit, path: vec![to], cost_ft, kind: "dragged".into() };
            world.resource_mut::<EventLog>().push(dragged);
        }
        None => {
            let spoilt = CombatEvent::Spoiled {
                unit: id(world, mover),
                action: "drag".into(),
                reason: format!("no room beside it for {unit}"),
            };
            world.resource_mut::<EventLog>().push(spoilt);
            super::release(world, mover);
        }
    }
}
