//! An attack as the strike driver makes it, on the battle's world: the attack routine
//! (iterative attacks), each attack's steps (the rules before it, its terms weighed, its
//! roll and critical by the `SwingSchedule`'s systems), the damage (the `HarmSchedule`'s);
//! and an attack's profile from another square.

use super::*;
use crate::combat::battle::run_with;
use crate::combat::battle::store::{self, Derived, TakenInStrike};
use crate::combat::battle::with_taken;
use crate::rules::{Battlefield, Conditions, Stats, Wielded};
use bevy::prelude::{Entity, World};

/// One attack action (or a full attack) of `a` against `t`, on the battle's world.
pub(crate) fn attack_routine(
    world: &mut World,
    a: Entity,
    t: Entity,
    kind: AttackKind,
    full: bool,
    ctx: &AttackContext,
) {
    ranged_provokes(world, a);
    if !in_fight(world, a) {
        return;
    }
    let variant = world.resource::<Battlefield>().variant;
    let wielded = &world.get::<Wielded>(a).expect(A_COMBATANT).def;
    if wielded.reload && variant.numbers().one_shot_then_reload {
        // One bolt: a full attack with a crossbow is a single shot, then it needs loading.
        world.get_mut::<Wielded>(a).expect(A_COMBATANT).loaded = false;
        roll_attack(world, a, t, kind, ctx);
        return;
    }
    if let AttackKind::NthAction(_) = kind {
        world.resource_mut::<TakenInStrike>().0.push(Taken::AttackAction { by: a });
    }
    let base_attack = world.get::<Stats>(a).expect(A_COMBATANT).def.base_attack;
    let count = if full { variant.numbers().rules.full_attack.attacks(base_attack) } else { 1 };
    for n in 0..count {
        if !in_fight(world, t) || !in_fight(world, a) {
            break;
        }
        let k = if n == 0 { kind.clone() } else { AttackKind::Iterative(n) };
        refresh(world);
        // Whether the next swing may be made at all: its modifiers are weighed as it is
        // rolled (`roll_attack`), once its target's own rules have answered it.
        let b = store::read(world);
        if attack::legality(&b, &b.view(), seat(&b, a), seat(&b, t)).is_err() {
            break;
        }
        roll_attack(world, a, t, k, ctx);
    }
}

/// One attack of `a` on `t`: what befalls its target first (the variant's rules before an
/// attack, which may abort it to a dodge or send a shot astray), its terms weighed, its roll
/// and critical (the `SwingSchedule`'s systems), then its damage. Whether it hit.
pub(crate) fn roll_attack(world: &mut World, a: Entity, t: Entity, kind: AttackKind, ctx: &AttackContext) -> bool {
    let t = run_with(world, AttackedSchedule, UnderAttack { attacker: a, target: t }).map_or(t, |under| under.target);
    refresh(world);
    let p = {
        let b = store::read(world);
        attack::profile(&b, &b.view(), seat(&b, a), seat(&b, t), &kind, ctx)
    };
    if !p.legal {
        return false;
    }
    let melee = p.melee;
    match run_with(world, SwingSchedule, Swing::new(a, t, kind, ctx.charge, Some(p))) {
        Some(swing) if swing.hit => {
            deal_damage(world, a, t, swing.critical, melee);
            true
        }
        _ => false,
    }
}

/// Weapon damage of `a`'s blow on `t`: its flat terms weighed (the damage modifier
/// systems), then rolled and dealt by the harm pipeline; the damage dealt.
pub(crate) fn deal_damage(world: &mut World, a: Entity, t: Entity, critical: bool, melee: bool) -> i32 {
    let terms = {
        let b = store::read(world);
        attack::damage_terms(&b, seat(&b, a), seat(&b, t), melee)
    };
    let harm = Harm::new(a, t, Some(WeaponBlow { critical, terms }), 0);
    run_with(world, HarmSchedule, harm).map_or(0, |harm| harm.amount)
}

/// Brings the battle's derived maps (roster, occupancy, threat) up to date after a move or
/// a change of condition, as [`Battle::refresh`] does.
pub(crate) fn refresh(world: &mut World) {
    if world.resource::<Derived>().stale {
        let roster = store::read(world).roster();
        with_taken(world, |world, derived: &mut Derived| derived.rebuild(world.resource::<Battlefield>(), roster));
    }
}

/// Whether combatant `e` is still in the fight.
pub(super) fn in_fight(world: &World, e: Entity) -> bool {
    world.get::<Conditions>(e).expect(A_COMBATANT).in_fight()
}

/// Combatant `e`'s place in id order, as the grid rules name it.
pub(super) fn seat(b: &Battle, e: Entity) -> usize {
    b.fighters.seat_of(e).expect(A_COMBATANT)
}

pub(super) const A_COMBATANT: &str = "an attack names combatants";

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
