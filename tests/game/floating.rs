//! Numbers and words floating over the board: damage, misses, healing, lost spells.

use super::*;

fn floating_app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin)).add_message::<CombatEventMsg>().add_plugins(FloatingPlugin);
    app.insert_resource(BattleRes::new(duel(RulesVariant::D20Classic), vec![], Default::default()))
        .insert_resource(BoardLayout::new(Shape::Square, 10, 7))
        .insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(Duration::from_millis(100)));
    app.update();
    app
}

#[test]
fn damage_floats_over_its_target_and_fades() {
    let mut app = floating_app();
    app.world_mut().write_message(CombatEventMsg(CombatEvent::Damage {
        attacker: "hero".into(),
        target: "gob".into(),
        dice: "1d8".into(),
        rolls: vec![6],
        modifiers: vec![],
        total: 9,
        nonlethal: false,
        hp_after: -3,
    }));
    app.update();
    let mut q = app.world_mut().query::<(&FloatingText, &Transform)>();
    let (f, t) = q.single(app.world()).expect("one floating number");
    assert_eq!(f.text, "-9");
    let layout = BoardLayout::new(Shape::Square, 10, 7);
    let over = layout.world(GridPos::new(3, 3));
    assert!((t.translation.x - over.x).abs() < 1.0, "over the goblin");
    let y0 = t.translation.y;
    app.update();
    let (_, t) = q.single(app.world()).unwrap();
    assert!(t.translation.y > y0, "it rises");
    for _ in 0..(LIFETIME * 10.0) as usize + 2 {
        app.update();
    }
    assert_eq!(q.iter(app.world()).count(), 0, "and is gone after its lifetime");
}

#[test]
fn a_miss_says_so_and_other_events_float_nothing() {
    let mut app = floating_app();
    app.world_mut().write_message(CombatEventMsg(CombatEvent::TurnStarted { unit: "hero".into() }));
    app.world_mut().write_message(CombatEventMsg(CombatEvent::Attack {
        attacker: "hero".into(),
        target: "gob".into(),
        kind: "primary".into(),
        die: "d20".into(),
        rolls: vec![2],
        modifiers: vec![],
        total: 7,
        target_number: 15,
        hit: false,
        critical: false,
    }));
    app.update();
    let texts: Vec<String> =
        app.world_mut().query::<&FloatingText>().iter(app.world()).map(|f| f.text.clone()).collect();
    assert_eq!(texts, vec!["miss".to_string()]);
}

#[test]
fn healing_floats_a_green_number_and_a_lost_spell_says_so() {
    use fivefoot::view::floating::floating_for;
    let healed = CombatEvent::Healed {
        unit: "hurt".into(),
        by: "priest".into(),
        dice: "1d8".into(),
        rolls: vec![5],
        modifiers: vec![],
        total: 6,
        hp_after: 4,
    };
    let (text, _, unit) = floating_for(&healed).unwrap();
    assert_eq!((text.as_str(), unit), ("+6", "hurt"));
    let lost = CombatEvent::Spoiled { unit: "mage".into(), action: "magic missile".into(), reason: "countered".into() };
    assert_eq!(floating_for(&lost).unwrap().0, "magic missile lost");
}
