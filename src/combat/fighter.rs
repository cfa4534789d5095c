//! A combatant's state during a battle: where it stands, what it wields, its hit points,
//! conditions and what it may still do this turn, round or phase.

use crate::grid::{Footprint, GridPos, Size};
use crate::level::{Catalogue, CreatureDef, DiceExpr, UnitDef, WeaponDef, ability_mod};
use crate::rules::Condition;
use serde::Serialize;
use std::collections::BTreeSet;

/// One combatant.
#[derive(Clone, Debug, bevy::prelude::Component)]
pub struct Fighter {
    pub id: String,
    pub side: String,
    pub pos: GridPos,
    pub size: Size,
    pub creature: String,
    /// Its creature's entry in the catalogue, shared by every copy of the battle.
    pub def: std::sync::Arc<CreatureDef>,
    pub natural_reach_ft: u32,
    pub weapon_id: String,
    /// The weapon in hand (shared with the catalogue's entry until it changes).
    pub weapon: std::sync::Arc<WeaponDef>,
    pub hp: i32,
    pub max_hp: i32,
    pub nonlethal: i32,
    pub aware: bool,
    pub conditions: BTreeSet<Condition>,
    /// Sort key for the initiative order (higher acts first); ties already broken.
    pub initiative: i64,
    /// The initiative roll or score shown to players.
    pub initiative_shown: i32,
    /// Consecutive failed death saves (d20-classic).
    pub death_fails: u32,
    /// Damage of the blow that dropped it (d20-classic "Brutality" death saves).
    pub dropping_damage: i32,
    /// Has taken its first turn (four-actions: Surprised until then; d20: flat-footed).
    pub has_acted: bool,
    /// Defensive bonuses lasting until its next turn, by name.
    pub defense: Vec<(String, i32)>,
    /// Attack bonuses lasting until its next turn, by name.
    pub offense: Vec<(String, i32)>,
    /// Damage bonuses lasting until its next turn, by name.
    pub damage_bonus: Vec<(String, i32)>,
    /// Reactions used (attacks of opportunity, free attacks) in the current window
    /// (a phase, a segment, or until its next turn, as the variant has it).
    pub reactions_used: u32,
    /// Reactions used this round.
    pub reactions_round: u32,
    /// The foe it charged and the round it did (ap-phases: the charge's attack bonus lasts
    /// the round against that foe).
    pub charged: Option<(usize, u32)>,
    /// osr-segments: foes it has drawn a free attack from this round.
    pub free_attacked_by: BTreeSet<String>,
    /// Its crossbow is loaded (weapons that need no reloading are always ready).
    pub loaded: bool,
    /// Who it is locked in a grapple with.
    pub grappling: Option<usize>,
    /// In a grapple, it has the upper hand: it seized the foe, or won the last contest
    /// and kept hold (four-actions).
    pub holds_grapple: bool,
    /// A held (readied) attack: on this foe, or on any foe entering its reach.
    pub held: Option<Option<String>>,
    /// Spells it may still cast this battle (four-actions: Spell Quantity left).
    pub spells_left: u32,
    /// osr-segments: the spell it is casting this round, going off in the spells step
    /// unless its concentration breaks first.
    pub casting: Option<Casting>,
}

/// A spell being cast (osr-segments: announced in the caster's group turn).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Casting {
    pub spell: String,
    pub target: String,
}

/// What an immediate action is spent on (d20-classic keeps which, by its own state).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Immediate {
    AttackOfOpportunity,
    HeldAction,
    Counterspell,
}

/// A roll-relevant modifier by name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Modifier {
    pub source: String,
    pub value: i32,
}

impl Modifier {
    pub fn new(source: impl Into<String>, value: i32) -> Modifier {
        Modifier { source: source.into(), value }
    }
}

impl Fighter {
    /// A fighter from a level's unit (the level was validated).
    pub fn from_unit(unit: &UnitDef, catalogue: &Catalogue) -> Option<Fighter> {
        let def = catalogue.creature(&unit.creature)?.clone();
        let spells_left = def.spellcasting.as_ref().map_or(0, |m| m.slots);
        let weapon_id = unit.weapon.clone().unwrap_or_else(|| def.weapon.clone());
        let weapon = catalogue.weapon(&weapon_id)?.clone();
        let size = unit.size.unwrap_or(def.size);
        let hp = unit.hp.unwrap_or(def.hp);
        Some(Fighter {
            id: unit.id.clone(),
            side: unit.side.clone(),
            pos: unit.pos(),
            size,
            creature: unit.creature.clone(),
            natural_reach_ft: def.natural_reach_ft(size),
            def: std::sync::Arc::new(def),
            weapon_id,
            weapon: std::sync::Arc::new(weapon),
            hp,
            max_hp: hp,
            nonlethal: 0,
            aware: unit.is_aware(),
            conditions: BTreeSet::new(),
            initiative: 0,
            initiative_shown: 0,
            death_fails: 0,
            dropping_damage: 0,
            has_acted: false,
            defense: vec![],
            offense: vec![],
            damage_bonus: vec![],
            reactions_used: 0,
            reactions_round: 0,
            free_attacked_by: BTreeSet::new(),
            charged: None,
            held: None,
            grappling: None,
            holds_grapple: false,
            loaded: true,
            spells_left,
            casting: None,
        })
    }

    pub fn footprint(&self) -> Footprint {
        Footprint::new(self.pos, self.size.side())
    }
    /// Trained with the weapon in hand.
    pub fn trained(&self) -> bool {
        self.def.is_trained_with(&self.weapon)
    }

    pub fn str_mod(&self) -> i32 {
        ability_mod(self.def.abilities.str)
    }
    pub fn dex_mod(&self) -> i32 {
        ability_mod(self.def.abilities.dex)
    }
    pub fn con_mod(&self) -> i32 {
        ability_mod(self.def.abilities.con)
    }
    pub fn has(&self, c: Condition) -> bool {
        self.conditions.contains(&c)
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
    /// Weapon damage dice for its size.
    pub fn damage_dice(&self) -> DiceExpr {
        self.weapon.damage.scaled_for(self.size)
    }
    /// d20 armor class before situational modifiers.
    pub fn armor_class(&self) -> i32 {
        self.def.armor_class(self.size)
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
    /// A Fortitude save bonus derived from the entry (good save: 2 + HD/2, plus Con).
    pub fn fortitude(&self) -> i32 {
        2 + self.def.hit_dice as i32 / 2 + self.con_mod()
    }
    /// Reflex save bonus (poor save: HD/3, plus Dex).
    pub fn reflex(&self) -> i32 {
        self.def.hit_dice as i32 / 3 + self.dex_mod()
    }
    /// Ends the effects that last "until your next turn".
    pub fn start_turn(&mut self) {
        self.defense.clear();
        self.offense.clear();
        self.damage_bonus.clear();
    }
    pub fn add(&mut self, c: Condition) -> bool {
        self.conditions.insert(c)
    }
    pub fn remove(&mut self, c: Condition) -> bool {
        self.conditions.remove(&c)
    }
}
