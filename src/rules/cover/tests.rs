//! Unit tests of the survey, and properties checking it against the reference.

use super::reference;
use super::*;
use crate::grid::TerrainMap;
use crate::rules::roster::{Roster, UnitView};
use proptest::prelude::*;

fn unit(id: usize, footprint: Footprint) -> (UnitView, String) {
    let view =
        UnitView { id: format!("u{id:02}"), side: 0, footprint, speed_ft: 30, threat: None, ranged: true, able: true };
    (view, if id.is_multiple_of(2) { "blue" } else { "red" }.to_string())
}

/// A random map (walls, `low_walls` squares in a hundred low walls, rubble) with
/// creatures on it.
fn scene(
    seed: u64,
    w: i32,
    h: i32,
    units: usize,
    variant: RulesVariant,
    low_walls: u64,
) -> (Battlefield, Roster, Occupancy) {
    let mut state = seed | 1;
    let mut next = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let cells = (0..w * h)
        .map(|_| match next(100) {
            0..12 => Terrain::Wall,
            n if n < 12 + low_walls => Terrain::LowWall,
            n if n < 15 + low_walls => Terrain::Difficult,
            _ => Terrain::Floor,
        })
        .collect();
    let terrain = TerrainMap::new(w, h, cells);
    let roster = Roster::new(
        (0..units)
            .map(|i| {
                let side = [1, 1, 2, 1, 3][next(5) as usize];
                let x = next((w - side + 1).max(1) as u64) as i32;
                let y = next((h - side + 1).max(1) as u64) as i32;
                unit(i, Footprint::new(GridPos::new(x, y), side))
            })
            .collect(),
    );
    let occupancy = Occupancy::build(&terrain, &roster);
    (Battlefield::new(terrain, variant), roster, occupancy)
}

#[test]
fn lines_along_a_corridor_and_through_a_wall() {
    let terrain = TerrainMap::from_rows(&["#####", ".....", "#.#..", "....."]).unwrap();
    let field = Battlefield::new(terrain, RulesVariant::D20Classic);
    let roster = Roster::new(vec![]);
    let occupancy = Occupancy::build(&field.terrain, &roster);
    let at = |x, y| Footprint::single(GridPos::new(x, y));
    // Down the corridor of row 1: no cover (lines along the wall's face do not count).
    let s = survey(&field, Some((&occupancy, [0, 1])), at(0, 1), at(4, 1), true);
    assert_eq!((s.total, s.best), (false, LineScore::default()));
    assert_eq!(s.best_lines.len(), 4);
    // From (0, 3) to (4, 1) past the wall at (2, 2): the best corner keeps one line blocked.
    let s = survey(&field, Some((&occupancy, [0, 1])), at(0, 3), at(4, 1), false);
    assert!(!s.total);
    assert_eq!(s, reference::survey(&field, Some((&occupancy, [0, 1])), at(0, 3), at(4, 1), false));
}

#[test]
fn a_memo_keeps_a_line_for_both_directions() {
    let (a, b) = (Footprint::new(GridPos::new(3, 4), 2), Footprint::single(GridPos::new(9, 1)));
    let mut memo = LineMemo::new(a, b);
    let mut slots = std::collections::HashSet::new();
    for from in (0..=2).flat_map(|y| (0..=2).map(move |x| a.origin.offset(x, y))) {
        for to in square_corners(b.origin) {
            let slot = memo.slot(from, to, false);
            assert_eq!(memo.slot(to, from, true), slot, "the same segment either way");
            assert!(slot < LineMemo::INLINE && slots.insert(slot), "one slot per segment");
        }
    }
    let (p, q) = (a.origin, b.origin);
    assert_eq!(memo.get(memo.slot(p, q, false), false), None);
    memo.put(memo.slot(p, q, false), false, Finding { blocker: Blocker::LowWall, both_ways: false });
    assert_eq!(memo.get(memo.slot(p, q, false), false), Some(Blocker::LowWall));
    assert_eq!(memo.get(memo.slot(q, p, true), true), None, "a low wall may not count the other way");
    memo.put(memo.slot(q, p, true), true, Finding::both_ways(Blocker::Wall));
    assert_eq!(memo.get(memo.slot(p, q, false), false), Some(Blocker::Wall));
    memo.reset(b, a);
    assert_eq!(memo.get(memo.slot(q, p, false), false), None);
}

#[test]
fn a_low_wall_near_one_end_covers_one_way_only() {
    // The low wall beside the left creature covers it from the right one (within 30 ft
    // of it, and nearer to it than the attacker), not the other way (35 ft from the target).
    let terrain = TerrainMap::from_rows(&["..........", ".=........", "..........", ".........."]).unwrap();
    let field = Battlefield::new(terrain, RulesVariant::D20Classic);
    let roster = Roster::new(vec![
        unit(0, Footprint::single(GridPos::new(0, 1))),
        unit(1, Footprint::single(GridPos::new(8, 2))),
    ]);
    let occupancy = Occupancy::build(&field.terrain, &roster);
    let threat = crate::rules::ThreatMap::build(&field, &roster);
    let view = RulesView { field: &field, roster: &roster, occupancy: &occupancy, threat: &threat };
    let all = cover_all_pairs(&view);
    let (there, back) = (cover_between(&view, 0, 1, false), cover_between(&view, 1, 0, false));
    assert_eq!((there.cover, back.cover), (CoverKind::None, CoverKind::Cover));
    assert_eq!(all[0][1].as_ref(), Some(&there));
    assert_eq!(all[1][0].as_ref(), Some(&back));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// The all-pairs answer is each pair's own answer, and the reference survey's: total
    /// cover reused or not, lines shared by both directions or not.
    #[test]
    fn all_pairs_match_pair_by_pair(
        seed in any::<u64>(),
        w in 2i32..30,
        h in 2i32..30,
        units in 2usize..12,
        v in 0usize..5,
        low_walls in prop_oneof![Just(5u64), 0u64..40],
    ) {
        let variant = RulesVariant::ALL[v];
        let (field, roster, occupancy) = scene(seed, w, h, units, variant, low_walls);
        let threat = crate::rules::ThreatMap::build(&field, &roster);
        let view = RulesView { field: &field, roster: &roster, occupancy: &occupancy, threat: &threat };
        let all = cover_all_pairs(&view);
        for (a, row) in all.iter().enumerate() {
            prop_assert!(row[a].is_none());
            for t in (0..roster.len()).filter(|&t| t != a) {
                let got = row[t].as_ref().unwrap();
                let want = cover_between(&view, a, t, false);
                prop_assert_eq!(got, &want, "{} -> {}", a, t);
                let reference = rate(variant, &reference::survey(&field, Some((&occupancy, [a, t])), roster.get(a).footprint, roster.get(t).footprint, false), AttackReach::of(&view, a, t));
                prop_assert_eq!(got, &reference, "{} -> {}", a, t);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Every pair of creatures, and creatures at made-up places (on walls, partly off
    /// the map), surveyed as first written and as now: the same, line for line.
    #[test]
    fn surveys_match_the_reference(
        seed in any::<u64>(),
        w in 2i32..40,
        h in 2i32..40,
        units in 2usize..10,
        v in 0usize..5,
        extra in proptest::collection::vec((-3i32..42, -3i32..42, 1i32..4), 0..4),
        low_walls in prop_oneof![Just(5u64), 0u64..40],
    ) {
        let variant = RulesVariant::ALL[v];
        let (field, roster, occupancy) = scene(seed, w, h, units, variant, low_walls);
        let mut spots: Vec<(usize, Footprint)> = roster.units.iter().map(|u| u.footprint).enumerate().collect();
        spots.extend(extra.iter().map(|&(x, y, s)| (0, Footprint::new(GridPos::new(x, y), s))));
        for (i, &(ai, a)) in spots.iter().enumerate() {
            for (j, &(ti, t)) in spots.iter().enumerate() {
                if i == j {
                    continue;
                }
                for detail in [false, true] {
                    let ignore = [ai, if ti == ai { (ai + 1) % units } else { ti }];
                    let fast = survey(&field, Some((&occupancy, ignore)), a, t, detail);
                    let slow = reference::survey(&field, Some((&occupancy, ignore)), a, t, detail);
                    prop_assert_eq!(&fast, &slow, "{:?} -> {:?}", a, t);
                }
            }
        }
    }
}

proptest! {
    /// The occupancy the surveys walk agrees square by square with the terrain and the
    /// footprints it was built from: who stands where, what each square does to sight,
    /// and how many occupied squares any box holds.
    #[test]
    fn occupancy_agrees_with_the_terrain_and_the_footprints(seed in any::<u64>(), w in 1i32..14, h in 1i32..14, units in 0usize..9) {
        let (field, roster, occupancy) = scene(seed, w, h, units, RulesVariant::default(), 10);
        let mut held = vec![None; (w * h) as usize];
        for (i, u) in roster.units.iter().enumerate() {
            for c in u.footprint.cells().filter(|&c| field.terrain.in_bounds(c)) {
                held[(c.y * w + c.x) as usize] = Some(i);
            }
        }
        let at = |x: i32, y: i32| held[(y * w + x) as usize];
        for y in 0..h {
            for x in 0..w {
                let p = GridPos::new(x, y);
                let terrain = match field.terrain.get(p) {
                    crate::grid::Terrain::Wall => 2,
                    crate::grid::Terrain::LowWall => 1,
                    _ => 0,
                };
                prop_assert_eq!(occupancy.at(p), at(x, y));
                prop_assert_eq!(occupancy.sight_at(p), (at(x, y), terrain));
            }
        }
        for (x0, y0, x1, y1) in [(0, 0, w - 1, h - 1), (1, 1, w - 2, h - 2), (-2, 0, w / 2, h + 3), (w / 3, h / 2, w, h / 2)] {
            let brute = (y0.max(0)..=y1.min(h - 1))
                .flat_map(|y| (x0.max(0)..=x1.min(w - 1)).map(move |x| (x, y)))
                .filter(|&(x, y)| at(x, y).is_some())
                .count() as u32;
            prop_assert_eq!(occupancy.count_in(GridPos::new(x0, y0), GridPos::new(x1, y1)), brute);
        }
    }
}
