//! The bounds of a BEAPI search (`smallscope_args::bounds::SearchBounds`,
//! the flags of every command that runs BEAPI), written over its config.

use smallscope::beapi::BeapiConfig;
use smallscope_args::bounds::SearchBounds;

use crate::BadInput;

/// Writes the bounds given over `config`.
pub fn apply(bounds: &SearchBounds, config: &mut BeapiConfig) -> Result<(), BadInput> {
    if let Some(length) = bounds.list_length {
        config.list_length = length;
    }
    if let Some(length) = bounds.collection_length {
        config.collection_length = Some(length);
    }
    if let Some(max) = bounds.max_length {
        if max == 0 {
            return Err(BadInput("--max-length must be at least 1 (got 0)".into()));
        }
        config.max_length = Some(max);
    }
    Ok(())
}
