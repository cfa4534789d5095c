//! Spells: who may cast what on whom (known, left, range, line of effect), and casting
//! as each source has it. d20-classic: a standard action that provokes unless cast
//! defensively, a concentration check when hurt while casting, and foes with the
//! `counterspell` trait countering it as an immediate action. ap-phases: a complex
//! advanced action of 2 AP that provokes each phase its AP are spent. four-actions: a
//! standard action costing Spell Quantity, provoking reactions that interrupt it or
//! counter it. osr-segments: an incantation declared at the start of the round, announced
//! in the caster's group turn, going off in the spells step in the segment its casting
//! time says, lost if the caster's concentration breaks first. hex-phases (no magic in
//! its source): an attack action. Then the spell's effect.

use super::Battle;
use super::command::Intent;
use super::event::CombatEvent;
use super::fighter::{Casting, Immediate, Modifier};
use super::resolve::{apply_damage, gain, lose, provoke_threateners};
use crate::level::{Catalogue, SpellDef, SpellEffect};
use crate::rules::cover::{AttackReach, cover_at};
use crate::rules::{Condition, roster};
use crate::variants::RulesVariant;

/// A spell of the shipped catalogue.
pub fn spell(id: &str) -> Option<&'static SpellDef> {
    Catalogue::builtin_ref().spell(id)
}

/// What casting `spell` takes from the caster's spells: four-actions spends Spell
/// Quantity equal to the Spell Order; the others a slot.
fn cost(variant: RulesVariant, spell: &SpellDef) -> u32 {
    if variant == RulesVariant::FourActions { spell.level } else { 1 }
}

/// Whether `caster` may cast `spell_id` on `target` now (its budget aside): the spell and
/// its target resolved, or why not.
pub fn check(b: &Battle, caster: usize, spell_id: &str, target: &str) -> Result<(usize, &'static SpellDef), String> {
    let f = &b.fighters[caster];
    let sp = spell(spell_id).ok_or_else(|| format!("no spell \"{spell_id}\""))?;
    if !f.knows(&sp.id) {
        return Err(format!("{} does not know {}", f.id, sp.name));
    }
    if f.spells_left < cost(b.variant, sp) {
        return Err(format!("no spells left ({} spent)", sp.name));
    }
    if f.has(Condition::Grappled) && matches!(b.variant, RulesVariant::D20Classic | RulesVariant::FourActions) {
        return Err("grappled: no free hand for the gestures".into());
    }
    let t = b.index_of(target).ok_or_else(|| format!("no unit \"{target}\""))?;
    reaches(b, caster, t, sp)?;
    Ok((t, sp))
}

/// Whether a spell from `caster` reaches `t` where they stand: a friend (or itself) for a
/// healing spell, a foe otherwise; touch within natural reach; range; line of effect.
pub fn reaches(b: &Battle, caster: usize, t: usize, sp: &SpellDef) -> Result<(), String> {
    let (f, ft) = (&b.fighters[caster], &b.fighters[t]);
    let friend = f.side == ft.side;
    if sp.on_friends() {
        if !friend || !ft.alive() {
            return Err(format!("{} is cast on a living friend", sp.name));
        }
    } else if friend || !ft.in_fight() {
        return Err(format!("{} is not a foe in the fight", ft.id));
    }
    if t == caster {
        return Ok(());
    }
    let metric = b.variant.range_metric();
    let distance = metric.footprint_ft(f.footprint(), ft.footprint());
    let range = sp.range_ft.unwrap_or(f.natural_reach_ft);
    if distance > range {
        let what = if sp.range_ft.is_some() { format!("range {range} ft") } else { "touch".into() };
        return Err(format!("{} is {distance} ft away ({what})", ft.id));
    }
    if sp.range_ft.is_some() && !line_of_effect(b, caster, t) {
        return Err(format!("no line of effect to {}", ft.id));
    }
    Ok(())
}

/// A spell's line of effect from `a` to `t`: no total cover, as the variant rates it
/// (osr-segments: cover over 50% breaks it). Creatures in between do not block it.
fn line_of_effect(b: &Battle, a: usize, t: usize) -> bool {
    let view = b.view();
    let (fa, ft) = (b.fighters[a].footprint(), b.fighters[t].footprint());
    let cover = cover_at(view.field, view.occupancy, (a, fa), (t, ft), AttackReach::Adjacent, false);
    cover.can_target && !cover.breaks_line_of_effect
}

/// Casting that happens at once (d20-classic, four-actions, hex-phases): the spell is
/// spent, provokes as the variant has it, may be countered, and takes effect.
pub(super) fn cast_now(b: &mut Battle, c: usize, sp: &'static SpellDef, t: usize, defensive: bool) {
    if b.variant == RulesVariant::FourActions && !super::variants::four_actions::present_focus(b, c, sp) {
        return;
    }
    begin(b, c, sp, t, "casts");
    if !survives_provoking(b, c, sp, defensive) || countered(b, c, sp) {
        return;
    }
    take_effect(b, c, sp, t);
}

/// The spell is spent and the casting announced.
fn begin(b: &mut Battle, c: usize, sp: &SpellDef, t: usize, verb: &str) {
    b.fighters[c].spells_left -= cost(b.variant, sp);
    b.stats.spells_cast += 1;
    let (id, tid, left) = (b.fighters[c].id.clone(), b.fighters[t].id.clone(), b.fighters[c].spells_left);
    b.emit(CombatEvent::Action {
        unit: id,
        action: format!("{verb} {}", sp.name),
        detail: format!("on {tid} (level {}; {left} left)", sp.level),
    });
}

/// The spell fizzles: it is spent all the same.
fn lost(b: &mut Battle, c: usize, sp: &SpellDef, reason: String) {
    let id = b.fighters[c].id.clone();
    b.emit(CombatEvent::Spoiled { unit: id, action: sp.name.to_lowercase(), reason });
}

/// d20 + caster level + casting ability against `dc`, as a logged check.
fn concentration(b: &mut Battle, c: usize, dc: i32, why: &str) -> bool {
    let bonus = b.fighters[c].caster_level() + b.fighters[c].casting_mod();
    b.check(c, format!("concentration ({why})"), bonus, dc)
}

/// Provoking while casting, as each variant has it; false if the spell is lost (or the
/// caster dropped). d20-classic and ap-phases: cast defensively (concentration DC 15 +
/// twice the spell level) or provoke, then concentration DC 10 + damage + spell level if
/// hurt. four-actions: casting provokes reactions "attempting to interrupt", and one that
/// hurts the caster does.
pub(super) fn survives_provoking(b: &mut Battle, c: usize, sp: &SpellDef, defensive: bool) -> bool {
    let level = sp.level as i32;
    match b.variant {
        RulesVariant::D20Classic | RulesVariant::ApPhases if defensive => {
            if concentration(b, c, 15 + 2 * level, "casting defensively") {
                return true;
            }
            lost(b, c, sp, "concentration failed while casting defensively".into());
            false
        }
        RulesVariant::D20Classic | RulesVariant::ApPhases | RulesVariant::FourActions => {
            let before = b.fighters[c].hp;
            provoke_threateners(b, c, "casts a spell");
            if !b.fighters[c].in_fight() {
                lost(b, c, sp, "the caster dropped".into());
                return false;
            }
            let hurt = before - b.fighters[c].hp;
            if hurt <= 0 {
                true
            } else if b.variant == RulesVariant::FourActions {
                lost(b, c, sp, format!("interrupted by a reaction ({hurt} damage)"));
                false
            } else if concentration(b, c, 10 + hurt + level, &format!("hurt for {hurt} while casting")) {
                true
            } else {
                lost(b, c, sp, "concentration broken by the wound".into());
                false
            }
        }
        RulesVariant::OsrSegments | RulesVariant::HexPhases => true,
    }
}

/// Foes countering the spell as it is cast: d20-classic, one with the `counterspell`
/// trait who knows the spell and has a slot, within the spell's range with line of
/// effect, identifies it (Spellcraft: d20 + caster level + ability vs DC 15 + spell
/// level) and spends its immediate action and the slot: the spell is countered.
/// four-actions: a foe with a spell of the same school and the Spell Quantity identifies
/// it as a free action ([Magical Aptitude] vs the Spell DC, 10 + Spell Order + the caster's
/// ability), then spends its reaction and the SQ on a caster-level check against the
/// Spell DC: a success negates it.
fn countered(b: &mut Battle, c: usize, sp: &'static SpellDef) -> bool {
    let level = sp.level as i32;
    let dc = match b.variant {
        RulesVariant::D20Classic => 15 + level,
        RulesVariant::FourActions => 10 + level + b.fighters[c].casting_mod(),
        _ => return false,
    };
    b.refresh();
    let foes: Vec<usize> = roster::indices(b.view().roster.foes_of(c)).collect();
    for r in foes {
        let f = &b.fighters[r];
        let able = f.can_act()
            && f.spells_left >= cost(b.variant, sp)
            && match b.variant {
                RulesVariant::D20Classic => f.has_trait("counterspell") && f.knows(&sp.id) && f.immediate.is_none(),
                _ => {
                    f.reactions_used < super::clock::reaction_allowance(b, r)
                        && f.def
                            .spellcasting
                            .iter()
                            .flat_map(|m| &m.spells)
                            .any(|s| spell(s).is_some_and(|known| known.school == sp.school))
                }
            };
        if !able || reaches_as_counter(b, r, c, sp).is_err() {
            continue;
        }
        let bonus = f.caster_level() + f.casting_mod();
        let (rid, cid) = (b.fighters[r].id.clone(), b.fighters[c].id.clone());
        let skill = if b.variant == RulesVariant::D20Classic { "Spellcraft" } else { "Magical Aptitude" };
        if !b.check(r, format!("{skill} (identify {cid}'s {})", sp.name), bonus, dc) {
            continue;
        }
        b.fighters[r].spells_left -= cost(b.variant, sp);
        let success = if b.variant == RulesVariant::D20Classic {
            b.fighters[r].immediate = Some(Immediate::Counterspell);
            true
        } else {
            b.fighters[r].reactions_used += 1;
            b.fighters[r].reactions_round += 1;
            let bonus = b.fighters[r].caster_level();
            b.check(r, "caster level (counterspell)", bonus, dc)
        };
        b.stats.counterspells += 1;
        b.emit(CombatEvent::Action {
            unit: rid,
            action: "counterspells".into(),
            detail: if success {
                format!("{cid}'s {} is countered", sp.name)
            } else {
                format!("{cid}'s {} goes through", sp.name)
            },
        });
        if success {
            lost(b, c, sp, "countered".into());
            return true;
        }
    }
    false
}

/// A counterspeller reaches the caster within the spell's range (it knows the same spell,
/// or one of its school) and with line of effect.
fn reaches_as_counter(b: &Battle, r: usize, c: usize, sp: &SpellDef) -> Result<(), String> {
    let (fr, fc) = (&b.fighters[r], &b.fighters[c]);
    let distance = b.variant.range_metric().footprint_ft(fr.footprint(), fc.footprint());
    if distance > sp.range_ft.unwrap_or(fr.natural_reach_ft).max(fr.natural_reach_ft) {
        return Err("out of range".into());
    }
    if line_of_effect(b, r, c) { Ok(()) } else { Err("no line of effect".into()) }
}

/// The spell's effect on its target.
pub(super) fn take_effect(b: &mut Battle, c: usize, sp: &SpellDef, t: usize) {
    let level = b.fighters[c].caster_level();
    match &sp.effect {
        SpellEffect::Missiles { dice, bonus, max } => {
            let missiles = (level as u32).div_ceil(2).clamp(1, *max);
            for k in 1..=missiles {
                let rolls: Vec<i32> = b.dice.roll_many(dice.count, dice.sides).into_iter().map(|r| r as i32).collect();
                let total = rolls.iter().sum::<i32>() + bonus;
                b.stats.damage_dealt += total as u64;
                let label = format!("{dice} {} {k}", sp.name.to_lowercase());
                apply_damage(b, c, t, total, false, label, rolls, vec![Modifier::new(sp.name.to_lowercase(), *bonus)]);
            }
        }
        SpellEffect::Heal { dice, max_bonus } => {
            let rolls: Vec<i32> = b.dice.roll_many(dice.count, dice.sides).into_iter().map(|r| r as i32).collect();
            let bonus = level.min(*max_bonus);
            let total = rolls.iter().sum::<i32>() + bonus;
            // d20-classic's dying are "at 0 HP" whatever the blow: healing counts from 0.
            let from = if b.variant == RulesVariant::D20Classic { b.fighters[t].hp.max(0) } else { b.fighters[t].hp };
            let ft = &mut b.fighters[t];
            ft.hp = (from + total).min(ft.max_hp);
            let hp_after = ft.hp;
            let (by, unit) = (b.fighters[c].id.clone(), b.fighters[t].id.clone());
            b.emit(CombatEvent::Healed {
                unit,
                by,
                dice: dice.to_string(),
                rolls,
                modifiers: vec![Modifier::new("caster level", bonus)],
                total,
                hp_after,
            });
            if hp_after > 0 {
                for cond in [Condition::Dying, Condition::Stabilized] {
                    lose(b, t, cond);
                }
                if b.fighters[t].nonlethal < hp_after {
                    lose(b, t, Condition::Unconscious);
                }
                b.fighters[t].death_fails = 0;
            } else if b.fighters[t].has(Condition::Dying) {
                // Not enough to wake it, but any healing stabilises the dying.
                lose(b, t, Condition::Dying);
                gain(b, t, Condition::Stabilized);
            }
        }
    }
}

/// osr-segments: the caster announces its target in its group turn; the spell will go
/// off in the spells step. (The declaration is now the casting.)
pub(super) fn announce(b: &mut Battle, c: usize, sp: &'static SpellDef, t: usize) {
    begin(b, c, sp, t, "begins casting");
    let target = b.fighters[t].id.clone();
    b.fighters[c].casting = Some(Casting { spell: sp.id.clone(), target });
    b.fighters[c].declared = None;
}

/// osr-segments: concentration breaks (the caster was hurt, or made a free attack). An
/// incantation's casting "always begins on the 1st segment", so a spell declared but not
/// yet announced is lost too, as if cast, and with it the round's major action.
pub(super) fn break_concentration(b: &mut Battle, c: usize, why: &str) {
    if b.variant != RulesVariant::OsrSegments {
        return;
    }
    let reason = format!("concentration broken ({why})");
    if let Some(casting) = b.fighters[c].casting.take()
        && let Some(sp) = spell(&casting.spell)
    {
        lost(b, c, sp, reason);
    } else if let Some(Intent::Cast { spell: id }) = b.fighters[c].declared.clone()
        && let Some(sp) = spell(&id)
    {
        b.fighters[c].declared = None;
        b.fighters[c].spells_left = b.fighters[c].spells_left.saturating_sub(cost(b.variant, sp));
        if let Some(acted) = b.clock.acted.get_mut(c) {
            *acted = true;
        }
        lost(b, c, sp, reason);
    }
}

/// A caster hurt while a spell is under way: osr-segments, concentration breaks;
/// ap-phases, between a spell's two AP, concentration against 10 + damage + spell level.
pub(super) fn hurt_while_casting(b: &mut Battle, c: usize, damage: i32) {
    match b.variant {
        RulesVariant::OsrSegments => break_concentration(b, c, "hurt"),
        RulesVariant::ApPhases => {
            let Some(Some(super::clock::Advanced {
                action: super::clock::AdvancedKind::Cast { spell: id, .. }, ..
            })) = b.clock.advanced.get(c)
            else {
                return;
            };
            let Some(sp) = spell(id) else { return };
            if !b.fighters[c].in_fight() || b.fighters[c].hp <= 0 {
                return; // dropping loses it anyway
            }
            let dc = 10 + damage + sp.level as i32;
            if !concentration(b, c, dc, &format!("hurt for {damage} while casting")) {
                b.clock.advanced[c] = None;
                lost(b, c, sp, "concentration broken by the wound".into());
            }
        }
        _ => {}
    }
}

/// osr-segments, step 7: every spell still being cast goes off in the segment its
/// casting time says, the HIGH group's before the LOW group's in the same segment (the
/// delayed count as LOW); spells of one group in one segment go off together. A spell
/// that hurts a caster whose spell has not gone off yet breaks that one.
pub(super) fn spells_step(b: &mut Battle, casters: &[usize]) {
    let mut timed: Vec<((u32, bool), usize)> = casters
        .iter()
        .filter_map(|&i| {
            let sp = spell(&b.fighters[i].casting.as_ref()?.spell)?;
            Some(((sp.segments, !super::clock::osr_is_high(b, i)), i))
        })
        .collect();
    timed.sort_by_key(|&(key, _)| key);
    for batch in timed.chunk_by(|x, y| x.0 == y.0) {
        // Those still casting when their segment comes (an earlier batch may have broken
        // some) release their spells together.
        let going_off: Vec<(usize, Casting)> =
            batch.iter().filter_map(|&(_, c)| b.fighters[c].casting.take().map(|casting| (c, casting))).collect();
        for (c, casting) in going_off {
            let Some(sp) = spell(&casting.spell) else { continue };
            let id = b.fighters[c].id.clone();
            let segment = sp.segments;
            b.emit(CombatEvent::Action {
                unit: id,
                action: format!("{} goes off", sp.name),
                detail: format!("segment {segment}"),
            });
            let Some(t) = b.index_of(&casting.target) else { continue };
            b.refresh();
            match reaches(b, c, t, sp) {
                Ok(()) => take_effect(b, c, sp, t),
                Err(reason) => lost(b, c, sp, reason),
            }
        }
    }
}

/// ap-phases: "Cast a Standard-Action Spell (Complex; 2 AP)": the first AP now, the
/// second in the next phase (consecutively, or the spell is lost). Complex: it provokes
/// each phase AP are spent, unless cast defensively (a concentration check, after which
/// it is no longer complex).
pub(super) fn begin_advanced(b: &mut Battle, c: usize, sp: &'static SpellDef, t: usize, defensive: bool) {
    begin(b, c, sp, t, "begins casting"); // the command spends its first AP
    if !survives_provoking(b, c, sp, defensive) {
        return;
    }
    let target = b.fighters[t].id.clone();
    b.clock.advanced[c] = Some(super::clock::Advanced {
        action: super::clock::AdvancedKind::Cast { spell: sp.id.clone(), target, defensive },
        spent: 1,
        needed: 2,
    });
}

/// ap-phases: the casting's last AP: it provokes again (unless cast defensively), then
/// the spell takes effect if its target is still there to be reached.
pub(super) fn complete_advanced(b: &mut Battle, c: usize, spell_id: &str, target: &str, defensive: bool) {
    let Some(sp) = spell(spell_id) else { return };
    if !defensive && !survives_provoking(b, c, sp, false) {
        return;
    }
    b.refresh();
    let reached = b
        .index_of(target)
        .ok_or_else(|| format!("no unit \"{target}\""))
        .and_then(|t| reaches(b, c, t, sp).map(|()| t));
    match reached {
        Ok(t) => take_effect(b, c, sp, t),
        Err(reason) => lost(b, c, sp, reason),
    }
}
