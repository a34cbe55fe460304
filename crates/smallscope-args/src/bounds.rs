//! The bounds of a BEAPI search, as flags: one definition for every
//! command that runs BEAPI (`beapi`, `builders`, `compare`, `suite`).

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
