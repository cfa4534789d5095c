//! The live variant switch: during a skirmish, a key (V) or the top bar's rules picker
//! starts the scenario again under another variant, with the same seed, sides and AIs,
//! and with the house rules in force that also apply to it (one it cannot take comes back
//! on a switch to a variant that can). With "same orders" ticked,
//! each unit is given again the orders it was given so far, in its own order, for as long
//! as the new variant's rules take them (an order they refuse is skipped and said so in
//! the log); then play goes on as usual.

use super::{GameSetup, Screen};
use crate::combat::Command;
use crate::combat::plugin::BattleRes;
use crate::input::{GameAction, Presses};
use crate::variants::RulesVariant;
use bevy::prelude::*;
use bevy_egui::egui;

/// Asks for the scenario to start again under this variant.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwitchVariant(pub RulesVariant);

/// Whether a switch replays the orders given so far ("same orders"), or starts afresh.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReplayOrders(pub bool);

/// Every house rule in force in this scenario since it was started from the menu, so that
/// one a variant cannot take comes back when the scenario is switched to one that can.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct KeptHouseRules(pub Vec<crate::variants::HouseRule>);

/// The orders the next skirmish gives again, each with the unit it was given to, in the
/// order they were given.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct OrdersToReplay(pub Vec<(String, Command)>);

pub struct VariantSwitchPlugin;

impl Plugin for VariantSwitchPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<ReplayOrders>()
            .init_resource::<KeptHouseRules>()
            .add_systems(OnEnter(Screen::Menu), |mut kept: ResMut<KeptHouseRules>| kept.0.clear())
            .add_message::<SwitchVariant>()
            .add_systems(Update, (next_variant_key, switch_variant).chain().run_if(in_state(Screen::Skirmish)));
    }
}

/// The variant after `v`, in the menu's order, round to the first.
pub fn next_variant(v: RulesVariant) -> RulesVariant {
    let all = RulesVariant::ALL;
    let i = all.iter().position(|&x| x == v).unwrap_or(0);
    all[(i + 1) % all.len()]
}

/// V: the next variant.
fn next_variant_key(presses: Res<Presses>, res: Option<Res<BattleRes>>, mut switch: MessageWriter<SwitchVariant>) {
    if let Some(res) = res
        && presses.pressed(GameAction::NextVariant)
    {
        switch.write(SwitchVariant(next_variant(res.battle.variant())));
    }
}

/// Starts the scenario again under the variant asked for.
fn switch_variant(
    mut asked: MessageReader<SwitchVariant>,
    res: Option<Res<BattleRes>>,
    setup: Option<Res<GameSetup>>,
    replay: Res<ReplayOrders>,
    mut kept: ResMut<KeptHouseRules>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
) {
    let Some(&SwitchVariant(to)) = asked.read().last() else { return };
    let (Some(res), Some(setup)) = (res, setup) else { return };
    if to == res.battle.variant() && !replay.0 {
        return;
    }
    for &rule in res.battle.house_rules() {
        if !kept.0.contains(&rule) {
            kept.0.push(rule);
        }
    }
    commands.insert_resource(switched(&setup, &kept.0, to));
    commands.insert_resource(OrdersToReplay(if replay.0 { res.orders.clone() } else { Vec::new() }));
    next.set(Screen::Loading);
}

/// The setup of the same scenario under `to`: the same level, seed, sides and AIs; those of
/// the house rules `kept` (every one in force since the scenario began) that apply to `to`.
pub fn switched(setup: &GameSetup, kept: &[crate::variants::HouseRule], to: RulesVariant) -> GameSetup {
    let house_rules = kept.iter().copied().filter(|h| h.applies_to().contains(&to)).collect();
    GameSetup { rules: Some(to), house_rules: Some(house_rules), ..setup.clone() }
}

/// The top bar's rules picker and its "same orders" toggle; the variant picked, if one was.
pub fn variant_picker(ui: &mut egui::Ui, current: RulesVariant, replay: &mut bool, key: &str) -> Option<RulesVariant> {
    let mut picked = None;
    egui::ComboBox::from_id_salt("live-variant")
        .selected_text(current.id())
        .show_ui(ui, |ui| {
            for v in RulesVariant::ALL {
                if ui.selectable_label(v == current, v.entry()).clicked() && v != current {
                    picked = Some(v);
                }
            }
        })
        .response
        .on_hover_text(format!("play this scenario under another variant, from its start, same seed ({key}: next)"));
    ui.toggle_value(replay, "same orders")
        .on_hover_text("on switching, give every unit again the orders it was given so far, as far as the rules allow");
    picked
}
