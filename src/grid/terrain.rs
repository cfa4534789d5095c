//! Terrain of a map: one character per 5-ft square, stored row-major, with summed-area
//! tables so that "is there any blocker in this box" is answered in constant time.

use super::{BitGrid, GridPos};
use serde::{Deserialize, Serialize};

/// What a square is made of (rules-notes, *Grid and coordinates*).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Terrain {
    /// `.` open floor.
    Floor,
    /// `#` blocks movement, sight and effect.
    Wall,
    /// `~` entering costs double.
    Difficult,
    /// `=` entering costs double; does not block sight; gives cover.
    LowWall,
}

impl Terrain {
    pub const ALL: [Terrain; 4] = [Terrain::Floor, Terrain::Wall, Terrain::Difficult, Terrain::LowWall];

    pub fn from_char(c: char) -> Option<Self> {
        Some(match c {
            '.' => Terrain::Floor,
            '#' => Terrain::Wall,
            '~' => Terrain::Difficult,
            '=' => Terrain::LowWall,
            _ => return None,
        })
    }
    pub const fn to_char(self) -> char {
        match self {
            Terrain::Floor => '.',
            Terrain::Wall => '#',
            Terrain::Difficult => '~',
            Terrain::LowWall => '=',
        }
    }
    pub const fn name(self) -> &'static str {
        match self {
            Terrain::Floor => "floor",
            Terrain::Wall => "wall",
            Terrain::Difficult => "difficult terrain",
            Terrain::LowWall => "low wall",
        }
    }
    /// Creatures can stand here.
    pub const fn passable(self) -> bool {
        !matches!(self, Terrain::Wall)
    }
    /// Entering costs double.
    pub const fn costs_double(self) -> bool {
        matches!(self, Terrain::Difficult | Terrain::LowWall)
    }
}

/// The terrain of a level, `width`×`height` squares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TerrainMap {
    width: i32,
    height: i32,
    cells: Vec<Terrain>,
    /// Summed-area tables, (width+1)×(height+1): walls, and walls or low walls.
    walls_sat: Vec<u32>,
    blockers_sat: Vec<u32>,
    /// Walls and low walls as bit sets, for walking lines a row or column at a time.
    walls: BitGrid,
    low_walls: BitGrid,
    /// Per square, what it does to a line of sight: 0 nothing, 1 low wall, 2 wall.
    sight: Vec<u16>,
    /// A fingerprint of the size and every square (FNV-1a): what tells one map from another
    /// where answers worked out on a map are kept (`rules::recalled`).
    fingerprint: u64,
}

impl TerrainMap {
    /// Builds a map from rows of equal length. Callers validate characters first.
    pub fn new(width: i32, height: i32, cells: Vec<Terrain>) -> Self {
        assert_eq!(cells.len(), (width * height) as usize, "terrain size mismatch");
        let mut map = Self {
            width,
            height,
            cells,
            walls_sat: vec![],
            blockers_sat: vec![],
            walls: BitGrid::default(),
            low_walls: BitGrid::default(),
            sight: vec![],
            fingerprint: 0,
        };
        map.rebuild_tables();
        map
    }

    /// An all-floor map, handy for tests and benches.
    pub fn open(width: i32, height: i32) -> Self {
        Self::new(width, height, vec![Terrain::Floor; (width * height) as usize])
    }

    /// Parses rows of terrain characters; `Err((row, column, char))` on an unknown one.
    pub fn from_rows<S: AsRef<str>>(rows: &[S]) -> Result<Self, (usize, usize, char)> {
        let height = rows.len() as i32;
        let width = rows.first().map_or(0, |r| r.as_ref().chars().count()) as i32;
        let mut cells = Vec::with_capacity((width * height) as usize);
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.as_ref().chars().enumerate() {
                cells.push(Terrain::from_char(c).ok_or((y, x, c))?);
            }
        }
        Ok(Self::new(width, height, cells))
    }

    pub fn to_rows(&self) -> Vec<String> {
        (0..self.height)
            .map(|y| (0..self.width).map(|x| self.cells[(y * self.width + x) as usize].to_char()).collect())
            .collect()
    }

    pub fn width(&self) -> i32 {
        self.width
    }
    pub fn height(&self) -> i32 {
        self.height
    }
    pub fn len(&self) -> usize {
        self.cells.len()
    }
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }
    pub fn in_bounds(&self, p: GridPos) -> bool {
        p.x >= 0 && p.y >= 0 && p.x < self.width && p.y < self.height
    }
    /// Row-major index of an in-bounds cell.
    pub fn index(&self, p: GridPos) -> usize {
        debug_assert!(self.in_bounds(p));
        (p.y * self.width + p.x) as usize
    }
    pub fn pos(&self, index: usize) -> GridPos {
        GridPos::new(index as i32 % self.width, index as i32 / self.width)
    }
    /// The map of the squares of `window` alone, each renumbered from its corner (squares
    /// off this map are walls there too).
    pub fn window(&self, window: super::Window) -> TerrainMap {
        let o = window.origin;
        let cells = (0..window.height)
            .flat_map(|y| (0..window.width).map(move |x| GridPos::new(o.x + x, o.y + y)))
            .map(|p| self.get(p))
            .collect();
        TerrainMap::new(window.width, window.height, cells)
    }
    /// Terrain at `p`; outside the map counts as wall.
    pub fn get(&self, p: GridPos) -> Terrain {
        if self.in_bounds(p) { self.cells[self.index(p)] } else { Terrain::Wall }
    }
    pub fn set(&mut self, p: GridPos, t: Terrain) {
        if self.in_bounds(p) {
            let i = self.index(p);
            self.cells[i] = t;
            self.rebuild_tables();
        }
    }

    /// A fingerprint of the map (its size and every square), the same on any machine.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    fn rebuild_tables(&mut self) {
        let squares =
            [self.width as u32, self.height as u32].into_iter().chain(self.cells.iter().map(|&t| t.to_char() as u32));
        self.fingerprint =
            squares.fold(0xcbf2_9ce4_8422_2325, |h: u64, x| (h ^ u64::from(x)).wrapping_mul(0x0100_0000_01b3));
        let at = |p: GridPos| self.cells[(p.y * self.width + p.x) as usize];
        self.walls = BitGrid::from_fn(self.width, self.height, |p| at(p) == Terrain::Wall);
        self.low_walls = BitGrid::from_fn(self.width, self.height, |p| at(p) == Terrain::LowWall);
        self.sight = self
            .cells
            .iter()
            .map(|t| match t {
                Terrain::Wall => 2,
                Terrain::LowWall => 1,
                _ => 0,
            })
            .collect();
        let (w, h) = (self.width as usize + 1, self.height as usize + 1);
        self.walls_sat = vec![0; w * h];
        self.blockers_sat = vec![0; w * h];
        for y in 0..self.height as usize {
            for x in 0..self.width as usize {
                let t = self.cells[y * self.width as usize + x];
                let wall = u32::from(t == Terrain::Wall);
                let blocker = u32::from(matches!(t, Terrain::Wall | Terrain::LowWall));
                let i = (y + 1) * w + (x + 1);
                self.walls_sat[i] = wall + self.walls_sat[i - 1] + self.walls_sat[i - w] - self.walls_sat[i - w - 1];
                self.blockers_sat[i] =
                    blocker + self.blockers_sat[i - 1] + self.blockers_sat[i - w] - self.blockers_sat[i - w - 1];
            }
        }
    }

    fn sat_sum(&self, sat: &[u32], x0: i32, y0: i32, x1: i32, y1: i32) -> u32 {
        // Inclusive cell box, clamped to the map.
        let x0 = x0.max(0);
        let y0 = y0.max(0);
        let x1 = x1.min(self.width - 1);
        let y1 = y1.min(self.height - 1);
        if x0 > x1 || y0 > y1 {
            return 0;
        }
        let w = self.width as usize + 1;
        let at = |x: i32, y: i32| sat[y as usize * w + x as usize];
        at(x1 + 1, y1 + 1) + at(x0, y0) - at(x0, y1 + 1) - at(x1 + 1, y0)
    }

    /// Whether any wall or low wall lies in the inclusive box of cells.
    pub fn any_blocker_in(&self, min: GridPos, max: GridPos) -> bool {
        self.sat_sum(&self.blockers_sat, min.x, min.y, max.x, max.y) > 0
    }
    /// The walls, as a bit set (off the map, where [`TerrainMap::get`] says wall, it is
    /// empty).
    pub fn walls(&self) -> &BitGrid {
        &self.walls
    }
    /// The low walls, as a bit set.
    pub fn low_walls(&self) -> &BitGrid {
        &self.low_walls
    }
    /// What each square does to a line of sight, row-major: 0 nothing, 1 low wall, 2 wall.
    pub fn sight_codes(&self) -> &[u16] {
        &self.sight
    }
    /// Whether any wall lies in the inclusive box of cells.
    pub fn any_wall_in(&self, min: GridPos, max: GridPos) -> bool {
        self.sat_sum(&self.walls_sat, min.x, min.y, max.x, max.y) > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two maps of the same size tell apart by their fingerprints when one square differs,
    /// or when the same squares are laid out in other rows; the same map, the same print.
    #[test]
    fn a_map_is_known_by_its_fingerprint() {
        let map = TerrainMap::from_rows(&["#..", "~=."]).unwrap();
        assert_eq!(map.fingerprint(), TerrainMap::from_rows(&["#..", "~=."]).unwrap().fingerprint());
        let mut changed = map.clone();
        changed.set(GridPos::new(2, 1), Terrain::Wall);
        assert_ne!(map.fingerprint(), changed.fingerprint());
        assert_ne!(map.fingerprint(), TerrainMap::from_rows(&["#.", ".~", "=."]).unwrap().fingerprint());
        let window = map.window(crate::grid::Window { origin: GridPos::new(0, 0), width: 3, height: 2 });
        assert_eq!(window.fingerprint(), map.fingerprint(), "the whole map as a window is the map");
    }

    #[test]
    fn parses_and_prints_rows() {
        let rows = ["#..", "~=."];
        let m = TerrainMap::from_rows(&rows).unwrap();
        assert_eq!(m.width(), 3);
        assert_eq!(m.get(GridPos::new(0, 0)), Terrain::Wall);
        assert_eq!(m.get(GridPos::new(1, 1)), Terrain::LowWall);
        assert_eq!(m.get(GridPos::new(9, 9)), Terrain::Wall);
        assert_eq!(m.to_rows(), vec!["#..", "~=."]);
        assert_eq!(TerrainMap::from_rows(&["..x"]), Err((0, 2, 'x')));
    }

    #[test]
    fn box_queries_see_blockers() {
        let m = TerrainMap::from_rows(&["....", ".=..", "...#"]).unwrap();
        assert!(m.any_blocker_in(GridPos::new(0, 0), GridPos::new(1, 1)));
        assert!(!m.any_wall_in(GridPos::new(0, 0), GridPos::new(2, 2)));
        assert!(m.any_wall_in(GridPos::new(2, 2), GridPos::new(5, 5)));
        assert!(!m.any_blocker_in(GridPos::new(2, 0), GridPos::new(3, 1)));
    }

    #[test]
    fn bit_sets_follow_the_terrain_and_its_changes() {
        let mut m = TerrainMap::from_rows(&["#.=", "..#"]).unwrap();
        let walls = |m: &TerrainMap| {
            (0..2).flat_map(|y| (0..3).map(move |x| GridPos::new(x, y))).filter(|&p| m.walls().contains(p)).count()
        };
        assert!(m.walls().contains(GridPos::new(0, 0)) && m.walls().contains(GridPos::new(2, 1)));
        assert!(m.low_walls().contains(GridPos::new(2, 0)) && !m.walls().contains(GridPos::new(2, 0)));
        assert_eq!(walls(&m), 2);
        m.set(GridPos::new(1, 1), Terrain::Wall);
        assert!(m.walls().contains(GridPos::new(1, 1)));
        assert_eq!(walls(&m), 3);
    }
}
