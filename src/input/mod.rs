//! The player's controls: the game's actions (select, end turn, cycle units, action-bar
//! slots, layers, camera…), their bindings to keys, mouse buttons and the wheel, read
//! from and written to a RON bindings file (`assets/bindings.ron` ships the defaults),
//! and the leafwing-input-manager map built from them.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod presses;

pub use presses::{CountPresses, Presses, TextFocus, board_key_held};

use bevy::prelude::*;
use leafwing_input_manager::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Declares the game's actions once: the enum and the list of all of them.
macro_rules! game_actions {
    ($($(#[$meta:meta])* $name:ident,)*) => {
        /// Everything a player can ask for with a key or a button.
        #[derive(
            Actionlike, PartialEq, Eq, Hash, Clone, Copy, Debug, Reflect, Serialize, Deserialize, PartialOrd, Ord,
        )]
        pub enum GameAction {
            $($(#[$meta])* $name,)*
        }

        /// Every action, for help screens and checks.
        pub const ALL_ACTIONS: &[GameAction] = &[$(GameAction::$name,)*];
    };
}

game_actions! {
    /// Click the board: select a unit of yours, or act on the square with the tool in hand.
    Select,
    /// Put the tool down / clear the preview.
    Cancel,
    EndTurn,
    /// Select the next unit of yours.
    CycleUnit,
    /// Action-bar buttons 1–9 and 0 (the tenth), then F1–F12 (the eleventh to
    /// twenty-second). End turn has its own key.
    Slot1,
    Slot2,
    Slot3,
    Slot4,
    Slot5,
    Slot6,
    Slot7,
    Slot8,
    Slot9,
    Slot10,
    Slot11,
    Slot12,
    Slot13,
    Slot14,
    Slot15,
    Slot16,
    Slot17,
    Slot18,
    Slot19,
    Slot20,
    Slot21,
    Slot22,
    /// Layer: every square the enemy threatens, shaded by threateners.
    ToggleThreatLayer,
    /// Layer: movement range of the selected unit.
    ToggleRangeLayer,
    /// Layer: cover and flanking lines to the hovered foe.
    ToggleLinesLayer,
    PanUp,
    PanDown,
    PanLeft,
    PanRight,
    /// Hold and move the mouse to pan.
    DragPan,
    ZoomIn,
    ZoomOut,
    /// Centre the camera on the selected unit.
    CentreCamera,
    /// AI pace: faster / slower, or finish the AI's moves at once.
    Faster,
    Slower,
    SkipAi,
    /// Pause menu.
    Pause,
    /// Play the scenario again from its start under the next rules variant.
    NextVariant,
    /// Level editor: undo the last gesture.
    Undo,
    /// Level editor: redo it.
    Redo,
    /// Level editor: save the level.
    Save,
    /// Level editor: the File window (save as, open).
    FileWindow,
    /// Level editor: remove the selected unit.
    DeleteSelected,
    /// Level editor: play-test the level as it stands.
    PlayTest,
    /// Level editor: copy, cut and paste the selection.
    Copy,
    Cut,
    Paste,
    /// Level editor: turn the clip a quarter, mirror it.
    RotateClip,
    FlipClip,
}

/// The action-bar keys in bar order.
pub const SLOTS: [GameAction; 22] = {
    use GameAction::*;
    [
        Slot1, Slot2, Slot3, Slot4, Slot5, Slot6, Slot7, Slot8, Slot9, Slot10, Slot11, Slot12, Slot13, Slot14, Slot15,
        Slot16, Slot17, Slot18, Slot19, Slot20, Slot21, Slot22,
    ]
};

impl GameAction {
    /// What the action does, in words for help screens ("toggle the enemy-threat layer").
    pub fn describe(self) -> String {
        use GameAction::*;
        match self {
            Select => "select a unit / act on the square (tool in hand)".into(),
            Cancel => "put the tool down".into(),
            EndTurn => "end the turn".into(),
            CycleUnit => "next unit of yours".into(),
            ToggleThreatLayer => "layer: enemy threat".into(),
            ToggleRangeLayer => "layer: movement range".into(),
            ToggleLinesLayer => "layer: cover and flanking lines".into(),
            PanUp => "pan up".into(),
            PanDown => "pan down".into(),
            PanLeft => "pan left".into(),
            PanRight => "pan right".into(),
            DragPan => "drag to pan".into(),
            ZoomIn => "zoom in".into(),
            ZoomOut => "zoom out".into(),
            CentreCamera => "centre on the selected unit".into(),
            Faster => "AI faster".into(),
            Slower => "AI slower".into(),
            SkipAi => "finish the AI's moves now".into(),
            Pause => "pause menu".into(),
            NextVariant => "play it again under the next rules variant".into(),
            Undo => "editor: undo".into(),
            Redo => "editor: redo".into(),
            Save => "editor: save".into(),
            FileWindow => "editor: save as / open".into(),
            DeleteSelected => "editor: remove the selected unit".into(),
            PlayTest => "editor: play-test".into(),
            Copy => "editor: copy the selection".into(),
            Cut => "editor: cut the selection".into(),
            Paste => "editor: paste".into(),
            RotateClip => "editor: turn the clip".into(),
            FlipClip => "editor: mirror the clip".into(),
            slot => format!("action bar slot {}", slot.slot().map_or(0, |s| s + 1)),
        }
    }

    /// The action-bar slot a key stands for (0-based).
    pub fn slot(self) -> Option<usize> {
        SLOTS.iter().position(|&s| s == self)
    }
}

/// One physical input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Input {
    /// A key pressed without Ctrl.
    Key(KeyCode),
    /// A key pressed with Ctrl (and not Shift).
    Ctrl(KeyCode),
    /// A key pressed with Ctrl and Shift.
    CtrlShift(KeyCode),
    Mouse(MouseButton),
    WheelUp,
    WheelDown,
    /// A gamepad button: read only in builds with the `gamepad` feature.
    Pad(GamepadButton),
}

impl Input {
    /// How the binding is shown on buttons and in help.
    pub fn label(self) -> String {
        match self {
            Input::Key(k) => {
                let s = format!("{k:?}");
                s.strip_prefix("Key").or_else(|| s.strip_prefix("Digit")).unwrap_or(&s).to_string()
            }
            Input::Ctrl(k) => format!("Ctrl+{}", Input::Key(k).label()),
            Input::CtrlShift(k) => format!("Ctrl+Shift+{}", Input::Key(k).label()),
            Input::Mouse(m) => format!("{m:?} mouse"),
            Input::WheelUp => "wheel up".into(),
            Input::WheelDown => "wheel down".into(),
            Input::Pad(b) => format!("pad {b:?}"),
        }
    }
}

/// The bindings file: for each action, the inputs that trigger it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bindings {
    pub bindings: Vec<(GameAction, Vec<Input>)>,
}

/// Why a bindings file could not be used.
#[derive(Debug, Error)]
pub enum BindingsError {
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("{path}:{line}:{col}: {msg}")]
    Syntax { path: String, line: usize, col: usize, msg: String },
}

impl Default for Bindings {
    fn default() -> Self {
        use GameAction::*;
        use Input::{Ctrl, CtrlShift, Key, Mouse, WheelDown, WheelUp};
        let k = |c: KeyCode| Key(c);
        let slots = [
            (Slot1, KeyCode::Digit1),
            (Slot2, KeyCode::Digit2),
            (Slot3, KeyCode::Digit3),
            (Slot4, KeyCode::Digit4),
            (Slot5, KeyCode::Digit5),
            (Slot6, KeyCode::Digit6),
            (Slot7, KeyCode::Digit7),
            (Slot8, KeyCode::Digit8),
            (Slot9, KeyCode::Digit9),
            (Slot10, KeyCode::Digit0),
            (Slot11, KeyCode::F1),
            (Slot12, KeyCode::F2),
            (Slot13, KeyCode::F3),
            (Slot14, KeyCode::F4),
            (Slot15, KeyCode::F5),
            (Slot16, KeyCode::F6),
            (Slot17, KeyCode::F7),
            (Slot18, KeyCode::F8),
            (Slot19, KeyCode::F9),
            (Slot20, KeyCode::F10),
            (Slot21, KeyCode::F11),
            (Slot22, KeyCode::F12),
        ];
        let mut bindings = vec![
            (Select, vec![Mouse(MouseButton::Left)]),
            (Cancel, vec![Mouse(MouseButton::Right), k(KeyCode::Backspace)]),
            (EndTurn, vec![k(KeyCode::Space), k(KeyCode::Enter)]),
            (CycleUnit, vec![k(KeyCode::Tab)]),
        ];
        bindings.extend(slots.iter().map(|&(a, c)| (a, vec![k(c)])));
        bindings.extend([
            (ToggleThreatLayer, vec![k(KeyCode::KeyT)]),
            (ToggleRangeLayer, vec![k(KeyCode::KeyR)]),
            (ToggleLinesLayer, vec![k(KeyCode::KeyL)]),
            (PanUp, vec![k(KeyCode::KeyW), k(KeyCode::ArrowUp)]),
            (PanDown, vec![k(KeyCode::KeyS), k(KeyCode::ArrowDown)]),
            (PanLeft, vec![k(KeyCode::KeyA), k(KeyCode::ArrowLeft)]),
            (PanRight, vec![k(KeyCode::KeyD), k(KeyCode::ArrowRight)]),
            (DragPan, vec![Mouse(MouseButton::Middle)]),
            (ZoomIn, vec![WheelUp, k(KeyCode::Equal)]),
            (ZoomOut, vec![WheelDown, k(KeyCode::Minus)]),
            (CentreCamera, vec![k(KeyCode::KeyC)]),
            (Faster, vec![k(KeyCode::BracketRight)]),
            (Slower, vec![k(KeyCode::BracketLeft)]),
            (SkipAi, vec![k(KeyCode::KeyN)]),
            (NextVariant, vec![k(KeyCode::KeyV)]),
            (Pause, vec![k(KeyCode::Escape)]),
            (Undo, vec![Ctrl(KeyCode::KeyZ)]),
            (Redo, vec![Ctrl(KeyCode::KeyY), CtrlShift(KeyCode::KeyZ)]),
            (Save, vec![Ctrl(KeyCode::KeyS)]),
            (FileWindow, vec![CtrlShift(KeyCode::KeyS), Ctrl(KeyCode::KeyO)]),
            (DeleteSelected, vec![k(KeyCode::Delete)]),
            (PlayTest, vec![k(KeyCode::F5)]),
            (Copy, vec![Ctrl(KeyCode::KeyC)]),
            (Cut, vec![Ctrl(KeyCode::KeyX)]),
            (Paste, vec![Ctrl(KeyCode::KeyV)]),
            (RotateClip, vec![k(KeyCode::KeyR)]),
            (FlipClip, vec![k(KeyCode::KeyF)]),
        ]);
        // The pad, where the game is built with it: the board pointer stays on the mouse.
        if cfg!(feature = "gamepad") {
            let pad = [
                (EndTurn, GamepadButton::North),
                (Cancel, GamepadButton::East),
                (CycleUnit, GamepadButton::RightTrigger),
                (CentreCamera, GamepadButton::LeftTrigger),
                (PanUp, GamepadButton::DPadUp),
                (PanDown, GamepadButton::DPadDown),
                (PanLeft, GamepadButton::DPadLeft),
                (PanRight, GamepadButton::DPadRight),
                (Pause, GamepadButton::Start),
            ];
            for (action, button) in pad {
                if let Some((_, inputs)) = bindings.iter_mut().find(|(a, _)| *a == action) {
                    inputs.push(Input::Pad(button));
                }
            }
        }
        Bindings { bindings }
    }
}

impl Bindings {
    /// Reads a bindings file; errors name the file, line and column.
    pub fn load(path: &Path) -> Result<Bindings, BindingsError> {
        let text = std::fs::read_to_string(path)
            .map_err(|source| BindingsError::Io { path: path.display().to_string(), source })?;
        Bindings::parse(&text, path)
    }

    /// Actions the file does not mention keep their default inputs, so a file written
    /// before an action existed still gives it a key.
    pub fn parse(text: &str, path: &Path) -> Result<Bindings, BindingsError> {
        let mut read: Bindings = ron::from_str(text).map_err(|e| BindingsError::Syntax {
            path: path.display().to_string(),
            line: e.span.start.line,
            col: e.span.start.col,
            msg: e.code.to_string(),
        })?;
        for (action, inputs) in Bindings::default().bindings {
            if !read.bindings.iter().any(|(a, _)| *a == action) {
                read.bindings.push((action, inputs));
            }
        }
        Ok(read)
    }

    /// Writes the bindings atomically (temp file, then rename).
    pub fn save(&self, path: &Path) -> Result<(), BindingsError> {
        let pretty = ron::ser::PrettyConfig::new().depth_limit(3);
        // Plain strings and enums: serialising them cannot fail.
        #[allow(clippy::expect_used)]
        let text = ron::ser::to_string_pretty(self, pretty).expect("bindings serialise");
        crate::level::write_atomic(path, &format!("// Fivefoot key and mouse bindings.\n{text}\n"))
            .map_err(|source| BindingsError::Io { path: path.display().to_string(), source })
    }

    /// The inputs bound to an action.
    pub fn of(&self, action: GameAction) -> &[Input] {
        self.bindings.iter().find(|(a, _)| *a == action).map_or(&[], |(_, v)| v.as_slice())
    }

    /// The shortest label of an action's first binding, for buttons ("Space", "1").
    pub fn hint(&self, action: GameAction) -> String {
        self.of(action).first().map_or(String::new(), |i| i.label())
    }

    /// The leafwing input map for these bindings.
    pub fn input_map(&self) -> InputMap<GameAction> {
        let mut map = InputMap::default();
        for (action, inputs) in &self.bindings {
            for input in inputs {
                match *input {
                    Input::Key(k) => map.insert(*action, k),
                    Input::Ctrl(k) => map.insert(*action, ButtonlikeChord::modified(ModifierKey::Control, k)),
                    Input::CtrlShift(k) => {
                        map.insert(*action, ButtonlikeChord::modified(ModifierKey::Control, k).with(ModifierKey::Shift))
                    }
                    Input::Mouse(m) => map.insert(*action, m),
                    Input::WheelUp => map.insert(*action, MouseScrollDirection::UP),
                    Input::WheelDown => map.insert(*action, MouseScrollDirection::DOWN),
                    #[cfg(feature = "gamepad")]
                    Input::Pad(b) => map.insert(*action, b),
                    #[cfg(not(feature = "gamepad"))]
                    Input::Pad(_) => &mut map,
                };
            }
        }
        map
    }
}

/// Where the player's own bindings live: `$FIVEFOOT_BINDINGS`, else `fivefoot-bindings.ron`
/// in the working directory. Absent, the shipped defaults apply.
pub fn user_bindings_path() -> PathBuf {
    std::env::var_os("FIVEFOOT_BINDINGS").map_or_else(|| PathBuf::from("fivefoot-bindings.ron"), PathBuf::from)
}

/// The bindings in force: the player's file if present, else `assets/bindings.ron`, else
/// the built-in defaults. A broken file is reported and the defaults used.
pub fn load_bindings() -> (Bindings, Option<String>) {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/bindings.ron");
    for path in [user_bindings_path(), PathBuf::from("assets/bindings.ron"), shipped] {
        if path.exists() {
            return match Bindings::load(&path) {
                Ok(b) => (b, None),
                Err(e) => (Bindings::default(), Some(format!("{e} (using the default bindings)"))),
            };
        }
    }
    (Bindings::default(), None)
}

/// Marks the entity holding the player's input map and action state.
#[derive(Component)]
pub struct PlayerInput;

/// The bindings in force, for labels and help.
#[derive(Resource, Clone, Debug, Default)]
pub struct ActiveBindings(pub Bindings);

/// Registers the actions and spawns the player's input map.
pub struct BindingsPlugin {
    pub bindings: Bindings,
}

impl Plugin for BindingsPlugin {
    fn build(&self, app: &mut App) {
        let map = self.bindings.input_map();
        app.add_plugins((InputManagerPlugin::<GameAction>::default(), presses::plugin))
            .insert_resource(ActiveBindings(self.bindings.clone()))
            .add_systems(PreStartup, move |mut commands: Commands| {
                commands.spawn((PlayerInput, map.clone()));
            });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_bindings_round_trip_through_ron() {
        let b = Bindings::default();
        let text = ron::ser::to_string_pretty(&b, Default::default()).unwrap();
        assert_eq!(Bindings::parse(&text, Path::new("x.ron")).unwrap(), b);
    }

    #[test]
    #[cfg(not(feature = "gamepad"))]
    fn shipped_bindings_file_is_the_defaults() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/bindings.ron");
        assert_eq!(Bindings::load(&path).unwrap(), Bindings::default());
    }

    #[test]
    fn a_broken_file_names_line_and_column() {
        let err = Bindings::parse("(bindings: [\n  (Select, [Key(NoSuchKey)]),\n])", Path::new("b.ron")).unwrap_err();
        let s = err.to_string();
        assert!(s.starts_with("b.ron:2:"), "{s}");
    }

    #[test]
    fn gamepad_buttons_survive_a_round_trip_in_any_build() {
        let text = "(bindings: [(EndTurn, [Key(Space), Pad(North)])])";
        let b = Bindings::parse(text, Path::new("pad.ron")).unwrap();
        assert_eq!(b.of(GameAction::EndTurn), &[Input::Key(KeyCode::Space), Input::Pad(GamepadButton::North)]);
        // Without the feature the pad binding is kept in the file but not read.
        let map = b.input_map();
        assert!(map.get(&GameAction::EndTurn).is_some());
    }

    #[test]
    fn a_file_without_an_action_keeps_that_action_s_default() {
        let b = Bindings::parse("(bindings: [(Undo, [Ctrl(KeyU)])])", Path::new("old.ron")).unwrap();
        assert_eq!(b.of(GameAction::Undo), &[Input::Ctrl(KeyCode::KeyU)], "the file's own binding stands");
        assert_eq!(b.of(GameAction::Redo), Bindings::default().of(GameAction::Redo), "a missing one is the default");
        assert_eq!(b.of(GameAction::EndTurn), Bindings::default().of(GameAction::EndTurn));
    }

    #[test]
    fn every_action_has_a_default_binding() {
        let b = Bindings::default();
        for &a in ALL_ACTIONS {
            assert!(!b.of(a).is_empty(), "{a:?} has no binding");
        }
        assert_eq!(b.hint(GameAction::EndTurn), "Space");
        assert_eq!(b.hint(GameAction::Slot3), "3");
        assert_eq!(GameAction::Slot10.slot(), Some(9));
    }
}
