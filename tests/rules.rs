//! Rules-core tests built from the sources' and the rules-notes' own cases: reach and
//! threat, flanking, cover, movement costs and attacks of opportunity, level loading.

use fivefoot::grid::{GridPos, Terrain};
use fivefoot::level::{Catalogue, Level, LevelError, UnitDef, save_atomic};
use fivefoot::rules::{
    self, CoverKind, MoveMode, RulesView, Snapshot, components::roster_of_level, cover, movement_range,
};
use fivefoot::variants::RulesVariant;
use std::path::Path;

mod common;

use common::{armed, open_rows, unit};

fn level(rows: Vec<String>, units: Vec<UnitDef>) -> Level {
    common::level(&rows, units, RulesVariant::D20Classic)
}

fn snapshot(rows: Vec<String>, units: Vec<UnitDef>, variant: RulesVariant) -> Snapshot {
    let lvl = level(rows, units);
    let roster = roster_of_level(&lvl.def.units, &Catalogue::builtin(), lvl.def.rules);
    Snapshot::new(rules::Battlefield::new(lvl.terrain, variant), roster)
}

fn idx(view: &RulesView, id: &str) -> usize {
    view.roster.index_of(id).unwrap()
}

fn threatened(s: &Snapshot, id: &str) -> Vec<(i32, i32)> {
    let v = s.view();
    v.threat.squares_of(idx(&v, id)).iter().map(|p| (p.x, p.y)).collect()
}

fn path(s: &Snapshot, id: &str, to: (i32, i32), mode: MoveMode) -> Result<rules::PathPlan, String> {
    let v = s.view();
    let i = idx(&v, id);
    let range = movement_range(&v, i, mode, rules::allowance_ft(&v, i, mode));
    range.plan_to(&v, GridPos::new(to.0, to.1)).map_err(|r| r.0)
}

fn provokers(s: &Snapshot, plan: &rules::PathPlan) -> Vec<(String, (i32, i32))> {
    plan.provokes.iter().map(|p| (s.roster.get(p.by).id.clone(), (p.from.x, p.from.y))).collect()
}

fn cover_of(s: &Snapshot, a: &str, t: &str) -> rules::CoverResult {
    let v = s.view();
    rules::cover_between(&v, idx(&v, a), idx(&v, t), false)
}

// ---------------------------------------------------------------- the search against a reference

#[path = "rules/clauses.rs"]
mod clauses;

mod search_oracle {
    use super::*;
    use fivefoot::grid::TerrainMap;
    use fivefoot::rules::movement::reference;
    use proptest::prelude::*;

    fn cell() -> impl Strategy<Value = char> {
        prop_oneof![6 => Just('.'), 2 => Just('#'), 1 => Just('~'), 1 => Just('=')]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn movement_costs_match_a_generic_dijkstra(cells in proptest::collection::vec(cell(), 100), gx in 0i32..10, gy in 0i32..10) {
            let mut cells = cells;
            cells[0] = '.';
            let rows: Vec<String> = cells.chunks(10).map(|c| c.iter().collect()).collect();
            let s = snapshot(rows.clone(), vec![unit("hero", "blue", (0, 0), "human_fighter")], RulesVariant::D20Classic);
            let v = s.view();
            let range = movement_range(&v, 0, MoveMode::Move, 10_000);
            let map = TerrainMap::from_rows(&rows).unwrap();
            let goal = GridPos::new(gx, gy);
            let expected = pathfinding::prelude::dijkstra(&(GridPos::new(0, 0), 0u8), |&s| reference::successors(&map, s), |&(p, _)| p == goal)
                .map(|(_, c)| c);
            let ours = if map.get(goal) == Terrain::Wall { None } else { range.cost_to(goal) };
            prop_assert_eq!(ours, expected);
        }

        /// A search stopped at the cheapest square it may end on that a goal holds for is the
        /// search with that square's cost as its budget, square for square (cost, path and
        /// the attacks it draws); nothing cheaper was a goal. And the flood that says whether
        /// any such square can be reached at all never says no where the search finds one.
        #[test]
        fn a_search_stopped_at_its_first_goal_is_the_search_with_that_budget(
            cells in proptest::collection::vec(cell(), 100),
            foe in (0i32..10, 0i32..10),
            ally in (0i32..10, 0i32..10),
            every in 3i32..23,
        ) {
            let mut cells = cells;
            for (x, y) in [(0, 0), foe, ally] {
                cells[(y * 10 + x) as usize] = '.';
            }
            let rows: Vec<String> = cells.chunks(10).map(|c| c.iter().collect()).collect();
            let mut units = vec![unit("hero", "blue", (0, 0), "human_fighter")];
            if foe != (0, 0) {
                units.push(unit("orc", "red", foe, "goblin"));
            }
            if ally != (0, 0) && ally != foe {
                units.push(unit("friend", "blue", ally, "human_fighter"));
            }
            let s = snapshot(rows, units, RulesVariant::D20Classic);
            let v = s.view();
            let goal = |p: GridPos| (p.x * 7 + p.y * 3) % every == 0;
            let whole = movement_range(&v, 0, MoveMode::Move, 10_000);
            let first = rules::movement::movement_range_to_first(&v, 0, MoveMode::Move, 10_000, goal);
            let ends = whole.destinations(&v);
            let nearest = ends.iter().filter(|(p, _, _)| goal(*p)).map(|&(_, cost, _)| cost).min();
            prop_assert_eq!(first.budget_ft, nearest.unwrap_or(10_000));
            prop_assert_eq!(rules::movement::may_end_on_any(&v, 0, goal) || nearest.is_none(), true);
            let bounded = movement_range(&v, 0, MoveMode::Move, first.budget_ft);
            prop_assert_eq!(first.destinations(&v), bounded.destinations(&v));
            for y in 0..10 {
                for x in 0..10 {
                    let p = GridPos::new(x, y);
                    prop_assert_eq!(first.cost_to(p), bounded.cost_to(p));
                    prop_assert_eq!(first.plan_to(&v, p).ok(), bounded.plan_to(&v, p).ok());
                }
            }
        }
    }
}

#[path = "rules/threat.rs"]
mod threat;

#[path = "rules/flanking.rs"]
mod flanking;

#[path = "rules/cover_rating.rs"]
mod cover_rating;

#[path = "rules/movement.rs"]
mod movement;

#[path = "rules/levels.rs"]
mod levels;
