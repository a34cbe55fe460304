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

/// The worker memory limit when none is given: half the machine's memory
/// (or of the container's, when a cgroup limits it), so that code under
/// test that allocates without end is stopped as an `out-of-memory`
/// failure, with what was found kept, before the system's OOM killer ends
/// the run with nothing to say; and within [`address_space_cap`].
pub fn default_limit_bytes() -> Option<u64> {
    let machine = status_kib("/proc/meminfo", "MemTotal:").map(|kib| kib * 1024 / 2);
    let container = cgroup_limit_bytes().map(|bytes| bytes / 2);
    [machine, container, address_space_cap()].into_iter().flatten().min()
}

/// The largest memory limit the address space each process may have
/// (`ulimit -v`) leaves room for: a quarter of it, since stacks, allocator
/// arenas and a growing vector's old and new buffers count there too. Past
/// it an allocation fails and the process aborts with nothing written.
pub fn address_space_cap() -> Option<u64> {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: `getrlimit` only writes the struct it is given.
    let read = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } == 0;
    (read && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur / 4)
}

/// The memory limit of this process's cgroup, if it has one: v2's
/// `memory.max` or v1's `memory.limit_in_bytes`, under the cgroup's own
/// path or, in a container that sees only its cgroup, at the root.
fn cgroup_limit_bytes() -> Option<u64> {
    let cgroups = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    let own =
        |prefix: &str| cgroups.lines().find_map(|line| line.strip_prefix(prefix)).map(|p| p.trim_end_matches('/'));
    let mut files = Vec::new();
    if let Some(path) = own("0::") {
        files.extend([format!("/sys/fs/cgroup{path}/memory.max"), "/sys/fs/cgroup/memory.max".to_owned()]);
    }
    let v1 = cgroups.lines().find_map(|line| line.split_once(":memory:").map(|(_, path)| path.trim_end_matches('/')));
    if let Some(path) = v1 {
        files.extend([
            format!("/sys/fs/cgroup/memory{path}/memory.limit_in_bytes"),
            "/sys/fs/cgroup/memory/memory.limit_in_bytes".to_owned(),
        ]);
    }
    // "max", or v1's page-rounded `i64::MAX`, when there is no limit.
    files.iter().find_map(|file| std::fs::read_to_string(file).ok()?.trim().parse().ok()).filter(|&b: &u64| b < 1 << 60)
}
