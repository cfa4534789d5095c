//! The editor's play-test settings: the side the designer plays (or AI against AI), the
//! rules to play under (the level's own, or another variant to try it with) and the seed.
//! The level's house rules come with it; `edit --house-rule` puts others in their place.
//! Also the AI each side plays by default, which a play-test of AI against AI uses.

use crate::editor::tools::EditorTools;
use crate::variants::RulesVariant;
use bevy_egui::egui;

/// The play-test settings for a level whose sides are `sides` and whose variant is `rules`.
pub(super) fn settings(ui: &mut egui::Ui, tools: &mut EditorTools, sides: Vec<String>, rules: RulesVariant) {
    ui.strong("Play-test (F5)");
    ui.horizontal_wrapped(|ui| {
        ui.label("You play:");
        for s in sides {
            if ui.radio(tools.playtest_side.as_ref() == Some(&s), s.as_str()).clicked() {
                tools.playtest_side = Some(s);
            }
        }
        if ui.radio(tools.playtest_side.is_none(), "AI vs AI").clicked() {
            tools.playtest_side = None;
        }
    });
    ui.horizontal(|ui| {
        ui.label("Rules");
        let shown = tools.playtest_rules.map_or_else(|| format!("{} (the level's)", rules.id()), |v| v.id().into());
        egui::ComboBox::from_id_salt("playtest-rules").selected_text(shown).show_ui(ui, |ui| {
            if ui.selectable_label(tools.playtest_rules.is_none(), "the level's").clicked() {
                tools.playtest_rules = None;
            }
            for v in RulesVariant::ALL {
                if ui.selectable_label(tools.playtest_rules == Some(v), v.entry()).clicked() {
                    tools.playtest_rules = Some(v);
                }
            }
        });
        ui.label("seed");
        ui.add(egui::DragValue::new(&mut tools.playtest_seed));
    });
    if !tools.playtest_house_rules.is_empty() {
        let named: Vec<&str> = tools.playtest_house_rules.iter().map(|r| r.id()).collect();
        ui.label(format!("house rules from the command line: {}", named.join(", ")));
    }
}

/// The AI a side plays by default, as the level file names it: "default" leaves it unnamed
/// (the skirmish's tactical AI, greedy on the compare boards); any AI picked is saved by
/// name, whatever it is. Gives the choice made, if one was.
pub(super) fn side_ai_picker(
    ui: &mut egui::Ui,
    side: &str,
    named: Option<crate::combat::AiKind>,
) -> Option<Option<crate::combat::AiKind>> {
    let mut picked = None;
    let shown = named.map_or_else(|| format!("default ({})", crate::game::SKIRMISH_AI), |ai| ai.to_string());
    let combo = egui::ComboBox::from_id_salt(("side-ai", side)).selected_text(format!("AI: {shown}"));
    combo.show_ui(ui, |ui| {
        let default = ui.selectable_label(named.is_none(), "default").on_hover_text(
            "not named in the file: the skirmish plays it as the tactical AI (normal), the compare boards as greedy",
        );
        if default.clicked() {
            picked = Some(None);
        }
        for kind in crate::combat::AiKind::ALL {
            if ui.selectable_label(named == Some(kind), kind.to_string()).clicked() {
                picked = Some(Some(kind));
            }
        }
    });
    picked
}
