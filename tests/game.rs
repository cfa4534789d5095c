//! The playable game, headless: key and mouse bindings turned into commands, the action
//! bar and click mapping per variant, the rules preview (paths with their attacks of
//! opportunity, attack breakdowns equal to `fivefoot query attack`), and the view's
//! reaction to combat events. No window or GPU needed.

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use fivefoot::combat::plugin::{BattleRes, CombatEventMsg, CombatPlugin, PlayerCommands, TurnEndedByItself};
use fivefoot::combat::{BattleOptions, BattleWorld, CombatEvent, Command};
use fivefoot::control::plugin::{ControlPlugin, END_TURN_UNUSED, Feedback, Pointer, Selection};
use fivefoot::control::{SlotAction, Tool, action_bar, command_for_click};
use fivefoot::grid::{GridPos, Shape};
use fivefoot::input::{Bindings, BindingsPlugin};
use fivefoot::level::{Catalogue, Level};
use fivefoot::overlay::{Layers, compute_preview};
use fivefoot::rules::{Condition, RulesPlugin};
use fivefoot::variants::RulesVariant;
use fivefoot::view::floating::{FloatingPlugin, FloatingText, LIFETIME};
use fivefoot::view::layout::BoardLayout;
use leafwing_input_manager::prelude::*;
use std::time::Duration;

mod common;

use common::{level, unit};
use fivefoot::combat::variants::osr_segments;

const OPEN: [&str; 7] =
    ["..........", "..........", "..........", "..........", "..........", "..........", ".........."];

/// Hero (blue fighter) next to a goblin, a spearman further off.
fn duel(rules: RulesVariant) -> BattleWorld {
    let l = level(
        &OPEN,
        vec![
            unit("hero", "blue", (2, 3), "human_fighter"),
            unit("gob", "red", (3, 3), "goblin"),
            unit("pike", "red", (7, 3), "spearman"),
        ],
        rules,
    );
    BattleWorld::new(&l, &Catalogue::builtin(), rules, 7, BattleOptions::default())
}

/// An app with the player's controls and the combat engine, every side played by hand.
fn controls_app(battle: BattleWorld) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, bevy::input::InputPlugin)).add_plugins((
        BindingsPlugin { bindings: Bindings::default() },
        RulesPlugin,
        CombatPlugin,
        ControlPlugin,
    ));
    let sides = battle.read().sides_all();
    app.insert_resource(BattleRes::new(battle, sides, Default::default()));
    app.update();
    app
}

fn battle_of(app: &App) -> &BattleWorld {
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
    let here = battle_of(app).read().fighters.position[fighter].0;
    [GridPos::new(here.x + 1, here.y), GridPos::new(here.x - 1, here.y), GridPos::new(here.x, here.y + 1)]
        .into_iter()
        .find(|&p| battle_of(app).validate(&Command::Move { to: p }).is_ok())
        .expect("a square to move to")
}

/// Ends the acting unit's turn with the key, confirming when it has not acted.
fn end_turn(app: &mut App) {
    let before = battle_of(app).events().len();
    tap(app, KeyCode::Space);
    if battle_of(app).events().len() == before {
        tap(app, KeyCode::Space);
    }
}

/// A war mage and an acolyte (blue) against a goblin.
fn casters(rules: RulesVariant) -> BattleWorld {
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
    BattleWorld::new(&l, &Catalogue::builtin(), rules, 3, BattleOptions::default())
}

fn acting(mut b: BattleWorld, id: &str) -> BattleWorld {
    for _ in 0..40 {
        let a = b.actor().unwrap();
        if b.read().fighters.combatant[a].id == id && !b.read().budget().own::<osr_segments::MajorAction>().declaring {
            return b;
        }
        b.execute(Command::EndTurn).unwrap();
    }
    panic!("{id} never acted");
}

#[path = "game/input.rs"]
mod input;

#[path = "game/action_bar.rs"]
mod action_bar;

#[path = "game/previews.rs"]
mod previews;

#[path = "game/floating.rs"]
mod floating;

#[path = "game/screens.rs"]
mod screens;

/// What a person's command said of the turn: the messages that it ended by itself.
fn turn_ended_after(cmd: Command) -> Vec<TurnEndedByItself> {
    let mut battle = duel(RulesVariant::D20Classic);
    while battle.read().fighters.combatant[battle.actor().unwrap()].id != "hero" {
        battle.execute(Command::EndTurn).unwrap();
    }
    let mut app = controls_app(battle);
    let cursor = app.world().resource::<Messages<TurnEndedByItself>>().get_cursor_current();
    app.world_mut().resource_mut::<PlayerCommands>().0.push_back(cmd);
    app.update();
    let messages = app.world().resource::<Messages<TurnEndedByItself>>();
    cursor.clone().read(messages).cloned().collect()
}

#[test]
fn a_command_that_uses_the_rest_of_a_turn_says_the_turn_ended_by_itself() {
    // d20-classic: full defense is a full-round action, and the turn passes at once.
    let said = turn_ended_after(Command::Defend);
    assert_eq!(said, [TurnEndedByItself { unit: "hero".into(), after: "defend".into() }]);
    assert_eq!(said[0].describe(), "hero's turn ends by itself: defend used what it had left");
    // Control: the attacks, one or all, take the standard action and leave the move action,
    // and nothing is said.
    assert_eq!(turn_ended_after(Command::FullAttack { target: "gob".into() }), []);
    assert_eq!(turn_ended_after(Command::Attack { target: "gob".into() }), []);
}

#[path = "game/switch.rs"]
mod switch;

#[path = "game/compare_window.rs"]
mod compare_window;
