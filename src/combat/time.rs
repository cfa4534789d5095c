//! Where a battle is in time, as data: the round and phase, whose opportunity it is, the
//! initiative order and the queue; and what a budget is (the one left in an opportunity is
//! the acting fighter's, in its `Economy`). What a variant keeps of its own (the segment
//! step, group initiative) is its own resource (`kept`). The clock's moves are in `clock`.

use super::kept::{BudgetPart, MajorAction, OwnBudget, PhaseAction};
use bevy::ecs::entity::{EntityMapper, MapEntities};
use bevy::prelude::Entity;

/// What the acting fighter may still do in this opportunity: the actions the variants
/// share, and the variant's own (`own`: a quick or swift action, a phase's action…).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Budget {
    pub standard: bool,
    pub move_action: bool,
    /// Nothing spent yet: a full-round (full-phase) action is possible.
    pub fresh: bool,
    pub moved: bool,
    pub stepped: bool,
    /// Surprise round or phase: one standard (attack) or one move action only.
    pub single_action: bool,
    /// The variant's own part, in its case of `BudgetPart`.
    pub own: BudgetPart,
}

clone_in_place!(Budget { standard, move_action, fresh, moved, stepped, single_action, own });

impl Budget {
    /// The variant's own part of the budget (its default while none is set).
    pub fn own<T: OwnBudget>(&self) -> T {
        self.own.get()
    }
    pub fn own_mut<T: OwnBudget>(&mut self) -> &mut T {
        self.own.get_mut()
    }

    /// Only a declaration may be made now: the round's declarations are under way
    /// (osr-segments' major action).
    pub fn declaring(&self) -> bool {
        matches!(self.own, BudgetPart::OsrSegments(MajorAction { declaring: true, .. }))
    }

    /// An action under way goes on if the opportunity ends now, and any other action
    /// abandons it (ap-phases' advanced action).
    pub fn continuing(&self) -> bool {
        matches!(self.own, BudgetPart::ApPhases(PhaseAction { continuing: true, .. }))
    }

    /// The move actions taken in this opportunity: hex-phases counts a phase's two; the
    /// others, whether it moved.
    pub fn moves_taken(&self) -> u32 {
        match self.own {
            BudgetPart::HexPhases(actions) => actions.moves_used as u32,
            _ => self.moved as u32,
        }
    }
}

/// Where the battle is in time.
#[derive(Debug, Default, bevy::prelude::Resource)]
pub struct Clock {
    /// Round (hex-phases: turn). 0 is the surprise round (phase).
    pub round: u32,
    /// ap-phases 1–7, hex-phases 1–4 (0 in the surprise phase).
    pub phase: u32,
    /// Inside the surprise round (phase).
    pub surprise: bool,
    /// A surprise round (phase) is still to come.
    pub surprise_pending: bool,
    /// The combatant whose opportunity it is.
    pub actor: Option<Entity>,
    /// Combatants still to act in this turn/phase/step, next first.
    pub queue: Vec<Entity>,
    /// The initiative order, first to act first.
    pub order: Vec<Entity>,
}

clone_in_place!(Clock { round, phase, surprise, surprise_pending, actor, queue, order });

impl MapEntities for Clock {
    fn map_entities<E: EntityMapper>(&mut self, mapper: &mut E) {
        self.actor.map_entities(mapper);
        self.queue.map_entities(mapper);
        self.order.map_entities(mapper);
    }
}
