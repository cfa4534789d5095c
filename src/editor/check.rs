//! Live validation for the editor: every problem the level loader (and `fivefoot level
//! check`) would report for the level being edited, not just the first. The loader's own
//! checks run on the level; each unit it refuses is noted and set aside so the next
//! problem shows too. A level that loads may still draw warnings (`level::warnings`: a
//! side that cannot reach the other, a unit with no way out); they do not stop play.

use crate::level::{Catalogue, Level, LevelDef, LevelError};

/// One problem, and the square to look at when there is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub message: String,
    /// The unit the problem is about, if any.
    pub unit: Option<String>,
    /// Where that unit stands.
    pub at: Option<(i32, i32)>,
    /// Only a warning: the level is still valid and plays.
    pub warning: bool,
}

/// The message `fivefoot level check` prints when a level has units on fewer than two sides.
pub const TWO_SIDES: &str = "a battle needs units on at least two sides";

/// Every problem that stops `def` from being played, in the loader's order, then the
/// warnings of a level that loads; empty when the level is ready and plays well. At most
/// one problem per unit.
pub fn problems(def: &LevelDef, catalogue: &Catalogue) -> Vec<Problem> {
    let mut out = vec![];
    let mut rest = def.clone();
    // Each round removes one unit, so this ends; the bound is a second guarantee.
    for _ in 0..=def.units.len() {
        match Level::from_def(rest.clone(), catalogue) {
            Ok(_) => break,
            Err(LevelError::Unit { unit, problem, .. }) => {
                // A duplicate id is reported on the second unit holding it.
                let k = if problem.contains("duplicate") {
                    rest.units.iter().enumerate().filter(|(_, u)| u.id == unit).nth(1).map(|(k, _)| k)
                } else {
                    rest.units.iter().position(|u| u.id == unit)
                };
                let at = k.map(|k| rest.units[k].at);
                out.push(Problem {
                    message: format!("unit \"{unit}\": {problem}"),
                    unit: Some(unit.clone()),
                    at,
                    warning: false,
                });
                match k {
                    Some(k) => {
                        rest.units.remove(k);
                    }
                    None => break,
                }
            }
            Err(e) => {
                out.push(Problem {
                    message: without_place(&e.to_string(), &def.name),
                    unit: None,
                    at: None,
                    warning: false,
                });
                return out; // the map itself is broken: the units cannot be checked
            }
        }
    }
    let mut sides: Vec<&str> = def.units.iter().map(|u| u.side.as_str()).collect();
    sides.sort_unstable();
    sides.dedup();
    if sides.len() < 2 {
        out.push(Problem { message: TWO_SIDES.into(), unit: None, at: None, warning: false });
    }
    if let Ok(level) = Level::from_def(def.clone(), catalogue) {
        out.extend(crate::level::warnings(&level, catalogue).into_iter().map(|w| Problem {
            message: w.message,
            unit: w.unit,
            at: w.at,
            warning: true,
        }));
    }
    out
}

/// The problems that stop play (not the warnings).
pub fn errors(problems: &[Problem]) -> impl Iterator<Item = &Problem> {
    problems.iter().filter(|p| !p.warning)
}

/// A loader message without the `<name>:LINE:COL: ` it carries for a level with no file.
fn without_place(message: &str, name: &str) -> String {
    let rest = message.strip_prefix(&format!("<{name}>")).unwrap_or(message);
    let rest = rest.trim_start_matches(|c: char| c == ':' || c.is_ascii_digit());
    rest.trim_start().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{MapDef, UnitDef};

    fn unit(id: &str, side: &str, at: (i32, i32)) -> UnitDef {
        UnitDef::new(id, side, at, "goblin")
    }

    #[test]
    fn every_unit_problem_is_listed_and_a_good_level_has_none() {
        let mut def = LevelDef {
            version: None,
            name: "t".into(),
            rules: Default::default(),
            map: MapDef { rows: vec!["#...".into(), "....".into()] },
            units: vec![unit("a", "blue", (1, 0)), unit("b", "red", (3, 1))],
            death_saves: None,
            house_rules: vec![],
            sides: vec![],
            symmetry: Default::default(),
        };
        assert!(problems(&def, Catalogue::builtin_ref()).is_empty());
        def.units.push(unit("w", "red", (0, 0)));
        def.units.push(unit("a", "red", (2, 1)));
        def.units.push(unit("far", "red", (9, 9)));
        let p = problems(&def, Catalogue::builtin_ref());
        let text: Vec<&str> = p.iter().map(|p| p.message.as_str()).collect();
        assert_eq!(p.len(), 3, "{text:?}");
        assert!(text[0].contains("\"w\"") && text[0].contains("wall"), "{text:?}");
        assert!(text[1].contains("duplicate"), "{text:?}");
        assert_eq!(p[1].at, Some((2, 1)), "the second \"a\" is the duplicate");
        assert!(text[2].contains("\"far\"") && text[2].contains("outside"), "{text:?}");
        def.units.retain(|u| u.side == "red");
        assert!(problems(&def, Catalogue::builtin_ref()).iter().any(|p| p.message == TWO_SIDES));
    }
}
