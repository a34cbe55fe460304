//! What a run has found so far, kept where the watchdog can read it: if a
//! call into the subject never returns, the process has to end, but what was
//! found before is printed, with a command that replays the run up to there.

use std::sync::Mutex;

struct Partial {
    /// The replay command without its sequence limit.
    replay: String,
    /// Sequences executed at the last progress tick.
    executed: u64,
    found: Vec<String>,
}

static PARTIAL: Mutex<Option<Partial>> = Mutex::new(None);

fn with(f: impl FnOnce(&mut Option<Partial>)) {
    f(&mut PARTIAL.lock().unwrap_or_else(|e| e.into_inner()));
}

/// A run starts; `replay` repeats it once `--sequences N` is added.
pub fn start(replay: String) {
    with(|p| *p = Some(Partial { replay, executed: 0, found: Vec::new() }));
}

pub fn executed(count: u64) {
    with(|p| p.iter_mut().for_each(|p| p.executed = count));
}

pub fn found(failure: &str) {
    with(|p| p.iter_mut().for_each(|p| p.found.push(failure.to_owned())));
}

/// What to print when the run cannot go on, if a run was started.
pub fn report() -> Option<String> {
    let guard = PARTIAL.lock().unwrap_or_else(|e| e.into_inner());
    let partial = guard.as_ref()?;
    let mut text = format!("found before it: {} failure group(s)", partial.found.len());
    for (i, failure) in partial.found.iter().enumerate() {
        text.push_str(&format!("\n  [{}] {failure}", i + 1));
    }
    text.push_str(&format!("\nreplay up to before the hang: {} --sequences {}", partial.replay, partial.executed));
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_lists_what_was_found_and_how_to_replay_it() {
        assert!(report().is_none(), "nothing before a run starts");
        start("smallscope random dll --seed 3".into());
        executed(8192);
        found("rep-ok after `remove`: rep_ok returned false: s0 = new(); s0.add(1); s0.remove(1)");
        let text = report().unwrap();
        assert!(text.starts_with("found before it: 1 failure group(s)"), "{text}");
        assert!(text.contains("[1] rep-ok after `remove`"), "{text}");
        assert!(
            text.ends_with("replay up to before the hang: smallscope random dll --seed 3 --sequences 8192"),
            "{text}"
        );
    }
}
