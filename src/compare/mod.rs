//! `fivefoot compare`: one scenario under several rule variants, each with house rules of
//! its own if asked (`d20-classic+no-flanking`), played headless as batches with common
//! random numbers (battle i uses seed S + i under every variant) and reported side by side
//! (`batch`): win rates with their Wilson intervals, battle length in rounds and in the
//! story's seconds, damage per round, hits, criticals, attacks of opportunity, units lost.

pub mod action;
pub mod batch;
mod boards;
pub mod cli;
pub mod curves;
pub mod live;
pub mod plot;
pub mod shard;
pub mod window;

pub use batch::{CompareReport, CompareSpec, VariantReport, run};

use crate::variants::{HouseRule, RulesVariant};

/// A variant to compare, with the house rules added to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantSpec {
    pub rules: RulesVariant,
    pub house_rules: Vec<HouseRule>,
}

impl VariantSpec {
    /// The options of its battles on `level`: the level's death saves, and the spec's
    /// house rules with those of the level's own that apply to its variant, sorted, each
    /// once.
    pub fn options_on(&self, level: &crate::level::Level) -> crate::combat::BattleOptions {
        let mut house_rules = self.house_rules.clone();
        house_rules.extend(level.def.house_rules.iter().copied().filter(|h| h.applies_to().contains(&self.rules)));
        house_rules.sort();
        house_rules.dedup();
        crate::combat::BattleOptions {
            death_saves: level.def.death_saves.unwrap_or_default(),
            house_rules,
            ..Default::default()
        }
    }

    /// Every variant as its source has it.
    pub fn all() -> Vec<VariantSpec> {
        RulesVariant::ALL.into_iter().map(|rules| VariantSpec { rules, house_rules: vec![] }).collect()
    }

    /// `all`, or a comma-separated list of `VARIANT[+HOUSE-RULE]…`; each house rule must
    /// apply to its variant, and no spec may be named twice.
    pub fn parse_list(s: &str) -> Result<Vec<VariantSpec>, String> {
        if s.trim() == "all" {
            return Ok(VariantSpec::all());
        }
        let mut specs: Vec<VariantSpec> = Vec::new();
        for part in s.split(',').map(str::trim) {
            let spec: VariantSpec = part.parse()?;
            if specs.contains(&spec) {
                return Err(format!("\"{spec}\" is named twice"));
            }
            specs.push(spec);
        }
        Ok(specs)
    }
}

impl std::str::FromStr for VariantSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<VariantSpec, String> {
        let mut parts = s.split('+').map(str::trim);
        let rules: RulesVariant = parts.next().unwrap_or_default().parse()?;
        let mut house_rules = Vec::new();
        for name in parts {
            let rule = HouseRule::try_from(name.to_string())?;
            rule.check(rules)?;
            house_rules.push(rule);
        }
        house_rules.sort();
        house_rules.dedup();
        Ok(VariantSpec { rules, house_rules })
    }
}

impl std::fmt::Display for VariantSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.rules.id())?;
        self.house_rules.iter().try_for_each(|h| write!(f, "+{}", h.id()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_name_a_variant_and_its_house_rules() {
        let specs = VariantSpec::parse_list("d20-classic, d20-classic+no-flanking+double-cover").unwrap();
        assert_eq!(specs[0], VariantSpec { rules: RulesVariant::D20Classic, house_rules: vec![] });
        assert_eq!(specs[1].house_rules, vec![HouseRule::NoFlanking, HouseRule::DoubleCover]);
        assert_eq!(specs[1].to_string(), "d20-classic+no-flanking+double-cover");
        assert_eq!(VariantSpec::parse_list("all").unwrap().len(), 5);
        let refused = |s: &str| VariantSpec::parse_list(s).unwrap_err();
        assert!(refused("d20").contains("unknown rule variant \"d20\""));
        assert!(refused("hex-phases+no-flanking").contains("does not apply to hex-phases"));
        assert!(refused("d20-classic+kind-dm").contains("unknown house rule \"kind-dm\""));
        assert!(refused("ap-phases,ap-phases").contains("named twice"));
    }
}
