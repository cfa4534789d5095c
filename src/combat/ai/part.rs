//! The part of a large battle a decision plays its lines out on: the acting unit's fight
//! (the units nearest it that could touch it before its next turn, whoever its lines aim
//! at, and whoever they grapple or charged) on the window of the board around them, with
//! everyone else who stands in that window. Its playouts cost what a skirmish's do: the
//! far units, which in the whole battle only stood by, are not there to take their turns,
//! and the greedy units' searches cover the window, not the board.

use super::candidates::Candidate;
use super::playout::Fight;
use crate::combat::Battle;
use crate::combat::snapshot::Snapshot;
use crate::grid::{Footprint, Window};

/// The part of the battle a decision plays out, and where it lies in the whole.
pub(super) struct Part {
    pub snapshot: Snapshot,
    /// The acting unit's seat in the part.
    pub actor: usize,
    /// The seat in the whole battle of each seat of the part.
    pub seats: Vec<usize>,
    /// What moves a square of the whole battle to the same square of the part.
    pub shift: (i32, i32),
}

/// The units nearest the actor (itself among them) whose fight the part holds, besides
/// whoever its lines aim at: about a skirmish's worth, with those standing among them.
const NEAREST: usize = 6;

/// Squares of board around the fight's units and squares, so a line's moves around them
/// are the whole battle's.
const AROUND: i32 = 2;

/// The part of the battle `whole` (the snapshot of `b`) in which `actor`'s `candidates`
/// are played out; none where the window would be the whole board.
pub(super) fn of(b: &Battle, actor: usize, candidates: &[Candidate], whole: &Snapshot) -> Option<Part> {
    let fight = Fight::of(b, actor);
    let n = b.fighters.len();
    let metric = b.variant.range_metric();
    let here = b.fighters.at(actor).footprint();
    let mut near: Vec<(u32, usize)> = (0..n)
        .filter(|&u| b.fighters.at(u).alive() && !fight.beyond(b, u))
        .map(|u| (metric.footprint_ft(b.fighters.at(u).footprint(), here), u))
        .collect();
    near.sort();
    let mut kept = vec![false; n];
    kept[actor] = true;
    for &(_, u) in near.iter().take(NEAREST) {
        kept[u] = true;
    }
    let side = b.fighters.at(actor).footprint().side;
    let mut window = Window::around(b.fighters.at(actor).footprint());
    for c in candidates {
        if let Some(t) = c.command.target().and_then(|id| b.index_of(id)) {
            kept[t] = true;
        }
        if let Some(to) = c.command.destination() {
            window.take_in(Footprint::new(to, side));
        }
    }
    let (width, height) = (b.field.terrain.width(), b.field.terrain.height());
    // Keeps whoever the kept name, and grows the window to hold them all.
    let hold_kept = |kept: &mut [bool], window: &mut Window| {
        take_in_partners(whole, kept);
        for u in (0..n).filter(|&u| kept[u]) {
            window.take_in(b.fighters.at(u).footprint());
        }
    };
    hold_kept(&mut kept, &mut window);
    let mut window = window.widened_within(AROUND, width, height);
    // Whoever else stands in the window is in the part too (it holds its squares and
    // threatens its reach there), the window grown just enough to hold it.
    loop {
        // Odd rows of hexes sit half a hex over: the part starts on an even row, as the
        // board does, so every hex keeps its neighbours.
        if window.origin.y % 2 == 1 {
            window.origin.y -= 1;
            window.height += 1;
        }
        let standing_in =
            |u: usize| !kept[u] && b.fighters.at(u).alive() && window.overlaps(&b.fighters.at(u).footprint());
        let more: Vec<usize> = (0..n).filter(|&u| standing_in(u)).collect();
        if more.is_empty() {
            break;
        }
        more.into_iter().for_each(|u| kept[u] = true);
        hold_kept(&mut kept, &mut window);
    }
    if (window.width, window.height) == (width, height) {
        return None;
    }
    let seats: Vec<usize> = (0..n).filter(|&u| kept[u]).collect();
    let actor_seat = seats.iter().position(|&u| u == actor).expect("the actor is kept");
    let shift = (-window.origin.x, -window.origin.y);
    Some(Part { snapshot: whole.part(&seats, window), actor: actor_seat, seats, shift })
}

/// Keeps whoever a kept combatant names (whom it grapples, whom it charged), and whoever
/// they name in turn.
fn take_in_partners(whole: &Snapshot, kept: &mut [bool]) {
    let mut grew = true;
    while grew {
        grew = false;
        for u in 0..kept.len() {
            if !kept[u] {
                continue;
            }
            let f = &whole.fighters[u];
            for e in [f.grapple.with, f.reactions.charged.map(|(e, _)| e)].into_iter().flatten() {
                if let Some(other) = whole.entities.iter().position(|&x| x == e).filter(|&o| !kept[o]) {
                    kept[other] = true;
                    grew = true;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::behaviours::Behaviour;
    use super::super::candidates::gather;
    use super::super::tactical::{Difficulty, Tactical};
    use super::super::{Ai, greedy};
    use crate::combat::BattleWorld;
    use crate::variants::RulesVariant;

    /// On Great melee, once the sides have closed, each decision's part is a few units'
    /// fight on less than the board: it holds the actor and whoever its lines aim at, every
    /// unit that stands in its window, and starts on an even row; and the tactical AI's
    /// lines, found on the part, are commands the whole battle takes.
    #[test]
    fn a_large_battles_lines_are_played_on_the_part_around_the_actors_fight() {
        for v in [RulesVariant::D20Classic, RulesVariant::FourActions] {
            let mut battle = BattleWorld::shipped("great-melee.ron", v, 7);
            for _ in 0..120 {
                let actor = battle.actor().expect("someone acts");
                let cmd = greedy(&battle.read(), actor);
                battle.execute(cmd).expect("greedy's command is legal");
            }
            let mut tactical = Tactical::new(Difficulty::Normal);
            let mut parts = 0;
            for _ in 0..12 {
                let actor = battle.actor().expect("someone acts");
                let whole = battle.snapshot_quiet();
                {
                    let b = battle.read();
                    let candidates = gather(&b, actor, &Behaviour::ALL, true, false);
                    let part = super::of(&b, actor, &candidates, &whole).expect("a part, not the board");
                    let kept: Vec<&str> = part.snapshot.fighters.iter().map(|f| f.combatant.id.as_str()).collect();
                    assert!(kept.len() < b.fighters.len() && kept.contains(&b.fighters.combatant[actor].id.as_str()));
                    assert_eq!(part.shift.1 % 2, 0, "{v}: the part starts on an even row");
                    for target in candidates.iter().filter_map(|c| c.command.target()) {
                        assert!(kept.contains(&target), "{v}: {target}, aimed at, is in the part");
                    }
                    let (width, height) = (part.snapshot.field.terrain.width(), part.snapshot.field.terrain.height());
                    for u in (0..b.fighters.len()).filter(|&u| b.fighters.at(u).alive()) {
                        let at = b.fighters.at(u).footprint();
                        let moved = at.at(at.origin.offset(part.shift.0, part.shift.1));
                        let inside = moved.cells().any(|p| p.x >= 0 && p.y >= 0 && p.x < width && p.y < height);
                        let id = b.fighters.combatant[u].id.as_str();
                        assert_eq!(inside, kept.contains(&id), "{v}: {id} stands in the window only if kept");
                    }
                    parts += 1;
                }
                let cmd = tactical.decide(&mut battle, actor);
                battle.execute(cmd.clone()).unwrap_or_else(|e| panic!("{v}: {cmd:?} refused: {e:?}"));
            }
            assert_eq!(parts, 12);
        }
    }
}
