//! Where events go: a [`Sink`] takes them as an engine makes them, a
//! [`Fold`] turns a stream into a report, and NDJSON carries them across a
//! process boundary and into `events.ndjson`.

use std::io::{BufRead, Write};

use super::{Event, Stop};

/// Where an engine sends its events.
pub trait Sink {
    fn event(&mut self, event: Event);

    /// Everything sent so far is final, and the last [`Progress`](super::Progress) sent is a
    /// point to resume from. `journal` is appended to the engine's journal:
    /// state it needs to resume that the events do not hold (random testing;
    /// empty for the other engines).
    fn commit(&mut self, _journal: &[u8]) {}
}

/// Drops every event: for searches run for what they leave, not what they say.
impl Sink for () {
    fn event(&mut self, _: Event) {}
}

impl Sink for Vec<Event> {
    fn event(&mut self, event: Event) {
        self.push(event);
    }
}

/// A report built from events, and what a run resumes from.
pub trait Fold: Default {
    fn apply(&mut self, event: Event);

    /// The run was ended from outside before the engine said why (by its
    /// supervisor: a flaky verdict, too many hangs, a stop): the report
    /// says `stop` unless the engine's own end was folded.
    fn stopped_early(&mut self, stop: Stop);

    /// The name of operation `op` of this run's API, when the report knows
    /// it (for a death reported by its operation's number).
    fn operation_name(&self, _op: u16) -> Option<&str> {
        None
    }
}

/// Writes one event as a line of NDJSON.
pub fn write_ndjson<W: Write + ?Sized>(event: &Event, out: &mut W) -> std::io::Result<()> {
    // The many structure events have a writer of their own.
    let by_hand = match event {
        Event::Structure(structure) => super::structure_line::write(structure, out),
        _ => None,
    };
    match by_hand {
        Some(written) => written?,
        None => serde_json::to_writer(&mut *out, event)?,
    }
    out.write_all(b"\n")
}

/// Reads NDJSON events; a line that does not parse is an error naming its number.
pub fn read_ndjson(input: impl BufRead) -> impl Iterator<Item = Result<Event, String>> {
    input.lines().enumerate().filter(|(_, line)| !line.as_ref().is_ok_and(|l| l.trim().is_empty())).map(
        |(number, line)| {
            let line = line.map_err(|e| format!("line {}: {e}", number + 1))?;
            serde_json::from_str(&line).map_err(|e| format!("line {}: {e}", number + 1))
        },
    )
}
