//! The bounds of a BEAPI search, as flags: one definition for every
//! command that runs BEAPI (`beapi`, `builders`, `compare`, `suite`).

use smallscope::beapi::BeapiConfig;

use crate::BadInput;

/// How far a BEAPI search goes besides its scope.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct SearchBounds {
    /// Lists for `Vec<u8>` / `&[u8]` parameters: every list of at most N integers (default 2).
    #[arg(long, value_name = "N")]
    pub list_length: Option<u32>,
    /// At most N elements in each collection field of a structure (`Vec`, `VecDeque`, maps,
    /// sets, characters of a `String`); a longer one is out of scope (default: the scope).
    #[arg(long, value_name = "N")]
    pub collection_length: Option<u32>,
    /// Stop after sequences of this many calls.
    #[arg(long, value_name = "L")]
    pub max_length: Option<u32>,
}

impl SearchBounds {
    /// Writes the bounds given over `config`.
    pub fn apply(&self, config: &mut BeapiConfig) -> Result<(), BadInput> {
        if let Some(length) = self.list_length {
            config.list_length = length;
        }
        if let Some(length) = self.collection_length {
            config.collection_length = Some(length);
        }
        if let Some(max) = self.max_length {
            if max == 0 {
                return Err(BadInput("--max-length must be at least 1 (got 0)".into()));
            }
            config.max_length = Some(max);
        }
        Ok(())
    }

    /// The flags given, as a command line repeats them.
    pub fn flags(&self) -> Vec<String> {
        let given = [
            ("--list-length", self.list_length),
            ("--collection-length", self.collection_length),
            ("--max-length", self.max_length),
        ];
        given.into_iter().filter_map(|(flag, value)| value.map(|v| format!("{flag} {v}"))).collect()
    }

    /// The same flags as separate arguments, for a child command.
    pub fn args(&self) -> Vec<String> {
        self.flags().iter().flat_map(|flag| flag.split(' ').map(str::to_owned).collect::<Vec<_>>()).collect()
    }
}
