//! The edit vocabulary and the document it changes: every change to a level being edited
//! is an `Edit` applied to a `Document`, which keeps an unlimited undo history (each step
//! the level as it was before it) and mirrors painting under its symmetry (the unit edits,
//! mirrored too, are `units`').
//! Tools, scripts (`fivefoot edit --apply`) and tests all speak this one vocabulary. Every
//! state of the level carries a revision number, so the editor's caches and its
//! unsaved-changes mark ask "which revision?" instead of comparing whole levels.

use super::units;
use crate::grid::{Footprint, GridPos, Shape, Terrain};
use crate::level::{Catalogue, DeathSaves, GenerateSpec, LevelDef, MapDef, SideDef, UnitDef};
use crate::variants::RulesVariant;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU64, Ordering};

/// The largest map the editor makes: 64 × 64 squares.
pub const MAX_SIDE: i32 = 64;

/// Squares an edit covers; `to` is inclusive.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Area {
    Rect {
        from: (i32, i32),
        to: (i32, i32),
    },
    RectOutline {
        from: (i32, i32),
        to: (i32, i32),
    },
    Line {
        from: (i32, i32),
        to: (i32, i32),
    },
    /// A square brush of side 1, 3 or 5 centred on `at`.
    Brush {
        at: (i32, i32),
        size: i32,
    },
    Cells(Vec<(i32, i32)>),
}

/// Which part of the old map a resize keeps in place.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Anchor {
    #[default]
    TopLeft,
    Top,
    TopRight,
    Left,
    Centre,
    Right,
    BottomLeft,
    Bottom,
    BottomRight,
}

/// Mirroring while painting and placing, so fair two-sided maps take one stroke (the
/// generator's symmetry).
pub use crate::level::generate::Symmetry;

/// One change to the level, as a tool or a script asks for it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Edit {
    Resize {
        width: i32,
        height: i32,
        anchor: Anchor,
    },
    Paint {
        terrain: Terrain,
        area: Area,
    },
    /// Flood fill of the connected region of `at`'s terrain.
    Fill {
        terrain: Terrain,
        at: (i32, i32),
    },
    PlaceUnit {
        id: String,
        creature: String,
        side: String,
        at: (i32, i32),
        #[serde(default)]
        weapon: Option<String>,
    },
    MoveUnit {
        id: String,
        to: (i32, i32),
    },
    RemoveUnit {
        id: String,
    },
    /// Changes a placed unit's creature, side and weapon (`None`: the creature's own).
    ChangeUnit {
        id: String,
        creature: String,
        side: String,
        #[serde(default)]
        weapon: Option<String>,
    },
    /// Gives a unit a new id, which no other unit may have.
    RenameUnit {
        id: String,
        to: String,
    },
    /// Renames a side: every unit on it goes over to the new name.
    RenameSide {
        from: String,
        to: String,
    },
    /// How a side is shown and whether a person plays it by default; a side given neither
    /// leaves the level's list of sides.
    SetSide(SideDef),
    /// Replaces the whole level with a generated one, as one undo step; the document's
    /// symmetry becomes the generator's (`editor::generate`).
    Generate(GenerateSpec),
    SetSymmetry(Symmetry),
    SetName(String),
    SetRules(RulesVariant),
    /// d20-classic death saves for the scenario (`None`: the default).
    SetDeathSaves(Option<DeathSaves>),
    /// The house rules the level is played under (each where it applies to the variant).
    SetHouseRules(Vec<crate::variants::HouseRule>),
    Undo,
    Redo,
}

impl Edit {
    /// Placing a `creature` for `side` at `at`, with its own weapon.
    pub fn place(id: &str, creature: &str, side: &str, at: (i32, i32)) -> Edit {
        Edit::PlaceUnit { id: id.into(), creature: creature.into(), side: side.into(), at, weapon: None }
    }
}

/// A level being edited, with its history.
#[derive(Clone, Debug)]
pub struct Document {
    /// The level as it stands; changed only through [`Document::apply`] (and undo, redo),
    /// so that every change takes a new [`Document::revision`].
    level: LevelDef,
    /// Names this state of `level` (see [`Document::revision`]).
    revision: u64,
    undo: Vec<Step>,
    redo: Vec<Step>,
    /// An open gesture (one drag of the brush): `Some(true)` once its first change has
    /// pushed the undo step the whole gesture shares.
    group: Option<bool>,
}

/// One step of the history: the level (its symmetry with it) and the level's revision.
type Step = (LevelDef, u64);

/// Documents are equal when their levels and histories are: revision numbers only name
/// states, they are not part of them.
impl PartialEq for Document {
    fn eq(&self, other: &Document) -> bool {
        let same_steps = |a: &[Step], b: &[Step]| a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.0 == y.0);
        (&self.level, self.group) == (&other.level, other.group)
            && same_steps(&self.undo, &other.undo)
            && same_steps(&self.redo, &other.redo)
    }
}

/// The next revision number, never handed out before in this process (by any document).
fn new_revision() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

impl Document {
    pub fn new(level: LevelDef) -> Document {
        Document { level, revision: new_revision(), undo: vec![], redo: vec![], group: None }
    }

    /// The symmetry painting and placing follow: the level's own.
    pub fn symmetry(&self) -> Symmetry {
        self.level.symmetry
    }

    /// Names the level as it stands: it changes with every change to the level (an edit,
    /// an undo, a redo, a generated map, a new symmetry) and with nothing else. Numbers are never reused, in any document, except that undo and redo
    /// give a level back its own: equal revisions mean equal levels, so a cache may keep
    /// its work while the revision stays what it was.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// The level as it stands.
    pub fn level(&self) -> &LevelDef {
        &self.level
    }

    /// The level, the document given up.
    pub fn into_level(self) -> LevelDef {
        self.level
    }

    /// A blank map of floor, `width` × `height` (hex-phases lays it out as hexes).
    pub fn blank(width: i32, height: i32, hex: bool) -> Result<Document, String> {
        check_size(width, height)?;
        let rows = vec![".".repeat(width as usize); height as usize];
        let rules = if hex { RulesVariant::on_hexes() } else { RulesVariant::default() };
        let level = LevelDef {
            version: Some(crate::level::LEVEL_VERSION),
            name: "New level".into(),
            rules,
            map: MapDef { rows },
            units: vec![],
            death_saves: None,
            house_rules: vec![],
            sides: vec![],
            symmetry: Symmetry::None,
        };
        Ok(Document::new(level))
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Steps that can be undone.
    pub fn undo_depth(&self) -> usize {
        self.undo.len()
    }

    /// Opens a gesture: every edit applied until [`Document::end_group`] makes one undo step
    /// together (one drag of the brush undoes at once). A gesture with no change makes none.
    pub fn begin_group(&mut self) {
        self.group = Some(false);
    }

    /// Closes the open gesture, if any.
    pub fn end_group(&mut self) {
        self.group = None;
    }

    /// Whether a gesture is open.
    pub fn in_group(&self) -> bool {
        self.group.is_some()
    }

    /// Applies one edit as one undo step. An edit that cannot apply changes nothing and
    /// says why.
    pub fn apply(&mut self, edit: &Edit, catalogue: &Catalogue) -> Result<(), String> {
        match edit {
            Edit::Undo | Edit::Redo => {
                self.end_group();
                return if *edit == Edit::Undo { self.step_back() } else { self.step_forward() };
            }
            _ => {}
        }
        let before = (self.level.clone(), self.revision);
        let mut next = self.level.clone();
        match edit {
            Edit::SetSymmetry(s) => next.symmetry = *s,
            Edit::SetName(name) => next.name = name.clone(),
            Edit::SetRules(v) => next.rules = *v,
            Edit::SetDeathSaves(d) => next.death_saves = *d,
            Edit::SetHouseRules(rules) => {
                next.house_rules = rules.clone();
                next.house_rules.sort();
                next.house_rules.dedup();
            }
            Edit::Generate(spec) => {
                next = super::generate::generated(&self.level, spec, catalogue)?;
            }
            _ => apply_to(&mut next, self.symmetry(), edit, catalogue)?,
        }
        if next == self.level {
            return Ok(()); // nothing changed: no empty undo step
        }
        self.level = next;
        self.revision = new_revision();
        // Inside a gesture only its first change pushes a step: the state before it.
        if self.group != Some(true) {
            self.undo.push(before);
        }
        if self.group.is_some() {
            self.group = Some(true);
        }
        self.redo.clear();
        Ok(())
    }

    fn step_back(&mut self) -> Result<(), String> {
        let step = self.undo.pop().ok_or("nothing to undo")?;
        let now = self.take_step(step);
        self.redo.push(now);
        Ok(())
    }

    fn step_forward(&mut self) -> Result<(), String> {
        let step = self.redo.pop().ok_or("nothing to redo")?;
        let now = self.take_step(step);
        self.undo.push(now);
        Ok(())
    }

    /// Puts a step of the history in place, level and revision together, and returns the
    /// state it replaced.
    fn take_step(&mut self, (level, revision): Step) -> Step {
        (std::mem::replace(&mut self.level, level), std::mem::replace(&mut self.revision, revision))
    }
}

fn check_size(width: i32, height: i32) -> Result<(), String> {
    if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) {
        return Err(format!("a map is 1 to {MAX_SIDE} squares each way, not {width}×{height}"));
    }
    Ok(())
}

/// An area whose corners lie within a map's width of any map: anything further is a
/// mistake (or a hostile file), and would take ages to walk square by square.
fn check_area(area: &Area) -> Result<(), String> {
    let near = |(x, y): (i32, i32)| (-MAX_SIDE..=2 * MAX_SIDE).contains(&x) && (-MAX_SIDE..=2 * MAX_SIDE).contains(&y);
    let corners: Vec<(i32, i32)> = match area {
        Area::Rect { from, to } | Area::RectOutline { from, to } | Area::Line { from, to } => vec![*from, *to],
        Area::Brush { at, .. } => vec![*at],
        Area::Cells(_) => vec![],
    };
    match corners.into_iter().find(|&c| !near(c)) {
        Some((x, y)) => Err(format!("({x}, {y}) is far off any map (squares run from 0 to {})", MAX_SIDE - 1)),
        None => Ok(()),
    }
}

/// The map as a grid of terrain, row by row.
fn grid(level: &LevelDef) -> Vec<Vec<Terrain>> {
    let cell = |c: char| Terrain::from_char(c).unwrap_or(Terrain::Floor);
    level.map.rows.iter().map(|r| r.chars().map(cell).collect()).collect()
}

fn store(level: &mut LevelDef, g: &[Vec<Terrain>]) {
    level.map.rows = g.iter().map(|r| r.iter().map(|t| t.to_char()).collect()).collect();
}

/// The squares of `area`, in order, inside or outside the map.
pub fn cells(area: &Area) -> Vec<(i32, i32)> {
    let span = |a: i32, b: i32| a.min(b)..=a.max(b);
    match area {
        Area::Rect { from, to } => span(from.1, to.1).flat_map(|y| span(from.0, to.0).map(move |x| (x, y))).collect(),
        Area::RectOutline { from, to } => cells(&Area::Rect { from: *from, to: *to })
            .into_iter()
            .filter(|&(x, y)| x == from.0 || x == to.0 || y == from.1 || y == to.1)
            .collect(),
        Area::Line { from, to } => {
            let (a, b) = (GridPos::new(from.0, from.1), GridPos::new(to.0, to.1));
            std::iter::once(a).chain(crate::grid::straight_line(a, b)).map(|p| (p.x, p.y)).collect()
        }
        Area::Brush { at, size } => {
            let r = ((*size).clamp(1, 5) - 1) / 2;
            cells(&Area::Rect { from: (at.0 - r, at.1 - r), to: (at.0 + r, at.1 + r) })
        }
        Area::Cells(list) => list.clone(),
    }
}

/// The top-left square of a `side` × `side` footprint at `at` (a square, when `side` is 1)
/// and of its mirror image on a map of `(w, h, shape)`, where it has one.
pub fn mirrored(at: (i32, i32), side: i32, symmetry: Symmetry, map: (i32, i32, Shape)) -> Vec<(i32, i32)> {
    // Under no symmetry a footprint is its own image (or has none, off the map).
    let mut v = vec![at];
    v.extend(symmetry.mirror_footprint(at, side, map.0, map.1, map.2));
    v.dedup();
    v
}

fn apply_to(level: &mut LevelDef, symmetry: Symmetry, edit: &Edit, catalogue: &Catalogue) -> Result<(), String> {
    let mut g = grid(level);
    let (h, w) = (g.len() as i32, g.first().map_or(0, |r| r.len()) as i32);
    let inside = |(x, y): (i32, i32)| x >= 0 && y >= 0 && x < w && y < h;
    let shape = level.rules.shape();
    match edit {
        Edit::Paint { terrain, area } => {
            check_area(area)?;
            for c in
                cells(area).into_iter().flat_map(|c| mirrored(c, 1, symmetry, (w, h, shape))).filter(|&c| inside(c))
            {
                if *terrain == Terrain::Wall
                    && let Some(u) = unit_on(level, catalogue, c)
                {
                    return Err(format!("unit \"{u}\" stands at ({}, {}): no wall there", c.0, c.1));
                }
                g[c.1 as usize][c.0 as usize] = *terrain;
            }
            store(level, &g);
        }
        Edit::Fill { terrain, at } => {
            if !inside(*at) {
                return Err(format!("({}, {}) is outside the {w}×{h} map", at.0, at.1));
            }
            for start in mirrored(*at, 1, symmetry, (w, h, shape)).into_iter().filter(|&c| inside(c)) {
                let old = g[start.1 as usize][start.0 as usize];
                if old == *terrain {
                    continue;
                }
                let mut todo = vec![start];
                while let Some((x, y)) = todo.pop() {
                    if !inside((x, y)) || g[y as usize][x as usize] != old {
                        continue;
                    }
                    if *terrain == Terrain::Wall
                        && let Some(u) = unit_on(level, catalogue, (x, y))
                    {
                        return Err(format!("unit \"{u}\" stands at ({x}, {y}): no wall there"));
                    }
                    g[y as usize][x as usize] = *terrain;
                    // Four ways on squares; on hexes, to the six neighbours.
                    let ways = match shape {
                        Shape::Square => &[(1, 0), (-1, 0), (0, 1), (0, -1)],
                        Shape::Hex => crate::grid::neighbour_offsets(shape, GridPos::new(x, y)),
                    };
                    todo.extend(ways.iter().map(|(dx, dy)| (x + dx, y + dy)));
                }
            }
            store(level, &g);
        }
        Edit::PlaceUnit { .. } | Edit::MoveUnit { .. } | Edit::RemoveUnit { .. } | Edit::ChangeUnit { .. } => {
            units::apply(level, &units::Board { grid: &g, w, h, shape, symmetry }, edit, catalogue)?;
        }
        Edit::RenameUnit { id, to } => {
            let i = level.units.iter().position(|u| &u.id == id).ok_or_else(|| format!("no unit \"{id}\""))?;
            if to.trim().is_empty() {
                return Err("a unit needs a non-empty id".into());
            }
            if level.units.iter().enumerate().any(|(j, u)| j != i && &u.id == to) {
                return Err(format!("another unit is already called \"{to}\""));
            }
            level.units[i].id = to.clone();
        }
        Edit::RenameSide { from, to } => {
            if to.trim().is_empty() {
                return Err("a side needs a name".into());
            }
            if !level.units.iter().any(|u| &u.side == from) {
                return Err(format!("no unit is on side \"{from}\""));
            }
            for u in level.units.iter_mut().filter(|u| &u.side == from) {
                u.side = to.clone();
            }
            level.sides.retain(|s| &s.name != to);
            for s in level.sides.iter_mut().filter(|s| &s.name == from) {
                s.name = to.clone();
            }
        }
        Edit::SetSide(side) => {
            if side.name.trim().is_empty() {
                return Err("a side needs a name".into());
            }
            let at = level.sides.iter().position(|s| s.name == side.name);
            match (at, side.colour.is_none() && !side.person) {
                (Some(i), true) => {
                    level.sides.remove(i);
                }
                (Some(i), false) => level.sides[i] = side.clone(),
                (None, true) => {}
                (None, false) => level.sides.push(side.clone()),
            }
        }
        Edit::Resize { width, height, anchor } => {
            check_size(*width, *height)?;
            let (dx, dy) = anchor_shift(*anchor, w, h, *width, *height);
            let mut fresh = vec![vec![Terrain::Floor; *width as usize]; *height as usize];
            for (y, row) in g.iter().enumerate() {
                for (x, &t) in row.iter().enumerate() {
                    let (nx, ny) = (x as i32 + dx, y as i32 + dy);
                    if nx >= 0 && ny >= 0 && nx < *width && ny < *height {
                        fresh[ny as usize][nx as usize] = t;
                    }
                }
            }
            let mut fell_off = vec![];
            for u in &mut level.units {
                u.at = (u.at.0 + dx, u.at.1 + dy);
                let side = size_of(u, catalogue).side();
                if u.at.0 < 0 || u.at.1 < 0 || u.at.0 + side > *width || u.at.1 + side > *height {
                    fell_off.push(u.id.clone());
                }
            }
            if !fell_off.is_empty() {
                return Err(format!("these units would fall off the map: {}", fell_off.join(", ")));
            }
            store(level, &fresh);
        }
        Edit::SetSymmetry(_)
        | Edit::Generate(_)
        | Edit::SetName(_)
        | Edit::SetRules(_)
        | Edit::SetDeathSaves(_)
        | Edit::SetHouseRules(_)
        | Edit::Undo
        | Edit::Redo => {}
    }
    Ok(())
}

/// How far the old map moves inside the new one for an anchor.
fn anchor_shift(anchor: Anchor, w: i32, h: i32, nw: i32, nh: i32) -> (i32, i32) {
    use Anchor::*;
    let x = match anchor {
        TopLeft | Left | BottomLeft => 0,
        Top | Centre | Bottom => (nw - w) / 2,
        TopRight | Right | BottomRight => nw - w,
    };
    let y = match anchor {
        TopLeft | Top | TopRight => 0,
        Left | Centre | Right => (nh - h) / 2,
        BottomLeft | Bottom | BottomRight => nh - h,
    };
    (x, y)
}

/// A unit's size as placed: its override or its creature's.
pub fn size_of(u: &UnitDef, catalogue: &Catalogue) -> crate::grid::Size {
    u.size.unwrap_or_else(|| catalogue.creature(&u.creature).map_or(crate::grid::Size::Medium, |c| c.size))
}

/// The id of the unit whose footprint covers the square, if any.
pub fn unit_on(level: &LevelDef, catalogue: &Catalogue, (x, y): (i32, i32)) -> Option<String> {
    level
        .units
        .iter()
        .find(|u| Footprint::new(u.pos(), size_of(u, catalogue).side()).contains(GridPos::new(x, y)))
        .map(|u| u.id.clone())
}
