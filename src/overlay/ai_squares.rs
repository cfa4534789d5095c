//! The AI's debug overlay: the candidates the AI weighed for the command it just played,
//! each on the cell it goes to or strikes at, coloured from red (its worst) to green (its
//! best), with its score; the chosen one ringed in white. The side panel lists the same
//! lines by name (`hud`). Shown while the top bar's "AI squares" toggle is on.

use crate::combat::ai::ScoredSquare;
use crate::combat::plugin::BattleRes;
use crate::game::Screen;
use crate::view::art::CellMasks;
use crate::view::layout::BoardLayout;
use bevy::prelude::*;

/// Whether the overlay is shown.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShowAiSquares(pub bool);

/// A mark of the overlay.
#[derive(Component)]
struct AiSquareMark;

pub struct AiSquaresPlugin;

impl Plugin for AiSquaresPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<ShowAiSquares>().init_resource::<CellMasks>().add_systems(
            Update,
            draw_ai_squares
                .after(crate::rules::RulesSet::Derive)
                .run_if(in_state(Screen::Skirmish).and_then(resource_exists::<BoardLayout>)),
        );
    }
}

/// The colour of a score between the worst and the best of a decision.
pub fn score_colour(score: f64, worst: f64, best: f64) -> Color {
    let t = if best > worst { ((score - worst) / (best - worst)) as f32 } else { 1.0 };
    Color::srgba(0.9 * (1.0 - t) + 0.15 * t, 0.25 * (1.0 - t) + 0.8 * t, 0.2, 0.55)
}

/// Redraws the marks when the AI plays a command or the toggle changes.
fn draw_ai_squares(
    mut commands: Commands,
    show: Res<ShowAiSquares>,
    res: Option<Res<BattleRes>>,
    layout: Res<BoardLayout>,
    old: Query<Entity, With<AiSquareMark>>,
    mut images: ResMut<Assets<Image>>,
    mut masks: ResMut<CellMasks>,
) {
    let Some(res) = res else { return };
    if !show.is_changed() && !res.is_changed() {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    let scored = &res.ai_squares;
    if !show.0 || scored.is_empty() {
        return;
    }
    // The board's own cell shape (a hex on a hex map).
    let mask = masks.get(&mut images, layout.shape, layout.tile, layout.tile_height());
    let worst = scored.iter().map(|s| s.score).fold(f64::MAX, f64::min);
    let best = scored.iter().map(|s| s.score).fold(f64::MIN, f64::max);
    let size = Vec2::new(layout.tile, layout.tile_height());
    let cell =
        |colour: Color, size: Vec2| Sprite { image: mask.clone(), custom_size: Some(size), color: colour, ..default() };
    for (square, here) in per_square(scored) {
        let top = here.iter().copied().max_by(|a, b| a.score.total_cmp(&b.score)).expect("one at least");
        let at = layout.world(square);
        if here.iter().any(|s| s.chosen) {
            commands.spawn((
                AiSquareMark,
                DespawnOnExit(Screen::Skirmish),
                cell(Color::srgba(1.0, 1.0, 1.0, 0.95), size),
                Transform::from_translation(at.extend(3.9)),
            ));
        }
        commands.spawn((
            AiSquareMark,
            DespawnOnExit(Screen::Skirmish),
            cell(score_colour(top.score, worst, best), size * 0.8),
            Transform::from_translation(at.extend(4.0)),
        ));
        // The score on a dark plate, above the tokens: a unit that holds its own square (or
        // a large one standing over it) would otherwise hide or garble it.
        let label = square_label(&here);
        let foot = at - Vec2::new(0.0, layout.tile_height() * 0.3);
        let plate = Vec2::new(label.chars().count() as f32 * LABEL_SIZE * 0.62 + 4.0, LABEL_SIZE + 3.0);
        commands.spawn((
            AiSquareMark,
            DespawnOnExit(Screen::Skirmish),
            Sprite::from_color(Color::srgba(0.05, 0.05, 0.08, 0.8), plate),
            Transform::from_translation(foot.extend(29.9)),
        ));
        commands.spawn((
            AiSquareMark,
            DespawnOnExit(Screen::Skirmish),
            Text2d::new(label),
            TextFont::from_font_size(LABEL_SIZE),
            TextColor(Color::WHITE),
            Transform::from_translation(foot.extend(30.0)),
        ));
    }
}

/// The size of a square's score.
const LABEL_SIZE: f32 = 11.0;

/// The candidates by square, in the order first met.
fn per_square(scored: &[ScoredSquare]) -> Vec<(crate::grid::GridPos, Vec<&ScoredSquare>)> {
    let mut found: Vec<(crate::grid::GridPos, Vec<&ScoredSquare>)> = Vec::new();
    for s in scored {
        match found.iter_mut().find(|(p, _)| *p == s.square) {
            Some((_, all)) => all.push(s),
            None => found.push((s.square, vec![s])),
        }
    }
    found
}

/// What a square says: the best score of the lines that end there, and how many there
/// are if more than one (the lines by name are listed in the side panel), so that a
/// label stays within its square.
fn square_label(here: &[&ScoredSquare]) -> String {
    let best = here.iter().map(|s| s.score).fold(f64::MIN, f64::max);
    match here.len() {
        1 => format!("{best:+.2}"),
        n => format!("{best:+.2} ({n})"),
    }
}

#[cfg(test)]
mod tests {
    use super::{ScoredSquare, per_square, square_label};
    use crate::grid::GridPos;

    #[test]
    fn a_square_shows_its_best_score_and_how_many_lines_end_there() {
        let line = |x, score| ScoredSquare { square: GridPos::new(x, 0), line: "l".into(), score, chosen: false };
        let scored = [line(1, 0.5), line(2, -0.25), line(1, 0.75)];
        let squares = per_square(&scored);
        assert_eq!(squares.len(), 2);
        assert_eq!(square_label(&squares[0].1), "+0.75 (2)");
        assert_eq!(square_label(&squares[1].1), "-0.25");
    }
}
