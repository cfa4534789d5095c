//! What the editor's rules layers show, worked out (pure: a battle set up from the level
//! in, an `EditorPreview` out) with play's own functions. Threat and Reach are play's
//! enemy-threat layer and hovered-unit threat (`overlay::compute_preview`). The other three
//! are about one unit, the subject: the unit under the pointer, else the selected one.
//! - Cover: a line from the subject to every foe, coloured by the cover that foe has
//!   against it (`rules::cover_at`). With a unit selected and the pointer on a square it
//!   could stand on, the lines start there instead: cover from the hovered square.
//! - Flanking: every place the subject could stand to flank one of its foes together with
//!   an ally already threatening that foe (`rules::flanking_squares`), by the variant's
//!   flanking rule. Squares to go to, rather than pairs already flanking: what a designer
//!   placing units asks.
//! - Movement: the subject's range with one move action (`rules::movement_range`), the
//!   squares whose cheapest path provokes, and the squares in range where leaving
//!   provokes an attack of opportunity; with a unit selected, the path to the hovered
//!   square and who strikes where along it (`MoveRange::plan_to`).
//!
//! What depends on the subject alone, not on the pointer (its flanking places, its range
//! and where leaving provokes), is kept in a `SubjectWork` between calls on one battle, so
//! moving the pointer over empty squares with a unit selected does not work it out again.

use crate::combat::{BattleWorld, Command};
use crate::control::plugin::Selection;
use crate::grid::{Footprint, GridPos};
use crate::overlay::{Layers, PathPreview, Preview, compute_preview};
use crate::rules::{self, AttackReach, CoverKind, MoveMode, MoveRange};

/// Which rules layers the editor shows.
#[derive(bevy::prelude::Resource, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct EditorLayers {
    /// Every square the placed units threaten, shaded by how many threaten it.
    pub threat: bool,
    /// The squares the unit under the pointer threatens (its reach).
    pub reach: bool,
    /// Lines from the subject (or the hovered square) to every foe, coloured by cover.
    pub cover: bool,
    /// Where the subject would flank a foe.
    pub flanking: bool,
    /// The subject's movement range and the attacks of opportunity moving provokes.
    pub movement: bool,
}

impl EditorLayers {
    /// Every layer on (`--all-layers`).
    pub const ALL: EditorLayers =
        EditorLayers { threat: true, reach: true, cover: true, flanking: true, movement: true };

    /// Whether any layer is on.
    pub fn any(self) -> bool {
        self != EditorLayers::default()
    }

    /// Whether a layer that follows the pointer is on.
    pub fn follow_pointer(self) -> bool {
        self.reach || self.cover || self.flanking || self.movement
    }
}

/// One cover line: from where the subject stands (or would), to a foe.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CoverLine {
    pub from: Footprint,
    pub foe: usize,
    pub to: Footprint,
    pub cover: CoverKind,
}

/// Everything the editor's rules layers show.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EditorPreview {
    /// Play's layers: threat, the hovered unit's reach, the movement range and the path.
    pub play: Preview,
    /// The unit the cover, flanking and movement layers are about.
    pub subject: Option<usize>,
    pub cover: Vec<CoverLine>,
    /// Places (footprint top-left) where the subject would flank a foe, and that foe.
    pub flanking: Vec<(GridPos, usize)>,
    /// The subject's footprint side, to paint flanking places whole.
    pub subject_side: i32,
    /// Squares in the subject's range (its own included) where leaving provokes.
    pub leaving_provokes: Vec<GridPos>,
}

/// The parts of the layers about one unit that depend on that unit alone, worked out once
/// for it and kept while the battle and the subject stay the same. Make a new one (or
/// `clear` it) for another battle.
#[derive(Default)]
pub struct SubjectWork {
    subject: Option<usize>,
    flanking: Option<Vec<(GridPos, usize)>>,
    movement: Option<Movement>,
}

/// The subject's range with one move action, as the movement layer paints it.
struct Movement {
    range: MoveRange,
    /// Every square in range, and whether the way there provokes.
    squares: Vec<(GridPos, bool)>,
    leaving_provokes: Vec<GridPos>,
}

impl SubjectWork {
    /// Forgets everything (the battle changed).
    pub fn clear(&mut self) {
        *self = SubjectWork::default();
    }
}

/// The rules layers of a level set up as a battle, with the pointer on `hover` and the
/// unit `selected` (by id) selected.
pub fn editor_preview(
    battle: &BattleWorld,
    layers: EditorLayers,
    hover: Option<GridPos>,
    selected: Option<&str>,
) -> EditorPreview {
    editor_preview_kept(battle, layers, hover, selected, &mut SubjectWork::default())
}

/// [`editor_preview`], reusing (and keeping in `work`) what depends on the subject alone.
/// `work` must have been used with this battle only.
pub fn editor_preview_kept(
    battle: &BattleWorld,
    layers: EditorLayers,
    hover: Option<GridPos>,
    selected: Option<&str>,
    work: &mut SubjectWork,
) -> EditorPreview {
    // Nobody is the player: every unit's threat counts, and no unit is acting.
    let play = Layers { enemy_threat: layers.threat, range: false, lines: false };
    let mut out = EditorPreview { play: compute_preview(battle, &[], &Selection::default(), hover, play), ..default() };
    let hovered = out.play.hovered_unit;
    if !layers.reach {
        out.play.hovered_threat.clear();
    }
    let selected = selected.and_then(|id| battle.index_of(id));
    let Some(subject) = hovered.or(selected) else { return out };
    out.subject = Some(subject);
    if work.subject != Some(subject) {
        *work = SubjectWork { subject: Some(subject), ..SubjectWork::default() };
    }
    let read = battle.read();
    let view = read.view();
    let me = view.roster.get(subject);
    out.subject_side = me.footprint.side;
    // The hovered square, when the selected unit could stand there.
    let stand = hover
        .filter(|_| hovered.is_none())
        .map(|h| Footprint::new(h, me.footprint.side))
        .filter(|&fp| view.can_stand(subject, fp));
    if layers.cover {
        let from = stand.unwrap_or(me.footprint);
        for foe in rules::roster::indices(view.roster.foes_of(subject)) {
            let to = view.roster.get(foe).footprint;
            let reach = if me.ranged { AttackReach::Ranged } else { AttackReach::melee(view.field.variant, from, to) };
            let c = rules::cover::cover_at(view.field, view.occupancy, (subject, from), (foe, to), reach, false);
            out.cover.push(CoverLine { from, foe, to, cover: c.cover });
        }
    }
    if layers.flanking {
        out.flanking = work.flanking.get_or_insert_with(|| rules::flanking_squares(&view, subject)).clone();
    }
    if layers.movement {
        let moves = work.movement.get_or_insert_with(|| {
            let range = rules::movement_range(
                &view,
                subject,
                MoveMode::Move,
                rules::allowance_ft(&view, subject, MoveMode::Move),
            );
            let dest = range.destinations(&view);
            let foes = view.roster.foes_of(subject);
            let side = me.footprint.side;
            let provokes_leaving = |p: GridPos| {
                let fp = Footprint::new(p, side);
                rules::roster::indices(view.threat.threateners_of(fp) & foes)
                    .any(|foe| rules::movement::can_strike_at(&view, foe, subject, fp))
            };
            let leaving_provokes = std::iter::once(me.footprint.origin)
                .chain(dest.iter().map(|d| d.0))
                .filter(|&p| provokes_leaving(p))
                .collect();
            let squares = dest.into_iter().map(|(p, _, n)| (p, n > 0)).collect();
            Movement { range, squares, leaving_provokes }
        });
        out.leaving_provokes = moves.leaving_provokes.clone();
        out.play.range = moves.squares.clone();
        let range = &moves.range;
        if let Some(to) = stand.map(|fp| fp.origin).filter(|_| hovered.is_none() && selected.is_some())
            && let Ok(plan) = range.plan_to(&view, to)
            && !plan.squares.is_empty()
        {
            out.play.path = Some(PathPreview {
                command: Command::Move { to },
                squares: plan.squares,
                cost_ft: plan.cost_ft,
                provokes: plan.provokes.iter().map(|p| (p.from, view.roster.get(p.by).id.clone())).collect(),
            });
        }
    }
    out
}

/// The toggles of the layers about one unit, for the editor's top bar.
pub fn layer_toggles(ui: &mut bevy_egui::egui::Ui, layers: &mut EditorLayers) {
    ui.toggle_value(&mut layers.cover, "Cover").on_hover_text(
        "lines from the unit under the pointer (or the selected one, or where the pointer is) to every foe, by cover",
    );
    ui.toggle_value(&mut layers.flanking, "Flanking")
        .on_hover_text("where the unit under the pointer (or the selected one) would flank a foe with an ally");
    ui.toggle_value(&mut layers.movement, "Movement").on_hover_text(
        "where the unit under the pointer (or the selected one) can move; amber: the way there provokes; crimson: leaving provokes",
    );
}

fn default<T: Default>() -> T {
    T::default()
}
