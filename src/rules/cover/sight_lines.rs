//! Lines of effect already walked on a battlefield: whether a one-square attacker on one
//! square has a line to another depends on the walls alone, which a battle never changes,
//! so each pair is walked once a battle and remembered (two bits a pair, set atomically, so
//! every world holding the battle shares one record across threads). Larger maps than
//! [`MOST_SQUARES`] keep no record and walk every line.

use crate::grid::GridPos;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Maps of more squares than this walk every line (a record would pass a megabyte).
const MOST_SQUARES: usize = 2048;

/// The lines of effect walked so far on one battlefield, shared by its copies.
#[derive(Clone, Default)]
pub struct SightLines(Option<Arc<Record>>);

struct Record {
    width: i32,
    height: i32,
    /// Two bits a pair (from, to): walked, and clear.
    bits: Box<[AtomicU64]>,
}

impl SightLines {
    /// An empty record for a map of `width` × `height` squares.
    pub fn new(width: i32, height: i32) -> SightLines {
        let squares = (width.max(0) * height.max(0)) as usize;
        if squares == 0 || squares > MOST_SQUARES {
            return SightLines(None);
        }
        let words = (squares * squares * 2).div_ceil(64);
        let bits = (0..words).map(|_| AtomicU64::new(0)).collect();
        SightLines(Some(Arc::new(Record { width, height, bits })))
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
        let index = |p: GridPos| {
            (p.x >= 0 && p.y >= 0 && p.x < self.width && p.y < self.height).then_some((p.y * self.width + p.x) as usize)
        };
        Some(index(from)? * (self.width * self.height) as usize + index(to)?)
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

    #[test]
    fn a_line_is_walked_once_and_then_remembered() {
        let lines = SightLines::new(4, 3);
        let (a, b) = (GridPos::new(0, 0), GridPos::new(3, 2));
        assert!(!lines.clear(a, b, || false));
        assert!(!lines.clear(a, b, || panic!("walked twice")));
        assert!(lines.clear(b, a, || true), "each way is its own pair");
        assert!(lines.clear(b, a, || panic!("walked twice")));
        assert!(lines.clear(GridPos::new(-1, 0), a, || true), "off the map: walked every time");
        assert!(!lines.clear(GridPos::new(-1, 0), a, || false));
    }

    #[test]
    fn a_large_map_keeps_no_record() {
        let lines = SightLines::new(64, 64);
        let a = GridPos::new(0, 0);
        assert!(lines.clear(a, a, || true));
        assert!(!lines.clear(a, a, || false));
    }
}
