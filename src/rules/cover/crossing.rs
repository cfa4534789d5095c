//! Fast tests of what a line crosses: walls hinted per row, a segment against a cell,
//! and runs of cells walked a column or row at a time.

use super::*;

/// The last few walls that lines between one pair of footprints ran into: the next line,
/// drawn from a neighbouring corner or to one, most likely meets one of them too.
#[derive(Clone, Copy, Debug)]
pub(super) struct WallHints {
    /// Most useful first: the last to block a line.
    pub(super) cells: [GridPos; 4],
    pub(super) len: usize,
    /// How many of the first cells a line may cross that [`WallHints::crossed_by`] has to
    /// try: those added since [`WallHints::crossed4`] tried them all on a choice's lines.
    pub(super) untried: usize,
}

impl WallHints {
    pub(super) fn new() -> Self {
        WallHints { cells: [GridPos::default(); 4], len: 0, untried: usize::MAX }
    }

    /// The same walls, for another survey: none tried yet.
    pub(super) fn carried(self) -> Self {
        WallHints { untried: usize::MAX, ..self }
    }

    pub(super) fn add(&mut self, wall: GridPos) {
        let n = self.cells.len();
        self.cells.copy_within(0..n - 1, 1);
        self.cells[0] = wall;
        self.len = (self.len + 1).min(self.cells.len());
        self.untried = self.untried.saturating_add(1);
    }
    /// Which of the four segments from `from` to `to[k]` (bit k) cross one of the walls (as
    /// [`crate::grid::segment_crosses_cell_at_once`] decides). The lines it leaves are then
    /// known to cross none of the walls so far.
    #[inline]
    pub(super) fn crossed4(&mut self, from: GridPos, to: &[GridPos; 4]) -> u8 {
        self.untried = 0;
        if self.len == 0 {
            return 0;
        }
        let segments = to.map(|t| SegmentTest::new(from, t));
        let mut found = 0u8;
        for i in 0..self.len {
            let c = self.cells[i];
            let mut hit = 0u8;
            for (k, s) in segments.iter().enumerate() {
                hit |= u8::from(s.crosses(c)) << k;
            }
            if hit & !found != 0 {
                found |= hit;
                self.cells[..=i].rotate_right(1);
                if found == 0b1111 {
                    break;
                }
            }
        }
        found
    }

    /// Whether the segment crosses one of the walls (as
    /// [`crate::grid::segment_crosses_cell_at_once`] decides); a wall that does moves to
    /// the front. Only the untried walls are looked at: the segment must be one of the
    /// lines of the last [`WallHints::crossed4`] (if any) that it did not find walled.
    #[inline(always)]
    pub(super) fn crossed_by(&mut self, from: GridPos, to: GridPos) -> bool {
        let s = SegmentTest::new(from, to);
        for i in 0..self.len.min(self.untried) {
            if s.crosses(self.cells[i]) {
                self.cells[..=i].rotate_right(1);
                return true;
            }
        }
        false
    }
}

/// [`crate::grid::segment_crosses_cell_at_once`] for one segment and many squares, with
/// what depends on the segment alone worked out once.
#[derive(Clone, Copy)]
pub(super) struct SegmentTest {
    pub(super) from: GridPos,
    pub(super) dx: i64,
    pub(super) dy: i64,
    /// The squares whose top-left corner lies in `min..max` (both ends' boxes).
    pub(super) min: GridPos,
    pub(super) max: GridPos,
    /// Offsets from a square's top-left corner's side value to its least and greatest over
    /// its four corners.
    pub(super) lo: i64,
    pub(super) hi: i64,
}

impl SegmentTest {
    #[inline(always)]
    pub(super) fn new(from: GridPos, to: GridPos) -> Self {
        let (dx, dy) = (to.x - from.x, to.y - from.y);
        SegmentTest {
            from,
            dx: i64::from(dx),
            dy: i64::from(dy),
            min: GridPos::new(from.x.min(to.x), from.y.min(to.y)),
            max: GridPos::new(from.x.max(to.x), from.y.max(to.y)),
            lo: i64::from(dx.min(0) + (-dy).min(0)),
            hi: i64::from(dx.max(0) + (-dy).max(0)),
        }
    }

    /// Whether the segment crosses square `c`'s interior: it lies in the segment's box
    /// and the line passes strictly between its corners.
    #[inline(always)]
    pub(super) fn crosses(&self, c: GridPos) -> bool {
        let inside = (c.x >= self.min.x) & (c.x < self.max.x) & (c.y >= self.min.y) & (c.y < self.max.y);
        let side = self.dx * i64::from(c.y - self.from.y) - self.dy * i64::from(c.x - self.from.x);
        inside & (side + self.lo < 0) & (side + self.hi > 0)
    }
}

/// Walks the lines of one survey a row (or column) of squares at a time over bit sets:
/// [`classify_line`], faster. A wall anywhere on a run settles the line; only the `marks`
/// (low walls, creatures: a superset of what `classify_cell` may find short of walls) are
/// looked at one by one. `walls` must be exactly the squares `classify_cell` calls walls,
/// and every line must stay on the map.
pub(super) struct RunWalker<'a, F> {
    pub(super) walls: &'a BitGrid,
    pub(super) marks: &'a BitGrid,
    /// The low walls among the marks.
    pub(super) low_walls: &'a BitGrid,
    pub(super) hints: WallHints,
    /// The attacker's and the target's footprints when every square of them is clear to
    /// lines (the usual case: each stands on floor and is ignored): their marks need no look.
    pub(super) quiet: [Option<Footprint>; 2],
    pub(super) classify_cell: F,
}

impl<F: Fn(GridPos) -> Blocker> RunWalker<'_, F> {
    #[inline(always)]
    pub(super) fn classify(&mut self, from: GridPos, to: GridPos) -> Finding {
        if from.x == to.x || from.y == to.y {
            return self.classify_face_line(from, to);
        }
        // Neighbouring lines tend to meet the same walls: try those first.
        if self.hints.crossed_by(from, to) {
            return Finding::both_ways(Blocker::Wall);
        }
        self.walk(from, to)
    }

    /// A line off the grid lines, square by square.
    #[inline(never)]
    pub(super) fn walk(&mut self, from: GridPos, to: GridPos) -> Finding {
        let columns = crossed_runs_are_columns(from, to);
        let (Some(walls), Some(marks), Some(low_walls)) =
            (self.walls.single_words(columns), self.marks.single_words(columns), self.low_walls.single_words(columns))
        else {
            return self.classify_wide(from, to);
        };
        // Maps up to 64 squares: one word a row (or column).
        let cell = |line: i32, i: i32| if columns { GridPos::new(line, i) } else { GridPos::new(i, line) };
        // Walls first: the first settles the line. The marks met on the way are noted (a line
        // meets few, most often none) and looked at only once no wall has turned up.
        let mut met = [(0, 0); 8];
        let mut count = 0;
        for (line, lo, hi) in CrossedSpans::new(from, to) {
            let m = mask(lo as u32, hi as u32);
            let hit = walls[line as usize] & m;
            if hit != 0 {
                self.hints.add(cell(line, hit.trailing_zeros() as i32));
                return Finding::both_ways(Blocker::Wall);
            }
            let bits = marks[line as usize] & m;
            if bits != 0 {
                if let Some(slot) = met.get_mut(count) {
                    *slot = (line, bits);
                }
                count += 1;
            }
        }
        if count <= met.len() {
            self.classify_marks(columns, low_walls, met[..count].iter().copied())
        } else {
            let spans = CrossedSpans::new(from, to)
                .map(|(line, lo, hi)| (line, marks[line as usize] & mask(lo as u32, hi as u32)));
            self.classify_marks(columns, low_walls, spans)
        }
    }

    /// What the marks a line crosses, `bits` of each row (or column) `line`, do to it.
    #[inline]
    pub(super) fn classify_marks(
        &self,
        columns: bool,
        low_walls: &[u64],
        met: impl Iterator<Item = (i32, u64)>,
    ) -> Finding {
        let cell = |line: i32, i: i32| if columns { GridPos::new(line, i) } else { GridPos::new(i, line) };
        let mut worst = Blocker::Clear;
        let mut low_wall_seen = false;
        for (line, mut bits) in met {
            if bits != 0 {
                for f in self.quiet.iter().flatten() {
                    let (first, across) = if columns { (f.origin.x, f.origin.y) } else { (f.origin.y, f.origin.x) };
                    if line >= first && line < first + f.side {
                        bits &= !mask(across as u32, (across + f.side - 1) as u32);
                    }
                }
            }
            low_wall_seen |= low_walls[line as usize] & bits != 0;
            // A low wall already found outranks anything short of a wall.
            while bits != 0 && worst < Blocker::LowWall {
                worst = worst.max((self.classify_cell)(cell(line, bits.trailing_zeros() as i32)));
                bits &= bits - 1;
            }
        }
        Finding { blocker: worst, both_ways: !low_wall_seen }
    }

    /// Maps wider (or taller) than 64 squares.
    pub(super) fn classify_wide(&mut self, from: GridPos, to: GridPos) -> Finding {
        let (walls, marks, hints, classify_cell) = (self.walls, self.marks, &mut self.hints, &self.classify_cell);
        let mut worst = Blocker::Clear;
        for_each_crossed_run(from, to, |run| {
            if walls.any(run) {
                walls.for_each_in(run, |c| {
                    hints.add(c);
                    false
                });
                worst = Blocker::Wall;
                return false;
            }
            if worst < Blocker::LowWall && marks.any(run) {
                marks.for_each_in(run, |c| {
                    worst = worst.max(classify_cell(c));
                    worst < Blocker::LowWall
                });
            }
            true
        });
        // Whether low walls were looked at is not kept track of here.
        Finding { blocker: worst, both_ways: worst == Blocker::Wall }
    }

    /// A line along grid lines: most often nothing solid lies on both sides anywhere.
    #[inline(never)]
    pub(super) fn classify_face_line(&self, from: GridPos, to: GridPos) -> Finding {
        let (columns, line, a, b) =
            if from.y == to.y { (false, from.y, from.x, to.x) } else { (true, from.x, from.y, to.y) };
        let count = if columns { self.walls.width() } else { self.walls.height() };
        if let (Some(walls), Some(marks)) = (self.walls.single_words(columns), self.marks.single_words(columns))
            && a != b
            && line >= 1
            && line < count
        {
            let m = mask(a.min(b) as u32, (a.max(b) - 1) as u32);
            let (l, r) = (line as usize - 1, line as usize);
            if (walls[l] | marks[l]) & (walls[r] | marks[r]) & m == 0 {
                return Finding::both_ways(Blocker::Clear);
            }
            if walls[l] & walls[r] & m != 0 {
                return Finding::both_ways(Blocker::Wall);
            }
            // Only where something solid may lie on both sides, square by square.
            let mut both = (walls[l] | marks[l]) & (walls[r] | marks[r]) & m;
            let cell = |side: usize, i: i32| {
                if columns { GridPos::new(side as i32, i) } else { GridPos::new(i, side as i32) }
            };
            let mut worst = Blocker::Clear;
            while both != 0 {
                let i = both.trailing_zeros() as i32;
                both &= both - 1;
                let (p, q) = ((self.classify_cell)(cell(l, i)), (self.classify_cell)(cell(r, i)));
                if p >= Blocker::LowWall && q >= Blocker::LowWall {
                    worst = worst.max(p.min(q));
                }
            }
            // Low walls may have counted one way and not the other.
            return Finding { blocker: worst, both_ways: false };
        }
        Finding::one_way(classify_line(from, to, &self.classify_cell))
    }
}
