//! Parameters of another registered subject: `order: &Order` or
//! `order: &mut Order` in the API of an `Inventory`.
//!
//! Their values are the other subject's own structures. Before a run calls
//! an operation that takes one, BEAPI runs the other subject with the run's
//! scope and domains and all of its operations, and each structure it
//! counts becomes a [`Literal::Other`]: the calls that build it, and the
//! same calls as a Rust block for generated tests, such as
//! `s0.restock(&{ let mut s0 = <Order>::new(); s0.want(1); s0 })`. Each call
//! gets a value of its own, built by those calls when the operation reads
//! its argument, so a `&mut` argument changed by one call is not seen by
//! the next. The random engine draws from the structures at its
//! [`other_scope`](crate::random::RandomConfig::other_scope).
//!
//! The structures of a type are worked out once per process and settings.
//! A type whose API leads back to itself (`A` takes `&B` and `B` takes
//! `&A`) gets no values where the cycle closes: the operation that would
//! need them is not called, and a note says so.

use std::any::{Any, TypeId};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::beapi::BeapiConfig;
use crate::events::Stop;
use crate::runner::{Killed, StopFlag};
use crate::sequence::{Literal, OtherValue};
use crate::ConfigError;

/// An argument of another subject's type in its slot: planned until the
/// operation reads it, then built.
#[derive(Debug)]
pub enum OtherArg {
    Planned(Arc<OtherValue>),
    Built(Box<dyn Any>),
}

/// Where the values of a parameter `&S` come from: `S`'s own structures.
#[derive(Clone, Copy)]
pub struct OtherSubject {
    pub(super) type_id: fn() -> TypeId,
    type_name: fn() -> &'static str,
    structures: RunOther,
}

/// A BEAPI run of one other subject: its structures, and why the run stopped.
pub(crate) type RunOther =
    fn(&BeapiConfig, &[Killed], Option<&StopFlag>) -> Result<(OtherStructures, Stop), ConfigError>;

impl OtherSubject {
    /// The type `S` whose structures `structures` works out; used by
    /// `#[smallscope::api]` through [`Primitive::OTHER`](super::Primitive::OTHER)
    /// (`crate::other_values` passes BEAPI's run).
    pub(crate) const fn new<S: 'static>(structures: RunOther) -> Self {
        OtherSubject { type_id: TypeId::of::<S>, type_name: std::any::type_name::<S>, structures }
    }

    pub fn type_name(&self) -> &'static str {
        (self.type_name)()
    }

    /// The structures under `config`: worked out once per process and
    /// settings, unless a cycle was cut on the way (what is found then
    /// depends on what was under way). Empty, with a note saying why, when
    /// the type is under way already (a cycle) or cannot be run.
    pub(super) fn structures(
        &self,
        config: &BeapiConfig,
        killed: &[Killed],
        stop: Option<&StopFlag>,
    ) -> OtherStructures {
        type Known = Mutex<HashMap<(TypeId, String), OtherStructures>>;
        static KNOWN: OnceLock<Known> = OnceLock::new();
        let id = (self.type_id)();
        let key = (id, serde_json::to_string(config).expect("settings serialize"));
        let known = KNOWN.get_or_init(Known::default);
        if let Some(found) = known.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return found.clone();
        }
        let empty = |why: String| OtherStructures {
            values: Arc::from([]),
            note: format!("`&{}` gets no values: {why}", self.type_name()),
        };
        if UNDER_WAY.with(|under_way| under_way.borrow().contains(&id)) {
            CYCLES_CUT.with(|cut| cut.set(cut.get() + 1));
            return empty(
                "its API leads back, through others, to a type under way, so the operations that close the \
                 cycle are not called"
                    .into(),
            );
        }
        let cuts_before = CYCLES_CUT.with(Cell::get);
        let found = {
            let _under_way = UnderWay::enter(id);
            (self.structures)(config, killed, stop)
        };
        let cut = CYCLES_CUT.with(Cell::get) != cuts_before;
        match found {
            Ok((found, Stop::Complete)) if !cut => {
                known.lock().unwrap_or_else(|e| e.into_inner()).insert(key, found.clone());
                found
            }
            Ok((found, _)) => found,
            Err(error) => empty(error.to_string()),
        }
    }
}

thread_local! {
    /// The types whose structures are being worked out on this thread,
    /// and the subject of the run that asked, outermost first.
    static UNDER_WAY: RefCell<Vec<TypeId>> = const { RefCell::new(Vec::new()) };
    /// How many cycles were cut on this thread.
    static CYCLES_CUT: Cell<u64> = const { Cell::new(0) };
}

/// A type under way on this thread, until dropped.
pub(super) struct UnderWay;

impl UnderWay {
    pub(super) fn enter(id: TypeId) -> Self {
        UNDER_WAY.with(|under_way| under_way.borrow_mut().push(id));
        UnderWay
    }
}

impl Drop for UnderWay {
    fn drop(&mut self) {
        UNDER_WAY.with(|under_way| under_way.borrow_mut().pop());
    }
}

impl std::fmt::Debug for OtherSubject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("OtherSubject").field(&self.type_name()).finish()
    }
}

/// The structures of another subject, ready to pass, and what the user
/// should know about them.
#[derive(Debug, Clone)]
pub struct OtherStructures {
    pub values: Arc<[Literal]>,
    pub note: String,
}

/// A parameter slot that takes another subject.
#[derive(Debug, Clone, Copy)]
pub struct OtherParam {
    pub slot: usize,
    pub subject: OtherSubject,
}

impl OtherParam {
    /// The slots that take another subject, from each slot's
    /// [`Primitive::OTHER`](super::Primitive::OTHER); used by derived code.
    pub fn in_slots(slots: &[(usize, Option<OtherSubject>)]) -> Vec<OtherParam> {
        slots.iter().filter_map(|&(slot, subject)| Some(OtherParam { slot, subject: subject? })).collect()
    }
}
