//! JSON lines: one record per structure.

use std::io::Write;

use crate::beapi::BeapiReport;

/// One line of `structures.jsonl`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct StructureRecord {
    pub index: usize,
    pub level: u32,
    /// Its canonical text, when the run recorded it.
    pub canonical: Option<String>,
    /// The shortest sequence that builds it, as one line.
    pub sequence: String,
    pub calls: usize,
}

/// Writes one line per structure: `index`, `level`, `canonical` (when the
/// run recorded it), the rebuilding `sequence` as text and its `calls`.
pub fn write_jsonl(report: &BeapiReport, out: &mut dyn Write) -> std::io::Result<()> {
    for (index, structure) in report.counted_structures() {
        let program = report.program(index);
        let record = StructureRecord {
            index,
            level: structure.level,
            canonical: structure.canonical.clone(),
            sequence: program.to_text(&report.operations),
            calls: program.len(),
        };
        serde_json::to_writer(&mut *out, &record)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}
