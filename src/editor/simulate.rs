//! The editor's "Simulate" panel: the balance check (`balance`) of the level as it stands,
//! run on worker threads while the editor stays responsive, with a progress bar and, when
//! done, each side's win rate and 95 % interval per variant. Results are for one revision
//! of the level: after an edit they are shown greyed as out of date, and undoing back to
//! the simulated level makes them current again.

use super::balance::{BalanceReport, BalanceSpec, check_balance};
use super::session::{EditorDoc, Problems};
use crate::level::{Catalogue, Level};
use crate::variants::RulesVariant;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use bevy_egui::egui;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

/// The balance check being set up, under way, or done.
#[derive(Resource)]
pub struct BalanceRun {
    /// Battles per variant.
    pub battles: u32,
    /// Every variant, or only the play-test's.
    pub every_variant: bool,
    running: Option<Running>,
    /// The last answer.
    pub result: Option<BalanceAnswer>,
}

/// A balance check's answer and the level it was for.
#[derive(Clone, Debug)]
pub struct BalanceAnswer {
    /// The level's name.
    pub name: String,
    /// The level's revision (`Document::revision`).
    pub revision: u64,
    pub reports: Result<Vec<BalanceReport>, String>,
    /// When hex-phases was among the variants and its hex layout breaks the level's
    /// symmetry: the note that says so (`level::hex_layout_note`).
    pub hex_note: Option<String>,
}

impl BalanceAnswer {
    /// The level has changed since it was simulated (and not been undone back).
    pub fn out_of_date(&self, revision: u64) -> bool {
        self.revision != revision
    }
}

struct Running {
    task: Task<Result<Vec<BalanceReport>, String>>,
    done: Arc<AtomicU32>,
    total: u32,
    name: String,
    revision: u64,
    hex_note: Option<String>,
}

impl Default for BalanceRun {
    fn default() -> Self {
        BalanceRun { battles: 200, every_variant: true, running: None, result: None }
    }
}

impl BalanceRun {
    /// Starts the check of `level` (at `revision`) under `variants` on worker threads.
    pub fn start(&mut self, level: Level, revision: u64, variants: Vec<RulesVariant>, seed: u64) {
        let done = Arc::new(AtomicU32::new(0));
        let total = self.battles * variants.len() as u32;
        let spec =
            BalanceSpec { battles: self.battles, variants, seed, threads: crate::combat::sim::default_threads() };
        let counter = done.clone();
        let name = level.def.name.clone();
        let hex_note = spec
            .variants
            .contains(&RulesVariant::HexPhases)
            .then(|| crate::level::hex_layout_note(&level, Catalogue::builtin_ref()))
            .flatten();
        let task = AsyncComputeTaskPool::get().spawn(async move {
            check_balance(&level, Catalogue::builtin_ref(), &spec, &mut |k| counter.store(k, Ordering::Relaxed))
                .map_err(|e| e.to_string())
        });
        self.running = Some(Running { task, done, total, name, revision, hex_note });
    }

    /// Battles done and in all, while a check runs.
    pub fn progress(&self) -> Option<(u32, u32)> {
        self.running.as_ref().map(|r| (r.done.load(Ordering::Relaxed), r.total))
    }
}

/// Takes the answer once the worker has it.
pub fn poll_balance(mut run: ResMut<BalanceRun>) {
    let Some(r) = run.running.as_mut() else { return };
    if let Some(reports) = check_ready(&mut r.task) {
        let (name, revision, hex_note) = (r.name.clone(), r.revision, r.hex_note.clone());
        run.running = None;
        run.result = Some(BalanceAnswer { name, revision, reports, hex_note });
    }
}

/// The panel: settings, the Simulate button, progress, then the results.
pub fn simulate_panel(
    ui: &mut egui::Ui,
    run: &mut BalanceRun,
    doc: &EditorDoc,
    problems: &Problems,
    rules: Option<RulesVariant>,
    seed: u64,
) {
    ui.strong("Balance check");
    ui.horizontal(|ui| {
        ui.label("battles");
        ui.add(egui::DragValue::new(&mut run.battles).range(2..=5000));
        ui.checkbox(&mut run.every_variant, "every variant");
    });
    if let Some((done, total)) = run.progress() {
        let share = if total == 0 { 0.0 } else { done as f32 / total as f32 };
        ui.add(egui::ProgressBar::new(share).text(format!("{done} of {total} battles")));
    } else {
        let ready = super::check::errors(&problems.0).next().is_none();
        let button = ui.add_enabled(ready, egui::Button::new("Simulate"));
        let button = if ready { button } else { button.on_disabled_hover_text("fix the problems first") };
        if button.clicked() {
            match Level::from_def(doc.doc.level().clone(), Catalogue::builtin_ref()) {
                Ok(level) => {
                    let variants = if run.every_variant {
                        RulesVariant::ALL.to_vec()
                    } else {
                        vec![rules.unwrap_or(level.def.rules)]
                    };
                    run.start(level, doc.doc.revision(), variants, seed);
                }
                Err(e) => {
                    let (name, revision) = (doc.doc.level().name.clone(), doc.doc.revision());
                    run.result = Some(BalanceAnswer { name, revision, reports: Err(e.to_string()), hex_note: None });
                }
            }
        }
    }
    let Some(answer) = &run.result else { return };
    let stale = answer.out_of_date(doc.doc.revision());
    if stale {
        ui.colored_label(egui::Color32::from_rgb(240, 190, 90), "the level changed since: run again");
    }
    // Out-of-date figures stay readable, greyed.
    ui.add_enabled_ui(!stale, |ui| answer_lines(ui, answer));
}

/// The answer's lines: each variant's win rates with their intervals, draws and rounds.
fn answer_lines(ui: &mut egui::Ui, answer: &BalanceAnswer) {
    match &answer.reports {
        Ok(reports) => {
            ui.label(format!("{}, colours swapped for the second half:", answer.name));
            for r in reports {
                let sides: Vec<String> = r
                    .sides
                    .iter()
                    .map(|s| format!("{} {:.0} % ({:.0}–{:.0})", s.side, 100.0 * s.rate, 100.0 * s.low, 100.0 * s.high))
                    .collect();
                ui.label(egui::RichText::new(&r.rules).strong());
                ui.label(format!("  {}", sides.join(", ")));
                ui.weak(format!("  draws {}, mean rounds {:.1}", r.draws, r.mean_rounds));
                if let Some(note) = answer.hex_note.as_ref().filter(|_| r.rules == RulesVariant::HexPhases.id()) {
                    ui.colored_label(egui::Color32::from_rgb(240, 190, 90), note);
                }
            }
        }
        Err(e) => {
            ui.colored_label(egui::Color32::from_rgb(255, 120, 110), e);
        }
    }
}
