//! The process's memory use, for reports and memory limits (Linux `/proc`;
//! elsewhere these report nothing and limits are not enforced).

fn status_kib(key: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(key))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Peak resident set size in bytes (`VmHWM`).
pub fn peak_memory_bytes() -> Option<u64> {
    status_kib("VmHWM:").map(|kib| kib * 1024)
}

/// Current resident set size in bytes (`VmRSS`).
pub fn resident_memory_bytes() -> Option<u64> {
    status_kib("VmRSS:").map(|kib| kib * 1024)
}
