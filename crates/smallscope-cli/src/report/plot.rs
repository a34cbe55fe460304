//! The report's plots, drawn as SVG with plotters.

use plotters::coord::CoordTranslate;
use plotters::prelude::*;
use smallscope::coverage::{ScopeMeasure, Transcoped};
use smallscope::events::{EdgeGain, LevelStats};

use crate::summary::SuiteSummary;

/// New structures per level as an SVG line plot.
pub(super) fn levels(levels: &[LevelStats]) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (520, 300)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let last = levels.iter().map(|l| l.level).max().unwrap_or(1).max(1);
        let top = levels.iter().map(|l| l.structures as u64).max().unwrap_or(1).max(1);
        let mut chart = ChartBuilder::on(&root)
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(56)
            .build_cartesian_2d(0u32..last + 1, 0u64..top + top / 10 + 1)
            .map_err(|e| e.to_string())?;
        chart.configure_mesh().x_desc("level (calls)").y_desc("new structures").draw().map_err(|e| e.to_string())?;
        let points: Vec<(u32, u64)> = levels.iter().map(|l| (l.level, l.structures as u64)).collect();
        let color = RGBColor(0x2b, 0x6c, 0xb0);
        chart.draw_series(LineSeries::new(points.clone(), color.stroke_width(2))).map_err(|e| e.to_string())?;
        chart.draw_series(points.iter().map(|&p| Circle::new(p, 3, color.filled()))).map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// The suite's fields as SVG, one panel per field (one for the time
/// policies): the sizes reached at each scope, and the prediction of
/// every policy that transcopes the same measure as the run's.
pub fn field_size_plot(summary: &SuiteSummary) -> Result<String, String> {
    let family = summary.criterion.family();
    let timed = summary.criterion.transcoping().is_some_and(|(measure, _)| measure == Transcoped::Time);
    let fitted: Vec<(f64, &ScopeMeasure)> = summary
        .scopes
        .iter()
        .filter(|m| summary.small_scope.is_some_and(|s| m.scope <= s))
        .map(|m| (f64::from(m.scope), m))
        .collect();
    // Each panel: its title, the points reached, and the points fitted.
    type Points = Vec<(f64, f64)>;
    let panels: Vec<(String, Points, Points)> = if timed {
        let points: Vec<(f64, f64)> = fitted.iter().map(|(x, m)| (*x, m.seconds_to_full)).collect();
        vec![("seconds to the full field extensions".to_owned(), points.clone(), points)]
    } else {
        let size = |m: &ScopeMeasure, field: &str| m.field_sizes.get(field).copied().unwrap_or(0) as f64;
        summary
            .field_sizes
            .keys()
            .map(|field| {
                let reached = summary.scopes.iter().map(|m| (f64::from(m.scope), size(m, field))).collect();
                let fit = fitted.iter().map(|(x, m)| (*x, size(m, field))).collect();
                (field.clone(), reached, fit)
            })
            .collect()
    };
    let columns = if panels.len() > 1 { 2 } else { 1 };
    let rows = panels.len().div_ceil(columns).max(1);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (460 * columns as u32, 300 * rows as u32)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let areas = root.split_evenly((rows, columns));
        let last = f64::from(summary.scope);
        let palette = [RGBColor(0xd6, 0x6a, 0x1d), RGBColor(0x2f, 0x85, 0x5a), RGBColor(0x80, 0x3d, 0xb0)];
        for ((title, reached, fit), area) in panels.iter().zip(&areas) {
            let predictions: Vec<(String, Vec<(f64, f64)>)> = family
                .iter()
                .filter_map(|criterion| {
                    let (_, extrapolation) = criterion.transcoping()?;
                    let curve: Result<Vec<(f64, f64)>, _> = (1..=summary.scope)
                        .map(|x| extrapolation.predict(fit, f64::from(x)).map(|y| (f64::from(x), y.max(0.0))))
                        .collect();
                    Some((criterion.name().to_owned(), curve.ok()?))
                })
                .collect();
            let floor = if timed { 1e-3 } else { 1.0 };
            let top = reached.iter().chain(predictions.iter().flat_map(|(_, c)| c)).map(|p| p.1).fold(floor, f64::max);
            let mut chart = ChartBuilder::on(area)
                .caption(title, ("sans-serif", 15))
                .margin(10)
                .x_label_area_size(32)
                .y_label_area_size(52)
                .build_cartesian_2d(0.5f64..last + 0.5, 0f64..top * 1.1)
                .map_err(|e| e.to_string())?;
            chart
                .configure_mesh()
                .x_desc("scope")
                .y_desc(if timed { "seconds" } else { "pairs" })
                .x_labels(summary.scope as usize + 1)
                .max_light_lines(2)
                .x_label_formatter(&|x| format!("{x:.0}"))
                .draw()
                .map_err(|e| e.to_string())?;
            let blue = RGBColor(0x2b, 0x6c, 0xb0);
            chart
                .draw_series(LineSeries::new(reached.clone(), blue.stroke_width(2)))
                .map_err(|e| e.to_string())?
                .label(if timed { "measured" } else { "reached" })
                .legend(line_key(blue, 2));
            chart.draw_series(reached.iter().map(|&p| Circle::new(p, 3, blue.filled()))).map_err(|e| e.to_string())?;
            for (i, (name, curve)) in predictions.into_iter().enumerate() {
                let color = palette[i % palette.len()];
                let width = if name == summary.criterion.name() { 2 } else { 1 };
                chart
                    .draw_series(LineSeries::new(curve, color.stroke_width(width)))
                    .map_err(|e| e.to_string())?
                    .label(name)
                    .legend(line_key(color, width));
            }
            legend(&mut chart, SeriesLabelPosition::UpperLeft)?;
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// The crate's edges taken as the run went on, a step for each gain, on a
/// logarithmic axis of sequences (most gains come early), up to `total`.
pub(super) fn edges(gains: &[EdgeGain], sequences: u64, total: u64, after: Option<u64>) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (520, 300)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let last = sequences.max(gains.last().map_or(1, |g| g.sequences)).max(2);
        let mut chart = ChartBuilder::on(&root)
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(56)
            .build_cartesian_2d((1u64..last).log_scale(), 0u64..total.max(1) + total / 20 + 1)
            .map_err(|e| e.to_string())?;
        chart.configure_mesh().x_desc("sequences").y_desc("edges taken").draw().map_err(|e| e.to_string())?;
        let mut steps = vec![(1, 0)];
        let mut taken = 0;
        for gain in gains {
            let at = gain.sequences.max(1);
            steps.extend([(at, taken), (at, gain.edges)]);
            taken = gain.edges;
        }
        steps.push((last, taken));
        let blue = RGBColor(0x2b, 0x6c, 0xb0);
        chart
            .draw_series(LineSeries::new(steps, blue.stroke_width(2)))
            .map_err(|e| e.to_string())?
            .label("taken")
            .legend(line_key(blue, 2));
        let mut level = |edges: u64, color: RGBColor, width: u32, label: &str| -> Result<(), String> {
            chart
                .draw_series(LineSeries::new([(1, edges), (last, edges)], color.stroke_width(width)))
                .map_err(|e| e.to_string())?
                .label(label)
                .legend(line_key(color, width));
            Ok(())
        };
        if let Some(after) = after {
            level(after, RGBColor(0xdd, 0x6b, 0x20), 2, "after the branch phase")?;
        }
        level(total, RGBColor(0x8a, 0x93, 0xa6), 1, "the crate's edges")?;
        legend(&mut chart, SeriesLabelPosition::LowerRight)?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// A line's key in a legend.
fn line_key(color: RGBColor, width: u32) -> impl Fn((i32, i32)) -> PathElement<(i32, i32)> {
    move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(width))
}

/// The legend of `chart`'s labelled series, in a light box at `position`.
fn legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    position: SeriesLabelPosition,
) -> Result<(), String> {
    chart
        .configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(0xc0, 0xc6, 0xd0))
        .draw()
        .map_err(|e| e.to_string())
}
