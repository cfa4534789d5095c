//! The playable game, headless: key and mouse bindings turned into commands, the action
//! bar and click mapping per variant, the rules preview (paths with their attacks of
//! opportunity, attack breakdowns equal to `fivefoot query attack`), and the view's
//! reaction to combat events. No window or GPU needed.

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use fivefoot::combat::plugin::{BattleRes, CombatEventMsg, CombatPlugin};
use fivefoot::combat::{Battle, BattleOptions, CombatEvent, Command};
use fivefoot::control::plugin::{ControlPlugin, END_TURN_UNUSED, Feedback, Pointer, Selection};
use fivefoot::control::{SlotAction, Tool, action_bar, command_for_click};
use fivefoot::grid::{GridPos, Shape};
use fivefoot::input::{Bindings, BindingsPlugin};
use fivefoot::level::{Catalogue, Level, LevelDef, MapDef, UnitDef};
use fivefoot::overlay::{Layers, compute_preview};
use fivefoot::rules::{Condition, RulesPlugin};
use fivefoot::variant::RulesVariant;
use fivefoot::view::floating::{FloatingPlugin, FloatingText, LIFETIME};
use fivefoot::view::layout::BoardLayout;
use leafwing_input_manager::prelude::*;
use std::time::Duration;

fn unit(id: &str, side: &str, at: (i32, i32), creature: &str) -> UnitDef {
    UnitDef {
        id: id.into(),
        side: side.into(),
        at,
        creature: creature.into(),
        weapon: None,
        size: None,
        hp: None,
        aware: None,
    }
}

fn level(rows: &[&str], units: Vec<UnitDef>, rules: RulesVariant) -> Level {
    let def = LevelDef {
        name: "test".into(),
        rules,
        map: MapDef { rows: rows.iter().map(|r| r.to_string()).collect() },
        units,
        death_saves: None,
    };
    Level::from_def(def, &Catalogue::builtin()).unwrap()
}

const OPEN: [&str; 7] =
    ["..........", "..........", "..........", "..........", "..........", "..........", ".........."];

/// Hero (blue fighter) next to a goblin, a spearman further off.
fn duel(rules: RulesVariant) -> Battle {
    let l = level(
        &OPEN,
        vec![
            unit("hero", "blue", (2, 3), "human_fighter"),
            unit("gob", "red", (3, 3), "goblin"),
            unit("pike", "red", (7, 3), "spearman"),
        ],
        rules,
    );
    Battle::new(&l, &Catalogue::builtin(), rules, 7, BattleOptions::default())
}

/// An app with the player's controls and the combat engine, every side played by hand.
fn controls_app(battle: Battle) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, bevy::input::InputPlugin)).add_plugins((
        BindingsPlugin { bindings: Bindings::default() },
        RulesPlugin,
        CombatPlugin,
        ControlPlugin,
    ));
    let sides = battle.sides_all();
    app.insert_resource(BattleRes::new(battle, sides));
    app.update();
    app
}

fn battle_of(app: &App) -> &Battle {
    &app.world().resource::<BattleRes>().battle
}

fn tap(app: &mut App, input: impl Buttonlike) {
    input.press(app.world_mut());
    app.update();
    input.release(app.world_mut());
    app.update();
}

/// A quick tap at a low frame rate: the key goes down and up between two frames.
fn tap_inside_one_update(app: &mut App, input: impl Buttonlike) {
    input.press(app.world_mut());
    input.release(app.world_mut());
    app.update();
}

/// A square beside the fighter that it may move to now.
fn square_to_move_to(app: &App, fighter: usize) -> GridPos {
    let here = battle_of(app).fighters[fighter].pos;
    [GridPos::new(here.x + 1, here.y), GridPos::new(here.x - 1, here.y), GridPos::new(here.x, here.y + 1)]
        .into_iter()
        .find(|&p| battle_of(app).clone().validate(&Command::Move { to: p }).is_ok())
        .expect("a square to move to")
}

/// Ends the acting unit's turn with the key, confirming when it has not acted.
fn end_turn(app: &mut App) {
    let before = battle_of(app).events.len();
    tap(app, KeyCode::Space);
    if battle_of(app).events.len() == before {
        tap(app, KeyCode::Space);
    }
}

#[test]
fn space_ends_the_turn_of_the_unit_acting_after_asking_once_if_it_has_not_acted() {
    let mut app = controls_app(duel(RulesVariant::D20Classic));
    let first = battle_of(&app).actor().unwrap();
    let before = battle_of(&app).events.len();
    tap(&mut app, KeyCode::Space);
    assert_eq!(battle_of(&app).actor(), Some(first), "the first press only asks");
    assert_eq!(battle_of(&app).events.len(), before);
    assert_eq!(app.world().resource::<Feedback>().0.as_deref(), Some(END_TURN_UNUSED));
    tap(&mut app, KeyCode::Space);
    let b = battle_of(&app);
    assert_ne!(b.actor(), Some(first), "the second press ends the turn");
    assert!(b.events[before..].iter().any(|e| matches!(e, CombatEvent::TurnStarted { .. })));
    assert_eq!(app.world().resource::<Feedback>().0, None);
}

#[test]
fn after_acting_one_press_of_space_ends_the_turn() {
    let mut app = controls_app(duel(RulesVariant::D20Classic));
    let first = battle_of(&app).actor().unwrap();
    // A move to a square beside it, then End turn: no question asked.
    let to = square_to_move_to(&app, first);
    app.world_mut().resource_mut::<Pointer>().cell = Some(to);
    tap(&mut app, MouseButton::Left);
    assert_eq!(battle_of(&app).fighters[first].pos, to, "the unit moved");
    tap(&mut app, KeyCode::Space);
    assert_ne!(battle_of(&app).actor(), Some(first), "one press ended the turn");
}

#[test]
fn a_press_and_release_inside_one_update_still_counts() {
    let mut app = controls_app(duel(RulesVariant::D20Classic));
    let first = battle_of(&app).actor().unwrap();
    // Two quick taps of End turn, each inside one frame: ask, then confirm.
    tap_inside_one_update(&mut app, KeyCode::Space);
    assert_eq!(app.world().resource::<Feedback>().0.as_deref(), Some(END_TURN_UNUSED));
    tap_inside_one_update(&mut app, KeyCode::Space);
    app.update();
    assert_ne!(battle_of(&app).actor(), Some(first), "both quick taps counted");
    // A quick tap of T toggles the enemy-threat layer; five toggle it five times (on).
    app.init_resource::<Layers>().add_systems(Update, fivefoot::overlay::toggle_layers);
    let before = app.world().resource::<Layers>().enemy_threat;
    for _ in 0..5 {
        tap_inside_one_update(&mut app, KeyCode::KeyT);
    }
    assert_ne!(app.world().resource::<Layers>().enemy_threat, before, "five taps, five toggles");
    // A quick click on a square moves the acting unit there.
    let actor = battle_of(&app).actor().unwrap();
    let to = square_to_move_to(&app, actor);
    app.world_mut().resource_mut::<Pointer>().cell = Some(to);
    tap_inside_one_update(&mut app, MouseButton::Left);
    app.update();
    assert_eq!(battle_of(&app).fighters[actor].pos, to, "the quick click moved the unit");
}

#[test]
fn a_click_on_a_square_moves_the_acting_unit_there() {
    let mut app = controls_app(duel(RulesVariant::D20Classic));
    // Let the hero act: end turns until it is up.
    for _ in 0..6 {
        let b = battle_of(&app);
        if b.fighters[b.actor().unwrap()].id == "hero" {
            break;
        }
        end_turn(&mut app);
    }
    let b = battle_of(&app);
    let hero = b.index_of("hero").unwrap();
    assert_eq!(b.actor(), Some(hero));
    // Leaving the goblin's reach provokes; the move still happens.
    app.world_mut().resource_mut::<Pointer>().cell = Some(GridPos::new(2, 0));
    tap(&mut app, MouseButton::Left);
    let b = battle_of(&app);
    assert_eq!(b.fighters[hero].pos, GridPos::new(2, 0));
    assert!(b.events.iter().any(|e| matches!(e, CombatEvent::Moved { unit, .. } if unit == "hero")));
}

#[test]
fn number_keys_pick_action_bar_tools_and_a_click_on_a_foe_attacks() {
    let mut app = controls_app(duel(RulesVariant::FourActions));
    for _ in 0..6 {
        let b = battle_of(&app);
        if b.fighters[b.actor().unwrap()].id == "hero" {
            break;
        }
        end_turn(&mut app);
    }
    // Slot 2 is the side step in four-actions.
    tap(&mut app, KeyCode::Digit2);
    assert_eq!(app.world().resource::<Selection>().tool, Tool::Step);
    // Right-click puts it down again.
    tap(&mut app, MouseButton::Right);
    assert_eq!(app.world().resource::<Selection>().tool, Tool::Move);
    app.world_mut().resource_mut::<Pointer>().cell = Some(GridPos::new(3, 3));
    tap(&mut app, MouseButton::Left);
    let b = battle_of(&app);
    assert!(
        b.events.iter().any(
            |e| matches!(e, CombatEvent::Attack { attacker, target, .. } if attacker == "hero" && target == "gob")
        ),
        "clicking the goblin attacked it: {:?}, {} acting",
        app.world().resource::<fivefoot::control::plugin::Feedback>(),
        b.fighters[b.actor().unwrap()].id
    );
}

#[test]
fn a_click_over_a_panel_does_nothing() {
    let mut app = controls_app(duel(RulesVariant::D20Classic));
    let n = battle_of(&app).events.len();
    *app.world_mut().resource_mut::<Pointer>() = Pointer { cell: Some(GridPos::new(0, 0)), over_ui: true };
    tap(&mut app, MouseButton::Left);
    assert_eq!(battle_of(&app).events.len(), n);
}

fn hero_acting(mut b: Battle) -> Battle {
    for _ in 0..6 {
        if b.fighters[b.actor().unwrap()].id == "hero" {
            return b;
        }
        b.execute(Command::EndTurn).unwrap();
    }
    panic!("the hero never acted");
}

#[test]
fn the_action_bar_offers_each_variant_its_own_actions_and_says_why_not() {
    let mut b = hero_acting(duel(RulesVariant::D20Classic));
    let bar = action_bar(&mut b);
    let get = |label: &str| bar.iter().find(|s| s.label == label).unwrap_or_else(|| panic!("no {label}"));
    assert!(get("Full attack").state.is_ok(), "the goblin is adjacent");
    assert!(get("End turn").state.is_ok());
    let reload = get("Reload").state.clone().unwrap_err();
    assert!(reload.contains("nothing to reload"), "{reload}");
    assert!(!bar.iter().any(|s| s.label == "Guard"), "guard is four-actions'");

    let mut b = hero_acting(duel(RulesVariant::FourActions));
    let bar = action_bar(&mut b);
    assert!(bar.iter().any(|s| s.label == "Guard" && s.action == SlotAction::Now(Command::Guard)));
    assert!(!bar.iter().any(|s| s.label == "Delay"), "four-actions has no delay");
    assert!(!bar.iter().any(|s| s.label == "Full attack"));

    // After attacking in d20-classic the standard action is gone: no second attack.
    let mut b = hero_acting(duel(RulesVariant::D20Classic));
    b.execute(Command::Attack { target: "gob".into() }).unwrap();
    let bar = action_bar(&mut b);
    let attack = bar.iter().find(|s| s.label == "Attack").unwrap();
    assert!(attack.state.is_err());
}

#[test]
fn the_action_bar_offers_the_grapple_contest_and_says_why_not() {
    use fivefoot::combat::command::GrappleFollowUp;
    let state = |bar: &[fivefoot::control::ActionSlot], label: &str| {
        bar.iter().find(|s| s.label == label).unwrap_or_else(|| panic!("no {label}")).state.clone()
    };
    // four-actions: wrestling is for those in a grapple.
    let mut b = hero_acting(duel(RulesVariant::FourActions));
    let bar = action_bar(&mut b);
    for label in ["Wrestle: attack", "Wrestle: trip", "Wrestle: push", "Wrestle: hold on"] {
        let why = state(&bar, label).unwrap_err();
        assert!(why.contains("not in a grapple"), "{label}: {why}");
    }
    assert!(!bar.iter().any(|s| s.label == "Coup de grace" || s.label == "First aid"), "ap-phases' own");
    let (h, g) = (b.index_of("hero").unwrap(), b.index_of("gob").unwrap());
    for (x, y) in [(h, g), (g, h)] {
        b.fighters[x].add(Condition::Grappled);
        b.fighters[x].grappling = Some(y);
    }
    b.invalidate();
    let bar = action_bar(&mut b);
    assert_eq!(state(&bar, "Wrestle: attack"), Ok(()));
    let slot = bar.iter().find(|s| s.label == "Wrestle: attack").unwrap();
    assert_eq!(slot.action, SlotAction::Now(Command::Wrestle { follow_up: GrappleFollowUp::Attack }));
}

#[test]
fn the_action_bar_offers_a_coup_de_grace_for_a_helpless_foe_and_first_aid_for_a_dying_ally() {
    let state = |bar: &[fivefoot::control::ActionSlot], label: &str| {
        bar.iter().find(|s| s.label == label).unwrap_or_else(|| panic!("no {label}")).state.clone()
    };
    let l = level(
        &OPEN,
        vec![
            unit("hero", "blue", (2, 3), "human_fighter"),
            unit("pal", "blue", (1, 3), "human_fighter"),
            unit("gob", "red", (3, 3), "goblin"),
            unit("pike", "red", (7, 3), "spearman"),
        ],
        RulesVariant::ApPhases,
    );
    let mut b =
        hero_acting(Battle::new(&l, &Catalogue::builtin(), RulesVariant::ApPhases, 7, BattleOptions::default()));
    let bar = action_bar(&mut b);
    assert!(!bar.iter().any(|s| s.label.starts_with("Wrestle")), "four-actions' own");
    assert!(state(&bar, "Coup de grace").unwrap_err().contains("no helpless foe"));
    assert!(state(&bar, "First aid").unwrap_err().contains("not dying"));
    for id in ["gob", "pal"] {
        let i = b.index_of(id).unwrap();
        b.fighters[i].hp = -1;
        for c in [Condition::Unconscious, Condition::Prone, Condition::Dying] {
            b.fighters[i].add(c);
        }
    }
    b.invalidate();
    let bar = action_bar(&mut b);
    assert_eq!(state(&bar, "Coup de grace"), Ok(()));
    assert_eq!(state(&bar, "First aid"), Ok(()));
    assert_eq!(
        command_for_click(&mut b, Tool::CoupDeGrace, GridPos::new(3, 3)),
        Ok(Command::CoupDeGrace { target: "gob".into() })
    );
    assert_eq!(
        command_for_click(&mut b, Tool::FirstAid, GridPos::new(1, 3)),
        Ok(Command::FirstAid { target: "pal".into() })
    );
    assert!(command_for_click(&mut b, Tool::FirstAid, GridPos::new(3, 3)).unwrap_err().contains("ally"));
}

#[test]
fn clicks_map_to_commands_per_variant() {
    let mut b = hero_acting(duel(RulesVariant::D20Classic));
    let foe = GridPos::new(3, 3);
    assert_eq!(command_for_click(&mut b, Tool::Move, foe), Ok(Command::FullAttack { target: "gob".into() }));
    assert_eq!(command_for_click(&mut b, Tool::Attack, foe), Ok(Command::Attack { target: "gob".into() }));
    assert_eq!(command_for_click(&mut b, Tool::Move, GridPos::new(2, 5)), Ok(Command::Move { to: GridPos::new(2, 5) }));
    assert_eq!(command_for_click(&mut b, Tool::Step, GridPos::new(1, 3)), Ok(Command::Step { to: GridPos::new(1, 3) }));
    let far = command_for_click(&mut b, Tool::Step, GridPos::new(0, 3)).unwrap_err();
    assert!(far.contains("hero cannot step"), "{far}");
    let mut b = hero_acting(duel(RulesVariant::HexPhases));
    assert_eq!(command_for_click(&mut b, Tool::Move, foe), Ok(Command::Attack { target: "gob".into() }));
}

#[test]
fn the_path_preview_names_who_makes_each_attack_of_opportunity() {
    let mut b = hero_acting(duel(RulesVariant::D20Classic));
    let humans = vec!["blue".to_string()];
    let sel = Selection { unit: b.index_of("hero"), tool: Tool::Move };
    let p = compute_preview(&mut b, &humans, &sel, Some(GridPos::new(2, 0)), Layers::default());
    let path = p.path.expect("a path");
    assert_eq!(path.squares.last(), Some(&GridPos::new(2, 0)));
    assert_eq!(path.provokes, vec![(GridPos::new(2, 3), "gob".to_string())]);
    assert!(!p.range.is_empty(), "the range layer is on");
    // Stepping west to (1, 3), next to nobody, still leaves the goblin's reach: one attack
    // of opportunity, the goblin's, where the hero starts (the spearman's ring is far off).
    let p = compute_preview(&mut b, &humans, &sel, Some(GridPos::new(1, 3)), Layers::default());
    assert_eq!(p.path.unwrap().provokes, vec![(GridPos::new(2, 3), "gob".to_string())]);
}

#[test]
fn the_attack_breakdown_matches_the_query_oracle() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ogre-bridge.ron");
    let catalogue = Catalogue::builtin();
    let l = Level::load(&path, &catalogue).unwrap();
    for v in RulesVariant::ALL {
        let mut b = Battle::new(&l, &catalogue, v, 3, BattleOptions::default());
        // As the query does: a fight under way, nobody surprised or flat-footed.
        for f in &mut b.fighters {
            f.conditions.remove(&Condition::Surprised);
            f.conditions.remove(&Condition::FlatFooted);
        }
        let hero = b.index_of("hero").unwrap();
        let brute = b.index_of("brute").unwrap();
        // Put the hero next to the ogre, and wait until it may attack.
        b.fighters[hero].pos = GridPos::new(4, 1);
        b.invalidate();
        for _ in 0..60 {
            if b.actor() == Some(hero) && b.validate(&Command::Attack { target: "brute".into() }).is_ok() {
                break;
            }
            b.execute(Command::EndTurn).unwrap();
            for f in &mut b.fighters {
                f.conditions.remove(&Condition::Surprised);
                f.conditions.remove(&Condition::FlatFooted);
            }
            b.invalidate();
        }
        let sel = Selection { unit: Some(hero), tool: Tool::Attack };
        let cell = b.fighters[brute].pos;
        let p = compute_preview(&mut b, &["blue".to_string()], &sel, Some(cell), Layers::default());
        let a = p.attack.unwrap_or_else(|| panic!("{v}: no attack preview ({:?})", p.refusal));

        let mut lvl = l.clone();
        lvl.def.units[0].at = (4, 1);
        let q = fivefoot::query::attack_json(&lvl, &catalogue, v, "hero", "brute").unwrap();
        let json: serde_json::Value = serde_json::from_str(&q).unwrap();
        assert_eq!(json["target_number"], a.profile.target_number, "{v}");
        assert_eq!(json["hit_chance"].as_f64().unwrap(), a.profile.hit_chance, "{v}");
        let mods: Vec<(String, i64)> = json["modifiers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (m["source"].as_str().unwrap().to_string(), m["value"].as_i64().unwrap()))
            .collect();
        let shown: Vec<(String, i64)> =
            a.profile.modifiers.iter().map(|m| (m.source.clone(), m.value as i64)).collect();
        assert_eq!(mods, shown, "{v}");
        if v == RulesVariant::D20Classic {
            // By hand from the catalogue: the ogre's AC is 10 + armor 4 + natural 5 + Dex 8
            // (-1) + Large (-1) = 17; the fighter's longsword is BAB 1 + Str 16 (+3) = +4;
            // d20 + 4 >= 17 on 13..20: 8 in 20.
            assert_eq!(a.profile.target_number, 17, "{:?}", a.profile.modifiers);
            assert_eq!(a.profile.modifiers.iter().map(|m| m.value).sum::<i32>(), 4, "{:?}", a.profile.modifiers);
            assert_eq!(a.profile.hit_chance, 0.40);
        }
    }
}

#[test]
fn the_enemy_threat_layer_counts_threateners() {
    let mut b = hero_acting(duel(RulesVariant::D20Classic));
    let layers = Layers { enemy_threat: true, ..Layers::default() };
    let sel = Selection::default();
    let p = compute_preview(&mut b, &["blue".to_string()], &sel, None, layers);
    let at = |x, y| p.enemy_threat.iter().find(|(c, _)| *c == GridPos::new(x, y)).map_or(0, |(_, n)| *n);
    // The spearman's longspear threatens (5, 3) at 10 ft; the goblin does not reach it.
    assert_eq!(at(5, 3), 1);
    // (4, 3): next to the goblin, and 15 ft from the spearman (outside its reach).
    assert_eq!(at(4, 3), 1);
    assert_eq!(at(0, 0), 0);
    // Hovering a unit shows its own threatened squares: a longspear's donut of 16.
    let pike = b.fighters[b.index_of("pike").unwrap()].pos;
    let p = compute_preview(&mut b, &["blue".to_string()], &sel, Some(pike), Layers::default());
    assert_eq!(p.hovered_threat.len(), 16);
}

fn floating_app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin)).add_message::<CombatEventMsg>().add_plugins(FloatingPlugin);
    app.insert_resource(BattleRes::new(duel(RulesVariant::D20Classic), vec![]))
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
fn a_skirmish_starts_restarts_with_fresh_dice_and_tears_down_for_the_menu() {
    use fivefoot::game::{GamePlugin, GameSetup, Screen};
    use fivefoot::rules::Combatant;
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, bevy::input::InputPlugin))
        .add_plugins((BindingsPlugin { bindings: Bindings::default() }, RulesPlugin, CombatPlugin, ControlPlugin))
        .add_plugins(GamePlugin)
        .init_state::<Screen>();
    let level = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/skirmish.ron");
    app.insert_resource(GameSetup { level, rules: Some(RulesVariant::FourActions), side: Some("red".into()), seed: 5 });
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Skirmish);
    app.update();
    let count = |app: &mut App| app.world_mut().query::<&Combatant>().iter(app.world()).count();
    assert_eq!(count(&mut app), 8);
    let res = app.world().resource::<BattleRes>();
    assert_eq!(res.battle.variant, RulesVariant::FourActions);
    assert_eq!(res.human_sides, vec!["red".to_string()]);
    assert_eq!(res.battle.dice.seed(), 5);
    let opening = res.battle.events.len();
    // Play on a little, so the restarted battle's log can be told from this one.
    app.world_mut().resource_mut::<BattleRes>().battle.execute(Command::EndTurn).unwrap();
    assert!(app.world().resource::<BattleRes>().battle.events.len() > opening);

    // Restart as the end screen does: the next seed (fresh dice), then through the loading
    // screen, everything torn down and built again.
    app.world_mut().resource_mut::<GameSetup>().seed = 6;
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Loading);
    app.update();
    app.update();
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Skirmish);
    assert_eq!(count(&mut app), 8, "the old units are gone, the new ones in place");
    let res = app.world().resource::<BattleRes>();
    assert_eq!(res.battle.dice.seed(), 6, "fresh dice");
    assert!(matches!(res.battle.events.first(), Some(CombatEvent::BattleStarted { seed: 6, .. })));

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
    app.insert_resource(GameSetup { level: bad, rules: None, side: None, seed: 1 });
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
        fivefoot::rules::spawn_level(app.world_mut(), &l, &Catalogue::builtin(), v);
        // Everyone plays by hand so the clock stands still.
        let battle = Battle::new(&l, &Catalogue::builtin(), v, 1, BattleOptions::default());
        app.insert_resource(BattleRes::new(battle, vec!["blue".into(), "red".into()]));
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

#[test]
fn the_ai_thinking_off_the_main_thread_plays_the_same_battle_as_the_sim() {
    let l = level(
        &OPEN,
        vec![
            unit("hero", "blue", (1, 3), "human_fighter"),
            unit("pike", "blue", (1, 5), "spearman"),
            unit("gob", "red", (8, 3), "goblin"),
            unit("wolf", "red", (8, 1), "wolf"),
        ],
        RulesVariant::D20Classic,
    );
    let catalogue = Catalogue::builtin();
    let mut reference = Battle::new(&l, &catalogue, RulesVariant::D20Classic, 11, BattleOptions::default());
    reference.run(&mut |_| None);

    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin)).add_plugins((RulesPlugin, CombatPlugin));
    let battle = Battle::new(&l, &catalogue, RulesVariant::D20Classic, 11, BattleOptions::default());
    app.insert_resource(BattleRes::new(battle, vec![]));
    for _ in 0..100_000 {
        app.update();
        if battle_of(&app).is_over() {
            break;
        }
    }
    let b = battle_of(&app);
    assert!(b.is_over());
    assert_eq!(b.events, reference.events, "same seed, same AI: the same battle, event for event");
}

#[test]
fn with_a_foe_tool_in_hand_the_range_layer_marks_the_foes_it_reaches() {
    let mut b = hero_acting(duel(RulesVariant::D20Classic));
    let humans = vec!["blue".to_string()];
    let sel = Selection { unit: b.index_of("hero"), tool: Tool::Attack };
    let p = compute_preview(&mut b, &humans, &sel, None, Layers::default());
    let cells: Vec<GridPos> = p.range.iter().map(|(c, _)| *c).collect();
    assert_eq!(cells, vec![GridPos::new(3, 3)], "only the adjacent goblin can be attacked");
    // With the charge in hand, only foes' squares are marked, each one a legal charge.
    let sel = Selection { unit: b.index_of("hero"), tool: Tool::Charge };
    let p = compute_preview(&mut b, &humans, &sel, None, Layers::default());
    for (c, _) in &p.range {
        let foe = b.fighters.iter().find(|f| f.side == "red" && f.footprint().contains(*c)).expect("a foe's square");
        assert!(b.validate(&Command::Charge { target: foe.id.clone() }).is_ok());
    }
}

/// A war mage and an acolyte (blue) against a goblin.
fn casters(rules: RulesVariant) -> Battle {
    let l = level(
        &OPEN,
        vec![
            unit("mage", "blue", (1, 1), "war_mage"),
            unit("priest", "blue", (1, 3), "acolyte"),
            unit("hurt", "blue", (2, 3), "human_fighter"),
            unit("gob", "red", (8, 5), "goblin"),
        ],
        rules,
    );
    Battle::new(&l, &Catalogue::builtin(), rules, 3, BattleOptions::default())
}

fn acting(mut b: Battle, id: &str) -> Battle {
    for _ in 0..40 {
        let a = b.actor().unwrap();
        if b.fighters[a].id == id && !b.clock.budget.declaring {
            return b;
        }
        b.execute(Command::EndTurn).unwrap();
    }
    panic!("{id} never acted");
}

#[test]
fn a_caster_finds_its_spells_on_the_action_bar_and_casts_with_a_click() {
    let mut b = acting(casters(RulesVariant::D20Classic), "mage");
    let bar = action_bar(&mut b);
    let labels: Vec<&str> = bar.iter().map(|s| s.label.as_str()).collect();
    assert!(labels.contains(&"Magic missile") && labels.contains(&"Magic missile (defensively)"), "{labels:?}");
    assert!(!labels.contains(&"Cure light wounds"), "the mage does not know it");
    let mm = Tool::Cast { spell: "magic_missile", defensive: false };
    assert!(bar.iter().any(|s| s.action == SlotAction::Aim(mm) && s.state.is_ok()));
    assert_eq!(
        command_for_click(&mut b, mm, GridPos::new(8, 5)),
        Ok(Command::Cast { spell: "magic_missile".into(), target: "gob".into(), defensive: false })
    );
    // The healer aims at friends: the range layer shows who its touch reaches.
    let mut b = acting(casters(RulesVariant::D20Classic), "priest");
    let cure = Tool::Cast { spell: "cure_light_wounds", defensive: false };
    assert!(cure.aims_at_friend() && !cure.aims_at_foe());
    assert_eq!(
        command_for_click(&mut b, cure, GridPos::new(2, 3)),
        Ok(Command::Cast { spell: "cure_light_wounds".into(), target: "hurt".into(), defensive: false })
    );
    let far = command_for_click(&mut b, cure, GridPos::new(1, 1)).unwrap_err();
    assert!(far.contains("touch"), "{far}");
    let humans = vec!["blue".to_string()];
    let sel = Selection { unit: b.index_of("priest"), tool: cure };
    let p = compute_preview(&mut b, &humans, &sel, None, Layers::default());
    let mut reached: Vec<GridPos> = p.range.iter().map(|(c, _)| *c).collect();
    reached.sort();
    assert_eq!(reached, vec![GridPos::new(1, 3), GridPos::new(2, 3)], "itself and the friend beside it");
    // osr-segments: a spell is declared first.
    let mut b = casters(RulesVariant::OsrSegments);
    while b.fighters[b.actor().unwrap()].id != "mage" {
        b.execute(Command::EndTurn).unwrap();
    }
    let bar = action_bar(&mut b);
    let declare = bar.iter().find(|s| s.label == "Declare: magic missile").expect("a declaration");
    assert!(declare.state.is_ok(), "{:?}", declare.state);
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

/// Gamepads are opt-in (`--features gamepad`, which needs libudev): with no pad at hand,
/// a pad is connected the way Bevy's input plugin learns of one, and its buttons pressed.
#[cfg(feature = "gamepad")]
#[test]
fn a_gamepad_button_ends_the_turn_and_the_d_pad_pans_in_gamepad_builds() {
    use bevy::input::gamepad::{GamepadConnection, GamepadConnectionEvent};
    use fivefoot::input::{GameAction, PlayerInput};
    let mut app = controls_app(duel(RulesVariant::D20Classic));
    let pad = app.world_mut().spawn_empty().id();
    app.world_mut().write_message(GamepadConnectionEvent {
        gamepad: pad,
        connection: GamepadConnection::Connected { name: "test pad".into(), vendor_id: None, product_id: None },
    });
    app.update();
    assert!(app.world().get::<Gamepad>(pad).is_some(), "the pad is connected");
    let first = battle_of(&app).actor().unwrap();
    // The unit has not acted: the first press asks, the second ends the turn.
    tap(&mut app, GamepadButton::North);
    assert_eq!(battle_of(&app).actor(), Some(first), "the first press only asks");
    tap(&mut app, GamepadButton::North);
    assert_ne!(battle_of(&app).actor(), Some(first), "North (Y/triangle) ends the turn");
    GamepadButton::DPadLeft.press(app.world_mut());
    app.update();
    let mut q = app.world_mut().query_filtered::<&ActionState<GameAction>, With<PlayerInput>>();
    assert!(q.single(app.world()).unwrap().pressed(&GameAction::PanLeft), "the d-pad pans the camera");
}

/// Every action that provokes warns before it is taken, naming who gets the attack: firing
/// and casting in melee in the preview of the aimed action, standing up and reloading on
/// the action bar; with nobody threatening, the same actions warn of nothing.
#[test]
fn every_action_that_provokes_warns_in_its_preview_under_every_variant() {
    use RulesVariant::*;
    let humans = vec!["blue".to_string()];
    // (variant, with a foe beside the actor?) -> the warnings seen.
    for v in RulesVariant::ALL {
        for beside in [true, false] {
            let gob_at = if beside { (2, 1) } else { (5, 6) };
            let units = vec![
                unit("shooter", "blue", (1, 1), "human_archer"),
                unit("mage", "blue", (1, 2), "war_mage"),
                unit("xbow", "blue", (0, 1), "crossbowman"),
                unit("gob", "red", gob_at, "goblin"),
                unit("far", "red", (9, 5), "goblin"),
            ];
            let l = level(&OPEN, units, v);
            let fresh = Battle::new(&l, &Catalogue::builtin(), v, 3, BattleOptions::default());
            let warned = |b: &mut Battle, who: &str, tool: Tool| {
                let sel = Selection { unit: b.index_of(who), tool };
                let p = compute_preview(b, &humans, &sel, Some(GridPos::new(9, 5)), Layers::default());
                p.provokes
            };
            // Firing a bow at the far goblin.
            let mut b = acting(fresh.clone(), "shooter");
            let fire = warned(&mut b, "shooter", Tool::Attack);
            let provokes = beside && matches!(v, D20Classic | ApPhases);
            assert_eq!(
                fire.iter().any(|(by, why)| by == "gob" && why == "fires in melee"),
                provokes,
                "{v} firing: {fire:?}"
            );
            if !beside {
                assert!(fire.is_empty(), "{v}: nobody threatens the shooter: {fire:?}");
            }
            // Casting magic missile at it.
            if v != HexPhases {
                let mut b = acting(fresh.clone(), "mage");
                let cast = warned(&mut b, "mage", Tool::Cast { spell: "magic_missile", defensive: false });
                let provokes = beside && matches!(v, D20Classic | FourActions | ApPhases);
                assert_eq!(cast.iter().any(|(by, _)| by == "gob"), provokes, "{v} casting: {cast:?}");
            }
            // Standing up from prone, on the action bar.
            let mut b = acting(fresh.clone(), "shooter");
            let s = b.index_of("shooter").unwrap();
            b.fighters[s].add(Condition::Prone);
            let bar = action_bar(&mut b);
            let stand = bar.iter().find(|slot| slot.label == "Stand up").expect("a Stand up slot");
            if stand.state.is_ok() {
                let provokes = beside && matches!(v, D20Classic | ApPhases | HexPhases);
                let named = stand.provokes.iter().any(|p| p == "gob (stands up)");
                assert_eq!(named, provokes, "{v} standing up: {:?}", stand.provokes);
            }
        }
    }
}

/// A charge's preview shows the attack as it will be rolled from where the charge ends:
/// four-actions lists its +2, d20-classic's source gives none (the HUD says so).
#[test]
fn the_charge_preview_shows_the_attack_from_the_end_of_the_charge() {
    for (v, bonus) in [(RulesVariant::D20Classic, None), (RulesVariant::FourActions, Some(2))] {
        let units = vec![unit("knight", "blue", (1, 3), "veteran"), unit("gob", "red", (7, 3), "goblin")];
        let l = level(&OPEN, units, v);
        let mut b = acting(Battle::new(&l, &Catalogue::builtin(), v, 2, BattleOptions::default()), "knight");
        let sel = Selection { unit: b.index_of("knight"), tool: Tool::Charge };
        let p = compute_preview(&mut b, &["blue".to_string()], &sel, Some(GridPos::new(7, 3)), Layers::default());
        let path = p.path.as_ref().expect("the charge's path");
        assert_eq!(path.squares.last(), Some(&GridPos::new(6, 3)), "{v}");
        let attack = p.attack.expect("the charge's attack");
        assert!(attack.profile.legal && attack.profile.hit_chance > 0.0, "{v}");
        let charge = attack.profile.modifiers.iter().find(|m| m.source == "charge").map(|m| m.value);
        assert_eq!(charge, bonus, "{v}: {:?}", attack.profile.modifiers);
    }
}
