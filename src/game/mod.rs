//! The game's flow: the title menu (scenario, rule variant, side), the skirmish (set up
//! from a `GameSetup` on entering, torn down on leaving), the pause menu and the end
//! screen, and the level editor's screen (`crate::editor`), which play-tests through a
//! skirmish and comes back. Screens are egui windows; the board and HUD live in their own plugins.

pub mod screens;
pub mod switch;

use crate::combat::plugin::{BattleRes, Pace};
use crate::combat::{BattleOptions, BattleWorld};
use crate::level::{Catalogue, Level};
use crate::rules::{self, Combatant, RulesSet};
use crate::variants::RulesVariant;
use crate::view::LevelName;
use bevy::prelude::*;
use std::path::{Path, PathBuf};

/// Which screen is up.
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Screen {
    #[default]
    Menu,
    /// One frame between skirmishes, so a restart tears everything down first.
    Loading,
    Skirmish,
    /// The level editor (`crate::editor`).
    Editor,
    /// One level under several variants, side by side (`crate::compare::window`).
    Compare,
}

/// The running skirmish is a play-test from the editor: Esc and the end screen go back
/// there. `file` is the scratch copy of the level being played.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct PlayTest {
    pub file: PathBuf,
}

/// The AI a skirmish in the window gives a side that neither the player nor the level names:
/// the opponent worth playing against, not the greedy baseline (`sim`'s default).
pub const SKIRMISH_AI: crate::combat::AiKind = crate::combat::AiKind::Tactical(crate::combat::ai::Difficulty::Normal);

/// The AI `side` plays in a skirmish, and whether it is the default: the one `picked` for
/// it, else the one its level names, else `SKIRMISH_AI`.
pub fn skirmish_ai(
    picked: &std::collections::BTreeMap<String, crate::combat::AiKind>,
    level: &std::collections::BTreeMap<String, crate::combat::AiKind>,
    side: &str,
) -> (crate::combat::AiKind, bool) {
    picked.get(side).or(level.get(side)).map_or((SKIRMISH_AI, true), |&ai| (ai, false))
}

/// What the next skirmish is.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct GameSetup {
    pub level: PathBuf,
    /// `None`: the level's own variant.
    pub rules: Option<RulesVariant>,
    /// The side the player commands; `None` watches the AI play every side.
    pub side: Option<String>,
    pub seed: u64,
    /// The house rules picked; `None`: the level's own.
    pub house_rules: Option<Vec<crate::variants::HouseRule>>,
    /// The AI picked for a side; a side not named plays as the level says, else as
    /// `SKIRMISH_AI`.
    pub ais: std::collections::BTreeMap<String, crate::combat::AiKind>,
}

/// The levels edited this run: the last one, which the menu selects when the editor hands
/// back to it, and every file edited, so the menu lists those saved outside `levels/` too.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct EditedLevels {
    pub last: Option<PathBuf>,
    pub all: Vec<PathBuf>,
}

impl EditedLevels {
    /// Notes `path` as the level just edited.
    pub fn note(&mut self, path: PathBuf) {
        if !self.all.contains(&path) {
            self.all.push(path.clone());
        }
        self.last = Some(path);
    }
}

/// The menu's list of levels: those in `levels/`, then the files edited this run that are
/// not among them.
pub fn menu_level_files(edited: &EditedLevels) -> Vec<PathBuf> {
    let mut files = level_files();
    let listed = |f: &PathBuf, files: &[PathBuf]| files.iter().any(|g| screens::same_file(f, g));
    for f in &edited.all {
        if !listed(f, &files) {
            files.push(f.clone());
        }
    }
    files
}

/// The game is paused (the clock stands still, the pause menu is up).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Paused(pub bool);

/// A message for the menu (a level that failed to load, say).
#[derive(Resource, Clone, Debug, Default)]
pub struct MenuNotice(pub Option<String>);

/// The sides the person at the keyboard plays in the running skirmish.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct HumanSides(pub Vec<String>);

pub struct GamePlugin;

impl Plugin for GamePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Paused>()
            .init_resource::<MenuNotice>()
            .init_resource::<EditedLevels>()
            .init_resource::<HumanSides>()
            .configure_sets(Update, RulesSet::Clock.run_if(|p: Res<Paused>| !p.0))
            .add_systems(OnEnter(Screen::Loading), |mut next: ResMut<NextState<Screen>>| next.set(Screen::Skirmish))
            .add_systems(OnEnter(Screen::Skirmish), start_skirmish.in_set(SkirmishSetup))
            .add_systems(OnExit(Screen::Skirmish), end_skirmish)
            .add_systems(OnEnter(Screen::Menu), |playtest: Option<Res<PlayTest>>, mut commands: Commands| {
                // A play-test left for the menu: its scratch copy of the level goes too.
                if let Some(p) = playtest {
                    let _ = std::fs::remove_file(&p.file);
                    commands.remove_resource::<PlayTest>();
                }
            })
            .add_plugins((screens::ScreensPlugin, switch::VariantSwitchPlugin));
    }
}

/// Systems that build a skirmish on entering it run after this set.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SkirmishSetup;

/// Loads the level, puts its units on the battlefield and starts the battle.
pub fn start_skirmish(world: &mut World) {
    let Some(setup) = world.get_resource::<GameSetup>().cloned() else {
        world.resource_mut::<NextState<Screen>>().set(Screen::Menu);
        return;
    };
    let catalogue = Catalogue::builtin();
    let level = match Level::load(&setup.level, &catalogue) {
        Ok(l) => l,
        Err(e) => {
            world.insert_resource(MenuNotice(Some(e.to_string())));
            world.resource_mut::<NextState<Screen>>().set(Screen::Menu);
            return;
        }
    };
    let variant = setup.rules.unwrap_or(level.def.rules);
    let human: Vec<String> =
        setup.side.iter().filter(|s| level.def.units.iter().any(|u| &u.side == *s)).cloned().collect();
    let picked = match &setup.house_rules {
        Some(picked) => crate::variants::HouseRule::check_all(picked, variant).map(|()| picked.clone()),
        None => crate::variants::house_rules_in_force(&[], &level.def.house_rules, variant),
    };
    let house_rules = match picked {
        Ok(rules) => rules,
        Err(e) => {
            world.insert_resource(MenuNotice(Some(e)));
            world.resource_mut::<NextState<Screen>>().set(Screen::Menu);
            return;
        }
    };
    let options = BattleOptions { house_rules, ..BattleOptions::default() };
    let battle = BattleWorld::new(&level, &catalogue, variant, setup.seed, options);
    spawn_combatants(world, &battle.read());
    let named = level.def.side_ais();
    let ais = level.def.units.iter().map(|u| (u.side.clone(), skirmish_ai(&setup.ais, &named, &u.side).0)).collect();
    let replay = world.remove_resource::<switch::OrdersToReplay>().unwrap_or_default();
    world.insert_resource(BattleRes::new(battle, human.clone(), ais).replaying(&replay.0));
    world.insert_resource(HumanSides(human));
    world.insert_resource(LevelName(level.def.name.clone()));
    world.insert_resource(crate::view::SideColours(level.def.sides.clone()));
    world.insert_resource(Paused(false));
    if !world.contains_resource::<Pace>() {
        world.insert_resource(Pace::per_second(4.0));
    }
}

/// One entity per fighter, naming it for the view, the badges and the pointer: its state
/// (place, hit points, conditions) is the battle's, read from `BattleRes`.
pub fn spawn_combatants(world: &mut World, battle: &crate::combat::Battle) {
    for f in &battle.fighters {
        world.spawn((
            Combatant { id: f.id().to_string() },
            rules::Side(f.side().0.clone()),
            rules::Body { size: f.size() },
            DespawnOnExit(Screen::Skirmish),
        ));
    }
}

fn end_skirmish(mut commands: Commands) {
    use crate::control::plugin::{ActionBar, Feedback, Selection};
    commands.insert_resource(Selection::default());
    commands.insert_resource(ActionBar::default());
    commands.insert_resource(Feedback::default());
    commands.insert_resource(crate::overlay::Preview::default());
    commands.remove_resource::<BattleRes>();
    commands.remove_resource::<crate::view::layout::BoardLayout>();
}

/// The levels a menu offers: every `.ron` file in `levels/` (from the working directory,
/// else the source tree), sorted by file name.
pub fn level_files() -> Vec<PathBuf> {
    let local = PathBuf::from("levels");
    let dir = if local.is_dir() { local } else { Path::new(env!("CARGO_MANIFEST_DIR")).join("levels") };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| rd.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "ron")).collect())
        .unwrap_or_default();
    files.sort();
    files
}

/// A level as the menu lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelEntry {
    pub path: PathBuf,
    /// Name, size and sides, or the load error.
    pub summary: Result<LevelSummary, String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LevelSummary {
    pub name: String,
    pub width: i32,
    pub height: i32,
    pub rules: RulesVariant,
    /// Each side with its number of units, in order of first appearance.
    pub sides: Vec<(String, usize)>,
    /// Which of `sides` a person plays by default.
    pub person: usize,
    /// The house rules it names.
    pub house_rules: Vec<crate::variants::HouseRule>,
    /// The AI it names for a side.
    pub ais: std::collections::BTreeMap<String, crate::combat::AiKind>,
}

/// Reads the levels for the menu; broken files are listed with their error.
pub fn scan_levels(files: &[PathBuf]) -> Vec<LevelEntry> {
    let catalogue = Catalogue::builtin();
    files
        .iter()
        .map(|path| LevelEntry {
            path: path.clone(),
            summary: Level::load(path, &catalogue).map(|l| summarise(&l)).map_err(|e| e.to_string()),
        })
        .collect()
}

pub fn summarise(level: &Level) -> LevelSummary {
    let mut sides: Vec<(String, usize)> = vec![];
    for u in &level.def.units {
        match sides.iter_mut().find(|(s, _)| *s == u.side) {
            Some((_, n)) => *n += 1,
            None => sides.push((u.side.clone(), 1)),
        }
    }
    LevelSummary {
        name: level.def.name.clone(),
        width: level.terrain.width(),
        height: level.terrain.height(),
        rules: level.def.rules,
        house_rules: level.def.house_rules.clone(),
        ais: level.def.side_ais(),
        person: level.def.person_side().and_then(|p| sides.iter().position(|(s, _)| s == p)).unwrap_or(0),
        sides,
    }
}

/// The seed a player typed in the menu: a whole number is used as it is; any other text is
/// hashed (FNV-1a, the same on every machine), so "ogre night" names a battle too. Only
/// blank text is refused.
pub fn seed_from_text(text: &str) -> Result<u64, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("type a seed (a number or any text)".into());
    }
    if let Ok(n) = text.parse::<u64>() {
        return Ok(n);
    }
    Ok(text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_seed_is_a_number_or_any_text_hashed_but_never_blank() {
        assert_eq!(super::seed_from_text(" 42 "), Ok(42));
        // The published FNV-1a (64-bit) test vector for "abc".
        assert_eq!(super::seed_from_text("abc"), Ok(0xe71f_a219_0541_574b));
        assert_ne!(super::seed_from_text("abc"), super::seed_from_text("abd"));
        assert!(super::seed_from_text("   ").is_err());
    }

    use super::*;

    #[test]
    fn the_menu_lists_every_shipped_level_with_its_sides() {
        let entries = scan_levels(&level_files());
        assert!(entries.len() >= 4);
        let skirmish = entries.iter().find(|e| e.path.ends_with("skirmish.ron")).expect("the default skirmish");
        let s = skirmish.summary.as_ref().unwrap();
        assert!(s.sides.len() >= 2, "{s:?}");
        assert!(s.width > 0 && s.height > 0);
    }

    #[test]
    fn a_broken_level_is_listed_with_its_error() {
        let dir = std::env::temp_dir().join(format!("fivefoot-menu-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bad = dir.join("bad.ron");
        std::fs::write(&bad, "(name: \"x\", rules: \"d20-classic\", map: (rows: [\"..\"]), units: [oops])").unwrap();
        let entries = scan_levels(std::slice::from_ref(&bad));
        let err = entries[0].summary.as_ref().unwrap_err();
        assert!(err.contains("bad.ron:1:"), "{err}");
        std::fs::remove_dir_all(dir).unwrap();
    }
}
