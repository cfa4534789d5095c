//! The side-by-side window's batch: the comparison's battles played on a thread of their
//! own, a few for every spec in turn, while the window draws the charts `--plot` writes from
//! what has come in so far (egui_plot): each side's win rate with its 95 % interval, the
//! battle lengths as a CDF, and damage per round. Battle i of every spec has seed S + i and
//! the boards' AIs, so a battle picked in the list is replayed on the boards as it went in
//! the batch; the table and the charts export to files.

use super::batch::{self, CompareSpec, SpecRun};
use super::window::{Boards, CompareSetup};
use super::{CompareReport, VariantReport};
use crate::combat::AiKind;
use crate::level::{AtomicFile, Catalogue, Level};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use egui_plot::{Bar, BarChart, Legend, Line, Plot, PlotPoints};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// Battles each spec plays between two looks at the charts.
pub const CHUNK: u32 = 10;

/// What the batch's thread has played so far.
#[derive(Default)]
struct Played {
    runs: Vec<SpecRun>,
    done: u32,
    error: Option<String>,
}

fn lock(played: &Mutex<Played>) -> MutexGuard<'_, Played> {
    played.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Plays `battles` battles of every spec of `spec` (whose own `battles` is ignored), `CHUNK`
/// of each spec at a time, handing each chunk's runs to `chunk` with the battles done, until
/// `stop` is set. The runs handed over, joined, are those of one `run_specs` of them all.
pub fn play_in_chunks(
    level: &Level,
    catalogue: &Catalogue,
    spec: &CompareSpec,
    battles: u32,
    stop: &AtomicBool,
    chunk: &mut dyn FnMut(Vec<SpecRun>, u32),
) -> Result<(), String> {
    let mut first = 0;
    while first < battles && !stop.load(Ordering::Relaxed) {
        let n = CHUNK.min(battles - first);
        let part = CompareSpec { battles: n, ..spec.clone() };
        let runs = batch::run_specs(level, catalogue, &part, first, &mut |_| {}).map_err(|e| e.to_string())?;
        first += n;
        chunk(runs, first);
    }
    Ok(())
}

/// The chart or list the batch window shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum View {
    #[default]
    WinRate,
    Length,
    Damage,
    Table,
    Battles,
}

impl View {
    const ALL: [(View, &'static str); 5] = [
        (View::WinRate, "Win rate"),
        (View::Length, "Battle length"),
        (View::Damage, "Damage per round"),
        (View::Table, "Table"),
        (View::Battles, "Battles"),
    ];
}

/// The window's batch: how many battles a spec, the thread playing them, and the report of
/// what it has played so far.
#[derive(Resource)]
pub struct LiveBatch {
    pub open: bool,
    /// Battles per spec asked for.
    pub battles: u32,
    pub view: View,
    played: Arc<Mutex<Played>>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
    /// The report of the battles played when it was last folded, and how many those were.
    report: Option<CompareReport>,
    folded: u32,
    /// Each battle's winner under each spec, by battle.
    winners: Vec<Vec<String>>,
    notice: Option<String>,
}

impl LiveBatch {
    pub fn new(battles: u32) -> LiveBatch {
        LiveBatch {
            open: false,
            battles,
            view: View::default(),
            played: Arc::default(),
            stop: Arc::default(),
            thread: None,
            report: None,
            folded: 0,
            winners: Vec::new(),
            notice: None,
        }
    }

    /// Whether the thread is still playing.
    pub fn running(&self) -> bool {
        self.thread.as_ref().is_some_and(|t| !t.is_finished())
    }

    /// Battles played of each spec.
    pub fn done(&self) -> u32 {
        lock(&self.played).done
    }

    /// Starts the batch afresh on `setup`'s level, specs and seed with the boards' AIs.
    pub fn start(&mut self, setup: &CompareSetup, ais: BTreeMap<String, AiKind>) {
        self.halt();
        self.played = Arc::default();
        self.stop = Arc::default();
        self.report = None;
        self.folded = 0;
        self.winners.clear();
        self.notice = None;
        let (played, stop, battles) = (self.played.clone(), self.stop.clone(), self.battles);
        let spec = CompareSpec { variants: setup.specs.clone(), battles, seed: setup.seed, ais, threads: 1 };
        let path = setup.level.clone();
        let work = move || {
            let catalogue = Catalogue::builtin();
            let outcome = Level::load(&path, &catalogue).map_err(|e| e.to_string()).and_then(|level| {
                play_in_chunks(&level, &catalogue, &spec, battles, &stop, &mut |runs, done| {
                    let mut played = lock(&played);
                    if played.runs.is_empty() {
                        played.runs = runs;
                    } else {
                        for (whole, part) in played.runs.iter_mut().zip(runs) {
                            whole.battles.extend(part.battles);
                        }
                    }
                    played.done = done;
                })
            });
            if let Err(e) = outcome {
                lock(&played).error = Some(e);
            }
        };
        match std::thread::Builder::new().name("compare batch".into()).spawn(work) {
            Ok(thread) => self.thread = Some(thread),
            Err(e) => self.notice = Some(format!("could not start the batch: {e}")),
        }
    }

    /// Stops the thread after the chunk under way.
    pub fn halt(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }

    /// The report of everything played so far, folded again when more has come in.
    pub fn report(&mut self, level_name: &str, seed: u64, sides: &[String]) -> Option<&CompareReport> {
        let played = lock(&self.played);
        if played.done != self.folded && !played.runs.is_empty() {
            self.report = Some(batch::report_of(level_name, seed, sides, &played.runs));
            let n = played.runs[0].battles.len();
            self.winners = (0..n).map(|i| played.runs.iter().map(|r| r.battles[i].winner.clone()).collect()).collect();
            self.folded = played.done;
        }
        if let Some(e) = &played.error {
            self.notice = Some(e.clone());
        }
        drop(played);
        self.report.as_ref()
    }
}

impl Drop for LiveBatch {
    fn drop(&mut self) {
        self.halt();
    }
}

/// Opens the batch window (and starts the batch) if the command line asked for it.
pub(super) fn open_if_asked(mut commands: Commands, setup: Option<Res<CompareSetup>>, boards: Option<Res<Boards>>) {
    let mut live = LiveBatch::new(setup.as_ref().and_then(|s| s.batch).unwrap_or(200));
    if let (Some(setup), Some(boards)) = (setup, boards)
        && setup.batch.is_some()
    {
        live.open = true;
        live.start(&setup, boards.ais());
    }
    commands.insert_resource(live);
}

/// B opens or closes the batch window.
pub(super) fn toggle(
    keys: Res<ButtonInput<KeyCode>>,
    typing: Res<crate::input::TextFocus>,
    mut live: ResMut<LiveBatch>,
) {
    if !typing.0 && keys.just_pressed(KeyCode::KeyB) {
        live.open = !live.open;
    }
}

/// The batch window: the battles asked, run or stop, progress, the charts and table, the
/// battles played (watch one on the boards), and export.
pub(super) fn batch_window(
    mut contexts: EguiContexts,
    mut live: ResMut<LiveBatch>,
    mut boards: ResMut<Boards>,
    setup: Res<CompareSetup>,
) -> Result {
    if !live.open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?.clone();
    let sides = boards.side_names.clone();
    let (level_name, seed) = (boards.level_name.clone(), setup.seed);
    let mut watch = None;
    let mut open = live.open;
    // Below the top bar, so that its Pause and Step stay in reach.
    let below_bar = [16.0, crate::view::camera::PANELS[2] + 8.0];
    egui::Window::new("Batch comparison").open(&mut open).default_width(560.0).default_pos(below_bar).show(
        &ctx,
        |ui| {
            ui.horizontal(|ui| {
                ui.label("battles per variant");
                ui.add_enabled(!live.running(), egui::DragValue::new(&mut live.battles).range(10..=5000).speed(10));
                if live.running() {
                    if ui.button("Stop").clicked() {
                        live.halt();
                    }
                } else if ui.button("Run").clicked() {
                    let ais = boards.ais();
                    live.start(&setup, ais);
                }
            });
            let (done, asked) = (live.done(), live.battles);
            ui.add(egui::ProgressBar::new(done as f32 / asked.max(1) as f32).text(format!(
                "{done} of {asked} battles per variant, seeds {seed}–{}",
                seed + u64::from(asked.saturating_sub(1))
            )));
            let Some(report) = live.report(&level_name, seed, &sides).cloned() else {
                ui.weak("Run plays the same battles as `fivefoot compare` with this level, seed and AIs.");
                return;
            };
            ui.horizontal(|ui| {
                for (view, name) in View::ALL {
                    ui.selectable_value(&mut live.view, view, name);
                }
            });
            match live.view {
                View::WinRate => win_rates(ui, &report, &sides),
                View::Length => lengths(ui, &report),
                View::Damage => damage(ui, &report, &sides),
                View::Table => {
                    // A fixed-width table: its rows kept whole (scrolled sideways), not wrapped.
                    let table = egui::Label::new(egui::RichText::new(report.table()).monospace())
                        .wrap_mode(egui::TextWrapMode::Extend);
                    // Its scroll bars solid and always shown (egui's float, unseen until hovered):
                    // a column past the window's edge is seen to be there.
                    ui.style_mut().spacing.scroll = egui::style::ScrollStyle::solid();
                    let shown = egui::scroll_area::ScrollBarVisibility::AlwaysVisible;
                    egui::ScrollArea::both()
                        .max_height(320.0)
                        .scroll_bar_visibility(shown)
                        .show(ui, |ui| ui.add(table));
                }
                View::Battles => watch = battles_list(ui, &live.winners, &report, seed),
            }
            ui.separator();
            ui.horizontal(|ui| {
                if ui.button("Export table (CSV) and charts (PNG, SVG)").clicked() {
                    live.notice = Some(match export(&setup, &report) {
                        Ok(dir) => format!("written to {}", dir.display()),
                        Err(e) => format!("export failed: {e}"),
                    });
                }
            });
            if let Some(notice) = &live.notice {
                ui.label(notice);
            }
        },
    );
    live.open = open;
    if let Some(i) = watch {
        let replay = CompareSetup { seed: seed + u64::from(i), ..setup.clone() };
        match boards.restart(&replay) {
            Ok(()) => live.notice = Some(format!("watching battle {i} (seed {}) on the boards", replay.seed)),
            Err(e) => live.notice = Some(e),
        }
    }
    Ok(())
}

/// The colour of series `i`: the charts' own (`plot::COLOURS`), as in `--plot`.
fn colour(i: usize) -> egui::Color32 {
    let c = super::plot::COLOURS[i % super::plot::COLOURS.len()];
    egui::Color32::from_rgb(c.0, c.1, c.2)
}

/// A plot whose x axis names the specs at 0, 1, 2…
fn by_spec<'a>(id: &str, report: &'a CompareReport, y: &str) -> Plot<'a> {
    let names: Vec<String> = report.variants.0.iter().map(|(k, _)| k.clone()).collect();
    Plot::new(id.to_string())
        .height(300.0)
        .legend(Legend::default())
        .y_axis_label(y.to_string())
        .x_axis_formatter(move |mark, _| {
            let k = mark.value.round();
            if (mark.value - k).abs() < 1e-6 && k >= 0.0 {
                names.get(k as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .allow_scroll(false)
}

/// One bar per spec and side, from `value`, side by side round each spec's place.
fn side_bars(report: &CompareReport, sides: &[String], value: impl Fn(&VariantReport, &str) -> f64) -> Vec<BarChart> {
    let width = 0.8 / sides.len().max(1) as f64;
    sides
        .iter()
        .enumerate()
        .map(|(s, side)| {
            let bars = report
                .variants
                .0
                .iter()
                .enumerate()
                .map(|(k, (_, r))| Bar::new(offset(k, s, sides.len(), width), value(r, side)).width(width * 0.9))
                .collect();
            BarChart::new(side.clone(), bars).color(colour(s))
        })
        .collect()
}

fn offset(k: usize, s: usize, sides: usize, width: f64) -> f64 {
    k as f64 + (s as f64 - (sides as f64 - 1.0) / 2.0) * width
}

/// Each side's win rate per spec (draws counted in), with its 95 % interval.
fn win_rates(ui: &mut egui::Ui, report: &CompareReport, sides: &[String]) {
    let width = 0.8 / sides.len().max(1) as f64;
    by_spec("win-rates", report, "wins, % of battles").include_y(0.0).include_y(100.0).show(ui, |plot| {
        for chart in side_bars(report, sides, |r, side| r.sides.get(side).map_or(0.0, |s| s.win_rate * 100.0)) {
            plot.bar_chart(chart);
        }
        for (s, side) in sides.iter().enumerate() {
            for (k, (_, r)) in report.variants.0.iter().enumerate() {
                let Some(rate) = r.sides.get(side) else { continue };
                let x = offset(k, s, sides.len(), width);
                let whisker = vec![[x, rate.ci95[0] * 100.0], [x, rate.ci95[1] * 100.0]];
                plot.line(Line::new("", PlotPoints::from(whisker)).color(egui::Color32::GRAY).width(2.0));
            }
        }
    });
}

/// The share of battles over by each length, per spec (a CDF in the story's seconds).
fn lengths(ui: &mut egui::Ui, report: &CompareReport) {
    Plot::new("lengths")
        .height(300.0)
        .legend(Legend::default())
        .x_axis_label("battle length, seconds of the story")
        .y_axis_label("battles over, %")
        .include_y(0.0)
        .include_y(100.0)
        .allow_scroll(false)
        .show(ui, |plot| {
            for (k, (spec, r)) in report.variants.0.iter().enumerate() {
                let n = r.lengths.len().max(1) as f64;
                let points: Vec<[f64; 2]> =
                    r.lengths.iter().enumerate().map(|(i, &s)| [s, (i + 1) as f64 / n * 100.0]).collect();
                plot.line(Line::new(spec.clone(), PlotPoints::from(points)).color(colour(k)).width(2.0));
            }
        });
}

/// Damage each side dealt per round, per spec.
fn damage(ui: &mut egui::Ui, report: &CompareReport, sides: &[String]) {
    by_spec("damage", report, "damage per round").include_y(0.0).show(ui, |plot| {
        for chart in side_bars(report, sides, |r, side| r.damage_per_round.get(side).copied().unwrap_or(0.0)) {
            plot.bar_chart(chart);
        }
    });
}

/// The battles played, each with its seed and each spec's winner; the one whose Watch was
/// clicked.
fn battles_list(ui: &mut egui::Ui, winners: &[Vec<String>], report: &CompareReport, seed: u64) -> Option<u32> {
    let specs: Vec<&str> = report.variants.0.iter().map(|(k, _)| k.as_str()).collect();
    ui.weak(format!("winner under each of: {}", specs.join(", ")));
    let mut watch = None;
    egui::ScrollArea::both().max_height(300.0).show_rows(ui, 20.0, winners.len(), |ui, rows| {
        for i in rows {
            ui.horizontal(|ui| {
                if ui.small_button("Watch").clicked() {
                    watch = Some(i as u32);
                }
                ui.monospace(format!("{i:>4}  seed {:<6} {}", seed + i as u64, winners[i].join("  ")));
            });
        }
    });
    watch
}

/// Writes the table as CSV and every chart as PNG and SVG into
/// `compare-export/<level file>-seed<S>/`; the folder.
fn export(setup: &CompareSetup, report: &CompareReport) -> Result<PathBuf, String> {
    let stem = setup.level.file_stem().map_or("level".into(), |s| s.to_string_lossy().into_owned());
    let dir = PathBuf::from("compare-export").join(format!("{stem}-seed{}", setup.seed));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join("table.csv");
    let mut file = AtomicFile::create(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    file.write_all(report.csv().as_bytes())
        .and_then(|()| file.commit())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let catalogue = Catalogue::builtin();
    let curves = Level::load(&setup.level, &catalogue).ok().and_then(|level| {
        let (attacker, target) = super::curves::default_pair(&level)?;
        super::curves::attack_curves(&level, &catalogue, &setup.specs, &attacker, &target).ok()
    });
    super::plot::write_charts(&dir, report, curves.as_deref())?;
    Ok(dir)
}
