//! `cargo smallscope` on a crate nobody here wrote: `fixtures/slab-wrapper`,
//! a newtype over `slab` from crates.io (pulled when this test builds it),
//! walked `#[heap(with = ..)]` because `#[derive(Heap)]` cannot go on a
//! foreign type. `init`, then `beapi` and `random`, then `cargo test` in
//! the wrapper crate with the tests they wrote.

use crate::common;

use std::collections::BTreeSet;

use common::{cargo_smallscope, cargo_smallscope_with, initialized, summary};
use smallscope_scratch_crate::ScratchCrate;

/// What the walk shows of a slab: the key the next insert takes, and the
/// entries.
type Seen = (usize, Vec<(usize, u8)>);

/// A slab as the crate documents it: freed keys are reused last freed first.
#[derive(Clone, Default)]
struct ModelSlab {
    slots: Vec<Result<u8, usize>>, // a value, or the next freed key
    next: usize,
}

impl ModelSlab {
    fn insert(&mut self, value: u8) {
        let key = self.next;
        if key == self.slots.len() {
            self.slots.push(Ok(value));
            self.next = key + 1;
        } else if let Err(next) = self.slots[key] {
            self.slots[key] = Ok(value);
            self.next = next;
        }
    }

    fn remove(&mut self, key: usize) -> bool {
        match self.slots.get(key) {
            Some(Ok(_)) => {
                self.slots[key] = Err(self.next);
                self.next = key;
                true
            }
            _ => false,
        }
    }

    fn seen(&self) -> Seen {
        let entries = self.slots.iter().enumerate().filter_map(|(k, s)| s.ok().map(|v| (k, v))).collect();
        (self.next, entries)
    }
}

/// Every state `new` and up to `calls` inserts and removes (values and
/// keys 0..3) reach, as the walk shows it.
fn reachable(calls: usize) -> BTreeSet<Seen> {
    let mut frontier = vec![ModelSlab::default()];
    let mut seen: BTreeSet<Seen> = frontier.iter().map(ModelSlab::seen).collect();
    for _ in 0..calls {
        let mut next = Vec::new();
        for slab in &frontier {
            for n in 0..3 {
                let mut inserted = slab.clone();
                inserted.insert(n as u8);
                next.push(inserted);
                let mut removed = slab.clone();
                if removed.remove(n) {
                    next.push(removed);
                }
            }
        }
        seen.extend(next.iter().map(ModelSlab::seen));
        frontier = next;
    }
    seen
}

#[test]
fn a_wrapper_over_slab_gets_tests_that_pass_in_its_crate() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = initialized("slab-wrapper", tmp.path());

    // `max-length = 4` comes from the crate's [package.metadata.smallscope.beapi].
    let beapi = cargo_smallscope(&dir, &["beapi", "slots", "--scope", "3"]);
    assert_eq!(beapi.code, 0, "{beapi:?}");
    assert!(beapi.stdout.contains("replay: cargo smallscope beapi slots --scope 3 --max-length 4"), "{}", beapi.stdout);
    let structures = summary("slots", "beapi")["structures"].as_u64().unwrap();
    assert_eq!(structures, reachable(3).len() as u64, "new and at most three calls");

    // The seed comes from the environment.
    let random = cargo_smallscope_with(&dir, &["random", "slots", "--sequences", "3000"], &[("SMALLSCOPE_SEED", "7")]);
    assert_eq!(random.code, 0, "{random:?}");
    assert!(
        random.stdout.contains("replay: cargo smallscope random slots --seed 7 --sequences 3000"),
        "{}",
        random.stdout
    );
    let regression = summary("slots", "random")["regression_test_count"].as_u64().unwrap();
    assert!(regression > 0);

    let run = ScratchCrate::open(&dir).cargo_test_file("smallscope_slots");
    assert!(run.success, "{}", run.text);
    assert_eq!(run.passed(), structures + regression, "{}", run.text);

    // The files are as rustfmt leaves them.
    let rustfmt = std::process::Command::new("rustfmt")
        .args(["--check", "--edition", "2021"])
        .arg(dir.join("tests/smallscope_slots.rs"))
        .output()
        .expect("rustfmt runs");
    assert!(rustfmt.status.success(), "{}", String::from_utf8_lossy(&rustfmt.stdout));
    let header = std::fs::read_to_string(dir.join("tests/smallscope_slots/beapi.rs")).unwrap();
    assert!(header.contains("Regenerate with: cargo smallscope beapi slots --scope 3 --max-length 4"), "{header}");
}
