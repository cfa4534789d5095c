//! An attack as the strike driver makes it: the attack routine (iterative attacks), each
//! attack's steps (the rules before it, its terms weighed, its roll and critical by the
//! `SwingSchedule`'s systems), the damage roll, and an attack's profile from another square.

use super::*;

/// One attack action (or a full attack) against `t`.
pub(crate) fn attack_routine(b: &mut Battle, a: usize, t: usize, kind: AttackKind, full: bool, ctx: &AttackContext) {
    ranged_provokes(b, a);
    if !b.fighters.conditions[a].in_fight() {
        return;
    }
    if b.fighters.wielded[a].def.reload && b.variant.numbers().one_shot_then_reload {
        // One bolt: a full attack with a crossbow is a single shot, then it needs loading.
        b.fighters.wielded[a].loaded = false;
        roll_attack(b, a, t, kind, ctx);
        return;
    }
    if let AttackKind::NthAction(_) = kind {
        b.took(Taken::AttackAction { by: b.fighters.entity(a) });
    }
    let count =
        if full { b.variant.numbers().rules.full_attack.attacks(b.fighters.stats[a].def.base_attack) } else { 1 };
    for n in 0..count {
        if !b.fighters.conditions[t].in_fight() || !b.fighters.conditions[a].in_fight() {
            break;
        }
        let k = if n == 0 { kind.clone() } else { AttackKind::Iterative(n) };
        b.refresh();
        // Whether the next swing may be made at all: its modifiers are weighed as it is
        // rolled (`roll_attack`), once its target's own rules have answered it.
        if attack::legality(b, &b.view(), a, t).is_err() {
            break;
        }
        roll_attack(b, a, t, k, ctx);
    }
}

/// One attack: what befalls its target first (the variant's rules before an attack, which
/// may abort it to a dodge or send a shot astray), its terms weighed, its roll and critical
/// (the `SwingSchedule`'s systems), then its damage.
pub(super) fn roll_attack(b: &mut Battle, a: usize, t: usize, kind: AttackKind, ctx: &AttackContext) -> bool {
    let (attacker, target) = (b.fighters.entity(a), b.fighters.entity(t));
    let aimed = b.run_rules(AttackedSchedule, UnderAttack { attacker, target }).map_or(target, |under| under.target);
    // Only a shot gone astray needs its new target's seat looked up.
    let t = if aimed == target { t } else { b.fighters.seat_of(aimed).unwrap_or(t) };
    b.refresh();
    let p = attack::profile(b, &b.view(), a, t, &kind, ctx);
    if !p.legal {
        return false;
    }
    let melee = p.melee;
    let swing = Swing::new(attacker, b.fighters.entity(t), kind, ctx.charge, Some(p));
    match b.run_rules(SwingSchedule, swing) {
        Some(swing) if swing.hit => {
            deal_damage(b, a, t, swing.critical, melee);
            true
        }
        _ => false,
    }
}

/// Weapon damage: its flat terms weighed (the damage modifier systems), then rolled and
/// dealt by the harm pipeline; the damage dealt.
pub(crate) fn deal_damage(b: &mut Battle, a: usize, t: usize, critical: bool, melee: bool) -> i32 {
    let weapon = Some(WeaponBlow { critical, terms: attack::damage_terms(b, a, t, melee) });
    let harm = Harm::new(b.fighters.entity(a), b.fighters.entity(t), weapon, 0);
    b.run_rules(HarmSchedule, harm).map_or(0, |harm| harm.amount)
}

impl Battle<'_, '_> {
    /// The first attack `a` would make on `t` from `from` (a charge's end), its position
    /// put back afterwards.
    pub(super) fn attack_from(
        &mut self,
        a: usize,
        t: usize,
        from: GridPos,
        ctx: &AttackContext,
    ) -> attack::AttackProfile {
        let here = self.fighters.position[a].0;
        self.fighters.position[a].0 = from;
        self.invalidate();
        self.refresh();
        let p = attack::profile(self, &self.view(), a, t, &AttackKind::Primary, ctx);
        self.fighters.position[a].0 = here;
        // The derived state back as it was, for whoever reads the view next.
        self.invalidate();
        self.refresh();
        p
    }
}
