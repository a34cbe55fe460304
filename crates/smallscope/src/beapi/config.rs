//! [`BeapiConfig`]: scope, domains, omissions and builders for one run.

use std::ops::Range;
use std::path::PathBuf;
use std::time::Duration;

use crate::error::MAX_DOMAIN;
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
            list => Ok(Builders::Named(method_names(list))),
        }
    }
}

/// Which operations that are not builders a run calls on every structure
/// it keeps, to check them (BEAPI paper §3: build inputs with the
/// builders, then test the whole API on them). What a checked call makes
/// is checked (`rep_ok`, panics) and dropped, never kept.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Check {
    /// None: only the builders run.
    None,
    /// Every operation that is not a builder.
    #[default]
    All,
    /// These methods, by name (those that are builders run as builders).
    Named(Vec<String>),
}

impl std::str::FromStr for Check {
    type Err = ConfigError;
    fn from_str(text: &str) -> Result<Self, ConfigError> {
        match text.trim() {
            "none" => Ok(Check::None),
            "all" => Ok(Check::All),
            "" => Err(ConfigError::Invalid("empty check list: give none, all or m1,m2,..".into())),
            list => Ok(Check::Named(method_names(list))),
        }
    }
}

/// `m1, m2` as method names.
fn method_names(list: &str) -> Vec<String> {
    list.split(',').map(|m| m.trim().to_owned()).collect()
}

/// How `Builders::Auto` identifies builders that are not in the cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum BuilderMethod {
    /// Hill climbing (`hc`): fast on small APIs.
    #[default]
    #[serde(rename = "hc")]
    HillClimbing,
    /// The genetic algorithm (`ga`): for rich APIs.
    #[serde(rename = "ga")]
    Genetic,
}

impl std::str::FromStr for BuilderMethod {
    type Err = ConfigError;
    fn from_str(text: &str) -> Result<Self, ConfigError> {
        match text.trim() {
            "hc" => Ok(BuilderMethod::HillClimbing),
            "ga" => Ok(BuilderMethod::Genetic),
            other => Err(ConfigError::Invalid(format!("unknown builders method `{other}`: give hc or ga"))),
        }
    }
}

/// How visited structures are remembered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StateStorage {
    /// A 128-bit xxh3 fingerprint per structure: small and fast.
    #[default]
    Fingerprint,
    /// The whole canonical form: exact, for checking fingerprints.
    Exact,
}

/// Everything a BEAPI run needs besides the subject.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BeapiConfig {
    /// At most this many objects of each class reachable from a structure's root.
    pub scope: u32,
    /// Integer arguments; `None` means `0..scope`.
    pub ints: Option<Range<i64>>,
    pub strings: Vec<String>,
    pub chars: Vec<char>,
    /// Lists for `Vec<u8>` / `&[u8]` parameters: every list of at most this
    /// many elements over the integer domain. The default, 2, keeps the
    /// domain at 1 + n + n² lists for n integers (13 at scope 3).
    #[serde(default = "default_list_length")]
    pub list_length: u32,
    /// Elements allowed in each collection of a structure (`Vec`, map,
    /// set, characters of a `String`); `None` means the scope.
    #[serde(default)]
    pub collection_length: Option<u32>,
    /// `Class.field` names left out of the canonical form.
    pub omit: Vec<String>,
    /// Regular expressions: a panic whose message matches one is misuse, not failure.
    pub misuse_panics: Vec<String>,
    pub builders: Builders,
    /// Operations called on every kept structure to check them, not to build.
    #[serde(default)]
    pub check: Check,
    /// Scope used to identify builders (`Builders::Auto`), at most `scope`.
    pub builder_scope: u32,
    /// How `Builders::Auto` identifies builders the cache does not hold.
    #[serde(default)]
    pub builder_method: BuilderMethod,
    /// Where identified builders are cached; `None` disables the cache.
    #[serde(skip)]
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
    /// Draw the first this many structures, and the input of each failure,
    /// into their events (for `report.html`).
    #[serde(default)]
    pub pictures: u32,
    /// Send each structure's object graph in its event, for a field
    /// coverage criterion (see [`crate::coverage`]).
    #[serde(default)]
    pub graphs: bool,
    /// Measure the edges of these structures' calls instead of searching
    /// (see [`MeasureEdges`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measure: Option<MeasureEdges>,
}

/// A run that does not search: it builds chosen structures of an earlier
/// run again and calls every operation that takes a structure on each,
/// with every argument of its domains, and reports the user's edges those
/// calls took (in a harness built with coverage, see [`crate::edges`]).
/// What a suite's structures reach of the code, measured in-process.
///
/// `structures` are the earlier run's steps that `kept` needs (each kept
/// one and the structures its calls start from), numbered afresh; `kept`
/// indexes them. [`crate::beapi::BeapiReport::measure_edges`] makes one.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MeasureEdges {
    pub structures: Vec<crate::sequence::Step>,
    pub kept: Vec<u32>,
}

impl Default for BeapiConfig {
    fn default() -> Self {
        BeapiConfig {
            scope: 3,
            ints: None,
            strings: vec!["a".into(), "b".into()],
            chars: vec!['a', 'b'],
            list_length: default_list_length(),
            collection_length: None,
            omit: Vec::new(),
            misuse_panics: Vec::new(),
            builders: Builders::Auto,
            check: Check::All,
            builder_scope: 5,
            builder_method: BuilderMethod::HillClimbing,
            cache_dir: None,
            state_matching: true,
            max_length: None,
            storage: StateStorage::Fingerprint,
            time_limit: None,
            record_canonical: false,
            pictures: 0,
            graphs: false,
            measure: None,
        }
    }
}

impl BeapiConfig {
    /// The integer domain: `ints`, or `0..scope`.
    pub fn int_range(&self) -> Range<i64> {
        self.ints.clone().unwrap_or(0..i64::from(self.scope))
    }

    /// Elements allowed in each collection: `collection_length`, or the scope.
    pub fn collection_limit(&self) -> u32 {
        self.collection_length.unwrap_or(self.scope)
    }

    /// The scope builders are identified at: `builder_scope`, but never
    /// more than the run's own scope (identification is a set of runs of
    /// its own; at a larger scope it could cost more than the run).
    pub fn identification_scope(&self) -> u32 {
        self.builder_scope.min(self.scope)
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
        let size = range.end.abs_diff(range.start);
        if size > MAX_DOMAIN {
            return Err(ConfigError::DomainTooLarge {
                what: match self.ints {
                    Some(_) => format!("the integer range {}..{}", range.start, range.end),
                    None => format!("the integer range 0..{} (0..scope, the default)", range.end),
                },
                size: u128::from(size),
                max: MAX_DOMAIN,
            });
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

/// A TOML configuration file. Every key is optional; unknown keys are errors.
///
/// ```toml
/// scope = 5                 # max objects of each class
/// ints = "0..5"             # integer arguments, B excluded
/// strings = ["a", "b"]
/// chars = ["x"]
/// list-length = 2           # lists for Vec<u8> / &[u8] parameters
/// collection-length = 3     # elements per collection field (default: scope)
/// omit = ["NodeCachingLinkedList.maximum_cache_size"]
/// misuse-panic = ["index out of bounds"]   # regexes
/// builders = ["new", "add"] # or "auto" / "all"
/// check = "all"             # or "none" / ["remove", "get"]
/// builder-scope = 5
/// state-matching = true
/// max-length = 10
/// storage = "fingerprint"   # or "exact"
/// time-limit = "1m"         # or "90s", "1.5s"; a number is seconds
/// ```
///
/// Keys are spelled as the options are (`list-length` for `--list-length`);
/// the older `list_length`, `misuse_panics` and `time_limit_seconds` are
/// read too, with a note ([`ConfigFile::old_spellings`]).
#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ConfigFile {
    pub scope: Option<u32>,
    pub ints: Option<String>,
    pub strings: Option<Vec<String>>,
    pub chars: Option<Vec<char>>,
    #[serde(alias = "list_length")]
    pub list_length: Option<u32>,
    #[serde(alias = "collection_length")]
    pub collection_length: Option<u32>,
    pub omit: Option<Vec<String>>,
    #[serde(rename = "misuse-panic", alias = "misuse_panics")]
    pub misuse_panics: Option<Vec<String>>,
    pub builders: Option<BuildersSetting>,
    pub check: Option<BuildersSetting>,
    #[serde(alias = "builder_scope")]
    pub builder_scope: Option<u32>,
    #[serde(alias = "state_matching")]
    pub state_matching: Option<bool>,
    #[serde(alias = "max_length")]
    pub max_length: Option<u32>,
    pub storage: Option<String>,
    #[serde(alias = "time_limit_seconds")]
    pub time_limit: Option<DurationSetting>,
    /// Keys written the older way, each with its spelling now.
    #[serde(skip)]
    pub old_spellings: Vec<(String, String)>,
}

/// `time-limit = "90s"`, or a number of seconds.
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(untagged)]
pub enum DurationSetting {
    Seconds(f64),
    Text(String),
}

impl DurationSetting {
    pub fn duration(&self, what: &str) -> Result<Duration, ConfigError> {
        match self {
            DurationSetting::Seconds(seconds) => crate::error::positive_seconds(what, *seconds),
            DurationSetting::Text(text) => crate::error::parse_duration(what, text),
        }
    }
}

/// `builders = "auto"`, `"all"`, `"m1,m2"` or `["m1", "m2"]` (and `check`'s
/// `"none"`, `"all"` or a list).
#[derive(Debug, serde::Deserialize)]
#[serde(untagged)]
pub enum BuildersSetting {
    Word(String),
    List(Vec<String>),
}

impl ConfigFile {
    /// Reads and checks the file at `path`.
    pub fn load(path: &std::path::Path) -> Result<Self, ConfigError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| ConfigError::BadConfigFile { path: path.display().to_string(), reason: e.to_string() })?;
        Self::parse(&text).map_err(|reason| ConfigError::BadConfigFile { path: path.display().to_string(), reason })
    }

    /// Parses TOML text; the error names the problem.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut file: ConfigFile = toml::from_str(text).map_err(|e| e.to_string().trim_end().to_owned())?;
        let table: toml::Table = toml::from_str(text).map_err(|e| e.to_string().trim_end().to_owned())?;
        file.old_spellings = (table.keys())
            .filter(|key| key.contains('_'))
            .map(|key| {
                let now = match key.as_str() {
                    "misuse_panics" => "misuse-panic".to_owned(),
                    "time_limit_seconds" => "time-limit".to_owned(),
                    other => other.replace('_', "-"),
                };
                (key.clone(), now)
            })
            .collect();
        Ok(file)
    }

    /// A note on the keys written the older way, if there are some.
    pub fn old_spellings_note(&self) -> Option<String> {
        let each: Vec<String> = self.old_spellings.iter().map(|(old, now)| format!("`{old}` as `{now}`")).collect();
        (!each.is_empty())
            .then(|| format!("the config file spells keys as the options are now: write {}", each.join(", ")))
    }

    /// Writes the settings the file gives over `config`.
    pub fn apply(&self, config: &mut BeapiConfig) -> Result<(), ConfigError> {
        if let Some(scope) = self.scope {
            config.scope = scope;
        }
        if let Some(ints) = &self.ints {
            config.ints = Some(parse_int_range(ints)?);
        }
        if let Some(strings) = &self.strings {
            config.strings = strings.clone();
        }
        if let Some(chars) = &self.chars {
            config.chars = chars.clone();
        }
        if let Some(length) = self.list_length {
            config.list_length = length;
        }
        if let Some(length) = self.collection_length {
            config.collection_length = Some(length);
        }
        if let Some(omit) = &self.omit {
            config.omit = omit.clone();
        }
        if let Some(patterns) = &self.misuse_panics {
            config.misuse_panics = patterns.clone();
        }
        match &self.builders {
            Some(BuildersSetting::Word(word)) => config.builders = word.parse()?,
            Some(BuildersSetting::List(list)) => config.builders = Builders::Named(list.clone()),
            None => {}
        }
        match &self.check {
            Some(BuildersSetting::Word(word)) => config.check = word.parse()?,
            Some(BuildersSetting::List(list)) => config.check = Check::Named(list.clone()),
            None => {}
        }
        if let Some(scope) = self.builder_scope {
            config.builder_scope = scope;
        }
        if let Some(on) = self.state_matching {
            config.state_matching = on;
        }
        if let Some(max) = self.max_length {
            config.max_length = Some(max);
        }
        match self.storage.as_deref() {
            Some("fingerprint") => config.storage = StateStorage::Fingerprint,
            Some("exact") => config.storage = StateStorage::Exact,
            Some(other) => {
                return Err(ConfigError::Invalid(format!(
                    "storage must be \"fingerprint\" or \"exact\", not {other:?}"
                )))
            }
            None => {}
        }
        if let Some(limit) = &self.time_limit {
            config.time_limit = Some(limit.duration("time-limit")?);
        }
        Ok(())
    }
}

/// Events written before list parameters existed have no `list_length`.
fn default_list_length() -> u32 {
    2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_ranges_parse_and_reject_bad_input() {
        assert_eq!(parse_int_range("0..5"), Ok(0..5));
        assert_eq!(parse_int_range("-2..3"), Ok(-2..3));
        assert_eq!(parse_int_range("5..1"), Err(ConfigError::EmptyIntRange { start: 5, end: 1 }));
        assert_eq!(parse_int_range("3..3"), Err(ConfigError::EmptyIntRange { start: 3, end: 3 }));
        assert!(matches!(parse_int_range("0-5"), Err(ConfigError::BadIntRange(_))));
        assert!(matches!(parse_int_range("a..b"), Err(ConfigError::BadIntRange(_))));
    }

    #[test]
    fn config_file_applies_every_key() {
        let file = ConfigFile::parse(
            r#"
            scope = 4
            ints = "1..3"
            strings = ["x"]
            list_length = 3
            collection_length = 2
            check = ["remove"]
            omit = ["A.b"]
            misuse_panics = ["oops"]
            builders = ["new", "add"]
            storage = "exact"
            time_limit_seconds = 2.5
            "#,
        )
        .unwrap();
        let mut config = BeapiConfig::default();
        file.apply(&mut config).unwrap();
        assert_eq!(config.scope, 4);
        assert_eq!(config.int_range(), 1..3);
        assert_eq!(config.strings, ["x"]);
        assert_eq!(config.list_length, 3);
        assert_eq!(config.collection_limit(), 2);
        assert_eq!(config.check, Check::Named(vec!["remove".into()]));
        assert_eq!(config.omit, ["A.b"]);
        assert_eq!(config.builders, Builders::Named(vec!["new".into(), "add".into()]));
        assert_eq!(config.storage, StateStorage::Exact);
        assert_eq!(config.time_limit, Some(Duration::from_secs_f64(2.5)));
    }

    #[test]
    fn config_file_errors_name_the_problem() {
        let unknown = ConfigFile::parse("scop = 3").unwrap_err();
        assert!(unknown.contains("scop"), "{unknown}");
        let malformed = ConfigFile::parse("scope = = 3").unwrap_err();
        assert!(!malformed.is_empty());
        let mut config = BeapiConfig::default();
        let bad_storage = ConfigFile::parse("storage = \"disk\"").unwrap().apply(&mut config).unwrap_err();
        assert!(bad_storage.to_string().contains("disk"));
        assert_eq!("auto".parse::<Builders>(), Ok(Builders::Auto));
        assert_eq!("none".parse::<Check>(), Ok(Check::None));
        assert!("".parse::<Check>().is_err());
        assert_eq!("new, add".parse::<Builders>(), Ok(Builders::Named(vec!["new".into(), "add".into()])));
    }

    #[test]
    fn validation_rejects_zero_scope_and_unbounded_runs() {
        let config = BeapiConfig { scope: 0, ..BeapiConfig::default() };
        assert_eq!(config.validate(), Err(ConfigError::ZeroScope(0)));
        let config = BeapiConfig { state_matching: false, ..BeapiConfig::default() };
        assert_eq!(config.validate(), Err(ConfigError::UnboundedWithoutStateMatching));
    }
}
