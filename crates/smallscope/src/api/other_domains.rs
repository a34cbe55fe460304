//! [`OtherDomains`]: the values of the other-subject parameters of a
//! subject's operations, worked out before a run calls them.

use std::any::TypeId;
use std::sync::Arc;

use super::other::{OtherSubject, UnderWay};
use super::Operation;
use crate::beapi::BeapiConfig;
use crate::runner::{Killed, StopFlag};
use crate::sequence::Literal;

/// The values of the other-subject parameters of some operations, one set
/// per type, with a note on each type.
#[derive(Debug, Default, Clone)]
pub struct OtherDomains {
    by_type: Vec<(TypeId, &'static str, Arc<[Literal]>)>,
    pub notes: Vec<String>,
}

impl OtherDomains {
    /// Works out the structures of every type that `ops`, operations of
    /// subject `T`, take, under `config` (its scope and domains), stepping
    /// past `killed` inputs. A type whose API leads back to `T` gets no
    /// values of `T`.
    pub fn of<'o, T: 'static>(
        ops: impl IntoIterator<Item = &'o Operation<T>>,
        config: &BeapiConfig,
        killed: &[Killed],
        stop: Option<&StopFlag>,
    ) -> Self {
        let _asking = UnderWay::enter(TypeId::of::<T>());
        let mut domains = OtherDomains::default();
        for op in ops {
            for param in &op.others {
                let id = (param.subject.type_id)();
                if domains.by_type.iter().any(|(known, ..)| *known == id) {
                    continue;
                }
                let found = param.subject.structures(config, killed, stop);
                domains.by_type.push((id, param.subject.type_name(), found.values));
                domains.notes.push(found.note);
            }
        }
        domains
    }

    /// The values for a parameter of `subject`'s type (none when the type was not worked out).
    pub fn values(&self, subject: &OtherSubject) -> &[Literal] {
        let id = (subject.type_id)();
        self.by_type.iter().find(|(known, ..)| *known == id).map_or(&[], |(.., values)| values)
    }

    /// The values of the type named `type_name`, smallest first.
    pub fn values_of(&self, type_name: &str) -> &[Literal] {
        self.by_type.iter().find(|(_, name, _)| *name == type_name).map_or(&[], |(.., values)| values)
    }
}
