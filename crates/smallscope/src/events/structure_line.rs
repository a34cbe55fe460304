//! The NDJSON line of a structure event, written by hand: a run writes one
//! per structure it keeps, and `serde_json`, which looks at every key for
//! characters to escape, took about 3 400 instructions for each, more
//! than a BEAPI execution's own work. The line is byte for byte the one
//! `serde_json` writes (a test compares them); an event with a canonical
//! text, a picture, a graph or a literal other than an integer or a bool
//! is left to `serde_json`.

use std::io::Write;

use super::{Fingerprint, Rebuild, StructureFound};
use crate::sequence::{Literal, Output, Step, StepArg};

/// Writes `structure`'s line (without the newline), or returns `None`,
/// writing nothing, when the event is not one this writer knows.
pub(super) fn write<W: Write + ?Sized>(structure: &StructureFound, out: &mut W) -> Option<std::io::Result<()>> {
    let StructureFound {
        index,
        level,
        fingerprint,
        canonical: None,
        rebuild: Rebuild::Step(step),
        variant,
        picture: None,
        graph: None,
    } = structure
    else {
        return None;
    };
    let plain = |arg: &StepArg| {
        matches!(arg, StepArg::Structure(_) | StepArg::Handle(_) | StepArg::Literal(Literal::Int(_) | Literal::Bool(_)))
    };
    if !step.args.iter().all(plain) {
        return None;
    }
    Some(write_step(*index, *level, *fingerprint, step, *variant, out))
}

/// The line of a structure whose step [`write`] checked.
fn write_step<W: Write + ?Sized>(
    index: u64,
    level: Option<u32>,
    fingerprint: Option<Fingerprint>,
    step: &Step,
    variant: bool,
    out: &mut W,
) -> std::io::Result<()> {
    let mut number = itoa::Buffer::new();
    out.write_all(b"{\"event\":\"structure\",\"index\":")?;
    out.write_all(number.format(index).as_bytes())?;
    if let Some(level) = level {
        out.write_all(b",\"level\":")?;
        out.write_all(number.format(level).as_bytes())?;
    }
    if let Some(fingerprint) = fingerprint {
        out.write_all(b",\"fingerprint\":\"")?;
        out.write_all(&fingerprint.hex())?;
        out.write_all(b"\"")?;
    }
    out.write_all(b",\"rebuild\":{\"step\":{\"op\":")?;
    out.write_all(number.format(step.op).as_bytes())?;
    out.write_all(b",\"args\":[")?;
    for (k, arg) in step.args.iter().enumerate() {
        if k > 0 {
            out.write_all(b",")?;
        }
        let (open, value, close): (&[u8], _, &[u8]) = match arg {
            StepArg::Structure(n) => (b"{\"structure\":", number.format(*n), b"}"),
            StepArg::Handle(n) => (b"{\"handle\":", number.format(*n), b"}"),
            StepArg::Literal(Literal::Int(v)) => (b"{\"literal\":{\"int\":", number.format(*v), b"}}"),
            StepArg::Literal(Literal::Bool(v)) => {
                out.write_all(if *v { b"{\"literal\":{\"bool\":true}}" } else { b"{\"literal\":{\"bool\":false}}" })?;
                continue;
            }
            StepArg::Literal(_) => unreachable!("checked by `write`"),
        };
        out.write_all(open)?;
        out.write_all(value.as_bytes())?;
        out.write_all(close)?;
    }
    out.write_all(b"],\"output\":")?;
    match step.output {
        Output::Result => out.write_all(b"\"result\"")?,
        Output::Param(slot) => {
            out.write_all(b"{\"param\":")?;
            out.write_all(number.format(slot).as_bytes())?;
            out.write_all(b"}")?;
        }
    }
    out.write_all(b"}}")?;
    if variant {
        out.write_all(b",\"variant\":true")?;
    }
    out.write_all(b"}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::Event;

    /// A structure event with nothing but its step.
    fn plain(step: Step) -> StructureFound {
        StructureFound {
            index: 0,
            level: None,
            fingerprint: None,
            canonical: None,
            rebuild: Rebuild::Step(step),
            variant: false,
            picture: None,
            graph: None,
        }
    }

    /// Every shape the writer takes, against `serde_json`'s line.
    #[test]
    fn the_line_is_serde_jsons() {
        let args = [
            vec![],
            vec![StepArg::Structure(0)],
            vec![StepArg::Structure(12), StepArg::Literal(Literal::Int(-3))],
            vec![StepArg::Handle(7), StepArg::Literal(Literal::Bool(true)), StepArg::Literal(Literal::Bool(false))],
            vec![StepArg::Literal(Literal::Int(i64::MIN)), StepArg::Literal(Literal::Int(i64::MAX))],
        ];
        let mut lines = 0;
        for args in &args {
            for output in [Output::Result, Output::Param(0), Output::Param(255)] {
                for (level, fingerprint) in [
                    (None, None),
                    (Some(3), Some(Fingerprint(0xfeed << 64 | 7))),
                    (Some(u32::MAX), Some(Fingerprint(0))),
                ] {
                    for (index, variant) in [(0, false), (u64::MAX, true)] {
                        let step = Step { op: 4, args: args.clone(), output };
                        let structure = StructureFound { index, level, fingerprint, variant, ..plain(step) };
                        let mut by_hand = Vec::new();
                        write(&structure, &mut by_hand).expect("a plain structure").unwrap();
                        let by_serde = serde_json::to_vec(&Event::Structure(structure)).unwrap();
                        assert_eq!(String::from_utf8(by_hand).unwrap(), String::from_utf8(by_serde).unwrap());
                        lines += 1;
                    }
                }
            }
        }
        assert_eq!(lines, 5 * 3 * 3 * 2);
    }

    #[test]
    fn other_structures_are_left_to_serde() {
        let step = Step { op: 0, args: vec![StepArg::Literal(Literal::Char('x'))], output: Output::Result };
        let plain = plain(Step { op: 0, args: vec![], output: Output::Result });
        let others = [
            StructureFound { rebuild: Rebuild::Step(step), ..plain.clone() },
            StructureFound { canonical: Some("A#0{}".into()), ..plain.clone() },
            StructureFound { picture: Some("digraph {}".into()), ..plain.clone() },
            StructureFound { rebuild: Rebuild::Candidate(vec![Some(1), None]), ..plain.clone() },
        ];
        for structure in &others {
            let mut out = Vec::new();
            assert!(write(structure, &mut out).is_none());
            assert!(out.is_empty());
        }
    }
}
