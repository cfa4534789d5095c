//! `--screenshot PATH [--frames N]`: save the window to a PNG after N frames, then exit.

use bevy::diagnostic::FrameCount;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};
use std::path::PathBuf;

/// Take one screenshot after `after_frames` frames and quit once it is on disk.
#[derive(Resource, Clone, Debug)]
pub struct AutoScreenshot {
    pub path: PathBuf,
    pub after_frames: u32,
}

pub struct ScreenshotPlugin;

impl Plugin for ScreenshotPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, take_screenshot.run_if(resource_exists::<AutoScreenshot>));
    }
}

fn take_screenshot(mut commands: Commands, frames: Res<FrameCount>, shot: Res<AutoScreenshot>, mut done: Local<bool>) {
    if *done || frames.0 < shot.after_frames {
        return;
    }
    *done = true;
    if let Some(dir) = shot.path.parent().filter(|d| !d.as_os_str().is_empty()) {
        let _ = std::fs::create_dir_all(dir);
    }
    let path = shot.path.clone();
    commands.spawn(Screenshot::primary_window()).observe(
        move |captured: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| match save_png(&captured.image, &path)
        {
            Ok(()) => {
                info!("screenshot saved to {}", path.display());
                exit.write(AppExit::Success);
            }
            Err(e) => {
                error!("{}: {e}", path.display());
                exit.write(AppExit::error());
            }
        },
    );
}

/// Writes `image` as a PNG, atomically: an old file at `path` stays whole until the new one
/// is. The alpha channel is dropped (it holds brightness when HDR is on).
fn save_png(image: &Image, path: &std::path::Path) -> Result<(), String> {
    use std::io::Write;
    let rgb = image.clone().try_into_dynamic().map_err(|e| e.to_string())?.to_rgb8();
    let mut png = std::io::Cursor::new(Vec::new());
    rgb.write_to(&mut png, image::ImageFormat::Png).map_err(|e| e.to_string())?;
    let mut file = crate::level::AtomicFile::create(path).map_err(|e| e.to_string())?;
    file.write_all(png.get_ref()).map_err(|e| e.to_string())?;
    file.commit().map_err(|e| e.to_string())
}

/// Checks that a screenshot shows the board: not one flat colour, and a good share of
/// its pixels the colour of the floor tiles. Returns a one-line summary.
pub fn check_board(path: &std::path::Path) -> Result<String, String> {
    let img = image::open(path).map_err(|e| format!("{}: {e}", path.display()))?.to_rgb8();
    let (w, h) = img.dimensions();
    let n = (w as f64) * (h as f64);
    if n == 0.0 {
        return Err(format!("{}: an empty image", path.display()));
    }
    let mut floor = 0u64;
    let mut sum = [0f64; 3];
    let mut sq = [0f64; 3];
    for p in img.pixels() {
        let [r, g, b] = p.0.map(i32::from);
        // The floor tile: srgb(0.42, 0.47, 0.38) with a little noise, rims darker.
        if (r - 107).abs() <= 14 && (g - 120).abs() <= 14 && (b - 97).abs() <= 14 {
            floor += 1;
        }
        for (k, v) in [r, g, b].into_iter().enumerate() {
            sum[k] += v as f64;
            sq[k] += (v * v) as f64;
        }
    }
    let spread: f64 = (0..3).map(|k| (sq[k] / n - (sum[k] / n).powi(2)).max(0.0).sqrt()).sum::<f64>() / 3.0;
    let floor_share = floor as f64 / n;
    let summary = format!("{w}x{h}, colour spread {spread:.1}, floor {:.1}% of the pixels", floor_share * 100.0);
    if spread < 8.0 {
        return Err(format!("{}: blank ({summary})", path.display()));
    }
    if floor_share < 0.03 {
        return Err(format!("{}: no board in sight ({summary})", path.display()));
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::check_board;

    fn write(name: &str, f: impl Fn(u32, u32) -> [u8; 3]) -> std::path::PathBuf {
        let path = std::env::temp_dir().join(format!("fivefoot-shot-{}-{name}.png", std::process::id()));
        image::RgbImage::from_fn(64, 40, |x, y| image::Rgb(f(x, y))).save(&path).unwrap();
        path
    }

    #[test]
    fn a_blank_window_fails_and_a_board_passes() {
        let blank = write("blank", |_, _| [20, 22, 25]);
        assert!(check_board(&blank).unwrap_err().contains("blank"));
        let menu = write("menu", |x, _| if x < 32 { [20, 22, 25] } else { [200, 200, 200] });
        assert!(check_board(&menu).unwrap_err().contains("no board"));
        let board = write("board", |x, y| if (x / 8 + y / 8) % 3 == 0 { [60, 52, 48] } else { [107, 121, 96] });
        assert!(check_board(&board).is_ok());
        for p in [blank, menu, board] {
            std::fs::remove_file(p).unwrap();
        }
    }
}
