//! What the tactical AI says of a decision: who does what, and how the line it chose stood
//! against closing and striking in the playouts ("flank to (3, 4); draws no attack of
//! opportunity; +0.72 over close-and-strike in 66 playouts").

use super::candidates::{Candidate, Line};
use crate::combat::command::Command;

/// How the chosen line stood against closing and striking, the line it had to beat.
pub(super) enum Standing<'a> {
    /// Another line, chosen for beating it by `margin` (mean score).
    Beat { margin: f64 },
    /// Closing and striking itself, with the line that came nearest, if any: its name and
    /// its score less close-and-strike's (above nought when it led, but not beyond luck).
    Held { nearest: Option<(&'a str, f64)> },
}

/// The decision in a line: who does what and why, as the playouts found it. A line other
/// than closing and striking says by how much it beat it; closing and striking, which
/// line came nearest and by how much it fell short (or, if it scored more, that it did not
/// beat it beyond luck).
pub(super) fn reason(
    who: &str,
    chosen: &Candidate,
    drawn: Option<(usize, f64)>,
    standing: Standing,
    playouts: u32,
) -> String {
    let deed = deed(chosen, drawn);
    match standing {
        Standing::Beat { margin } => {
            format!("{who}: {deed}; {margin:+.2} over close-and-strike in {playouts} playouts")
        }
        Standing::Held { nearest: Some((name, gap)) } if gap > 0.0 => format!(
            "{who}: {deed}; no line beat it beyond luck in {playouts} playouts ({name} {gap:+.2}, within the spread)"
        ),
        Standing::Held { nearest: Some((name, gap)) } => {
            format!("{who}: {deed}; no line beat it in {playouts} playouts (next best, {name}: {gap:+.2})")
        }
        Standing::Held { nearest: None } => format!("{who}: {deed} in {playouts} playouts"),
    }
}

/// What a candidate does, in a reason's words: its line and where it goes or whom it
/// strikes ("withdraw to (1, 1); draws no attack of opportunity", "strike at r_sword"), or
/// what it declares. `drawn`: the attacks of opportunity a move draws and the damage they
/// are expected to deal, if weighed.
pub(super) fn deed(chosen: &Candidate, drawn: Option<(usize, f64)>) -> String {
    let what = match &chosen.command {
        Command::Declare { intent } if chosen.line == Line::Declaration => {
            return format!("declares {}", intent.describe());
        }
        Command::Declare { intent } => {
            return format!("declares {}, as {} would", intent.describe(), chosen.first_name());
        }
        Command::Move { to } | Command::Step { to } => {
            let aoo = match drawn {
                Some((0, _)) => "; draws no attack of opportunity".to_string(),
                Some((n, damage)) => format!(
                    "; draws {n} attack{} of opportunity ({damage:.1} damage expected)",
                    if n == 1 { "" } else { "s" }
                ),
                None => String::new(),
            };
            format!("to ({}, {}){aoo}", to.x, to.y)
        }
        Command::Attack { target } | Command::FullAttack { target } | Command::Charge { target } => {
            format!("at {target}")
        }
        // Named by the maneuver: "disarm r_ogre".
        Command::Trip { target }
        | Command::Disarm { target }
        | Command::Shove { target }
        | Command::Grapple { target } => target.clone(),
        Command::EndTurn => "(waits: ends its turn)".to_string(),
        Command::Hold { .. } => "(holds an attack for the first foe to come into reach)".to_string(),
        Command::AbortOrder { on: true } => {
            "(a standing order: abort to a dodge when attacked, +3 DCV, giving up its next action)".to_string()
        }
        Command::AbortOrder { on: false } => "(a standing order: no abort to a dodge)".to_string(),
        other => format!("({})", other.name()),
    };
    format!("{} {what}", chosen.first_name())
}

#[cfg(test)]
mod tests {
    use super::{Candidate, Command, Line, deed};
    use crate::combat::ai::Behaviour;
    use crate::grid::GridPos;

    #[test]
    fn a_move_says_the_attacks_it_draws_and_the_damage_they_are_expected_to_deal() {
        let to = GridPos::new(3, 4);
        let moving = Candidate {
            command: Command::Move { to },
            behaviours: vec![Behaviour::FlankPartner],
            line: Line::Behaviours,
            score: 0.0,
        };
        assert_eq!(
            deed(&moving, Some((2, 7.46))),
            "flank to (3, 4); draws 2 attacks of opportunity (7.5 damage expected)"
        );
        assert_eq!(deed(&moving, Some((0, 0.0))), "flank to (3, 4); draws no attack of opportunity");
        assert_eq!(deed(&moving, None), "flank to (3, 4)");
    }
}
