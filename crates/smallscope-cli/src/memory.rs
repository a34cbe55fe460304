//! Memory use, for reports and limits (Linux `/proc` and `getrusage`;
//! elsewhere these report nothing).

fn status_kib(path: &str, key: &str) -> Option<u64> {
    let status = std::fs::read_to_string(path).ok()?;
    let line = status.lines().find(|l| l.starts_with(key))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// This process's peak resident set size in bytes (`VmHWM`).
pub fn peak_memory_bytes() -> Option<u64> {
    status_kib("/proc/self/status", "VmHWM:").map(|kib| kib * 1024)
}

/// This process's resident set size in bytes (`VmRSS`).
pub fn resident_bytes() -> Option<u64> {
    status_kib("/proc/self/status", "VmRSS:").map(|kib| kib * 1024)
}

/// The resident set size of process `pid`, in bytes.
pub fn resident_bytes_of(pid: u32) -> Option<u64> {
    status_kib(&format!("/proc/{pid}/status"), "VmRSS:").map(|kib| kib * 1024)
}

/// The worker memory limit when none is given: half the machine's memory,
/// so that code under test that allocates without end is stopped as an
/// `out-of-memory` failure, with what was found kept, before the system's
/// OOM killer ends the run with nothing to say.
pub fn default_limit_bytes() -> Option<u64> {
    status_kib("/proc/meminfo", "MemTotal:").map(|kib| kib * 1024 / 2)
}
