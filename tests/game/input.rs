//! Keys, clicks and pads: every press counts, Space ends a turn (asking once), number keys pick tools, clicks move and attack, panels swallow clicks.

use super::*;

#[test]
fn space_ends_the_turn_of_the_unit_acting_after_asking_once_if_it_has_not_acted() {
    let mut app = controls_app(duel(RulesVariant::D20Classic));
    let first = battle_of(&app).actor().unwrap();
    let before = battle_of(&app).events().len();
    tap(&mut app, KeyCode::Space);
    assert_eq!(battle_of(&app).actor(), Some(first), "the first press only asks");
    assert_eq!(battle_of(&app).events().len(), before);
    assert_eq!(app.world().resource::<Feedback>().0.as_deref(), Some(END_TURN_UNUSED));
    tap(&mut app, KeyCode::Space);
    let b = battle_of(&app);
    assert_ne!(b.actor(), Some(first), "the second press ends the turn");
    assert!(b.events()[before..].iter().any(|e| matches!(e, CombatEvent::TurnStarted { .. })));
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
    assert_eq!(battle_of(&app).read().fighters.position[first].0, to, "the unit moved");
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
    assert_eq!(battle_of(&app).read().fighters.position[actor].0, to, "the quick click moved the unit");
}

#[test]
fn a_click_on_a_square_moves_the_acting_unit_there() {
    let mut app = controls_app(duel(RulesVariant::D20Classic));
    // Let the hero act: end turns until it is up.
    for _ in 0..6 {
        let b = battle_of(&app);
        if b.read().fighters.combatant[b.actor().unwrap()].id == "hero" {
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
    assert_eq!(b.read().fighters.position[hero].0, GridPos::new(2, 0));
    assert!(b.events().iter().any(|e| matches!(e, CombatEvent::Moved { unit, .. } if unit == "hero")));
}

#[test]
fn number_keys_pick_action_bar_tools_and_a_click_on_a_foe_attacks() {
    let mut app = controls_app(duel(RulesVariant::FourActions));
    for _ in 0..6 {
        let b = battle_of(&app);
        if b.read().fighters.combatant[b.actor().unwrap()].id == "hero" {
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
        b.events().iter().any(
            |e| matches!(e, CombatEvent::Attack { attacker, target, .. } if attacker == "hero" && target == "gob")
        ),
        "clicking the goblin attacked it: {:?}, {} acting",
        app.world().resource::<fivefoot::control::plugin::Feedback>(),
        b.read().fighters.combatant[b.actor().unwrap()].id
    );
}

#[test]
fn a_click_over_a_panel_does_nothing() {
    let mut app = controls_app(duel(RulesVariant::D20Classic));
    let n = battle_of(&app).events().len();
    *app.world_mut().resource_mut::<Pointer>() = Pointer { cell: Some(GridPos::new(0, 0)), over_ui: true };
    tap(&mut app, MouseButton::Left);
    assert_eq!(battle_of(&app).events().len(), n);
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

/// ap-phases: ending the turn goes on with an action under way ("end the turn to go on with
/// it"), so one press does it, without the question an unused turn gets.
#[test]
fn one_press_of_space_goes_on_with_an_action_under_way() {
    let mut b = duel(RulesVariant::ApPhases);
    let grapple = Command::Grapple { target: "gob".into() };
    for _ in 0..60 {
        let a = b.actor().unwrap();
        if b.read().fighters.combatant[a].id == "hero" && b.validate(&grapple).is_ok() {
            break;
        }
        b.execute(Command::EndTurn).unwrap();
    }
    b.execute(grapple).unwrap();
    // To the hero's next opportunity, the grapple under way.
    b.execute(Command::EndTurn).unwrap();
    for _ in 0..60 {
        if b.read().fighters.combatant[b.actor().unwrap()].id == "hero" {
            break;
        }
        b.execute(Command::EndTurn).unwrap();
    }
    let mut app = controls_app(b);
    let continuing =
        battle_of(&app).read().budget().own::<fivefoot::combat::variants::ap_phases::PhaseAction>().continuing;
    assert!(continuing, "the grapple is under way");
    tap(&mut app, KeyCode::Space);
    assert_eq!(app.world().resource::<Feedback>().0, None, "no question asked");
    let checked = battle_of(&app)
        .events()
        .iter()
        .any(|e| matches!(e, CombatEvent::Attack { kind, attacker, .. } if attacker == "hero" && kind.starts_with("grapple")));
    assert!(checked, "one press put the grapple's second AP in");
}
