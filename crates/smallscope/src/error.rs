//! Errors for bad input: configuration that names things that do not exist,
//! ranges upside down, malformed files.

/// Input that cannot be run. Each variant names the problem and the value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("scope must be at least 1 (got {0})")]
    ZeroScope(u32),
    #[error("integer range {start}..{end} is empty or upside down: write it as A..B with A < B (B is excluded)")]
    EmptyIntRange { start: i64, end: i64 },
    #[error("cannot read integer range `{0}`: write it as A..B, e.g. 0..5 (B is excluded)")]
    BadIntRange(String),
    #[error("unknown field `{name}` in `omit`; the subject's fields are: {known}")]
    UnknownField { name: String, known: String },
    #[error("unknown method `{name}`; the subject's operations are: {known}")]
    UnknownBuilder { name: String, known: String },
    #[error("unknown method `{name}` to check; the subject's operations are: {known}")]
    UnknownOperation { name: String, known: String },
    #[error("the builders {0:?} include no constructor, so no structure can be made")]
    NoConstructor(Vec<String>),
    #[error("the subject declares no constructor (a `pub fn` returning `Self` without a subject parameter)")]
    SubjectWithoutConstructor,
    #[error("invalid misuse pattern `{pattern}`: {reason}")]
    BadPattern { pattern: String, reason: String },
    #[error("without state matching the search never ends by itself: set a maximum sequence length")]
    UnboundedWithoutStateMatching,
    #[error("config file {path}: {reason}")]
    BadConfigFile { path: String, reason: String },
    #[error("{what} has {size} values; at most {max} (2^20) can be enumerated: give a smaller range")]
    DomainTooLarge { what: String, size: u128, max: u64 },
    #[error("cannot read {what} `{text}`: write a duration like `10s`, `1.5s`, `500ms` or `2m`")]
    BadDuration { what: String, text: String },
    #[error("{0}")]
    Invalid(String),
}

/// The most values an integer domain may hold: a run enumerates every one.
pub const MAX_DOMAIN: u64 = 1 << 20;

/// `seconds` as a duration, if it is a positive number a duration can hold;
/// `what` names the setting in the error.
pub fn positive_seconds(what: &str, seconds: f64) -> Result<std::time::Duration, ConfigError> {
    match std::time::Duration::try_from_secs_f64(seconds) {
        Ok(duration) if seconds > 0.0 => Ok(duration),
        _ => Err(ConfigError::Invalid(format!("{what} must be more than zero seconds (got {seconds})"))),
    }
}

/// A duration as every option and setting spells it: `10s`, `1.5s`,
/// `500ms`, `2m`, `1h`, or a plain number of seconds; more than zero.
/// `what` names the option in the error.
pub fn parse_duration(what: &str, text: &str) -> Result<std::time::Duration, ConfigError> {
    let text = text.trim();
    let bad = || ConfigError::BadDuration { what: what.to_owned(), text: text.to_owned() };
    let (number, unit) = match text.find(|c: char| c.is_ascii_alphabetic()) {
        Some(i) => text.split_at(i),
        None => (text, "s"),
    };
    let value: f64 = number.trim().parse().map_err(|_| bad())?;
    let seconds = match unit {
        "ms" => value / 1000.0,
        "s" => value,
        "m" | "min" => value * 60.0,
        "h" => value * 3600.0,
        _ => return Err(bad()),
    };
    if !seconds.is_finite() || seconds < 0.0 {
        return Err(bad());
    }
    positive_seconds(what, seconds)
}

/// A duration written as [`parse_duration`] reads it back: `90s`, `1.5s`.
pub fn duration_text(duration: std::time::Duration) -> String {
    format!("{}s", duration.as_secs_f64())
}
