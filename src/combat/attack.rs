//! Attack rolls in each variant's terms: the die, every modifier by name, and the number
//! to reach. d20-classic, ap-phases and four-actions roll d20 + bonuses vs AC;
//! osr-segments rolls d20 vs AAC0 − descending AC; hex-phases rolls 3d6 + OCV vs 10 + DCV.
//! `profile` is what the breakdown panel, `fivefoot query attack` and resolution share.

use super::Battle;
use super::fighter::Modifier;
use super::odds::AttackDie;
use crate::rules::{self, Condition, CoverKind, RulesView};
use crate::variants::RulesVariant;
use serde::Serialize;

/// Which attack of a turn this is, for its penalty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AttackKind {
    /// The first (or only) attack.
    Primary,
    /// d20-classic iterative attack number `n` (1 = second) at −5 each.
    Iterative(u32),
    /// four-actions secondary (move action, −5) and tertiary (quick action, −10) attacks.
    Secondary,
    Tertiary,
    /// ap-phases: the `n`th attack action this round (cumulative −5 per earlier one).
    NthAction(u32),
    /// An attack of opportunity or free attack.
    Opportunity,
}

/// Extra circumstances of an attack.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AttackContext {
    pub charge: bool,
}

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

/// The die a variant rolls to hit.
pub fn die_of(variant: RulesVariant) -> AttackDie {
    match variant {
        RulesVariant::HexPhases => AttackDie::ThreeD6,
        // Source 002 says only "equal to or greater than AC hits": no automatic results.
        RulesVariant::D20Classic => AttackDie::D20 { naturals: false },
        _ => AttackDie::D20 { naturals: true },
    }
}

/// The attack `a` would make on `t` now, with `kind` and `ctx`.
pub fn profile(
    b: &Battle,
    view: &RulesView,
    a: usize,
    t: usize,
    kind: &AttackKind,
    ctx: &AttackContext,
) -> AttackProfile {
    let variant = b.variant;
    let die = die_of(variant);
    let (fa, ft) = (&b.fighters[a], &b.fighters[t]);
    if a == t {
        return AttackProfile::refuse("a creature cannot attack itself".into(), die);
    }
    if !fa.can_act() {
        return AttackProfile::refuse(format!("{} cannot act", fa.id), die);
    }
    if !ft.alive() {
        return AttackProfile::refuse(format!("{} is dead", ft.id), die);
    }
    let metric = variant.range_metric();
    let dist = metric.footprint_ft(fa.footprint(), ft.footprint());
    let melee = !fa.weapon.is_ranged();
    if melee {
        // Locked in a grapple, the two can still strike each other.
        // The untrained threaten nothing (d20-classic) yet still strike what they reach.
        let reaches_untrained = !fa.trained()
            && !fa.has(Condition::Grappled)
            && b.reach_band(fa)
                .is_some_and(|band| ft.footprint().cells().any(|c| band.covers(variant, fa.footprint(), c)));
        let threatens = view.threat.threatens(a, ft.footprint()) || fa.grappling == Some(t) || reaches_untrained;
        if !threatens {
            let band = b.reach_band(fa);
            let reason = match band {
                None => format!("{} threatens nothing with {}", fa.id, fa.weapon.name),
                Some(b) if b.inner_ft.is_some_and(|i| dist <= i) => {
                    format!("{} cannot strike an adjacent foe with a reach weapon", fa.weapon.name)
                }
                Some(_) => format!("{} is {dist} ft away, out of reach", ft.id),
            };
            return AttackProfile::refuse(reason, die);
        }
    } else {
        let inc = fa.weapon.range_increment_ft.max(5);
        if dist > inc * 10 {
            return AttackProfile::refuse(format!("{} is {dist} ft away, beyond 10 range increments", ft.id), die);
        }
    }
    // osr-segments: a weapon needing more than 4 ft of space needs an open adjacent square.
    if variant == RulesVariant::OsrSegments && melee && fa.weapon.space_ft > 4 && !has_open_neighbour(b, view, a) {
        return AttackProfile::refuse(
            format!("{} needs {} ft of space and no adjacent square is open", fa.weapon.name, fa.weapon.space_ft),
            die,
        );
    }
    let cover = rules::cover_between(view, a, t, false);
    if !cover.can_target {
        let why = if cover.cover == CoverKind::Total {
            "total cover".to_string()
        } else {
            format!("{:?} cover, and creatures with cover cannot be targeted", cover.cover).to_lowercase()
        };
        return AttackProfile::refuse(format!("{} has {why}", ft.id), die);
    }

    let mut m: Vec<Modifier> = Vec::new();
    let mut push = |source: &str, value: i32| {
        if value != 0 {
            m.push(Modifier::new(source, value));
        }
    };
    let flanking = melee && rules::flanking(view, a, t).flanking;
    let target_number;
    let against;
    match variant {
        RulesVariant::D20Classic | RulesVariant::ApPhases | RulesVariant::FourActions => {
            push("base attack bonus", fa.def.base_attack);
            if melee {
                push("Strength", fa.str_mod());
            } else {
                push("Dexterity", fa.dex_mod());
            }
            push("size", fa.size.size_modifier());
            let nums = super::variants::numbers(variant);
            if nums.untrained_penalty != 0 && !fa.trained() {
                push("untrained", nums.untrained_penalty);
            }
            match kind {
                AttackKind::Iterative(n) => push("iterative attack", nums.iterative_step * *n as i32),
                AttackKind::Secondary => push("secondary attack", nums.secondary_attack),
                AttackKind::Tertiary => push("tertiary attack", nums.tertiary_attack),
                AttackKind::NthAction(n) if *n > 1 => {
                    push("earlier attack actions", nums.attack_action_step * (*n as i32 - 1))
                }
                _ => {}
            }
            if !melee && dist > fa.weapon.range_increment_ft {
                let increments = (dist - 1) / fa.weapon.range_increment_ft.max(1);
                push("range", -2 * increments as i32);
            }
            if flanking && nums.flanking != 0 {
                push("flanking", nums.flanking);
            }
            let charged_this_round = nums.charge_attack_lasts_round && melee && fa.charged == Some((t, b.clock.round));
            if (ctx.charge || charged_this_round) && nums.charge_attack != 0 {
                push("charge", nums.charge_attack);
            }
            for (name, v) in &fa.offense {
                push(name, *v);
            }
            if fa.has(Condition::Prone) && melee {
                push("prone", -4);
            }
            // The defender's side of the roll, shown as modifiers so nothing is hidden.
            if ft.has(Condition::Prone) {
                push("target prone", if melee { 4 } else { -4 });
            }
            // The grappled are flat-footed against all but their grappler (d20-classic) and
            // Restrained, losing their ability modifier to AC (four-actions).
            let grappled_by_other = ft.has(Condition::Grappled) && ft.grappling != Some(a);
            let loses_dex = ft.has(Condition::FlatFooted)
                || ft.has(Condition::Surprised)
                || grappled_by_other
                || (variant == RulesVariant::FourActions && flanking)
                || ft.has(Condition::Stunned);
            if loses_dex && ft.dex_mod() > 0 {
                let why = if variant == RulesVariant::FourActions {
                    if flanking { "flanking: target surprised" } else { "target surprised" }
                } else {
                    "target flat-footed"
                };
                push(why, ft.dex_mod());
            }
            if cover.ac_bonus > 0 {
                push("cover", -cover.ac_bonus);
            }
            for (name, v) in &ft.defense {
                push(name, -*v);
            }
            target_number = ft.armor_class();
            against = "AC".to_string();
        }
        RulesVariant::OsrSegments => {
            // Descending AC: AC = 20 − ascending AC; AAC0 = 20 − base attack bonus;
            // hit if d20 + modifiers ≥ AAC0 − AC.
            let desc_ac = 20 - ft.armor_class();
            let aac0 = 20 - fa.def.base_attack;
            if melee {
                push("Strength", fa.str_mod());
            } else {
                push("Dexterity", fa.dex_mod());
            }
            if ctx.charge {
                push("charge", super::variants::numbers(variant).charge_attack);
            }
            for (name, v) in &fa.offense {
                push(name, *v);
            }
            if !melee && dist > fa.weapon.range_increment_ft {
                let increments = (dist - 1) / fa.weapon.range_increment_ft.max(1);
                push("range", -2 * increments as i32);
            }
            if ft.has(Condition::Prone) {
                push("target prone", if melee { 4 } else { -4 });
            }
            if cover.ac_bonus > 0 {
                push("cover", -cover.ac_bonus);
            }
            for (name, v) in &ft.defense {
                push(name, -*v);
            }
            target_number = aac0 - desc_ac;
            against = format!("AAC0 {aac0} - AC {desc_ac}");
        }
        RulesVariant::HexPhases => {
            let ocv = hex_ocv(b, a);
            push("OCV", ocv);
            for (name, v) in &fa.offense {
                push(name, *v);
            }
            if ft.has(Condition::Surprised) {
                push("target unaware (-3 DCV)", 3);
            }
            if cover.ac_bonus > 0 {
                push("partial cover (+2 DCV)", -cover.ac_bonus);
            }
            for (name, v) in &ft.defense {
                push(name, -*v);
            }
            let dcv = hex_dcv(b, t);
            target_number = 10 + dcv;
            against = format!("10 + DCV {dcv}");
        }
    }
    let bonus: i32 = m.iter().map(|x| x.value).sum();
    AttackProfile {
        legal: true,
        reason: None,
        hit_chance: die.hit_chance(bonus, target_number),
        modifiers: m,
        target_number,
        die,
        melee,
        against,
    }
}

/// hex-phases OCV: combat value + half the base attack bonus (rounded down).
pub fn hex_ocv(b: &Battle, i: usize) -> i32 {
    super::clock::hex_cv(b, i) + b.fighters[i].def.base_attack.div_euclid(2)
}

/// hex-phases DCV: combat value + shield bonus.
pub fn hex_dcv(b: &Battle, i: usize) -> i32 {
    super::clock::hex_cv(b, i) + b.fighters[i].def.shield
}

fn has_open_neighbour(b: &Battle, view: &RulesView, a: usize) -> bool {
    let fp = b.fighters[a].footprint();
    let shape = b.variant.shape();
    fp.cells().any(|c| {
        crate::grid::neighbour_offsets(shape, c).iter().any(|&(dx, dy)| {
            let n = c.offset(dx, dy);
            !fp.contains(n) && b.field.terrain.get(n).passable() && view.occupancy.at(n).is_none()
        })
    })
}
