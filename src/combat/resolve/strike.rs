//! An attack as the strike driver makes it, on the battle's world: the attack routine
//! (iterative attacks), each attack's steps (the rules before it, its terms weighed, its
//! roll and critical by the `SwingSchedule`'s systems), the damage (the `HarmSchedule`'s);
//! and an attack's profile from another square.

use super::*;
use crate::combat::battle::Provoked;
use crate::combat::battle::run_with;
use crate::combat::battle::store::{self, Combatants, Derived, EventLog, Record, TakenInStrike};
use crate::combat::battle::{rolled_check, with_taken};
use crate::combat::fighter::{Bonuses, Reactions};
use crate::combat::time::Clock;
use crate::rules::{Battlefield, Combatant, Conditions, Dice, Stats, Wielded};
use bevy::prelude::{Entity, Mut, World};

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
    let weapon = &world.get::<Wielded>(a).expect(A_COMBATANT).def;
    let count = if full { attack::full_attack_swings(variant, weapon, base_attack) } else { 1 };
    for n in 0..count {
        if !in_fight(world, t) || !in_fight(world, a) {
            break;
        }
        let k = if n == 0 { kind.clone() } else { AttackKind::Iterative(n) };
        refresh(world);
        // Whether the next swing may be made at all: its modifiers are weighed as it is
        // rolled (`roll_attack`), once its target's own rules have answered it.
        let b = store::read(world);
        if attack::legality(&b, seat(&b, a), seat(&b, t)).is_err() {
            break;
        }
        roll_attack(world, a, t, k, ctx);
    }
}

/// One attack of `a` on `t`: what befalls its target first (the variant's rules before an
/// attack, which may abort it to a dodge or send a shot astray), its terms weighed, its roll
/// and critical (the `SwingSchedule`'s systems), then its damage. Whether it hit.
pub(crate) fn roll_attack(world: &mut World, a: Entity, t: Entity, kind: AttackKind, ctx: &AttackContext) -> bool {
    let aimed =
        run_with(world, AttackedSchedule, UnderAttack { attacker: a, target: t }).map_or(t, |under| under.target);
    // A shot gone astray strikes another combatant, if it names one.
    let t = if world.resource::<Combatants>().seat_of(aimed).is_some() { aimed } else { t };
    refresh(world);
    let p = {
        let b = store::read(world);
        attack::profile(&b, seat(&b, a), seat(&b, t), &kind, ctx)
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

/// `h`'s held attack on `mover`, which came into its reach (none once `mover` is down).
pub(crate) fn held_attack(world: &mut World, h: Entity, mover: Entity) {
    if !in_fight(world, mover) {
        return;
    }
    world.get_mut::<Reactions>(h).expect(A_COMBATANT).held = None;
    let (hid, mid) = (id(world, h), id(world, mover));
    let action = CombatEvent::Action { unit: hid, action: "held attack".into(), detail: format!("triggered by {mid}") };
    world.resource_mut::<EventLog>().push(action);
    world.resource_mut::<TakenInStrike>().0.push(Taken::HeldAction { by: h, trigger: mover });
    roll_attack(world, h, mover, AttackKind::Primary, &AttackContext::default());
    refresh(world);
}

/// The attack at the end of a charge, if the charger `a` is still in the fight: with the
/// variant's charge bonuses, its damage bonus for the charge's attacks only.
pub(crate) fn charge_attack(world: &mut World, a: Entity, t: Entity) {
    if !in_fight(world, a) {
        return;
    }
    let nums = world.resource::<Battlefield>().variant.numbers();
    let damage = nums.charge_damage_for(world.get::<Wielded>(a).expect(A_COMBATANT).def.hands);
    let round = world.resource::<Clock>().round;
    let mut bonuses = world.get_mut::<Bonuses>(a).expect(A_COMBATANT);
    if damage != 0 {
        bonuses.damage.push(("charge".into(), damage));
    }
    if nums.charge_defense != 0 {
        bonuses.defense.push(("charging".into(), nums.charge_defense));
    }
    world.get_mut::<Reactions>(a).expect(A_COMBATANT).charged = Some((t, round));
    let ctx = AttackContext { charge: true };
    attack_routine(world, a, t, AttackKind::Primary, nums.charge_full_attack, &ctx);
    world.get_mut::<Bonuses>(a).expect(A_COMBATANT).damage.retain(|(n, _)| n != "charge");
}

/// Combatant `e`'s id.
pub(crate) fn id(world: &World, e: Entity) -> String {
    world.get::<Combatant>(e).expect(A_COMBATANT).id.clone()
}

/// Brings the battle's derived maps (roster, occupancy, threat) up to date after a move or
/// a change of condition, as a battle read between commands has them.
pub(crate) fn refresh(world: &mut World) {
    if world.resource::<Derived>().stale {
        let roster = store::read(world).roster();
        with_taken(world, |world, derived: &mut Derived| derived.rebuild(world.resource::<Battlefield>(), roster));
    }
}

/// While a command is only foreseen (`BattleWorld::provocations`), notes that the fighter
/// in seat `by` would strike (`trigger`, in the log's words) and says so: the caller then
/// leaves the strike unrolled.
pub(crate) fn foresee(world: &mut World, by: usize, trigger: &str) -> bool {
    let Some(seen) = world.resource_mut::<Record>().into_inner().foreseen.as_mut() else { return false };
    seen.push(Provoked { by, trigger: trigger.into() });
    true
}

/// Runs `work` over the world with the battle's dice and log in hand: a rule that rolls and
/// logs while it reads the combatants' components.
pub(crate) fn with_dice_and_log<U>(world: &mut World, work: impl FnOnce(&World, &mut Dice, &mut EventLog) -> U) -> U {
    world.resource_scope(|world, mut dice: Mut<Dice>| {
        with_taken(world, |world, log: &mut EventLog| work(world, &mut dice, log))
    })
}

/// A logged check or save of combatant `e`'s (`kind`, in the log's words): d20 + `bonus`
/// against `dc`. Whether it succeeded.
pub(crate) fn check(world: &mut World, e: Entity, kind: impl Into<String>, bonus: i32, dc: i32) -> bool {
    let unit = id(world, e);
    with_dice_and_log(world, |_, dice, log| rolled_check(dice, log, unit, kind.into(), bonus, dc))
}

/// Whether combatant `e` is still in the fight.
pub(crate) fn in_fight(world: &World, e: Entity) -> bool {
    world.get::<Conditions>(e).expect(A_COMBATANT).in_fight()
}

/// Combatant `e`'s place in id order, as the grid rules name it.
pub(crate) fn seat(b: &Battle, e: Entity) -> usize {
    b.fighters.seat_of(e).expect(A_COMBATANT)
}

pub(crate) const A_COMBATANT: &str = "the rules name combatants";
