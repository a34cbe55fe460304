//! DOT to SVG, in pure Rust (`layout-rs`): a renderer that cannot read
//! the text or panics is an error, not a crash; the SVG fits its height
//! and carries the title.

use std::panic::{catch_unwind, AssertUnwindSafe};

/// Rendering a picture failed.
#[derive(Debug, thiserror::Error)]
pub enum PictureError {
    /// The SVG renderer could not read the DOT text (a construct it does not support).
    #[error("the SVG renderer could not parse the picture's DOT text: {0}")]
    Parse(String),
    /// The SVG renderer failed (panicked) while laying out or drawing the graph.
    #[error("the SVG renderer failed: {0}")]
    Render(String),
}

/// `svg` as tall as what it draws. `layout-rs` sizes its canvas for the
/// layout's rank grid, often twice the drawing's height or more: the
/// lowest box, label line or edge point, plus a margin, sets the height.
pub(super) fn fit_height(svg: String) -> String {
    use std::sync::LazyLock;
    static RECT: LazyLock<regex::Regex> =
        LazyLock::new(|| regex::Regex::new(r#"<rect [^>]*?y="([0-9.]+)"[^>]*?height="([0-9.]+)""#).unwrap());
    static TEXT: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r#"<text [^>]*?y="([0-9.]+)"[^>]*>((?:<tspan[^>]*>[^<]*</tspan>)*)"#).unwrap()
    });
    static PATH: LazyLock<regex::Regex> = LazyLock::new(|| regex::Regex::new(r#" d="([^"]*)""#).unwrap());
    static SIZE: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r#"<svg width="([0-9.]+)" height="([0-9.]+)" viewBox="0 0 ([0-9.]+) ([0-9.]+)""#).unwrap()
    });
    let number = |text: &str| text.parse::<f64>().unwrap_or(0.0);
    let mut bottom: f64 = 0.0;
    for c in RECT.captures_iter(&svg) {
        bottom = bottom.max(number(&c[1]) + number(&c[2]));
    }
    for c in TEXT.captures_iter(&svg) {
        let lines = c[2].matches("<tspan").count().max(1) as f64;
        bottom = bottom.max(number(&c[1]) + 16.0 * (lines + 1.0));
    }
    for c in PATH.captures_iter(&svg) {
        // Points are `x y` pairs after the commands: every second number.
        let numbers: Vec<f64> = c[1].split([' ', ',']).filter_map(|t| t.parse().ok()).collect();
        for y in numbers.iter().skip(1).step_by(2) {
            bottom = bottom.max(*y);
        }
    }
    let Some(size) = SIZE.captures(&svg) else { return svg };
    let height = number(&size[2]);
    let fitted = (bottom + 20.0).ceil();
    if bottom <= 0.0 || fitted >= height {
        return svg;
    }
    let (width, view_width) = (size[1].to_owned(), size[3].to_owned());
    SIZE.replace(&svg, format!(r#"<svg width="{width}" height="{fitted}" viewBox="0 0 {view_width} {fitted}""#))
        .into_owned()
}

/// Lays out and draws a DOT graph with `layout-rs`.
pub(super) fn render_svg(dot: &str) -> Result<String, PictureError> {
    use layout::backends::svg::SVGWriter;
    use layout::gv::{DotParser, GraphBuilder};

    let ast = DotParser::new(dot).process().map_err(PictureError::Parse)?;
    // `layout-rs` asserts its invariants with panics: report one as an error.
    catch_unwind(AssertUnwindSafe(|| {
        let mut builder = GraphBuilder::new();
        builder.visit_graph(&ast);
        let mut graph = builder.get();
        let mut svg = SVGWriter::new();
        graph.do_it(false, false, false, &mut svg);
        svg.finalize()
    }))
    .map_err(|panic| {
        let message = match (panic.downcast_ref::<&str>(), panic.downcast_ref::<String>()) {
            (Some(s), _) => (*s).to_string(),
            (_, Some(s)) => s.clone(),
            _ => "panic with a non-text payload".to_string(),
        };
        PictureError::Render(message)
    })
}

/// `svg` with a `<title>` element right after its opening `<svg ..>` tag.
pub(super) fn with_title(mut svg: String, title: &str) -> String {
    if title.is_empty() {
        return svg;
    }
    let Some(open) = svg.find("<svg") else { return svg };
    let Some(end) = svg[open..].find('>') else { return svg };
    let mut element = String::from("<title>");
    for c in title.chars() {
        match c {
            '&' => element.push_str("&amp;"),
            '<' => element.push_str("&lt;"),
            '>' => element.push_str("&gt;"),
            _ => element.push(c),
        }
    }
    element.push_str("</title>\n");
    let at = open + end + 1;
    // Keep the newline that follows the tag in front of the title.
    let at = if svg[at..].starts_with('\n') { at + 1 } else { at };
    svg.insert_str(at, &element);
    svg
}
