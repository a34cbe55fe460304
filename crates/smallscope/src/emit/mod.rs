//! Sinks: turn reports into files.
