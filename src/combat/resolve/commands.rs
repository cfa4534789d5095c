//! What each kind of command does once checked: one function per slot of the rules
//! schedule, taking the acting fighter and the command's plan. The schedule's systems
//! call these (`combat::schedule`).

use super::*;
use crate::level::SpellDef;

/// Casting a spell at once.
pub(crate) fn cast_at_once(b: &mut Battle, actor: usize, plan: &Plan) {
    if let Some((t, sp, defensive)) = spell_of(b, actor, plan) {
        magic::cast_now(b, actor, sp, t, defensive);
    }
}

/// A cast's target, spell and whether it is cast defensively.
pub(crate) fn spell_of(b: &Battle, actor: usize, plan: &Plan) -> Option<(usize, &'static SpellDef, bool)> {
    let Command::Cast { spell, target, defensive } = &plan.command else { return None };
    let (t, sp) = magic::check(b, actor, spell, target).ok()?;
    Some((t, sp, *defensive))
}
