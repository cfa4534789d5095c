//! The combat engine: a battle's state (`battle`), its clock under each rule variant,
//! commands checked and resolved into events carrying every die and modifier, run through
//! one Bevy schedule of rule systems (`schedule`, built per variant by `engine`). Pure and
//! deterministic (one seeded `Dice`, fighters in id order). The modules form layers, each
//! using only those below it: `command`, `slot`, `odds`, `kept`, `fighter`, `event`, `time`, `struck`; `battle`;
//! `modifiers`; `attack`; `resolve` (with spells, `magic`); `clock`; `schedule`; `variants`;
//! `house_rules`; `listing`; `snapshot`; `engine`; `world`; `scene`;
//! then `foresight`, `invariants`, `ai`, `sim` and the window's `plugin`.

pub mod ai;
pub mod attack;
pub mod battle;
pub mod clock;
pub mod command;
pub mod engine;
pub mod event;
pub mod fighter;
pub mod foresight;
pub mod house_rules;
pub mod invariants;
pub mod kept;
pub mod listing;
pub mod modifiers;
pub mod odds;
pub mod part;
pub mod plugin;
pub mod resolve;
pub mod scene;
pub mod schedule;
pub mod sim;
pub mod slot;
pub mod snapshot;
pub mod struck;
pub mod time;
pub mod variants;
pub mod world;

pub use ai::{Ai, AiKind, Greedy, Scripted};
pub use attack::AttackProfile;
pub use battle::{AttackKind, Battle, BattleOptions, BattleStats, DeathSaves};
pub use battle::{Fighter, FighterRef, Fighters};
pub use command::{Command, RuleError};
pub use event::CombatEvent;
pub use fighter::Modifier;
pub use odds::AttackDie;
pub use resolve::magic;
pub use scene::Scene;
pub use snapshot::Snapshot;
pub use time::{Budget, Clock};
pub use world::BattleWorld;
