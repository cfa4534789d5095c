//! The creature and weapon catalogues (`assets/creatures.ron`, `assets/weapons.ron`):
//! d20-style numbers from the SRD where they exist, plus what each variant needs
//! (ap-phases weapon speed, osr-segments space and speed factor).
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use crate::grid::Size;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

/// Dice such as `2d6`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct DiceExpr {
    pub count: u32,
    pub sides: u32,
}

impl DiceExpr {
    pub const fn new(count: u32, sides: u32) -> Self {
        Self { count, sides }
    }
    pub const fn min(self) -> u32 {
        self.count
    }
    pub const fn max(self) -> u32 {
        self.count * self.sides
    }

    /// The same weapon made for a creature of another size (the SRD's damage progression).
    pub fn scaled_for(self, size: Size) -> DiceExpr {
        let steps = size as i32 - Size::Medium as i32;
        let mut d = self;
        for _ in 0..steps.max(0) {
            d = d.one_size_up();
        }
        for _ in 0..(-steps).max(0) {
            d = d.one_size_down();
        }
        d
    }

    fn one_size_up(self) -> DiceExpr {
        let (c, s) = match (self.count, self.sides) {
            (1, 1) => (1, 2),
            (1, 2) => (1, 3),
            (1, 3) => (1, 4),
            (1, 4) => (1, 6),
            (1, 6) => (1, 8),
            (1, 8) => (2, 6),
            (1, 10) => (2, 8),
            (1, 12) => (3, 6),
            (2, 4) => (2, 6),
            (2, 6) => (3, 6),
            (2, 8) => (3, 8),
            (2, 10) => (4, 8),
            (c, 6) => (c + c / 2, 6),
            (c, 8) => (c + c / 2, 8),
            other => other,
        };
        DiceExpr::new(c, s)
    }

    fn one_size_down(self) -> DiceExpr {
        let (c, s) = match (self.count, self.sides) {
            (1, 2) => (1, 1),
            (1, 3) => (1, 2),
            (1, 4) => (1, 3),
            (1, 6) => (1, 4),
            (1, 8) => (1, 6),
            (1, 10) => (1, 8),
            (1, 12) => (1, 10),
            (2, 4) => (1, 6),
            (2, 6) => (1, 10),
            (2, 8) => (2, 6),
            (2, 10) => (2, 8),
            (3, 6) => (2, 6),
            (3, 8) => (2, 8),
            other => other,
        };
        DiceExpr::new(c, s)
    }
}

impl fmt::Display for DiceExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}d{}", self.count, self.sides)
    }
}

impl FromStr for DiceExpr {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || format!("\"{s}\" is not dice like \"2d6\"");
        let (c, d) = s.split_once('d').ok_or_else(bad)?;
        let count: u32 = if c.is_empty() { 1 } else { c.parse().map_err(|_| bad())? };
        let sides: u32 = d.parse().map_err(|_| bad())?;
        if count == 0 || sides == 0 || count > 100 {
            return Err(bad());
        }
        Ok(DiceExpr { count, sides })
    }
}

impl TryFrom<String> for DiceExpr {
    type Error = String;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}
impl From<DiceExpr> for String {
    fn from(d: DiceExpr) -> Self {
        d.to_string()
    }
}

/// What sort of weapon it is, which decides threat and how it attacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WeaponKind {
    /// A manufactured melee weapon (may also be thrown if it has a range increment).
    Melee,
    /// A natural weapon (bite, claw): always threatens.
    Natural,
    /// An unarmed strike: threatens nothing without a feat.
    Unarmed,
    /// A projectile weapon (bow, crossbow): threatens nothing.
    Ranged,
}

/// The training a weapon asks of its wielder (d20-classic: "When untrained with a
/// weapon, a character does not threaten squares and suffers a -3 training penalty").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Training {
    #[default]
    Simple,
    Martial,
    Exotic,
}

/// How many hands it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Hands {
    Light,
    One,
    Two,
}

/// ap-phases weapon speed: the earliest phase an attack with it may begin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum WeaponSpeed {
    Fast,
    Average,
    Slow,
    VerySlow,
}

/// One weapon of the catalogue (Medium-size numbers).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponDef {
    pub name: String,
    pub kind: WeaponKind,
    pub hands: Hands,
    /// Damage dice for a Medium wielder.
    pub damage: DiceExpr,
    /// Lowest d20 roll that threatens a critical hit (20 for "20/×2", 19 for "19–20").
    pub crit_range: u32,
    pub crit_mult: u32,
    /// A reach weapon doubles reach and cannot hit adjacent foes.
    #[serde(default)]
    pub reach: bool,
    /// Range increment in feet; 0 for weapons that cannot be fired or thrown.
    #[serde(default)]
    pub range_increment_ft: u32,
    /// Deals nonlethal damage.
    #[serde(default)]
    pub nonlethal: bool,
    /// Must be reloaded after each shot (crossbows).
    #[serde(default)]
    pub reload: bool,
    /// The training it asks for; natural weapons and unarmed strikes ask none.
    #[serde(default)]
    pub training: Training,
    /// ap-phases weapon speed.
    pub speed: WeaponSpeed,
    /// osr-segments: feet of space needed to swing it (over 4 needs an open adjacent square).
    pub space_ft: u32,
    /// osr-segments weapon speed factor, lower is quicker; breaks initiative ties.
    pub speed_factor: u32,
}

impl WeaponDef {
    /// Whether a wielder threatens squares with it.
    pub fn threatens(&self) -> bool {
        matches!(self.kind, WeaponKind::Melee | WeaponKind::Natural)
    }
    pub fn is_ranged(&self) -> bool {
        self.kind == WeaponKind::Ranged
    }
}

/// The six ability scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Abilities {
    pub str: i32,
    pub dex: i32,
    pub con: i32,
    pub int: i32,
    pub wis: i32,
    pub cha: i32,
}

/// The d20 ability modifier of a score.
pub const fn ability_mod(score: i32) -> i32 {
    (score - 10).div_euclid(2)
}

/// One creature of the catalogue, in d20 terms; other variants derive their numbers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreatureDef {
    pub name: String,
    pub size: Size,
    /// Tall creatures have the full natural reach of their size; long ones less.
    #[serde(default = "yes")]
    pub tall: bool,
    /// Natural reach in feet, when it differs from the size's.
    #[serde(default)]
    pub reach_ft: Option<u32>,
    pub speed_ft: u32,
    pub abilities: Abilities,
    pub base_attack: i32,
    pub hit_dice: u32,
    pub hp: i32,
    #[serde(default)]
    pub armor: i32,
    #[serde(default)]
    pub shield: i32,
    #[serde(default)]
    pub natural_armor: i32,
    /// The weapon wielded at the start of a fight.
    pub weapon: String,
    /// A weapon carried as a backup (drawn with an action).
    #[serde(default)]
    pub backup: Option<String>,
    /// The weapon training it has (simple and martial unless told).
    #[serde(default = "simple_and_martial")]
    pub trained: Vec<Training>,
    /// Feats and traits the rules know by name (e.g. `combat_reflexes`, `counterspell`).
    #[serde(default)]
    pub traits: Vec<String>,
    /// Spells it can cast, if it is a caster.
    #[serde(default)]
    pub spellcasting: Option<Spellcasting>,
}

/// A caster's magic: what it knows and how often it may cast in one battle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spellcasting {
    /// The ability its spells and concentration use.
    pub ability: CastingAbility,
    pub caster_level: u32,
    /// First-level spells it may cast in one battle (four-actions: its Spell Quantity).
    pub slots: u32,
    /// Spell ids from `assets/spells.ron`.
    pub spells: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CastingAbility {
    Int,
    Wis,
    Cha,
}

impl Abilities {
    /// The score of a casting ability.
    pub fn casting(&self, a: CastingAbility) -> i32 {
        match a {
            CastingAbility::Int => self.int,
            CastingAbility::Wis => self.wis,
            CastingAbility::Cha => self.cha,
        }
    }
}

/// One spell of the catalogue (d20 numbers; see `assets/spells.ron`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpellDef {
    /// Its key in the catalogue (filled in when the catalogue is read).
    #[serde(skip)]
    pub id: String,
    pub name: String,
    /// Spell level (four-actions: Spell Order, the SQ it costs).
    pub level: u32,
    pub school: String,
    /// Range in feet; `None` for touch.
    pub range_ft: Option<u32>,
    /// osr-segments casting time in segments.
    pub segments: u32,
    pub effect: SpellEffect,
}

/// What a spell does to its one target.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum SpellEffect {
    /// (caster level + 1) / 2 missiles, at most `max`, each `dice + bonus` damage; they
    /// never miss.
    Missiles { dice: DiceExpr, bonus: i32, max: u32 },
    /// `dice` + caster level (at most `max_bonus`) hit points back.
    Heal { dice: DiceExpr, max_bonus: i32 },
}

impl SpellDef {
    /// Whether it is cast on a friend (or the caster) rather than a foe.
    pub fn on_friends(&self) -> bool {
        matches!(self.effect, SpellEffect::Heal { .. })
    }
}

fn simple_and_martial() -> Vec<Training> {
    vec![Training::Simple, Training::Martial]
}

fn yes() -> bool {
    true
}

impl CreatureDef {
    /// Trained with `weapon` (natural weapons and unarmed strikes need no training).
    pub fn is_trained_with(&self, weapon: &WeaponDef) -> bool {
        matches!(weapon.kind, WeaponKind::Natural | WeaponKind::Unarmed) || self.trained.contains(&weapon.training)
    }

    /// Natural reach: the entry's own, or the size's (a long creature of Large size or
    /// more reaches 5 ft less).
    pub fn natural_reach_ft(&self, size: Size) -> u32 {
        if let Some(r) = self.reach_ft.filter(|_| size == self.size) {
            return r;
        }
        let r = size.natural_reach_ft();
        if !self.tall && size >= Size::Large { r - 5 } else { r }
    }
    /// Armor class: 10 + armor + shield + natural + Dex + size.
    pub fn armor_class(&self, size: Size) -> i32 {
        10 + self.armor + self.shield + self.natural_armor + ability_mod(self.abilities.dex) + size.size_modifier()
    }
    pub fn has_trait(&self, name: &str) -> bool {
        self.traits.iter().any(|t| t == name)
    }
}

/// Every creature and weapon the levels may name, in a stable (sorted) order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Catalogue {
    pub creatures: BTreeMap<String, CreatureDef>,
    pub weapons: BTreeMap<String, WeaponDef>,
    pub spells: BTreeMap<String, SpellDef>,
}

/// The catalogues shipped in `assets/`, compiled in so that the CLI works from anywhere.
pub const CREATURES_RON: &str = include_str!("../../assets/creatures.ron");
pub const WEAPONS_RON: &str = include_str!("../../assets/weapons.ron");
pub const SPELLS_RON: &str = include_str!("../../assets/spells.ron");

impl Catalogue {
    /// The shipped catalogue.
    pub fn builtin() -> Catalogue {
        Catalogue::builtin_ref().clone()
    }

    /// The shipped catalogue, parsed once.
    pub fn builtin_ref() -> &'static Catalogue {
        static BUILTIN: std::sync::OnceLock<Catalogue> = std::sync::OnceLock::new();
        // Compiled in and checked by the tests: it cannot fail at run time.
        #[allow(clippy::expect_used)]
        BUILTIN.get_or_init(|| {
            Catalogue::parse(CREATURES_RON, WEAPONS_RON, SPELLS_RON).expect("shipped catalogue must be valid")
        })
    }

    /// Parses catalogue texts and checks that every creature's weapons and spells exist.
    pub fn parse(creatures: &str, weapons: &str, spells: &str) -> Result<Catalogue, String> {
        let mut spells: BTreeMap<String, SpellDef> =
            super::ron_options().from_str(spells).map_err(|e| format!("assets/spells.ron:{e}"))?;
        for (id, s) in &mut spells {
            s.id = id.clone();
            let missiles_ok = !matches!(s.effect, SpellEffect::Missiles { max: 0, .. });
            if s.level == 0 || !(1..=10).contains(&s.segments) || !missiles_ok {
                return Err(format!(
                    "assets/spells.ron: spell \"{id}\" needs a level of 1 or more, 1 to 10 segments and at least one missile"
                ));
            }
        }
        let weapons: BTreeMap<String, WeaponDef> =
            super::ron_options().from_str(weapons).map_err(|e| format!("assets/weapons.ron:{e}"))?;
        let creatures: BTreeMap<String, CreatureDef> =
            super::ron_options().from_str(creatures).map_err(|e| format!("assets/creatures.ron:{e}"))?;
        for (id, c) in &creatures {
            if !(1..=super::MAX_HP).contains(&c.hp) {
                return Err(format!(
                    "assets/creatures.ron: creature \"{id}\" has {} hit points; they must be 1 to {}",
                    c.hp,
                    super::MAX_HP
                ));
            }
            for w in std::iter::once(&c.weapon).chain(c.backup.as_ref()) {
                if !weapons.contains_key(w) {
                    return Err(format!("assets/creatures.ron: creature \"{id}\" names unknown weapon \"{w}\""));
                }
            }
        }
        for (id, c) in &creatures {
            for sp in c.spellcasting.iter().flat_map(|m| &m.spells) {
                if !spells.contains_key(sp) {
                    return Err(format!("assets/creatures.ron: creature \"{id}\" names unknown spell \"{sp}\""));
                }
            }
        }
        for (id, w) in &weapons {
            if !(2..=20).contains(&w.crit_range) || w.crit_mult < 2 {
                return Err(format!(
                    "assets/weapons.ron: weapon \"{id}\" has an impossible critical {}/×{}",
                    w.crit_range, w.crit_mult
                ));
            }
        }
        Ok(Catalogue { creatures, weapons, spells })
    }

    pub fn creature(&self, id: &str) -> Option<&CreatureDef> {
        self.creatures.get(id)
    }
    pub fn weapon(&self, id: &str) -> Option<&WeaponDef> {
        self.weapons.get(id)
    }
    pub fn spell(&self, id: &str) -> Option<&SpellDef> {
        self.spells.get(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dice_parse_and_print() {
        assert_eq!("2d6".parse::<DiceExpr>(), Ok(DiceExpr::new(2, 6)));
        assert_eq!("d8".parse::<DiceExpr>(), Ok(DiceExpr::new(1, 8)));
        assert!("2x6".parse::<DiceExpr>().is_err());
        assert!("0d6".parse::<DiceExpr>().is_err());
        assert_eq!(DiceExpr::new(1, 10).to_string(), "1d10");
    }

    #[test]
    fn weapon_damage_scales_with_size_as_the_srd_does() {
        // A Large greatclub deals 2d8, a Small short sword 1d4, a Large longsword 2d6.
        assert_eq!(DiceExpr::new(1, 10).scaled_for(Size::Large), DiceExpr::new(2, 8));
        assert_eq!(DiceExpr::new(1, 6).scaled_for(Size::Small), DiceExpr::new(1, 4));
        assert_eq!(DiceExpr::new(1, 8).scaled_for(Size::Large), DiceExpr::new(2, 6));
        assert_eq!(DiceExpr::new(2, 6).scaled_for(Size::Large), DiceExpr::new(3, 6));
        assert_eq!(DiceExpr::new(1, 8).scaled_for(Size::Medium), DiceExpr::new(1, 8));
    }

    #[test]
    fn ability_modifiers_round_down() {
        assert_eq!(ability_mod(10), 0);
        assert_eq!(ability_mod(11), 0);
        assert_eq!(ability_mod(8), -1);
        assert_eq!(ability_mod(7), -2);
        assert_eq!(ability_mod(21), 5);
    }

    #[test]
    fn shipped_catalogue_has_the_required_entries() {
        let cat = Catalogue::builtin();
        for c in ["human_fighter", "human_archer", "spearman", "goblin", "ogre", "wolf"] {
            assert!(cat.creature(c).is_some(), "missing creature {c}");
        }
        for w in [
            "unarmed",
            "dagger",
            "short_sword",
            "longsword",
            "greatsword",
            "greatclub",
            "longspear",
            "glaive",
            "shortbow",
            "longbow",
            "light_crossbow",
        ] {
            assert!(cat.weapon(w).is_some(), "missing weapon {w}");
        }
        let ogre = cat.creature("ogre").unwrap();
        assert_eq!(ogre.size, Size::Large);
        assert_eq!(ogre.natural_reach_ft(Size::Large), 10);
        assert_eq!(ogre.speed_ft, 40);
        assert_eq!(ogre.weapon, "greatclub");
        assert_eq!(ogre.armor_class(Size::Large), 17);
        let goblin = cat.creature("goblin").unwrap();
        assert_eq!((goblin.size, goblin.abilities.dex, goblin.weapon.as_str()), (Size::Small, 15, "short_sword"));
        assert_eq!(goblin.armor_class(Size::Small), 16);
        assert_eq!(cat.creature("wolf").unwrap().speed_ft, 50);
        let archer = cat.creature("human_archer").unwrap();
        assert!(cat.weapon(&archer.weapon).unwrap().is_ranged());
        assert!(archer.backup.as_ref().is_some_and(|b| cat.weapon(b).unwrap().threatens()));
        assert!(cat.weapon("longspear").unwrap().reach);
        assert!(cat.weapon("glaive").unwrap().reach);
        assert_eq!(cat.weapon("greatsword").unwrap().speed, WeaponSpeed::Slow);
        assert!(!cat.weapon("unarmed").unwrap().threatens());
        assert!(cat.weapon("bite").unwrap().threatens());
    }

    #[test]
    fn catalogue_rejects_unknown_weapons() {
        let err = Catalogue::parse(
            r#"{"x": (name: "X", size: Medium, speed_ft: 30, abilities: (str: 10, dex: 10, con: 10, int: 10, wis: 10, cha: 10), base_attack: 0, hit_dice: 1, hp: 4, weapon: "spork")}"#,
            WEAPONS_RON,
            SPELLS_RON,
        )
        .unwrap_err();
        assert!(err.contains("spork"), "{err}");
    }

    #[test]
    fn catalogue_rejects_unknown_spells() {
        let err = Catalogue::parse(
            r#"{"x": (name: "X", size: Medium, speed_ft: 30, abilities: (str: 10, dex: 10, con: 10, int: 10, wis: 10, cha: 10), base_attack: 0, hit_dice: 1, hp: 4, weapon: "dagger", spellcasting: (ability: Int, caster_level: 1, slots: 1, spells: ["wish"]))}"#,
            WEAPONS_RON,
            SPELLS_RON,
        )
        .unwrap_err();
        assert!(err.contains("unknown spell \"wish\""), "{err}");
    }

    #[test]
    fn catalogue_rejects_impossible_spells() {
        let spell = |level: u32, segments: u32, max: u32| {
            format!(
                r#"{{"s": (name: "S", level: {level}, school: "evocation", range_ft: Some(10), segments: {segments}, effect: Missiles(dice: "1d4", bonus: 0, max: {max}))}}"#
            )
        };
        assert!(Catalogue::parse("{}", WEAPONS_RON, &spell(1, 1, 1)).is_ok());
        for bad in [spell(0, 1, 1), spell(1, 11, 1), spell(1, 1, 0)] {
            let err = Catalogue::parse("{}", WEAPONS_RON, &bad).unwrap_err();
            assert!(err.contains("spell \"s\""), "{err}");
        }
    }

    #[test]
    fn shipped_spells_read_as_the_srd_has_them() {
        let cat = Catalogue::builtin_ref();
        let mm = cat.spell("magic_missile").unwrap();
        assert_eq!((mm.level, mm.range_ft, mm.segments), (1, Some(110), 1));
        assert_eq!(mm.effect, SpellEffect::Missiles { dice: DiceExpr::new(1, 4), bonus: 1, max: 5 });
        let cure = cat.spell("cure_light_wounds").unwrap();
        assert!(cure.on_friends() && cure.range_ft.is_none());
        let mage = cat.creature("war_mage").unwrap();
        assert!(mage.has_trait("counterspell"));
        assert_eq!(mage.spellcasting.as_ref().unwrap().spells, ["magic_missile"]);
    }
}
