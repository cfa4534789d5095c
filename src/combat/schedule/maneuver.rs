//! A combat maneuver (trip, shove, disarm, grapple) as the harm driver makes it: the
//! attack of opportunity it draws from its target first, where the variant says so
//! (`rules.maneuvers_provoke_target`), made as its own strike beneath which the maneuver
//! waits; then the variant's check, its systems in the [`ManeuverSchedule`] (each reads
//! the [`Attempt`] and the components it names, rolls, logs and sets the margin); then
//! what a success does (`resolve::maneuver_checked`), the same under every variant.

use super::Strike;
use crate::combat::attack::{self, AttackContext, AttackKind, AttackProfile};
use crate::combat::battle::{self, Maneuver};
use crate::combat::resolve;
use crate::rules::{Battlefield, Health};
use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;

/// The schedule run to check a combat maneuver, with [`ManeuverTried`].
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ManeuverSchedule;

/// The variant's systems that check a combat maneuver.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ManeuverCheck;

impl ManeuverCheck {
    pub fn name(self) -> &'static str {
        "strikes: maneuver check"
    }
}

/// A combat maneuver being checked.
#[derive(Clone, Debug)]
pub struct Attempt {
    /// The maker.
    pub by: Entity,
    /// The target.
    pub target: Entity,
    pub kind: Maneuver,
    /// The hit points the maker lost to the attack of opportunity its attempt drew.
    pub hurt: i32,
    /// The maker's attack on the target as it stands, every term weighed, where the
    /// variant's check starts from it ([`AimedManeuvers`]: d20-classic's touch attack);
    /// else not weighed.
    pub aim: Option<AttackProfile>,
}

/// Put in the rules world by a variant whose maneuver check starts from the maker's attack
/// on the target (d20-classic's touch attack): only there is that attack weighed for an
/// attempt.
#[derive(Resource, Debug, Default)]
pub struct AimedManeuvers;

/// The maneuver being checked, and by how much its maker won (below 0: lost), left `None`
/// when it is over already (it missed, or lost and paid for it).
#[derive(Resource, Debug, Default)]
pub struct ManeuverTried {
    pub attempt: Option<Attempt>,
    pub margin: Option<i32>,
}

impl ManeuverTried {
    /// The maneuver being checked, if any (none between maneuvers).
    pub fn attempt(&self) -> Option<&Attempt> {
        self.attempt.as_ref()
    }
}

/// `by`'s maneuver `kind` on `target`, made: see the module's words. `hp_before` is set
/// once the attack of opportunity it draws has been pushed.
pub(super) fn make_maneuver(world: &mut World, maker: Entity, foe: Entity, kind: Maneuver, hp_before: Option<i32>) {
    let provokes = world.resource::<Battlefield>().variant.numbers().rules.maneuvers_provoke_target;
    if provokes && hp_before.is_none() {
        let trigger = format!("tries a {}", kind.name());
        let waiting = |hp| Strike::Maneuver { by: maker, target: foe, kind, hp_before: Some(hp) };
        super::after_attacks_drawn(world, maker, waiting, Strike::Opportunity { by: foe, mover: maker, trigger });
        return;
    }
    if hp_before.is_some() && !crate::combat::resolve::in_fight(world, maker) {
        return;
    }
    resolve::refresh(world);
    let attempt = {
        let b = battle::store::read(world);
        // The attack's profile, where the variant's check is an attack (its grid rules name
        // fighters by their place in id order).
        let aim = world.contains_resource::<AimedManeuvers>().then(|| {
            let (by, target) = (resolve::seat(&b, maker), resolve::seat(&b, foe));
            attack::profile(&b, by, target, &AttackKind::Primary, &AttackContext::default())
        });
        let hurt = hp_before.map_or(0, |before| before - world.get::<Health>(maker).map_or(before, |h| h.hp));
        Attempt { by: maker, target: foe, kind, hurt, aim }
    };
    let tried = ManeuverTried { attempt: Some(attempt), margin: None };
    let Some(margin) = crate::combat::battle::run_with(world, ManeuverSchedule, tried).and_then(|t| t.margin) else {
        return;
    };
    resolve::maneuver_checked(world, maker, foe, kind, margin);
}
