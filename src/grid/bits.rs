//! One bit per square, stored both row by row and (transposed) column by column, so that a
//! whole run of squares in a row or a column is tested with a mask or two. Line walks for
//! cover and line of effect use it to look at a line's squares a row (or column) at a time.

use super::GridPos;

/// A set of squares on a `width`×`height` map.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct BitGrid {
    width: i32,
    height: i32,
    /// 64-bit words per row (and per column of the transposed copy).
    row_words: usize,
    col_words: usize,
    rows: Vec<u64>,
    cols: Vec<u64>,
}

clone_in_place!(BitGrid { width, height, row_words, col_words, rows, cols });

/// Squares `lo..=hi` along one row (`Row`, `lo`/`hi` are columns) or one column (`Col`,
/// `lo`/`hi` are rows).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Run {
    Row { y: i32, lo: i32, hi: i32 },
    Col { x: i32, lo: i32, hi: i32 },
}

impl Run {
    /// The squares of the run, in order.
    pub fn cells(self) -> impl Iterator<Item = GridPos> {
        let (lo, hi) = match self {
            Run::Row { lo, hi, .. } | Run::Col { lo, hi, .. } => (lo, hi),
        };
        (lo..=hi).map(move |i| match self {
            Run::Row { y, .. } => GridPos::new(i, y),
            Run::Col { x, .. } => GridPos::new(x, i),
        })
    }
}

/// The mask of bits `lo..=hi` (both within 0..64).
#[inline]
pub fn mask(lo: u32, hi: u32) -> u64 {
    (u64::MAX >> (63 - hi)) & (u64::MAX << lo)
}

impl BitGrid {
    /// The empty set.
    pub fn new(width: i32, height: i32) -> Self {
        let (w, h) = (width.max(0) as usize, height.max(0) as usize);
        let (row_words, col_words) = (w.div_ceil(64), h.div_ceil(64));
        Self { width, height, row_words, col_words, rows: vec![0; row_words * h], cols: vec![0; col_words * w] }
    }

    /// The squares for which `f` holds.
    pub fn from_fn(width: i32, height: i32, mut f: impl FnMut(GridPos) -> bool) -> Self {
        let mut g = Self::new(width, height);
        for y in 0..height {
            for x in 0..width {
                let p = GridPos::new(x, y);
                if f(p) {
                    g.insert(p);
                }
            }
        }
        g
    }

    pub fn width(&self) -> i32 {
        self.width
    }
    pub fn height(&self) -> i32 {
        self.height
    }

    /// Whether `p` is on the map.
    pub fn in_bounds(&self, p: GridPos) -> bool {
        p.x >= 0 && p.y >= 0 && p.x < self.width && p.y < self.height
    }

    /// Adds an in-bounds square (squares off the map are ignored).
    pub fn insert(&mut self, p: GridPos) {
        if self.in_bounds(p) {
            let (x, y) = (p.x as usize, p.y as usize);
            self.rows[y * self.row_words + x / 64] |= 1 << (x % 64);
            self.cols[x * self.col_words + y / 64] |= 1 << (y % 64);
        }
    }

    /// Whether `p` is in the set (squares off the map never are).
    pub fn contains(&self, p: GridPos) -> bool {
        self.in_bounds(p) && {
            let (x, y) = (p.x as usize, p.y as usize);
            self.rows[y * self.row_words + x / 64] >> (x % 64) & 1 == 1
        }
    }

    /// The words of one line (row or column) and the run's bounds clamped to it.
    #[inline]
    fn line(&self, run: Run) -> Option<(&[u64], u32, u32)> {
        let (words, n, i, lo, hi, len) = match run {
            Run::Row { y, lo, hi } => (&self.rows, self.row_words, y, lo, hi, self.width),
            Run::Col { x, lo, hi } => (&self.cols, self.col_words, x, lo, hi, self.height),
        };
        let limit = if matches!(run, Run::Row { .. }) { self.height } else { self.width };
        let (lo, hi) = (lo.max(0), hi.min(len - 1));
        if i < 0 || i >= limit || lo > hi {
            return None;
        }
        let start = i as usize * n;
        Some((&words[start..start + n], lo as u32, hi as u32))
    }

    /// One word per row (or, with `columns`, per column), when each fits in one (maps up to
    /// 64 squares across, or down): bit `x` of word `y` is square (x, y), or (y, x).
    #[inline]
    pub fn single_words(&self, columns: bool) -> Option<&[u64]> {
        match columns {
            false if self.row_words == 1 => Some(&self.rows),
            true if self.col_words == 1 => Some(&self.cols),
            _ => None,
        }
    }

    /// Whether any square of the run (clipped to the map) is in the set.
    #[inline]
    pub fn any(&self, run: Run) -> bool {
        if let Some((i, m)) = self.one_word(run) {
            let words = if matches!(run, Run::Row { .. }) { &self.rows } else { &self.cols };
            return words[i] & m != 0;
        }
        let Some((words, lo, hi)) = self.line(run) else { return false };
        let (wlo, whi) = (lo as usize / 64, hi as usize / 64);
        (wlo..=whi).any(|w| {
            let l = if w == wlo { lo % 64 } else { 0 };
            let h = if w == whi { hi % 64 } else { 63 };
            words[w] & mask(l, h) != 0
        })
    }

    /// The common case of a run on the map within one word (every run, on maps up to 64
    /// squares across): the word's index and the run's mask.
    #[inline]
    fn one_word(&self, run: Run) -> Option<(usize, u64)> {
        let (i, lo, hi, n, len, limit) = match run {
            Run::Row { y, lo, hi } => (y, lo, hi, self.row_words, self.width, self.height),
            Run::Col { x, lo, hi } => (x, lo, hi, self.col_words, self.height, self.width),
        };
        (n == 1 && i >= 0 && i < limit && lo >= 0 && hi < len && lo <= hi)
            .then(|| (i as usize, mask(lo as u32, hi as u32)))
    }

    /// Calls `visit` with each square of the run (clipped to the map) that is in the set,
    /// in increasing order; stops early when `visit` returns `false`, and then returns
    /// `false`.
    #[inline]
    pub fn for_each_in(&self, run: Run, mut visit: impl FnMut(GridPos) -> bool) -> bool {
        let Some((words, lo, hi)) = self.line(run) else { return true };
        let (wlo, whi) = (lo as usize / 64, hi as usize / 64);
        for (w, &word) in words.iter().enumerate().take(whi + 1).skip(wlo) {
            let l = if w == wlo { lo % 64 } else { 0 };
            let h = if w == whi { hi % 64 } else { 63 };
            let mut bits = word & mask(l, h);
            while bits != 0 {
                let i = (w * 64) as i32 + bits.trailing_zeros() as i32;
                bits &= bits - 1;
                let p = match run {
                    Run::Row { y, .. } => GridPos::new(i, y),
                    Run::Col { x, .. } => GridPos::new(x, i),
                };
                if !visit(p) {
                    return false;
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn masks_cover_their_bounds() {
        assert_eq!(mask(0, 0), 1);
        assert_eq!(mask(0, 63), u64::MAX);
        assert_eq!(mask(3, 5), 0b111000);
        assert_eq!(mask(63, 63), 1 << 63);
    }

    #[test]
    fn runs_see_their_squares_only() {
        let g = BitGrid::from_fn(10, 6, |p| p == GridPos::new(4, 2) || p == GridPos::new(7, 5));
        assert!(g.contains(GridPos::new(4, 2)));
        assert!(!g.contains(GridPos::new(4, 3)));
        assert!(!g.contains(GridPos::new(-1, 2)));
        assert!(g.any(Run::Row { y: 2, lo: 0, hi: 4 }));
        assert!(!g.any(Run::Row { y: 2, lo: 5, hi: 9 }));
        assert!(g.any(Run::Col { x: 4, lo: 2, hi: 2 }));
        assert!(!g.any(Run::Col { x: 4, lo: 3, hi: 5 }));
        assert!(!g.any(Run::Row { y: 7, lo: 0, hi: 9 }), "a row off the map is empty");
        let mut seen = vec![];
        g.for_each_in(Run::Col { x: 7, lo: -3, hi: 30 }, |p| {
            seen.push(p);
            true
        });
        assert_eq!(seen, vec![GridPos::new(7, 5)]);
    }

    proptest! {
        // Wide and tall maps span several words per row and column.
        #[test]
        fn runs_agree_with_square_by_square_lookups(
            w in 1i32..150,
            h in 1i32..150,
            seed in any::<u64>(),
            line in 0i32..150,
            a in -5i32..155,
            b in -5i32..155,
            by_row in any::<bool>(),
        ) {
            let hash = |p: GridPos| {
                let v = (p.x as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (p.y as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F) ^ seed;
                v.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 61 == 0
            };
            let g = BitGrid::from_fn(w, h, hash);
            let run = if by_row { Run::Row { y: line, lo: a.min(b), hi: a.max(b) } } else { Run::Col { x: line, lo: a.min(b), hi: a.max(b) } };
            let expected: Vec<GridPos> = run.cells().filter(|&p| p.x >= 0 && p.y >= 0 && p.x < w && p.y < h && hash(p)).collect();
            let mut seen = vec![];
            g.for_each_in(run, |p| { seen.push(p); true });
            prop_assert_eq!(&seen, &expected);
            prop_assert_eq!(g.any(run), !expected.is_empty());
            for p in run.cells() {
                prop_assert_eq!(g.contains(p), p.x >= 0 && p.y >= 0 && p.x < w && p.y < h && hash(p));
            }
        }
    }
}
