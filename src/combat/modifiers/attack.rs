//! The attack modifiers: each term of an attack roll is a read-only system over the
//! components it names, adding its term, by name, to the attack being weighed
//! ([`PendingAttack`]); the last sets the number to reach. `attack::profile` runs them, so
//! the roll, the hit-chance panel, `fivefoot query attack` and the AI all weigh an attack
//! with the same systems, over the battle's own world and without rolling.

use super::{ModifiersApp, Weighing};
use crate::combat::battle::{AttackContext, AttackKind, Derived};
use crate::combat::fighter::{Bonuses, Grapple, Modifier, Reactions};
use crate::combat::time::Clock;
use crate::rules::{self, Battlefield, Body, Condition, Conditions, RulesView, Stats, Wielded};
use crate::variants::RulesVariant;
use bevy::ecs::system::InMut;
use bevy::prelude::*;

/// The listing's name for the attack modifiers, as a set of systems.
pub const ATTACK_MODIFIERS: &str = "attack modifiers";

/// The attack being weighed: who attacks whom, how, and the terms gathered so far.
#[derive(Clone, Debug)]
pub struct PendingAttack {
    pub variant: RulesVariant,
    pub attacker: Entity,
    pub target: Entity,
    /// The attacker's and target's places in id order, as the grid rules name them.
    pub a: usize,
    pub t: usize,
    pub kind: AttackKind,
    pub ctx: AttackContext,
    pub melee: bool,
    pub dist: u32,
    /// The target's cover bonus to its defence, as the cover rules found it.
    pub cover_bonus: i32,
    /// Set by the flanking modifier, for the terms after it that depend on it.
    pub flanking: bool,
    pub terms: Vec<Modifier>,
    /// The number to reach, as its parts are gathered (hex-phases: the DCV's, then the 10).
    pub target_number: i32,
    /// What the target number is, in the variant's words ("AC", "10 + DCV 5").
    pub against: String,
}

impl PendingAttack {
    /// Adds a term, unless it is nothing.
    pub fn push(&mut self, source: &str, value: i32) {
        if value != 0 {
            self.terms.push(Modifier::new(source, value));
        }
    }
}

/// The attack under weighing, as a modifier system takes it.
pub type Weighed<'a> = InMut<'a, PendingAttack>;

impl Weighing for PendingAttack {
    const NAME: &'static str = ATTACK_MODIFIERS;
}

/// The d20 family's modifiers (d20-classic, ap-phases, four-actions), in their order:
/// base attack, Strength or Dexterity, size, untrained, the attack's place in a sequence,
/// range, flanking, charge, the attacker's own bonuses, prone, the target prone or caught
/// flat-footed, cover and the target's defences, against AC.
pub fn add_d20_family(app: &mut App) {
    app.add_modifier(base_attack_bonus)
        .add_modifier(strength_or_dexterity)
        .add_modifier(size)
        .add_modifier(untrained)
        .add_modifier(place_in_sequence)
        .add_modifier(range)
        .add_modifier(flanking)
        .add_modifier(charge)
        .add_modifier(offense)
        .add_modifier(prone)
        .add_modifier(target_prone)
        .add_modifier(target_flat_footed)
        .add_modifier(cover)
        .add_modifier(defense)
        .add_modifier(armor_class);
}

pub fn base_attack_bonus(InMut(at): Weighed, stats: Query<&Stats>) {
    if let Ok(s) = stats.get(at.attacker) {
        at.push("base attack bonus", s.def.base_attack);
    }
}

/// Strength to a melee attack, Dexterity to a ranged one.
pub fn strength_or_dexterity(InMut(at): Weighed, stats: Query<&Stats>) {
    if let Ok(s) = stats.get(at.attacker) {
        if at.melee {
            at.push("Strength", s.str_mod());
        } else {
            at.push("Dexterity", s.dex_mod());
        }
    }
}

pub fn size(InMut(at): Weighed, bodies: Query<&Body>) {
    if let Ok(body) = bodies.get(at.attacker) {
        at.push("size", body.size.size_modifier());
    }
}

/// The variant's penalty for a weapon the attacker is not trained with.
pub fn untrained(InMut(at): Weighed, fighters: Query<(&Stats, &Wielded)>) {
    let penalty = at.variant.numbers().untrained_penalty;
    if let Ok((stats, wielded)) = fighters.get(at.attacker)
        && penalty != 0
        && !stats.trained_with(&wielded.def)
    {
        at.push("untrained", penalty);
    }
}

/// Iterative, secondary and tertiary attacks, and later attack actions, as the variant
/// numbers them.
pub fn place_in_sequence(InMut(at): Weighed) {
    let nums = at.variant.numbers();
    match at.kind {
        AttackKind::Iterative(n) => at.push("iterative attack", nums.iterative_step * n as i32),
        AttackKind::Secondary => at.push("secondary attack", nums.secondary_attack),
        AttackKind::Tertiary => at.push("tertiary attack", nums.tertiary_attack),
        AttackKind::NthAction(n) if n > 1 => {
            at.push("earlier attack actions", nums.attack_action_step * (n as i32 - 1))
        }
        _ => {}
    }
}

/// −2 for each full range increment past the first.
pub fn range(InMut(at): Weighed, wielded: Query<&Wielded>) {
    if let Ok(w) = wielded.get(at.attacker)
        && !at.melee
        && at.dist > w.def.range_increment_ft
    {
        let increments = (at.dist - 1) / w.def.range_increment_ft.max(1);
        at.push("range", -2 * increments as i32);
    }
}

/// A melee attacker with an ally on the target's far side (the flanking rules of
/// `rules::flanking`, over the derived roster and threat map).
pub fn flanking(InMut(at): Weighed, derived: Res<Derived>, field: Res<Battlefield>) {
    if !at.melee {
        return;
    }
    let view =
        RulesView { field: &field, roster: &derived.roster, occupancy: &derived.occupancy, threat: &derived.threat };
    at.flanking = rules::flanking(&view, at.a, at.t).flanking;
    let bonus = at.variant.numbers().flanking;
    if at.flanking {
        at.push("flanking", bonus);
    }
}

/// A charge's bonus, for its attack (and, where the variant says so, the rest of the round
/// against the one charged).
pub fn charge(InMut(at): Weighed, reactions: Query<&Reactions>, clock: Res<Clock>) {
    let nums = at.variant.numbers();
    let charged_this_round = nums.charge_attack_lasts_round
        && at.melee
        && reactions.get(at.attacker).is_ok_and(|r| r.charged == Some((at.target, clock.round)));
    if at.ctx.charge || charged_this_round {
        at.push("charge", nums.charge_attack);
    }
}

/// The attacker's own bonuses (stances, focus…), by name.
pub fn offense(InMut(at): Weighed, bonuses: Query<&Bonuses>) {
    if let Ok(b) = bonuses.get(at.attacker) {
        for (name, v) in &b.offense {
            at.push(name, *v);
        }
    }
}

/// −4 to a melee attack made lying down.
pub fn prone(InMut(at): Weighed, conditions: Query<&Conditions>) {
    if at.melee && conditions.get(at.attacker).is_ok_and(|c| c.has(Condition::Prone)) {
        at.push("prone", -4);
    }
}

/// +4 to strike a prone target in melee, −4 to shoot one.
pub fn target_prone(InMut(at): Weighed, conditions: Query<&Conditions>) {
    if conditions.get(at.target).is_ok_and(|c| c.has(Condition::Prone)) {
        at.push("target prone", if at.melee { 4 } else { -4 });
    }
}

/// The target's Dexterity bonus to AC lost: flat-footed, surprised, stunned, or grappled
/// by another than the attacker (d20-classic's grappled are flat-footed against all but
/// their grappler). The defender's side of the roll, shown as a term so nothing is hidden.
pub fn target_flat_footed(InMut(at): Weighed, targets: Query<(&Conditions, &Grapple, &Stats)>) {
    let Ok((conditions, grapple, stats)) = targets.get(at.target) else { return };
    if loses_dexterity(conditions, grapple, at.attacker) && stats.dex_mod() > 0 {
        at.push("target flat-footed", stats.dex_mod());
    }
}

/// Whether a target in these conditions and this grapple loses its Dexterity to AC against
/// attacker `a`.
pub fn loses_dexterity(conditions: &Conditions, grapple: &Grapple, a: Entity) -> bool {
    let grappled_by_other = conditions.has(Condition::Grappled) && grapple.with != Some(a);
    conditions.has(Condition::FlatFooted)
        || conditions.has(Condition::Surprised)
        || grappled_by_other
        || conditions.has(Condition::Stunned)
        || conditions.has(Condition::Pinned)
        || grapple.pinning
}

/// The target's cover, as a penalty to the roll, named in the variant's words.
pub fn cover(InMut(at): Weighed) {
    if at.cover_bonus > 0 {
        let bonus = at.cover_bonus;
        at.push(&at.variant.numbers().cover_term, -bonus);
    }
}

/// The target's defences (total defense, dodge…), as penalties named for the target's
/// ("target charging"): in the attacker's breakdown and log, a bare "charging +2" would read
/// as the attacker's own charge.
pub fn defense(InMut(at): Weighed, bonuses: Query<&Bonuses>) {
    if let Ok(b) = bonuses.get(at.target) {
        for (name, v) in &b.defense {
            at.push(&format!("target {name}"), -*v);
        }
    }
}

/// The number to reach: the target's armor class.
pub fn armor_class(InMut(at): Weighed, targets: Query<(&Stats, &Body)>) {
    if let Ok((stats, body)) = targets.get(at.target) {
        at.target_number = stats.def.armor_class(body.size);
        at.against = "AC".into();
    }
}
