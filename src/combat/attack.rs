//! Attack rolls in each variant's terms: the die, every modifier by name, and the number
//! to reach. d20-classic, ap-phases and four-actions roll d20 + bonuses vs AC;
//! osr-segments rolls d20 vs AAC0 − descending AC; hex-phases rolls 3d6 + OCV vs 10 + DCV.
//! `profile` is what the breakdown panel, `fivefoot query attack` and resolution share:
//! its legality here, its terms from the variant's attack modifier systems (`modifiers`).
//! [`forecast`] adds what the attack comes to on average, from the same terms and the
//! damage modifier systems, rolling nothing.

use super::battle::Battle;
use super::battle::Criticals;
pub use super::battle::{AttackContext, AttackKind};
use super::fighter::Modifier;
use super::modifiers::{AttackModifiers, DamageModifiers, PendingAttack, PendingDamage};
use super::odds::{AttackDie, AttackOdds, CriticalHits, attack_odds};
use crate::rules::{Condition, CoverKind};
use serde::Serialize;

/// Everything about one attack before the die is rolled.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AttackProfile {
    pub legal: bool,
    pub reason: Option<String>,
    pub modifiers: Vec<Modifier>,
    pub target_number: i32,
    pub hit_chance: f64,
    #[serde(skip)]
    pub die: AttackDie,
    #[serde(skip)]
    pub melee: bool,
    /// What the target number is, for the log ("AC", "10 + DCV", "AAC0 − AC").
    #[serde(skip)]
    pub against: String,
}

impl AttackProfile {
    pub fn bonus(&self) -> i32 {
        self.modifiers.iter().map(|m| m.value).sum()
    }
    fn refuse(reason: String, die: AttackDie) -> AttackProfile {
        AttackProfile {
            legal: false,
            reason: Some(reason),
            modifiers: vec![],
            target_number: 0,
            hit_chance: 0.0,
            die,
            melee: true,
            against: String::new(),
        }
    }
}

/// The attack `a` would make on `t` now, with `kind` and `ctx`.
pub fn profile(b: &Battle, a: usize, t: usize, kind: &AttackKind, ctx: &AttackContext) -> AttackProfile {
    match legality(b, a, t) {
        Ok(aim) => weighed(b, aim, kind, ctx),
        Err(refused) => refused,
    }
}

/// A legal attack's aim, before its modifiers are weighed.
pub(crate) struct Aim {
    a: usize,
    t: usize,
    melee: bool,
    dist: u32,
    cover_bonus: i32,
}

/// Whether `a` may attack `t` now (reach or range, cover, the variant's refusals), without
/// weighing a modifier: what a check needs, and all a battle without a world can tell.
pub(crate) fn legality(b: &Battle, a: usize, t: usize) -> Result<Aim, AttackProfile> {
    let view = &b.view();
    let variant = b.variant;
    let die = b.variant.numbers().rules.attack_die;
    let (fa, ft) = (b.fighters.at(a), b.fighters.at(t));
    if a == t {
        return Err(AttackProfile::refuse("a creature cannot attack itself".into(), die));
    }
    if !fa.can_act() {
        return Err(AttackProfile::refuse(format!("{} cannot act", fa.id()), die));
    }
    if !ft.alive() {
        return Err(AttackProfile::refuse(format!("{} is dead", ft.id()), die));
    }
    let metric = variant.range_metric();
    let dist = metric.footprint_ft(fa.footprint(), ft.footprint());
    let melee = !fa.wielded().def.is_ranged();
    if melee {
        // Locked in a grapple, the two can still strike each other.
        // The untrained threaten nothing (d20-classic) yet still strike what they reach.
        let reaches_untrained = !fa.trained()
            && !fa.has(Condition::Grappled)
            && b.reach_band(fa)
                .is_some_and(|band| ft.footprint().cells().any(|c| band.covers(variant, fa.footprint(), c)));
        let threatens = view.threat.threatens(a, ft.footprint())
            || fa.grapple().with == Some(b.fighters.entity(t))
            || reaches_untrained;
        if !threatens {
            let band = b.reach_band(fa);
            let reason = match band {
                None => format!("{} threatens nothing with {}", fa.id(), fa.wielded().def.name),
                Some(b) if b.inner_ft.is_some_and(|i| dist <= i) => {
                    format!("{} cannot strike an adjacent foe with a reach weapon", fa.wielded().def.name)
                }
                Some(_) => format!("{} is {dist} ft away, out of reach", ft.id()),
            };
            return Err(AttackProfile::refuse(reason, die));
        }
    } else {
        let inc = fa.wielded().def.range_increment_ft.max(5);
        if dist > inc * 10 {
            let reason = format!("{} is {dist} ft away, beyond 10 range increments", ft.id());
            return Err(AttackProfile::refuse(reason, die));
        }
    }
    let rules = b.rules();
    if let Some(reason) = rules.refuses_attack(b, view, a, melee) {
        return Err(AttackProfile::refuse(reason, die));
    }
    let cover = b.cover_between(a, t);
    if !cover.can_target {
        let why = if cover.cover == CoverKind::Total {
            "total cover".to_string()
        } else {
            format!("{:?} cover, and creatures with cover cannot be targeted", cover.cover).to_lowercase()
        };
        return Err(AttackProfile::refuse(format!("{} has {why}", ft.id()), die));
    }
    Ok(Aim { a, t, melee, dist, cover_bonus: cover.ac_bonus })
}

/// A legal attack with its modifiers weighed by the variant's attack modifier systems.
fn weighed(b: &Battle, aim: Aim, kind: &AttackKind, ctx: &AttackContext) -> AttackProfile {
    let Aim { a, t, melee, dist, cover_bonus } = aim;
    let die = b.variant.numbers().rules.attack_die;
    let mut attack = PendingAttack {
        variant: b.variant,
        attacker: b.fighters.entity(a),
        target: b.fighters.entity(t),
        a,
        t,
        kind: kind.clone(),
        ctx: ctx.clone(),
        melee,
        dist,
        cover_bonus,
        flanking: false,
        terms: Vec::new(),
        target_number: 0,
        against: String::new(),
    };
    AttackModifiers::weigh(b.world().expect(WEIGHED_IN_A_WORLD), &mut attack);
    let bonus: i32 = attack.terms.iter().map(|x| x.value).sum();
    AttackProfile {
        legal: true,
        reason: None,
        hit_chance: die.hit_chance(bonus, attack.target_number),
        modifiers: attack.terms,
        target_number: attack.target_number,
        die,
        melee,
        against: attack.against,
    }
}

/// How many attacks a full attack with `weapon` makes at base attack bonus `base_attack`:
/// one bolt where the variant has a crossbow loaded a shot at a time, else the variant's
/// iterative attacks.
pub fn full_attack_swings(
    variant: crate::variants::RulesVariant,
    weapon: &crate::level::WeaponDef,
    base_attack: i32,
) -> u32 {
    let numbers = variant.numbers();
    if weapon.reload && numbers.one_shot_then_reload { 1 } else { numbers.rules.full_attack.attacks(base_attack) }
}

/// Modifiers run over a world: a check run as a system, which has none, asks only
/// [`legality`].
const WEIGHED_IN_A_WORLD: &str = "a roll is weighed over a battle's world, not by a check run as a system";

/// The flat terms a blow of `a` on `t` adds to its damage dice, each by name, from the
/// variant's damage modifier systems (what the strike rolls with, and the forecast uses).
pub(crate) fn damage_terms(b: &Battle, a: usize, t: usize, melee: bool) -> Vec<Modifier> {
    let mut pending = PendingDamage {
        variant: b.variant,
        attacker: b.fighters.entity(a),
        target: b.fighters.entity(t),
        melee,
        terms: Vec::new(),
    };
    DamageModifiers::weigh(b.world().expect(WEIGHED_IN_A_WORLD), &mut pending);
    pending.terms
}

/// An attack before it is rolled, with what it comes to on average.
#[derive(Clone, Debug)]
pub struct Forecast {
    pub profile: AttackProfile,
    /// The damage dice (count, sides) for the attacker's size.
    pub dice: (u32, u32),
    /// The flat damage terms, summed.
    pub flat: i32,
    pub criticals: Option<CriticalHits>,
}

impl Forecast {
    /// The odds against the profile's own target number.
    pub fn odds(&self) -> AttackOdds {
        self.odds_against(self.profile.target_number)
    }

    /// The odds were the target number `target` instead: the same attack against a
    /// defence that many points harder or easier to hit.
    pub fn odds_against(&self, target: i32) -> AttackOdds {
        if !self.profile.legal {
            return AttackOdds::default();
        }
        attack_odds(self.profile.die, self.profile.bonus(), target, self.dice, self.flat, self.criticals)
    }
}

/// `a`'s attack on `t` as [`profile`] has it, with its damage and criticals: what the
/// hit-chance panel, the per-variant comparison and the charts show.
pub fn forecast(b: &Battle, a: usize, t: usize, kind: &AttackKind, ctx: &AttackContext) -> Forecast {
    with_damage(b, a, t, profile(b, a, t, kind, ctx), ctx)
}

/// `a`'s attack of opportunity on `t` as it would be were `t` leaving a square beside `a`,
/// in the open (no cover, whatever reach): how a mover weighs the attacks a path draws,
/// which meet it where it leaves each threatened square rather than where it stands.
pub fn opportunity_forecast(b: &Battle, a: usize, t: usize) -> Forecast {
    let aim = Aim { a, t, melee: true, dist: 5, cover_bonus: 0 };
    let ctx = AttackContext::default();
    with_damage(b, a, t, weighed(b, aim, &AttackKind::Opportunity, &ctx), &ctx)
}

/// The forecast of an attack whose profile is weighed: its damage dice, flat terms and
/// criticals added.
fn with_damage(b: &Battle, a: usize, t: usize, profile: AttackProfile, ctx: &AttackContext) -> Forecast {
    let fa = b.fighters.at(a);
    let dice = fa.damage_dice();
    let weapon = &fa.wielded().def;
    let criticals = match b.variant.numbers().rules.criticals {
        Criticals::None => None,
        rule => Some(CriticalHits {
            from: weapon.crit_range as i32,
            mult: weapon.crit_mult,
            confirmed: rule == Criticals::Confirmed,
        }),
    };
    // A charge's damage bonus is the charger's only for the charge's own attacks
    // (`resolve::strike::charge_attack`), so it is not among its standing terms yet.
    let charge = if ctx.charge { b.variant.numbers().charge_damage_for(weapon.hands) } else { 0 };
    let terms = || damage_terms(b, a, t, profile.melee).iter().map(|m| m.value).sum::<i32>();
    let flat = if profile.legal { terms() + charge } else { 0 };
    Forecast { profile, dice: (dice.count, dice.sides), flat, criticals }
}
