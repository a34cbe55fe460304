//! The functions instrumented code calls, by the names SanitizerCoverage
//! gives them. Each hands over to [`super::guards`] or
//! [`super::comparisons`].

use super::{comparisons, control_flow, guards};

/// Called by each instrumented module at start.
///
/// # Safety
/// `start..stop` are the module's guards, as SanitizerCoverage passes them.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __sanitizer_cov_trace_pc_guard_init(start: *mut u32, stop: *mut u32) {
    // SAFETY: as the caller promises.
    unsafe { guards::add_module(start, stop) }
}

/// Called by each instrumented module at start, after its guards.
///
/// # Safety
/// `start..end` is the module's table, as SanitizerCoverage passes it.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __sanitizer_cov_pcs_init(start: *const usize, end: *const usize) {
    // SAFETY: as the caller promises.
    unsafe { guards::add_addresses(start, end) }
}

/// Called by each instrumented module at start: its control-flow graph.
///
/// # Safety
/// `start..end` is the module's table, as SanitizerCoverage passes it.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __sanitizer_cov_cfs_init(start: *const usize, end: *const usize) {
    // SAFETY: as the caller promises.
    unsafe { control_flow::add_table(start, end) }
}

/// Called on every instrumented edge.
///
/// # Safety
/// `guard` is one of the guards handed to [`__sanitizer_cov_trace_pc_guard_init`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __sanitizer_cov_trace_pc_guard(guard: *mut u32) {
    // SAFETY: as the caller promises.
    unsafe { guards::take(guard) }
}

/// On x86_64 each comparison callback is two instructions that put the
/// return address (its caller, the site) in the third argument's register
/// and jump to a function taking it: stable Rust has no other way to read
/// a caller's address.
#[cfg(target_arch = "x86_64")]
macro_rules! comparison_callbacks {
    ($($name:ident, $record:ident: $operand:ty, $bytes:literal, $constant:literal;)*) => {$(
        /// A comparison's operands, before it is made.
        #[unsafe(naked)]
        #[unsafe(no_mangle)]
        pub extern "C" fn $name(_: $operand, _: $operand) {
            core::arch::naked_asm!("mov rdx, qword ptr [rsp]", "jmp {record}", record = sym $record)
        }

        extern "C" fn $record(left: $operand, right: $operand, caller: usize) {
            comparisons::compare(caller, u64::from(left), u64::from(right), $bytes, $constant)
        }
    )*};
}

/// Elsewhere the sites are unknown, and nothing is recorded.
#[cfg(not(target_arch = "x86_64"))]
macro_rules! comparison_callbacks {
    ($($name:ident, $record:ident: $operand:ty, $bytes:literal, $constant:literal;)*) => {$(
        /// A comparison's operands (not recorded on this architecture).
        #[unsafe(no_mangle)]
        pub extern "C" fn $name(_: $operand, _: $operand) {}
    )*};
}

comparison_callbacks!(
    __sanitizer_cov_trace_cmp1, record_cmp1: u8, 1, false;
    __sanitizer_cov_trace_cmp2, record_cmp2: u16, 2, false;
    __sanitizer_cov_trace_cmp4, record_cmp4: u32, 4, false;
    __sanitizer_cov_trace_cmp8, record_cmp8: u64, 8, false;
    __sanitizer_cov_trace_const_cmp1, record_const_cmp1: u8, 1, true;
    __sanitizer_cov_trace_const_cmp2, record_const_cmp2: u16, 2, true;
    __sanitizer_cov_trace_const_cmp4, record_const_cmp4: u32, 4, true;
    __sanitizer_cov_trace_const_cmp8, record_const_cmp8: u64, 8, true;
);

/// A `match` on `value`, before it is made.
#[cfg(target_arch = "x86_64")]
#[unsafe(naked)]
#[unsafe(no_mangle)]
pub extern "C" fn __sanitizer_cov_trace_switch(_value: u64, _cases: *const u64) {
    core::arch::naked_asm!("mov rdx, qword ptr [rsp]", "jmp {record}", record = sym record_switch)
}

#[cfg(target_arch = "x86_64")]
unsafe extern "C" fn record_switch(value: u64, cases: *const u64, caller: usize) {
    // SAFETY: SanitizerCoverage's table of the `match`'s cases.
    unsafe { comparisons::switch(caller, value, cases) }
}

/// A `match` on `value` (not recorded on this architecture).
#[cfg(not(target_arch = "x86_64"))]
#[unsafe(no_mangle)]
pub extern "C" fn __sanitizer_cov_trace_switch(_value: u64, _cases: *const u64) {}
