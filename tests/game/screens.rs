//! The game's screens and engine in an app: starting, restarting and leaving a skirmish, a broken level, badges, the AI thinking off the main thread, casting from the action bar.

use super::*;

/// The default skirmish in an app with the game's screens, under `rules`, from `seed`,
/// entered and set up: `side` played by hand and the others by the greedy AI (quick in a
/// test build; the window's default is the tactical AI).
pub(super) fn skirmish_app(rules: RulesVariant, side: &str, seed: u64) -> App {
    let greedy = ["blue", "red"].map(|s| (s.to_string(), fivefoot::combat::AiKind::Greedy));
    skirmish_app_with(rules, side, seed, greedy.into())
}

fn skirmish_app_with(
    rules: RulesVariant,
    side: &str,
    seed: u64,
    ais: std::collections::BTreeMap<String, fivefoot::combat::AiKind>,
) -> App {
    use fivefoot::game::{GamePlugin, GameSetup, Screen};
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, bevy::input::InputPlugin))
        .add_plugins((BindingsPlugin { bindings: Bindings::default() }, RulesPlugin, CombatPlugin, ControlPlugin))
        .add_plugins(GamePlugin)
        .init_state::<Screen>();
    app.insert_resource(GameSetup {
        level: std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/skirmish.ron"),
        rules: Some(rules),
        side: Some(side.into()),
        seed,
        house_rules: None,
        ais,
    });
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Skirmish);
    app.update();
    app
}

/// A side that neither the player nor the level names plays the window's default opponent,
/// the tactical AI at normal (the skirmish level names none); a side named plays as named.
#[test]
fn a_side_nobody_names_plays_the_tactical_ai_and_a_named_one_as_named() {
    use fivefoot::combat::AiKind;
    use fivefoot::combat::ai::Difficulty;
    let app = skirmish_app_with(RulesVariant::D20Classic, "blue", 5, Default::default());
    assert_eq!(app.world().resource::<BattleRes>().ai_of("red"), AiKind::Tactical(Difficulty::Normal));
    assert_eq!(fivefoot::game::SKIRMISH_AI, AiKind::Tactical(Difficulty::Normal));
    let easy = std::collections::BTreeMap::from([("red".to_string(), AiKind::Tactical(Difficulty::Easy))]);
    let app = skirmish_app_with(RulesVariant::D20Classic, "blue", 5, easy);
    assert_eq!(app.world().resource::<BattleRes>().ai_of("red"), AiKind::Tactical(Difficulty::Easy));
}

#[test]
fn a_skirmish_starts_restarts_with_fresh_dice_and_tears_down_for_the_menu() {
    use fivefoot::game::{GameSetup, Screen};
    use fivefoot::rules::Combatant;
    let mut app = skirmish_app(RulesVariant::FourActions, "red", 5);
    let count = |app: &mut App| app.world_mut().query::<&Combatant>().iter(app.world()).count();
    assert_eq!(count(&mut app), 8);
    let res = app.world().resource::<BattleRes>();
    assert_eq!(res.battle.variant(), RulesVariant::FourActions);
    assert_eq!(res.human_sides, vec!["red".to_string()]);
    assert_eq!(res.battle.read().dice.seed(), 5);
    let opening = res.battle.events().len();
    // Play on a little, so the restarted battle's log can be told from this one.
    app.world_mut().resource_mut::<BattleRes>().battle.execute(Command::EndTurn).unwrap();
    assert!(app.world().resource::<BattleRes>().battle.events().len() > opening);

    // Restart as the end screen does: the next seed (fresh dice), then through the loading
    // screen, everything torn down and built again.
    app.world_mut().resource_mut::<GameSetup>().seed = 6;
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Loading);
    app.update();
    app.update();
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Skirmish);
    assert_eq!(count(&mut app), 8, "the old units are gone, the new ones in place");
    let res = app.world().resource::<BattleRes>();
    assert_eq!(res.battle.read().dice.seed(), 6, "fresh dice");
    assert!(matches!(res.battle.events().first(), Some(CombatEvent::BattleStarted { seed: 6, .. })));

    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Menu);
    app.update();
    assert_eq!(count(&mut app), 0);
    assert!(!app.world().contains_resource::<BattleRes>());
}

#[test]
fn a_broken_level_sends_the_player_back_to_the_menu_with_the_error() {
    use fivefoot::game::{GamePlugin, GameSetup, MenuNotice, Screen};
    let dir = std::env::temp_dir().join(format!("fivefoot-game-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("wall.ron");
    std::fs::write(
        &bad,
        "(name: \"x\", rules: \"d20-classic\", map: (rows: [\"#.\"]), units: [(id: \"a\", side: \"blue\", at: (0, 0), creature: \"goblin\")])",
    )
    .unwrap();
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, bevy::input::InputPlugin))
        .add_plugins((BindingsPlugin { bindings: Bindings::default() }, RulesPlugin, CombatPlugin, ControlPlugin))
        .add_plugins(GamePlugin)
        .init_state::<Screen>();
    app.insert_resource(GameSetup {
        level: bad,
        rules: None,
        side: None,
        seed: 1,
        house_rules: None,
        ais: Default::default(),
    });
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Skirmish);
    app.update();
    app.update();
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Menu);
    let notice = app.world().resource::<MenuNotice>().0.clone().unwrap();
    assert!(notice.contains("wall.ron") && notice.contains("\"a\""), "{notice}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_active_variants_badges_each_unit() {
    use fivefoot::control::vocabulary::{BadgesPlugin, VariantBadge};
    use fivefoot::rules::Combatant;
    for (v, expect) in [(RulesVariant::ApPhases, "AP "), (RulesVariant::FourActions, "reaction ready")] {
        let l =
            level(&OPEN, vec![unit("hero", "blue", (2, 3), "human_fighter"), unit("gob", "red", (6, 3), "goblin")], v);
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, StatesPlugin)).add_plugins((RulesPlugin, CombatPlugin, BadgesPlugin));
        // Everyone plays by hand so the clock stands still.
        let battle = BattleWorld::new(&l, &Catalogue::builtin(), v, 1, BattleOptions::default());
        fivefoot::game::spawn_combatants(app.world_mut(), &battle.read());
        app.insert_resource(BattleRes::new(battle, vec!["blue".into(), "red".into()], Default::default()));
        app.update();
        app.update();
        let badges: Vec<(String, String)> = app
            .world_mut()
            .query::<(&Combatant, &VariantBadge)>()
            .iter(app.world())
            .map(|(c, b)| (c.id.clone(), b.0.clone()))
            .collect();
        assert_eq!(badges.len(), 2, "{v}");
        assert!(badges.iter().all(|(_, b)| b.starts_with(expect)), "{v}: {badges:?}");
    }
}

/// Two against two on open ground, under d20-classic.
fn two_on_two() -> Level {
    level(
        &OPEN,
        vec![
            unit("hero", "blue", (1, 3), "human_fighter"),
            unit("pike", "blue", (1, 5), "spearman"),
            unit("gob", "red", (8, 3), "goblin"),
            unit("wolf", "red", (8, 1), "wolf"),
        ],
        RulesVariant::D20Classic,
    )
}

#[test]
fn the_ai_thinking_off_the_main_thread_plays_the_same_battle_as_the_sim() {
    let l = two_on_two();
    let catalogue = Catalogue::builtin();
    let mut reference = BattleWorld::new(&l, &catalogue, RulesVariant::D20Classic, 11, BattleOptions::default());
    reference.run(&mut |_| None);

    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin)).add_plugins((RulesPlugin, CombatPlugin));
    let battle = BattleWorld::new(&l, &catalogue, RulesVariant::D20Classic, 11, BattleOptions::default());
    app.insert_resource(BattleRes::new(battle, vec![], Default::default()));
    for _ in 0..100_000 {
        app.update();
        if battle_of(&app).is_over() {
            break;
        }
    }
    let b = battle_of(&app);
    assert!(b.is_over());
    assert_eq!(b.events(), reference.events(), "same seed, same AI: the same battle, event for event");
}

#[test]
fn a_caster_finds_its_spells_on_the_action_bar_and_casts_with_a_click() {
    let b = acting(casters(RulesVariant::D20Classic), "mage");
    let bar = action_bar(&b);
    let labels: Vec<&str> = bar.iter().map(|s| s.label.as_str()).collect();
    assert!(labels.contains(&"Magic missile") && labels.contains(&"Magic missile (defensively)"), "{labels:?}");
    assert!(!labels.contains(&"Cure light wounds"), "the mage does not know it");
    let mm = Tool::Cast { spell: "magic_missile", defensive: false };
    assert!(bar.iter().any(|s| s.action == SlotAction::Aim(mm) && s.state.is_ok()));
    assert_eq!(
        command_for_click(&b, mm, GridPos::new(8, 5)),
        Ok(Command::Cast { spell: "magic_missile".into(), target: "gob".into(), defensive: false })
    );
    // The healer aims at friends: the range layer shows who its touch reaches.
    let b = acting(casters(RulesVariant::D20Classic), "priest");
    let cure = Tool::Cast { spell: "cure_light_wounds", defensive: false };
    assert!(cure.aims_at_friend() && !cure.aims_at_foe());
    assert_eq!(
        command_for_click(&b, cure, GridPos::new(2, 3)),
        Ok(Command::Cast { spell: "cure_light_wounds".into(), target: "hurt".into(), defensive: false })
    );
    let far = command_for_click(&b, cure, GridPos::new(1, 1)).unwrap_err();
    assert!(far.contains("touch"), "{far}");
    let humans = vec!["blue".to_string()];
    let sel = Selection { unit: b.index_of("priest"), tool: cure };
    let p = compute_preview(&b, &humans, &sel, None, Layers::default());
    let mut reached: Vec<GridPos> = p.range.iter().map(|(c, _)| *c).collect();
    reached.sort();
    assert_eq!(reached, vec![GridPos::new(1, 3), GridPos::new(2, 3)], "itself and the friend beside it");
    // osr-segments: a spell is declared first.
    let mut b = casters(RulesVariant::OsrSegments);
    while b.read().fighters.combatant[b.actor().unwrap()].id != "mage" {
        b.execute(Command::EndTurn).unwrap();
    }
    let bar = action_bar(&b);
    let declare = bar.iter().find(|s| s.label == "Declare: magic missile").expect("a declaration");
    assert!(declare.state.is_ok(), "{:?}", declare.state);
}

#[test]
fn a_level_s_side_colours_and_its_person_s_side_are_what_the_menu_and_the_tokens_use() {
    use fivefoot::level::SideDef;
    use fivefoot::view::{SideColours, colour_of, side_colour};
    let rows = ["........"; 4];
    let units = vec![unit("a", "red", (0, 0), "goblin"), unit("b", "blue", (7, 3), "goblin")];
    let mut lvl = level(&rows, units, RulesVariant::D20Classic);
    assert_eq!(fivefoot::game::summarise(&lvl).person, 0, "unmarked: the first unit's side (red)");
    lvl.def.sides = vec![SideDef { name: "blue".into(), colour: Some((10, 20, 30)), person: true, ai: None }];
    let summary = fivefoot::game::summarise(&lvl);
    assert_eq!(summary.sides[summary.person].0, "blue", "the side marked for a person");
    assert_eq!(colour_of(&lvl.def.sides, "blue"), Color::srgb_u8(10, 20, 30));
    assert_eq!(colour_of(&lvl.def.sides, "red"), side_colour("red"), "a side the level does not colour");
    assert_eq!(SideColours(lvl.def.sides.clone()).of("blue"), Color::srgb_u8(10, 20, 30));
}

/// The window plays each side with the AI the level or the player named: a tactical side
/// thinks off the main thread and plays the battle `sim` plays with the same AIs, each of
/// its commands comes with its reason for the log, and the candidates it last weighed stay
/// for the overlay.
#[test]
fn the_window_plays_each_side_with_its_named_ai_and_gives_the_tactical_ais_reasons() {
    use fivefoot::combat::ai::{AiKind, Difficulty};
    use fivefoot::combat::plugin::AiReason;
    let mut l = two_on_two();
    let easy = AiKind::Tactical(Difficulty::Easy);
    l.def.sides = vec![fivefoot::level::SideDef { name: "red".into(), ai: Some(easy), ..Default::default() }];
    let catalogue = Catalogue::builtin();
    let ais = std::collections::BTreeMap::from([("red".to_string(), easy)]);
    let (reference, decisions) = fivefoot::combat::sim::run_battle(
        &l,
        &catalogue,
        RulesVariant::D20Classic,
        11,
        &ais,
        &BattleOptions::default(),
    );

    #[derive(Resource, Default)]
    struct Heard(Vec<AiReason>);
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin)).add_plugins((RulesPlugin, CombatPlugin));
    app.init_resource::<Heard>().add_systems(PostUpdate, |mut r: MessageReader<AiReason>, mut heard: ResMut<Heard>| {
        heard.0.extend(r.read().cloned())
    });
    let battle = BattleWorld::new(&l, &catalogue, RulesVariant::D20Classic, 11, BattleOptions::default());
    app.insert_resource(BattleRes::new(battle, vec![], ais));
    assert_eq!(app.world().resource::<BattleRes>().ai_of("red"), easy);
    assert_eq!(app.world().resource::<BattleRes>().ai_of("blue"), AiKind::Greedy);
    // The AI-squares overlay keeps the last decision that weighed anything while greedy's
    // commands (which weigh nothing) are played.
    let mut weighed = false;
    for _ in 0..100_000 {
        app.update();
        let kept = !app.world().resource::<BattleRes>().ai_squares.is_empty();
        assert!(kept || !weighed, "a weighed decision stays on the overlay");
        weighed |= kept;
        if battle_of(&app).is_over() {
            break;
        }
    }
    assert!(weighed, "the tactical AI weighed some decision");
    assert_eq!(battle_of(&app).events(), reference.events(), "the battle sim plays with the same AIs");
    let heard = &app.world().resource::<Heard>().0;
    let reasons: Vec<(&str, &str)> =
        decisions.iter().filter_map(|d| Some((d.unit.as_str(), d.reason.as_deref()?))).collect();
    assert!(!reasons.is_empty());
    let got: Vec<(&str, &str)> = heard.iter().map(|r| (r.unit.as_str(), r.reason.as_str())).collect();
    assert_eq!(got, reasons, "each tactical decision's reason, in order; none for greedy's");
}
