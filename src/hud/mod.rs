//! Panels round the board (egui): the top bar (scenario, the rules picker that plays it
//! again under another variant, the clock in the variant's words, layers, AI pace, frame
//! time), the right panel (initiative and phase track, the acting and selected units, the
//! attack breakdown with every modifier and the hit chance, the path's cost and attacks of
//! opportunity, the same action under each variant (`variants`), and the scrollable combat
//! log with every roll), and the bottom action bar with shortcuts and reasons. Reads the
//! battle; changes it only through the player's commands.

use crate::combat::plugin::{
    AiReason, AiThinking, BattleRes, CombatEventMsg, CommandRefused, Pace, SkipAi, TurnEndedByItself,
};
use crate::control::plugin::{ActionBar, Feedback, Selection, SlotPressed, human_actor};
use crate::control::{SlotAction, budget_line};
use crate::game::{GameSetup, HumanSides, Paused, Screen};
use crate::input::{ActiveBindings, GameAction, Presses};
use crate::overlay::{Layers, Preview};
use crate::view::LevelName;
use crate::view::camera::{PanelEdges, SIDE_GAP};
use bevy::diagnostic::{DiagnosticsStore, FrameTimeDiagnosticsPlugin};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub mod variants;

pub struct HudPlugin;

impl Plugin for HudPlugin {
    fn build(&self, app: &mut App) {
        crate::view::camera::panel_edges_while(app, Screen::Skirmish, PANEL_EDGES);
        app.add_plugins(variants::VariantTablePlugin)
            .init_resource::<CombatLog>()
            .init_resource::<crate::view::SideColours>()
            .add_systems(OnEnter(Screen::Skirmish), |mut log: ResMut<CombatLog>| {
                log.lines.clear();
                log.reason.clear();
            })
            .add_systems(Update, (collect_log, pace_keys).run_if(in_state(Screen::Skirmish)))
            .add_systems(EguiPrimaryContextPass, hud.run_if(in_state(Screen::Skirmish)));
    }
}

/// The play screen's panels as drawn: the log's `SIDE_GAP` narrower than its room.
pub const PANEL_EDGES: PanelEdges = PanelEdges::play(SIDE_GAP);

/// How many of the newest log lines the panel lays out.
pub const LOG_SHOWN: usize = 300;

/// Every event line so far, newest last, with the AI's reasons among them (shown on
/// demand).
#[derive(Resource, Default)]
pub struct CombatLog {
    pub lines: Vec<String>,
    /// Which of `lines` are an AI's reason for its next command.
    pub reason: Vec<bool>,
    /// Whether the panel shows the AI's reasons.
    pub show_reasons: bool,
}

impl CombatLog {
    fn push(&mut self, line: String, reason: bool) {
        self.lines.push(line);
        self.reason.push(reason);
    }

    /// The lines the panel shows, oldest first: the newest `LOG_SHOWN`, reasons only when
    /// asked for.
    pub fn shown(&self) -> Vec<&str> {
        let mut shown: Vec<&str> = self
            .lines
            .iter()
            .zip(&self.reason)
            .rev()
            .filter(|(_, why)| self.show_reasons || !**why)
            .take(LOG_SHOWN)
            .map(|(l, _)| l.as_str())
            .collect();
        shown.reverse();
        shown
    }
}

fn collect_log(
    mut events: MessageReader<CombatEventMsg>,
    mut refused: MessageReader<CommandRefused>,
    mut ended: MessageReader<TurnEndedByItself>,
    mut reasons: MessageReader<AiReason>,
    mut log: ResMut<CombatLog>,
    mut feedback: ResMut<Feedback>,
    res: Option<Res<BattleRes>>,
) {
    let attack_target = res.map_or("AC", |r| r.battle.variant().numbers().attack_target.as_str());
    // An opportunity that ended by itself is said before the clock moves on (a new round or
    // phase, or the next one's turn).
    let mut ended: Vec<String> = ended.read().map(TurnEndedByItself::describe).collect();
    // The AI's reason comes before what its command did (one AI command a frame at most).
    for r in reasons.read() {
        log.push(format!("why: {}", r.reason), true);
    }
    // One line a change of the clock (a round's marker, a phase's and a turn's come
    // together): a second opportunity that ended this frame is said at the next change.
    let mut in_a_change = false;
    for e in events.read() {
        use crate::combat::CombatEvent as E;
        let clock_moves = matches!(e.0, E::TurnStarted { .. } | E::RoundStarted { .. } | E::PhaseStarted { .. });
        let first_of_change = clock_moves && !in_a_change;
        in_a_change = clock_moves;
        if first_of_change && !ended.is_empty() {
            let line = ended.remove(0);
            feedback.0 = Some(line.clone());
            log.push(line, false);
        }
        log.push(e.0.describe_under(attack_target), false);
    }
    for line in ended {
        feedback.0 = Some(line.clone());
        log.push(line, false);
    }
    for r in refused.read() {
        feedback.0 = Some(r.0.clone());
    }
}

fn pace_keys(presses: Res<Presses>, pace: Option<ResMut<Pace>>, mut skip: ResMut<SkipAi>) {
    let Some(mut pace) = pace else { return };
    let steps = presses.count(GameAction::Faster) as i32 - presses.count(GameAction::Slower) as i32;
    if steps != 0 {
        let cps = 1.0 / pace.0.duration().as_secs_f32();
        set_pace(&mut pace, cps * 1.5f32.powi(steps));
    }
    if presses.pressed(GameAction::SkipAi) {
        skip.0 = true;
    }
}

fn set_pace(pace: &mut Pace, commands_per_second: f32) {
    let cps = commands_per_second.clamp(0.5, 60.0);
    pace.0.set_duration(std::time::Duration::from_secs_f32(1.0 / cps));
}

pub use crate::control::vocabulary::{clock_line, initiative_rows};

fn colour32(c: Color) -> egui::Color32 {
    let s = c.to_srgba();
    egui::Color32::from_rgb((s.red * 255.0) as u8, (s.green * 255.0) as u8, (s.blue * 255.0) as u8)
}

#[allow(clippy::too_many_arguments)]
fn hud(
    mut contexts: EguiContexts,
    res: Option<Res<BattleRes>>,
    (mut log, bar, preview, sel, feedback): (
        ResMut<CombatLog>,
        Res<ActionBar>,
        Res<Preview>,
        Res<Selection>,
        Res<Feedback>,
    ),
    mut layers: ResMut<Layers>,
    pace: Option<ResMut<Pace>>,
    mut skip: ResMut<SkipAi>,
    mut paused: ResMut<Paused>,
    thinking: Res<AiThinking>,
    (humans, name, setup, bindings, colours): (
        Res<HumanSides>,
        Option<Res<LevelName>>,
        Option<Res<GameSetup>>,
        Option<Res<ActiveBindings>>,
        Res<crate::view::SideColours>,
    ),
    diagnostics: Option<Res<DiagnosticsStore>>,
    mut slots: MessageWriter<SlotPressed>,
    (mut switch, mut replay, table, mut ai_squares): (
        MessageWriter<crate::game::switch::SwitchVariant>,
        ResMut<crate::game::switch::ReplayOrders>,
        Res<variants::VariantTable>,
        ResMut<crate::overlay::ai_squares::ShowAiSquares>,
    ),
) -> Result {
    let Some(res) = res else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let b = res.battle.read();
    let mut root = egui::Ui::new(
        ctx.clone(),
        "hud".into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()),
    );
    let hint = |a: GameAction| bindings.as_ref().map_or(String::new(), |b| b.0.hint(a));

    egui::Panel::top("top").exact_size(crate::view::camera::PANELS[2]).show(&mut root, |ui| {
        ui.horizontal_centered(|ui| {
            let level = name.as_ref().map_or(b.level_name.to_string(), |n| n.0.clone());
            ui.strong(level);
            ui.label("|");
            let key = hint(GameAction::NextVariant);
            if let Some(to) = crate::game::switch::variant_picker(ui, b.variant, &mut replay.0, &key) {
                switch.write(crate::game::switch::SwitchVariant(to));
            }
            let house: Vec<&str> = b.options.house_rules.iter().map(|r| r.id()).collect();
            if !house.is_empty() {
                ui.label(format!("+ {}", house.join(" + ")));
            }
            ui.separator();
            ui.toggle_value(&mut layers.enemy_threat, format!("Threat ({})", hint(GameAction::ToggleThreatLayer)));
            ui.toggle_value(&mut layers.range, format!("Range ({})", hint(GameAction::ToggleRangeLayer)));
            ui.toggle_value(&mut layers.lines, format!("Lines ({})", hint(GameAction::ToggleLinesLayer)));
            ui.separator();
            if let Some(mut pace) = pace {
                let mut cps = 1.0 / pace.0.duration().as_secs_f32();
                ui.label("AI");
                let slider = egui::Slider::new(&mut cps, 0.5..=30.0).logarithmic(true).suffix("/s");
                let slider =
                    slider.custom_formatter(|v, _| if v < 10.0 { format!("{v:.1}") } else { format!("{v:.0}") });
                if ui.add(slider).changed() {
                    set_pace(&mut pace, cps);
                }
            }
            if ui.button(format!("Skip AI ({})", hint(GameAction::SkipAi))).clicked() {
                skip.0 = true;
            }
            ui.toggle_value(&mut log.show_reasons, "AI reasons")
                .on_hover_text("show in the log why the AI chose each command (the tactical AI says)");
            ui.toggle_value(&mut ai_squares.0, "AI squares").on_hover_text(
                "show the candidates the tactical AI weighed for its last command, on their squares, \
                 red (worst) to green (best), with their scores; the chosen one ringed; the side \
                 panel lists them by name",
            );
            if ui.button("Pause (Esc)").clicked() {
                paused.0 = true;
            }
        });
    });

    egui::Panel::bottom("actions").exact_size(crate::view::camera::PANELS[3]).show(&mut root, |ui| {
        ui.add_space(4.0);
        let mine = human_actor(&res);
        ui.horizontal_wrapped(|ui| match mine {
            Some(i) => {
                ui.strong(format!("{} - {}:", b.fighters.combatant[i].id, budget_line(&b)));
                for (k, slot) in bar.0.iter().enumerate() {
                    // End turn (always last) shows its own key; the others their slot's.
                    let end_turn = matches!(slot.action, SlotAction::Now(crate::combat::Command::EndTurn));
                    let key = if end_turn {
                        format!("{} ", hint(GameAction::EndTurn))
                    } else {
                        crate::input::SLOTS.get(k).map_or(String::new(), |&a| format!("{} ", hint(a)))
                    };
                    let aiming = matches!(slot.action, SlotAction::Aim(t) if t == sel.tool);
                    let warn = if slot.provokes.is_empty() { "" } else { " (provokes!)" };
                    let text = egui::RichText::new(format!("{key}{}{warn}", slot.label));
                    let button = egui::Button::new(if aiming { text.strong().underline() } else { text });
                    let r = ui.add_enabled(slot.state.is_ok(), button);
                    let r = match &slot.state {
                        Err(why) => r.on_disabled_hover_text(why.as_str()),
                        Ok(()) if !slot.provokes.is_empty() => r.on_hover_text(format!(
                            "do it now: it provokes an attack of opportunity from {}",
                            slot.provokes.join(", ")
                        )),
                        Ok(()) => r.on_hover_text(match slot.action {
                            SlotAction::Aim(_) => "pick, then click a square or a foe",
                            SlotAction::Now(_) => "do it now",
                        }),
                    };
                    if r.clicked() {
                        slots.write(SlotPressed(k));
                    }
                }
            }
            None if b.is_over() => {
                ui.label("The battle is over.");
            }
            None => {
                let who = b.actor().map_or("-".into(), |a| b.fighters.combatant[a].id.clone());
                ui.label(format!("The AI is playing {who}... ({} to skip)", hint(GameAction::SkipAi)));
            }
        });
        if let Some(f) = &feedback.0 {
            ui.colored_label(egui::Color32::from_rgb(255, 150, 120), f);
        } else if let Some(r) = &preview.refusal {
            // Where the pointer rests is not a command: a calm note of why the tool in hand
            // would not work there, not an error.
            let why = r.split_once(": ").map_or(r.as_str(), |(_, why)| why);
            ui.label(egui::RichText::new(format!("Not from here: {why}")).weak().italics());
        }
        ui.horizontal(|ui| {
            ui.label("Legend:");
            for (c, t) in [
                ((107, 120, 97), "floor"),
                ((87, 77, 71), "wall"),
                ((140, 115, 71), "difficult (x2 cost)"),
                ((158, 153, 140), "low wall (x2, cover)"),
            ] {
                ui.colored_label(egui::Color32::from_rgb(c.0, c.1, c.2), "##");
                ui.label(t);
            }
            ui.separator();
            ui.colored_label(egui::Color32::from_rgb(90, 140, 255), "range");
            ui.colored_label(egui::Color32::from_rgb(255, 190, 60), "range, provokes");
            ui.colored_label(egui::Color32::from_rgb(90, 240, 255), "path");
            ui.colored_label(egui::Color32::from_rgb(255, 50, 40), "attack of opportunity");
            ui.colored_label(egui::Color32::from_rgb(255, 155, 30), "threatened (hovered)");
            ui.colored_label(egui::Color32::from_rgb(215, 100, 255), "flanking");
        });
    });

    egui::Panel::right("info").exact_size(PANEL_EDGES.0[1]).show(&mut root, |ui| {
        ui.label(egui::RichText::new(clock_line(&b)).color(egui::Color32::from_rgb(255, 225, 130)));
        // Who plays what, the seed, and how the frame and the AI are keeping up.
        let you = if humans.0.is_empty() { "watching".to_string() } else { format!("you: {}", humans.0.join(", ")) };
        let sides: std::collections::BTreeSet<&str> = b.fighters.iter().map(|f| f.side().0.as_str()).collect();
        let ais: Vec<String> = sides
            .iter()
            .filter(|s| !humans.0.iter().any(|h| h == *s))
            .map(|s| format!("{s}: {}", res.ai_of(s)))
            .collect();
        let mut about = vec![you, format!("AI {}", ais.join(", "))];
        about.extend(setup.as_ref().map(|s| format!("seed {}", s.seed)));
        let frame = diagnostics
            .as_ref()
            .and_then(|d| d.get(&FrameTimeDiagnosticsPlugin::FRAME_TIME))
            .and_then(|d| d.smoothed());
        // The AI's longest decision: to the hundredth of a millisecond while short, else whole.
        let longest = thinking.max_ms;
        let longest = if longest < 10.0 { format!("{longest:.2}") } else { format!("{longest:.0}") };
        about.extend(frame.map(|ms| format!("{ms:.0} ms/frame, AI {longest} ms")));
        ui.label(egui::RichText::new(about.join(" | ")).weak());
        if let Some(w) = &*b.winner {
            ui.strong(w.as_ref().map_or("Draw".to_string(), |w| format!("{w} wins")));
        }
        egui::CollapsingHeader::new("Initiative").default_open(true).show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                for (i, note) in initiative_rows(&b) {
                    let f = b.fighters.at(i);
                    let mut text =
                        egui::RichText::new(format!("{} {note}", f.id())).color(colour32(colours.of(&f.side().0)));
                    if b.actor() == Some(i) {
                        text = text.strong().underline();
                    }
                    ui.label(text);
                    ui.label("|");
                }
            });
        });
        if let Some(i) = sel.unit.filter(|&i| i < b.fighters.len()) {
            let f = b.fighters.at(i);
            ui.separator();
            ui.strong(format!("{} ({}, {})", f.id(), f.stats().creature, f.side().0));
            let conds: Vec<&str> = f.conditions().0.iter().map(|&c| crate::view::condition_badge(c)).collect();
            ui.label(format!(
                "HP {}/{}  speed {} ft  {}  reach {} ft  {}",
                f.health().hp,
                f.health().max,
                f.stats().def.speed_ft,
                f.wielded().def.name,
                crate::rules::ReachBand::of(f.reach().natural_ft, &f.wielded().def).map_or(0, |r| r.max_ft),
                conds.join(", ")
            ));
            if let Some(magic) = &f.stats().def.spellcasting {
                let names: Vec<&str> = magic
                    .spells
                    .iter()
                    .filter_map(|s| crate::combat::magic::spell(s).map(|sp| sp.name.as_str()))
                    .collect();
                let unit = crate::control::vocabulary::spells_unit(b.variant);
                ui.label(format!("{unit} left: {} of {} ({})", f.spells().left, magic.slots, names.join(", ")));
            }
            if human_actor(&res) == Some(i) {
                ui.label(format!("Tool: {} ({} puts it down)", sel.tool.describe(), hint(GameAction::Cancel)));
            }
        }
        if let Some(path) = &preview.path {
            ui.separator();
            ui.strong(format!("{}: {} ft", path.command.name(), path.cost_ft));
            if path.provokes.is_empty() {
                ui.label("provokes no attack of opportunity");
            }
            for (at, by) in &path.provokes {
                ui.colored_label(
                    egui::Color32::from_rgb(255, 130, 110),
                    format!("attack of opportunity by {by} leaving ({}, {})", at.x, at.y),
                );
            }
        }
        for (by, why) in &preview.provokes {
            ui.colored_label(egui::Color32::from_rgb(255, 130, 110), format!("attack of opportunity by {by}: {why}"));
        }
        if let Some((t, c)) = &preview.far_cover {
            ui.separator();
            let kind = format!("{:?}", c.cover).to_lowercase();
            ui.label(format!("{}'s cover from here: {kind} ({:+})", b.fighters.combatant[*t].id, c.ac_bonus));
        }
        if let Some((t, c)) = &preview.total_cover {
            ui.separator();
            ui.colored_label(
                egui::Color32::from_rgb(255, 110, 90),
                format!(
                    "{} has total cover: every line from every corner meets a wall ({} lines)",
                    b.fighters.combatant[*t].id,
                    c.lines.len()
                ),
            );
        }
        if let Some(a) = &preview.attack {
            ui.separator();
            let p = &a.profile;
            ui.strong(format!(
                "{} {} -> {}",
                a.command.name(),
                b.fighters.combatant[a.attacker].id,
                b.fighters.combatant[a.target].id
            ));
            egui::Grid::new("mods").striped(true).show(ui, |ui| {
                ui.label(p.die.name());
                ui.label("");
                ui.end_row();
                for m in &p.modifiers {
                    ui.label(m.source.as_str());
                    ui.label(format!("{:+}", m.value));
                    ui.end_row();
                }
                // The roll the die must show, then what it is measured against: "roll 14+
                // (AC 18)", "roll 9+ (10 + DCV = 13)".
                ui.strong("roll");
                let against = if p.against.contains(' ') { format!("{} =", p.against) } else { p.against.clone() };
                ui.strong(format!("{}+ ({against} {})", p.target_number - p.bonus(), p.target_number));
                ui.end_row();
                ui.strong("hit chance");
                ui.strong(format!("{:.1}%", p.hit_chance * 100.0));
                ui.end_row();
            });
            if matches!(a.command, crate::combat::Command::Charge { .. }) {
                for note in charge_notes(b.variant.numbers()) {
                    ui.label(egui::RichText::new(note).italics());
                }
            }
            ui.label(format!(
                "cover: {:?} ({:+}){}",
                a.cover.cover,
                a.cover.ac_bonus,
                if a.flanking_partners.is_empty() {
                    String::new()
                } else {
                    let names: Vec<&str> =
                        a.flanking_partners.iter().map(|&p| b.fighters.combatant[p].id.as_str()).collect();
                    format!(", flanked with {}", names.join(", "))
                }
            ));
        } else if let Some(h) = preview.hovered_unit {
            ui.separator();
            let f = b.fighters.at(h);
            ui.label(format!(
                "{}: HP {}/{}, threatens {} squares",
                f.id(),
                f.health().hp,
                f.health().max,
                preview.hovered_threat.len()
            ));
            // The badge under a crowded token may be in codes; here it is in words.
            if !f.conditions().0.is_empty() {
                let words: Vec<&str> = f.conditions().0.iter().map(|&c| crate::view::condition_badge(c)).collect();
                ui.label(format!("conditions: {}", words.join(", ")));
            }
        }
        variants::show(ui, &table, b.variant);
        if ai_squares.0 {
            ai_lines(ui, &res.ai_squares);
        }
        ui.separator();
        ui.strong("Combat log");
        egui::ScrollArea::vertical().stick_to_bottom(true).auto_shrink([false, false]).show(ui, |ui| {
            // The newest lines (laying out thousands every frame would cost the frame rate);
            // `fivefoot sim --log` keeps everything.
            for line in log.shown() {
                let text = egui::RichText::new(line).size(12.5);
                ui.label(if line.starts_with("why: ") { text.italics().weak() } else { text });
            }
        });
    });
    Ok(())
}

/// The lines the AI weighed for its last command, best first, by name: the overlay's
/// squares show only their scores.
fn ai_lines(ui: &mut egui::Ui, scored: &[crate::combat::ai::ScoredSquare]) {
    ui.separator();
    if scored.is_empty() {
        ui.label(egui::RichText::new("AI squares: the last command had no other line to weigh").weak());
        return;
    }
    egui::CollapsingHeader::new("AI squares: the lines weighed").default_open(true).show(ui, |ui| {
        let mut lines: Vec<_> = scored.iter().collect();
        lines.sort_by(|a, b| b.score.total_cmp(&a.score));
        for s in lines {
            let chosen = if s.chosen { " (chosen)" } else { "" };
            let text =
                egui::RichText::new(format!("{:+.2} at ({}, {}): {}{chosen}", s.score, s.square.x, s.square.y, s.line));
            ui.label(if s.chosen { text.strong() } else { text });
        }
    });
}

/// What a charge brings in this variant besides the modifiers listed, including what a
/// d20 player would expect and this variant's source does not give.
pub fn charge_notes(n: &crate::combat::variants::VariantNumbers) -> Vec<String> {
    let mut notes = vec![];
    if n.charge_attack == 0 {
        notes.push("no +2 to hit on a charge in this variant (its source gives none)".to_string());
    }
    notes.push(match (n.charge_damage, n.charge_damage_two_handed) {
        (0, 0) => "no extra damage on a charge in this variant".to_string(),
        (d, d2) if d == d2 => format!("{d:+} damage on a hit"),
        (d, d2) => format!("{d:+} damage on a hit ({d2:+} with a two-handed weapon)"),
    });
    if n.charge_full_attack {
        // Source 002: "If they end the move with a target in a threatened square, they can
        // make their attacks": the hit chance above is the first of them.
        notes.push("ends in a full attack: every attack the charger has, the first as above".to_string());
    }
    notes.push(if n.charge_defense == 0 {
        "no penalty to its own defence after charging".to_string()
    } else {
        // In words, since osr-segments counts its armour class down.
        let way = if n.charge_defense < 0 { "worse" } else { "better" };
        format!("its own armour class {way} by {} until its next turn", n.charge_defense.abs())
    });
    notes
}

#[cfg(test)]
mod tests {
    use super::charge_notes;
    use crate::variants::RulesVariant;

    #[test]
    fn a_turn_that_ended_by_itself_is_said_before_the_next_round_begins() {
        use crate::combat::CombatEvent as E;
        use crate::combat::plugin::{AiReason, CombatEventMsg, CommandRefused, TurnEndedByItself};
        use bevy::prelude::*;
        let mut app = App::new();
        app.add_message::<CombatEventMsg>()
            .add_message::<CommandRefused>()
            .add_message::<TurnEndedByItself>()
            .add_message::<AiReason>()
            .init_resource::<super::CombatLog>()
            .init_resource::<crate::control::plugin::Feedback>()
            .add_systems(Update, super::collect_log);
        // Two opportunities ended in one frame: each is said before its own change of the
        // clock, the second after what happened in the turn between.
        for unit in ["hero", "gob"] {
            app.world_mut().write_message(TurnEndedByItself { unit: unit.into(), after: "full attack".into() });
        }
        let guard = || E::Action { unit: "gob".into(), action: "guard".into(), detail: "+2 AC".into() };
        let events = [
            E::RoundStarted { round: 2 },
            E::TurnStarted { unit: "gob".into() },
            guard(),
            E::TurnStarted { unit: "hero".into() },
        ];
        for e in events {
            app.world_mut().write_message(CombatEventMsg(e));
        }
        app.update();
        let lines = &app.world().resource::<super::CombatLog>().lines;
        let ended = |u: &str| format!("{u}'s turn ends by itself: full attack used what it had left");
        let round = "-- round 2 --".to_string();
        let want = [
            ended("hero"),
            round,
            "gob's turn".into(),
            guard().describe_under("AC"),
            ended("gob"),
            "hero's turn".into(),
        ];
        assert_eq!(lines, &want);
    }

    #[test]
    fn a_charge_preview_says_what_each_variant_gives_and_what_it_does_not() {
        // d20-classic (source 002): +2 damage (+4 two-handed), -2 AC, and no attack bonus.
        let d20 = charge_notes(RulesVariant::D20Classic.numbers());
        assert_eq!(d20[0], "no +2 to hit on a charge in this variant (its source gives none)");
        assert_eq!(d20[1], "+2 damage on a hit (+4 with a two-handed weapon)");
        assert_eq!(d20[2], "ends in a full attack: every attack the charger has, the first as above");
        assert_eq!(d20[3], "its own armour class worse by 2 until its next turn");
        // four-actions: +2 to hit (a listed modifier), +2 damage, -2 AC.
        let four = charge_notes(RulesVariant::FourActions.numbers());
        assert_eq!(
            four,
            vec!["+2 damage on a hit".to_string(), "its own armour class worse by 2 until its next turn".to_string()]
        );
        // ap-phases: +2 to hit and nothing else.
        let ap = charge_notes(RulesVariant::ApPhases.numbers());
        assert_eq!(ap[0], "no extra damage on a charge in this variant");
    }
}
