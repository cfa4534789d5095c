//! Casting a spell as a pipeline. The command's slot announces it: the spell spent and the
//! casting in the log, a system over the caster's `Spells`. What becomes of it waits on
//! the strike stack (`Strike::Spell`) for the harm driver: the attacks of opportunity it
//! draws and the concentration they break, as the variant has it, then, for a spell that
//! goes off at once, any counterspell and its effect. A spell that takes longer
//! (ap-phases' two AP) is left under way, if its caster kept hold of it, for its variant's
//! settle-stage system ([`SpellsUnderWay`]).

use super::{Strike, StrikeStack, Turn};
use crate::combat::Command;
use crate::combat::battle::EventLog;
use crate::combat::battle::store::Record;
use crate::combat::event::CombatEvent;
use crate::combat::fighter::{Casting, Spells};
use crate::combat::resolve::magic;
use crate::level::SpellDef;
use crate::rules::Combatant;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

/// A spell cast by the command being carried out, its caster and target by entity and name.
pub(crate) struct Cast {
    pub(crate) caster: Entity,
    pub(crate) caster_id: String,
    pub(crate) target: Entity,
    pub(crate) target_id: String,
    pub(crate) spell: &'static SpellDef,
    pub(crate) defensive: bool,
}

/// The casters whose spell, begun, is under way after its attacks of opportunity: the harm
/// driver notes them, and the variant that keeps a spell under way takes them up.
#[derive(Resource, Debug, Default)]
pub struct SpellsUnderWay(pub Vec<Entity>);

/// What announcing a spell reads and changes: the accepted command, the caster's spells,
/// the record's count of spells cast, and the log.
#[derive(SystemParam)]
pub(crate) struct Announcing<'w, 's> {
    turn: Res<'w, Turn>,
    combatants: Query<'w, 's, (Entity, &'static Combatant)>,
    spells: Query<'w, 's, &'static mut Spells>,
    record: ResMut<'w, Record>,
    log: ResMut<'w, EventLog>,
}

impl Announcing<'_, '_> {
    /// The spell the accepted command casts, as the check let it through.
    pub(crate) fn cast(&self) -> Option<Cast> {
        let (caster, plan) = self.turn.accepted()?;
        let Command::Cast { spell, target, defensive } = &plan.command else { return None };
        let caster_id = self.combatants.get(caster).ok()?.1.id.clone();
        let (target_id, target) = (target.clone(), super::named(&self.combatants, target)?);
        let spell = magic::spell(spell)?;
        Some(Cast { caster, caster_id, target, target_id, spell, defensive: *defensive })
    }

    /// The casting only foreseen (what it would provoke), not carried out.
    pub(crate) fn foreseeing(&self) -> bool {
        self.record.foreseen.is_some()
    }

    pub(crate) fn log(&mut self, event: CombatEvent) {
        self.log.push(event);
    }

    /// The spell is spent as the variant counts it, and the casting (`verb`) logged.
    pub(crate) fn announce(&mut self, cast: &Cast, verb: &str) {
        let cost = self.record.variant.numbers().rules.spell_cost.of(cast.spell.level);
        let Ok(mut spells) = self.spells.get_mut(cast.caster) else { return };
        spells.left -= cost;
        let left = spells.left;
        self.record.stats.spells_cast += 1;
        let sp = cast.spell;
        let detail = format!("on {} (level {}; {left} left)", cast.target_id, sp.level);
        let (unit, action) = (cast.caster_id.clone(), format!("{verb} {}", sp.name));
        self.log.push(CombatEvent::Action { unit, action, detail });
    }

    /// The spell is held under way in the caster's `Spells` until it goes off
    /// (osr-segments' incantation, by segment).
    pub(crate) fn hold(&mut self, cast: &Cast) {
        if let Ok(mut spells) = self.spells.get_mut(cast.caster) {
            spells.casting = Some(Casting { spell: cast.spell.id.clone(), target: cast.target_id.clone() });
        }
    }
}

impl Cast {
    /// What becomes of the spell, for the harm driver: it goes off at once (`goes_off`) or
    /// is left under way.
    pub(crate) fn strike(&self, goes_off: bool) -> Strike {
        Strike::Spell {
            caster: self.caster,
            target: self.target,
            spell: self.spell.id.clone(),
            defensive: self.defensive,
            goes_off,
            hp_before: None,
        }
    }
}

/// A spell cast at once (d20-classic, hex-phases): announced, and what becomes of it
/// pushed for the harm driver.
pub(crate) fn cast_at_once(mut announcing: Announcing, mut stack: ResMut<StrikeStack>) {
    let Some(cast) = announcing.cast() else { return };
    announcing.announce(&cast, "casts");
    stack.0.push(cast.strike(true));
}
