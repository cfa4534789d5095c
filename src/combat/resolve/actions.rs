//! Actions other than moving and attacking: total defense, delay, advanced actions,
//! standing up, reloading and the combat maneuvers (trip, shove, disarm, grapple).

use super::*;

pub(super) fn defend(b: &mut Battle, a: usize) {
    let id = b.fighters[a].id.clone();
    let (name, value) = super::variants::numbers(b.variant).defensive_action.clone();
    let detail = match b.variant {
        RulesVariant::D20Classic => format!("{value:+} dodge bonus to AC until its next turn"),
        RulesVariant::FourActions => format!("{value:+} to AC and saves for 1 round"),
        RulesVariant::HexPhases => format!("{value:+} DCV until its next phase"),
        RulesVariant::ApPhases => {
            b.clock.ap[a] = b.clock.ap[a].saturating_sub(1);
            b.clock.advanced[a] = Some(Advanced { action: AdvancedKind::TotalDefense, spent: 1, needed: 2 });
            b.emit(CombatEvent::Action { unit: id, action: "total defense".into(), detail: "begun (2 AP)".into() });
            return;
        }
        RulesVariant::OsrSegments => return,
    };
    b.fighters[a].defense.push((name.clone(), value));
    b.emit(CombatEvent::Action { unit: id, action: name, detail });
}

pub(super) fn delay(b: &mut Battle, a: usize) {
    let id = b.fighters[a].id.clone();
    match b.variant {
        RulesVariant::D20Classic | RulesVariant::HexPhases => {
            // The new place in the order is at the end of this round (phase), and it stays.
            let last = b.clock.order.iter().map(|&i| b.fighters[i].initiative).min().unwrap_or(0);
            b.fighters[a].initiative = last - 1;
            b.clock.order.retain(|&i| i != a);
            b.clock.order.push(a);
            b.clock.queue.push(a);
            b.emit(CombatEvent::Action { unit: id, action: "delay".into(), detail: "acts last from now on".into() });
        }
        RulesVariant::OsrSegments => {
            let was_high = clock::osr_is_high(b, a);
            gain(b, a, Condition::Delayed);
            if was_high && b.clock.osr_step == OsrStep::High {
                b.emit(CombatEvent::Action {
                    unit: id,
                    action: "delay".into(),
                    detail: "acts with the LOW group".into(),
                });
            } else {
                b.clock.acted[a] = true;
                b.emit(CombatEvent::Action {
                    unit: id,
                    action: "delay".into(),
                    detail: "loses its major action".into(),
                });
            }
        }
        _ => {}
    }
}

/// ap-phases: an advanced action spends its next AP (consecutively) and completes. A
/// complex one provokes first, in every phase AP are spent on it.
pub fn continue_advanced(b: &mut Battle, i: usize) {
    let Some(mut adv) = b.clock.advanced[i].take() else { return };
    if b.clock.ap[i] == 0 {
        b.clock.advanced[i] = Some(adv);
        return;
    }
    if !variants::ap_phases::provoke_complex(b, i, &adv.action) {
        return;
    }
    b.clock.ap[i] -= 1;
    adv.spent += 1;
    if adv.spent < adv.needed {
        b.clock.advanced[i] = Some(adv);
        return;
    }
    let id = b.fighters[i].id.clone();
    match adv.action {
        AdvancedKind::Charge { target } => {
            let Some(t) = b.index_of(&target).filter(|&t| b.fighters[t].in_fight()) else {
                b.emit(CombatEvent::Spoiled {
                    unit: id,
                    action: "charge".into(),
                    reason: format!("{target} is out of the fight"),
                });
                return;
            };
            b.refresh();
            match charge_path(b, i, t) {
                Ok(path) => {
                    b.fighters[i].offense.retain(|(n, _)| n != "charge");
                    charge(b, i, t, path);
                    b.clock.attack_actions[i] += 1;
                }
                Err(reason) => b.emit(CombatEvent::Spoiled { unit: id, action: "charge".into(), reason }),
            }
        }
        AdvancedKind::Cast { spell, target, defensive } => magic::complete_advanced(b, i, &spell, &target, defensive),
        AdvancedKind::TotalDefense => {
            let bonus = if b.clock.attack_actions[i] > 0 { 2 } else { 4 };
            b.fighters[i].defense.push(("total defense".into(), bonus));
            b.emit(CombatEvent::Action {
                unit: id,
                action: "total defense".into(),
                detail: format!("+{bonus} dodge bonus to AC"),
            });
        }
        AdvancedKind::CoupDeGrace { target } => variants::ap_phases::coup_de_grace(b, i, &target),
        AdvancedKind::FirstAid { target } => variants::ap_phases::first_aid(b, i, &target),
    }
}

/// Standing up from prone; in a threatened square it provokes (d20-classic, ap-phases,
/// hex-phases).
pub(super) fn stand(b: &mut Battle, a: usize) {
    if matches!(b.variant, RulesVariant::D20Classic | RulesVariant::ApPhases | RulesVariant::HexPhases) {
        provoke_threateners(b, a, "stands up");
        if !b.fighters[a].in_fight() {
            return;
        }
    }
    lose(b, a, Condition::Prone);
}

/// Loading a crossbow: a complex action in ap-phases and a provoking one in d20-classic
/// and hex-phases ("reload a gun").
pub(super) fn reload(b: &mut Battle, a: usize) {
    if matches!(b.variant, RulesVariant::D20Classic | RulesVariant::ApPhases | RulesVariant::HexPhases) {
        provoke_threateners(b, a, "reloads");
        if !b.fighters[a].in_fight() {
            return;
        }
    }
    b.fighters[a].loaded = true;
    let id = b.fighters[a].id.clone();
    let name = b.fighters[a].weapon.name.clone();
    b.emit(CombatEvent::Action { unit: id, action: "reloads".into(), detail: name });
}

/// The combat maneuvers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Maneuver {
    Trip,
    Shove,
    Disarm,
    Grapple,
}

/// Trip, shove (push, bull rush) or disarm: d20-classic, a melee touch attack that
/// provokes, then opposed Strength (trip, shove; ±4 a size category) or Dexterity
/// (disarm, −4 if the provoked attack hurt), ties to the higher bonus; four-actions, an
/// Athletics check against the target's Reflex save (failure provokes); ap-phases, a
/// combat maneuver check against the target's CMD.
pub(super) fn maneuver(b: &mut Battle, a: usize, t: usize, kind: Maneuver) {
    let shove = kind == Maneuver::Shove;
    let what = match kind {
        Maneuver::Trip => "trip",
        Maneuver::Shove => "shove",
        Maneuver::Disarm => "disarm",
        Maneuver::Grapple => "grapple",
    };
    let (aid, tid) = (b.fighters[a].id.clone(), b.fighters[t].id.clone());
    let hp_before = b.fighters[a].hp;
    let margin = match b.variant {
        RulesVariant::D20Classic => {
            opportunity(b, t, a, &format!("tries a {what}"));
            if !b.fighters[a].in_fight() {
                return;
            }
            b.refresh();
            let p = attack::profile(b, &b.view(), a, t, &AttackKind::Primary, &AttackContext::default());
            let f = &b.fighters[t];
            let touch = p.target_number - f.def.armor - f.def.shield - f.def.natural_armor;
            let roll = b.dice.roll(20) as i32;
            let hit = roll + p.bonus() >= touch;
            b.emit(CombatEvent::Attack {
                attacker: aid.clone(),
                target: tid.clone(),
                kind: format!("{what} (touch attack) on"),
                die: "d20".into(),
                rolls: vec![roll],
                modifiers: p.modifiers.clone(),
                total: roll + p.bonus(),
                target_number: touch,
                hit,
                critical: false,
            });
            if !hit {
                return;
            }
            let size = |i: usize| -4 * b.fighters[i].size.size_modifier().clamp(-2, 2);
            let grapple_bonus = |i: usize| b.fighters[i].def.base_attack + b.fighters[i].str_mod() + size(i);
            let (ba, bt) = if kind == Maneuver::Grapple {
                (grapple_bonus(a) + if b.fighters[a].hp < hp_before { -4 } else { 0 }, grapple_bonus(t))
            } else if kind != Maneuver::Disarm {
                (b.fighters[a].str_mod() + size(a), b.fighters[t].str_mod() + size(t))
            } else {
                let hurt = if b.fighters[a].hp < hp_before { -4 } else { 0 };
                (b.fighters[a].dex_mod() + hurt, b.fighters[t].dex_mod())
            };
            let (ra, rt) = (b.dice.roll(20) as i32, b.dice.roll(20) as i32);
            let check = match kind {
                Maneuver::Disarm => "Dexterity",
                Maneuver::Grapple => "grapple",
                _ => "Strength",
            };
            b.emit(CombatEvent::Save {
                unit: tid.clone(),
                kind: format!("opposed {check} vs {aid}'s {}", ra + ba),
                roll: rt,
                bonus: bt,
                dc: ra + ba,
                success: (rt + bt, bt) >= (ra + ba, ba),
            });
            // A tie goes to the higher bonus (the defender if equal).
            if (ra + ba, ba) > (rt + bt, bt) { (ra + ba) - (rt + bt) } else { -1 }
        }
        RulesVariant::FourActions => {
            let (ra, rt) = (b.dice.roll(20) as i32, b.dice.roll(20) as i32);
            let ba = b.fighters[a].str_mod() + b.fighters[a].def.base_attack / 2;
            // "Surprised" and "Restrained": "subtract the Ability Modifier(s) from AC, Reflex".
            let ft = &b.fighters[t];
            let loses_dex = ft.has(Condition::Surprised) || ft.has(Condition::Grappled);
            let bt = ft.reflex() - if loses_dex { ft.dex_mod().max(0) } else { 0 };
            let won = ra + ba >= rt + bt;
            b.emit(CombatEvent::Save {
                unit: tid.clone(),
                kind: format!("Reflex vs {aid}'s Athletics {}", ra + ba),
                roll: rt,
                bonus: bt,
                dc: ra + ba,
                success: !won,
            });
            if !won {
                opportunity(b, t, a, &format!("fails a {what}"));
                return;
            }
            // "moves both the pusher and the target up to half speed": 5 ft here.
            0
        }
        _ => {
            let f = &b.fighters[a];
            let size = |i: usize| -b.fighters[i].size.size_modifier().clamp(-2, 2);
            let cmb = f.def.base_attack + f.str_mod() + size(a) - 5 * b.clock.attack_actions[a] as i32;
            let g = &b.fighters[t];
            let cmd = 10 + g.def.base_attack + g.str_mod() + g.dex_mod() + size(t);
            b.clock.attack_actions[a] += 1;
            let roll = b.dice.roll(20) as i32;
            b.emit(CombatEvent::Attack {
                attacker: aid.clone(),
                target: tid.clone(),
                kind: format!("{} (combat maneuver) on", if shove { "bull rush" } else { what }),
                die: "d20".into(),
                rolls: vec![roll],
                modifiers: vec![Modifier::new("combat maneuver bonus", cmb)],
                total: roll + cmb,
                target_number: cmd,
                hit: roll + cmb >= cmd,
                critical: false,
            });
            roll + cmb - cmd
        }
    };
    if margin < 0 {
        if margin <= -10 && b.variant == RulesVariant::ApPhases {
            backfire(b, a, kind);
        }
        return;
    }
    if kind == Maneuver::Trip {
        gain(b, t, Condition::Prone);
    } else if kind == Maneuver::Grapple {
        gain(b, a, Condition::Grappled);
        gain(b, t, Condition::Grappled);
        b.fighters[a].grappling = Some(t);
        b.fighters[t].grappling = Some(a);
        b.fighters[a].holds_grapple = true;
    } else if shove {
        // 5 ft straight away from the attacker, and 5 more for every 5 the check won by.
        let squares = 1 + if b.variant == RulesVariant::FourActions { 0 } else { margin / 5 };
        let (fa, ft) = (b.fighters[a].footprint(), b.fighters[t].footprint());
        let dx = (2 * ft.origin.x + ft.side - 2 * fa.origin.x - fa.side).signum();
        let dy = (2 * ft.origin.y + ft.side - 2 * fa.origin.y - fa.side).signum();
        let mut moved = Vec::new();
        for _ in 0..squares {
            b.refresh();
            let next = b.fighters[t].pos.offset(dx, dy);
            let fp = Footprint::new(next, ft.side);
            let view = b.view();
            let free =
                fp.cells().all(|c| b.field.terrain.get(c).passable() && view.occupancy.at(c).is_none_or(|u| u == t));
            if !free {
                break;
            }
            b.fighters[t].pos = next;
            b.invalidate();
            moved.push(next);
        }
        if !moved.is_empty() {
            let cost = 5 * moved.len() as u32;
            let squares = moved.len();
            b.emit(CombatEvent::Moved { unit: tid, path: moved, cost_ft: cost, kind: "pushed back".into() });
            if b.variant == RulesVariant::FourActions {
                // "a success moves both the pusher and the target": the pusher follows.
                let path: Vec<GridPos> =
                    (1..=squares as i32).map(|k| b.fighters[a].pos.offset(dx * k, dy * k)).collect();
                if let Some(&end) = path.last() {
                    b.fighters[a].pos = end;
                    b.invalidate();
                    b.emit(CombatEvent::Moved { unit: aid, path, cost_ft: cost, kind: "follows the push".into() });
                }
            }
        }
    } else {
        b.fighters[t].weapon = b.unarmed.clone();
        b.fighters[t].weapon_id = "unarmed".into();
        b.invalidate();
        b.emit(CombatEvent::Action { unit: tid, action: "is disarmed".into(), detail: "its weapon drops".into() });
    }
}

/// ap-phases: a maneuver failed by 10 or more turns on its maker. "Trip … If you fail by 10
/// or more, you are knocked prone instead"; "Disarm … If you fail your combat maneuver by 10
/// or more, you drop any weapon you were using to disarm your foe."
fn backfire(b: &mut Battle, a: usize, kind: Maneuver) {
    match kind {
        Maneuver::Trip => {
            gain(b, a, Condition::Prone);
        }
        Maneuver::Disarm if b.fighters[a].weapon_id != "unarmed" => {
            b.fighters[a].weapon = b.unarmed.clone();
            b.fighters[a].weapon_id = "unarmed".into();
            b.invalidate();
            let unit = b.fighters[a].id.clone();
            b.emit(CombatEvent::Action {
                unit,
                action: "is disarmed".into(),
                detail: "fails by 10 or more and drops its own weapon".into(),
            });
        }
        _ => {}
    }
}
