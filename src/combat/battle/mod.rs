//! A battle's state: its fighters (in id order, so a fighter's index is stable), the
//! clock, the seeded dice, the event log, and the derived roster, occupancy and threat map;
//! where it lives (its world's entities and resources: `store`), the read-only lens through
//! which the rules and everyone else read it ([`Battle`]), and the slots a variant fills
//! (`slots`). Pure and deterministic: the same seed and the same commands give the same
//! events byte for byte.
//!
//! Why indexing here cannot panic on input: commands and logs name units by id, and
//! `Battle::index_of` turns an unknown id into a `RuleError` before anything is indexed;
//! every other index comes from the clock's queue or a scan of `fighters`, which never
//! shrinks during a battle (the fallen stay, off the board). A square off the map reads as
//! wall (`TerrainMap::get`), so a position from a person is never an index out of range.

mod fighters;
mod parts;
mod slots;
pub(crate) mod store;

pub(crate) use fighters::ColumnIds;
pub use fighters::{Column, FighterRef, Fighters, FightersIter};
pub use parts::{Fighter, FighterInPlay, FighterParts, FighterPartsReadOnlyItem};
pub use slots::{AttackContext, AttackKind};
pub(crate) use slots::{Criticals, Maneuver, VariantRules};
pub use store::{BattleRead, Combatants, Derived, EventLog, Taken, TakenInStrike};

use super::event::CombatEvent;
use super::kept::{KeptByBattle, KeptByEach, KeptReads};
use super::time::{Budget, Clock};
use crate::rules::{Battlefield, Conditions, Dice, Roster, RulesView, Side};
use crate::variants::RulesVariant;
use bevy::ecs::component::Mutable;
use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::{Component, Resource, World};
use serde::Serialize;

pub use crate::level::DeathSaves;

/// One attack of opportunity a command would draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Provoked {
    /// Who makes it.
    pub by: usize,
    /// What the mover does that provokes it, in the log's words ("fires in melee").
    pub trigger: String,
}

/// Settings of one battle.
#[derive(Debug, PartialEq)]
pub struct BattleOptions {
    pub death_saves: DeathSaves,
    /// Rounds (turns in hex-phases) before the battle is called a draw.
    pub round_cap: u32,
    /// The house rules in force, each applying to the battle's variant.
    pub house_rules: Vec<crate::variants::HouseRule>,
}

clone_in_place!(BattleOptions { death_saves, round_cap, house_rules });

impl Default for BattleOptions {
    fn default() -> Self {
        BattleOptions { death_saves: DeathSaves::default(), round_cap: 50, house_rules: Vec::new() }
    }
}

/// Counters the sim reports.
#[derive(Clone, Debug, Default, PartialEq, Serialize, serde::Deserialize)]
pub struct BattleStats {
    pub attacks: u32,
    pub hits: u32,
    pub criticals: u32,
    pub attacks_of_opportunity: u32,
    pub damage_dealt: u64,
    pub spells_cast: u32,
    pub counterspells: u32,
}

/// A battle in progress as the rules read it: its parts in its world, seen from a shared
/// world (`BattleWorld::read`) or through a check's own queries (`BattleCheck`). Nothing is
/// changed through it: the rules change the world itself, fighters by entity.
#[derive(Debug)]
pub struct Battle<'w, 's> {
    pub level_name: &'w String,
    pub field: &'w Battlefield,
    pub variant: RulesVariant,
    /// In id order; a fighter's index is stable for the whole battle.
    pub fighters: Fighters<'w, 's>,
    pub dice: &'w Dice,
    pub options: &'w BattleOptions,
    pub clock: &'w Clock,
    pub events: &'w EventLog,
    pub stats: &'w BattleStats,
    /// `None` while the battle is on; then `Some(winner)`, `Some(None)` for a draw.
    pub winner: &'w Option<Option<String>>,
    /// What a disarmed fighter fights with.
    pub unarmed: &'w std::sync::Arc<crate::level::WeaponDef>,
    /// Roster, occupancy and threat as of the last `refresh`.
    pub(crate) derived: &'w Derived,
    /// The registry of the variants' rules (their slots), given when the battle is set up
    /// (`variants::rules`), so the shared rules never name the registry's module.
    pub(crate) rules_of: fn(RulesVariant) -> &'static dyn VariantRules,
    /// The world it is in, for read-only systems to run over (`Battle::world`).
    pub(crate) world: Whole<'w, 's>,
}

/// The world a battle is in, shared with others; or, for a check run as a system, no world
/// but the queries of the variants' own state.
pub(crate) enum Whole<'w, 's> {
    Read(&'w World),
    Checked(KeptReads<'w, 's>),
}

impl std::fmt::Debug for Whole<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("World")
    }
}

impl Battle<'_, '_> {
    /// The whole world of the battle, to run read-only systems over (the attack modifiers).
    /// A check run as a system (`BattleCheck`) has none: it reads only what its queries name.
    pub fn world(&self) -> Option<&World> {
        match self.world {
            Whole::Read(world) => Some(world),
            Whole::Checked(_) => None,
        }
    }

    /// The active variant's rules: the slots where its source differs.
    pub(crate) fn rules(&self) -> &'static dyn VariantRules {
        (self.rules_of)(self.variant)
    }

    /// The variant's own state in this battle (a resource of its type), if it keeps one.
    pub fn own<T: KeptByBattle>(&self) -> Option<&T> {
        match &self.world {
            Whole::Read(world) => world.get_resource::<T>(),
            Whole::Checked(reads) => T::read(reads),
        }
    }

    /// What the fighter acting now may still do in its opportunity (nothing, while nobody
    /// acts).
    pub fn budget(&self) -> &Budget {
        static SPENT: Budget = Budget {
            standard: false,
            move_action: false,
            fresh: false,
            moved: false,
            stepped: false,
            single_action: false,
            own: crate::combat::kept::BudgetPart::None,
        };
        self.clock.actor.map_or(&SPENT, |actor| &self.fighters.economy[actor].budget)
    }

    /// What `i` declared for this round, where combatants declare (osr-segments'
    /// `Declaration`).
    pub fn declared(&self, i: usize) -> Option<&crate::combat::command::Intent> {
        self.economy::<crate::combat::kept::Declaration>(i).and_then(|d| d.intent.as_ref())
    }

    /// Where the clock is inside the window open now, for the check that time only moves
    /// on: the step of an osr-segments round (`OsrRound`), else 0.
    pub fn window_step(&self) -> u8 {
        self.own::<crate::combat::kept::OsrRound>().map_or(0, |round| round.step as u8)
    }

    /// Fighter `i`'s part of the variant's action economy (a component of its type), if it
    /// keeps one.
    pub fn economy<T: KeptByEach>(&self, i: usize) -> Option<&T> {
        let e = self.fighters.entity(i);
        match &self.world {
            Whole::Read(world) => world.get::<T>(e),
            Whole::Checked(reads) => T::read(reads, e),
        }
    }

    pub fn index_of(&self, id: &str) -> Option<usize> {
        let (mut low, mut high) = (0, self.fighters.len());
        while low < high {
            let mid = (low + high) / 2;
            match self.fighters.combatant[mid].id.as_str().cmp(id) {
                std::cmp::Ordering::Less => low = mid + 1,
                std::cmp::Ordering::Greater => high = mid,
                std::cmp::Ordering::Equal => return Some(mid),
            }
        }
        None
    }

    /// Where `mover` can go with one movement of `mode` within `budget_ft`, as the battle
    /// stands (searched once while the derived maps stand). The derived maps must be up to date (as between commands).
    pub fn move_range(
        &self,
        mover: usize,
        mode: crate::rules::MoveMode,
        budget_ft: u32,
    ) -> std::sync::Arc<crate::rules::MoveRange> {
        self.derived.move_range(self.field, mover, mode, budget_ft)
    }

    /// The cover of `target` against `attacker`'s wielded weapon, as the battle stands
    /// (surveyed once while the derived maps stand; they must be up to date).
    pub fn cover_between(&self, attacker: usize, target: usize) -> crate::rules::CoverResult {
        self.derived.cover_between(self.field, attacker, target)
    }

    /// The rules' view of the battle as it stands. The derived maps must be up to date (as between commands).
    pub fn view(&self) -> RulesView<'_> {
        self.derived.view(self.field)
    }

    /// The fighters as the grid rules see them. The dead leave the board.
    pub fn roster(&self) -> Roster {
        let units = self
            .fighters
            .iter()
            .map(|f| {
                let view = crate::rules::unit_view(
                    self.variant,
                    f.combatant(),
                    f.position(),
                    f.body(),
                    f.reach(),
                    f.stats(),
                    f.wielded(),
                    f.conditions(),
                );
                (view, f.side().0.clone())
            })
            .collect();
        Roster::new(units)
    }

    /// The squares `f`'s weapon reaches under this variant, whether or not it threatens
    /// them.
    pub fn reach_band(&self, f: FighterRef<'_, '_, '_>) -> Option<crate::rules::ReachBand> {
        crate::rules::ReachBand::under(self.variant, f.reach().natural_ft, f.size(), &f.wielded().def)
    }

    /// Every side in the battle, sorted.
    pub fn sides_all(&self) -> Vec<String> {
        let mut sides: Vec<String> = self.fighters.iter().map(|f| f.side().0.clone()).collect();
        sides.sort();
        sides.dedup();
        sides
    }

    pub fn is_over(&self) -> bool {
        self.winner.is_some()
    }

    /// The fighter whose opportunity it is, if the battle is on.
    pub fn actor(&self) -> Option<usize> {
        self.clock.actor.and_then(|e| self.fighters.seat_of(e))
    }
}

/// Whether the battle is decided: at most one side has a fighter in the fight. The winner
/// (none when nobody is left standing) and why; asked after every command and at every
/// call of the clock, so the sides are compared as they come rather than gathered (in any
/// order: the answer does not depend on it).
pub fn decided<'a>(
    fighters: impl Iterator<Item = (&'a Side, &'a Conditions)>,
) -> Option<(Option<String>, &'static str)> {
    let mut standing: Option<&Side> = None;
    for (side, _) in fighters.filter(|(_, c)| c.in_fight()) {
        match standing {
            Some(first) if first != side => return None,
            _ => standing = Some(side),
        }
    }
    let winner = standing.map(|side| side.0.clone());
    let reason = if winner.is_some() { "the other side is out of the fight" } else { "nobody is left standing" };
    Some((winner, reason))
}

/// A logged check or save of `unit`'s (`kind`, in the log's words): d20 + `bonus` against
/// `dc`. Whether it succeeded.
pub(crate) fn rolled_check(
    dice: &mut Dice,
    log: &mut EventLog,
    unit: String,
    kind: String,
    bonus: i32,
    dc: i32,
) -> bool {
    let roll = dice.roll(20) as i32;
    let success = roll + bonus >= dc;
    log.push(CombatEvent::Save { unit, kind, roll, bonus, dc, success });
    success
}

/// `unit` gains `condition` (loses it, if not `gained`), if that changes its conditions:
/// logged, and the derived maps marked stale (conditions change who threatens and who may
/// be passed). Whether it changed.
pub(crate) fn change_condition(
    unit: &str,
    conditions: &mut Conditions,
    condition: crate::rules::Condition,
    gained: bool,
    log: &mut EventLog,
    derived: &mut Derived,
) -> bool {
    let changed = if gained { conditions.add(condition) } else { conditions.remove(condition) };
    if changed {
        let unit = unit.to_string();
        log.push(if gained {
            CombatEvent::ConditionGained { unit, condition }
        } else {
            CombatEvent::ConditionLost { unit, condition }
        });
        derived.stale = true;
    }
    changed
}

/// Ends the battle, once: the outcome recorded, nobody acting, the end in the log.
pub(crate) fn finish(
    outcome: &mut Option<Option<String>>,
    clock: &mut Clock,
    events: &mut EventLog,
    winner: Option<String>,
    reason: &str,
) {
    if outcome.is_none() {
        events.push(CombatEvent::BattleEnded { winner: winner.clone(), rounds: clock.round, reason: reason.into() });
        *outcome = Some(winner);
        clock.actor = None;
    }
}

/// Runs the small rule schedule `label` over `world` with `given` in its resource, and
/// gives the resource back as its systems left it. A schedule that holds no system (the
/// variant has no such rule) is not run, nor its resource set: `None`.
pub(crate) fn run_with<R>(world: &mut World, label: impl ScheduleLabel, given: R) -> Option<R>
where
    R: Resource + Component<Mutability = Mutable> + Default,
{
    world
        .try_schedule_scope(label, |world, schedule| {
            if schedule.systems_len() == 0 {
                return None;
            }
            *world.resource_mut::<R>() = given;
            schedule.run(world);
            Some(std::mem::take(&mut *world.resource_mut::<R>()))
        })
        .ok()
        .flatten()
}

/// Runs `work` with resource `R` taken out of `world` and put back after, as
/// `World::resource_scope` does, but leaving `R`'s default in its place meanwhile rather
/// than removing it: in Bevy 0.19 a resource is a component of an entity of its own, and
/// removing and inserting it would move that entity between archetypes twice. Nothing in
/// `work` reaches `R` in the world (a scope would have panicked), so its default is still
/// there to be overwritten.
pub(crate) fn with_taken<R, U>(world: &mut World, work: impl FnOnce(&mut World, &mut R) -> U) -> U
where
    R: Resource + Component<Mutability = Mutable> + Default,
{
    let mut taken = std::mem::take(&mut *world.resource_mut::<R>());
    let out = work(world, &mut taken);
    *world.resource_mut::<R>() = taken;
    out
}
