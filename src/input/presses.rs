//! Every press counts: how many times each game action was pressed since the last frame,
//! counted from the raw keyboard and mouse messages. leafwing's `just_pressed` looks at
//! what is held when the frame begins, so a key pressed and released inside one frame (a
//! quick tap at 15 fps) would vanish; here it counts once, and two taps count twice.
//! Held keys that auto-repeat do not count again. While a text field has the keyboard
//! (`TextFocus`), no key counts at all: what is typed goes to the field, not the board.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use super::{ActiveBindings, GameAction, Input, PlayerInput};
use bevy::input::ButtonState;
use bevy::input::keyboard::KeyboardInput;
use bevy::input::mouse::MouseButtonInput;
use bevy::prelude::*;
use leafwing_input_manager::plugin::InputManagerSystem;
use leafwing_input_manager::prelude::ActionState;
use std::collections::BTreeMap;

/// The presses of each action this frame.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct Presses(BTreeMap<GameAction, u32>);

impl Presses {
    /// How many times the action was pressed this frame.
    pub fn count(&self, action: GameAction) -> u32 {
        self.0.get(&action).copied().unwrap_or(0)
    }

    /// Whether the action was pressed at least once this frame.
    pub fn pressed(&self, action: GameAction) -> bool {
        self.count(action) > 0
    }

    /// Counts one more press (tests, and inputs without raw messages).
    pub fn add(&mut self, action: GameAction, n: u32) {
        if n > 0 {
            *self.0.entry(action).or_default() += n;
        }
    }
}

/// When the presses of this frame are known: after leafwing has updated its action state.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CountPresses;

/// A text field (a level's name, a path, a seed) has the keyboard, as egui said at the end
/// of the last frame: no key binding fires, held or pressed.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TextFocus(pub bool);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Presses>().init_resource::<TextFocus>().add_systems(
        PreUpdate,
        (note_text_focus, count_presses).chain().in_set(CountPresses).after(InputManagerSystem::ManualControl),
    );
}

/// Copies egui's answer to "does a text field have the keyboard?" (no egui, no change: a
/// headless app sets `TextFocus` itself).
fn note_text_focus(egui: Option<Res<bevy_egui::input::EguiWantsInput>>, mut focus: ResMut<TextFocus>) {
    if let Some(egui) = egui {
        focus.set_if_neq(TextFocus(egui.wants_keyboard_input()));
    }
}

/// Whether a key binding of the board is held now: never while a text field has the
/// keyboard, nor while Ctrl, Alt or Super is held (Ctrl+S saves; it does not also pan down).
pub fn board_key_held(
    state: &ActionState<GameAction>,
    action: &GameAction,
    typing: TextFocus,
    modifiers: bool,
) -> bool {
    !typing.0 && !modifiers && state.pressed(action)
}

/// For each action, the larger of the raw presses bound to it and leafwing's view (which
/// also covers the wheel and gamepads, and inputs that were held across a frame).
fn count_presses(
    bindings: Res<ActiveBindings>,
    held_keys: Res<ButtonInput<KeyCode>>,
    mut keys: MessageReader<KeyboardInput>,
    mut buttons: MessageReader<MouseButtonInput>,
    input: Query<&ActionState<GameAction>, With<PlayerInput>>,
    mut presses: ResMut<Presses>,
    typing: Res<TextFocus>,
) {
    let mut raw: BTreeMap<GameAction, u32> = BTreeMap::new();
    let mut count = |pressed: Input| {
        for (action, inputs) in &bindings.0.bindings {
            if inputs.contains(&pressed) {
                *raw.entry(*action).or_default() += 1;
            }
        }
    };
    // A modifier let go in the same frame still counts: a quick chord at a low frame rate
    // goes down and up between two frames.
    let held = |a: KeyCode, b: KeyCode| {
        held_keys.any_pressed([a, b]) || held_keys.any_just_pressed([a, b]) || held_keys.any_just_released([a, b])
    };
    let ctrl = held(KeyCode::ControlLeft, KeyCode::ControlRight);
    let shift = held(KeyCode::ShiftLeft, KeyCode::ShiftRight);
    for k in keys.read().filter(|k| k.state == ButtonState::Pressed && !k.repeat && !typing.0) {
        count(match (ctrl, shift) {
            (false, _) => Input::Key(k.key_code),
            (true, false) => Input::Ctrl(k.key_code),
            (true, true) => Input::CtrlShift(k.key_code),
        });
    }
    for b in buttons.read().filter(|b| b.state == ButtonState::Pressed) {
        count(Input::Mouse(b.button));
    }
    // leafwing's view covers keys too: not while typing (the wheel waits for the field to
    // let go of the keyboard).
    if let Ok(state) = input.single()
        && !typing.0
    {
        for &action in super::ALL_ACTIONS {
            if state.just_pressed(&action) {
                let n = raw.entry(action).or_default();
                *n = (*n).max(1);
            }
        }
    }
    presses.set_if_neq(Presses(raw));
}
