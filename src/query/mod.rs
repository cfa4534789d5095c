//! The rules oracle behind `fivefoot query`: sets a level up in the combat engine the game
//! and the sim play with (not started: nobody surprised, nobody acting), asks one question
//! through the same functions, and answers in JSON.
#![deny(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::grid::GridPos;
use crate::level::{Catalogue, Level, LevelError};
use crate::rules::{self, MoveMode, RulesView};
use crate::variants::{HouseRule, RulesVariant};
use serde::Serialize;
use std::path::Path;
use thiserror::Error;

/// One question for the oracle.
#[derive(Clone, Debug, PartialEq, Eq, clap::Subcommand)]
pub enum Question {
    /// Every square a unit threatens.
    Threatened { unit: String },
    /// Whether an attacker flanks a target, and with whom.
    Flanking { attacker: String, target: String },
    /// The cover a target has against the attacker's wielded weapon.
    Cover { attacker: String, target: String },
    /// The attacker's attack on the target now: every modifier, the number to reach and
    /// the exact chance to hit.
    Attack { attacker: String, target: String },
    /// The cheapest legal move (or 5-ft step) to a square, and what it provokes.
    Path {
        unit: String,
        #[arg(allow_negative_numbers = true)]
        x: i32,
        #[arg(allow_negative_numbers = true)]
        y: i32,
        /// A 5-ft step instead of a move action.
        #[arg(long)]
        step: bool,
    },
}

/// Why a question has no answer.
#[derive(Debug, Error)]
pub enum QueryError {
    #[error(transparent)]
    Level(#[from] LevelError),
    #[error("{level}: no unit \"{id}\" (units: {known})")]
    UnknownUnit { level: String, id: String, known: String },
    #[error("{0}")]
    Invalid(String),
}

#[derive(Serialize)]
struct ThreatenedAnswer<'a> {
    unit: &'a str,
    squares: Vec<[i32; 2]>,
}

#[derive(Serialize)]
struct FlankingAnswer<'a> {
    attacker: &'a str,
    target: &'a str,
    flanking: bool,
    partners: Vec<&'a str>,
}

#[derive(Serialize)]
struct CoverAnswer<'a> {
    attacker: &'a str,
    target: &'a str,
    cover: rules::CoverKind,
    ac_bonus: i32,
    can_target: bool,
}

#[derive(Serialize)]
struct ProvokeAnswer<'a> {
    by: &'a str,
    from: [i32; 2],
}

#[derive(Serialize)]
struct PathAnswer<'a> {
    unit: &'a str,
    legal: bool,
    squares: Vec<[i32; 2]>,
    cost_ft: u32,
    provokes: Vec<ProvokeAnswer<'a>>,
    reason: Option<String>,
}

fn xy(p: GridPos) -> [i32; 2] {
    [p.x, p.y]
}

/// Loads `level_path` and answers `question` as one JSON object.
pub fn run(
    level_path: &Path,
    variant: Option<RulesVariant>,
    house_rules: &[HouseRule],
    question: &Question,
) -> Result<String, QueryError> {
    let catalogue = Catalogue::builtin();
    let level = Level::load(level_path, &catalogue)?;
    let variant = variant.unwrap_or(level.def.rules);
    let house_rules = crate::variants::house_rules_in_force(house_rules, &level.def.house_rules, variant)
        .map_err(QueryError::Invalid)?;
    if let Question::Attack { attacker, target } = question {
        return attack_json(&level, &catalogue, variant, &house_rules, attacker, target);
    }
    // The engine the game and the sim play with, set up but not started.
    let options = crate::combat::BattleOptions { house_rules, ..Default::default() };
    let battle = crate::combat::BattleWorld::new_paused(&level, &catalogue, variant, 0, options);
    answer(&battle.read().view(), &level_path.display().to_string(), question)
}

#[derive(Serialize)]
struct AttackAnswer {
    legal: bool,
    reason: Option<String>,
    modifiers: Vec<crate::combat::Modifier>,
    target_number: i32,
    hit_chance: f64,
}

/// The attack as the first attack of a fight already under way (nobody surprised or
/// flat-footed any more), from where the units stand.
pub fn attack_json(
    level: &Level,
    catalogue: &Catalogue,
    variant: RulesVariant,
    house_rules: &[HouseRule],
    attacker: &str,
    target: &str,
) -> Result<String, QueryError> {
    use crate::combat::{AttackKind, BattleOptions, BattleWorld, attack};
    use crate::rules::{Condition, Conditions};
    let options = BattleOptions { house_rules: house_rules.to_vec(), ..Default::default() };
    let mut world = BattleWorld::new_paused(level, catalogue, variant, 0, options);
    world.scene().each(|c: &mut Conditions| {
        c.remove(Condition::Surprised);
        c.remove(Condition::FlatFooted);
    });
    let battle = world.read();
    let known = || battle_units(&battle);
    let a = battle.index_of(attacker).ok_or_else(|| QueryError::UnknownUnit {
        level: level.source.display().to_string(),
        id: attacker.into(),
        known: known(),
    })?;
    let t = battle.index_of(target).ok_or_else(|| QueryError::UnknownUnit {
        level: level.source.display().to_string(),
        id: target.into(),
        known: known(),
    })?;
    if a == t {
        return Err(QueryError::Invalid(format!("a unit cannot be both attacker and target (\"{attacker}\")")));
    }
    let p = attack::profile(&battle, a, t, &AttackKind::Primary, &Default::default());
    let answer = if p.legal {
        AttackAnswer {
            legal: true,
            reason: None,
            modifiers: p.modifiers,
            target_number: p.target_number,
            hit_chance: p.hit_chance,
        }
    } else {
        AttackAnswer { legal: false, reason: p.reason, modifiers: vec![], target_number: 0, hit_chance: 0.0 }
    };
    Ok(serde_json::to_string(&answer).expect("answers serialise"))
}

fn battle_units(b: &crate::combat::Battle) -> String {
    b.fighters.iter().map(|f| f.id()).collect::<Vec<_>>().join(", ")
}

/// Answers a question about the battle in `view`.
pub fn answer(view: &RulesView, level_name: &str, question: &Question) -> Result<String, QueryError> {
    let roster = view.roster;
    let unit = |id: &str| {
        roster.index_of(id).ok_or_else(|| QueryError::UnknownUnit {
            level: level_name.to_string(),
            id: id.to_string(),
            known: roster.units.iter().map(|u| u.id.as_str()).collect::<Vec<_>>().join(", "),
        })
    };
    let pair = |a: &str, t: &str| -> Result<(usize, usize), QueryError> {
        let (a, t) = (unit(a)?, unit(t)?);
        if a == t {
            return Err(QueryError::Invalid(format!(
                "a unit cannot be both attacker and target (\"{}\")",
                roster.get(a).id
            )));
        }
        Ok((a, t))
    };
    let json = match question {
        Question::Attack { .. } => return Err(QueryError::Invalid("attack questions need a battle".into())),
        Question::Threatened { unit: id } => {
            let i = unit(id)?;
            serde_json::to_string(&ThreatenedAnswer {
                unit: &roster.get(i).id,
                squares: view.threat.squares_of(i).iter().copied().map(xy).collect(),
            })
        }
        Question::Flanking { attacker, target } => {
            let (a, t) = pair(attacker, target)?;
            let f = rules::flanking(view, a, t);
            serde_json::to_string(&FlankingAnswer {
                attacker: &roster.get(a).id,
                target: &roster.get(t).id,
                flanking: f.flanking,
                partners: f.partners.iter().map(|&p| roster.get(p).id.as_str()).collect(),
            })
        }
        Question::Cover { attacker, target } => {
            let (a, t) = pair(attacker, target)?;
            let c = rules::cover_between(view, a, t, false);
            serde_json::to_string(&CoverAnswer {
                attacker: &roster.get(a).id,
                target: &roster.get(t).id,
                cover: c.cover,
                ac_bonus: c.ac_bonus,
                can_target: c.can_target,
            })
        }
        Question::Path { unit: id, x, y, step } => {
            let i = unit(id)?;
            let mode = if *step { MoveMode::Step } else { MoveMode::Move };
            let budget = rules::allowance_ft(view, i, mode);
            let range = rules::movement_range(view, i, mode, budget);
            let answer = match range.plan_to(view, GridPos::new(*x, *y)) {
                Ok(plan) => PathAnswer {
                    unit: &roster.get(i).id,
                    legal: true,
                    squares: plan.squares.iter().copied().map(xy).collect(),
                    cost_ft: plan.cost_ft,
                    provokes: plan
                        .provokes
                        .iter()
                        .map(|p| ProvokeAnswer { by: &roster.get(p.by).id, from: xy(p.from) })
                        .collect(),
                    reason: None,
                },
                Err(refusal) => PathAnswer {
                    unit: &roster.get(i).id,
                    legal: false,
                    squares: vec![],
                    cost_ft: 0,
                    provokes: vec![],
                    reason: Some(refusal.0),
                },
            };
            serde_json::to_string(&answer)
        }
    };
    Ok(json.expect("answers serialise"))
}
