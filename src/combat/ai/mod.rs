//! Who decides for a side. The `Ai` trait takes the battle as it stands and returns one
//! command for the acting fighter; `Greedy` closes with the nearest foe and attacks,
//! with no tactics beyond the obvious (break free of a grapple or strike from inside
//! it, finish a helpless foe when nothing else is at hand); `Tactical` searches over a
//! portfolio of behaviours by playouts (`tactical`, `behaviours`); both close by the same
//! approach to an attack position (`approach`), which a tactical decision works out once for
//! each stance of the battle its playouts meet (`recall`); `Scripted` replays a
//! recorded list of commands. Every AI reads the battle as it stands between commands
//! (`&Battle`, its derived maps up to date): a decision changes nothing, and a playout
//! changes its scratch world only by giving commands.

mod approach;
pub mod behaviours;
mod candidates;
mod choice;
mod economy;
mod part;
mod playout;
mod reasons;
mod recall;
pub mod tactical;

use approach::can_reach_with_a_move;
pub(crate) use approach::{attack_position, best_approach, one_move};
pub use behaviours::Behaviour;
pub use tactical::{Difficulty, Tactical};

use super::command::{Command, GrappleFollowUp};
use super::{Battle, BattleWorld};
use crate::grid::GridPos;
use std::collections::VecDeque;

/// Decides the next command for the fighter acting now, given the battle's world (from
/// which it may take snapshots to play candidate lines out in scratch worlds).
pub trait Ai {
    fn decide(&mut self, battle: &mut BattleWorld, actor: usize) -> Command;

    /// Why it chose its last command, in a line, if it can say.
    fn reason(&self) -> Option<&str> {
        None
    }

    /// The candidates it weighed for its last command, each by the square it goes to or
    /// strikes at, with its score (the debug overlay), if it weighs any.
    fn scored(&self) -> &[ScoredSquare] {
        &[]
    }
}

/// One candidate an AI weighed: the square its command goes to or strikes at, the line it
/// follows, its score (the mean value of its playouts to the acting side), and whether it
/// was chosen.
#[derive(Clone, Debug, PartialEq)]
pub struct ScoredSquare {
    pub square: GridPos,
    pub line: String,
    pub score: f64,
    pub chosen: bool,
}

/// The AIs a side can be given, named on the command line and in level files as `greedy`,
/// `tactical` or `tactical:DIFFICULTY`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum AiKind {
    #[default]
    Greedy,
    Tactical(Difficulty),
    /// Every unit of the side fights by one behaviour of the portfolio, with no search
    /// (`script:NAME`): for measuring a behaviour on its own.
    Script(Behaviour),
}

impl AiKind {
    /// Every AI a side can be given.
    pub const ALL: [AiKind; 4] = [
        AiKind::Greedy,
        AiKind::Tactical(Difficulty::Easy),
        AiKind::Tactical(Difficulty::Normal),
        AiKind::Tactical(Difficulty::Hard),
    ];

    pub fn make(self) -> Box<dyn Ai + Send + Sync> {
        match self {
            AiKind::Greedy => Box::new(Greedy),
            AiKind::Tactical(difficulty) => Box::new(Tactical::new(difficulty)),
            AiKind::Script(behaviour) => Box::new(behaviour),
        }
    }
}

impl std::fmt::Display for AiKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AiKind::Greedy => f.write_str("greedy"),
            AiKind::Tactical(Difficulty::Normal) => f.write_str("tactical"),
            AiKind::Tactical(d) => write!(f, "tactical:{}", d.id()),
            AiKind::Script(b) => write!(f, "script:{}", b.id()),
        }
    }
}

impl std::str::FromStr for AiKind {
    type Err = String;
    /// Any name `Display` gives (`script:NAME` for each behaviour), and `tactical:normal`,
    /// in any case.
    fn from_str(s: &str) -> Result<AiKind, String> {
        let name = s.trim().to_ascii_lowercase();
        if let Some(kind) = AiKind::ALL.into_iter().find(|k| k.to_string() == name) {
            return Ok(kind);
        }
        match name.split_once(':') {
            Some(("script", b)) => {
                Behaviour::ALL.into_iter().find(|x| x.id() == b).map(AiKind::Script).ok_or_else(|| {
                    let known: Vec<&str> = Behaviour::ALL.iter().map(|b| b.id()).collect();
                    format!("unknown behaviour \"{b}\" (known: {})", known.join(", "))
                })
            }
            Some(("tactical", d)) => {
                Difficulty::ALL.into_iter().find(|x| x.id() == d).map(AiKind::Tactical).ok_or_else(|| {
                    let known: Vec<&str> = Difficulty::ALL.iter().map(|d| d.id()).collect();
                    format!("unknown difficulty \"{d}\" (known: {})", known.join(", "))
                })
            }
            _ => {
                let known: Vec<String> = AiKind::ALL.iter().map(AiKind::to_string).collect();
                Err(format!("unknown AI \"{s}\" (known: {}, script:BEHAVIOUR)", known.join(", ")))
            }
        }
    }
}

/// `SIDE=KIND`, as `play`, `sim` and `compare` take `--ai`.
pub fn parse_side_ai(s: &str) -> Result<(String, AiKind), String> {
    let (side, kind) = s.split_once('=').ok_or_else(|| format!("expected SIDE=KIND, got \"{s}\""))?;
    Ok((side.to_string(), kind.parse::<AiKind>()?))
}

impl TryFrom<String> for AiKind {
    type Error = String;
    fn try_from(name: String) -> Result<AiKind, String> {
        name.parse()
    }
}

impl From<AiKind> for String {
    fn from(kind: AiKind) -> String {
        kind.to_string()
    }
}

impl Ai for Behaviour {
    fn decide(&mut self, battle: &mut BattleWorld, actor: usize) -> Command {
        self.command(&battle.read(), actor)
    }
}

/// Close with the nearest foe and attack it; no tactics.
#[derive(Clone, Copy, Debug, Default)]
pub struct Greedy;

impl Ai for Greedy {
    fn decide(&mut self, battle: &mut BattleWorld, actor: usize) -> Command {
        greedy(&battle.read(), actor)
    }
}

/// The greedy AI's command for `actor`.
pub fn greedy(b: &Battle, actor: usize) -> Command {
    if let Some(first) = first_things(b, actor) {
        return first;
    }
    let foes = foes_of(b, actor);
    if foes.is_empty() {
        return Command::EndTurn;
    }
    // 0. A caster casts while it has spells: healing on a friend in need, else an
    // attack spell on the weakest foe it reaches.
    if let Some(cast) = spell_to_cast(b, actor) {
        return cast;
    }
    close_and_strike(b, actor, &foes)
}

/// The foes of `actor` still in the fight, in id order.
pub(crate) fn foes_of(b: &Battle, actor: usize) -> Vec<usize> {
    (0..b.fighters.len())
        .filter(|&t| b.fighters.side[t] != b.fighters.side[actor] && b.fighters.conditions[t].in_fight())
        .collect()
}

/// What comes before any choice of foe or square, whatever the AI: a declaration where
/// the round asks for one, an advanced action going on, standing up, reloading, fighting
/// out of a grapple.
pub(crate) fn first_things(b: &Battle, actor: usize) -> Option<Command> {
    if b.budget().declaring() {
        return Some(Command::Declare { intent: declaration(b, actor) });
    }
    // ap-phases: an advanced action under way goes on.
    if b.budget().continuing() {
        return Some(Command::EndTurn);
    }
    if b.fighters.conditions[actor].has(crate::rules::Condition::Prone) && b.allows(&Command::Stand) {
        return Some(Command::Stand);
    }
    if b.fighters.wielded[actor].def.reload && !b.fighters.wielded[actor].loaded && b.allows(&Command::Reload) {
        return Some(Command::Reload);
    }
    // Where the grapple is a contest each turn: with the upper hand, wrestle and strike;
    // held, wrestle to break free.
    if b.fighters.conditions[actor].has(crate::rules::Condition::Grappled) {
        let follow_up = if b.fighters.grapple[actor].holds { GrappleFollowUp::Attack } else { GrappleFollowUp::End };
        let wrestle = Command::Wrestle { follow_up };
        if b.allows(&wrestle) {
            return Some(wrestle);
        }
    }
    if b.fighters.conditions[actor].has(crate::rules::Condition::Grappled)
        && b.budget().fresh
        && b.allows(&Command::Escape)
    {
        return Some(Command::Escape);
    }
    None
}

/// Attacks the weakest of `foes` it can reach now (a full attack where the variant makes it
/// worth it); else a coup de grace or first aid; else closes with the nearest foe (a charge
/// from afar, a move to a square it can attack from).
pub(crate) fn close_and_strike(b: &Battle, actor: usize, foes: &[usize]) -> Command {
    // 1. Attack the weakest foe it can reach now.
    let mut targets: Vec<usize> = foes.to_vec();
    targets.sort_by_key(|&t| (b.fighters.health[t].hp, t));
    if let Some(strike) = targets.iter().find_map(|&t| strike_at(b, t)) {
        return strike;
    }
    if let Some(complex) = coup_de_grace_or_first_aid(b, actor, foes) {
        return complex;
    }
    // ap-phases: with a foe in reach but the attack phase not come, hold the AP.
    if foe_in_reach(b, actor, foes) {
        return Command::EndTurn;
    }
    // 2. A charge when the foe is too far for a move and an attack.
    if !b.fighters.wielded[actor].def.is_ranged()
        && b.variant.numbers().ai.charge_from_afar
        && !can_reach_with_a_move(b, actor)
    {
        for &t in &nearest_first(b, actor, foes) {
            let c = Command::Charge { target: b.fighters.combatant[t].id.clone() };
            if b.allows(&c) {
                return c;
            }
        }
    }
    // 3. Move towards the nearest foe, to a square from which it can attack if any
    // (no search when no move is left).
    let here = b.fighters.position[actor].0;
    if b.affordable(&Command::Move { to: here }).is_ok()
        && let Some(to) = best_approach(b, actor, foes)
    {
        let m = Command::Move { to };
        if b.allows(&m) {
            return m;
        }
    }
    Command::EndTurn
}

/// The strike the acting fighter can make at `t` now, if any: a full attack where the
/// variant makes it worth it, else a single attack.
pub(crate) fn strike_at(b: &Battle, t: usize) -> Option<Command> {
    let id = b.fighters.combatant[t].id.clone();
    let full = Command::FullAttack { target: id.clone() };
    if b.variant.numbers().ai.full_attack && b.allows(&full) {
        return Some(full);
    }
    let single = Command::Attack { target: id };
    b.allows(&single).then_some(single)
}

/// What `foe`'s attack of opportunity on `mover` is expected to deal (hit points), as it
/// would land were `mover` leaving a square beside it; none if it has no reaction to make
/// it with.
pub(crate) fn opportunity_damage(b: &Battle, foe: usize, mover: usize) -> Option<f64> {
    b.can_react(foe, mover).then(|| super::attack::opportunity_forecast(b, foe, mover).odds().expected_damage)
}

/// Whether one of `foes` stands in `actor`'s reach (as the threat map stands).
pub(crate) fn foe_in_reach(b: &Battle, actor: usize, foes: &[usize]) -> bool {
    let view = b.view();
    foes.iter().any(|&t| view.threat.threatens(actor, b.fighters.at(t).footprint()))
}

/// The spell a caster casts now, if any: a healing spell on the most hurt friend in
/// touch who is dying or down to half its hit points, else an attack spell on the
/// weakest foe it reaches. Cast defensively where that is possible and a foe threatens
/// it; in osr-segments only the spell declared.
pub(crate) fn spell_to_cast(b: &Battle, actor: usize) -> Option<Command> {
    let known = b.fighters.stats[actor].def.spellcasting.as_ref()?.spells.clone();
    if b.fighters.spells[actor].left == 0 {
        return None;
    }
    let threatened = {
        let view = b.view();
        view.threat.threateners_of(b.fighters.at(actor).footprint()) & view.roster.foes_of(actor) != 0
    };
    let defensive = threatened && b.variant.numbers().rules.defensive_casting;
    for id in known {
        if let Some(super::command::Intent::Cast { spell }) = b.declared(actor)
            && *spell != id
        {
            continue;
        }
        let Some(sp) = super::magic::spell(&id) else { continue };
        let mut targets: Vec<usize> = if sp.on_friends() {
            (0..b.fighters.len())
                .filter(|&t| {
                    let f = b.fighters.at(t);
                    *f.side() == b.fighters.side[actor]
                        && f.alive()
                        && (f.health().hp * 2 <= f.health().max || f.has(crate::rules::Condition::Dying))
                })
                .collect()
        } else {
            foes_of(b, actor)
        };
        targets.sort_by_key(|&t| (b.fighters.health[t].hp, t));
        for t in targets {
            let cast = Command::Cast { spell: id.clone(), target: b.fighters.combatant[t].id.clone(), defensive };
            // While declaring, whether it could be cast at all; otherwise whether it can now.
            let castable = if b.budget().declaring() {
                super::magic::check(b, actor, &id, &b.fighters.combatant[t].id).is_ok()
            } else {
                b.allows(&cast)
            };
            if castable {
                return Some(cast);
            }
        }
    }
    None
}

/// osr-segments: a caster with spells left declares its first spell when it has a use
/// for it now; others declare a charge at the nearest foe it can charge when no foe is
/// in reach and none can be reached with a move; otherwise declare to fight.
fn declaration(b: &Battle, actor: usize) -> super::command::Intent {
    use super::command::Intent;
    if let Some(Command::Cast { spell, .. }) = spell_to_cast(b, actor) {
        return Intent::Cast { spell };
    }
    if b.fighters.wielded[actor].def.is_ranged() {
        return Intent::Fight;
    }
    let foes = foes_of(b, actor);
    if foe_in_reach(b, actor, &foes) || can_reach_with_a_move(b, actor) {
        return Intent::Fight;
    }
    nearest_first(b, actor, &foes)
        .into_iter()
        .find(|&t| b.charge_line(actor, t).is_ok())
        .map_or(Intent::Fight, |t| Intent::Charge { target: b.fighters.combatant[t].id.clone() })
}

/// ap-phases: first aid for a dying friend beside it, else a coup de grace on a helpless
/// foe in reach, when no foe in the fight is in reach or threatens the actor (the AP and
/// attacks of opportunity of a complex action are then safe).
fn coup_de_grace_or_first_aid(b: &Battle, actor: usize, foes: &[usize]) -> Option<Command> {
    if !b.variant.numbers().ai.complex_actions {
        return None;
    }
    let busy = {
        let view = b.view();
        let me = b.fighters.at(actor).footprint();
        view.threat.threateners_of(me) & view.roster.foes_of(actor) != 0
            || foes.iter().any(|&t| view.threat.threatens(actor, b.fighters.at(t).footprint()))
    };
    if busy {
        return None;
    }
    let side = b.fighters.side[actor].0.clone();
    let down = |friend: bool| -> Vec<String> {
        let f = b.fighters.iter().filter(|f| (f.side().0 == side) == friend && f.alive() && !f.in_fight());
        f.filter(|f| !friend || f.has(crate::rules::Condition::Dying)).map(|f| f.id().to_string()).collect()
    };
    let aid = down(true).into_iter().map(|target| Command::FirstAid { target });
    let coup = down(false).into_iter().map(|target| Command::CoupDeGrace { target });
    aid.chain(coup).find(|c| b.allows(c))
}

pub(crate) fn nearest_first(b: &Battle, actor: usize, foes: &[usize]) -> Vec<usize> {
    let metric = b.variant.range_metric();
    let here = b.fighters.at(actor).footprint();
    let mut v = foes.to_vec();
    v.sort_by_key(|&t| (metric.footprint_ft(here, b.fighters.at(t).footprint()), t));
    v
}

/// Plays back recorded commands, in order; `EndTurn` once they run out.
#[derive(Clone, Debug, Default)]
pub struct Scripted {
    pub commands: VecDeque<Command>,
}

impl Ai for Scripted {
    fn decide(&mut self, _: &mut BattleWorld, _: usize) -> Command {
        self.commands.pop_front().unwrap_or(Command::EndTurn)
    }
}
