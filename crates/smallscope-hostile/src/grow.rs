//! `hostile-grow`: a type whose state grows without bound, so that a run
//! only ends at its time limit or a signal.
//!
//! - **API**: `new`, `feed(byte: u8)`, which counts the byte and mixes it
//!   into a 64-bit digest, and `digest`. Every sequence of feeds gives a
//!   state of its own: with the bytes 0..4 (scope 4) BEAPI's level `n`
//!   holds 4^(n-1) new structures, and no level is ever empty. The scope
//!   bounds objects and collections, not the values of integer fields.
//! - **What a run does** (`beapi hostile-grow --scope 4 --time-limit 20
//!   --out D`): it keeps millions of structures, and writing
//!   `structures.jsonl` takes longer than the run may: the writing is cut
//!   at the limit, the summary lists the file as partial and the staging
//!   folder stays for `--resume` to write it whole. SIGTERM or a second
//!   Ctrl-C while it writes end the run at once (143, 130).
//! - No finding: the code is correct, only large.

use smallscope::Heap;

/// A running checksum of the bytes fed to it.
#[derive(Heap, Clone, Debug, Default)]
pub struct Checksum {
    count: u64,
    digest: u64,
}

#[smallscope::api(register("hostile-grow" = Checksum))]
impl Checksum {
    pub fn new() -> Self {
        Checksum { count: 0, digest: 0xcbf2_9ce4_8422_2325 }
    }

    pub fn feed(&mut self, byte: u8) {
        self.count += 1;
        self.digest = (self.digest ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }

    pub fn digest(&self) -> u64 {
        self.digest
    }
}
