//! What must hold after every command, whatever was asked: the checks behind
//! `fivefoot sim --check`, the golden battles and the command fuzzer. The combatants' are
//! the systems of the `InvariantsSchedule` (`schedule::invariants`, and each variant's
//! own); the derived threat map and the clock are checked here. Each broken invariant is
//! reported with the units and squares involved.

use super::Battle;
use super::battle::run_with;
use super::schedule::{Broken, InvariantsSchedule};
use crate::rules::ThreatMap;

/// Where the battle stood in time, to check that the clock only moves forward.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct ClockMark {
    round: u32,
    phase: u32,
    /// The variant's step inside the window (`Battle::window_step`).
    step: u8,
}

impl ClockMark {
    pub fn of(b: &Battle) -> ClockMark {
        let c = &b.clock;
        ClockMark { round: c.round, phase: c.phase, step: b.window_step() }
    }
}

impl super::BattleWorld {
    /// Checks every invariant of the battle as it stands, and that the clock has not gone
    /// back since `before`. Returns where the clock stands now.
    pub fn check_invariants(&mut self, before: Option<ClockMark>) -> Result<ClockMark, String> {
        match run_with(self.world_mut(), InvariantsSchedule, Broken::default()) {
            None => return Err("the invariants were not checked: no system checks them".into()),
            Some(Broken(Some(what))) => return Err(what),
            Some(Broken(None)) => {}
        }
        // The threat map in use equals one built from scratch, and the dead threaten nothing.
        super::resolve::refresh(self.world_mut());
        let b = self.read();
        let view = b.view();
        let fresh = ThreatMap::build(view.field, view.roster);
        if *view.threat != fresh {
            return Err("the threat map differs from one recomputed from scratch".into());
        }
        for (i, f) in b.fighters.iter().enumerate().filter(|(_, f)| !f.alive()) {
            if !view.threat.squares_of(i).is_empty() {
                return Err(format!("{}, dead, threatens squares", f.id()));
            }
        }
        let now = ClockMark::of(&b);
        if let Some(before) = before
            && now < before
        {
            return Err(format!("the clock went back from {before:?} to {now:?}"));
        }
        Ok(now)
    }
}
