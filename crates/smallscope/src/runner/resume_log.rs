//! The resume log: a run's committed events as a restarted worker reads
//! them, so that a restart costs little however long the run has been.
//!
//! A worker that starts again after a crash or a hang carries on from the
//! fold of everything committed. Folding `events.ndjson` again costs about
//! 3 s per 500 MB (a million BEAPI structures), on every restart. The resume
//! log holds the same events in the form a job resumes from: a structure as
//! its binary rebuild record, without the canonical text, picture and object
//! graph that only the report shows (those are most of the bytes), and the
//! few other events as they are. Reading it back is a decode and a push per
//! structure: about 35 bytes each, no JSON.
//!
//! A fold read from the log equals the fold of the events but for those
//! three fields of each structure, which no job reads to carry on.
//!
//! ```
//! use smallscope::events::{Event, Fold, Note};
//! use smallscope::runner::resume_log;
//!
//! let mut log = Vec::new();
//! resume_log::append(&Event::Note(Note { text: "hello".into() }), &mut log);
//! let mut report = smallscope::BeapiReport::default();
//! resume_log::fold(&log, &mut report).unwrap();
//! assert_eq!(report.notes, ["hello"]);
//! ```

use crate::events::{Event, Fingerprint, Fold, Rebuild, StructureFound};

/// A record holding a structure, in postcard.
const STRUCTURE: u8 = b'S';
/// A record holding any other event: its length as a little-endian `u32`,
/// then its JSON.
const EVENT: u8 = b'E';

/// What a resumed job needs of a structure.
#[derive(serde::Serialize, serde::Deserialize)]
struct LeanStructure<R = Rebuild> {
    index: u64,
    level: Option<u32>,
    fingerprint: Option<u128>,
    rebuild: R,
    variant: bool,
}

/// Appends `event` to `log` as one record.
pub fn append(event: &Event, log: &mut Vec<u8>) {
    match event {
        Event::Structure(found) => {
            let lean = LeanStructure {
                index: found.index,
                level: found.level,
                fingerprint: found.fingerprint.map(|f| f.0),
                // Borrowed: serde writes a reference as the value, without a copy.
                rebuild: &found.rebuild,
                variant: found.variant,
            };
            log.push(STRUCTURE);
            postcard::to_io(&lean, &mut *log).expect("a structure serializes");
        }
        other => {
            log.push(EVENT);
            let at = log.len();
            log.extend_from_slice(&[0; 4]);
            serde_json::to_writer(&mut *log, other).expect("an event serializes");
            let len = (log.len() - at - 4) as u32;
            log[at..at + 4].copy_from_slice(&len.to_le_bytes());
        }
    }
}

/// Folds every record of `log` into `fold`; an error names the offset of
/// the record that does not read.
pub fn fold<F: Fold>(log: &[u8], fold: &mut F) -> Result<(), String> {
    let mut rest = log;
    while let Some((&tag, body)) = rest.split_first() {
        let at = log.len() - rest.len();
        let bad = |what: &dyn std::fmt::Display| format!("the resume log at byte {at}: {what}");
        match tag {
            STRUCTURE => {
                let (lean, after): (LeanStructure, _) = postcard::take_from_bytes(body).map_err(|e| bad(&e))?;
                fold.apply(Event::Structure(StructureFound {
                    index: lean.index,
                    level: lean.level,
                    fingerprint: lean.fingerprint.map(Fingerprint),
                    canonical: None,
                    rebuild: lean.rebuild,
                    variant: lean.variant,
                    picture: None,
                    graph: None,
                }));
                rest = after;
            }
            EVENT => {
                let (len, body) = body.split_first_chunk::<4>().ok_or_else(|| bad(&"cut short"))?;
                let len = u32::from_le_bytes(*len) as usize;
                let json = body.get(..len).ok_or_else(|| bad(&"cut short"))?;
                fold.apply(serde_json::from_slice(json).map_err(|e| bad(&e))?);
                rest = &body[len..];
            }
            other => return Err(bad(&format_args!("unknown record {other:#04x}"))),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::{read_ndjson, write_ndjson, Configuration, RunStarted};
    use crate::sequence::{Literal, Output, Step, StepArg};
    use crate::BeapiReport;

    /// The events of a small BEAPI run: its start, a note, two structures.
    fn events() -> Vec<Event> {
        let config = crate::BeapiConfig {
            scope: 3,
            builders: crate::Builders::Named(vec!["new".into(), "add".into()]),
            ..crate::BeapiConfig::default()
        };
        let started =
            RunStarted::new("bst", "Bst".into(), Configuration::Beapi(config), Some("smallscope beapi bst".into()));
        let lines = [
            r#"{"event":"note","text":"builders identified"}"#,
            r#"{"event":"structure","index":0,"level":1,"fingerprint":"000000000000000000000000000000ff","canonical":"Bst{}","rebuild":{"step":{"op":0,"args":[],"output":"result"}},"picture":"digraph {}"}"#,
            r#"{"event":"structure","index":1,"level":2,"fingerprint":"0123456789abcdef0123456789abcdef","canonical":"Bst{1}","rebuild":{"step":{"op":1,"args":[{"structure":0},{"literal":{"int":-7}}],"output":{"param":0}}},"variant":true}"#,
        ];
        let text = lines.join("\n");
        let parsed = read_ndjson(text.as_bytes()).map(|e| e.expect("a test event parses"));
        std::iter::once(Event::RunStarted(started)).chain(parsed).collect()
    }

    #[test]
    fn a_fold_read_from_the_log_is_the_events_fold_without_texts_and_pictures() {
        let events = events();
        let mut log = Vec::new();
        let mut from_events = BeapiReport::default();
        for event in &events {
            append(event, &mut log);
            from_events.apply(event.clone());
        }
        let mut from_log = BeapiReport::default();
        fold(&log, &mut from_log).unwrap();
        assert_eq!(from_log.structures.len(), 2);
        assert_eq!(from_log.notes, from_events.notes);
        assert_eq!(from_log.run, from_events.run);
        assert_eq!(from_log.builders, ["new", "add"]);
        for (lean, full) in from_log.structures.iter().zip(&from_events.structures) {
            assert_eq!(
                (lean.level, &lean.step, lean.fingerprint, lean.variant),
                (full.level, &full.step, full.fingerprint, full.variant)
            );
            assert_eq!((&lean.canonical, &lean.picture), (&None, &None));
        }
        let second = &from_log.structures[1].step;
        assert_eq!(
            *second,
            Step {
                op: 1,
                args: vec![StepArg::Structure(0), StepArg::Literal(Literal::Int(-7))],
                output: Output::Param(0)
            }
        );
        // Far smaller than the JSON, which carries the texts and pictures.
        let mut json = Vec::new();
        for event in &events[2..] {
            write_ndjson(event, &mut json).unwrap();
        }
        let structures_in_log = log.len() - log.iter().position(|&b| b == STRUCTURE).unwrap();
        assert!(structures_in_log * 4 < json.len(), "{structures_in_log} bytes in the log, {} as JSON", json.len());
    }

    #[test]
    fn a_damaged_log_is_an_error_naming_where() {
        let mut log = Vec::new();
        append(&events()[2], &mut log);
        let whole = log.len();
        log.push(b'?');
        let error = fold(&log, &mut BeapiReport::default()).unwrap_err();
        assert!(error.contains(&format!("byte {whole}")), "{error}");
        let error = fold(&log[..whole - 3], &mut BeapiReport::default()).unwrap_err();
        assert!(error.contains("byte 0"), "{error}");
    }
}
