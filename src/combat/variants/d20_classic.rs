//! d20-classic (source 002): move, standard, swift, free and full-round actions and one
//! immediate action a round (attacks of opportunity, counterspells and readied actions
//! exclude each other); iterative attacks, criticals with confirmation, death saves,
//! massive damage, and a shot into a grapple straying to the other grappler.

use super::prelude::*;
use crate::combat::battle::rolled_check;
use crate::combat::battle::store::Record;
use crate::combat::schedule::clock::next_round;
use crate::level::DeathSaves;
use crate::rules::Dice;

pub use crate::combat::kept::{ImmediateAction, SwiftAction};

/// What `i`'s immediate action went on since its last turn.
pub fn immediate(b: &Battle, i: usize) -> Option<Immediate> {
    b.economy::<ImmediateAction>(i).and_then(|a| a.0)
}

/// Whether `i` has a hand to spare: it fights with a hand (not a bite or claws), its weapon
/// is not two-handed, and it bears no shield.
fn has_a_free_hand(b: &Battle, i: usize) -> bool {
    let weapon = &b.fighters.wielded[i].def;
    weapon.kind != crate::level::WeaponKind::Natural
        && weapon.hands != crate::level::Hands::Two
        && b.fighters.stats[i].def.shield == 0
}

/// This variant's rules, as the engine calls them.
pub(crate) struct D20Classic;

impl VariantRules for D20Classic {
    fn may_take_held(&self, b: &Battle, h: usize) -> bool {
        // A held action is an immediate action, and an attack of opportunity already taken
        // rules it out until the holder's next turn.
        immediate(b, h).is_none()
    }
    /// What an action costs this variant's combatant, or why it may not be taken: the
    /// budget after it, and the attack's penalty slot.
    fn spend(&self, b: &Battle, actor: usize, budget: &Budget, cmd: &Command) -> Result<(Budget, AttackKind), String> {
        let mut n = budget.clone();
        n.fresh = false;
        let kind = AttackKind::Primary;
        match cmd {
            Command::AbortOrder { .. } | Command::Declare { .. } => {} // settled above
            Command::Move { .. } => {
                if budget.stepped {
                    return Err("no moving in a turn with a 5-ft step".into());
                }
                if budget.single_action && !budget.fresh {
                    return Err("the surprise round allows a single action".into());
                }
                take_move(budget, &mut n)?; // a standard action may be traded for a move
                n.moved = true;
            }
            Command::Step { .. } => {
                if budget.moved || budget.stepped {
                    return Err("a 5-ft step is only for a turn without other movement".into());
                }
                if !budget.move_action {
                    return Err("a 5-ft step takes the place of the move action, which is spent".into());
                }
                n.move_action = false;
                n.stepped = true;
                if budget.single_action {
                    n.standard = false;
                }
            }
            // "Attack(s): Using your attack, or multiple attacks, takes the place of your
            // standard action slot": every attack the turn gives, before or after a move or a
            // 5-ft step.
            Command::Attack { .. } | Command::FullAttack { .. } | Command::Trip { .. } | Command::Hold { .. } => {
                take_standard(budget, &mut n)?
            }
            Command::Charge { .. } | Command::Defend => {
                if !budget.fresh || budget.single_action {
                    return Err("a full-round action needs the whole turn".into());
                }
                n.standard = false;
                n.move_action = false;
                n.own_mut::<SwiftAction>().left = false;
            }
            Command::Delay => {
                if !budget.fresh {
                    return Err("delay only before acting".into());
                }
                n = Budget::default();
            }
            Command::Stand | Command::Reload => take_move(budget, &mut n)?,
            // "To initiate a disarm, the aggressor must have a free hand or a disarming weapon"
            // (no weapon here is one): a two-handed weapon, or a shield beside a one-handed
            // one, leaves none, and a beast fighting with its bite has no hands.
            Command::Disarm { .. } if !has_a_free_hand(b, actor) => {
                return Err("a disarm needs a free hand: a two-handed weapon, a shield or a bite leaves none".into());
            }
            // "Casting a Spell: Most spells are standard actions."
            Command::Shove { .. } | Command::Disarm { .. } | Command::Grapple { .. } | Command::Cast { .. } => {
                take_standard(budget, &mut n)?
            }
            // "At the beginning of the defender's turn … as a free action", once a turn.
            Command::Escape => {
                if !budget.fresh {
                    return Err("escaping is tried at the beginning of the turn".into());
                }
            }
            // "An option when attacking": it takes no action, so a full attack may follow it;
            // one a turn.
            Command::Stance { .. } => {
                if b.fighters.bonuses[actor].in_a_stance() {
                    return Err("one way of fighting a turn: already fighting defensively or recklessly".into());
                }
                n.fresh = budget.fresh;
            }
            Command::Guard | Command::Focus | Command::Dash { .. } | Command::Tumble { .. } => {
                return Err("d20-classic has no such action".into());
            }
            Command::Wrestle { .. } | Command::CoupDeGrace { .. } | Command::FirstAid { .. } => {
                return Err("d20-classic has no such action".into());
            }
            Command::EndTurn => n = Budget::default(),
        };
        Ok((n, kind))
    }
    /// What a combatant may do when its opportunity opens.
    fn fresh_budget(&self, b: &Battle, _i: usize) -> Budget {
        let single = b.clock.surprise;
        let mut budget =
            Budget { standard: true, move_action: true, fresh: true, single_action: single, ..Budget::default() };
        budget.own_mut::<SwiftAction>().left = true;
        budget
    }
    fn may_react(&self, b: &Battle, reactor: usize, _mover: usize, allowance: u32) -> bool {
        // After a held action, no attacks of opportunity until its next turn.
        b.fighters.reactions[reactor].used < allowance
            && !matches!(immediate(b, reactor), Some(Immediate::HeldAction | Immediate::Counterspell))
    }
}

/// "Counterspell": a foe with the `counterspell` trait who knows the spell and has a slot,
/// within the spell's range with line of effect, identifies it (Spellcraft: d20 + caster
/// level + ability vs DC 15 + spell level) and spends its immediate action and the slot:
/// the spell is countered.
fn counterspell(mut counter: Counterspelling, mut immediates: Query<&mut ImmediateAction>) {
    let Some((_, sp)) = counter.spell() else { return };
    let dc = 15 + sp.level as i32;
    for r in counter.foes_in_reach() {
        let knows = counter.stats_of(r).is_some_and(|s| s.has_trait("counterspell") && s.knows(&sp.id));
        let free = immediates.get(r).is_ok_and(|immediate| immediate.0.is_none());
        if !knows || !free || !counter.identifies(r, "Spellcraft", dc) {
            continue;
        }
        counter.spend(r);
        if let Ok(mut immediate) = immediates.get_mut(r) {
            immediate.0 = Some(Immediate::Counterspell);
        }
        if counter.tried(r, true) {
            return;
        }
    }
}

/// Trip, shove, disarm or grapple: a melee touch attack (the attack as it stands, against
/// AC without armor, shield or natural armor; it drew the target's attack of opportunity
/// first, `rules.maneuvers_provoke_target`), then opposed Strength (trip, shove; ±4 a size
/// category), Dexterity (disarm, −4 if the provoked attack hurt) or grapple checks (−4 if
/// hurt), ties to the higher bonus.
fn touch_attack_then_opposed_check(
    mut tried: ResMut<ManeuverTried>,
    fighters: Query<(&Combatant, &Stats, &Body)>,
    mut dice: ResMut<Dice>,
    mut log: ResMut<EventLog>,
) {
    let Some(&Attempt { by, target, kind, hurt, aim: Some(ref aim) }) = tried.attempt() else { return };
    let (Ok((maker, ms, mb)), Ok((foe, ts, tb))) = (fighters.get(by), fighters.get(target)) else { return };
    let what = kind.name();
    let touch = aim.target_number - ts.def.armor - ts.def.shield - ts.def.natural_armor;
    let roll = dice.roll(20) as i32;
    let hit = roll + aim.bonus() >= touch;
    log.push(CombatEvent::Attack {
        attacker: maker.id.clone(),
        target: foe.id.clone(),
        kind: format!("{what} (touch attack) on"),
        die: "d20".into(),
        rolls: vec![roll],
        modifiers: aim.modifiers.clone(),
        total: roll + aim.bonus(),
        target_number: touch,
        hit,
        critical: false,
    });
    if !hit {
        return;
    }
    let size = |body: &Body| -4 * body.size.size_modifier().clamp(-2, 2);
    let grapple_bonus = |stats: &Stats, body: &Body| stats.def.base_attack + stats.str_mod() + size(body);
    let hurt = if hurt > 0 { -4 } else { 0 };
    let (ba, bt) = match kind {
        Maneuver::Grapple => (grapple_bonus(ms, mb) + hurt, grapple_bonus(ts, tb)),
        Maneuver::Disarm => (ms.dex_mod() + hurt, ts.dex_mod()),
        _ => (ms.str_mod() + size(mb), ts.str_mod() + size(tb)),
    };
    let (ra, rt) = (dice.roll(20) as i32, dice.roll(20) as i32);
    let check = match kind {
        Maneuver::Disarm => "Dexterity",
        Maneuver::Grapple => "grapple",
        _ => "Strength",
    };
    log.push(CombatEvent::Save {
        unit: foe.id.clone(),
        kind: format!("opposed {check} vs {}'s {}", maker.id, ra + ba),
        roll: rt,
        bonus: bt,
        dc: ra + ba,
        success: (rt + bt, bt) >= (ra + ba, ba),
    });
    // A tie goes to the higher bonus (the defender if equal).
    tried.margin = Some(if (ra + ba, ba) > (rt + bt, bt) { (ra + ba) - (rt + bt) } else { -1 });
}

/// d20-classic in the rules schedule: delaying moves the fighter to the end of the
/// initiative order; the turn ends when the standard and move actions are spent.
pub struct D20ClassicPlugin;

impl Plugin for D20ClassicPlugin {
    fn build(&self, app: &mut App) {
        keep_each::<ImmediateAction>(app);
        own_budget::<SwiftAction>(app);
        app.add_systems(CastingSchedule, super::concentration_while_casting.in_set(HoldOnSpell));
        app.init_resource::<AimedManeuvers>()
            .add_systems(ManeuverSchedule, touch_attack_then_opposed_check.in_set(ManeuverCheck));
        modifiers::add_d20_family(app);
        // Strength to damage, one and a half times with two hands.
        app.add_modifier(modifiers::strength_with_two_hands)
            .add_modifier(modifiers::damage_bonuses)
            .add_modifier(modifiers::untrained_damage);
        app.add_systems(
            RulesSchedule,
            (
                crate::combat::schedule::delay_to_end_of_order.in_set(Slot::Delay),
                pass_turn_when(standard_and_move_spent).in_set(Passing::Spent),
            ),
        );
        app.add_systems(
            ClockSchedule,
            (
                (roll_initiative, unaware_start_flat_footed).chain().in_set(RollsInitiative),
                (flat_footed_no_more, immediate_action_back).chain().in_set(Opening::GivenBack),
                next_round.in_set(ClockStep::Window),
            ),
        );
        app.add_systems(ClockSchedule, death_save.in_set(DyingTurn));
        app.add_systems(HarmSchedule, massive_damage.in_set(HarmStep::HeavyBlow));
        app.add_systems(AttackedSchedule, shot_into_grapple.in_set(BeforeAttack));
        add_counterspell(app, counterspell);
        app.add_systems(TakenSchedule, (immediate_action_spent, held_action_goes_after_trigger).in_set(CountTaken));
    }
}

/// A shot at one of two creatures locked in a grapple goes to the other on the variant's
/// miss chance ("Shooting at two grappling characters will create a 50% miss chance on the
/// intended target for the other target").
fn shot_into_grapple(
    mut under: ResMut<UnderAttack>,
    field: Res<Battlefield>,
    fighters: Query<(&Combatant, &Wielded, &Grapple, &Conditions)>,
    mut dice: ResMut<Dice>,
    mut log: ResMut<EventLog>,
) {
    let percent = field.variant.numbers().grapple_miss_percent as i32;
    let (Ok((attacker, wielded, ..)), Ok((target, _, grapple, _))) =
        (fighters.get(under.attacker), fighters.get(under.target))
    else {
        return;
    };
    let Some(o) = grapple.with.filter(|&o| o != under.attacker) else { return };
    let Ok((other, _, _, conditions)) = fighters.get(o) else { return };
    if percent == 0 || !wielded.def.is_ranged() || !conditions.in_fight() {
        return;
    }
    let roll = dice.roll(100) as i32;
    let strays = roll <= percent;
    log.push(CombatEvent::MissChance {
        unit: attacker.id.clone(),
        target: target.id.clone(),
        other: other.id.clone(),
        roll,
        percent,
        strays,
    });
    if strays {
        under.target = o;
    }
}

/// Massive damage: a blow of half the target's maximum hit points or more that leaves it
/// standing calls for a Fortitude save against 10 + the attacker's hit dice; failed, the
/// target drops to 0 with its first death save failed.
fn massive_damage(
    mut harm: ResMut<Harm>,
    mut fighters: Query<(&Combatant, &mut Health, &Stats)>,
    mut dice: ResMut<Dice>,
    mut log: ResMut<EventLog>,
) {
    let Ok(dc) = fighters.get(harm.by).map(|(.., stats)| 10 + stats.def.hit_dice as i32) else { return };
    let Ok((who, mut health, stats)) = fighters.get_mut(harm.unit) else { return };
    if harm.nonlethal || harm.amount * 2 < health.max || harm.hp_before <= 0 || health.hp <= 0 {
        return;
    }
    let (unit, kind) = (who.id.clone(), "Fortitude (massive damage)".to_string());
    if !rolled_check(&mut dice, &mut log, unit, kind, stats.fortitude(), dc) {
        health.hp = 0;
        harm.first_save_failed = true;
    }
}

/// A dying character's death save on its turn, as the level's death saves have it: "In
/// death, all are equal" (d%: 51 or higher, each failure 10 harder), "stats matter"
/// (Fortitude against 10 + Hit Dice − Constitution modifier) or "brutality" (Fortitude
/// against 10 + the damage that dropped it). A success stabilises; three failures kill.
fn death_save(record: Res<Record>, turns: DyingTurns) {
    let mode = record.options.death_saves;
    let save = |stats: &Stats, health: &mut Health, dice: &mut Dice| {
        let save = match mode {
            DeathSaves::AllAreEqual => {
                Logged::save("death save (d%)", dice.roll(100) as i32, 0, 51 + 10 * health.death_fails as i32)
            }
            DeathSaves::StatsMatter => {
                let dc = 10 + stats.def.hit_dice as i32 - stats.con_mod();
                Logged::save("death save (Fortitude)", dice.roll(20) as i32, stats.fortitude(), dc)
            }
            DeathSaves::Brutality => {
                let dc = 10 + health.dropping_damage;
                Logged::save("death save (Fortitude, brutality)", dice.roll(20) as i32, stats.fortitude(), dc)
            }
        };
        if save.saved() {
            return (save, Dying::Stabilizes);
        }
        health.death_fails += 1;
        (save, Dying::Worsens)
    };
    turns.take(save);
}

/// An attack of opportunity, or a held action, is its taker's immediate action until its
/// next turn.
fn immediate_action_spent(taken: Res<TakenInStrike>, mut immediates: Query<&mut ImmediateAction>) {
    for &t in &taken.0 {
        let (by, spent) = match t {
            Taken::AttackOfOpportunity { by } => (by, Immediate::AttackOfOpportunity),
            Taken::HeldAction { by, .. } => (by, Immediate::HeldAction),
            Taken::AttackAction { .. } | Taken::LostManeuver { .. } => continue,
        };
        if let Ok(mut immediate) = immediates.get_mut(by) {
            immediate.0 = Some(spent);
        }
    }
}

/// Its new place in the order is just after the trigger.
fn held_action_goes_after_trigger(
    taken: Res<TakenInStrike>,
    seats: Res<Combatants>,
    mut initiatives: Query<&mut Initiative>,
    mut clock: ResMut<Clock>,
) {
    held_action_takers_move(&taken, &seats, &mut initiatives, &mut clock, |trigger| trigger - 1);
}

/// Everyone rolls d20 initiative.
fn roll_initiative(mut initiatives: Initiatives) {
    initiatives.roll_d20(0);
}

/// The unaware start flat-footed.
fn unaware_start_flat_footed(mut fighters: Query<(&Awareness, &mut Conditions)>) {
    unaware_are(Condition::FlatFooted, &mut fighters);
}

/// At the start of its turn a fighter has its attacks of opportunity back and is no
/// longer flat-footed.
fn flat_footed_no_more(
    called: Res<Called>,
    mut fighters: Query<(&Combatant, &mut Reactions, &mut Conditions)>,
    mut log: ResMut<EventLog>,
    mut derived: ResMut<Derived>,
) {
    let condition = Condition::FlatFooted;
    reactions_back_and_no_longer(condition, &called, &mut fighters, &mut log, &mut derived);
}

/// Its immediate action is its own again at the start of its turn.
fn immediate_action_back(called: Res<Called>, mut immediates: Query<&mut ImmediateAction>) {
    if let Some(e) = called.opening()
        && let Ok(mut immediate) = immediates.get_mut(e)
    {
        immediate.0 = None;
    }
}

/// The standard and the move action both spent.
fn standard_and_move_spent(budget: &Budget) -> bool {
    !budget.standard && !budget.move_action
}
