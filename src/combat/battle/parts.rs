//! A combatant whole, as plain data ([`Fighter`]): what a level's unit becomes, what a new
//! seat holds and what a snapshot keeps; and the queries that copy one from and into its
//! entity at once (`FighterParts`, and `FighterInPlay` for the components that change in
//! play), which snapshots and restores use.

use crate::combat::fighter::{Bonuses, Economy, Grapple, Initiative, Reactions, Spells};
use crate::level::{Catalogue, UnitDef};
use crate::rules::{
    Awareness, Body, Combatant, CombatantBundle, Conditions, Health, Position, Reach, Side, Stats, Wielded,
};
use bevy::ecs::query::QueryData;
use bevy::prelude::*;

/// One combatant, whole, as plain data: what a level's unit becomes, what a new seat holds
/// and what a snapshot keeps. Who a combatant is, its side, size, natural reach and
/// catalogue entry are fixed for the battle (no rule changes them); the rest changes in play.
#[derive(Bundle, Clone, Debug)]
pub struct Fighter {
    pub combatant: Combatant,
    pub side: Side,
    pub body: Body,
    pub reach: Reach,
    pub stats: Stats,
    pub position: Position,
    pub wielded: Wielded,
    pub health: Health,
    pub awareness: Awareness,
    pub conditions: Conditions,
    pub bonuses: Bonuses,
    pub reactions: Reactions,
    pub grapple: Grapple,
    pub spells: Spells,
    pub initiative: Initiative,
    pub economy: Economy,
}

/// Every component of one combatant, reached from its entity at once: what a snapshot
/// copies, one lookup a fighter. Those fixed for the battle, then those that change in play.
#[derive(QueryData)]
#[query_data(mutable)]
pub struct FighterParts {
    pub combatant: &'static mut Combatant,
    pub side: &'static mut Side,
    pub body: &'static mut Body,
    pub reach: &'static mut Reach,
    pub stats: &'static mut Stats,
    pub play: FighterInPlay,
}

/// The components of one combatant that change in play, reached at once.
#[derive(QueryData)]
#[query_data(mutable)]
pub struct FighterInPlay {
    pub position: &'static mut Position,
    pub wielded: &'static mut Wielded,
    pub health: &'static mut Health,
    pub awareness: &'static mut Awareness,
    pub conditions: &'static mut Conditions,
    pub bonuses: &'static mut Bonuses,
    pub reactions: &'static mut Reactions,
    pub grapple: &'static mut Grapple,
    pub spells: &'static mut Spells,
    pub initiative: &'static mut Initiative,
    pub economy: &'static mut Economy,
}

impl Fighter {
    /// A copy of the fighter whose parts these are.
    pub fn from_parts(parts: FighterPartsReadOnlyItem<'_, '_>) -> Fighter {
        Fighter {
            combatant: parts.combatant.clone(),
            side: parts.side.clone(),
            body: *parts.body,
            reach: *parts.reach,
            stats: parts.stats.clone(),
            position: *parts.play.position,
            wielded: parts.play.wielded.clone(),
            health: *parts.play.health,
            awareness: *parts.play.awareness,
            conditions: parts.play.conditions.clone(),
            bonuses: parts.play.bonuses.clone(),
            reactions: parts.play.reactions.clone(),
            grapple: *parts.play.grapple,
            spells: parts.play.spells.clone(),
            initiative: *parts.play.initiative,
            economy: parts.play.economy.clone(),
        }
    }

    /// Makes this a copy of the fighter whose parts these are, in place (reusing what each
    /// component has allocated).
    pub fn copy_from_parts(&mut self, parts: FighterPartsReadOnlyItem<'_, '_>) {
        self.combatant.clone_from(parts.combatant);
        self.side.clone_from(parts.side);
        self.body.clone_from(parts.body);
        self.reach.clone_from(parts.reach);
        self.stats.clone_from(parts.stats);
        self.copy_from_play(parts.play);
    }

    /// Makes the fighter whose parts these are a copy of this one, in place.
    pub fn copy_into_parts(&self, parts: FighterPartsItem<'_, '_>) {
        let FighterPartsItem { mut combatant, mut side, mut body, mut reach, mut stats, play } = parts;
        combatant.clone_from(&self.combatant);
        side.clone_from(&self.side);
        body.clone_from(&self.body);
        reach.clone_from(&self.reach);
        stats.clone_from(&self.stats);
        self.copy_into_play(play);
    }

    /// Its components fixed for a battle are those of the fighter whose parts these are.
    pub fn fixed_as(&self, parts: &FighterPartsReadOnlyItem<'_, '_>) -> bool {
        self.combatant == *parts.combatant
            && self.side == *parts.side
            && self.body == *parts.body
            && self.reach == *parts.reach
            && self.stats == *parts.stats
    }

    /// [`Fighter::copy_from_parts`] of the components that change in play only (the copy
    /// already holds this fighter of this battle).
    pub fn copy_from_play(&mut self, parts: FighterInPlayReadOnlyItem<'_, '_>) {
        self.position.clone_from(parts.position);
        self.wielded.clone_from(parts.wielded);
        self.health.clone_from(parts.health);
        self.awareness.clone_from(parts.awareness);
        self.conditions.clone_from(parts.conditions);
        self.bonuses.clone_from(parts.bonuses);
        self.reactions.clone_from(parts.reactions);
        self.grapple.clone_from(parts.grapple);
        self.spells.clone_from(parts.spells);
        self.initiative.clone_from(parts.initiative);
        self.economy.clone_from(parts.economy);
    }

    /// [`Fighter::copy_into_parts`] of the components that change in play only (the entity
    /// already holds this fighter of this battle).
    pub fn copy_into_play(&self, mut parts: FighterInPlayItem<'_, '_>) {
        parts.position.clone_from(&self.position);
        parts.wielded.clone_from(&self.wielded);
        parts.health.clone_from(&self.health);
        parts.awareness.clone_from(&self.awareness);
        parts.conditions.clone_from(&self.conditions);
        parts.bonuses.clone_from(&self.bonuses);
        parts.reactions.clone_from(&self.reactions);
        parts.grapple.clone_from(&self.grapple);
        parts.spells.clone_from(&self.spells);
        parts.initiative.clone_from(&self.initiative);
        parts.economy.clone_from(&self.economy);
    }
}

impl Fighter {
    /// A fighter from a level's unit (the level was validated): the components every
    /// combatant has, as a headless world of the level would spawn them, and a battle's own,
    /// with `economy` as its variant starts a combatant's.
    pub fn from_unit(unit: &UnitDef, catalogue: &Catalogue, economy: Economy) -> Option<Fighter> {
        let CombatantBundle { combatant, side, position, body, reach, wielded, health, awareness, conditions, stats } =
            CombatantBundle::from_level(unit, catalogue)?;
        let spells = Spells { left: stats.def.spellcasting.as_ref().map_or(0, |m| m.slots), casting: None };
        Some(Fighter {
            combatant,
            side,
            position,
            body,
            reach,
            stats,
            wielded,
            health,
            awareness,
            conditions,
            bonuses: Bonuses::default(),
            reactions: Reactions::default(),
            grapple: Grapple::default(),
            spells,
            initiative: Initiative::default(),
            economy,
        })
    }

    /// What the grid rules see of it under `variant` (`rules::unit_view`).
    pub fn view(&self, variant: crate::variants::RulesVariant) -> crate::rules::UnitView {
        let f = self;
        crate::rules::unit_view(
            variant,
            &f.combatant,
            &f.position,
            &f.body,
            &f.reach,
            &f.stats,
            &f.wielded,
            &f.conditions,
        )
    }
}
