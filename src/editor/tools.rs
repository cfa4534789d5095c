//! The editor's tools and mouse gestures. Every gesture becomes `Edit`s on the document:
//! one drag of the brush or eraser is one undo step (a document group); a rectangle or a
//! line is painted on release; a fill, a placed unit, a moved or removed unit is one edit
//! each. The eyedropper picks a square's terrain (and the creature and side of a unit).

use super::clipboard::Clip;
use super::edit::{cells, unit_on};
use super::session::EditorDoc;
use super::{Area, Edit};
use crate::control::plugin::Pointer;
use crate::grid::Terrain;
use crate::level::{Catalogue, LevelDef};
use crate::variants::RulesVariant;
use bevy::prelude::*;

/// What a left click or drag on the board does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Tool {
    #[default]
    Brush,
    Rect,
    RectOutline,
    Line,
    Fill,
    /// The brush with floor.
    Eraser,
    Eyedropper,
    /// Place units with a click, drag them to move.
    Units,
    /// Drag a rectangle to copy, cut or paste over.
    Select,
    /// Put the clip down where clicked.
    Paste,
}

impl Tool {
    pub const ALL: [Tool; 10] = [
        Tool::Brush,
        Tool::Rect,
        Tool::RectOutline,
        Tool::Line,
        Tool::Fill,
        Tool::Eraser,
        Tool::Eyedropper,
        Tool::Units,
        Tool::Select,
        Tool::Paste,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Tool::Brush => "Brush",
            Tool::Rect => "Rectangle",
            Tool::RectOutline => "Outline",
            Tool::Line => "Line",
            Tool::Fill => "Flood fill",
            Tool::Eraser => "Eraser",
            Tool::Eyedropper => "Eyedropper",
            Tool::Units => "Units",
            Tool::Select => "Select",
            Tool::Paste => "Paste",
        }
    }
}

/// The tool in hand and what it paints or places.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct EditorTools {
    pub tool: Tool,
    /// Brush and eraser side: 1, 3 or 5.
    pub brush: i32,
    pub terrain: Terrain,
    /// The creature the unit tool places.
    pub creature: String,
    /// The side it places them on.
    pub side: String,
    /// The selected unit (by id).
    pub selected: Option<String>,
    /// The side the designer plays in a play-test; `None`: AI against AI.
    pub playtest_side: Option<String>,
    /// The variant of a play-test; `None`: the level's own.
    pub playtest_rules: Option<RulesVariant>,
    /// The house rules a play-test is fought under (none: the level's own).
    pub playtest_house_rules: Vec<crate::variants::HouseRule>,
    pub playtest_seed: u64,
    /// The selected rectangle (two corners, inclusive).
    pub selection: Option<((i32, i32), (i32, i32))>,
    /// What was copied or cut.
    pub clip: Option<Clip>,
}

impl Default for EditorTools {
    fn default() -> Self {
        EditorTools {
            tool: Tool::Brush,
            brush: 1,
            terrain: Terrain::Wall,
            creature: "goblin".into(),
            side: "blue".into(),
            selected: None,
            playtest_side: None,
            playtest_rules: None,
            playtest_house_rules: Vec::new(),
            playtest_seed: 1,
            selection: None,
            clip: None,
        }
    }
}

/// A drag in progress.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Gesture {
    pub kind: Option<GestureKind>,
    /// Where the drag began, and where the pointer is now.
    pub start: (i32, i32),
    pub last: (i32, i32),
}

#[derive(Clone, Debug, PartialEq)]
pub enum GestureKind {
    /// Brush or eraser: painting as it goes, one undo step.
    Stroke(Terrain),
    /// Rectangle, outline or line: painted on release.
    Shape(Tool, Terrain),
    /// Dragging a unit.
    MoveUnit(String),
    /// Dragging out a selection.
    Select,
}

impl Gesture {
    /// The squares the gesture would paint if released now (for the preview).
    pub fn preview(&self) -> Vec<(i32, i32)> {
        match &self.kind {
            Some(GestureKind::Shape(tool, _)) => cells(&shape_area(*tool, self.start, self.last)),
            Some(GestureKind::Select) => cells(&Area::Rect { from: self.start, to: self.last }),
            _ => vec![],
        }
    }
}

/// The area a shape tool covers from one corner (or end) to the other.
pub fn shape_area(tool: Tool, from: (i32, i32), to: (i32, i32)) -> Area {
    match tool {
        Tool::RectOutline => Area::RectOutline { from, to },
        Tool::Line => Area::Line { from, to },
        _ => Area::Rect { from, to },
    }
}

/// The squares a brush of side `size` covers when dragged straight from `from` to `to`
/// (every square between, so a fast drag leaves no gaps).
pub fn stroke_cells(from: (i32, i32), to: (i32, i32), size: i32) -> Vec<(i32, i32)> {
    let mut out: Vec<(i32, i32)> =
        cells(&Area::Line { from, to }).into_iter().flat_map(|at| cells(&Area::Brush { at, size })).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Paints `cells`, leaving out squares a wall may not cover (under a unit) rather than
/// refusing the whole stroke. Call inside a group: the fallback is one edit per square.
pub fn paint_lenient(doc: &mut EditorDoc, terrain: Terrain, cells: Vec<(i32, i32)>) {
    let cat = Catalogue::builtin_ref();
    if doc.doc.apply(&Edit::Paint { terrain, area: Area::Cells(cells.clone()) }, cat).is_ok() {
        return;
    }
    let mut skipped = 0;
    for c in cells {
        if doc.doc.apply(&Edit::Paint { terrain, area: Area::Cells(vec![c]) }, cat).is_err() {
            skipped += 1;
        }
    }
    doc.status = Some(format!("{skipped} squares under units left as they were"));
}

/// Applies `edits` as one undo step, skipping those that cannot apply (a unit that would
/// stand on a wall, a wall under a unit) and saying how many were.
pub fn apply_lenient(doc: &mut EditorDoc, edits: Vec<Edit>) {
    let cat = Catalogue::builtin_ref();
    doc.doc.begin_group();
    let mut skipped = 0;
    for e in edits {
        match e {
            Edit::Paint { terrain, area: Area::Cells(list) } => {
                let before = doc.status.take();
                paint_lenient(doc, terrain, list);
                skipped += usize::from(doc.status.is_some());
                doc.status = before;
            }
            e => skipped += usize::from(doc.doc.apply(&e, cat).is_err()),
        }
    }
    doc.doc.end_group();
    doc.status = (skipped > 0).then(|| format!("{skipped} parts did not fit and were left out"));
}

/// The terrain at a square, if on the map.
pub fn terrain_at(level: &LevelDef, (x, y): (i32, i32)) -> Option<Terrain> {
    let row = level.map.rows.get(usize::try_from(y).ok()?)?;
    row.chars().nth(usize::try_from(x).ok()?).and_then(Terrain::from_char)
}

/// Turns the left and right mouse buttons on the board into edits.
pub fn gestures(
    mouse: Res<ButtonInput<MouseButton>>,
    pointer: Res<Pointer>,
    mut doc: ResMut<EditorDoc>,
    mut tools: ResMut<EditorTools>,
    mut g: ResMut<Gesture>,
) {
    let cell = pointer.cell.map(|p| (p.x, p.y));
    let cat = Catalogue::builtin_ref();
    if mouse.just_pressed(MouseButton::Left)
        && !pointer.over_ui
        && let Some(c) = cell
    {
        *g = Gesture { kind: None, start: c, last: c };
        match tools.tool {
            Tool::Brush | Tool::Eraser => {
                let t = if tools.tool == Tool::Eraser { Terrain::Floor } else { tools.terrain };
                doc.status = None;
                doc.doc.begin_group();
                paint_lenient(&mut doc, t, stroke_cells(c, c, tools.brush));
                g.kind = Some(GestureKind::Stroke(t));
            }
            Tool::Rect | Tool::RectOutline | Tool::Line => g.kind = Some(GestureKind::Shape(tools.tool, tools.terrain)),
            Tool::Fill => {
                doc.apply(&Edit::Fill { terrain: tools.terrain, at: c });
            }
            Tool::Eyedropper => {
                if let Some(t) = terrain_at(doc.doc.level(), c) {
                    tools.terrain = t;
                }
                if let Some(u) =
                    unit_on(doc.doc.level(), cat, c).and_then(|id| doc.doc.level().units.iter().find(|u| u.id == id))
                {
                    tools.creature = u.creature.clone();
                    tools.side = u.side.clone();
                }
                tools.tool = Tool::Brush;
            }
            Tool::Select => g.kind = Some(GestureKind::Select),
            Tool::Paste => {
                if let Some(clip) = tools.clip.clone() {
                    apply_lenient(&mut doc, clip.paste_edits(c));
                }
            }
            Tool::Units => match unit_on(doc.doc.level(), cat, c) {
                Some(id) => {
                    tools.selected = Some(id.clone());
                    g.kind = Some(GestureKind::MoveUnit(id));
                }
                None => {
                    let id = tools.creature.clone();
                    let place = Edit::PlaceUnit {
                        id,
                        creature: tools.creature.clone(),
                        side: tools.side.clone(),
                        at: c,
                        weapon: None,
                    };
                    let before = doc.doc.level().units.len();
                    if doc.apply(&place) {
                        doc.status = None;
                        tools.selected = doc.doc.level().units.get(before).map(|u| u.id.clone());
                    }
                }
            },
        }
    }
    if mouse.pressed(MouseButton::Left)
        && let (Some(c), Some(kind)) = (cell, g.kind.clone())
        && c != g.last
    {
        if let GestureKind::Stroke(t) = kind {
            paint_lenient(&mut doc, t, stroke_cells(g.last, c, tools.brush));
        }
        g.last = c;
    }
    // Released (or the release lost outside the window): the gesture ends.
    if !mouse.pressed(MouseButton::Left) && g.kind.is_some() {
        match g.kind.take() {
            Some(GestureKind::Stroke(_)) => doc.doc.end_group(),
            Some(GestureKind::Shape(tool, t)) => {
                doc.status = None;
                doc.doc.begin_group();
                paint_lenient(&mut doc, t, cells(&shape_area(tool, g.start, g.last)));
                doc.doc.end_group();
            }
            Some(GestureKind::Select) => tools.selection = Some((g.start, g.last)),
            Some(GestureKind::MoveUnit(id)) if g.last != g.start => {
                if let Some(u) = doc.doc.level().units.iter().find(|u| u.id == id) {
                    let to = (u.at.0 + g.last.0 - g.start.0, u.at.1 + g.last.1 - g.start.1);
                    if doc.apply(&Edit::MoveUnit { id, to }) {
                        doc.status = None;
                    }
                }
            }
            _ => {}
        }
    }
    if mouse.just_pressed(MouseButton::Right)
        && !pointer.over_ui
        && let Some(c) = cell
        && let Some(id) = unit_on(doc.doc.level(), cat, c)
    {
        doc.apply(&Edit::RemoveUnit { id });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fast_brush_drag_leaves_no_gaps() {
        let c = stroke_cells((0, 0), (4, 0), 1);
        assert_eq!(c, [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]);
        assert_eq!(stroke_cells((2, 2), (2, 2), 3).len(), 9);
        assert_eq!(stroke_cells((2, 2), (3, 2), 3).len(), 12);
    }
}
