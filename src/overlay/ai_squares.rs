//! The AI's debug overlay: the candidates the AI weighed for the command it just played,
//! each on the square it goes to or strikes at, coloured from red (its worst) to green (its
//! best), with its score and line; the chosen one ringed. Shown while the top bar's "AI
//! squares" toggle is on.

use crate::combat::ai::ScoredSquare;
use crate::combat::plugin::BattleRes;
use crate::game::Screen;
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
        app.init_resource::<ShowAiSquares>().add_systems(
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
    let worst = scored.iter().map(|s| s.score).fold(f64::MAX, f64::min);
    let best = scored.iter().map(|s| s.score).fold(f64::MIN, f64::max);
    let mut per_square: Vec<(crate::grid::GridPos, Vec<&ScoredSquare>)> = Vec::new();
    for s in scored {
        match per_square.iter_mut().find(|(p, _)| *p == s.square) {
            Some((_, all)) => all.push(s),
            None => per_square.push((s.square, vec![s])),
        }
    }
    let size = Vec2::new(layout.tile, layout.tile_height()) * 0.9;
    for (square, here) in per_square {
        let top = here.iter().copied().max_by(|a, b| a.score.total_cmp(&b.score)).expect("one at least");
        let at = layout.world(square);
        let chosen = here.iter().any(|s| s.chosen);
        if chosen {
            commands.spawn((
                AiSquareMark,
                DespawnOnExit(Screen::Skirmish),
                Sprite::from_color(Color::srgba(1.0, 1.0, 1.0, 0.9), size + Vec2::splat(6.0)),
                Transform::from_translation(at.extend(3.9)),
            ));
        }
        commands.spawn((
            AiSquareMark,
            DespawnOnExit(Screen::Skirmish),
            Sprite::from_color(score_colour(top.score, worst, best), size),
            Transform::from_translation(at.extend(4.0)),
        ));
        let lines: Vec<String> = here.iter().map(|s| format!("{:+.2} {}", s.score, s.line)).collect();
        let (anchor, edge) = label_anchor(square.x, layout.width, layout.tile);
        commands.spawn((
            AiSquareMark,
            DespawnOnExit(Screen::Skirmish),
            Text2d::new(lines.join("\n")),
            TextFont::from_font_size(11.0),
            TextColor(Color::WHITE),
            anchor,
            Transform::from_translation((at + Vec2::new(edge, -layout.tile_height() * 0.3)).extend(30.0)),
        ));
    }
}

/// Where a label of the square in column `x` of a board `width` columns wide hangs, and how
/// far from the square's centre: from the square's left edge rightwards on the board's left
/// third, from its right edge leftwards on the right third, centred between, so that a long
/// label stays over the board rather than under the side panel.
fn label_anchor(x: i32, width: i32, tile: f32) -> (bevy::sprite::Anchor, f32) {
    use bevy::sprite::Anchor;
    let third = width / 3;
    if x >= width - third {
        (Anchor::CENTER_RIGHT, tile * 0.5)
    } else if x < third {
        (Anchor::CENTER_LEFT, -tile * 0.5)
    } else {
        (Anchor::CENTER, 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::label_anchor;
    use bevy::sprite::Anchor;

    #[test]
    fn a_label_hangs_towards_the_middle_of_the_board() {
        assert_eq!(label_anchor(0, 16, 48.0), (Anchor::CENTER_LEFT, -24.0));
        assert_eq!(label_anchor(8, 16, 48.0), (Anchor::CENTER, 0.0));
        assert_eq!(label_anchor(15, 16, 48.0), (Anchor::CENTER_RIGHT, 24.0));
    }
}
