//! The level editor's model, headless: the edit vocabulary and the document with its undo
//! history (`edit`), and the command line that applies a RON list of edits to a level
//! (`cli`), and the balance check by simulation (`balance`). The in-game editor screen is to
//! drive the same `Document`.

pub mod balance;
pub mod cli;
pub mod edit;

pub use edit::{Anchor, Area, Document, Edit, Symmetry};
