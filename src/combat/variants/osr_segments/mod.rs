//! osr-segments (source 003): 1-minute rounds of 10 segments; declarations, then a d6
//! group initiative per side (ties: both HIGH); fast actions, multi-attacks, HIGH then
//! LOW; descending AC against AAC0; free attacks.

use super::prelude::*;
use crate::combat::battle::Derived;
use crate::combat::fighter::Spells;
use crate::combat::resolve;
use crate::combat::schedule::Announcing;
use crate::combat::schedule::{
    AfterWalk, ReactionsToSteps, StepSchedule, Strike, StrikeStack, WalkOverSchedule, Walking, WatchStep,
};
use crate::grid::Footprint;
use crate::rules::{Position, Side, Wielded};
use bevy::prelude::{Entity, World};

mod round;

mod steps;
pub use round::{Declaration, MajorAction, OsrRound, OsrStep, declaration, osr_is_high, osr_multi_attacker, round};

/// "Allied creatures can move past each other using the same space. This does cause some
/// jostling, so any concentration (i.e. spell casting) will be broken": once a walk is
/// over, every ally whose squares the mover passed through, and the mover itself, lose the
/// spell they are casting or have declared.
fn jostle(
    walking: Res<Walking>,
    seats: Res<Combatants>,
    mut fighters: Query<(&Combatant, &Side, &Position, &Body, &Conditions, &mut Spells, &mut Declaration)>,
    mut log: ResMut<EventLog>,
) {
    let Some(walk) = walking.0.as_ref() else { return };
    let mover = walk.mover;
    let Ok((_, side, _, body, ..)) = fighters.get(mover) else { return };
    let side = side.clone();
    let passed: Vec<Footprint> = walk.passed().iter().map(|&p| Footprint::new(p, body.size.side())).collect();
    let jostled: Vec<Entity> = (seats.0.iter().copied())
        .filter(|&e| {
            fighters.get(e).is_ok_and(|(_, s, at, body, conditions, ..)| {
                let theirs = Footprint::new(at.0, body.size.side());
                e != mover && conditions.alive() && *s == side && passed.iter().any(|p| p.overlaps(&theirs))
            })
        })
        .collect();
    let name = |e: Entity| fighters.get(e).map(|(who, ..)| who.id.clone()).unwrap_or_default();
    let by = name(mover);
    let first = jostled.first().map(|&e| name(e));
    for &e in &jostled {
        if let Ok((who, _, _, _, _, mut spells, mut declared)) = fighters.get_mut(e) {
            concentration_breaks(who, &mut spells, &mut declared, &format!("jostled by {by} passing"), &mut log);
        }
    }
    if let (Some(first), Ok((who, _, _, _, _, mut spells, mut declared))) = (first, fighters.get_mut(mover)) {
        concentration_breaks(who, &mut spells, &mut declared, &format!("jostled passing {first}"), &mut log);
    }
}

/// "Immediate Attack … allows a creature to use a primary attack routine instantaneously
/// as the trigger occurs … Creatures using an immediate attack must have an available major
/// action": a foe that declared to fight (nothing else), has not yet taken its major action,
/// and is not surprised may strike a mover as it comes into its reach.
fn may_strike_immediately(
    (side, conditions, wielded, declared, spells): (&Side, &Conditions, &Wielded, &Declaration, &Spells),
    mover_side: &Side,
) -> bool {
    side != mover_side
        && conditions.can_act()
        && !wielded.def.is_ranged()
        && !conditions.has(Condition::Surprised)
        && matches!(declared.intent, None | Some(Intent::Fight))
        && spells.casting.is_none()
        && !declared.acted
}

/// What a foe's immediate attack on a mover reads of each fighter.
type MayStrike<'w, 's> =
    Query<'w, 's, (&'static Side, &'static Conditions, &'static Wielded, &'static Declaration, &'static Spells)>;

/// A step was taken, by a mover still in the fight, that some foe may strike immediately
/// (before the threat map is brought up to date for the step, which only then is needed).
fn immediate_attack_possible(walking: Res<Walking>, fighters: MayStrike) -> bool {
    let Some(mover) = walking.0.as_ref().map(|walk| walk.mover) else { return false };
    let Ok((mover_side, conditions, ..)) = fighters.get(mover) else { return false };
    conditions.in_fight() && fighters.iter().any(|f| may_strike_immediately(f, mover_side))
}

/// The foes a step brought the mover into the reach of (it was not in their reach where
/// it stood) strike it, in id order, before the move goes on: each strike is pushed, all
/// named before the first is made. The strike is its maker's major action for the round.
fn immediate_attacks_drawn(
    walking: Res<Walking>,
    seats: Res<Combatants>,
    derived: Res<Derived>,
    fighters: MayStrike,
    bodies: Query<(&Position, &Body)>,
    mut stack: ResMut<StrikeStack>,
) {
    let Some(walk) = walking.0.as_ref() else { return };
    let (Some(from), mover) = (walk.stepped_from(), walk.mover) else { return };
    let (Ok((mover_side, ..)), Ok((at, body))) = (fighters.get(mover), bodies.get(mover)) else { return };
    let (here, before) = (Footprint::new(at.0, body.size.side()), Footprint::new(from, body.size.side()));
    // The threat map names fighters by their place in id order.
    let strikers: Vec<Entity> = (seats.0.iter().enumerate())
        .filter(|&(h, &e)| {
            fighters.get(e).is_ok_and(|f| may_strike_immediately(f, mover_side))
                && derived.threat.threatens(h, here)
                && !derived.threat.threatens(h, before)
        })
        .map(|(_, &e)| e)
        .collect();
    stack.0.extend(strikers.into_iter().rev().map(|by| Strike::ToStep { by, mover }));
}

/// `h`'s immediate attack on `mover`, which came into its reach: its major action.
pub(crate) fn immediate_attack(world: &mut World, h: Entity, mover: Entity) {
    if !resolve::in_fight(world, mover) {
        return;
    }
    resolve::refresh(world);
    let (legal, seat) = {
        let b = crate::combat::battle::store::read(world);
        let (hs, ms) = (resolve::seat(&b, h), resolve::seat(&b, mover));
        (crate::combat::attack::profile(&b, hs, ms, &AttackKind::Primary, &Default::default()).legal, hs)
    };
    if !legal || resolve::foresee(world, seat, "comes into reach (immediate attack)") {
        return;
    }
    let mut mine = world.get_mut::<Declaration>(h).expect(resolve::A_COMBATANT);
    mine.acted = true;
    mine.intent = None;
    world.resource_mut::<Clock>().queue.retain(|&e| e != h); // its group turn, if still to come, is spent
    let (hid, mid) = (resolve::id(world, h), resolve::id(world, mover));
    world.resource_mut::<EventLog>().push(CombatEvent::Action {
        unit: hid,
        action: "immediate attack".into(),
        detail: format!("as {mid} comes into reach (its major action this round)"),
    });
    resolve::attack_routine(world, h, mover, AttackKind::Primary, false, &Default::default());
    resolve::refresh(world);
}

/// This variant's rules, as the engine calls them.
pub(crate) struct OsrSegments;

impl VariantRules for OsrSegments {
    fn refuses_attack(&self, b: &Battle, view: &RulesView, a: usize, melee: bool) -> Option<String> {
        // A weapon needing more than 4 ft of space needs an open adjacent square.
        let w = &b.fighters.wielded[a].def;
        (melee && w.space_ft > 4 && !has_open_neighbour(b, view, a))
            .then(|| format!("{} needs {} ft of space and no adjacent square is open", w.name, w.space_ft))
    }
    fn crossbow_ready(&self, b: &Battle, _actor: usize) -> Result<(), String> {
        if round(b).step == OsrStep::Low {
            Ok(())
        } else {
            Err("loading and firing a crossbow is a delaying activity: LOW initiative only".into())
        }
    }
    /// What an action costs this variant's combatant, or why it may not be taken: the
    /// budget after it, and the attack's penalty slot.
    fn spend(&self, b: &Battle, actor: usize, budget: &Budget, cmd: &Command) -> Result<(Budget, AttackKind), String> {
        let mut n = budget.clone();
        n.fresh = false;
        let kind = AttackKind::Primary;
        let own = budget.own::<MajorAction>();
        if own.declaring {
            match cmd {
                // Ending the turn declares nothing special: fight with the group.
                Command::EndTurn => n = Budget::default(),
                _ => return Err("every combatant first declares: fight, charge or delay".into()),
            }
        } else if own.attacks_only
            && !matches!(cmd, Command::Attack { .. } | Command::FullAttack { .. } | Command::EndTurn)
        {
            return Err("only the multi-attack routine now".into());
        } else {
            match cmd {
                Command::AbortOrder { .. } | Command::Declare { .. } => {} // settled above
                Command::Charge { target } => {
                    match &declaration(b, actor).intent {
                        Some(Intent::Charge { target: declared }) => {
                            let still = b.index_of(declared).is_some_and(|t| b.fighters.conditions[t].in_fight());
                            if still && declared != target {
                                return Err(format!("the charge was declared at {declared}"));
                            }
                        }
                        _ => return Err("a charge must be declared at the start of the round".into()),
                    }
                    if !own.major {
                        return Err("the major action is spent".into());
                    }
                    n.own_mut::<MajorAction>().major = false;
                }
                // An incantation: declared at the start of the round, its target announced now.
                Command::Cast { spell, .. } => {
                    if !matches!(&declaration(b, actor).intent, Some(Intent::Cast { spell: s }) if s == spell) {
                        return Err(format!("{spell} was not declared at the start of the round"));
                    }
                    if own.fast_only {
                        return Err("spells are not fast actions".into());
                    }
                    if !own.major {
                        return Err("the major action is spent".into());
                    }
                    n.own_mut::<MajorAction>().major = false;
                }
                Command::Move { .. } | Command::Attack { .. } | Command::FullAttack { .. } => {
                    if own.fast_only {
                        return Err("only fast actions (charge, flee) come before the groups".into());
                    }
                    if !own.major {
                        return Err("the major action is spent".into());
                    }
                    n.own_mut::<MajorAction>().major = false;
                    n.moved = matches!(cmd, Command::Move { .. });
                }
                Command::Step { .. } => {
                    if own.fast_only || own.major {
                        return Err("a positioning move comes only after the major action".into());
                    }
                    if budget.stepped {
                        return Err("one positioning move a round".into());
                    }
                    n.stepped = true;
                }
                Command::Defend => return Err("osr-segments has no defensive action".into()),
                // Standing up is a simple activity: it costs no major action.
                Command::Stand => {}
                Command::Trip { .. }
                | Command::Hold { .. }
                | Command::Stance { .. }
                | Command::Guard
                | Command::Focus
                | Command::Shove { .. }
                | Command::Disarm { .. }
                | Command::Grapple { .. }
                | Command::Escape
                | Command::Reload
                | Command::Dash { .. }
                | Command::Tumble { .. }
                | Command::Wrestle { .. }
                | Command::CoupDeGrace { .. }
                | Command::FirstAid { .. } => {
                    return Err("osr-segments has no such action".into());
                }
                Command::Delay => {
                    if own.fast_only || !own.major {
                        return Err("delay is announced instead of acting".into());
                    }
                    n = Budget::default();
                }
                Command::EndTurn => n = Budget::default(),
            }
        }
        Ok((n, kind))
    }
    /// What a combatant may do when its opportunity opens.
    fn fresh_budget(&self, b: &Battle, i: usize) -> Budget {
        let step = round(b).step;
        let mut budget = Budget { fresh: true, ..Budget::default() };
        *budget.own_mut::<MajorAction>() = MajorAction {
            major: !declaration(b, i).acted || step == OsrStep::MultiRest,
            fast_only: step == OsrStep::FastActions,
            declaring: step == OsrStep::Declare,
            attacks_only: matches!(step, OsrStep::MultiFirst | OsrStep::MultiRest),
        };
        budget
    }
    fn may_react(&self, b: &Battle, reactor: usize, mover: usize, _allowance: u32) -> bool {
        // One free attack a segment, one per opponent a round, none while surprised.
        let f = b.fighters.at(reactor);
        !f.has(Condition::Surprised)
            && f.reactions().used < 1
            && !f.reactions().free_attacked_by.contains(&b.fighters.combatant[mover].id)
    }
}

/// A dying character bleeds a hit point each round, with the fast actions, until it dies
/// at −10.
fn bleeds(turns: DyingTurns) {
    let bleed = |_: &Stats, health: &mut Health, _: &mut crate::rules::Dice| {
        health.hp -= 1;
        (Logged::Bleeds, Dying::Worsens)
    };
    turns.take(bleed);
}

/// A caster's spell components: what its concentration holds on to.
type Concentrating<'w, 's> = Query<'w, 's, (&'static Combatant, &'static mut Spells, &'static mut Declaration)>;

/// osr-segments: concentration breaks when the caster makes a free attack ("a free attack
/// taken will break concentration (e.g. spell casting)").
fn concentration_broken(distracted: Res<Distracted>, mut fighters: Concentrating, mut log: ResMut<EventLog>) {
    breaks_at(distracted.unit, &mut fighters, "made a free attack", &mut log);
}

/// osr-segments: concentration breaks when the caster is hurt, as when it makes a free
/// attack.
fn concentration_broken_when_hurt(harm: Res<Harm>, mut fighters: Concentrating, mut log: ResMut<EventLog>) {
    breaks_at(harm.unit, &mut fighters, "hurt", &mut log);
}

/// The concentration of the caster `at` breaks, if it is one.
fn breaks_at(at: Entity, fighters: &mut Concentrating, why: &str, log: &mut EventLog) {
    if let Ok((who, mut spells, mut declared)) = fighters.get_mut(at) {
        concentration_breaks(who, &mut spells, &mut declared, why, log);
    }
}

/// `who`'s concentration breaks (`why`, in the log's words): the spell it is casting, or
/// has declared, is lost. An incantation's casting "always begins on the 1st segment", so a
/// spell declared but not yet announced is lost too, as if cast, and with it the round's
/// major action.
fn concentration_breaks(
    who: &Combatant,
    spells: &mut Spells,
    declared: &mut Declaration,
    why: &str,
    log: &mut EventLog,
) {
    let lost = |sp: &SpellDef, log: &mut EventLog| {
        log.push(magic::spoiled(who.id.clone(), sp, format!("concentration broken ({why})")));
    };
    if let Some(casting) = spells.casting.take()
        && let Some(sp) = spell(&casting.spell)
    {
        lost(sp, log);
    } else if let Some(Intent::Cast { spell: id }) = declared.intent.clone()
        && let Some(sp) = spell(&id)
    {
        spells.left = spells
            .left
            .saturating_sub(crate::variants::RulesVariant::OsrSegments.numbers().rules.spell_cost.of(sp.level));
        declared.intent = None;
        declared.acted = true;
        lost(sp, log);
    }
}

/// Whether an adjacent square is open (on the map, passable, empty).
fn has_open_neighbour(b: &Battle, view: &RulesView, a: usize) -> bool {
    let fp = b.fighters.at(a).footprint();
    let shape = b.variant.shape();
    fp.cells().any(|c| {
        crate::grid::neighbour_offsets(shape, c).iter().any(|&(dx, dy)| {
            let n = c.offset(dx, dy);
            !fp.contains(n) && b.field.terrain.get(n).passable() && view.occupancy.at(n).is_none()
        })
    })
}

/// osr-segments in the rules schedule: defending is no action of its own here; delaying
/// drops to the LOW group; a spell is announced and goes off in its segment; moving or
/// attacking takes the round's major action; the opportunity ends when the major action
/// is gone and nothing else is left.
pub struct OsrSegmentsPlugin;

impl Plugin for OsrSegmentsPlugin {
    fn build(&self, app: &mut App) {
        keep_for_battle::<OsrRound>(app);
        keep_each::<Declaration>(app);
        own_budget::<MajorAction>(app);
        add_attack_modifiers(app);
        for slot in [Slot::Defend, Slot::Cast] {
            replace_slot(app, slot);
        }
        app.add_systems(
            RulesSchedule,
            (
                delay_to_low_group.in_set(Slot::Delay),
                declare_intent.in_set(Slot::Orders),
                announce_spell.in_set(Slot::Cast),
                take_major_action.in_set(Slot::AfterCommand),
                pass_turn_when(major_action_spent).in_set(Passing::Spent),
            ),
        );
        // Its opportunities are steps of a round, not turns.
        remove_clock_systems(app, crate::combat::schedule::clock::turn_starts);
        app.add_systems(
            ClockSchedule,
            (
                (unaware_start_surprised, round_starts_at_low).in_set(RollsInitiative),
                bleeds.run_if(|round: Res<OsrRound>| round.step == OsrStep::FastActions).in_set(DyingTurn),
            ),
        );
        app.add_systems(WalkOverSchedule, jostle.in_set(AfterWalk));
        app.add_systems(DistractedSchedule, concentration_broken.in_set(Concentration));
        app.add_systems(HarmSchedule, concentration_broken_when_hurt.in_set(HarmStep::CasterHurt));
        app.add_systems(
            StepSchedule,
            (crate::combat::schedule::derive_maps_if_stale(), immediate_attacks_drawn)
                .chain()
                .run_if(immediate_attack_possible)
                .in_set(WatchStep),
        );
        app.insert_resource(ReactionsToSteps(immediate_attack));
        steps::add_steps(app, crate::combat::schedule::derive_maps_if_stale());
    }
}

/// The unaware start surprised.
fn unaware_start_surprised(mut fighters: Query<(&Awareness, &mut Conditions)>) {
    unaware_are(Condition::Surprised, &mut fighters);
}

/// The battle starts at the step before a round's declarations (initiative is rolled by
/// group, each round).
fn round_starts_at_low(mut round: ResMut<OsrRound>) {
    round.step = OsrStep::Low;
}

/// Delaying: a HIGH fighter in the HIGH group acts with the LOW group; otherwise it loses
/// its major action.
fn delay_to_low_group(
    turn: Res<Turn>,
    round: Res<OsrRound>,
    mut fighters: Query<(&Combatant, &Side, &mut Conditions, &mut Declaration)>,
    mut log: ResMut<EventLog>,
    mut derived: ResMut<Derived>,
) {
    let Some((me, _)) = turn.accepted() else { return };
    let Ok((who, side, mut conditions, mut declared)) = fighters.get_mut(me) else { return };
    let was_high = round::in_high_group(&conditions, &declared, side, &round);
    let unit = who.id.clone();
    change_condition(&unit, &mut conditions, Condition::Delayed, true, &mut log, &mut derived);
    let detail = if was_high && round.step == OsrStep::High {
        "acts with the LOW group"
    } else {
        declared.acted = true;
        "loses its major action"
    };
    log.push(CombatEvent::Action { unit, action: "delay".into(), detail: detail.into() });
}

/// A declaration for the round: fight, charge, delay or a spell.
fn declare_intent(turn: Res<Turn>, mut fighters: Query<(&Combatant, &mut Declaration)>, mut log: ResMut<EventLog>) {
    let Some((me, plan)) = turn.accepted() else { return };
    let Command::Declare { intent } = &plan.command else { return };
    let Ok((who, mut declared)) = fighters.get_mut(me) else { return };
    declared.intent = Some(intent.clone());
    log.push(CombatEvent::Action { unit: who.id.clone(), action: "declares".into(), detail: intent.describe() });
}

/// The caster announces its spell's target in its group turn; the spell goes off in its
/// segment, in the spells step (`spells_go_off`). The declaration is now the casting.
fn announce_spell(mut announcing: Announcing, mut declarations: Query<&mut Declaration>) {
    let Some(cast) = announcing.cast() else { return };
    announcing.announce(&cast, "begins casting");
    announcing.hold(&cast);
    if let Ok(mut declared) = declarations.get_mut(cast.caster) {
        declared.intent = None;
    }
}

/// Moving or attacking takes the round's major action.
fn take_major_action(turn: Res<Turn>, mut declarations: Query<&mut Declaration>) {
    let Some((me, plan)) = turn.accepted() else { return };
    let cmd = &plan.command;
    let moves = matches!(cmd, Command::Move { .. });
    let attacks = matches!(cmd, Command::Attack { .. } | Command::FullAttack { .. } | Command::Charge { .. });
    if (moves || attacks)
        && let Ok(mut mine) = declarations.get_mut(me)
    {
        mine.acted = true;
        mine.attacked |= attacks;
    }
}

/// The major action gone, and nothing else left (a step, the fast action, the attacks).
fn major_action_spent(budget: &Budget) -> bool {
    let own = budget.own::<MajorAction>();
    !own.major && (budget.stepped || own.fast_only || own.attacks_only)
}

/// The attack roll is d20 + modifiers against AAC0 − descending AC: Strength or Dexterity,
/// charge, the attacker's own bonuses, range, the target prone, cover, the target's
/// defences.
pub(super) fn add_attack_modifiers(app: &mut App) {
    app.add_modifier(modifiers::strength_or_dexterity)
        .add_modifier(modifiers::charge)
        .add_modifier(modifiers::offense)
        .add_modifier(modifiers::range)
        .add_modifier(modifiers::target_prone)
        .add_modifier(modifiers::cover)
        .add_modifier(modifiers::defense)
        .add_modifier(aac0_minus_descending_ac);
    app.add_modifier(modifiers::strength_to_damage)
        .add_modifier(modifiers::damage_bonuses)
        .add_modifier(modifiers::untrained_damage);
}

/// Descending AC: AC = 20 − ascending AC; AAC0 = 20 − base attack bonus; a hit if d20 +
/// modifiers ≥ AAC0 − AC.
fn aac0_minus_descending_ac(InMut(at): Weighed, stats: Query<&Stats>, bodies: Query<&Body>) {
    let (Ok(sa), Ok(st), Ok(body)) = (stats.get(at.attacker), stats.get(at.target), bodies.get(at.target)) else {
        return;
    };
    let desc_ac = 20 - st.def.armor_class(body.size);
    let aac0 = 20 - sa.def.base_attack;
    at.target_number = aac0 - desc_ac;
    at.against = format!("AAC0 {aac0} - AC {desc_ac}");
}
