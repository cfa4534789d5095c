//! A part of a battle as a battle of its own ([`Snapshot::part`]): some of its combatants
//! alone on a window of its battlefield, every square renumbered from the window's corner,
//! with the battle's time, dice and each one's state as they were. What the AI plays a
//! large battle's lines out on: the fight around the acting unit, where a command costs
//! what a skirmish's does rather than a search over the whole board. A command found there
//! is one of the whole battle once moved back (`Command::shifted`).

use super::battle::Derived;
use super::battle::store::Record;
use super::kept::Kept;
use super::snapshot::Snapshot;
use crate::grid::Window;
use crate::rules::{Battlefield, Roster};
use bevy::prelude::Entity;

impl Snapshot {
    /// The battle of the combatants in `seats` (in id order, as the battle seats them)
    /// alone on `window`, each square renumbered from its corner: a battle of its own (a
    /// new setup), its clock, dice and variant's state those of the battle, less whoever
    /// is left out. Every combatant a kept one names (whom it grapples, whom it charged)
    /// must be kept too, and every kept one must stand within the window.
    pub(crate) fn part(&self, seats: &[usize], window: Window) -> Snapshot {
        let shift = (-window.origin.x, -window.origin.y);
        let entities: Vec<Entity> = seats.iter().map(|&s| self.entities[s]).collect();
        let kept_entity = |e: &Entity| entities.contains(e);
        let fighters: Vec<_> = seats
            .iter()
            .map(|&s| {
                let mut f = self.fighters[s].clone();
                f.position.0 = f.position.0.offset(shift.0, shift.1);
                debug_assert!(f.grapple.with.is_none_or(|e| kept_entity(&e)), "a grapple's other side is kept");
                debug_assert!(f.reactions.charged.is_none_or(|(e, _)| kept_entity(&e)), "a charge's foe is kept");
                f
            })
            .collect();
        let field = Battlefield::new(self.field.terrain.window(window), self.field.variant);
        let mut clock = self.clock.clone();
        clock.actor = clock.actor.filter(kept_entity);
        clock.queue.retain(kept_entity);
        clock.order.retain(kept_entity);
        let kept = Kept {
            points: kept_seats(&self.kept.points, seats),
            immediates: kept_seats(&self.kept.immediates, seats),
            declarations: kept_seats(&self.kept.declarations, seats),
            aborts: kept_seats(&self.kept.aborts, seats),
            round: self.kept.round.clone(),
        };
        let units = fighters.iter().map(|f| (f.view(field.variant), f.side.0.clone())).collect();
        let mut derived = Derived::default();
        derived.rebuild(&field, Roster::new(units));
        let mut record: Record = self.record.clone();
        record.setup = Record::new_setup();
        record.foreseen = None;
        Snapshot {
            fighters,
            entities,
            field,
            dice: self.dice.clone(),
            clock,
            events: Default::default(),
            kept,
            derived,
            record,
        }
    }
}

/// The entries of `seats` in a list kept by seat (a variant's list; the others are empty).
fn kept_seats<T: Clone>(list: &[T], seats: &[usize]) -> Vec<T> {
    if list.is_empty() { Vec::new() } else { seats.iter().map(|&s| list[s].clone()).collect() }
}

#[cfg(test)]
mod tests {
    use crate::combat::BattleWorld;
    use crate::grid::{GridPos, Window};
    use crate::rules::{MoveMode, allowance_ft};
    use crate::variants::RulesVariant;

    /// A part of a battle is that battle on its window: each combatant kept where it stood,
    /// every square moved by the window's corner, the same terrain under it, the clock's
    /// order less those left out, and the same one to act. Its acting unit's move goes
    /// nowhere its move in the whole battle does not, at no less cost: on hexes too, whose
    /// odd rows sit half a hex over (the part starts on an even row).
    #[test]
    fn a_part_of_a_battle_is_that_battle_on_its_window() {
        for (file, v) in [("great-melee.ron", RulesVariant::D20Classic), ("hex-field.ron", RulesVariant::HexPhases)] {
            let battle = BattleWorld::shipped(file, v, 7);
            let whole = battle.snapshot_quiet();
            let b = battle.read();
            let actor = battle.actor().expect("someone acts");
            let at = b.fighters.at(actor).footprint().origin;
            let origin = GridPos::new((at.x - 5).max(0), (at.y - 5).max(0) & !1);
            let (width, height) = (b.field.terrain.width(), b.field.terrain.height());
            let window = Window { origin, width: 12.min(width - origin.x), height: 12.min(height - origin.y) };
            let seats: Vec<usize> =
                (0..b.fighters.len()).filter(|&u| window.holds(&b.fighters.at(u).footprint())).collect();
            assert!(seats.len() >= 2 && seats.len() < b.fighters.len(), "{file}: {} kept", seats.len());
            let mut part = BattleWorld::scratch(v, &[]);
            part.restore(&whole.part(&seats, window));
            let p = part.read();
            for (seat, &u) in seats.iter().enumerate() {
                assert_eq!(p.fighters.combatant[seat].id, b.fighters.combatant[u].id);
                let moved = b.fighters.position[u].0.offset(-origin.x, -origin.y);
                assert_eq!(p.fighters.position[seat].0, moved, "{file}: {}", b.fighters.combatant[u].id);
            }
            for y in 0..window.height {
                for x in 0..window.width {
                    let square = GridPos::new(x, y);
                    assert_eq!(p.field.terrain.get(square), b.field.terrain.get(square.offset(origin.x, origin.y)));
                }
            }
            let seat_of =
                |e| whole.entities.iter().position(|&w| w == e).and_then(|u| seats.iter().position(|&s| s == u));
            let order: Vec<_> = battle.clock().order.iter().filter_map(|&e| seat_of(e)).collect();
            let part_order: Vec<_> = part.clock().order.iter().map(|&e| p.fighters.seat_of(e).expect("kept")).collect();
            assert_eq!(part_order, order, "{file}: the order less those left out");
            let Some(seat) = seats.iter().position(|&u| u == actor) else { continue };
            assert_eq!(part.actor(), Some(seat), "{file}: the same one acts");
            let (view, part_view) = (b.view(), p.view());
            let whole_range = b.move_range(actor, MoveMode::Move, allowance_ft(&view, actor, MoveMode::Move));
            let part_range = p.move_range(seat, MoveMode::Move, allowance_ft(&part_view, seat, MoveMode::Move));
            let reached = whole_range.destinations(&view);
            let in_part = part_range.destinations(&part_view);
            assert!(in_part.len() > 4, "{file}: the actor moves in the part");
            for (square, cost, _) in in_part {
                let there = square.offset(origin.x, origin.y);
                assert!(
                    reached.iter().any(|&(s, c, _)| s == there && c <= cost),
                    "{file}: {there:?} at {cost} ft in the part, not in the whole"
                );
            }
        }
    }
}
