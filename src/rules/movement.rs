//! Movement: the cheapest legal path for a move action or a 5-ft step, costed in feet
//! (5/10/5 diagonals, double for difficult terrain and low walls, no cutting wall
//! corners), and the attacks of opportunity each path provokes, square by square.
//! The search is a Dijkstra over (square, diagonal parity) with flat arrays; among
//! equally cheap paths it prefers the one provoking fewer foes. Each thread counts the
//! squares its searches have covered (`squares_searched`), the work a search budget counts.

use super::RulesView;
use super::cover::{AttackReach, CoverKind, cover_at};
use super::roster::{UnitMask, bit, indices};
use crate::grid::{Footprint, GridPos, Shape, neighbour_offsets};

/// What kind of movement is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveMode {
    /// A move action: up to the variant's move allowance, provoking as it goes.
    Move,
    /// A 5-ft step (1-hex step, side step): one square, never into difficult terrain,
    /// provokes nothing. In osr-segments, the positioning move: up to 10 ft, not in melee.
    Step,
}

/// One attack of opportunity a path provokes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Provocation {
    /// Roster index of the foe who gets the attack.
    pub by: usize,
    /// The square being left when it happens (the footprint's top-left).
    pub from: GridPos,
}

/// A chosen path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathPlan {
    /// Squares entered, in order (footprint top-left), excluding the start.
    pub squares: Vec<GridPos>,
    pub cost_ft: u32,
    pub provokes: Vec<Provocation>,
}

/// Why a destination cannot be reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRefusal(pub String);

const UNSEEN: u32 = u32::MAX;

/// Every square a unit can reach with one move or step, with costs and provocations.
#[derive(Clone, Debug)]
pub struct MoveRange {
    pub mover: usize,
    pub mode: MoveMode,
    pub budget_ft: u32,
    start: GridPos,
    /// The searched window of the map: top-left square and size. A search never goes
    /// farther than its budget, so it never touches (or allocates) the rest of the map.
    ox: i32,
    oy: i32,
    width: i32,
    height: i32,
    /// Per state (square × diagonal parity): cost in feet, or UNSEEN.
    cost: Vec<u32>,
    provoked: Vec<UnitMask>,
    /// Per state: how many foes `provoked` names (kept beside it: the search compares it
    /// at every step).
    provoking: Vec<u8>,
    parent: Vec<u32>,
}

/// Feet a unit may cover with one `mode` movement under the view's variant.
pub fn allowance_ft(view: &RulesView, mover: usize, mode: MoveMode) -> u32 {
    let variant = view.field.variant;
    match mode {
        MoveMode::Move => variant.move_action_ft(view.roster.get(mover).speed_ft),
        MoveMode::Step => variant.grid().step.feet,
    }
}

/// Searches every square `mover` can reach with one movement of `mode`, within
/// `budget_ft` (use [`allowance_ft`] for the rules' own).
pub fn movement_range(view: &RulesView, mover: usize, mode: MoveMode, budget_ft: u32) -> MoveRange {
    search(view, mover, mode, budget_ft, None::<fn(GridPos) -> bool>)
}

/// As [`movement_range`], but no farther than the cheapest square the move may end on for
/// which `goal` holds: the range is the one a search with that square's cost as its budget
/// gives (its `budget_ft`), so every square as cheap is in it, with the same costs and
/// paths; within `budget_ft` if none is found.
pub fn movement_range_to_first(
    view: &RulesView,
    mover: usize,
    mode: MoveMode,
    budget_ft: u32,
    goal: impl FnMut(GridPos) -> bool,
) -> MoveRange {
    search(view, mover, mode, budget_ft, Some(goal))
}

thread_local! {
    /// The squares this thread's searches have covered so far (each search's window).
    static SQUARES_SEARCHED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many squares this thread's movement searches have covered so far: each search
/// counts its whole window, which it prepares square by square whatever it then expands.
/// The AI counts it, beside commands, as the work a search of its own spends.
pub fn squares_searched() -> u64 {
    SQUARES_SEARCHED.with(std::cell::Cell::get)
}

fn search(
    view: &RulesView,
    mover: usize,
    mode: MoveMode,
    budget_ft: u32,
    mut goal: Option<impl FnMut(GridPos) -> bool>,
) -> MoveRange {
    let terrain = &view.field.terrain;
    let (w, h) = (terrain.width(), terrain.height());
    let shape = view.field.variant.shape();
    let unit = view.roster.get(mover);
    let side = unit.footprint.side;
    let start = unit.footprint.origin;
    let (GridPos { x: ox, y: oy }, GridPos { x: wx, y: wy }) = search_window(terrain, unit.footprint, budget_ft);
    let (ww, wh) = (wx - ox + 1, wy - oy + 1);
    SQUARES_SEARCHED.with(|c| c.set(c.get() + (ww * wh) as u64));
    let states = (ww * wh) as usize * 2;
    let mut range = MoveRange {
        mover,
        mode,
        budget_ft,
        start,
        ox,
        oy,
        width: ww,
        height: wh,
        cost: vec![UNSEEN; states],
        provoked: vec![0; states],
        provoking: vec![0; states],
        parent: vec![UNSEEN; states],
    };
    let step = view.field.variant.grid().step;
    if mode == MoveMode::Step && !step.in_melee && in_melee(view, mover) {
        return range; // no step in melee
    }
    let foes = view.roster.foes_of(mover);
    let idx = |p: GridPos| ((p.y - oy) * ww + (p.x - ox)) as usize;
    // What each footprint position in the window allows, worked out once per search:
    // the footprint fits (no wall, no foe), costs double, is free of walls.
    const FITS: u8 = 1;
    const COSTLY: u8 = 2;
    const NO_WALL: u8 = 4;
    let mut flags = vec![0u8; (ww * wh) as usize];
    for y in oy..=wy {
        for x in ox..=wx {
            if x + side > w || y + side > h {
                continue;
            }
            let mut f = FITS | NO_WALL;
            for dy in 0..side {
                for dx in 0..side {
                    let c = GridPos::new(x + dx, y + dy);
                    let t = terrain.get(c);
                    if !t.passable() {
                        f &= !(FITS | NO_WALL);
                    }
                    if t.costs_double() {
                        f |= COSTLY;
                    }
                    if view.occupancy.at(c).is_some_and(|u| u != mover && foes & bit(u) != 0) {
                        f &= !FITS;
                    }
                }
            }
            flags[((y - oy) * ww + (x - ox)) as usize] = f;
        }
    }
    let flag = |p: GridPos| flags[idx(p)];

    let s0 = idx(start) * 2;
    range.cost[s0] = 0;
    // Dial's bucket queue: every step costs 5 to 20 ft, so five rotating buckets of
    // 5 ft each hold everything still to expand, in order of cost.
    const RING: usize = 5;
    let mut buckets: [Vec<(u32, u32)>; RING] = Default::default();
    buckets[0].push((s0 as u32, 0));
    let mut pending = 1usize;
    let mut at = 0usize; // cost / 5 of the bucket being expanded
    // The search's bound: the budget, or once a goal is found its cost (the bucket of that
    // cost is still expanded whole, so equally cheap squares and paths are as without it).
    let mut bound = budget_ft;
    while pending > 0 {
        let Some((state, count)) = buckets[at % RING].pop() else {
            at += 1;
            if (at * 5) as u32 > bound {
                break;
            }
            continue;
        };
        pending -= 1;
        let state = state as usize;
        let cost = (at * 5) as u32;
        if cost != range.cost[state] || count != u32::from(range.provoking[state]) {
            continue;
        }
        let here = GridPos::new(ox + (state / 2) as i32 % ww, oy + (state / 2) as i32 / ww);
        if let Some(goal) = goal.as_mut()
            && cost < bound
            && here != start
            && ends_clear(view, mover, Footprint::new(here, side))
            && goal(here)
        {
            bound = cost;
        }
        let parity = state % 2;
        if mode == MoveMode::Step && !step.any_path && here != start {
            continue; // a 5-ft step is a single square
        }
        let leaving = match mode {
            MoveMode::Move => view.threat.threateners_of(Footprint::new(here, side)) & foes,
            MoveMode::Step => 0,
        };
        let provoked = range.provoked[state] | leaving;
        let new_count = provoked.count_ones();
        for &(dx, dy) in neighbour_offsets(shape, here) {
            let next = here.offset(dx, dy);
            if next.x < ox || next.y < oy || next.x > wx || next.y > wy {
                continue;
            }
            let f = flag(next);
            if f & FITS == 0 {
                continue;
            }
            let diagonal = shape == Shape::Square && dx != 0 && dy != 0;
            if diagonal && (flag(here.offset(dx, 0)) & NO_WALL == 0 || flag(here.offset(0, dy)) & NO_WALL == 0) {
                continue; // no cutting past a wall's corner
            }
            let base = if diagonal && parity == 1 { 10 } else { 5 };
            let step_cost = match (f & COSTLY != 0, diagonal) {
                (false, _) => base,
                (true, _) if mode == MoveMode::Step && !step.any_path => continue,
                (true, false) => 10,
                (true, true) => base + 10,
            };
            let new_cost = cost + step_cost;
            if new_cost > bound {
                continue;
            }
            let new_parity = if diagonal { 1 - parity } else { parity };
            let ns = idx(next) * 2 + new_parity;
            let old = (range.cost[ns], u32::from(range.provoking[ns]));
            if (new_cost, new_count) < old {
                range.cost[ns] = new_cost;
                range.provoked[ns] = provoked;
                range.provoking[ns] = new_count as u8;
                range.parent[ns] = state as u32;
                buckets[(new_cost / 5) as usize % RING].push((ns as u32, new_count));
                pending += 1;
            }
        }
    }
    if bound < budget_ft {
        // Stopped at a goal: what was reached beyond its cost is forgotten, so the range is
        // the one searched with that cost as its budget.
        for &(state, _) in buckets.iter().flatten() {
            let s = state as usize;
            if range.cost[s] != UNSEEN && range.cost[s] > bound {
                (range.cost[s], range.provoked[s], range.provoking[s], range.parent[s]) = (UNSEEN, 0, 0, UNSEEN);
            }
        }
        range.budget_ft = bound;
    }
    range
}

/// Whether some movement, however long, could take `mover` to end on a square for which
/// `wanted` holds: a flood over the squares its footprint fits (no wall, no foe), costs and
/// the corners of walls aside, so it finds every square a [`movement_range`] search of any
/// budget could end on (and perhaps a few more). Where it finds none, no search will.
pub fn may_end_on_any(view: &RulesView, mover: usize, mut wanted: impl FnMut(GridPos) -> bool) -> bool {
    let terrain = &view.field.terrain;
    let (w, h) = (terrain.width(), terrain.height());
    let shape = view.field.variant.shape();
    let unit = view.roster.get(mover);
    let (start, side) = (unit.footprint.origin, unit.footprint.side);
    let foes = view.roster.foes_of(mover);
    // Whether the footprint fits on `p` (on the map, no wall, no foe), and whether nobody
    // else stands there (a move may end on it).
    let look = |p: GridPos| -> (bool, bool) {
        if p.x + side > w || p.y + side > h {
            return (false, false);
        }
        let mut clear = true;
        for c in Footprint::new(p, side).cells() {
            match view.occupancy.at(c) {
                _ if !terrain.get(c).passable() => return (false, false),
                Some(u) if u != mover && foes & bit(u) != 0 => return (false, false),
                Some(u) if u != mover => clear = false,
                _ => {}
            }
        }
        (true, clear)
    };
    SQUARES_SEARCHED.with(|c| c.set(c.get() + (w * h) as u64));
    let mut seen = vec![false; (w * h) as usize];
    // Nearest first (breadth first), so a square near the mover ends the flood early.
    let mut todo = std::collections::VecDeque::from([start]);
    seen[(start.y * w + start.x) as usize] = true;
    while let Some(here) = todo.pop_front() {
        for &(dx, dy) in neighbour_offsets(shape, here) {
            let next = here.offset(dx, dy);
            if next.x < 0 || next.y < 0 || next.x >= w || next.y >= h || seen[(next.y * w + next.x) as usize] {
                continue;
            }
            seen[(next.y * w + next.x) as usize] = true;
            let (fits, clear) = look(next);
            if !fits {
                continue;
            }
            if clear && next != start && wanted(next) {
                return true;
            }
            todo.push_back(next);
        }
    }
    false
}

/// The box of the board (least and greatest corner) a search from `fp` with `budget_ft`
/// can reach: a step moves a column and a row at most, so nothing farther is within it.
pub fn search_window(terrain: &crate::grid::TerrainMap, fp: Footprint, budget_ft: u32) -> (GridPos, GridPos) {
    let (w, h) = (terrain.width(), terrain.height());
    let reach = (budget_ft / 5).saturating_add(1).min(w.max(h) as u32) as i32;
    let (start, side) = (fp.origin, fp.side);
    (
        GridPos::new((start.x - reach).max(0), (start.y - reach).max(0)),
        GridPos::new((start.x + side - 1 + reach).min(w - 1), (start.y + side - 1 + reach).min(h - 1)),
    )
}

/// Whether a foe threatens the unit where it stands.
pub fn in_melee(view: &RulesView, unit: usize) -> bool {
    view.threat.threateners_of(view.roster.get(unit).footprint) & view.roster.foes_of(unit) != 0
}

impl MoveRange {
    fn pos_of(&self, state: usize) -> GridPos {
        GridPos::new(self.ox + (state / 2) as i32 % self.width, self.oy + (state / 2) as i32 / self.width)
    }

    fn best_state(&self, dest: GridPos) -> Option<usize> {
        let (x, y) = (dest.x - self.ox, dest.y - self.oy);
        if x < 0 || y < 0 || x >= self.width || y >= self.height {
            return None;
        }
        let base = (y * self.width + x) as usize * 2;
        (base..base + 2).filter(|&s| self.cost[s] != UNSEEN).min_by_key(|&s| (self.cost[s], self.provoking[s]))
    }

    /// Cost in feet to reach `dest` (as a place to pass through), if reachable.
    pub fn cost_to(&self, dest: GridPos) -> Option<u32> {
        self.best_state(dest).map(|s| self.cost[s])
    }

    /// The squares (footprint top-left) of the cheapest path to `dest`, start excluded.
    fn squares_to(&self, dest: GridPos) -> Option<(Vec<GridPos>, u32)> {
        let mut s = self.best_state(dest)?;
        let cost = self.cost[s];
        let mut squares = Vec::new();
        while self.parent[s] != UNSEEN {
            squares.push(self.pos_of(s));
            s = self.parent[s] as usize;
        }
        squares.reverse();
        Some((squares, cost))
    }

    /// Squares where the move may end (no other creature there), with their cost and the
    /// number of foes the cheapest path there provokes, row-major.
    pub fn destinations(&self, view: &RulesView) -> Vec<(GridPos, u32, u32)> {
        self.ends(view).map(|(p, cost, provoked)| (p, cost, provoked.count_ones())).collect()
    }

    /// As [`destinations`](Self::destinations), with the foes the cheapest path provokes
    /// named (a mask of the roster's seats) rather than counted, for weighing their attacks.
    pub fn destinations_provoking(&self, view: &RulesView) -> Vec<(GridPos, u32, UnitMask)> {
        self.ends(view).collect()
    }

    fn ends<'a>(&'a self, view: &'a RulesView) -> impl Iterator<Item = (GridPos, u32, UnitMask)> + 'a {
        let side = view.roster.get(self.mover).footprint.side;
        (0..self.width * self.height).filter_map(move |i| {
            let p = self.pos_of(i as usize * 2);
            let s = self.best_state(p)?;
            (p != self.start && ends_clear(view, self.mover, Footprint::new(p, side)))
                .then(|| (p, self.cost[s], self.provoked[s]))
        })
    }

    /// The plan to end the movement on `dest`, or why it cannot.
    pub fn plan_to(&self, view: &RulesView, dest: GridPos) -> Result<PathPlan, MoveRefusal> {
        refuse_destination(view, self.mover, dest)?;
        if dest == self.start {
            return Ok(PathPlan { squares: vec![], cost_ft: 0, provokes: vec![] });
        }
        let Some((squares, cost_ft)) = self.squares_to(dest) else {
            return Err(self.explain_unreachable(view, dest));
        };
        let provokes =
            if self.mode == MoveMode::Move { provocations_along(view, self.mover, &squares) } else { vec![] };
        Ok(PathPlan { squares, cost_ft, provokes })
    }

    fn explain_unreachable(&self, view: &RulesView, dest: GridPos) -> MoveRefusal {
        let who = &view.roster.get(self.mover).id;
        if self.mode == MoveMode::Step {
            let numbers = view.field.variant.numbers();
            let (step, name) = (numbers.grid.step, &numbers.step_name);
            if step.any_path {
                if !step.in_melee && in_melee(view, self.mover) {
                    return MoveRefusal(format!("{who} is in melee: a {name} cannot be made in melee"));
                }
                return MoveRefusal(format!("a {name} covers at most {} ft and {dest} is farther", step.feet));
            }
            let d = view.field.variant.move_metric().cell_ft(self.start, dest);
            if d > 5 {
                return MoveRefusal(format!("a 5-ft step moves one square and {dest} is {d} ft away"));
            }
            let side = view.roster.get(self.mover).footprint.side;
            let fp = Footprint::new(dest, side);
            if fp.cells().any(|c| view.field.terrain.get(c).costs_double()) {
                return MoveRefusal("a 5-ft step cannot enter difficult terrain".into());
            }
            return MoveRefusal(format!("no 5-ft step leads to {dest} (a wall's corner or a foe is in the way)"));
        }
        let unbounded = movement_range(view, self.mover, self.mode, u32::MAX / 2);
        match unbounded.cost_to(dest) {
            Some(need) => MoveRefusal(format!(
                "{dest} needs {need} ft of movement; one move action gives {who} {} ft",
                self.budget_ft
            )),
            None => MoveRefusal(format!("no path leads to {dest}")),
        }
    }
}

/// Whether nobody but the mover stands on `fp`.
fn ends_clear(view: &RulesView, mover: usize, fp: Footprint) -> bool {
    fp.cells().all(|c| view.occupancy.at(c).is_none_or(|u| u == mover))
}

/// Refuses destinations that no path could make legal.
fn refuse_destination(view: &RulesView, mover: usize, dest: GridPos) -> Result<(), MoveRefusal> {
    let terrain = &view.field.terrain;
    let side = view.roster.get(mover).footprint.side;
    let fp = Footprint::new(dest, side);
    for c in fp.cells() {
        if !terrain.in_bounds(c) {
            return Err(MoveRefusal(format!("{c} is outside the map")));
        }
        if !terrain.get(c).passable() {
            return Err(MoveRefusal(format!("{c} is a wall")));
        }
        if let Some(u) = view.occupancy.at(c).filter(|&u| u != mover) {
            return Err(MoveRefusal(format!("{c} is occupied by {}", view.roster.get(u).id)));
        }
    }
    Ok(())
}

/// The attacks of opportunity a move along `squares` (start excluded) provokes: leaving
/// a square a foe threatens, once per foe per move, and only from foes able to attack
/// there (cover can forbid it).
pub fn provocations_along(view: &RulesView, mover: usize, squares: &[GridPos]) -> Vec<Provocation> {
    let unit = view.roster.get(mover);
    let side = unit.footprint.side;
    let foes = view.roster.foes_of(mover);
    let mut done: UnitMask = 0;
    let mut out = Vec::new();
    let starts = std::iter::once(unit.footprint.origin).chain(squares.iter().copied());
    for (here, _next) in starts.zip(squares.iter()) {
        let fp = Footprint::new(here, side);
        for foe in indices(view.threat.threateners_of(fp) & foes & !done) {
            if can_strike_at(view, foe, mover, fp) {
                done |= bit(foe);
                out.push(Provocation { by: foe, from: here });
            }
        }
    }
    out
}

/// Whether `foe` may make an attack of opportunity on `mover` standing on `fp`: it must
/// be able to target it, and in the d20 family a foe with cover gets no such attack.
pub fn can_strike_at(view: &RulesView, foe: usize, mover: usize, fp: Footprint) -> bool {
    let attacker = view.roster.get(foe);
    let reach = AttackReach::melee(view.field.variant, attacker.footprint, fp);
    let cover = cover_at(view.field, view.occupancy, (foe, attacker.footprint), (mover, fp), reach, false);
    let stops = view.field.variant.grid().cover_stops_opportunity;
    cover.can_target && !(stops && cover.cover == CoverKind::Cover)
}

/// A plain statement of the movement costs for a lone 1×1 creature on squares, as a
/// successor function over (square, diagonal parity) for generic search crates. The
/// property tests check [`movement_range`] against it, and the benches time both.
#[doc(hidden)]
pub mod reference {
    use crate::grid::{GridPos, SQUARE_DIRS, TerrainMap};

    pub fn successors(map: &TerrainMap, (p, parity): (GridPos, u8)) -> Vec<((GridPos, u8), u32)> {
        let mut out = Vec::with_capacity(8);
        for (dx, dy) in SQUARE_DIRS {
            let n = p.offset(dx, dy);
            if !map.get(n).passable() {
                continue;
            }
            let diagonal = dx != 0 && dy != 0;
            if diagonal && (!map.get(p.offset(dx, 0)).passable() || !map.get(p.offset(0, dy)).passable()) {
                continue;
            }
            let base = if diagonal { if parity == 1 { 10 } else { 5 } } else { 5 };
            let cost = if map.get(n).costs_double() { if diagonal { base + 10 } else { 10 } } else { base };
            out.push(((n, if diagonal { 1 - parity } else { parity }), cost));
        }
        out
    }
}
