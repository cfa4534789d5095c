//! Fivefoot: tabletop combat rules as ECS systems on a 5-ft grid.
//!
//! Commands go in, the rules check and resolve them against the grid, events come out;
//! the view, the AI, the log, replays and tests all read the same events. See
//! `shared/DESIGN.md` for the architecture.

pub mod combat;
pub mod control;
pub mod editor;
pub mod game;
pub mod grid;
pub mod hud;
pub mod input;
pub mod level;
pub mod overlay;
pub mod play;
pub mod query;
pub mod rules;
pub mod variants;
pub mod view;

pub use variants::RulesVariant;
