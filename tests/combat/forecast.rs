//! The forecast of an attack (its chance to hit, to land a critical, and its expected
//! damage, worked out from the attack rules' own numbers) against the strikes the engine
//! rolls, and the comparison's curves against `query attack`.

use super::*;
use fivefoot::combat::attack::Forecast;
use fivefoot::compare::VariantSpec;
use fivefoot::compare::curves::attack_curves;

/// A fighter beside an ogre, with room around.
fn duel(variant: RulesVariant) -> Level {
    let units =
        vec![common::unit("fighter", "blue", (2, 2), "human_fighter"), common::unit("ogre", "red", (3, 2), "ogre")];
    common::level(&common::open_rows(8, 6), units, variant)
}

/// What `n` strikes of the fighter on the ogre came to, each from the same start with dice
/// of their own: hits, criticals, damage in all.
fn sample(variant: RulesVariant, n: u64) -> (Forecast, f64, f64, f64) {
    let cat = Catalogue::builtin();
    let mut b = BattleWorld::new(&duel(variant), &cat, variant, 1, BattleOptions::default());
    let (a, t) = (b.index_of("fighter").unwrap(), b.index_of("ogre").unwrap());
    let attack = Command::Attack { target: "ogre".into() };
    // Until the fighter may strike (ap-phases: a longsword in the average phase).
    for _ in 0..40 {
        if b.actor() == Some(a) && b.validate(&attack).is_ok() {
            break;
        }
        b.execute(Command::EndTurn).unwrap();
    }
    assert!(b.actor() == Some(a) && b.validate(&attack).is_ok(), "{variant}: the fighter comes up");
    let forecast = b.attack_forecast(a, t, &AttackKind::Primary, &Default::default());
    let start = b.snapshot();
    let (mut hits, mut criticals, mut damage) = (0u64, 0u64, 0i64);
    for k in 0..n {
        b.restore(&start);
        b.reseed_dice_per_roller(10_000 + k, false);
        let from = b.events().len();
        b.execute(attack.clone()).unwrap();
        for e in &b.events()[from..] {
            match e {
                CombatEvent::Attack { attacker, hit: true, .. } if attacker == "fighter" => hits += 1,
                CombatEvent::Damage { attacker, total, dice, .. } if attacker == "fighter" => {
                    damage += i64::from(*total);
                    criticals += u64::from(dice.contains("critical"));
                }
                _ => {}
            }
        }
    }
    let n = n as f64;
    (forecast, hits as f64 / n, criticals as f64 / n, damage as f64 / n)
}

#[test]
fn the_forecast_is_what_the_engine_rolls_on_average() {
    for variant in RulesVariant::ALL {
        if variant == RulesVariant::OsrSegments {
            // Its fighters strike on intents declared for the round, in their group's
            // segment; its forecast rests on the same profile as the others', which the
            // curves' test checks against `query attack`.
            continue;
        }
        let n = 6000;
        let (forecast, hit, critical, damage) = sample(variant, n);
        assert!(forecast.profile.legal, "{variant}: {:?}", forecast.profile.reason);
        let odds = forecast.odds();
        // Within four standard errors (a hit is a coin of chance `odds.hit`; a blow's
        // damage spreads less than its largest critical).
        let se = |p: f64| 4.0 * (p * (1.0 - p) / n as f64).sqrt() + 1e-9;
        assert!((hit - odds.hit).abs() <= se(odds.hit), "{variant}: hit {hit} against {odds:?}");
        assert!(
            (critical - odds.critical).abs() <= se(odds.critical),
            "{variant}: critical {critical} against {odds:?}"
        );
        let most = f64::from(forecast.dice.0 * forecast.dice.1 * 3) + f64::from(forecast.flat.abs() * 3);
        let margin = 4.0 * most / (n as f64).sqrt();
        assert!(
            (damage - odds.expected_damage).abs() <= margin,
            "{variant}: damage {damage} per attack against {odds:?} (margin {margin})"
        );
    }
}

#[test]
fn the_curves_meet_query_attack_at_the_targets_own_defence() {
    let cat = Catalogue::builtin();
    let level = duel(RulesVariant::D20Classic);
    let curves = attack_curves(&level, &cat, &VariantSpec::all(), "fighter", "ogre").unwrap();
    assert_eq!(curves.len(), 5);
    for (curve, variant) in curves.iter().zip(RulesVariant::ALL) {
        assert_eq!(curve.spec, variant.to_string());
        let answer = fivefoot::query::attack_json(&level, &cat, variant, &[], "fighter", "ogre").unwrap();
        let answer: serde_json::Value = serde_json::from_str(&answer).unwrap();
        let at = |d: i32| curve.points.iter().find(|(x, _)| *x == d).unwrap().1;
        assert_eq!(at(0).hit, answer["hit_chance"].as_f64().unwrap(), "{variant}");
        assert_eq!(curve.target_number, answer["target_number"].as_i64().unwrap() as i32, "{variant}");
        // A harder defence is never easier to hit, nor does it let more damage through.
        for pair in curve.points.windows(2) {
            assert!(pair[1].1.hit <= pair[0].1.hit && pair[1].1.expected_damage <= pair[0].1.expected_damage + 1e-12);
        }
    }
    // Who is not there, or cannot be reached from anywhere, is said plainly.
    let err = attack_curves(&level, &cat, &VariantSpec::all(), "fighter", "dragon").unwrap_err();
    assert!(err.contains("no unit \"dragon\"") && err.contains("fighter, ogre"), "{err}");
}

/// The per-variant table sees the battle as it stands now: out of reach before the fighter
/// closes, in reach after; under the battle's own variant it answers as the battle does.
#[test]
fn the_table_of_variants_answers_for_the_battle_as_it_stands() {
    use fivefoot::compare::action::Mirrors;
    let cat = Catalogue::builtin();
    let units =
        vec![common::unit("fighter", "blue", (1, 2), "human_fighter"), common::unit("gob", "red", (4, 2), "goblin")];
    let level = common::level(&common::open_rows(8, 5), units, RulesVariant::D20Classic);
    let mut live = BattleWorld::new(&level, &cat, RulesVariant::D20Classic, 3, BattleOptions::default());
    let (a, t) = (live.index_of("fighter").unwrap(), live.index_of("gob").unwrap());
    let mut mirrors = Mirrors::new(&level, &cat, &[]);
    let rows = mirrors.attack(&live.read(), a, t);
    assert_eq!(rows.iter().map(|r| r.variant).collect::<Vec<_>>(), RulesVariant::ALL);
    assert!(rows.iter().all(|r| r.refused.is_some()), "out of reach under every variant: {rows:?}");

    while live.actor() != Some(a) {
        live.execute(Command::EndTurn).unwrap();
    }
    live.execute(Command::Move { to: GridPos::new(3, 2) }).unwrap();
    let rows = mirrors.attack(&live.read(), a, t);
    for row in &rows {
        assert!(row.refused.is_none(), "{}: in reach once it closed: {row:?}", row.variant);
        assert!(row.odds.unwrap().hit > 0.0 && row.provoked == 0, "{row:?}");
    }
    let own = rows.iter().find(|r| r.variant == RulesVariant::D20Classic).unwrap();
    assert_eq!(own.odds, Some(live.attack_forecast(a, t, &AttackKind::Primary, &Default::default()).odds()));
    // A stance the target took in this battle (a charge's −2 AC) counts in the battle's own
    // row, as in the breakdown; the other variants' rows do not take it.
    let before = rows.clone();
    live.scene().fighter::<fivefoot::combat::fighter::Bonuses>(t).defense.push(("charging".into(), -2));
    let charged = mirrors.attack(&live.read(), a, t);
    let own = charged.iter().find(|r| r.variant == RulesVariant::D20Classic).unwrap();
    assert_eq!(own.odds, Some(live.attack_forecast(a, t, &AttackKind::Primary, &Default::default()).odds()));
    assert!(own.odds.unwrap().hit > before[2].odds.unwrap().hit, "{own:?}");
    for (now, then) in charged.iter().zip(&before).filter(|(r, _)| r.variant != RulesVariant::D20Classic) {
        assert_eq!(now.odds, then.odds, "{}", now.variant);
    }
    live.scene().fighter::<fivefoot::combat::fighter::Bonuses>(t).defense.clear();
    // What the attack takes of a fresh turn, in each variant's words.
    let costs: Vec<(RulesVariant, &str)> = rows.iter().map(|r| (r.variant, r.cost.as_str())).collect();
    assert_eq!(
        costs,
        [
            (RulesVariant::ApPhases, "this phase's action (1 AP)"),
            (RulesVariant::FourActions, "standard"),
            (RulesVariant::D20Classic, "standard"),
            (RulesVariant::OsrSegments, "major action"),
            (RulesVariant::HexPhases, "attack"),
        ]
    );

    // Walking back out of the goblin's reach draws its attack of opportunity under d20-classic.
    let rows = mirrors.walk(&live.read(), a, GridPos::new(1, 2));
    let own = rows.iter().find(|r| r.variant == RulesVariant::D20Classic).unwrap();
    assert_eq!((own.feet, own.provoked), (Some(10), 1), "{own:?}");
    assert!(own.provoked_damage > 0.0);
    let costs: Vec<&str> = rows.iter().map(|r| r.cost.as_str()).collect();
    // d20-classic: a move forfeits the turn's 5-ft step too.
    assert_eq!(costs, ["this phase's action (1 AP)", "move", "move + 5-ft step", "major action", "move"]);
}

/// A charge aimed in play is tabled as each variant's charge: its attack from where that
/// variant's charge line ends, with the charge's bonuses, and what the charge costs; a
/// variant with no charge line from here says why.
#[test]
fn the_table_of_variants_answers_a_charge_from_where_each_charge_ends() {
    use fivefoot::compare::action::Mirrors;
    let cat = Catalogue::builtin();
    let units =
        vec![common::unit("fighter", "blue", (1, 2), "human_fighter"), common::unit("gob", "red", (6, 2), "goblin")];
    let level = common::level(&common::open_rows(9, 5), units, RulesVariant::D20Classic);
    let mut live = BattleWorld::new(&level, &cat, RulesVariant::D20Classic, 3, BattleOptions::default());
    let (a, t) = (live.index_of("fighter").unwrap(), live.index_of("gob").unwrap());
    while live.actor() != Some(a) {
        live.execute(Command::EndTurn).unwrap();
    }
    let mut mirrors = Mirrors::new(&level, &cat, &[]);
    let standing = mirrors.attack(&live.read(), a, t);
    assert!(standing.iter().all(|r| r.refused.is_some()), "25 ft away: no attack from here");
    let rows = mirrors.charge(&live.read(), a, t);
    let own = rows.iter().find(|r| r.variant == RulesVariant::D20Classic).unwrap();
    assert!(own.refused.is_none(), "{own:?}");
    // The preview's own forecast of the charge agrees.
    let plan = live.validate(&Command::Charge { target: "gob".into() });
    let charged = plan.expect("a charge line").attack.expect("its attack");
    assert_eq!(own.odds.unwrap().hit, charged.hit_chance, "{own:?}");
    // A full-round action: the standard and move actions, and the swift (its exception).
    assert_eq!(own.cost, "standard + move + swift", "{own:?}");
    // The charge's +2 damage (source 002): more expected damage than the same blow
    // struck from the same square without charging.
    let end = *live.read().charge_line(a, t).unwrap().squares.last().unwrap();
    live.scene().fighter::<fivefoot::rules::Position>(a).0 = end;
    let plain = mirrors.attack(&live.read(), a, t);
    let plain = plain.iter().find(|r| r.variant == RulesVariant::D20Classic).unwrap().odds.unwrap();
    let (charged, plain) = (own.odds.unwrap().expected_damage, plain.expected_damage);
    assert!(charged > plain + 0.5, "charge {charged}, plain {plain}");
    // A goblin beside the charge line: leaving its reach on the way draws its attack.
    let units = vec![
        common::unit("fighter", "blue", (1, 2), "human_fighter"),
        common::unit("gob", "red", (6, 2), "goblin"),
        common::unit("gob2", "red", (3, 1), "goblin"),
    ];
    let flanked = common::level(&common::open_rows(9, 5), units, RulesVariant::D20Classic);
    let live = BattleWorld::new(&flanked, &cat, RulesVariant::D20Classic, 3, BattleOptions::default());
    let rows = Mirrors::new(&flanked, &cat, &[]).charge(&live.read(), a, t);
    let own = rows.iter().find(|r| r.variant == RulesVariant::D20Classic).unwrap();
    assert!(own.refused.is_none() && own.provoked >= 1 && own.provoked_damage > 0.0, "{own:?}");
    // Walled off: no charge line, said plainly.
    let mut rows = common::open_rows(9, 5);
    for row in &mut rows[1..] {
        row.replace_range(3..4, "#");
    }
    let units =
        vec![common::unit("fighter", "blue", (1, 2), "human_fighter"), common::unit("gob", "red", (6, 2), "goblin")];
    let walled = common::level(&rows, units, RulesVariant::D20Classic);
    let live = BattleWorld::new(&walled, &cat, RulesVariant::D20Classic, 3, BattleOptions::default());
    let rows = Mirrors::new(&walled, &cat, &[]).charge(&live.read(), a, t);
    let own = rows.iter().find(|r| r.variant == RulesVariant::D20Classic).unwrap();
    assert!(own.refused.as_ref().is_some_and(|why| !why.is_empty()), "{own:?}");
}

/// A mover weighs the attacks of opportunity a path draws by the damage each is expected to
/// deal where it leaves the foe's reach: the foe's attack of opportunity on it beside the foe,
/// in the open, whatever the distance now. An ogre's club weighs more than a goblin's blade,
/// and either is what the forecast gives that attack once the mover stands beside it.
#[test]
fn an_attack_of_opportunity_is_weighed_as_it_lands_on_a_mover_leaving_its_reach() {
    use fivefoot::combat::attack::{forecast, opportunity_forecast};
    let cat = Catalogue::builtin();
    for v in RulesVariant::ALL {
        let units = vec![
            common::unit("mover", "blue", (1, 1), "human_fighter"),
            common::unit("goblin", "red", (6, 1), "goblin"),
            common::unit("ogre", "red", (6, 4), "ogre"),
        ];
        let mut b =
            BattleWorld::new(&common::level(&common::open_rows(10, 8), units, v), &cat, v, 1, Default::default());
        let [mover, goblin, ogre] = ["mover", "goblin", "ogre"].map(|id| b.index_of(id).unwrap());
        let weighed = |b: &BattleWorld, foe| opportunity_forecast(&b.read(), foe, mover).odds().expected_damage;
        let (far_goblin, far_ogre) = (weighed(&b, goblin), weighed(&b, ogre));
        assert!(far_goblin > 0.0, "{v}: the goblin's attack weighs something from afar");
        assert!(far_ogre > far_goblin, "{v}: the ogre's {far_ogre} against the goblin's {far_goblin}");
        // From afar the attack itself is out of reach; beside the goblin it is what was weighed.
        let kind = AttackKind::Opportunity;
        let now = |b: &BattleWorld| forecast(&b.read(), goblin, mover, &kind, &Default::default());
        assert_eq!(now(&b).odds().expected_damage, 0.0, "{v}: out of the goblin's reach");
        b.scene().fighter::<fivefoot::rules::Position>(mover).0 = GridPos::new(5, 1);
        let beside = now(&b).odds().expected_damage;
        assert!((beside - far_goblin).abs() < 1e-9, "{v}: beside the goblin {beside}, weighed from afar {far_goblin}");
    }
}
