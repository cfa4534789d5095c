//! Combat events: everything that happens, with every die rolled and every modifier by
//! name. The view, the log, the sim statistics and replays all read these.

use super::fighter::Modifier;
use crate::grid::GridPos;
use crate::rules::Condition;
use crate::variants::HouseRule;
use serde::{Deserialize, Serialize};

/// One thing that happened in a battle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum CombatEvent {
    BattleStarted {
        level: String,
        rules: String,
        seed: u64,
        /// Left out when there are none, as in every log before house rules.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        house_rules: Vec<HouseRule>,
    },
    /// An initiative score or roll; `roll` is the die (if any), `total` what orders the fighters.
    Initiative {
        unit: String,
        roll: Option<i32>,
        total: i32,
        note: String,
    },
    /// osr-segments group initiative for a side.
    GroupInitiative {
        side: String,
        roll: i32,
        group: String,
    },
    RoundStarted {
        round: u32,
    },
    /// A named part of the round (ap-phases phase, hex-phases phase, osr-segments step).
    PhaseStarted {
        round: u32,
        phase: u32,
        name: String,
    },
    TurnStarted {
        unit: String,
    },
    Moved {
        unit: String,
        path: Vec<GridPos>,
        cost_ft: u32,
        kind: String,
    },
    /// An attack roll and its outcome.
    Attack {
        attacker: String,
        target: String,
        kind: String,
        die: String,
        rolls: Vec<i32>,
        modifiers: Vec<Modifier>,
        total: i32,
        target_number: i32,
        hit: bool,
        critical: bool,
    },
    /// A critical threat's confirmation roll.
    Confirm {
        attacker: String,
        target: String,
        roll: i32,
        total: i32,
        target_number: i32,
        confirmed: bool,
    },
    Damage {
        attacker: String,
        target: String,
        dice: String,
        rolls: Vec<i32>,
        modifiers: Vec<Modifier>,
        total: i32,
        nonlethal: bool,
        hp_after: i32,
    },
    /// Hit points given back (a healing spell).
    Healed {
        unit: String,
        by: String,
        dice: String,
        rolls: Vec<i32>,
        modifiers: Vec<Modifier>,
        total: i32,
        hp_after: i32,
    },
    /// A reaction triggered by what another did.
    AttackOfOpportunity {
        by: String,
        target: String,
        at: GridPos,
        trigger: String,
    },
    ConditionGained {
        unit: String,
        condition: Condition,
    },
    ConditionLost {
        unit: String,
        condition: Condition,
    },
    /// A saving throw or check: `d20 roll + bonus vs dc`.
    Save {
        unit: String,
        kind: String,
        roll: i32,
        bonus: i32,
        dc: i32,
        success: bool,
    },
    /// A shot at one of two creatures locked in a grapple: d100 `roll` ≤ `percent` sends
    /// it to `other` instead.
    MissChance {
        unit: String,
        target: String,
        other: String,
        roll: i32,
        percent: i32,
        strays: bool,
    },
    /// An action used up without an attack or move (defend, delay, total defense…).
    Action {
        unit: String,
        action: String,
        detail: String,
    },
    /// An action spoiled or refused mid-way.
    Spoiled {
        unit: String,
        action: String,
        reason: String,
    },
    BattleEnded {
        winner: Option<String>,
        rounds: u32,
        reason: String,
    },
}

/// Modifiers as the log lists them: " + 5 base attack bonus - 2 prone".
fn mods(m: &[Modifier]) -> String {
    m.iter()
        .filter(|m| m.value != 0)
        .map(|m| format!(" {} {} {}", if m.value < 0 { '-' } else { '+' }, m.value.abs(), m.source))
        .collect()
}

impl CombatEvent {
    /// [`CombatEvent::describe`], an attack saying what its die had to show and what the
    /// target number is, in the variant's words: "needs 11+ (AC 16)".
    pub fn describe_under(&self, attack_target: &str) -> String {
        match self {
            CombatEvent::Attack {
                attacker,
                target,
                kind,
                die,
                rolls,
                modifiers,
                total,
                target_number,
                hit,
                critical,
            } => {
                let natural: i32 = rolls.iter().sum();
                // A combat maneuver's number is the target's combat maneuver defence.
                let attack_target = if kind.contains("(combat maneuver)") { "CMD" } else { attack_target };
                let equals = if attack_target.contains(' ') { " =" } else { "" };
                format!(
                    "{attacker} {kind} {target}: {die} {natural}{} = {total}, needs {}+ ({attack_target}{equals} {target_number}): {}{}",
                    mods(modifiers),
                    target_number - (total - natural),
                    if *hit { "hit" } else { "miss" },
                    if *critical { " (critical threat)" } else { "" }
                )
            }
            _ => self.describe(),
        }
    }

    /// One line a player can read, with every die and modifier (an attack's target number
    /// named as such: the log in the window names it in the variant's words).
    pub fn describe(&self) -> String {
        match self {
            CombatEvent::BattleStarted { level, rules, seed, house_rules } if house_rules.is_empty() => {
                format!("{level} under {rules} (seed {seed})")
            }
            CombatEvent::BattleStarted { level, rules, seed, house_rules } => {
                let house: Vec<&str> = house_rules.iter().map(|r| r.id()).collect();
                format!("{level} under {rules} + {} (seed {seed})", house.join(" + "))
            }
            CombatEvent::Initiative { unit, roll, total, note } => match roll {
                Some(r) => format!("{unit} initiative: {r} -> {total} {note}"),
                None => format!("{unit} initiative {total} {note}"),
            },
            CombatEvent::GroupInitiative { side, roll, group } => format!("{side} rolls d6 {roll}: {group}"),
            CombatEvent::RoundStarted { round } => format!("-- round {round} --"),
            CombatEvent::PhaseStarted { phase, name, .. } => format!("phase {phase}: {name}"),
            CombatEvent::TurnStarted { unit } => format!("{unit}'s turn"),
            CombatEvent::Moved { unit, path, cost_ft, kind } => {
                let to = path.last().map_or("nowhere".to_string(), |p| p.to_string());
                // A kind is a verb ("move", "charge") or, for one moved by another, its
                // participle ("dragged", "pushed back").
                let participle = kind.split(' ').next().is_some_and(|word| word.ends_with("ed"));
                let verb = if participle { format!("is {kind}") } else { format!("{kind}s") };
                format!("{unit} {verb} to {to} ({cost_ft} ft)")
            }
            CombatEvent::Attack { .. } => self.describe_under("target number"),
            CombatEvent::Confirm { attacker, roll, total, target_number, confirmed, .. } => format!(
                "{attacker} confirms: d20 {roll} = {total} vs {target_number}: {}",
                if *confirmed { "critical hit!" } else { "not confirmed" }
            ),
            CombatEvent::Damage { target, dice, rolls, modifiers, total, hp_after, nonlethal, .. } => format!(
                "{target} takes {total}{} damage ({dice} {:?}{}) -> {hp_after} hp",
                if *nonlethal { " nonlethal" } else { "" },
                rolls,
                mods(modifiers)
            ),
            CombatEvent::Healed { unit, by, dice, rolls, modifiers, total, hp_after } => {
                format!("{by} heals {unit} for {total} ({dice} {:?}{}) -> {hp_after} hp", rolls, mods(modifiers))
            }
            CombatEvent::AttackOfOpportunity { by, target, at, trigger } => {
                format!("{target} {trigger} at {at}: {by} gets an attack of opportunity")
            }
            CombatEvent::ConditionGained { unit, condition } => format!("{unit} is {condition:?}"),
            CombatEvent::ConditionLost { unit, condition } => format!("{unit} is no longer {condition:?}"),
            CombatEvent::Save { unit, kind, roll, bonus, dc, success } => format!(
                "{unit} {kind}: d20 {roll} {:+} = {} vs DC {dc}: {}",
                bonus,
                roll + bonus,
                if *success { "success" } else { "failure" }
            ),
            CombatEvent::MissChance { unit, target, other, roll, percent, strays } => format!(
                "{unit} shoots into the grapple of {target} and {other}: d100 {roll} vs {percent}%: {}",
                if *strays { format!("the shot goes to {other}") } else { format!("on {target}") }
            ),
            CombatEvent::Action { unit, action, detail } if detail.is_empty() => format!("{unit}: {action}"),
            CombatEvent::Action { unit, action, detail } => format!("{unit}: {action} — {detail}"),
            CombatEvent::Spoiled { unit, action, reason } => format!("{unit}'s {action} is spoiled: {reason}"),
            CombatEvent::BattleEnded { winner, rounds, reason } => match winner {
                Some(w) => format!("{w} wins after {rounds} rounds ({reason})"),
                None => format!("draw after {rounds} rounds ({reason})"),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_attack_line_says_what_the_die_needed_and_what_the_target_number_is() {
        let attack = CombatEvent::Attack {
            attacker: "hero".into(),
            target: "gob".into(),
            kind: "attacks".into(),
            die: "d20".into(),
            rolls: vec![12],
            modifiers: vec![Modifier::new("base attack bonus", 5), Modifier::new("prone", -2)],
            total: 15,
            target_number: 16,
            hit: false,
            critical: false,
        };
        assert_eq!(
            attack.describe_under("AC"),
            "hero attacks gob: d20 12 + 5 base attack bonus - 2 prone = 15, needs 13+ (AC 16): miss"
        );
        assert!(attack.describe_under("10 + DCV").contains("needs 13+ (10 + DCV = 16)"));
        // A combat maneuver is made against the target's CMD, whatever the variant's word.
        let mut trip = attack.clone();
        if let CombatEvent::Attack { kind, .. } = &mut trip {
            *kind = "trip (combat maneuver) on".into();
        }
        assert!(trip.describe_under("AC").ends_with("needs 13+ (CMD 16): miss"), "{}", trip.describe_under("AC"));
        let moved = |kind: &str| CombatEvent::Moved {
            unit: "gob".into(),
            path: vec![crate::grid::GridPos::new(2, 1)],
            cost_ft: 10,
            kind: kind.into(),
        };
        assert_eq!(moved("move").describe(), "gob moves to (2, 1) (10 ft)");
        assert_eq!(moved("dragged").describe(), "gob is dragged to (2, 1) (10 ft)");
        assert_eq!(moved("pushed back").describe(), "gob is pushed back to (2, 1) (10 ft)");
        let turn = CombatEvent::TurnStarted { unit: "hero".into() };
        assert_eq!(turn.describe_under("AC"), turn.describe(), "other events read as ever");
    }

    #[test]
    fn an_action_line_sets_its_detail_apart_and_ends_where_it_has_none() {
        let action = |action: &str, detail: &str| CombatEvent::Action {
            unit: "gob".into(),
            action: action.into(),
            detail: detail.into(),
        };
        assert_eq!(action("is disarmed", "its weapon drops").describe(), "gob: is disarmed — its weapon drops");
        assert_eq!(
            action("fights recklessly", "-4 AC, +2 damage").describe(),
            "gob: fights recklessly — -4 AC, +2 damage"
        );
        assert_eq!(action("escapes the grapple", "").describe(), "gob: escapes the grapple");
    }
}
