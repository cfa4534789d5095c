//! Art generated at start-up: the terrain tiles (squares or pointy-top hexes) and the
//! token disc. Drawn procedurally so the game needs no binary assets to look readable.

use crate::grid::Shape;
use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

/// A strip of four tiles, in terrain order: floor, wall, difficult, low wall.
pub fn terrain_atlas(shape: Shape, w: u32, h: u32) -> Image {
    let mut img = Image::new_fill(
        Extent3d { width: w * 4, height: h, depth_or_array_layers: 1 },
        TextureDimension::D2,
        &[0, 0, 0, 0],
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    );
    for tile in 0..4u32 {
        for y in 0..h {
            for x in 0..w {
                let (fx, fy) = (x as f32 + 0.5, y as f32 + 0.5);
                let (cx, cy) = (w as f32 / 2.0, h as f32 / 2.0);
                let inside = match shape {
                    Shape::Square => true,
                    Shape::Hex => {
                        let dx = (fx - cx).abs();
                        let dy = (fy - cy).abs();
                        dx <= cx && dy <= cy - dx / 3f32.sqrt()
                    }
                };
                if !inside {
                    continue;
                }
                let edge = match shape {
                    Shape::Square => x == 0 || y == 0 || x + 1 == w || y + 1 == h,
                    Shape::Hex => {
                        let dx = (fx - cx).abs();
                        let dy = (fy - cy).abs();
                        dx > cx - 1.5 || dy > cy - dx / 3f32.sqrt() - 1.5
                    }
                };
                let noise = hash(x, y, tile) as f32 / 255.0 * 0.06 - 0.03;
                let colour = match tile {
                    0 => shade([0.42, 0.47, 0.38], noise),
                    1 => {
                        // Bricks: dark courses with mortar lines.
                        let row = y / (h / 4).max(1);
                        let offset = if row.is_multiple_of(2) { 0 } else { w / 4 };
                        let mortar = y % (h / 4).max(1) == 0 || (x + offset) % (w / 2).max(1) == 0;
                        if mortar { [0.16, 0.15, 0.15] } else { shade([0.34, 0.30, 0.28], noise) }
                    }
                    2 => {
                        // Rubble: floor-brown with scattered stones.
                        let stone = hash(x / 4, y / 4, 7).is_multiple_of(5);
                        if stone { shade([0.36, 0.30, 0.22], noise) } else { shade([0.55, 0.45, 0.28], noise) }
                    }
                    _ => {
                        // A low wall: a band of stone across the floor.
                        let band = (fy - cy).abs() < h as f32 * 0.18;
                        if band { shade([0.62, 0.60, 0.55], noise) } else { shade([0.42, 0.47, 0.38], noise) }
                    }
                };
                let c = if edge { colour.map(|v| v * 0.7) } else { colour };
                let _ = img.set_color_at(tile * w + x, y, Color::srgb(c[0], c[1], c[2]));
            }
        }
    }
    img
}

/// The cell masks made so far, one per cell shape and size: every overlay, cursor and
/// pointer mark of that shape tints the same image. Each plugin that draws cells inits it.
#[derive(Resource, Default)]
pub struct CellMasks(std::collections::HashMap<(Shape, u32, u32), Handle<Image>>);

impl CellMasks {
    /// The mask for cells of `shape`, `w` × `h` pixels, made the first time it is asked for.
    pub fn get(&mut self, images: &mut Assets<Image>, shape: Shape, w: f32, h: f32) -> Handle<Image> {
        let key = (shape, w as u32, h as u32);
        self.0.entry(key).or_insert_with(|| images.add(cell_mask(key.0, key.1, key.2))).clone()
    }
}

/// A white cell shape (square or pointy-top hex) with a brighter rim, tinted by the
/// overlay's sprite colour.
fn cell_mask(shape: Shape, w: u32, h: u32) -> Image {
    let mut img = Image::new_fill(
        Extent3d { width: w, height: h, depth_or_array_layers: 1 },
        TextureDimension::D2,
        &[0, 0, 0, 0],
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    );
    let (cx, cy) = (w as f32 / 2.0, h as f32 / 2.0);
    for y in 0..h {
        for x in 0..w {
            let (dx, dy) = ((x as f32 + 0.5 - cx).abs(), (y as f32 + 0.5 - cy).abs());
            let (inside, rim) = match shape {
                Shape::Square => (true, dx > cx - 3.0 || dy > cy - 3.0),
                Shape::Hex => {
                    (dx <= cx && dy <= cy - dx / 3f32.sqrt(), dx > cx - 3.0 || dy > cy - dx / 3f32.sqrt() - 3.0)
                }
            };
            if inside {
                let a = if rim { 1.0 } else { 0.7 };
                let _ = img.set_color_at(x, y, Color::srgba(1.0, 1.0, 1.0, a));
            }
        }
    }
    img
}

/// A white disc with a dark rim, tinted per side by the sprite colour.
pub fn token_disc(size: u32) -> Image {
    let mut img = Image::new_fill(
        Extent3d { width: size, height: size, depth_or_array_layers: 1 },
        TextureDimension::D2,
        &[0, 0, 0, 0],
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    );
    let r = size as f32 / 2.0;
    for y in 0..size {
        for x in 0..size {
            let d = ((x as f32 + 0.5 - r).powi(2) + (y as f32 + 0.5 - r).powi(2)).sqrt();
            if d <= r - 1.0 {
                let v = if d > r - size as f32 * 0.08 { 0.35 } else { 1.0 - 0.15 * (d / r) };
                let _ = img.set_color_at(x, y, Color::srgb(v, v, v));
            }
        }
    }
    img
}

fn shade(c: [f32; 3], n: f32) -> [f32; 3] {
    c.map(|v| (v + n).clamp(0.0, 1.0))
}

fn hash(x: u32, y: u32, z: u32) -> u32 {
    let mut h = x.wrapping_mul(374761393) ^ y.wrapping_mul(668265263) ^ z.wrapping_mul(2246822519);
    h = (h ^ (h >> 13)).wrapping_mul(1274126177);
    (h ^ (h >> 16)) & 0xff
}
