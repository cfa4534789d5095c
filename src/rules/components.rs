//! The components every combatant has, in a battle's world and in a headless world of a
//! level's units: who it is, its side, where it stands and how big it is, its reach, the
//! weapon in hand, its health and dying state, its awareness and its conditions. Here too
//! the system that keeps a headless world's [`Roster`] in step with them.

use super::roster::{ReachBand, Roster, UnitView};
use crate::grid::{Footprint, GridPos, Size};
use crate::level::{Catalogue, CreatureDef, UnitDef, WeaponDef, ability_mod};
use crate::variants::RulesVariant;
use bevy::prelude::*;
use std::collections::BTreeSet;
use std::sync::Arc;

/// A creature in the fight, named by its level id.
#[derive(Component, Debug, PartialEq, Eq)]
pub struct Combatant {
    pub id: String,
}

clone_in_place!(Combatant { id });

/// The side a combatant fights for.
#[derive(Component, Debug, PartialEq, Eq)]
pub struct Side(pub String);

clone_in_place!(Side { 0 });

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

/// The weapon in hand (its catalogue entry shared with every copy of the battle).
#[derive(Component, Debug, PartialEq)]
pub struct Wielded {
    pub id: String,
    pub def: Arc<WeaponDef>,
    /// A crossbow is loaded (weapons that need no reloading are always ready).
    pub loaded: bool,
}

clone_in_place!(Wielded { id, def, loaded });

/// Hit points, and how it is faring once they are gone.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Health {
    pub hp: i32,
    pub max: i32,
    pub nonlethal: i32,
    /// Consecutive failed death saves (d20-classic).
    pub death_fails: u32,
    /// Damage of the blow that dropped it (d20-classic "Brutality" death saves).
    pub dropping_damage: i32,
}

impl Health {
    /// Full health at `hp`.
    pub fn full(hp: i32) -> Health {
        Health { hp, max: hp, nonlethal: 0, death_fails: 0, dropping_damage: 0 }
    }
}

/// Whether the combatant knew a fight was coming, and whether it has acted yet
/// (four-actions: Surprised until then; d20-classic: flat-footed).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Awareness {
    pub aware: bool,
    pub has_acted: bool,
}

/// The catalogue entry a combatant was made from (shared with every copy of the battle).
#[derive(Component, Debug, PartialEq)]
pub struct Stats {
    pub creature: String,
    pub def: Arc<CreatureDef>,
}

clone_in_place!(Stats { creature, def });

impl Stats {
    pub fn str_mod(&self) -> i32 {
        ability_mod(self.def.abilities.str)
    }
    pub fn dex_mod(&self) -> i32 {
        ability_mod(self.def.abilities.dex)
    }
    pub fn con_mod(&self) -> i32 {
        ability_mod(self.def.abilities.con)
    }
    /// Trained with `weapon`.
    pub fn trained_with(&self, weapon: &WeaponDef) -> bool {
        self.def.is_trained_with(weapon)
    }
    pub fn has_trait(&self, t: &str) -> bool {
        self.def.has_trait(t)
    }
    /// Whether it knows this spell.
    pub fn knows(&self, spell: &str) -> bool {
        self.def.spellcasting.as_ref().is_some_and(|m| m.spells.iter().any(|s| s == spell))
    }
    /// Caster level (0 for non-casters).
    pub fn caster_level(&self) -> i32 {
        self.def.spellcasting.as_ref().map_or(0, |m| m.caster_level as i32)
    }
    /// The modifier of its casting ability (0 for non-casters).
    pub fn casting_mod(&self) -> i32 {
        self.def.spellcasting.as_ref().map_or(0, |m| ability_mod(self.def.abilities.casting(m.ability)))
    }
    /// What a caster adds to its d20 in a caster's check (concentration, identifying a
    /// spell, presenting a focus): caster level + casting ability modifier.
    pub fn casting_check(&self) -> i32 {
        self.caster_level() + self.casting_mod()
    }
    /// A Fortitude save bonus derived from the entry (good save: 2 + HD/2, plus Con).
    pub fn fortitude(&self) -> i32 {
        2 + self.def.hit_dice as i32 / 2 + self.con_mod()
    }
    /// Reflex save bonus (poor save: HD/3, plus Dex).
    pub fn reflex(&self) -> i32 {
        self.def.hit_dice as i32 / 3 + self.dex_mod()
    }
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
    /// Held down in a grapple (ap-phases' pin): it can only try to escape, and has no
    /// Dexterity to AC.
    Pinned,
}

/// The conditions on a combatant, in a stable order.
#[derive(Component, Debug, Default, PartialEq, Eq)]
pub struct Conditions(pub BTreeSet<Condition>);

impl Clone for Conditions {
    fn clone(&self) -> Self {
        Conditions(self.0.clone())
    }
    fn clone_from(&mut self, source: &Self) {
        crate::copy_if_changed(&mut self.0, &source.0);
    }
}

impl Conditions {
    pub fn has(&self, c: Condition) -> bool {
        self.0.contains(&c)
    }
    /// Able to act and attack at all.
    pub fn able(&self) -> bool {
        able(&self.0)
    }
    /// Gains `c`; false if it already had it.
    pub fn add(&mut self, c: Condition) -> bool {
        self.0.insert(c)
    }
    /// Loses `c`; false if it did not have it.
    pub fn remove(&mut self, c: Condition) -> bool {
        self.0.remove(&c)
    }
    /// Still fighting: conscious and alive.
    pub fn in_fight(&self) -> bool {
        !self.has(Condition::Dead) && !self.has(Condition::Unconscious)
    }
    pub fn alive(&self) -> bool {
        !self.has(Condition::Dead)
    }
    /// Can take actions now.
    pub fn can_act(&self) -> bool {
        self.in_fight() && !self.has(Condition::Stunned)
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
            wielded: Wielded { id: weapon_id, def: Arc::new(weapon), loaded: true },
            health: Health::full(hp),
            awareness: Awareness { aware: unit.is_aware(), has_acted: false },
            conditions: Conditions::default(),
            stats: Stats { creature: unit.creature.clone(), def: Arc::new(def.clone()) },
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
            &self.stats,
            &self.wielded,
            &self.conditions,
        )
    }
}

/// The rules' view of one combatant's components: where it stands (the dead leave the
/// board) and what it threatens under `variant`.
pub fn unit_view(
    variant: RulesVariant,
    c: &Combatant,
    pos: &Position,
    body: &Body,
    reach: &Reach,
    stats: &Stats,
    wielded: &Wielded,
    conditions: &Conditions,
) -> UnitView {
    let mut footprint = Footprint::new(pos.0, body.size.side());
    if !conditions.alive() {
        footprint.origin = crate::grid::GridPos::new(-1000, -1000);
    }
    let mut view = UnitView::new(&c.id, footprint, stats.def.speed_ft, reach.natural_ft, &wielded.def, &conditions.0);
    let trained = stats.trained_with(&wielded.def);
    view.threat = view.threat.and(ReachBand::threatened(variant, reach.natural_ft, body.size, &wielded.def, trained));
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

/// A combatant's components that the grid rules read (`unit_view`), with its side.
pub type RosterQuery<'w, 's> = Query<
    'w,
    's,
    (
        &'static Combatant,
        &'static Side,
        &'static Position,
        &'static Body,
        &'static Reach,
        &'static Stats,
        &'static Wielded,
        &'static Conditions,
    ),
>;

type RosterChanged = Or<(
    Changed<Combatant>,
    Changed<Position>,
    Changed<Body>,
    Changed<Reach>,
    Changed<Stats>,
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
        .map(|(c, side, pos, body, reach, stats, wielded, cond)| {
            (unit_view(field.variant, c, pos, body, reach, stats, wielded, cond), side.0.clone())
        })
        .collect();
    roster.set_if_neq(Roster::new(units));
}
