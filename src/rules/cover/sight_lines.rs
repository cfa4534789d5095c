//! Lines of effect already walked: whether a one-square attacker on one square has a line
//! to another depends on the walls alone (and the grid's shape), which a battle never
//! changes, so each pair is walked once and remembered, two bits a pair, set atomically.
//! Every battle fought on the same walls shares one record, across threads (a sim's
//! thousands of battles on one level walk each line once), and the record is dropped with
//! the last of them. Larger maps than [`MOST_SQUARES`] keep no record and walk every line.

use crate::grid::{BitGrid, GridPos, Shape, TerrainMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};

/// Maps of more squares than this walk every line (a record would pass a megabyte).
const MOST_SQUARES: usize = 2048;

/// The records in use, each for one layout of walls on one shape of grid.
static RECORDS: Mutex<Vec<Weak<Record>>> = Mutex::new(Vec::new());

/// The lines of effect walked so far on one battlefield's walls, shared by every battle on
/// them.
#[derive(Clone, Default)]
pub struct SightLines(Option<Arc<Record>>);

struct Record {
    shape: Shape,
    /// The walls it is a record of (the terrain's own set of them).
    walls: BitGrid,
    /// Two bits a pair (from, to): walked, and clear.
    bits: Box<[AtomicU64]>,
}

impl SightLines {
    /// The record for `terrain`'s walls on a grid of `shape`: the one in use if a battle on
    /// the same walls holds one, else a new, empty one.
    pub fn of(terrain: &TerrainMap, shape: Shape) -> SightLines {
        let (width, height) = (terrain.width(), terrain.height());
        let squares = (width.max(0) * height.max(0)) as usize;
        if squares == 0 || squares > MOST_SQUARES {
            return SightLines(None);
        }
        let walls = terrain.walls();
        let mut records = RECORDS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        records.retain(|r| r.strong_count() > 0);
        let same = |r: &Record| r.shape == shape && r.walls == *walls;
        if let Some(record) = records.iter().filter_map(Weak::upgrade).find(|r| same(r)) {
            return SightLines(Some(record));
        }
        let words = (squares * squares * 2).div_ceil(64);
        let bits = (0..words).map(|_| AtomicU64::new(0)).collect();
        let record = Arc::new(Record { shape, walls: walls.clone(), bits });
        records.push(Arc::downgrade(&record));
        SightLines(Some(record))
    }

    /// Whether a one-square attacker on `from` has a line of effect to `to`: as remembered,
    /// or as `walk` finds it (then remembered).
    #[inline]
    pub fn clear(&self, from: GridPos, to: GridPos, walk: impl FnOnce() -> bool) -> bool {
        let Some((record, at)) = self.0.as_deref().and_then(|r| Some((r, r.pair(from, to)?))) else { return walk() };
        let (word, shift) = (at / 32, (at % 32) * 2);
        let known = record.bits[word].load(Ordering::Relaxed) >> shift;
        if known & 1 == 1 {
            return known & 2 == 2;
        }
        let clear = walk();
        record.bits[word].fetch_or((1 | u64::from(clear) << 1) << shift, Ordering::Relaxed);
        clear
    }
}

impl Record {
    fn pair(&self, from: GridPos, to: GridPos) -> Option<usize> {
        let (width, height) = (self.walls.width(), self.walls.height());
        let index = |p: GridPos| self.walls.in_bounds(p).then_some((p.y * width + p.x) as usize);
        Some(index(from)? * (width * height) as usize + index(to)?)
    }
}

impl std::fmt::Debug for SightLines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SightLines")
    }
}

/// Every record is as good as any other: it only remembers what the walls decide.
impl PartialEq for SightLines {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(rows: &[&str]) -> TerrainMap {
        TerrainMap::from_rows(&rows.iter().map(|r| r.to_string()).collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn a_line_is_walked_once_and_then_remembered() {
        let lines = SightLines::of(&map(&["....", "..#.", "...."]), Shape::Square);
        let (a, b) = (GridPos::new(0, 0), GridPos::new(3, 2));
        assert!(!lines.clear(a, b, || false));
        assert!(!lines.clear(a, b, || panic!("walked twice")));
        assert!(lines.clear(b, a, || true), "each way is its own pair");
        assert!(lines.clear(b, a, || panic!("walked twice")));
        assert!(lines.clear(GridPos::new(-1, 0), a, || true), "off the map: walked every time");
        assert!(!lines.clear(GridPos::new(-1, 0), a, || false));
    }

    #[test]
    fn battles_on_the_same_walls_share_a_record_and_others_do_not() {
        let walls = map(&[".....", "..#..", "....."]);
        let first = SightLines::of(&walls, Shape::Square);
        let (a, b) = (GridPos::new(0, 1), GridPos::new(4, 1));
        assert!(!first.clear(a, b, || false));
        let second = SightLines::of(&walls.clone(), Shape::Square);
        assert!(!second.clear(a, b, || panic!("walked again on the same walls")));
        let hexes = SightLines::of(&walls, Shape::Hex);
        assert!(hexes.clear(a, b, || true), "another shape of grid is another record");
        let moved = SightLines::of(&map(&[".....", ".#...", "....."]), Shape::Square);
        assert!(moved.clear(a, b, || true), "other walls are another record");
    }

    #[test]
    fn a_large_map_keeps_no_record() {
        let row = ".".repeat(64);
        let lines = SightLines::of(&map(&vec![row.as_str(); 64]), Shape::Square);
        let a = GridPos::new(0, 0);
        assert!(lines.clear(a, a, || true));
        assert!(!lines.clear(a, a, || false));
    }
}
