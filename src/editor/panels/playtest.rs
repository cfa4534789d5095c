//! The editor's play-test settings: the side the designer plays (or AI against AI), the
//! rules to play under (the level's own, or another variant to try it with) and the seed.
//! The level's house rules come with it; `edit --house-rule` puts others in their place.

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
