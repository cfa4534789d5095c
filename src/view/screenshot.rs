//! `--screenshot PATH [--frames N]`: save the window to a PNG after N frames, then exit.

use bevy::diagnostic::FrameCount;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};
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
    commands.spawn(Screenshot::primary_window()).observe(save_to_disk(path.clone())).observe(
        move |_: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| {
            info!("screenshot saved to {}", path.display());
            exit.write(AppExit::Success);
        },
    );
}
