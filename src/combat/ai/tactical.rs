//! The tactical AI: a search over the portfolio of behaviours (`behaviours`), per unit
//! decision. Each behaviour's next command is found on the battle as it stands, and (from
//! normal up) a strike and each combat maneuver the variant allows at each foe in reach, or
//! each intent it may declare where the round opens with declarations, and the other
//! standing order where fighters may abort to a dodge; commands that agree are one
//! candidate (`candidates`). Each candidate is played out by the real rules engine:
//! the battle's snapshot restored into a scratch world of its variant and house rules, the
//! acting unit giving that command and fighting on by its behaviour through its
//! opportunity, then (from normal up) every unit as the greedy AI to the battle's end
//! (`playout`); where the side acts as one group (osr-segments), the hold's wait is played
//! with the allies holding too, and once chosen the side keeps it that round. So
//! each line is weighed by what it wins if everyone plays on plainly, and choosing the best
//! improves on greedy's own line (a rollout policy). A line is chosen over closing and
//! striking only when it beats it pair by pair, over the same dice, by more than the pairs'
//! spread allows to luck.
//! Every candidate faces the same dice (each playout's dice reseeded from the decision and
//! the sample, each unit rolling from a stream of its own: common random numbers, so two
//! lines that agree roll alike), and the budget counts playouts and commands, so the
//! same battle gives the same decision on any machine. The score of a playout is what each
//! side has left (units standing, and their hit points) and whether it won. From normal up,
//! the actions and options a turn leaves beside the chosen command (a focus, a guard, a way
//! of fighting) come first where the forecasts say they pay (`economy`).

use super::behaviours::Behaviour;
use super::candidates::{Candidate, Line, attacks_drawn, gather, square_of};
use super::choice::{Limits, Race, best_line, race};
use super::playout::{Allies, for_turns, to_the_end};
use super::reasons::{Standing, deed, reason};
use super::{Ai, economy};
use crate::combat::BattleWorld;
use crate::combat::command::Command;
use crate::combat::snapshot::Snapshot;
use std::borrow::Cow;
/// How hard the tactical AI plays: its search budget.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Difficulty {
    /// Three behaviours, one antithetic pair of short playouts each (to its next turn): it
    /// misjudges a fight that a few lucky or unlucky rolls decide, and shies from blows
    /// that pay off only later. Like a novice, it spends every action on its strikes (no
    /// focus, guard or way of fighting).
    Easy,
    /// Every behaviour, a strike and each maneuver at each foe in reach, each played out to
    /// the battle's end, up to 24 playouts each (12 antithetic pairs) within a budget of
    /// 4,000 commands.
    #[default]
    Normal,
    /// As normal, with up to 48 playouts each within 8,000 commands.
    Hard,
}

/// What one difficulty may spend on a decision.
struct Budget {
    behaviours: &'static [Behaviour],
    /// Playouts per candidate, at most (an even number: antithetic pairs).
    samples: u32,
    /// Commands all the playouts of a decision may play together, roughly: after the first
    /// pair of each candidate, as many more pairs as this allows (at least none more). In a
    /// large battle, the commands' work (`playout::work`: each weighed by the crowd it runs
    /// among and the squares its searches cover), and the search stops once it is spent.
    commands_per_decision: u32,
    horizon: Horizon,
    /// Whether a strike and each maneuver the variant allows at each foe in reach are
    /// candidates too, beside the behaviours' lines (which strike the weakest).
    every_target: bool,
    /// Whether it spends the actions a turn leaves over where they pay (`economy`: a focus
    /// or a stance before its strikes, a guard before ending its turn). Its playouts weigh
    /// the lines without: the same actions would come before the strikes of every line.
    thrifty: bool,
}

/// How far a playout looks ahead.
#[derive(Clone, Copy)]
enum Horizon {
    /// Through the acting unit's opportunity after its turn has come round this many times
    /// (its allies by the lines they chose last, the foes greedily), at most `commands`.
    /// Short-sighted: blows that pay only later (a few strikes on a big foe) weigh less than
    /// the risk run now, so it stays out of fights it should join. In a large battle, played
    /// out on the part of it around the actor's fight (`part`), as the playouts to the end.
    Turns { turns: u32, commands: u32 },
    /// To the battle's end, at most `commands` (fewer in a large battle, `Budget::for_size`,
    /// and there fewer still where many lines share a decision, `Budget::fitted`):
    /// after the acting unit's opportunity, every unit plays as the greedy AI. Each line is
    /// weighed by what it wins if all play on plainly, so choosing the best improves on
    /// greedy's own line (a rollout policy). Where `large` (a battle of more than
    /// [`FULL_BUDGET_UNITS`], whose playouts stop short of the end), the lines are played
    /// out on the part of the battle around the actor's fight (`part`), where units too far
    /// to touch that fight before the actor's next turn give only what cannot wait, as in
    /// the short playouts, and what stands is the score; `commands` bounds the commands'
    /// work (`playout::work`) rather than their count, each playout is cut so that a few
    /// pairs of every line fit the budget (`Budget::fitted`), and no line weighed on a
    /// single pair is chosen (`best_line`).
    End { commands: u32, large: bool },
}

impl Difficulty {
    pub const ALL: [Difficulty; 3] = [Difficulty::Easy, Difficulty::Normal, Difficulty::Hard];

    pub fn id(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Normal => "normal",
            Difficulty::Hard => "hard",
        }
    }

    fn budget(self) -> Budget {
        match self {
            Difficulty::Easy => Budget {
                behaviours: &[Behaviour::Greedy, Behaviour::FocusFire, Behaviour::Withdraw],
                samples: 2,
                commands_per_decision: 200,
                horizon: Horizon::Turns { turns: 1, commands: 120 },
                every_target: false,
                thrifty: false,
            },
            Difficulty::Normal => Budget {
                behaviours: &Behaviour::ALL,
                samples: 24,
                commands_per_decision: 4_000,
                horizon: Horizon::End { commands: 600, large: false },
                every_target: true,
                thrifty: true,
            },
            Difficulty::Hard => Budget { samples: 48, commands_per_decision: 8_000, ..Difficulty::Normal.budget() },
        }
    }
}

impl Budget {
    /// The budget for a battle of `units`: whole up to [`FULL_BUDGET_UNITS`], and in
    /// proportion less above (Great melee's 40 units: 3 in 10), both the commands of a
    /// decision and the length of a playout, each counted in work (`playout::work`), which
    /// weighs a command by the crowd it runs among and the squares its searches cover. A
    /// large battle's lines are played out on the part of it around the actor's fight
    /// (`part`), whose crowd and board vary with the fight; counted in work, a decision
    /// there costs about the same whatever the part. Its playouts stop short of the end and
    /// are scored where they stop, and in them the units far from the actor's fight stand
    /// (rather than walk across the board at a whole-board search a command).
    fn for_size(mut self, units: usize) -> Budget {
        if is_large(units) {
            let units = units as u32;
            let scaled = |commands: u32| commands * FULL_BUDGET_UNITS / units;
            self.commands_per_decision = scaled(self.commands_per_decision);
            if let Horizon::End { commands, large } = &mut self.horizon {
                *commands = scaled(*commands);
                *large = true;
            }
        }
        self
    }

    /// The budget for a decision among `candidates` lines: in a large battle, whose playouts
    /// stop short of the end anyway, each playout is cut so that [`LARGE_BATTLE_PAIRS`] pairs
    /// of every candidate fit within the decision's commands (at least [`SHORTEST_PLAYOUT`]).
    /// Otherwise a unit with many lines (a strike and each maneuver at each of several foes
    /// in reach) spends several times its budget on first pairs alone, and weighs each line
    /// on one pair, whose luck in a large battle swamps the margin asked of it.
    fn fitted(mut self, candidates: usize) -> Budget {
        if let Horizon::End { commands, large: true } = &mut self.horizon {
            let share = self.commands_per_decision / (2 * LARGE_BATTLE_PAIRS * candidates.max(1) as u32);
            *commands = (*commands).min(share.max(SHORTEST_PLAYOUT));
        }
        self
    }

    /// Whether it is a large battle's (see `Horizon::End`).
    fn large(&self) -> bool {
        matches!(self.horizon, Horizon::End { large: true, .. })
    }

    /// What the race among a decision's lines may spend: its pairs a line and its commands.
    /// A large battle's race stops once its budget is spent, where the first pairs show
    /// the cost of one only roughly; elsewhere it plays the rounds the first pairs' cost
    /// allowed.
    fn limits(&self) -> Limits {
        Limits { pairs: self.samples / 2, commands: self.commands_per_decision, stop_when_spent: self.large() }
    }
}

/// The pairs of playouts of every candidate a large battle's decision makes room for.
const LARGE_BATTLE_PAIRS: u32 = 3;

/// The fewest commands a large battle's playout is cut to, however many lines there are.
const SHORTEST_PLAYOUT: u32 = 20;

/// The most units a battle may have for the whole budget (every fair level has at most 10).
const FULL_BUDGET_UNITS: u32 = 12;

/// Whether a battle of `units` is a large one: a smaller budget, and lines played out on
/// the part of it around the actor's fight.
fn is_large(units: usize) -> bool {
    units as u32 > FULL_BUDGET_UNITS
}

/// The tactical AI at one difficulty.
pub struct Tactical {
    difficulty: Difficulty,
    /// The battle as it stood at the last decision, kept to be taken again in place.
    snapshot: Option<Snapshot>,
    reason: String,
    /// The line chosen at the start of a unit's opportunity, held for the rest of it (so a
    /// unit that withdraws with its first move does not walk back with its second).
    held: Option<Held>,
    /// The candidates of the last decision that weighed any, by square.
    scored: Vec<super::ScoredSquare>,
    /// The line each unit of its side chose last, by seat: in a short playout (easy's) its
    /// allies fight on by theirs, so units that chose to hold or flank together are weighed
    /// together. Playouts to the end have everyone fight on as greedy.
    plan: Vec<Option<Behaviour>>,
    /// The command chosen for an opportunity, put off for an action that comes first
    /// (`economy`, a standing order), when, and the reason it was chosen: it comes next.
    then: Option<(Opportunity, Command, String)>,
    /// Where the side acts as one group (`AiHints::side_holds_together`): the round in which
    /// one of its units chose to hold its ground with its side, and which unit; the rest
    /// of the side holds with it that round rather than walk in alone.
    side_holds: Option<(u32, String)>,
}

/// One opportunity of one unit: whose, and when.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Opportunity {
    actor: usize,
    round: u32,
    phase: u32,
}

impl Opportunity {
    fn now(battle: &BattleWorld, actor: usize) -> Opportunity {
        let clock = battle.clock();
        Opportunity { actor, round: clock.round, phase: clock.phase }
    }
}

/// A line held through one opportunity: whose, when, and which behaviour.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Held {
    when: Opportunity,
    behaviour: Behaviour,
}

impl Tactical {
    pub fn new(difficulty: Difficulty) -> Tactical {
        Tactical {
            difficulty,
            snapshot: None,
            reason: String::new(),
            held: None,
            scored: Vec::new(),
            plan: Vec::new(),
            then: None,
            side_holds: None,
        }
    }

    /// The line held for `actor`, if this decision is in the same opportunity as the one
    /// that chose it (the clock where it was, something already spent).
    fn holding(&self, battle: &BattleWorld, actor: usize) -> Option<Behaviour> {
        let held = self.held?;
        let same = held.when == Opportunity::now(battle, actor);
        (same && !battle.read().budget().fresh).then_some(held.behaviour)
    }

    /// `command`, or first an action that would otherwise be spent poorly or not at all
    /// (`economy`), with `command` kept to come next; its reason says so.
    fn thrifty(&mut self, battle: &BattleWorld, actor: usize, command: Command) -> Command {
        if !self.difficulty.budget().thrifty {
            return command;
        }
        match economy::before(&battle.read(), actor, &command) {
            Some(spare) => {
                let why = std::mem::take(&mut self.reason);
                self.reason = format!("{why}; {}", spare.why);
                self.first(battle, actor, spare.command, command, why)
            }
            None => command,
        }
    }

    /// `first`, with `next` and the reason it was chosen, `why`, kept to come after it in
    /// this opportunity.
    fn first(&mut self, battle: &BattleWorld, actor: usize, first: Command, next: Command, why: String) -> Command {
        self.then = Some((Opportunity::now(battle, actor), next, why));
        first
    }
}

impl Ai for Tactical {
    fn decide(&mut self, battle: &mut BattleWorld, actor: usize) -> Command {
        let _recalling = super::recall::Recalling::begin();
        // The command chosen, once what came first is done: the same decision, its reason
        // and its candidates on the overlay.
        if let Some((when, next, why)) = self.then.take()
            && when == Opportunity::now(battle, actor)
            && battle.read().allows(&next)
        {
            self.reason = why;
            return self.thrifty(battle, actor, next);
        }
        self.scored.clear();
        if let Some((round, chooser)) = &self.side_holds
            && *round == battle.clock().round
        {
            let b = battle.read();
            if let Some(wait) = super::behaviours::hold_wait(&b, actor) {
                let who = &b.fighters.combatant[actor].id;
                self.reason = format!("{who}: holds its ground with its side this round, as {chooser} chose");
                // A wait like any other: what the turn leaves over comes first where it pays.
                return self.thrifty(battle, actor, wait);
            }
        }
        if let Some(line) = self.holding(battle, actor) {
            let command = line.command(&battle.read(), actor);
            let who = battle.read().fighters.combatant[actor].id.clone();
            self.reason = format!("{who}: {} goes on (the line chosen this turn)", line.name());
            return self.thrifty(battle, actor, command);
        }
        let budget = self.difficulty.budget().for_size(battle.read().fighters.len());
        // A line already chosen in this opportunity (the order it gave first, a free action,
        // left it fresh): no second standing order.
        let ordered = self.held.is_some_and(|held| held.when == Opportunity::now(battle, actor));
        let mut candidates = gather(&battle.read(), actor, budget.behaviours, budget.every_target, ordered);
        let budget = budget.fitted(candidates.len());
        let who = battle.read().fighters.combatant[actor].id.clone();
        if candidates.len() == 1 {
            let only = candidates.pop().expect("one candidate");
            self.reason = format!("{who}: {} (no other line)", deed(&only, None));
            return self.thrifty(battle, actor, only.command);
        }
        let snapshot = match &mut self.snapshot {
            Some(kept) if kept.variant() == battle.variant() && kept.house_rules() == battle.house_rules() => {
                battle.snapshot_quiet_into(kept);
                kept
            }
            slot => slot.insert(battle.snapshot_quiet()),
        };
        // A large battle's lines are played out on the part of it around the actor's fight,
        // where each of the actor's allies still fights by the line it chose last.
        let large = is_large(battle.read().fighters.len());
        let part = large.then(|| super::part::of(&battle.read(), actor, &candidates, snapshot)).flatten();
        let (board, seat, shift) =
            part.as_ref().map_or((&*snapshot, actor, (0, 0)), |p| (&p.snapshot, p.actor, p.shift));
        let plan: Cow<[Option<Behaviour>]> = match &part {
            Some(p) => p.seats.iter().map(|&u| self.plan.get(u).copied().flatten()).collect(),
            None => Cow::Borrowed(&self.plan),
        };
        let openings: Vec<Command> = candidates.iter().map(|c| c.command.shifted(shift)).collect();
        let mut scratch = BattleWorld::scratch(battle.variant(), battle.house_rules());
        let decision = decision_seed(battle, actor);
        // Samples come in antithetic pairs: the second of each rolls the first's dice turned
        // over, so the pair's luck cancels out. Where the side acts as one group, the hold's
        // wait (if the actor would wait now) is weighed with its allies holding too.
        let side_wait = {
            let b = battle.read();
            b.variant.numbers().ai.side_holds_together.then(|| super::behaviours::hold_wait(&b, actor)).flatten()
        };
        let holds_with_side = |c: &Candidate| {
            c.behaviours.contains(&Behaviour::Hold) && side_wait.as_ref().is_some_and(|w| *w == c.command)
        };
        let play = |i: usize, sample: u32| {
            scratch.restore(board);
            scratch.reseed_dice_per_roller(mix(decision, u64::from(sample / 2)), sample % 2 == 1);
            let c = &candidates[i];
            let allies = if holds_with_side(c) { Allies::Holding } else { Allies::Greedy };
            playout(&mut scratch, seat, (&openings[i], c.behaviours[0], allies), &plan, &budget)
        };
        let plain = candidates.iter().position(|c| c.behaviours.contains(&Behaviour::Greedy)).unwrap_or(0);
        let Race { pairs_of, played } = race(candidates.len(), plain, budget.limits(), play);
        for (c, row) in candidates.iter_mut().zip(&pairs_of) {
            c.score = row.iter().sum::<f64>() / row.len() as f64;
        }
        // The plain line (close and strike) unless another beats it pair by pair (the same
        // dice) by more than the pairs' spread allows to luck.
        let baseline = candidates[plain].score;
        let best = best_line(&pairs_of, plain, budget.large());
        self.scored = candidates
            .iter()
            .enumerate()
            .map(|(i, c)| super::ScoredSquare {
                square: square_of(battle, actor, &c.command),
                line: c.name(),
                score: c.score,
                chosen: i == best,
            })
            .collect();
        let standing = if best == plain {
            let nearest = candidates
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != plain)
                .max_by(|a, b| a.1.score.total_cmp(&b.1.score))
                .map(|(_, c)| (c.first_name(), c.score - baseline));
            Standing::Held { nearest }
        } else {
            Standing::Beat { margin: candidates[best].score - baseline }
        };
        let drawn = match &candidates[best].command {
            Command::Move { to } => attacks_drawn(&battle.read(), actor, *to),
            _ => None,
        };
        self.reason = reason(&who, &candidates[best], drawn, standing, played);
        let plain_command = candidates[plain].command.clone();
        let chosen = candidates.swap_remove(best);
        let behaviour = chosen.behaviours.first().copied().unwrap_or(Behaviour::Greedy);
        if holds_with_side(&chosen) {
            self.side_holds = Some((battle.clock().round, who.clone()));
        }
        self.held = Some(Held { when: Opportunity::now(battle, actor), behaviour });
        let seats = battle.read().fighters.len();
        self.plan.resize(seats, None);
        self.plan[actor] = Some(behaviour);
        if chosen.line == Line::Abort {
            // The order first (a free action), then the plain line it was weighed with.
            let why = format!("{who}: {} goes on (after its standing order)", behaviour.name());
            return self.first(battle, actor, chosen.command, plain_command, why);
        }
        self.thrifty(battle, actor, chosen.command)
    }

    fn reason(&self) -> Option<&str> {
        (!self.reason.is_empty()).then_some(self.reason.as_str())
    }

    fn scored(&self) -> &[super::ScoredSquare] {
        &self.scored
    }
}

/// Plays the scratch battle on from its snapshot, `actor` giving `opening`, to the budget's
/// horizon, and scores it. Each command's rolls come from its giver's stream of the dice, so
/// the candidates' playouts give every unit the same rolls as far as their lines agree.
fn playout(
    scratch: &mut BattleWorld,
    actor: usize,
    (opening, behaviour, allies): (&Command, Behaviour, Allies),
    plan: &[Option<Behaviour>],
    budget: &Budget,
) -> (f64, u32) {
    match budget.horizon {
        Horizon::Turns { turns, commands } => for_turns(scratch, (actor, opening, behaviour), plan, turns, commands),
        Horizon::End { commands, large } => to_the_end(scratch, (actor, opening, behaviour), allies, commands, large),
    }
}

/// The seed the decision's playouts start from: the same for every candidate, different for
/// decisions the dice have rolled between. It reads only what a snapshot carries (no event
/// log), so the window, whose AI decides on a copy of the battle, decides as `sim` does.
fn decision_seed(battle: &BattleWorld, actor: usize) -> u64 {
    let clock = battle.clock();
    let when = (u64::from(clock.round) << 8) | u64::from(clock.phase);
    mix(mix(mix(battle.seed(), battle.dice_position()), when), actor as u64)
}

/// SplitMix64's finaliser over `a` and `b`.
fn mix(a: u64, b: u64) -> u64 {
    let mut z = a ^ b.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::{Difficulty, Horizon};

    /// Up to 12 units a playout runs to the battle's end with every unit; above, the budget
    /// shrinks in proportion (Great melee's 40: 3 in 10), counted in work, and the far
    /// units stand.
    #[test]
    fn a_large_battle_gets_a_smaller_budget_and_playouts_in_which_far_units_stand() {
        for (units, commands, large) in [(10, 600, false), (12, 600, false), (13, 553, true), (40, 180, true)] {
            let budget = Difficulty::Normal.budget().for_size(units);
            assert!(matches!(budget.horizon, Horizon::End { commands: c, large: l } if (c, l) == (commands, large)));
            assert_eq!(budget.commands_per_decision, 4_000 * 12 / units.max(12) as u32);
            assert_eq!(budget.limits().stop_when_spent, large);
        }
    }

    /// In a large battle three pairs of every candidate fit the decision's commands: the
    /// playouts are cut to the share of each (at least 20 commands); a small battle's run to
    /// the end whatever the number of candidates.
    #[test]
    fn a_large_battles_playouts_are_cut_so_three_pairs_of_every_line_fit_the_budget() {
        let length = |units: usize, candidates: usize| match Difficulty::Normal
            .budget()
            .for_size(units)
            .fitted(candidates)
            .horizon
        {
            Horizon::End { commands, .. } => commands,
            Horizon::Turns { .. } => unreachable!("normal plays to the end"),
        };
        // Great melee's 40 units: 1,200 commands' work a decision, playouts of 180 at most.
        assert_eq!(length(40, 1), 180);
        assert_eq!(length(40, 2), 1_200 / 12);
        assert_eq!(length(40, 5), 1_200 / 30);
        assert!(3 * 2 * 5 * length(40, 5) <= 1_200);
        assert_eq!(length(40, 30), 20);
        assert_eq!(length(10, 23), 600);
    }
}
