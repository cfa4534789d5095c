//! The five rule variants a scenario can be played under, one per source in
//! `shared/rules-sources/`, and the geometry each one uses.

use crate::grid::{Metric, Shape};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

    pub const fn shape(self) -> Shape {
        match self {
            RulesVariant::HexPhases => Shape::Hex,
            _ => Shape::Square,
        }
    }

    /// How ranges and reach are measured.
    pub const fn range_metric(self) -> Metric {
        match self {
            RulesVariant::HexPhases => Metric::Hex,
            RulesVariant::OsrSegments => Metric::Euclid,
            _ => Metric::Alternating,
        }
    }

    /// How movement is counted (OSR moves with the alternating rule too).
    pub const fn move_metric(self) -> Metric {
        match self {
            RulesVariant::HexPhases => Metric::Hex,
            _ => Metric::Alternating,
        }
    }

    /// Exactly 10 ft of reach also threatens two diagonals away.
    pub const fn diagonal_reach_exception(self) -> bool {
        matches!(self, RulesVariant::D20Classic | RulesVariant::ApPhases | RulesVariant::FourActions)
    }

    /// A Small creature with a reach weapon loses the corners of its reach (the squares two
    /// diagonals away that the 10-ft exception gives).
    pub const fn small_reach_loses_corners(self) -> bool {
        matches!(self, RulesVariant::D20Classic)
    }

    /// A creature untrained with its weapon threatens nothing.
    pub const fn untrained_threaten_nothing(self) -> bool {
        matches!(self, RulesVariant::D20Classic)
    }

    pub const fn flanking(self) -> FlankingRule {
        match self {
            RulesVariant::D20Classic | RulesVariant::ApPhases => FlankingRule::OppositeBorders,
            RulesVariant::FourActions => FlankingRule::MirrorSquares,
            RulesVariant::OsrSegments | RulesVariant::HexPhases => FlankingRule::None,
        }
    }

    /// Feet a single move action covers for a creature of `speed_ft`: hex-phases moves
    /// half its combat movement with a move action, everyone else its speed.
    pub const fn move_action_ft(self, speed_ft: u32) -> u32 {
        match self {
            RulesVariant::HexPhases => speed_ft / 2 / 5 * 5,
            _ => speed_ft,
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
    fn only_hex_phases_uses_hexes() {
        for v in RulesVariant::ALL {
            assert_eq!(v.shape() == Shape::Hex, v == RulesVariant::HexPhases);
        }
        assert_eq!(RulesVariant::HexPhases.move_action_ft(30), 15);
        assert_eq!(RulesVariant::D20Classic.move_action_ft(30), 30);
    }
}
