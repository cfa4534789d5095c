//! The rules: combatant components, the battlefield, and the derived state every
//! decision reads (roster, occupancy, threat map), with pure functions for threat,
//! flanking, cover and movement at the core and thin systems around them.

pub mod components;
pub mod cover;
pub mod dice;
pub mod flanking;
pub mod forced;
pub mod movement;
pub mod recalled;
pub mod roster;
pub mod threat;

pub use components::*;
pub use cover::{AttackReach, CoverKind, CoverResult, cover_between};
pub use dice::Dice;
pub use flanking::{Flanking, flanking, flanking_squares};
pub use forced::{ForcedLine, forced_line};
pub use movement::{MoveMode, MoveRange, PathPlan, Provocation, allowance_ft, movement_range};
pub use roster::{Occupancy, ReachBand, Roster, UnitMask, UnitView};
pub use threat::{ThreatMap, threatened_squares};

use crate::grid::TerrainMap;
use crate::level::{Catalogue, Level};
use crate::variants::RulesVariant;
use bevy::prelude::*;

/// The map being fought over and the rule variant in force.
#[derive(Clone, Debug, PartialEq, Resource)]
pub struct Battlefield {
    /// Never changed once the battlefield is made (its `lines` are a record of its walls):
    /// a new map is a new battlefield.
    pub terrain: TerrainMap,
    pub variant: RulesVariant,
    /// The lines of effect walked so far on this map (`cover::has_line_of_effect`).
    pub lines: cover::SightLines,
}

impl Battlefield {
    pub fn new(terrain: TerrainMap, variant: RulesVariant) -> Battlefield {
        let lines = cover::SightLines::of(&terrain, variant.shape());
        Battlefield { terrain, variant, lines }
    }
}

/// Everything a rule question reads, borrowed together.
#[derive(Clone, Copy)]
pub struct RulesView<'a> {
    pub field: &'a Battlefield,
    pub roster: &'a Roster,
    pub occupancy: &'a Occupancy,
    pub threat: &'a ThreatMap,
}

impl RulesView<'_> {
    /// Whether `unit` could stand with its footprint at `fp`: every square on the map, not
    /// a wall, and nobody else there.
    pub fn can_stand(&self, unit: usize, fp: crate::grid::Footprint) -> bool {
        let terrain = &self.field.terrain;
        fp.cells().all(|c| {
            terrain.in_bounds(c) && terrain.get(c).passable() && self.occupancy.at(c).is_none_or(|o| o == unit)
        })
    }
}

/// Derived state owned by value, for tools and tests that run without an App.
#[derive(Clone, Debug)]
pub struct Snapshot {
    pub field: Battlefield,
    pub roster: Roster,
    pub occupancy: Occupancy,
    pub threat: ThreatMap,
}

impl Snapshot {
    pub fn new(field: Battlefield, roster: Roster) -> Snapshot {
        let occupancy = Occupancy::build(&field.terrain, &roster);
        let threat = ThreatMap::build(&field, &roster);
        Snapshot { field, roster, occupancy, threat }
    }
    pub fn view(&self) -> RulesView<'_> {
        RulesView { field: &self.field, roster: &self.roster, occupancy: &self.occupancy, threat: &self.threat }
    }
}

/// The order the game's rule systems run in, every frame; the view, overlays and HUD run
/// after `Derive`.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RulesSet {
    /// Move combat time on: resolve the person's commands and the AI's, one per tick.
    Clock,
    /// Turn the person's keys and clicks into commands.
    Intake,
    /// What follows from the battle as it stands: the variant's badges; in a headless world
    /// of combatant components, roster, occupancy and threat.
    Derive,
}

/// The frame's rule sets, in order.
pub struct RulesPlugin;

impl Plugin for RulesPlugin {
    fn build(&self, app: &mut App) {
        app.configure_sets(Update, (RulesSet::Clock, RulesSet::Intake, RulesSet::Derive).chain());
    }
}

/// The grid rules over combatant components, for a headless world that holds a level's
/// units as entities ([`spawn_level`]) rather than a battle: roster, occupancy and threat
/// are derived from the components whenever they change. Needs [`RulesPlugin`] and
/// `MinimalPlugins`.
pub struct CombatantRulesPlugin;

impl Plugin for CombatantRulesPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Roster>().init_resource::<Occupancy>().init_resource::<ThreatMap>().add_systems(
            Update,
            (components::rebuild_roster, rebuild_threat_map.run_if(resource_changed::<Roster>))
                .chain()
                .in_set(RulesSet::Derive)
                .run_if(resource_exists::<Battlefield>),
        );
    }
}

/// Recomputes occupancy and the threat map whenever the roster changes.
fn rebuild_threat_map(
    field: Res<Battlefield>,
    roster: Res<Roster>,
    mut occupancy: ResMut<Occupancy>,
    mut threat: ResMut<ThreatMap>,
) {
    *occupancy = Occupancy::build(&field.terrain, &roster);
    threat.rebuild(&field, &roster);
}

/// Reads the derived state of a world as a [`RulesView`].
pub fn view_of(world: &World) -> Option<RulesView<'_>> {
    Some(RulesView {
        field: world.get_resource::<Battlefield>()?,
        roster: world.get_resource::<Roster>()?,
        occupancy: world.get_resource::<Occupancy>()?,
        threat: world.get_resource::<ThreatMap>()?,
    })
}

/// Puts a level on the battlefield of a headless component world: terrain and variant as
/// a resource, one entity per unit with all its components.
pub fn spawn_level(world: &mut World, level: &Level, catalogue: &Catalogue, variant: RulesVariant) {
    world.insert_resource(Battlefield::new(level.terrain.clone(), variant));
    for unit in &level.def.units {
        if let Some(bundle) = components::CombatantBundle::from_level(unit, catalogue) {
            world.spawn(bundle);
        }
    }
}
