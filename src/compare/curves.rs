//! The analytic side of a comparison: one attacker's chance to hit, to land a critical and
//! its expected damage against a range of defences, under each variant spec, worked out
//! from the attack rules' own numbers (`combat::attack::forecast`: the variant's modifier
//! systems, its die, its criticals) rather than sampled.

use super::VariantSpec;
use crate::combat::attack::Forecast;
use crate::combat::odds::AttackOdds;
use crate::combat::{AttackKind, BattleOptions, BattleWorld};
use crate::grid::{Footprint, GridPos};
use crate::level::{Catalogue, Level};
use crate::rules::{Condition, Conditions, Position};

/// How far the curves reach either side of the target's own defence, in the variant's
/// points (AC, DCV, descending AC): from 8 easier to 12 harder.
pub const SPAN: std::ops::RangeInclusive<i32> = -8..=12;

/// One variant spec's curve.
#[derive(Clone, Debug, PartialEq)]
pub struct AttackCurve {
    pub spec: String,
    pub attacker: String,
    pub target: String,
    /// The attack as it stands: its target number and what it is ("AC", "10 + DCV").
    pub target_number: i32,
    pub against: String,
    /// The odds at each step of [`SPAN`]: the defence that many points harder to hit.
    pub points: Vec<(i32, AttackOdds)>,
}

/// The curves of `attacker` on `target` under each spec, as the first attack of a fight
/// under way (nobody surprised or flat-footed). The attacker strikes from where it stands
/// if it can, else from the nearest square from which it can.
pub fn attack_curves(
    level: &Level,
    catalogue: &Catalogue,
    specs: &[VariantSpec],
    attacker: &str,
    target: &str,
) -> Result<Vec<AttackCurve>, String> {
    specs
        .iter()
        .map(|spec| {
            let options = BattleOptions { house_rules: spec.house_rules.clone(), ..Default::default() };
            let mut world = BattleWorld::new_paused(level, catalogue, spec.rules, 0, options);
            let seen = best_forecast(&mut world, attacker, target)?;
            let tn = seen.profile.target_number;
            Ok(AttackCurve {
                spec: spec.to_string(),
                attacker: attacker.to_string(),
                target: target.to_string(),
                target_number: tn,
                against: seen.profile.against.clone(),
                points: SPAN.map(|d| (d, seen.odds_against(tn + d))).collect(),
            })
        })
        .collect()
}

/// The forecast of `attacker` on `target` from the nearest square it can strike from.
fn best_forecast(world: &mut BattleWorld, attacker: &str, target: &str) -> Result<Forecast, String> {
    let (a, t) = {
        let b = world.read();
        let known = || b.fighters.iter().map(|f| f.id().to_string()).collect::<Vec<_>>().join(", ");
        let a = b.index_of(attacker).ok_or_else(|| format!("no unit \"{attacker}\" (the units: {})", known()))?;
        let t = b.index_of(target).ok_or_else(|| format!("no unit \"{target}\" (the units: {})", known()))?;
        (a, t)
    };
    if a == t {
        return Err(format!("a unit cannot be both attacker and target (\"{attacker}\")"));
    }
    world.scene().each(|c: &mut Conditions| {
        c.remove(Condition::Surprised);
        c.remove(Condition::FlatFooted);
    });
    let (home, side, w, h) = {
        let b = world.read();
        (b.fighters.position[a].0, b.fighters.at(a).size().side(), b.field.terrain.width(), b.field.terrain.height())
    };
    let mut squares: Vec<GridPos> = (0..h).flat_map(|y| (0..w).map(move |x| GridPos::new(x, y))).collect();
    squares.sort_by_key(|p| ((p.x - home.x).pow(2) + (p.y - home.y).pow(2), p.y, p.x));
    let mut first = None;
    for square in squares {
        world.scene().fighter::<Position>(a).0 = home;
        if !world.read().view().can_stand(a, Footprint::new(square, side)) {
            continue;
        }
        world.scene().fighter::<Position>(a).0 = square;
        let seen = world.attack_forecast(a, t, &AttackKind::Primary, &Default::default());
        if seen.profile.legal {
            first = Some(seen);
            break;
        }
        first.get_or_insert(seen);
    }
    world.scene().fighter::<Position>(a).0 = home;
    match first {
        Some(seen) if seen.profile.legal => Ok(seen),
        Some(seen) => Err(format!(
            "{attacker} cannot attack {target} from any square: {}",
            seen.profile.reason.unwrap_or_default()
        )),
        None => Err(format!("{attacker} has no square to stand on")),
    }
}

/// The attacker and target the curves show when none is named: the first unit of the
/// level's first side, and the first unit of another side.
pub fn default_pair(level: &Level) -> Option<(String, String)> {
    let first = level.def.units.first()?;
    let foe = level.def.units.iter().find(|u| u.side != first.side)?;
    Some((first.id.clone(), foe.id.clone()))
}
