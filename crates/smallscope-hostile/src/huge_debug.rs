//! `hostile-huge-debug`: a counter whose `report` returns a value whose
//! `Debug` text is 4 GiB, and whose own `Debug` is as long once it counts 3.
//!
//! - **API**: `new`, `bump`, and `report`, which returns a [`Report`].
//! - **Misbehaviour**: `Debug` writes 4 GiB, 1 MiB at a time, passing up
//!   the writer's errors as derived `Debug` does.
//! - **What a run does** (`random hostile-huge-debug --sequences 2000`):
//!   a returned value's text is cut at 64 KiB (marked so) and the run ends
//!   in seconds; the `debug-does-not-panic` contract fails on the counters
//!   of 3 or more, whose `Debug` passes 16 MiB: one failure group, exit 1.
//! - **Before**: each rendering wrote 4 GiB, and the run never ended.

use std::fmt;

use smallscope::Heap;

/// Bytes a huge `Debug` writes.
const HUGE: usize = 4 << 30;

/// Writes `HUGE` bytes of `x`, stopping at the writer's first error.
fn write_huge(f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let chunk = "x".repeat(1 << 20);
    for _ in 0..HUGE / chunk.len() {
        f.write_str(&chunk)?;
    }
    Ok(())
}

/// What `report` returns.
pub struct Report;

impl fmt::Debug for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_huge(f)
    }
}

/// The counter.
#[derive(Heap, Clone, Default, PartialEq, Eq, Hash)]
pub struct HugeDebug {
    count: u8,
}

impl fmt::Debug for HugeDebug {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.count {
            0..3 => write!(f, "HugeDebug({})", self.count),
            _ => write_huge(f),
        }
    }
}

#[smallscope::api(register("hostile-huge-debug" = HugeDebug))]
impl HugeDebug {
    pub fn new() -> Self {
        HugeDebug::default()
    }

    pub fn bump(&mut self) {
        self.count = self.count.saturating_add(1);
    }

    pub fn report(&self) -> Report {
        Report
    }
}
