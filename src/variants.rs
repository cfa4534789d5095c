//! The five rule variants a scenario can be played under, one per source in
//! `shared/rules-sources/`, and the numbers and grid rules each one reads from its file
//! `assets/rules/<id>.ron` (embedded in the binary by `build.rs`).

use crate::grid::{Metric, Shape};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

mod house;
mod numbers;
pub use house::{HouseRule, in_force as house_rules_in_force};
pub use numbers::*;

/// A rule variant, named as levels and the CLI name it.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, clap::ValueEnum,
)]
#[serde(try_from = "String", into = "String")]
pub enum RulesVariant {
    /// 000: action points, action phases, weapon speed.
    ApPhases,
    /// 001: standard/move/quick/reaction; flanking makes the foe Surprised.
    FourActions,
    /// 002: move/standard/swift/immediate, iterative attacks, crits, death saves.
    #[default]
    D20Classic,
    /// 003: 1-minute rounds of 10 segments, group initiative, descending AC.
    OsrSegments,
    /// 004: 4 phases per 12-s turn, 3d6 + OCV vs 10 + DCV, hexes.
    HexPhases,
}

/// How a variant decides flanking (rules-notes, *Flanking*).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum FlankingRule {
    /// The line between the two attackers' centres crosses opposite borders or corners.
    OppositeBorders,
    /// The two attackers stand in mirror-image squares through the foe's centre.
    MirrorSquares,
    /// The source has no flanking rule.
    None,
}

impl RulesVariant {
    pub const ALL: [RulesVariant; 5] = [
        RulesVariant::ApPhases,
        RulesVariant::FourActions,
        RulesVariant::D20Classic,
        RulesVariant::OsrSegments,
        RulesVariant::HexPhases,
    ];

    pub const fn id(self) -> &'static str {
        match self {
            RulesVariant::ApPhases => "ap-phases",
            RulesVariant::FourActions => "four-actions",
            RulesVariant::D20Classic => "d20-classic",
            RulesVariant::OsrSegments => "osr-segments",
            RulesVariant::HexPhases => "hex-phases",
        }
    }

    /// The id and the one-line summary of its rules file, for a dropdown's entries.
    pub fn entry(self) -> String {
        format!("{}: {}", self.id(), self.numbers().summary)
    }

    /// The variant played on hexes (the default variant of a new hex map).
    pub fn on_hexes() -> RulesVariant {
        RulesVariant::ALL.into_iter().find(|v| v.shape() == Shape::Hex).unwrap_or_default()
    }

    /// This variant's numbers and grid rules, from `assets/rules/<id>.ron`.
    pub fn numbers(self) -> &'static VariantNumbers {
        numbers(self)
    }

    /// The grid rules the shared rules core reads (threat, reach, flanking, cover,
    /// movement).
    pub fn grid(self) -> &'static GridRules {
        &numbers(self).grid
    }

    pub fn shape(self) -> Shape {
        self.grid().shape
    }

    /// How ranges and reach are measured.
    pub fn range_metric(self) -> Metric {
        self.grid().range_metric
    }

    /// How movement is counted.
    pub fn move_metric(self) -> Metric {
        self.grid().move_metric
    }

    /// Exactly 10 ft of reach also threatens two diagonals away.
    pub fn diagonal_reach_exception(self) -> bool {
        self.grid().diagonal_reach_exception
    }

    /// A Small creature with a reach weapon loses the corners of its reach (the squares two
    /// diagonals away that the 10-ft exception gives).
    pub fn small_reach_loses_corners(self) -> bool {
        self.grid().small_reach_loses_corners
    }

    /// A creature untrained with its weapon threatens nothing.
    pub fn untrained_threaten_nothing(self) -> bool {
        self.grid().untrained_threaten_nothing
    }

    pub fn flanking(self) -> FlankingRule {
        self.grid().flanking
    }

    /// Feet a single move action covers for a creature of `speed_ft` (rounded down to
    /// 5 ft).
    pub fn move_action_ft(self, speed_ft: u32) -> u32 {
        match self.grid().move_action_divisor {
            0 | 1 => speed_ft,
            d => speed_ft / d / 5 * 5,
        }
    }
}

impl fmt::Display for RulesVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl FromStr for RulesVariant {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RulesVariant::ALL.into_iter().find(|v| v.id() == s).ok_or_else(|| {
            let known: Vec<_> = RulesVariant::ALL.iter().map(|v| v.id()).collect();
            format!("unknown rule variant \"{s}\" (known: {})", known.join(", "))
        })
    }
}

impl TryFrom<String> for RulesVariant {
    type Error = String;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<RulesVariant> for String {
    fn from(v: RulesVariant) -> String {
        v.id().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip() {
        for v in RulesVariant::ALL {
            assert_eq!(v.id().parse::<RulesVariant>(), Ok(v));
            let ron = ron::to_string(&v).unwrap();
            assert_eq!(ron, format!("\"{}\"", v.id()));
        }
        assert!("d20".parse::<RulesVariant>().is_err());
    }

    #[test]
    fn the_list_of_variants_is_in_the_enum_s_order() {
        // `numbers` finds a variant's numbers by its discriminant.
        for (i, v) in RulesVariant::ALL.into_iter().enumerate() {
            assert_eq!(v as usize, i, "{v}");
        }
        assert_ne!(RulesVariant::HexPhases.numbers(), RulesVariant::D20Classic.numbers());
    }

    /// The rules a source settles by a choice, as each numbers file gives them: d20-classic
    /// only "equal to or greater than AC hits" (no natural 20 or 1), hex-phases rolls 3d6,
    /// osr-segments has no surprise round but declarations, criticals as each source has
    /// them.
    #[test]
    fn each_variant_makes_its_source_s_choices() {
        use RulesVariant::*;
        let rules = |v: RulesVariant| v.numbers().rules.clone();
        assert_eq!(rules(D20Classic).attack_die, AttackDie::D20 { naturals: false });
        assert_eq!(rules(ApPhases).attack_die, AttackDie::D20 { naturals: true });
        assert_eq!(rules(HexPhases).attack_die, AttackDie::ThreeD6);
        assert!(!rules(OsrSegments).surprise_round && rules(OsrSegments).declarations);
        assert!(RulesVariant::ALL.iter().filter(|&&v| v != OsrSegments).all(|&v| rules(v).surprise_round));
        let criticals = RulesVariant::ALL.map(|v| rules(v).criticals);
        use Criticals::{Confirmed, None, OnThreat};
        assert_eq!(criticals, [Confirmed, OnThreat, Confirmed, None, None]);
        let grapples = RulesVariant::ALL.map(|v| rules(v).grapples);
        assert_eq!(grapples, [true, true, true, false, false]);
        assert!(rules(HexPhases).aborting && rules(ApPhases).charge_completes_later);
        assert!(rules(FourActions).pusher_follows);
        // Only d20-classic's plugin adds the system that reads the grapple miss chance.
        let strays = RulesVariant::ALL.map(|v| v.numbers().grapple_miss_percent);
        assert_eq!(strays, [0, 0, 50, 0, 0]);
    }

    #[test]
    fn only_hex_phases_uses_hexes() {
        for v in RulesVariant::ALL {
            assert_eq!(v.shape() == Shape::Hex, v == RulesVariant::HexPhases);
        }
        assert_eq!(RulesVariant::HexPhases.move_action_ft(30), 15);
        assert_eq!(RulesVariant::D20Classic.move_action_ft(30), 30);
    }
}
