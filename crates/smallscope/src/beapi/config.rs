//! [`BeapiConfig`]: scope, domains, omissions and builders for one run.

use std::ops::Range;
use std::path::PathBuf;
use std::time::Duration;

use crate::ConfigError;

/// Which operations to extend sequences with.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Builders {
    /// Identify builders by hill climbing at a small scope (cached per subject).
    #[default]
    Auto,
    /// Every operation of the API.
    All,
    /// These methods, by name.
    Named(Vec<String>),
}

impl std::str::FromStr for Builders {
    type Err = ConfigError;
    fn from_str(text: &str) -> Result<Self, ConfigError> {
        match text.trim() {
            "auto" => Ok(Builders::Auto),
            "all" => Ok(Builders::All),
            "" => Err(ConfigError::Invalid("empty builders list: give auto, all or m1,m2,..".into())),
            list => Ok(Builders::Named(list.split(',').map(|m| m.trim().to_owned()).collect())),
        }
    }
}

/// How visited structures are remembered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StateStorage {
    /// A 128-bit xxh3 fingerprint per structure: small and fast.
    #[default]
    Fingerprint,
    /// The whole canonical form: exact, for checking fingerprints.
    Exact,
}

/// Everything a BEAPI run needs besides the subject.
#[derive(Debug, Clone)]
pub struct BeapiConfig {
    /// At most this many objects of each class reachable from a structure's root.
    pub scope: u32,
    /// Integer arguments; `None` means `0..scope`.
    pub ints: Option<Range<i64>>,
    pub strings: Vec<String>,
    pub chars: Vec<char>,
    /// `Class.field` names left out of the canonical form.
    pub omit: Vec<String>,
    /// Regular expressions: a panic whose message matches one is misuse, not failure.
    pub misuse_panics: Vec<String>,
    pub builders: Builders,
    /// Scope used to identify builders (`Builders::Auto`).
    pub builder_scope: u32,
    /// Where identified builders are cached; `None` disables the cache.
    pub cache_dir: Option<PathBuf>,
    /// Keep only sequences that make a structure not seen before (the paper's SM).
    pub state_matching: bool,
    /// Stop after sequences of this many levels.
    pub max_length: Option<u32>,
    pub storage: StateStorage,
    /// Stop, keeping what was found, after this long.
    pub time_limit: Option<Duration>,
    /// Record each structure's canonical text in the report (for JSON lines and tests).
    pub record_canonical: bool,
}

impl Default for BeapiConfig {
    fn default() -> Self {
        BeapiConfig {
            scope: 3,
            ints: None,
            strings: vec!["a".into(), "b".into()],
            chars: vec!['a', 'b'],
            omit: Vec::new(),
            misuse_panics: Vec::new(),
            builders: Builders::Auto,
            builder_scope: 5,
            cache_dir: None,
            state_matching: true,
            max_length: None,
            storage: StateStorage::Fingerprint,
            time_limit: None,
            record_canonical: false,
        }
    }
}

impl BeapiConfig {
    /// The integer domain: `ints`, or `0..scope`.
    pub fn int_range(&self) -> Range<i64> {
        self.ints.clone().unwrap_or(0..i64::from(self.scope))
    }

    /// Checks what can be checked without the subject.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.scope == 0 {
            return Err(ConfigError::ZeroScope(0));
        }
        if self.builder_scope == 0 {
            return Err(ConfigError::ZeroScope(0));
        }
        let range = self.int_range();
        if range.start >= range.end {
            return Err(ConfigError::EmptyIntRange { start: range.start, end: range.end });
        }
        if !self.state_matching && self.max_length.is_none() {
            return Err(ConfigError::UnboundedWithoutStateMatching);
        }
        Ok(())
    }
}

/// Parses `A..B` (B excluded), as on the command line.
pub fn parse_int_range(text: &str) -> Result<Range<i64>, ConfigError> {
    let (a, b) = text.split_once("..").ok_or_else(|| ConfigError::BadIntRange(text.to_owned()))?;
    let parse = |s: &str| s.trim().parse::<i64>().map_err(|_| ConfigError::BadIntRange(text.to_owned()));
    let range = parse(a)?..parse(b)?;
    if range.start >= range.end {
        return Err(ConfigError::EmptyIntRange { start: range.start, end: range.end });
    }
    Ok(range)
}
