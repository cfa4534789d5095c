//! Combatant components, spawned from a level's units, and the system that keeps the
//! [`Roster`] snapshot in step with them.

use super::roster::{ReachBand, Roster, UnitView};
use crate::grid::{Footprint, GridPos, Size};
use crate::level::{Catalogue, CreatureDef, UnitDef, WeaponDef};
use crate::variants::RulesVariant;
use bevy::prelude::*;
use std::collections::BTreeSet;

/// A creature in the fight, named by its level id.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Combatant {
    pub id: String,
}

/// The side a combatant fights for.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Side(pub String);

/// The top-left square of the combatant's footprint.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Deref, DerefMut)]
pub struct Position(pub GridPos);

/// Size, which sets the footprint.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Body {
    pub size: Size,
}

/// Natural reach in feet.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    pub natural_ft: u32,
}

/// Land speed in feet.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Speed {
    pub ft: u32,
}

/// The weapon in hand.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct Wielded {
    pub id: String,
    pub def: WeaponDef,
    /// Its wielder is trained with it.
    pub trained: bool,
}

/// Hit points.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Health {
    pub hp: i32,
    pub max: i32,
    pub nonlethal: i32,
}

/// Whether the combatant knew a fight was coming.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Awareness {
    pub aware: bool,
}

/// The catalogue entry a combatant was made from.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct Stats {
    pub creature: String,
    pub def: CreatureDef,
}

/// Conditions the sources name that the game can express.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    Prone,
    Surprised,
    FlatFooted,
    Unconscious,
    Stunned,
    Dying,
    Stabilized,
    Dead,
    Grappled,
    Delayed,
}

/// The conditions on a combatant, in a stable order.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct Conditions(pub BTreeSet<Condition>);

impl Conditions {
    pub fn has(&self, c: Condition) -> bool {
        self.0.contains(&c)
    }
    /// Able to act and attack at all.
    pub fn able(&self) -> bool {
        able(&self.0)
    }
}

/// Able to act and attack at all: not unconscious, stunned, dying, stabilized or dead.
pub fn able(conditions: &BTreeSet<Condition>) -> bool {
    ![Condition::Unconscious, Condition::Stunned, Condition::Dying, Condition::Dead, Condition::Stabilized]
        .iter()
        .any(|c| conditions.contains(c))
}

/// Everything a combatant is spawned with.
#[derive(Bundle, Clone, Debug)]
pub struct CombatantBundle {
    pub combatant: Combatant,
    pub side: Side,
    pub position: Position,
    pub body: Body,
    pub reach: Reach,
    pub speed: Speed,
    pub wielded: Wielded,
    pub health: Health,
    pub awareness: Awareness,
    pub conditions: Conditions,
    pub stats: Stats,
}

impl CombatantBundle {
    /// The components of a level's unit; `None` if its creature or weapon is unknown
    /// (a validated level never has such units).
    pub fn from_level(unit: &UnitDef, catalogue: &Catalogue) -> Option<CombatantBundle> {
        let def = catalogue.creature(&unit.creature)?;
        let weapon_id = unit.weapon.clone().unwrap_or_else(|| def.weapon.clone());
        let weapon = catalogue.weapon(&weapon_id)?.clone();
        let size = unit.size.unwrap_or(def.size);
        let hp = unit.hp.unwrap_or(def.hp);
        Some(CombatantBundle {
            combatant: Combatant { id: unit.id.clone() },
            side: Side(unit.side.clone()),
            position: Position(unit.pos()),
            body: Body { size },
            reach: Reach { natural_ft: def.natural_reach_ft(size) },
            speed: Speed { ft: def.speed_ft },
            wielded: Wielded { id: weapon_id, trained: def.is_trained_with(&weapon), def: weapon },
            health: Health { hp, max: hp, nonlethal: 0 },
            awareness: Awareness { aware: unit.is_aware() },
            conditions: Conditions::default(),
            stats: Stats { creature: unit.creature.clone(), def: def.clone() },
        })
    }

    /// How the rules see this combatant under `variant`.
    pub fn view(&self, variant: RulesVariant) -> UnitView {
        unit_view(
            variant,
            &self.combatant,
            &self.position,
            &self.body,
            &self.reach,
            &self.speed,
            &self.wielded,
            &self.conditions,
        )
    }
}

/// The rules' view of one combatant's components.
pub fn unit_view(
    variant: RulesVariant,
    c: &Combatant,
    pos: &Position,
    body: &Body,
    reach: &Reach,
    speed: &Speed,
    wielded: &Wielded,
    conditions: &Conditions,
) -> UnitView {
    let footprint = Footprint::new(pos.0, body.size.side());
    let mut view = UnitView::new(&c.id, footprint, speed.ft, reach.natural_ft, &wielded.def, &conditions.0);
    view.threat =
        view.threat.and(ReachBand::threatened(variant, reach.natural_ft, body.size, &wielded.def, wielded.trained));
    view
}

/// Builds a roster straight from a level, without an App (tools, tests, benches).
pub fn roster_of_level(units: &[UnitDef], catalogue: &Catalogue, variant: RulesVariant) -> Roster {
    Roster::new(
        units
            .iter()
            .filter_map(|u| CombatantBundle::from_level(u, catalogue))
            .map(|b| (b.view(variant), b.side.0.clone()))
            .collect(),
    )
}

type RosterQuery<'w, 's> = Query<
    'w,
    's,
    (
        &'static Combatant,
        &'static Side,
        &'static Position,
        &'static Body,
        &'static Reach,
        &'static Speed,
        &'static Wielded,
        &'static Conditions,
    ),
>;

type RosterChanged = Or<(
    Changed<Combatant>,
    Changed<Position>,
    Changed<Body>,
    Changed<Reach>,
    Changed<Speed>,
    Changed<Wielded>,
    Changed<Conditions>,
)>;

/// Rebuilds the roster when any combatant's rule-relevant components change.
pub(super) fn rebuild_roster(
    all: RosterQuery,
    changed: Query<(), (With<Combatant>, RosterChanged)>,
    mut removed: RemovedComponents<Combatant>,
    mut roster: ResMut<Roster>,
    field: Res<super::Battlefield>,
) {
    let any_removed = removed.read().count() > 0;
    if changed.is_empty() && !any_removed {
        return;
    }
    let units = all
        .iter()
        .map(|(c, side, pos, body, reach, speed, wielded, cond)| {
            (unit_view(field.variant, c, pos, body, reach, speed, wielded, cond), side.0.clone())
        })
        .collect();
    roster.set_if_neq(Roster::new(units));
}
