//! The level editor. Headless: the edit vocabulary and the document with its undo history
//! (`edit`), the unit edits with their mirror partners under symmetry (`units`), the command line that applies a RON list of edits (`cli`), the live list of a
//! level's problems (`check`), the recovery file of unsaved edits (`recovery`), the file
//! watched for changes on disk (`watch`), and the
//! balance check by simulation (`balance`). In the window: the editor screen's state, keys
//! and play-test trip (`session`, headless-testable), the mouse tools (`tools`) and the clip
//! they copy and paste (`clipboard`), the board (`board`), the rules layers of the placed
//! units (worked out in `layers`, painted by `overlay`), saving as and opening another
//! file (`file`), the egui panels (`panels`), the balance check's panel (`simulate`) and the
//! generator's window (`generate`, whose `Edit::Generate` also runs headless). Every tool
//! speaks the same `Edit`s.

pub mod balance;
pub mod board;
pub mod check;
pub mod cli;
pub mod clipboard;
pub mod edit;
pub mod file;
pub mod generate;
pub mod layers;
pub mod overlay;
pub mod panels;
pub mod recovery;
pub mod session;
pub mod simulate;
pub mod tools;
pub mod units;
pub mod watch;

pub use edit::{Anchor, Area, Document, Edit, Symmetry};
pub use session::{EditorAction, EditorDoc, EditorPlugin, OpenInEditor};

/// The editor's drawing: the board and the panels (needs a window and egui).
pub struct EditorViewPlugin;

impl bevy::prelude::Plugin for EditorViewPlugin {
    fn build(&self, app: &mut bevy::prelude::App) {
        app.add_plugins((
            board::EditorBoardPlugin,
            panels::EditorPanelsPlugin,
            overlay::EditorOverlayPlugin,
            generate::EditorGeneratePlugin,
            file::EditorFilePlugin,
        ));
    }
}
