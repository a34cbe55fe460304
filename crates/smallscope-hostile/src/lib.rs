//! Hostile subjects: types that hang, crash, exit or exhaust memory on one
//! deterministic state, for end-to-end tests of the supervisor that
//! survives each misbehaviour and reports it as a finding. They are written
//! as an ordinary user writes types (plain structs, `Box` nodes, `u8`
//! parameters, derived `Clone` and `Debug`, a hand-written `Clone` or `Drop`
//! only where the misbehaviour lives) and use only smallscope's public API.
//! They are not linked into the `smallscope` binary.
//!
//! The harness binary `smallscope-hostile` is the smallscope command line
//! with these subjects linked in (and not the built-in ones):
//!
//! ```ignore
//! fn main() -> std::process::ExitCode {
//!     smallscope_hostile::link();
//!     smallscope_cli::main()
//! }
//! ```
//!
//! `tests/survive.rs` runs every subject end to end through that binary
//! (`beapi`, `random` and `korat`) and checks each finding, the structures
//! kept in `--out` and the run's end; the crate's unit tests (`src/tests.rs`)
//! run in-process, on the trigger predicates, on near misses of the triggers,
//! and through the engines only on the subjects whose misbehaviour is a
//! panic.
//!
//! # What a run does with them
//!
//! The `smallscope` command (and the harness) runs each run's engine in a
//! worker process under a supervisor. Every misbehaviour here (the memory
//! ones under `--memory-limit-mb`) is a failure finding in the run's
//! summary (`summary.json`, `--format json`, `events.ndjson`), with its
//! `kind`, `during` (the user code that misbehaved: `call`, `clone`, `drop`,
//! `rep-ok` or `check`), `operation` and a witness, and a run that finds one
//! exits with status 1. A panic is
//! caught in the worker. When the worker dies (a stack overflow, an abort,
//! an exit, an allocation past `--memory-limit-mb`) or hangs (a call, clone,
//! drop or check that does not return within `--call-timeout`), the
//! supervisor reads from a shared flight recorder which input was running,
//! restarts the worker from the run's last commit past that input (the
//! summary counts `restarts`), and the run goes on to its end. Under
//! `--memory-limit-mb` the worker's engine thread, where BEAPI and random
//! call user code, gets a stack of a quarter of the limit (at least 8 MiB,
//! at most 256 MiB), so unbounded recursion there is still a
//! `stack-overflow`, within the limit.
//!
//! In library mode (`Beapi::run`, `Random::run`, `korat::run` in a
//! `#[test]`) and with `--no-isolation`, a hang is still survived (the call
//! timeout, 10 s by default, leaves the stuck thread behind and the run goes
//! on in a new one) and panics are caught, but a stack overflow, an abort,
//! an exit or a runaway allocation ends the process.
//!
//! # The API subjects
//!
//! Each wraps a [`Stack`], a stack of `u8` as a singly linked list of `Box`
//! nodes (each node an object, so the scope bounds the length), with the
//! operations `new`, `push(x: u8)`, `pop` (`Err(Empty)` on the empty stack:
//! API misuse), `len` and the invariant `rep_ok`. The subjects that
//! misbehave in `push` or `rep_ok` are [`HostileStack<H>`](HostileStack),
//! registered once per marker type `H` that says what goes wrong (the way
//! the built-in subjects register their planted bugs), with derived `Clone`
//! and `Debug`; those that misbehave in `Clone` are [`HostileClone<C>`](HostileClone),
//! whose `Clone` is written by hand; the one that misbehaves in `Drop` is
//! the newtype [`PanickingDrop`](panic_drop::PanickingDrop). Each module
//! holds one subject's marker (or type) and says how it misbehaves.
//!
//! With `smallscope beapi <subject> --scope 3 --builders new,push` (integer
//! arguments `0..3`), level k makes the stacks of length k-1: 1, 3, 9 and
//! 27 of them, 40 in all, and level 5 makes none (its pushes pass the
//! scope). Within a level, stacks are made in the order of the stacks they
//! extend, and for each of those in the order of the argument 0, 1, 2.
//! Always name the builders: with `auto`, hill climbing first runs the
//! subject at `--builder-scope` 5 and meets the trigger there.
//!
//! The trigger call of the push subjects is **`push(0)` on `[2, 1]`** (2 on
//! top of 1; stacks are written top first). Its shortest sequence is
//! [`WITNESS`], `s0 = new(); s0.push(1); s0.push(2); s0.push(0)` (4 calls,
//! level 4). Before level 4 there are [`STRUCTURES_BEFORE_TRIGGER_LEVEL`]
//! structures (1 + 3 + 9); `[2, 1]` is the 6th stack of level 3, so 15
//! stacks of level 4 come before the trigger call: [`STRUCTURES_BEFORE_TRIGGER`]
//! structures exist when it runs. The `Clone` subjects misbehave on the
//! value `[2, 1]`, which BEAPI first clones for that same call; the
//! `rep_ok` subjects on `[0, 2, 1]`, the value that call makes.
//!
//! What `beapi <subject> --scope 3 --builders new,push --call-timeout 2`
//! reports (`--memory-limit-mb 64` for the two memory subjects). The
//! witness W is [`WITNESS`]; C is `s0 = new(); s0.push(1); s0.push(2);
//! s0.clone()`; D is `s0 = new(); s0.push(1); s0.push(2); drop(s0)`. "Made
//! in all" is 39 when the trigger call makes nothing (`[0, 2, 1]` is
//! missing) and 40 when everything is made.
//!
//! | name | trigger | finding (`kind`) | `during` | `operation` | witness | worker restarted | structures made before it | made in all |
//! |---|---|---|---|---|---|---|---|---|
//! | `hostile-recursion` | `push(0)` on `[2, 1]` | `stack-overflow` | `call` | `push` | W | yes | 28 | 39 |
//! | `hostile-abort` | `push(0)` on `[2, 1]` | `abort` | `call` | `push` | W | yes | 28 | 39 |
//! | `hostile-exit` | `push(0)` on `[2, 1]` | `exit` (code 3) | `call` | `push` | W | yes | 28 | 39 |
//! | `hostile-loop` | `push(0)` on `[2, 1]` | `hang` | `call` | `push` | W | yes | 28 | 39 |
//! | `hostile-loop-clone` | clone of `[2, 1]` | `hang`, then replay instead of `Clone` | `clone` | `push` | C | yes | 28 | 40 |
//! | `hostile-loop-rep-ok` | `rep_ok` on `[0, 2, 1]` | `hang` | `rep-ok` | `push` | W | yes | 28 | 39 |
//! | `hostile-panic-drop` | drop of `[2, 1]` | `panic` (caught: a failure) | `drop` | none | D | no | 40 (after level 4) | 40 |
//! | `hostile-panic-clone` | clone of `[2, 1]` | `panic` (caught: a failure), then replay instead of `Clone` | `clone` | `push` | C | no | 28 | 40 |
//! | `hostile-alloc-bomb` | `push(0)` on `[2, 1]` | `out-of-memory` (the allocation past the limit) | `call` | `push` | W | yes | 28 | 39 |
//! | `hostile-leak` | every `push` on a non-empty stack leaks 1 MiB | `out-of-memory` when memory reaches 85% of the limit; the run stops there (`stop: memory-limit`) | `call` | `push` | the input that crossed 85% | no | none; 9, 36 and 117 MiB leaked by the ends of levels 3, 4 and 5 | what came before the stop |
//! | `hostile-panic-rep-ok` | `rep_ok` on `[0, 2, 1]` | `panic` (caught: a failure) | `rep-ok` | `push` | W | no | 28 | 39 |
//!
//! `hostile-cyclic-debug` is a ring of `Rc<RefCell<..>>` nodes whose
//! derived `Debug` overflows the stack once `close()` made it cyclic: only
//! the random tester formats values, so only it finds that; see
//! [`cyclic_debug`].
//!
//! Each module's doc says more: how the misbehaviour shows, what
//! `smallscope random` reports, and what library mode and `--no-isolation`
//! survive.
//! The random tester (`smallscope random`) draws `u8` arguments from
//! {0, 1, 2, 3, 10, 100}, so it reaches the same triggers by chance.
//!
//! # The Korat subjects
//!
//! `hostile-korat-loop` (`hang`), `hostile-korat-panic` (`panic`, caught)
//! and `hostile-korat-overflow` (`stack-overflow`) share the model of
//! Korat's `BinaryTree` and misbehave in `rep_ok` on one tree of the 5 at
//! scope 3: each is a failure during `rep-ok` whose witness is that
//! candidate's fields, and the search finds the other 4 trees; see
//! [`korat`].

#![allow(clippy::len_without_is_empty)] // The subjects' API is exactly new, push, pop, len.

pub mod abort;
pub mod alloc_bomb;
pub mod cyclic_debug;
pub mod exit;
pub mod forks;
pub mod grow;
pub mod hostile;
mod hostility;
pub mod huge_debug;
pub mod korat;
pub mod leak;
mod list;
pub mod loop_clone;
pub mod loop_rep_ok;
pub mod looping;
mod misbehave;
pub mod outside_calls;
pub mod panic_clone;
pub mod panic_drop;
pub mod panic_rep_ok;
pub mod recursion;
pub mod repeats;
pub mod signal_parent;
pub mod takes_abort;

pub use hostile::{HostileClone, HostileStack};
pub use hostility::{CloneHostility, Hostility};
pub use list::{Empty, Stack, TRIGGER_AFTER_PUSH, TRIGGER_ARG, TRIGGER_VALUE};

/// The names the API subjects are registered under.
pub const API_SUBJECTS: [&str; 11] = [
    "hostile-recursion",
    "hostile-abort",
    "hostile-exit",
    "hostile-loop",
    "hostile-loop-clone",
    "hostile-loop-rep-ok",
    "hostile-panic-drop",
    "hostile-panic-clone",
    "hostile-alloc-bomb",
    "hostile-leak",
    "hostile-panic-rep-ok",
];

/// The names the Korat subjects are registered under.
pub const KORAT_SUBJECTS: [&str; 3] = ["hostile-korat-loop", "hostile-korat-panic", "hostile-korat-overflow"];

/// The shortest sequence that makes the trigger call `push(0)` on `[2, 1]`,
/// as BEAPI writes it (`--scope 3 --builders new,push`).
pub const WITNESS: &str = "s0 = new(); s0.push(1); s0.push(2); s0.push(0)";

/// Structures BEAPI makes before level 4, the trigger's level: 1 + 3 + 9.
pub const STRUCTURES_BEFORE_TRIGGER_LEVEL: usize = 13;

/// Structures BEAPI has made when the trigger call runs: the 13 of levels
/// 1 to 3 and the 15 of level 4 that extend the 5 stacks made before `[2, 1]`.
pub const STRUCTURES_BEFORE_TRIGGER: usize = 28;

/// Does nothing. A harness binary calls it so that the linker keeps this
/// crate, and with it the subjects' registrations (as
/// `smallscope_subjects::ensure_linked` does for the built-in subjects).
pub fn link() {}

#[cfg(test)]
mod tests;
