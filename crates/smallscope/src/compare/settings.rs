//! What a comparison is asked: [`CompareOptions`] as a caller gives them,
//! and [`CompareSettings`], the run's record of them in `run_started`.

use crate::beapi::{BeapiConfig, Builders};
use std::path::PathBuf;
use std::time::Duration;

/// How to run a comparison, besides the scope and the invariant.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CompareOptions {
    /// BEAPI's builders. They must be able to build every structure; for
    /// structures whose shape depends on history (balanced trees), include
    /// removals.
    pub builders: Builders,
    /// Scope for builders identification (`Builders::Auto`).
    pub builder_scope: u32,
    /// Where identified builders are cached; `None` disables the cache.
    pub cache_dir: Option<PathBuf>,
    /// `Class.field` names left out of the canonical form, on both sides.
    pub omit: Vec<String>,
    /// How many representative witnesses per side get DOT and SVG pictures.
    pub pictures: usize,
    /// Also run BEAPI at scopes `scope + 1 ..= scope + recheck` (0: not at
    /// all), one at a time until each invariant-only witness is built, and
    /// mark those the API builds there. Red-black trees need up to 3.
    pub recheck: u32,
    /// Stops BEAPI early (the comparison then says it is incomplete).
    pub time_limit: Option<Duration>,
    /// BEAPI's lists for `Vec<u8>` parameters (see [`BeapiConfig::list_length`]).
    pub list_length: u32,
    /// Elements allowed in a collection, on both sides; `None`: the scope.
    pub collection_length: Option<u32>,
    /// BEAPI's longest sequences (see [`BeapiConfig::max_length`]).
    pub max_length: Option<u32>,
}

impl Default for CompareOptions {
    fn default() -> Self {
        CompareOptions {
            builders: Builders::Auto,
            builder_scope: 5,
            cache_dir: None,
            omit: Vec::new(),
            pictures: 3,
            recheck: 1,
            time_limit: None,
            list_length: BeapiConfig::default().list_length,
            collection_length: None,
            max_length: None,
        }
    }
}

/// A comparison's settings, as the events record them.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CompareSettings {
    pub scope: u32,
    pub invariant: String,
    pub builders: Builders,
    pub builder_scope: u32,
    pub omit: Vec<String>,
    pub pictures: usize,
    pub recheck: u32,
    pub time_limit: Option<Duration>,
    #[serde(default = "default_list_length")]
    pub list_length: u32,
    #[serde(default)]
    pub collection_length: Option<u32>,
    #[serde(default)]
    pub max_length: Option<u32>,
}

/// Settings recorded before lists had a length setting here.
fn default_list_length() -> u32 {
    BeapiConfig::default().list_length
}

impl CompareSettings {
    /// The settings of a comparison at `scope` against `invariant` with `options`.
    pub fn new(scope: u32, invariant: String, options: &CompareOptions) -> Self {
        CompareSettings {
            scope,
            invariant,
            builders: options.builders.clone(),
            builder_scope: options.builder_scope,
            omit: options.omit.clone(),
            pictures: options.pictures,
            recheck: options.recheck,
            time_limit: options.time_limit,
            list_length: options.list_length,
            collection_length: options.collection_length,
            max_length: options.max_length,
        }
    }
}
