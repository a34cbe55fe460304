//! JSON lines: one record per structure.

use std::io::Write;

use crate::beapi::BeapiReport;

/// Writes one line per structure: `index`, `level`, `canonical` (when the
/// run recorded it), the rebuilding `sequence` as text and its `steps`.
pub fn write_jsonl(report: &BeapiReport, out: &mut dyn Write) -> std::io::Result<()> {
    for (index, structure) in report.structures.iter().enumerate() {
        let program = report.program(index);
        let record = serde_json::json!({
            "index": index,
            "level": structure.level,
            "canonical": structure.canonical,
            "sequence": program.to_text(&report.operations),
            "calls": program.len(),
        });
        serde_json::to_writer(&mut *out, &record)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}
