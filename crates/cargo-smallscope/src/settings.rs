//! Settings in layers: the attributes in the code, then
//! `[package.metadata.smallscope]` in Cargo.toml, then `smallscope.toml`
//! beside it, then `SMALLSCOPE_*` environment variables, then flags. Each
//! layer overrides the ones before it, key by key.
//!
//! A key is an option of the `smallscope` command line, without its dashes
//! (`scope`, `call-timeout`, `misuse-panic`), or `failing-tests`, which is
//! `cargo smallscope`'s own. In a file, keys at the top apply to every
//! engine that takes them; a table per engine (`[beapi]`) and per subject
//! (`[subjects.my-list]`, `[subjects.my-list.beapi]`) narrow them:
//!
//! ```toml
//! [package.metadata.smallscope]
//! call-timeout = 5
//! failing-tests = "separate"
//!
//! [package.metadata.smallscope.beapi]
//! scope = 4
//!
//! [package.metadata.smallscope.subjects.my-lru.random]
//! time-limit = "30s"
//! ```
//!
//! Every key is listed by `cargo smallscope settings`, and in
//! `docs/configuration.md`.

use std::path::Path;

use clap::ArgAction;

use crate::Problem;

/// The engines `cargo smallscope` runs.
pub const ENGINES: &[&str] = &["beapi", "korat", "random", "branch", "compare", "suite", "builders"];

/// `cargo smallscope`'s own key: where failing tests go.
pub const FAILING_TESTS: &str = "failing-tests";

/// Options `cargo smallscope` sets itself: not settings.
const CHOSEN_BY_CARGO_SMALLSCOPE: &[&str] =
    &["out", "emit-tests", "emit-failing-tests", "ignore-failing-tests", "resume", "help", "version", "config"];

/// The prefix of the environment variables that are settings.
pub const ENV_PREFIX: &str = "SMALLSCOPE_";

/// One setting, with where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Setting {
    pub key: String,
    pub value: toml::Value,
    /// `Cargo.toml [package.metadata.smallscope.beapi]`, `SMALLSCOPE_SCOPE`.
    pub origin: String,
}

/// The settings of one run, layered: later ones override earlier ones.
#[derive(Debug, Default)]
pub struct Settings {
    settings: Vec<Setting>,
}

/// A file of settings, to name its tables in messages.
struct SettingsFile {
    file: String,
    /// Where the settings start in it.
    prefix: &'static str,
}

impl SettingsFile {
    /// `Cargo.toml [package.metadata.smallscope.beapi]` for `path` `beapi`.
    fn table_name(&self, path: &str) -> String {
        let table: Vec<&str> = [self.prefix, path].into_iter().filter(|s| !s.is_empty()).collect();
        match table.is_empty() {
            true => self.file.clone(),
            false => format!("{} [{}]", self.file, table.join(".")),
        }
    }
}

/// What a key is to one engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// A flag without a value.
    Switch,
    /// One value; several separated by commas when `list`.
    Value { list: bool },
    /// Given once per value.
    Repeated,
}

impl Settings {
    /// The settings for `engine` on `subject`, from the crate's files and
    /// the environment (`env` lists its variables).
    pub fn gather(
        metadata: Option<&toml::Table>,
        file: Option<(&Path, &toml::Table)>,
        env: impl IntoIterator<Item = (String, String)>,
        engine: &str,
        subject: &str,
    ) -> Result<Settings, Problem> {
        let mut settings = Settings::default();
        if let Some(table) = metadata {
            let file = SettingsFile { file: "Cargo.toml".into(), prefix: "package.metadata.smallscope" };
            settings.add_table(table, &file, engine, subject)?;
        }
        if let Some((path, table)) = file {
            let file = SettingsFile { file: path.display().to_string(), prefix: "" };
            settings.add_table(table, &file, engine, subject)?;
        }
        let mut env: Vec<(String, String)> = env
            .into_iter()
            .filter(|(name, _)| {
                name.starts_with(ENV_PREFIX) && !smallscope_args::INTERNAL_VARIABLES.contains(&name.as_str())
            })
            .collect();
        env.sort();
        for (name, value) in env {
            let key = name[ENV_PREFIX.len()..].to_ascii_lowercase().replace('_', "-");
            match known(&key) {
                false => {
                    return Err(Problem::new(format!("{name} is not a setting (see `cargo smallscope settings`)")))
                }
                true if applies(&key, engine) => settings.set(key, toml::Value::String(value), name),
                true => {}
            }
        }
        Ok(settings)
    }

    /// The keys of `table` that apply to `engine` and `subject`, in order:
    /// the top, the engine's table, the subject's, the subject's engine's.
    fn add_table(
        &mut self,
        table: &toml::Table,
        file: &SettingsFile,
        engine: &str,
        subject: &str,
    ) -> Result<(), Problem> {
        let name = |path: &str| file.table_name(path);
        self.add_level(table, &name(""), engine, true)?;
        for (key, value) in table {
            match (key.as_str(), value) {
                ("subjects", toml::Value::Table(subjects)) => {
                    for (subject_name, value) in subjects {
                        let path = format!("subjects.{subject_name}");
                        let toml::Value::Table(subject_table) = value else {
                            return Err(Problem::new(format!(
                                "{}: `{subject_name}` must be a table",
                                name("subjects")
                            )));
                        };
                        if subject_name == subject {
                            self.add_level(subject_table, &name(&path), engine, true)?;
                        }
                        for (engine_name, value) in subject_table.iter().filter(|(_, v)| v.is_table()) {
                            let path = format!("{path}.{engine_name}");
                            let use_it = subject_name == subject && engine_name == engine;
                            self.add_engine_table(engine_name, value, &name(&path), use_it)?;
                        }
                    }
                }
                (engine_name, value @ toml::Value::Table(_)) => {
                    self.add_engine_table(engine_name, value, &name(engine_name), engine_name == engine)?;
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// An engine's table: checked, and used when `use_it`.
    fn add_engine_table(
        &mut self,
        engine: &str,
        value: &toml::Value,
        origin: &str,
        use_it: bool,
    ) -> Result<(), Problem> {
        if !ENGINES.contains(&engine) {
            return Err(Problem::new(format!(
                "{origin}: no engine `{engine}`; a table is an engine ({}) or `subjects`",
                ENGINES.join(", ")
            )));
        }
        let toml::Value::Table(table) = value else { unreachable!("only tables are passed") };
        if let Some((key, _)) = table.iter().find(|(_, v)| v.is_table()) {
            return Err(Problem::new(format!("{origin}: `{key}` is a table, where settings were expected")));
        }
        for key in table.keys() {
            if !applies(key, engine) {
                return Err(Problem::new(format!("{origin}: `{key}` is not a setting of {engine}")));
            }
        }
        if use_it {
            self.add_level(table, origin, engine, false)?;
        }
        Ok(())
    }

    /// The plain keys of one table; `shared` ones may name settings of
    /// other engines, which are passed over.
    fn add_level(&mut self, table: &toml::Table, origin: &str, engine: &str, shared: bool) -> Result<(), Problem> {
        for (key, value) in table.iter().filter(|(_, v)| !v.is_table()) {
            if !known(key) {
                return Err(Problem::new(format!(
                    "{origin}: `{key}` is not a setting (see `cargo smallscope settings`)"
                )));
            }
            if !shared || applies(key, engine) {
                self.set(key.clone(), value.clone(), origin.to_owned());
            }
        }
        Ok(())
    }

    fn set(&mut self, key: String, value: toml::Value, origin: String) {
        self.settings.retain(|s| s.key != key);
        self.settings.push(Setting { key, value, origin });
    }

    /// The value of `key`, when set.
    pub fn get(&self, key: &str) -> Option<&Setting> {
        self.settings.iter().find(|s| s.key == key)
    }

    /// The settings as options of `engine`'s command line, leaving out
    /// those `given` sets itself and `cargo smallscope`'s own.
    pub fn to_args(&self, engine: &str, given: &[String]) -> Result<Vec<String>, Problem> {
        let mut args = Vec::new();
        for setting in self.settings.iter().filter(|s| s.key != FAILING_TESTS) {
            if option_given(given, &setting.key) {
                continue;
            }
            let flag = format!("--{}", setting.key);
            let shape = shape(&setting.key, engine).expect("only settings that apply are kept");
            let bad = |why: &str| Problem::new(format!("{}: `{}` {why}", setting.origin, setting.key));
            let text = |value: &toml::Value| {
                scalar_text(value).ok_or_else(|| bad("must be a string, a number or a list of them"))
            };
            match (shape, &setting.value) {
                (Shape::Switch, value) => {
                    if switch_on(value).ok_or_else(|| bad("is true or false"))? {
                        args.push(flag);
                    }
                }
                (Shape::Repeated, toml::Value::Array(items)) => {
                    for item in items {
                        args.push(format!("{flag}={}", text(item)?));
                    }
                }
                (Shape::Value { list: true }, toml::Value::Array(items)) => {
                    let items: Result<Vec<String>, Problem> = items.iter().map(text).collect();
                    args.push(format!("{flag}={}", items?.join(",")));
                }
                (_, toml::Value::Array(_)) => return Err(bad("takes one value, not a list")),
                (_, value) => args.push(format!("{flag}={}", text(value)?)),
            }
        }
        Ok(args)
    }
}

/// Whether a switch is on: `true`, or `1`, `true`, `yes` from the environment.
fn switch_on(value: &toml::Value) -> Option<bool> {
    match value {
        toml::Value::Boolean(b) => Some(*b),
        toml::Value::String(s) => match s.to_ascii_lowercase().as_str() {
            "1" | "true" | "yes" | "on" => Some(true),
            "" | "0" | "false" | "no" | "off" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// The `smallscope` command line's definition of `engine`'s options, with
/// the global ones; read from its clap definition once.
fn engine_args(engine: &str) -> &'static [clap::Arg] {
    static BY_ENGINE: std::sync::LazyLock<Vec<(&'static str, Vec<clap::Arg>)>> = std::sync::LazyLock::new(|| {
        let command = smallscope_args::command();
        let of = |engine: &'static str| {
            let sub = command.find_subcommand(engine).into_iter().flat_map(|sub| sub.get_arguments());
            let args = command.get_arguments().chain(sub).cloned();
            // Hidden options are the program's own (what `suite` starts its runs with).
            let setting = |a: &clap::Arg| {
                !a.is_hide_set() && a.get_long().is_some_and(|l| !CHOSEN_BY_CARGO_SMALLSCOPE.contains(&l))
            };
            (engine, args.filter(setting).collect())
        };
        ENGINES.iter().map(|engine| of(engine)).collect()
    });
    BY_ENGINE.iter().find(|(name, _)| *name == engine).map_or(&[], |(_, args)| args.as_slice())
}

/// Whether `args` give the option `--{name}` (as `--name`, `--name=v` or `--name v`).
pub fn option_given(args: &[String], name: &str) -> bool {
    let flag = format!("--{name}");
    args.iter().any(|a| *a == flag || a.strip_prefix(&flag).is_some_and(|rest| rest.starts_with('=')))
}

/// The value `args` give the option `--{name}`, the last one when repeated.
pub fn option_value<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    let flag = format!("--{name}");
    let mut value = None;
    for (i, arg) in args.iter().enumerate() {
        if *arg == flag {
            value = args.get(i + 1).map(String::as_str);
        } else if let Some(rest) = arg.strip_prefix(&flag).and_then(|rest| rest.strip_prefix('=')) {
            value = Some(rest);
        }
    }
    value
}

/// A string, number or boolean setting as the text of an option's value.
pub fn scalar_text(value: &toml::Value) -> Option<String> {
    match value {
        toml::Value::String(s) => Some(s.clone()),
        toml::Value::Integer(n) => Some(n.to_string()),
        toml::Value::Float(x) => Some(x.to_string()),
        toml::Value::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

/// How `engine` takes `key`, when it does.
fn shape(key: &str, engine: &str) -> Option<Shape> {
    let arg = engine_args(engine).iter().find(|a| a.get_long() == Some(key))?;
    Some(match arg.get_action() {
        ArgAction::SetTrue | ArgAction::SetFalse | ArgAction::Count => Shape::Switch,
        ArgAction::Append => Shape::Repeated,
        _ => Shape::Value { list: arg.get_value_delimiter().is_some() },
    })
}

/// Whether `engine` takes `key`.
fn applies(key: &str, engine: &str) -> bool {
    key == FAILING_TESTS || shape(key, engine).is_some()
}

/// Whether any engine takes `key`.
fn known(key: &str) -> bool {
    ENGINES.iter().any(|engine| applies(key, engine))
}

/// One line of the table of keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyDoc {
    pub key: String,
    /// The engines that take it with this meaning.
    pub engines: Vec<&'static str>,
    pub help: String,
}

/// Every key, with the engines that take it and what it does: the table
/// of `cargo smallscope settings` and `docs/configuration.md`. A key that
/// means different things to different engines has a line for each.
pub fn table() -> Vec<KeyDoc> {
    let mut rows = vec![KeyDoc {
        key: FAILING_TESTS.to_owned(),
        engines: vec!["beapi", "random", "branch"],
        help: "`ignore` (default): failing tests go into the subject's test file, `#[ignore]`d with the reason; \
               `separate`: into `tests/smallscope_<subject>_failing.rs`, where they fail until the bugs are fixed."
            .to_owned(),
    }];
    for engine in ENGINES {
        for arg in engine_args(engine) {
            let key = arg.get_long().expect("only long options are kept").to_owned();
            let mut help = arg.get_help().map(|h| h.to_string()).unwrap_or_default().replace('\n', " ");
            if let Some(default) = arg.get_default_values().first().filter(|_| arg.get_action().takes_values()) {
                help.push_str(&format!(" (default {})", default.to_string_lossy()));
            }
            match rows.iter_mut().find(|row| row.key == key && row.help == help) {
                Some(row) => row.engines.push(engine),
                None => rows.push(KeyDoc { key, engines: vec![engine], help }),
            }
        }
    }
    rows.sort_by(|a, b| a.key.cmp(&b.key));
    rows
}
