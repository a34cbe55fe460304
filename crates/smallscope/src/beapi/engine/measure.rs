//! A run that measures edges instead of searching (see
//! [`MeasureEdges`](crate::beapi::MeasureEdges)): the calls a suite's
//! tests would make on its structures, traced.

use super::Search;
use crate::api::{ParamKind, Subject};
use crate::beapi::MeasureEdges;
use crate::events::Stop;

impl<T: Subject> Search<'_, T> {
    /// Builds each of `measure.kept` again, then calls every operation that
    /// takes a structure on each (builders too, as checks: what they make
    /// is checked and dropped), with every argument of its domains. The
    /// user's edges all those calls took end the run.
    pub(in crate::beapi) fn measure(mut self, measure: &MeasureEdges) -> Stop {
        self.structures = measure.structures.clone();
        self.objects = (0..self.structures.len()).map(|_| None).collect();
        let on_structures: Vec<usize> = (0..self.ops.len())
            .filter(|&op| self.ops[op].params.iter().any(|kind| matches!(kind, ParamKind::Subject(_))))
            .collect();
        self.check_limits();
        let ((), trace) = crate::edges::traced(|| {
            // The calls that build a structure are its test's calls too.
            for &index in &measure.kept {
                self.objects[index as usize] = self.replay(index);
            }
            for &op in &on_structures {
                for &index in &measure.kept {
                    if self.stop.is_some() {
                        return;
                    }
                    self.extend_with(op, index as usize..index as usize + 1, true);
                }
            }
        });
        let stop = self.stop.unwrap_or(Stop::Complete);
        self.finish(stop, trace.edges)
    }
}
