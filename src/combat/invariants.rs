//! What must hold after every command, whatever was asked: the checks behind
//! `fivefoot sim --check`, the golden battles and the command fuzzer. Each broken
//! invariant is reported with the units and squares involved.

use super::Battle;
use crate::grid::Terrain;
use crate::rules::ThreatMap;

/// Where the battle stood in time, to check that the clock only moves forward.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct ClockMark {
    round: u32,
    phase: u32,
    /// The variant's step inside the window (`VariantRules::window_step`).
    step: u8,
}

impl ClockMark {
    pub fn of(b: &Battle) -> ClockMark {
        let c = &b.clock;
        ClockMark { round: c.round, phase: c.phase, step: b.window_step() }
    }
}

impl Battle<'_, '_> {
    /// Checks every invariant of the battle as it stands, and that the clock has not gone
    /// back since `before`. Returns where the clock stands now.
    pub fn check_invariants(&mut self, before: Option<ClockMark>) -> Result<ClockMark, String> {
        let terrain = &self.field.terrain;
        let mut taken: std::collections::BTreeMap<(i32, i32), &str> = std::collections::BTreeMap::new();
        for f in self.fighters.iter().filter(|f| f.alive()) {
            for cell in f.footprint().cells() {
                if !terrain.in_bounds(cell) {
                    return Err(format!("{} stands off the map at {cell}", f.id()));
                }
                if terrain.get(cell) == Terrain::Wall {
                    return Err(format!("{} stands on a wall at {cell}", f.id()));
                }
                if let Some(other) = taken.insert((cell.x, cell.y), f.id()) {
                    return Err(format!("{} and {other} share {cell}", f.id()));
                }
            }
        }
        for f in &self.fighters {
            if f.health().max <= 0 || f.health().hp > f.health().max {
                return Err(format!("{} has {} of {} hit points", f.id(), f.health().hp, f.health().max));
            }
        }
        if let Some(i) = self.clock.actor {
            let f = self.fighters.at(i);
            if !f.alive() {
                return Err(format!("{}, dead, is acting", f.id()));
            }
        }
        self.rules().check_invariants(self)?;
        // The threat map in use equals one built from scratch, and the dead threaten nothing.
        self.refresh();
        let view = self.view();
        let fresh = ThreatMap::build(view.field, view.roster);
        if *view.threat != fresh {
            return Err("the threat map differs from one recomputed from scratch".into());
        }
        for (i, f) in self.fighters.iter().enumerate().filter(|(_, f)| !f.alive()) {
            if !view.threat.squares_of(i).is_empty() {
                return Err(format!("{}, dead, threatens squares", f.id()));
            }
        }
        let now = ClockMark::of(self);
        if let Some(before) = before
            && now < before
        {
            return Err(format!("the clock went back from {before:?} to {now:?}"));
        }
        Ok(now)
    }
}
