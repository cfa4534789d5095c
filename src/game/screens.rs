//! The screens drawn with egui: the title menu, the pause menu (Esc) and the end screen
//! with the result and a summary. In a play-test from the editor, Esc and the end screen
//! lead back to the editor instead.

use super::{EditedLevels, GameSetup, HumanSides, LevelEntry, MenuNotice, Paused, PlayTest, Screen, scan_levels};
use crate::combat::CombatEvent;
use crate::combat::plugin::BattleRes;
use crate::input::{ActiveBindings, GameAction, Presses};
use crate::variants::{HouseRule, RulesVariant};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub struct ScreensPlugin;

impl Plugin for ScreensPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<MenuChoice>()
            .add_systems(OnEnter(Screen::Menu), select_the_level_just_edited)
            .add_systems(
                EguiPrimaryContextPass,
                (
                    menu_screen.run_if(in_state(Screen::Menu)),
                    (pause_menu, end_screen).run_if(in_state(Screen::Skirmish)),
                ),
            )
            .add_systems(Update, toggle_pause.run_if(in_state(Screen::Skirmish)));
    }
}

/// What the menu has picked so far.
#[derive(Resource, Default)]
struct MenuChoice {
    levels: Option<Vec<LevelEntry>>,
    selected: usize,
    rules: Option<RulesVariant>,
    /// The house rules picked; `None`: the level's own.
    house_rules: Option<Vec<HouseRule>>,
    /// Index into the level's sides; `None` = watch the AI.
    side: Option<usize>,
    /// The AI picked for a side (else the level's, else `SKIRMISH_AI`).
    ais: std::collections::BTreeMap<String, crate::combat::AiKind>,
    /// The seed as typed: a number is used as it is, any other text is hashed.
    seed_text: String,
    /// The level to select when the list is next read (the one just edited).
    want: Option<std::path::PathBuf>,
}

/// Back from the editor: the list is read again (the level may be new, or renamed) and
/// the level just edited is selected.
fn select_the_level_just_edited(mut edited: ResMut<EditedLevels>, mut choice: ResMut<MenuChoice>) {
    if let Some(path) = edited.last.take() {
        choice.levels = None;
        choice.want = Some(path);
    }
}

fn centred(title: &str) -> egui::Window<'_> {
    egui::Window::new(title).collapsible(false).resizable(false).anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
}

fn menu_screen(
    mut contexts: EguiContexts,
    mut choice: ResMut<MenuChoice>,
    edited: Res<EditedLevels>,
    mut notice: ResMut<MenuNotice>,
    setup: Option<Res<GameSetup>>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
    keys: Res<ButtonInput<KeyCode>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if choice.levels.is_none() {
        let entries = scan_levels(&super::menu_level_files(&edited));
        // Start on the level just edited, else the one last played (or the default skirmish).
        let last_played = || setup.as_ref().map_or_else(crate::play::default_level, |s| s.level.clone());
        let want = choice.want.take().unwrap_or_else(last_played);
        choice.selected = entries.iter().position(|e| same_file(&e.path, &want)).unwrap_or(0);
        choice.seed_text = setup.as_ref().map_or(1, |s| s.seed).to_string();
        choice.side = entries.get(choice.selected).and_then(|e| e.summary.as_ref().ok()).map(|s| s.person);
        choice.levels = Some(entries);
    }
    let mut start = keys.just_pressed(KeyCode::Enter);
    let mut compare = false;
    centred("Fivefoot").min_width(560.0).show(ctx, |ui| {
        ui.label("A tactical grid skirmish: tabletop combat rules, visible square by square.");
        ui.separator();
        ui.heading("Scenario");
        let entries = choice.levels.clone().unwrap_or_default();
        egui::ScrollArea::vertical().max_height(260.0).show(ui, |ui| {
            for (i, e) in entries.iter().enumerate() {
                let file = e.path.file_name().map_or(String::new(), |f| f.to_string_lossy().into_owned());
                match &e.summary {
                    Ok(s) => {
                        let sides: Vec<String> = s.sides.iter().map(|(side, n)| format!("{n} {side}")).collect();
                        let text = format!(
                            "{}  ({}x{}, {}, {})  [{}]",
                            s.name,
                            s.width,
                            s.height,
                            sides.join(" vs "),
                            s.rules.id(),
                            file
                        );
                        if ui.selectable_label(choice.selected == i, text).clicked() {
                            choice.selected = i;
                            choice.side = Some(s.person);
                            choice.house_rules = None;
                            choice.ais.clear();
                        }
                    }
                    Err(err) => {
                        ui.colored_label(egui::Color32::from_rgb(230, 110, 90), format!("{file}: {err}"));
                    }
                }
            }
        });
        let Some(Ok(level)) = entries.get(choice.selected).map(|e| e.summary.clone()) else {
            return;
        };
        ui.separator();
        ui.horizontal(|ui| {
            ui.label("Rules:");
            let current = choice.rules.unwrap_or(level.rules);
            egui::ComboBox::from_id_salt("rules").selected_text(current.id()).show_ui(ui, |ui| {
                for v in RulesVariant::ALL {
                    let label = if v == level.rules { format!("{} (the level's)", v.entry()) } else { v.entry() };
                    if ui.selectable_label(current == v, label).clicked() {
                        choice.rules = if v == level.rules { None } else { Some(v) };
                    }
                }
            });
            ui.label("Seed:");
            ui.add(egui::TextEdit::singleline(&mut choice.seed_text).desired_width(120.0));
            match super::seed_from_text(&choice.seed_text) {
                Ok(seed) if choice.seed_text.trim().parse::<u64>().is_err() => {
                    // The number on hover: twenty digits would widen the menu as they appear.
                    ui.weak("(text: hashed)").on_hover_text(format!("the seed: {seed}"));
                }
                Ok(_) => {}
                Err(why) => {
                    ui.colored_label(egui::Color32::from_rgb(230, 110, 90), why);
                }
            }
        });
        house_rule_toggles(ui, &mut choice, &level);
        ui.horizontal(|ui| {
            ui.label("You play:");
            for (i, (side, _)) in level.sides.iter().enumerate() {
                if ui.radio(choice.side == Some(i), side).clicked() {
                    choice.side = Some(i);
                }
            }
            if ui.radio(choice.side.is_none(), "nobody (watch the AI)").clicked() {
                choice.side = None;
            }
        });
        ai_pickers(ui, &mut choice, &level);
        if let Some(n) = &notice.0 {
            ui.colored_label(egui::Color32::from_rgb(230, 110, 90), n);
        }
        ui.separator();
        ui.horizontal(|ui| {
            start |= ui.button("Start (Enter)").clicked();
            if ui.button("Level editor").on_hover_text("edit the selected level").clicked()
                && let Some(e) = choice.levels.as_ref().and_then(|l| l.get(choice.selected))
            {
                notice.0 = None;
                commands.insert_resource(crate::editor::OpenInEditor(e.path.clone()));
                next.set(Screen::Editor);
            }
            compare |= ui
                .button("Compare variants")
                .on_hover_text("the selected level under every variant, side by side, AI against AI")
                .clicked();
            if ui.button("Quit").clicked() {
                exit.write(AppExit::Success);
            }
        });
    });
    let entries = choice.levels.clone().unwrap_or_default();
    let seed = super::seed_from_text(&choice.seed_text);
    if compare && let (Some(LevelEntry { path, summary: Ok(_) }), Ok(seed)) = (entries.get(choice.selected), &seed) {
        notice.0 = None;
        // The level's own AIs are the boards' defaults (`Boards::new`); the menu's override.
        commands.insert_resource(crate::compare::window::CompareSetup {
            level: path.clone(),
            specs: crate::compare::VariantSpec::all(),
            seed: *seed,
            ais: choice.ais.clone(),
            batch: None,
        });
        next.set(Screen::Compare);
    }
    if start && let (Some(LevelEntry { path, summary: Ok(level) }), Ok(seed)) = (entries.get(choice.selected), seed) {
        notice.0 = None;
        commands.insert_resource(GameSetup {
            level: path.clone(),
            rules: choice.rules,
            side: choice.side.and_then(|i| level.sides.get(i)).map(|(s, _)| s.clone()),
            seed,
            house_rules: choice.house_rules.is_some().then(|| chosen_house_rules(&choice, level)),
            ais: choice.ais.clone(),
        });
        next.set(Screen::Skirmish);
    }
    Ok(())
}

/// The AI of each side the person does not play: the level's, else `SKIRMISH_AI`. (Compare
/// variants gets only the AIs picked here: its boards and batches keep the level's, greedy
/// where it names none, so that a batch stays quick.)
fn ai_pickers(ui: &mut egui::Ui, choice: &mut MenuChoice, level: &super::LevelSummary) {
    ui.horizontal(|ui| {
        ui.label("AI:");
        for (i, (side, _)) in level.sides.iter().enumerate() {
            if choice.side == Some(i) {
                continue;
            }
            let (current, by_default) = super::skirmish_ai(&choice.ais, &level.ais, side);
            // The default said as such: Compare variants plays greedy there unless one is picked.
            let default = if by_default { " (default)" } else { "" };
            let selected = format!("{side}: {}{default}", ai_label(current));
            let combo = egui::ComboBox::from_id_salt(("ai", side.as_str())).selected_text(selected).show_ui(ui, |ui| {
                for kind in crate::combat::AiKind::ALL {
                    if ui.selectable_label(current == kind, ai_label(kind)).clicked() {
                        choice.ais.insert(side.clone(), kind);
                    }
                }
            });
            if by_default {
                combo
                    .response
                    .on_hover_text("the skirmish's default; Compare variants plays greedy unless one is picked");
            }
        }
    });
}

/// An AI as the menu lists it: the tactical AI by its difficulty, each named (the command
/// line's `tactical` is `tactical:normal`).
fn ai_label(kind: crate::combat::AiKind) -> String {
    match kind {
        crate::combat::AiKind::Tactical(d) => format!("tactical: {}", d.id()),
        crate::combat::AiKind::Greedy => "greedy (the baseline)".into(),
        other => other.to_string(),
    }
}

/// The house rules the menu will start the battle with: those ticked (only those that
/// apply to the variant picked), or the level's own.
fn chosen_house_rules(choice: &MenuChoice, level: &super::LevelSummary) -> Vec<HouseRule> {
    let variant = choice.rules.unwrap_or(level.rules);
    let picked = choice.house_rules.as_deref().unwrap_or(&level.house_rules);
    picked.iter().copied().filter(|r| r.applies_to().contains(&variant)).collect()
}

/// The menu's toggles of the house rules, for the variant picked.
fn house_rule_toggles(ui: &mut egui::Ui, choice: &mut MenuChoice, level: &super::LevelSummary) {
    let mut on = chosen_house_rules(choice, level);
    if house_rule_checkboxes(ui, choice.rules.unwrap_or(level.rules), &mut on) {
        choice.house_rules = Some(on);
    }
}

/// A checkbox for each house rule that applies to `variant`, its effect on hover, ticking
/// and unticking `on` (kept sorted); whether anything changed.
pub(crate) fn house_rule_checkboxes(ui: &mut egui::Ui, variant: RulesVariant, on: &mut Vec<HouseRule>) -> bool {
    let mut changed = false;
    ui.horizontal_wrapped(|ui| {
        ui.label("House rules:");
        for rule in HouseRule::ALL.into_iter().filter(|r| r.applies_to().contains(&variant)) {
            let mut ticked = on.contains(&rule);
            if ui.checkbox(&mut ticked, rule.id()).on_hover_text(rule.describe()).changed() {
                on.retain(|r| *r != rule);
                if ticked {
                    on.push(rule);
                }
                on.sort();
                changed = true;
            }
        }
    });
    changed
}

pub(super) fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

fn toggle_pause(
    presses: Res<Presses>,
    mut paused: ResMut<Paused>,
    playtest: Option<Res<PlayTest>>,
    mut next: ResMut<NextState<Screen>>,
) {
    if playtest.is_some() && presses.pressed(GameAction::Pause) {
        next.set(Screen::Editor);
    } else if presses.count(GameAction::Pause) % 2 == 1 {
        paused.0 = !paused.0;
    }
}

/// Restart with fresh dice, or go back to the menu.
fn restart(commands: &mut Commands, setup: Option<&GameSetup>, next: &mut NextState<Screen>) {
    if let Some(s) = setup {
        let mut s = s.clone();
        s.seed = s.seed.wrapping_add(1);
        commands.insert_resource(s);
    }
    next.set(Screen::Loading);
}

fn pause_menu(
    mut contexts: EguiContexts,
    mut paused: ResMut<Paused>,
    setup: Option<ResMut<GameSetup>>,
    battle: Option<Res<BattleRes>>,
    playtest: Option<Res<PlayTest>>,
    bindings: Option<Res<ActiveBindings>>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
) -> Result {
    if !paused.0 {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    // The controls scroll within what the window leaves after the title, the buttons and the
    // bindings file's line, so the whole window fits any height.
    let controls_room = (ctx.viewport_rect().height() - 300.0).max(80.0);
    centred("Paused").show(ctx, |ui| {
        if ui.button("Resume (Esc)").clicked() {
            paused.0 = false;
        }
        if ui.button("Restart (new dice)").clicked() {
            restart(&mut commands, setup.as_deref(), &mut next);
        }
        if let (Some(mut setup), Some(battle)) = (setup, battle.as_deref()) {
            house_rules_for_restart(ui, &mut setup, battle);
        }
        if playtest.is_some() && ui.button("Back to the editor").clicked() {
            next.set(Screen::Editor);
        }
        if ui.button("Main menu").clicked() {
            next.set(Screen::Menu);
        }
        if ui.button("Quit").clicked() {
            exit.write(AppExit::Success);
        }
        if let Some(b) = bindings {
            ui.separator();
            ui.label("Controls");
            egui::ScrollArea::vertical().max_height(controls_room).show(ui, |ui| controls(ui, &b));
            ui.label(format!("Bindings file: {}", crate::input::user_bindings_path().display()));
        }
    });
    Ok(())
}

/// The house rules of the battle's variant as toggles: the battle keeps those it began
/// with, and a restart takes those ticked.
fn house_rules_for_restart(ui: &mut egui::Ui, setup: &mut GameSetup, battle: &BattleRes) {
    let variant = battle.battle.variant();
    let in_force = battle.battle.house_rules();
    let picked = setup.house_rules.get_or_insert_with(|| in_force.to_vec());
    house_rule_checkboxes(ui, variant, picked);
    if picked.as_slice() != in_force {
        ui.weak("The house rules ticked take effect when the battle restarts.");
    }
}

/// Every bound action and its keys, a row each (the action bar's slots as one row).
fn controls(ui: &mut egui::Ui, b: &ActiveBindings) {
    egui::Grid::new("keys").striped(true).show(ui, |ui| {
        for (action, inputs) in &b.0.bindings {
            if action.slot().is_some_and(|s| s > 0) {
                continue;
            }
            let keys = |inputs: &[crate::input::Input]| inputs.iter().map(|i| i.label()).collect::<Vec<_>>().join(", ");
            if action.slot().is_some() {
                // The twenty slots as one row: the first and last slots' keys.
                let last = crate::input::SLOTS.last().map_or(String::new(), |&s| keys(b.0.of(s)));
                ui.label("action bar slots");
                ui.label(format!("{} .. {last}", keys(inputs)));
            } else {
                ui.label(action.describe());
                ui.label(keys(inputs));
            }
            ui.end_row();
        }
    });
}

/// Per side: damage dealt and foes dropped, from the events.
pub fn damage_by_side(res: &BattleRes) -> Vec<(String, i64, u32)> {
    let b = res.battle.read();
    let side_of = |id: &str| b.index_of(id).map(|i| b.fighters.side[i].0.clone()).unwrap_or_default();
    let mut out: Vec<(String, i64, u32)> = b.sides_all().into_iter().map(|s| (s, 0, 0)).collect();
    for e in b.events.iter() {
        if let CombatEvent::Damage { attacker, total, hp_after, .. } = e {
            let side = side_of(attacker);
            if let Some(row) = out.iter_mut().find(|(s, _, _)| *s == side) {
                row.1 += i64::from(*total);
                if *hp_after <= 0 && hp_after + total > 0 {
                    row.2 += 1;
                }
            }
        }
    }
    out
}

fn end_screen(
    mut contexts: EguiContexts,
    res: Option<Res<BattleRes>>,
    humans: Res<HumanSides>,
    setup: Option<Res<GameSetup>>,
    playtest: Option<Res<PlayTest>>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let Some(res) = res else { return Ok(()) };
    let Some(winner) = res.battle.winner() else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let b = res.battle.read();
    let headline = match &winner {
        Some(w) if humans.0.contains(w) => "Victory!".to_string(),
        Some(w) if !humans.0.is_empty() => format!("Defeat: {w} wins"),
        Some(w) => format!("{w} wins"),
        None => "Draw".to_string(),
    };
    // Collapsible (its title bar's arrow), so the final board can be looked over.
    centred("Battle over").collapsible(true).show(ctx, |ui| {
        ui.heading(headline);
        ui.label(format!("{} under {}", *b.level_name, b.variant.id()));
        let rounds = crate::control::vocabulary::rounds_word(b.variant);
        ui.label(format!("{} {rounds}", b.clock.round));
        egui::Grid::new("summary").striped(true).show(ui, |ui| {
            ui.label("side");
            ui.label("damage dealt");
            ui.label("foes dropped");
            ui.end_row();
            for (side, dmg, dropped) in damage_by_side(&res) {
                ui.label(side);
                ui.label(dmg.to_string());
                ui.label(dropped.to_string());
                ui.end_row();
            }
        });
        let s = &b.stats;
        ui.label(format!(
            "attacks {}, hits {}, critical hits {}, attacks of opportunity {}",
            s.attacks, s.hits, s.criticals, s.attacks_of_opportunity
        ));
        if s.spells_cast > 0 {
            ui.label(format!("spells cast {}, counterspells {}", s.spells_cast, s.counterspells));
        }
        ui.separator();
        ui.horizontal(|ui| {
            if ui.button("Play again (new dice)").clicked() {
                restart(&mut commands, setup.as_deref(), &mut next);
            }
            if playtest.is_some() && ui.button("Back to the editor (Esc)").clicked() {
                next.set(Screen::Editor);
            }
            if ui.button("Main menu").clicked() {
                next.set(Screen::Menu);
            }
        });
    });
    Ok(())
}
