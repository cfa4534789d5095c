//! Where a battle is in time, as data: the round, phase or segment step, whose
//! opportunity it is and the budget left in it, the initiative order and queue, and each
//! variant's bookkeeping (action points, advanced actions, group initiative). The clock's
//! moves are in `clock`.

/// What the acting fighter may still do in this opportunity.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    pub standard: bool,
    pub move_action: bool,
    pub quick: bool,
    pub swift: bool,
    /// Nothing spent yet: a full-round (full-phase) action is possible.
    pub fresh: bool,
    pub moved: bool,
    pub stepped: bool,
    /// Surprise round or phase: one standard (attack) or one move action only.
    pub single_action: bool,
    /// ap-phases: one action may be taken in this phase.
    pub phase_action: bool,
    /// ap-phases: an advanced action is under way: ending the turn spends this phase's AP
    /// on it; any other action abandons it.
    pub continuing: bool,
    /// osr-segments: the major action is still available.
    pub major: bool,
    /// osr-segments: only fast actions (charge, flee) now.
    pub fast_only: bool,
    /// osr-segments: only the multi-attack routine now.
    pub attacks_only: bool,
    /// osr-segments: the round's declarations are being made; only a declaration now.
    pub declaring: bool,
    /// hex-phases: the attack action has been used; move actions used.
    pub attack_used: bool,
    pub moves_used: u8,
}

/// An advanced action in progress (ap-phases).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Advanced {
    pub action: AdvancedKind,
    pub spent: u8,
    pub needed: u8,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AdvancedKind {
    Charge {
        target: String,
    },
    TotalDefense,
    /// A standard-action spell (complex, 2 AP); `defensive`: cast defensively, so no
    /// longer complex.
    Cast {
        spell: String,
        target: String,
        defensive: bool,
    },
    CoupDeGrace {
        target: String,
    },
    FirstAid {
        target: String,
    },
}

/// osr-segments: the steps of a round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum OsrStep {
    #[default]
    Declare,
    FastActions,
    /// Fighters with the multi-attack ability in melee strike first…
    MultiFirst,
    High,
    Low,
    /// …and finish their remaining attacks after the LOW group.
    MultiRest,
    /// Step 7: spells go off by segment.
    Spells,
}

/// Where the battle is in time.
#[derive(Clone, Debug, Default)]
pub struct Clock {
    /// Round (hex-phases: turn). 0 is the surprise round (phase).
    pub round: u32,
    /// ap-phases 1–7, hex-phases 1–4 (0 in the surprise phase).
    pub phase: u32,
    /// Inside the surprise round (phase).
    pub surprise: bool,
    /// A surprise round (phase) is still to come.
    pub surprise_pending: bool,
    pub actor: Option<usize>,
    pub budget: Budget,
    /// Fighters still to act in this turn/phase/step, next first.
    pub queue: Vec<usize>,
    /// The initiative order, first to act first.
    pub order: Vec<usize>,
    /// ap-phases: action points left this round, per fighter.
    pub ap: Vec<u8>,
    /// ap-phases: attack actions taken this round, per fighter.
    pub attack_actions: Vec<u8>,
    /// ap-phases: advanced action in progress, per fighter.
    pub advanced: Vec<Option<Advanced>>,
    /// osr-segments: the step of the round, and each side's group (true = HIGH).
    pub osr_step: OsrStep,
    pub osr_high: Vec<(String, bool)>,
    /// osr-segments: has taken its major action this round, per fighter.
    pub acted: Vec<bool>,
    /// osr-segments: its major action this round was an attack routine.
    pub attacked: Vec<bool>,
}

/// Names of the ap-phases action phases.
pub const AP_PHASES: [&str; 7] = ["declaration", "ready missile", "thrown", "fast", "average", "slow", "very slow"];
