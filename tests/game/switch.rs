//! The live variant switch: V (or the top bar's picker) plays the scenario again under
//! another variant, the same seed and sides; with "same orders", every unit is given again
//! the orders it was given, as far as the rules take them.

use super::*;
use fivefoot::combat::plugin::SkipAi;
use fivefoot::game::switch::{ReplayOrders, SwitchVariant, next_variant};
use fivefoot::game::{GameSetup, Screen};

/// The skirmish in an app with the game's screens, blue played by hand under d20-classic.
fn skirmish_app() -> App {
    super::screens::skirmish_app(RulesVariant::D20Classic, "blue", 5)
}

/// Plays until `orders` orders were given, blue's by hand (each of its units moves a
/// square if it can, then ends its turn), red's by its AI at once.
fn play_orders(app: &mut App, orders: usize) {
    for _ in 0..20_000 {
        let res = app.world().resource::<BattleRes>();
        if res.orders.len() >= orders || res.battle.is_over() {
            return;
        }
        app.world_mut().resource_mut::<SkipAi>().0 = true;
        let res = app.world().resource::<BattleRes>();
        if let Some(actor) = res.battle.actor()
            && res.human_sides.contains(&res.battle.read().fighters.side[actor].0)
            && app.world().resource::<PlayerCommands>().0.is_empty()
        {
            let here = res.battle.read().fighters.position[actor].0;
            let step = Command::Move { to: GridPos::new(here.x + 1, here.y) };
            let already = res.orders.last().is_some_and(|(_, c)| matches!(c, Command::Move { .. }));
            let cmd = if !already && res.battle.validate(&step).is_ok() { step } else { Command::EndTurn };
            app.world_mut().resource_mut::<PlayerCommands>().0.push_back(cmd);
        }
        app.update();
    }
    panic!("{orders} orders were not given");
}

fn switch_to(app: &mut App, to: RulesVariant) {
    app.world_mut().write_message(SwitchVariant(to));
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Skirmish);
}

#[test]
fn same_orders_under_the_same_variant_replay_the_same_battle() {
    let mut app = skirmish_app();
    play_orders(&mut app, 12);
    let res = app.world().resource::<BattleRes>();
    let (orders, events) = (res.orders.clone(), res.battle.events().to_vec());
    assert!(orders.iter().any(|(_, c)| matches!(c, Command::Move { .. })), "{orders:?}");

    app.world_mut().resource_mut::<ReplayOrders>().0 = true;
    switch_to(&mut app, RulesVariant::D20Classic);
    let res = app.world().resource::<BattleRes>();
    assert_eq!(res.orders[..orders.len()], orders[..], "every order given again, in order");
    assert_eq!(res.battle.events()[..events.len()], events[..], "the same seed and orders: the same battle");
}

#[test]
fn another_variant_takes_the_orders_it_allows_and_v_starts_the_next_afresh() {
    let mut app = skirmish_app();
    play_orders(&mut app, 6);
    let given: Vec<(String, Command)> = app.world().resource::<BattleRes>().orders.clone();
    app.world_mut().resource_mut::<ReplayOrders>().0 = true;
    switch_to(&mut app, RulesVariant::FourActions);
    let res = app.world().resource::<BattleRes>();
    assert_eq!(res.battle.variant(), RulesVariant::FourActions);
    // A blue unit's first step, one square from where the scenario puts it, is legal
    // under four-actions too, and is given again.
    let first_step = given.iter().find(|(_, c)| matches!(c, Command::Move { .. })).expect("blue moved");
    assert!(res.orders.contains(first_step), "{first_step:?} given again: {:?}", res.orders);

    // V, without "same orders": the next variant, from the start, the same seed and sides.
    app.world_mut().resource_mut::<ReplayOrders>().0 = false;
    assert_eq!(next_variant(RulesVariant::FourActions), RulesVariant::D20Classic);
    assert_eq!(next_variant(RulesVariant::HexPhases), RulesVariant::ApPhases, "round to the first");
    tap(&mut app, KeyCode::KeyV);
    for _ in 0..3 {
        app.update();
    }
    let res = app.world().resource::<BattleRes>();
    assert_eq!(res.battle.variant(), RulesVariant::D20Classic);
    assert_eq!(app.world().resource::<GameSetup>().rules, Some(RulesVariant::D20Classic));
    assert_eq!(res.human_sides, vec!["blue".to_string()], "the same sides");
    assert!(matches!(res.battle.events().first(), Some(CombatEvent::BattleStarted { seed: 5, .. })), "the same seed");
    let blue =
        |unit: &String| res.battle.index_of(unit).is_some_and(|i| res.battle.read().fighters.side[i].0 == "blue");
    assert_eq!(res.orders.iter().filter(|(u, _)| blue(u)).count(), 0, "nothing of the last battle given again");
}

/// A house rule another variant cannot take is dropped there and comes back on the way back.
#[test]
fn a_house_rule_comes_back_with_a_variant_that_takes_it() {
    use fivefoot::game::switch::switched;
    use fivefoot::variants::HouseRule;
    let setup = GameSetup {
        level: "levels/skirmish.ron".into(),
        rules: Some(RulesVariant::D20Classic),
        side: None,
        seed: 3,
        house_rules: Some(vec![HouseRule::NoFlanking]),
        ais: Default::default(),
    };
    let kept = [HouseRule::NoFlanking, HouseRule::DoubleCover];
    let hex = switched(&setup, &kept, RulesVariant::HexPhases);
    assert_eq!((hex.rules, hex.seed), (Some(RulesVariant::HexPhases), 3));
    assert_eq!(hex.house_rules, Some(vec![HouseRule::DoubleCover]), "no flanking rule in hex-phases to switch off");
    let back = switched(&hex, &kept, RulesVariant::D20Classic);
    assert_eq!(back.house_rules, Some(kept.to_vec()));
}

/// Waiting for a person's order changes nothing in the battle, so the views and overlays
/// that redraw on a change do not redraw every frame (a replay queue is only looked at).
#[test]
fn waiting_for_a_persons_order_leaves_the_battle_unchanged() {
    let mut app = skirmish_app();
    for _ in 0..20_000 {
        let res = app.world().resource::<BattleRes>();
        let waiting =
            res.battle.actor().is_some_and(|a| res.human_sides.contains(&res.battle.read().fighters.side[a].0));
        if waiting {
            break;
        }
        app.world_mut().resource_mut::<SkipAi>().0 = true;
        app.update();
    }
    app.update();
    let before = app.world().resource_ref::<BattleRes>().last_changed();
    app.update();
    app.update();
    assert_eq!(app.world().resource_ref::<BattleRes>().last_changed(), before);
}
