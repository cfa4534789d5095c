//! What each rule variant reads from its numbers file: the grid rules of the shared
//! rules core (geometry, reach, flanking, cover, steps) and the numbers and words of its
//! combat rules.

use super::{FlankingRule, RulesVariant};
use crate::grid::{Metric, Shape};
use serde::Deserialize;
use std::sync::OnceLock;

include!(concat!(env!("OUT_DIR"), "/variant_numbers.rs"));

/// The grid rules of a variant: what the pure functions of `rules` (threat, reach,
/// flanking, cover, movement) need to know of it.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GridRules {
    pub shape: Shape,
    /// How ranges and reach are measured.
    pub range_metric: Metric,
    /// How movement is counted.
    pub move_metric: Metric,
    /// Exactly 10 ft of reach also threatens two diagonals away.
    pub diagonal_reach_exception: bool,
    /// A Small creature with a reach weapon loses the corners of its reach.
    #[serde(default)]
    pub small_reach_loses_corners: bool,
    /// A creature untrained with its weapon threatens nothing.
    #[serde(default)]
    pub untrained_threaten_nothing: bool,
    pub flanking: FlankingRule,
    /// A move action covers the speed divided by this (1: all of it).
    #[serde(default = "one")]
    pub move_action_divisor: u32,
    /// The short step that does not provoke.
    pub step: StepRule,
    /// What cover does to an attack.
    pub cover: CoverRule,
    /// A foe with (hard) cover from a threatening creature draws no attack of opportunity
    /// from it.
    #[serde(default)]
    pub cover_stops_opportunity: bool,
}

/// The short step that does not provoke attacks of opportunity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepRule {
    /// How far it goes.
    pub feet: u32,
    /// It may be taken in melee (a threatened square).
    pub in_melee: bool,
    /// It may go over several squares and through difficult ground (otherwise one clear
    /// square).
    pub any_path: bool,
}

/// What cover does to an attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum CoverRule {
    /// Cover gives `cover` to defence; soft cover (creatures in the way) gives `soft_ranged`
    /// against ranged attacks only.
    Bonus { cover: i32, soft_ranged: i32 },
    /// Only a creature or a low wall in the way (no wall) gives `low_cover`; any other
    /// cover means the target cannot be attacked.
    NoTargetingPastWalls { low_cover: i32 },
    /// Graded by the share of the target's corners blocked (25 % 2, 50 % 4, 75 % or more
    /// 7); over half breaks line of effect.
    ByCorners,
}

/// The die an attack roll uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackDie {
    /// d20; with `naturals`, a 20 always hits and a 1 always misses.
    D20 { naturals: bool },
    /// 3d6, roll high.
    ThreeD6,
}

/// How criticals work in a variant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub enum Criticals {
    /// No critical hits.
    #[default]
    None,
    /// A threat is a critical: the dice are multiplied, flat bonuses added once
    /// (four-actions).
    OnThreat,
    /// A threat is confirmed by a second roll that would hit; dice and flat bonuses are
    /// multiplied (d20-classic, ap-phases).
    Confirmed,
}

/// What dropping to 0 hit points or fewer makes of a fighter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub enum Dropped {
    /// Unconscious, not dying (hex-phases).
    #[default]
    Unconscious,
    /// Dying below 0 hit points, unconscious at 0 (ap-phases, four-actions).
    DyingBelowZero,
    /// Dying (d20-classic, osr-segments).
    Dying,
}

/// Where death lies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub enum DeathAt {
    /// At −10 hit points (osr-segments, hex-phases).
    #[default]
    NegativeTen,
    /// At the negative of the Constitution score (ap-phases, four-actions).
    NegativeConstitution,
    /// At the third failed death save (d20-classic).
    ThreeFailedSaves,
}

impl DeathAt {
    /// A fighter at `hp` hit points, of Constitution score `con`, with `failed_saves`
    /// death saves failed, is past the point of death.
    pub fn reached(self, hp: i32, con: i32, failed_saves: u32) -> bool {
        match self {
            DeathAt::NegativeTen => hp <= -10,
            DeathAt::NegativeConstitution => hp <= -con,
            DeathAt::ThreeFailedSaves => failed_saves >= 3,
        }
    }
}

/// How many attacks a full attack holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub enum FullAttack {
    #[default]
    One,
    /// +11/+6/+1: one more attack for every full 5 of base attack bonus past +0, at most
    /// four (d20-classic).
    Iterative,
}

impl FullAttack {
    /// The attacks in a full attack at base attack bonus `base_attack`.
    pub fn attacks(self, base_attack: i32) -> u32 {
        match self {
            FullAttack::One => 1,
            FullAttack::Iterative => (1 + (base_attack - 1).max(0) / 5).clamp(1, 4) as u32,
        }
    }
}

/// How far a successful shove pushes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub enum ShoveDistance {
    /// 5 ft, and 5 more for every 5 the check won by.
    #[default]
    ByMargin,
    /// "A success moves both the pusher and the target up to half speed" (four-actions):
    /// half the pusher's speed, in whole squares.
    HalfSpeed,
}

impl ShoveDistance {
    /// How far a pusher of speed `speed_ft` whose check won by `margin` pushes, in feet.
    pub fn feet(self, speed_ft: u32, margin: i32) -> u32 {
        match self {
            ShoveDistance::ByMargin => 5 * (1 + margin.max(0) as u32 / 5),
            ShoveDistance::HalfSpeed => speed_ft / 2 / 5 * 5,
        }
    }
}

/// What casting a spell takes from the caster's spells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub enum SpellCost {
    /// One slot.
    #[default]
    Slot,
    /// Spell Quantity equal to the Spell Order (four-actions).
    SpellOrder,
}

impl SpellCost {
    /// What a spell of level (order) `level` costs.
    pub fn of(self, level: u32) -> u32 {
        match self {
            SpellCost::Slot => 1,
            SpellCost::SpellOrder => level,
        }
    }
}

/// What a variant's source settles by choosing between ways, not by a formula: whether it
/// has a rule at all, and which kind. The rules read these; their formulas live in code.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RuleChoices {
    /// The aware act in a surprise round (or phase) before the first.
    pub surprise_round: bool,
    /// Each round opens with declared intentions.
    pub declarations: bool,
    /// A spell may be cast defensively (a concentration check instead of provoking).
    pub defensive_casting: bool,
    /// A fighter may abort to a defensive action before its turn.
    pub aborting: bool,
    /// Grapples and escapes.
    pub grapples: bool,
    /// What dropping to 0 hit points or fewer makes of a fighter.
    pub dropped: Dropped,
    /// Where death lies.
    pub death: DeathAt,
    /// Healing a fighter below 0 hit points counts up from 0 (the dying are "at 0 HP"
    /// whatever the blow), rather than from where it is.
    pub healed_from_zero: bool,
    pub criticals: Criticals,
    /// A full attack is one attack, or iterative attacks by base attack bonus.
    pub full_attack: FullAttack,
    /// How far a successful shove pushes.
    pub shove: ShoveDistance,
    /// A successful shove moves the pusher after its target.
    pub pusher_follows: bool,
    /// Trying a combat maneuver draws an attack of opportunity from its target first.
    pub maneuvers_provoke_target: bool,
    /// What casting a spell takes from the caster's spells.
    pub spell_cost: SpellCost,
    /// A charge is declared now and run at its completion (an advanced action).
    pub charge_completes_later: bool,
    pub attack_die: AttackDie,
}

impl Default for RuleChoices {
    fn default() -> Self {
        RuleChoices {
            surprise_round: true,
            declarations: false,
            defensive_casting: false,
            aborting: false,
            grapples: false,
            dropped: Dropped::Unconscious,
            death: DeathAt::NegativeTen,
            healed_from_zero: false,
            criticals: Criticals::None,
            full_attack: FullAttack::One,
            shove: ShoveDistance::ByMargin,
            pusher_follows: false,
            maneuvers_provoke_target: false,
            spell_cost: SpellCost::Slot,
            charge_completes_later: false,
            attack_die: AttackDie::D20 { naturals: true },
        }
    }
}

/// What the tactical AI should know of a variant's options.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AiHints {
    /// A full attack (iterative attacks) beats a single one when both are possible.
    pub full_attack: bool,
    /// A charge pays when the foe is beyond a move and an attack.
    pub charge_from_afar: bool,
    /// Coup de grace and first aid are worth their AP when nobody threatens the actor.
    pub complex_actions: bool,
    /// A phase holds two move actions: a second move that ends short of striking is
    /// better not made.
    pub second_move_may_wait: bool,
    /// The side acts as one group (group initiative): a hold one of its units chooses
    /// before the fight begins, the rest of the side keeps that round, and the hold is
    /// weighed with the allies holding too.
    pub side_holds_together: bool,
}

fn one() -> u32 {
    1
}

/// Acts that provoke attacks of opportunity from every threatening foe, where a variant
/// says so.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Provoking {
    /// Standing up from prone.
    StandingUp,
    /// Loading a crossbow (or a gun).
    Reloading,
    /// Making a ranged attack.
    Firing,
    /// Casting a spell, unless cast defensively.
    Casting,
}

/// Numbers a variant's rules use, from `assets/rules/<id>.ron`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantNumbers {
    /// One line on what sets the variant apart (its action economy and dice), for menus.
    pub summary: String,
    /// How long a round (hex-phases: a turn) lasts in the story, in seconds.
    pub round_seconds: u32,
    /// What an attack roll's target number is, in the log's words ("AC", "10 + DCV").
    #[serde(default = "armor_class")]
    pub attack_target: String,
    /// What cover is called as a term of the attack roll ("cover", "partial cover (+2
    /// DCV)").
    #[serde(default = "cover")]
    pub cover_term: String,
    /// What the shared rules core reads: geometry, reach, flanking, cover, movement.
    pub grid: GridRules,
    /// What the tactical AI should know of this variant's options.
    #[serde(default)]
    pub ai: AiHints,
    /// What its source settles by a choice between ways.
    #[serde(default)]
    pub rules: RuleChoices,
    /// Attack bonus for flanking (0 where flanking works otherwise).
    pub flanking: i32,
    pub charge_attack: i32,
    pub charge_damage: i32,
    pub charge_damage_two_handed: i32,
    /// AC (DCV) change while charging, until the next turn.
    pub charge_defense: i32,
    /// The defensive action: its name and bonus.
    pub defensive_action: (String, i32),
    pub secondary_attack: i32,
    pub tertiary_attack: i32,
    /// Per iterative attack after the first.
    pub iterative_step: i32,
    /// Per attack action after the first in a round.
    pub attack_action_step: i32,
    /// What the defensive action gives, after its bonus, in the log's words.
    #[serde(default)]
    pub defensive_lasts: String,
    /// The short step that does not provoke, in the log's words.
    #[serde(default = "five_foot_step")]
    pub step_name: String,
    /// What a foe sees a mover do when it leaves a threatened square, in the log's words.
    #[serde(default = "moves_out")]
    pub leaving_trigger: String,
    /// An attack of opportunity, in the log's words.
    #[serde(default = "attack_of_opportunity")]
    pub opportunity_attack: String,
    /// A crossbow fires one bolt, even in a full attack, and then needs loading.
    #[serde(default = "yes")]
    pub one_shot_then_reload: bool,
    /// A charge's target cannot react to the charger.
    #[serde(default)]
    pub charge_target_cannot_react: bool,
    /// A charge ends in a full attack ("they can make their attacks").
    #[serde(default)]
    pub charge_full_attack: bool,
    /// What provokes attacks of opportunity besides leaving a threatened square.
    #[serde(default)]
    pub provoked_by: Vec<Provoking>,
    /// Attack and AC changes for fighting defensively.
    pub fighting_defensively: (i32, i32),
    /// AC and damage changes for fighting recklessly.
    pub reckless: (i32, i32),
    /// DCV gained by aborting to a dodge.
    pub abort_dodge: i32,
    /// Attack and damage change for fighting with a weapon one is not trained in (0 where
    /// training makes no difference).
    #[serde(default)]
    pub untrained_penalty: i32,
    /// The charge's attack bonus lasts until the end of the round for melee attacks on the
    /// foe charged (ap-phases); otherwise it is the charge's own attack only.
    #[serde(default)]
    pub charge_attack_lasts_round: bool,
    /// A grappled caster has no hand free for a spell's gestures (d20-classic,
    /// four-actions; ap-phases' source is silent, so its grappled may cast).
    #[serde(default)]
    pub grappled_cannot_cast: bool,
    /// Percent chance that a ranged attack on one of two creatures locked in a grapple goes
    /// to the other instead: read by the `shot_into_grapple` system before each attack,
    /// which only d20-classic's plugin adds (its source alone has the rule); elsewhere 0.
    #[serde(default)]
    pub grapple_miss_percent: u32,
}

fn armor_class() -> String {
    "AC".into()
}

fn cover() -> String {
    "cover".into()
}

fn five_foot_step() -> String {
    "5-ft step".into()
}

fn attack_of_opportunity() -> String {
    "attack of opportunity on".into()
}

fn yes() -> bool {
    true
}

fn moves_out() -> String {
    "moves out of a threatened square".into()
}

impl VariantNumbers {
    /// The damage bonus a charge's attacks get with a weapon held in `hands`.
    pub fn charge_damage_for(&self, hands: crate::level::Hands) -> i32 {
        match hands {
            crate::level::Hands::Two => self.charge_damage_two_handed,
            _ => self.charge_damage,
        }
    }
}

/// The numbers of a variant (parsed once from the embedded files), kept in the order of
/// `RulesVariant::ALL`, which is the enum's own order (checked by a test), so a variant's
/// discriminant is its index.
pub(super) fn numbers(v: RulesVariant) -> &'static VariantNumbers {
    static ALL: OnceLock<Vec<VariantNumbers>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        RulesVariant::ALL
            .iter()
            .map(|v| {
                let text = NUMBERS_FILES
                    .iter()
                    .find(|(id, _)| *id == v.id())
                    .map(|(_, text)| *text)
                    .unwrap_or_else(|| panic!("assets/rules/{}.ron is missing", v.id()));
                ron::from_str(text).unwrap_or_else(|e| panic!("assets/rules/{}.ron: {e}", v.id()))
            })
            .collect()
    });
    &all[v as usize]
}
