//! The tactical AI's portfolio: scripted behaviours, each a whole way of fighting for one
//! unit (close with the nearest foe, strike the foe the whole side can reach, focus the
//! weakest, take a flanking square, hold cover and shoot, kite out of reach, withdraw, wait
//! for the foes to come, keep a foe at a reach weapon's ring, guard a caster or the most
//! wounded, advance under cover from foe archers). Each gives the unit's next command from the
//! battle as it stands; the search (`tactical`) plays each out and keeps the best. They
//! read the rules as the game shows them: the movement range with the attacks of
//! opportunity each square costs (weighed by the damage each is expected to deal), the
//! threat map, flanking squares, cover and lines of fire. None but greedy's own line ends a
//! turn with its attack unspent: it holds the attack for the first foe to come, or, where
//! cover forbids striking the foes in reach, moves to a square with a clear line.

use super::{
    attack_position, best_approach, close_and_strike, first_things, foe_in_reach, foes_of, one_move,
    opportunity_damage, spell_to_cast, strike_at,
};
use crate::combat::Battle;
use crate::combat::command::Command;
use crate::grid::{Footprint, GridPos};
use crate::rules::{self, AttackReach, RulesView};

/// One way of fighting, for one unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Behaviour {
    /// Close with the nearest foe and strike the weakest in reach (the greedy AI).
    Greedy,
    /// Go for the foe closest to dropping, even past a nearer one.
    FocusFire,
    /// Take a square that flanks a foe an ally already threatens.
    FlankPartner,
    /// Ranged: shoot from a square no foe threatens, with the most cover from foe archers.
    HoldCover,
    /// Ranged: out of every foe's reach first (a step where the variant has one), then shoot.
    Kite,
    /// In a fight it is losing (a third of its hit points left, or fewer standing on its side
    /// than against it): fall back as far from the foes as a move takes it, drawing as few
    /// attacks as it can.
    Withdraw,
    /// Strike the foe the side can bring the most blows on this turn (the weakest of those),
    /// every unit of the side choosing the same one: a foe beaten by three at once falls
    /// before it has struck back much.
    Concentrate,
    /// Wait where it stands for the foes to come (they walk into its side's reach and it
    /// strikes first, with an attack held for them where the variant has one), while the
    /// fight has not begun: no unit of its side engaged.
    Hold,
    /// Reach (a glaive, a longspear, which cannot strike a foe beside it): with a foe too
    /// close, step back to where a foe stands in its reach ring, rather than walk off drawing
    /// attacks or stand there useless.
    KeepReach,
    /// Shield the side's most exposed ally (a caster, else the most wounded, at half its hit
    /// points or less): strike, or close on, the foe nearest to it.
    Guard,
    /// Melee, with foe shooters about and no strike to be had: close in by the square with
    /// the most cover from them, rather than across their open lines.
    CoveredAdvance,
}

impl Behaviour {
    /// Every behaviour, in the order ties are broken.
    pub const ALL: [Behaviour; 11] = [
        Behaviour::Greedy,
        Behaviour::Concentrate,
        Behaviour::FocusFire,
        Behaviour::FlankPartner,
        Behaviour::HoldCover,
        Behaviour::Kite,
        Behaviour::Withdraw,
        Behaviour::Hold,
        Behaviour::KeepReach,
        Behaviour::Guard,
        Behaviour::CoveredAdvance,
    ];

    /// Its name on the command line (`script:NAME`).
    pub fn id(self) -> &'static str {
        match self {
            Behaviour::Greedy => "greedy",
            Behaviour::FocusFire => "focus-fire",
            Behaviour::FlankPartner => "flank",
            Behaviour::HoldCover => "hold-cover",
            Behaviour::Kite => "kite",
            Behaviour::Withdraw => "withdraw",
            Behaviour::Hold => "hold",
            Behaviour::Concentrate => "concentrate",
            Behaviour::KeepReach => "keep-reach",
            Behaviour::Guard => "guard",
            Behaviour::CoveredAdvance => "covered-advance",
        }
    }

    /// Its name in a decision's reason.
    pub fn name(self) -> &'static str {
        match self {
            Behaviour::Greedy => "close and strike",
            Behaviour::FocusFire => "focus fire",
            Behaviour::FlankPartner => "flank",
            Behaviour::HoldCover => "hold cover",
            Behaviour::Kite => "kite",
            Behaviour::Withdraw => "withdraw",
            Behaviour::Hold => "hold",
            Behaviour::Concentrate => "concentrate",
            Behaviour::KeepReach => "keep at reach",
            Behaviour::Guard => "guard",
            Behaviour::CoveredAdvance => "advance under cover",
        }
    }

    /// The next command of `actor` under this behaviour.
    /// Close and strike is the greedy AI's own line: no move of its own before it.
    pub fn command(self, b: &Battle, actor: usize) -> Command {
        if let Some(first) = first_things(b, actor) {
            return first;
        }
        let foes = foes_of(b, actor);
        if foes.is_empty() {
            return Command::EndTurn;
        }
        let ranged = b.fighters.wielded[actor].def.is_ranged();
        let moved = match self {
            Behaviour::Withdraw if losing(b, actor) => return withdraw(b, actor, &foes),
            Behaviour::FocusFire => focus_fire(b, actor, &foes),
            Behaviour::Concentrate => concentrate(b, actor, &foes),
            Behaviour::FlankPartner if !ranged => flank(b, actor),
            Behaviour::HoldCover if ranged => hold_cover(b, actor, &foes),
            Behaviour::Kite if ranged => kite(b, actor, &foes),
            Behaviour::Hold if !ranged => hold(b, actor, &foes),
            Behaviour::KeepReach if !ranged => keep_reach(b, actor, &foes),
            Behaviour::Guard if !ranged => guard(b, actor, &foes),
            Behaviour::CoveredAdvance if !ranged => covered_advance(b, actor, &foes),
            _ => None,
        };
        if let Some(cmd) = moved {
            return cmd;
        }
        if let Some(cast) = spell_to_cast(b, actor) {
            return cast;
        }
        match close_and_strike(b, actor, &foes) {
            // A line other than greedy's own does not end a turn with its attack unspent: with
            // no foe in reach it holds the attack for the first foe that comes; with foes in
            // reach that cover shields from being struck, it goes where one can be. (With a
            // foe in reach and no cover in the way it is waiting for its attack phase,
            // ap-phases, whose readied action forfeits the rest of the round.)
            Command::EndTurn if self != Behaviour::Greedy => {
                let next = if foe_in_reach(b, actor, &foes) { clear_line(b, actor, &foes) } else { ready(b) };
                next.unwrap_or(Command::EndTurn)
            }
            command => command,
        }
    }
}

/// Whether `actor`, standing on `fp`, has one of `foes` in its reach with nothing to stop
/// it being struck there (four-actions: "creatures with cover cannot be targeted", so an
/// ally between them shields the foe from a spear's thrust).
fn strikable_from(b: &Battle, view: &RulesView, actor: usize, foes: &[usize], fp: Footprint) -> bool {
    let Some(band) = b.reach_band(b.fighters.at(actor)) else { return false };
    foes.iter().any(|&t| {
        let tf = b.fighters.at(t).footprint();
        let reach = AttackReach::melee(b.variant, fp, tf);
        tf.cells().any(|c| band.covers(b.variant, fp, c))
            && rules::cover::cover_at(view.field, view.occupancy, (actor, fp), (t, tf), reach, false).can_target
    })
}

/// With foes in reach that cannot be struck from here (each behind cover that forbids it),
/// the way to a square from which one can; none if one can be struck from here (the strike
/// waits for something else).
fn clear_line(b: &Battle, actor: usize, foes: &[usize]) -> Option<Command> {
    let here = b.fighters.at(actor).footprint();
    if b.fighters.wielded[actor].def.is_ranged() || strikable_from(b, &b.view(), actor, foes, here) {
        return None;
    }
    step_or_move_to(b, actor, |view, fp| strikable_from(b, view, actor, foes, fp))
}

/// A step to a square whose footprint passes `wanted` (it draws no attack), else the move
/// there drawing the least expected damage, then the cheapest.
fn step_or_move_to(b: &Battle, actor: usize, wanted: impl Fn(&RulesView, Footprint) -> bool) -> Option<Command> {
    if let Some(step) = step_to(b, actor, &wanted) {
        return Some(step);
    }
    let side = b.fighters.body[actor].size.side();
    let view = b.view();
    let mut scored: Vec<((u32, u32), GridPos)> = reachable(b, actor)
        .iter()
        .filter(|r| wanted(&view, Footprint::new(r.to, side)))
        .map(|r| ((r.drawn, r.cost), r.to))
        .collect();
    scored.sort();
    first_valid_move(b, scored.into_iter().map(|(_, p)| p))
}

/// An attack held for the first foe to come into reach (d20-classic's readied attack,
/// four-actions' and hex-phases' held attack, ap-phases' readied action), where the variant
/// has one and the acting unit's attack is unspent.
fn ready(b: &Battle) -> Option<Command> {
    let hold = Command::Hold { target: None };
    b.allows(&hold).then_some(hold)
}

/// The units of `actor`'s side still in the fight, itself among them, in id order.
pub(super) fn side_in_fight<'b>(b: &'b Battle, actor: usize) -> impl Iterator<Item = usize> + 'b {
    let side = &b.fighters.side[actor];
    (0..b.fighters.len()).filter(move |&a| b.fighters.side[a] == *side && b.fighters.conditions[a].in_fight())
}

/// Whether `actor` is in a fight it is losing: down to a third of its hit points, or its
/// side has fewer units standing than its foes have.
fn losing(b: &Battle, actor: usize) -> bool {
    let h = b.fighters.health[actor];
    let side = &b.fighters.side[actor];
    let (ours, theirs) = b
        .fighters
        .iter()
        .filter(|f| f.in_fight())
        .fold((0, 0), |(o, t), f| if f.side() == side { (o + 1, t) } else { (o, t + 1) });
    h.hp * 3 <= h.max || ours < theirs
}

/// A square of the actor's move this opportunity, with its cost and what the attacks of
/// opportunity the cheapest way there draws are expected to deal.
struct Reachable {
    to: GridPos,
    cost: u32,
    /// The expected damage of the attacks drawn, in tenths of a hit point: a path past a
    /// goblin's dagger weighs less than one past an ogre's club.
    drawn: u32,
}

/// Where a move can take the actor now (nothing when no move is left).
fn reachable(b: &Battle, actor: usize) -> Vec<Reachable> {
    let here = b.fighters.position[actor].0;
    if b.affordable(&Command::Move { to: here }).is_err() {
        return vec![];
    }
    let view = b.view();
    let mut blow: Vec<Option<u32>> = vec![None; b.fighters.len()];
    let mut drawn = |by: rules::UnitMask| -> u32 {
        let tenths = |foe| (opportunity_damage(b, foe, actor).unwrap_or(0.0) * 10.0).round() as u32;
        rules::roster::indices(by).map(|foe| *blow[foe].get_or_insert_with(|| tenths(foe))).sum()
    };
    one_move(b, actor)
        .destinations_provoking(&view)
        .into_iter()
        .map(|(to, cost, by)| Reachable { to, cost, drawn: drawn(by) })
        .collect()
}

/// Whether a foe of `actor` threatens `fp` (as the threat map stands).
fn threatened(view: &RulesView, actor: usize, fp: Footprint) -> bool {
    view.threat.threateners_of(fp) & view.roster.foes_of(actor) != 0
}

/// The first of `squares`' moves that the rules accept, best first.
fn first_valid_move(b: &Battle, squares: impl IntoIterator<Item = GridPos>) -> Option<Command> {
    squares.into_iter().map(|to| Command::Move { to }).find(|m| b.allows(m))
}

/// Strike the weakest foe there is if it can be struck now (a shooter's shot as well as a
/// blow); failing that, with no foe in reach, close on it; else the common strike.
fn focus_fire(b: &Battle, actor: usize, foes: &[usize]) -> Option<Command> {
    let weakest = foes.iter().copied().min_by_key(|&t| (b.fighters.health[t].hp, t))?;
    go_for(b, actor, foes, weakest, false)
}

/// The foe the side of `actor` should all strike: the one the most of its units in the fight
/// could strike this turn (within a move and a reach, or any for a shooter), then the one
/// with the fewest hit points, then the first by id. Every unit of the side works it out
/// alike from the battle as it stands.
fn side_target(b: &Battle, actor: usize, foes: &[usize]) -> Option<usize> {
    let metric = b.variant.range_metric();
    let ours: Vec<usize> = side_in_fight(b, actor).collect();
    foes.iter()
        .map(|&t| {
            let tf = b.fighters.at(t).footprint();
            let strikers = ours
                .iter()
                .filter(|&&a| {
                    let f = b.fighters.at(a);
                    if f.wielded().def.is_ranged() {
                        return true;
                    }
                    let reach = b.reach_band(f).map_or(5, |band| band.max_ft);
                    metric.footprint_ft(f.footprint(), tf) <= b.variant.move_action_ft(f.stats().def.speed_ft) + reach
                })
                .count();
            (std::cmp::Reverse(strikers), b.fighters.health[t].hp, t)
        })
        .min()
        .map(|(_, _, t)| t)
}

/// Strike the side's target if it is in reach; close with it (by a charge where the variant
/// charges from afar) if no foe is; else (another foe in reach) the common strike.
fn concentrate(b: &Battle, actor: usize, foes: &[usize]) -> Option<Command> {
    go_for(b, actor, foes, side_target(b, actor, foes)?, true)
}

/// Strike `target` if it is in reach. Else, with another foe in reach, none (the common
/// strike, or waiting there for the next: it does not walk off a fight), nor with no move
/// left; else close with `target`, by a charge if `may_charge` and the variant charges from
/// afar.
fn go_for(b: &Battle, actor: usize, foes: &[usize], target: usize, may_charge: bool) -> Option<Command> {
    if let Some(strike) = strike_at(b, target) {
        return Some(strike);
    }
    if foe_in_reach(b, actor, foes) {
        return None;
    }
    let here = b.fighters.position[actor].0;
    if b.affordable(&Command::Move { to: here }).is_err() {
        return None;
    }
    if may_charge && b.variant.numbers().ai.charge_from_afar && !b.fighters.wielded[actor].def.is_ranged() {
        let charge = Command::Charge { target: b.fighters.combatant[target].id.clone() };
        if b.allows(&charge) {
            return Some(charge);
        }
    }
    best_approach(b, actor, &[target]).and_then(|to| first_valid_move(b, [to]))
}

/// Step, or else move, to a square that flanks a foe in the fight an ally already
/// threatens (the move whose attacks of opportunity are expected to deal the least, then
/// the cheapest); none when it already flanks one. A foe down already is no one to flank:
/// going round it wastes a turn.
fn flank(b: &Battle, actor: usize) -> Option<Command> {
    let squares = {
        let view = b.view();
        let foes = foes_of(b, actor);
        if foes.iter().any(|&t| rules::flanking(&view, actor, t).flanking) {
            return None;
        }
        let mut squares = rules::flanking_squares(&view, actor);
        squares.retain(|(_, foe)| foes.contains(foe));
        squares
    };
    if squares.is_empty() {
        return None;
    }
    // A step where the variant has one (it draws no attack of opportunity), else a move.
    let steps = squares.iter().map(|&(to, _)| Command::Step { to });
    if let Some(step) = steps.into_iter().find(|s| b.allows(s)) {
        return Some(step);
    }
    let mut options: Vec<(u32, u32, GridPos)> = reachable(b, actor)
        .into_iter()
        .filter(|r| squares.iter().any(|(p, _)| *p == r.to))
        .map(|r| (r.drawn, r.cost, r.to))
        .collect();
    options.sort();
    first_valid_move(b, options.into_iter().map(|(_, _, p)| p))
}

/// The cover bonus the actor would have on `fp` against the foe archers' shots, summed.
fn cover_from_archers(b: &Battle, view: &RulesView, actor: usize, fp: Footprint, foes: &[usize]) -> i32 {
    foes.iter()
        .filter(|&&t| b.fighters.wielded[t].def.is_ranged())
        .map(|&t| {
            let tf = b.fighters.at(t).footprint();
            let c =
                rules::cover::cover_at(view.field, view.occupancy, (t, tf), (actor, fp), AttackReach::Ranged, false);
            if c.can_target { c.ac_bonus } else { 10 }
        })
        .sum()
}

/// Ranged: move to a square no foe threatens from which it can shoot, with the most cover
/// from the foe archers, then the least damage the attacks it draws are expected to deal,
/// then the cheapest. Where it stands already will do (it stays and shoots) if no foe
/// threatens it there, it can shoot from there, and it has moved this turn already or no
/// square it reaches without risking an attack has more cover.
fn hold_cover(b: &Battle, actor: usize, foes: &[usize]) -> Option<Command> {
    let here = b.fighters.at(actor).footprint();
    let settled = !threatened(&b.view(), actor, here) && attack_position(b, &b.view(), actor, foes, here);
    // Moved once already: it shoots from where it came to rather than move on for more
    // cover and give up the shot.
    if settled && b.budget().moves_taken() >= 1 {
        return None;
    }
    let here_cover = cover_from_archers(b, &b.view(), actor, here, foes);
    let options = reachable(b, actor);
    let view = b.view();
    let side = b.fighters.body[actor].size.side();
    let mut scored: Vec<((i32, u32, u32), GridPos)> = options
        .iter()
        .filter(|r| !settled || r.drawn == 0)
        .filter_map(|r| {
            let fp = Footprint::new(r.to, side);
            let fit = !threatened(&view, actor, fp) && attack_position(b, &view, actor, foes, fp);
            fit.then(|| ((-cover_from_archers(b, &view, actor, fp, foes), r.drawn, r.cost), r.to))
        })
        .collect();
    scored.sort();
    if settled && scored.first().is_none_or(|((cover, ..), _)| -cover <= here_cover) {
        return None;
    }
    first_valid_move(b, scored.into_iter().map(|(_, p)| p))
}

/// Ranged: when a foe threatens it, get out of every foe's reach: a step where the variant
/// has one (it draws no attack), else the square whose attacks drawn are expected to deal
/// the least, one it can shoot from if any.
fn kite(b: &Battle, actor: usize, foes: &[usize]) -> Option<Command> {
    let (here, side) = (b.fighters.at(actor).footprint(), b.fighters.body[actor].size.side());
    if !threatened(&b.view(), actor, here) {
        return None;
    }
    if let Some(step) = step_out(b, actor) {
        return Some(step);
    }
    let options = reachable(b, actor);
    let view = b.view();
    // The least damage drawn first; of those, a square it can shoot from; then the cheapest.
    let mut scored: Vec<((u32, bool, u32), GridPos)> = options
        .iter()
        .filter(|r| !threatened(&view, actor, Footprint::new(r.to, side)))
        .map(|r| ((r.drawn, !attack_position(b, &view, actor, foes, Footprint::new(r.to, side)), r.cost), r.to))
        .collect();
    scored.sort();
    first_valid_move(b, scored.into_iter().map(|(_, p)| p))
}

/// A step (where the variant has one it may take now: it draws no attack) to a square no
/// foe threatens, when one threatens it where it stands.
fn step_out(b: &Battle, actor: usize) -> Option<Command> {
    if !threatened(&b.view(), actor, b.fighters.at(actor).footprint()) {
        return None;
    }
    step_to(b, actor, |view, fp| !threatened(view, actor, fp))
}

/// The first step (where the variant has one it may take now) to a square around `actor`
/// where its footprint passes `wanted`.
fn step_to(b: &Battle, actor: usize, wanted: impl Fn(&RulesView, Footprint) -> bool) -> Option<Command> {
    let (o, side) = (b.fighters.position[actor].0, b.fighters.body[actor].size.side());
    let steps: Vec<GridPos> = {
        let view = b.view();
        (-1..=1)
            .flat_map(|dy| (-1..=1).map(move |dx| GridPos::new(o.x + dx, o.y + dy)))
            .filter(|&p| p != o && wanted(&view, Footprint::new(p, side)))
            .collect()
    };
    steps.into_iter().map(|to| Command::Step { to }).find(|s| b.allows(s))
}

/// Fall back: out of every foe's reach by a step where one will do (it draws no attack);
/// else the square of its move drawing the least expected damage, then farthest from the
/// nearest foe; with no move left, fight on defensively where the variant allows, else end.
fn withdraw(b: &Battle, actor: usize, foes: &[usize]) -> Command {
    if let Some(step) = step_out(b, actor) {
        return step;
    }
    let options = reachable(b, actor);
    let side = b.fighters.body[actor].size.side();
    let nearest = |fp: Footprint| nearest_foe_ft(b, foes, fp);
    let now = nearest(b.fighters.at(actor).footprint());
    let mut scored: Vec<((u32, std::cmp::Reverse<u32>, u32), GridPos)> = options
        .iter()
        .map(|r| ((r.drawn, std::cmp::Reverse(nearest(Footprint::new(r.to, side))), r.cost), r.to))
        .filter(|((_, std::cmp::Reverse(d), _), _)| *d > now)
        .collect();
    scored.sort();
    if let Some(m) = first_valid_move(b, scored.into_iter().map(|(_, p)| p)) {
        return m;
    }
    if b.allows(&Command::Defend) {
        return Command::Defend;
    }
    Command::EndTurn
}

/// Wait for the foes: end the turn while the fight has not begun (no unit of its side
/// threatens a foe or stands where a foe threatens it), so the foes walk into its side's
/// reach and it strikes first; once anyone is engaged, the behaviour closes and strikes.
fn hold(b: &Battle, actor: usize, foes: &[usize]) -> Option<Command> {
    let side: Vec<usize> = side_in_fight(b, actor).collect();
    let engaged =
        side.into_iter().any(|a| threatened(&b.view(), a, b.fighters.at(a).footprint()) || foe_in_reach(b, a, foes));
    (!engaged).then(|| ready(b).unwrap_or(Command::EndTurn))
}

/// The hold's wait for `actor` now, if it would wait: a melee unit with nothing to do
/// first, none of its side engaged (see `hold`). None for a shooter, which shoots.
pub(super) fn hold_wait(b: &Battle, actor: usize) -> Option<Command> {
    if first_things(b, actor).is_some() || b.fighters.wielded[actor].def.is_ranged() {
        return None;
    }
    let foes = foes_of(b, actor);
    hold(b, actor, &foes)
}

/// Reach: when a foe stands too close to strike (inside the reach ring of a glaive or a
/// longspear) and none is in its reach, a step (where the variant has one: it draws no
/// attack) to a square from which it can strike; else the move to such a square drawing the
/// least expected damage. None otherwise: the common strike, or closing.
fn keep_reach(b: &Battle, actor: usize, foes: &[usize]) -> Option<Command> {
    let me = b.fighters.at(actor);
    let inner = b.reach_band(me)?.inner_ft?;
    if nearest_foe_ft(b, foes, me.footprint()) > inner || foe_in_reach(b, actor, foes) {
        return None;
    }
    step_or_move_to(b, actor, |view, fp| attack_position(b, view, actor, foes, fp))
}

/// The ally of `actor`'s side most in need of a shield: a caster first, else the most
/// wounded at half its hit points or less (the fewest hit points, then the first by id);
/// none if no ally is either.
fn ward(b: &Battle, actor: usize) -> Option<usize> {
    side_in_fight(b, actor)
        .filter(|&a| a != actor)
        .filter_map(|a| {
            let h = b.fighters.health[a];
            let caster = b.fighters.stats[a].def.spellcasting.is_some() && b.fighters.spells[a].left > 0;
            (caster || h.hp * 2 <= h.max).then_some((!caster, h.hp, a))
        })
        .min()
        .map(|(_, _, a)| a)
}

/// Strike the foe nearest the side's most exposed ally, or close on it; none when no ally
/// needs a shield, and none (the common strike) when another foe is in reach: it does not
/// walk off a fight.
fn guard(b: &Battle, actor: usize, foes: &[usize]) -> Option<Command> {
    let ward = ward(b, actor)?;
    let metric = b.variant.range_metric();
    let wf = b.fighters.at(ward).footprint();
    let menace = foes.iter().copied().min_by_key(|&t| (metric.footprint_ft(wf, b.fighters.at(t).footprint()), t))?;
    go_for(b, actor, foes, menace, false)
}

/// Melee, with foe shooters about, no foe in reach and a move left: of the squares of its
/// move that bring it nearer its nearest foe, the one with the most cover from the foe
/// shooters, then the least damage drawn, then the nearest the foe. None when no foe
/// shoots.
fn covered_advance(b: &Battle, actor: usize, foes: &[usize]) -> Option<Command> {
    if !foes.iter().any(|&t| b.fighters.wielded[t].def.is_ranged()) || foe_in_reach(b, actor, foes) {
        return None;
    }
    let side = b.fighters.body[actor].size.side();
    let nearest = |fp: Footprint| nearest_foe_ft(b, foes, fp);
    let now = nearest(b.fighters.at(actor).footprint());
    let options = reachable(b, actor);
    let view = b.view();
    let mut scored: Vec<((i32, u32, u32), GridPos)> = options
        .iter()
        .filter_map(|r| {
            let fp = Footprint::new(r.to, side);
            let d = nearest(fp);
            (d < now).then(|| ((-cover_from_archers(b, &view, actor, fp, foes), r.drawn, d), r.to))
        })
        .collect();
    scored.sort();
    first_valid_move(b, scored.into_iter().map(|(_, p)| p))
}

/// How far the nearest of `foes` is from `fp`, in feet (`u32::MAX` for none).
fn nearest_foe_ft(b: &Battle, foes: &[usize], fp: Footprint) -> u32 {
    let metric = b.variant.range_metric();
    foes.iter().map(|&t| metric.footprint_ft(fp, b.fighters.at(t).footprint())).min().unwrap_or(u32::MAX)
}
