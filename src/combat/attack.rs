//! Attack rolls in each variant's terms: the die, every modifier by name, and the number
//! to reach. d20-classic, ap-phases and four-actions roll d20 + bonuses vs AC;
//! osr-segments rolls d20 vs AAC0 − descending AC; hex-phases rolls 3d6 + OCV vs 10 + DCV.
//! `profile` is what the breakdown panel, `fivefoot query attack` and resolution share.

use super::battle::Battle;
pub use super::battle::{AttackContext, AttackKind};
pub(crate) use super::battle::{Situation, Terms};
use super::fighter::Modifier;
use super::odds::AttackDie;
use crate::rules::{self, Condition, CoverKind, RulesView};
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
pub fn profile(
    b: &Battle,
    view: &RulesView,
    a: usize,
    t: usize,
    kind: &AttackKind,
    ctx: &AttackContext,
) -> AttackProfile {
    let variant = b.variant;
    let die = b.rules().attack_die();
    let (fa, ft) = (b.fighters.at(a), b.fighters.at(t));
    if a == t {
        return AttackProfile::refuse("a creature cannot attack itself".into(), die);
    }
    if !fa.can_act() {
        return AttackProfile::refuse(format!("{} cannot act", fa.id()), die);
    }
    if !ft.alive() {
        return AttackProfile::refuse(format!("{} is dead", ft.id()), die);
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
        let threatens = view.threat.threatens(a, ft.footprint()) || fa.grapple().with == Some(t) || reaches_untrained;
        if !threatens {
            let band = b.reach_band(fa);
            let reason = match band {
                None => format!("{} threatens nothing with {}", fa.id(), fa.wielded().def.name),
                Some(b) if b.inner_ft.is_some_and(|i| dist <= i) => {
                    format!("{} cannot strike an adjacent foe with a reach weapon", fa.wielded().def.name)
                }
                Some(_) => format!("{} is {dist} ft away, out of reach", ft.id()),
            };
            return AttackProfile::refuse(reason, die);
        }
    } else {
        let inc = fa.wielded().def.range_increment_ft.max(5);
        if dist > inc * 10 {
            return AttackProfile::refuse(format!("{} is {dist} ft away, beyond 10 range increments", ft.id()), die);
        }
    }
    let rules = b.rules();
    if let Some(reason) = rules.refuses_attack(b, view, a, melee) {
        return AttackProfile::refuse(reason, die);
    }
    let cover = rules::cover_between(view, a, t, false);
    if !cover.can_target {
        let why = if cover.cover == CoverKind::Total {
            "total cover".to_string()
        } else {
            format!("{:?} cover, and creatures with cover cannot be targeted", cover.cover).to_lowercase()
        };
        return AttackProfile::refuse(format!("{} has {why}", ft.id()), die);
    }

    let flanking = melee && rules::flanking(view, a, t).flanking;
    let mut terms = Terms(Vec::new());
    let situation = Situation { b, a, t, kind, ctx, melee, dist, flanking, cover_bonus: cover.ac_bonus };
    let (target_number, against) = rules.attack_terms(&situation, &mut terms);
    let m = terms.0;
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

/// The d20 family's attack roll (d20-classic, ap-phases, four-actions): d20, base attack,
/// Strength (melee) or Dexterity (ranged), size and the variant's penalties and bonuses,
/// against AC. With `flanking_surprises` a flanked target loses its Dexterity to AC
/// (four-actions: flanking makes it Surprised).
pub(crate) fn d20_family_terms(s: &Situation, m: &mut Terms, flanking_surprises: bool) -> (i32, String) {
    let (b, a, t, melee, flanking) = (s.b, s.a, s.t, s.melee, s.flanking);
    let (fa, ft) = (b.fighters.at(a), b.fighters.at(t));
    m.push("base attack bonus", fa.stats().def.base_attack);
    if melee {
        m.push("Strength", fa.stats().str_mod());
    } else {
        m.push("Dexterity", fa.stats().dex_mod());
    }
    m.push("size", fa.size().size_modifier());
    let nums = b.variant.numbers();
    if nums.untrained_penalty != 0 && !fa.trained() {
        m.push("untrained", nums.untrained_penalty);
    }
    match s.kind {
        AttackKind::Iterative(n) => m.push("iterative attack", nums.iterative_step * *n as i32),
        AttackKind::Secondary => m.push("secondary attack", nums.secondary_attack),
        AttackKind::Tertiary => m.push("tertiary attack", nums.tertiary_attack),
        AttackKind::NthAction(n) if *n > 1 => {
            m.push("earlier attack actions", nums.attack_action_step * (*n as i32 - 1))
        }
        _ => {}
    }
    m.range(s, fa);
    if flanking && nums.flanking != 0 {
        m.push("flanking", nums.flanking);
    }
    let charged_this_round =
        nums.charge_attack_lasts_round && melee && fa.reactions().charged == Some((t, b.clock.round));
    if (s.ctx.charge || charged_this_round) && nums.charge_attack != 0 {
        m.push("charge", nums.charge_attack);
    }
    m.offense(fa);
    if fa.has(Condition::Prone) && melee {
        m.push("prone", -4);
    }
    // The defender's side of the roll, shown as modifiers so nothing is hidden.
    if ft.has(Condition::Prone) {
        m.push("target prone", if melee { 4 } else { -4 });
    }
    // The grappled are flat-footed against all but their grappler (d20-classic) and
    // Restrained, losing their ability modifier to AC (four-actions).
    let grappled_by_other = ft.has(Condition::Grappled) && ft.grapple().with != Some(a);
    let loses_dex = ft.has(Condition::FlatFooted)
        || ft.has(Condition::Surprised)
        || grappled_by_other
        || (flanking_surprises && flanking)
        || ft.has(Condition::Stunned);
    if loses_dex && ft.stats().dex_mod() > 0 {
        let why = if flanking_surprises {
            if flanking { "flanking: target surprised" } else { "target surprised" }
        } else {
            "target flat-footed"
        };
        m.push(why, ft.stats().dex_mod());
    }
    if s.cover_bonus > 0 {
        m.push("cover", -s.cover_bonus);
    }
    m.defense(ft);
    (ft.armor_class(), "AC".to_string())
}
