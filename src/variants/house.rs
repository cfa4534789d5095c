//! House rules: the named changes a table makes to its rules, each switching one rule off
//! or changing it under the variants it names. What each one does to the rules schedule
//! (the systems it removes or replaces) is its plugin, in `combat::house_rules`.

use super::RulesVariant;
use serde::{Deserialize, Serialize};

/// A house rule, named as levels, logs and the CLI name it (`"no-flanking"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, clap::ValueEnum)]
#[serde(try_from = "String", into = "String")]
pub enum HouseRule {
    /// Flanking gives no bonus (nor, in four-actions, surprise).
    NoFlanking,
    /// Cover gives twice its bonus to defence.
    DoubleCover,
    /// A charge's attack gets no bonus to hit.
    NoChargeBonus,
    /// Ranged attacks take no penalty for range increments.
    NoRangePenalty,
    /// Nobody may delay.
    NoDelay,
    /// Nobody may hold (ready) an attack.
    NoReadiedAttacks,
}

impl HouseRule {
    pub const ALL: [HouseRule; 6] = [
        HouseRule::NoFlanking,
        HouseRule::DoubleCover,
        HouseRule::NoChargeBonus,
        HouseRule::NoRangePenalty,
        HouseRule::NoDelay,
        HouseRule::NoReadiedAttacks,
    ];

    pub const fn id(self) -> &'static str {
        match self {
            HouseRule::NoFlanking => "no-flanking",
            HouseRule::DoubleCover => "double-cover",
            HouseRule::NoChargeBonus => "no-charge-bonus",
            HouseRule::NoRangePenalty => "no-range-penalty",
            HouseRule::NoDelay => "no-delay",
            HouseRule::NoReadiedAttacks => "no-readied-attacks",
        }
    }

    /// What it does, in a player's words.
    pub const fn describe(self) -> &'static str {
        match self {
            HouseRule::NoFlanking => "flanking gives no bonus",
            HouseRule::DoubleCover => "cover gives twice its bonus",
            HouseRule::NoChargeBonus => "a charge gives no bonus to hit",
            HouseRule::NoRangePenalty => "no penalty for range increments",
            HouseRule::NoDelay => "nobody may delay",
            HouseRule::NoReadiedAttacks => "nobody may hold an attack",
        }
    }

    /// The variants whose sources have the rule it changes.
    pub fn applies_to(self) -> &'static [RulesVariant] {
        use RulesVariant::*;
        match self {
            // osr-segments and hex-phases have no flanking rule.
            HouseRule::NoFlanking => &[ApPhases, FourActions, D20Classic],
            HouseRule::DoubleCover => &RulesVariant::ALL,
            // osr-segments has no held attack.
            HouseRule::NoReadiedAttacks => &[ApPhases, FourActions, D20Classic, HexPhases],
            // d20-classic's and hex-phases' charges give no bonus to hit to begin with.
            HouseRule::NoChargeBonus => &[ApPhases, FourActions, OsrSegments],
            // hex-phases' source has no range penalty.
            HouseRule::NoRangePenalty => &[ApPhases, FourActions, D20Classic, OsrSegments],
            // ap-phases and four-actions have no delay; osr-segments' is an intent declared
            // for the round with the group initiative, not an action of its own.
            HouseRule::NoDelay => &[D20Classic, HexPhases],
        }
    }

    /// Whether it may be played under `variant`, or why not.
    pub fn check(self, variant: RulesVariant) -> Result<(), String> {
        if self.applies_to().contains(&variant) {
            Ok(())
        } else {
            let names: Vec<&str> = self.applies_to().iter().map(|v| v.id()).collect();
            Err(format!("house rule {} does not apply to {} (only to {})", self.id(), variant.id(), names.join(", ")))
        }
    }

    /// Every one of `rules` that applies to `variant`, or the first that does not.
    pub fn check_all(rules: &[HouseRule], variant: RulesVariant) -> Result<(), String> {
        rules.iter().try_for_each(|r| r.check(variant))
    }
}

/// The house rules a battle is fought under: those `asked` for (on the command line or in
/// a menu), each of which must apply to `variant`; or, when none are asked for, those the
/// level names that apply to `variant` (a level's house rule for another variant is left
/// out, so the level can still be played under every variant). Sorted, each once.
pub fn in_force(asked: &[HouseRule], level: &[HouseRule], variant: RulesVariant) -> Result<Vec<HouseRule>, String> {
    let mut rules: Vec<HouseRule> = if asked.is_empty() {
        level.iter().copied().filter(|r| r.applies_to().contains(&variant)).collect()
    } else {
        HouseRule::check_all(asked, variant)?;
        asked.to_vec()
    };
    rules.sort();
    rules.dedup();
    Ok(rules)
}

impl TryFrom<String> for HouseRule {
    type Error = String;
    fn try_from(name: String) -> Result<Self, String> {
        HouseRule::ALL.into_iter().find(|r| r.id() == name).ok_or_else(|| {
            let known: Vec<&str> = HouseRule::ALL.iter().map(|r| r.id()).collect();
            format!("unknown house rule \"{name}\" (known: {})", known.join(", "))
        })
    }
}

impl From<HouseRule> for String {
    fn from(rule: HouseRule) -> String {
        rule.id().into()
    }
}

impl std::fmt::Display for HouseRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}
