//! Attack rolls and damage rolls: the attack routine (iterative attacks), critical
//! threats and confirmations as each source defines them, and an attack's profile from
//! another square.

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
        b.took(Taken::AttackAction { by: a });
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

/// Rolls one attack, its critical and its damage.
pub(super) fn roll_attack(b: &mut Battle, a: usize, t: usize, kind: AttackKind, ctx: &AttackContext) -> bool {
    b.run_rules(AttackedSchedule, UnderAttack(t));
    let t = grapple_target(b, a, t);
    b.refresh();
    let p = attack::profile(b, &b.view(), a, t, &kind, ctx);
    if !p.legal {
        return false;
    }
    let bonus = p.bonus();
    let rolls: Vec<i32> = match p.die {
        crate::combat::AttackDie::ThreeD6 => (0..3).map(|_| b.dice.roll(6) as i32).collect(),
        crate::combat::AttackDie::D20 { .. } => vec![b.dice.roll(20) as i32],
    };
    let natural: i32 = rolls.iter().sum();
    let hit = p.die.hits(natural, bonus, p.target_number);
    let weapon = b.fighters.wielded[a].def.clone();
    let criticals = b.variant.numbers().rules.criticals;
    let threat = hit
        && matches!(p.die, crate::combat::AttackDie::D20 { .. })
        && criticals != Criticals::None
        && natural >= weapon.crit_range as i32;
    let kind_name = match &kind {
        AttackKind::Opportunity => b.variant.numbers().opportunity_attack.as_str(),
        AttackKind::Secondary => "secondary attack on",
        AttackKind::Tertiary => "tertiary attack on",
        AttackKind::Iterative(_) => "iterative attack on",
        _ if ctx.charge => "charges",
        _ => "attacks",
    };
    b.stats.attacks += 1;
    let (aid, tid) = (b.fighters.combatant[a].id.clone(), b.fighters.combatant[t].id.clone());
    b.emit(CombatEvent::Attack {
        attacker: aid.clone(),
        target: tid.clone(),
        kind: kind_name.into(),
        die: p.die.name().into(),
        rolls,
        modifiers: p.modifiers.clone(),
        total: natural + bonus,
        target_number: p.target_number,
        hit,
        critical: threat,
    });
    if !hit {
        return false;
    }
    b.stats.hits += 1;
    let critical = if threat && criticals == Criticals::Confirmed {
        let roll = b.dice.roll(20) as i32;
        let confirmed = p.die.hits(roll, bonus, p.target_number);
        b.emit(CombatEvent::Confirm {
            attacker: aid.clone(),
            target: tid.clone(),
            roll,
            total: roll + bonus,
            target_number: p.target_number,
            confirmed,
        });
        confirmed
    } else {
        threat
    };
    if critical {
        b.stats.criticals += 1;
    }
    deal_damage(b, a, t, critical, p.melee);
    true
}

/// Whom a shot at `t` is resolved against: a shot at one of two creatures locked in a
/// grapple goes to the other on the variant's miss chance (d20-classic: "Shooting at two
/// grappling characters will create a 50% miss chance on the intended target for the other
/// target").
fn grapple_target(b: &mut Battle, a: usize, t: usize) -> usize {
    let percent = b.variant.numbers().grapple_miss_percent as i32;
    let Some(other) = b.fighters.grapple[t].with else { return t };
    if percent == 0 || !b.fighters.wielded[a].def.is_ranged() || other == a || !b.fighters.conditions[other].in_fight()
    {
        return t;
    }
    let roll = b.dice.roll(100) as i32;
    let strays = roll <= percent;
    let (unit, target, other_id) = (
        b.fighters.combatant[a].id.clone(),
        b.fighters.combatant[t].id.clone(),
        b.fighters.combatant[other].id.clone(),
    );
    b.emit(CombatEvent::MissChance { unit, target, other: other_id, roll, percent, strays });
    if strays { other } else { t }
}

/// Rolls and applies weapon damage; the damage dealt.
pub(crate) fn deal_damage(b: &mut Battle, a: usize, t: usize, critical: bool, melee: bool) -> i32 {
    let fa = b.fighters.at(a);
    let dice = fa.damage_dice();
    let weapon = fa.wielded().def.clone();
    let flat = attack::damage_terms(b, a, t, melee);
    let mult = if critical { weapon.crit_mult } else { 1 };
    let mut rolls = Vec::new();
    let mut total = 0i32;
    let flat_sum: i32 = flat.iter().map(|m| m.value).sum();
    for k in 0..mult {
        let r = b.dice.roll_many(dice.count, dice.sides);
        total += r.iter().map(|&x| x as i32).sum::<i32>();
        rolls.extend(r.into_iter().map(|x| x as i32));
        // Confirmed criticals multiply flat bonuses with the dice; four-actions adds them once
        // ("roll and add the appropriate modifiers").
        let multiply_flat = b.variant.numbers().rules.criticals == Criticals::Confirmed;
        if k == 0 || multiply_flat {
            total += flat_sum;
        }
    }
    let total = total.max(1);
    let dice_label =
        if mult > 1 { format!("{}d{} x{mult} critical", dice.count, dice.sides) } else { dice.to_string() };
    let mods = if critical && b.variant.numbers().rules.criticals == Criticals::Confirmed {
        flat.iter().map(|m| Modifier::new(format!("{} x{mult}", m.source), m.value * mult as i32)).collect()
    } else {
        flat
    };
    b.stats.damage_dealt += total as u64;
    let nonlethal = weapon.nonlethal;
    apply_damage(b, a, t, total, nonlethal, dice_label, rolls, mods);
    total
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
