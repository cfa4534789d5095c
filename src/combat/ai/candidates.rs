//! What the tactical AI weighs for one decision: each behaviour's next command (commands
//! that agree are one candidate), and from normal up a strike at each foe in reach, each
//! combat maneuver the variant allows on it (trip, disarm, shove, grapple), where the round
//! opens with declarations (osr-segments) each intent the actor may declare, and where
//! fighters may abort to a dodge (hex-phases) the standing order other than the one in
//! force. Also where a candidate goes on the overlay, and how many attacks of opportunity a
//! move draws, for its reason.

use super::behaviours::Behaviour;
use crate::combat::command::{Command, Intent};
use crate::combat::kept::Abort;
use crate::combat::{Battle, BattleWorld};
use crate::grid::GridPos;

/// Where a candidate comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Line {
    /// The behaviours that give its command.
    Behaviours,
    /// A strike at a foe in reach that the search picked itself (not the weakest, greedy's).
    Strike,
    /// A combat maneuver on a foe in reach (trip, disarm, shove, grapple), which greedy
    /// never tries.
    Maneuver,
    /// An intent declared for the round, picked by the search.
    Declaration,
    /// A standing order to abort to a dodge when attacked, or not to (hex-phases), given
    /// before closing and striking; greedy leaves it to the default (dodge at half hit
    /// points or fewer).
    Abort,
}

/// One candidate: the command it gives now, the behaviours that give it (a strike or a
/// declaration of the search's own fights on as greedy), and its score once weighed.
pub(super) struct Candidate {
    pub command: Command,
    pub behaviours: Vec<Behaviour>,
    pub line: Line,
    pub score: f64,
}

impl Candidate {
    fn of(command: Command, behaviour: Behaviour, line: Line) -> Candidate {
        Candidate { command, behaviours: vec![behaviour], line, score: 0.0 }
    }

    /// The line's name on the overlay: its behaviours' names, or what the search picked
    /// ("strike", "declare delay").
    pub fn name(&self) -> String {
        match self.line {
            Line::Strike => "strike".to_string(),
            Line::Maneuver => self.command.name().to_string(),
            Line::Declaration => match &self.command {
                Command::Declare { intent } => format!("declare {}", intent.name()),
                _ => "declare".to_string(),
            },
            Line::Abort => self.first_name().to_string(),
            Line::Behaviours => {
                // Many behaviours that agree read as the first two and how many more, so the
                // label stays within a few squares.
                let mut names: Vec<&str> = self.behaviours.iter().take(2).map(|b| b.name()).collect();
                let more = self.behaviours.len().saturating_sub(2);
                let more = (more > 0).then(|| format!("+{more} more"));
                names.extend(more.as_deref());
                names.join(", ")
            }
        }
    }

    /// The name of the line in a reason: behaviours that fall back on the same command are
    /// named by the first of them.
    pub fn first_name(&self) -> &'static str {
        match self.line {
            Line::Strike => "strike",
            Line::Maneuver => self.command.name(),
            Line::Declaration => "declare",
            Line::Abort => match self.command {
                Command::AbortOrder { on: true } => "dodge when attacked",
                _ => "never dodge",
            },
            Line::Behaviours => self.behaviours.first().map_or("close and strike", |b| b.name()),
        }
    }
}

/// The candidates for `actor`'s next command: each of `behaviours`' commands, then (if
/// `search_own`) the strikes, maneuvers and declarations no behaviour gives, in id order,
/// and the other standing order to abort (unless `ordered`: one was given this opportunity).
pub(super) fn gather(
    b: &Battle,
    actor: usize,
    behaviours: &[Behaviour],
    search_own: bool,
    ordered: bool,
) -> Vec<Candidate> {
    let mut candidates: Vec<Candidate> = Vec::new();
    for &behaviour in behaviours {
        let command = behaviour.command(b, actor);
        match candidates.iter_mut().find(|c| c.command == command) {
            Some(c) => c.behaviours.push(behaviour),
            None => candidates.push(Candidate::of(command, behaviour, Line::Behaviours)),
        }
    }
    if search_own {
        // No strike or maneuver while something comes first (standing up, a grapple).
        let foes = if super::first_things(b, actor).is_none() { super::foes_of(b, actor) } else { vec![] };
        let own = strikes(b, &foes).into_iter().map(|c| (c, Line::Strike));
        let tried = maneuvers(b, &foes).into_iter().map(|c| (c, Line::Maneuver));
        let declared = declarations(b, actor).into_iter().map(|c| (c, Line::Declaration));
        let order = (!ordered).then(|| other_order(b, actor)).flatten().map(|c| (c, Line::Abort));
        for (command, line) in own.chain(tried).chain(declared).chain(order) {
            if !candidates.iter().any(|c| c.command == command) {
                candidates.push(Candidate::of(command, Behaviour::Greedy, line));
            }
        }
    }
    candidates
}

/// A strike at each of `foes` the acting fighter can attack now, in id order, as the greedy
/// AI would strike it (a full attack where the variant makes it worth it), so that a strike
/// at the foe greedy picks is the same candidate as greedy's own line.
fn strikes(b: &Battle, foes: &[usize]) -> Vec<Command> {
    foes.iter().filter_map(|&t| super::strike_at(b, t)).collect()
}

/// Each combat maneuver the acting fighter may try now on each of `foes`, in id order
/// (trip, disarm, shove, grapple), as the variant allows it. Greedy never tries one, and
/// under four-actions and ap-phases a foe disarmed (its weapon dropped for good), tripped
/// or held is often worth more than a blow.
fn maneuvers(b: &Battle, foes: &[usize]) -> Vec<Command> {
    let tries = |target: &String| {
        [
            Command::Trip { target: target.clone() },
            Command::Disarm { target: target.clone() },
            Command::Shove { target: target.clone() },
            Command::Grapple { target: target.clone() },
        ]
    };
    foes.iter().flat_map(|&t| tries(&b.fighters.combatant[t].id)).filter(|m| b.allows(m)).collect()
}

/// Where the round opens with declarations (osr-segments): each intent `actor` may declare
/// now (to fight, to delay, a charge at each foe in the fight, in id order), the greedy
/// AI's own among them; none elsewhere or at any other moment.
fn declarations(b: &Battle, actor: usize) -> Vec<Command> {
    if !b.budget().declaring() {
        return vec![];
    }
    let charges = super::foes_of(b, actor)
        .into_iter()
        .filter(|&t| b.charge_line(actor, t).is_ok())
        .map(|t| Intent::Charge { target: b.fighters.combatant[t].id.clone() })
        .collect::<Vec<_>>();
    [Intent::Fight, Intent::Delay]
        .into_iter()
        .chain(charges)
        .map(|intent| Command::Declare { intent })
        .filter(|c| b.allows(c))
        .collect()
}

/// Where fighters may abort to a dodge (hex-phases), at the start of an opportunity: the
/// standing order other than the one in force (an order given, or else the default: dodge
/// at half hit points or fewer). A dodge is +3 DCV against the attacks of a phase, for the
/// fighter's next action; which pays depends on what the foes and that action would do.
fn other_order(b: &Battle, actor: usize) -> Option<Command> {
    if !b.budget().fresh {
        return None;
    }
    let in_force = b.economy::<Abort>(actor)?.when_attacked(b.fighters.at(actor).health());
    let other = Command::AbortOrder { on: !in_force };
    b.allows(&other).then_some(other)
}

/// The square a command goes to (a move, a step) or strikes at (its target's square); the
/// actor's own for anything else.
pub(super) fn square_of(battle: &BattleWorld, actor: usize, command: &Command) -> GridPos {
    let b = battle.read();
    let at = |id: &str| b.index_of(id).map(|t| b.fighters.position[t].0);
    let here = b.fighters.position[actor].0;
    match (command.destination(), command.target()) {
        (Some(to), _) => to,
        (None, Some(target)) => at(target).unwrap_or(here),
        (None, None) => here,
    }
}

/// The attacks of opportunity the cheapest path of `actor`'s move to `to` draws (from the
/// foes with a reaction left to make them): how many, and the damage they are expected to
/// deal.
pub(super) fn attacks_drawn(b: &Battle, actor: usize, to: GridPos) -> Option<(usize, f64)> {
    let view = b.view();
    let provokes = super::one_move(b, actor).plan_to(&view, to).ok()?.provokes;
    let drawn: Vec<f64> = provokes.iter().filter_map(|p| super::opportunity_damage(b, p.by, actor)).collect();
    Some((drawn.len(), drawn.iter().sum()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_many_behaviours_agree_on_is_named_by_the_first_two_and_how_many_more() {
        let all = Candidate {
            command: Command::EndTurn,
            behaviours: Behaviour::ALL.to_vec(),
            line: Line::Behaviours,
            score: 0.0,
        };
        let first_two = format!("{}, {}", Behaviour::ALL[0].name(), Behaviour::ALL[1].name());
        assert_eq!(all.name(), format!("{first_two}, +{} more", Behaviour::ALL.len() - 2));
        let two = Candidate { behaviours: Behaviour::ALL[..2].to_vec(), ..all };
        assert_eq!(two.name(), first_two);
        let strike = Candidate { line: Line::Strike, ..two };
        assert_eq!(strike.name(), "strike");
        let charge = Command::Declare { intent: Intent::Charge { target: "ogre".into() } };
        let declared = Candidate { line: Line::Declaration, command: charge, ..strike };
        assert_eq!(declared.name(), "declare charge at ogre");
    }
}
