//! `compare --plot DIR`: the comparison's charts, each as PNG and SVG (plotters): each
//! side's win rate with its 95 % interval per variant spec, the distribution of battle
//! length (a CDF in the story's seconds), damage per round per side, and the analytic hit
//! chance and expected damage of one attacker against a range of defences. Text is drawn
//! with a font the game already carries (egui's), so no system font is needed.

use super::CompareReport;
use super::curves::AttackCurve;
use crate::level::AtomicFile;
use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use std::io::Write;
use std::path::{Path, PathBuf};

const SIZE: (u32, u32) = (960, 600);
const FONT: &str = "sans-serif";

/// One colour per series, told apart in print and by the colour-blind.
pub(super) const COLOURS: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(120, 120, 120),
    RGBColor(0, 0, 0),
];

fn colour(i: usize) -> RGBColor {
    COLOURS[i % COLOURS.len()]
}

type Drawn = Result<(), String>;

fn fail<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

/// Writes every chart of `report` (and of `curves`, if any) into `dir`, created if need
/// be; the files written, in order.
pub fn write_charts(
    dir: &Path,
    report: &CompareReport,
    curves: Option<&[AttackCurve]>,
) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    register_font();
    let mut written = Vec::new();
    let mut chart = |name: &str,
                     draw: &dyn Fn(&DrawingArea<SVGBackend, Shift>) -> Drawn,
                     png: &dyn Fn(&DrawingArea<BitMapBackend, Shift>) -> Drawn| {
        let svg = render_svg(draw)?;
        let path = dir.join(format!("{name}.svg"));
        save(&path, svg.as_bytes())?;
        written.push(path);
        let path = dir.join(format!("{name}.png"));
        save(&path, &render_png(png)?)?;
        written.push(path);
        Ok::<(), String>(())
    };
    chart("win-rates", &|a| win_rates(a, report), &|a| win_rates(a, report))?;
    chart("battle-length", &|a| battle_length(a, report), &|a| battle_length(a, report))?;
    chart("damage-per-round", &|a| damage_per_round(a, report), &|a| damage_per_round(a, report))?;
    if let Some(curves) = curves {
        chart("hit-chance", &|a| attack_curve(a, curves, Measure::Hit), &|a| attack_curve(a, curves, Measure::Hit))?;
        chart("expected-damage", &|a| attack_curve(a, curves, Measure::Damage), &|a| {
            attack_curve(a, curves, Measure::Damage)
        })?;
    }
    Ok(written)
}

fn register_font() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // The font is built in and valid; were it not, the charts would show no text.
        let _ = plotters::style::register_font(FONT, FontStyle::Normal, epaint_default_fonts::UBUNTU_LIGHT);
    });
}

fn save(path: &Path, bytes: &[u8]) -> Drawn {
    let mut file = AtomicFile::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    file.write_all(bytes).and_then(|()| file.commit()).map_err(|e| format!("{}: {e}", path.display()))
}

fn render_svg(draw: &dyn Fn(&DrawingArea<SVGBackend, Shift>) -> Drawn) -> Result<String, String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, SIZE).into_drawing_area();
        draw(&root)?;
        root.present().map_err(fail)?;
    }
    Ok(out)
}

fn render_png(draw: &dyn Fn(&DrawingArea<BitMapBackend, Shift>) -> Drawn) -> Result<Vec<u8>, String> {
    let mut pixels = vec![0u8; (SIZE.0 * SIZE.1 * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut pixels, SIZE).into_drawing_area();
        draw(&root)?;
        root.present().map_err(fail)?;
    }
    let image = image::RgbImage::from_raw(SIZE.0, SIZE.1, pixels).ok_or("the chart's pixels do not fill it")?;
    let mut png = std::io::Cursor::new(Vec::new());
    image.write_to(&mut png, image::ImageFormat::Png).map_err(fail)?;
    Ok(png.into_inner())
}

/// The sides of the report, in order.
fn sides(report: &CompareReport) -> Vec<String> {
    report.variants.0.first().map(|(_, r)| r.sides.keys().cloned().collect()).unwrap_or_default()
}

/// The variant specs' names, to label a category axis (a label at each whole number).
fn spec_label(report: &CompareReport) -> impl Fn(&f64) -> String + '_ {
    move |x: &f64| {
        let i = x.round();
        if (x - i).abs() > 1e-6 || i < 0.0 {
            return String::new();
        }
        report.variants.0.get(i as usize).map(|(name, _)| name.clone()).unwrap_or_default()
    }
}

fn title(report: &CompareReport, what: &str) -> String {
    format!("{} — {what} ({} battles per variant, seed {})", report.level, report.battles, report.seed)
}

/// A chart with a column per spec (labelled with its name) and `axis` from 0 to `top`.
fn by_spec<'a, DB: DrawingBackend + 'a>(
    root: &'a DrawingArea<DB, Shift>,
    report: &'a CompareReport,
    what: &str,
    axis: &str,
    top: f64,
) -> Result<ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>, String> {
    let n = report.variants.0.len();
    let mut chart = ChartBuilder::on(root)
        .caption(title(report, what), (FONT, 22))
        .margin(16)
        .x_label_area_size(40)
        .y_label_area_size(56)
        .build_cartesian_2d(-0.5..n as f64 - 0.5, 0.0..top)
        .map_err(fail)?;
    chart
        .configure_mesh()
        .x_labels(n)
        .x_label_formatter(&spec_label(report))
        .disable_x_mesh()
        .y_desc(axis)
        .label_style((FONT, 15))
        .draw()
        .map_err(fail)?;
    Ok(chart)
}

/// Each side's win rate under each spec, with its 95 % Wilson interval as whiskers.
fn win_rates<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, report: &CompareReport) -> Drawn {
    root.fill(&WHITE).map_err(fail)?;
    let sides = sides(report);
    let mut chart = by_spec(root, report, "win rate", "wins, % of battles (95 % interval)", 100.0)?;
    for (j, side) in sides.iter().enumerate() {
        let shift = (j as f64 - (sides.len() as f64 - 1.0) / 2.0) * 0.15;
        let c = colour(j);
        let rates: Vec<(f64, f64, f64, f64)> = report
            .variants
            .0
            .iter()
            .enumerate()
            .map(|(i, (_, r))| {
                let s = &r.sides[side];
                (i as f64 + shift, s.win_rate * 100.0, s.ci95[0] * 100.0, s.ci95[1] * 100.0)
            })
            .collect();
        chart
            .draw_series(
                rates.iter().map(|&(x, _, lo, hi)| PathElement::new(vec![(x, lo), (x, hi)], c.stroke_width(2))),
            )
            .map_err(fail)?;
        for (x, cap) in rates.iter().flat_map(|&(x, _, lo, hi)| [(x, lo), (x, hi)]) {
            chart
                .draw_series([PathElement::new(vec![(x - 0.04, cap), (x + 0.04, cap)], c.stroke_width(2))])
                .map_err(fail)?;
        }
        chart
            .draw_series(rates.iter().map(|&(x, rate, _, _)| Circle::new((x, rate), 6, c.filled())))
            .map_err(fail)?
            .label(side.as_str())
            .legend(move |(x, y)| Circle::new((x + 8, y), 6, c.filled()));
    }
    legend(&mut chart)
}

/// The share of battles over by each length, per spec, in the story's seconds.
fn battle_length<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, report: &CompareReport) -> Drawn {
    root.fill(&WHITE).map_err(fail)?;
    let longest = report.variants.0.iter().flat_map(|(_, r)| r.lengths.last().copied()).fold(1.0, f64::max);
    let shortest =
        report.variants.0.iter().flat_map(|(_, r)| r.lengths.first().copied()).fold(longest, f64::min).max(1.0);
    let mut chart = ChartBuilder::on(root)
        .caption(title(report, "battle length"), (FONT, 22))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(56)
        // On a log scale: a round of one variant can last ten of another's.
        .build_cartesian_2d((shortest * 0.8..longest * 1.25).log_scale(), 0.0..100.0)
        .map_err(fail)?;
    chart
        .configure_mesh()
        .x_desc("battle length, seconds of the story (log scale)")
        .y_desc("battles over by then, %")
        .label_style((FONT, 15))
        .draw()
        .map_err(fail)?;
    for (i, (name, r)) in report.variants.0.iter().enumerate() {
        let n = r.lengths.len().max(1) as f64;
        // A step up at each battle's end.
        let mut steps = vec![(shortest * 0.8, 0.0)];
        for (k, &len) in r.lengths.iter().enumerate() {
            steps.push((len, k as f64 / n * 100.0));
            steps.push((len, (k + 1) as f64 / n * 100.0));
        }
        steps.push((longest * 1.25, 100.0));
        let c = colour(i);
        chart
            .draw_series(LineSeries::new(steps, c.stroke_width(2)))
            .map_err(fail)?
            .label(name.as_str())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], c.stroke_width(2)));
    }
    legend(&mut chart)
}

/// Damage each side deals per round, per spec, as bars side by side.
fn damage_per_round<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, report: &CompareReport) -> Drawn {
    root.fill(&WHITE).map_err(fail)?;
    let sides = sides(report);
    let most = report.variants.0.iter().flat_map(|(_, r)| r.damage_per_round.values().copied()).fold(1.0, f64::max);
    let mut chart = by_spec(root, report, "damage per round", "hit points of damage dealt per round", most * 1.15)?;
    let width = 0.8 / sides.len().max(1) as f64;
    for (j, side) in sides.iter().enumerate() {
        let c = colour(j);
        let left = -0.4 + j as f64 * width;
        chart
            .draw_series(report.variants.0.iter().enumerate().map(|(i, (_, r))| {
                let x = i as f64 + left;
                Rectangle::new([(x + 0.02, 0.0), (x + width - 0.02, r.damage_per_round[side])], c.filled())
            }))
            .map_err(fail)?
            .label(side.as_str())
            .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], c.filled()));
    }
    legend(&mut chart)
}

#[derive(Clone, Copy)]
enum Measure {
    Hit,
    Damage,
}

/// One attacker's hit chance or expected damage against defences from easier to harder,
/// one line per spec; the target's own defence is at 0.
fn attack_curve<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, curves: &[AttackCurve], measure: Measure) -> Drawn {
    root.fill(&WHITE).map_err(fail)?;
    let value = |o: &crate::combat::odds::AttackOdds| match measure {
        Measure::Hit => o.hit * 100.0,
        Measure::Damage => o.expected_damage,
    };
    let top = match measure {
        Measure::Hit => 100.0,
        Measure::Damage => curves.iter().flat_map(|c| c.points.iter().map(|(_, o)| value(o))).fold(1.0, f64::max) * 1.1,
    };
    let (lo, hi) = (*super::curves::SPAN.start() as f64, *super::curves::SPAN.end() as f64);
    let (what, axis) = match measure {
        Measure::Hit => ("hit chance", "chance to hit, %"),
        Measure::Damage => ("expected damage", "damage per attack, misses counted"),
    };
    let who = curves.first().map_or(String::new(), |c| format!(": {} attacks {}", c.attacker, c.target));
    let mut chart = ChartBuilder::on(root)
        .caption(format!("{what}{who}"), (FONT, 22))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(56)
        .build_cartesian_2d(lo..hi, 0.0..top)
        .map_err(fail)?;
    chart
        .configure_mesh()
        .x_desc("defence, points harder to hit than the target's own (AC, DCV or descending AC)")
        .y_desc(axis)
        .label_style((FONT, 15))
        .draw()
        .map_err(fail)?;
    for (i, curve) in curves.iter().enumerate() {
        let c = colour(i);
        // Earlier lines drawn wider, so that one lying on another still shows.
        let width = 2 + curves.len() - 1 - i;
        let line: Vec<(f64, f64)> = curve.points.iter().map(|(d, o)| (f64::from(*d), value(o))).collect();
        let here = line.iter().find(|(d, _)| *d == 0.0).copied();
        chart
            .draw_series(LineSeries::new(line, c.stroke_width(width as u32)))
            .map_err(fail)?
            .label(format!("{} (needs {} vs {})", curve.spec, curve.target_number, curve.against))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], c.stroke_width(width as u32)));
        chart.draw_series(here.map(|p| Circle::new(p, 5, c.filled()))).map_err(fail)?;
    }
    legend(&mut chart)
}

fn legend<'a, DB: DrawingBackend + 'a, Axes: CoordTranslate>(chart: &mut ChartContext<'a, DB, Axes>) -> Drawn {
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .label_font((FONT, 15))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(fail)
}
